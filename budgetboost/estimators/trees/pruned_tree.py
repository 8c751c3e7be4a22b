"""One budgeted CART tree: growing it, its two pruning sequences, and reading it pruned.

A test example pays only for the features on its own root-to-leaf path, each feature group
once per path. A tree is grown fully on the split search of :mod:`~.cart_splits` (to pure
leaves or until no split improves), then every budget and every node count is read off two
nested pruning sequences of that one tree (:class:`PruningPath`):

- **by budget**: while the most expensive root-to-leaf path costs more than zero, cut (turn
  into a leaf) the internal node on a most expensive path whose removal costs the least
  training error per unit of path cost saved. For a budget ``B`` the tree is the first of the
  sequence whose every path costs at most ``B``, so the strict per-example budget holds.
- **by node count**: classic cost-complexity (weakest-link) pruning, cutting the internal
  node with the least training error per node removed, down to the root (Figure 3).

:class:`PrunedTree` is one such tree of a fixed trade-off, an estimator of its own; plain
CART (:class:`~budgetboost.BudgetedTree`) is one, and the cost-sensitive tree grows one per
trade-off of its grid.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np

from ..contract.base import (
    BUDGET,
    PRICES,
    BudgetCosts,
    BudgetedEstimator,
    BudgetEvaluation,
    TrainingData,
)
from ..contract.params import Interval, Options
from ..contract.pricing import Pricing
from ..contract.validation import check_budgets
from .cart_splits import CRITERIA, SplitSearch

__all__ = ["GROWN_ATTRIBUTES", "GrownTree", "PrunedTree", "PruningPath", "grow", "pruning_path"]


# ---------------------------------------------------------------------------- growing
@dataclass
class GrownTree:
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


def grow(
    X: np.ndarray,
    y1: np.ndarray,
    group_of_column: np.ndarray,
    group_cost: np.ndarray,
    criterion: str,
    tradeoff: float = 0.0,
    search: SplitSearch | None = None,
    pricing: Pricing | None = None,
) -> GrownTree:
    """Grow a tree until every leaf is pure or no split improves (score > GAIN_TOL).

    Depth-first, left child first, so node ids are in preorder. A column's unpaid cost at a
    node is its group's cost, or 0 when the group is split on above the node (paid once per
    path); it enters the score ``gain - tradeoff * unpaid`` (``_scores``; plain CART:
    ``tradeoff = 0``). A node's gains depend on its examples alone: trees of other
    trade-offs grown on the same ``(X, y1)`` may share them through ``search``.

    With discount groups (``pricing``), a node's path cost is the price of the set of its
    groups, and a column's unpaid cost its marginal price given them: its discount price
    where its discount group is split on above the node, its price alone otherwise.
    """
    search = SplitSearch(X, y1, criterion) if search is None else search
    pricing = Pricing.plain(group_cost) if pricing is None else pricing
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
        rows["path_cost"].append(pricing.set_cost(paid_arr))
        rows["path_groups"].append(len(paid))
        rows["depth"].append(depth)
        rows["left"].append(-1)
        rows["right"].append(-1)
        split = None
        if 0 < n1 < idx.size:
            if pricing.discounted:
                touched = pricing.untouched()
                pricing.touch(touched, paid)
                column_cost = pricing.prices(touched)[group_of_column]
            unpaid = np.where(np.isin(group_of_column, paid_arr), 0.0, column_cost)
            split = search.best(idx, unpaid, tradeoff)
        if split is None:
            rows["feature"].append(-1)
            rows["threshold"].append(np.nan)
            continue
        rows["feature"].append(split.feature)
        rows["threshold"].append(split.threshold)
        child_paid = tuple(sorted(set(paid) | {int(group_of_column[split.feature])}))
        right, left = idx[split.goes_right], idx[~split.goes_right]
        search.split_counts(idx, right, left)
        stack.append((right, node, True, child_paid, depth + 1))
        stack.append((left, node, False, child_paid, depth + 1))
    return GrownTree(
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


def pruning_path(tree: GrownTree, by: str) -> PruningPath:
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


def _check_node_counts(node_counts: Any) -> np.ndarray:
    arr = np.atleast_1d(np.asarray(node_counts))
    if arr.ndim != 1 or arr.dtype.kind not in "iuf":
        raise ValueError(f"node_counts must be a 1-d array of numbers; got {node_counts!r}")
    bad = ~(arr >= 1)
    if bad.any():
        raise ValueError(f"node_counts must be >= 1; got {arr[bad][0]!r}")
    return arr.astype(np.float64)


#: The fitted attributes that hold a grown tree and its pruning sequence by budget.
GROWN_ATTRIBUTES = (
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
    "_size_path",
)


class PrunedTree(BudgetedEstimator):
    """One tree of a fixed trade-off, grown fully and read pruned to any budget or node count.

    The split of a node maximises ``gain - tradeoff * c`` (``c`` the unpaid cost of the
    split's group on the node's path; ``tradeoff = 0``: plain CART), see
    :class:`~budgetboost.BudgetedTree`, whose parameters and attributes these are. A budget
    ``B`` prunes the tree until every root-to-leaf path costs at most ``B``; ``max_nodes``
    prunes it by weakest link.
    """

    _parameter_constraints = {
        "budget": BUDGET,
        "max_nodes": [Interval(Integral, 1, None, closed="left"), None],
        "criterion": [Options(CRITERIA)],
        "tradeoff": [Interval(Real, 0, None, closed="left")],
        **PRICES,
    }

    def __init__(
        self,
        budget: float | None = None,
        max_nodes: int | None = None,
        criterion: str = "gini",
        tradeoff: float = 0.0,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.budget = budget
        self.max_nodes = max_nodes
        self.criterion = criterion
        self.tradeoff = tradeoff
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    def _fit(self, data: TrainingData) -> None:
        self._grow_tree(data.X, (data.y > 0).astype(np.int64), data, float(self.tradeoff))

    def _grow_tree(
        self,
        X: np.ndarray,
        y1: np.ndarray,
        data: TrainingData,
        tradeoff: float,
        search: SplitSearch | None = None,
    ) -> None:
        """Grow one tree on ``(X, y1)`` (its node gains shared through ``search`` with the
        other trees grown on ``X``) and compute its pruning sequence by budget."""
        tree = grow(
            X,
            y1,
            data.group_of_column,
            data.group_cost,
            self.criterion,
            tradeoff,
            search,
            data.pricing,
        )
        self.feature_ = tree.feature
        self.threshold_ = tree.threshold
        self.children_left_ = tree.left
        self.children_right_ = tree.right
        self.value_ = tree.value
        self.path_cost_ = tree.path_cost
        self.path_n_groups_ = tree.path_groups
        self.max_depth_ = int(tree.depth.max())
        self.budget_path_ = pruning_path(tree, "budget")
        self._grown, self._size_path = tree, None  # size_path_ is computed when first used
        self._select_steps()

    def _take_tree(self, tree: PrunedTree) -> None:
        """Hold ``tree``'s grown tree and pruning sequences, pruned to this estimator's own
        ``budget`` and ``max_nodes``."""
        for name in GROWN_ATTRIBUTES:
            setattr(self, name, getattr(tree, name))
        self._select_steps()

    def _select_steps(self) -> None:
        """The steps of the pruning sequences that the fitted ``budget`` and ``max_nodes``
        select."""
        self.budget_step_ = int(self.budget_path_.step_for_budget(self._fitted_budget()))
        self.size_step_ = (
            0 if self.max_nodes is None else int(self.size_path_.step_for_nodes(self.max_nodes))
        )

    @property
    def size_path_(self) -> PruningPath:
        """The pruning sequence by node count, computed on first use."""
        self._check_fitted()
        if self._size_path is None:
            self._size_path = pruning_path(self._grown, "nodes")
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
        rows = np.arange(paths.shape[0])
        return paths[rows, self._leaf_depths(paths, budget_steps, size_steps)]

    def _leaf_depths(
        self, paths: np.ndarray, budget_steps: np.ndarray, size_steps: np.ndarray
    ) -> np.ndarray:
        """Depth of the leaf each example reaches in each pruned tree: (len(steps),
        n_samples); the nodes of its path above that depth are the tests it reads."""
        first_b = np.minimum.accumulate(self.budget_path_.cut_step[paths], axis=1)
        by_size = bool(np.any(size_steps > 0))
        if by_size:
            first_n = np.minimum.accumulate(self.size_path_.cut_step[paths], axis=1)
        out = np.empty((budget_steps.size, paths.shape[0]), dtype=np.intp)
        for i, (sb, sn) in enumerate(zip(budget_steps, size_steps, strict=True)):
            kept = first_b > sb
            if by_size:
                kept &= first_n > sn
            out[i] = kept.sum(axis=1)
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

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray:
        """The groups of the tests on each example's path through the tree pruned to each
        budget."""
        return self._reads_at_budgets(X, budgets, self.group_of_column_, self._n_groups())

    def _reads_at_budgets(
        self, X: np.ndarray, budgets: np.ndarray, group_of_column: np.ndarray, n_groups: int
    ) -> np.ndarray:
        """``_groups_read`` of this tree, its columns' groups given (a tree a tuned
        estimator grew holds none of its own): (len(budgets), n_samples, n_groups)."""
        steps = self._budget_steps(budgets)
        paths = self._paths(X)
        depths = self._leaf_depths(paths, steps, np.full(steps.size, self.size_step_))
        budget, row, level = np.nonzero(np.arange(paths.shape[1]) < depths[:, :, None])
        reads = np.zeros((budgets.size, X.shape[0], n_groups), dtype=bool)
        column = self.feature_[paths[row, level]]  # an inner node's: >= 0
        reads[budget, row, np.asarray(group_of_column)[column]] = True
        return reads

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
