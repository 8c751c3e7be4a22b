"""The one protocol of every estimator that chooses something on held-out training rows.

An estimator may tune a configuration (a trade-off: the cost-sensitive tree's ``lambda``,
the peers' ``cegb_tradeoff`` / ``penalties_coefficient`` and learning rate, the Smoothed
booster's ``tau``) and the size of its model (a prefix of rounds or trees) per budget. Test
rows never inform a choice; every such estimator follows the same three steps, written once
in :class:`TunedEstimator`:

1. **Choose on a validation part.** :func:`validation_split` carves a stratified share of
   the training rows; each configuration is fitted on the rest (the *fit part*) and every
   *candidate* (configuration, size) has a cost and an error on the validation part.
   :func:`choose` picks, at every budget, the candidate with the lowest validation error
   among those costing at most the budget (ties: lower validation loss, lower cost, smaller
   size, earlier configuration), as a step function of the budget (:class:`Choice`). Where
   the budget itself fixes a configuration's size (a tree pruned to the budget),
   :func:`choose_by_budget` picks the configuration of lowest validation error at each
   budget instead.
2. **Refit on all training rows.** Each configuration chosen at some budget is fitted again
   on every training row, so that no model predicts with a quarter of its rows missing.
3. **Serve within the budget.** At budget ``B`` the refitted model of ``B``'s configuration
   is used at the chosen size, or at the largest size of it that costs at most ``B`` where
   refitting made it dearer (so no budget is ever exceeded).

:data:`TRADEOFF` is the constraint of a grid parameter (one value, or several to choose
from).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np

from .base import BudgetCosts, BudgetedEstimator, TrainingData
from .params import Constraint, Interval, InvalidParameterError, NonNegativeVector
from .validation import check_budgets

__all__ = [
    "EMPTY_SCORE",
    "GRID",
    "LARGEST",
    "IntegerGrid",
    "TRADEOFF",
    "Choice",
    "PositiveGrid",
    "TradeoffGrid",
    "TunedEstimator",
    "UnitGrid",
    "check_validation_part",
    "choose",
    "choose_by_budget",
    "grid_size",
    "validation_split",
]

#: The empty model's score: the training majority class, by less than any vote.
EMPTY_SCORE = 1e-10
#: The size of a candidate whose size the budget fixes (:func:`choose_by_budget`): served at
#: the largest size the budget affords.
LARGEST = np.iinfo(np.intp).max


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


class IntegerGrid(Constraint):
    """An integer in ``[low, high]``, or a non-empty 1-d array-like of them.

    Parameters
    ----------
    low : int
    high : int or None
        None: unbounded.
    what : str
        What an array-like is, for the message (``"the depths to choose from"``).
    distinct : bool, default=False
        Whether the values of an array-like must differ.
    """

    def __init__(self, low: int, high: int | None, what: str, *, distinct: bool = False):
        self.low, self.high, self.what, self.distinct = low, high, what, distinct

    def _integers(self, value: Any) -> np.ndarray | None:
        if isinstance(value, bool | np.bool_ | str | bytes | Mapping):
            return None
        try:
            array = np.atleast_1d(np.asarray(value))
        except (TypeError, ValueError):
            return None
        if array.ndim != 1 or array.size == 0 or array.dtype.kind not in "iu":
            return None
        return array

    def _outside(self, array: np.ndarray) -> np.ndarray:
        high = np.inf if self.high is None else self.high
        return array[(array < self.low) | (array > high)]

    def is_satisfied_by(self, value: Any) -> bool:
        array = self._integers(value)
        return (
            array is not None
            and not self._outside(array).size
            and (not self.distinct or np.unique(array).size == array.size)
        )

    def explain(self, value: Any) -> str | None:
        array = self._integers(value)
        if array is None:
            return None
        if self._outside(array).size:
            return f"got {int(self._outside(array)[0])}"
        return f"got a repeated value in {array.tolist()}"

    def __str__(self) -> str:
        bounds = f">= {self.low}" if self.high is None else f"in [{self.low}, {self.high}]"
        ones = "distinct ones" if self.distinct else "them"
        return f"an integer {bounds} or a non-empty 1-d array-like of {ones} ({self.what})"


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


def grid_size(grid: Any, default: Sequence[Any]) -> int:
    """How many values a grid parameter holds: ``default``'s when it is None (the
    estimator's own grid), else a scalar's one or a sequence's length."""
    return len(default) if grid is None else int(np.atleast_1d(np.asarray(grid)).size)


