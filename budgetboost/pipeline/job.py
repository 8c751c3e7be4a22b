"""The one wrapper of every rule script: a job's log, what it prints, its time limit, and
its failure as one line.

Each script in ``workflow/scripts/`` puts its repository first on ``sys.path`` and hands its
work to :func:`run_job`, which

- logs to the job's log file (:func:`budgetboost.data.io.job_log`: timestamps, the peak
  memory at the end);
- sends whatever the job prints (an estimator's progress output, a library's warnings) to
  that log instead of the console: up to :data:`PRINTED_BYTES` of it, the rest counted;
- stops a job of a rule that declares a ``runtime`` (the submitted rules, also on a local
  run) once it has run that many minutes, naming what it was doing (:meth:`Job.doing`:
  the algorithm, dataset, cost model and trial of a train job);
- turns a failure into one line on the console, ``rule <rule> (<wildcards>): <error>
  (traceback: <log>)``, the traceback going to the log; the job exits with status 1.

:meth:`Job.isolated` runs code that is not the pipeline's own (an estimator's ``fit`` and
``predict``) in a scratch working directory, restored afterwards: what it writes to relative
paths lands there, not among the results, and a ``chdir`` cannot move the job's outputs,
which the job writes itself afterwards from memory.
"""

from __future__ import annotations

import contextlib
import faulthandler
import logging
import os
import signal
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from budgetboost.data.io import job_log
from budgetboost.estimators.contract.threads import limit_threads
from budgetboost.pipeline.resources import DEFAULTS

__all__ = ["PRINTED_BYTES", "Job", "JobTimeout", "one_line", "run_job"]

#: The most bytes of what a job prints that its log keeps: the first and last halves of
#: this, with the size of what is left out between them.
PRINTED_BYTES = 1 << 20
#: After its runtime, a job that does not return to Python (a library's compiled loop) is
#: ended this many seconds later, its threads' tracebacks written to its log.
HARD_STOP_SECONDS = 60
#: The longest error line shown on the console (the log has all of it).
LINE_CHARS = 1000


class JobTimeout(BaseException):
    """A job ran past its rule's ``runtime`` (a BaseException: an estimator's ``except
    Exception`` does not swallow it)."""


class Job:
    """What :func:`run_job` gives a rule script's work besides the ``snakemake`` object.

    Attributes
    ----------
    log : logging.Logger
        The job's log.
    """

    def __init__(self, log: logging.Logger):
        self.log = log
        self.activity = ""
        self._hard_stop: Any = None  # the log, open for faulthandler while the job runs

    def doing(self, what: str) -> None:
        """Record what the job does now (logged; named if it runs past its time)."""
        self.activity = what
        self.log.info("%s", what)

    @contextlib.contextmanager
    def isolated(self) -> Iterator[None]:
        """Run the block in a scratch working directory; restore the job's afterwards,
        whatever the code inside did with it."""
        home = os.getcwd()
        with tempfile.TemporaryDirectory(
            prefix="budgetboost-job-", ignore_cleanup_errors=True
        ) as scratch:
            os.chdir(scratch)
            try:
                yield
            finally:
                os.chdir(home)
                if any(Path(scratch).iterdir()):
                    self.log.info(
                        "the code run in %s wrote files there (removed): %s",
                        scratch,
                        ", ".join(sorted(p.name for p in Path(scratch).iterdir())[:10]),
                    )


def run_job(snakemake: Any, work: Callable[[Any, Job], str | None]) -> None:
    """Run ``work(snakemake, job)`` as the rule script's job (see the module docstring);
    its return value, a sentence, ends the log."""
    rule = snakemake.rule
    limit_threads(getattr(snakemake, "threads", 1) or 1)  # the libraries' threads: the job's
    log = job_log(snakemake.log[0], rule)
    job = Job(log)
    console = (os.dup(1), os.dup(2))
    failure: BaseException | None = None
    with tempfile.TemporaryFile() as printed:
        _redirect(printed.fileno())
        minutes = _runtime(snakemake)
        if minutes:
            _arm(minutes, job, rule, snakemake.log[0])
        try:
            done = work(snakemake, job)
        except (Exception, JobTimeout, SystemExit, KeyboardInterrupt) as exc:
            failure = exc  # a sys.exit or an interrupt inside the work ends the job as a failure
        finally:
            _disarm(job)
            _restore(printed, console, log)
    if failure is not None:
        log.error("%s", one_line(failure), exc_info=failure)
        os.write(console[1], (_failure(snakemake, failure) + "\n").encode())
        raise SystemExit(1)
    if done:
        log.info("%s", done)


