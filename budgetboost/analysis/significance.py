"""Two exact procedures every comparison builds on: the sign-flip test and Holm.

- :func:`sign_flip_p`: the exact two-sided permutation test of a zero centre of symmetry:
  for values ``d_1 .. d_n``, the sign of each is a fair coin under it, and the p-value is the
  share of the ``2^n`` sign vectors whose ``|sum s_i |d_i||`` is at least the observed
  ``|sum d_i|``. Zeros count as either sign, so they are allowed and change nothing. Values
  that are rationals with a common denominator (error rates on a fixed test set, their
  averages over a band, ranks with ties: multiples of 1/2) lie on a lattice, where the null
  distribution of the sum is computed exactly by dynamic programming in ``n`` times the
  lattice range (``_lattice``). Only where no such lattice exists (real-valued values) is
  it enumerated (``n <= 20``) or, beyond, estimated from :data:`MONTE_CARLO_FLIPS` seeded
  sign vectors. On the signed ranks of one value per dataset it is the exact Wilcoxon
  signed-rank test (:func:`budgetboost.analysis.across_datasets.signed_rank_p`).
- :func:`holm`: Holm's (1979) step-down adjustment over the rows of one comparison.

The trials of one dataset are *not* independent draws (they split one finite sample), so
the per-dataset rows use the corrected resampled t-test of
:mod:`budgetboost.analysis.per_dataset`, not a permutation of trials.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np

__all__ = ["MONTE_CARLO_FLIPS", "holm", "sign_flip_p", "subset_sums"]

#: Random sign vectors of the fallback for values on no common lattice (seeded by them).
MONTE_CARLO_FLIPS = 1 << 18
#: Largest denominator ``_lattice`` looks for, and the largest DP size it accepts.
_MAX_DENOMINATOR = 10**6
_MAX_WORK = 5 * 10**8
#: Values are rounded to this many decimals first: equal error rates tie exactly.
_DECIMALS = 12


def _clean(differences: Sequence[float] | np.ndarray) -> np.ndarray:
    d = np.round(np.asarray(differences, dtype=np.float64), _DECIMALS)
    return d[~np.isnan(d)]


def _lattice(a: np.ndarray) -> np.ndarray | None:
    """Integers ``k`` with ``a = k * q`` for one common ``q > 0``, or ``None`` if ``a`` (>= 0)
    has no common denominator up to ``_MAX_DENOMINATOR``."""
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


def subset_sums(k: np.ndarray) -> np.ndarray:
    """Distribution of ``X``, the total of the ``k_i`` (non-negative integers) whose fair sign
    comes up negative: ``P(X = x)`` for ``x = 0 .. sum k``. The signed sum is ``sum k - 2X``.

    Built one value at a time, ``P_i(x) = (P_{i-1}(x) + P_{i-1}(x - k_i)) / 2``.
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
    return p


def _exact_tail(k: np.ndarray, observed: int) -> float:
    """``P(|sum s_i k_i| >= observed)`` for fair signs ``s_i``, ``k_i`` non-negative integers."""
    p = subset_sums(k)
    total = p.size - 1
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
