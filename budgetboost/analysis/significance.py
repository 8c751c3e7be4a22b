"""The tests behind every comparison: an exact sign-flip test, TOST equivalence, Holm, power.

A comparison "x vs y" pairs the two algorithms' errors by trial (same split, same costs);
its unit of replication is the trial. For paired differences ``d_1 .. d_n`` (x minus y):

- :func:`sign_flip_p`: the exact two-sided permutation test of "no difference": under it the
  sign of each ``d_i`` is a fair coin, and the p-value is the share of the ``2^n`` sign
  vectors whose ``|sum s_i |d_i||`` is at least the observed ``|sum d_i|``. Zero differences
  (ties) count as either sign, so they are allowed and change nothing. Error rates on a fixed
  test set are multiples of ``1 / n_test``, and their averages over a band's budgets are
  rationals with a common denominator: on that lattice the null distribution of the sum is
  computed exactly by dynamic programming in ``n`` times the lattice range (:func:`_lattice`).
  Only where no such lattice exists (real-valued differences) is it enumerated (``n <= 20``)
  or, beyond, estimated from :data:`MONTE_CARLO_FLIPS` seeded sign vectors.
- :func:`tost_p`: two one-sided t-tests of equivalence within ``+-margin`` (Schuirmann
  1987): small when the 90 % interval of the mean difference lies inside the margin.
- :func:`holm`: Holm's (1979) step-down adjustment over the rows of one comparison.
- :func:`min_detectable`: the smallest true mean difference the difference test detects with
  80 % power at a given level (a t approximation), ``inf`` when the sign-flip test cannot
  reach that level at all (``2^(1-n) > level``: too few non-zero pairs).
- :func:`outcome`: ``equivalent`` (the difference is within the margin, whether or not it is
  significant), else ``better`` / ``worse`` (significant, x lower / higher), else
  ``inconclusive``: absence of evidence is never worded as a result.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from scipy import stats as sps

__all__ = [
    "ALPHA",
    "BETTER",
    "EQUIVALENT",
    "INCONCLUSIVE",
    "MONTE_CARLO_FLIPS",
    "OUTCOMES",
    "POWER",
    "WORSE",
    "holm",
    "mean_interval",
    "min_detectable",
    "outcome",
    "sign_flip_p",
    "smallest_p",
    "tost_p",
]

#: Family-wise significance level of every comparison (after Holm).
ALPHA = 0.05
#: Power at which :func:`min_detectable` states the smallest detectable difference.
POWER = 0.8
#: Confidence level of the interval of a mean difference.
CONFIDENCE = 0.95
BETTER, WORSE, EQUIVALENT, INCONCLUSIVE = "better", "worse", "equivalent", "inconclusive"
#: The outcomes of a comparison row, x against y.
OUTCOMES = (BETTER, WORSE, EQUIVALENT, INCONCLUSIVE)
#: Random sign vectors of the fallback for differences on no common lattice (seeded by them).
MONTE_CARLO_FLIPS = 1 << 18
#: Largest denominator :func:`_lattice` looks for, and the largest DP size it accepts.
_MAX_DENOMINATOR = 10**6
_MAX_WORK = 5 * 10**8
#: Differences are rounded to this many decimals first: equal error rates tie exactly.
_DECIMALS = 12


def _clean(differences: Sequence[float] | np.ndarray) -> np.ndarray:
    d = np.round(np.asarray(differences, dtype=np.float64), _DECIMALS)
    return d[~np.isnan(d)]


def smallest_p(differences: Sequence[float] | np.ndarray) -> float:
    """The smallest two-sided p-value the sign-flip test can give these pairs: ``2^(1-k)``
    with ``k`` the non-zero differences (1 when all are zero)."""
    k = int(np.count_nonzero(_clean(differences)))
    return 1.0 if k == 0 else min(1.0, 2.0 ** (1 - k))


def _lattice(a: np.ndarray) -> np.ndarray | None:
    """Integers ``k`` with ``a = k * q`` for one common ``q > 0``, or ``None`` if ``a`` (>= 0)
    has no common denominator up to :data:`_MAX_DENOMINATOR`."""
    denominators = 1
    for value in np.unique(a):
        fraction = Fraction(float(value)).limit_denominator(_MAX_DENOMINATOR)
        if abs(float(fraction) - value) > 1e-12 * max(1.0, value):
            return None
        denominators = math.lcm(denominators, fraction.denominator)
        if denominators > _MAX_DENOMINATOR:
            return None
    k = np.rint(a * denominators)
    if np.abs(k - a * denominators).max(initial=0.0) > 1e-6:
        return None
    k = k.astype(np.int64)
    g = np.gcd.reduce(k[k > 0]) if np.any(k > 0) else 1
    return k // max(int(g), 1)


def _exact_tail(k: np.ndarray, observed: int) -> float:
    """``P(|sum s_i k_i| >= observed)`` for fair signs ``s_i``, ``k_i`` non-negative integers.

    The sum is ``T - 2X`` with ``X`` the total of the negative ones, a subset sum: its
    distribution is built one pair at a time, ``P_i(x) = (P_{i-1}(x) + P_{i-1}(x - k_i)) / 2``.
    """
    total = int(k.sum())
    p = np.zeros(total + 1)
    p[0] = 1.0
    reach = 0
    for step in np.sort(k)[::-1].tolist():
        if step == 0:
            continue
        shifted = p[: reach + 1].copy()
        p[: reach + 1] *= 0.5
        p[step : step + reach + 1] += 0.5 * shifted
        reach += step
    x = np.arange(total + 1)
    return float(min(1.0, p[np.abs(total - 2 * x) >= observed].sum()))


def sign_flip_p(differences: Sequence[float] | np.ndarray) -> float:
    """Exact two-sided p-value of the paired sign-flip test of a zero mean difference.

    See the module docstring. All differences zero (or none) give 1; NaN pairs are dropped.
    """
    d = _clean(differences)
    d = d[d != 0]
    if d.size == 0:
        return 1.0
    k = _lattice(np.abs(d))
    if k is not None and k.size * int(k.sum()) <= _MAX_WORK:
        observed = abs(int(np.sum(np.sign(d).astype(np.int64) * k)))
        return _exact_tail(k, observed)
    observed = abs(float(d.sum())) * (1 - 1e-12)
    a = np.abs(d)
    if d.size <= 20:  # every sign vector
        signs = 1 - 2 * ((np.arange(2**d.size)[:, None] >> np.arange(d.size)) & 1)
        return float(np.mean(np.abs(signs @ a) >= observed))
    seed = int.from_bytes(hashlib.sha256(d.tobytes()).digest()[:8], "little")
    rng = np.random.default_rng(seed)
    hits = 0
    for start in range(0, MONTE_CARLO_FLIPS, 1 << 14):
        signs = rng.integers(0, 2, size=(min(1 << 14, MONTE_CARLO_FLIPS - start), d.size))
        hits += int(np.count_nonzero(np.abs((1 - 2 * signs) @ a) >= observed))
    return (hits + 1) / (MONTE_CARLO_FLIPS + 1)


def mean_interval(
    differences: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> tuple[float, float, float]:
    """Mean paired difference and its Student-t interval (NaN bounds with one pair; the
    mean itself when every difference is the same)."""
    d = _clean(differences)
    if d.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(d.mean())
    if d.size < 2:
        return mean, math.nan, math.nan
    half = float(sps.t.ppf(0.5 + confidence / 2, d.size - 1)) * float(d.std(ddof=1))
    half /= math.sqrt(d.size)
    return mean, mean - half, mean + half


def tost_p(differences: Sequence[float] | np.ndarray, margin: float) -> float:
    """p-value of equivalence within ``+-margin``: the larger of the two one-sided t-tests of
    ``mean <= -margin`` and ``mean >= margin``. Equal differences decide by their value."""
    d = _clean(differences)
    if d.size < 2:
        return math.nan
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd == 0.0:
        return 0.0 if abs(mean) < margin else 1.0
    se = sd / math.sqrt(d.size)
    lower = float(sps.t.sf((mean + margin) / se, d.size - 1))
    upper = float(sps.t.cdf((mean - margin) / se, d.size - 1))
    return max(lower, upper)


def holm(pvalues: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm (1979) step-down adjusted p-values; NaN entries are ignored and stay NaN.

    With the ``m`` finite p-values sorted ascending, ``p_(i)`` becomes
    ``max_{j <= i} min(1, (m - j + 1) p_(j))``. Rejecting where the adjusted value is below
    ``alpha`` controls the family-wise error rate at ``alpha``.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    finite = np.flatnonzero(~np.isnan(p))
    m = finite.size
    if m == 0:
        return out
    order = finite[np.argsort(p[finite], kind="stable")]
    scaled = (m - np.arange(m)) * p[order]
    out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return out


def min_detectable(
    differences: Sequence[float] | np.ndarray, level: float, power: float = POWER
) -> float:
    """The smallest true mean difference the test detects with ``power`` at ``level``.

    ``(t_{1 - level/2} + t_{power}) sd / sqrt(n)`` on ``n - 1`` degrees of freedom, the
    spread ``sd`` of the observed differences standing in for the true one; ``inf`` when the
    sign-flip test cannot give a p-value at or below ``level`` (too few non-zero pairs) or
    with fewer than two pairs.
    """
    d = _clean(differences)
    n = d.size
    if n < 2 or 2.0 ** (1 - n) > level:
        return math.inf
    t = float(sps.t.ppf(1 - level / 2, n - 1) + sps.t.ppf(power, n - 1))
    return t * float(d.std(ddof=1)) / math.sqrt(n)


def outcome(mean: float, p_holm: float, p_equivalence_holm: float, alpha: float = ALPHA) -> str:
    """``equivalent`` when equivalence holds at ``alpha`` (Holm-adjusted TOST), else
    ``better`` / ``worse`` when the difference is significant (x's error lower / higher),
    else ``inconclusive``."""
    if p_equivalence_holm < alpha:
        return EQUIVALENT
    if p_holm < alpha:
        return BETTER if mean < 0 else WORSE
    return INCONCLUSIVE
