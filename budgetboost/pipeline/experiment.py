"""One training block of the benchmark: estimators from config entries, fit, evaluate a grid.

The pipeline's ``train`` rule calls :func:`run_block` for a block of trials of one
(dataset, cost model, algorithm). An *algorithm* is a config entry, so adding one to the
benchmark touches ``config/config.yaml`` only::

    smoothed:
      estimator: BudgetedBoost          # a class of budgetboost, or "package.module:Class"
      params: {criterion: smoothed, max_rounds: 500}

Optional keys of an entry:

``unbudgeted`` (bool)
    Evaluate once per trial with budget ``inf`` (the whole fitted path) instead of the grid:
    the paper's AdaBoost reference, "run for a number of rounds that gave lowest test error,
    irrespective of budget" (Section 6).
``rounds_from_registry`` (str)
    Name of an estimator parameter set to the dataset's Table 1 AdaBoost rounds (registry
    field ``adaboost_rounds``), e.g. ``max_rounds`` for the reference.
``refit_per_budget`` (bool)
    Fit one estimator per budget, passing ``budget=B``, for an estimator whose training
    depends on the budget and cannot serve the grid from one anytime path.

Otherwise one fit per trial serves the whole grid: an estimator with a ``budget`` parameter
(unless the entry sets it) is fitted with ``budget`` = the grid's largest budget, which only
cuts its path where no budget of the grid can reach (BudgetedBoost's criteria do not depend
on ``B``, so the path is a prefix of the unbudgeted one), then evaluated at every budget.

Seeds never depend on job order: an estimator with a ``random_state`` parameter gets
``seed_from_key("sampling", dataset, cost_model, algorithm, trial)`` (docs/design.md), so a
shard is byte-identical whatever ``--cores``, block size or order the jobs ran in. Wall-clock
times go to a separate timings table for the same reason.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from budgetboost.data.costs import make_costs
from budgetboost.data.schema import SHARD_COLUMNS, STUMP_COLUMNS, TIMING_COLUMNS
from budgetboost.data.seeds import seed_from_key
from budgetboost.data.splits import split_indices
from budgetboost.estimators.base import BudgetEvaluation
from budgetboost.estimators.validation import check_budgets

__all__ = [
    "ESTIMATORS",
    "AlgorithmSpec",
    "BlockInputs",
    "algorithm_spec",
    "block_inputs",
    "block_trials",
    "budget_grid",
    "check_algorithm",
    "cost_rows",
    "estimator_class",
    "make_estimator",
    "run_block",
    "shard_metadata",
    "source_files",
    "SHARD_COLUMNS",
    "TIMING_COLUMNS",
]

#: Short estimator names usable in config, as ``"module:Class"``.
ESTIMATORS: dict[str, str] = {
    "BudgetedBoost": "budgetboost.estimators.boosting:BudgetedBoost",
    "AdaBoostRS": "budgetboost.estimators.sampling:AdaBoostRS",
    "BudgetedTree": "budgetboost.estimators.trees:BudgetedTree",
    "BudgetedLightGBM": "budgetboost.estimators.peers.lightgbm_peer:BudgetedLightGBM",
    "BudgetedCatBoost": "budgetboost.estimators.peers.catboost_peer:BudgetedCatBoost",
}

# fields of the BudgetEvaluation of ``evaluate_at_budgets`` copied into the shard as they are
_EVAL_KEYS = tuple(f.name for f in dataclasses.fields(BudgetEvaluation) if f.name != "error")


@dataclass(frozen=True)
class AlgorithmSpec:
    """A resolved algorithm entry: what to construct and how to evaluate it.

    Attributes
    ----------
    name : str
        The algorithm's name in config and in the shards.
    estimator : str
        A key of :data:`ESTIMATORS` or a ``"module:Class"`` path.
    params : dict
        Constructor parameters (``feature_costs``, ``feature_groups`` and ``random_state``
        are set per trial by :func:`make_estimator`).
    unbudgeted : bool
        Evaluate at budget ``inf`` only.
    refit_per_budget : bool
        One fit per budget with ``budget=B`` instead of one anytime fit per trial.
    adaboost_path : bool
        Fit from the trial's shared plain AdaBoost path (``budgetboost.pipeline.shared_path``, passed
        as the estimator's ``adaboost_path``) instead of boosting again.
    """

    name: str
    estimator: str
    params: dict[str, Any] = field(default_factory=dict)
    unbudgeted: bool = False
    refit_per_budget: bool = False
    adaboost_path: bool = False


def algorithm_spec(
    name: str, entry: Mapping[str, Any], registry_rounds: int | None = None
) -> AlgorithmSpec:
    """Resolve a config entry into an :class:`AlgorithmSpec`.

    ``rounds_from_registry: <param>`` copies the dataset's Table 1 rounds into that parameter,
    so the reference's parameters (and hence its jobs) depend on the dataset's rounds only.
    """
    if "estimator" not in entry:
        raise ValueError(f"algorithm {name!r}: entry has no 'estimator' key")
    params = dict(entry.get("params") or {})
    rounds_param = entry.get("rounds_from_registry")
    if rounds_param:
        if registry_rounds is None:
            raise ValueError(
                f"algorithm {name!r}: rounds_from_registry={rounds_param!r} "
                "but the dataset's registry entry has no 'adaboost_rounds'"
            )
        params[str(rounds_param)] = int(registry_rounds)
    return AlgorithmSpec(
        name=name,
        estimator=str(entry["estimator"]),
        params=params,
        unbudgeted=bool(entry.get("unbudgeted", False)),
        refit_per_budget=bool(entry.get("refit_per_budget", False)),
        adaboost_path=bool(entry.get("adaboost_path", False)),
    )


def estimator_class(estimator: str) -> type:
    """Import the class named by ``estimator`` (a key of :data:`ESTIMATORS` or ``module:Class``)."""
    target = ESTIMATORS.get(estimator, estimator)
    module_name, sep, class_name = target.partition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(
            f"estimator {estimator!r} is neither one of {sorted(ESTIMATORS)} "
            "nor a 'module:Class' path"
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(
            f"estimator {estimator!r}: cannot import module {module_name!r} ({exc})"
        ) from exc
    try:
        return getattr(module, class_name)
    except AttributeError:
        raise ValueError(
            f"estimator {estimator!r}: module {module_name!r} has no {class_name!r}"
        ) from None


def check_algorithm(spec: AlgorithmSpec) -> None:
    """Fail early (when the workflow is planned) on an unknown estimator or parameter.

    Constructing an estimator only stores its parameters, so this is cheap; their values
    are checked by ``fit``.
    """
    cls = estimator_class(spec.estimator)
    try:
        cls(**spec.params)
    except TypeError as exc:
        raise ValueError(
            f"algorithm {spec.name!r}: bad params for {spec.estimator!r}: {exc}"
        ) from None


def make_estimator(
    spec: AlgorithmSpec,
    *,
    dataset: str,
    cost_model: str,
    trial: int,
    feature_costs: np.ndarray,
    feature_groups: np.ndarray | None,
    budget: float | None = None,
    adaboost_path: Any = None,
) -> Any:
    """Construct the estimator of one trial.

    ``feature_costs`` (and ``feature_groups`` when the cost model pays a raw attribute's
    indicators together) come from the trial's cost vector; ``random_state``, when the class
    has one, from the stable key ``("sampling", dataset, cost_model, algorithm, trial)``;
    ``adaboost_path``, for a spec that asks for it, is the trial's shared AdaBoost path.
    """
    cls = estimator_class(spec.estimator)
    try:
        estimator = cls(**spec.params)
    except TypeError as exc:  # an unknown keyword: name the algorithm and the parameter
        raise ValueError(
            f"algorithm {spec.name!r}: bad params for {spec.estimator!r}: {exc}"
        ) from None
    accepted = estimator.get_params(deep=False)
    extra: dict[str, Any] = {"feature_costs": np.asarray(feature_costs, dtype=np.float64)}
    if feature_groups is not None:
        extra["feature_groups"] = np.asarray(feature_groups)
    if "random_state" in accepted:
        extra["random_state"] = seed_from_key("sampling", dataset, cost_model, spec.name, trial)
    if spec.adaboost_path:
        if adaboost_path is None:
            raise ValueError(
                f"algorithm {spec.name!r} fits from the shared AdaBoost path, "
                f"but trial {trial} has none"
            )
        extra["adaboost_path"] = adaboost_path
    if budget is not None and "budget" not in spec.params:
        if "budget" not in accepted and spec.refit_per_budget:
            raise ValueError(
                f"algorithm {spec.name!r}: refit_per_budget needs a 'budget' "
                f"parameter, which {spec.estimator!r} does not have"
            )
        if "budget" in accepted:
            extra["budget"] = float(budget)
    missing = sorted(key for key in extra if key not in accepted)
    if missing:
        raise ValueError(
            f"algorithm {spec.name!r}: estimator {spec.estimator!r} has no parameter(s) {missing}"
        )
    return estimator.set_params(**extra)


def block_trials(block: int, block_size: int, n_trials: int) -> list[int]:
    """Trials of block ``block``: ``[block * block_size, ...)`` capped at ``n_trials``."""
    if block_size < 1:
        raise ValueError(f"block_size must be >= 1, got {block_size}")
    start = block * block_size
    if block < 0 or start >= n_trials:
        raise ValueError(
            f"block {block} is out of range for {n_trials} trials in blocks of {block_size}"
        )
    return list(range(start, min(start + block_size, n_trials)))


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
    """

    splits: dict[int, tuple[np.ndarray, np.ndarray]]
    costs: dict[int, np.ndarray]
    grouped: bool


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
    splits = {int(t): split_indices(dataset, int(t), n_rows, train_size, test_size) for t in trials}
    table = make_costs(dataset, cost_model, cost_spec, data, splits, list(splits), root)
    return BlockInputs(splits=splits, costs=cost_rows(table), grouped=table.grouped)


