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
]

#: Family-wise significance level of every test (Holm over the rows of a comparison).
ALPHA = 0.05
#: Confidence level of every interval.
CONFIDENCE = 0.95
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
#: difference x - y at the level left after Holm; the tables print the 95 % interval, which
#: agrees with every row that reads *better*, *worse* or *equivalent*.
RULE = (
    f"*better* / *worse*: the interval lies wholly below −{EQUIVALENCE_MARGIN:g} / above "
    f"+{EQUIVALENCE_MARGIN:g} (x's error lower / higher by more than the margin: practically "
    f"significant); *equivalent*: it lies wholly inside ±{EQUIVALENCE_MARGIN:g}; "
    "*inconclusive*: it reaches across a bound of the margin. Each reading is corrected "
    "(Holm) over the rows of its comparison, so a printed 95 % interval that just clears a "
    "bound can still read *inconclusive*; never the reverse"
)


def decide(
    *, short: str | None, p_beyond: float, p_equivalence: float, lower: bool, alpha: float = ALPHA
) -> str:
    """The outcome rule shared by the rows per dataset and across datasets (:data:`RULE`).

    ``short`` is the outcome saying the evidence cannot support any (None when it can). Each
    other outcome is a statement about the row's interval, tested as one. ``p_beyond`` is the
    largest p-value of any shift not beyond the margin on the estimate's side (every
    ``delta >= -margin`` when the estimate lies below ``-margin``, every ``delta <= +margin``
    when above it; 1 inside the margin): it falls below ``alpha`` exactly when the ``1 -
    alpha`` interval lies wholly beyond that bound. ``p_equivalence`` is the largest p-value
    of the shifts outside the margin: below ``alpha`` exactly when the interval lies wholly
    inside it. Both are Holm-adjusted over the rows of a comparison before they reach here,
    so a row never reads ``better``, ``worse`` or ``equivalent`` unless the interval the
    table prints says so too; ``lower`` (the estimate below 0) gives the direction. The two
    cannot both hold (an interval inside the margin does not lie beyond it).
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
#: The budget bands of the findings (the paper's small and larger budgets); the claims add
#: ``medium`` and ``all`` where a claim speaks of every budget.
FINDING_BANDS = ("small", "large")
