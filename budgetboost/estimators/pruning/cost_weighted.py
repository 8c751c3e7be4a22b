"""A cost-aware starting forest for BudgetPrune: trees grown with BudgetRF's cost-weighted
impurity (Nan, Wang & Saligrama, ICML 2015), kept as a :class:`~.forest.Forest`.

Each tree is grown on a bootstrap sample of the rows, with ``max_features`` columns drawn at
each node (as Breiman's forest); among the splits of the drawn columns the one of largest
impurity reduction *per unit of price* is taken: the gini reduction of the split divided by
the marginal price of the column's feature group on the node's path, a group already paid
for higher on the path costing nothing (so, under any prices, a tree re-uses what its
examples already bought) and, with Turney's discount groups, a group whose discount group
is already touched on the path costing only its discount price. A split on a free group
beats every split on a priced one (its ratio is infinite); among free splits, the largest
reduction wins. Under equal prices the criterion still differs from gini's: re-reading a
paid group is free; under per-column prices it weighs each indicator's reduction by its
price.

Part of :mod:`budgetboost.estimators.pruning` (BudgetPrune, Nan, Wang & Saligrama 2016).
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np

from ..contract.pricing import Pricing
from .forest import Forest

__all__ = ["best_split", "grow_cost_weighted_forest", "n_candidates"]

#: A reduction at most this share of the node's weighted gini is no reduction (rounding).
_GAIN_TOL = 1e-12


def n_candidates(max_features: Any, n_columns: int) -> int:
    """Columns drawn at each node, in scikit-learn's meaning of ``max_features``."""
    if max_features is None:
        return n_columns
    if isinstance(max_features, str):
        root = np.sqrt(n_columns) if max_features == "sqrt" else np.log2(max(n_columns, 1))
        return max(1, min(n_columns, int(root)))
    if isinstance(max_features, Integral):
        return max(1, min(n_columns, int(max_features)))
    if isinstance(max_features, Real):
        return max(1, min(n_columns, int(float(max_features) * n_columns)))
    raise ValueError(f"max_features: {max_features!r} is not a count, a share or a name")


