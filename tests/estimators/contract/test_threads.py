"""The thread limit is the job's: read from the process, set once (contract.threads)."""

from __future__ import annotations

import os

import pytest

from budgetboost.estimators.contract.threads import (
    THREADS_VARIABLE,
    limit_threads,
    thread_limit,
)


def test_one_thread_unless_the_process_says_otherwise(monkeypatch):
    monkeypatch.delenv(THREADS_VARIABLE, raising=False)
    assert thread_limit() == 1
    monkeypatch.setenv(THREADS_VARIABLE, "3")
    assert thread_limit() == 3


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5", ""])
def test_a_bad_limit_names_the_variable(monkeypatch, value):
    monkeypatch.setenv(THREADS_VARIABLE, value)
    with pytest.raises(ValueError, match=THREADS_VARIABLE):
        thread_limit()


def test_limit_threads_sets_the_runtimes_too(monkeypatch):
    threadpoolctl = pytest.importorskip("threadpoolctl")
    for name in (THREADS_VARIABLE, "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)
    import pyarrow

    arrow = pyarrow.cpu_count()
    with threadpoolctl.threadpool_limits(None):  # restores the BLAS's own limits after
        try:
            limit_threads(1)
            assert thread_limit() == 1
            assert os.environ["OMP_NUM_THREADS"] == "1"
            assert all(pool["num_threads"] == 1 for pool in threadpoolctl.threadpool_info())
            assert pyarrow.cpu_count() == 1  # Arrow's pool decodes Parquet
        finally:
            pyarrow.set_cpu_count(arrow)
    with pytest.raises(ValueError, match="n_threads"):
        limit_threads(0)
