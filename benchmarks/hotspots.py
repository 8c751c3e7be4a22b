"""The costliest estimator calls of the full run, timed on their real shapes.

Prints medians of repeated timings (one thread, as the pipeline's jobs) of:

1. ``fit`` of Greedy (Eq. 1) and SpeedBoost (Eq. 4), 500 rounds at the grid's largest budget
   (40), on trial 0 of binarized sonar and ionosphere with costs U[0, 2] (the ``uniform_0_2``
   cost model): Greedy never spends its budget there, so every round looks at all 11,196 or
   8,114 candidates;
2. the test-time sampling of AdaBoostRS_AC (``AdaBoostRS(cost_weighted=True)``, 500 rounds):
   ``evaluate_at_budgets`` on the test rows and on the training rows over the budget grid, as
   a train job does, on census and ocr17 (budgets every 2 up to 40) and heart with Turney's
   costs (every 10 up to 600);
3. the evaluation of Greedy's boosted stumps and depth-2 trees (500 rounds at budget 40)
   as a train job makes it, ``evaluate_at_budgets`` on the test and training rows, on census
   and ocr17 (U[0, 2]), then the job's check of what each test example reads
   (:func:`budgetboost.pipeline.verify.check_reads_paid_for`, at every budget on the whole test
   rows; a package without ``groups_read`` is probed instead, which is slower): with 5,000
   test rows the evaluation costs a train job as much as the fit (the votes of every prefix,
   and for trees each row's own cost).

``--baseline DIR`` also times the package of an earlier commit in the same session (``DIR``
holds its ``budgetboost/``, e.g. from ``git archive OLD | tar -x -C DIR``): the two run in
turn, the ratio is the median of the paired ratios, and the results of the two are compared
(fitted paths, sampled votes and costs: ``same`` means identical bytes).

Run from the repository root: ``python benchmarks/hotspots.py [--repeats 5] [--baseline DIR]
[--parts 1 2 3]``.
"""

from __future__ import annotations

import os

# before numpy loads its BLAS: one thread, as the pipeline's jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import importlib.util  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

import budgetboost  # noqa: E402
from budgetboost.data.costs import make_costs  # noqa: E402
from budgetboost.data.datasets import build_binarized  # noqa: E402
from budgetboost.data.registry import load_registry  # noqa: E402
from budgetboost.data.seeds import seed_from_key  # noqa: E402
from budgetboost.data.splits import split_indices  # noqa: E402
from budgetboost.pipeline.plan import budget_grid  # noqa: E402
from budgetboost.pipeline.verify import TrialPrices, check_reads_paid_for, measure  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
UNIFORM = ("uniform_0_2", {"model": "uniform_random", "low": 0.0, "high": 2.0}, (2, 40))
TURNEY = (
    "turney",
    {"model": "real", "file": "resources/heart_cleveland_turney_costs.csv"},
    (10, 330),
)


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


