"""STreeD's optimal cost-sensitive decision trees as a budgeted peer.

STreeD (Van der Linden, de Weerdt & Demirović, NeurIPS 2023) finds by dynamic programming
the tree of depth at most ``max_depth`` over binary tests that minimises a separable
objective exactly. Its cost-sensitive classification task (``pystreed``'s
``STreeDCostSensitiveClassifier``) minimises, summed over the training examples, the
misclassification cost of the example's leaf plus the price of the tests on the example's
root-to-leaf path, with Turney's (1995) cost model. That is this project's cost model
(:mod:`~budgetboost.estimators.contract.pricing`), mapped one to one:

- one error costs 1 (the misclassification matrix ``[[0, 1], [1, 0]]``) and a feature group
  of price ``p`` costs ``s * p``, ``s`` the trade-off's scale (:class:`BudgetedSTreeD`);
- the tests given to STreeD are ordered so that the tests of one feature group (thresholds of
  one raw attribute) are contiguous, and each group is one ``FeatureCostSpecifier(s * p,
  s * discount price, name, begin, end)``, its tests the columns ``begin`` to ``end``
  *inclusive* (``src/tasks/cost_sensitive.cpp``: ``for (f = binary_begin; f <= binary_end;
  f++)``). A test costs nothing when a test of its own specifier is on the path above (the
  group is paid), its discount price when a test of another specifier of the same ``name``
  is (the discount group's shared part is paid), and its full price otherwise. The name is
  the group's discount group (``"discount-3"``), or the group itself (``"group-17"``) where
  it has none: a set of groups on a path then costs ``s`` times
  :meth:`Pricing.set_cost <budgetboost.estimators.contract.pricing.Pricing.set_cost>` of it,
  which the tests check against the objective STreeD reports.

So one solve is one point of the trade-off between errors and what the examples pay, for
every example at once (a tree, not a prefix); the budget contract is a hard limit per
example, which the tree pruned to the budget meets (:class:`StreedTree`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np
from pystreed import STreeDCostSensitiveClassifier
from pystreed.data import CostSpecifier, FeatureCostSpecifier

from ..contract.base import (
    BUDGET,
    DISCOUNT_COSTS,
    DISCOUNT_GROUPS,
    FEATURE_COSTS,
    FEATURE_GROUPS,
    RANDOM_STATE,
    BudgetCosts,
    TrainingData,
)
from ..contract.params import Interval, InvalidParameterError
from ..contract.pricing import Pricing
from ..contract.tuning import (
    EMPTY_SCORE,
    TRADEOFF,
    Choice,
    IntegerGrid,
    TunedEstimator,
    check_validation_part,
    choose_by_budget,
)

__all__ = [
    "DEFAULT_COLUMNS",
    "DEFAULT_DEPTHS",
    "DEFAULT_TRADEOFFS",
    "MAX_DEPTH",
    "BudgetedSTreeD",
    "CandidateTests",
    "IntegerGrid",
    "StreedTree",
    "TimeLimitError",
    "candidate_tests",
    "cost_specifier",
    "select_tests",
    "solve",
]

#: Default trade-off grid ``lambda``: what a feature group of mean price costs, in errors.
DEFAULT_TRADEOFFS = (0.0, 1 / 64, 1 / 16, 1 / 4, 1.0)
#: Default ``max_depth`` grid.
DEFAULT_DEPTHS = (1, 2, 3, 4)
#: The most tests of a solve by its depth when ``max_columns`` is None: 128 up to depth 3,
#: 40 at depth 4, 20 deeper (the last entry); each keeps a solve of 750 of the benchmark's
#: rows at 0.1-0.4 s CPU.
DEFAULT_COLUMNS = (128, 128, 128, 40, 20)
#: The deepest tree pystreed accepts.
MAX_DEPTH = 20
#: The misclassification costs ``[true][predicted]``: one error costs 1.
_ERRORS = [[0.0, 1.0], [1.0, 0.0]]


class TimeLimitError(RuntimeError):
    """A STreeD solve stopped at its ``time_limit``: its tree is not proven optimal and
    would depend on the machine's speed, so it is refused."""


