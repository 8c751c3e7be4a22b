"""BudgetPrune's pruning program: the forest's nodes and each example's first reads as
the 0-1 program, solved as an LP (its optima are integral) and checked integral.

Part of :mod:`budgetboost.estimators.pruning` (BudgetPrune, Nan, Wang & Saligrama 2016).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..contract.pricing import Pricing
from .forest import Forest

__all__ = [
    "INTEGRALITY_TOL",
    "PrunedForest",
    "PruningProblem",
    "prune",
    "pruning_problem",
    "solve_pruning",
]

#: Largest distance of an LP solution from the nearest integers before it is refused.
INTEGRALITY_TOL = 1e-6


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
    # here: the workflow imports the estimators when it checks the config, and scipy's
    # optimizer takes half a second to import
    import scipy.sparse as sp
    from scipy.optimize import linprog

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
