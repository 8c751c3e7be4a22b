"""A published anchor for per-example feature acquisition: Spambase with unit costs.

Covert et al. (ICML 2023, "Learning to Maximize Mutual Information for Dynamic Feature
Selection") report GDFS, their greedy dynamic feature selection, on Spambase (57 raw
attributes, each costing 1) at 82.3 % test accuracy with 2 features and 90.5 % with 4. This
prints the same measure for the algorithms of a config (default: the suite's boosters, peers
and the field's methods) on the suite's own Spambase splits, in the suite's field regime
(its cost model ``attribute_unit``: every raw attribute costs 1, its threshold indicators
paid once together; the same name, so the same costs and seeds as the suite's jobs), through
the pipeline's block runner (:func:`budgetboost.pipeline.blocks.run_block_on`), or read from
the shards of a finished suite run (``--from-run results/suite``). Per algorithm: the mean test
accuracy over ``--trials`` trials at budgets 2 and 4 with a 95 % t-interval over the trials,
the mean number of attributes the test examples paid at those budgets, and the CPU seconds of a
trial (read from a run: its train jobs' fit and prediction seconds). Our splits are not Covert
et al.'s (1,000 training rows here, their own split there): the anchor says whether a method is
in the published range, not which is better.

Run from the repository root: ``python benchmarks/spambase_anchor.py [--configfile
config/suite.yaml] [--cost-model attribute_unit] [--algorithms greedy aaco] [--trials 10]
[--from-run results/suite]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from budgetboost.checks import load_config_file
from budgetboost.data.datasets import build_binarized
from budgetboost.data.io import read_table
from budgetboost.data.registry import load_registry
from budgetboost.pipeline.blocks import block_inputs, run_block_on
from budgetboost.pipeline.plan import grid_budgets
from budgetboost.pipeline.specs import algorithm_spec

ROOT = Path(__file__).resolve().parents[1]
DATASET = "spambase"
COST_MODEL = "attribute_unit"
#: The budgets the published anchor reads (its 2 and 4 features), added to the grid's.
ANCHOR_BUDGETS = (2.0, 4.0)
#: GDFS's published test accuracy on Spambase with 2 and 4 features (Covert et al. 2023).
PUBLISHED = {"GDFS (Covert et al. 2023, their split)": (0.823, 0.905)}
DEFAULT = (
    "greedy",
    "smoothed",
    "smoothed_tuned",
    "lightgbm_stumps",
    "catboost_stumps",
    "lightgbm_depth",
    "catboost_depth",
    "streed",
    "streed_leaf5",
    "budget_prune",
    "budget_prune_cost_aware",
    "budget_prune_mean",
    "aaco",
    "aaco_network",
    "select_gbm",
    "select_linear",
)


def interval(values: np.ndarray) -> str:
    """Mean with its 95 % t-interval over the trials."""
    mean = float(values.mean())
    if values.size < 2:
        return f"{mean:.3f}"
    half = float(stats.t.ppf(0.975, values.size - 1) * values.std(ddof=1) / np.sqrt(values.size))
    return f"{mean:.3f} [{mean - half:.3f}, {mean + half:.3f}]"


def shard_of_run(run: Path, cost_model: str, name: str, trials: list[int], folder: str = "shards"):
    """The rows of ``name`` on Spambase under ``cost_model`` in a finished run's results
    folder (its shards, or its ``timings``), its first ``trials``; None when the run has none."""
    paths = sorted((run / folder / DATASET / cost_model / name).glob("block-*.parquet"))
    if not paths:
        return None
    shard = pd.concat([read_table(p) for p in paths], ignore_index=True)
    return shard[shard["trial"].isin(trials)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "suite.yaml")
    parser.add_argument("--cost-model", default=COST_MODEL)
    parser.add_argument("--algorithms", nargs="+", default=None)
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--from-run", type=Path, default=None, help="a results folder")
    args = parser.parse_args()
    config = load_config_file(args.configfile)
    registry = load_registry(ROOT / config["registry"])
    algorithms = args.algorithms or [a for a in DEFAULT if a in config["algorithms"]]
    model = config["cost_models"][args.cost_model]
    budgets = sorted({*grid_budgets(model["budgets"]), *ANCHOR_BUDGETS})
    entry = registry[DATASET]
    trials = list(range(args.trials))
    data = inputs = None
    if args.from_run is None:
        data = build_binarized(DATASET, entry, ROOT)
        inputs = block_inputs(
            data,
            dataset=DATASET,
            cost_model=args.cost_model,
            cost_spec=model["spec"],
            train_size=entry["train_size"],
            test_size=entry["test_size"],
            trials=trials,
            root=ROOT,
        )
    print(
        f"Spambase, {entry['train_size']} training / {entry['test_size']} test rows, "
        f"{len(trials)} trials, cost model {args.cost_model} ({model['spec']})"
        + (f", read from {args.from_run}" if args.from_run else "")
        + "\n"
    )
    print(
        f"{'algorithm':<40}{'accuracy, 2 features':>26}{'accuracy, 4 features':>26}"
        f"{'paid @2':>9}{'paid @4':>9}{'cpu s':>7}"
    )
    for name, (two, four) in PUBLISHED.items():
        print(f"{name:<40}{two:>26.3f}{four:>26.3f}")
    for name in algorithms:
        clock = time.process_time()
        if args.from_run is not None:
            shard = shard_of_run(args.from_run, args.cost_model, name, trials)
            if shard is None:
                print(f"{name:<40}{'not in the run':>26}")
                continue
        else:
            spec = algorithm_spec(name, config["algorithms"][name], entry.get("adaboost_rounds"))
            shard, _, _ = run_block_on(
                data,
                inputs,
                dataset=DATASET,
                cost_model=args.cost_model,
                spec=spec,
                budgets=budgets,
                trials=trials,
            )
        cpu = (time.process_time() - clock) / len(trials)
        if args.from_run is not None:  # the run's own fit and prediction seconds a trial
            timings = shard_of_run(args.from_run, args.cost_model, name, trials, "timings")
            cpu = (timings["fit_seconds"] + timings["predict_seconds"]).mean()
        cells = []
        for budget in ANCHOR_BUDGETS:
            at = shard[shard["budget"] == budget]
            cells.append((1 - at["test_error"].to_numpy(), at["n_features"].mean()))
        print(
            f"{name:<40}{interval(cells[0][0]):>26}{interval(cells[1][0]):>26}"
            f"{cells[0][1]:9.2f}{cells[1][1]:9.2f}{cpu:7.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
