"""Time and reach of the tuned algorithms (the library peers, TunedBoost) per dataset.

For each dataset and algorithm of a config (by default the peers and every tuned algorithm of
``config/config.yaml``): the first ``--trials`` trials' splits and U[0, 2] costs exactly as a
train job makes them (:func:`budgetboost.pipeline.blocks.block_inputs`), the estimator as
the job builds it (:func:`budgetboost.pipeline.specs.make_estimator`), one fit and the
evaluation on the test and the training rows at the cost model's budgets. Prints, per
(dataset, algorithm), medians over the trials:

- ``fit s``, ``pred s`` and ``cpu s`` of one trial (CPU time: what a free core takes; one
  thread per fit, as in the pipeline), and ``cpu min``: the CPU minutes of all the trials
  the config runs (its caps), i.e. of the algorithm's train jobs on that dataset;
- ``full``: what the most expensive model of the grid spends with all its trees or rounds
  (the unpenalised one, for a peer) against ``top``, the budget grid's top: below it, the
  upper budgets cannot be used; and ``half``: what the same model's first half spends (about
  ``full``: the model stopped adding features, more trees would not reach further);
- the test error and ``spent`` at the grid's top, and the number of configurations fitted.

Run from the repository root: ``python benchmarks/peers.py [--configfile config/config.yaml]
[--algorithms lightgbm_stumps smoothed_tuned] [--datasets sonar heart] [--trials 3]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from budgetboost.checks import load_config_file
from budgetboost.data.datasets import build_binarized
from budgetboost.data.registry import load_registry, paper_datasets
from budgetboost.estimators.contract.registry import estimator_class
from budgetboost.pipeline.blocks import block_inputs
from budgetboost.pipeline.plan import algorithm_catalogue, budget_grid
from budgetboost.pipeline.specs import algorithm_spec, make_estimator

ROOT = Path(__file__).resolve().parents[1]
COST_MODEL = "uniform_0_2"


def tuned_algorithms(config: dict) -> list[str]:
    """The config's peers and tuned algorithms (those whose estimator ``tunes``)."""
    names = []
    catalogue = algorithm_catalogue(config["algorithms"])
    for name, entry in config["algorithms"].items():
        cls = estimator_class(entry["estimator"])
        if catalogue[name].family == "peer" or cls.tunes(entry.get("params") or {}):
            names.append(name)
    return names


def full_spend(estimator) -> tuple[float, float]:
    """The largest spend of a fitted grid's models with all their trees or rounds, and what
    that model's first half of them spends."""
    if hasattr(estimator, "prefix_cost_"):  # the peers: prefix costs from 0 trees
        paths = [cost[1:] for cost in estimator.prefix_cost_]
    elif hasattr(estimator, "models_") and all(hasattr(m, "spent_") for m in estimator.models_):
        paths = [m.spent_ for m in estimator.models_]  # TunedBoost
    elif hasattr(estimator, "spent_"):
        paths = [estimator.spent_]
    else:
        return float("nan"), float("nan")
    path = max(paths, key=lambda p: p[-1] if p.size else 0.0)
    if not path.size:
        return 0.0, 0.0
    return float(path[-1]), float(path[(path.size - 1) // 2])


def n_configs(estimator) -> int:
    for name in ("configs_", "taus_", "tradeoffs_"):
        if hasattr(estimator, name):
            return len(getattr(estimator, name))
    return 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "config.yaml")
    parser.add_argument("--algorithms", nargs="+", default=None)
    parser.add_argument("--datasets", nargs="+", default=None)
    parser.add_argument("--trials", type=int, default=1, help="trials timed per dataset")
    args = parser.parse_args()
    config = load_config_file(args.configfile)
    registry = load_registry(ROOT / config["registry"])
    algorithms = args.algorithms or tuned_algorithms(config)
    datasets = args.datasets or list(paper_datasets(registry))
    model = config["cost_models"][COST_MODEL]
    budgets = budget_grid(**model["budgets"])
    top = budgets[-1]
    print(
        f"{'dataset':<14}{'rows x cols':>13}  {'algorithm':<17}{'fit s':>7}{'pred s':>7}"
        f"{'cpu s':>7}{'trials':>7}{'cpu min':>8}{'full':>7}{'half':>7}{'top':>5}"
        f"{'err@top':>8}{'spent@top':>10}{'configs':>8}"
    )
    totals = dict.fromkeys(algorithms, 0.0)
    for dataset in datasets:
        entry = registry[dataset]
        data = build_binarized(dataset, entry, ROOT)
        trials = list(range(args.trials))
        inputs = block_inputs(
            data,
            dataset=dataset,
            cost_model=COST_MODEL,
            cost_spec=model["spec"],
            train_size=entry["train_size"],
            test_size=entry["test_size"],
            trials=trials,
            root=ROOT,
        )
        dataset_trials = config["datasets"].get(dataset, {}).get("trials", entry["trials"])
        for name in algorithms:
            spec = algorithm_spec(name, config["algorithms"][name], entry.get("adaboost_rounds"))
            caps = [dataset_trials, config["algorithms"][name].get("trials"), model.get("trials")]
            runs = min(c for c in caps if c is not None)
            fit, pred, cpu, full, half, err, spent = [], [], [], [], [], [], []
            for trial in trials:
                train, test = inputs.splits[trial]
                estimator = make_estimator(
                    spec,
                    dataset=dataset,
                    cost_model=COST_MODEL,
                    trial=trial,
                    feature_costs=inputs.costs[trial],
                    feature_groups=None,
                )
                wall, clock = time.perf_counter(), time.process_time()
                estimator.fit(data.X[train], data.y[train])
                fit.append(time.perf_counter() - wall)
                ev = estimator.evaluate_at_budgets(data.X[test], data.y[test], budgets)
                estimator.evaluate_at_budgets(data.X[train], data.y[train], budgets)
                pred.append(time.perf_counter() - wall - fit[-1])
                cpu.append(time.process_time() - clock)
                whole, first = full_spend(estimator)
                full.append(whole)
                half.append(first)
                err.append(float(ev.error[-1]))
                spent.append(float(ev.spent[-1]))
            minutes = statistics.median(cpu) * runs / 60
            totals[name] += minutes
            print(
                f"{dataset:<14}{f'{data.X[train].shape[0]} x {data.X.shape[1]}':>13}  "
                f"{name:<17}{statistics.median(fit):7.2f}{statistics.median(pred):7.2f}"
                f"{statistics.median(cpu):7.2f}{runs:7d}{minutes:8.1f}"
                f"{statistics.median(full):7.1f}{statistics.median(half):7.1f}{top:5.0f}"
                f"{np.median(err):8.3f}"
                f"{np.median(spent):10.2f}{n_configs(estimator):8d}",
                flush=True,
            )
    print(
        "\nCPU minutes of all the trials the config runs, per algorithm:",
        ", ".join(f"{name} {minutes:.1f}" for name, minutes in totals.items()),
        f"(total {sum(totals.values()):.1f})",
    )


if __name__ == "__main__":
    main()
