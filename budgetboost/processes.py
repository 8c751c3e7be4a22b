"""A forked process that ends with the process that started it."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

__all__ = ["end_with"]


def end_with(parent: int) -> None:
    """End this forked process (status 1) when process ``parent``, which forked it, ends
    (``kill -9``, say): a child left behind would wait, or compute, for nothing.

    On Linux the kernel ends it (``prctl(PR_SET_PDEATHSIG, SIGKILL)``); elsewhere, or where
    that call fails, a daemon thread looks at the parent's id twice a second. A parent that
    died before this call ends the process at once.
    """
    if not (sys.platform.startswith("linux") and _kernel_ends_it()):
        threading.Thread(target=_watch, args=(parent,), daemon=True).start()
    if os.getppid() != parent:
        os._exit(1)


def _kernel_ends_it() -> bool:
    import ctypes

    with contextlib.suppress(OSError, AttributeError):
        return ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL) == 0  # PDEATHSIG
    return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)
