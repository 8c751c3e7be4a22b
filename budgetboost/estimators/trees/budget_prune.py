"""BudgetPrune: a random forest pruned by a linear program (Nan, Wang & Saligrama, NIPS 2016).

A random forest is grown (scikit-learn's: bootstrap samples, a random subset of the columns
at each split), then pruned *jointly*, all its trees at once, by the paper's 0-1 integer
program (its Section 3): the empirical error of the pruned trees traded, with a weight
``lambda``, against the mean price an example pays for the feature groups it reads. An
example pays for a group once however many trees read it, so the program rewards trees that
re-use what other trees already bought for the same example. The paper proves the
constraint matrix totally unimodular, so the LP relaxation has integral optima; it is solved
here with HiGHS (``scipy.optimize.linprog``) and every solution is checked to be integral.

The paper's text was not at hand when this module was written (only its abstract): the
program is written from its published description (node variables, per-example feature
usage variables, error plus ``lambda`` times the mean feature cost, total unimodularity)
in the form :func:`pruning_problem` states, and where a detail may differ from the paper's
(the rows a node's error is counted on, the forest's vote) the docstrings say what is done
here and why.

Beyond the paper, for the benchmark's contract: a hard per-example budget at serving time
(each example walks the pruned trees in order and stops in a tree where the next split's
price no longer fits what remains of its budget, :func:`walk_rows`), Turney's discount
groups in the program and in the walk, and ``lambda`` chosen per budget on a validation
part of the training rows (:mod:`~budgetboost.estimators.contract.tuning`).

The paper's abstract says the method "benefits from good RF initialization": a cost-blind
forest leaves little worth pruning under a small budget. As an option (``max_column_cost``)
forests are grown on the columns whose feature group costs at most ``tau`` alone, for a grid
of ``tau`` (:func:`column_cost_grid`, :func:`columns_within`), and the (``tau``,
``lambda``) of fewest validation errors is chosen per budget (the class docstring says what
of the authors' practice this follows).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

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
from ..contract.params import Interval, NonNegativeVector, Options
from ..contract.pricing import Pricing
from ..contract.threads import thread_limit
from ..contract.tuning import (
    EMPTY_SCORE,
    TRADEOFF,
    Choice,
    TunedEstimator,
    check_validation_part,
    choose_by_budget,
    grid_size,
)
from ..contract.validation import check_budgets

__all__ = [
    "CHOICE_GRID",
    "DEFAULT_COLUMN_SHARES",
    "DEFAULT_TRADEOFFS",
    "INTEGRALITY_TOL",
    "BudgetPrune",
    "Forest",
    "PrunedForest",
    "PruningProblem",
    "Served",
    "Walk",
    "budgeted_walk",
    "column_cost_grid",
    "columns_within",
    "forest_scores",
    "grow_forest",
    "prune",
    "pruning_problem",
    "serve",
    "solve_pruning",
    "walk_rows",
]

#: Default ``lambda`` grid, in units of ``1 / c``, ``c`` the mean positive price of a
#: feature group: at ``lambda = m / c`` a split on a group of mean price must remove ``m``
#: errors of its tree per example that reaches it and pays for the group only there.
DEFAULT_TRADEOFFS = (0.0, 1 / 64, 1 / 16, 1 / 4)
#: Default ``max_column_cost`` grid (``"auto"``): the least prices at or below which these
#: shares of the feature groups lie (each group at its full price), then ``inf`` (every
#: column): forests on the cheapest eighth, quarter and half of the groups, and on all.
DEFAULT_COLUMN_SHARES = (1 / 8, 1 / 4, 1 / 2)
#: Budgets at which the validation errors are compared (:meth:`BudgetPrune._choose`): 0 and
#: this many evenly spaced up to the largest a validation example can spend.
CHOICE_GRID = 64
#: Largest distance of an LP solution from the nearest integers before it is refused.
INTEGRALITY_TOL = 1e-6
#: Cells of the examples-by-groups table of one walk, above which budgets are walked in
#: chunks (memory, not results: a chunk walks its budgets exactly as one walk would).
_WALK_CELLS = 4_000_000


# ---------------------------------------------------------------------------- the forest
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


# ---------------------------------------------------------------------------- the program
@dataclass(frozen=True, eq=False)
class PruningProblem:
    """The pruning LP of a forest on its rows, for every ``lambda`` at once.

    Variables: ``x_h`` for each internal node ``h`` (1: ``h`` splits in the pruned forest;
    a node is kept when its parent splits, and is a leaf when kept and not split) and ``w_s``
    for each distinct set ``s`` of nodes that an item an example pays for hangs on (below).
    Constraints, every one a difference of two variables (so the matrix, a network matrix,
    is totally unimodular): ``x_h <= x_parent(h)`` and ``x_h <= w_s`` for ``h`` in ``s``.
    The objective is ``base_error + (error_gain + lambda * node_price) . x +
    lambda * set_price . w`` (see :func:`pruning_problem`).

    Attributes
    ----------
    nodes : ndarray of int, shape (n_x,)
        The forest's node of each ``x`` variable (its internal nodes, in id order).
    base_error : float
        ``sum_t e_root(t) / N``: the error term when every tree is its root.
    error_gain : ndarray of shape (n_x,)
        ``(e_left + e_right - e_h) / N``: what splitting ``h`` adds to the error term.
    node_price : ndarray of shape (n_x,)
        The price of the items hanging on ``h`` alone, over ``N`` (their ``w`` equals
        ``x_h`` at an optimum, so they are folded into ``x_h``).
    set_price : ndarray of shape (n_w,)
        The price of the items hanging on each set of two or more nodes, over ``N``.
    tree_rows : ndarray of int, shape (2, n_tree_rows)
        ``(child, parent)`` x-indices of each ``x_child <= x_parent``.
    set_rows : ndarray of int, shape (2, n_set_rows)
        ``(x index, w index)`` of each ``x_h <= w_s``.
    """

    nodes: np.ndarray
    base_error: float
    error_gain: np.ndarray
    node_price: np.ndarray
    set_price: np.ndarray
    tree_rows: np.ndarray
    set_rows: np.ndarray


def _first_reads(
    forest: Forest, paths: Sequence[np.ndarray], key_of_node: np.ndarray, n_keys: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(row, key, node)`` of the first node of each row's path in each tree whose key
    (``key_of_node``, ``-1``: none) is ``key``: the node whose split makes the row pay for
    the key in that tree (any deeper node of the same key is split only if that one is)."""
    rows_out, keys_out, nodes_out = [], [], []
    for path in paths:
        n_rows = path.shape[0]
        node = path.T.ravel()  # depth-major: a (row, key)'s first entry is its shallowest
        row = np.tile(np.arange(n_rows, dtype=np.int64), path.shape[1])
        key = np.where(forest.internal[node], key_of_node[node], -1)
        keep = key >= 0
        node, row, key = node[keep], row[keep], key[keep]
        _, first = np.unique(row * n_keys + key, return_index=True)
        rows_out.append(row[first])
        keys_out.append(key[first])
        nodes_out.append(node[first])
    return np.concatenate(rows_out), np.concatenate(keys_out), np.concatenate(nodes_out)


