"""One training block: its trials' splits and costs, fit, evaluate the budget grid.

The pipeline's ``train`` rule calls :func:`run_block` for a block of trials of one
(dataset, cost model, algorithm): each trial's estimator is built from the algorithm's
:class:`~budgetboost.pipeline.specs.AlgorithmSpec`, fitted once (or once per budget) and
evaluated at every budget of the grid; one train job per (cost model, algorithm) fits one
of its trials once more and compares the rows (``refit``: the reproducibility check). The
shard holds no wall-clock value, so it is byte-identical whatever ``--cores``, block size or
job order; fit and predict times go to a separate timings table.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from budgetboost.data.costs import make_costs
from budgetboost.data.schema import ROW_LOSSES, SHARD_COLUMNS, STUMP_COLUMNS, TIMING_COLUMNS
from budgetboost.data.seeds import seed_from_key
from budgetboost.data.splits import check_training_classes, split_indices
from budgetboost.estimators.contract.base import BudgetEvaluation
from budgetboost.estimators.contract.checks import ContractError
from budgetboost.estimators.contract.validation import check_budgets
from budgetboost.pipeline.code import package_version
from budgetboost.pipeline.specs import AlgorithmSpec, constructor_params, make_estimator
from budgetboost.pipeline.verify import (
    TrialPrices,
    check_reads_paid_for,
    check_same_rows,
    measure,
    wrong_rows,
)

__all__ = [
    "BlockInputs",
    "Offered",
    "block_inputs",
    "cost_rows",
    "discount_rows",
    "fit_block",
    "run_block",
    "run_block_on",
    "run_trial",
    "shard_metadata",
]

# the cost fields of the evaluation the pipeline computes (verify.measure,
# verify.check_reads_paid_for)
_EVAL_KEYS = tuple(f.name for f in dataclasses.fields(BudgetEvaluation) if f.name != "error")


@dataclass(frozen=True)
class BlockInputs:
    """What the trials of one block train on besides the data (see :func:`block_inputs`).

    Attributes
    ----------
    splits : dict
        ``{trial: (train_idx, test_idx)}``.
    costs : dict
        ``{trial: cost vector over the columns}``.
    grouped : bool
        The cost model pays the indicators of one raw attribute together.
    discounts : dict
        ``{trial: (discount groups, discount prices)}`` over the columns, where the cost
        model has Turney's discount groups (the cost table's ``extra``); empty otherwise.
    """

    splits: dict[int, tuple[np.ndarray, np.ndarray]]
    costs: dict[int, np.ndarray]
    grouped: bool
    discounts: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict)

    def discount_params(self, trial: int) -> dict[str, np.ndarray]:
        """``discount_groups`` and ``discount_costs`` of a trial for ``make_estimator``
        (none without discount groups)."""
        if trial not in self.discounts:
            return {}
        groups, costs = self.discounts[trial]
        return {"discount_groups": groups, "discount_costs": costs}


def block_inputs(
    data: Any,
    *,
    dataset: str,
    cost_model: str,
    cost_spec: Mapping[str, Any],
    train_size: int,
    test_size: int,
    trials: Sequence[int],
    root: str | Path = ".",
) -> BlockInputs:
    """The splits and feature costs of a block's trials, drawn from their stable seeds.

    Each trial's split (``("split", dataset, trial)``) and costs (``("costs", dataset,
    cost_model, trial)``) depend on nothing but the trial and the inputs named here, so a
    train job computes its own rather than reading them from files made by other jobs: its
    declared inputs are then exactly what its shard depends on, and a change of any of them
    (data, sizes, spec, cost file, the split or cost code) re-runs it in the same run. They
    are the same values as in ``results/splits/`` and ``results/costs/``, which are made by
    the same functions for readers and for the claims.

    Parameters
    ----------
    data : BinarizedData
        The binarized dataset.
    dataset, cost_model : str
        Names in the seed keys.
    cost_spec : mapping
        The cost model's spec (``costs.make_costs``).
    train_size, test_size : int
        Table 1's sizes.
    trials : sequence of int
        The block's trials.
    root : path-like
        Repository root, for a ``real`` cost model's relative cost file.
    """
    n_rows = len(data.y)
    check_training_classes(dataset, data.y, train_size, test_size, [int(t) for t in trials])
    splits = {int(t): split_indices(dataset, int(t), n_rows, train_size, test_size) for t in trials}
    table = make_costs(dataset, cost_model, cost_spec, data, splits, list(splits), root)
    return BlockInputs(
        splits=splits,
        costs=cost_rows(table),
        grouped=table.grouped,
        discounts=discount_rows(table),
    )


def run_block_on(
    data: Any,
    inputs: BlockInputs,
    *,
    dataset: str,
    cost_model: str,
    spec: AlgorithmSpec,
    budgets: Sequence[float],
    trials: Sequence[int],
    paths: Mapping[int, Any] | None = None,
    refit: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """:func:`run_block` on a binarized dataset (``X``, ``y``, ``groups``) and its block's
    splits and costs (:func:`block_inputs`)."""
    return run_block(
        X=data.X,
        y=data.y,
        groups=data.groups,
        splits=inputs.splits,
        costs=inputs.costs,
        grouped=inputs.grouped,
        dataset=dataset,
        cost_model=cost_model,
        spec=spec,
        budgets=budgets,
        trials=trials,
        paths=paths,
        discounts=inputs.discounts,
        progress=progress,
        refit=refit,
    )


def fit_block(
    data_path: str | Path,
    path_files: Sequence[str | Path],
    *,
    dataset: str,
    cost_model: str,
    spec: AlgorithmSpec,
    cost_spec: Mapping[str, Any],
    split: Mapping[str, Any],
    budgets: Sequence[float],
    trials: Sequence[int],
    isolated: Callable[[], Any],
    progress: Callable[[str], None] | None = None,
    refit: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """:func:`run_block` on a train job's inputs: the binarized dataset at ``data_path``,
    the block's trials' splits and costs drawn from their stable seeds
    (:func:`block_inputs`), and the shared AdaBoost paths in ``path_files`` (for a spec with
    ``adaboost_path``). ``isolated()`` is the context the estimators run in
    (:meth:`budgetboost.pipeline.job.Job.isolated`); ``refit`` is :func:`run_block`'s (the
    reproducibility check, in the same context)."""
    from budgetboost.data.datasets import read_binarized
    from budgetboost.estimators.contract.registry import estimator_class

    data = read_binarized(data_path)
    inputs = block_inputs(
        data,
        dataset=dataset,
        cost_model=cost_model,
        cost_spec=dict(cost_spec),
        train_size=split["train_size"],
        test_size=split["test_size"],
        trials=trials,
    )
    paths = None
    if path_files:  # imported only here: other shards do not depend on the boosting code
        from budgetboost.pipeline.adaboost_path import read_adaboost_paths

        paths = {}
        for path in path_files:  # the path's blocks that hold this block's trials
            paths.update(read_adaboost_paths(path))
    estimator_class(spec.estimator)  # imported here, before the working directory changes
    with isolated():
        return run_block_on(
            data,
            inputs,
            dataset=dataset,
            cost_model=cost_model,
            spec=spec,
            budgets=budgets,
            trials=trials,
            paths=paths,
            refit=refit,
            progress=progress,
        )


def run_block(
    *,
    X: np.ndarray,
    y: np.ndarray,
    groups: np.ndarray | None,
    splits: Mapping[int, tuple[np.ndarray, np.ndarray]],
    costs: Mapping[int, np.ndarray],
    grouped: bool,
    dataset: str,
    cost_model: str,
    spec: AlgorithmSpec,
    budgets: Sequence[float],
    trials: Sequence[int],
    paths: Mapping[int, Any] | None = None,
    discounts: Mapping[int, tuple[np.ndarray, np.ndarray]] | None = None,
    progress: Callable[[str], None] | None = None,
    refit: int | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Fit and evaluate ``spec`` on each trial of a block.

    A column whose cost is ``inf`` (a test the cost model does not offer: no price known) is
    dropped from the trial's ``X`` before the estimator sees it, so no method can read it;
    the stumps table keeps the dataset's column numbers. Such a trial boosts anew where the
    spec reads the shared AdaBoost path (fitted on every column): the same ensemble the path
    would give on the offered columns.

    Parameters
    ----------
    X, y : ndarray
        The binarized dataset (all rows); ``splits`` index into it.
    groups : ndarray or None
        Raw-attribute index per column, passed as ``feature_groups`` when ``grouped``.
    splits : mapping
        ``{trial: (train_idx, test_idx)}`` (``splits.read_splits``).
    costs : mapping
        ``{trial: cost vector over the columns}``.
    grouped : bool
        Whether the cost model pays the indicators of one raw attribute together.
    dataset, cost_model : str
        Names written to the shard and used in the seed keys.
    spec : AlgorithmSpec
        The algorithm (see :func:`algorithm_spec`).
    budgets : sequence of float
        The budget grid; ignored (replaced by ``[inf]``) for an unbudgeted spec.
    trials : sequence of int
        The block's trials.
    paths : mapping, optional
        ``{trial: shared plain AdaBoost path}`` (``budgetboost.pipeline.adaboost_path``), for a spec
        with ``adaboost_path``.
    discounts : mapping, optional
        ``{trial: (discount groups, discount prices)}`` over the columns (:class:`BlockInputs`),
        passed as ``discount_groups`` and ``discount_costs``.
    progress : callable, optional
        Told, before each trial, which one starts (``"algorithm 'greedy', dataset 'heart',
        cost model 'uniform_0_2', trial 3"``): the job's log, and its message should the
        job run past its time; with ``refit``, also the refit and the rows found the same.
    refit : int, optional
        A trial of the block to fit once more after all of them, in this process: its rows
        must equal those of its first fit, column for column
        (:func:`~budgetboost.pipeline.verify.check_same_rows`; a difference raises
        :class:`ContractError`). It is the pipeline's reproducibility check, asked of one
        train job per (cost model, algorithm)
        (:meth:`budgetboost.pipeline.plan.Plan.checked_trial`). Fitted after the block's
        other trials, the refit shows what a fit leaves to the next (state kept on a class
        or module, caches, draws from global random state) and what differs from one fit to
        the next in a process (threads). One fit, not two: a twin fitted right after the
        first and compared on its scores (``decision_function``) would cost a second extra
        fit to see differences that change no stored value (every value of the shard is
        compared: errors and costs at each budget, per-row losses, trade-offs), and, fitted
        before the other trials, would miss what they leave behind. What a refit in the same
        process cannot see is what differs between processes only (hash seeds, import
        order): the end-to-end tests compare whole runs made by other processes
        (``tests/workflow/test_workflow.py``: the same shards byte for byte with
        ``--cores 1``, with other blocks, after a killed run).

    Returns
    -------
    shard : DataFrame
        One row per (trial, budget), columns :data:`SHARD_COLUMNS` and
        :data:`~budgetboost.data.schema.ROW_LOSSES`; no wall-clock values.
    timings : DataFrame
        One row per trial, columns :data:`TIMING_COLUMNS`.
    stumps : DataFrame
        The stumps a booster chose, one row per (trial, round), columns
        :data:`STUMP_COLUMNS` (empty for estimators without a stump path, e.g. trees). For
        claim 4: SpeedBoost's choices against Greedy's.
    """
    grid = check_budgets([math.inf] if spec.unbudgeted else budgets, increasing=True).tolist()
    if not len(trials):
        raise ValueError(f"{dataset}/{cost_model}/{spec.name}: the block has no trials")
    if refit is not None and refit not in trials:
        raise ValueError(
            f"{dataset}/{cost_model}/{spec.name}: trial {refit}, to be fitted again, is not "
            f"one of the block's trials {list(trials)}"
        )
    feature_groups = np.asarray(groups) if grouped else None
    if grouped and groups is None:
        raise ValueError(
            f"{dataset}/{cost_model}: the cost model is grouped but the data has no feature groups"
        )
    parts, timing_rows, stump_parts = [], [], []
    for trial in trials:
        if trial not in splits:
            raise ValueError(
                f"{dataset}: trial {trial} is not in the splits "
                f"(trials {min(splits)}..{max(splits)})"
            )
        if trial not in costs:
            raise ValueError(f"{dataset}/{cost_model}: trial {trial} is not in the costs")
        train_idx, test_idx = splits[trial]
        if progress is not None:
            progress(_where(spec.name, dataset, cost_model, trial))
        offered = Offered.of(X, costs[trial], feature_groups, (discounts or {}).get(trial))
        trial_spec, path = spec, (paths or {}).get(trial)
        if offered.columns is not None and spec.adaboost_path:  # the path reads every column
            trial_spec, path = dataclasses.replace(spec, adaboost_path=False), None
        columns, fit_seconds, predict_seconds, estimator = run_trial(
            offered.X,
            y,
            train_idx,
            test_idx,
            offered.costs,
            offered.groups,
            grid,
            dataset=dataset,
            cost_model=cost_model,
            spec=trial_spec,
            trial=trial,
            adaboost_path=path,
            discounts=offered.discounts,
        )
        parts.append(pd.DataFrame(columns))
        stump_parts.append(_stump_rows(estimator, trial, offered.columns))
        timing_rows.append((trial, fit_seconds, predict_seconds))
    rows = pd.concat(parts, ignore_index=True)
    shard = _typed(rows, SHARD_COLUMNS, dataset=dataset, cost_model=cost_model, algorithm=spec.name)
    shard[ROW_LOSSES] = pd.Series(list(rows[ROW_LOSSES]), dtype=object)
    timings = _typed(pd.DataFrame(timing_rows, columns=list(TIMING_COLUMNS)), TIMING_COLUMNS)
    stumps = _typed(
        pd.concat(stump_parts, ignore_index=True),
        STUMP_COLUMNS,
        dataset=dataset,
        cost_model=cost_model,
        algorithm=spec.name,
    )
    if refit is not None:  # the same trial again, after the others, in this process
        where = _where(spec.name, dataset, cost_model, refit)
        if progress is not None:
            progress(f"{where}: fitted again, to check that it is reproducible")
        again, _, _ = run_block(
            X=X,
            y=y,
            groups=groups,
            splits={refit: splits[refit]},
            costs={refit: costs[refit]},
            grouped=grouped,
            dataset=dataset,
            cost_model=cost_model,
            spec=spec,
            budgets=budgets,
            trials=[refit],
            paths=paths,
            discounts=discounts,
        )
        same = check_same_rows(again, shard[shard["trial"] == refit], where)
        if progress is not None:
            progress(f"{where}: {same} rows the same when fitted again")
    return shard, timings, stumps


