"""What is particular to BudgetedCatBoost: continuous features, its default grid, symmetric
trees' cost accounting, the parameters it reserves (what it shares with BudgetedLightGBM:
test_library_peers.py; what every peer keeps: test_peers.py)."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import BUDGETS, catboost_columns, catboost_reference
from .helpers import problem as _problem

catboost = pytest.importorskip("catboost")

from budgetboost import InvalidParameterError  # noqa: E402
from budgetboost.estimators.peers import BudgetedCatBoost  # noqa: E402


def problem(n=300, d=10, seed=0):
    """The peers' problem at CatBoost's size (slower per tree than LightGBM)."""
    return _problem(n, d, seed)


# ---------------------------------------------------------------------- against CatBoost


def test_continuous_features_quantized_once_give_the_library_model():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 5))
    y = np.where(X[:, 0] + X[:, 1] ** 2 > 1, 1, -1)
    costs = rng.uniform(0, 2, 5)
    est = BudgetedCatBoost(
        iterations=15,
        learning_rate=0.1,
        depth=3,
        penalties_coefficient=1.0,
        validation_fraction=0.0,
        feature_costs=costs,
        random_state=0,
    ).fit(X, y)
    model = catboost_reference(est, 0, costs, X, y)
    np.testing.assert_array_equal(
        est.decision_function(X), model.predict(X, prediction_type="RawFormulaVal")
    )


def test_the_default_grid_scales_with_the_root_of_fit_rows_and_mean_cost():
    X, y, costs = problem()
    est = BudgetedCatBoost(iterations=3, depth=1, feature_costs=costs, random_state=0).fit(X, y)
    scale = np.sqrt(est.fit_rows_.size) / costs[costs > 0].mean()
    grid = scale * np.array([0.0, *(1e-3 * 4.0**i for i in range(7))])
    np.testing.assert_allclose(est.tradeoffs_, np.repeat(grid, 3))  # each with 3 rates


# ---------------------------------------------------------------------- cost accounting
def test_a_feature_first_used_later_costs_nothing_before():
    X, y, costs = problem()
    est = BudgetedCatBoost(
        iterations=30,
        learning_rate=0.2,
        depth=1,
        penalties_coefficient=1.0,
        validation_fraction=0.0,
        feature_costs=costs,
        random_state=0,
    ).fit(X, y)
    columns = catboost_columns(est.models_[0].model, X)
    first_use = {}
    for t, cols in enumerate(columns):
        for c in cols:
            first_use.setdefault(c, t)
    for k in range(len(columns) + 1):
        expected = sum(costs[c] for c, t in sorted(first_use.items()) if t < k)
        assert est.prefix_cost_[0][k] == pytest.approx(expected)


def test_every_example_pays_the_whole_prefix_of_symmetric_trees():
    X, y, costs = problem()
    est = BudgetedCatBoost(iterations=20, depth=3, feature_costs=costs, random_state=0).fit(X, y)
    ev = est.evaluate_at_budgets(X, y, BUDGETS)
    np.testing.assert_array_equal(ev.mean_example_cost, ev.spent)
    np.testing.assert_array_equal(ev.max_example_cost, ev.spent)


def test_depth_sets_the_splits_per_tree():
    X, y, costs = problem()
    stumps = BudgetedCatBoost(iterations=10, depth=1, feature_costs=costs, random_state=0).fit(X, y)
    assert all(len(tree) <= 1 for model in stumps.models_ for tree in model.tree_columns())
    deep = BudgetedCatBoost(
        iterations=10,
        learning_rate=0.2,
        depth=4,
        penalties_coefficient=0.0,
        validation_fraction=0.0,
        random_state=0,
    ).fit(X, y)
    assert max(len(tree) for tree in deep.models_[0].tree_columns()) == 4


def test_constant_columns_give_the_empty_model():
    X = np.ones((20, 3))
    y = np.array([1] * 12 + [-1] * 8)
    est = BudgetedCatBoost(iterations=5, random_state=0).fit(X, y)
    assert all(model.model is None and not model.tree_columns() for model in est.models_)
    np.testing.assert_array_equal(est.predict(X), 1)
    assert np.isnan(est.chosen_tradeoffs([np.inf])[0])


# ---------------------------------------------------------------------- parameters


def test_reserved_library_parameters_say_who_sets_them():
    with pytest.raises(InvalidParameterError, match="symmetric trees only"):
        BudgetedCatBoost.check_params({"params": {"grow_policy": "Lossguide"}})
    BudgetedCatBoost.check_params({"params": {"bootstrap_type": "No", "border_count": 16}})
