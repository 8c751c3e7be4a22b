"""The protocol the defaults benchmarks share: settings compared on rows held out of each
trial's *training* rows, never on its test rows.

For each dataset, cost model and trial of a config (its own splits and prices, as the train
jobs draw them), a stratified quarter of the trial's training rows is held out
(:func:`~budgetboost.estimators.contract.tuning.validation_split`, seeded from a stable key
that names the benchmark), a model is fitted on the other training rows with each setting,
and its error on the held-out rows is averaged over the cost model's budget grid
(:func:`trials`, :func:`held_out_error`). :func:`compare` pairs the settings over the
(dataset, cost model, trial) units: a default stays unless another setting errs less with a
95 % t-interval of the paired difference that excludes 0 (:func:`verdict`).
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats

from budgetboost.checks import load_config_file
from budgetboost.data.datasets import build_binarized
from budgetboost.data.registry import load_registry
from budgetboost.data.seeds import seed_from_key
from budgetboost.estimators.contract.tuning import validation_split
from budgetboost.pipeline.blocks import Offered, block_inputs
from budgetboost.pipeline.plan import grid_budgets

ROOT = Path(__file__).resolve().parents[1]
#: The share of each trial's training rows held out to compare the settings.
HELD_OUT = 0.25
#: Confidence of the paired intervals.
CONFIDENCE = 0.95


@dataclass(frozen=True)
class HeldOut:
    """One trial's fit rows and held-out rows (both of its training rows; ``fit_rows`` and
    ``held_rows`` their numbers in the dataset), its prices and its cost model's budgets."""

    dataset: str
    cost_model: str
    trial: int
    fit_rows: np.ndarray
    held_rows: np.ndarray
    X_fit: np.ndarray
    y_fit: np.ndarray
    X_held: np.ndarray
    y_held: np.ndarray
    prices: dict[str, np.ndarray]
    budgets: np.ndarray

    def seed(self, algorithm: str) -> int:
        """The ``random_state`` the train job of ``algorithm`` gives this trial's estimator."""
        return seed_from_key("sampling", self.dataset, self.cost_model, algorithm, self.trial)