@dataclass(frozen=True)
class Offered:
    """A trial's data restricted to the columns its cost model offers (finite costs)."""

    X: np.ndarray
    costs: np.ndarray
    groups: np.ndarray | None
    discounts: tuple[np.ndarray, np.ndarray] | None
    columns: np.ndarray | None  # the offered columns, None: every column

    @classmethod
    def of(cls, X, costs, groups, discounts) -> Offered:
        costs = np.asarray(costs, dtype=np.float64)
        offered = np.isfinite(costs)
        if offered.all():
            return cls(X, costs, groups, discounts, None)
        if not offered.any():
            raise ValueError("the cost model offers no column (every cost is inf)")
        columns = np.flatnonzero(offered)
        return cls(
            X[:, columns],
            costs[columns],
            None if groups is None else np.asarray(groups)[columns],
            None if discounts is None else tuple(np.asarray(d)[columns] for d in discounts),
            columns,
        )


def discount_rows(table: Any) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """``{trial: (discount groups, discount prices)}`` of a ``CostTable`` whose kind hands
    on Turney's discount groups (``extra``), else ``{}``."""
    extra = getattr(table, "extra", {}) or {}
    if "discount_group" not in extra:
        return {}
    trials = np.asarray(table.trials).reshape(-1)
    return {
        int(t): (extra["discount_group"][i], extra["discount_cost"][i])
        for i, t in enumerate(trials)
    }


