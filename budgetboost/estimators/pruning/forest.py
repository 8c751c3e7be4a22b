"""The starting forest of BudgetPrune: scikit-learn's random forest, kept as arrays (the
cost-aware one, BudgetRF's, is :mod:`.cost_weighted`).

Part of :mod:`budgetboost.estimators.pruning` (BudgetPrune, Nan, Wang & Saligrama 2016).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..contract.threads import thread_limit

__all__ = ["Forest", "grow_forest"]


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
) -> Forest:
    """A scikit-learn random forest on ``(X, y)`` as a :class:`Forest`.

    Bootstrap samples, ``max_features`` columns drawn at each split (Breiman 2001), gini;
    ``n_jobs`` is :func:`~budgetboost.estimators.contract.threads.thread_limit` (the trees
    do not depend on it).

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
    """
    from sklearn.ensemble import RandomForestClassifier

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
