"""The one wrapper of every rule script: a job's log, what it prints, its time limit, and
its failure as one line.

Each script in ``workflow/scripts/`` puts its repository first on ``sys.path`` and hands its
work to :func:`run_job`, which

- logs to the job's log file (:func:`budgetboost.pipeline.job_log.job_log`: timestamps, the peak
  memory at the end);
- sends whatever the job prints (an estimator's progress output, a library's warnings) to
  that log instead of the console: up to :data:`PRINTED_BYTES` of it, the rest counted;
- stops a job of a rule that declares a ``runtime`` (the submitted rules, also on a local
  run) once it has run that many minutes, naming what it was doing (:meth:`Job.doing`:
  the algorithm, dataset, cost model and trial of a train job);
- turns a failure into one line on the console, ``rule <rule> (<wildcards>): <error>
  (traceback: <log>)``, the traceback going to the log; the job exits with status 1; a
  crash of the interpreter itself (a segfault in a library) writes every thread's
  traceback to the log (:mod:`faulthandler`), and a job that ignores its time limit is
  ended :data:`HARD_STOP_SECONDS` later with the same one line;
- runs the work in a child process that it waits for (:func:`os.fork`, where the platform
  has it), so that a death by a signal, which no code of the dying process outlives (a
  segfault in a compiled library, a ``kill``), still ends the job with one line naming the
  signal and what the job was doing (:meth:`Job.doing`, shared with the waiting process);
  the CPU seconds the log records count the job's whole process, start-up included;
- says, on the console and in the log, when the job used more memory than its rule's
  ``mem_mb`` (a local run does not enforce it; a cluster would have killed the job).

:meth:`Job.isolated` runs code that is not the pipeline's own (an estimator's ``fit`` and
``predict``) in a scratch working directory, restored afterwards: what it writes to relative
paths lands there, not among the results, and a ``chdir`` cannot move the job's outputs,
which the job writes itself afterwards from memory; an ``os._exit`` there (which would end
the job with status 0 and no outputs: Snakemake blamed the file system's latency) raises
:class:`EstimatorExit` instead.
"""

from __future__ import annotations

import contextlib
import faulthandler
import logging
import mmap
import os
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from budgetboost.estimators.contract.threads import limit_threads
from budgetboost.pipeline.job_log import cpu_seconds, job_log, log_cpu
from budgetboost.pipeline.resources import DEFAULTS
from budgetboost.processes import end_with

__all__ = ["PRINTED_BYTES", "EstimatorExit", "Job", "JobTimeout", "one_line", "run_job"]

#: The most bytes of what a job prints that its log keeps: the first and last halves of
#: this, with the size of what is left out between them.
PRINTED_BYTES = 1 << 20
#: After its runtime, a job that does not return to Python (a library's compiled loop) is
#: ended this many seconds later, its threads' tracebacks written to its log.
HARD_STOP_SECONDS = 60
#: The longest error line shown on the console (the log has all of it).
LINE_CHARS = 1000
#: The process's own exit, whatever :meth:`Job.isolated` puts in ``os._exit`` meanwhile.
_EXIT = os._exit
#: The most bytes of :meth:`Job.doing`'s text the waiting process can name.
ACTIVITY_BYTES = 4096
#: The signals whose death :mod:`faulthandler` records in the log with every thread's
#: traceback (the others, a ``kill`` say, leave none).
_FAULTS = {
    getattr(signal, name)
    for name in ("SIGSEGV", "SIGFPE", "SIGABRT", "SIGBUS", "SIGILL")
    if hasattr(signal, name)
}
#: The signals the waiting process passes on to the job's: a ``kill`` of the job's process
#: id (Snakemake's, a scheduler's) reaches the waiting one only. A terminal's Ctrl-C
#: (SIGINT) reaches both, so the waiting process ignores it.
_PASSED_ON = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))
_HELD = {*_PASSED_ON, signal.SIGINT}


class JobTimeout(BaseException):
    """A job ran past its rule's ``runtime`` (a BaseException: an estimator's ``except
    Exception`` does not swallow it)."""


class EstimatorExit(BaseException):
    """Code run by :meth:`Job.isolated` called ``os._exit`` (a BaseException: an ``except
    Exception`` does not swallow it)."""


