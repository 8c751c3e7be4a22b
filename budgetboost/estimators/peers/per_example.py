"""Per-example serving of a boosted model, and the choice on validation that serves the same way.

A test example reads only the splits on its own decision paths. Charged *per example* (as the
field's methods are: BudgetPrune, STreeD, AACO), a model of ``K`` trees serves an example at
budget ``B`` with the longest prefix of its trees whose feature groups *on the example's own
paths* cost at most ``B`` at the contract's prices (:class:`~..contract.pricing.Pricing`,
Turney's discount groups included), and no more than a *cap* of trees chosen on validation;
the example's score is that prefix's score. Charged *per model* (the peers' default), every
example of a budget gets the same prefix, whose every split's group is paid.

An example learns that its next tree does not fit only by walking that tree: it reads the
groups on the tree's path it can still afford, and stops at the first node whose group would
take it above ``B`` (:func:`walk_charges`). Those reads are paid too, so what an example is
charged is the price of its prefix's groups plus the groups read on the walk that stopped it,
never above ``B``; its prediction (the prefix's score) depends on nothing else it read.

The choice on validation serves exactly so (:func:`errors_by_cap`): at each budget of a grid
(:func:`choice_budgets`), every candidate (a configuration with a cap on its trees) is scored
by the validation examples' errors under per-example serving, and :func:`choose_per_example`
keeps the best (ties: lower log loss, fewer trees, earlier configuration).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol

import numpy as np

from ..contract.base import BudgetCosts
from ..contract.pricing import Pricing
from ..contract.tuning import EMPTY_SCORE, Choice

__all__ = [
    "CHOICE_GRID",
    "Prefixes",
    "TreeModel",
    "choice_budgets",
    "choose_per_example",
    "count_at_most",
    "errors_by_cap",
    "prefix_costs",
    "prefix_group_counts",
    "prefixes",
    "serve",
    "serve_reads",
    "validation_choice",
    "walk_charges",
]

#: The most budgets at which the validation errors are compared: 0 and every price a
#: validation example pays through some prefix, thinned to this many by rank where there
#: are more (:func:`choice_budgets`).
CHOICE_GRID = 256


def _first_at_least(values: np.ndarray, entries: np.ndarray) -> np.ndarray:
    """For each entry, the position among the sorted ``values`` of the first value at least
    as large (``values.size`` where none is): entry ``<= values[b]`` exactly when it is
    ``<= b``."""
    return np.searchsorted(values, entries, side="left")


def count_at_most(rows: np.ndarray, values: np.ndarray) -> np.ndarray:
    """How many entries of each row are at most each value: (n_rows, n_values).

    Each entry is replaced by the position of the first value at least as large (one
    ``searchsorted`` over the sorted values), and each row's positions are counted and
    summed up (a histogram per row): no loop, no rounding.
    """
    rows = np.asarray(rows, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    n_rows = rows.shape[0]
    order = np.argsort(values, kind="stable")
    width = values.size + 1
    position = _first_at_least(values[order], rows)
    cell = (np.arange(n_rows, dtype=np.int64)[:, None] * width + position).ravel()
    counts = np.cumsum(np.bincount(cell, minlength=n_rows * width).reshape(n_rows, width), axis=1)
    out = np.empty((n_rows, values.size), dtype=np.intp)
    out[:, order] = counts[:, : values.size]
    return out


def prefix_costs(first: np.ndarray, n_trees: int, used: np.ndarray, pricing: Pricing) -> np.ndarray:
    """What each example pays for the groups on its paths through each prefix: (n, n_trees + 1).

    Parameters
    ----------
    first : ndarray of int, shape (n, n_used)
        The first tree (0-based) on whose path each example reads each group of ``used``;
        ``n_trees`` where it reads it in none.
    n_trees : int
    used : ndarray of int, shape (n_used,)
        The feature groups the trees split on.
    pricing : Pricing
        The groups' prices: a group adds its base price the first time an example reads it,
        and its discount group's shared part when it is the first of that group to be read.

    Returns
    -------
    ndarray of shape (n, n_trees + 1)
        Column ``k`` is the price of the groups read by the first ``k`` trees (non-decreasing
        along each row: sums of prices >= 0 added one tree at a time).
    """
    n = first.shape[0]
    width = n_trees + 2  # a read in tree t is paid from prefix t + 1; n_trees: never
    rows = (np.arange(n, dtype=np.int64) * width)[:, None]
    base = np.broadcast_to(pricing.base[used], first.shape)
    added = np.bincount((rows + first + 1).ravel(), weights=base.ravel(), minlength=n * width)
    if pricing.discounted:
        label = pricing.discount_group[used]
        for d in np.unique(label[label >= 0]).tolist():  # over the few discount groups
            touch = first[:, label == d].min(axis=1)
            added += np.bincount(
                rows[:, 0] + touch + 1,
                weights=np.full(n, pricing.shared[d]),
                minlength=n * width,
            )
    return np.cumsum(added.reshape(n, width), axis=1)[:, : n_trees + 1]


def prefix_group_counts(first: np.ndarray, n_trees: int) -> np.ndarray:
    """How many groups each example reads on its paths through each prefix: (n, n_trees + 1)."""
    n = first.shape[0]
    width = n_trees + 2
    rows = (np.arange(n, dtype=np.int64) * width)[:, None]
    added = np.bincount((rows + first + 1).ravel(), minlength=n * width)
    return np.cumsum(added.reshape(n, width), axis=1)[:, : n_trees + 1]


def errors_by_cap(
    costs: np.ndarray, wrong: np.ndarray, loss: np.ndarray, budgets: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Validation errors and losses of every cap on the trees at every budget, served per example.

    Example ``i`` at budget ``B`` with cap ``m`` uses ``min(m, k_i(B))`` trees, ``k_i(B)`` the
    longest prefix its paths afford. The sum over examples splits in two, each a histogram
    summed up: the examples whose prefix the budget stops (``k_i(B) <= m``: per budget, their
    values by ``k_i(B)``, summed up to ``m``) and those the cap stops (``k_i(B) > m``, i.e.
    ``cost_i(m + 1) <= B``: per cap, their values by the first budget affording that
    prefix, summed up to ``B``).

    Parameters
    ----------
    costs : ndarray of shape (n, K + 1)
        :func:`prefix_costs` of the validation examples.
    wrong : ndarray of int, shape (K + 1, n)
        1 where prefix ``k`` misclassifies example ``i``.
    loss : ndarray of shape (K + 1, n)
        Each prefix's log loss on each example.
    budgets : ndarray of shape (G,)
        Increasing.

    Returns
    -------
    errors : ndarray of int64, shape (K + 1, G)
        The number of misclassified examples with cap ``m`` (row ``m``) at each budget.
    losses : ndarray of shape (K + 1, G)
        Their summed log loss.
    """
    n, width = costs.shape
    trees = width - 1
    n_budgets = budgets.size
    # where each example can first afford each prefix: prefix k + 1 fits budget b iff <= b
    fits_from = _first_at_least(budgets, costs[:, 1:])  # (n, K)
    reach = count_at_most(costs[:, 1:], budgets).T  # (G, n): k_i(B)
    examples = np.arange(n)
    by_budget = (np.arange(n_budgets, dtype=np.int64)[:, None] * width + reach).ravel()
    by_cap = (np.arange(trees, dtype=np.int64)[None, :] * (n_budgets + 1) + fits_from).ravel()

    def stopped_by_budget(values: np.ndarray) -> np.ndarray:
        """Sum over the examples with k_i(B) <= m of their own prefix's value: (K + 1, G)."""
        at_reach = values[reach, examples[None, :]]
        hist = np.bincount(by_budget, weights=at_reach.ravel(), minlength=n_budgets * width)
        return np.cumsum(hist.reshape(n_budgets, width), axis=1).T

    def stopped_by_cap(values: np.ndarray) -> np.ndarray:
        """Sum over the examples with cost_i(m + 1) <= B of prefix m's value: (K, G)."""
        weights = values[:trees].T.ravel()  # (n, K) order, as ``by_cap``
        hist = np.bincount(by_cap, weights=weights, minlength=trees * (n_budgets + 1))
        return np.cumsum(hist.reshape(trees, n_budgets + 1), axis=1)[:, :n_budgets]

    errors = stopped_by_budget(wrong.astype(np.float64))
    losses = stopped_by_budget(loss)
    errors[:trees] += stopped_by_cap(wrong.astype(np.float64))
    losses[:trees] += stopped_by_cap(loss)
    return np.rint(errors).astype(np.int64), losses