def one_line(exc: BaseException) -> str:
    """``Type: message`` of an exception on one line, at most :data:`LINE_CHARS` long."""
    if isinstance(exc, SystemExit):
        return (
            f"SystemExit: sys.exit({exc.code!r}) was called inside the job (an estimator's "
            "fit, say) before it wrote its outputs"
        )
    if isinstance(exc, KeyboardInterrupt):
        return "KeyboardInterrupt: interrupted inside the job before it wrote its outputs"
    text = " ".join(str(exc).split())
    shown = f"{type(exc).__name__}: {text}" if text else type(exc).__name__
    return shown if len(shown) <= LINE_CHARS else shown[: LINE_CHARS - 1] + "…"


def _failure(snakemake: Any, exc: BaseException) -> str:
    wildcards = ", ".join(f"{k}={v}" for k, v in dict(snakemake.wildcards).items())
    where = f"rule {snakemake.rule}" + (f" ({wildcards})" if wildcards else "")
    return f"{where}: {one_line(exc)} (traceback: {snakemake.log[0]})"


def _runtime(snakemake: Any) -> float | None:
    """The job's runtime in minutes, for the rules that declare one (the submitted ones)."""
    if snakemake.rule not in DEFAULTS:
        return None
    value = dict(snakemake.resources).get("runtime")
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def _arm(minutes: float, job: Job, rule: str, log_path: str) -> None:
    def expire(signum, frame):
        doing = f" while running {job.activity}" if job.activity else ""
        raise JobTimeout(
            f"still running after its {minutes:g} min{doing}: the runtime of rule {rule} "
            f"(resources: {{{rule}: {{runtime: minutes}}}} in the config, or "
            f"--set-resources {rule}:runtime=MINUTES)"
        )

    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, minutes * 60)
    # a compiled loop that never returns to Python cannot see the alarm: end the process
    job._hard_stop = open(log_path, "a")  # noqa: SIM115 (closed by _disarm)
    faulthandler.dump_traceback_later(
        minutes * 60 + HARD_STOP_SECONDS, exit=True, file=job._hard_stop
    )


def _disarm(job: Job) -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)
    faulthandler.cancel_dump_traceback_later()
    if job._hard_stop is not None:
        job._hard_stop.close()
        job._hard_stop = None


def _redirect(fd: int) -> None:
    """Send file descriptors 1 and 2 (what Python, C and the libraries print) to ``fd``."""
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    os.dup2(fd, 1)
    os.dup2(fd, 2)


def _restore(printed: Any, console: tuple[int, int], log: logging.Logger) -> None:
    """Put the console back and copy what was printed into the log (at most
    :data:`PRINTED_BYTES`: its first and last halves)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    os.dup2(console[0], 1)
    os.dup2(console[1], 2)
    size = printed.seek(0, os.SEEK_END)
    if not size:
        return
    half = PRINTED_BYTES // 2
    printed.seek(0)
    head = printed.read(PRINTED_BYTES if size <= PRINTED_BYTES else half)
    tail = b""
    if size > PRINTED_BYTES:
        printed.seek(size - half)
        tail = printed.read()
    text = head.decode("utf-8", "replace")
    if tail:
        omitted = size - len(head) - len(tail)
        text += f"\n[... {omitted:,} bytes of output left out ...]\n" + tail.decode(
            "utf-8", "replace"
        )
    log.info("what the job printed (%s bytes):\n%s", f"{size:,}", text.rstrip("\n"))
