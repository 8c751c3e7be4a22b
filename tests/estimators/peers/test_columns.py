"""The columns the library peers are given: one ordinal column per attribute of thresholds."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetboost.estimators.peers.columns import ColumnEncoding


def thresholds(x: np.ndarray, cuts: np.ndarray) -> np.ndarray:
    """The binarizer's indicators ``x >= t`` of one attribute, one column per cut."""
    return (x[:, None] >= cuts[None, :]).astype(np.float64)


def attribute_problem(seed: int = 0, n: int = 120):
    """Two continuous attributes as thresholds (shuffled columns), a one-hot attribute,
    a continuous column and a constant indicator, with their groups."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=n), rng.uniform(size=n)
    cuts_a, cuts_b = np.quantile(a, np.linspace(0.1, 0.9, 9)), np.quantile(b, [0.3, 0.6])
    onehot = np.eye(3)[rng.integers(0, 3, n)]
    blocks = [
        (thresholds(a, cuts_a), 0),
        (onehot, 1),
        (thresholds(b, cuts_b), 2),
        (rng.normal(size=(n, 1)), 3),
        (np.zeros((n, 1)), 4),
    ]
    X = np.hstack([block for block, _ in blocks])
    groups = np.concatenate([np.full(block.shape[1], g) for block, g in blocks])
    order = rng.permutation(X.shape[1])
    return X[:, order], groups[order], (a, b), (cuts_a, cuts_b)


def test_an_attributes_thresholds_become_the_number_of_thresholds_reached():
    X, groups, (a, b), (cuts_a, cuts_b) = attribute_problem()
    encoding = ColumnEncoding.fit(X, groups)
    # a's 9 thresholds, b's 2: one column each; one-hot 3 columns; the continuous column;
    # the constant indicator
    assert sorted(encoding.group.tolist()) == [0, 1, 1, 1, 2, 3, 4]
    Z = encoding.transform(X)
    np.testing.assert_array_equal(Z[:, encoding.group == 0][:, 0], (a[:, None] >= cuts_a).sum(1))
    np.testing.assert_array_equal(Z[:, encoding.group == 2][:, 0], (b[:, None] >= cuts_b).sum(1))
    # columns given as they are: the one-hot categories and the continuous column
    for j in np.flatnonzero(np.isin(encoding.group, [1, 3, 4])):
        column = encoding.order[encoding.starts[j]]
        np.testing.assert_array_equal(Z[:, j], X[:, column])
    # library columns in the order of their first training column
    first = np.minimum.reduceat(encoding.order, encoding.starts)
    assert np.all(np.diff(first) > 0)


def test_new_rows_are_encoded_with_the_fit_rows_thresholds():
    X, groups, (a, _), (cuts_a, _) = attribute_problem(n=200)
    encoding = ColumnEncoding.fit(X[:120], groups)
    Z = encoding.transform(X[120:])
    np.testing.assert_array_equal(Z[:, encoding.group == 0][:, 0], (a[120:, None] >= cuts_a).sum(1))


def test_ungrouped_varying_columns_are_given_as_they_are():
    rng = np.random.default_rng(1)
    X = (rng.random((50, 6)) < 0.5).astype(np.float64)
    encoding = ColumnEncoding.fit(X, np.arange(6))
    assert encoding.identity and encoding.n_columns == 6
    assert encoding.transform(X) is X


def test_a_group_whose_columns_are_not_nested_keeps_every_column():
    rng = np.random.default_rng(2)
    X = (rng.random((80, 4)) < 0.5).astype(np.float64)
    encoding = ColumnEncoding.fit(X, np.zeros(4, dtype=int))
    assert encoding.identity and encoding.n_columns == 4


def test_constant_columns_are_given_as_they_are_and_join_no_attribute():
    rng = np.random.default_rng(3)
    x = rng.normal(size=40)
    X = np.hstack([thresholds(x, np.array([-0.5, 0.0, 0.5])), np.zeros((40, 1)), np.ones((40, 1))])
    encoding = ColumnEncoding.fit(X, np.zeros(5, dtype=int))
    assert encoding.n_columns == 3
    Z = encoding.transform(X)
    np.testing.assert_array_equal(Z[:, 0], (x[:, None] >= [-0.5, 0.0, 0.5]).sum(1))
    np.testing.assert_array_equal(Z[:, 1:], X[:, 3:])
    only = ColumnEncoding.fit(np.ones((5, 3)), np.zeros(3, dtype=int))
    assert only.identity


@given(
    n_cuts=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 60),
)
def test_the_ordinal_column_orders_rows_as_the_attribute(n_cuts, seed, n):
    """Property: the library column of an attribute's thresholds splits the rows exactly as
    its indicators do: ``Z >= k`` is the k-th threshold reached, on the fit rows and on new
    rows, whatever the order of the columns."""
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 20, size=2 * n).astype(np.float64)
    cuts = np.sort(rng.choice(np.arange(1, 20), size=min(n_cuts, 19), replace=False))
    holds = rng.permutation(cuts.size)  # column j is the threshold cuts[holds[j]]
    X = thresholds(x, cuts)[:, holds]
    encoding = ColumnEncoding.fit(X[:n], np.zeros(cuts.size, dtype=int))
    Z = encoding.transform(X)
    varying = [k for k in range(cuts.size) if 0 < (x[:n] >= cuts[k]).sum() < n]
    # the varying thresholds make one column, the constant ones are given as they are
    assert encoding.n_columns == min(len(varying), 1) + cuts.size - len(varying)
    if not varying:
        return
    wanted = {int(np.flatnonzero(holds == k)[0]) for k in varying}
    segments = np.split(encoding.order, encoding.starts[1:])
    ordinal = next(j for j, seg in enumerate(segments) if set(seg.tolist()) == wanted)
    # cuts are increasing: the i-th varying threshold is reached iff i + 1 of them are
    for i, k in enumerate(varying):
        np.testing.assert_array_equal(Z[:, ordinal] >= i + 1, x >= cuts[k])
    np.testing.assert_array_equal(Z[:, ordinal], (x[:, None] >= cuts[varying]).sum(1))


# ---------------------------------------------------------------------- the peers
def grouped_problem(seed: int = 0, n: int = 400):
    """Three attributes as thresholds, grouped, with one cost per attribute; the label
    depends on the first two."""
    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(n, 3))
    cuts = np.quantile(raw, np.linspace(0.05, 0.95, 19), axis=0)
    X = np.hstack([thresholds(raw[:, j], cuts[:, j]) for j in range(3)])
    groups = np.repeat(np.arange(3), 19)
    y = np.where(raw[:, 0] + raw[:, 1] + 0.5 * rng.normal(size=n) > 0, 1, -1)
    group_cost = np.array([1.0, 0.5, 2.0])
    ranks = np.stack([(raw[:, j, None] >= cuts[:, j]).sum(1) for j in range(3)], axis=1)
    return X, y, groups, group_cost, ranks.astype(np.float64)


@pytest.mark.parametrize("library", ["catboost", "lightgbm"])
def test_a_peer_gives_the_library_one_column_per_attribute(library):
    pytest.importorskip(library)
    from budgetboost.estimators.peers import BudgetedCatBoost, BudgetedLightGBM

    X, y, groups, group_cost, ranks = grouped_problem()
    kind = BudgetedCatBoost if library == "catboost" else BudgetedLightGBM
    trees = {"iterations": 20, "depth": 2} if library == "catboost" else {"n_estimators": 20}
    est = kind(
        **trees,
        learning_rate=0.2,
        validation_fraction=0.0,
        **{kind._tradeoff_name: 0.5},
        feature_costs=group_cost[groups],
        feature_groups=groups,
        random_state=0,
    ).fit(X, y)
    np.testing.assert_array_equal(est.encoding_.group, [0, 1, 2])
    np.testing.assert_array_equal(est.encoding_.transform(X), ranks)
    # the penalty of each library column is its attribute's cost, paid once
    model = est.models_[0]
    if library == "catboost":
        penalties = model.model.get_params()["first_feature_use_penalties"]
    else:
        penalties = model.booster.params["cegb_penalty_feature_coupled"]
    np.testing.assert_array_equal(penalties, group_cost)
    used = set(np.concatenate(model.tree_columns()).tolist())
    assert est.prefix_cost_[0][-1] == pytest.approx(group_cost[sorted(used)].sum())
    # predictions go through the same encoding
    ev = est.evaluate_at_budgets(X, y, [np.inf])
    raw = model.raw_scores(ranks, len(model.tree_columns()))
    np.testing.assert_array_equal(ev.error[0], np.mean((raw > 0) != (y > 0)))
