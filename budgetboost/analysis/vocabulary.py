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
    "MIN_TRIALS",
    "OUTCOMES",
    "POWER",
    "PROBABILITY",
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
#: Two mean test errors within this (an absolute error rate) are practically the same: the
#: margin of the equivalence tests per dataset and the region of practical equivalence of the
#: Bayesian test across datasets (the paper's "almost identically", claim 4a).
EQUIVALENCE_MARGIN = 0.01
#: Posterior probability the Bayesian signed-rank test needs to call two algorithms
#: practically equivalent across datasets (Benavoli et al. 2017 decide at 0.95).
PROBABILITY = 0.95

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


def decide(*, short: str | None, equivalent: bool, significant: bool, lower: bool) -> str:
    """The outcome rule shared by the rows per dataset and across datasets: ``short`` (the
    outcome saying the evidence cannot support any, or None when it can) first, then
    ``equivalent``, then ``better`` / ``worse`` when the difference is significant (``lower``:
    x's errors lower), else ``inconclusive``. Equivalence goes first, whether or not the
    difference is also significant (the tables show both)."""
    if short is not None:
        return short
    if equivalent:
        return EQUIVALENT
    if significant:
        return BETTER if lower else WORSE
    return INCONCLUSIVE


#: The fewest trials a per-dataset row needs for any outcome: with fewer, the variance of the
#: differences rests on fewer than 4 degrees of freedom, and the 95 % interval of its standard
#: deviation spans more than a factor of 6 (chi-square with 3 degrees of freedom: 0.57 to 3.7
#: times the estimate).
MIN_TRIALS = 5
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
