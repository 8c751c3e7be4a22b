"""One ``snakemake`` run at a time on a results folder.

Snakemake's own lock (``.snakemake/locks``) is taken only once a run has planned its jobs,
and its check and its writing are two steps: a run started a few seconds after another, which
planned faster (a smaller config into the same folder, a warm file cache), found no lock,
wrote its own, and both ran the same jobs. So a run that is about to start jobs (Snakemake's
``onstart``: not a dry run, not ``--report``, not the jobs a cluster runs, which skip the
hooks) takes :data:`LOCK_FILE` in its results folder with :func:`fcntl.flock`, in one atomic
step, and holds it as long as its process lives:

- a second run on the folder stops at its start with one line naming the folder and the
  run that holds it (process id, host, start, command);
- the kernel drops the lock when the holding process ends, however it ends (a crash, a
  ``kill -9``): a lock never outlives its run, so there is nothing stale to clear;
- the file is left in place (empty) when the run ends: removing it could let a run that
  opened it just before lock a file no later run sees.
"""

from __future__ import annotations

import datetime
import os
import socket
import sys
from pathlib import Path

__all__ = ["LOCK_FILE", "RunLock", "RunLockError", "take"]

#: The file in a results folder that a run locks while it runs.
LOCK_FILE = ".budgetboost-run"


class RunLockError(RuntimeError):
    """Another run holds the results folder (one line)."""


class RunLock:
    """The lock a run holds on its results folder, until :meth:`release` or its end."""

    def __init__(self, path: Path, fd: int):
        self.path = path
        self._fd: int | None = fd

    def release(self) -> None:
        """Empty the file and drop the lock (idempotent)."""
        if self._fd is None:
            return
        import fcntl

        os.ftruncate(self._fd, 0)
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None


def take(results: str, root: str | os.PathLike = ".", argv: list[str] | None = None) -> RunLock:
    """Lock the results folder ``results`` (below ``root``) for this process's run.

    Parameters
    ----------
    results : str
        The run's results folder, as the config names it (created if missing).
    argv : list of str, optional
        The command to record for whoever finds the folder locked (default:
        ``sys.argv``).

    Raises
    ------
    RunLockError
        Another live process holds the lock: naming the folder, that run, and the way out.
        Also when the folder cannot be created, the file opened, or the file system
        cannot lock.
    """
    import fcntl

    path = Path(root, results, LOCK_FILE)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as exc:  # read-only, or a file where a folder should be
        raise RunLockError(_unlockable(results, exc)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 4096).decode("utf-8", "replace").strip() or "unknown"
        os.close(fd)
        raise RunLockError(
            f"results folder {results} is in use by another snakemake run ({holder}); two "
            "runs on one folder would run the same jobs: wait for it to end, or stop it. The "
            f"lock ({results}/{LOCK_FILE}) ends with its process, so a run that has ended "
            "never holds it; runs whose jobs share no file may skip it with --nolock"
        ) from None
    except OSError as exc:  # a file system without locks
        os.close(fd)
        raise RunLockError(_unlockable(results, exc)) from None
    os.ftruncate(fd, 0)
    os.write(fd, _holder(argv).encode())
    return RunLock(path, fd)


def _unlockable(results: str, exc: OSError) -> str:
    return (
        f"results folder {results} cannot be locked for this run ({exc.strerror or exc}): "
        "make it writable, or have the config write elsewhere (its key `results`); on a file "
        "system without locks, --nolock runs without it (nothing then stops a second run)"
    )


def _holder(argv: list[str] | None) -> str:
    """The lock file's line naming its holder: ``pid <pid> on <host> since <start> UTC:
    <command>``, the start as ``YYYY-MM-DD HH:MM:SS`` in UTC and the command cut to 300
    characters."""
    started = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    words = list(sys.argv if argv is None else argv) or ["?"]
    command = " ".join([Path(words[0]).name, *words[1:]])
    if len(command) > 300:
        command = command[:299] + "…"
    command = " ".join(command.split())
    return f"pid {os.getpid()} on {socket.gethostname()} since {started}: {command}\n"
