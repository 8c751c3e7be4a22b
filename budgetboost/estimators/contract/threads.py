"""How many threads a library inside an estimator may use: a limit of the job, not of a wrapper.

A wrapper of a threaded library (LightGBM, CatBoost, scikit-learn's forests) never chooses its
own thread count: it asks :func:`thread_limit`, which reads what the process running it was
given (``BUDGETBOOST_THREADS``; the pipeline's train job sets it from its rule's ``threads``
with :func:`limit_threads`). The default is one thread, so that an estimator fitted in a
notebook gives the bytes a train job gives (LightGBM's ``deterministic`` mode holds for a
fixed thread count only).
"""

from __future__ import annotations

import os

import threadpoolctl

__all__ = ["THREADS_VARIABLE", "limit_threads", "thread_limit"]

#: The environment variable that holds the process's thread limit.
THREADS_VARIABLE = "BUDGETBOOST_THREADS"
#: Variables of the numerical runtimes (OpenMP, BLAS) that :func:`limit_threads` sets too.
_RUNTIME_VARIABLES = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def thread_limit() -> int:
    """The number of threads a library may use in this process (default 1).

    Raises
    ------
    ValueError
        When ``BUDGETBOOST_THREADS`` is set to anything but a whole number >= 1.
    """
    value = os.environ.get(THREADS_VARIABLE, "1").strip()
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{THREADS_VARIABLE}={value!r}: must be a whole number >= 1")
    return int(value)


def limit_threads(n_threads: int) -> None:
    """Give this process (and what it starts) ``n_threads`` threads: the libraries the
    estimators wrap read :func:`thread_limit`, OpenMP and the BLAS their own variables
    (for those already loaded, threadpoolctl sets the limit), Arrow its CPU pool."""
    n_threads = int(n_threads)
    if n_threads < 1:
        raise ValueError(f"n_threads must be >= 1; got {n_threads}")
    os.environ[THREADS_VARIABLE] = str(n_threads)
    for name in _RUNTIME_VARIABLES:
        os.environ[name] = str(n_threads)
    threadpoolctl.threadpool_limits(n_threads)  # the BLAS and OpenMP already loaded
    # Arrow's own pool decodes Parquet: one thread costs less CPU than two (the CPU seconds
    # of read_binarized on sonar's table, 11,196 columns, after limit_threads(1) and
    # limit_threads(2): 0.42 and 0.62)
    import pyarrow

    pyarrow.set_cpu_count(n_threads)