# ---------------------------------------------------------------------------- the tests
@dataclass(frozen=True, eq=False)
class CandidateTests:
    """The binary tests ``x[column] >= threshold`` STreeD may choose from, with their gains.

    Attributes
    ----------
    column : ndarray of int, shape (n_tests,)
        The column of ``X`` tested.
    threshold : ndarray of shape (n_tests,)
        Midway between two consecutive values of the column on the rows.
    group : ndarray of int, shape (n_tests,)
        The feature group of the column.
    gain : ndarray of shape (n_tests,)
        The Gini gain of the test as a split of the rows (``2 p (1 - p)`` impurity).
    """

    column: np.ndarray
    threshold: np.ndarray
    group: np.ndarray
    gain: np.ndarray

    def take(self, index: np.ndarray) -> CandidateTests:
        """The tests at ``index``, in that order."""
        return CandidateTests(
            self.column[index], self.threshold[index], self.group[index], self.gain[index]
        )

    def values(self, X: np.ndarray) -> np.ndarray:
        """The tests' 0/1 outcomes on ``X``: (n_samples, n_tests), ``np.intc`` for pystreed."""
        return (X[:, self.column] >= self.threshold).astype(np.intc)


def _gini_gains(n_right: np.ndarray, pos_right: np.ndarray, n: int, pos: int) -> np.ndarray:
    """Gini gain of splits that send ``n_right`` rows, ``pos_right`` of them positive, to the
    right, out of ``n`` rows, ``pos`` positive."""

    def impurity(k: np.ndarray, m: np.ndarray) -> np.ndarray:
        p = k / np.maximum(m, 1)
        return 2.0 * p * (1.0 - p)

    n_left, pos_left = n - n_right, pos - pos_right
    parent = impurity(np.float64(pos), np.float64(n))
    children = n_right * impurity(pos_right, n_right) + n_left * impurity(pos_left, n_left)
    return parent - children / n


def candidate_tests(X: np.ndarray, y1: np.ndarray, data: TrainingData) -> CandidateTests:
    """Every test that splits ``(X, y1)``, each partition of the rows offered once.

    A 0/1 column gives one test (``x >= 0.5``); any other column one test between each two
    consecutive distinct values. Tests that split the rows identically (or into the same two
    parts, swapped) are one: the first of them by price alone, then column, is kept (the
    same split at the lowest price; only 0/1 columns are compared, as the benchmark's data
    are).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The rows the tree is fitted on.
    y1 : ndarray of int, shape (n_samples,)
        1 for ``classes_[1]``, else 0.
    data : TrainingData
        The columns' feature groups and the prices (``data.pricing``).

    Returns
    -------
    CandidateTests
        In column order, then threshold.
    """
    n = X.shape[0]
    pos = int(y1.sum())
    varying = X.max(axis=0) > X.min(axis=0)
    binary = varying & np.all((X == 0) | (X == 1), axis=0)
    # 0/1 columns: one test each, one per partition of the rows (cheapest, then first)
    columns = np.flatnonzero(binary)
    ones = X[:, columns] > 0.5
    flipped = ones ^ ones[:1]  # a part and its complement are one partition
    packed = np.ascontiguousarray(np.packbits(flipped, axis=0).T)
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    price = data.pricing.prices()[data.group_of_column[columns]]
    first = np.lexsort((columns, price))
    _, unique = np.unique(keys[first], return_index=True)
    keep = np.sort(first[unique])
    columns, ones = columns[keep], ones[:, keep]
    n_right = ones.sum(axis=0)
    pos_right = y1 @ ones
    column_parts, threshold_parts = [columns], [np.full(columns.size, 0.5)]
    n_parts, pos_parts = [n_right], [pos_right]
    # any other varying column: a test between each two consecutive distinct values
    other = np.flatnonzero(varying & ~binary)
    if other.size:
        order = np.argsort(X[:, other], axis=0, kind="stable")
        values = np.take_along_axis(X[:, other], order, axis=0)
        below = np.cumsum(y1[order], axis=0)  # positives among the k + 1 smallest
        k, j = np.nonzero(values[1:] > values[:-1])  # a cut after the k + 1 smallest
        column_parts.append(other[j])
        threshold_parts.append((values[k, j] + values[k + 1, j]) / 2)
        n_parts.append(n - (k + 1))
        pos_parts.append(pos - below[k, j])
    column = np.concatenate(column_parts).astype(np.intp)
    threshold = np.concatenate(threshold_parts)
    order = np.lexsort((threshold, column))
    column, threshold = column[order], threshold[order]
    gain = _gini_gains(
        np.concatenate(n_parts)[order].astype(np.float64),
        np.concatenate(pos_parts)[order].astype(np.float64),
        n,
        pos,
    )
    return CandidateTests(column, threshold, data.group_of_column[column], gain)