def _stump_rows(estimator: Any, trial: int, columns: np.ndarray | None = None) -> pd.DataFrame:
    """Round-by-round stumps of a fitted BudgetedBoost (none for other estimators), by the
    dataset's column numbers (``columns``: the trial's offered columns, None: all)."""
    if not hasattr(estimator, "spent_"):
        return pd.DataFrame({c: [] for c in ("trial", "round", "feature", "threshold", "polarity")})
    n = len(estimator.feature_)
    return pd.DataFrame(
        {
            "trial": np.full(n, trial),
            "round": np.arange(n),
            "feature": estimator.feature_ if columns is None else columns[estimator.feature_],
            "threshold": estimator.threshold_,
            "polarity": estimator.polarity_,
        }
    )


def cost_rows(table: Any, source: str | Path = "costs") -> dict[int, np.ndarray]:
    """``{trial: cost vector}`` of a ``CostTable`` (``trials``, ``costs`` T x n)."""
    trials = np.asarray(table.trials).reshape(-1)
    matrix = np.asarray(table.costs, dtype=np.float64)
    if matrix.ndim != 2 or matrix.shape[0] != trials.size:
        raise ValueError(
            f"{source}: expected one cost vector per trial, got costs of shape "
            f"{matrix.shape} for {trials.size} trials"
        )
    return {int(t): matrix[i] for i, t in enumerate(trials)}


