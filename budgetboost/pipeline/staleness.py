"""``snakemake --report`` refuses to build a report from out-of-date results.

Snakemake builds the report from whatever result files exist: after a config or code change
it would present the old results under the new config without a word. The Snakefile calls
:func:`stale_report` while it is parsed; when the command asks for a report (and not for a
run first, ``--report-after-run``), it runs the same command as a dry run and, if any job
would run, returns a one-line message that stops Snakemake before the report is written.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["dry_run_arguments", "job_stats", "out_of_date", "stale_report"]


def dry_run_arguments(argv: Sequence[str]) -> list[str] | None:
    """The arguments of a dry run of the same workflow, when ``argv`` (Snakemake's command
    line, without the program) asks for a report built from existing results; else None.

    Every ``--report*`` option goes, with its value where it takes one as a separate word.
    """
    words = list(argv)
    asks = any(w == "--report" or w.startswith("--report=") for w in words)
    if not asks or "--report-after-run" in words:
        return None
    kept, skip = [], False
    for i, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word.startswith("--report"):
            following = words[i + 1] if i + 1 < len(words) else "-"
            skip = "=" not in word and not following.startswith("-")
            continue
        kept.append(word)
    return [*kept, "--dry-run", "--quiet", "rules"]


def out_of_date(arguments: Sequence[str], cwd: str | Path = ".") -> dict[str, int]:
    """Jobs per rule a dry run with ``arguments`` would run (``{}``: everything up to date).

    Raises
    ------
    RuntimeError
        When the dry run itself fails (its last line of output).
    """
    proc = subprocess.run(
        [sys.executable, "-m", "snakemake", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
    )
    text = proc.stdout + proc.stderr
    if proc.returncode != 0:
        lines = [line for line in text.splitlines() if line.strip()]
        raise RuntimeError(lines[-1] if lines else f"exit status {proc.returncode}")
    return {rule: n for rule, n in job_stats(text).items() if rule != "all"}


def job_stats(text: str) -> dict[str, int]:
    """Rule -> jobs from the "Job stats" table of a Snakemake (dry) run's output (``{}``
    when it has none: nothing to do)."""
    if "Job stats:" not in text:
        return {}
    counts = {}
    for line in text.split("Job stats:", 1)[1].splitlines()[3:]:
        fields = line.split()
        if len(fields) != 2 or fields[0] == "total":
            break
        counts[fields[0]] = int(fields[1])
    return counts


def stale_report(argv: Sequence[str], cwd: str | Path = ".") -> str | None:
    """Why a report asked for by ``argv`` must not be built now, or None (not a report, or
    every result up to date)."""
    arguments = dry_run_arguments(argv)
    if arguments is None:
        return None
    try:
        jobs = out_of_date(arguments, cwd)
    except RuntimeError as exc:
        return f"snakemake --report: cannot tell whether the results are up to date ({exc})"
    if not jobs:
        return None
    listed = ", ".join(f"{rule} {n}" for rule, n in jobs.items())
    return (
        f"snakemake --report: {sum(jobs.values())} jobs are out of date ({listed}), so the "
        "report would show results of other inputs than this config and code; run the "
        "workflow first (snakemake --cores N, same arguments) or ask for both at once "
        "(--report-after-run)"
    )