def _gini_sum(weight: np.ndarray, positive: np.ndarray) -> np.ndarray:
    """``W g(P / W)`` with ``g(p) = 2 p (1 - p)`` (0 where ``W = 0``)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        value = 2.0 * positive * (weight - positive) / weight
    return np.where(weight > 0, value, 0.0)


def _column_gains(
    X: np.ndarray,
    binary: np.ndarray,
    weight: np.ndarray,
    positive: np.ndarray,
    min_samples_leaf: int,
) -> tuple[np.ndarray, np.ndarray]:
    """The best gini reduction of each column of ``X`` (the node's rows) and its threshold
    (midpoint between two consecutive distinct values; ``-inf`` gain: no valid split).

    Every column at once: a 0/1 column (``binary``) by sums of its rows' weights (its one
    cut, at 0.5), any other by sorted values and cumulative weights (every cut evaluated).
    """
    n, m = X.shape
    gain, threshold = np.full(m, -np.inf), np.full(m, 0.5)
    if n < 2:
        return gain, threshold
    total_w, total_p = weight.sum(), positive.sum()
    parent = _gini_sum(np.array(total_w), np.array(total_p))
    zero = X[:, binary] == 0
    if zero.size:
        w_left, p_left, count = weight @ zero, positive @ zero, zero.sum(axis=0)
        children = _gini_sum(w_left, p_left) + _gini_sum(total_w - w_left, total_p - p_left)
        valid = (count >= max(min_samples_leaf, 1)) & (n - count >= max(min_samples_leaf, 1))
        gain[binary] = np.where(valid, parent - children, -np.inf)
    other = np.flatnonzero(~binary)
    if other.size:
        block = X[:, other].astype(np.float64)
        order = np.argsort(block, axis=0, kind="stable")
        values = np.take_along_axis(block, order, axis=0)
        w_left = np.cumsum(weight[order], axis=0)[:-1]
        p_left = np.cumsum(positive[order], axis=0)[:-1]
        count = np.arange(1, n)[:, None]
        valid = (
            (values[1:] > values[:-1])
            & (count >= min_samples_leaf)
            & (n - count >= min_samples_leaf)
        )
        children = _gini_sum(w_left, p_left) + _gini_sum(total_w - w_left, total_p - p_left)
        cuts = np.where(valid, parent - children, -np.inf)
        cut = np.argmax(cuts, axis=0)  # the first best cut of each column
        at = np.arange(other.size)
        gain[other] = cuts[cut, at]
        threshold[other] = (values[cut, at] + values[cut + 1, at]) / 2.0
    return gain, threshold


def best_split(
    X: np.ndarray,
    binary: np.ndarray,
    weight: np.ndarray,
    positive: np.ndarray,
    price: np.ndarray,
    min_samples_leaf: int,
) -> tuple[int, float]:
    """The cost-weighted split of a node among some drawn columns (module docstring).

    Parameters
    ----------
    X : ndarray of shape (n_rows, n_drawn)
        The node's rows on the drawn columns, in draw order (ties go to the earlier), as
        float32 (the forest compares them so).
    binary : ndarray of bool, shape (n_drawn,)
        Which columns hold only 0 and 1 (a shortcut; any column may be marked False).
    weight, positive : ndarray of shape (n_rows,)
        Each row's bootstrap weight, and that weight where the row is positive.
    price : ndarray of shape (n_drawn,)
        The marginal price of each drawn column's group on the node's path.
    min_samples_leaf : int
        Least number of (distinct) rows on each side.

    Returns
    -------
    (index, threshold)
        Index of the chosen column among the drawn ones (``-1``: no split reduces the
        impurity; the node is a leaf) and its threshold (``x <= threshold`` goes left).
    """
    gain, threshold = _column_gains(X, binary, weight, positive, min_samples_leaf)
    floor = _GAIN_TOL * max(float(_gini_sum(np.array(weight.sum()), np.array(positive.sum()))), 1)
    useful = gain > floor
    if not useful.any():
        return -1, np.nan
    free = useful & (price <= 0)
    if free.any():
        pick = int(np.argmax(np.where(free, gain, -np.inf)))
    else:
        ratio = np.where(useful, gain / np.where(useful, price, 1.0), -np.inf)
        pick = int(np.argmax(ratio))
    return pick, float(threshold[pick])


def _marginal_price(
    groups: np.ndarray, paid: np.ndarray, touched: np.ndarray, pricing: Pricing
) -> np.ndarray:
    """What reading each of ``groups`` adds on a path that paid ``paid`` (bool per group)
    and touched ``touched`` (bool per discount group)."""
    if not pricing.discounted:
        return np.where(paid[groups], 0.0, pricing.cost[groups])
    d = pricing.discount_group[groups]
    shared = np.where((d >= 0) & ~touched[np.maximum(d, 0)], pricing.shared[np.maximum(d, 0)], 0.0)
    return np.where(paid[groups], 0.0, pricing.base[groups] + shared)


def _grow_tree(
    X: np.ndarray,
    binary: np.ndarray,
    positive_row: np.ndarray,
    counts: np.ndarray,
    group_of_column: np.ndarray,
    pricing: Pricing,
    *,
    n_draw: int,
    max_depth: int | None,
    min_samples_leaf: int,
    rng: np.random.Generator,
) -> dict[str, list]:
    """One tree on the rows with ``counts > 0`` (bootstrap weights), depth first, left
    child first; nodes numbered as created (a node's children follow it)."""
    n_columns = X.shape[1]
    tree: dict[str, list] = {k: [] for k in ("left", "right", "feature", "thr", "p", "depth")}

    def new_node(rows: np.ndarray, depth: int) -> int:
        w = counts[rows]
        tree["p"].append(float((w * positive_row[rows]).sum() / w.sum()))
        for key, value in (("left", -1), ("right", -1), ("feature", -1), ("thr", np.nan)):
            tree[key].append(value)
        tree["depth"].append(depth)
        return len(tree["p"]) - 1

    root_rows = np.flatnonzero(counts > 0)
    stack = [
        (
            new_node(root_rows, 0),
            root_rows,
            np.zeros(pricing.cost.size, dtype=bool),
            np.zeros(pricing.shared.size, dtype=bool),
        )
    ]
    while stack:
        node, rows, paid, touched = stack.pop()
        depth = tree["depth"][node]
        w = counts[rows].astype(np.float64)
        wp = w * positive_row[rows]
        pure = wp.sum() == 0 or wp.sum() == w.sum()
        if (
            pure
            or (max_depth is not None and depth >= max_depth)
            or rows.size < 2 * min_samples_leaf
        ):
            continue
        drawn = (
            np.arange(n_columns)
            if n_draw >= n_columns
            else rng.choice(n_columns, size=n_draw, replace=False)
        )
        price = _marginal_price(group_of_column[drawn], paid, touched, pricing)
        pick, threshold = best_split(
            X[np.ix_(rows, drawn)], binary[drawn], w, wp, price, min_samples_leaf
        )
        if pick < 0:
            continue
        column = int(drawn[pick])
        go_left = X[rows, column] <= threshold
        g = int(group_of_column[column])
        paid, touched = paid.copy(), touched.copy()
        paid[g] = True
        if pricing.discounted and pricing.discount_group[g] >= 0:
            touched[pricing.discount_group[g]] = True
        left = new_node(rows[go_left], depth + 1)
        right = new_node(rows[~go_left], depth + 1)
        tree["left"][node], tree["right"][node] = left, right
        tree["feature"][node], tree["thr"][node] = column, threshold
        stack.append((right, rows[~go_left], paid, touched))
        stack.append((left, rows[go_left], paid, touched))
    return tree


def grow_cost_weighted_forest(
    X: np.ndarray,
    y: np.ndarray,
    group_of_column: np.ndarray,
    pricing: Pricing,
    majority: float,
    *,
    n_estimators: int,
    max_features: Any,
    max_depth: int | None,
    min_samples_leaf: int,
    seed: int,
) -> Forest:
    """A forest of trees grown with the cost-weighted impurity (module docstring).

    Each tree draws its bootstrap sample (``n`` rows with replacement, as counts) and then
    its nodes' columns from one generator seeded by ``seed``, tree after tree; a node's
    score is ``2 p - 1``, ``p`` the bootstrap-weighted share of positives there.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        -1/+1, both present.
    group_of_column : ndarray of int, shape (n_features,)
    pricing : Pricing
        The prices of the feature groups (the contract's, discount groups included).
    majority : float
        The training majority class (-1/+1): the vote of a node whose classes tie.
    n_estimators, max_features, max_depth, min_samples_leaf :
        As scikit-learn's ``RandomForestClassifier``'s.
    seed : int
    """
    X = np.asarray(X, dtype=np.float32)  # compared as Forest.paths compares them
    binary = np.all((X == 0) | (X == 1), axis=0)
    positive = (np.asarray(y) > 0).astype(np.float64)
    n = X.shape[0]
    rng = np.random.default_rng(seed)
    n_draw = n_candidates(max_features, X.shape[1])
    trees = []
    for _ in range(int(n_estimators)):
        counts = np.bincount(rng.integers(0, n, size=n), minlength=n)
        trees.append(
            _grow_tree(
                X,
                binary,
                positive,
                counts,
                np.asarray(group_of_column),
                pricing,
                n_draw=n_draw,
                max_depth=max_depth,
                min_samples_leaf=int(min_samples_leaf),
                rng=rng,
            )
        )
    return _as_forest(trees, np.asarray(group_of_column), majority)


def _as_forest(
    trees: list[dict[str, list]], group_of_column: np.ndarray, majority: float
) -> Forest:
    """The trees' node lists as one :class:`Forest` (ids offset tree after tree)."""
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("left", "right", "feature", "thr", "p")}
    roots, depths, offset = [], [], 0
    for tree in trees:
        left, right = np.asarray(tree["left"]), np.asarray(tree["right"])
        parts["left"].append(np.where(left >= 0, left + offset, -1))
        parts["right"].append(np.where(right >= 0, right + offset, -1))
        parts["feature"].append(np.asarray(tree["feature"]))
        parts["thr"].append(np.asarray(tree["thr"], dtype=np.float64))
        parts["p"].append(np.asarray(tree["p"], dtype=np.float64))
        roots.append(offset)
        depths.append(int(max(tree["depth"])))
        offset += left.size
    left, right, feature = (
        np.concatenate(parts[k]).astype(np.intp) for k in ("left", "right", "feature")
    )
    p = np.concatenate(parts["p"])
    parent = np.full(left.size, -1, dtype=np.intp)
    inner = np.flatnonzero(left >= 0)
    parent[left[inner]] = inner
    parent[right[inner]] = inner
    return Forest(
        left=left,
        right=right,
        feature=feature,
        threshold=np.concatenate(parts["thr"]),
        group=np.where(feature >= 0, group_of_column[np.maximum(feature, 0)], -1),
        parent=parent,
        score=2.0 * p - 1.0,
        vote=np.where(p > 0.5, 1.0, np.where(p < 0.5, -1.0, majority)),
        roots=np.asarray(roots, dtype=np.intp),
        depths=np.asarray(depths, dtype=np.intp),
    )