def check_validation_part(
    params: Mapping[str, Any], counts: Mapping[str, int], default_fraction: float = 0.25
) -> None:
    """Refuse ``validation_fraction=0`` when there is something to choose: ``counts`` gives,
    per grid parameter, how many values it holds (a default grid counts as its size).

    Raises
    ------
    InvalidParameterError
        On ``validation_fraction``, naming the parameters with several values.
    """
    several = [name for name, count in counts.items() if count > 1]
    if float(params.get("validation_fraction", default_fraction)) == 0 and several:
        raise InvalidParameterError(
            "validation_fraction",
            f"must be > 0 to choose among several values of {' or '.join(several)} (give one "
            "value of each, or a validation part)",
        )


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
    configuration ``config[s]`` at size ``size[s]`` (``-1`` and ``0``: the empty model;
    :data:`LARGEST`: the largest size the budget affords).
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


def choose_by_budget(budgets: np.ndarray, errors: np.ndarray) -> Choice:
    """The configuration of lowest validation error at every budget, where the budget fixes
    each configuration's size (a tree pruned to the budget: step 1 of the module docstring).

    Parameters
    ----------
    budgets : ndarray of shape (n_budgets,)
        Increasing, the first 0: every budget at which some configuration changes.
    errors : ndarray of shape (n_configs, n_budgets)
        The validation error of each configuration at each budget, at the size the budget
        fixes (constant up to the next budget).

    Returns
    -------
    Choice
        The first configuration of lowest error (ties: the earlier), at size :data:`LARGEST`.
    """
    best = np.argmin(errors, axis=0)
    change = np.concatenate([[True], best[1:] != best[:-1]])
    return Choice(budgets[change], best[change], np.full(int(change.sum()), LARGEST))


