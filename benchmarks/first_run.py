"""The README's first run, timed from a fresh clone: what a newcomer waits for.

Each repeat clones the checked-out commit (``git clone``: committed files only, no results)
into a temporary folder and runs the README's two commands there, timed apart:
``snakemake --cores N --configfile config/test.yaml`` (the run) and ``snakemake --report``
(its report). Printed: the wall seconds and the CPU seconds of every process the run started
(``RUSAGE_CHILDREN``: Snakemake and all its jobs), medians over the repeats, and, for the last
repeat, each rule's jobs and summed job seconds (Snakemake's own records). The target is a
run of at most 75 s on two free cores; the load average at the start is printed beside it,
since a busy machine lengthens the wall time and not the CPU.

``--against REV`` times a second commit too, in turn with the checked-out one (A B, B A, A
B, ...: the machine's drift falls on both): its median, and the ratio of each pair's wall
times, the before and after of a change on a machine whose speed moves by a tenth from run
to run. ``--record`` writes the figures to ``docs/performance.md`` (section ``first_run``).

Run from the repository root: ``python benchmarks/first_run.py [--cores 2] [--repeats 3]
[--against REV] [--record]``.
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


def fresh_clone(dest: Path, rev: str) -> Path:
    """A clone of commit ``rev``: what a newcomer's ``git clone`` gives."""
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(dest)], check=True)
    subprocess.run(["git", "checkout", "--quiet", "--detach", rev], cwd=dest, check=True)
    return dest


def resolved(rev: str, parser: argparse.ArgumentParser) -> str:
    """The full hash of commit ``rev``; a clear error when the repository has none."""
    found = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if found.returncode != 0:
        parser.error(f"{rev!r} names no commit of {ROOT}")
    return found.stdout.strip()


def one_run(cores: int, rev: str) -> tuple[dict[str, float], object]:
    """One fresh clone's run and report: their seconds, and the run's job records."""
    with tempfile.TemporaryDirectory(prefix="budgetboost-first-run-") as tmp:
        repo = fresh_clone(Path(tmp) / "repo", rev)
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


def paired(runs: list[dict[str, float]], before: list[dict[str, float]], rev: str) -> str:
    """One sentence on ``--against``: the other commit's median wall and CPU, and the
    median (and range) of the checked-out commit's wall over the other's, pair by pair."""
    ratios = [a["run_wall"] / b["run_wall"] for a, b in zip(runs, before, strict=True)]
    walls = [r["run_wall"] for r in before]
    return (
        f"Against `{rev}`, in turn with it: {np.median(walls):.0f} s wall (runs of "
        f"{min(walls):.0f}-{max(walls):.0f} s), {np.median([r['run_cpu'] for r in before]):.0f} "
        f"CPU-s; wall this commit / that one, pair by pair: median {np.median(ratios):.2f} "
        f"(pairs of {min(ratios):.2f}-{max(ratios):.2f})."
    )


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
    parser.add_argument("--against", metavar="REV", help="a commit timed in turn with this one")
    parser.add_argument("--record", action="store_true", help="write docs/performance.md")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats: {args.repeats} is not a number of runs (1 or more)")
    if args.cores < 1:
        parser.error(f"--cores: {args.cores} is not a number of cores (1 or more)")
    if commit().endswith("+"):
        print("note: the work tree has changes; a fresh clone times the last commit only")
    here = resolved("HEAD", parser)
    if args.against is not None:
        args.against = resolved(args.against, parser)
        if args.against == here:
            parser.error(f"--against: {args.against} is the checked-out commit")
    load = os.getloadavg()[0]
    runs, before, jobs = [], [], None
    for repeat in range(args.repeats):
        order = [here] if args.against is None else [here, args.against]
        if repeat % 2:
            order.reverse()  # A B, then B A: neither commit always runs on a warmer machine
        for rev in order:
            seconds, records = one_run(args.cores, rev)
            if rev == here:
                runs.append(seconds)
                jobs = records
            else:
                before.append(seconds)
            figures = ", ".join(f"{key} {value:.1f} s" for key, value in seconds.items())
            print(f"{rev[:10]}: {figures}", flush=True)
    text = summary(runs, jobs, args.cores)
    if args.against is not None:
        text += "\n" + paired(runs, before, args.against) + "\n"
    print(f"load at the start: {load:.2f}\n{text}")
    if args.record:
        record("first_run", "The first run", text, load)


if __name__ == "__main__":
    main()