def select_tests(
    tests: CandidateTests,
    price: np.ndarray,
    scale: float,
    max_columns: int,
    max_thresholds: int,
) -> CandidateTests:
    """The ``max_columns`` best tests by Greedy Miser's score ``gain - scale * price``, at most
    ``max_thresholds`` of each feature group (a departure from STreeD, which takes every
    test: see :class:`BudgetedSTreeD`).

    Parameters
    ----------
    tests : CandidateTests
    price : ndarray of shape (n_groups,)
        Each feature group's price alone.
    scale : float
        The price of one unit of cost, in errors (the trade-off's scale; 0: cost-blind).
    max_columns, max_thresholds : int

    Returns
    -------
    CandidateTests
        Ordered by feature group, then column and threshold, so that each group's tests are
        contiguous (what pystreed's cost specifiers need). Ties of the score go to the
        lower price, then the lower column and threshold.
    """
    cost = price[tests.group]
    score = tests.gain - scale * cost
    order = np.lexsort((tests.threshold, tests.column, cost, -score))
    group = tests.group[order]
    by_group = np.argsort(group, kind="stable")  # score order within each group
    starts = np.searchsorted(group[by_group], group[by_group], side="left")
    rank = np.empty(order.size, dtype=np.intp)
    rank[by_group] = np.arange(order.size) - starts
    chosen = tests.take(order[rank < max_thresholds][:max_columns])
    return chosen.take(np.lexsort((chosen.threshold, chosen.column, chosen.group)))


def cost_specifier(group: np.ndarray, pricing: Pricing, scale: float) -> CostSpecifier:
    """pystreed's costs of tests whose feature groups are ``group`` (each group's tests
    contiguous): one error costs 1, a group of price ``p`` costs ``scale * p`` (the module
    docstring says how the discount groups map).

    Parameters
    ----------
    group : ndarray of int, shape (n_tests,)
        The feature group of each test given to STreeD, in the order given.
    pricing : Pricing
    scale : float
    """
    starts = np.flatnonzero(np.concatenate([[True], group[1:] != group[:-1]]))
    ends = np.append(starts[1:], group.size) - 1
    if np.unique(group[starts]).size != starts.size:
        raise ValueError("the tests of each feature group must be contiguous")
    alone, base = pricing.prices(), pricing.base
    specifiers = []
    for begin, end in zip(starts.tolist(), ends.tolist(), strict=True):  # one per group
        g = int(group[begin])
        d = int(pricing.discount_group[g])
        name = f"discount-{d}" if d >= 0 else f"group-{g}"
        discount = base[g] if d >= 0 else alone[g]
        specifiers.append(
            FeatureCostSpecifier(float(scale * alone[g]), float(scale * discount), name, begin, end)
        )
    return CostSpecifier(_ERRORS, specifiers)


def solve(
    Z: np.ndarray,
    y1: np.ndarray,
    costs: CostSpecifier,
    max_depth: int,
    min_leaf_node_size: int,
    time_limit: float,
    seed: int,
) -> Any:
    """STreeD's optimal tree on the 0/1 tests ``Z`` (the pystreed tree's root).

    Raises
    ------
    TimeLimitError
        When the solve stops at ``time_limit`` (its tree is not proven optimal).
    RuntimeError
        When pystreed finds no tree (it always should: a leaf is feasible).
    """
    solver = STreeDCostSensitiveClassifier(
        max_depth=int(max_depth),
        min_leaf_node_size=int(min_leaf_node_size),
        time_limit=float(time_limit),
        random_seed=int(seed),
    )
    solver.fit(Z, y1.astype(np.intc), costs)
    if not solver.is_fitted():
        raise RuntimeError("pystreed found no feasible tree")
    if not solver.fit_result.is_optimal():
        raise TimeLimitError(
            f"a STreeD solve (max_depth={max_depth}, {Z.shape[0]} rows x {Z.shape[1]} tests) "
            f"stopped at time_limit={time_limit} s: its tree would depend on the machine's "
            "speed. Lower max_depth or max_columns, or raise time_limit"
        )
    return solver.tree_


