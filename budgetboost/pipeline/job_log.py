"""A job's log file and its CPU accounting.

Every rule script logs to its own ``logs/...`` file (:func:`job_log`, through
:func:`budgetboost.pipeline.job.run_job`); the log records the process's CPU seconds at
named stages (:func:`log_cpu`) and, at exit, its total CPU seconds and peak memory, which
``benchmarks/pipeline.py`` (where a job's fixed cost goes) and
:func:`budgetboost.pipeline.resources.measured` (what a rule needs) read back.
"""

from __future__ import annotations

import atexit
import logging
import os
import sys
from pathlib import Path

__all__ = ["job_log", "cpu_seconds", "log_cpu"]


def job_log(path: str | os.PathLike, name: str) -> logging.Logger:
    """Send this process's log records (INFO and up) to a job's log file, overwriting it.

    Every rule script starts with this, so each Snakemake job's ``logs/...`` file holds only
    that job's run, with timestamps, and ends with the process's CPU seconds (what a job costs
    outside its estimators: ``benchmarks/pipeline.py``) and its peak memory (so the job that
    needs the most is found in the logs, against the ``mem_mb`` its rule declares).
    """
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    open(path, "w").close()  # then appended to: what a job prints is added to it too
    logging.basicConfig(
        filename=os.fspath(path),
        filemode="a",
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
    )
    log = logging.getLogger(name)
    atexit.register(_log_peak_memory, log)
    return log


def cpu_seconds() -> float:
    """CPU seconds (user + system) this process has used so far."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def log_cpu(log: logging.Logger, stage: str) -> None:
    """Log the process's CPU seconds so far at a named stage of a job (``cpu before the
    work: 0.391 s``): ``benchmarks/pipeline.py`` reads where a job's fixed cost goes."""
    log.info("cpu %s: %.3f s", stage, cpu_seconds())


def _log_peak_memory(log: logging.Logger) -> None:
    """Log the CPU seconds (user + system) and the peak resident memory of this process
    (Linux reports it in KiB), the memory last."""
    import resource

    log.info("cpu: %.3f s", cpu_seconds())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    log.info("peak memory: %.0f MiB", peak / 1024 if sys.platform != "darwin" else peak / 2**20)
