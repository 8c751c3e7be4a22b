"""One run at a time on a results folder (budgetboost.pipeline.run_lock): taken atomically,
refused in one line naming the run that holds it, never left stale by a run that ended."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from helpers import REPO

from budgetboost.pipeline import run_lock


def test_a_second_run_on_a_locked_folder_is_refused_in_one_line(tmp_path):
    held = run_lock.take("results/test", tmp_path, argv=["/bin/snakemake", "--cores", "2"])
    with pytest.raises(run_lock.RunLockError) as err:
        run_lock.take("results/test", tmp_path)
    message = str(err.value)
    assert message.startswith(
        f"results folder results/test is in use by another snakemake run (pid {os.getpid()} on "
    )
    assert ": snakemake --cores 2); two runs on one folder would run the same jobs" in message
    assert "\n" not in message
    held.release()
    run_lock.take("results/test", tmp_path).release()  # free again once released
    assert (tmp_path / "results/test" / run_lock.LOCK_FILE).read_text() == ""


def test_a_run_killed_outright_leaves_no_lock(tmp_path):
    """A lock file left by a run that ended without its hooks (``kill -9``) does not
    block the next run."""
    code = (
        "import sys, time\n"
        "from budgetboost.pipeline import run_lock\n"
        f"run_lock.take('results/test', {str(tmp_path)!r})\n"
        "print('held', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(run_lock.RunLockError, match=f"pid {holder.pid} on "):
            run_lock.take("results/test", tmp_path)
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    assert (tmp_path / "results/test" / run_lock.LOCK_FILE).read_text()  # left behind
    start = time.monotonic()
    run_lock.take("results/test", tmp_path).release()
    assert time.monotonic() - start < 1


def test_a_folder_that_cannot_hold_the_lock_is_one_line(tmp_path):
    (tmp_path / "results").write_text("a file where a folder should be")
    with pytest.raises(run_lock.RunLockError) as err:
        run_lock.take("results/test", tmp_path)
    assert str(err.value).startswith("results folder results/test cannot be locked for this run (")
