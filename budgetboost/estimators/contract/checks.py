"""The rules every budgeted model's outputs obey, checked rather than trusted.

A plugged-in estimator could otherwise win a comparison by breaking them: a model that
spends more than its budget, or whose NaN scores are read as one class. After every
``_scores_and_costs`` (:class:`~budgetboost.estimators.contract.base.BudgetedEstimator` calls it for
``decision_function``, ``predict_at_budgets`` and ``evaluate_at_budgets``, and the pipeline
for every evaluation it stores: ``budgetboost.pipeline.verify.measure``):

- the scores are finite, one row per budget and one column per example;
- every cost field is finite and not negative;
- ``spent`` and ``max_example_cost`` never exceed the budget, within
  :data:`BUDGET_TOLERANCE` (the same costs summed in another order may overshoot an exactly
  met budget by a few units in the last place; every result of the default run meets its
  budget exactly).

A violation raises :class:`ContractError` naming the first budget it happens at.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

__all__ = [
    "BUDGET_TOLERANCE",
    "ContractError",
    "check_costs",
    "check_reads_shape",
    "check_scores",
]

#: Relative tolerance of "spent never exceeds the budget": ``spent <= B + 1e-9 * max(1, B)``.
BUDGET_TOLERANCE = 1e-9

#: The cost fields that are a model's cost at the budget, hence at most the budget.
_AT_MOST_BUDGET = ("spent", "max_example_cost")


class ContractError(ValueError):
    """A model's outputs break the budgeted contract.

    Attributes
    ----------
    budget : float or None
        The first budget at which the contract is broken (None: not budget-specific).
    """

    def __init__(self, message: str, budget: float | None = None):
        super().__init__(message)
        self.budget = budget


def _at(budgets: np.ndarray, bad: np.ndarray) -> float:
    return float(budgets[np.flatnonzero(bad)[0]])


def check_scores(owner: str, scores: np.ndarray, budgets: np.ndarray, n_samples: int) -> None:
    """Raise :class:`ContractError` unless ``scores`` is finite, (n_budgets, n_samples).

    NaN scores would be read as the class of ``score <= 0``: a silent wrong prediction.
    """
    scores = np.asarray(scores)
    if not (np.issubdtype(scores.dtype, np.number) or scores.dtype == bool):
        raise ContractError(
            f"{owner}: scores must be numbers (float: > 0 predicts classes_[1]); got an "
            f"array of dtype {scores.dtype}"
            + (f", e.g. {scores.flat[0].item()!r}" if scores.size else "")
        )
    if np.iscomplexobj(scores):
        raise ContractError(f"{owner}: scores must be real numbers; got dtype {scores.dtype}")
    if scores.shape != (budgets.size, n_samples):
        raise ContractError(
            f"{owner}: scores of shape {scores.shape}, expected (n_budgets, n_samples) = "
            f"{(budgets.size, n_samples)}"
        )
    bad = ~np.isfinite(scores)
    if bad.any():
        rows = bad.any(axis=1)
        budget = _at(budgets, rows)
        raise ContractError(
            f"{owner}: {int(bad[np.flatnonzero(rows)[0]].sum())} of {n_samples} scores are "
            f"not finite (NaN or inf) at budget {budget:g}",
            budget,
        )


def check_costs(owner: str, costs: Mapping[str, np.ndarray], budgets: np.ndarray) -> None:
    """Raise :class:`ContractError` unless every cost field is finite, >= 0 and, for
    ``spent`` and ``max_example_cost``, within the budget (see the module docstring).

    Parameters
    ----------
    owner : str
        Who produced the costs, for the message (e.g. the estimator's class).
    costs : mapping of str to ndarray
        One array per field, one entry per budget (``BudgetCosts.as_dict()``).
    budgets : ndarray
        The budgets asked for (``inf``: the fitted model).
    """
    for name, values in costs.items():
        raw = np.asarray(values)
        if not (np.issubdtype(raw.dtype, np.number) or raw.dtype == bool) or np.iscomplexobj(raw):
            raise ContractError(
                f"{owner}: costs.{name} must be real numbers; got an array of dtype {raw.dtype}"
            )
        values = raw.astype(np.float64)
        if values.shape != budgets.shape:
            raise ContractError(
                f"{owner}: costs.{name} has {values.size} entries for {budgets.size} budgets"
            )
        bad = ~np.isfinite(values) | (values < 0)
        if bad.any():
            budget = _at(budgets, bad)
            value = values[np.flatnonzero(bad)[0]]
            raise ContractError(
                f"{owner}: costs.{name} is {value} at budget {budget:g} (must be finite and >= 0)",
                budget,
            )
        if name in _AT_MOST_BUDGET:
            over = values > budgets + BUDGET_TOLERANCE * np.maximum(1.0, budgets)
            if over.any():
                budget = _at(budgets, over)
                raise ContractError(
                    f"{owner}: {name} {values[np.flatnonzero(over)[0]]:g} exceeds the budget "
                    f"{budget:g} (a model may never spend more than its budget)",
                    budget,
                )


def check_reads_shape(
    owner: str, reads: np.ndarray, budgets: np.ndarray, n_samples: int, n_groups: int
) -> None:
    """Raise :class:`ContractError` unless ``reads`` (what an estimator's ``_groups_read``
    returned) is a boolean array of shape (n_budgets, n_samples or 1, n_groups)."""
    reads = np.asarray(reads)
    if reads.dtype != bool:
        raise ContractError(
            f"{owner}: the groups read must be a boolean array; got dtype {reads.dtype}"
        )
    if reads.ndim != 3 or reads.shape[0] != budgets.size or reads.shape[2] != n_groups:
        raise ContractError(
            f"{owner}: the groups read have shape {reads.shape}, expected (n_budgets, "
            f"n_samples or 1, n_groups) = ({budgets.size}, {n_samples} or 1, {n_groups})"
        )
    if reads.shape[1] not in (1, n_samples):
        raise ContractError(
            f"{owner}: the groups read have {reads.shape[1]} rows for {n_samples} examples "
            "(1: every example reads the same groups)"
        )
