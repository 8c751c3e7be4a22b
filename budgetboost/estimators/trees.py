"""Budgeted decision trees: the Section 7 baseline of Huang, Powers & Reyzin (2015).

A decision tree is a natural budgeted classifier: a test example pays only for the features
on its own root-to-leaf path, each feature group once per path. :class:`BudgetedTree` grows
one CART tree on the boosters' thresholds (split ``x_j >= v``; a 0/1 column has the single
threshold 1, a numeric column one threshold per distinct training value above its minimum),
grown fully, then reads every budget and every node count off two nested pruning sequences
of that one tree:

- **by budget**: while the most expensive root-to-leaf path costs more than zero, cut (turn
  into a leaf) the internal node on a most expensive path whose removal costs the least
  training error per unit of path cost saved. For a budget ``B`` the tree is the first of the
  sequence whose every path costs at most ``B``, so the strict per-example budget holds.
- **by node count**: classic cost-complexity (weakest-link) pruning, cutting the internal
  node with the least training error per node removed, down to the root (Figure 3).

The cost-sensitive tree (``cost_sensitive=True``, Greedy Miser's criterion ``gain - lambda *
unpaid cost``, Xu et al. 2012) grows one such tree per ``lambda`` of a grid on a fit part of
the training rows and, per budget, uses the one whose budget-pruned form makes the fewest
errors on the validation part (see :class:`BudgetedTree`).

Split search is vectorised per node: for 0/1 matrices one matrix product of the node's
labels with its rows; otherwise class-count cumulative sums over the node's sorted columns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from .base import (
    BUDGET,
    FEATURE_COSTS,
    FEATURE_GROUPS,
    RANDOM_STATE,
    BudgetCosts,
    BudgetedEstimator,
    BudgetEvaluation,
    TrainingData,
)
from .params import Boolean, Interval, InvalidParameterError, Options
from .tuning import TRADEOFF, validation_split
from .validation import check_budgets

__all__ = [
    "BudgetedTree",
    "PruningPath",
    "CRITERIA",
    "DEFAULT_TRADEOFFS",
    "impurity",
    "split_gains",
]

#: Impurity functions a split may decrease.
CRITERIA = ("gini", "entropy")
#: A split must decrease the impurity per example by more than this to count as improving.
GAIN_TOL = 1e-12
#: Scores within this relative distance of the best one tie (then: lower column, threshold).
TIE_TOL = 1e-12
#: Elements per block of the sorted split search (bounds memory on wide numeric data).
_BLOCK = 1 << 21


# ---------------------------------------------------------------------------- impurity
def impurity(p: np.ndarray, criterion: str) -> np.ndarray:
    """Impurity of a node whose fraction of class ``classes_[1]`` is ``p``.

    ``gini``: ``1 - p^2 - (1-p)^2 = 2 p (1-p)``; ``entropy``: ``-p log2 p - (1-p) log2 (1-p)``
    with ``0 log 0 = 0``.
    """
    p = np.asarray(p, dtype=np.float64)
    if criterion == "gini":
        return 2.0 * p * (1.0 - p)
    q = 1.0 - p
    with np.errstate(divide="ignore", invalid="ignore"):
        return -(np.where(p > 0, p * np.log2(p), 0.0) + np.where(q > 0, q * np.log2(q), 0.0))


def split_gains(
    n_right: np.ndarray, n1_right: np.ndarray, n: float, n1: float, criterion: str
) -> np.ndarray:
    """Impurity decrease per example of splits of a node with ``n`` examples, ``n1`` positive.

    ``gain = I(n1/n) - (n_L/n) I(n1_L/n_L) - (n_R/n) I(n1_R/n_R)`` (weighted children), where
    the right side is ``x_j >= v``. A split with an empty side gets ``-inf``.
    """
    n_right = np.asarray(n_right, dtype=np.float64)
    n1_right = np.asarray(n1_right, dtype=np.float64)
    n_left = n - n_right
    n1_left = n1 - n1_right
    with np.errstate(divide="ignore", invalid="ignore"):
        children = (
            n_left * impurity(n1_left / n_left, criterion)
            + n_right * impurity(n1_right / n_right, criterion)
        ) / n
    gain = impurity(n1 / n, criterion) - children
    return np.where((n_left > 0) & (n_right > 0), gain, -np.inf)


def _scores(gains: np.ndarray, unpaid: np.ndarray, tradeoff: float) -> np.ndarray:
    """Split scores ``gain - tradeoff * unpaid`` (higher is better); ``-inf`` if not improving.

    A split improves when its score exceeds :data:`GAIN_TOL`. With ``tradeoff = 0`` (plain
    CART) the score is the gain itself. With ``tradeoff > 0`` (Greedy Miser's criterion, Xu
    et al. 2012) a split is made only when its gain pays for ``tradeoff`` times the unpaid
    cost of its feature group on the node's path (0 when the group is paid above the node).
    """
    score = gains if tradeoff == 0 else gains - tradeoff * unpaid
    return np.where((gains > GAIN_TOL) & (score > GAIN_TOL), score, -np.inf)


def _best_key(score: np.ndarray) -> float | None:
    """The best score of a set of candidates; None if none improves."""
    best = score.max() if score.size else -np.inf
    return None if best == -np.inf else float(best)


def _tied(score: np.ndarray, best: float) -> np.ndarray:
    """Mask of the candidates within :data:`TIE_TOL` (relative) of the best score (> 0)."""
    return score >= best - TIE_TOL * best


# ---------------------------------------------------------------------------- split search
@dataclass(frozen=True)
class _Split:
    feature: int
    threshold: float
    goes_right: np.ndarray  # over the node's examples: x_j >= threshold


class _SplitSearch:
    """What the split searches of the trees grown on one ``(X, y1)`` share.

    Whether ``X`` is all 0/1 (then a float32 copy for the products), its thresholds, and each
    node's split gains, keyed by the node's rows: they depend on the rows alone, so the trees
    of other trade-offs grown on the same rows reuse them. For 0/1 data also each node's
    counts (examples with ``x_j = 1`` and positives among them, per column): a split computes
    its smaller child's by one product and takes the larger child's as the parent's minus
    the smaller's (the subtraction trick of histogram-based boosting).
    """

    def __init__(self, X: np.ndarray, y1: np.ndarray, criterion: str):
        self.X, self.y1, self.criterion = X, y1, criterion
        self.binary = bool(np.logical_or(X == 0, X == 1).all())
        self.Xf = X.astype(np.float32) if self.binary else None
        self.thresholds = _Thresholds(X)
        self.gains_of: dict[bytes, np.ndarray] = {}
        self._counts_of: dict[bytes, np.ndarray] = {}

    def counts(self, idx: np.ndarray) -> np.ndarray:
        """(2, n_columns): examples of the node with ``x_j = 1``, and positives among them."""
        key = idx.tobytes()
        counts = self._counts_of.get(key)
        if counts is None:
            both = np.stack([np.ones(idx.size, np.float32), self.y1[idx].astype(np.float32)])
            counts = self._counts_of[key] = both @ self.Xf[idx]
        return counts

    def binary_gains(self, idx: np.ndarray) -> np.ndarray:
        """Gains of the node's splits ``x_j = 1`` (0/1 data)."""
        key = idx.tobytes()
        gains = self.gains_of.get(key)
        if gains is None:
            n_right, n1_right = self.counts(idx)
            n1 = float(self.y1[idx].sum())
            gains = split_gains(n_right, n1_right, idx.size, n1, self.criterion)
            self.gains_of[key] = gains
        return gains

    def split_counts(self, idx: np.ndarray, right: np.ndarray, left: np.ndarray) -> None:
        """Counts of both children of a split node (0/1 data), when a child will be searched:
        one product for the smaller, the parent's minus that for the larger."""
        impure = [0 < self.y1[c].sum() < c.size for c in (right, left)]
        if not any(impure):
            return
        small, large = (right, left) if right.size <= left.size else (left, right)
        large_key = large.tobytes()
        if large_key not in self._counts_of:
            self._counts_of[large_key] = self.counts(idx) - self.counts(small)