def pruning_problem(
    forest: Forest, paths: Sequence[np.ndarray], y: np.ndarray, pricing: Pricing
) -> PruningProblem:
    """The pruning LP (the paper's Section 3) of ``forest`` on some rows, for every
    ``lambda``.

    Parameters
    ----------
    forest : Forest
    paths : list of ndarray
        :meth:`Forest.paths` of the rows.
    y : ndarray of shape (n_rows,)
        Their labels, -1/+1.
    pricing : Pricing
        The prices of the feature groups.

    Returns
    -------
    PruningProblem

    Objective, for ``lambda``::

        (1/N) sum_t sum_h e_h [h is a leaf of pruned tree t]
            + lambda (1/N) sum_i price(groups row i reads in the pruned forest)

    ``e_h`` counts the rows reaching ``h`` whose label is not ``h``'s majority vote (every
    row: the bootstrap sample's and the out-of-bag ones). A row reads group ``g`` if, in some
    tree, the first node of its path splitting on ``g`` splits (``x_h = 1``); the paper's
    ``w_{k,i} >= x_h`` constraints say exactly that (deeper nodes on ``g`` split only if that
    one does). With Turney's discount groups the price is the contract's
    (:class:`~budgetboost.estimators.contract.pricing.Pricing`): an item per read group
    (its discount price, or its full price outside a discount group) and an item per touched
    discount group (its shared part, ``v_{d,i} >= x_h`` for the first node of ``d`` on the
    path), still difference constraints. Rows whose items hang on the same set of nodes are
    merged (one ``w`` carrying their summed price), and an item hanging on one node is folded
    into that node's ``x`` (at an optimum ``w = x_h``): the LP is smaller, its optimum the
    same.
    """
    n_rows = y.size
    internal = forest.internal
    nodes = np.flatnonzero(internal)
    x_of = np.full(forest.n_nodes, -1, dtype=np.intp)
    x_of[nodes] = np.arange(nodes.size)

    wrong = np.zeros(forest.n_nodes)
    for path in paths:
        seen = np.ones(path.shape, dtype=bool)  # each node once per row (paths are padded)
        seen[:, 1:] = path[:, 1:] != path[:, :-1]
        miss = seen & (forest.vote[path] != y[:, None])
        wrong += np.bincount(path[miss], minlength=forest.n_nodes)
    error_gain = (wrong[forest.left[nodes]] + wrong[forest.right[nodes]] - wrong[nodes]) / n_rows
    base_error = float(wrong[forest.roots].sum() / n_rows)

    child = np.flatnonzero(internal & (forest.parent >= 0))
    tree_rows = np.vstack([x_of[child], x_of[forest.parent[child]]])

    # items: (row, key) with key a feature group (its base price) or a discount group
    n_groups = pricing.cost.size
    discounted = pricing.discounted
    key_price = np.concatenate([pricing.base if discounted else pricing.cost, pricing.shared])
    key_of_node = forest.group.copy()
    row, key, node = _first_reads(forest, paths, key_of_node, key_price.size)
    if discounted:
        d = np.where(forest.group >= 0, pricing.discount_group[np.maximum(forest.group, 0)], -1)
        key_of_node = np.where(d >= 0, n_groups + d, -1)
        more = _first_reads(forest, paths, key_of_node, key_price.size)
        row, key, node = (np.concatenate(pair) for pair in zip((row, key, node), more, strict=True))
    price = key_price[key] / n_rows
    x = x_of[node]
    order = np.lexsort((x, key, row))
    row, key, x, price = row[order], key[order], x[order], price[order]
    new = np.ones(row.size, dtype=bool)
    new[1:] = (row[1:] != row[:-1]) | (key[1:] != key[:-1])
    item = np.cumsum(new) - 1
    starts = np.flatnonzero(new)
    size = np.diff(np.append(starts, row.size))
    item_price = price[starts]

    node_price = np.zeros(nodes.size)
    single = size == 1
    np.add.at(node_price, x[starts[single]], item_price[single])

    multi = np.flatnonzero(~single)  # items on two or more nodes: merge equal node sets
    if multi.size:
        index = np.full(starts.size, -1)
        index[multi] = np.arange(multi.size)
        entry = np.flatnonzero(~single[item])
        table = np.zeros((multi.size, int(size.max())), dtype=np.int64)  # node + 1; 0 pads
        table[index[item[entry]], entry - starts[item[entry]]] = x[entry] + 1
        label = np.zeros(multi.size, dtype=np.int64)
        for column in table.T:  # rank the (label so far, next node) pairs: no overflow
            label = np.unique(label * (nodes.size + 1) + column, return_inverse=True)[1]
        n_sets = int(label.max()) + 1
        set_price = np.bincount(label, weights=item_price[multi], minlength=n_sets)
        _, first = np.unique(label, return_index=True)
        members = table[first]
        w, k = np.nonzero(members)
        set_rows = np.vstack([members[w, k] - 1, w])
    else:
        set_price = np.zeros(0)
        set_rows = np.zeros((2, 0), dtype=np.intp)
    return PruningProblem(
        nodes=nodes,
        base_error=base_error,
        error_gain=error_gain,
        node_price=node_price,
        set_price=set_price,
        tree_rows=tree_rows.astype(np.intp),
        set_rows=set_rows.astype(np.intp),
    )


