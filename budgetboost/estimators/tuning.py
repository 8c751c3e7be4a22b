"""The one protocol of every estimator that chooses something on held-out training rows.

An estimator may tune a configuration (a trade-off: the cost-sensitive tree's ``lambda``,
the peers' ``cegb_tradeoff`` / ``penalties_coefficient`` and learning rate, the Smoothed
booster's ``tau``) and the size of its model (a prefix of rounds or trees) per budget. Test
rows never inform a choice; every such estimator follows the same three steps:

1. **Choose on a validation part.** :func:`validation_split` carves a stratified share of
   the training rows; each configuration is fitted on the rest (the *fit part*) and every
   *candidate* (configuration, size) has a cost and an error on the validation part.
   :func:`choose` picks, at every budget, the candidate with the lowest validation error
   among those costing at most the budget (ties: lower validation loss, lower cost, smaller
   size, earlier configuration), as a step function of the budget (:class:`Choice`).
2. **Refit on all training rows.** Each configuration chosen at some budget is fitted again
   on every training row, so that no model predicts with a quarter of its rows missing.
3. **Serve within the budget.** At budget ``B`` the refitted model of ``B``'s configuration
   is used at the chosen size, or at the largest size of it that costs at most ``B`` where
   refitting made it dearer (so no budget is ever exceeded).

:data:`TRADEOFF` is the constraint of a grid parameter (one value, or several to choose
from).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np

from .params import Interval, NonNegativeVector

__all__ = [
    "GRID",
    "TRADEOFF",
    "Choice",
    "PositiveGrid",
    "TradeoffGrid",
    "UnitGrid",
    "choose",
    "validation_split",
]


class TradeoffGrid(NonNegativeVector):
    """A non-empty 1-d array-like of finite numbers >= 0: the trade-offs to fit."""

    description = "a non-empty 1-d array-like of finite numbers >= 0"

    def is_satisfied_by(self, value: Any) -> bool:
        array = self._numbers(value)
        return array is not None and array.size > 0 and super().is_satisfied_by(value)

    def explain(self, value: Any) -> str | None:
        array = self._numbers(value)
        if array is not None and array.size == 0:
            return "got an empty grid"
        return super().explain(value)


#: Constraints of a trade-off parameter: one value >= 0 (fixed), a grid of them, or None.
TRADEOFF = [Interval(Real, 0, math.inf, closed="left"), TradeoffGrid(), None]


class PositiveGrid(TradeoffGrid):
    """A non-empty 1-d array-like of finite numbers > 0 (e.g. learning rates to choose from)."""

    description = "a non-empty 1-d array-like of finite numbers > 0"

    def is_satisfied_by(self, value: Any) -> bool:
        array = self._numbers(value)
        return super().is_satisfied_by(value) and bool(np.all(array > 0))

    def explain(self, value: Any) -> str | None:
        array = self._numbers(value)
        if array is not None and array.size and np.any(array <= 0):
            return f"got a value <= 0: {float(array[array <= 0][0])!r}"
        return super().explain(value)


#: Constraints of a parameter of positive values that may be a grid (e.g. a learning rate).
GRID = PositiveGrid()


class UnitGrid(PositiveGrid):
    """A non-empty 1-d array-like of numbers in (0, 1] (e.g. Eq. 2's ``tau`` values)."""

    description = "a non-empty 1-d array-like of numbers in (0, 1]"

    def is_satisfied_by(self, value: Any) -> bool:
        array = self._numbers(value)
        return super().is_satisfied_by(value) and bool(np.all(array <= 1))

    def explain(self, value: Any) -> str | None:
        array = self._numbers(value)
        if array is not None and array.size and np.any(array > 1):
            return f"got a value > 1: {float(array[array > 1][0])!r}"
        return super().explain(value)


def validation_split(
    y: np.ndarray, fraction: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Sorted ``(fit_rows, validation_rows)`` of the training rows, stratified by class.

    Each class gives ``floor(fraction * n_class + 1/2)`` random rows to the validation part,
    but keeps at least one in the fit part (so the library always sees both classes).
    """
    fit, validation = [], []
    for label in (-1.0, 1.0):
        rows = np.flatnonzero(y == label)
        shuffled = rows[rng.permutation(rows.size)]
        n_validation = min(int(np.floor(fraction * rows.size + 0.5)), rows.size - 1)
        validation.append(shuffled[:n_validation])
        fit.append(shuffled[n_validation:])
    return np.sort(np.concatenate(fit)), np.sort(np.concatenate(validation))


@dataclass(frozen=True)
class Choice:
    """The candidate used at every budget, as a step function fixed at fit time.

    From budget ``budgets[s]`` (increasing, the first 0) up to the next, the candidate is
    configuration ``config[s]`` at size ``size[s]`` (``-1`` and ``0``: the empty model).
    """

    budgets: np.ndarray
    config: np.ndarray
    size: np.ndarray

    def steps(self, budgets: np.ndarray) -> np.ndarray:
        """The step of each budget."""
        return (
            np.searchsorted(self.budgets, np.asarray(budgets, dtype=np.float64), side="right") - 1
        )

    def at(self, budgets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(config, size)`` at each budget."""
        steps = self.steps(budgets)
        return self.config[steps], self.size[steps]


def choose(
    config: np.ndarray,
    size: np.ndarray,
    cost: np.ndarray,
    error: np.ndarray,
    loss: np.ndarray | None = None,
) -> Choice:
    """The best candidate at every budget (step 1 of the module docstring).

    Parameters
    ----------
    config, size, cost, error : ndarray of shape (n_candidates,)
        Each candidate's configuration index (``-1``: the empty model), size (prefix
        length), cost and validation error.
    loss : ndarray of shape (n_candidates,), optional
        A validation loss that breaks ties of the error (e.g. the log loss).

    Returns
    -------
    Choice
        At budget ``B`` the best-ranked candidate costing at most ``B``; ranked by error,
        then loss, cost, size and configuration. The candidates should include one of cost 0
        (the empty model), so that every budget has one.
    """
    config, size = np.asarray(config), np.asarray(size)
    cost, error = np.asarray(cost, dtype=np.float64), np.asarray(error, dtype=np.float64)
    loss = np.zeros_like(error) if loss is None else np.asarray(loss, dtype=np.float64)
    order = np.lexsort((config, size, cost, loss, error))
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    by_cost = np.lexsort((rank, cost))
    best = np.minimum.accumulate(rank[by_cost])
    change = np.concatenate([[True], best[1:] != best[:-1]])
    chosen = order[best[change]]
    return Choice(cost[by_cost][change], config[chosen], size[chosen])