def budget_grid(step: float, stop: float, start: float | None = None) -> list[float]:
    """The budgets ``start, start + step, ..., <= stop`` (the paper: every 2 units).

    ``start`` defaults to ``step``. Values are rounded to 10 decimals so that the grid is the
    same on every machine and can be written to config-derived params.
    """
    if not step > 0:
        raise ValueError(f"budget step must be > 0, got {step}")
    first = step if start is None else start
    if not 0 < first <= stop:
        raise ValueError(f"budget grid needs 0 < start <= stop, got start={first}, stop={stop}")
    count = math.floor((stop - first) / step + 1e-9) + 1
    return [round(first + i * step, 10) for i in range(count)]


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
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Fit and evaluate ``spec`` on each trial of a block.

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
        ``{trial: shared plain AdaBoost path}`` (``budgetboost.pipeline.shared_path``), for a spec with
        ``adaboost_path``.

    Returns
    -------
    shard : DataFrame
        One row per (trial, budget), columns :data:`SHARD_COLUMNS`; no wall-clock values.
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
        columns, fit_seconds, predict_seconds, estimator = _run_trial(
            X,
            y,
            train_idx,
            test_idx,
            costs[trial],
            feature_groups,
            grid,
            dataset=dataset,
            cost_model=cost_model,
            spec=spec,
            trial=trial,
            adaboost_path=(paths or {}).get(trial),
        )
        parts.append(pd.DataFrame(columns))
        stump_parts.append(_stump_rows(estimator, trial))
        timing_rows.append((trial, fit_seconds, predict_seconds))
    shard = _typed(
        pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(),
        SHARD_COLUMNS,
        dataset=dataset,
        cost_model=cost_model,
        algorithm=spec.name,
    )
    timings = _typed(pd.DataFrame(timing_rows, columns=list(TIMING_COLUMNS)), TIMING_COLUMNS)
    stumps = _typed(
        pd.concat(stump_parts, ignore_index=True),
        STUMP_COLUMNS,
        dataset=dataset,
        cost_model=cost_model,
        algorithm=spec.name,
    )
    return shard, timings, stumps


