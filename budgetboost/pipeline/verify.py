"""What a train job computes and verifies of an estimator instead of trusting it: the stored
errors are the pipeline's, computed from the labels the model predicts; at every budget each
test example reads only the feature groups it pays for, at the prices stored; and the same
``random_state`` gives the same results.

:func:`measure` computes what a shard stores: the labels at every budget of the contract's
hook ``_scores_and_costs`` (its outputs checked: :mod:`budgetboost.estimators.contract.checks`),
called through :class:`~budgetboost.estimators.contract.base.BudgetedEstimator` itself, the
test and training errors of those labels, and the hook's costs. What a subclass puts in
``predict_at_budgets``, ``evaluate_at_budgets`` or ``groups_read`` is never called, and the
config check refuses a class that overrides them (:data:`NEVER_CALLED`): a plug-in that
reported half its error from its own ``evaluate_at_budgets`` was stored as the best method.

:func:`check_reads_paid_for` checks the labels the shard stores on the question that made
them: the whole test set, in its order, at the whole grid. An estimator could otherwise read
a column it never pays for and report ``spent = 0`` (0.274 test error at a "spent" of 0), at
one budget only, read cheaper columns than it says it pays for (a vote of three columns,
1.35 + 0.53 + 1.65, reported as 1.65), or read an unpaid column only when asked about more
rows than a check samples (0.274 against 0.385 at the same price, passing a check of 8 rows
per budget). The stored question is asked again :data:`CHECK_QUESTIONS` times, each time every
test row checked at one budget (a row's budgets spread over the grid from a random start, so
any row is checked at any budget, each budget on about ``n_rows * CHECK_QUESTIONS /
n_budgets`` rows; every row at every budget on a short grid), with every column it does not
pay for at that budget replaced (a 0/1 column by its other value, any other column by
another test row's: ``_Others``); its label at that budget must be the stored one. The
question differs from the stored one only in the columns replaced, so no model can answer
it differently by the number, order or position of the rows asked about (a model drawing at
random by a row's position, as AdaBoostRS does, draws the same).

- An estimator that says what it reads (``BudgetedEstimator.groups_read``: every estimator
  of the package but SelectThenTrain's LightGBM) is asked for every test row's feature groups
  at every budget; the columns outside them are replaced. The per-example costs stored
  (``mean_example_cost``, ``max_example_cost``; ``spent`` too where every example reads the
  same set) must be the prices of these sets over the whole test set at the cost model's
  prices, discount groups included (:class:`TrialPrices`), within what a sum of the same
  prices in another order differs by (:data:`BUDGET_TOLERANCE`, relative): the estimator's
  own sum is stored, so that a result does not move by a last bit.
- Of an estimator that does not say (a user's own) the job finds what the predictions
  depend on: at each budget the columns priced above the stored ``max_example_cost`` are
  replaced at once on every test row (no example could afford any); then, on
  :data:`PROBE_ROWS` rows, each feature group's columns alone, at every budget: no row may
  depend on a set of groups priced above the ``max_example_cost`` of those rows, nor their
  mean price exceed their ``mean_example_cost``. A dependency seen is a read (nothing honest
  is refused); a read that changes no prediction is not seen, nor harmful. (The probe's own
  evaluation of its rows, not the stored one, bounds what they may read: a model drawing at
  random by a row's position, as AdaBoostRS does, pays otherwise at other positions.)

:func:`check_same_rows`: the same ``random_state`` gives the same results. Once per (cost
model, algorithm) and code version, the train job of the first block of the dataset where
its trials are cheapest fits the block's first trial once more, after the block's other
trials, in the same process (:func:`budgetboost.pipeline.blocks.run_block`'s ``refit``), and
its shard rows must equal the first fit's, column for column (an estimator drawing from
global random state gave 0.529 / 0.429 / 0.588 in three runs): a method that is not
reproducible fails its train job, so the run. (Adding a cheaper dataset moves the check:
two train jobs re-run, their shards the same bytes.) A refit in the same process cannot see
what differs between processes only (hash seeds, import order); the end-to-end tests compare
the shards of runs made by other processes (``tests/workflow/test_workflow.py``).

What no question can tell: a model that keeps what it was asked before (a test row seen by
``groups_read`` or by the stored question, looked up again in a checked one) answers from
memory; the checks assume, as the contract says, that an answer depends on the fitted model
and the question only.

A violation raises :class:`~budgetboost.estimators.contract.checks.ContractError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from budgetboost.estimators.contract.base import BudgetedEstimator, BudgetEvaluation
from budgetboost.estimators.contract.checks import BUDGET_TOLERANCE, ContractError
from budgetboost.estimators.contract.pricing import Pricing
from budgetboost.estimators.contract.validation import (
    check_budgets,
    check_discount_groups,
    check_feature_costs,
    check_feature_groups,
)

__all__ = [
    "CHECK_QUESTIONS",
    "PROBE_CELLS",
    "PROBE_ROWS",
    "NEVER_CALLED",
    "READ_CELLS",
    "TrialPrices",
    "check_reads_paid_for",
    "check_same_rows",
    "measure",
    "never_called",
]

#: Times the stored question is asked again, unpaid columns replaced (each test row checked
#: at one budget each time): every (row, budget) when the grid has no more budgets.
CHECK_QUESTIONS = 4
#: Cells (budgets x rows x feature groups) of the groups read asked of an estimator at once.
READ_CELLS = 1 << 24
#: Test rows whose dependence on each feature group is probed, of an estimator that does not
#: say what it reads (drawn from the trial's verification seed).
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
        """The price of each row's set of groups, ``reads`` (n_rows, n_groups) boolean: each
        distinct set priced once (the examples of a tree read the sets of its few paths)."""
        if reads.shape[0] <= 1 or not reads.shape[1]:
            return self.pricing.set_costs(reads, np.arange(self.n_groups))
        packed = np.packbits(reads, axis=1)
        keys = np.ascontiguousarray(packed).view(np.dtype((np.void, packed.shape[1])))[:, 0]
        _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
        return self.pricing.set_costs(reads[first], np.arange(self.n_groups))[inverse]

    def alone(self) -> np.ndarray:
        """Each column's price alone: its group's, with its discount group's shared part."""
        return self.pricing.prices()[self.group_of_column]


