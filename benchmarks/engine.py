"""Speed of the boosting engine on binarized sonar (issue: core engine, "Speed").

Fits 400 rounds of unbudgeted ``adaboost`` on 100 training rows x 11,196 0/1 columns and
prints, measured in the same run (medians of repeated timings):

- the ratio to scikit-learn's ``AdaBoostClassifier(DecisionTreeClassifier(max_depth=1))``
  with 400 estimators on the same matrix (target: >= 100x faster);
- the ratio to 400 bare ``X.T @ w`` products on that matrix (target: <= 1.5x).

Run from the repository root: ``python benchmarks/engine.py [--repeats 5]``.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from budgetboost import BudgetedBoost
from budgetboost.datasets import build_binarized, load_registry
from budgetboost.splits import make_splits

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 400


def sonar_training_matrix() -> tuple[np.ndarray, np.ndarray]:
    """The 100 training rows of trial 0's split of binarized sonar, as float64."""
    registry = load_registry(ROOT / "config" / "datasets.yaml")
    entry = registry["sonar"]
    data = build_binarized("sonar", entry, ROOT)
    split = make_splits("sonar", len(data.y), entry["train_size"], entry["test_size"], 1)
    train = np.asarray(split["train"].iloc[0])
    return data.X[train].astype(np.float64), data.y[train].astype(np.int64)


def median_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()

    X, y = sonar_training_matrix()
    print(f"binarized sonar training matrix: {X.shape[0]} x {X.shape[1]} (0/1)")

    ours = median_seconds(
        lambda: BudgetedBoost(criterion="adaboost", max_rounds=ROUNDS).fit(X, y), args.repeats)
    model = BudgetedBoost(criterion="adaboost", max_rounds=ROUNDS).fit(X, y)
    print(f"budgetboost adaboost, {len(model.alpha_)} rounds: median {ours * 1e3:.1f} ms "
          f"(stop: {model.stop_reason_})")

    rng = np.random.default_rng(0)
    w = rng.random(X.shape[0])

    def bare_products():
        for _ in range(ROUNDS):
            X.T @ w

    bare = median_seconds(bare_products, args.repeats)
    print(f"{ROUNDS} bare X.T @ w products: median {bare * 1e3:.1f} ms")
    print(f"ratio engine / bare products: {ours / bare:.2f}x (target <= 1.5x)")

    try:
        from sklearn.ensemble import AdaBoostClassifier
        from sklearn.tree import DecisionTreeClassifier
    except ImportError:
        print("scikit-learn not installed: skipping the comparison")
        return

    def sklearn_fit():
        return AdaBoostClassifier(DecisionTreeClassifier(max_depth=1),
                                  n_estimators=ROUNDS).fit(X, y)

    sk = median_seconds(sklearn_fit, max(1, args.repeats // 2))
    sk_model = sklearn_fit()
    print(f"scikit-learn AdaBoostClassifier(stumps, {ROUNDS}): median {sk:.2f} s "
          f"({len(sk_model.estimators_)} estimators)")
    print(f"speed-up over scikit-learn: {sk / ours:.0f}x (target >= 100x)")
    agree = np.mean(sk_model.predict(X) == model.predict(X))
    print(f"training predictions agreeing with scikit-learn: {agree:.3f}; training error "
          f"ours {np.mean(model.predict(X) != y):.3f}, scikit-learn "
          f"{np.mean(sk_model.predict(X) != y):.3f}")


if __name__ == "__main__":
    main()
