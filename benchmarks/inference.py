"""The per-dataset inference against known truths, at the benchmark's sizes.

For each shape (training rows, test rows, pool: Table 1's sonar/heart, splice, breast cancer,
ecoli, and census's 6,000 of 48,842 rows) and each number of trials, simulates many datasets
(:mod:`budgetboost.analysis.simulation`) and prints:

- ``p<0.05``: the share of datasets where the test of no difference rejects for two learners
  of equal population error (:func:`budgetboost.analysis.compare_paired`, corrected
  resampled t-test), beside ``naive``, the same test with the trials taken as independent,
  and ``false b/w``: the share that read ``better`` or ``worse`` (beyond the margin);
- ``coverage``: the share whose 95 % interval holds the true difference 0;
- ``false equiv.``: the share of tie-heavy datasets (most trials differ by exactly 0, the true
  mean difference on the margin, 0.01) that read ``equivalent``, and the share of their
  differences that were 0;
- each share's 95 % Clopper-Pearson interval over the simulated datasets.

With ``--learners``, real learners whose error depends on their training rows instead
(:func:`budgetboost.analysis.simulation.learner_differences`: AdaBoost on stumps and on
depth-4 trees, the pipeline's booster, and one nearest neighbour), 10 trials at the suite's
sizes (750/250 of 1,000 rows, its most common; 1,000/1,000 of 5,000; hepatitis's 117/38 of
155), each correction side by side (``today``: the test rows' share alone, ``training_share``
0; ``now``: :data:`~budgetboost.analysis.per_dataset.TRAINING_SHARE`), printing per learner
and shape:

- ``rho``: the trials' correlation measured on the simulated datasets (the variance of a
  dataset's mean difference about the truth beside its trials' spread), against the one
  each correction takes;
- ``p<0.05``: the share of datasets of equal learners whose test of no difference rejects
  (the interval misses the truth), with its 95 % interval, and ``b/w``: the share reading
  ``better`` or ``worse`` (the outcome rule: beyond the margin);
- ``power 0.02``: at a true difference of 0.02, the share whose test rejects / that read
  ``better``;
- ``equiv. 0.01``: at a true difference on the margin, the share that read ``equivalent``.

Run from the repository root: ``python benchmarks/inference.py [--datasets 2000]
[--trials 10,30,100]`` or ``python benchmarks/inference.py --learners [--datasets 500]``;
``--quick`` runs a few datasets (a smoke test). Seeded: the same arguments print the same numbers.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from scipy import stats as sps

from budgetboost.analysis import compare_paired
from budgetboost.analysis.per_dataset import TRAINING_SHARE, correlation
from budgetboost.analysis.simulation import (
    LEARNERS,
    learner_differences,
    switching_differences,
    symmetric_differences,
)
from budgetboost.analysis.vocabulary import BETTER, EQUIVALENCE_MARGIN, EQUIVALENT, WORSE
from budgetboost.data.seeds import rng_from_key

#: (name, training rows, test rows, pool): Table 1's shapes and census's large pool.
SHAPES = (
    ("sonar/heart", 100, 170, 270),
    ("ecoli", 200, 136, 336),
    ("breast cancer", 500, 199, 699),
    ("splice", 1000, 2175, 3175),
    ("census", 1000, 5000, 48842),
)


#: (name, training rows, test rows, pool) of the learners' check: the suite's sizes.
LEARNER_SHAPES = (
    ("suite 1,000", 750, 250, 1000),
    ("larger pool", 1000, 1000, 5000),
    ("hepatitis", 117, 38, 155),
)
#: The true difference at which the learners' check states its power.
POWER_AT = 0.02
#: The corrections compared: the test rows alone (before) and the one the rows now take.
CORRECTIONS = (("today", 0.0), ("now", TRAINING_SHARE))


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
    rejects, false, naive, covered, equivalent, zeros = 0, 0, 0, 0, 0, 0.0
    for _ in range(datasets):
        d = symmetric_differences(rng, n_train, n_test, n_pool, trials)
        row = compare_paired(d, n_train, n_test, n_pool)
        rejects += row["p_value"] < 0.05
        false += row["outcome"] in (BETTER, WORSE)
        naive += _naive_rejects(d)
        covered += row["ci_low"] <= 0 <= row["ci_high"]
        tied = switching_differences(rng, n_train, n_test, n_pool, trials)
        equivalent += compare_paired(tied, n_train, n_test, n_pool)["outcome"] == EQUIVALENT
        zeros += float(np.mean(tied == 0))
    return {
        "rejects": _share(rejects, datasets),
        "false": _share(false, datasets),
        "naive": _share(naive, datasets),
        "coverage": _share(covered, datasets),
        "equivalent": _share(equivalent, datasets),
        "zeros": f"{zeros / datasets:.0%}",
    }


def measured_correlation(d: np.ndarray, truth: float) -> float:
    """The trials' correlation from many datasets' trials ``d`` (datasets x trials) of known
    true mean: the covariance is the variance of a dataset's mean about the truth less the
    trials' own share of it, ``S^2 / J``."""
    J = d.shape[1]
    within = float(np.mean(d.var(axis=1, ddof=1)))
    shared = float(np.mean((d.mean(axis=1) - truth) ** 2)) - within / J
    return shared / (shared + within)


