"""Inference across datasets: the datasets are the unit (Demšar 2006; Benavoli et al. 2017).

A claim about two algorithms is a claim about datasets in general, so it is decided on one
value per dataset: its mean paired difference x - y in the band (a dataset run under several
cost models enters once, with the mean of its experiments' differences). Two tests read those
values, side by side:

* **the Wilcoxon signed-rank test** (Demšar 2006, Section 3.1.3): the exact permutation test
  of the signed ranks (ties given their mean rank), computed by the exact sign-flip test of
  :mod:`budgetboost.analysis.significance` on the signed ranks. Without ties it is
  :func:`scipy.stats.wilcoxon`'s exact test; with ties scipy's "exact" method uses the null
  distribution of untied ranks, which is not the permutation distribution of the tied
  statistic (it differed on 232 of 300 simulated tie-heavy samples). **One test of every
  shift** (:func:`shift_p_values`) gives the test of a zero centre, the Hodges-Lehmann
  interval (the shifts it does not reject) and the interval's tests against the margin, so
  they cannot disagree. A difference equal to the shift tested (a zero, for the test at 0)
  has no sign: it takes the one least favourable to rejecting, with the smallest rank, as the
  interval's inversion does (Wilcoxon's dropping of zeros did not: the interval could clear 0
  while the test did not reject).
* **the Bayesian signed-rank test** (Benavoli et al. 2017) with a region of practical
  equivalence of ``+-EQUIVALENCE_MARGIN``: ``prob_better`` (x's error lower by more than the
  margin), ``prob_equivalent``, ``prob_worse``. The posterior is a Dirichlet process with a
  pseudo-observation at 0 of weight ``PRIOR``; each of :data:`BAYES_SAMPLES` draws of its
  weights ``w`` gives the three masses of the Walsh averages, ``sum_ij w_i w_j [z_i + z_j <
  -2 r]`` etc., and a probability is the share of draws in which its region has the largest
  mass. This is ``baycomp.SignedRankTest`` (the test compares the two), written as two
  matrix products over all draws at once: baycomp loops over the draws in Python, 1.5 s per
  row of 10 datasets at its 50,000 draws (a run has hundreds of rows), this 0.02 s. The draws
  come from a ``numpy.random.Generator`` seeded from the comparison's key. It describes the
  row beside its outcome; it does not decide it.

The outcome of a row across datasets (:func:`dataset_outcome`): ``too few datasets`` below
:data:`~budgetboost.analysis.vocabulary.MIN_DATASETS` (the exact test cannot reach the
level); otherwise the rule of :data:`~budgetboost.analysis.vocabulary.RULE`, read off the
signed-rank interval at :data:`~budgetboost.analysis.vocabulary.DECISION_CONFIDENCE` (the
one-sided tests at ``ALPHA`` that it inverts, Holm over the comparison's rows): ``better`` /
``worse`` when it lies wholly beyond the margin, ``equivalent`` when wholly inside it, else
``inconclusive``.

References
----------
J. Demšar, "Statistical Comparisons of Classifiers over Multiple Data Sets", JMLR 7:1-30,
2006. A. Benavoli, G. Corani, J. Demšar and M. Zaffalon, "Time for a Change: a Tutorial for
Comparing Multiple Classifiers Through Bayesian Analysis", JMLR 18(77):1-36, 2017.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from budgetboost.analysis.per_dataset import detectable_beyond
from budgetboost.analysis.significance import sign_flip_p, subset_sums
from budgetboost.analysis.vocabulary import (
    ALPHA,
    CONFIDENCE,
    DECISION_CONFIDENCE,
    EQUIVALENCE_MARGIN,
    MIN_DATASETS,
    TOO_FEW_DATASETS,
    decide,
)
from budgetboost.data.seeds import seed_from_key

__all__ = [
    "BAYES_SAMPLES",
    "PRIOR",
    "bayesian_signed_rank",
    "WILCOXON_EFFICIENCY",
    "compare_datasets",
    "dataset_outcome",
    "margin_p_values",
    "min_detectable",
    "shift_p_values",
    "signed_rank_interval",
    "signed_rank_p",
]

#: Monte Carlo samples of the Bayesian signed-rank test (baycomp's default): its
#: probabilities are within 0.005 of the exact posterior's with 95 % probability.
BAYES_SAMPLES = 50_000
#: Weight of the Dirichlet process's pseudo-observation at 0 (baycomp's and Benavoli et al.'s).
PRIOR = 0.5
#: Asymptotic relative efficiency of the signed-rank test to the t-test under normality
#: (3 / pi): ``min_detectable`` across datasets is the t-test's over its square root.
WILCOXON_EFFICIENCY = 3 / math.pi
#: Differences are rounded to this many decimals first: equal means tie exactly.
_DECIMALS = 12


def _clean(values: Sequence[float] | np.ndarray) -> np.ndarray:
    d = np.round(np.asarray(values, dtype=np.float64), _DECIMALS)
    return d[~np.isnan(d)]


def _signed_ranks(d: np.ndarray) -> np.ndarray:
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    nonzero = d[d != 0]
    return np.sign(nonzero) * sps.rankdata(np.abs(nonzero))


def _walsh(d: np.ndarray) -> np.ndarray:
    """The Walsh averages ``(d_i + d_j) / 2``, ``i <= j``, sorted."""
    i, j = np.triu_indices(d.size)
    return np.sort((d[i] + d[j]) / 2)


def _untied_gap_p(walsh: np.ndarray, n: int, gaps: np.ndarray) -> np.ndarray:
    """Exact two-sided p of the signed-rank test of ``d - delta`` at each ``delta`` of
    ``gaps`` (no Walsh average equal to any), for values without ties: the statistic ``T+`` is
    the number of Walsh averages above ``delta``, its null that of untied ranks ``1 .. n``."""
    total = walsh.size
    null = subset_sums(np.arange(1, n + 1))  # P(T+ = t): the sum of the positive ranks
    t = np.arange(total + 1)
    # two-sided p of T+ = k: P(|T+ - total/2| >= |k - total/2|), for every k at once
    order = np.argsort(-np.abs(2 * t - total), kind="stable")
    tail = np.cumsum(null[order])
    distance = np.abs(2 * t - total)[order]
    last = np.searchsorted(-distance, -distance, side="right") - 1  # ties of |2t - total|
    p_of = np.empty(total + 1)
    p_of[order] = tail[last]
    return p_of[total - np.searchsorted(walsh, gaps, side="right")]


def _tied_p(shifted: np.ndarray) -> float:
    """Exact two-sided p of the signed-rank test of values with no zero (mean ranks for
    ties): the sign-flip distribution of the doubled ranks, integers."""
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    ranks = np.rint(2 * sps.rankdata(np.abs(shifted))).astype(np.int64)
    return sign_flip_p(np.sign(shifted) * ranks)


def shift_p_values(values: Sequence[float] | np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The exact signed-rank test of every shift: ``(points, p)``.

    ``points`` are the distinct Walsh averages of ``values`` (sorted); ``p[i]`` is the exact
    two-sided p-value of the signed-rank test of ``values - delta`` for every ``delta`` in the
    open gap between ``points[i - 1]`` and ``points[i]`` (``p[0]``: below the first,
    ``p[-1]``: above the last). Inside a gap the shifted values have no zero and keep their
    order of magnitudes (both change only at a Walsh average), so one p holds for the whole
    gap. At a point itself a shifted value is 0 (or two are equal and of opposite signs): it
    gets the larger p of its two gaps, as though each such value took the sign least
    favourable to rejecting. This one function is the test (:func:`signed_rank_p` at 0),
    the interval (:func:`signed_rank_interval`) and the tests of the interval against the
    margin (:func:`margin_p_values`), so they cannot disagree, zeros included.
    """
    d = _clean(values)
    if d.size == 0:
        return np.empty(0), np.ones(1)
    walsh = _walsh(d)
    points = np.unique(walsh)
    gaps = np.concatenate([[points[0] - 1.0], (points[:-1] + points[1:]) / 2, [points[-1] + 1.0]])
    if np.unique(d).size == d.size:  # no ties: one null distribution for every gap
        return points, _untied_gap_p(walsh, d.size, gaps)
    return points, np.array([_tied_p(d - g) for g in gaps.tolist()])