def choice_budgets(costs: Sequence[np.ndarray], most: int = CHOICE_GRID) -> np.ndarray:
    """0 and every price a validation example pays through some prefix (increasing), thinned
    to ``most`` evenly spaced by rank where there are more: the budgets the choice compares."""
    values = np.unique(np.concatenate([[0.0], *(np.ravel(c) for c in costs)]))
    if values.size > most:
        values = np.unique(values[np.rint(np.linspace(0, values.size - 1, most)).astype(np.intp)])
    return values


def choose_per_example(
    budgets: np.ndarray,
    empty: tuple[int, float],
    candidates: Sequence[tuple[np.ndarray, np.ndarray]],
) -> tuple[Choice, np.ndarray]:
    """The best (configuration, cap) at every budget, every candidate served per example.

    Parameters
    ----------
    budgets : ndarray of shape (G,)
        Increasing, the first 0.
    empty : (int, float)
        The empty model's errors and summed log loss (every budget).
    candidates : sequence of (errors, losses)
        Per configuration, :func:`errors_by_cap` (row ``m``: cap ``m``; row 0 is the empty
        model and is not a candidate of the configuration).

    Returns
    -------
    choice : Choice
        At each budget the candidate of fewest errors; ties to the lower log loss, then the
        fewer trees, then the earlier configuration (the empty model: configuration -1, no
        tree, first of all).
    best : ndarray of int64, shape (n_configs, G)
        Each configuration's fewest errors at each budget, over its caps (cap 0: the empty
        model).
    """
    n_budgets = budgets.size
    best_errors = np.full(n_budgets, empty[0], dtype=np.int64)
    best_loss = np.full(n_budgets, float(empty[1]))
    best_cap = np.zeros(n_budgets, dtype=np.intp)
    best_config = np.full(n_budgets, -1, dtype=np.intp)
    per_config = np.empty((len(candidates), n_budgets), dtype=np.int64)
    columns = np.arange(n_budgets)
    for index, (errors, losses) in enumerate(candidates):
        if errors.shape[0] < 2:  # no tree: only the empty model
            per_config[index] = empty[0]
            continue
        fewest = errors[1:].min(axis=0)
        tied = np.where(errors[1:] == fewest, losses[1:], np.inf)
        cap = np.argmin(tied, axis=0)  # the first: the fewest trees
        loss = tied[cap, columns]
        cap = cap + 1
        per_config[index] = np.minimum(fewest, empty[0])
        better = (fewest < best_errors) | (
            (fewest == best_errors)
            & ((loss < best_loss) | ((loss == best_loss) & (cap < best_cap)))
        )
        best_errors = np.where(better, fewest, best_errors)
        best_loss = np.where(better, loss, best_loss)
        best_cap = np.where(better, cap, best_cap)
        best_config = np.where(better, index, best_config)
    change = np.concatenate(
        [[True], (best_config[1:] != best_config[:-1]) | (best_cap[1:] != best_cap[:-1])]
    )
    choice = Choice(budgets[change], best_config[change], best_cap[change])
    return choice, per_config


