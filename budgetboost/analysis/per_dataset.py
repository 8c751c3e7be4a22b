"""Inference about a dataset's population from trials that share one finite sample.

The trials of a dataset are random train/test splits of the *same* ``n_pool`` rows, so their
paired differences ``d_1 .. d_J`` (x's test error minus y's) are not independent: two trials
share test rows and training rows, and more trials sharpen the estimate of *this sample's*
difference, not of the algorithms'. A t-test that treats them as independent rejects a true
null on most datasets (simulated: 77 % at 100 training / 170 test rows and 30 trials).

**The corrected resampled t-test** (Nadeau & Bengio 2003; Bouckaert & Frank 2004; the
default test of Weka's Experimenter). If every ``d_j`` has variance ``sigma^2`` and every two
have correlation ``rho``, the mean of ``J`` of them has variance
``sigma^2 (rho + (1 - rho) / J)``, and the sample variance ``S^2`` of the ``d_j`` estimates
``(1 - rho) sigma^2``; so

    Var(mean) = S^2 (1 / J + rho / (1 - rho)).

**The correlation from the sizes and the pool** (derived in docs/design.md, "Statistics").
Write a trial's difference as the mean over its ``n_test`` test rows of each row's loss
difference ``a(row)``, plus the mean over its ``n_train`` training rows of what each row adds
by being trained on, ``b(row)`` (to first order). The ``n_pool`` rows are a sample of the
population and each trial draws its rows from them, so two trials share the pool's mean of
``a + b``: covariance ``Var(a + b) / n_pool``, against a variance of ``Var(a) / n_test +
Var(b) / n_train``. With the two parts uncorrelated, ``rho`` is the mean of the test rows'
share of the pool, ``n_test / n_pool``, and the training rows', ``n_train / n_pool``,
weighted by how much of a trial's variance comes from each: so it lies between the two, and
the correction needs the weight, which a row's trials alone cannot give (the spread of
``J`` differences measures their sum, not its parts).

Nadeau & Bengio's ``n_test / n`` takes the weight of the training rows to be 0; the trials
then correlate more than it says wherever the training rows count and outnumber the test
rows, as in the suite's 750 training and 250 test rows of 1,000 (simulated with learners
whose error depends on their training rows, ``learner_differences`` of
``benchmarks/simulation.py``: one nearest neighbour's trials correlate by 0.38 where it takes
0.25, and its test rejects a true null on 10.5 % of datasets; boosted stumps and depth-4 trees stay
near 0.25, at 4.5-6 %). The correction takes a weight of at most :data:`TRAINING_SHARE` = 1/2
for the training rows: they hold at most as much of a trial's variance as its test rows, so

    rho = (n_test + TRAINING_SHARE max(0, n_train - n_test)) / n_pool,

the test rows' share where they are the more (Table 1's sonar, heart, splice, census: as
before) and halfway to the training rows' where those are (the suite's 750/250 of 1,000:
0.5, ``rho / (1 - rho)`` 1 instead of 1/3). The nearest neighbour, the most a learner's error
can depend on its training rows (every prediction is one of them), gives its training rows
about a quarter (``python benchmarks/inference.py --learners``: 0.38 = 0.25 + 0.5 x 0.26 at
750/250). With the pool exactly split this is Nadeau & Bengio's ``n_test / n`` when
``n_test >= n_train``; a pool much larger than a trial's rows (census: 6,000 of 48,842) makes
the trials nearly independent.

**From the rows' losses** (:func:`row_covariance`; used by :func:`compare_paired` where the
shards carry each test row's loss, the bound above otherwise). Given the pool, the trials
are independent draws of a split, so two trials' covariance is the variance, across pools,
of the pool's expected difference. Take a trial's difference ``d_j``, the mean over its test
rows of ``f(i, T_j)`` (row ``i``'s loss difference under models trained on ``T_j``), apart
into the parts each joining a set of rows (Hoeffding's decomposition over independent
rows): a test row's own part ``a(i)``; parts joining a test row with ``m >= 1`` training
rows (whether a row is right depends on which training rows lie near it); parts of the
training rows alone (the training set's effect, linear or not); and the trial's own noise.
Another trial shares a part of ``k`` rows when it draws them in the same roles: the own
part with probability ``f_te = n_test / n_pool``, a part of ``k`` training rows ``f_tr^k
<= f_tr`` (``f_tr = n_train / n_pool``), a part of one test row and ``m`` training rows
``f_te f_tr^m`` in the same roles and, where it is symmetric in its rows (one nearest
neighbour: two rows nearest each other help each other alike), in any of its ``m + 1``
assignments with one row tested: at most ``mixed = max_m (m + 1) f_te f_tr^m`` of it (0.42
at 750/250 of 1,000; one nearest neighbour's trials correlate by 0.37 there, ``2 f_te
f_tr``). A row's parts as a test row are taken as uncorrelated with its parts as a training
row (as for the bound above). Of these, the rows' losses show two sums: ``W``, the mean
over trials of the test rows' variance within a trial over ``n_test``, estimates the parts
with a test row (given ``T_j`` the test rows are independent draws), ``A + sum_m E_m``; and
``P``, the mean product of a row's centred losses in two trials that both test it, over
``n_test``, the part a row keeps, ``A + sum_m f_tr^m E_m`` (the other trial keeps each
training row with probability ``f_tr``), so ``A`` lies in ``[(P - f_tr W) / (1 - f_tr),
P]``. The parts with a test row then share at most ``c_W = max_A f_te A + mixed (W -
A)``, and the rest of a trial's variance, ``V - W``, at most ``f_tr`` (all of it counted as
the training rows' linear part, the most shared; where the trials' differences hold a part
of the test rows that their losses do not show, as the average-cost reading's mixture
weights read off the test rows' costs, at most ``max(f_tr, f_te, mixed)``:
``unseen_test_part``). With ``V = S^2 + cov`` (``S^2``
estimates ``V - cov``)::

    cov <= max(c_W, (c_W + f_tr (S^2 - W)) / (1 - f_tr)),   Var(mean) = S^2 / J + cov,

``rho = cov / (cov + S^2)``: at least ``f_te`` where ``f_tr >= 1/2``. The rest ``V - W`` is
read off ``S^2`` and multiplied by ``f_tr / (1 - f_tr)`` (3 at 750/250 of 1,000), so the
variance carries that much more of ``S^2``'s noise: its degrees of freedom are
Satterthwaite's over the sampling distribution of ``S^2`` (``W`` and ``P`` average over every
row of every trial), at most ``J - 1``. The bound is not used (the sizes' is) with fewer
than :data:`~budgetboost.analysis.vocabulary.MIN_TRIALS` trials, without spread or without
variance within the trials, and :func:`compare_paired` takes it only where its interval is
the narrower (both are bounds; the choice reads the variances, never the mean).

Checked against known truths (``python benchmarks/inference.py --rows``, docs/design.md,
"Statistics"): the rows' bound keeps every false rate under 5 % and gains little power at
10 trials (boosted stumps at 750/250 of 1,000, a true 0.05: *better* on 23 % of datasets
instead of 22 %; the stress learner ``grown_tree``: unchanged): the part of a trial's
variance the test rows do not explain (10-15 % of it for the stumps there) must be counted
as the training rows' and counts three times; the learners' true correlations (0.20-0.25)
lie far below what either bound can justify from one dataset's trials.

**One variance for the interval, the tests and the outcome.** ``se = S sqrt(1/J +
rho/(1-rho))`` on ``J - 1`` degrees of freedom gives the interval, the two-sided p-value and
the interval's tests against the margin (:func:`margin_p_values`: beyond it, a one-sided
test, and inside it, the two one-sided tests of Schuirmann 1987, each at ``ALPHA``), so they
cannot disagree: ``equivalent`` needs the ``1 - 2 ALPHA`` (90 %) interval the tables print
inside the margin, ``better`` / ``worse`` that interval beyond it
(:data:`~budgetboost.analysis.vocabulary.DECISION_CONFIDENCE`).

**Equal differences alone never make ``equivalent``.** When every trial shows the same
difference ``v``, ``S = 0`` says only that no trial *yet* differed: with ``J`` such trials,
a trial unlike them may still occur with probability up to ``q = 1 - 0.05^(1/J)`` (the 95 %
bound of a rate seen zero times in ``J`` trials, about ``3 / J``), and its difference may
lie anywhere in ``[-1, 1]``. The spread is then taken as ``sqrt(q) (1 + |v|)``, the most
such a trial could add, and every statement follows from it as from any other spread: with
few trials the row supports no outcome (below), with many it may be ``inconclusive``, never
``equivalent`` on equality alone.

**Too few trials.** A row supports an outcome only with at least ``MIN_TRIALS`` trials and a
test that could detect the largest possible difference (``min_detectable`` at most 1, an
error rate's whole range); otherwise its outcome is ``too few trials`` and its p-values are
NaN (its interval is still given).

References
----------
C. Nadeau and Y. Bengio, "Inference for the Generalization Error", Machine Learning
52:239-281, 2003. R. R. Bouckaert and E. Frank, "Evaluating the Replicability of Significance
Tests for Comparing Learning Algorithms", PAKDD 2004. D. J. Schuirmann, "A comparison of the
two one-sided tests procedure and the power approach for assessing the equivalence of average
bioavailability", J. Pharmacokinetics and Biopharmaceutics 15:657-680, 1987.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from budgetboost.analysis.vocabulary import (
    ALPHA,
    DECISION_CONFIDENCE,
    EQUIVALENCE_MARGIN,
    MIN_TRIALS,
    POWER,
    TOO_FEW_TRIALS,
    decide,
)

__all__ = [
    "LARGEST_DIFFERENCE",
    "TRAINING_SHARE",
    "compare_paired",
    "correlation",
    "corrected_se",
    "detectable_beyond",
    "detectable_in_se",
    "margin_p_values",
    "outcome",
    "row_covariance",
]

#: Error rates lie in [0, 1], so no mean difference is larger than this: a test that could
#: not detect it supports no outcome.
LARGEST_DIFFERENCE = 1.0
#: The largest share of a trial's variance that the correction lets its training rows hold
#: (module docstring, :func:`correlation`).
TRAINING_SHARE = 0.5
#: Differences are rounded to this many decimals first: equal error rates tie exactly.
_DECIMALS = 12


def _sizes(n_train: int, n_test: int, n_pool: int | None) -> tuple[int, int, int]:
    for name, value in (("n_train", n_train), ("n_test", n_test)):
        if int(value) != value or value < 1:
            raise ValueError(f"{name} must be a positive integer; got {value!r}")
    n_pool = int(n_train) + int(n_test) if n_pool is None else n_pool
    if int(n_pool) != n_pool or n_pool < n_train + n_test:
        raise ValueError(
            f"n_pool must be an integer of at least n_train + n_test = {n_train + n_test} "
            f"(the rows the trials are drawn from); got {n_pool!r}"
        )
    return int(n_train), int(n_test), int(n_pool)


def correlation(
    n_train: int,
    n_test: int,
    n_pool: int | None = None,
    training_share: float = TRAINING_SHARE,
) -> float:
    """Correlation ``rho`` of two trials' differences taken by the correction (module
    docstring): ``(n_test + training_share * max(0, n_train - n_test)) / n_pool``.

    The trials' correlation is a mean of the test rows' share of the pool, ``n_test /
    n_pool``, and the training rows', ``n_train / n_pool``, weighted by how much of a trial's
    variance comes from its test rows and from its training rows; ``training_share`` is the
    most the correction lets the training rows hold (0: Nadeau & Bengio's ``n_test / n`` with
    the pool, the correction before the training rows were counted). ``n_pool`` defaults to
    ``n_train + n_test``.
    """
    n_train, n_test, n_pool = _sizes(n_train, n_test, n_pool)
    if not 0.0 <= training_share <= 1.0:
        raise ValueError(f"training_share must lie in [0, 1]; got {training_share!r}")
    return (n_test + training_share * max(0, n_train - n_test)) / n_pool


def _mixed_share(n_train: int, n_test: int, n_pool: int) -> float:
    """The most a part of a trial's variance that joins one test row with ``m >= 1`` of its
    training rows can share with another trial: ``max_m (m + 1) f_te f_tr^m`` (module
    docstring, *From the rows' losses*)."""
    f_te, f_tr = n_test / n_pool, n_train / n_pool
    m = np.arange(1, 1 + max(2, int(np.ceil(10.0 / max(1e-12, 1.0 - f_tr)))))
    return float(np.max((m + 1) * f_te * f_tr**m))


def row_covariance(
    test_rows: ArrayLike,
    row_differences: ArrayLike,
    n_train: int,
    n_test: int,
    n_pool: int | None = None,
    *,
    unseen_test_part: bool = False,
) -> dict:
    """How much two trials of one dataset share, bounded from each test row's loss in each
    trial (module docstring, *From the rows' losses*).

    Parameters
    ----------
    test_rows : array of int, shape (trials, n_test)
        Each trial's test rows (their places in the pool, ``0 .. n_pool - 1``).
    row_differences : array of float, shape (trials, n_test)
        Each of those rows' loss difference, x's minus y's (for a band: each row's loss
        averaged over the band's budgets; at a mean-cost level, each row's expected loss
        under the mixture of two operating points:
        :mod:`budgetboost.analysis.average_cost`), in the order of ``test_rows``: a
        trial's mean is its difference ``d_j``. Any real values: the bound reads their
        variances and products, not that a loss is 0 or 1.
    n_train, n_test, n_pool : int
        The trials' sizes (:func:`correlation`).
    unseen_test_part : bool
        Whether a trial's difference may hold a part of its test rows that their losses do
        not show (the average-cost reading's mixture weights, read off the test rows' costs:
        :mod:`budgetboost.analysis.average_cost`). The rest of a trial's variance, ``V -
        W``, is then counted as shared at the most any part shares, ``max(f_tr, f_te,
        mixed)``, not at the training rows' ``f_tr`` alone (the same where the training rows
        are at least as many as the test rows).

    Returns
    -------
    dict
        ``within`` (``W``: the test rows' part of a trial's variance, the rows' variance
        within a trial over ``n_test``), ``persistent`` (``P``: the part of it a row keeps
        from one trial to another where it is tested in both), ``spread2`` (``S^2``),
        ``covariance`` (the bound on two trials' covariance), ``correlation`` (``rho =
        cov / (cov + S^2)``, the one whose ``S^2 (1/J + rho / (1 - rho))`` is ``S^2 / J +
        cov``), ``df`` (Satterthwaite's degrees of freedom of that variance, at most ``J -
        1``) and ``stable`` (false where the bound is not to be used: fewer than
        :data:`~budgetboost.analysis.vocabulary.MIN_TRIALS` trials, no spread, no
        variance within the trials); NaN for what could not be computed.
    """
    n_train, n_test, n_pool = _sizes(n_train, n_test, n_pool)
    rows = np.asarray(test_rows, dtype=np.int64)
    losses = np.asarray(row_differences, dtype=np.float64)
    if losses.ndim != 2 or rows.shape != losses.shape or losses.shape[1] != n_test:
        raise ValueError(
            f"test_rows and row_differences must both have shape (trials, n_test = {n_test}); "
            f"got {rows.shape} and {losses.shape}"
        )
    if rows.size and (rows.min() < 0 or rows.max() >= n_pool):
        raise ValueError(
            f"test_rows must lie in [0, n_pool = {n_pool}); got {rows.min()}..{rows.max()}"
        )
    J = losses.shape[0]
    out = dict.fromkeys(
        ("within", "persistent", "spread2", "covariance", "correlation", "df"), math.nan
    )
    out["stable"] = False
    if J < 2 or n_test < 2:
        return out
    d = losses.mean(axis=1)
    spread2 = float(np.var(d, ddof=1))
    within = float(np.mean(np.var(losses, axis=1, ddof=1))) / n_test
    centred = np.zeros((J, n_pool))
    tested = np.zeros((J, n_pool))
    np.put_along_axis(centred, rows, losses - d[:, None], axis=1)
    np.put_along_axis(tested, rows, 1.0, axis=1)
    pairs = float(np.sum(tested.sum(axis=0) ** 2 - tested.sum(axis=0)))
    products = float(np.sum(centred.sum(axis=0) ** 2 - (centred**2).sum(axis=0)))
    persistent = products / pairs / n_test if pairs > 0 else 0.0
    out.update(within=within, persistent=persistent, spread2=spread2)
    if not (J >= MIN_TRIALS and spread2 > 0 and within > 0):
        return out
    f_te, f_tr = n_test / n_pool, n_train / n_pool
    mixed = _mixed_share(n_train, n_test, n_pool)
    # the row's own part A lies in [low, high]: P = A + sum f_tr^m E_m, W = A + sum E_m
    low = min(within, max(0.0, (persistent - f_tr * within) / (1.0 - f_tr)))
    high = min(within, max(0.0, persistent))
    test_part = max(f_te * a + mixed * (within - a) for a in (low, high))
    # the rest of a trial's variance, V - W, shares at most f_tr (or, with a test-row part
    # the losses do not show, what any part may share): V = S^2 + cov
    rest = max(f_tr, f_te, mixed) if unseen_test_part else f_tr
    covariance = (test_part + rest * (spread2 - within)) / (1.0 - rest)
    covariance = max(test_part, covariance)
    out.update(
        covariance=covariance,
        correlation=covariance / (covariance + spread2),
        df=_satterthwaite(spread2, J, test_part, within, rest),
        stable=True,
    )
    return out


#: Quantiles of the trials' variance over which ``_satterthwaite`` averages.
_QUANTILES = (np.arange(256) + 0.5) / 256


def _satterthwaite(spread2: float, J: int, test_part: float, within: float, f_tr: float) -> float:
    """Degrees of freedom of the variance ``S^2 / J + cov(S^2)`` of :func:`row_covariance`
    (Satterthwaite: ``2 E[v]^2 / Var[v]``, at most ``J - 1``, floored to hundredths), its
    moments taken over the sampling distribution of ``S^2`` (``spread2 chi2(J - 1) / (J -
    1)``) with ``W`` and the test rows' part held fixed (they average over every row of
    every trial): where the bound reads the rest of the trials' variance off ``S^2`` and
    multiplies it by ``f_tr / (1 - f_tr)`` (``f_tr``: the share it counts the rest at,
    ``n_train / n_pool`` unless a test-row part is unseen), its noise counts that much
    more."""
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    nu = J - 1
    s2 = spread2 * sps.chi2.ppf(_QUANTILES, nu) / nu
    rest = (test_part + f_tr * (s2 - within)) / (1.0 - f_tr)
    v = s2 / J + np.maximum(test_part, rest)
    spread = float(np.var(v))
    if spread <= 0:
        return float(nu)
    # floored to hundredths: never more than Satterthwaite's, and the tests' cache hits
    return float(min(nu, math.floor(200.0 * float(np.mean(v)) ** 2 / spread) / 100.0))


def corrected_se(
    spread: ArrayLike,
    mean: ArrayLike,
    trials: ArrayLike,
    n_test: ArrayLike,
    n_pool: ArrayLike,
    *,
    n_train: ArrayLike | None = None,
    training_share: float = TRAINING_SHARE,
) -> np.ndarray:
    """Standard error of the mean of ``trials`` differences whose sample standard deviation is
    ``spread``: ``spread sqrt(1 / J + rho / (1 - rho))`` with ``rho`` of :func:`correlation`
    (without ``n_train``: ``rho = n_test / n_pool``, the test rows alone), the spread of
    equal differences (``spread == 0``) taken as ``sqrt(1 - 0.05^(1/J)) (1 + |mean|)``.
    Element-wise; ``J >= 2``."""
    J = np.asarray(trials, dtype=np.float64)
    spread = np.asarray(spread, dtype=np.float64)
    unseen = np.sqrt(1.0 - 0.05 ** (1.0 / J)) * (1.0 + np.abs(np.asarray(mean, dtype=np.float64)))
    spread = np.where(spread > 0, spread, unseen)
    n_test = np.asarray(n_test, dtype=np.float64)
    n_pool = np.asarray(n_pool, dtype=np.float64)
    shared = n_test
    if n_train is not None:
        extra = np.maximum(0.0, np.asarray(n_train, dtype=np.float64) - n_test)
        shared = n_test + training_share * extra
    return spread * np.sqrt(1.0 / J + shared / (n_pool - shared))


def detectable_beyond(df: int, level: float, power: float = POWER) -> float:
    """The true distance beyond the margin, in standard errors, at which the one-sided test
    of an outcome at ``level`` (:func:`margin_p_values`) reads ``better`` / ``worse`` with
    probability ``power``: :func:`detectable_in_se` at ``2 level`` (a one-sided test at
    ``level`` rejects where the two-sided one at ``2 level`` does on its side; the other
    side's tail is negligible at 80 % power)."""
    return detectable_in_se(df, min(1.0, 2.0 * level), power)


@functools.lru_cache(maxsize=4096)
def detectable_in_se(df: int, level: float, power: float = POWER) -> float:
    """The true mean difference, in standard errors, that the two-sided t-test at ``level``
    on ``df`` degrees of freedom detects with probability ``power`` (noncentral t)."""
    from scipy import optimize
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    critical = float(sps.t.ppf(1 - level / 2, df))

    def shortfall(delta: float) -> float:
        # the far tail is negligible here and scipy may return NaN for it
        far = float(np.nan_to_num(sps.nct.cdf(-critical, df, delta), nan=0.0))
        return float(sps.nct.sf(critical, df, delta)) + far - power

    high = critical + 10.0
    while shortfall(high) < 0:
        high *= 2
    return float(optimize.brentq(shortfall, 0.0, high, xtol=1e-10))


def margin_p_values(
    mean: float, se: float, df: int, margin: float = EQUIVALENCE_MARGIN
) -> tuple[float, float]:
    """``(p_beyond, p_equivalence)``: the interval ``mean +- t se`` against the margin, as
    one-sided t-tests (the rule of :data:`~budgetboost.analysis.vocabulary.RULE`).

    ``p_beyond`` is the smaller p of the two one-sided tests beyond the margin, of ``delta
    >= -margin`` against ``delta < -margin`` (``t.cdf((mean + margin) / se)``) and of
    ``delta <= +margin`` against ``delta > +margin`` (``t.sf((mean - margin) / se)``), the
    one on the mean's side: below ``alpha`` exactly when the ``1 - 2 alpha`` interval lies
    wholly beyond the margin. ``p_equivalence`` is the larger p of the two one-sided tests of
    the margin's bounds (Schuirmann 1987), of ``delta <= -margin`` and of ``delta >=
    +margin``: below ``alpha`` exactly when that interval lies wholly inside it.
    """
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    above_low = float(sps.t.sf((mean + margin) / se, df))  # H0: delta <= -margin
    below_high = float(sps.t.cdf((mean - margin) / se, df))  # H0: delta >= +margin
    below_low = float(sps.t.cdf((mean + margin) / se, df))  # H0: delta >= -margin
    above_high = float(sps.t.sf((mean - margin) / se, df))  # H0: delta <= +margin
    return min(below_low, above_high), max(above_low, below_high)


def outcome(
    mean: float,
    p_beyond: float,
    p_equivalence: float,
    alpha: float = ALPHA,
    enough: bool = True,
) -> str:
    """A row's outcome, x against y (:data:`~budgetboost.analysis.vocabulary.RULE`): ``too
    few trials`` when the trials cannot support any (``enough`` false), else read off the
    interval through ``p_beyond`` and ``p_equivalence`` (:func:`margin_p_values`, Holm-
    adjusted over the comparison's rows): ``equivalent``, ``better`` / ``worse`` (x's error
    lower / higher by more than the margin) or ``inconclusive``."""
    return decide(
        short=None if enough else TOO_FEW_TRIALS,
        p_beyond=p_beyond,
        p_equivalence=p_equivalence,
        lower=mean < 0,
        alpha=alpha,
    )


def _from_rows(
    rows: tuple[ArrayLike, ArrayLike],
    kept: np.ndarray,
    d: np.ndarray,
    n_train: int,
    n_test: int,
    n_pool: int,
    unseen_test_part: bool = False,
) -> tuple[float, float, float, float] | None:
    """``(rho, se, half-width, df)`` of :func:`compare_paired`'s kept trials ``d`` with the
    correlation bounded from their rows (:func:`row_covariance`), or None where that bound
    is not stable (or the trials show no spread: the sizes' rule for equal differences)."""
    test_rows, row_differences = (np.asarray(part) for part in rows)
    if len(test_rows) != kept.size or len(row_differences) != kept.size:
        raise ValueError(
            f"rows must hold one trial's test rows and row differences per difference "
            f"({kept.size}); got {len(test_rows)} and {len(row_differences)}"
        )
    spread = float(d.std(ddof=1))
    if spread <= 0:
        return None
    bound = row_covariance(
        test_rows[kept],
        row_differences[kept],
        n_train,
        n_test,
        n_pool,
        unseen_test_part=unseen_test_part,
    )
    if not bound["stable"]:
        return None
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    rho, df = bound["correlation"], bound["df"]
    se = spread * math.sqrt(1.0 / d.size + rho / (1.0 - rho))
    return rho, se, float(sps.t.ppf(0.5 + DECISION_CONFIDENCE / 2, df)) * se, df


def compare_paired(
    differences: Sequence[float] | np.ndarray,
    n_train: int,
    n_test: int,
    n_pool: int | None = None,
    *,
    alpha: float = ALPHA,
    margin: float = EQUIVALENCE_MARGIN,
    level: float | None = None,
    training_share: float = TRAINING_SHARE,
    rows: tuple[ArrayLike, ArrayLike] | None = None,
    unseen_test_part: bool = False,
) -> dict:
    """One dataset's paired per-trial differences (x minus y; lower error is better) tested
    about the dataset's population with the corrected resampled t-test (module docstring).

    Parameters
    ----------
    differences : sequence of float
        ``x - y`` per trial (NaN pairs are dropped).
    n_train, n_test : int
        Training and test rows of every trial.
    n_pool : int, optional
        Rows the trials' splits are drawn from (default ``n_train + n_test``).
    alpha : float
        Level of the outcome's tests.
    margin : float
        Equivalence margin (an absolute error rate).
    level : float, optional
        Level of ``min_detectable`` (default ``alpha``; a comparison of many rows passes its
        strictest Holm level).
    training_share : float
        The largest share of a trial's variance the correction lets its training rows hold
        (:func:`correlation`; 0: the test rows alone).
    rows : (test_rows, row_differences), optional
        Each trial's test rows and their loss differences (:func:`row_covariance`), one
        row of each per entry of ``differences``: the correlation is then bounded from them
        where that bound is stable and gives the narrower interval, else taken from the
        sizes as without them (module docstring, *From the rows' losses*).
    unseen_test_part : bool
        Whether the differences hold a part of the test rows that ``rows`` do not show
        (:func:`row_covariance`).

    Returns
    -------
    dict
        ``trials``, ``mean_difference``, ``ci_low``, ``ci_high`` (the
        ``DECISION_CONFIDENCE`` interval, the one the outcome reads), ``p_value``
        (two-sided, no difference), ``p_beyond`` and ``p_equivalence`` (the interval
        against ``margin`` as one-sided tests: :func:`margin_p_values`),
        ``min_detectable`` (the smallest true difference that reads ``better`` or ``worse``
        with 80 % power at ``level``: ``margin`` plus what the test resolves; ``inf``
        without a variance), ``se``, ``df``, ``correlation`` (the one taken),
        ``from_rows`` (whether it was bounded from ``rows``) and ``outcome``
        (:func:`outcome` at ``alpha``; ``too few trials`` with fewer than
        :data:`~budgetboost.analysis.vocabulary.MIN_TRIALS` trials or when the test could
        not detect a difference of :data:`LARGEST_DIFFERENCE`).
    """
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    n_train, n_test, n_pool = _sizes(n_train, n_test, n_pool)
    d = np.round(np.asarray(differences, dtype=np.float64), _DECIMALS)
    kept = ~np.isnan(d)
    d = d[kept]
    J = int(d.size)
    rho = correlation(n_train, n_test, n_pool, training_share)
    out = {
        "trials": J,
        "mean_difference": float(d.mean()) if J else math.nan,
        "ci_low": math.nan,
        "ci_high": math.nan,
        "p_value": math.nan,
        "p_beyond": math.nan,
        "p_equivalence": math.nan,
        "min_detectable": math.inf,
        "se": math.nan,
        "df": J - 1,
        "correlation": rho,
        "from_rows": False,
    }
    if J < 2:
        out["outcome"] = TOO_FEW_TRIALS
        return out
    mean = out["mean_difference"]
    se = float(
        corrected_se(
            float(d.std(ddof=1)),
            mean,
            J,
            n_test,
            n_pool,
            n_train=n_train,
            training_share=training_share,
        )
    )
    df = J - 1
    half = float(sps.t.ppf(0.5 + DECISION_CONFIDENCE / 2, df)) * se
    if rows is not None:
        estimate = _from_rows(rows, kept, d, n_train, n_test, n_pool, unseen_test_part)
        if estimate is not None and estimate[2] < half:
            rho, se, half, df = estimate[0], estimate[1], estimate[2], estimate[3]
            out.update(correlation=rho, from_rows=True, df=df)
    out.update(ci_low=mean - half, ci_high=mean + half, se=se)
    out["min_detectable"] = margin + detectable_beyond(df, alpha if level is None else level) * se
    enough = J >= MIN_TRIALS and detectable_in_se(df, alpha) * se <= LARGEST_DIFFERENCE
    if enough:
        out["p_value"] = float(min(1.0, 2.0 * sps.t.sf(abs(mean) / se, df)))
        out["p_beyond"], out["p_equivalence"] = margin_p_values(mean, se, df, margin)
    out["outcome"] = outcome(mean, out["p_beyond"], out["p_equivalence"], alpha, enough)
    return out
