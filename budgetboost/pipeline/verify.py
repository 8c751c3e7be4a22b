"""What a train job verifies of an estimator instead of trusting it: at every budget, each
test example reads only the feature groups it pays for, the costs reported are the prices of
what it reads, and the same ``random_state`` gives the same results.

The contract (:mod:`budgetboost.estimators.contract.checks`) checks the costs an estimator
*reports*; an estimator could still read a column it never pays for and report ``spent = 0``
(0.274 test error at a "spent" of 0), at one budget only (0.294 at budget 1.0, where the
column read costs 1.35), or read cheaper columns than it says it pays for (a vote of three
columns, 1.35 + 0.53 + 1.65, reported as 1.65). :func:`check_reads` closes that at every
budget of the grid, on a *sample* of the test rows: at each budget :data:`CHECK_ROWS` rows
drawn afresh (every row where there are no more), so any row can be drawn at any budget;
the samples of all budgets are stacked into one matrix, so that the estimator is asked a
few times per trial, whatever the grid (every question at every budget: a model whose
answers depend on a row's position, as AdaBoostRS's random draws do, is asked about the
same positions each time).

- An estimator that says what it reads (``BudgetedEstimator.groups_read``: every estimator
  of the package but SelectThenTrain's LightGBM) has, in each
  budget's sample, every column outside each row's feature groups changed (a 0/1 column to
  its other value, any other column to another test row's: :class:`_Sample`), and no
  prediction at that budget may change. The costs it reports must be the prices of those
  sets at the cost model's prices, discount groups included (:class:`TrialPrices`): the
  stored ``spent``, ``mean_example_cost`` and ``max_example_cost`` where every example
  reads the same set; else the sample's own ``mean_example_cost`` and ``max_example_cost``
  (its evaluation), whose ``error`` must be that of its predictions.
- Of an estimator that does not say (a user's own) the job finds what each prediction
  depends on: at each budget the columns priced above the sample's ``max_example_cost``
  are changed at once (no example checked could afford any); then, on :data:`PROBE_ROWS`
  rows, each feature group's columns alone, at every budget: no row may depend on a set of
  groups priced above the ``max_example_cost`` of those rows, nor their mean price exceed
  their ``mean_example_cost``. A dependency seen is a read (nothing honest is refused); a
  read that changes no prediction is not seen, nor harmful. (The sample's own evaluation,
  not the stored one, bounds what it may read: a model drawing at random by a row's
  position, as AdaBoostRS does, pays otherwise at other positions.)

:func:`check_reproducible`: a second estimator of the same trial (same parameters, same
``random_state``) fitted on the same rows must give the same evaluation, field for field
(an estimator drawing from global random state gave 0.529 / 0.429 / 0.588 in three runs).
Once per (cost model, algorithm) and code version, rule ``reproducible`` fits the first
trial of the dataset where its trials are cheapest twice more, in a job of its own: the two
fits must score alike, and their shard rows equal the train job's, column for column
(:func:`check_same_rows`: across processes); the findings wait for it, so a method that is
not reproducible fails the run. (Adding a cheaper dataset moves the check: the check
re-runs, never a shard.)

A violation raises :class:`~budgetboost.estimators.contract.checks.ContractError`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from budgetboost.estimators.contract.base import BudgetedEstimator
from budgetboost.estimators.contract.checks import BUDGET_TOLERANCE, ContractError
from budgetboost.estimators.contract.pricing import Pricing
from budgetboost.estimators.contract.validation import (
    check_budgets,
    check_discount_groups,
    check_feature_costs,
    check_feature_groups,
)

__all__ = [
    "CHECK_ROWS",
    "PROBE_CELLS",
    "PROBE_ROWS",
    "READ_CELLS",
    "TrialPrices",
    "check_reads",
    "check_reproducible",
    "check_same_rows",
]

#: Test rows checked at each budget, drawn afresh at each (every row when there are no more).
CHECK_ROWS = 8
#: Cells (budgets x rows x feature groups) of the groups read asked of an estimator at once.
READ_CELLS = 1 << 24
#: Test rows whose dependence on each feature group is probed, of an estimator that does not
#: say what it reads (the first rows of the sample).
PROBE_ROWS = 16
#: Cells (rows x columns) of one question of the probe: the copies of many groups stacked.
PROBE_CELLS = 1 << 22


class TrialPrices(NamedTuple):
    """A trial's prices as the job knows them, whatever the estimator says: the feature
    group of each column and the groups' :class:`Pricing` (with discount groups)."""

    group_of_column: np.ndarray
    pricing: Pricing

    @classmethod
    def of(
        cls,
        feature_costs: np.ndarray,
        feature_groups: np.ndarray | None = None,
        discounts: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> TrialPrices:
        """The prices of the columns given to the estimator, computed as its ``fit`` does
        (``validation.check_feature_groups``, ``check_discount_groups``)."""
        costs = check_feature_costs(feature_costs, np.asarray(feature_costs).size)
        group_of_column, group_cost = check_feature_groups(feature_groups, costs)
        groups, prices = (None, None) if discounts is None else discounts
        pricing = check_discount_groups(groups, prices, costs, group_of_column, group_cost)
        return cls(group_of_column, pricing)

    @property
    def n_groups(self) -> int:
        return int(self.pricing.cost.size)

    def set_costs(self, reads: np.ndarray) -> np.ndarray:
        """The price of each row's set of groups, ``reads`` (n_rows, n_groups) boolean."""
        return self.pricing.set_costs(reads, np.arange(self.n_groups))

    def alone(self) -> np.ndarray:
        """Each column's price alone: its group's, with its discount group's shared part."""
        return self.pricing.prices()[self.group_of_column]


class _Sample(NamedTuple):
    """The test rows checked: each budget's rows, stacked (see the module docstring), and
    the values that replace theirs: the other value of a 0/1 column (every indicator of the
    benchmark's data: a read column then always changes), another test row's (a random
    derangement of the rows) of any other column."""

    rows: np.ndarray  # test row of each sampled row
    budget: np.ndarray  # the budget (grid position) each sampled row is checked at
    X: np.ndarray
    y: np.ndarray
    other: np.ndarray  # other values of each sampled row (:meth:`draw`)

    @classmethod
    def draw(
        cls, rng: np.random.Generator, X: np.ndarray, y: np.ndarray, n_budgets: int
    ) -> _Sample:
        n = X.shape[0]
        parts = [
            np.arange(n) if n <= CHECK_ROWS else np.sort(rng.choice(n, CHECK_ROWS, replace=False))
            for _ in range(n_budgets)
        ]
        rows = np.concatenate(parts) if parts else np.zeros(0, dtype=np.intp)
        budget = np.repeat(np.arange(n_budgets), [part.size for part in parts])
        mine = X[rows]
        other = X[_others(rng, n)[rows] if n > 1 else rows]
        binary = np.all((X == 0) | (X == 1), axis=0)  # the indicators: each value changed
        other[:, binary] = 1 - mine[:, binary]
        return cls(rows, budget, mine, np.asarray(y)[rows], other)


def _tolerance(value: float) -> float:
    """What two sums of the same prices in another order may differ by."""
    return BUDGET_TOLERANCE * max(1.0, abs(value))


def _others(rng: np.random.Generator, n: int) -> np.ndarray:
    """Another row for every row: a random derangement (one cycle through a random order)."""
    order = rng.permutation(n)
    other = np.empty(n, dtype=np.intp)
    other[order] = np.roll(order, -1)
    return other


def check_reads(
    estimator: Any,
    X: np.ndarray,
    y: np.ndarray,
    evaluation: Any,
    budgets: Sequence[float],
    prices: TrialPrices,
    rng: np.random.Generator,
    where: str,
) -> str:
    """Each test example reads only what it pays for at every budget (the module docstring).

    Parameters
    ----------
    estimator : BudgetedEstimator
        Fitted.
    X, y : ndarray
        The rows it was evaluated on and their labels.
    evaluation : BudgetEvaluation
        Its evaluation on ``(X, y)`` at ``budgets``: what the shard stores.
    budgets : sequence of float
        The grid.
    prices : TrialPrices
        The trial's prices.
    rng : numpy Generator
        The rows checked and the rows whose values replace unread ones (seeded from the
        trial's stable key).
    where : str
        Names the algorithm, dataset, cost model and trial in the message.

    Returns
    -------
    str
        ``"reads"`` (the estimator said what it reads), ``"probed"`` (it did not: what its
        predictions depend on was found) or ``"empty"`` (no test row).
    """
    grid = np.asarray(list(budgets), dtype=np.float64)
    if not X.shape[0] or not grid.size:
        return "empty"
    sample = _Sample.draw(rng, X, y, grid.size)
    said = _said_reads(estimator, sample, grid, prices, where)
    if said is None:
        _probe(estimator, sample, grid, prices, where)
        return "probed"
    paid, shared, replaced = said
    if shared:  # every example reads the model's set: the stored costs are its price
        before = estimator.predict_at_budgets(sample.X, grid)
        for b, budget in enumerate(grid):
            _check_prices(paid[b], evaluation, b, budget, where, spent=True)
    else:  # the sample's own evaluation: its costs are the prices of what it reads
        before, own = _evaluated(estimator, sample.X, sample.y, grid)
        for b, budget in enumerate(grid):
            _check_prices(paid[b], own, b, budget, where)
            _check_error(before[b], sample.y, float(own.error[b]), budget, where)
    if X.shape[0] < 2:
        return "reads"
    after = estimator.predict_at_budgets(replaced, grid)
    at = (sample.budget, np.arange(sample.rows.size))
    changed = np.bincount(sample.budget[after[at] != before[at]], minlength=grid.size)
    if changed.any():
        b = int(np.flatnonzero(changed)[0])
        raise ContractError(
            f"{where}, budget {grid[b]:g}: the model reads columns it does not pay for: "
            "replacing the columns outside the feature groups each test example reads by "
            f"another example's values changed {changed[b]} of the "
            f"{int(np.sum(sample.budget == b))} predictions checked",
            float(grid[b]),
        )
    return "reads"


def _evaluated(estimator: Any, X: np.ndarray, y: np.ndarray, grid: np.ndarray) -> tuple:
    """``(predict_at_budgets(X, grid), evaluate_at_budgets(X, y, grid))``, computed once
    where the estimator keeps the base class's two methods (every estimator of the package:
    both are read off one ``_scores_and_costs``, checked), else by its own two methods."""
    cls = type(estimator)
    if (
        cls.predict_at_budgets is BudgetedEstimator.predict_at_budgets
        and cls.evaluate_at_budgets is BudgetedEstimator.evaluate_at_budgets
    ):
        Xa = estimator._validated(X)
        scores, costs = estimator._checked_scores_and_costs(Xa, check_budgets(grid))
        labels = estimator._checked_y(y, Xa.shape[0])
        return estimator._labels(scores), estimator._evaluation(scores, costs, labels)
    return estimator.predict_at_budgets(X, grid), estimator.evaluate_at_budgets(X, y, grid)


def _said_reads(
    estimator: Any, sample: _Sample, grid: np.ndarray, prices: TrialPrices, where: str
) -> tuple[list[np.ndarray], bool, np.ndarray] | None:
    """What the estimator says the sampled rows read, asked in blocks of budgets of at most
    :data:`READ_CELLS` cells: the price of each row's set at each budget (one price where
    every row reads the same set), whether every row reads the same set at every budget,
    and the sample with every column outside the set of each row replaced, at the row's
    budget. None where the estimator does not say."""
    n_rows = sample.rows.size
    step = max(1, READ_CELLS // max(1, n_rows * prices.n_groups))
    paid, shared, replaced = [], True, sample.X.copy()
    for start in range(0, grid.size, step):
        reads = estimator.groups_read(sample.X, grid[start : start + step])
        if reads is None:
            if start:
                raise ContractError(
                    f"{where}: groups_read says what the model reads at some budgets only"
                )
            return None
        if reads.shape[2] != prices.n_groups:
            raise ContractError(
                f"{where}: the model says it reads {reads.shape[2]} feature groups; the "
                f"trial has {prices.n_groups}"
            )
        for offset, read in enumerate(reads):
            b = start + offset
            paid.append(prices.set_costs(read))
            shared &= read.shape[0] == 1
            mine = np.flatnonzero(sample.budget == b)
            keep = read[mine if read.shape[0] > 1 else [0]][:, prices.group_of_column]
            replaced[mine] = np.where(keep, sample.X[mine], sample.other[mine])
    return paid, shared, replaced


def _check_prices(
    paid: np.ndarray,
    evaluation: Any,
    b: int,
    budget: float,
    where: str,
    spent: bool = False,
) -> None:
    """The costs reported at budget ``b`` are the prices of the groups read (``paid``:
    the price of each row's set); ``spent`` too, where every example reads one set."""
    said = {"mean_example_cost": float(paid.mean()), "max_example_cost": float(paid.max())}
    if spent:
        said["spent"] = said["max_example_cost"]
    for name, price in said.items():
        reported = float(getattr(evaluation, name)[b])
        if abs(reported - price) > _tolerance(max(reported, price)):
            raise ContractError(
                f"{where}, budget {budget:g}: {name} is {reported:g}, but the feature groups "
                f"the model says the test examples read cost {price:g} at the cost model's "
                "prices",
                float(budget),
            )


def _check_error(labels: np.ndarray, y: np.ndarray, stored: float, budget: float, where: str):
    """The predictions checked are those whose error is reported."""
    error = float(np.mean(labels != y))
    if error != stored:
        raise ContractError(
            f"{where}, budget {budget:g}: evaluate_at_budgets reports error {stored:g}, but "
            f"predict_at_budgets errs on {error:g} of the same test rows",
            float(budget),
        )


def _probe(
    estimator: Any,
    sample: _Sample,
    grid: np.ndarray,
    prices: TrialPrices,
    where: str,
) -> None:
    """What each sampled prediction depends on, of a model that does not say what it reads
    (the module docstring): at each budget the columns no example can afford, at once; then
    each group alone, at every budget (:func:`_probe_groups`)."""
    before, own = _evaluated(estimator, sample.X, sample.y, grid)
    for b, budget in enumerate(grid):
        _check_error(before[b], sample.y, float(own.error[b]), budget, where)
    if sample.X.shape[0] < 2 or np.array_equal(sample.X, sample.other):
        return
    worst = np.asarray(own.max_example_cost, dtype=np.float64)  # at the sample's positions
    alone = prices.alone()
    unread = alone[None, :] > worst[sample.budget, None] + BUDGET_TOLERANCE * np.maximum(
        1.0, worst[sample.budget, None]
    )
    at = (sample.budget, np.arange(sample.rows.size))
    if unread.any():
        replaced = np.where(unread, sample.other, sample.X)
        changed = np.bincount(
            sample.budget[estimator.predict_at_budgets(replaced, grid)[at] != before[at]],
            minlength=grid.size,
        )
        if changed.any():
            b = int(np.flatnonzero(changed)[0])
            raise ContractError(
                f"{where}, budget {grid[b]:g}: the model reads columns it does not pay for: "
                f"every example checked paid at most {worst[b]:g}, so none could read the "
                f"{int(unread[sample.budget == b][0].sum())} columns priced above it, yet "
                f"replacing them by other examples' values changed {changed[b]} of the "
                f"{int(np.sum(sample.budget == b))} predictions checked",
                float(grid[b]),
            )
    _probe_groups(estimator, sample, grid, prices, where)


def _probe_groups(
    estimator: Any,
    sample: _Sample,
    grid: np.ndarray,
    prices: TrialPrices,
    where: str,
) -> None:
    """Which feature groups each of :data:`PROBE_ROWS` sampled predictions depends on, at
    every budget: each group's columns replaced alone. The copies of the rows for many groups
    are stacked into one question of at most :data:`PROBE_CELLS` cells, where the model
    answers a row the same wherever it stands (asked once: the unchanged rows stacked as
    many times); one whose answers depend on a row's position (random draws may) is asked
    group by group, the rows where they stand."""
    rows = min(PROBE_ROWS, sample.rows.size)
    X, other, y = sample.X[:rows], sample.other[:rows], sample.y[:rows]
    base, own = _evaluated(estimator, X, y, grid)
    order = np.argsort(prices.group_of_column, kind="stable")
    starts = np.searchsorted(prices.group_of_column[order], np.arange(prices.n_groups + 1))
    columns = [order[starts[g] : starts[g + 1]] for g in range(prices.n_groups)]
    varied = [g for g in range(prices.n_groups) if np.any(X[:, columns[g]] != other[:, columns[g]])]
    per_block = min(len(varied), max(1, PROBE_CELLS // max(1, rows * X.shape[1])))
    stacked = per_block > 1 and np.array_equal(
        estimator.predict_at_budgets(np.tile(X, (per_block, 1)), grid),
        np.tile(base, (1, per_block)),
    )
    per_block = per_block if stacked else 1
    depends = np.zeros((grid.size, rows, prices.n_groups), dtype=bool)
    for start in range(0, len(varied), per_block):
        block = varied[start : start + per_block]
        replaced = np.tile(X, (len(block), 1))
        for j, g in enumerate(block):
            replaced[j * rows : (j + 1) * rows, columns[g]] = other[:, columns[g]]
        after = estimator.predict_at_budgets(replaced, grid).reshape(grid.size, len(block), rows)
        depends[:, :, block] = (after != base[:, None, :]).transpose(0, 2, 1)
    worst = np.asarray(own.max_example_cost, dtype=np.float64)
    mean = np.asarray(own.mean_example_cost, dtype=np.float64)
    for b, budget in enumerate(grid):
        paid = prices.set_costs(depends[b])
        over = paid > worst[b] + _tolerance(worst[b])
        if over.any():
            i = int(np.flatnonzero(over)[0])
            groups = np.flatnonzero(depends[b, i]).tolist()
            raise ContractError(
                f"{where}, budget {budget:g}: the model reads more than it reports: the "
                f"prediction of test row {int(sample.rows[i])} depends on feature groups "
                f"{groups}, priced {paid[i]:g} at the cost model's prices, above the "
                f"max_example_cost {worst[b]:g} reported",
                float(budget),
            )
        if paid.mean() > mean[b] + _tolerance(mean[b]):
            raise ContractError(
                f"{where}, budget {budget:g}: the model reads more than it reports: the "
                f"feature groups the test predictions depend on cost {paid.mean():g} per "
                f"example on average, above the mean_example_cost {mean[b]:g} reported",
                float(budget),
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


def check_same_rows(again: Any, stored: Any, where: str) -> int:
    """The shard rows of a trial fitted again (``again``, a DataFrame) equal those the train
    job stored (``stored``: the same trials' rows), column for column, value for value.

    Returns the number of rows compared. Raises :class:`ContractError` naming the first
    column and budget that differ (an estimator drawing from global random state, or from
    anything else than its parameters and rows, differs between two processes).
    """
    if len(again) != len(stored) or list(again.columns) != list(stored.columns):
        raise ContractError(
            f"{where}: not reproducible: fitted again, the trial gave {len(again)} rows "
            f"where its shard holds {len(stored)}"
        )
    again, stored = again.reset_index(drop=True), stored.reset_index(drop=True)
    for column in again.columns:
        first, second = stored[column].to_numpy(), again[column].to_numpy()
        same = (first == second) | (_missing(first) & _missing(second))
        if same.all():
            continue
        at = int(np.flatnonzero(~same)[0])
        raise ContractError(
            f"{where}: not reproducible: fitted again with the same parameters and "
            f"random_state on the same rows, {column} at budget {stored['budget'].iat[at]:g} "
            f"was {second[at]} where the train job's shard holds {first[at]}; draw every "
            "random number from random_state, never from global state"
        )
    return len(again)


def _missing(values: np.ndarray) -> np.ndarray:
    """Missing values of a column of any dtype (NaN, None): equal to each other here."""
    import pandas as pd

    return np.asarray(pd.isna(values), dtype=bool)