def _best_split_binary(
    search: _SplitSearch, idx: np.ndarray, unpaid: np.ndarray, tradeoff: float
) -> _Split | None:
    """Best split of a node of an all-0/1 matrix, from its counts (:class:`_SplitSearch`)."""
    score = _scores(search.binary_gains(idx), unpaid, tradeoff)
    best = _best_key(score)
    if best is None:
        return None
    j = int(np.flatnonzero(_tied(score, best))[0])
    return _Split(j, 1.0, search.Xf[idx, j] == 1)


def _sorted_gains(values: np.ndarray, yk: np.ndarray, criterion: str) -> np.ndarray:
    """Gains of splitting between consecutive sorted values of each column: (k - 1, c).

    Position ``i`` separates the ``i + 1`` smallest values from the rest; positions between
    equal values get ``-inf``.
    """
    k = values.shape[0]
    order = np.argsort(values, axis=0, kind="stable")
    sorted_vals = np.take_along_axis(values, order, axis=0)
    n1_left = np.cumsum(yk[order], axis=0)[:-1]
    n_left = np.arange(1, k, dtype=np.float64)[:, None]
    n1 = float(yk.sum())
    gains = split_gains(k - n_left, n1 - n1_left, k, n1, criterion)
    gains[sorted_vals[1:] == sorted_vals[:-1]] = -np.inf
    return gains


class _Thresholds:
    """The boosters' thresholds of each column (distinct training values), built lazily."""

    def __init__(self, X: np.ndarray):
        self._X = X
        self._unique: dict[int, np.ndarray] = {}

    def above(self, j: int, value: float) -> float:
        """Smallest distinct training value of column ``j`` strictly above ``value``."""
        if j not in self._unique:
            self._unique[j] = np.unique(self._X[:, j])
        u = self._unique[j]
        return float(u[np.searchsorted(u, value, side="right")])


