"""The library peers' grids, before and after: is the step size still the cap?

For each peer (LightGBM CEGB and CatBoost penalties, stumps, as a config runs them) and each
grid of its learning rate and number of trees, on suite datasets and their cost models: the
first ``--trials`` trials run by the pipeline's own trial runner
(:func:`budgetboost.pipeline.blocks.run_trial`: the offered columns, the estimator as the job
builds it, the evaluation at the cost model's budgets). Prints, per (dataset, cost model,
peer, grid), medians over the trials:

- ``err``: the test error averaged over the budget grid, and ``small`` / ``large``: over
  its lowest and highest third (the findings' bands);
- ``lr top`` / ``lr low``: the share of (trial, budget) cells whose chosen learning rate is
  the grid's largest / smallest (cells served by the empty model left out);
- ``trees max``: the share of cells whose chosen number of trees is the grid's maximum (a
  model that stopped early, LightGBM with no split of positive penalised gain, is not at
  the edge: more trees were not there to take);
- ``cpu s``: CPU seconds of one trial (fit and the evaluations; one thread).

The grids: ``today`` (learning rates 0.1 and 0.3, 200 trees, the libraries' default bins:
255 for LightGBM, 254 borders for CatBoost), then those of ``--grids`` (default: the
estimators' defaults now, and ``0.1,0.3,1,3x200``: room above their largest rate; every grid
but today's with a bin per distinct value). Then the
totals per peer and grid: mean error, edge shares over every cell, CPU seconds, and the
CPU ratio to today's.

Run from the repository root: ``python benchmarks/peer_grids.py [--configfile
config/suite.yaml] [--datasets tic_tac_toe pima ...] [--trials 3] [--peers lightgbm_stumps]
[--grids default 0.1,0.3,1,3x200]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from pathlib import Path

import numpy as np

from budgetboost.analysis.bands import in_budget_band
from budgetboost.checks import load_config_file
from budgetboost.data.datasets import build_binarized
from budgetboost.data.registry import load_registry
from budgetboost.pipeline.blocks import Offered, block_inputs, run_trial
from budgetboost.pipeline.plan import budget_grid
from budgetboost.pipeline.specs import algorithm_spec

ROOT = Path(__file__).resolve().parents[1]
#: Eight suite datasets of every shape (tic-tac-toe: where the old grid capped the peers)
#: and pima, also under Turney's grouped costs (an ordinal column of 420 values).
DATASETS = (
    "tic_tac_toe",
    "pima",
    "kr_vs_kp",
    "sonar",
    "heart",
    "spambase",
    "german",
    "house_votes",
    "ionosphere",
)
#: The old grid's parameters, per estimator (the libraries' default bins).
TODAY = {
    "BudgetedLightGBM": {"learning_rate": [0.1, 0.3], "params": {"max_bin": 255}},
    "BudgetedCatBoost": {"learning_rate": [0.1, 0.3], "params": {"border_count": 254}},
}
TREES = {"BudgetedLightGBM": "n_estimators", "BudgetedCatBoost": "iterations"}
#: A grid with room above the defaults' largest rate: if the step size still capped the
#: peers, they would choose 3 where they now choose 1.
PROBE = "0.1,0.3,1,3x200"


def grids(estimator: str, asked: list[str]) -> dict[str, dict]:
    """``{name: params to set}``: today's grid, then each of ``asked``: ``"default"`` (the
    estimator's defaults) or ``"<rates>x<trees>"``, e.g. ``"0.1,0.3,1,3x200"``."""
    out = {"today": {**TODAY[estimator], TREES[estimator]: 200}}
    for grid in asked:
        if grid == "default":
            out[grid] = {}
            continue
        rates, _, trees = grid.partition("x")
        out[grid] = {
            "learning_rate": [float(r) for r in rates.split(",")],
            TREES[estimator]: int(trees),
        }
    return out