def signed_rank_p(values: Sequence[float] | np.ndarray) -> float:
    """Exact two-sided p-value of the Wilcoxon signed-rank test of a zero centre: the
    permutation distribution of the signed ranks (mean ranks for ties; module docstring).

    A zero difference takes the sign least favourable to rejecting, with the smallest rank
    (:func:`shift_p_values`), so the test at 0 is the very test the interval inverts: the
    interval excludes 0 exactly when this rejects. Without zeros (nor two values of equal
    size and opposite signs) it is the signed-rank test with no value left out.
    """
    d = _clean(values)
    if d.size == 0 or not np.any(d != 0):
        return 1.0
    walsh = _walsh(d)
    if not np.any(walsh == 0):
        return sign_flip_p(_signed_ranks(d))
    below, above = walsh[walsh < 0], walsh[walsh > 0]
    left = below[-1] / 2 if below.size else -1.0
    right = above[0] / 2 if above.size else 1.0
    return float(max(_tied_p(d - left), _tied_p(d - right)))


def signed_rank_interval(
    values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> tuple[float, float, float]:
    """``(estimate, low, high)``: the Hodges-Lehmann estimate (the median of the Walsh
    averages ``(d_i + d_j) / 2``, ``i <= j``) and the interval of the shifts ``delta`` that
    the exact signed-rank test of ``values - delta`` does not reject at ``1 - confidence``
    (:func:`shift_p_values`).

    The interval inverts the very test of :func:`signed_rank_p`, so it excludes 0 exactly
    when that test rejects; a bound the test cannot reach with ``n`` values (n <= 5 at 95 %)
    is NaN.
    """
    d = _clean(values)
    if d.size == 0:
        return math.nan, math.nan, math.nan
    estimate = float(np.median(_walsh(d)))
    return (estimate, *_interval(*shift_p_values(d), confidence, estimate))


def _interval(
    points: np.ndarray, p: np.ndarray, confidence: float, estimate: float
) -> tuple[float, float]:
    """The bounds of the shifts :func:`shift_p_values` does not reject at ``1 -
    confidence`` (NaN: a bound the test cannot reach; ``estimate`` twice if it rejects
    every shift)."""
    kept = np.flatnonzero(p >= 1 - confidence)
    if kept.size == 0:
        return estimate, estimate
    low = points[kept[0] - 1] if kept[0] > 0 else math.nan
    high = points[kept[-1]] if kept[-1] < points.size else math.nan
    return float(low), float(high)


def margin_p_values(
    values: Sequence[float] | np.ndarray, margin: float = EQUIVALENCE_MARGIN
) -> tuple[float, float]:
    """``(p_beyond, p_equivalence)``: the signed-rank interval against the margin, as
    one-sided tests (the outcome rule of :mod:`budgetboost.analysis.vocabulary`).

    The null distribution of the signed-rank statistic is symmetric, so the one-sided
    p-value of a shift, on the side of the estimate, is half its two-sided one
    (:func:`shift_p_values`; at most 1/2, reached in the estimate's own gap). ``p_beyond``
    is the largest of these of any shift not beyond the margin on the estimate's side
    (every ``delta >= -margin`` when the estimate lies below ``-margin``, every ``delta <=
    +margin`` when above it; inside the margin, the estimate's own gap): it is below
    ``alpha`` exactly when the ``1 - 2 alpha`` interval lies wholly beyond the margin.
    ``p_equivalence`` is the largest of the shifts outside the margin (``|delta| >=
    margin``), the two one-sided tests of its bounds: below ``alpha`` exactly when that
    interval lies wholly inside it.
    """
    d = _clean(values)
    if d.size == 0:
        return 1.0, 1.0
    beyond, equivalence = _margin(*shift_p_values(d), margin)
    if np.ptp(d) == 0.0:
        # every value the same: at the shift equal to it no value is left and the test
        # cannot reject (p = 1, halved), a shift the gaps around it do not stand for
        centre = abs(float(d[0]))
        beyond = 0.5 if centre <= margin else beyond
        equivalence = 0.5 if centre >= margin else equivalence
    return beyond, equivalence


def _margin(points: np.ndarray, p: np.ndarray, margin: float) -> tuple[float, float]:
    """:func:`margin_p_values` from :func:`shift_p_values`'s ``points`` and ``p`` (two-sided,
    halved here into the one-sided tests)."""
    high = np.concatenate([points, [math.inf]])  # each gap's upper end
    low = np.concatenate([[-math.inf], points])  # and lower end
    at_least = float(p[high >= -margin].max())  # every delta >= -margin
    at_most = float(p[low <= margin].max())  # every delta <= +margin
    outside = max(float(p[low <= -margin].max()), float(p[high >= margin].max()))
    return min(at_least, at_most) / 2, outside / 2


def min_detectable(values: Sequence[float] | np.ndarray, level: float) -> float:
    """How far beyond the margin a true centre must lie to read ``better`` or ``worse`` with
    80 % power, the outcome's one-sided test at ``level`` over these datasets: the
    t-test's (noncentral t, the values' spread) over ``sqrt(3 / pi)``; ``inf`` when the
    exact test cannot reach ``level`` with these non-zero values (one side's smallest
    p-value is ``2^-n``; zeros carry no sign, so they are not counted) or without a
    spread."""
    d = _clean(values)
    nonzero = int(np.count_nonzero(d))
    if d.size < 2 or 2.0 ** (-nonzero) > level:
        return math.inf
    if np.ptp(d) == 0.0:
        return math.inf
    se = float(d.std(ddof=1)) / math.sqrt(d.size)
    return detectable_beyond(d.size - 1, level) * se / math.sqrt(WILCOXON_EFFICIENCY)


def bayesian_signed_rank(
    values: Sequence[float] | np.ndarray,
    margin: float,
    rng: np.random.Generator,
    samples: int | None = None,
) -> tuple[float, float, float]:
    """``(P(x better), P(practically equivalent), P(y better))`` of the Bayesian signed-rank
    test over one value per dataset (x - y; module docstring), ``samples`` draws (default
    :data:`BAYES_SAMPLES`) from ``rng``."""
    d = _clean(values)
    z = np.concatenate([[0.0], d])
    walsh = z[:, None] + z[None, :]
    below = (walsh < -2 * margin) + 0.5 * (walsh == -2 * margin)
    above = (walsh > 2 * margin) + 0.5 * (walsh == 2 * margin)
    alpha = np.concatenate([[PRIOR], np.ones(d.size)])
    weights = rng.dirichlet(alpha, size=BAYES_SAMPLES if samples is None else samples)
    left = np.einsum("si,ij,sj->s", weights, below, weights, optimize=True)
    right = np.einsum("si,ij,sj->s", weights, above, weights, optimize=True)
    masses = np.stack([left, 1.0 - left - right, right], axis=1)
    better, equivalent, worse = np.bincount(masses.argmax(axis=1), minlength=3) / len(masses)
    return float(better), float(equivalent), float(worse)


def _bayes(d: np.ndarray, margin: float, key: tuple) -> tuple[float, float, float]:
    rng = np.random.Generator(np.random.PCG64(seed_from_key("bayesian signed-rank", *key)))
    return bayesian_signed_rank(d, margin, rng)


def dataset_outcome(
    estimate: float,
    p_beyond: float,
    p_equivalence: float,
    datasets: int,
    alpha: float = ALPHA,
) -> str:
    """The outcome of a row across datasets (:data:`~budgetboost.analysis.vocabulary.RULE`):
    ``too few datasets`` below ``MIN_DATASETS``, else read off the signed-rank interval
    through ``p_beyond`` and ``p_equivalence`` (:func:`margin_p_values`, Holm-adjusted over
    the comparison's rows); ``estimate`` is the Hodges-Lehmann estimate (negative: x's errors
    lower)."""
    return decide(
        short=TOO_FEW_DATASETS if datasets < MIN_DATASETS else None,
        p_beyond=p_beyond,
        p_equivalence=p_equivalence,
        lower=estimate < 0,
        alpha=alpha,
    )


def compare_datasets(
    values: Sequence[float] | np.ndarray,
    *,
    key: tuple = (),
    alpha: float = ALPHA,
    margin: float = EQUIVALENCE_MARGIN,
    level: float | None = None,
) -> dict:
    """One value per dataset (x - y; lower error is better) tested across datasets.

    Parameters
    ----------
    values : sequence of float
        Each dataset's mean difference (NaN entries are dropped).
    key : tuple
        What is compared (question, x, y, band, pool): seeds the Bayesian test's draws.
    alpha, margin : float
        Level of the outcome's tests; the margin of practical equivalence (of the outcome
        and of the Bayesian test).
    level : float, optional
        Level of ``min_detectable`` (default ``alpha``).

    Returns
    -------
    dict
        ``datasets``, ``mean_difference`` (over the datasets), ``hodges_lehmann`` (the
        median of the Walsh averages) with the ``DECISION_CONFIDENCE`` interval of the
        signed-rank test, the one the outcome reads (``ci_low``, ``ci_high``:
        :func:`signed_rank_interval`, so that it agrees with the tests), ``statistic`` (sum
        of signed ranks, zeros left out), ``p_wilcoxon`` (the two-sided test of a zero
        centre, :func:`signed_rank_p`), ``p_beyond`` and ``p_equivalence`` (the interval
        against ``margin`` as one-sided tests, :func:`margin_p_values`), ``prob_better``,
        ``prob_equivalent``, ``prob_worse`` (the Bayesian signed-rank test, described beside
        the outcome, not deciding it), ``min_detectable`` (the smallest true difference that
        reads ``better`` or ``worse`` with 80 % power at ``level``: ``margin`` plus what the
        signed-rank test resolves, :func:`min_detectable`; ``inf`` when the exact test cannot
        reach ``level`` with these non-zero values) and ``outcome`` (:func:`dataset_outcome`
        at ``alpha``).
    """
    d = _clean(values)
    n = int(d.size)
    ranks = _signed_ranks(d)
    estimate, low, high, p_beyond, p_equivalence = (math.nan,) * 3 + (1.0, 1.0)
    if n:
        shifts = shift_p_values(d)  # once: the interval and its tests read the same
        estimate = float(np.median(_walsh(d)))
        low, high = _interval(*shifts, DECISION_CONFIDENCE, estimate)
        p_beyond, p_equivalence = _margin(*shifts, margin)
    out = {
        "datasets": n,
        "mean_difference": float(d.mean()) if n else math.nan,
        "hodges_lehmann": estimate,
        "ci_low": low,
        "ci_high": high,
        "statistic": float(ranks.sum()),
        "p_wilcoxon": signed_rank_p(d),
        "p_beyond": p_beyond,
        "p_equivalence": p_equivalence,
        "prob_better": math.nan,
        "prob_equivalent": math.nan,
        "prob_worse": math.nan,
        "min_detectable": math.inf,
    }
    if n >= 2:
        better, equivalent, worse = _bayes(d, margin, key)
        out.update(prob_better=better, prob_equivalent=equivalent, prob_worse=worse)
        out["min_detectable"] = margin + min_detectable(d, alpha if level is None else level)
    out["outcome"] = dataset_outcome(estimate, p_beyond, p_equivalence, n, alpha)
    return out