# ---------------------------------------------------------------------------- the tree
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


def _depth_grid(max_depth: Any, max_columns: Any) -> tuple[np.ndarray, np.ndarray]:
    """The depths of the grid, increasing, and the most tests of a solve of each
    (:data:`DEFAULT_COLUMNS` by depth where ``max_columns`` is None).

    Raises
    ------
    InvalidParameterError
        When ``max_columns`` is neither one number nor one per value of ``max_depth``.
    """
    depths = np.atleast_1d(np.asarray(max_depth)).astype(np.intp)
    if max_columns is None:
        by_depth = np.asarray(DEFAULT_COLUMNS, dtype=np.intp)
        columns = by_depth[np.minimum(depths, by_depth.size) - 1]
    else:
        columns = np.atleast_1d(np.asarray(max_columns)).astype(np.intp)
    if columns.size == 1:
        columns = np.repeat(columns, depths.size)
    elif columns.size != depths.size:
        raise InvalidParameterError(
            "max_columns",
            f"must be one number or one per value of max_depth ({depths.size}); got {columns.size}",
        )
    order = np.argsort(depths, kind="stable")
    return depths[order], columns[order]


def _depth(parent: np.ndarray) -> int:
    """Depth of a tree given each node's parent (preorder: parents first)."""
    level = np.zeros(parent.size, dtype=np.intp)
    for node in range(1, parent.size):  # over tree nodes
        level[node] = level[parent[node]] + 1
    return int(level.max())