def walk_charges(
    path_groups: np.ndarray,
    first: np.ndarray,
    used: np.ndarray,
    example: np.ndarray,
    trees: np.ndarray,
    budget: np.ndarray,
    paid: np.ndarray,
    pricing: Pricing,
) -> tuple[np.ndarray, np.ndarray]:
    """What examples pay to learn that their next tree does not fit: the walk of that tree.

    Each example walks the path it would take through tree ``trees[e]`` (the first its
    budget does not afford), reading every group it has already paid for free and every
    other it can still afford (paying its marginal price: its base, plus its discount
    group's shared part where that group is not yet touched), and stops at the first node
    whose group it cannot afford. Vectorised over the examples, one step per level.

    Parameters
    ----------
    path_groups : ndarray of int, shape (n_walks, depth)
        The groups of the nodes on each walk's path, root first (``-1`` after its leaf).
    first : ndarray of int, shape (n, n_used)
        For each example, the first tree (0-based) on whose path it reads each group of
        ``used`` (:func:`prefix_costs`).
    used : ndarray of int, shape (n_used,)
        Sorted; every group of ``path_groups`` is among them.
    example : ndarray of int, shape (n_walks,)
        The example (row of ``first``) of each walk.
    trees : ndarray of int, shape (n_walks,)
        The tree walked (its predecessors are the example's prefix, already paid).
    budget, paid : ndarray of shape (n_walks,)
        The budget and what the example paid for its prefix.
    pricing : Pricing

    Returns
    -------
    paid : ndarray of shape (n_walks,)
        What the example paid in all, prefix and walk (at most ``budget``).
    new : ndarray of int, shape (n_walks,)
        The groups the walk paid for (first reads).
    """
    total, read = _walk(path_groups, first, used, example, trees, budget, paid, pricing)
    return total, read.sum(axis=1)


