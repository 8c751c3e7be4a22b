"""Speed of the library peers on the Table 1 datasets (issue #15, "Speed").

For each dataset: trial 0's split, costs U[0, 2] (``uniform_0_2``), the default trade-off
grid (5 values), and each peer with stumps and with depth-4 trees. Prints, per
(dataset, peer): the fit time, the prediction time (``evaluate_at_budgets`` on the test and
the training rows at the budgets 2, 4, ..., 40, as a pipeline trial does), their sum (the
time of one trial) in wall-clock and CPU seconds (CPU time is what a free core would take;
wall-clock grows when the machine is shared), the CPU time of all the dataset's Table 1
trials, and as a sanity check the test error and ``spent`` at budgets 10 and 40. One
thread per fit, as in the pipeline (a trial runs in one process: on 2 cores, two at once).

Run from the repository root: ``python benchmarks/peers.py [--datasets sonar heart]
[--peers lightgbm_stumps catboost_depth4] [--rounds 100]``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from budgetboost.data.costs import make_costs
from budgetboost.data.datasets import build_binarized
from budgetboost.data.registry import load_registry, paper_datasets
from budgetboost.data.seeds import seed_from_key
from budgetboost.data.splits import split_indices
from budgetboost.pipeline.plan import budget_grid

ROOT = Path(__file__).resolve().parents[1]
#: The datasets of Table 1, in its order (the registry's).
DATASETS = list(paper_datasets(load_registry(ROOT / "config" / "datasets.yaml")))
COST_MODEL = "uniform_0_2"
COST_SPEC = {"model": "uniform_random", "low": 0.0, "high": 2.0}


def peers(rounds: int) -> dict:
    """Name -> a constructor of the peer (imported here: each needs its library)."""
    from budgetboost.estimators.peers import BudgetedCatBoost, BudgetedLightGBM

    return {
        "lightgbm_stumps": lambda: BudgetedLightGBM(n_estimators=rounds, max_depth=1),
        "lightgbm_depth4": lambda: BudgetedLightGBM(
            n_estimators=rounds, max_depth=4, num_leaves=16
        ),
        "catboost_stumps": lambda: BudgetedCatBoost(iterations=rounds, depth=1),
        "catboost_depth4": lambda: BudgetedCatBoost(iterations=rounds, depth=4),
    }


def trial_zero(name: str, entry: dict):
    """Trial 0 of a dataset: (X_train, y_train, X_test, y_test, costs), as the pipeline."""
    data = build_binarized(name, entry, ROOT)
    train, test = split_indices(name, 0, data.X.shape[0], entry["train_size"], entry["test_size"])
    costs = make_costs(name, COST_MODEL, COST_SPEC, data, {0: (train, test)}, [0], ROOT)
    return data.X[train], data.y[train], data.X[test], data.y[test], costs.of_trial(0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--peers", nargs="+", default=None)
    parser.add_argument("--rounds", type=int, default=100, help="trees per model")
    args = parser.parse_args()
    registry = load_registry(ROOT / "config" / "datasets.yaml")
    makers = peers(args.rounds)
    chosen = args.peers or list(makers)
    budgets = budget_grid(2, 40)
    print(
        f"{'dataset':<14}{'rows x cols':>14}  {'peer':<16}{'fit s':>7}{'pred s':>7}"
        f"{'trial s':>8}{'cpu s':>7}{'trials':>7}{'cpu min':>8}"
        "  err@10 spent@10  err@40 spent@40"
    )
    totals = dict.fromkeys(chosen, 0.0)
    at = [budgets.index(10.0), budgets.index(40.0)]
    for name in args.datasets:
        entry = registry[name]
        X, y, Xt, yt, costs = trial_zero(name, entry)
        for peer in chosen:
            estimator = makers[peer]().set_params(
                feature_costs=costs,
                random_state=seed_from_key("sampling", name, COST_MODEL, peer, 0),
            )
            wall, cpu = time.perf_counter(), time.process_time()
            estimator.fit(X, y)
            fit = time.perf_counter() - wall
            test = estimator.evaluate_at_budgets(Xt, yt, budgets)
            estimator.evaluate_at_budgets(X, y, budgets)
            trial, trial_cpu = time.perf_counter() - wall, time.process_time() - cpu
            minutes = trial_cpu * entry["trials"] / 60
            totals[peer] += minutes
            print(
                f"{name:<14}{f'{X.shape[0]} x {X.shape[1]}':>14}  {peer:<16}{fit:7.2f}"
                f"{trial - fit:7.2f}{trial:8.2f}{trial_cpu:7.2f}{entry['trials']:7d}"
                f"{minutes:8.1f}  {test.error[at[0]]:6.3f} {test.spent[at[0]]:8.2f}"
                f"  {test.error[at[1]]:6.3f} {test.spent[at[1]]:8.2f}",
                flush=True,
            )
    print(
        "\nCPU minutes for all Table 1 trials of these datasets:",
        ", ".join(f"{peer} {minutes:.1f}" for peer, minutes in totals.items()),
    )


if __name__ == "__main__":
    main()
