"""Speed of boosting depth-2 trees against stumps (target <= 3x per round).

Prints, per Table 1 dataset (trial 0's training rows of the binarized data, as
``benchmarks/engine.py`` loads them), the per-round fit time of
``BudgetedBoost(criterion=c, weak_learner="tree", max_depth=2)`` and of its stump
counterpart ``BudgetedBoost(criterion=c)``, for ``c`` in greedy and smoothed, and their
ratio. Costs: one cost per raw attribute (uniform in [0, 1], seed 0), its indicators paid for
together (``feature_groups``), as the grouped cost models do. Each fit runs ``--rounds``
rounds (fewer if it stops early: per-round times divide by the rounds made); times include
input checks and the stump space. Stumps and trees alternate; medians over ``--repeats``,
the ratio is the median of the paired ratios.

BLAS and OpenMP are limited to one thread, as the pipeline's one-core jobs.

Run from the repository root: ``python benchmarks/boosted_trees.py [--repeats 5]``
(``--datasets sonar,heart`` for a subset, ``--rounds 200``, ``--depth 2``).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine import TABLE1, trial_data  # noqa: E402

from budgetboost import BudgetedBoost  # noqa: E402

CRITERIA = ("greedy", "smoothed")


def timed(fn) -> tuple[float, object]:
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--datasets", default=",".join(TABLE1))
    args = parser.parse_args()

    print(
        f"{args.rounds} rounds, depth-{args.depth} trees vs stumps, trial 0's training rows, "
        f"medians of {args.repeats} (one thread)"
    )
    print(
        f"{'dataset':<14}{'rows x cols':>13}{'criterion':>10}{'stump us/rd':>13}"
        f"{'tree us/rd':>12}{'ratio':>8}{'rounds s/t':>12}{'train err s/t':>15}"
    )
    ratios = []
    for name in args.datasets.split(","):
        data, train, _ = trial_data(name)
        X, y = data.X[train], data.y[train]
        groups = data.groups
        costs = np.random.default_rng(0).uniform(0, 1, groups.max() + 1)[groups]
        for criterion in CRITERIA:
            common = dict(
                criterion=criterion,
                max_rounds=args.rounds,
                feature_costs=costs,
                feature_groups=groups,
            )

            def stump(common=common, X=X, y=y):
                return BudgetedBoost(**common).fit(X, y)

            def tree(common=common, X=X, y=y):
                return BudgetedBoost(**common, weak_learner="tree", max_depth=args.depth).fit(X, y)

            stump()  # warm-up
            tree()
            per_stump, per_tree, paired = [], [], []
            for _ in range(args.repeats):
                ts, ms = timed(stump)
                tt, mt = timed(tree)
                a, b = ts / max(len(ms.alpha_), 1), tt / max(len(mt.alpha_), 1)
                per_stump.append(a)
                per_tree.append(b)
                paired.append(b / a)
            ratio = statistics.median(paired)
            ratios.append(ratio)
            err_s = np.mean(ms.predict(X) != np.where(y > 0, ms.classes_[1], ms.classes_[0]))
            err_t = np.mean(mt.predict(X) != np.where(y > 0, mt.classes_[1], mt.classes_[0]))
            print(
                f"{name:<14}{f'{X.shape[0]} x {X.shape[1]}':>13}{criterion:>10}"
                f"{statistics.median(per_stump) * 1e6:>13.0f}"
                f"{statistics.median(per_tree) * 1e6:>12.0f}{ratio:>7.2f}x"
                f"{f'{len(ms.alpha_)}/{len(mt.alpha_)}':>12}"
                f"{f'{err_s:.3f}/{err_t:.3f}':>15}"
            )
    print(f"ratio: tree / stump per-round time (target <= 3x); worst {max(ratios):.2f}x")


if __name__ == "__main__":
    main()
