"""Serving a pruned forest under a hard per-example budget: each example walks the trees
in order and stops where the next split's group costs more than it has left.

Part of :mod:`budgetboost.estimators.pruning` (BudgetPrune, Nan, Wang & Saligrama 2016).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..contract.pricing import Pricing
from ..contract.tuning import (
    EMPTY_SCORE,
)
from .program import PrunedForest

__all__ = ["Served", "Walk", "budgeted_walk", "forest_scores", "serve", "walk_rows"]

#: Cells of the examples-by-groups table of one walk, above which budgets are walked in
#: chunks (memory, not results: a chunk walks its budgets exactly as one walk would).
_WALK_CELLS = 4_000_000


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
    pairs are walked again, in chunks of at most ``_WALK_CELLS`` cells of the
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
