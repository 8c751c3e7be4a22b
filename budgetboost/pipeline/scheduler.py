"""Snakemake's scheduler, kept from re-planning ever faster as a run goes on.

Snakemake (9.27 and before) limits job submissions per timespan (``--max-jobs-per-timespan``,
default 100 per second) by arming a :class:`threading.Timer` at the end of every scheduling
pass, which starts another pass one timespan later. A pass started by a finished job arms one
more timer, and every timer's pass arms the next: after ``n`` finished jobs about ``n`` timers
run at once, so the scheduler re-plans ``n`` times a second (measured: selections grew from
1.5 to 200 a second over the suite, and Snakemake's own process used 0.2-0.5 of a core;
upstream: snakemake/snakemake pull request 3744, open). One pending re-evaluation is all the
limiter needs: when it fires, its pass arms the next one.

:func:`one_pending_reevaluation` makes the scheduler keep at most one such timer. It changes
when Snakemake re-plans, never which jobs run or what they compute. It does nothing when
Snakemake no longer has the method it replaces (a later release may fix this its own way).
"""

from __future__ import annotations

import threading

__all__ = ["one_pending_reevaluation"]

#: The private method of Snakemake's ``JobScheduler`` that arms the timer (its spelling).
METHOD = "_schedule_reevalutation"


def one_pending_reevaluation() -> bool:
    """Let Snakemake's job scheduler keep at most one re-evaluation timer pending.

    Returns whether the scheduler was changed (False: this Snakemake has no such method).
    Idempotent: a second call changes nothing.
    """
    from snakemake.scheduling.job_scheduler import JobScheduler

    original = getattr(JobScheduler, METHOD, None)
    if original is None:
        return False
    if getattr(original, "one_pending", False):
        return True

    def schedule_reevaluation(self, delay: float) -> None:
        lock = self.__dict__.setdefault("_reevaluation_lock", threading.Lock())
        with lock:
            if self.__dict__.get("_reevaluation_pending", False):
                return  # the pending timer's pass arms the next one
            self._reevaluation_pending = True

        def fire() -> None:
            with lock:
                self._reevaluation_pending = False
            self._open_jobs.release()

        timer = threading.Timer(delay, fire)
        timer.daemon = False  # as Snakemake's own: the run waits for it, at most one delay
        timer.start()

    schedule_reevaluation.one_pending = True
    setattr(JobScheduler, METHOD, schedule_reevaluation)
    return True
