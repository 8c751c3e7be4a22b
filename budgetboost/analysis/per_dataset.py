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

**The correlation from the sizes and the pool** (derived in docs/design.md, "Per-dataset
inference"). Write a trial's difference as the mean over its ``n_test`` test rows of a
row's loss difference, ``a(row)``, plus the effect of its training set. The ``n_pool`` rows
are a sample of the population; two trials draw their test rows from them independently, so
their test means share the pool's mean of ``a``: covariance ``Var(a) / n_pool`` against a
variance of ``Var(a) / n_test``, a correlation ``rho = n_test / n_pool``. With the pool
exactly split (``n_pool = n_train + n_test``) this is Nadeau & Bengio's ``n_test / n``
and ``rho / (1 - rho) = n_test / n_train``; a pool much larger than a trial's rows (census:
6,000 of 48,842) makes the trials nearly independent. The training sets' share of the
correlation is of the same form, ``n_train / n_pool``, and enters in the same proportion
when a learner's variance over training sets is that of its test rows; the simulations of
:mod:`benchmarks.inference` (symmetric learners, known truth, at Table 1's sizes) check the
false-positive rate of this choice.

**One variance for the interval, the test and the equivalence.** ``se = S sqrt(1/J +
rho/(1-rho))`` on ``J - 1`` degrees of freedom gives the interval, the two-sided p-value and
the two one-sided tests of equivalence within the margin (Schuirmann 1987), so they cannot
disagree.

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
from scipy import optimize
from scipy import stats as sps

from budgetboost.analysis.vocabulary import (
    ALPHA,
    CONFIDENCE,
    EQUIVALENCE_MARGIN,
    MIN_TRIALS,
    POWER,
    TOO_FEW_TRIALS,
    decide,
)

__all__ = [
    "LARGEST_DIFFERENCE",
    "compare_paired",
    "correlation",
    "corrected_se",
    "detectable_in_se",
    "outcome",
]

#: Error rates lie in [0, 1], so no mean difference is larger than this: a test that could
#: not detect it supports no outcome.
LARGEST_DIFFERENCE = 1.0
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


def correlation(n_train: int, n_test: int, n_pool: int | None = None) -> float:
    """Correlation ``rho = n_test / n_pool`` of two trials' differences (module docstring).

    ``n_pool`` defaults to ``n_train + n_test`` (the splits use every row: Nadeau & Bengio's
    ``n_test / n``).
    """
    _, n_test, n_pool = _sizes(n_train, n_test, n_pool)
    return n_test / n_pool


def corrected_se(
    spread: ArrayLike, mean: ArrayLike, trials: ArrayLike, n_test: ArrayLike, n_pool: ArrayLike
) -> np.ndarray:
    """Standard error of the mean of ``trials`` differences whose sample standard deviation is
    ``spread``: ``spread sqrt(1 / J + n_test / (n_pool - n_test))`` (module docstring), the
    spread of equal differences (``spread == 0``) taken as ``sqrt(1 - 0.05^(1/J)) (1 +
    |mean|)``. Element-wise; ``J >= 2``."""
    J = np.asarray(trials, dtype=np.float64)
    spread = np.asarray(spread, dtype=np.float64)
    unseen = np.sqrt(1.0 - 0.05 ** (1.0 / J)) * (1.0 + np.abs(np.asarray(mean, dtype=np.float64)))
    spread = np.where(spread > 0, spread, unseen)
    n_test = np.asarray(n_test, dtype=np.float64)
    return spread * np.sqrt(1.0 / J + n_test / (np.asarray(n_pool, dtype=np.float64) - n_test))


@functools.lru_cache(maxsize=4096)
def detectable_in_se(df: int, level: float, power: float = POWER) -> float:
    """The true mean difference, in standard errors, that the two-sided t-test at ``level``
    on ``df`` degrees of freedom detects with probability ``power`` (noncentral t)."""
    critical = float(sps.t.ppf(1 - level / 2, df))

    def shortfall(delta: float) -> float:
        # the far tail is negligible here and scipy may return NaN for it
        far = float(np.nan_to_num(sps.nct.cdf(-critical, df, delta), nan=0.0))
        return float(sps.nct.sf(critical, df, delta)) + far - power

    high = critical + 10.0
    while shortfall(high) < 0:
        high *= 2
    return float(optimize.brentq(shortfall, 0.0, high, xtol=1e-10))


def outcome(
    mean: float,
    p_difference: float,
    p_equivalence: float,
    alpha: float = ALPHA,
    enough: bool = True,
) -> str:
    """A row's outcome, x against y: ``too few trials`` when the trials cannot support any
    (``enough`` false), else ``equivalent`` when equivalence holds at ``alpha`` (whether or not
    the difference is also significant: the tables show both), else ``better`` / ``worse``
    when the difference is significant (x's error lower / higher), else ``inconclusive``."""
    return decide(
        short=None if enough else TOO_FEW_TRIALS,
        equivalent=p_equivalence < alpha,
        significant=p_difference < alpha,
        lower=mean < 0,
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

    Returns
    -------
    dict
        ``trials``, ``mean_difference``, ``ci_low``, ``ci_high`` (the ``CONFIDENCE``
        interval), ``p_value`` (two-sided, no difference), ``p_equivalence`` (two one-sided
        tests within ``margin``), ``min_detectable`` (the smallest true difference the test
        detects with 80 % power at ``level``; ``inf`` without a variance), ``se``, ``df``,
        ``correlation`` and ``outcome`` (:func:`outcome` at ``alpha``; ``too few trials``
        with fewer than :data:`~budgetboost.analysis.vocabulary.MIN_TRIALS` trials or when
        ``min_detectable`` exceeds :data:`LARGEST_DIFFERENCE`).
    """
    n_train, n_test, n_pool = _sizes(n_train, n_test, n_pool)
    d = np.round(np.asarray(differences, dtype=np.float64), _DECIMALS)
    d = d[~np.isnan(d)]
    J = int(d.size)
    rho = n_test / n_pool
    out = {
        "trials": J,
        "mean_difference": float(d.mean()) if J else math.nan,
        "ci_low": math.nan,
        "ci_high": math.nan,
        "p_value": math.nan,
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
    se = float(corrected_se(float(d.std(ddof=1)), mean, J, n_test, n_pool))
    df = J - 1
    half = float(sps.t.ppf(0.5 + CONFIDENCE / 2, df)) * se
    out.update(ci_low=mean - half, ci_high=mean + half, se=se)
    out["min_detectable"] = detectable_in_se(df, alpha if level is None else level) * se
    enough = J >= MIN_TRIALS and detectable_in_se(df, alpha) * se <= LARGEST_DIFFERENCE
    if enough:
        below = float(sps.t.sf((mean + margin) / se, df))
        above = float(sps.t.cdf((mean - margin) / se, df))
        out["p_value"] = float(min(1.0, 2.0 * sps.t.sf(abs(mean) / se, df)))
        out["p_equivalence"] = max(below, above)
    out["outcome"] = outcome(mean, out["p_value"], out["p_equivalence"], alpha, enough)
    return out