def measure(
    estimator: Any, X: np.ndarray, y: np.ndarray, budgets: Sequence[float]
) -> tuple[np.ndarray, BudgetEvaluation]:
    """The labels of a fitted estimator at each budget and their evaluation against ``y``,
    computed by the pipeline (what a shard stores).

    The scores and costs are those of the contract's hook ``_scores_and_costs``, checked,
    called through :class:`BudgetedEstimator` itself, so that no override of its public
    methods (``predict_at_budgets``, ``evaluate_at_budgets``) or of their helpers enters a
    result; the error is the share of the labels that differ from ``y``, as
    :meth:`BudgetedEstimator.evaluate_at_budgets` computes it.

    Returns
    -------
    labels : ndarray of shape (len(budgets), n_samples)
    evaluation : BudgetEvaluation
        The error of ``labels`` and the costs the hook reports
        (:func:`check_reads_paid_for` checks the test set's against the prices of what each
        example reads).
    """
    labels, costs = _asked(estimator, X, budgets)
    error = wrong_rows(estimator, labels, y).mean(axis=1)
    return labels, BudgetEvaluation(error=error, **costs.as_dict())


def wrong_rows(estimator: Any, labels: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Which of ``labels`` (one row per budget, as :func:`measure` returns them) differ from
    ``y``: a boolean array of their shape, whose row means are :func:`measure`'s errors.

    A shard stores it packed per (trial, budget) (:data:`budgetboost.data.schema.ROW_LOSSES`),
    so the paired tests can tell how much of a trial's variance its test rows explain.
    """
    truth = BudgetedEstimator._checked_y(estimator, y, labels.shape[1])
    return labels != truth[None, :]


#: The public methods of :class:`BudgetedEstimator` whose results the pipeline computes itself
#: (:func:`measure`, :func:`check_reads_paid_for`): an override would never be called.
NEVER_CALLED = ("predict_at_budgets", "evaluate_at_budgets", "groups_read")


def never_called(cls: type) -> list[str]:
    """The methods of :data:`NEVER_CALLED` that the estimator class ``cls`` overrides."""
    return [
        name
        for name in NEVER_CALLED
        if getattr(cls, name, None) is not getattr(BudgetedEstimator, name)
    ]


def _asked(estimator: Any, X: np.ndarray, budgets: Any) -> tuple[np.ndarray, Any]:
    """The labels and :class:`BudgetCosts` of one question, by the base class's own methods."""
    base = BudgetedEstimator
    Xa = base._validated(estimator, X)
    scores, costs = base._checked_scores_and_costs(estimator, Xa, check_budgets(budgets))
    return base._labels(estimator, scores), costs


class _Others(NamedTuple):
    """The values that replace the unpaid ones of each test row: the other value of a 0/1
    column (every indicator of the benchmark's data: a read column then always changes),
    another test row's (a random derangement of the rows) of any other column."""

    values: np.ndarray

    @classmethod
    def draw(cls, rng: np.random.Generator, X: np.ndarray) -> _Others:
        n = X.shape[0]
        other = X[_others(rng, n)] if n > 1 else X.copy()
        binary = np.all((X == 0) | (X == 1), axis=0)
        other[:, binary] = 1 - X[:, binary]
        return cls(other)


def _tolerance(value: float) -> float:
    """What two sums of the same prices in another order may differ by."""
    return BUDGET_TOLERANCE * max(1.0, abs(value))


def _others(rng: np.random.Generator, n: int) -> np.ndarray:
    """Another row for every row: a random derangement (one cycle through a random order)."""
    order = rng.permutation(n)
    other = np.empty(n, dtype=np.intp)
    other[order] = np.roll(order, -1)
    return other


def check_reads_paid_for(
    estimator: Any,
    X: np.ndarray,
    y: np.ndarray,
    labels: np.ndarray,
    evaluation: BudgetEvaluation,
    budgets: Sequence[float],
    prices: TrialPrices,
    rng: np.random.Generator,
    where: str,
) -> str:
    """Each test example reads only what it pays for at every budget, on the stored labels'
    own question, and the costs stored are the prices of what it reads (the module
    docstring).

    Parameters
    ----------
    estimator : BudgetedEstimator
        Fitted.
    X, y : ndarray
        The test rows and their labels.
    labels, evaluation : ndarray, BudgetEvaluation
        :func:`measure` of the estimator on ``(X, y)`` at ``budgets``: what the shard stores.
    budgets : sequence of float
        The grid.
    prices : TrialPrices
        The trial's prices.
    rng : numpy Generator
        The rows whose values replace unread ones, and the rows probed (seeded from the
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
    other = _Others.draw(rng, X).values
    reads = _said_reads(estimator, X, grid, prices, where)
    if reads is None:
        _probe(estimator, X, y, other, labels, evaluation, grid, prices, rng, where)
        return "probed"
    _check_prices(reads, evaluation, grid, prices, where)

    def kept(b: int, rows: np.ndarray) -> np.ndarray:
        read = reads[b]
        return read[rows if read.shape[0] > 1 else [0]][:, prices.group_of_column]

    _replaced_alike(estimator, X, labels, grid, where, kept, other, _outside_reads, rng)
    return "reads"


def _outside_reads(b: int) -> str:
    return (
        "replacing the columns outside the feature groups each test example reads by other values"
    )


def _said_reads(
    estimator: Any, X: np.ndarray, grid: np.ndarray, prices: TrialPrices, where: str
) -> list[np.ndarray] | None:
    """What the estimator says each test row reads at each budget (one boolean array
    (n_rows or 1, n_groups) per budget), asked in blocks of budgets of at most
    :data:`READ_CELLS` cells. None where the estimator does not say."""
    step = max(1, READ_CELLS // max(1, X.shape[0] * prices.n_groups))
    said = []
    for start in range(0, grid.size, step):
        reads = BudgetedEstimator.groups_read(estimator, X, grid[start : start + step])
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
        said.extend(reads)
    return said


def _check_prices(
    reads: list[np.ndarray],
    evaluation: BudgetEvaluation,
    grid: np.ndarray,
    prices: TrialPrices,
    where: str,
) -> None:
    """The per-example costs stored (and ``spent`` where every test row reads one set) are
    the prices of the groups read at the cost model's prices, within what a sum of the same
    prices in another order differs by (:data:`BUDGET_TOLERANCE`, relative)."""
    paid = [prices.set_costs(read) for read in reads]
    said = {
        "mean_example_cost": np.array([p.mean() for p in paid]),
        "max_example_cost": np.array([p.max() for p in paid]),
    }
    shared = np.array([read.shape[0] == 1 for read in reads])
    said["spent"] = np.where(shared, said["max_example_cost"], evaluation.spent)
    for name, price in said.items():
        reported = np.asarray(getattr(evaluation, name))
        off = np.abs(reported - price) > BUDGET_TOLERANCE * np.maximum(
            1.0, np.maximum(np.abs(reported), np.abs(price))
        )
        if off.any():
            b = int(np.flatnonzero(off)[0])
            raise ContractError(
                f"{where}, budget {grid[b]:g}: {name} is {reported[b]:g}, but the feature "
                f"groups the model says the test examples read cost {price[b]:g} at the cost "
                "model's prices",
                float(grid[b]),
            )


def _replaced_alike(
    estimator: Any,
    X: np.ndarray,
    labels: np.ndarray,
    grid: np.ndarray,
    where: str,
    kept: Callable[[int, np.ndarray], np.ndarray],
    other: np.ndarray,
    detail: Callable[[int], str],
    rng: np.random.Generator,
) -> None:
    """Ask the stored question again :data:`CHECK_QUESTIONS` times (every time when the
    grid is shorter), unpaid columns replaced: in each, every test row is checked at one
    budget, its columns outside ``kept(b, rows)`` (boolean, (len(rows) or 1, n_columns))
    replaced by ``other``, and its label at that budget must be the stored one. A row's
    budgets are spread over the grid from a random start, so that each budget is checked on
    about ``n_rows * CHECK_QUESTIONS / n_budgets`` rows, any row at any budget."""
    n, size = X.shape[0], grid.size
    questions = min(size, CHECK_QUESTIONS)
    start, rows = rng.integers(size, size=n), np.arange(n)
    changed = np.zeros(size, dtype=np.intp)
    checked = np.zeros(size, dtype=np.intp)
    for q in range(questions):
        at = (start + (q * size) // questions) % size
        keep = np.empty(X.shape, dtype=bool)
        for b in np.unique(at):
            mine = np.flatnonzero(at == b)
            keep[mine] = kept(int(b), mine)
        question = np.where(keep, X, other)
        same = np.array_equal(question, X)
        answers = labels if same else _asked(estimator, question, grid)[0]
        differ = answers[at, rows] != labels[at, rows]
        changed += np.bincount(at[differ], minlength=size)
        checked += np.bincount(at, minlength=size)
    if changed.any():
        _check_same_answers(estimator, X, labels, grid, where)
        b = int(np.flatnonzero(changed)[0])
        raise ContractError(
            f"{where}, budget {grid[b]:g}: the model reads columns it does not pay for: "
            f"{detail(b)} changed {changed[b]} of the {checked[b]} test predictions checked "
            "at that budget",
            float(grid[b]),
        )


def _check_same_answers(
    estimator: Any, X: np.ndarray, labels: np.ndarray, grid: np.ndarray, where: str
) -> None:
    """Before a model is said to read what it does not pay for: asked the stored question
    again, unchanged, it must give the stored labels (a model drawing from global random
    state changes its answers whatever is replaced)."""
    again = _asked(estimator, X, grid)[0]
    differ = (again != labels).sum(axis=1)
    if differ.any():
        b = int(np.flatnonzero(differ)[0])
        raise ContractError(
            f"{where}, budget {grid[b]:g}: not reproducible: asked the same test rows again, "
            f"unchanged, the model gave {differ[b]} of its {labels.shape[1]} labels otherwise; "
            "draw every random number from random_state, never from global state",
            float(grid[b]),
        )


def _probe(
    estimator: Any,
    X: np.ndarray,
    y: np.ndarray,
    other: np.ndarray,
    labels: np.ndarray,
    evaluation: BudgetEvaluation,
    grid: np.ndarray,
    prices: TrialPrices,
    rng: np.random.Generator,
    where: str,
) -> None:
    """What the predictions depend on, of a model that does not say what it reads (the
    module docstring): at each budget the columns no test example can afford, at once, on the
    stored question; then each group alone, at every budget, on :data:`PROBE_ROWS` rows
    (``_probe_groups``)."""
    if X.shape[0] < 2 or np.array_equal(X, other):
        return
    worst = np.asarray(evaluation.max_example_cost, dtype=np.float64)
    unread = prices.alone()[None, :] > worst[:, None] + BUDGET_TOLERANCE * np.maximum(
        1.0, worst[:, None]
    )

    def kept(b: int, rows: np.ndarray) -> np.ndarray:
        return ~unread[b][None, :]

    def detail(b: int) -> str:
        return (
            f"every test example paid at most {worst[b]:g}, so none could read the "
            f"{int(unread[b].sum())} columns priced above it, yet replacing them by other "
            "values"
        )

    _replaced_alike(estimator, X, labels, grid, where, kept, other, detail, rng)
    n = X.shape[0]
    rows = np.arange(n) if n <= PROBE_ROWS else np.sort(rng.choice(n, PROBE_ROWS, replace=False))
    _probe_groups(estimator, rows, X[rows], other[rows], y[rows], grid, prices, where)


def _probe_groups(
    estimator: Any,
    rows: np.ndarray,
    X: np.ndarray,
    other: np.ndarray,
    y: np.ndarray,
    grid: np.ndarray,
    prices: TrialPrices,
    where: str,
) -> None:
    """Which feature groups the predictions of the test rows ``rows`` (``X``; ``other``
    their replacing values, ``y`` their labels) depend on, at
    every budget: each group's columns replaced alone. The copies of the rows for many groups
    are stacked into one question of at most :data:`PROBE_CELLS` cells, where the model
    answers a row the same wherever it stands (asked once: the unchanged rows stacked as
    many times); one whose answers depend on a row's position (random draws may) is asked
    group by group, the rows where they stand."""
    base, own = measure(estimator, X, y, grid)
    order = np.argsort(prices.group_of_column, kind="stable")
    starts = np.searchsorted(prices.group_of_column[order], np.arange(prices.n_groups + 1))
    columns = [order[starts[g] : starts[g + 1]] for g in range(prices.n_groups)]
    varied = [g for g in range(prices.n_groups) if np.any(X[:, columns[g]] != other[:, columns[g]])]
    per_block = min(len(varied), max(1, PROBE_CELLS // max(1, X.shape[0] * X.shape[1])))
    stacked = per_block > 1 and np.array_equal(
        _asked(estimator, np.tile(X, (per_block, 1)), grid)[0],
        np.tile(base, (1, per_block)),
    )
    per_block = per_block if stacked else 1
    n = X.shape[0]
    depends = np.zeros((grid.size, n, prices.n_groups), dtype=bool)
    for start in range(0, len(varied), per_block):
        block = varied[start : start + per_block]
        replaced = np.tile(X, (len(block), 1))
        for j, g in enumerate(block):
            replaced[j * n : (j + 1) * n, columns[g]] = other[:, columns[g]]
        after = _asked(estimator, replaced, grid)[0].reshape(grid.size, len(block), n)
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
                f"prediction of test row {int(rows[i])} depends on feature groups "
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


def check_same_rows(again: Any, stored: Any, where: str) -> int:
    """The shard rows of a trial fitted again (``again``, a DataFrame) equal those of its
    first fit (``stored``: the same trial's rows), column for column, value for value.

    Returns the number of rows compared. Raises :class:`ContractError` naming the first
    column and budget that differ (an estimator drawing from global random state, or keeping
    anything from one fit to the next, differs on a second fit).
    """
    if len(again) != len(stored) or list(again.columns) != list(stored.columns):
        raise ContractError(
            f"{where}: not reproducible: fitted again, the trial gave {len(again)} rows "
            f"where its first fit gave {len(stored)}"
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
            f"was {second[at]} where its first fit gave {first[at]}; draw every random "
            "number from random_state, never from global state, and keep nothing from one "
            "fit to the next"
        )
    return len(again)


def _missing(values: np.ndarray) -> np.ndarray:
    """Missing values of a column of any dtype (NaN, None): equal to each other here."""
    import pandas as pd

    return np.asarray(pd.isna(values), dtype=bool)