def solve_pruning(problem: PruningProblem, tradeoff: float) -> tuple[np.ndarray, float]:
    """Solve the LP relaxation at ``lambda = tradeoff``: ``(split, objective)``, ``split`` a
    bool per ``x`` variable (internal node) and ``objective`` the program's optimum.

    HiGHS returns a vertex, which total unimodularity makes integral.

    Raises
    ------
    RuntimeError
        If HiGHS fails, or its solution is further than :data:`INTEGRALITY_TOL` from
        integers (the constraint matrix would not be totally unimodular: a bug).
    """
    n_x, n_w = problem.nodes.size, problem.set_price.size
    if n_x == 0:
        return np.zeros(0, dtype=bool), problem.base_error
    c = problem.error_gain + tradeoff * problem.node_price
    if tradeoff > 0 and n_w:
        c = np.concatenate([c, tradeoff * problem.set_price])
        n_var = n_x + n_w
        pairs = np.hstack([problem.tree_rows, problem.set_rows + np.array([[0], [n_x]])])
    else:  # without costs the sets' w are free: only the trees' constraints remain
        n_var = n_x
        pairs = problem.tree_rows
    n_rows = pairs.shape[1]
    A = None
    if n_rows:
        A = sp.csr_matrix(
            (
                np.repeat([[1.0, -1.0]], n_rows, axis=0).ravel(),
                (np.repeat(np.arange(n_rows), 2), pairs.T.ravel()),
            ),
            shape=(n_rows, n_var),
        )
    result = linprog(
        c,
        A_ub=A,
        b_ub=None if A is None else np.zeros(n_rows),
        bounds=(0.0, 1.0),
        method="highs",
    )
    if result.status != 0:
        raise RuntimeError(f"BudgetPrune: the pruning LP failed ({result.message})")
    solution = result.x
    gap = float(np.max(np.abs(solution - np.round(solution)))) if solution.size else 0.0
    if gap > INTEGRALITY_TOL:
        raise RuntimeError(
            f"BudgetPrune: the pruning LP's solution is {gap:.2g} from integral; the "
            "constraint matrix should be totally unimodular"
        )
    split = np.round(solution[:n_x]) > 0.5
    objective = problem.base_error + float(c[:n_x] @ split)
    if n_var > n_x:
        objective += float(c[n_x:] @ np.round(solution[n_x:]))
    return split, objective


@dataclass(frozen=True, eq=False)
class PrunedForest:
    """A forest pruned at one ``lambda``.

    Attributes
    ----------
    forest : Forest
    split : ndarray of bool, shape (n_nodes,)
        Whether each node splits in the pruned forest (False at the grown leaves).
    tradeoff : float
        Its ``lambda``.
    objective : float
        The pruning program's optimum (on the rows the forest was pruned on).
    """

    forest: Forest
    split: np.ndarray
    tradeoff: float
    objective: float

    @property
    def n_nodes(self) -> int:
        """Nodes of the pruned forest: each tree's root and the children of its splits."""
        return int(self.forest.roots.size + 2 * self.split.sum())


def prune(
    forest: Forest, problem: PruningProblem, tradeoffs: Sequence[float]
) -> list[PrunedForest]:
    """``forest`` pruned at each ``lambda`` (one LP each)."""
    out = []
    for tradeoff in tradeoffs:
        chosen, objective = solve_pruning(problem, float(tradeoff))
        split = np.zeros(forest.n_nodes, dtype=bool)
        split[problem.nodes[chosen]] = True
        out.append(PrunedForest(forest, split, float(tradeoff), objective))
    return out


# ---------------------------------------------------------------------------- serving
@dataclass(frozen=True, eq=False)
class Walk:
    """What each walked row (an example with its budget) did.

    Attributes
    ----------
    stop : ndarray of int, shape (n_trees, n_rows)
        The node each row ends at in each tree: a leaf of the pruned tree, or the node where
        its budget ran out.
    paid : ndarray of bool, shape (n_rows, n_groups)
        The feature groups each row paid for (columns: ``groups``).
    groups : ndarray of int, shape (n_groups,)
        The feature groups split on in the pruned forest.
    spent : ndarray of shape (n_rows,)
        What each row paid, summed in the order it paid.
    """

    stop: np.ndarray
    paid: np.ndarray
    groups: np.ndarray
    spent: np.ndarray


