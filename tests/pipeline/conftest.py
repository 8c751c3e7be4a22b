"""The pipeline layer's fixture: a small problem in the pipeline's shapes (the rest the tests
share is in ``helpers.py``)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from budgetboost.data.seeds import rng_from_key

from .helpers import N_COLS, N_ROWS, N_TRIALS


@pytest.fixture(scope="module")
def problem():
    """A small binary problem with 4 trials of splits and costs, in the pipeline's shapes."""
    rng = rng_from_key("test_experiment", "data")
    X = (rng.random((N_ROWS, N_COLS)) < 0.5).astype(np.uint8)
    noise = rng.random(N_ROWS) < 0.15
    y = np.where((X[:, 0] ^ X[:, 3] ^ noise) > 0, 1, -1).astype(np.int8)
    splits, costs = {}, {}
    for t in range(N_TRIALS):
        order = rng_from_key("test_experiment", "split", t).permutation(N_ROWS)
        splits[t] = (np.sort(order[:50]), np.sort(order[50:]))
        costs[t] = rng_from_key("test_experiment", "costs", t).uniform(0, 2, N_COLS)
    groups = np.arange(N_COLS) // 2
    return SimpleNamespace(X=X, y=y, splits=splits, costs=costs, groups=groups)
