"""The README's first run, timed from a fresh clone: what a newcomer waits for.

Each repeat clones the checked-out commit (``git clone``: committed files only, no results)
into a temporary folder and runs the README's two commands there, timed apart:
``snakemake --cores N --configfile config/test.yaml`` (the run) and ``snakemake --report``
(its report). Printed: the wall seconds and the CPU seconds of every process the run started
(``RUSAGE_CHILDREN``: Snakemake and all its jobs), medians over the repeats, and, for the last
repeat, each rule's jobs and summed job seconds (Snakemake's own records). The target is a
run of at most 75 s on two free cores; the load average at the start is printed beside it,
since a busy machine lengthens the wall time and not the CPU.

``--record`` writes the figures to ``docs/performance.md`` (section ``first_run``).

Run from the repository root: ``python benchmarks/first_run.py [--cores 2] [--repeats 3]
[--record]``.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

from budgetboost.pipeline.resources import job_records

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pipeline import snakemake  # noqa: E402
from record import ROOT, commit, record  # noqa: E402

CONFIG = "config/test.yaml"
REPORT = "results/test/report.html"
TARGET_SECONDS = 75.0


def children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(repo: Path, *args: str) -> tuple[float, float]:
    """Run the Snakemake CLI in ``repo`` (:func:`pipeline.snakemake`); its (wall, CPU)
    seconds, the CPU of every process it started. Stops on a failure."""
    cpu = children_cpu()
    wall, _ = snakemake(repo, *args)
    return wall, children_cpu() - cpu


def fresh_clone(dest: Path) -> Path:
    """A clone of the checked-out commit: what a newcomer's ``git clone`` gives."""
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(dest)], check=True)
    subprocess.run(
        ["git", "checkout", "--quiet", "--detach", commit().rstrip("+")], cwd=dest, check=True
    )
    return dest


def one_run(cores: int) -> tuple[dict[str, float], object]:
    """One fresh clone's run and report: their seconds, and the run's job records."""
    with tempfile.TemporaryDirectory(prefix="budgetboost-first-run-") as tmp:
        repo = fresh_clone(Path(tmp) / "repo")
        run_wall, run_cpu = timed(repo, "--cores", str(cores), "--configfile", CONFIG)
        report_wall, report_cpu = timed(repo, "--report", REPORT, "--configfile", CONFIG)
        jobs = job_records(repo)
        shutil.rmtree(repo / ".snakemake", ignore_errors=True)
    seconds = {
        "run_wall": run_wall,
        "run_cpu": run_cpu,
        "report_wall": report_wall,
        "report_cpu": report_cpu,
    }
    return seconds, jobs


def summary(runs: list[dict[str, float]], jobs, cores: int) -> str:
    """The figures as Markdown: medians over the repeats, then the last repeat's rules."""
    median = {key: float(np.median([r[key] for r in runs])) for key in runs[0]}
    verdict = "within" if median["run_wall"] <= TARGET_SECONDS else "above"
    walls = [r["run_wall"] for r in runs]
    spread = f" (runs of {min(walls):.0f}-{max(walls):.0f} s)" if len(runs) > 1 else ""
    lines = [
        f"The README's first run (`snakemake --cores {cores} --configfile {CONFIG}`) from a "
        f"fresh clone, median of {len(runs)}: **{median['run_wall']:.0f} s wall**{spread}, "
        f"{median['run_cpu']:.0f} CPU-s in all its processes ({verdict} the "
        f"{TARGET_SECONDS:.0f} s target); its report (`snakemake --report`): "
        f"{median['report_wall']:.0f} s wall, {median['report_cpu']:.0f} CPU-s.",
        "",
        "| rule | jobs | summed job seconds |",
        "|---|---:|---:|",
    ]
    stages = jobs.groupby("rule")["seconds"].agg(["count", "sum"]).sort_values("sum")
    for rule, row in stages[::-1].iterrows():
        lines.append(f"| {rule} | {int(row['count'])} | {row['sum']:.1f} |")
    lines.append(f"| all | {len(jobs)} | {jobs['seconds'].sum():.1f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--record", action="store_true", help="write docs/performance.md")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats: {args.repeats} is not a number of runs (1 or more)")
    if args.cores < 1:
        parser.error(f"--cores: {args.cores} is not a number of cores (1 or more)")
    if commit().endswith("+"):
        print("note: the work tree has changes; a fresh clone times the last commit only")
    load = os.getloadavg()[0]
    runs, jobs = [], None
    for _ in range(args.repeats):
        seconds, jobs = one_run(args.cores)
        runs.append(seconds)
        print(", ".join(f"{key} {value:.1f} s" for key, value in seconds.items()), flush=True)
    text = summary(runs, jobs, args.cores)
    print(f"load at the start: {load:.2f}\n{text}")
    if args.record:
        record("first_run", "The first run", text, load)


if __name__ == "__main__":
    main()