def arguments(
    description: str, datasets: Sequence[str], cost_models: Sequence[str], trials: int
) -> argparse.ArgumentParser:
    """The arguments every defaults benchmark takes (its own added by the caller)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "suite.yaml")
    parser.add_argument("--datasets", nargs="+", default=list(datasets))
    parser.add_argument("--cost-models", nargs="+", default=list(cost_models))
    parser.add_argument("--trials", type=int, default=trials)
    return parser


def checked(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[dict, dict]:
    """The config and the registry, after checking that ``--datasets``, ``--cost-models``
    and ``--trials`` name what they hold (``parser.error`` names the argument otherwise)."""
    config = load_config_file(args.configfile)
    registry = load_registry(ROOT / config["registry"])
    for name in args.datasets:
        if name not in registry:
            parser.error(f"--datasets: {name!r} is not in the registry {config['registry']}")
    for name in args.cost_models:
        if name not in config["cost_models"]:
            parser.error(f"--cost-models: {name!r} is not a cost model of {args.configfile}")
    if args.trials < 1:
        parser.error(f"--trials: {args.trials} is not a number of trials (1 or more)")
    return config, registry


def trials(
    benchmark: str,
    config: dict,
    registry: dict,
    datasets: Sequence[str],
    cost_models: Sequence[str],
    n_trials: int,
) -> Iterator[HeldOut]:
    """Each (dataset, cost model, trial)'s fit and held-out rows: the held-out rows a
    stratified :data:`HELD_OUT` of the trial's training rows, drawn from the stable key
    ``(benchmark, dataset, cost_model, trial)``; the trial's test rows are never read. The
    columns are those the cost model offers (finite prices), as the train jobs fit."""
    for dataset, cost_model in itertools.product(datasets, cost_models):
        entry, model_spec = registry[dataset], config["cost_models"][cost_model]
        data = build_binarized(dataset, entry, ROOT)
        numbers = list(range(n_trials))
        inputs = block_inputs(
            data,
            dataset=dataset,
            cost_model=cost_model,
            cost_spec=model_spec["spec"],
            train_size=entry["train_size"],
            test_size=entry["test_size"],
            trials=numbers,
            root=ROOT,
        )
        budgets = np.asarray(grid_budgets(model_spec["budgets"]), dtype=np.float64)
        for trial in numbers:
            train, _ = inputs.splits[trial]  # the test rows are never read
            y = data.y[train]
            rng = np.random.default_rng(seed_from_key(benchmark, dataset, cost_model, trial))
            fit, held = validation_split(np.where(y > 0, 1.0, -1.0), HELD_OUT, rng)
            offered = Offered.of(
                data.X,
                inputs.costs[trial],
                data.groups if inputs.grouped else None,
                inputs.discounts.get(trial),
            )
            X = offered.X[train]
            prices = {"feature_costs": offered.costs}
            if offered.groups is not None:
                prices["feature_groups"] = offered.groups
            if offered.discounts is not None:
                prices["discount_groups"], prices["discount_costs"] = offered.discounts
            yield HeldOut(
                dataset,
                cost_model,
                trial,
                train[fit],
                train[held],
                X[fit],
                y[fit],
                X[held],
                y[held],
                prices,
                budgets,
            )


def held_out_error(model: Any, part: HeldOut) -> float:
    """The fitted model's error on the held-out rows, averaged over the part's budgets."""
    labels = model.predict_at_budgets(part.X_held, part.budgets)
    return float((labels != part.y_held[None, :]).mean())


def measured(make: Callable[[], Any], part: HeldOut, setting: str, value: Any) -> tuple[dict, Any]:
    """One row of a defaults table: ``make()`` fitted on the part's fit rows, its CPU seconds
    and its held-out error (:func:`held_out_error`), keyed by the part and ``setting=value``;
    and the fitted model (for what a benchmark records beside)."""
    clock = time.process_time()
    model = make().fit(part.X_fit, part.y_fit)
    seconds = time.process_time() - clock
    row = {
        "dataset": part.dataset,
        "cost_model": part.cost_model,
        "trial": part.trial,
        setting: value,
        "error": held_out_error(model, part),
        "seconds": seconds,
    }
    return row, model


def compare(table: pd.DataFrame, setting: str, default: Any) -> pd.DataFrame:
    """Per value of ``setting`` (a column of ``table``: one row per (dataset, cost_model,
    trial, setting) with ``error`` and ``seconds``): the mean held-out error, the range and
    mean rank of the per-(dataset, cost model) means, the CPU seconds of a fit, and the
    difference from ``default`` paired over the (dataset, cost model, trial) units with its
    :data:`CONFIDENCE` t-interval."""
    cell = table.groupby([setting, "dataset", "cost_model"])["error"].mean()
    per = cell.groupby(setting)
    unit = table.set_index(["dataset", "cost_model", "trial", setting])["error"].unstack(setting)
    gap = unit.sub(unit[default], axis=0)
    n = len(gap)
    half = stats.t.ppf(0.5 + CONFIDENCE / 2, n - 1) * gap.std(ddof=1) / np.sqrt(n)
    return pd.DataFrame(
        {
            "mean error": table.groupby(setting)["error"].mean(),
            "lowest cell": per.min(),
            "highest cell": per.max(),
            "mean rank": cell.groupby(["dataset", "cost_model"]).rank().groupby(setting).mean(),
            "cpu s per fit": table.groupby(setting)["seconds"].mean(),
            "minus default": gap.mean(),
            "95% low": gap.mean() - half,
            "95% high": gap.mean() + half,
        }
    )


def verdict(summary: pd.DataFrame, default: Any) -> str:
    """The rule: the default stays unless another setting errs less with an interval (the
    paired difference from the default) below 0; then the one of lowest mean error."""
    better = summary[(summary.index != default) & (summary["95% high"] < 0)]
    if better.empty:
        return f"the default {default!r} stays: no setting errs less with an interval below 0"
    best = better["mean error"].idxmin()
    return f"change the default {default!r} to {best!r}: it errs less, interval below 0"


def print_comparison(table: pd.DataFrame, setting: str, default: Any, what: str) -> None:
    """Print :func:`compare`'s table, sorted by mean error, and :func:`verdict`."""
    summary = compare(table, setting, default)
    cells = table.groupby(["dataset", "cost_model"]).ngroups
    print(
        f"\n{what}: held-out error (a quarter of the training rows), mean over the budgets, "
        f"{table['trial'].nunique()} trials and {cells} (dataset, cost model) cells "
        f"({len(table) // table[setting].nunique()} paired units); the cells' means' range "
        f"and mean rank; the paired difference from the default {default!r}:"
    )
    print(summary.sort_values("mean error").round(4).to_string())
    print(verdict(summary, default))
