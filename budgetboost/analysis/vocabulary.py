"""The statistical vocabulary of every comparison, in one place.

Levels, margins, the outcomes a comparison can end in and the least evidence an outcome
needs. Every module of :mod:`budgetboost.analysis` and every text of :mod:`budgetboost.report`
reads them from here, so a reader finds each number once (``claims.md`` prints them).
"""

from __future__ import annotations

__all__ = [
    "ALL",
    "ALPHA",
    "BETTER",
    "CONFIDENCE",
    "DECISION_CONFIDENCE",
    "DATASET_OUTCOMES",
    "decide",
    "EQUIVALENCE_MARGIN",
    "EQUIVALENT",
    "FINDING_BANDS",
    "INCONCLUSIVE",
    "MIN_DATASETS",
    "MIN_INTERVAL_TRIALS",
    "MIN_TRIALS",
    "OUTCOMES",
    "POWER",
    "RULE",
    "TOO_FEW_DATASETS",
    "TOO_FEW_TRIALS",
    "WORSE",
    "bound_text",
]

#: Family-wise significance level of every test (Holm over the rows of a comparison); each
#: of an outcome's one-sided tests against the margin is at this level.
ALPHA = 0.05
#: Confidence level of the intervals that describe a mean (a test error, a budget's curve).
CONFIDENCE = 0.95
#: Confidence level of the interval of a comparison row, the one its outcome reads: the
#: conventional two one-sided tests (Schuirmann 1987), each at :data:`ALPHA`, decide
#: *equivalent* exactly when the ``1 - 2 ALPHA`` interval lies inside the margin, and the
#: one-sided test beyond the margin decides *better* / *worse* exactly when it lies beyond
#: it. A 95 % interval (each side at 2.5 %) would halve the level of each test below the
#: false rates the rule promises (each one-sided at 5 %), at a cost in power: across 38
#: datasets (``benchmarks/inference.py --across``, methods' own effects of sd 0.01)
#: equivalence at a true 0 is found in 93 % of rows at 90 % against 86 % at 95 %, and a
#: true lead of 0.015 reads *better* in 56 % against 42 %.
DECISION_CONFIDENCE = 1 - 2 * ALPHA
#: Power at which ``min_detectable`` states the smallest difference a test detects.
POWER = 0.8
#: Two mean test errors within this (an absolute error rate) are practically the same (the
#: paper's "almost identically", claim 4a): the margin every outcome is read against
#: (:data:`RULE`), and the region of practical equivalence of the Bayesian test across
#: datasets, which describes a row.
EQUIVALENCE_MARGIN = 0.01

BETTER, WORSE, EQUIVALENT, INCONCLUSIVE = "better", "worse", "equivalent", "inconclusive"
#: A row whose trials cannot support any outcome (fewer than :data:`MIN_TRIALS`, or a test
#: that could not detect even the largest possible difference).
TOO_FEW_TRIALS = "too few trials"
#: An across-dataset row on fewer than :data:`MIN_DATASETS` datasets.
TOO_FEW_DATASETS = "too few datasets"
#: The outcomes of a per-dataset row, x against y, in reading order.
OUTCOMES = (BETTER, EQUIVALENT, INCONCLUSIVE, WORSE, TOO_FEW_TRIALS)
#: The outcomes of an across-dataset row.
DATASET_OUTCOMES = (BETTER, EQUIVALENT, INCONCLUSIVE, WORSE, TOO_FEW_DATASETS)

#: The decision rule of every comparison row, per dataset and across datasets, in words
#: (``claims.md`` and the report print it). Each is read off the row's interval of the
#: difference x - y (the :data:`DECISION_CONFIDENCE` interval, the one the tables print) at
#: the level left after Holm, so a row never reads *better*, *worse* or *equivalent* unless
#: its printed interval says so too.
RULE = (
    f"*better* / *worse*: the {DECISION_CONFIDENCE * 100:.0f} % interval lies wholly below "
    f"−{EQUIVALENCE_MARGIN:g} / above +{EQUIVALENCE_MARGIN:g} (x's error lower / higher by "
    f"more than the margin: practically significant, a one-sided test at {ALPHA:g}); "
    f"*equivalent*: it lies wholly inside ±{EQUIVALENCE_MARGIN:g} (the two one-sided tests, "
    f"each at {ALPHA:g}); *inconclusive*: it reaches across a bound of the margin. Each "
    "reading is corrected (Holm) over the rows of its comparison, so a printed interval that "
    "just clears a bound can still read *inconclusive*; never the reverse"
)


