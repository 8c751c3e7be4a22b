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

Split search is vectorised per node: for 0/1 matrices one matrix product of the node's
labels with its rows; otherwise class-count cumulative sums over the node's sorted columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import Any

import numpy as np

from ._params import Boolean, Interval, Options
from ._validation import check_budgets
from .base import (
    BUDGET,
    FEATURE_COSTS,
    FEATURE_GROUPS,
    BudgetCosts,
    BudgetedEstimator,
    BudgetEvaluation,
    TrainingData,
)

__all__ = ["BudgetedTree", "PruningPath", "CRITERIA", "impurity", "split_gains"]

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


def _scores(gains: np.ndarray, unpaid: np.ndarray, cost_sensitive: bool) -> np.ndarray:
    """Split scores (higher is better); ``-inf`` for splits that do not improve.

    Plain CART scores the gain. Cost-sensitive scores ``gain / unpaid cost``, where a free
    candidate (unpaid cost 0: its group is already paid on the path, or costs nothing) scores
    ``+inf``; free candidates are then ranked by their gain (the limit epsilon -> 0 of
    ``gain / (cost + epsilon)``).
    """
    ok = gains > GAIN_TOL
    if not cost_sensitive:
        return np.where(ok, gains, -np.inf)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(ok, np.where(unpaid > 0, gains / unpaid, np.inf), -np.inf)


def _best_key(score: np.ndarray, gains: np.ndarray) -> tuple[float, float] | None:
    """``(best score, best gain among +inf scores)`` of a set of candidates; None if none.

    Candidates tied with the key are those within :data:`TIE_TOL` (relative) of the best
    score, or, when the best score is ``+inf``, the free candidates within :data:`TIE_TOL`
    of the largest free gain.
    """
    best = score.max() if score.size else -np.inf
    if best == -np.inf:
        return None
    top = float(gains[score == np.inf].max()) if best == np.inf else np.nan
    return float(best), top


def _tied(score: np.ndarray, gains: np.ndarray, key: tuple[float, float]) -> np.ndarray:
    """Mask of the candidates tied with ``key`` (see :func:`_best_key`)."""
    best, top = key
    if best == np.inf:
        return (score == np.inf) & (gains >= top - TIE_TOL * top)
    return score >= best - TIE_TOL * best


# ---------------------------------------------------------------------------- split search
@dataclass(frozen=True)
class _Split:
    feature: int
    threshold: float
    goes_right: np.ndarray  # over the node's examples: x_j >= threshold


def _best_split_binary(
    Xf: np.ndarray,
    idx: np.ndarray,
    y1: np.ndarray,
    unpaid: np.ndarray,
    criterion: str,
    cost_sensitive: bool,
) -> _Split | None:
    """Best split of a node of an all-0/1 matrix: one (2 x k) @ (k x n) product."""
    rows = Xf[idx]
    yk = y1[idx]
    both = np.stack([np.ones(idx.size, dtype=Xf.dtype), yk.astype(Xf.dtype)])
    n_right, n1_right = both @ rows  # examples with x_j = 1, and positives among them
    gains = split_gains(n_right, n1_right, idx.size, float(yk.sum()), criterion)
    score = _scores(gains, unpaid, cost_sensitive)
    key = _best_key(score, gains)
    if key is None:
        return None
    j = int(np.flatnonzero(_tied(score, gains, key))[0])
    return _Split(j, 1.0, rows[:, j] == 1)


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
    cost_sensitive: bool,
    thresholds: _Thresholds,
) -> _Split | None:
    """Best split of a node of a numeric matrix: cumulative sums over sorted columns.

    Candidates are ordered by column, then threshold. Each column's best gain is found in
    column blocks; the chosen column is then re-scanned for its first best position, whose
    threshold is the smallest training value above the left side (the lowest threshold giving
    that partition).
    """
    yk = y1[idx].astype(np.float64)
    n_cols = X.shape[1]
    col_gain = np.full(n_cols, -np.inf)
    width = max(1, _BLOCK // idx.size)
    for start in range(0, n_cols, width):
        block = slice(start, min(start + width, n_cols))
        col_gain[block] = _sorted_gains(X[idx, block], yk, criterion).max(axis=0)
    col_score = _scores(col_gain, unpaid, cost_sensitive)
    key = _best_key(col_score, col_gain)
    if key is None:
        return None
    j = int(np.flatnonzero(_tied(col_score, col_gain, key))[0])
    values = X[idx, j]
    gains = _sorted_gains(values[:, None], yk, criterion)[:, 0]
    score = _scores(gains, np.full(gains.size, unpaid[j]), cost_sensitive)
    pos = int(np.flatnonzero(_tied(score, gains, key))[0])
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
    cost_sensitive: bool,
) -> _GrownTree:
    """Grow a CART tree until every leaf is pure or no split improves (gain > GAIN_TOL).

    Depth-first, left child first, so node ids are in preorder. A column's unpaid cost at a
    node is its group's cost, or 0 when the group is split on above the node (paid once per
    path); it enters only the cost-sensitive score.
    """
    binary = bool(np.logical_or(X == 0, X == 1).all())
    Xf = X.astype(np.float32) if binary else None
    thresholds = _Thresholds(X)
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
            if binary:
                split = _best_split_binary(Xf, idx, y1, unpaid, criterion, cost_sensitive)
            else:
                split = _best_split_sorted(
                    X, idx, y1, unpaid, criterion, cost_sensitive, thresholds
                )
        if split is None:
            rows["feature"].append(-1)
            rows["threshold"].append(np.nan)
            continue
        rows["feature"].append(split.feature)
        rows["threshold"].append(split.threshold)
        child_paid = tuple(sorted(set(paid) | {int(group_of_column[split.feature])}))
        stack.append((idx[split.goes_right], node, True, child_paid, depth + 1))
        stack.append((idx[~split.goes_right], node, False, child_paid, depth + 1))
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