def _best_split_sorted(
    X: np.ndarray,
    idx: np.ndarray,
    y1: np.ndarray,
    unpaid: np.ndarray,
    criterion: str,
    tradeoff: float,
    thresholds: _Thresholds,
    gains_of: dict[bytes, np.ndarray],
) -> _Split | None:
    """Best split of a node of a numeric matrix: cumulative sums over sorted columns.

    Candidates are ordered by column, then threshold. Each column's best gain is found in
    column blocks (kept in ``gains_of`` for other trees grown on the same rows); the chosen
    column is then re-scanned for its first best position, whose threshold is the smallest
    training value above the left side (the lowest threshold giving that partition).
    """
    yk = y1[idx].astype(np.float64)
    col_gain = gains_of.get(idx.tobytes())
    if col_gain is None:
        n_cols = X.shape[1]
        col_gain = np.full(n_cols, -np.inf)
        width = max(1, _BLOCK // idx.size)
        for start in range(0, n_cols, width):
            block = slice(start, min(start + width, n_cols))
            col_gain[block] = _sorted_gains(X[idx, block], yk, criterion).max(axis=0)
        gains_of[idx.tobytes()] = col_gain
    col_score = _scores(col_gain, unpaid, tradeoff)
    key = _best_key(col_score)
    if key is None:
        return None
    j = int(np.flatnonzero(_tied(col_score, key))[0])
    values = X[idx, j]
    gains = _sorted_gains(values[:, None], yk, criterion)[:, 0]
    score = _scores(gains, np.full(gains.size, unpaid[j]), tradeoff)
    pos = int(np.flatnonzero(_tied(score, key))[0])
    below = np.sort(values)[pos]
    v = thresholds.above(j, below)
    return _Split(j, v, values >= v)


# ---------------------------------------------------------------------------- growing
@dataclass
class _GrownTree:
    """A grown tree in preorder (a node's subtree is ``node .. node + size - 1``)."""

    feature: np.ndarray  # -1 at leaves
    threshold: np.ndarray  # nan at leaves
    left: np.ndarray  # child with x_j < v; -1 at leaves
    right: np.ndarray  # child with x_j >= v; -1 at leaves
    parent: np.ndarray  # -1 at the root
    value: np.ndarray  # (n_nodes, 2) training examples of classes_[0], classes_[1]
    path_cost: np.ndarray  # cost of the distinct groups split on above the node
    path_groups: np.ndarray  # number of those groups
    depth: np.ndarray


def _grow(
    X: np.ndarray,
    y1: np.ndarray,
    group_of_column: np.ndarray,
    group_cost: np.ndarray,
    criterion: str,
    tradeoff: float = 0.0,
    search: _SplitSearch | None = None,
) -> _GrownTree:
    """Grow a tree until every leaf is pure or no split improves (score > GAIN_TOL).

    Depth-first, left child first, so node ids are in preorder. A column's unpaid cost at a
    node is its group's cost, or 0 when the group is split on above the node (paid once per
    path); it enters the score ``gain - tradeoff * unpaid`` (:func:`_scores`; plain CART:
    ``tradeoff = 0``). A node's gains depend on its examples alone: trees of other
    trade-offs grown on the same ``(X, y1)`` may share them through ``search``.
    """
    search = _SplitSearch(X, y1, criterion) if search is None else search
    column_cost = group_cost[group_of_column]
    rows: dict[str, list] = {
        k: []
        for k in (
            "feature",
            "threshold",
            "left",
            "right",
            "parent",
            "value",
            "path_cost",
            "path_groups",
            "depth",
        )
    }
    # stack entries: (examples, parent id, is right child, paid groups (sorted tuple), depth)
    stack: list[tuple[np.ndarray, int, bool, tuple[int, ...], int]] = [
        (np.arange(X.shape[0]), -1, False, (), 0)
    ]
    while stack:
        idx, parent, is_right, paid, depth = stack.pop()
        node = len(rows["feature"])
        if parent >= 0:
            rows["right" if is_right else "left"][parent] = node
        n1 = int(y1[idx].sum())
        paid_arr = np.asarray(paid, dtype=np.intp)
        rows["parent"].append(parent)
        rows["value"].append((idx.size - n1, n1))
        rows["path_cost"].append(float(group_cost[paid_arr].sum()))
        rows["path_groups"].append(len(paid))
        rows["depth"].append(depth)
        rows["left"].append(-1)
        rows["right"].append(-1)
        split = None
        if 0 < n1 < idx.size:
            unpaid = np.where(np.isin(group_of_column, paid_arr), 0.0, column_cost)
            if search.binary:
                split = _best_split_binary(search, idx, unpaid, tradeoff)
            else:
                split = _best_split_sorted(
                    X, idx, y1, unpaid, criterion, tradeoff, search.thresholds, search.gains_of
                )
        if split is None:
            rows["feature"].append(-1)
            rows["threshold"].append(np.nan)
            continue
        rows["feature"].append(split.feature)
        rows["threshold"].append(split.threshold)
        child_paid = tuple(sorted(set(paid) | {int(group_of_column[split.feature])}))
        right, left = idx[split.goes_right], idx[~split.goes_right]
        if search.binary:
            search.split_counts(idx, right, left)
        stack.append((right, node, True, child_paid, depth + 1))
        stack.append((left, node, False, child_paid, depth + 1))
    return _GrownTree(
        feature=np.asarray(rows["feature"], dtype=np.intp),
        threshold=np.asarray(rows["threshold"], dtype=np.float64),
        left=np.asarray(rows["left"], dtype=np.intp),
        right=np.asarray(rows["right"], dtype=np.intp),
        parent=np.asarray(rows["parent"], dtype=np.intp),
        value=np.asarray(rows["value"], dtype=np.int64).reshape(-1, 2),
        path_cost=np.asarray(rows["path_cost"], dtype=np.float64),
        path_groups=np.asarray(rows["path_groups"], dtype=np.int64),
        depth=np.asarray(rows["depth"], dtype=np.intp),
    )


# ---------------------------------------------------------------------------- pruning
@dataclass(frozen=True, eq=False)
class PruningPath:
    """A nested sequence of pruned trees: step 0 is the grown tree, step ``s`` cuts one node.

    Attributes
    ----------
    cut_node : ndarray of shape (n_steps,)
        The internal node turned into a leaf at step ``s = 1 .. n_steps``.
    cut_step : ndarray of shape (n_nodes,)
        Step at which each node becomes a leaf: 0 for grown leaves, ``n_nodes + 1`` for nodes
        never cut (their subtree may still be removed with an ancestor).
    removed_step : ndarray of shape (n_nodes,)
        Step at which each node leaves the tree (an ancestor is cut), ``n_nodes + 1`` if never.
    n_nodes, max_path_cost, train_errors : ndarray of shape (n_steps + 1,)
        Nodes, the most expensive root-to-leaf path and the misclassified training examples
        of the tree after each step (``train_errors`` is non-decreasing).
    """

    cut_node: np.ndarray
    cut_step: np.ndarray
    removed_step: np.ndarray
    n_nodes: np.ndarray
    max_path_cost: np.ndarray
    train_errors: np.ndarray

    def step_for_budget(self, budgets: np.ndarray) -> np.ndarray:
        """First step whose every path costs at most each budget (``max_path_cost`` falls)."""
        return np.searchsorted(-self.max_path_cost, -np.asarray(budgets), side="left")

    def step_for_nodes(self, node_counts: np.ndarray) -> np.ndarray:
        """First step with at most each number of nodes (``n_nodes`` falls)."""
        return np.searchsorted(-self.n_nodes, -np.asarray(node_counts), side="left")


def _pruning_path(tree: _GrownTree, by: str) -> PruningPath:
    """Cost-complexity-style pruning sequence of a grown tree, ``by`` ``"budget"`` or ``"nodes"``.

    Cutting internal node ``t`` raises the training error by ``R(t) - R(T_t)`` (errors of ``t``
    as a leaf minus those of its current leaves, always >= 0) and saves

    - ``by="budget"``: ``M - P(t)``, the drop of the most expensive path ``M`` through ``t``
      (``P(t)``: cost paid above ``t``); only nodes on a path of cost ``M`` are candidates,
      and the sequence ends when ``M = 0`` (every budget >= 0 is then met);
    - ``by="nodes"``: ``2 (L(T_t) - 1)`` nodes (``L``: current leaves); ends at the root.

    Each step cuts the candidate with the least error per unit saved; ties go to the larger
    saving, then the lower (preorder) node id.
    """
    n = tree.feature.size
    left, right, parent, path_cost = tree.left, tree.right, tree.parent, tree.path_cost
    internal = left >= 0
    leaf_err = tree.value.min(axis=1)
    size = np.ones(n, dtype=np.intp)
    sub_err = leaf_err.copy()
    sub_leaves = (~internal).astype(np.int64)
    sub_max = path_cost.copy()  # most expensive path among the current leaves below
    for t in np.flatnonzero(internal)[::-1]:  # children have larger ids than parents
        a, b = left[t], right[t]
        size[t] = 1 + size[a] + size[b]
        sub_err[t] = sub_err[a] + sub_err[b]
        sub_leaves[t] = sub_leaves[a] + sub_leaves[b]
        sub_max[t] = max(sub_max[a], sub_max[b])

    never = n + 1
    cut_step = np.where(internal, never, 0)
    removed_step = np.full(n, never)
    present = np.ones(n, dtype=bool)
    is_leaf = ~internal
    node_count = n
    cut_nodes: list[int] = []
    counts, costs, errors = [n], [sub_max[0]], [sub_err[0]]
    while not is_leaf[0] and not (by == "budget" and sub_max[0] <= 0):
        cand = present & ~is_leaf
        if by == "budget":
            saved = sub_max[0] - path_cost
            cand &= (sub_max == sub_max[0]) & (saved > 0)
        else:
            saved = 2.0 * (sub_leaves - 1)
        ids = np.flatnonzero(cand)
        ratio = (leaf_err[ids] - sub_err[ids]) / saved[ids]
        t = int(ids[np.lexsort((ids, -saved[ids], ratio))[0]])
        step = len(cut_nodes) + 1
        below = slice(t + 1, t + size[t])
        gone = present[below].copy()
        removed_step[below][gone] = step
        present[below] = False
        node_count -= int(gone.sum())
        is_leaf[t] = True
        cut_step[t] = step
        d_err, d_leaves = leaf_err[t] - sub_err[t], sub_leaves[t] - 1
        sub_err[t], sub_leaves[t], sub_max[t] = leaf_err[t], 1, path_cost[t]
        a = parent[t]
        while a >= 0:
            sub_err[a] += d_err
            sub_leaves[a] -= d_leaves
            sub_max[a] = max(sub_max[left[a]], sub_max[right[a]])
            a = parent[a]
        cut_nodes.append(t)
        counts.append(node_count)
        costs.append(sub_max[0])
        errors.append(sub_err[0])
    return PruningPath(
        cut_node=np.asarray(cut_nodes, dtype=np.intp),
        cut_step=cut_step,
        removed_step=removed_step,
        n_nodes=np.asarray(counts, dtype=np.int64),
        max_path_cost=np.asarray(costs, dtype=np.float64),
        train_errors=np.asarray(errors, dtype=np.int64),
    )


# ---------------------------------------------------------------------------- estimator
def _check_node_counts(node_counts: Any) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(node_counts))
    if arr.ndim != 1 or arr.dtype.kind not in "iuf":
        raise ValueError(f"node_counts must be a 1-d array of numbers; got {node_counts!r}")
    bad = ~(arr >= 1)
    if bad.any():
        raise ValueError(f"node_counts must be >= 1; got {arr[bad][0]!r}")
    return arr.astype(np.float64)


