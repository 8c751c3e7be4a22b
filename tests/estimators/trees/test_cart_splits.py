"""The split search of the budgeted CART tree (budgetboost.estimators.trees.cart_splits): grown
trees
against the brute-force reference, thresholds, the trade-off between gain and cost."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from tree_reference import (
    SETTINGS,
    TRADEOFFS,
    fit_tree,
    ref_grow,
    reference_groups,
    tree_problems,
)

from budgetboost.estimators.trees import cart_splits
from budgetboost.estimators.trees.budgeted_tree import BudgetedTree


# ---------------------------------------------------------------------------- growth
@SETTINGS
@given(problem=tree_problems(), criterion=st.sampled_from(["gini", "entropy"]), tradeoff=TRADEOFFS)
def test_grown_tree_matches_brute_force(problem, criterion, tradeoff):
    X, y, costs, groups = problem
    model = fit_tree(problem, tradeoff, criterion=criterion)
    group, group_cost = reference_groups(groups, costs)
    ref = ref_grow(X.tolist(), y.tolist(), group, group_cost, criterion, tradeoff or 0.0)
    assert model.feature_.tolist() == [r[0] for r in ref]
    thresholds = [None if np.isnan(v) else v for v in model.threshold_.tolist()]
    assert thresholds == [r[1] for r in ref]
    assert model.value_.tolist() == [[r[2], r[3]] for r in ref]
    ref_cost = [math.fsum(group_cost[g] for g in r[4]) for r in ref]
    np.testing.assert_allclose(model.path_cost_, ref_cost, rtol=1e-12)
    assert model.path_n_groups_.tolist() == [len(r[4]) for r in ref]


@SETTINGS
@given(problem=tree_problems(max_m=14), tradeoff=TRADEOFFS)
def test_blocked_split_search_is_identical(problem, tradeoff):
    X, y, costs, groups = problem
    X = X + 0.5 * (X > 0)  # not 0/1: the sorted search
    whole = fit_tree((X, y, costs, groups), tradeoff)
    saved = cart_splits._BLOCK
    cart_splits._BLOCK = 1  # one column per block
    try:
        blocked = fit_tree((X, y, costs, groups), tradeoff)
    finally:
        cart_splits._BLOCK = saved
    np.testing.assert_array_equal(whole.feature_, blocked.feature_)
    np.testing.assert_array_equal(whole.threshold_, blocked.threshold_)


def test_thresholds_are_the_boosters():
    """Numeric column: a training value above the left side; 0/1 column: exactly 1."""
    X = np.array([[0.0, 0], [1.5, 0], [4.0, 1], [7.0, 1]])
    y = np.array([0, 0, 1, 1])
    model = BudgetedTree().fit(X, y)
    assert model.feature_[0] == 0 and model.threshold_[0] == 4.0  # first of the tied splits
    model = BudgetedTree().fit(X[:, [1]], y)
    assert model.threshold_[0] == 1.0


def test_xor_node_stays_a_leaf():
    """Grown until pure or no split improves: no single split of XOR improves Gini."""
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    model = BudgetedTree().fit(X, [0, 1, 1, 0])
    assert model.feature_.tolist() == [-1]


def test_fixed_tradeoff_picks_the_cheap_feature_on_equal_gains():
    rng = np.random.default_rng(0)
    col = rng.integers(0, 2, 30)
    X = np.column_stack([col, col]).astype(float)
    y = col ^ (rng.random(30) < 0.2)
    plain = BudgetedTree(feature_costs=[5.0, 1.0]).fit(X, y)
    cheap = fit_tree((X, y, np.array([5.0, 1.0]), None), 0.001)
    assert plain.feature_[0] == 0  # equal gains: the lower column
    assert cheap.feature_[0] == 1


def _strong_and_weak(seed, agreement):
    rng = np.random.default_rng(seed)
    strong = rng.integers(0, 2, 200)
    weak = np.where(rng.random(200) < agreement, strong, 1 - strong)
    X = np.column_stack([strong, weak]).astype(float)
    gains = [
        float(
            cart_splits.split_gains(
                X[:, j].sum(), (X[:, j] * strong).sum(), 200, strong.sum(), "gini"
            )
        )
        for j in (0, 1)
    ]
    return X, strong, gains


def test_fixed_tradeoff_trades_gain_for_cost():
    """Score gain - lambda * cost: the weaker feature wins exactly when cheap enough."""
    X, y, (g0, g1) = _strong_and_weak(1, 0.7)
    assert g0 > g1 > 0
    costs = np.array([1.0, 0.1])
    crossing = (g0 - g1) / (costs[0] - costs[1])  # g0 - l c0 = g1 - l c1
    assert g1 - 1.1 * crossing * costs[1] > 0  # both splits pay for themselves
    assert fit_tree((X, y, costs, None), 0.9 * crossing).feature_[0] == 0
    assert fit_tree((X, y, costs, None), 1.1 * crossing).feature_[0] == 1
    # a split is made only when it pays for its cost: gain > lambda * cost
    assert fit_tree((X, y, np.array([1.0, 1.0]), None), 1.01 * g0).feature_.tolist() == [-1]
    # a free column is split on whatever the trade-off
    assert fit_tree((X, y, np.array([1.0, 0.0]), None), 1e6).feature_[0] == 1


def test_a_group_paid_above_is_free():
    """A second threshold of the root's feature costs nothing on the path."""
    # cells (x0, x1): examples, positives; x0 < 2 all negative, on x0 >= 2 x1 gains more
    cells = {
        (0, 0): (5, 0),
        (0, 1): (5, 0),
        (1, 0): (5, 0),
        (1, 1): (5, 0),
        (2, 0): (5, 0),
        (2, 1): (5, 4),
        (3, 0): (5, 1),
        (3, 1): (5, 5),
    }
    rows = [(a, b, int(i < pos)) for (a, b), (n, pos) in cells.items() for i in range(n)]
    x0, x1, y = (np.array(c, dtype=float) for c in zip(*rows, strict=True))
    X = np.column_stack([x0, x1])
    costs = np.array([1.0, 1.0])
    plain = BudgetedTree(feature_costs=costs).fit(X, y)
    right = plain.children_right_[0]
    assert plain.feature_[0] == 0 and plain.threshold_[0] == 2.0
    assert plain.feature_[right] == 1  # x1 gains more on x0 >= 2 ...
    sub = x0 >= 2
    n, n1 = sub.sum(), y[sub].sum()
    g_x1 = cart_splits.split_gains(x1[sub].sum(), (x1 * y)[sub].sum(), n, n1, "gini")
    g_x0 = cart_splits.split_gains((x0[sub] >= 3).sum(), ((x0 >= 3) * y)[sub].sum(), n, n1, "gini")
    assert g_x1 > g_x0 > 0
    cheap_root = np.array([0.1, 1.0])  # x0 cheap enough to stay the root split
    cs = fit_tree((X, y, cheap_root, None), 1.5 * (g_x1 - g_x0))
    assert cs.feature_[0] == 0 and cs.threshold_[0] == 2.0
    assert cs.feature_[cs.children_right_[0]] == 0  # ... but the free re-split on x0 wins


def test_tradeoff_zero_is_plain_cart():
    rng = np.random.default_rng(9)
    X = rng.integers(0, 4, size=(120, 5)).astype(float)
    y = (X[:, 0] + X[:, 3] + rng.integers(0, 3, 120) > 4).astype(int)
    costs = rng.uniform(0, 2, 5)
    plain = BudgetedTree(feature_costs=costs).fit(X, y)
    zero = fit_tree((X, y, costs, None), 0.0)
    for name in ("feature_", "threshold_", "value_", "path_cost_"):
        np.testing.assert_array_equal(getattr(plain, name), getattr(zero, name))
    assert np.isnan(plain.chosen_tradeoffs([1.0, np.inf])).all()  # no trade-off
    assert plain.tradeoffs_.tolist() == [0.0]
