"""The per-dataset inference against known truths, at the benchmark's sizes.

For each shape (training rows, test rows, pool: Table 1's sonar/heart, splice, breast cancer,
ecoli, and census's 6,000 of 48,842 rows) and each number of trials, simulates many datasets
(``benchmarks/simulation.py``) and prints:

- ``p<0.05``: the share of datasets where the test of no difference rejects for two learners
  of equal population error (:func:`budgetboost.analysis.compare_paired`, corrected
  resampled t-test), beside ``naive``, the same test with the trials taken as independent,
  and ``false b/w``: the share that read ``better`` or ``worse`` (beyond the margin);
- ``coverage``: the share whose printed interval (the one the outcome reads,
  :data:`~budgetboost.analysis.vocabulary.DECISION_CONFIDENCE`) holds the true difference 0;
- ``false equiv.``: the share of tie-heavy datasets (most trials differ by exactly 0, the true
  mean difference on the margin, 0.01) that read ``equivalent``, and the share of their
  differences that were 0;
- each share's 95 % Clopper-Pearson interval over the simulated datasets.

With ``--learners``, real learners whose error depends on their training rows instead
(:func:`simulation.learner_differences`: AdaBoost on stumps and on
depth-4 trees, the pipeline's booster, and one nearest neighbour), 10 trials at the suite's
sizes (750/250 of 1,000 rows, its most common; 1,000/1,000 of 5,000; hepatitis's 117/38 of
155), with the correction of :data:`~budgetboost.analysis.per_dataset.TRAINING_SHARE`, each
level of the outcome's one-sided tests side by side (``95%``: each at 2.5 %, the 95 %
interval inside / beyond the margin; ``90%``: each at 5 %, the conventional two one-sided
tests, :data:`~budgetboost.analysis.vocabulary.ALPHA`), printing per learner and shape:

- ``rho``: the trials' correlation measured on the simulated datasets (the variance of a
  dataset's mean difference about the truth beside its trials' spread), against the one
  the correction takes;
- ``p<0.05``: the share of datasets of equal learners whose two-sided test of no
  difference rejects, with its 95 % interval, and ``b/w``: the share reading ``better`` or
  ``worse`` (the outcome rule: beyond the margin);
- ``better 0.01`` / ``equiv. 0.01``: at a true difference on the margin (x lower by 0.01),
  the share that read ``better`` / ``equivalent``, both false (the worst case of each);
- ``power 0.02`` / ``0.05``: at a true difference of 0.02 / 0.05, the share that read
  ``better``.

With ``--rows``, the learners' check read twice at the rule's level: the correlation from the
sizes (:func:`~budgetboost.analysis.per_dataset.correlation`, what the shards without each
test row's loss get) and bounded from each test row's loss
(:func:`~budgetboost.analysis.per_dataset.row_covariance`, ``compare_paired(rows=...)``),
on the same simulated datasets (the learners' check's draws): per learner and shape, the
mean correlation taken, the share of rows whose interval came from the rows, and the false
and true outcomes as above (``worse 0.01``: at a true difference on the margin, x lower,
reading ``worse``).

With ``--across``, the rows across datasets instead: one value per dataset (its mean
difference over 10 trials) for the suite's 38 datasets, drawn as
:func:`simulation.field_band_means` draws them (each method's own effect
on a dataset, sd ``spread``, so the difference's sd ``spread sqrt(2)``; trial noise of sd
0.03, its mean over 10 trials), x's error lower by a known true difference, each row
decided as :func:`~budgetboost.analysis.across_datasets.compare_datasets` decides it
(:func:`~budgetboost.analysis.across_datasets.margin_p_values`, the Hodges-Lehmann
estimate, :func:`~budgetboost.analysis.across_datasets.dataset_outcome`) under each rule,
printing the share of rows reading ``better`` / ``equivalent`` / ``worse`` (false ones
marked), at spreads 0.01 and 0.02 and true differences 0, 0.005, 0.01 (on the margin),
0.015, 0.02; and claims of six such rows all on the margin ("x beats each of six"): the
share reading *not reproduced* as each row reads (95 % and 90 %) and with Holm over the
claim's rows (:func:`budgetboost.analysis.verdicts.read_with_the_claim`).

Run from the repository root: ``python benchmarks/inference.py [--datasets 2000]
[--trials 10,30,100]`` or ``python benchmarks/inference.py --learners [--datasets 500]
[--shapes "suite 1,000;hepatitis"]`` or ``python benchmarks/inference.py --rows
[--datasets 200] [--shapes ...] [--row-learners stumps,grown_tree]`` or
``python benchmarks/inference.py --across [--datasets 2000]``;
``--quick`` runs a few datasets (a smoke test). Seeded: the same arguments print the same numbers.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simulation import (  # noqa: E402
    LEARNERS,
    learner_differences,
    learner_rows,
    switching_differences,
    symmetric_differences,
)

from budgetboost.analysis import compare_paired  # noqa: E402
from budgetboost.analysis.across_datasets import dataset_outcome, margin_p_values  # noqa: E402
from budgetboost.analysis.per_dataset import TRAINING_SHARE, correlation  # noqa: E402
from budgetboost.analysis.verdicts import directional_verdict, read_with_the_claim  # noqa: E402
from budgetboost.analysis.vocabulary import ALPHA, BETTER, EQUIVALENCE_MARGIN, EQUIVALENT, WORSE  # noqa: E402
from budgetboost.data.seeds import rng_from_key  # noqa: E402

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
#: The true differences at which the learners' check states its power.
POWER_AT = (0.02, 0.05)
#: The levels of the outcome's one-sided tests compared: 2.5 % (the 95 % interval) and
#: ALPHA (the 90 % interval, the conventional two one-sided tests).
RULES = (("95%", ALPHA / 2), ("90%", ALPHA))


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
    for difference in (0.0, EQUIVALENCE_MARGIN, *POWER_AT):
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
    for label, alpha in RULES:
        rows = {
            difference: [compare_paired(d, n_train, n_test, n_pool, alpha=alpha) for d in cell]
            for difference, cell in cells.items()
        }
        null, margin = rows[0.0], rows[EQUIVALENCE_MARGIN]
        out[label] = {
            "rho": correlation(n_train, n_test, n_pool, TRAINING_SHARE),
            "false": _share(sum(r["p_value"] < 0.05 for r in null), datasets),
            "false_outcome": _share(sum(r["outcome"] in (BETTER, WORSE) for r in null), datasets),
            "better_margin": _share(sum(r["outcome"] == BETTER for r in margin), datasets),
            "equivalent": _share(sum(r["outcome"] == EQUIVALENT for r in margin), datasets),
            "power": [
                _share(sum(r["outcome"] == BETTER for r in rows[at]), datasets) for at in POWER_AT
            ],
        }
    return out


def main_learners(datasets: int, shapes: tuple = LEARNER_SHAPES, save: str | None = None) -> int:
    """Print the learners' check (module docstring) at ``shapes``; ``save``: a ``.npz`` file
    for the simulated differences (each dataset's trials), to read the same datasets with
    another checkout's tests."""
    saved: dict | None = {} if save else None
    power = " ".join(f"{'power ' + format(at, 'g'):22}" for at in POWER_AT)
    print(
        f"{'learner':8} {'shape':12} {'rows':>17} {'rho':>5}  {'rule':4} {'rho':>5}  "
        f"{'p<0.05 (equal)':22} {'b/w (equal)':22} {'better 0.01 (false)':22} "
        f"{'equiv. 0.01 (false)':22} {power}"
    )
    for learner in LEARNERS:
        for shape in shapes:
            start = time.process_time()
            r = learners(learner, shape, datasets, save=saved)
            rows = f"{shape[1]}/{shape[2]} of {shape[3]}"
            for label, _ in RULES:
                c = r[label]
                print(
                    f"{learner:8} {shape[0]:12} {rows:>17} {r['rho']:5.3f}  {label:4} "
                    f"{c['rho']:5.3f}  {c['false']:22} {c['false_outcome']:22} "
                    f"{c['better_margin']:22} {c['equivalent']:22} "
                    + " ".join(f"{p:22}" for p in c["power"])
                    + f"  ({time.process_time() - start:.0f} CPU-s)",
                    flush=True,
                )
    if save:
        np.savez_compressed(save, **saved)
    return 0


#: The learners of the ``--rows`` check by default: a booster and the stress learner.
ROW_LEARNERS = ("stumps", "grown_tree")


def rows_check(learner: str, shape: tuple, datasets: int, trials: int = 10) -> dict:
    """The ``--rows`` check of one learner and shape (module docstring): the learners'
    check's datasets (the same keys), each read with the sizes' correlation and with the
    rows' bound, at :data:`~budgetboost.analysis.vocabulary.ALPHA`."""
    name, n_train, n_test, n_pool = shape
    read = {"sizes": {}, "rows": {}}
    for difference in (0.0, EQUIVALENCE_MARGIN, *POWER_AT):
        rng = rng_from_key("inference", "learners", learner, name, difference, trials)
        cells = [
            learner_rows(
                rng, n_train, n_test, n_pool, trials, learner=learner, difference=difference
            )
            for _ in range(datasets)
        ]
        read["sizes"][difference] = [
            compare_paired(d, n_train, n_test, n_pool) for d, _, _ in cells
        ]
        read["rows"][difference] = [
            compare_paired(d, n_train, n_test, n_pool, rows=(test, losses))
            for d, test, losses in cells
        ]
        if difference == 0.0:
            measured = measured_correlation(np.stack([d for d, _, _ in cells]), 0.0)
    out = {"rho": measured}
    for label, rows in read.items():
        null, margin = rows[0.0], rows[EQUIVALENCE_MARGIN]
        every = [r for cell in rows.values() for r in cell]
        out[label] = {
            "rho": float(np.mean([r["correlation"] for r in every])),
            "from_rows": float(np.mean([r["from_rows"] for r in every])),
            "false_outcome": _share(sum(r["outcome"] in (BETTER, WORSE) for r in null), datasets),
            "better_margin": _share(sum(r["outcome"] == BETTER for r in margin), datasets),
            "worse_margin": _share(sum(r["outcome"] == WORSE for r in margin), datasets),
            "equivalent": _share(sum(r["outcome"] == EQUIVALENT for r in margin), datasets),
            "power": [
                _share(sum(r["outcome"] == BETTER for r in rows[at]), datasets) for at in POWER_AT
            ],
        }
    return out


def main_rows(datasets: int, shapes: tuple, learners_: tuple = ROW_LEARNERS) -> int:
    """Print the ``--rows`` check (module docstring)."""
    power = " ".join(f"{'power ' + format(at, 'g'):22}" for at in POWER_AT)
    print(
        f"{'learner':10} {'shape':12} {'rows':>17} {'rho':>5}  {'read':5} {'rho':>5} "
        f"{'by rows':>7}  {'b/w (equal)':22} {'better 0.01 (false)':22} "
        f"{'worse 0.01 (false)':22} {'equiv. 0.01 (false)':22} {power}"
    )
    for learner in learners_:
        for shape in shapes:
            start = time.process_time()
            r = rows_check(learner, shape, datasets)
            size = f"{shape[1]}/{shape[2]} of {shape[3]}"
            for label in ("sizes", "rows"):
                c = r[label]
                print(
                    f"{learner:10} {shape[0]:12} {size:>17} {r['rho']:5.3f}  {label:5} "
                    f"{c['rho']:5.3f} {c['from_rows']:7.1%}  {c['false_outcome']:22} "
                    f"{c['better_margin']:22} {c['worse_margin']:22} {c['equivalent']:22} "
                    + " ".join(f"{p:22}" for p in c["power"])
                    + f"  ({time.process_time() - start:.0f} CPU-s)",
                    flush=True,
                )
    return 0


#: The across-dataset check: datasets, spreads, true differences, rows of a claim.
ACROSS_DATASETS = 38
ACROSS_SPREADS = (0.01, 0.02)
ACROSS_TRUTHS = (0.0, 0.005, EQUIVALENCE_MARGIN, 0.015, 0.02)
CLAIM_ROWS = 6


def across_row(values: np.ndarray, alpha: float) -> dict:
    """One row across datasets as :func:`compare_datasets` decides it (its Bayesian test,
    which does not decide, left out)."""
    i, j = np.triu_indices(values.size)
    estimate = float(np.median((values[i] + values[j]) / 2))
    p_beyond, p_equivalence = margin_p_values(values)
    outcome = dataset_outcome(estimate, p_beyond, p_equivalence, values.size, alpha)
    return {
        "dataset": "all",
        "hodges_lehmann": estimate,
        "p_beyond": p_beyond,
        "p_equivalence": p_equivalence,
        "outcome": outcome,
    }


def across_values(rng: np.random.Generator, truth: float, spread: float, rows: int) -> np.ndarray:
    """``rows`` x 38 datasets' mean differences, x's error lower by ``truth``."""
    own = rng.normal(0.0, spread * math.sqrt(2), (rows, ACROSS_DATASETS))
    trials = rng.normal(0.0, 0.03 / math.sqrt(10), (rows, ACROSS_DATASETS))
    return -truth + own + trials


def main_across(rows: int) -> int:
    """Print the across-dataset check (module docstring)."""
    for spread in ACROSS_SPREADS:
        for truth in ACROSS_TRUTHS:
            start = time.process_time()
            values = across_values(
                rng_from_key("inference", "across", spread, truth), truth, spread, rows
            )
            for label, alpha in RULES:
                out = [across_row(v, alpha)["outcome"] for v in values]
                parts = []
                for outcome in (BETTER, EQUIVALENT, WORSE):
                    false = (
                        outcome == WORSE
                        or (outcome == BETTER and truth <= EQUIVALENCE_MARGIN + 1e-12)
                        or (outcome == EQUIVALENT and truth >= EQUIVALENCE_MARGIN - 1e-12)
                    )
                    name = outcome + (" (false)" if false else "")
                    if truth == 0.0 and outcome != EQUIVALENT:  # either side is x's
                        hits = sum(o in (BETTER, WORSE) for o in out)
                        name = "better/worse (false)"
                        if outcome == WORSE:
                            continue
                    else:
                        hits = sum(o == outcome for o in out)
                    parts.append(f"{name} {_share(hits, rows)}")
                print(
                    f"spread {spread:<5g} true {truth:<6g} {label:4} "
                    + ", ".join(parts)
                    + f"  ({time.process_time() - start:.0f} CPU-s)",
                    flush=True,
                )
        claims = rows // CLAIM_ROWS
        rng = rng_from_key("inference", "across claims", spread)
        values = across_values(rng, EQUIVALENCE_MARGIN, spread, claims * CLAIM_ROWS)
        refuted = {}
        for label, alpha in RULES:
            table = pd.DataFrame([across_row(v, alpha) for v in values])
            table["claim"] = np.repeat(np.arange(claims), CLAIM_ROWS)
            groups = [part for _, part in table.groupby("claim")]
            refuted[f"{label} as each row reads"] = sum(
                directional_verdict(g) == "not reproduced" for g in groups
            )
            if alpha == ALPHA:
                refuted[f"{label} with Holm over the claim"] = sum(
                    directional_verdict(read_with_the_claim(g)) == "not reproduced" for g in groups
                )
        print(
            f"spread {spread:<5g} claims of {CLAIM_ROWS} rows on the margin read not reproduced: "
            + ", ".join(f"{k} {_share(v, claims)}" for k, v in refuted.items()),
            flush=True,
        )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=int, default=None, help="simulated datasets per cell")
    parser.add_argument("--trials", default="10,30,100", help="comma-separated trial counts")
    parser.add_argument("--learners", action="store_true", help="the learners' check")
    parser.add_argument("--across", action="store_true", help="the rows across datasets")
    parser.add_argument(
        "--rows", action="store_true", help="the learners' check, sizes' and rows' correlation"
    )
    parser.add_argument(
        "--row-learners",
        default=",".join(ROW_LEARNERS),
        help=f"with --rows: comma-separated learners among {LEARNERS}",
    )
    parser.add_argument("--save", help="with --learners: a .npz for the simulated differences")
    parser.add_argument(
        "--shapes",
        help="with --learners: ';'-separated shape names (default: all): "
        + "; ".join(s[0] for s in LEARNER_SHAPES),
    )
    parser.add_argument(
        "--quick", action="store_true", help="a few datasets, one shape (a smoke test)"
    )
    args = parser.parse_args(argv)
    by_learner = args.learners or args.rows
    if args.datasets is None:
        args.datasets = (4 if by_learner else 20) if args.quick else 500 if by_learner else 2000
    if args.across:
        return main_across(args.datasets)
    if by_learner:
        if args.datasets < 2:
            parser.error("--datasets must be >= 2")
        shapes = LEARNER_SHAPES[:1] if args.quick else LEARNER_SHAPES
        if args.shapes:
            known = {s[0]: s for s in LEARNER_SHAPES}
            names = [n.strip() for n in args.shapes.split(";")]
            if any(n not in known for n in names):
                parser.error(f"--shapes: names among {list(known)}; got {names}")
            shapes = tuple(known[n] for n in names)
        if args.rows:
            chosen = tuple(n.strip() for n in args.row_learners.split(","))
            if any(n not in LEARNERS for n in chosen):
                parser.error(f"--row-learners: names among {LEARNERS}; got {list(chosen)}")
            return main_rows(args.datasets, shapes, chosen)
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
