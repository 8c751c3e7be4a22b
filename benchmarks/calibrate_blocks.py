"""Measure what one trial of each algorithm costs: the calibration the plan sizes blocks by.

For every algorithm of the given configs (default: ``config/config.yaml`` and
``config/suite.yaml``) on every dataset it runs on, one trial (trial 0; ``--trials N``: the
median of the first N) is fitted and evaluated exactly as a train job does it
(:func:`budgetboost.pipeline.blocks.run_block`: the trial's split, U[0, 2] costs, the cost
model's budget grid on the test and the training rows, the unread-columns check), in this
process with one thread, and its CPU seconds are recorded; the shared AdaBoost path is timed
as its own kind (``adaboost_path``), the algorithms that read it do not pay it. An algorithm
is measured once per *kind* (:func:`budgetboost.pipeline.trial_costs.algorithm_kind`: the
same estimator and parameters under two names is one kind).

The rows replace those of the same kind, dataset and sizes in the package's calibration
table, ``budgetboost/pipeline/trial_seconds.csv`` (``--output``: another file), which
:class:`budgetboost.pipeline.trial_costs.TrialCosts` reads when a workflow is planned. After
the table, it prints how well each kind's log-linear model (the estimate of a dataset or
size not measured) predicts each measured row left out (median and largest ratio).

A new calibration re-sizes the blocks of every cell whose expected time crosses a power of
two, and those cells' shards are computed again (same rows, other files).

Run from the repository root: ``python benchmarks/calibrate_blocks.py [--configfile
config/config.yaml config/suite.yaml] [--datasets heart sonar] [--algorithms greedy aaco]
[--trials 1] [--output FILE]``.
"""

from __future__ import annotations

import os

# before numpy loads its BLAS: one thread, as in the pipeline's jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import csv  # noqa: E402
import statistics  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
from scale import COST_MODEL, PATH, ROOT, trial_seconds  # noqa: E402

from budgetboost.checks import check_all, load_config_file  # noqa: E402
from budgetboost.data.datasets import build_binarized  # noqa: E402
from budgetboost.data.io import atomic_path  # noqa: E402
from budgetboost.pipeline.plan import PATH_ENTRY, Plan  # noqa: E402
from budgetboost.pipeline.trial_costs import (  # noqa: E402
    CALIBRATION,
    COLUMNS,
    LogLinearModel,
    TrialCosts,
    algorithm_kind,
)


def cells(configs: list[dict], registries: list[dict], datasets, algorithms):
    """``{(kind, dataset, train, test): (config, entry, algorithm name)}`` to measure: each
    kind once per dataset and sizes, under the config that runs it."""
    todo = {}
    for config, registry in zip(configs, registries, strict=True):
        plan = Plan(config, registry)
        for dataset, _, algorithm in plan.experiments():
            if datasets and dataset not in datasets:
                continue
            if algorithms and algorithm not in algorithms:
                continue
            sizes = plan.split_sizes(dataset)
            kind = algorithm_kind(config["algorithms"][algorithm])
            key = (kind, dataset, sizes["train_size"], sizes["test_size"])
            todo.setdefault(key, (config, registry[dataset], algorithm))
    return todo


def measure(todo: dict, trials: int) -> list[dict]:
    """One row per cell of ``todo`` (the shared path first on each dataset), in this process."""
    rows, data_of, paths_of = [], {}, {}
    for (kind, dataset, train, test), (config, entry, algorithm) in sorted(
        todo.items(), key=lambda item: (item[0][1], item[0][0])
    ):
        if dataset not in data_of:
            data_of[dataset] = build_binarized(dataset, entry, ROOT)
        data = data_of[dataset]
        entry = {**entry, "train_size": train, "test_size": test}
        if (dataset, train, test) not in paths_of:
            results = [
                trial_seconds(config, entry, data, dataset, train, PATH, t) for t in range(trials)
            ]
            paths_of[(dataset, train, test)] = [r["paths"] for r in results]
            rows.append(_row(algorithm_kind(PATH_ENTRY), PATH, dataset, train, test, data, results))
        paths = paths_of[(dataset, train, test)]
        results = [
            trial_seconds(config, entry, data, dataset, train, algorithm, t, paths[t])
            for t in range(trials)
        ]
        estimator = str(config["algorithms"][algorithm]["estimator"])
        rows.append(_row(kind, estimator, dataset, train, test, data, results))
        print(f"{dataset:<18}{algorithm:<22}{rows[-1]['seconds']:9.3f} s", flush=True)
    return rows