class TunedEstimator(BudgetedEstimator):
    """Base of every estimator that tunes: the protocol of the module docstring, written once.

    A subclass stores ``validation_fraction`` and ``random_state`` (and ``budget``, which
    caps every budget served, if it has one) and implements the steps that are its own:

    - ``_fit_grid(data, fit_rows, rng) -> (tradeoffs, models)``: every configuration fitted on
      the fit part, and the trade-off that names each (``rng`` has drawn the split; a model
      may draw its seed from it);
    - ``_candidates(index, model, data, rows) -> (size, cost, error, loss)``: every candidate
      of one fitted configuration (its prefixes ``k = 0, 1, ...``, ``k = 0`` the empty
      model), with its cost and its error and loss on the validation ``rows`` (not needed
      where ``_choose`` is overridden);
    - ``_refit(data, chosen, sizes) -> list``: the configurations ``chosen`` fitted on all
      training rows, each at least ``sizes[i]`` large;
    - ``_affordable(index, model, budgets) -> ndarray``: the largest size of a refitted
      model that costs at most each budget (default :data:`LARGEST`: the model serves a
      budget as a whole, e.g. a tree pruned to it);
    - ``_serve(index, model, X, budgets, sizes) -> (scores, BudgetCosts)``: a refitted
      model at each budget and size (sizes > 0).
    - ``_serve_reads(index, model, X, budgets, sizes) -> ndarray or None``: the feature
      groups each example reads when ``_serve`` serves it, (len(budgets), n_samples or 1,
      n_groups) (``BudgetedEstimator._groups_read``; default None: not said).

    ``_choose(data, rows) -> Choice`` is :func:`choose` over every candidate; an estimator
    whose sizes the budget fixes overrides it (:func:`choose_by_budget`). With
    ``validation_fraction = 0`` nothing is held out: the models are the refits and every
    budget gets the longest affordable prefix (of a single configuration).

    Attributes
    ----------
    fit_rows_, validation_rows_ : ndarray of int
        Rows of the training ``X`` in the fit and validation parts.
    tradeoffs_ : ndarray of shape (n_configs,)
        The trade-off of each configuration (:meth:`chosen_tradeoffs`).
    models_ : list
        Each configuration fitted on the fit part.
    prefix_cost_, validation_error_ : list of ndarray
        Per configuration: the cost and the validation error of each candidate.
    choice_ : Choice
        The (configuration, size) of every budget, chosen on the validation part.
    refits_ : dict of int to model
        The configurations chosen at some budget, fitted on all training rows.
    """

    @classmethod
    def tunes(cls, params: Mapping[str, Any]) -> bool:
        """Whether anything is held out to choose on (``validation_fraction > 0``)."""
        default = inspect.signature(cls.__init__).parameters["validation_fraction"].default
        return float(params.get("validation_fraction", default)) > 0

    # ------------------------------------------------------------------ hooks
    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list]:
        raise NotImplementedError

    def _candidates(
        self, index: int, model: Any, data: TrainingData, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        raise NotImplementedError

    def _refit(self, data: TrainingData, chosen: Sequence[int], sizes: Sequence[int]) -> list:
        raise NotImplementedError

    def _affordable(self, index: int, model: Any, budgets: np.ndarray) -> np.ndarray:
        return np.full(budgets.size, LARGEST)

    def _serve(
        self, index: int, model: Any, X: np.ndarray, budgets: np.ndarray, sizes: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        raise NotImplementedError

    def _serve_reads(
        self, index: int, model: Any, X: np.ndarray, budgets: np.ndarray, sizes: np.ndarray
    ) -> np.ndarray | None:
        return None

    # ------------------------------------------------------------------ the protocol
    def _fit(self, data: TrainingData) -> None:
        """Fit the grid on the fit part, choose per budget, refit the chosen on all rows."""
        rng = np.random.default_rng(self.random_state)
        fit_rows, validation_rows = validation_split(data.y, float(self.validation_fraction), rng)
        self.fit_rows_, self.validation_rows_ = fit_rows, validation_rows
        self.tradeoffs_, self.models_ = self._fit_grid(data, fit_rows, rng)
        # no validation part (tiny data, or none asked for): choose on the fit part
        choice = self._choose(data, validation_rows if validation_rows.size else fit_rows)
        chosen = np.unique(choice.config[choice.config >= 0]).tolist()
        if fit_rows.size == data.y.size:  # nothing held out: the models are the refits
            refits = [self.models_[index] for index in chosen]
        else:  # each as large as its largest size chosen
            sizes = [int(choice.size[choice.config == index].max()) for index in chosen]
            refits = self._refit(data, chosen, sizes) if chosen else []
        self.choice_ = choice
        self.refits_ = dict(zip(chosen, refits, strict=True))

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """The best affordable candidate at every budget (:func:`choose`)."""
        parts = [self._candidates(i, m, data, rows) for i, m in enumerate(self.models_)]
        nothing_held_out = float(self.validation_fraction) == 0
        candidates = []
        for index, (size, cost, error, loss) in enumerate(parts):
            if nothing_held_out:  # the longest affordable prefix
                error, loss = -size.astype(float), np.zeros(size.size)
            candidates.append((np.where(size > 0, index, -1), size, cost, error, loss))
        config, size, cost, error, loss = (np.concatenate(c) for c in zip(*candidates, strict=True))
        self.prefix_cost_ = [c[2] for c in candidates]
        self.validation_error_ = [c[3] for c in candidates]
        return choose(config, size, cost, error, loss)

    def chosen_tradeoffs(self, budgets: Any) -> np.ndarray:
        """The trade-off of the model used at each budget (NaN where the empty model is).

        Parameters
        ----------
        budgets : float or array-like of float
            Numbers >= 0 in any order; ``inf`` is the fitted model (budgets above the
            fitted ``budget`` get its choice).

        Returns
        -------
        ndarray of shape (len(budgets),), float64
            Values of ``tradeoffs_``, chosen on the validation part; the size of the model
            is ``rounds`` of :meth:`evaluate_at_budgets`.
        """
        self._check_fitted()
        config, _ = self.choice_.at(self._capped(check_budgets(budgets)))
        return np.where(config >= 0, self.tradeoffs_[np.maximum(config, 0)], np.nan)

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """At each budget (capped at the fitted ``budget``) the refitted model of its
        configuration at the chosen size, or at the largest the budget affords where that
        is smaller; the empty model (the training majority, nothing paid) where it is 0."""
        capped = self._capped(budgets)
        config, size = self.choice_.at(capped)
        scores = np.full((budgets.size, X.shape[0]), self.majority_ * EMPTY_SCORE)
        fields = {f: np.zeros(budgets.size) for f in BudgetCosts.__dataclass_fields__}
        for index, model in self.refits_.items():
            rows = np.flatnonzero(config == index)
            sizes = np.minimum(size[rows], self._affordable(index, model, capped[rows]))
            rows, sizes = rows[sizes > 0], sizes[sizes > 0]
            if not rows.size:
                continue
            part, costs = self._serve(index, model, X, capped[rows], sizes)
            scores[rows] = part
            for name, value in costs.as_dict().items():
                fields[name][rows] = value
        return scores, BudgetCosts(**fields)

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray | None:
        """What each example reads where ``_scores_and_costs`` serves it: nothing where
        the empty model serves, else ``_serve_reads`` of the budget's model."""
        capped = self._capped(budgets)
        config, size = self.choice_.at(capped)
        parts = []
        for index, model in self.refits_.items():
            rows = np.flatnonzero(config == index)
            sizes = np.minimum(size[rows], self._affordable(index, model, capped[rows]))
            rows, sizes = rows[sizes > 0], sizes[sizes > 0]
            if not rows.size:
                continue
            part = self._serve_reads(index, model, X, capped[rows], sizes)
            if part is None:
                return None
            parts.append((rows, part))
        width = max((part.shape[1] for _, part in parts), default=1)
        reads = np.zeros((budgets.size, width, self._n_groups()), dtype=bool)
        for rows, part in parts:
            reads[rows] = part
        return reads
