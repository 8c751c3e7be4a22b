"""What the pipeline layer's tests share: a small problem in the pipeline's shapes, an algorithm
entry and one training block."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from budgetboost.data.seeds import rng_from_key
from budgetboost.pipeline import blocks, specs

N_ROWS, N_COLS, N_TRIALS = 80, 12, 4


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


def spec(name="smoothed", **entry):
    entry.setdefault("estimator", "BudgetedBoost")
    entry.setdefault("params", {"criterion": "smoothed", "max_rounds": 30})
    return specs.algorithm_spec(name, entry, registry_rounds=7)


def run(
    problem,
    algorithm,
    trials=range(N_TRIALS),
    budgets=(1.0, 2.0, 4.0, 8.0),
    grouped=False,
    costs=None,
    twin=False,
):
    return blocks.run_block(
        X=problem.X,
        y=problem.y,
        groups=problem.groups,
        splits=problem.splits,
        costs=problem.costs if costs is None else costs,
        grouped=grouped,
        dataset="toy",
        cost_model="u02",
        spec=algorithm,
        budgets=list(budgets),
        trials=list(trials),
        twin=twin,
    )