def shard_metadata(
    *,
    dataset: str,
    cost_model: str,
    spec: AlgorithmSpec,
    trials: Sequence[int],
    budgets: Sequence[float],
    extra: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The run metadata stored in a shard's Parquet schema (package version, params, seeds)."""
    seeded = "random_state" in constructor_params(spec.estimator)
    return {
        "package": "budgetboost",
        "version": package_version(),
        "dataset": dataset,
        "cost_model": cost_model,
        "algorithm": spec.name,
        "estimator": spec.estimator,
        "params": spec.params,
        "unbudgeted": spec.unbudgeted,
        "refit_per_budget": spec.refit_per_budget,
        "trials": [int(t) for t in trials],
        "budgets": ["inf"] if spec.unbudgeted else [float(b) for b in budgets],
        "seeds": {
            "split": "seed_from_key('split', dataset, trial)",
            "costs": "seed_from_key('costs', dataset, cost_model, trial)",
            "random_state": (
                {
                    str(t): str(seed_from_key("sampling", dataset, cost_model, spec.name, t))
                    for t in trials
                }
                if seeded
                else None
            ),
        },
        **dict(extra or {}),
    }


def run_trial(
    X,
    y,
    train_idx,
    test_idx,
    feature_costs,
    feature_groups,
    grid,
    *,
    dataset,
    cost_model,
    spec,
    trial,
    adaboost_path=None,
    discounts=None,
):
    """One trial of :func:`run_block` on its offered columns (:class:`Offered`): the
    estimator built as the job builds it, fitted, and evaluated at ``grid`` on the test and
    the training rows by the pipeline, from the labels it predicts and the prices of the
    feature groups each test example reads (:mod:`budgetboost.pipeline.verify`: the
    estimator's own ``evaluate_at_budgets`` is never called; at every budget, each test
    example reads only the groups it pays for).

    Returns ``(columns, fit_seconds, predict_seconds, estimator)``: the shard's columns of
    the trial, and the (last) fitted estimator, for benchmarks that read its choices.
    """
    X_train, y_train = X[train_idx], y[train_idx]
    X_test, y_test = X[test_idx], y[test_idx]
    if spec.unbudgeted:
        fits = [(None, grid)]
    elif spec.refit_per_budget:
        fits = [(b, [b]) for b in grid]
    else:  # the anytime path up to the largest budget serves every smaller one
        fits = [(grid[-1], grid)]
    fit_seconds = predict_seconds = 0.0
    test_parts, train_parts, tradeoff_parts, wrong_parts = [], [], [], []
    shuffles = np.random.default_rng(seed_from_key("verify", dataset, cost_model, spec.name, trial))
    prices = TrialPrices.of(feature_costs, feature_groups, discounts)
    for fit_budget, budgets in fits:
        estimator = make_estimator(
            spec,
            dataset=dataset,
            cost_model=cost_model,
            trial=trial,
            feature_costs=feature_costs,
            feature_groups=feature_groups,
            budget=fit_budget,
            adaboost_path=adaboost_path,
            discount_groups=None if discounts is None else discounts[0],
            discount_costs=None if discounts is None else discounts[1],
        )
        where = _where(spec.name, dataset, cost_model, trial)
        start = time.perf_counter()
        estimator.fit(X_train, y_train)
        fit_seconds += time.perf_counter() - start
        start = time.perf_counter()
        try:
            test_labels, test = measure(estimator, X_test, y_test, budgets)
            _, train = measure(estimator, X_train, y_train, budgets)
            check_reads_paid_for(
                estimator, X_test, y_test, test_labels, test, budgets, prices, shuffles, where
            )
        except ContractError as err:
            if err.args[0].startswith(where):
                raise
            budget = "" if err.budget is None else f", budget {err.budget:g}"
            raise ContractError(f"{where}{budget}: {err}", err.budget) from err
        predict_seconds += time.perf_counter() - start
        test_parts.append(test)
        train_parts.append(train)
        wrong_parts.append(np.packbits(wrong_rows(estimator, test_labels, y_test), axis=1))
        tradeoff_parts.append(_chosen_tradeoffs(estimator, budgets))
    columns = {
        "trial": np.full(len(grid), trial),
        "budget": np.asarray(grid, dtype=np.float64),
        "test_error": np.concatenate([part.error for part in test_parts]),
        "train_error": np.concatenate([part.error for part in train_parts]),
        **{key: np.concatenate([getattr(part, key) for part in test_parts]) for key in _EVAL_KEYS},
        "tradeoff": np.concatenate(tradeoff_parts),
        ROW_LOSSES: [row.tobytes() for part in wrong_parts for row in part],
    }
    return columns, fit_seconds, predict_seconds, estimator


def _where(algorithm: str, dataset: str, cost_model: str, trial: int) -> str:
    return f"algorithm {algorithm!r}, dataset {dataset!r}, cost model {cost_model!r}, trial {trial}"


def _chosen_tradeoffs(estimator: Any, budgets: Sequence[float]) -> np.ndarray:
    """The trade-off ``estimator`` chose at each budget (its ``chosen_tradeoffs``), else NaN."""
    if not hasattr(estimator, "chosen_tradeoffs"):
        return np.full(len(budgets), np.nan)
    chosen = np.asarray(estimator.chosen_tradeoffs(budgets), dtype=np.float64)
    if chosen.shape != (len(budgets),):
        raise ValueError(
            f"{type(estimator).__name__}.chosen_tradeoffs returned shape {chosen.shape} "
            f"for {len(budgets)} budgets"
        )
    return chosen


def _typed(df: pd.DataFrame, schema: Mapping[str, str], **constants: str) -> pd.DataFrame:
    """``df`` with exactly the columns of ``schema``, in order and of its dtypes."""
    n = len(df)
    out = {}
    for col, dtype in schema.items():
        if col in constants:
            out[col] = pd.Series([constants[col]] * n, dtype="string")
        elif dtype == "string":
            out[col] = pd.Series(df[col].to_numpy(), dtype="string")
        elif dtype.startswith("int"):
            out[col] = pd.Series(np.rint(df[col].to_numpy(dtype=np.float64)).astype(dtype))
        else:
            out[col] = pd.Series(df[col].to_numpy(dtype=dtype))
    return pd.DataFrame(out)