def _stump_rows(estimator: Any, trial: int) -> pd.DataFrame:
    """Round-by-round stumps of a fitted BudgetedBoost (none for other estimators)."""
    if not hasattr(estimator, "spent_"):
        return pd.DataFrame({c: [] for c in ("trial", "round", "feature", "threshold", "polarity")})
    n = len(estimator.feature_)
    return pd.DataFrame(
        {
            "trial": np.full(n, trial),
            "round": np.arange(n),
            "feature": estimator.feature_,
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
    seeded = "random_state" in _constructor_params(spec.estimator)
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


def source_files(module: str, root: str | Path = ".") -> list[str]:
    """Package source files ``module`` depends on, as paths relative to ``root``.

    Follows ``import budgetboost.x`` / ``from budgetboost.x import`` / ``from .x import``
    statements transitively, except those under ``if TYPE_CHECKING:`` (read with :mod:`ast`,
    nothing is imported), so a rule can declare the code its output depends on as inputs:
    editing that code re-runs the rule, editing unrelated modules does not.
    """
    root = Path(root)
    package = module.split(".")[0]
    seen: dict[str, Path] = {}
    pending = [module]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = root / Path(*name.split(".")).with_suffix(".py")
        if not path.is_file():
            init = root / Path(*name.split(".")) / "__init__.py"
            if not init.is_file():
                continue
            path = init
        seen[name] = path
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _runtime_nodes(tree):
            if isinstance(node, ast.Import):
                pending += [a.name for a in node.names if a.name.split(".")[0] == package]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute_from(node, name, package, path.name == "__init__.py")
                if base is None:
                    continue
                pending.append(base)
                pending += [f"{base}.{a.name}" for a in node.names]
    return sorted(str(path) for path in seen.values())


# --------------------------------------------------------------------------- helpers


def _run_trial(
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
):
    X_train, y_train = X[train_idx], y[train_idx]
    X_test, y_test = X[test_idx], y[test_idx]
    if spec.unbudgeted:
        fits = [(None, grid)]
    elif spec.refit_per_budget:
        fits = [(b, [b]) for b in grid]
    else:  # the anytime path up to the largest budget serves every smaller one
        fits = [(grid[-1], grid)]
    fit_seconds = predict_seconds = 0.0
    test_parts, train_parts, tradeoff_parts = [], [], []
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
        )
        start = time.perf_counter()
        estimator.fit(X_train, y_train)
        fit_seconds += time.perf_counter() - start
        start = time.perf_counter()
        test = estimator.evaluate_at_budgets(X_test, y_test, budgets)
        train = estimator.evaluate_at_budgets(X_train, y_train, budgets)
        predict_seconds += time.perf_counter() - start
        for result in (test, train):
            if not isinstance(result, BudgetEvaluation):
                raise TypeError(
                    f"algorithm {spec.name!r}: evaluate_at_budgets must return a "
                    "budgetboost.BudgetEvaluation (subclass "
                    f"budgetboost.BudgetedEstimator); got {type(result).__name__}"
                )
            if len(result) != len(budgets):
                raise ValueError(
                    f"algorithm {spec.name!r}: evaluate_at_budgets returned "
                    f"{len(result)} values for {len(budgets)} budgets"
                )
        test_parts.append(test)
        train_parts.append(train)
        tradeoff_parts.append(_chosen_tradeoffs(estimator, budgets))
    columns = {
        "trial": np.full(len(grid), trial),
        "budget": np.asarray(grid, dtype=np.float64),
        "test_error": np.concatenate([part.error for part in test_parts]),
        "train_error": np.concatenate([part.error for part in train_parts]),
        **{key: np.concatenate([getattr(part, key) for part in test_parts]) for key in _EVAL_KEYS},
        "tradeoff": np.concatenate(tradeoff_parts),
    }
    return columns, fit_seconds, predict_seconds, estimator


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


def _constructor_params(estimator: str) -> set[str]:
    import inspect

    try:
        cls = estimator_class(estimator)
    except ValueError:
        return set()
    return set(inspect.signature(cls.__init__).parameters) - {"self"}


def package_version() -> str:
    """The installed budgetboost version ("unknown" when not installed)."""
    try:
        return metadata.version("budgetboost")
    except metadata.PackageNotFoundError:
        return "unknown"


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:`` (type-only imports
    are not run, so the code they name is not a dependency)."""
    pending = [tree]
    while pending:
        node = pending.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                pending += child.orelse
                continue
            pending.append(child)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute_from(node: ast.ImportFrom, current: str, package: str, is_init: bool) -> str | None:
    """The absolute module named by a ``from ... import`` inside the package, else None."""
    if node.level == 0:
        return node.module if node.module and node.module.split(".")[0] == package else None
    parts = current.split(".")
    base = parts[: len(parts) - node.level + (1 if is_init else 0)]
    if node.module:
        base += node.module.split(".")
    return ".".join(base) if base else None
