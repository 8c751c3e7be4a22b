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
whose error depends on their training rows, :func:`budgetboost.analysis.simulation.
learner_differences`: one nearest neighbour's trials correlate by 0.38 where it takes 0.25,
and its test rejects a true null on 10.5 % of datasets; boosted stumps and depth-4 trees stay
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

    Returns
    -------
    dict
        ``trials``, ``mean_difference``, ``ci_low``, ``ci_high`` (the
        ``DECISION_CONFIDENCE`` interval, the one the outcome reads), ``p_value``
        (two-sided, no difference), ``p_beyond`` and ``p_equivalence`` (the interval
        against ``margin`` as one-sided tests: :func:`margin_p_values`),
        ``min_detectable`` (the smallest true difference that reads ``better`` or ``worse``
        with 80 % power at ``level``: ``margin`` plus what the test resolves; ``inf``
        without a variance), ``se``, ``df``, ``correlation`` and ``outcome``
        (:func:`outcome` at ``alpha``; ``too few trials`` with fewer than
        :data:`~budgetboost.analysis.vocabulary.MIN_TRIALS` trials or when the test could
        not detect a difference of :data:`LARGEST_DIFFERENCE`).
    """
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    n_train, n_test, n_pool = _sizes(n_train, n_test, n_pool)
    d = np.round(np.asarray(differences, dtype=np.float64), _DECIMALS)
    d = d[~np.isnan(d)]
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
    out.update(ci_low=mean - half, ci_high=mean + half, se=se)
    out["min_detectable"] = margin + detectable_beyond(df, alpha if level is None else level) * se
    enough = J >= MIN_TRIALS and detectable_in_se(df, alpha) * se <= LARGEST_DIFFERENCE
    if enough:
        out["p_value"] = float(min(1.0, 2.0 * sps.t.sf(abs(mean) / se, df)))
        out["p_beyond"], out["p_equivalence"] = margin_p_values(mean, se, df, margin)
    out["outcome"] = outcome(mean, out["p_beyond"], out["p_equivalence"], alpha, enough)
    return out