def load_baseline(path: Path):
    """The package in ``path/budgetboost`` imported as ``budgetboost_baseline``."""
    spec = importlib.util.spec_from_file_location(
        "budgetboost_baseline",
        path / "budgetboost" / "__init__.py",
        submodule_search_locations=[str(path / "budgetboost")],
    )
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def timed(fns: list, repeats: int) -> tuple[list[float], float | None]:
    """Median milliseconds of each of ``fns`` (run in turn) and the median ratio last/first."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, spent in zip(fns, times, strict=True):
            start = time.perf_counter()
            fn()
            spent.append(time.perf_counter() - start)
    medians = [1e3 * statistics.median(t) for t in times]
    ratio = None
    if len(fns) > 1:
        ratio = statistics.median(b / a for a, b in zip(times[0], times[-1], strict=True))
    return medians, ratio


def report(label: str, medians: list[float], ratio: float | None, same: bool | None) -> None:
    line = f"  {label:<46}" + "".join(f"{ms:10.1f}" for ms in medians)
    if ratio is not None:
        line += f"{ratio:10.2f}x  {'same' if same else 'DIFFERENT'}"
    print(line)


def criterion_fits(packages: list, repeats: int) -> None:
    """Part 1: Greedy and SpeedBoost fits of 500 rounds on sonar and ionosphere."""
    print("fit, 500 rounds at budget 40, trial 0, costs U[0, 2] (ms)")
    for name in ("sonar", "ionosphere"):
        inputs = trial_inputs(name, UNIFORM)
        X, y = inputs["train"]
        for criterion in ("greedy", "speedboost"):
            models = [
                package.BudgetedBoost(
                    criterion=criterion, max_rounds=500, budget=40.0, feature_costs=inputs["costs"]
                )
                for package in packages
            ]
            medians, ratio = timed([lambda m=m, X=X, y=y: m.fit(X, y) for m in models], repeats)
            paths = [(m.feature_, m.threshold_, m.polarity_, m.alpha_, m.spent_) for m in models]
            same = all(
                all(np.array_equal(a, b) for a, b in zip(paths[0], p, strict=True)) for p in paths
            )
            rounds = len(models[0].alpha_)
            label = f"{name} {criterion}, {X.shape[0]} x {X.shape[1]}, {rounds} rounds"
            report(label, medians, ratio, same)


def sampling_predictions(packages: list, repeats: int) -> None:
    """Part 2: AdaBoostRS_AC's evaluation over the grid, test and training rows."""
    print("AdaBoostRS_AC (500 rounds), evaluate_at_budgets, test + training rows, trial 0 (ms)")
    for name, cost_model in (("census", UNIFORM), ("ocr17", UNIFORM), ("heart", TURNEY)):
        inputs = trial_inputs(name, cost_model)
        models = [
            package.AdaBoostRS(
                n_rounds=500,
                cost_weighted=True,
                feature_costs=inputs["costs"],
                feature_groups=inputs["groups"],
                random_state=inputs["seed"],
            ).fit(*inputs["train"])
            for package in packages
        ]
        budgets = inputs["budgets"]

        def evaluate(model, inputs=inputs, budgets=budgets):
            model.evaluate_at_budgets(*inputs["test"], budgets)
            model.evaluate_at_budgets(*inputs["train"], budgets)

        medians, ratio = timed([lambda m=m: evaluate(m) for m in models], repeats)
        samples = [m.sample_at_budgets(inputs["test"][0], budgets) for m in models]
        same = all(np.array_equal(samples[0][k], s[k]) for s in samples for k in samples[0])
        rows = len(inputs["test"][1]) + len(inputs["train"][1])
        label = f"{name}/{cost_model[0]}, {rows} rows, {len(budgets)} budgets"
        report(label, medians, ratio, same)


def booster_evaluations(packages: list, repeats: int) -> None:
    """Part 3: the evaluation of Greedy's stumps and depth-2 trees over the grid."""
    print(
        "Greedy (500 rounds, budget 40), evaluate_at_budgets on the test + training rows "
        "and the check of unread columns (ms)"
    )
    for name in ("census", "ocr17"):
        inputs = trial_inputs(name, UNIFORM)
        for learner in ({}, {"weak_learner": "tree", "max_depth": 2}):
            models = [
                package.BudgetedBoost(
                    criterion="greedy",
                    max_rounds=500,
                    budget=40.0,
                    feature_costs=inputs["costs"],
                    **learner,
                ).fit(*inputs["train"])
                for package in packages
            ]
            budgets = inputs["budgets"]

            def evaluate(model, inputs=inputs, budgets=budgets):
                labels, test = measure(model, *inputs["test"], budgets)
                _, train = measure(model, *inputs["train"], budgets)
                shuffles = np.random.default_rng(inputs["seed"])
                X_test, y_test = inputs["test"]
                prices = TrialPrices.of(inputs["costs"])
                args = (labels, test, budgets, prices, shuffles, "part 3")
                check_reads_paid_for(model, X_test, y_test, *args)
                return test, train

            medians, ratio = timed([lambda m=m: evaluate(m) for m in models], repeats)
            results = [evaluate(m) for m in models]
            same = all(
                np.array_equal(getattr(a, field), getattr(b, field))
                for result in results
                for a, b in zip(results[0], result, strict=True)
                for field in ("error", "spent", "mean_example_cost", "max_example_cost")
            )
            scores = [m._scores_and_costs(inputs["test"][0], budgets)[0] for m in models]
            same = same and all(np.array_equal(scores[0], s) for s in scores)
            rows = len(inputs["test"][1]) + len(inputs["train"][1])
            kind = "depth-2 trees" if learner else "stumps"
            label = f"{name} {kind}, {len(models[0].alpha_)} rounds, {rows} rows"
            report(label, medians, ratio, same)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="directory holding an older budgetboost/")
    parser.add_argument(
        "--parts", nargs="+", type=int, choices=(1, 2, 3), default=(1, 2, 3), help="parts to run"
    )
    args = parser.parse_args()
    packages = [budgetboost]
    print(f"this: budgetboost from {Path(budgetboost.__file__).parent}")
    if args.baseline:
        packages.append(load_baseline(args.baseline.resolve()))
        print(f"baseline: {Path(packages[1].__file__).parent}")
        print(f"{'':48}{'this':>10}{'baseline':>10}{'ratio':>11}  (baseline / this, paired)")
    parts = {1: criterion_fits, 2: sampling_predictions, 3: booster_evaluations}
    for part in sorted(set(args.parts)):
        parts[part](packages, args.repeats)


if __name__ == "__main__":
    main()
