"""The costliest estimator calls of the full run (issue #14), timed on their real shapes.

Prints medians of repeated timings (one thread, as the pipeline's jobs) of:

1. ``fit`` of Greedy (Eq. 1) and SpeedBoost (Eq. 4), 500 rounds at the grid's largest budget
   (40), on trial 0 of binarized sonar and ionosphere with costs U[0, 2] (the ``uniform_0_2``
   cost model): Greedy never spends its budget there, so every round scores all 11,196 or
   8,114 candidates;
2. the test-time sampling of AdaBoostRS_AC (``AdaBoostRS(cost_weighted=True)``, 500 rounds):
   ``evaluate_at_budgets`` on the test rows and on the training rows over the budget grid, as
   a train job does, on census and ocr17 (budgets every 2 up to 40) and heart with Turney's
   costs (every 10 up to 600).

To compare with an earlier commit, export it and run this script against it from the same
repository root, e.g. ``git archive OLD | tar -x -C /tmp/old`` then
``PYTHONPATH=/tmp/old python benchmarks/hotspots.py``.

Run from the repository root: ``python benchmarks/hotspots.py [--repeats 5]``.
"""

from __future__ import annotations

import os

# before numpy loads its BLAS: one thread, as the pipeline's jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import budgetboost  # noqa: E402
from budgetboost import AdaBoostRS, BudgetedBoost  # noqa: E402
from budgetboost.costs import make_costs  # noqa: E402
from budgetboost.datasets import build_binarized, load_registry  # noqa: E402
from budgetboost.experiment import budget_grid  # noqa: E402
from budgetboost.seeds import seed_from_key  # noqa: E402
from budgetboost.splits import split_indices  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
UNIFORM = ("uniform_0_2", {"model": "uniform_random", "low": 0.0, "high": 2.0}, (2, 40))
TURNEY = ("turney", {"model": "real", "file": "resources/heart_turney_costs.csv"}, (10, 600))


def trial_inputs(name: str, cost_model: tuple, trial: int = 0) -> dict:
    """Rows, labels, costs, groups and budget grid of one trial, as a train job gets them."""
    model_name, spec, (step, stop) = cost_model
    entry = load_registry(ROOT / "config" / "datasets.yaml")[name]
    data = build_binarized(name, entry, ROOT)
    train, test = split_indices(name, trial, len(data.y), entry["train_size"], entry["test_size"])
    table = make_costs(name, model_name, spec, data, None, [trial], ROOT)
    return {
        "train": (data.X[train], data.y[train]),
        "test": (data.X[test], data.y[test]),
        "costs": table.of_trial(trial),
        "groups": data.groups if table.grouped else None,
        "budgets": budget_grid(step, stop),
        "seed": seed_from_key("sampling", name, model_name, "adaboost_rs_ac", trial),
    }


def median_ms(fn, repeats: int) -> float:
    """Median wall time of ``repeats`` calls of ``fn``, in milliseconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1e3 * statistics.median(times)


def criterion_fits(repeats: int) -> None:
    """Part 1: Greedy and SpeedBoost fits of 500 rounds on sonar and ionosphere."""
    print("fit, 500 rounds at budget 40, trial 0, costs U[0, 2]")
    for name in ("sonar", "ionosphere"):
        inputs = trial_inputs(name, UNIFORM)
        X, y = inputs["train"]
        for criterion in ("greedy", "speedboost"):
            model = BudgetedBoost(
                criterion=criterion, max_rounds=500, budget=40.0, feature_costs=inputs["costs"]
            )
            ms = median_ms(lambda model=model, X=X, y=y: model.fit(X, y), repeats)
            print(
                f"  {name:<11}{criterion:<11}{X.shape[0]:>4} x {X.shape[1]:<6}"
                f"{ms:8.1f} ms  ({len(model.alpha_)} rounds, spent "
                f"{model.spent_[-1]:.2f})"
            )


def sampling_predictions(repeats: int) -> None:
    """Part 2: AdaBoostRS_AC's evaluation over the grid, test and training rows."""
    print("AdaBoostRS_AC (500 rounds), evaluate_at_budgets on test + training rows, trial 0")
    for name, cost_model in (("census", UNIFORM), ("ocr17", UNIFORM), ("heart", TURNEY)):
        inputs = trial_inputs(name, cost_model)
        model = AdaBoostRS(
            n_rounds=500,
            cost_weighted=True,
            feature_costs=inputs["costs"],
            feature_groups=inputs["groups"],
            random_state=inputs["seed"],
        )
        model.fit(*inputs["train"])
        budgets = inputs["budgets"]

        def evaluate(model=model, inputs=inputs, budgets=budgets):
            model.evaluate_at_budgets(*inputs["test"], budgets)
            model.evaluate_at_budgets(*inputs["train"], budgets)

        ms = median_ms(evaluate, repeats)
        rows = len(inputs["test"][1]) + len(inputs["train"][1])
        print(
            f"  {name + '/' + cost_model[0]:<18}{rows:>5} rows, {len(budgets):>2} budgets "
            f"{ms:8.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"budgetboost from {Path(budgetboost.__file__).parent}")
    criterion_fits(args.repeats)
    sampling_predictions(args.repeats)


if __name__ == "__main__":
    main()