def choices(estimator, budgets: list[float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per budget: whether a model serves it, its learning rate's position in the grid
    (-1 lowest, 1 highest, 0 between) and whether its number of trees is the grid's maximum."""
    config, size = estimator.choice_.at(estimator._capped(np.asarray(budgets, dtype=float)))
    served = config >= 0
    rates = sorted({c["learning_rate"] for c in estimator.configs_})
    rate = np.array([estimator.configs_[c]["learning_rate"] if c >= 0 else np.nan for c in config])
    position = np.where(rate == rates[-1], 1, np.where(rate == rates[0], -1, 0))
    most = int(getattr(estimator, TREES[type(estimator).__name__]))
    return served, position, served & (size >= most)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "suite.yaml")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--peers", nargs="+", default=["lightgbm_stumps", "catboost_stumps"])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument(
        "--grids",
        nargs="+",
        default=["default", PROBE],
        help='"default" (the estimators\' defaults) or "<rates>x<trees>", e.g. 0.1,0.3,1,3x200',
    )
    args = parser.parse_args()
    config = load_config_file(args.configfile)
    registry = load_registry(ROOT / config["registry"])
    print(
        f"{'dataset':<13}{'cost model':<17}{'peer':<17}{'grid':<18}{'err':>7}{'small':>7}"
        f"{'large':>7}{'lr top':>8}{'lr low':>8}{'trees max':>10}{'cpu s':>7}"
    )
    totals: dict[tuple[str, str], dict[str, list]] = {}
    failures: list[str] = []
    for dataset in args.datasets:
        entry = registry[dataset]
        data = build_binarized(dataset, entry, ROOT)
        trials = list(range(args.trials))
        for cost_model in config["datasets"][dataset]["cost_models"]:
            model = config["cost_models"][cost_model]
            budgets = budget_grid(**model["budgets"])
            inputs = block_inputs(
                data,
                dataset=dataset,
                cost_model=cost_model,
                cost_spec=model["spec"],
                train_size=entry["train_size"],
                test_size=entry["test_size"],
                trials=trials,
                root=ROOT,
            )
            groups = np.asarray(data.groups) if inputs.grouped else None
            position = np.arange(len(budgets))
            bands = {b: in_budget_band(position, len(budgets), b) for b in ("small", "large")}
            for peer in args.peers:
                base = algorithm_spec(peer, config["algorithms"][peer])
                for grid, setting in grids(base.estimator, args.grids).items():
                    params = {**base.params, **setting}
                    params["params"] = {
                        **(base.params.get("params") or {}),
                        **setting.get("params", {}),
                    }
                    if not params["params"]:
                        del params["params"]
                    spec = dataclasses.replace(base, params=params)
                    rows = {k: [] for k in ("err", "small", "large", "top", "low", "max", "cpu")}
                    for trial in trials:
                        train, test = inputs.splits[trial]
                        offered = Offered.of(
                            data.X,
                            inputs.costs[trial],
                            groups,
                            (inputs.discounts or {}).get(trial),
                        )
                        clock = time.process_time()
                        try:
                            columns, *_, estimator = run_trial(
                                offered.X,
                                data.y,
                                train,
                                test,
                                offered.costs,
                                offered.groups,
                                budgets,
                                dataset=dataset,
                                cost_model=cost_model,
                                spec=spec,
                                trial=trial,
                                discounts=offered.discounts,
                            )
                        except Exception as exc:  # noqa: BLE001 - a library failing is a finding
                            failures.append(f"{dataset}/{cost_model}/{peer}/{grid}/{trial}: {exc}")
                            continue
                        rows["cpu"].append(time.process_time() - clock)
                        error = columns["test_error"]
                        rows["err"].append(float(error.mean()))
                        rows["small"].append(float(error[bands["small"]].mean()))
                        rows["large"].append(float(error[bands["large"]].mean()))
                        served, rate, most = choices(estimator, budgets)
                        rows["top"] += (rate[served] == 1).tolist()
                        rows["low"] += (rate[served] == -1).tolist()
                        rows["max"] += most[served].tolist()
                    if not rows["cpu"]:
                        continue
                    total = totals.setdefault((peer, grid), {k: [] for k in rows})
                    for key, values in rows.items():
                        total[key] += values
                    share = {
                        k: np.mean(rows[k]) if rows[k] else np.nan for k in ("top", "low", "max")
                    }
                    print(
                        f"{dataset:<13}{cost_model:<17}{peer:<17}{grid:<18}"
                        f"{statistics.median(rows['err']):7.3f}"
                        f"{statistics.median(rows['small']):7.3f}"
                        f"{statistics.median(rows['large']):7.3f}"
                        f"{share['top']:8.2f}{share['low']:8.2f}{share['max']:10.2f}"
                        f"{statistics.median(rows['cpu']):7.2f}",
                        flush=True,
                    )
    for failure in failures:
        print(f"failed: {failure}")
    print("\nTotals over every dataset, cost model and trial (edge shares over every cell):")
    print(
        f"{'peer':<17}{'grid':<18}{'err':>7}{'small':>7}{'large':>7}{'lr top':>8}{'lr low':>8}"
        f"{'trees max':>10}{'cpu s':>8}{'x today':>8}"
    )
    for (peer, grid), total in totals.items():
        today = sum(totals[(peer, "today")]["cpu"])
        print(
            f"{peer:<17}{grid:<18}{np.mean(total['err']):7.3f}{np.mean(total['small']):7.3f}"
            f"{np.mean(total['large']):7.3f}{np.mean(total['top']):8.2f}"
            f"{np.mean(total['low']):8.2f}{np.mean(total['max']):10.2f}"
            f"{sum(total['cpu']):8.1f}{sum(total['cpu']) / today:8.2f}"
        )


if __name__ == "__main__":
    main()
