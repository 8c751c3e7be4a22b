"""Which depths the depth-chosen peers choose, on the validation part only, and at what CPU.

For each peer of a config whose trees' depth is a grid (e.g. ``lightgbm_depth``:
``BudgetedLightGBM(max_depth=[1, 2, 3], ...)``, or STreeD's depths), on suite datasets under
their cost models,
the first ``--trials`` trials are run by the pipeline's own trial runner
(:func:`budgetboost.pipeline.blocks.run_trial`: the offered columns, the estimator as the
job builds it, fit and evaluation at the cost model's budgets, the unread-column check).
Prints, per (dataset, cost model, peer), over its trials and the budgets of the grid:

- ``d1`` ... ``d3``, ``none``: the share of (trial, budget) cells served by trees of each
  depth, and by the empty model, as chosen on the validation part;
- ``val d1`` / ``val any``: the validation error at those budgets of the best depth-1
  configuration and of the best of all (what the depth buys on the validation part: the
  validation rows only, never the test rows; per model, the best prefix affordable; per
  example, as served to each validation example);
- ``cpu s``: CPU seconds of one trial (median; fit, evaluations and checks, one thread);
- where the trees' regularisation is a grid too (``min_child_samples``, ``reg_lambda``,
  ``l2_leaf_reg``, STreeD's ``min_leaf_node_size``), the share of served cells choosing
  each of its values.

Then the same per peer over every dataset. No test error is printed: this reports the
choice, not the verdict.

Run from the repository root: ``python benchmarks/peer_depths.py --configfile CONFIG
--peers lightgbm_depth catboost_depth [--datasets sonar pima ...] [--trials 3]``.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from budgetboost.checks import load_config_file  # noqa: E402
from budgetboost.data.datasets import build_binarized  # noqa: E402
from budgetboost.data.registry import load_registry  # noqa: E402
from budgetboost.pipeline.blocks import Offered, block_inputs, run_trial  # noqa: E402
from budgetboost.pipeline.plan import budget_grid  # noqa: E402
from budgetboost.pipeline.specs import algorithm_spec  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ("heart", "tic_tac_toe", "kr_vs_kp", "spambase", "german", "pima", "satimage")
DEPTHS = (1, 2, 3, 4)


def validation_errors(estimator, budgets: np.ndarray) -> np.ndarray:
    """(n_configs, n_budgets): each configuration's validation error at each budget, as its
    choice saw it (per model: its best prefix costing at most the budget; per example and
    for STreeD: at the last budget of the choice's grid at or below it)."""
    if isinstance(estimator.validation_error_, np.ndarray):  # per example, STreeD
        grid = getattr(estimator, "validation_budgets_", None)
        grid = estimator.choice_budgets_ if grid is None else grid
        at = np.searchsorted(grid, budgets, side="right") - 1
        return estimator.validation_error_[:, at]
    rows = []
    for cost, error in zip(estimator.prefix_cost_, estimator.validation_error_, strict=True):
        rows.append([error[cost <= b].min() for b in budgets])
    return np.array(rows)


def depth_of(estimator) -> np.ndarray:
    """The depth of each configuration."""
    if hasattr(estimator, "depths_"):  # STreeD
        return estimator.depths_.astype(np.float64)
    name = estimator._depth_name
    return np.array([float(estimator._value(c, name)) for c in estimator.configs_])


def chosen(estimator, grid: np.ndarray) -> tuple[np.ndarray, list[tuple[str, float]]]:
    """The depth served at each budget (NaN: the empty model), and the other grid
    parameters' values chosen where a model serves, as (name, value) pairs."""
    config, _ = estimator.choice_.at(estimator._capped(grid))
    served = config >= 0
    depth = np.where(served, depth_of(estimator)[np.maximum(config, 0)], np.nan)
    if hasattr(estimator, "min_leaf_sizes_"):  # STreeD
        several = np.unique(estimator.min_leaf_sizes_).size > 1
        sizes = estimator.min_leaf_sizes_[config[served]] if several else []
        return depth, [("min_leaf_node_size", float(v)) for v in sizes]
    other = []
    for name in estimator._grid_parameters():
        if name not in ("learning_rate", estimator._depth_name):
            values = estimator.chosen_values(name, grid)
            other += [(name, v) for v in values[~np.isnan(values)].tolist()]
    return depth, other


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", type=Path, required=True)
    parser.add_argument("--peers", nargs="+", required=True)
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    config = load_config_file(args.configfile)
    registry = load_registry(ROOT / config["registry"])
    header = "".join(f"{'d' + str(d):>6}" for d in DEPTHS)
    print(
        f"{'dataset':<13}{'cost model':<17}{'peer':<24}{header}{'none':>6}"
        f"{'val d1':>8}{'val any':>8}{'cpu s':>7}"
    )
    totals: dict[str, dict[str, list]] = {}
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
            grid = np.asarray(budgets, dtype=np.float64)
            for peer in args.peers:
                spec = algorithm_spec(peer, config["algorithms"][peer])
                rows = {"depth": [], "d1": [], "any": [], "cpu": [], "other": []}
                for trial in trials:
                    train, test = inputs.splits[trial]
                    offered = Offered.of(
                        data.X, inputs.costs[trial], groups, (inputs.discounts or {}).get(trial)
                    )
                    clock = time.process_time()
                    *_, estimator = run_trial(
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
                    rows["cpu"].append(time.process_time() - clock)
                    depth, other = chosen(estimator, grid)
                    rows["depth"] += depth.tolist()
                    rows["other"] += other
                    errors = validation_errors(estimator, grid)
                    depth = depth_of(estimator)
                    rows["d1"] += errors[depth == 1].min(axis=0).tolist()
                    rows["any"] += errors.min(axis=0).tolist()
                total = totals.setdefault(peer, {k: [] for k in rows})
                for key, values in rows.items():
                    total[key] += values
                print(f"{dataset:<13}{cost_model:<17}{peer:<24}{_shares(rows)}", flush=True)
    print("\nEvery dataset and cost model:")
    for peer, total in totals.items():
        print(f"{'':<13}{'':<17}{peer:<24}{_shares(total, total_cpu=True)}")


def _shares(rows: dict[str, list], total_cpu: bool = False) -> str:
    depth = np.asarray(rows["depth"], dtype=np.float64)
    shares = "".join(f"{np.mean(depth == d):6.2f}" for d in DEPTHS)
    cpu = sum(rows["cpu"]) if total_cpu else statistics.median(rows["cpu"])
    other = ""
    for name in sorted({name for name, _ in rows["other"]}):
        values = np.array([v for n, v in rows["other"] if n == name])
        other += "  " + ", ".join(
            f"{name}={value:g}: {np.mean(values == value):.2f}" for value in np.unique(values)
        )
    return (
        f"{shares}{np.mean(np.isnan(depth)):6.2f}{np.mean(rows['d1']):8.3f}"
        f"{np.mean(rows['any']):8.3f}{cpu:7.2f}{other}"
    )


if __name__ == "__main__":
    main()
