"""The per-dataset inference against known truths (issue 30), at the benchmark's sizes.

For each shape (training rows, test rows, pool: Table 1's sonar/heart, splice, breast cancer,
ecoli, and census's 6,000 of 48,842 rows) and each number of trials, simulates many datasets
(:mod:`budgetboost.analysis.simulation`) and prints:

- ``false b/w``: the share of datasets where two learners of equal population error read
  ``better`` or ``worse`` (:func:`budgetboost.analysis.compare_paired`, corrected resampled
  t-test), beside ``naive``, the same test with the trials taken as independent;
- ``coverage``: the share whose 95 % interval holds the true difference 0;
- ``false equiv.``: the share of tie-heavy datasets (most trials differ by exactly 0, the true
  mean difference on the margin, 0.01) that read ``equivalent``, and the share of their
  differences that were 0;
- each share's 95 % Clopper-Pearson interval over the simulated datasets.

Run from the repository root: ``python benchmarks/inference.py [--datasets 2000]
[--trials 10,30,100]``. Seeded: the same arguments print the same numbers.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from scipy import stats as sps

from budgetboost.analysis import compare_paired
from budgetboost.analysis.simulation import switching_differences, symmetric_differences
from budgetboost.analysis.vocabulary import BETTER, EQUIVALENT, WORSE
from budgetboost.data.seeds import rng_from_key

#: (name, training rows, test rows, pool): Table 1's shapes and census's large pool.
SHAPES = (
    ("sonar/heart", 100, 170, 270),
    ("ecoli", 200, 136, 336),
    ("breast cancer", 500, 199, 699),
    ("splice", 1000, 2175, 3175),
    ("census", 1000, 5000, 48842),
)


def _share(hits: int, n: int) -> str:
    low = sps.beta.ppf(0.025, hits, n - hits + 1) if hits else 0.0
    high = sps.beta.ppf(0.975, hits + 1, n - hits) if hits < n else 1.0
    return f"{hits / n:6.1%} [{low:.1%}, {high:.1%}]"


def _naive_rejects(d: np.ndarray) -> bool:
    se = d.std(ddof=1) / math.sqrt(d.size)
    return se > 0 and 2 * sps.t.sf(abs(d.mean()) / se, d.size - 1) < 0.05


def run(shape: tuple, trials: int, datasets: int) -> dict:
    name, n_train, n_test, n_pool = shape
    rng = rng_from_key("inference", name, trials)
    false, naive, covered, equivalent, zeros = 0, 0, 0, 0, 0.0
    for _ in range(datasets):
        d = symmetric_differences(rng, n_train, n_test, n_pool, trials)
        row = compare_paired(d, n_train, n_test, n_pool)
        false += row["outcome"] in (BETTER, WORSE)
        naive += _naive_rejects(d)
        covered += row["ci_low"] <= 0 <= row["ci_high"]
        tied = switching_differences(rng, n_train, n_test, n_pool, trials)
        equivalent += compare_paired(tied, n_train, n_test, n_pool)["outcome"] == EQUIVALENT
        zeros += float(np.mean(tied == 0))
    return {
        "false": _share(false, datasets),
        "naive": _share(naive, datasets),
        "coverage": _share(covered, datasets),
        "equivalent": _share(equivalent, datasets),
        "zeros": f"{zeros / datasets:.0%}",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=2000, help="simulated datasets per cell")
    parser.add_argument("--trials", default="10,30,100", help="comma-separated trial counts")
    args = parser.parse_args(argv)
    try:
        trials = [int(t) for t in args.trials.split(",")]
    except ValueError:
        parser.error(f"--trials: comma-separated integers; got {args.trials!r}")
    if args.datasets < 1 or any(t < 2 for t in trials):
        parser.error("--datasets must be >= 1 and every --trials >= 2")
    print(
        f"{'shape':14} {'rows':>17} {'J':>4}  {'false b/w':22} {'naive':22} "
        f"{'coverage':22} {'false equiv.':22} zeros"
    )
    for shape in SHAPES:
        for J in trials:
            start = time.perf_counter()
            r = run(shape, J, args.datasets)
            rows = f"{shape[1]}/{shape[2]} of {shape[3]}"
            print(
                f"{shape[0]:14} {rows:>17} {J:>4}  {r['false']:22} {r['naive']:22} "
                f"{r['coverage']:22} {r['equivalent']:22} {r['zeros']:>5}"
                f"  ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