class Job:
    """What :func:`run_job` gives a rule script's work besides the ``snakemake`` object.

    Attributes
    ----------
    log : logging.Logger
        The job's log.
    """

    def __init__(self, log: logging.Logger, shared: mmap.mmap | None = None):
        self.log = log
        self.activity = ""
        self._shared = shared  # what the job does, for the process waiting for it
        self._hard_stop: Any = None  # the log, open for faulthandler while the job runs
        self._watchdog: threading.Timer | None = None  # ends a job that ignores its alarm

    def doing(self, what: str) -> None:
        """Record what the job does now (logged; named if it runs past its time)."""
        self.activity = what
        self.log.info("%s", what)
        if self._shared is not None:
            _share(self._shared, what)

    @contextlib.contextmanager
    def isolated(self) -> Iterator[None]:
        """Run the block in a scratch working directory; restore the job's afterwards,
        whatever the code inside did with it. The process's CPU seconds are logged on the
        way in and out, so a job's CPU outside its trials is read from its log."""
        home = os.getcwd()
        log_cpu(self.log, "before the trials")
        with tempfile.TemporaryDirectory(
            prefix="budgetboost-job-", ignore_cleanup_errors=True
        ) as scratch:
            os.chdir(scratch)
            exit_now, os._exit = os._exit, _refused_exit
            try:
                yield
            finally:
                os._exit = exit_now
                os.chdir(home)
                if any(Path(scratch).iterdir()):
                    self.log.info(
                        "the code run in %s wrote files there (removed): %s",
                        scratch,
                        ", ".join(sorted(p.name for p in Path(scratch).iterdir())[:10]),
                    )
                log_cpu(self.log, "after the trials")


def _refused_exit(status: int = 0) -> None:
    raise EstimatorExit(
        f"os._exit({status!r}) was called inside the job (an estimator's fit, say) before it "
        "wrote its outputs"
    )


def run_job(snakemake: Any, work: Callable[[Any, Job], str | None]) -> None:
    """Run ``work(snakemake, job)`` as the rule script's job (see the module docstring);
    its return value, a sentence, ends the log.

    The work runs in a child process; this one waits for it and ends with its exit status
    (``_wait``), so only the child returns from here."""
    rule = snakemake.rule
    limit_threads(getattr(snakemake, "threads", 1) or 1)  # the libraries' threads: the job's
    log = job_log(snakemake.log[0], rule)
    shared = mmap.mmap(-1, ACTIVITY_BYTES) if hasattr(os, "fork") else None
    if shared is not None:
        start_up = cpu_seconds()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        waiter = os.getpid()
        # held until each process has its handlers: a signal in between waits, not kills
        signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
        child = os.fork()
        if child:
            _wait(child, snakemake, log, shared)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
        end_with(waiter)  # a kill -9 of the waiting process ends this one too
        log.addFilter(_WithStartUp(start_up))
    job = Job(log, shared)
    console = (os.dup(1), os.dup(2))
    failure: BaseException | None = None
    with tempfile.TemporaryFile() as printed, open(snakemake.log[0], "a") as crashes:
        faulthandler.enable(file=crashes)  # a segfault's tracebacks go to the log
        _redirect(printed.fileno())
        minutes = _runtime(snakemake)
        if minutes:
            _arm(minutes, job, snakemake, console[1])
        try:
            log_cpu(log, "before the work")  # start-up: Python, Snakemake's preamble, imports
            done = work(snakemake, job)
        except (Exception, JobTimeout, SystemExit, KeyboardInterrupt, EstimatorExit) as exc:
            failure = exc  # a sys.exit or an interrupt inside the work ends the job as a failure
        finally:
            _disarm(job)
            _restore(printed, console, log)
            faulthandler.disable()
    if failure is not None:
        log.error("%s", one_line(failure), exc_info=failure)
        os.write(console[1], (_failure(snakemake, failure) + "\n").encode())
        raise SystemExit(1)
    if done:
        log.info("%s", done)
    if warning := _memory_warning(snakemake):
        log.warning("%s", warning)
        os.write(console[1], (warning + "\n").encode())


def _share(shared: mmap.mmap, what: str) -> None:
    """Write ``what`` (cut to fit) where the waiting process reads it: its length last."""
    data = what.encode("utf-8", "replace")[: ACTIVITY_BYTES - 4]
    shared[:4] = (0).to_bytes(4, "little")
    shared[4 : 4 + len(data)] = data
    shared[:4] = len(data).to_bytes(4, "little")


def _shared_activity(shared: mmap.mmap) -> str:
    size = min(int.from_bytes(shared[:4], "little"), ACTIVITY_BYTES - 4)
    return shared[4 : 4 + size].decode("utf-8", "replace")


class _WithStartUp(logging.Filter):
    """Add the CPU seconds the job's process used before it forked to the CPU readings the
    child logs (:func:`budgetboost.pipeline.job_log.log_cpu` and the log's last reading), so that
    they count the whole job, start-up included, as they would without the fork."""

    _READINGS = ("cpu %s: %.3f s", "cpu: %.3f s")

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds = seconds

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in self._READINGS and isinstance(record.args, tuple) and record.args:
            *head, value = record.args
            if isinstance(value, (int, float)):
                record.args = (*head, value + self.seconds)
        return True