def walk_rows(
    model: PrunedForest,
    paths: Sequence[np.ndarray],
    example: np.ndarray,
    limit: np.ndarray,
    pricing: Pricing,
) -> Walk:
    """Each row (``example[r]`` with budget ``limit[r]``) walks the pruned trees in order,
    paying as it goes.

    At a node that splits in the pruned forest on a feature group the row has not paid for,
    it pays the group's marginal price (:class:`Pricing`: with discount groups, the shared
    part only at its discount group's first touch) if its spending so far plus that price
    is at most its budget; if not, it stops in that tree at that node (the node is its leaf
    there) and goes on to the next tree. A group it has paid for is read free. So no row
    ever pays more than its budget. Vectorised over rows; loops over trees and depth.

    Parameters
    ----------
    model : PrunedForest
    paths : list of ndarray
        :meth:`Forest.paths` of the examples in the grown forest.
    example : ndarray of int, shape (n_rows,)
        The example (row of ``paths``) of each walked row.
    limit : ndarray of shape (n_rows,)
        Its budget (``inf``: none).
    pricing : Pricing
        The fit's prices.
    """
    forest = model.forest
    groups = np.unique(forest.group[model.split])
    column = np.full(max(int(forest.group.max()) + 1, 1), -1, dtype=np.intp)
    column[groups] = np.arange(groups.size)
    if pricing.discounted:
        base = pricing.base[groups]
        label = pricing.discount_group[groups]
        used = np.unique(label[label >= 0])
        dgroup = np.full(groups.size, -1, dtype=np.intp)
        dgroup[label >= 0] = np.searchsorted(used, label[label >= 0])
        shared = pricing.shared[used]
    else:
        base, shared = pricing.cost[groups], np.zeros(0)
    n_rows = example.size
    paid = np.zeros((n_rows, groups.size), dtype=bool)
    touched = np.zeros((n_rows, shared.size), dtype=bool)
    spent = np.zeros(n_rows)
    stop = np.empty((len(paths), n_rows), dtype=np.intp)
    for t, path in enumerate(paths):
        rows, at = np.arange(n_rows), example
        for depth in range(path.shape[1]):
            node = path[at, depth]
            going = model.split[node]
            stop[t, rows[~going]] = node[~going]
            rows, at, node = rows[going], at[going], node[going]
            if not rows.size:
                break
            g = column[forest.group[node]]
            have = paid[rows, g]
            price = base[g]
            if shared.size:
                dg = dgroup[g]
                fresh = (dg >= 0) & ~touched[rows, np.maximum(dg, 0)]
                price = price + np.where(fresh, shared[np.maximum(dg, 0)], 0.0)
            total = spent[rows] + np.where(have, 0.0, price)
            ok = have | (total <= limit[rows])
            stop[t, rows[~ok]] = node[~ok]
            rows, at, g, have, total = rows[ok], at[ok], g[ok], have[ok], total[ok]
            buy = ~have
            paid[rows[buy], g[buy]] = True
            spent[rows[buy]] = total[buy]
            if shared.size:
                dg = dgroup[g[buy]]
                touched[rows[buy][dg >= 0], dg[dg >= 0]] = True
    return Walk(stop=stop, paid=paid, groups=groups, spent=spent)


def budgeted_walk(
    model: PrunedForest, paths: Sequence[np.ndarray], budgets: np.ndarray, pricing: Pricing
) -> Walk:
    """:func:`walk_rows` of every example at every budget, rows budget-major
    (``b * n_samples + i``)."""
    budgets = np.asarray(budgets, dtype=np.float64)
    n = paths[0].shape[0]
    example = np.tile(np.arange(n), budgets.size)
    return walk_rows(model, paths, example, np.repeat(budgets, n), pricing)


def forest_scores(model: PrunedForest, stop: np.ndarray, majority: float) -> np.ndarray:
    """The forest's score of each row from the node it reached in each tree: the mean of
    ``2 p - 1`` (``p``: the tree's class probability at the node) over the trees in which it
    passed a split; a tree it could not enter (its root does not split, or the root's price
    did not fit) abstains: its root holds nothing of the example but its bootstrap prior,
    which would outvote the trees that read it. With no tree read, the empty model's score
    (the training majority)."""
    forest = model.forest
    entered = stop != forest.roots[:, None]
    n_entered = entered.sum(axis=0)
    total = np.where(entered, forest.score[stop], 0.0).sum(axis=0)
    score = total / np.maximum(n_entered, 1)
    return np.where((n_entered > 0) & (score != 0), score, majority * EMPTY_SCORE)


@dataclass(frozen=True, eq=False)
class Served:
    """A pruned forest at each budget: arrays of shape (n_budgets, n_samples).

    Attributes
    ----------
    score : ndarray
        The forest's score (:func:`forest_scores`); ``> 0`` predicts ``classes_[1]``.
    spent : ndarray
        What each example paid.
    n_groups : ndarray
        The feature groups it paid for.
    trees : ndarray
        The trees it entered.
    """

    score: np.ndarray
    spent: np.ndarray
    n_groups: np.ndarray
    trees: np.ndarray