# ---------------------------------------------------------------------------- the estimator
class BudgetedSTreeD(TunedEstimator):
    """Optimal cost-sensitive decision trees (STreeD) pruned to the budget.

    For each configuration ``(lambda, max_depth)`` of the grid (and minimum leaf size, where
    ``min_leaf_node_size`` is a grid), STreeD finds on the fit part
    of the training rows the tree of depth at most ``max_depth`` that minimises, summed over
    the rows, ``error + lambda * price(path) / c``: the row's misclassification (0 or 1) and
    what it pays for the feature groups on its root-to-leaf path (with Turney's discount
    groups), ``c`` the mean positive price of a feature group. ``lambda`` is what a group of
    mean price costs, in errors: at ``lambda = 1/16`` a split on one must remove at least one
    error in 16 of the rows that reach it; ``lambda = 0`` is cost-blind (the fewest errors;
    among those trees the cheapest, the prices scaled so that all of them together are worth
    less than one error).

    A test example at budget ``B`` pays the groups on its own path; every tree is served
    pruned to ``B`` (:class:`StreedTree`: each path cut at the first node whose split would
    cost more than ``B``, that node predicting its training rows' majority), so no example
    pays more than ``B``. At each budget the configuration whose fit-part tree, pruned to the
    budget, makes the fewest errors on the validation part is chosen (ties: the smaller
    depth, then the smaller minimum leaf size, then the smaller ``lambda``), and refitted
    on all training rows (the protocol of every tuned estimator,
    :mod:`budgetboost.estimators.contract.tuning`).

    **Departure from STreeD: fewer tests.** STreeD takes every binary test it is given, and
    its search grows with their number to the power of the depth (on 750 rows of the
    benchmark: a depth-3 solve takes about 0.03 s CPU on 64 tests, 0.2 s on 128, 1-2 s on
    256; a depth-4 solve 0.1-0.2 s on 32 tests, 0.5-0.9 s on 48). The benchmark's data have
    up to 11,196 threshold columns, so a solve of depth ``d`` is given at most
    ``max_columns`` tests (its number for depth ``d``): the best by Greedy Miser's root score
    ``gini gain - lambda * price / c`` on the rows solved (a cost-aware criterion, per
    ``lambda``), at most ``max_thresholds`` of one feature group, after merging tests that
    split those rows identically (the cheapest kept). Each tree is optimal over its tests,
    not over all columns.

    Parameters
    ----------
    budget : float or None, default=None
        Caps every budget served (``None``: unlimited).
    tradeoffs : float, array-like of float or None, default=None
        The ``lambda`` grid (numbers >= 0; sorted and deduplicated when fitted); one number is
        a fixed trade-off. ``None``: :data:`DEFAULT_TRADEOFFS` ``(0, 1/64, 1/16, 1/4, 1)``,
        from cost-blind to "a group of mean price must remove an error in every example that
        reads it".
    max_depth : int or array-like of int, default=(1, 2, 3, 4)
        pystreed's ``max_depth``: one, or a grid of distinct depths to choose from per budget
        (sorted when fitted).
    max_columns : int, array-like of int or None, default=None
        The most tests given to one STreeD solve (the departure above): one number for every
        depth, or one per value of ``max_depth``, in its order. ``None``:
        :data:`DEFAULT_COLUMNS`, 128 up to depth 3, 40 at depth 4 and 20 deeper. With the
        default grid one trial of the benchmark (the grid, the refits, 20 budgets on the
        test and the training rows) took a median 1.8 s CPU, 6.3 s at worst (38 datasets
        and five with Turney's costs, 5 trials each, 75-1,000 training rows); depth 4 on
        128 tests would take ten times as long, and ``max_depth=(1, 2, 3),
        max_columns=64`` a seventh (its test errors 0.004 higher on average, 3 trials).
    max_thresholds : int, default=4
        The most tests of one feature group (thresholds of one raw attribute when groups are
        given) among them, so that the tests spread over the attributes (on the five datasets
        with Turney's costs, 4 erred no more than 8, 16 or 32, at a fraction of the time).
    min_leaf_node_size : int >= 1 or array-like of them, default=1
        pystreed's: the fewest training rows in a leaf (of the rows a tree is solved on: the
        fit part, then all training rows for the refit; a tree pruned to a budget only
        merges leaves). Several distinct values (e.g. ``[1, 5, 10]``) are a grid: each joins
        the configurations and is chosen per budget on the validation part with ``lambda``
        and the depth. A larger leaf keeps an optimal tree from fitting a few rows' noise.
    time_limit : float, default=60.0
        pystreed's, in seconds (wall clock) per solve. A solve that reaches it raises
        :class:`TimeLimitError` rather than return a tree that depends on the machine's
        speed; the defaults solve in well under a second.
    validation_fraction : float in [0, 1), default=0.25
        Share of each class of the training rows held out to choose the configuration per
        budget. 0 needs a single configuration (one ``lambda``, one ``max_depth``, one
        ``min_leaf_node_size``).
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seed of the validation split and of pystreed's ``random_seed`` (drawn from it).
    feature_costs, feature_groups, discount_groups, discount_costs : array-like, default=None
        The costs (see :class:`~budgetboost.BudgetedEstimator`): STreeD charges each path the
        price of its set of groups, discount groups included.

    Attributes
    ----------
    tradeoffs_, depths_, columns_, min_leaf_sizes_ : ndarray of shape (n_configs,)
        The ``lambda``, ``max_depth``, ``max_columns`` and ``min_leaf_node_size`` of each
        configuration, depth-major, then by leaf size (all ``lambda`` of the smallest depth
        and leaf size first).
    unit_ : float
        ``c``: the mean positive price of a feature group (1 when none is positive).
    seed_ : int
        pystreed's ``random_seed`` of every solve.
    models_ : list of StreedTree
        The tree of each configuration on the fit part.
    validation_error_ : ndarray of shape (n_configs, n_budgets)
        The validation error of each configuration at each budget of ``choice_budgets_``.
    choice_budgets_ : ndarray
        0 and every budget at which some tree's pruning changes.
    choice_ : Choice
        The configuration of every budget.
    refits_ : dict of int to StreedTree
        The chosen configurations refitted on all training rows.
    fit_rows_, validation_rows_ : ndarray of int
        The fit and validation parts.

    References
    ----------
    J. G. M. van der Linden, M. M. de Weerdt, E. Demirović. Necessary and Sufficient
    Conditions for Optimal Decision Trees using Dynamic Programming. NeurIPS 2023 (STreeD,
    with cost-sensitive classification under Turney's costs). P. D. Turney.
    Cost-Sensitive Classification: Empirical Evaluation of a Hybrid Genetic Decision Tree
    Induction Algorithm. JAIR 2, 1995 (test costs, discount groups). Z. Xu, K. Weinberger,
    O. Chapelle. The Greedy Miser. ICML 2012 (the score ``gain - lambda * cost``).
    """

    libraries = ("pystreed",)

    _parameter_constraints = {
        "budget": BUDGET,
        "tradeoffs": TRADEOFF,
        "max_depth": [IntegerGrid(1, MAX_DEPTH, "the depths to choose from", distinct=True)],
        "max_columns": [IntegerGrid(1, None, "one per value of max_depth"), None],
        "max_thresholds": [Interval(Integral, 1, None, closed="left")],
        "min_leaf_node_size": [IntegerGrid(1, None, "the sizes to choose from", distinct=True)],
        "time_limit": [Interval(Real, 0, np.inf, closed="neither")],
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        "feature_costs": FEATURE_COSTS,
        "feature_groups": FEATURE_GROUPS,
        "discount_groups": DISCOUNT_GROUPS,
        "discount_costs": DISCOUNT_COSTS,
    }

    def __init__(
        self,
        budget: float | None = None,
        tradeoffs=None,
        max_depth=DEFAULT_DEPTHS,
        max_columns=None,
        max_thresholds: int = 4,
        min_leaf_node_size: int = 1,
        time_limit: float = 60.0,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.budget = budget
        self.tradeoffs = tradeoffs
        self.max_depth = max_depth
        self.max_columns = max_columns
        self.max_thresholds = max_thresholds
        self.min_leaf_node_size = min_leaf_node_size
        self.time_limit = time_limit
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does.

        Besides each parameter's own constraints: ``max_columns`` gives one number, or one
        per value of ``max_depth``; ``validation_fraction=0`` needs a single configuration
        (one ``tradeoffs`` value, one ``max_depth`` and one ``min_leaf_node_size``): there
        is nothing to choose among otherwise.

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        depths, _ = _depth_grid(params.get("max_depth", DEFAULT_DEPTHS), params.get("max_columns"))
        grid = params.get("tradeoffs")
        n_tradeoffs = len(DEFAULT_TRADEOFFS) if grid is None else np.unique(grid).size
        leaf_sizes = np.atleast_1d(np.asarray(params.get("min_leaf_node_size", 1))).size
        counts = {"tradeoffs": n_tradeoffs, "max_depth": depths.size}
        check_validation_part(params, {**counts, "min_leaf_node_size": leaf_sizes})

    # ------------------------------------------------------------------ one tree
    def _tree(
        self,
        data: TrainingData,
        rows: np.ndarray,
        tradeoff: float,
        depth: int,
        columns: int,
        min_leaf: int,
    ) -> StreedTree:
        """STreeD's tree of one configuration (``columns`` tests at most, ``min_leaf`` rows
        in a leaf at least) on ``rows`` of the training data."""
        X, y1 = data.X[rows], (data.y[rows] > 0).astype(np.int64)
        key = rows.tobytes()
        if key not in self._tests_cache:  # the fit part's or all rows' tests, for the grid
            self._tests_cache[key] = candidate_tests(X, y1, data)
        tests = self._tests_cache[key]
        price = data.pricing.prices()
        selected = select_tests(
            tests,
            price,
            tradeoff / self.unit_,
            int(columns),
            int(self.max_thresholds),
        )
        if not selected.column.size:  # no test splits the rows: the tree is a leaf
            return StreedTree.build(_Leaf(), selected, X, y1, data)
        if tradeoff > 0:
            scale = tradeoff / self.unit_
        else:  # cost-blind: every path's price together is worth less than one error
            total = float(price[np.unique(selected.group)].sum())
            scale = 1.0 / (2.0 * rows.size * total) if total > 0 else 0.0
        costs = cost_specifier(selected.group, data.pricing, scale)
        root = solve(
            selected.values(X),
            y1,
            costs,
            depth,
            min_leaf,
            self.time_limit,
            self.seed_,
        )
        return StreedTree.build(root, selected, X, y1, data)

    # ------------------------------------------------------------------ the protocol's steps
    def _fit(self, data: TrainingData) -> None:
        """The protocol (:meth:`TunedEstimator._fit`), with the grid's unit and tests."""
        price = data.pricing.prices()
        positive = price[price > 0]
        self.unit_ = float(positive.mean()) if positive.size else 1.0
        self._tests_cache: dict[bytes, CandidateTests] = {}
        try:
            super()._fit(data)
        finally:
            del self._tests_cache

    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[StreedTree]]:
        """One tree per configuration on the fit part: depth-major, then the minimum leaf
        size, then ``lambda``."""
        self.seed_ = int(rng.integers(np.iinfo(np.int32).max))
        tradeoffs = np.unique(
            np.asarray(DEFAULT_TRADEOFFS if self.tradeoffs is None else self.tradeoffs, float)
        )
        depths, columns = _depth_grid(self.max_depth, self.max_columns)
        leaf_sizes = np.unique(np.atleast_1d(np.asarray(self.min_leaf_node_size)))
        grid = [
            (t, d, c, m)
            for d, c in zip(depths.tolist(), columns.tolist(), strict=True)
            for m in leaf_sizes.tolist()
            for t in tradeoffs.tolist()
        ]
        self.depths_ = np.array([d for _, d, _, _ in grid], dtype=np.intp)
        self.columns_ = np.array([c for _, _, c, _ in grid], dtype=np.intp)
        self.min_leaf_sizes_ = np.array([m for *_, m in grid], dtype=np.intp)
        models = [self._tree(data, fit_rows, *config) for config in grid]
        return np.array([t for t, *_ in grid], dtype=np.float64), models

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """The configuration whose tree, pruned to the budget, errs least on ``rows``, at
        every budget where some tree's pruning changes (:func:`choose_by_budget`)."""
        budgets = np.unique(np.concatenate([[0.0], *(t.change_points() for t in self.models_)]))
        X, y = data.X[rows], data.y[rows]
        self.validation_error_ = np.vstack(
            [tree.errors(X, y, budgets, self.majority_) for tree in self.models_]
        )
        self.choice_budgets_ = budgets
        return choose_by_budget(budgets, self.validation_error_)

    def _refit(
        self, data: TrainingData, chosen: Sequence[int], sizes: Sequence[int]
    ) -> list[StreedTree]:
        """The chosen configurations' trees on all training rows."""
        rows = np.arange(data.y.size)
        return [
            self._tree(
                data,
                rows,
                self.tradeoffs_[i],
                self.depths_[i],
                self.columns_[i],
                self.min_leaf_sizes_[i],
            )
            for i in chosen
        ]

    def _serve(
        self,
        index: int,
        model: StreedTree,
        X: np.ndarray,
        budgets: np.ndarray,
        sizes: np.ndarray,
    ) -> tuple[np.ndarray, BudgetCosts]:
        """The refitted tree pruned to each budget: ``rounds`` its internal nodes, ``spent``
        its most expensive path, ``n_features`` the groups on the examples' paths (mean),
        the per-example costs what each example's path cost, ``nodes`` its nodes."""
        leaves = model.leaves(model.paths(X), budgets)
        return model.scores(leaves, self.majority_), model.costs(leaves, budgets)

    def _serve_reads(
        self,
        index: int,
        model: StreedTree,
        X: np.ndarray,
        budgets: np.ndarray,
        sizes: np.ndarray,
    ) -> np.ndarray:
        """The groups split on above each example's leaf of the tree pruned to each budget
        (those whose price is its cost, ``reach_cost``): (n_budgets, n, n_groups)."""
        paths = model.paths(X)
        kept = (model.feature[paths] >= 0) & (model.split_cost[paths] <= budgets[:, None, None])
        b, i, step = np.nonzero(kept)
        reads = np.zeros((budgets.size, X.shape[0], self._n_groups()), dtype=bool)
        reads[b, i, self.group_of_column_[model.feature[paths[i, step]]]] = True
        return reads


class _Leaf:
    """A pystreed-like leaf: the tree of rows that no test splits."""

    @staticmethod
    def is_leaf_node() -> bool:
        return True
