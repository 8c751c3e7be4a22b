"""An optimal tree as arrays, pruned to a per-example budget (:class:`StreedTree`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..contract.base import (
    BudgetCosts,
    TrainingData,
)
from ..contract.tuning import (
    EMPTY_SCORE,
)
from .solver import CandidateTests

__all__ = ["StreedTree"]


@dataclass(frozen=True, eq=False)
class StreedTree:
    """A fitted tree as arrays over its nodes (preorder), and what it is pruned to a budget.

    At budget ``B`` an example descends its path until it reaches a leaf or a node whose
    split would raise what it pays above ``B`` (``split_cost > B``); that node is its leaf
    and predicts the majority of the training rows that reach it. Prices only grow down a
    path, so this is the grown tree with every subtree of ``split_cost > B`` cut: the largest
    pruning of the tree within the budget, which changes only at the ``split_cost`` values.

    Attributes
    ----------
    feature, threshold : ndarray of shape (n_nodes,)
        Split ``x[feature] >= threshold`` (right child) of each internal node; ``-1`` and
        ``nan`` at leaves.
    left, right, parent : ndarray of int, shape (n_nodes,)
        ``-1`` where there is none.
    value : ndarray of int, shape (n_nodes, 2)
        Training rows of each class reaching each node.
    reach_cost : ndarray of shape (n_nodes,)
        What an example pays to reach the node: the price of the feature groups split on
        above it.
    split_cost : ndarray of shape (n_nodes,)
        What an example pays to reach the node's children (``inf`` at leaves).
    n_groups : ndarray of int, shape (n_nodes,)
        Feature groups split on above the node.
    depth : int
        Depth of the tree (0: a leaf).
    """

    feature: np.ndarray
    threshold: np.ndarray
    left: np.ndarray
    right: np.ndarray
    parent: np.ndarray
    value: np.ndarray
    reach_cost: np.ndarray
    split_cost: np.ndarray
    n_groups: np.ndarray
    depth: int

    @classmethod
    def build(
        cls,
        root: Any,
        tests: CandidateTests,
        X: np.ndarray,
        y1: np.ndarray,
        data: TrainingData,
    ) -> StreedTree:
        """The tree of pystreed's ``root`` over ``tests``, its node counts on ``(X, y1)``.

        pystreed sends an example whose test is 0 to ``left_child``, 1 to ``right_child``.
        """
        feature, threshold, left, right, parent, groups = [], [], [], [], [], []
        stack = [(root, -1, False, ())]  # (node, parent, is right child, groups above)
        while stack:  # preorder over the nodes
            node, up, is_right, above = stack.pop()
            index = len(feature)
            if up >= 0:
                (right if is_right else left)[up] = index
            parent.append(up)
            groups.append(above)
            left.append(-1)
            right.append(-1)
            if node.is_leaf_node():
                feature.append(-1)
                threshold.append(np.nan)
                continue
            t = int(node.feature)
            feature.append(int(tests.column[t]))
            threshold.append(float(tests.threshold[t]))
            below = tuple(sorted({*above, int(tests.group[t])}))
            stack.append((node.right_child, index, True, below))
            stack.append((node.left_child, index, False, below))
        pricing = data.pricing
        internal = np.asarray(feature) >= 0
        split_groups = [
            sorted({*g, int(data.group_of_column[f])}) if f >= 0 else []
            for g, f in zip(groups, feature, strict=True)
        ]
        tree = cls(
            feature=np.asarray(feature, dtype=np.intp),
            threshold=np.asarray(threshold, dtype=np.float64),
            left=np.asarray(left, dtype=np.intp),
            right=np.asarray(right, dtype=np.intp),
            parent=np.asarray(parent, dtype=np.intp),
            value=np.zeros((len(feature), 2), dtype=np.int64),
            reach_cost=np.array([pricing.set_cost(np.asarray(g, dtype=np.intp)) for g in groups]),
            split_cost=np.where(
                internal,
                [pricing.set_cost(np.asarray(g, dtype=np.intp)) for g in split_groups],
                np.inf,
            ),
            n_groups=np.array([len(g) for g in groups], dtype=np.int64),
            depth=_depth(np.asarray(parent, dtype=np.intp)),
        )
        paths = tree.paths(X)
        new = np.ones(paths.shape, dtype=bool)
        new[:, 1:] = paths[:, 1:] != paths[:, :-1]  # each node of a path once
        labels = np.broadcast_to(y1[:, None], paths.shape)
        counts = np.bincount(2 * paths[new] + labels[new], minlength=2 * tree.feature.size)
        tree.value[:] = counts.reshape(-1, 2)
        return tree

    @property
    def n_nodes(self) -> int:
        return int(self.feature.size)

    def paths(self, X: np.ndarray) -> np.ndarray:
        """Node ids on each example's path: (n_samples, depth + 1), padded with its leaf."""
        rows = np.arange(X.shape[0])
        node = np.zeros(X.shape[0], dtype=np.intp)
        columns = [node]
        for _ in range(self.depth):  # one vectorised step per level
            f = self.feature[node]
            inner = f >= 0
            go_right = X[rows, np.where(inner, f, 0)] >= self.threshold[node]
            node = np.where(inner, np.where(go_right, self.right[node], self.left[node]), node)
            columns.append(node)
        return np.stack(columns, axis=1)

    def leaves(self, paths: np.ndarray, budgets: np.ndarray) -> np.ndarray:
        """Each example's leaf in the tree pruned to each budget: (n_budgets, n_samples).

        The leaf is the node after the path's internal nodes of ``split_cost <= B`` (a
        prefix of the path: ``split_cost`` grows down it; at ``B = inf``, the grown leaf).
        """
        internal = self.feature[paths] >= 0
        affordable = internal & (self.split_cost[paths] <= budgets[:, None, None])
        return np.take_along_axis(paths[None, :, :], affordable.sum(axis=2)[..., None], axis=2)[
            ..., 0
        ]

    def change_points(self) -> np.ndarray:
        """The budgets at which the pruned tree changes: its internal nodes' ``split_cost``."""
        return np.unique(self.split_cost[np.isfinite(self.split_cost)])

    def scores(self, leaves: np.ndarray, majority: float) -> np.ndarray:
        """``(n_1 - n_0) / n`` of the training rows at each leaf; an exact tie (or a node no
        row reaches) predicts ``majority`` by less than any vote."""
        n0, n1 = self.value[leaves, 0], self.value[leaves, 1]
        vote = (n1 - n0) / np.maximum(n0 + n1, 1)
        return np.where(n1 == n0, majority * EMPTY_SCORE, vote)

    def errors(
        self, X: np.ndarray, y: np.ndarray, budgets: np.ndarray, majority: float
    ) -> np.ndarray:
        """Error of the tree pruned to each budget on ``(X, y)`` (``y`` -1/+1)."""
        scores = self.scores(self.leaves(self.paths(X), budgets), majority)
        return ((scores > 0) != (y > 0)[None, :]).mean(axis=1)

    def costs(self, leaves: np.ndarray, budgets: np.ndarray) -> BudgetCosts:
        """What examples reaching ``leaves`` (n_budgets, n_samples) paid, and the size and
        most expensive path of the tree pruned to each budget."""
        kept = (self.feature >= 0) & (self.split_cost <= budgets[:, None])  # internal, kept
        up = np.maximum(self.parent, 0)
        present = (self.parent < 0)[None, :] | kept[:, up]
        internal = present & kept
        example_cost = self.reach_cost[leaves]
        return BudgetCosts(
            rounds=internal.sum(axis=1),
            spent=np.where(internal, self.split_cost[None, :], 0.0).max(axis=1),
            n_features=self.n_groups[leaves].mean(axis=1),
            mean_example_cost=example_cost.mean(axis=1),
            max_example_cost=example_cost.max(axis=1),
            nodes=present.sum(axis=1),
        )


def _depth(parent: np.ndarray) -> int:
    """Depth of a tree given each node's parent (preorder: parents first)."""
    level = np.zeros(parent.size, dtype=np.intp)
    for node in range(1, parent.size):  # over tree nodes
        level[node] = level[parent[node]] + 1
    return int(level.max())