def serve(
    model: PrunedForest,
    paths: Sequence[np.ndarray],
    budgets: np.ndarray,
    pricing: Pricing,
    majority: float,
) -> Served:
    """Every example at every budget (:func:`walk_rows`, :func:`forest_scores`).

    Each example is walked once without a budget; at a budget it can afford that walk's
    cost, its walk is that one (every price fits), so only the other (budget, example)
    pairs are walked again, in chunks of at most :data:`_WALK_CELLS` cells of the
    paid-groups table.
    """
    budgets = np.asarray(budgets, dtype=np.float64)
    n = paths[0].shape[0]
    free = walk_rows(model, paths, np.arange(n), np.full(n, np.inf), pricing)
    row = {
        "score": forest_scores(model, free.stop, majority),
        "spent": free.spent,
        "n_groups": free.paid.sum(axis=1).astype(np.float64),
        "trees": (free.stop != model.forest.roots[:, None]).sum(axis=0).astype(np.float64),
    }
    out = {k: np.tile(v, (budgets.size, 1)) for k, v in row.items()}
    b, i = np.nonzero(free.spent[None, :] > budgets[:, None])
    per_chunk = max(1, _WALK_CELLS // max(free.groups.size, 1))
    for start in range(0, b.size, per_chunk):
        bb, ii = b[start : start + per_chunk], i[start : start + per_chunk]
        walk = walk_rows(model, paths, ii, budgets[bb], pricing)
        out["score"][bb, ii] = forest_scores(model, walk.stop, majority)
        out["spent"][bb, ii] = walk.spent
        out["n_groups"][bb, ii] = walk.paid.sum(axis=1)
        out["trees"][bb, ii] = (walk.stop != model.forest.roots[:, None]).sum(axis=0)
    return Served(**out)


# ---------------------------------------------------------------------------- estimator
class BudgetPrune(TunedEstimator):
    """A random forest pruned for prediction on a budget (BudgetPrune, Nan et al. 2016).

    **Growing.** A random forest of ``n_estimators`` trees (scikit-learn's
    ``RandomForestClassifier``: bootstrap samples, ``max_features`` columns drawn at each
    split, gini, grown to ``max_depth`` / ``min_samples_leaf``; :func:`grow_forest`). By
    default it is grown cost-blind on every column, so at a small budget the pruning can only
    cut short a forest whose splits are on columns the budget cannot pay for (at budget 2
    under U[0, 2] the validation part chose ``lambda = 0``, no pruning for cost, in 58 of 80
    trials of 16 suite datasets).

    **A cost-aware starting forest** (``max_column_cost``). The paper's program prunes the
    forest it is given, and its abstract says the method "benefits from good RF
    initialization". The initial forests of the authors' experiments are reported to be
    grown for the budget: with the minimax cost-weighted impurity of their BudgetRF (Nan,
    Wang & Saligrama, ICML 2015) or, for small budgets, on cheap features. Neither their
    full text nor their code was at hand here to check the details (the abstract only), so
    the second way is followed, the one a scikit-learn forest can take unchanged, with its
    threshold chosen per budget on validation. For each ``tau`` of a grid a forest is grown
    on the columns whose feature group's full price (alone; with Turney's discount groups,
    its test with the group's shared part) is at most ``tau`` (scikit-learn never sees the
    other columns, so no tree splits on them and no example reads them) and pruned at every
    ``lambda``: a configuration is a (``tau``, ``lambda``), and the program and the walk
    keep charging the contract's prices. ``"auto"``: ``tau`` at the least prices at or
    below which an eighth, a quarter and a half of the feature groups lie
    (:data:`DEFAULT_COLUMN_SHARES`, the columns doubling from step to step), and ``inf``
    (every column: the default's forest); a ``tau`` that admits the same groups as a larger
    one is dropped (under equal prices one forest remains). Every ``tau`` grows its forest
    from the same seeds, so the forest of ``tau = inf`` is the default's.

    **Pruning** (the paper's Section 3; :func:`pruning_problem`, :func:`solve_pruning`).
    Variables ``x_h`` say whether internal node ``h`` splits (``x_child <= x_parent``; a node
    is kept when its parent splits, a root always, and is a leaf when kept and not split);
    ``w_{k,i} >= x_h`` for the first node ``h`` on row ``i``'s path in each tree that splits
    on feature group ``k`` says row ``i`` pays for ``k``. The program

        minimise (1/N) sum_t sum_h e_h [h is a leaf of tree t]
                 + lambda (1/N) sum_i sum_k c_k w_{k,i}

    trades the summed errors of the pruned trees (``e_h``: the rows reaching ``h`` that its
    majority class misclassifies, counted over every row the forest is pruned on, in and out
    of each tree's bootstrap sample) against the mean price an example pays, each group once
    however many trees read it: a split on a group the example already pays for elsewhere
    costs nothing more. Every constraint is the difference of two variables, so the matrix
    is totally unimodular and the LP relaxation (HiGHS) has integral vertices; each solution
    is checked to be integral. With Turney's discount groups an example also pays each
    touched discount group's shared part once (``v_{d,i} >= w_{k,i}`` for ``k`` in ``d``,
    still differences), so the program charges the contract's prices.

    **Serving under a hard per-example budget** (the benchmark's contract; the paper's
    program bounds only the mean cost). At budget ``B`` each example walks the pruned trees
    in order; at a split on a group it has not paid for it pays the group's marginal price
    (:class:`~budgetboost.estimators.contract.pricing.Pricing`) if that fits what remains of
    ``B``, otherwise it stops in that tree at that node and takes the node's prediction (as
    if it were a leaf), then goes on to the next tree (:func:`walk_rows`). The forest's
    score is the mean of the trees' class probabilities (``2 p - 1``) at the nodes reached,
    scikit-learn's soft vote, over the trees the example entered: a tree whose root it could
    not pay for (or whose root the pruning made a leaf) abstains, since its root's bootstrap
    prior, counted, outvotes the few trees a small budget can read (:func:`forest_scores`).
    An example that enters no tree gets the empty model, the training majority. (Over the
    38 datasets of ``config/suite.yaml``, 3 trials each, the mean test error over the
    U[0, 2] budgets was 0.160 with this vote, 0.167 with a majority vote of the trees'
    classes, and 0.164 counting the abstaining trees' priors.)

    **Choosing lambda** (and ``tau``; the protocol of every tuned estimator,
    :mod:`~budgetboost.estimators.contract.tuning`): a forest is grown on a fit part of the
    training rows (one per ``tau``) and pruned at each ``lambda`` of the grid; at every
    budget, the configuration whose pruned forest, served at that budget, errs least on the
    validation part is chosen (ties: the smaller ``tau``, then the smaller ``lambda``;
    :func:`~.tuning.choose_by_budget`). A forest's validation error is a step function of
    the budget, changing wherever some example's walk changes; it is computed at
    :data:`CHOICE_GRID` + 1 budgets evenly spaced from 0 to the most any validation example
    spends unbudgeted under any configuration (capped at ``budget``), and a budget between
    two of them takes the choice made at the lower one. Then, for each chosen ``tau``, one
    forest is grown on all training rows under it and pruned at each ``lambda`` chosen with
    it; they serve.

    Parameters
    ----------
    n_estimators : int, default=10
        Trees of the forest. Over the 38 datasets (3 trials each) 5, 10 and 20 trees
        erred alike on average over the budgets (0.160-0.161); 5 did better at small
        budgets (4-10), 10 and 20 at large ones (30-40), and 10 takes half the time of 20.
        40 trees (with ``"sqrt"`` columns) erred no less than 20 (0.177 against 0.176)
        and took up to 48 s.
    max_features : {"sqrt", "log2"}, int, float in (0, 1] or None, default=0.5
        Columns drawn at each split, in scikit-learn's meaning (a float is a share of the
        columns; None: all). Half the columns, rather than the classic square root, lets
        the trees split on the same informative columns, which an example then pays for
        once: over the 38 datasets (20 trees) it erred least (0.161 mean test error,
        against 0.176 for ``"sqrt"``, 0.165 for 0.3 and 0.162 for all columns).
    max_depth : int or None, default=8
        Depth of the grown trees (None: until ``min_samples_leaf``); with ``n_estimators``
        it bounds the size of the program and the length of the walk (12 erred alike).
    min_samples_leaf : int, default=3
        scikit-learn's least number of training rows in a leaf.
    tradeoffs : float, array-like of float or None, default=None
        The ``lambda`` grid (numbers >= 0; sorted, duplicates dropped); one number is a
        fixed trade-off. ``None``: :data:`DEFAULT_TRADEOFFS` ``(0, 1/64, 1/16, 1/4)`` times
        ``1 / c``, ``c`` the mean positive price of a feature group: at ``lambda = m / c``
        a split on a group of price ``c`` must remove ``m`` errors of its tree per example
        that reaches it and pays for the group nowhere else, so the grid runs from pruning
        for the error alone (0) to keeping only splits that are nearly free or remove an
        error for every fourth example they charge. Finer or wider grids (5 to 7 values)
        did no better: more candidates, more noise in a choice on small validation parts.
    max_column_cost : None, "auto", float or array-like of float, default=None
        The ``tau`` grid of the starting forests (numbers >= 0, ``inf`` allowed: every
        column; :func:`column_cost_grid`). None: one forest on every column (the method as
        it was, byte for byte). ``"auto"``: the cheapest eighth, quarter and half of the
        feature groups, and all of them. A ``tau`` below every price is refused.
    budget : float or None, default=None
        Caps every budget served (above it, the choice at ``budget``) and the validation
        grid's range. None: unlimited.
    validation_fraction : float in [0, 1), default=0.25
        Share of each class of the training rows held out to choose ``lambda`` (and
        ``tau``); 0 needs a single ``lambda`` and a single ``tau`` (the forest is then grown
        and pruned on all rows).
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seeds the validation split and, through two ints drawn from the same generator,
        scikit-learn's forests (fit part, all rows; every ``tau`` takes the same two).
    feature_costs, feature_groups, discount_groups, discount_costs : array-like, default=None
        The contract's prices (:class:`~budgetboost.BudgetedEstimator`).

    Attributes
    ----------
    tradeoffs_, max_column_costs_ : ndarray of shape (n_configs,)
        The ``lambda`` and the ``tau`` of each configuration, ``tau``-major (every
        ``lambda`` of the smallest ``tau`` first; by default one ``tau``, ``inf``, and
        ``tradeoffs_`` the ``lambda`` grid, increasing).
    column_cost_grid_ : ndarray
        The ``tau`` grid, increasing (:func:`column_cost_grid`).
    forest_ : Forest
        The forest grown on all training rows that serves the largest budgets (by default
        the only one).
    models_ : list of PrunedForest
        The fit part's forest of each configuration's ``tau`` pruned at its ``lambda``.
    refits_ : dict of int to PrunedForest
        Each chosen configuration (by index): the forest of its ``tau`` grown on all
        training rows, pruned at its ``lambda``; the configurations of one ``tau`` share
        one forest.
    validation_budgets_ : ndarray
        The budgets at which the validation errors were compared.
    validation_error_ : list of ndarray
        Per configuration: its pruned forest's validation error at each of those budgets.
    choice_ : Choice
        The configuration of every budget (:meth:`chosen_tradeoffs`,
        :meth:`chosen_max_column_costs`).
    fit_rows_, validation_rows_ : ndarray of int
        Rows of the training ``X`` in the fit and validation parts.
    pricing_ : Pricing
        The fit's prices.

    Notes
    -----
    :meth:`evaluate_at_budgets` reports, per budget: ``mean_example_cost`` and
    ``max_example_cost``, what the examples paid on their walks (each for the groups it
    read, at the contract's prices); ``spent`` = ``max_example_cost`` (every example has a
    model cost of its own; the largest is within the budget); ``rounds``, the mean number of
    trees an example entered (passed the root's split of); ``n_features``, the mean number
    of feature groups an example paid for; ``nodes``, the nodes of the pruned forest (all
    trees, at the budget's ``lambda``).

    Time: one LP per ``lambda`` and per chosen ``lambda`` (rows x trees x depth bound its
    size; rows that would pay on the same nodes are merged) and walks vectorised over
    examples. On the 38 datasets (75-1,000 training rows, up to 5,000 test rows, 27 to
    11,196 columns), a trial (fit, then the 20 budgets on the test and the training rows)
    took 0.6 CPU seconds at the median and at most 1.7, on a busy machine. With
    ``max_column_cost="auto"`` (four forests a fit instead of one, 16 configurations) a
    trial took 2.3 times as long at the median over 12 of the datasets (1.04 CPU seconds against
    0.46; at most 2.15, ionosphere).

    References
    ----------
    F. Nan, J. Wang, V. Saligrama. Pruning Random Forests for Prediction on a Budget. NIPS
    2016 (Section 3: the 0-1 program, its LP relaxation and total unimodularity).
    F. Nan, J. Wang, V. Saligrama. Feature-Budgeted Random Forest. ICML 2015 (BudgetRF:
    trees grown for a budget).
    L. Breiman. Random Forests. Machine Learning 45, 2001.
    """

    libraries = ("scikit-learn", "scipy")

    _parameter_constraints = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_features": [
            Options(("sqrt", "log2")),
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0, 1, closed="right"),
            None,
        ],
        "max_depth": [Interval(Integral, 1, None, closed="left"), None],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "tradeoffs": TRADEOFF,
        "max_column_cost": [
            Options(("auto",)),
            Interval(Real, 0, None, closed="left"),
            ColumnCostGrid(),
            None,
        ],
        "budget": BUDGET,
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        "feature_costs": FEATURE_COSTS,
        "feature_groups": FEATURE_GROUPS,
        "discount_groups": DISCOUNT_GROUPS,
        "discount_costs": DISCOUNT_COSTS,
    }

    def __init__(
        self,
        n_estimators: int = 10,
        max_features: Any = 0.5,
        max_depth: int | None = 8,
        min_samples_leaf: int = 3,
        tradeoffs=None,
        max_column_cost=None,
        budget: float | None = None,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.tradeoffs = tradeoffs
        self.max_column_cost = max_column_cost
        self.budget = budget
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does; besides each one's
        constraints, ``validation_fraction=0`` needs a single ``tradeoffs`` value and a
        single ``max_column_cost`` (``"auto"`` counts as several).

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        caps = params.get("max_column_cost")
        n_caps = (
            len(DEFAULT_COLUMN_SHARES) + 1 if isinstance(caps, str) else grid_size(caps, [np.inf])
        )
        counts = {
            "tradeoffs": grid_size(params.get("tradeoffs"), DEFAULT_TRADEOFFS),
            "max_column_cost": n_caps,
        }
        check_validation_part(params, counts)

    # ------------------------------------------------------------------ helpers
    def _grow(self, data: TrainingData, rows: np.ndarray, seed: int, tau: float) -> Forest:
        """The forest of the parameters on the training ``rows``, on the columns whose
        feature group costs at most ``tau`` (:func:`columns_within`)."""
        return grow_forest(
            data.X[rows],
            data.y[rows],
            data.group_of_column,
            self.majority_,
            n_estimators=int(self.n_estimators),
            max_features=self.max_features,
            max_depth=self.max_depth,
            min_samples_leaf=int(self.min_samples_leaf),
            seed=seed,
            columns=columns_within(tau, data.group_of_column, data.group_cost),
        )

    def _grid(self, data: TrainingData) -> np.ndarray:
        """The ``lambda`` grid: ``tradeoffs``, or the default one in units of ``1 / c``."""
        if self.tradeoffs is not None:
            return np.unique(np.atleast_1d(np.asarray(self.tradeoffs, dtype=np.float64)))
        positive = data.group_cost[data.group_cost > 0]
        unit = 1.0 / float(positive.mean()) if positive.size else 1.0
        return np.unique(np.asarray(DEFAULT_TRADEOFFS) * unit)

    def _pruned(
        self,
        data: TrainingData,
        rows: np.ndarray,
        seed: int,
        tradeoffs: Sequence[float],
        tau: float,
    ) -> list[PrunedForest]:
        """A forest grown on ``rows`` under ``tau`` and pruned on them at each ``lambda``
        (the program charges the contract's prices)."""
        forest = self._grow(data, rows, seed, tau)
        paths = forest.paths(data.X[rows])
        problem = pruning_problem(forest, paths, data.y[rows], data.pricing)
        return prune(forest, problem, tradeoffs)

    # ------------------------------------------------------------------ the protocol's steps
    def _fit(self, data: TrainingData) -> None:
        """The protocol (:meth:`TunedEstimator._fit`); the refits of one ``tau`` share one
        forest."""
        self.pricing_ = data.pricing
        super()._fit(data)
        self.forest_ = self.refits_[int(self.choice_.config[-1])].forest

    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[PrunedForest]]:
        """The fit part's forest of each ``tau`` pruned at each ``lambda`` of the grid
        (``tau``-major); the seed of the all-rows forests is drawn here too. Every forest
        takes the same two seeds, so the forest of ``tau = inf`` is the one grown without
        ``max_column_cost``."""
        seeds = rng.integers(0, 2**31 - 1, size=2)
        self._refit_seed = int(seeds[1])
        grid = self._grid(data)
        self.column_cost_grid_ = column_cost_grid(self.max_column_cost, data.group_cost)
        if not self.column_cost_grid_.size:
            raise ValueError(
                f"max_column_cost: {self.max_column_cost!r} is below the price of every "
                "feature group: no forest can be grown"
            )
        self.max_column_costs_ = np.repeat(self.column_cost_grid_, grid.size)
        models = [
            model
            for tau in self.column_cost_grid_
            for model in self._pruned(data, fit_rows, int(seeds[0]), grid, float(tau))
        ]
        return np.tile(grid, self.column_cost_grid_.size), models

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """The (``tau``, ``lambda``) of fewest validation errors at every budget of a grid
        (see the class docstring): each pruned forest served at each budget
        (:func:`serve`)."""
        paths = _paths_by_forest(self.models_, data.X[rows])
        every = np.arange(rows.size)
        unlimited = np.full(rows.size, np.inf)
        top = max(
            float(walk_rows(m, p, every, unlimited, data.pricing).spent.max(initial=0.0))
            for m, p in zip(self.models_, paths, strict=True)
        )
        budgets = np.unique(np.linspace(0.0, min(top, self._fitted_budget()), CHOICE_GRID + 1))
        errors = (
            np.vstack(
                [
                    (serve(m, p, budgets, data.pricing, self.majority_).score > 0)
                    != (data.y[rows] > 0)
                    for m, p in zip(self.models_, paths, strict=True)
                ]
            )
            .reshape(len(self.models_), budgets.size, rows.size)
            .mean(axis=2)
        )
        self.validation_budgets_ = budgets
        self.validation_error_ = list(errors)
        return choose_by_budget(budgets, errors)

    def _refit(
        self, data: TrainingData, chosen: Sequence[int], sizes: Sequence[int]
    ) -> list[PrunedForest]:
        """For each chosen ``tau``, one forest grown on all training rows under it, pruned
        at each ``lambda`` chosen with it."""
        rows = np.arange(data.y.size)
        chosen = list(chosen)
        refits: dict[int, PrunedForest] = {}
        for tau in np.unique(self.max_column_costs_[chosen]):
            picked = [i for i in chosen if self.max_column_costs_[i] == tau]
            pruned = self._pruned(data, rows, self._refit_seed, self.tradeoffs_[picked], float(tau))
            refits.update(zip(picked, pruned, strict=True))
        return [refits[i] for i in chosen]

    def chosen_max_column_costs(self, budgets: Any) -> np.ndarray:
        """The ``tau`` (``max_column_cost``) of the forest used at each budget, as
        :meth:`chosen_tradeoffs` gives its ``lambda``.

        Parameters
        ----------
        budgets : float or array-like of float
            Numbers >= 0 in any order; ``inf`` is the fitted model.

        Returns
        -------
        ndarray of shape (len(budgets),), float64
            Values of ``column_cost_grid_`` (``inf``: the forest on every column), chosen
            on the validation part.
        """
        self._check_fitted()
        config, _ = self.choice_.at(self._capped(check_budgets(budgets)))
        return np.where(config >= 0, self.max_column_costs_[np.maximum(config, 0)], np.nan)

    # ------------------------------------------------------------------ serving
    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """At each budget (capped at ``budget``) the forest of the budget's ``tau`` pruned at
        its ``lambda`` and served within it (:func:`serve`); costs as in the class Notes. The
        examples' paths in each forest are computed once, for every ``lambda`` chosen with
        it (:meth:`_serve` keeps them here)."""
        self._serving_paths: dict[int, list[np.ndarray]] = {}
        try:
            return super()._scores_and_costs(X, budgets)
        finally:
            del self._serving_paths

    def _serve(
        self, index: int, model: PrunedForest, X: np.ndarray, budgets: np.ndarray, sizes
    ) -> tuple[np.ndarray, BudgetCosts]:
        """One pruned forest at the budgets it was chosen at (the protocol's step 3)."""
        key = id(model.forest)
        if key not in self._serving_paths:
            self._serving_paths[key] = model.forest.paths(X)
        paths = self._serving_paths[key]
        served = serve(model, paths, budgets, self.pricing_, self.majority_)
        worst = served.spent.max(axis=1)
        return served.score, BudgetCosts(
            rounds=served.trees.mean(axis=1),
            spent=worst,
            n_features=served.n_groups.mean(axis=1),
            mean_example_cost=served.spent.mean(axis=1),
            max_example_cost=worst,
            nodes=np.full(budgets.size, float(model.n_nodes)),
        )

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray | None:
        """The groups each example pays for on its walk through the forest served at each
        budget (:func:`walk_rows`: a row reads only the groups it pays for)."""
        self._serving_paths = {}
        try:
            return super()._groups_read(X, budgets)
        finally:
            del self._serving_paths

    def _serve_reads(
        self, index: int, model: PrunedForest, X: np.ndarray, budgets: np.ndarray, sizes
    ) -> np.ndarray:
        key = id(model.forest)
        if key not in self._serving_paths:
            self._serving_paths[key] = model.forest.paths(X)
        walk = budgeted_walk(model, self._serving_paths[key], budgets, self.pricing_)
        n = X.shape[0]
        reads = np.zeros((budgets.size * n, self._n_groups()), dtype=bool)
        reads[:, walk.groups] = walk.paid
        return reads.reshape(budgets.size, n, -1)


def _distinct_forests(models: Any) -> list[Forest]:
    """The forests of some pruned forests, each once, in order."""
    seen: dict[int, Forest] = {}
    for model in models:
        seen.setdefault(id(model.forest), model.forest)
    return list(seen.values())


def _paths_by_forest(models: Sequence[PrunedForest], X: np.ndarray) -> list[list[np.ndarray]]:
    """:meth:`Forest.paths` of ``X`` for each model, computed once per forest."""
    paths = {id(f): f.paths(X) for f in _distinct_forests(models)}
    return [paths[id(m.forest)] for m in models]
