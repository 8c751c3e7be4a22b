"""Exhaustive search over small sets of feature groups, scored by the model then trained.

Where the groups are few, every set of at most ``max_size`` of them can be tried: the search
a forward path approximates (under equal prices the forward paths collapse into one, and a
pair that is good together but whose members are weak alone is never reached). Each
affordable set is scored by the cross-validated log loss, on the rows it is given (the fit
part), of the classifier that will be trained on it (:mod:`~.classifiers`: LightGBM at its
best number of trees over the folds, or the logistic regression), and the sets worth a
validation comparison are kept: those among the ``keep`` of lowest loss of every set costing
no more (:func:`pareto_sets`), so that each budget has its few best affordable sets, and the
validation choice compares few sets, not thousands.

How many sets there are decides the size searched: sets of one group, then of two, then of
three, as long as the number of sets of that size or less, ``sum_k C(n_groups, k)``, is at most
``max_sets`` (:func:`searched_size`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import numpy as np

from ..contract.pricing import Pricing

__all__ = ["enumerate_sets", "pareto_sets", "searched_size"]

#: A set within this relative margin of the budget still fits it (sums in another order).
_FITS = 1e-12


def searched_size(n_groups: int, max_size: int, max_sets: int) -> int:
    """The largest ``k <= max_size`` with at most ``max_sets`` sets of 1 to ``k`` of
    ``n_groups`` groups (0: not even the single groups)."""
    total, size = 0, 0
    for k in range(1, min(max_size, n_groups) + 1):
        total += math.comb(n_groups, k)
        if total > max_sets:
            break
        size = k
    return size


def enumerate_sets(
    eligible: np.ndarray, pricing: Pricing, budget: float, max_size: int, max_sets: int
) -> list[np.ndarray]:
    """Every set of 1 to :func:`searched_size` of the eligible groups whose price fits
    ``budget``, smaller sets first, each sorted."""
    groups = np.flatnonzero(eligible)
    size = searched_size(groups.size, max_size, max_sets)
    found: list[np.ndarray] = []
    for k in range(1, size + 1):
        combos = np.array(list(itertools.combinations(range(groups.size), k)), dtype=np.intp)
        member = np.zeros((combos.shape[0], groups.size), dtype=bool)
        np.put_along_axis(member, combos, True, axis=1)
        price = pricing.set_costs(member, groups)
        fits = price <= budget + _FITS * max(1.0, budget)
        found += [groups[c] for c in combos[fits]]
    return found


def pareto_sets(price: np.ndarray, loss: np.ndarray, keep: int) -> np.ndarray:
    """Which sets are among the ``keep`` of lowest ``loss`` of every set costing no more
    than they do (ties of loss: the cheaper, then the earlier set ranks first): bool."""
    n = price.size
    order = np.lexsort((np.arange(n), price, loss))
    rank = np.empty(n, dtype=np.intp)
    rank[order] = np.arange(n)
    # set j beats set i where it costs no more and ranks before it
    beaten = (price[None, :] <= price[:, None]) & (rank[None, :] < rank[:, None])
    return beaten.sum(axis=1) < keep


def cross_validated_losses(
    sets: list[np.ndarray], folds: np.ndarray, score: Callable[[np.ndarray, np.ndarray], float]
) -> np.ndarray:
    """``score(groups, folds)`` of every set: its cross-validated loss."""
    return np.array([score(groups, folds) for groups in sets], dtype=np.float64)