def _row(kind, estimator, dataset, train, test, data, results) -> dict:
    return {
        "kind": kind,
        "estimator": estimator,
        "dataset": dataset,
        "train_size": train,
        "test_size": test,
        "columns": int(data.X.shape[1]),
        "seconds": round(statistics.median(r["cpu_s"] for r in results), 4),
    }


def merged(old: list[dict], new: list[dict]) -> list[dict]:
    """``old`` with the rows of ``new`` in place of those of the same kind, dataset and sizes."""
    key = ("kind", "dataset", "train_size", "test_size")
    table = {tuple(r[k] for k in key): r for r in old}
    table.update({tuple(r[k] for k in key): r for r in new})
    return sorted(table.values(), key=lambda r: (r["estimator"], r["kind"], r["dataset"]))


def write(rows: list[dict], path: Path) -> None:
    with atomic_path(path, suffix=".csv") as tmp, tmp.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(COLUMNS), lineterminator="\n")
        writer.writeheader()
        writer.writerows({k: r[k] for k in COLUMNS} for r in rows)


def model_check(rows: list[dict]) -> None:
    """Each kind's model fitted without each of its rows, against that row."""
    print("\nthe model of a kind, each measured row left out (predicted / measured):")
    kinds: dict[str, list] = {}
    for row in rows:
        kinds.setdefault(row["kind"], []).append(row)
    for kind, part in sorted(kinds.items(), key=lambda item: item[1][0]["estimator"]):
        ratios = []
        for i, row in enumerate(part):
            fit = LogLinearModel.of(part[:i] + part[i + 1 :])
            if fit is not None:
                predicted = fit.seconds(row["train_size"], row["test_size"], row["columns"])
                ratios.append(predicted / row["seconds"])
        if ratios:
            worst = max(ratios, key=lambda r: abs(np.log(r)))
            print(
                f"  {part[0]['estimator']:<18}{len(part):4d} rows  median {np.median(ratios):5.2f}"
                f"  worst {worst:7.2f}  {kind[:70]}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--configfile",
        nargs="+",
        type=Path,
        default=[ROOT / "config" / "config.yaml", ROOT / "config" / "suite.yaml"],
    )
    parser.add_argument("--datasets", nargs="+", default=None)
    parser.add_argument("--algorithms", nargs="+", default=None)
    parser.add_argument("--trials", type=int, default=1)
    parser.add_argument("--output", type=Path, default=CALIBRATION)
    args = parser.parse_args()
    configs, registries = [], []
    for path in args.configfile:
        config, registry = check_all(load_config_file(path), ROOT, [path])
        if COST_MODEL not in config["cost_models"]:
            raise SystemExit(f"{path}: no cost model named {COST_MODEL!r} to time under")
        configs.append(config)
        registries.append(registry)
    todo = cells(configs, registries, args.datasets, args.algorithms)
    print(f"{len(todo)} (kind, dataset) cells, {args.trials} trial(s) each, CPU seconds:")
    new = measure(todo, args.trials)
    rows = merged(TrialCosts.read(args.output).rows, new)
    write(rows, args.output)
    print(f"\n{len(new)} rows measured; {len(rows)} in {args.output}")
    model_check(rows)


if __name__ == "__main__":
    main()
