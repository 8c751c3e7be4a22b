"""CPU seconds of one trial of every algorithm on each dataset, for planning a suite run.

For each dataset (default: every enabled registry entry outside Table 1, the benchmark
suite's) at the registry's sizes, every algorithm of a config (default ``config/config.yaml``:
the paper's ten, the tuned boosters, the boosted depth-2 trees and the two peers) is fitted and
evaluated on trial 0 under U[0, 2] exactly as a train job does it (``scale.trial_seconds``:
the trial's split and costs, fit, evaluation on the test and training rows at every budget of
the grid), in this process with one thread. The shared AdaBoost path is fitted once per trial
and timed as its own column (``adaboost_path``); the algorithms that read it do not pay it.

Prints one row per dataset: rows, binarized columns, train/test sizes, the CPU seconds of each
algorithm (median over ``--trials`` trials), and their sum (one trial of everything); then
the CPU minutes per algorithm over the datasets, and what ``--plan-trials`` trials of every
algorithm on every dataset would take on two cores (the sum / 2: an estimate that leaves out
the jobs' start-up, the binarization and the reports). The table is also written to
``results/benchmarks/suite_timing.csv``.

Run from the repository root: ``python benchmarks/suite_timing.py [--datasets pima letter]
[--algorithms greedy catboost_stumps] [--configfile config/config.yaml] [--trials 1]
[--plan-trials 10]``.
"""

from __future__ import annotations

import os

# before numpy loads its BLAS: one thread, as in the pipeline's jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
from pathlib import Path  # noqa: E402

import pandas as pd  # noqa: E402
from scale import OUT, PATH, ROOT, trial_seconds  # noqa: E402

from budgetboost.checks import check_all, load_config_file  # noqa: E402
from budgetboost.data.datasets import build_binarized  # noqa: E402
from budgetboost.data.io import atomic_path  # noqa: E402


def suite_datasets(registry: dict) -> list[str]:
    """The enabled registry entries outside Table 1 (no ``paper_features``)."""
    return [n for n, e in registry.items() if e["enabled"] and "paper_features" not in e]


def time_dataset(config: dict, entry: dict, dataset: str, algorithms: list[str], trials: int):
    """One row: the dataset's shape and sizes, and each algorithm's median CPU seconds."""
    data = build_binarized(dataset, entry, ROOT)
    seconds: dict[str, list[float]] = {name: [] for name in [PATH, *algorithms]}
    n = entry["train_size"]
    for trial in range(trials):
        path = trial_seconds(config, entry, data, dataset, n, PATH, trial)
        seconds[PATH].append(path["cpu_s"])
        for name in algorithms:
            result = trial_seconds(config, entry, data, dataset, n, name, trial, path["paths"])
            seconds[name].append(result["cpu_s"])
    row = {
        "dataset": dataset,
        "rows": data.X.shape[0],
        "columns": data.X.shape[1],
        "train": entry["train_size"],
        "test": entry["test_size"],
    }
    row.update({name: statistics.median(values) for name, values in seconds.items()})
    row["all"] = sum(row[name] for name in seconds)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "config.yaml")
    parser.add_argument("--datasets", nargs="+", default=None)
    parser.add_argument("--algorithms", nargs="+", default=None)
    parser.add_argument("--trials", type=int, default=1, help="trials timed (median)")
    parser.add_argument("--plan-trials", type=int, default=10, help="trials of the estimate")
    args = parser.parse_args()
    config, registry = check_all(load_config_file(args.configfile), ROOT)
    datasets = args.datasets or suite_datasets(registry)
    algorithms = args.algorithms or list(config["algorithms"])
    rows = []
    for dataset in datasets:
        rows.append(time_dataset(config, registry[dataset], dataset, algorithms, args.trials))
        print(f"{dataset}: {rows[-1]['all']:.1f} CPU s", flush=True)
    table = pd.DataFrame(rows).set_index("dataset")
    timed = [PATH, *algorithms, "all"]
    with pd.option_context("display.width", 250, "display.max_columns", None):
        print(f"\nCPU seconds of one trial (median of {args.trials}), U[0, 2], registry sizes:")
        print(table.to_string(float_format=lambda v: f"{v:.2f}"))
        totals = table[timed].sum()
        print("\nCPU minutes of one trial of every dataset, per algorithm:")
        print((totals / 60).to_string(float_format=lambda v: f"{v:.2f}"))
    minutes = totals["all"] * args.plan_trials / 60
    print(
        f"\n{args.plan_trials} trials of every algorithm on these {len(table)} datasets: "
        f"{minutes:.0f} CPU minutes, {minutes / 2:.0f} minutes on two cores (estimate: jobs' "
        "start-up, binarization and reports not included)"
    )
    OUT.mkdir(parents=True, exist_ok=True)
    with atomic_path(OUT / "suite_timing.csv", suffix=".csv") as tmp:
        table.to_csv(tmp)
    print(f"wrote {OUT / 'suite_timing.csv'}")


if __name__ == "__main__":
    main()