def _walk(
    path_groups: np.ndarray,
    first: np.ndarray,
    used: np.ndarray,
    example: np.ndarray,
    trees: np.ndarray,
    budget: np.ndarray,
    paid: np.ndarray,
    pricing: Pricing,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`walk_charges`, with which nodes of each path the walk paid for (the first read
    of their group): ``(paid, read)``, ``read`` of the shape of ``path_groups``."""
    n_walks, depth = path_groups.shape
    total = np.asarray(paid, dtype=np.float64).copy()
    stopped = np.zeros(n_walks, dtype=bool)
    label = pricing.discount_group
    touched_at = None
    if pricing.discounted:  # the first tree touching each discount group, per example
        labels = label[used]
        touched_at = np.full((first.shape[0], pricing.n_discount_groups), np.iinfo(np.intp).max)
        for d in np.unique(labels[labels >= 0]).tolist():  # over the few discount groups
            touched_at[:, d] = first[:, labels == d].min(axis=1)
    read = np.zeros((n_walks, depth), dtype=bool)  # groups newly paid on the walk
    for step in range(depth):  # one vectorised step per level of the tree
        group = path_groups[:, step]
        live = (group >= 0) & ~stopped
        g = np.maximum(group, 0)
        column = np.minimum(np.searchsorted(used, g), used.size - 1)
        earlier = path_groups[:, :step]
        paid_before = (first[example, column] < trees) | np.any(
            (earlier == group[:, None]) & read[:, :step], axis=1
        )
        price = pricing.base[g].astype(np.float64)
        if touched_at is not None:
            d = label[g]
            dd = np.maximum(d, 0)
            touched = (touched_at[example, dd] < trees) | np.any(
                (label[np.maximum(earlier, 0)] == d[:, None]) & (earlier >= 0) & read[:, :step],
                axis=1,
            )
            price = price + np.where((d >= 0) & ~touched, pricing.shared[dd], 0.0)
        price = np.where(paid_before, 0.0, price)
        fits = live & (total + price <= budget)
        total = np.where(fits, total + price, total)
        read[:, step] = fits & ~paid_before
        stopped |= live & ~fits
    return total, read


# ---------------------------------------------------------------------------- a model's prefixes
class TreeModel(Protocol):
    """What per-example serving reads of a trained model of trees (library columns)."""

    n_trees: int

    def leaves(self, X: np.ndarray, n_trees: int) -> np.ndarray: ...

    def first_reads(
        self, leaves: np.ndarray, column_group: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]: ...

    def staged_from_leaves(self, leaves: np.ndarray) -> np.ndarray: ...

    def path_groups(
        self, trees: np.ndarray, leaves: np.ndarray, column_group: np.ndarray
    ) -> np.ndarray: ...


class Prefixes(NamedTuple):
    """Every prefix of a model's trees on some examples (``K`` trees, ``n`` examples)."""

    leaves: np.ndarray  # (n, K): each example's leaf in each tree
    used: np.ndarray  # the groups the trees split on, sorted
    first: np.ndarray  # (n, len(used)): the first tree reading each (K: none)
    costs: np.ndarray  # (n, K + 1): what each example pays through each prefix
    scores: np.ndarray  # (K + 1, n): each prefix's raw score (row 0: the empty model)


def prefixes(
    model: TreeModel,
    X: np.ndarray,
    column_group: np.ndarray,
    pricing: Pricing,
    majority: float,
) -> Prefixes:
    """Every prefix of ``model`` on the library columns ``X``: leaves, costs and scores."""
    n_trees = int(model.n_trees)
    leaves = model.leaves(X, n_trees) if n_trees else np.zeros((X.shape[0], 0), dtype=np.intp)
    used, first = model.first_reads(leaves, column_group)
    scores = np.vstack(
        [np.full((1, X.shape[0]), majority * EMPTY_SCORE), model.staged_from_leaves(leaves)]
    )
    return Prefixes(leaves, used, first, prefix_costs(first, n_trees, used, pricing), scores)


def validation_choice(
    parts: Sequence[Prefixes], y: np.ndarray, most: int = CHOICE_GRID
) -> tuple[Choice, np.ndarray, np.ndarray]:
    """The choice per budget of every configuration's prefixes on the validation rows.

    Parameters
    ----------
    parts : sequence of Prefixes
        Each configuration's fit-part model on the validation rows.
    y : ndarray of shape (n,)
        Their labels, -1/+1.
    most : int
        The most budgets compared (:func:`choice_budgets`).

    Returns
    -------
    choice : Choice
        :func:`choose_per_example` at the budgets of :func:`choice_budgets`.
    budgets : ndarray of shape (G,)
        Those budgets.
    errors : ndarray of shape (n_configs, G)
        Each configuration's validation error at each budget (at its best cap).
    """
    n = y.size
    budgets = choice_budgets([part.costs for part in parts], most)
    candidates = []
    for part in parts:
        wrong = ((part.scores > 0) != (y > 0)).astype(np.float64)
        loss = np.logaddexp(0.0, -part.scores * y)
        candidates.append(errors_by_cap(part.costs, wrong, loss, budgets))
    empty = parts[0].scores[0] if parts else np.zeros(n)
    empty_errors = int(np.sum((empty > 0) != (y > 0)))
    empty_loss = float(np.sum(np.logaddexp(0.0, -empty * y)))
    choice, best = choose_per_example(budgets, (empty_errors, empty_loss), candidates)
    return choice, budgets, best / max(n, 1)


class _Served(NamedTuple):
    """A model served per example at some budgets (``n_budgets`` x ``n`` examples)."""

    part: Prefixes  # every prefix on the examples
    used_trees: np.ndarray  # (n_budgets, n): the trees each example uses
    paid: np.ndarray  # (n_budgets, n): what it pays, prefix and walk
    groups: np.ndarray  # (n_budgets, n): how many groups it pays for
    walk_b: np.ndarray  # the budget of each walk (an example stopped by the budget)
    walk_i: np.ndarray  # the example of each walk
    walk_groups: np.ndarray  # (n_walks, depth): the groups on each walk's path
    walk_read: np.ndarray  # (n_walks, depth): the nodes whose group the walk paid for


def _served(
    model: TreeModel,
    X: np.ndarray,
    budgets: np.ndarray,
    caps: np.ndarray,
    column_group: np.ndarray,
    pricing: Pricing,
    majority: float,
) -> _Served:
    """Each example's prefix at each budget, what it pays, and the walks that stopped it."""
    n = X.shape[0]
    part = prefixes(model, X, column_group, pricing, majority)
    n_trees = int(model.n_trees)
    caps = np.minimum(np.asarray(caps, dtype=np.intp), n_trees)
    reach = count_at_most(part.costs[:, 1:], budgets).T  # (n_budgets, n)
    used_trees = np.minimum(reach, caps[:, None])
    examples = np.arange(n)[None, :]
    paid = part.costs[examples, used_trees]
    groups = prefix_group_counts(part.first, n_trees)[examples, used_trees]
    walk_b, walk_i = np.nonzero(used_trees < caps[:, None])  # stopped by the budget
    walk_groups = np.zeros((0, 0), dtype=np.intp)
    walk_read = np.zeros((0, 0), dtype=bool)
    if walk_b.size:
        trees = used_trees[walk_b, walk_i]
        walk_groups = model.path_groups(trees, part.leaves[walk_i, trees], column_group)
        total, walk_read = _walk(
            walk_groups,
            part.first,
            part.used,
            walk_i,
            trees,
            budgets[walk_b],
            paid[walk_b, walk_i],
            pricing,
        )
        paid[walk_b, walk_i] = total
        groups[walk_b, walk_i] += walk_read.sum(axis=1)
    return _Served(part, used_trees, paid, groups, walk_b, walk_i, walk_groups, walk_read)


def serve(
    model: TreeModel,
    X: np.ndarray,
    budgets: np.ndarray,
    caps: np.ndarray,
    column_group: np.ndarray,
    pricing: Pricing,
    majority: float,
) -> tuple[np.ndarray, BudgetCosts]:
    """``model`` served per example at each budget, with at most ``caps[b]`` trees.

    Each example gets the longest prefix (up to the cap) whose groups on its own paths cost
    at most the budget, and pays for them and for the walk that told it the next tree does
    not fit (:func:`walk_charges`; none where the cap or the last tree stopped it).

    Returns
    -------
    scores : ndarray of shape (n_budgets, n)
    costs : BudgetCosts
        ``rounds`` the mean number of trees used, ``spent`` and ``max_example_cost`` the
        most an example paid, ``mean_example_cost`` the mean, ``n_features`` the mean number
        of groups paid for, ``nodes`` 0.
    """
    n = X.shape[0]
    served = _served(model, X, budgets, caps, column_group, pricing, majority)
    scores = served.part.scores[served.used_trees, np.arange(n)[None, :]]
    paid, groups = served.paid, served.groups
    empty = np.zeros(budgets.size)
    most = paid.max(axis=1) if n else empty
    costs = BudgetCosts(
        rounds=served.used_trees.mean(axis=1) if n else empty,
        spent=most,
        n_features=groups.mean(axis=1) if n else empty,
        mean_example_cost=paid.mean(axis=1) if n else empty,
        max_example_cost=most,
        nodes=empty,
    )
    return scores, costs


def serve_reads(
    model: TreeModel,
    X: np.ndarray,
    budgets: np.ndarray,
    caps: np.ndarray,
    column_group: np.ndarray,
    pricing: Pricing,
    n_groups: int,
) -> np.ndarray:
    """The feature groups each example reads where :func:`serve` serves it:
    (n_budgets, n, n_groups), the groups on its paths through its prefix and those its walk
    paid for (``BudgetedEstimator._groups_read``). Their price is what :func:`serve` says
    the example paid."""
    served = _served(model, X, budgets, caps, column_group, pricing, 0.0)
    part = served.part
    reads = np.zeros((budgets.size, X.shape[0], n_groups), dtype=bool)
    # the prefix: each group read in a tree before the example's last
    b, i, g = np.nonzero(part.first[None, :, :] < served.used_trees[:, :, None])
    reads[b, i, part.used[g]] = True
    # the walk: the nodes whose group it paid for
    walk, node = np.nonzero(served.walk_read)
    reads[served.walk_b[walk], served.walk_i[walk], served.walk_groups[walk, node]] = True
    return reads