#: Default trade-off grid of the cost-sensitive tree, in units of (root gain / mean cost).
DEFAULT_TRADEOFFS = (0.0, 1 / 64, 1 / 16, 1 / 4, 1.0, 4.0)

#: What a cost-sensitive tree copies from the tree chosen at its fitted budget.
_TREE_ATTRIBUTES = (
    "feature_",
    "threshold_",
    "children_left_",
    "children_right_",
    "value_",
    "path_cost_",
    "path_n_groups_",
    "max_depth_",
    "budget_path_",
    "_grown",
)


def _tradeoff_unit(tree: BudgetedTree, data: TrainingData) -> float:
    """``g / c``: gain of the plain tree's root split over the mean positive column cost.

    1 when the root is a leaf (no split improves: every tree is that leaf) or when no column
    costs anything (costs cannot change a split).
    """
    if tree.feature_[0] < 0:
        return 1.0
    value = tree.value_
    right = tree.children_right_[0]
    gain = float(
        split_gains(
            value[right].sum(), value[right, 1], value[0].sum(), value[0, 1], tree.criterion
        )
    )
    cost = data.group_cost[data.group_of_column]
    positive = cost[cost > 0]
    return gain / float(positive.mean()) if positive.size and gain > 0 else 1.0


def _errors_by_budget_step(tree: BudgetedTree, X: np.ndarray, y1: np.ndarray) -> np.ndarray:
    """Error of ``tree`` on ``(X, y1)`` after each step of its budget sequence.

    An example's leaf at step ``s`` is the node at depth ``#{d: m_d > s}`` of its path, ``m``
    the prefix minima of the path's cut steps (see :meth:`BudgetedTree._leaves`): the node at
    depth ``d`` is its leaf for steps in ``[m_d, m_{d-1})``. A difference array over steps
    counts the misclassified examples at every step at once. The fitted ``max_nodes`` cuts
    every path at its node-count leaf.
    """
    n_steps = tree.budget_path_.n_nodes.size  # steps 0 .. n_steps - 1
    paths = tree._paths(X)
    m = np.minimum.accumulate(tree.budget_path_.cut_step[paths], axis=1)
    if tree.size_step_ > 0:
        kept = np.minimum.accumulate(tree.size_path_.cut_step[paths], axis=1) > tree.size_step_
        m = np.where(kept, m, 0)
    upper = np.concatenate([np.full((m.shape[0], 1), n_steps), m[:, :-1]], axis=1)
    lo, hi = np.minimum(m, n_steps), np.minimum(upper, n_steps)
    positive = tree.value_[:, 1] > tree.value_[:, 0]
    wrong = (positive[paths] != (y1[:, None] > 0)).astype(np.int64)
    diff = np.zeros(n_steps + 1, dtype=np.int64)
    np.add.at(diff, lo.ravel(), wrong.ravel())
    np.add.at(diff, hi.ravel(), -wrong.ravel())
    return np.cumsum(diff)[:n_steps] / max(X.shape[0], 1)