def _wait(child: int, snakemake: Any, log: logging.Logger, shared: mmap.mmap) -> None:
    """Wait for the job's child process and end this one with its exit status (never
    returns; ``os._exit``, so the child alone logs its CPU and memory at its exit). A
    child killed by a signal ends the job with one line on the console naming the signal
    and what the child was doing, and status 1; a SIGTERM or SIGHUP sent to this process is
    passed on to the child."""
    for number in _PASSED_ON:
        signal.signal(number, lambda signum, frame: os.kill(child, signum))
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _HELD)
    _, status = os.waitpid(child, 0)
    code = os.waitstatus_to_exitcode(status)
    if code < 0:
        line = _signal_line(snakemake, -code, _shared_activity(shared))
        log.error("%s", line)
        os.write(2, (line + "\n").encode())
        code = 1
    logging.shutdown()
    _EXIT(code)


def _signal_line(snakemake: Any, number: int, activity: str) -> str:
    """``rule <rule> (<wildcards>): died by signal SIGSEGV (...) while running <activity>
    (traceback: <log>)``."""
    try:
        name = signal.Signals(number).name
    except ValueError:
        name = f"signal {number}"
    meaning = signal.strsignal(number) or "unknown signal"
    doing = f" while running {activity}" if activity else ""
    if number in _FAULTS:
        where = f"traceback: {snakemake.log[0]}"
    else:
        where = f"log: {snakemake.log[0]}"
    hint = ""
    if name == "SIGKILL":
        hint = " (a kill -9, or the system out of memory: see its mem_mb)"
    return (
        f"{_where(snakemake)}: the job's process died by {name} ({meaning}){doing}{hint} ({where})"
    )


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


def _where(snakemake: Any) -> str:
    wildcards = ", ".join(f"{k}={v}" for k, v in dict(snakemake.wildcards).items())
    return f"rule {snakemake.rule}" + (f" ({wildcards})" if wildcards else "")


def _failure(snakemake: Any, exc: BaseException) -> str:
    return f"{_where(snakemake)}: {one_line(exc)} (traceback: {snakemake.log[0]})"


def _memory_warning(snakemake: Any) -> str | None:
    """One line when the job's peak memory passed its rule's ``mem_mb`` (else None)."""
    import resource

    limit = dict(snakemake.resources).get("mem_mb")
    if not isinstance(limit, (int, float)) or limit <= 0:
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    peak_mb = peak / 2**20 if sys.platform == "darwin" else peak / 1024
    if peak_mb <= limit:
        return None
    return (
        f"{_where(snakemake)}: used {peak_mb:,.0f} MiB, above its mem_mb of {limit:,.0f} (a "
        f"cluster would have ended it: raise resources: {{{snakemake.rule}: {{mem_mb: ...}}}} "
        f"in the config, or --set-resources {snakemake.rule}:mem_mb=MB)"
    )


def _runtime(snakemake: Any) -> float | None:
    """The job's runtime in minutes, for the rules that declare one (the submitted ones)."""
    if snakemake.rule not in DEFAULTS:
        return None
    value = dict(snakemake.resources).get("runtime")
    return float(value) if isinstance(value, (int, float)) and value > 0 else None


def _arm(minutes: float, job: Job, snakemake: Any, console: int) -> None:
    rule, log_path = snakemake.rule, snakemake.log[0]

    def timeout() -> JobTimeout:
        doing = f" while running {job.activity}" if job.activity else ""
        return JobTimeout(
            f"still running after its {minutes:g} min{doing}: the runtime of rule {rule} "
            f"(resources: {{{rule}: {{runtime: minutes}}}} in the config, or "
            f"--set-resources {rule}:runtime=MINUTES)"
        )

    def expire(signum, frame):
        raise timeout()

    def hard_stop():  # the alarm was ignored (or swallowed): end the process, in one line
        job._hard_stop.write(f"{one_line(timeout())}: ended {HARD_STOP_SECONDS} s later\n")
        job._hard_stop.flush()
        faulthandler.dump_traceback(file=job._hard_stop)
        line = f"{_failure(snakemake, timeout())}; ended {HARD_STOP_SECONDS} s later"
        os.write(console, (line + "\n").encode())
        _EXIT(1)

    signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, minutes * 60)
    job._hard_stop = open(log_path, "a")  # noqa: SIM115 (closed by _disarm)
    job._watchdog = threading.Timer(minutes * 60 + HARD_STOP_SECONDS, hard_stop)
    job._watchdog.daemon = True
    job._watchdog.start()
    # a compiled loop that holds the interpreter never lets the watchdog run: end the
    # process from C, its tracebacks in the log
    faulthandler.dump_traceback_later(
        minutes * 60 + 2 * HARD_STOP_SECONDS, exit=True, file=job._hard_stop
    )


def _disarm(job: Job) -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)
    faulthandler.cancel_dump_traceback_later()
    if job._watchdog is not None:
        job._watchdog.cancel()
        job._watchdog = None
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
