"""What a train job verifies of an estimator instead of trusting it: the features it says it
did not pay for are not read, and the same ``random_state`` gives the same results.

The contract (:mod:`budgetboost.estimators.contract.checks`) checks the costs an estimator
*reports*; an estimator could still read a column it never pays for and report ``spent = 0``
(0.274 test error at a "spent" of 0, issue #37). Two checks close that:

- :func:`check_unread_columns`: at a budget where every test example paid at most ``m``
  (the reported ``max_example_cost``), no example can have read a column whose price alone
  is above ``m`` (reading a feature group costs at least its full price: with Turney's
  discount groups, its discount price plus the shared part of its group, paid once). Those
  columns' values are shuffled across the test rows and the predictions at that budget must
  not change. Checked at the grid's first, middle and last budget.
- :func:`check_reproducible`: a second estimator of the same trial (same parameters, same
  ``random_state``) fitted on the same rows must give the same evaluation, field for field
  (an estimator drawing from global random state gave 0.529 / 0.429 / 0.588 in three runs).
  Once per (cost model, algorithm) and code version, on the first trial of the dataset where
  its trials are cheapest (the train job of that block, param ``twin``): a method that is
  not reproducible fails the run.

A violation raises :class:`~budgetboost.estimators.contract.checks.ContractError`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from budgetboost.estimators.contract.checks import BUDGET_TOLERANCE, ContractError

__all__ = ["checked_budgets", "check_reproducible", "check_unread_columns"]


def checked_budgets(budgets: Sequence[float]) -> list[float]:
    """The budgets :func:`check_unread_columns` checks: the grid's first, middle and last."""
    grid = list(budgets)
    return sorted({grid[0], grid[len(grid) // 2], grid[-1]}) if grid else []


def check_unread_columns(
    estimator: Any,
    X: np.ndarray,
    column_costs: np.ndarray,
    evaluation: Any,
    budgets: Sequence[float],
    rng: np.random.Generator,
    where: str,
) -> None:
    """Predictions at each checked budget do not change when the columns no example could
    afford (price above the reported ``max_example_cost``) are shuffled across the rows.

    Parameters
    ----------
    estimator : BudgetedEstimator
        Fitted.
    X : ndarray of shape (n_samples, n_features)
        The rows it was evaluated on.
    column_costs : ndarray of shape (n_features,)
        Each column's price alone (its feature group's full price).
    evaluation : BudgetEvaluation
        Its evaluation on ``X`` at ``budgets``.
    rng : numpy Generator
        The shuffles (seeded from the trial's stable key).
    where : str
        Names the algorithm, dataset, cost model and trial in the message.
    """
    grid = list(budgets)
    costs = np.asarray(column_costs, dtype=np.float64)
    if X.shape[0] < 2:
        return
    for budget in checked_budgets(grid):
        paid = float(evaluation.max_example_cost[grid.index(budget)])
        unread = np.flatnonzero(costs > paid + BUDGET_TOLERANCE * max(1.0, paid))
        if not unread.size:
            continue
        shuffled = X.copy()
        order = rng.permuted(np.tile(np.arange(X.shape[0]), (unread.size, 1)), axis=1)
        shuffled[:, unread] = X[order.T, unread[None, :]]
        before = estimator.predict_at_budgets(X, [budget])[0]
        after = estimator.predict_at_budgets(shuffled, [budget])[0]
        changed = int(np.sum(before != after))
        if changed:
            raise ContractError(
                f"{where}, budget {budget:g}: the model reads columns it does not pay for: "
                f"every test example paid at most {paid:g}, so none could read the "
                f"{unread.size} columns priced above it, yet shuffling them changed "
                f"{changed} of {X.shape[0]} predictions",
                budget,
            )


def check_reproducible(
    make: Callable[[], Any],
    fitted: Any,
    fitted_evaluation: Any,
    X_train: np.ndarray,
    y_train: np.ndarray,
    X_test: np.ndarray,
    y_test: np.ndarray,
    budgets: Sequence[float],
    where: str,
) -> None:
    """A twin of the trial's estimator (``make()``: same parameters, same ``random_state``)
    fitted on the same rows scores and evaluates the test rows exactly as the trial's
    estimator (``fitted``, whose evaluation is ``fitted_evaluation``) did."""
    twin = make().fit(X_train, y_train)
    compared = [
        ("decision_function", fitted.decision_function(X_test), twin.decision_function(X_test)),
        *(
            (field.name, getattr(fitted_evaluation, field.name), getattr(evaluation, field.name))
            for evaluation in [twin.evaluate_at_budgets(X_test, y_test, budgets)]
            for field in dataclasses.fields(fitted_evaluation)
        ),
    ]
    for name, first, second in compared:
        first, second = np.asarray(first), np.asarray(second)
        if np.array_equal(first, second):
            continue
        at = int(np.flatnonzero(first != second)[0]) if first.shape == second.shape else 0
        what = "the score of test row" if name == "decision_function" else f"{name} at budget"
        place = at if name == "decision_function" else f"{budgets[at]:g}"
        raise ContractError(
            f"{where}: not reproducible: a second fit with the same parameters and "
            f"random_state on the same rows gave {what} {place} {second.flat[at]:g} where the "
            f"first gave {first.flat[at]:g}; draw every random number from random_state, "
            "never from global state"
        )