class BudgetedTree(BudgetedEstimator):
    """A CART decision tree pruned to a test-time budget or a node count (Section 7).

    One tree is grown fully on the boosters' thresholds and then pruned; every budget and
    every node count is read off two nested pruning sequences of that one tree (see
    :func:`_pruning_path`), so :meth:`predict_at_budgets` and :meth:`evaluate_at_budgets` serve
    a whole budget grid from one fit. A test example pays for the feature groups split on
    along its own root-to-leaf path, each once; after budget pruning every path costs at most
    the budget, so the budget holds strictly for every example.

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
        If True the split maximises ``gain / c``, ``c`` the unpaid cost of the split's feature
        group on the node's path (Xu et al. 2012 in spirit: cost enters the split choice). A
        group already split on above the node, or of cost 0, is free: ``c = 0`` scores
        ``+inf`` (the limit ``epsilon -> 0`` of ``gain / (c + epsilon)``), so any improving
        free split beats every paid one, and free splits are ranked by gain. Plain CART
        (False) maximises the gain.
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
        and ``nan`` at leaves.
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

    Notes
    -----
    Splits: among improving splits (gain > ``GAIN_TOL`` = 1e-12 per example) the best score
    wins; scores within a relative ``TIE_TOL`` = 1e-12 tie and go to the lower column, then
    the lower threshold. Growing stops at pure nodes and where no split improves (so an XOR
    node stays a leaf). A leaf predicts its majority class; an exact tie predicts
    ``classes_[0]``.

    References
    ----------
    Y. Huang, B. Powers, L. Reyzin. Training-Time Optimization of a Budgeted Booster. IJCAI
    2015 (Section 7, Figure 3). L. Breiman et al. Classification and Regression Trees, 1984
    (cost-complexity pruning). Z. Xu, K. Weinberger, O. Chapelle. The Greedy Miser: Learning
    under Test-time Budgets. ICML 2012.
    """

    _parameter_constraints = {
        "budget": BUDGET,
        "max_nodes": [Interval(Integral, 1, None, closed="left"), None],
        "criterion": [Options(CRITERIA)],
        "cost_sensitive": [Boolean()],
        "feature_costs": FEATURE_COSTS,
        "feature_groups": FEATURE_GROUPS,
    }

    def __init__(
        self,
        budget: float | None = None,
        max_nodes: int | None = None,
        criterion: str = "gini",
        cost_sensitive: bool = False,
        feature_costs=None,
        feature_groups=None,
    ):
        self.budget = budget
        self.max_nodes = max_nodes
        self.criterion = criterion
        self.cost_sensitive = cost_sensitive
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups

    def _fit(self, data: TrainingData) -> None:
        """Grow the tree on ``(X, y)`` and compute both pruning sequences."""
        budget = np.inf if self.budget is None else float(self.budget)
        tree = _grow(
            data.X,
            (data.y > 0).astype(np.int64),
            data.group_of_column,
            data.group_cost,
            self.criterion,
            bool(self.cost_sensitive),
        )
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
        self.budget_step_ = int(self.budget_path_.step_for_budget(budget))
        self.size_step_ = (
            0 if self.max_nodes is None else int(self.size_path_.step_for_nodes(self.max_nodes))
        )

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

        ``rounds`` counts internal nodes; ``spent`` is the most expensive root-to-leaf path
        of the pruned tree; ``n_features`` the mean number of distinct feature groups on the
        examples' paths; ``mean_example_cost`` and ``max_example_cost`` the path cost each
        example pays; ``nodes`` the nodes of the pruned tree. ``inf`` (and any budget above
        the fitted ``budget``) gives the fitted tree.
        """
        steps = self._budget_steps(budgets)
        return self._at_steps(X, steps, np.full(steps.size, self.size_step_))

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