def decide(
    *, short: str | None, p_beyond: float, p_equivalence: float, lower: bool, alpha: float = ALPHA
) -> str:
    """The outcome rule shared by the rows per dataset and across datasets (:data:`RULE`).

    ``short`` is the outcome saying the evidence cannot support any (None when it can). Each
    other outcome is a statement about the row's interval, tested as one, each test
    one-sided. ``p_beyond`` is the largest one-sided p-value of any shift not beyond the
    margin on the estimate's side (every ``delta >= -margin`` when the estimate lies below
    ``-margin``, every ``delta <= +margin`` when above it; 1 inside the margin): it falls
    below ``alpha`` exactly when the ``1 - 2 alpha`` interval lies wholly beyond that bound.
    ``p_equivalence`` is the larger of the two one-sided tests of the bounds of the margin
    (Schuirmann's two one-sided tests): below ``alpha`` exactly when that interval lies
    wholly inside it. Both are Holm-adjusted over the rows of a comparison before they reach
    here, so a row never reads ``better``, ``worse`` or ``equivalent`` unless the interval
    the table prints (:data:`DECISION_CONFIDENCE`) says so too; ``lower`` (the estimate
    below 0) gives the direction. The two cannot both hold (an interval inside the margin
    does not lie beyond it).
    """
    if short is not None:
        return short
    if p_equivalence < alpha:
        return EQUIVALENT
    if p_beyond < alpha:
        return BETTER if lower else WORSE
    return INCONCLUSIVE


#: The fewest trials a per-dataset row needs for any outcome: with fewer, the variance of the
#: differences rests on fewer than 4 degrees of freedom, and the 95 % interval of its standard
#: deviation spans more than a factor of 6 (chi-square with 3 degrees of freedom: 0.57 to 3.7
#: times the estimate).
MIN_TRIALS = 5
#: The fewest trials an interval of a mean error is shown on (figures, ``summary.md``): with 2,
#: its Student-t critical value on one degree of freedom is 12.7, and two trials' error rates
#: 0.1 apart give a 95 % interval of half-width 0.64, wider than the whole error scale.
MIN_INTERVAL_TRIALS = 3
#: The fewest datasets an across-dataset row needs for any outcome: the exact Wilcoxon
#: signed-rank test cannot go below ``2 / 2^n`` with ``n`` datasets, above :data:`ALPHA`
#: for ``n <= 5``.
MIN_DATASETS = 6

#: The ``dataset`` (and, for comparisons of two algorithms, ``cost_model``) of a row across
#: datasets.
ALL = "all"
#: The budget bands of the findings: every third of each grid (tight, moderate, loose), so a
#: lead confined to moderate budgets (where adaptivity pays on the synthetic cube) is read
#: too; Holm corrects over them. The claims read the paper's small and larger budgets and add
#: ``all`` where a claim speaks of every budget.
FINDING_BANDS = ("small", "medium", "large")


def bound_text(value: float, margin: float = EQUIVALENCE_MARGIN) -> str:
    """A bound of a difference's interval as the tables write it: signed, to 3 decimals, or
    to as many more as it takes not to round onto ``+-margin``, so a bound just inside the
    margin never reads as on it (``-0.0099``, not ``-0.010``) nor one just outside
    (``+0.0102``): the outcome reads which side it is on. A bound on the margin (to 12
    decimals, as the tests round) stays ``-0.010``."""
    if abs(abs(value) - margin) < 1e-12:
        return f"{value:+.3f}"
    for decimals in range(3, 7):
        text = f"{value:+.{decimals}f}"
        if abs(abs(float(text)) - margin) > 1e-12:
            return text
    return f"{value:+.12g}"