def learners(
    learner: str, shape: tuple, datasets: int, trials: int = 10, save: dict | None = None
) -> dict:
    """The learners' check of one learner and shape (module docstring); the simulated
    differences go into ``save`` (keyed by learner, shape and true difference) if given."""
    name, n_train, n_test, n_pool = shape
    cells = {}
    for difference in (0.0, POWER_AT, EQUIVALENCE_MARGIN):
        rng = rng_from_key("inference", "learners", learner, name, difference, trials)
        cells[difference] = np.stack(
            [
                learner_differences(
                    rng, n_train, n_test, n_pool, trials, learner=learner, difference=difference
                )
                for _ in range(datasets)
            ]
        )
        if save is not None:
            save[f"{learner}|{name}|{n_train}|{n_test}|{n_pool}|{difference}"] = cells[difference]
    out = {"rho": measured_correlation(cells[0.0], 0.0)}
    for label, share in CORRECTIONS:
        rows = {
            difference: [
                compare_paired(d, n_train, n_test, n_pool, training_share=share) for d in cell
            ]
            for difference, cell in cells.items()
        }
        null, power, margin = rows[0.0], rows[POWER_AT], rows[EQUIVALENCE_MARGIN]
        out[label] = {
            "rho": correlation(n_train, n_test, n_pool, share),
            "false": _share(sum(r["p_value"] < 0.05 for r in null), datasets),
            "false_outcome": _share(sum(r["outcome"] in (BETTER, WORSE) for r in null), datasets),
            "power": np.mean([r["p_value"] < 0.05 for r in power]),
            "power_outcome": np.mean([r["outcome"] == BETTER for r in power]),
            "equivalent": _share(sum(r["outcome"] == EQUIVALENT for r in margin), datasets),
        }
    return out


def main_learners(datasets: int, shapes: tuple = LEARNER_SHAPES, save: str | None = None) -> int:
    """Print the learners' check (module docstring) at ``shapes``; ``save``: a ``.npz`` file
    for the simulated differences (each dataset's trials), to read the same datasets with
    another checkout's tests."""
    saved: dict | None = {} if save else None
    print(
        f"{'learner':8} {'shape':12} {'rows':>17} {'rho':>5}  {'rule':5} {'rho':>5}  "
        f"{'p<0.05 (equal)':22} {'b/w (equal)':22} {'power 0.02':11} {'equiv. 0.01':22}"
    )
    for learner in LEARNERS:
        for shape in shapes:
            start = time.process_time()
            r = learners(learner, shape, datasets, save=saved)
            rows = f"{shape[1]}/{shape[2]} of {shape[3]}"
            for label, _ in CORRECTIONS:
                c = r[label]
                print(
                    f"{learner:8} {shape[0]:12} {rows:>17} {r['rho']:5.3f}  {label:5} "
                    f"{c['rho']:5.3f}  {c['false']:22} {c['false_outcome']:22} "
                    f"{c['power']:4.0%} / {c['power_outcome']:3.0%}  {c['equivalent']:22}"
                    f"  ({time.process_time() - start:.0f} CPU-s)",
                    flush=True,
                )
    if save:
        np.savez_compressed(save, **saved)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=None, help="simulated datasets per cell")
    parser.add_argument("--trials", default="10,30,100", help="comma-separated trial counts")
    parser.add_argument("--learners", action="store_true", help="the learners' check")
    parser.add_argument("--save", help="with --learners: a .npz for the simulated differences")
    parser.add_argument(
        "--quick", action="store_true", help="a few datasets, one shape (a smoke test)"
    )
    args = parser.parse_args(argv)
    if args.datasets is None:
        args.datasets = (
            (4 if args.learners else 20) if args.quick else 500 if args.learners else 2000
        )
    if args.learners:
        if args.datasets < 2:
            parser.error("--datasets must be >= 2")
        shapes = LEARNER_SHAPES[:1] if args.quick else LEARNER_SHAPES
        return main_learners(args.datasets, shapes, args.save)
    if args.quick:
        args.trials = "10"
    try:
        trials = [int(t) for t in args.trials.split(",")]
    except ValueError:
        parser.error(f"--trials: comma-separated integers; got {args.trials!r}")
    if args.datasets < 1 or any(t < 2 for t in trials):
        parser.error("--datasets must be >= 1 and every --trials >= 2")
    print(
        f"{'shape':14} {'rows':>17} {'J':>4}  {'p<0.05':22} {'naive':22} {'false b/w':22} "
        f"{'coverage':22} {'false equiv.':22} zeros"
    )
    for shape in SHAPES:
        for J in trials:
            start = time.process_time()
            r = run(shape, J, args.datasets)
            rows = f"{shape[1]}/{shape[2]} of {shape[3]}"
            print(
                f"{shape[0]:14} {rows:>17} {J:>4}  {r['rejects']:22} {r['naive']:22} "
                f"{r['false']:22} {r['coverage']:22} {r['equivalent']:22} {r['zeros']:>5}"
                f"  ({time.process_time() - start:.0f} CPU-s)",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
