"""What every estimator that chooses something on held-out training rows shares.

An estimator may tune a trade-off (the cost-sensitive tree's ``lambda``, the peers'
``cegb_tradeoff`` / ``penalties_coefficient``) on a *validation part* of its training rows:
test rows never inform a choice. :func:`validation_split` carves that part, stratified by
class; :data:`TRADEOFF` is the constraint of a trade-off parameter (one value, or a grid to
choose from).
"""

from __future__ import annotations

import math
from numbers import Real
from typing import Any

import numpy as np

from .params import Interval, NonNegativeVector

__all__ = ["TRADEOFF", "TradeoffGrid", "validation_split"]


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
