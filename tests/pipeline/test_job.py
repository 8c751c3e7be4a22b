"""The wrapper of every rule script (budgetboost.pipeline.job) in a process of its own, as a
job runs it: an ``os._exit`` in an estimator, a segfault, an estimator that ignores its time
limit, memory above ``mem_mb`` (each in one line)."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest
from helpers import REPO

SCRIPT = """
import ctypes, os, signal, sys, time, types
from budgetboost.pipeline import job as wrapper
wrapper.HARD_STOP_SECONDS = 1
sm = types.SimpleNamespace(
    rule="train",
    log=[{log!r}],
    wildcards={{"dataset": "heart", "block": "0"}},
    resources={{"runtime": {runtime}, "mem_mb": {mem_mb}}},
    threads=1,
)
waiter = os.getpid()  # the process run_job is called in

def work(sm, job):
    job.doing("trial 0")
{body}
    return "done"

wrapper.run_job(sm, work)
"""


def run_job(tmp_path, body: str, runtime: float = 5, mem_mb: int = 100_000):
    """The job's exit status, what it wrote on the console, and its log."""
    log = tmp_path / "job.log"
    script = SCRIPT.format(
        log=str(log), runtime=runtime, mem_mb=mem_mb, body=textwrap.indent(body, "    ")
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=REPO,
        env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"},
    )
    return proc.returncode, proc.stdout + proc.stderr, log.read_text()


def test_an_os_exit_inside_the_job_is_its_failure_in_one_line(tmp_path):
    """``os._exit(0)`` in ``fit`` is the job's failure, said in one line (not status 0 and no
    outputs, which Snakemake blames on the file system's latency)."""
    status, console, log = run_job(tmp_path, "with job.isolated():\n    os._exit(0)")
    assert status == 1
    assert console.strip() == (
        "rule train (dataset=heart, block=0): EstimatorExit: os._exit(0) was called inside "
        f"the job (an estimator's fit, say) before it wrote its outputs (traceback: "
        f"{tmp_path / 'job.log'})"
    )
    assert "Traceback" in log


def test_a_segfault_fails_the_job_in_one_line_its_traceback_in_the_log(tmp_path):
    """A crash of the interpreter (a library's segfault) ends the job in one line naming the
    signal and the trial, and leaves its traceback in the job's log."""
    status, console, log = run_job(tmp_path, "ctypes.string_at(0)")
    assert status == 1
    assert console.strip() == (
        "rule train (dataset=heart, block=0): the job's process died by SIGSEGV "
        f"(Segmentation fault) while running trial 0 (traceback: {tmp_path / 'job.log'})"
    )
    assert "Fatal Python error: Segmentation fault" in log
    assert "in work" in log and "trial 0" in log
    assert "died by SIGSEGV" in log


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (
            "os.kill(os.getpid(), signal.SIGKILL)",
            "died by SIGKILL (Killed) while running trial 0 (a kill -9, or the system out "
            "of memory: see its mem_mb) (log: ",
        ),
        # a signal sent to the process Snakemake started is passed on to the job's
        (
            "os.kill(waiter, signal.SIGTERM)\ntime.sleep(30)",
            "died by SIGTERM (Terminated) while running trial 0 (log: ",
        ),
    ],
)
def test_a_death_by_any_signal_fails_the_job_in_one_line(tmp_path, body, said):
    status, console, log = run_job(tmp_path, body)
    assert status == 1
    assert console.strip() == (
        f"rule train (dataset=heart, block=0): the job's process {said}{tmp_path / 'job.log'})"
    )
    assert said in log


def test_the_job_ends_with_the_process_snakemake_started(tmp_path):
    """A ``kill -9`` of the job's process (the one waiting for the work) ends the work too:
    it never goes on as an orphan, writing outputs of a job Snakemake counts as dead."""
    import time

    start = time.monotonic()
    status, _, _ = run_job(tmp_path, "os.kill(waiter, signal.SIGKILL)\ntime.sleep(30)")
    assert status == -signal.SIGKILL
    assert time.monotonic() - start < 20  # the console stayed open until the work ended


def test_the_cpu_readings_count_the_start_up(tmp_path):
    """The work runs in a child process, whose own CPU count starts at zero: the log's
    readings still count the job's whole process, in order, the last one the largest."""
    import re

    status, _, log = run_job(tmp_path, "sum(range(10**6))")
    assert status == 0
    readings = [float(v) for v in re.findall(r" INFO cpu[^:]*: ([\d.]+) s$", log, re.M)]
    assert len(readings) == 2  # before the work, and the last
    assert 0.05 < readings[0] < readings[1]  # start-up: Python and the imports


def test_a_job_ignoring_its_alarm_is_ended_with_one_line(tmp_path):
    """An estimator that ignores SIGALRM is ended at its runtime, with one line saying so (not a
    bare CalledProcessError)."""
    body = "signal.signal(signal.SIGALRM, signal.SIG_IGN)\ntime.sleep(60)"
    status, console, log = run_job(tmp_path, body, runtime=0.01)
    assert status == 1
    assert console.strip() == (
        "rule train (dataset=heart, block=0): JobTimeout: still running after its 0.01 min "
        "while running trial 0: the runtime of rule train (resources: {train: {runtime: "
        "minutes}} in the config, or --set-resources train:runtime=MINUTES) (traceback: "
        f"{tmp_path / 'job.log'}); ended 1 s later"
    )
    assert "in work" in log  # where it was, from every thread's traceback


@pytest.mark.parametrize(("mem_mb", "warned"), [(60, True), (100_000, False)])
def test_memory_above_mem_mb_is_said(tmp_path, mem_mb, warned):
    """A job using 3 GB under ``mem_mb: 1700`` passed without a word (a local run does not
    enforce it)."""
    body = "block = bytearray(300 * 2**20)\nblock[::4096] = b'x' * len(block[::4096])"
    status, console, log = run_job(tmp_path, body, mem_mb=mem_mb)
    assert status == 0
    if warned:
        line = console.strip()
        assert line.startswith("rule train (dataset=heart, block=0): used ")
        assert line.endswith(
            " MiB, above its mem_mb of 60 (a cluster would have ended it: raise resources: "
            "{train: {mem_mb: ...}} in the config, or --set-resources train:mem_mb=MB)"
        )
        assert "above its mem_mb of 60" in log
    else:
        assert console == "" and "mem_mb" not in log
