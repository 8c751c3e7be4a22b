"""The starting forest of BudgetPrune: grown on the columns a price bound allows
(scikit-learn's random forest), kept as arrays.

Part of :mod:`budgetboost.estimators.pruning` (BudgetPrune, Nan, Wang & Saligrama 2016).
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

from ..contract.params import NonNegativeVector
from ..contract.threads import thread_limit

__all__ = [
    "ColumnCostGrid",
    "DEFAULT_COLUMN_SHARES",
    "Forest",
    "column_cost_grid",
    "columns_within",
    "grow_forest",
]

#: Default ``max_column_cost`` grid (``"auto"``): the least prices at or below which these
#: shares of the feature groups lie (each group at its full price), then ``inf`` (every
#: column): forests on the cheapest eighth, quarter and half of the groups, and on all.
DEFAULT_COLUMN_SHARES = (1 / 8, 1 / 4, 1 / 2)


@dataclass(frozen=True, eq=False)
class Forest:
    """A grown forest as flat arrays over all its nodes, tree after tree.

    Attributes
    ----------
    left, right : ndarray of int, shape (n_nodes,)
        Child for ``x <= threshold`` and for ``x > threshold`` (scikit-learn's rule, on
        ``x`` as float32); ``-1`` at leaves.
    feature : ndarray of int, shape (n_nodes,)
        Column split on; ``-1`` at leaves.
    threshold : ndarray of shape (n_nodes,)
    group : ndarray of int, shape (n_nodes,)
        Feature group of the column split on; ``-1`` at leaves.
    parent : ndarray of int, shape (n_nodes,)
        ``-1`` at roots.
    score : ndarray of shape (n_nodes,)
        What the node says as a leaf: ``2 p - 1``, ``p`` the share of ``classes_[1]`` among
        the tree's bootstrap examples at the node (the tree's class probability).
    vote : ndarray of shape (n_nodes,)
        The node's majority class as -1/+1 (ties: the training majority); the label whose
        errors the pruning counts.
    roots, depths : ndarray of int, shape (n_trees,)
        Each tree's root and depth.
    """

    left: np.ndarray
    right: np.ndarray
    feature: np.ndarray
    threshold: np.ndarray
    group: np.ndarray
    parent: np.ndarray
    score: np.ndarray
    vote: np.ndarray
    roots: np.ndarray
    depths: np.ndarray

    @property
    def n_nodes(self) -> int:
        return int(self.left.size)

    @property
    def internal(self) -> np.ndarray:
        return self.left >= 0

    def paths(self, X: np.ndarray) -> list[np.ndarray]:
        """Each tree's root-to-leaf path of every row of ``X``: one (n_rows, depth + 1)
        array of node ids per tree, rows padded with the leaf reached (one numpy step per
        level). ``X`` is compared as float32, as scikit-learn does."""
        X32 = np.asarray(X, dtype=np.float32)
        rows = np.arange(X32.shape[0])
        out = []
        for root, depth in zip(self.roots, self.depths, strict=True):
            node = np.full(X32.shape[0], root, dtype=np.intp)
            columns = [node]
            for _ in range(int(depth)):
                inner = self.left[node] >= 0
                value = X32[rows, np.maximum(self.feature[node], 0)]
                child = np.where(value > self.threshold[node], self.right[node], self.left[node])
                node = np.where(inner, child, node)
                columns.append(node)
            out.append(np.stack(columns, axis=1))
        return out


def grow_forest(
    X: np.ndarray,
    y: np.ndarray,
    group_of_column: np.ndarray,
    majority: float,
    *,
    n_estimators: int,
    max_features: Any,
    max_depth: int | None,
    min_samples_leaf: int,
    seed: int,
    columns: np.ndarray | None = None,
) -> Forest:
    """A scikit-learn random forest on ``(X, y)`` as a :class:`Forest`.

    Bootstrap samples, ``max_features`` columns drawn at each split (Breiman 2001), gini;
    ``n_jobs`` is :func:`~budgetboost.estimators.contract.threads.thread_limit` (the trees
    do not depend on it). With ``columns`` the forest is grown on those columns of ``X``
    alone (scikit-learn never sees the others, so no tree splits on them) and its nodes name
    the columns of ``X`` they split on.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of shape (n_samples,)
        -1/+1, both present.
    group_of_column : ndarray of int, shape (n_features,)
        The feature group of each column.
    majority : float
        The training majority class (-1/+1): the vote of a node whose classes tie.
    n_estimators, max_features, max_depth, min_samples_leaf :
        scikit-learn's ``RandomForestClassifier`` parameters.
    seed : int
        scikit-learn's ``random_state``.
    columns : ndarray of int, shape (n_columns,), optional
        The columns the forest may split on, increasing (None: all); an integer
        ``max_features`` is capped at their number.
    """
    from sklearn.ensemble import RandomForestClassifier

    if columns is not None:
        X = X[:, columns]
        if isinstance(max_features, Integral):
            max_features = min(int(max_features), columns.size)
    forest = RandomForestClassifier(
        n_estimators=n_estimators,
        max_features=max_features,
        max_depth=max_depth,
        min_samples_leaf=min_samples_leaf,
        bootstrap=True,
        random_state=seed,
        n_jobs=thread_limit(),
    ).fit(X, (y > 0).astype(np.int64))
    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("left", "right", "feature", "thr", "p")}
    roots, depths, offset = [], [], 0
    for estimator in forest.estimators_:
        tree = estimator.tree_
        inner = tree.children_left >= 0
        parts["left"].append(np.where(inner, tree.children_left + offset, -1))
        parts["right"].append(np.where(inner, tree.children_right + offset, -1))
        parts["feature"].append(np.where(inner, tree.feature, -1))
        parts["thr"].append(np.where(inner, tree.threshold, np.nan))
        value = tree.value[:, 0, :]  # both classes: the forest's y holds both
        parts["p"].append(value[:, 1] / value.sum(axis=1))
        roots.append(offset)
        depths.append(int(tree.max_depth))
        offset += tree.node_count
    left, right = (np.concatenate(parts[k]).astype(np.intp) for k in ("left", "right"))
    feature = np.concatenate(parts["feature"]).astype(np.intp)
    if columns is not None:  # the grown forest's column k is the column columns[k] of X
        feature = np.where(feature >= 0, columns[np.maximum(feature, 0)], -1)
    p = np.concatenate(parts["p"])
    parent = np.full(left.size, -1, dtype=np.intp)
    inner = np.flatnonzero(left >= 0)
    parent[left[inner]] = inner
    parent[right[inner]] = inner
    vote = np.where(p > 0.5, 1.0, np.where(p < 0.5, -1.0, majority))
    return Forest(
        left=left,
        right=right,
        feature=feature,
        threshold=np.concatenate(parts["thr"]).astype(np.float64),
        group=np.where(feature >= 0, group_of_column[np.maximum(feature, 0)], -1),
        parent=parent,
        score=2.0 * p - 1.0,
        vote=vote,
        roots=np.asarray(roots, dtype=np.intp),
        depths=np.asarray(depths, dtype=np.intp),
    )


def column_cost_grid(max_column_cost: Any, group_cost: np.ndarray) -> np.ndarray:
    """The ``max_column_cost`` values (``tau``) to grow forests under, increasing.

    Parameters
    ----------
    max_column_cost : None, "auto", float or array-like of float
        None: ``inf`` alone (every column); ``"auto"``: the least price at or below which
        each share of :data:`DEFAULT_COLUMN_SHARES` of the feature groups lies (the
        ``ceil(share * n_groups)``-th smallest full price), then ``inf``; numbers >= 0
        (``inf`` allowed): those.
    group_cost : ndarray of shape (n_groups,)
        Each feature group's full price (alone, with Turney's discount groups: the tau
        filter compares a group's own price, whatever else an example reads).

    Returns
    -------
    ndarray of float64
        One ``tau`` per distinct set of feature groups priced at most ``tau``, the largest
        of those giving the same set (so ``inf`` stands for every column); a ``tau`` below
        every price (no column) is dropped.
    """
    if max_column_cost is None:
        return np.array([np.inf])
    price = np.sort(np.asarray(group_cost, dtype=np.float64))
    if isinstance(max_column_cost, str):  # "auto"
        count = np.ceil(np.asarray(DEFAULT_COLUMN_SHARES) * price.size).astype(np.intp)
        taus = np.append(price[np.maximum(count, 1) - 1], np.inf)
    else:
        taus = np.atleast_1d(np.asarray(max_column_cost, dtype=np.float64))
    taus = np.unique(taus)
    admitted = np.searchsorted(price, taus, side="right")
    last = np.append(admitted[1:] != admitted[:-1], True)  # the largest tau of each set
    return taus[last & (admitted > 0)]


def columns_within(
    tau: float, group_of_column: np.ndarray, group_cost: np.ndarray
) -> np.ndarray | None:
    """The columns whose feature group's full price is at most ``tau``, increasing; None
    when that is every column (the forest is grown on ``X`` itself)."""
    within = group_cost[group_of_column] <= tau
    return None if within.all() else np.flatnonzero(within)


class ColumnCostGrid(NonNegativeVector):
    """A non-empty 1-d array-like of numbers >= 0, ``inf`` allowed: the ``tau`` to grow
    forests under (``inf``: every column)."""

    description = "a non-empty 1-d array-like of numbers >= 0 (inf: every column)"

    def is_satisfied_by(self, value: Any) -> bool:
        array = self._numbers(value)
        return array is not None and array.size > 0 and bool(np.all(array >= 0))

    def explain(self, value: Any) -> str | None:
        array = self._numbers(value)
        if array is not None and array.size == 0:
            return "got an empty grid"
        bad = np.flatnonzero(~(array >= 0)) if array is not None else []
        return f"got {array[bad[0]]} at index {bad[0]}" if len(bad) else None