class BudgetedTree(BudgetedEstimator):
    """A decision tree pruned to a test-time budget or a node count (Section 7).

    **Plain CART** (``cost_sensitive=False``): one tree is grown fully on the boosters'
    thresholds and then pruned; every budget and every node count is read off two nested
    pruning sequences of that one tree (see :func:`_pruning_path`), so
    :meth:`predict_at_budgets` and :meth:`evaluate_at_budgets` serve a whole budget grid from
    one fit. A test example pays for the feature groups split on along its own root-to-leaf
    path, each once; after budget pruning every path costs at most the budget, so the budget
    holds strictly for every example.

    **Cost-sensitive** (``cost_sensitive=True``, Greedy Miser's split criterion, Xu et al. 2012): a
    split maximises ``gain - lambda * c``, ``c`` the unpaid cost of the split's feature group on the
    node's path (0 if the group is split on above the node), and is made only when ``gain > lambda *
    c``: each split must lower ``mean impurity + lambda * mean example cost`` of the tree (the gain
    is per example of the node, so both terms are weighted by the node's share of the examples). The
    training rows are split, stratified by class, into a *fit part* and a *validation part*
    (``validation_fraction``, seeded by ``random_state``;
    :func:`~budgetboost.estimators.tuning.validation_split`). One tree per ``lambda`` of the grid
    ``tradeoffs_`` is grown on the fit part and pruned by budget as plain CART is. At each budget
    ``B`` the tree used is the one, among the grid's trees each pruned to ``B``, with the fewest
    validation errors; ties go to the smaller ``lambda`` (so to plain CART, ``lambda = 0``, whenever
    it does as well). The choice is a step function of the budget fixed at fit time
    (:attr:`choice_budgets_`, :meth:`chosen_tradeoffs`). Each ``lambda`` chosen at some budget is
    then grown again on all training rows (the protocol of every tuned estimator,
    :mod:`budgetboost.estimators.tuning`), and that tree, pruned to ``B``, serves budget ``B``.
    Test rows take no part in the fit or the choice (the estimator only sees the training rows).
    A single ``lambda`` is a fixed trade-off; with ``validation_fraction=0`` it is grown on all
    training rows.

    Parameters
    ----------
    budget : float or None, default=None
        Test-time budget ``B``: the tree is pruned until every root-to-leaf path costs at
        most ``B``. ``None`` means unlimited. It also caps the budgets of
        :meth:`predict_at_budgets` and :meth:`predict_at_nodes`.
    max_nodes : int or None, default=None
        Prune (weakest link, by nodes) to at most this many nodes. ``None``: no limit. It also
        caps the node counts of :meth:`predict_at_nodes` and applies to
        :meth:`predict_at_budgets` (the tree is then the intersection of both prunings).
    criterion : {"gini", "entropy"}, default="gini"
        Impurity ``I(p)``: ``2p(1-p)`` or ``-p log2 p - (1-p) log2 (1-p)``. A split's gain
        is ``I(parent) - sum_children (n_c/n) I(child)``.
    cost_sensitive : bool, default=False
        False: plain CART (the split with the largest gain). True: Greedy Miser's criterion
        ``gain - lambda * c`` with ``lambda`` chosen per budget on a validation part (above).
    tradeoffs : float, array-like of float or None, default=None
        The ``lambda`` grid of ``cost_sensitive=True`` (numbers >= 0; sorted and deduplicated
        when fitted); one number is a fixed trade-off. ``None``: the default grid
        :data:`DEFAULT_TRADEOFFS` ``(0, 1/64, 1/16, 1/4, 1, 4)`` times the unit ``g / c``,
        where ``g`` is the gain of plain CART's root split on the fit part and ``c`` the mean
        of the positive column costs. At ``lambda = g / c`` a split on a feature of mean
        cost must gain as much as the best root split does, so the grid runs from "costs
        nearly free" (``lambda = 0``: plain CART; ``g / (64 c)``) to "almost nothing
        affordable" (``4 g / c``: only features costing under a quarter of the mean are
        worth the best root split's gain). It scales with the data (gains) and the cost
        model (costs), so one grid serves every dataset. Ignored by plain CART; giving it
        there is an error.
    validation_fraction : float in [0, 1), default=0.25
        Share of each class of the training rows held out to choose ``lambda`` per budget
        (each class keeps at least one fit row). 0 needs a single ``lambda``. Ignored by
        plain CART.
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seed of the validation split (the pipeline sets it per trial). Ignored by plain CART.
    feature_costs : array-like of shape (n_features,), default=None
        Cost of each column of ``X`` (default: all 1).
    feature_groups : array-like of shape (n_features,), default=None
        Group label per column; a group is paid for once per path (e.g. the indicators of one
        raw attribute) and all its columns must carry the same cost.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels; ``value_[:, 1]`` counts ``classes_[1]``.
    n_features_in_ : int
    feature_, threshold_ : ndarray of shape (n_nodes,)
        Split ``x[feature_] >= threshold_`` of each node of the grown tree (preorder); ``-1``
        and ``nan`` at leaves. Cost-sensitive: of the tree chosen at the fitted ``budget``
        (as are every attribute below, :meth:`pruned_tree`, :meth:`predict_at_nodes` and
        :meth:`evaluate_at_nodes`; :meth:`predict_at_budgets` uses each budget's choice).
    children_left_, children_right_ : ndarray of shape (n_nodes,)
        Child for ``x < v`` and for ``x >= v``; ``-1`` at leaves.
    value_ : ndarray of shape (n_nodes, 2)
        Training examples of each class at each node.
    path_cost_ : ndarray of shape (n_nodes,)
        Cost an example pays to reach the node: its distinct feature groups split on above.
    path_n_groups_ : ndarray of shape (n_nodes,)
        Number of those groups.
    max_depth_ : int
        Depth of the grown tree (0: a single leaf).
    budget_path_, size_path_ : PruningPath
        The pruning sequences by budget and by node count. ``size_path_`` is computed on
        first use (``max_nodes``, :meth:`predict_at_nodes`, :meth:`evaluate_at_nodes`): a
        budget alone never needs it.
    budget_step_, size_step_ : int
        Steps of those sequences selected by ``budget`` and ``max_nodes`` (0: none).
    tradeoffs_ : ndarray of shape (n_tradeoffs,)
        The ``lambda`` grid, increasing (plain CART: ``[0.]``).
    trees_ : list of BudgetedTree
        Cost-sensitive only: the tree of each ``lambda`` (a fitted fixed trade-off, grown on
        the fit part).
    fit_rows_, validation_rows_ : ndarray of int
        Cost-sensitive only: rows of the training ``X`` in the fit and validation parts.
    validation_errors_ : list of ndarray
        Cost-sensitive only: error of tree ``m`` on the validation part (on the fit part if
        the validation part is empty) after each step of its ``budget_path_``.
    choice_budgets_, choice_index_ : ndarray of shape (n_steps,)
        Cost-sensitive only: from budget ``choice_budgets_[s]`` (increasing, the first 0) up
        to the next, the ``lambda`` is ``tradeoffs_[choice_index_[s]]``.
    refit_trees_ : dict of int to BudgetedTree
        Cost-sensitive only: each chosen ``lambda``'s tree grown on all training rows, by
        index of ``tradeoffs_``; pruned to the budget, it serves the budgets it was chosen at.

    Notes
    -----
    Splits: among improving splits (score > ``GAIN_TOL`` = 1e-12 per example) the best score
    wins; scores within a relative ``TIE_TOL`` = 1e-12 tie and go to the lower column, then
    the lower threshold. Growing stops at pure nodes and where no split improves (so an XOR
    node stays a leaf). A leaf predicts its majority class; an exact tie predicts
    ``classes_[0]``.

    References
    ----------
    Y. Huang, B. Powers, L. Reyzin. Training-Time Optimization of a Budgeted Booster. IJCAI
    2015 (Section 7, Figure 3). L. Breiman et al. Classification and Regression Trees, 1984
    (cost-complexity pruning). Z. Xu, K. Weinberger, O. Chapelle. The Greedy Miser: Learning
    under Test-time Budgets. ICML 2012 (split criterion impurity gain - lambda * cost).
    """

    _parameter_constraints = {
        "budget": BUDGET,
        "max_nodes": [Interval(Integral, 1, None, closed="left"), None],
        "criterion": [Options(CRITERIA)],
        "cost_sensitive": [Boolean()],
        "tradeoffs": TRADEOFF,
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        "feature_costs": FEATURE_COSTS,
        "feature_groups": FEATURE_GROUPS,
    }

    def __init__(
        self,
        budget: float | None = None,
        max_nodes: int | None = None,
        criterion: str = "gini",
        cost_sensitive: bool = False,
        tradeoffs=None,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
    ):
        self.budget = budget
        self.max_nodes = max_nodes
        self.criterion = criterion
        self.cost_sensitive = cost_sensitive
        self.tradeoffs = tradeoffs
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups

    @classmethod
    def tunes(cls, params: Mapping[str, Any]) -> bool:
        """A cost-sensitive tree chooses ``lambda`` on a validation part."""
        return (
            bool(params.get("cost_sensitive", False))
            and params.get("validation_fraction", 0.25) > 0
        )

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does.

        Besides each parameter's own constraints: ``tradeoffs`` needs
        ``cost_sensitive=True``, and ``validation_fraction=0`` needs a single ``tradeoffs``
        value (there is nothing to choose among otherwise).

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        cost_sensitive = bool(params.get("cost_sensitive", False))
        grid = params.get("tradeoffs")
        if grid is not None and not cost_sensitive:
            raise InvalidParameterError(
                "tradeoffs", "only used with cost_sensitive=True (plain CART has no trade-off)"
            )
        several = grid is None or np.atleast_1d(np.asarray(grid)).size > 1
        if cost_sensitive and params.get("validation_fraction", 0.25) == 0 and several:
            raise InvalidParameterError(
                "validation_fraction",
                "must be > 0 to choose among several tradeoffs (give one value for a fixed "
                "trade-off, or a validation part)",
            )

    def _fit(self, data: TrainingData) -> None:
        """Grow the tree (plain) or the trees of the grid and the choice (cost-sensitive)."""
        y1 = (data.y > 0).astype(np.int64)
        if not self.cost_sensitive:
            self.tradeoffs_ = np.zeros(1)
            self._fit_grown(data.X, y1, data, 0.0)
            return
        rng = np.random.default_rng(self.random_state)
        fit_rows, validation_rows = validation_split(data.y, float(self.validation_fraction), rng)
        X, y = data.X[fit_rows], y1[fit_rows]
        shared = _SplitSearch(X, y, self.criterion)  # node gains, shared by the grid's trees
        if self.tradeoffs is not None:
            grid = np.unique(np.asarray(self.tradeoffs, dtype=np.float64))
            first = None
        else:  # plain CART first: its root gain is the default grid's unit
            first = self._subtree(data, X, y, 0.0, shared)
            grid = np.unique(np.asarray(DEFAULT_TRADEOFFS) * _tradeoff_unit(first, data))
        trees = [
            first if (first is not None and lam == 0) else self._subtree(data, X, y, lam, shared)
            for lam in grid
        ]
        rows = validation_rows if validation_rows.size else fit_rows
        self.tradeoffs_ = grid
        self.trees_ = trees
        self.fit_rows_, self.validation_rows_ = fit_rows, validation_rows
        self.validation_errors_ = [_errors_by_budget_step(t, data.X[rows], y1[rows]) for t in trees]
        self._choose()
        # the chosen trade-offs grown again on every training row (not when no row was held out)
        chosen_indices = np.unique(self.choice_index_).tolist()
        if fit_rows.size == data.y.size:
            self.refit_trees_ = {index: trees[index] for index in chosen_indices}
        else:
            shared = _SplitSearch(data.X, y1, self.criterion)
            self.refit_trees_ = {
                index: self._subtree(data, data.X, y1, grid[index], shared)
                for index in chosen_indices
            }
        budget = np.inf if self.budget is None else float(self.budget)
        chosen = self.refit_trees_[
            int(self.choice_index_[self._choice_steps(np.array([budget]))[0]])
        ]
        for name in _TREE_ATTRIBUTES:
            setattr(self, name, getattr(chosen, name))
        self.budget_step_ = int(self.budget_path_.step_for_budget(budget))
        self._size_path = chosen._size_path
        self.size_step_ = (
            0 if self.max_nodes is None else int(self.size_path_.step_for_nodes(self.max_nodes))
        )
        self._by_choice = True

    def _subtree(
        self,
        data: TrainingData,
        X: np.ndarray,
        y1: np.ndarray,
        tradeoff: float,
        search: _SplitSearch,
    ):
        """A fitted fixed trade-off tree on ``X`` (classes etc. copied from ``self``), its
        node gains shared through ``search`` with the other trees grown on ``X``."""
        tree = BudgetedTree(
            max_nodes=self.max_nodes,
            criterion=self.criterion,
            cost_sensitive=True,
            tradeoffs=float(tradeoff),
            validation_fraction=0.0,
            feature_costs=self.feature_costs,
            feature_groups=self.feature_groups,
        )
        for name in ("classes_", "n_features_in_", "feature_names_in_", "majority_"):
            if hasattr(self, name):
                setattr(tree, name, getattr(self, name))
        tree.tradeoffs_ = np.array([float(tradeoff)])
        tree._fit_grown(X, y1, data, float(tradeoff), search)
        return tree

    def _fit_grown(
        self,
        X: np.ndarray,
        y1: np.ndarray,
        data: TrainingData,
        tradeoff: float,
        search: _SplitSearch | None = None,
    ):
        """Grow one tree on ``(X, y1)`` and compute its pruning sequences."""
        budget = np.inf if self.budget is None else float(self.budget)
        tree = _grow(X, y1, data.group_of_column, data.group_cost, self.criterion, tradeoff, search)
        self.feature_ = tree.feature
        self.threshold_ = tree.threshold
        self.children_left_ = tree.left
        self.children_right_ = tree.right
        self.value_ = tree.value
        self.path_cost_ = tree.path_cost
        self.path_n_groups_ = tree.path_groups
        self.max_depth_ = int(tree.depth.max())
        self.budget_path_ = _pruning_path(tree, "budget")
        self._grown, self._size_path = tree, None  # size_path_ is computed when first used
        self._by_choice = False
        self.budget_step_ = int(self.budget_path_.step_for_budget(budget))
        self.size_step_ = (
            0 if self.max_nodes is None else int(self.size_path_.step_for_nodes(self.max_nodes))
        )

    # ------------------------------------------------------------------ choice per budget
    def _choose(self) -> None:
        """The tree with the fewest validation errors at every budget, as a step function.

        Every tree's pruned form changes only at the ``max_path_cost`` values of its budget
        sequence, so the choice is evaluated at the union of those values (and 0); ties go
        to the lower index, the smaller ``lambda``.
        """
        budgets = np.unique(
            np.concatenate([[0.0], *(t.budget_path_.max_path_cost for t in self.trees_)])
        )
        errors = np.vstack(
            [
                e[np.maximum(t.budget_path_.step_for_budget(budgets), t.budget_step_)]
                for t, e in zip(self.trees_, self.validation_errors_, strict=True)
            ]
        )
        best = np.argmin(errors, axis=0)  # first minimum: the smallest lambda
        change = np.concatenate([[True], best[1:] != best[:-1]])
        self.choice_budgets_ = budgets[change]
        self.choice_index_ = best[change]

    def _choice_steps(self, budgets: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.choice_budgets_, budgets, side="right") - 1

    def chosen_tradeoffs(self, budgets: Any) -> np.ndarray:
        """The ``lambda`` of the tree used at each budget.

        Parameters
        ----------
        budgets : float or array-like of float
            Numbers >= 0 in any order; ``inf`` is the fitted model (budgets above the
            fitted ``budget`` get its choice).

        Returns
        -------
        ndarray of shape (len(budgets),), float64
            Values of ``tradeoffs_``, chosen on the validation part; NaN for plain CART
            (``cost_sensitive=False``), which has no trade-off (the pipeline's shards hold NaN
            for estimators without one).
        """
        self._check_fitted()
        budgets = check_budgets(budgets)
        if not self.cost_sensitive:
            return np.full(budgets.size, np.nan)
        if not self._by_choice:  # one tree: a fixed trade-off
            return np.full(budgets.size, self.tradeoffs_[0])
        capped = np.minimum(budgets, np.inf if self.budget is None else float(self.budget))
        return self.tradeoffs_[self.choice_index_[self._choice_steps(capped)]]

    @property
    def size_path_(self) -> PruningPath:
        """The pruning sequence by node count, computed on first use."""
        self._check_fitted()
        if self._size_path is None:
            self._size_path = _pruning_path(self._grown, "nodes")
        return self._size_path

    # ------------------------------------------------------------------ tree walking
    def _paths(self, Xa: np.ndarray) -> np.ndarray:
        """Node ids on each example's path in the grown tree: (n_samples, max_depth + 1).

        Rows are padded with the leaf reached. One vectorised step per tree level.
        """
        rows = np.arange(Xa.shape[0])
        node = np.zeros(Xa.shape[0], dtype=np.intp)
        columns = [node]
        for _ in range(self.max_depth_):
            f = self.feature_[node]
            inner = f >= 0
            go_right = Xa[rows, np.where(inner, f, 0)] >= self.threshold_[node]
            child = np.where(go_right, self.children_right_[node], self.children_left_[node])
            node = np.where(inner, child, node)
            columns.append(node)
        return np.stack(columns, axis=1)

    def _leaves(
        self, paths: np.ndarray, budget_steps: np.ndarray, size_steps: np.ndarray
    ) -> np.ndarray:
        """Leaf reached by each example in each pruned tree: (len(steps), n_samples).

        On a path, the pruned leaf is the first node already cut at the step; the prefix
        minima of the nodes' cut steps make that a count. Size step 0 cuts nothing that the
        budget sequence keeps (both cut only the grown leaves at step 0), so the size
        sequence is read only when a size step is positive.
        """
        first_b = np.minimum.accumulate(self.budget_path_.cut_step[paths], axis=1)
        by_size = bool(np.any(size_steps > 0))
        if by_size:
            first_n = np.minimum.accumulate(self.size_path_.cut_step[paths], axis=1)
        rows = np.arange(paths.shape[0])
        out = np.empty((budget_steps.size, paths.shape[0]), dtype=np.intp)
        for i, (sb, sn) in enumerate(zip(budget_steps, size_steps, strict=True)):
            kept = first_b > sb
            if by_size:
                kept &= first_n > sn
            out[i] = paths[rows, kept.sum(axis=1)]
        return out

    def _budget_steps(self, budgets) -> np.ndarray:
        steps = self.budget_path_.step_for_budget(check_budgets(budgets))
        return np.maximum(steps, self.budget_step_)

    def _size_steps(self, node_counts) -> np.ndarray:
        steps = self.size_path_.step_for_nodes(_check_node_counts(node_counts))
        return np.maximum(steps, self.size_step_)

    def _at_steps(
        self, X: np.ndarray, budget_steps: np.ndarray, size_steps: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Scores and costs of the tree pruned at each pair of steps (one per budget).

        The score of an example is ``(n_1 - n_0) / n`` of the training examples at its leaf.
        """
        leaves = self._leaves(self._paths(X), budget_steps, size_steps)
        n0, n1 = self.value_[leaves, 0], self.value_[leaves, 1]
        example_cost = self.path_cost_[leaves]
        structure = np.array(
            [
                self._pruned_structure(sb, sn)
                for sb, sn in zip(budget_steps, size_steps, strict=True)
            ]
        )
        costs = BudgetCosts(
            rounds=structure[:, 0],
            spent=structure[:, 2],
            n_features=self.path_n_groups_[leaves].mean(axis=1),
            mean_example_cost=example_cost.mean(axis=1),
            max_example_cost=example_cost.max(axis=1),
            nodes=structure[:, 1],
        )
        return (n1 - n0) / (n0 + n1), costs

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """The tree pruned to each budget (and to the fitted ``max_nodes``).

        Cost-sensitive: at each budget the tree of the choice (:meth:`chosen_tradeoffs`).

        ``rounds`` counts internal nodes; ``spent`` is the most expensive root-to-leaf path
        of the pruned tree; ``n_features`` the mean number of distinct feature groups on the
        examples' paths; ``mean_example_cost`` and ``max_example_cost`` the path cost each
        example pays; ``nodes`` the nodes of the pruned tree. ``inf`` (and any budget above
        the fitted ``budget``) gives the fitted tree.
        """
        if not self._by_choice:
            steps = self._budget_steps(budgets)
            return self._at_steps(X, steps, np.full(steps.size, self.size_step_))
        capped = np.minimum(budgets, np.inf if self.budget is None else float(self.budget))
        index = self.choice_index_[self._choice_steps(capped)]
        scores = np.empty((budgets.size, X.shape[0]))
        fields = {f: np.empty(budgets.size) for f in BudgetCosts.__dataclass_fields__}
        for m in np.unique(index).tolist():
            rows = np.flatnonzero(index == m)
            part, costs = self.refit_trees_[m]._scores_and_costs(X, capped[rows])
            scores[rows] = part
            for name, value in costs.as_dict().items():
                fields[name][rows] = value
        return scores, BudgetCosts(**fields)

    # ------------------------------------------------------------------ by node count
    def predict_at_nodes(self, X, node_counts) -> np.ndarray:
        """Labels of the tree pruned to at most each node count: (len(node_counts), n_samples).

        Node counts above the fitted ``max_nodes`` get the fitted tree; the fitted ``budget``
        applies too.
        """
        Xa = self._validated(X)
        steps = self._size_steps(node_counts)
        scores, _ = self._at_steps(Xa, np.full(steps.size, self.budget_step_), steps)
        return self._labels(scores)

    def evaluate_at_nodes(self, X, y, node_counts) -> BudgetEvaluation:
        """As :meth:`evaluate_at_budgets`, for the tree pruned to each node count (Figure 3)."""
        Xa = self._validated(X)
        labels = self._checked_y(y, Xa.shape[0])
        steps = self._size_steps(node_counts)
        return self._evaluation(
            *self._at_steps(Xa, np.full(steps.size, self.budget_step_), steps), labels
        )

    def _masks(self, budget_step: int, size_step: int) -> tuple[np.ndarray, np.ndarray]:
        """Nodes ``present`` in, and ``leaf`` of, the tree pruned at both steps."""
        b = self.budget_path_
        present = b.removed_step > budget_step
        leaf = b.cut_step <= budget_step
        if size_step > 0:  # size step 0 removes nothing and cuts only grown leaves
            s = self.size_path_
            present &= s.removed_step > size_step
            leaf |= s.cut_step <= size_step
        return present, present & leaf

    def _pruned_structure(self, budget_step: int, size_step: int) -> tuple[int, int, float]:
        """(internal nodes, nodes, most expensive path) of the tree at both steps."""
        present, leaf = self._masks(budget_step, size_step)
        return (
            int(present.sum() - leaf.sum()),
            int(present.sum()),
            float(self.path_cost_[leaf].max()),
        )

    def pruned_tree(
        self, budget: float | None = None, max_nodes: int | None = None
    ) -> dict[str, np.ndarray]:
        """The pruned tree as arrays over the grown tree's nodes: ``present`` and ``leaf``.

        ``budget`` / ``max_nodes`` are capped by the fitted ones, as in the predict methods.
        """
        self._check_fitted()
        sb = int(self._budget_steps([np.inf if budget is None else budget])[0])
        sn = self.size_step_ if max_nodes is None else int(self._size_steps([max_nodes])[0])
        present, leaf = self._masks(sb, sn)
        return {"present": present, "leaf": leaf}
