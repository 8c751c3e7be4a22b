"""Snakemake's scheduler re-plans about once per finished job, not ever faster (scheduler.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from budgetboost.pipeline.scheduler import one_pending_reevaluation

ROOT = Path(__file__).resolve().parents[2]

#: Runs the real snakemake in this process, counting its scheduling passes (the job
#: selector's calls); prints the count and the wall seconds of the run.
RUNNER = """
import sys, time
from snakemake.scheduling.job_scheduler import JobScheduler
passes = 0
select = JobScheduler.job_selector
def counted(self, jobs):
    global passes
    passes += 1
    return select(self, jobs)
JobScheduler.job_selector = counted
from snakemake.cli import main
start = time.monotonic()
try:
    main(["--cores", "2", "--quiet", "all", "--snakefile", sys.argv[1]])
finally:
    print(passes, time.monotonic() - start)
"""

SNAKEFILE = """
import sys
sys.path.insert(0, {root!r})
from budgetboost.pipeline.scheduler import one_pending_reevaluation
one_pending_reevaluation()

rule all:
    input: expand("out/{{i}}.txt", i=range({jobs}))

rule one:
    output: "out/{{i}}.txt"
    shell: "sleep 0.2; touch {{output}}"
"""


def test_the_patch_is_idempotent():
    assert one_pending_reevaluation() is True
    assert one_pending_reevaluation() is True


@pytest.mark.slow
def test_scheduling_passes_stay_about_one_per_finished_job(tmp_path):
    """Unpatched (Snakemake 9.27), 60 jobs of 0.2 s on two cores take ~300 passes: every
    finished job leaves a timer that re-plans once a second until the end (100 jobs: 610)."""
    jobs = 60
    snakefile = tmp_path / "Snakefile"
    snakefile.write_text(textwrap.dedent(SNAKEFILE.format(root=str(ROOT), jobs=jobs)))
    run = subprocess.run(
        [sys.executable, "-c", RUNNER, str(snakefile)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(list((tmp_path / "out").iterdir())) == jobs, run.stderr[-2000:]
    passes, seconds = run.stdout.split()[-2:]
    # a pass per finished job and per second of the run, with room for start and end
    bound = jobs + float(seconds) + 10
    assert int(passes) <= bound, (passes, seconds)
