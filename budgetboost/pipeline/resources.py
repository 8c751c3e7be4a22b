"""What the submitted rules ask a cluster for, and what a finished run says they need.

The rules that run as cluster jobs (``binarize``, ``adaboost_path``, ``train``) declare
``mem_mb`` and ``runtime`` (minutes). Their defaults (:data:`DEFAULTS`) fit Table 1's sizes;
a config whose data is larger sets its own under ``resources:``, measured rather than
guessed: every job's log ends with the process's peak memory
(:func:`budgetboost.pipeline.job_log.job_log`) and Snakemake records each job's start and
end, so after a run :func:`measured` reads each rule's largest peak and longest job, and
:func:`suggested` turns them into a ``resources:`` block with stated margins (``python
benchmarks/resources.py --configfile ...`` prints both).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pandas as pd

__all__ = [
    "DEFAULTS",
    "MEMORY_MARGIN",
    "RUNTIME_MARGIN",
    "job_records",
    "measured",
    "suggested",
]

#: Resources of the submitted rules when the config does not set them (MB, minutes):
#: :func:`suggested` from a full run of ``config/config.yaml`` on two cores, two jobs at a time
#: (``python benchmarks/resources.py``): the largest train job 1,028 MiB and 30.0 min (CatBoost
#: stumps on sonar, 30 trials in one block), adaboost_path 763 MiB and 0.6 min, binarize 409 MiB and
#: 0.04 min.
DEFAULTS: dict[str, dict[str, int]] = {
    "binarize": {"mem_mb": 700, "runtime": 5},
    "adaboost_path": {"mem_mb": 1300, "runtime": 5},
    "train": {"mem_mb": 1700, "runtime": 90},
}
#: The suggested ``mem_mb`` is this times the largest measured peak (allocators and library
#: versions differ between machines), rounded up to 100 MB.
MEMORY_MARGIN = 1.5
#: The suggested ``runtime`` is this times the longest measured job (a cluster core may be
#: slower than the measuring machine's, and a shared node slower still), rounded up to whole
#: minutes, at least 5.
RUNTIME_MARGIN = 3.0

_PEAK = re.compile(r"peak memory: (\d+(?:\.\d+)?) MiB")


def _peak_mib(log: Path) -> float | None:
    """The peak memory a job's log ends with, or None (the job did not finish)."""
    peaks = _PEAK.findall(log.read_text()) if log.is_file() else []
    return float(peaks[-1]) if peaks else None


def job_records(root: str | Path) -> pd.DataFrame:
    """Every finished job of the runs made in ``root``, from Snakemake's records
    (``.snakemake/metadata``, one per output file; a job's outputs share its hash): ``rule``,
    ``job`` (the hash), ``log`` (its first log file, relative to ``root``), ``start``,
    ``end`` and ``seconds``."""
    rows = []
    for path in Path(root, ".snakemake", "metadata").glob("*"):
        record = json.loads(path.read_text())
        if record.get("starttime") and record.get("endtime"):
            log = (record.get("log") or [""])[0]
            rows.append(
                (record["rule"], record["job_hash"], log, record["starttime"], record["endtime"])
            )
    frame = pd.DataFrame(rows, columns=["rule", "job", "log", "start", "end"])
    frame = frame.groupby(["rule", "job"], as_index=False, sort=False).agg(
        log=("log", "first"), start=("start", "min"), end=("end", "max")
    )
    return frame.assign(seconds=frame["end"] - frame["start"])


def measured(
    root: str | Path, logs: Iterable[str], rules: tuple[str, ...] = tuple(DEFAULTS)
) -> pd.DataFrame:
    """Per submitted rule, its finished jobs' count, largest peak (MiB) and longest time (s).

    A job's time is Snakemake's record of it (``.snakemake/metadata``: start to end, the
    Python start-up and the reading and writing of files included, as a cluster counts it);
    its peak memory is the last line of its log.

    Parameters
    ----------
    root : path
        The repository the run happened in.
    logs : iterable of str
        The log files of the config's jobs, relative to ``root``
        (:meth:`budgetboost.pipeline.plan.Plan.job_logs`): only those jobs count, so
        another config's runs in the same repository (other log files, or log folders
        below this one's) are never read as this one's.
    rules : tuple of str
        The rules to read.
    """
    wanted = set(logs)
    jobs = job_records(root)
    jobs = jobs[jobs["rule"].isin(rules) & jobs["log"].isin(wanted)]
    rows = [
        (job.rule, peak, job.seconds)
        for job in jobs.itertuples()
        if (peak := _peak_mib(Path(root, job.log))) is not None
    ]
    frame = pd.DataFrame(rows, columns=["rule", "peak_mib", "seconds"])
    table = frame.groupby("rule", sort=False).agg(
        jobs=("peak_mib", "size"), peak_mib=("peak_mib", "max"), seconds=("seconds", "max")
    )
    order = [r for r in rules if r in table.index]
    return table.loc[order].reset_index()


def suggested(table: pd.DataFrame) -> dict[str, dict[str, int]]:
    """A config's ``resources:`` from :func:`measured`'s table, with the stated margins.

    ``mem_mb`` is in megabytes (10^6 bytes) as Snakemake and SLURM count them; the logs
    count MiB (2^20 bytes).
    """
    out = {}
    for row in table.itertuples():
        mem_mb = MEMORY_MARGIN * row.peak_mib * 2**20 / 1e6
        out[row.rule] = {
            "mem_mb": int(math.ceil(mem_mb / 100) * 100),
            "runtime": max(5, math.ceil(RUNTIME_MARGIN * row.seconds / 60)),
        }
    return out


def rule_resources(config: Mapping, rule: str) -> dict[str, int]:
    """``mem_mb`` and ``runtime`` of ``rule``: the config's ``resources:`` over the defaults."""
    return {**DEFAULTS[rule], **config.get("resources", {}).get(rule, {})}
