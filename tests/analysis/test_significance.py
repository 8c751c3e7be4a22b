"""The exact sign-flip test and Holm's correction (budgetboost.analysis.significance), against
references and values computed by hand."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from budgetboost.analysis import significance as sig
from budgetboost.analysis.significance import holm


def enumerated_p(d) -> float:
    """The sign-flip p-value from its definition: every one of the 2^n sign vectors."""
    d = np.asarray(d, dtype=float)
    observed = abs(d.sum())
    hits = [
        abs(np.dot(signs, np.abs(d))) >= observed - 1e-12
        for signs in itertools.product((-1, 1), repeat=d.size)
    ]
    return float(np.mean(hits))


@settings(max_examples=examples(200))
@given(
    counts=st.lists(st.integers(-40, 40), min_size=1, max_size=12),
    test_size=st.sampled_from([51, 108, 170, 2175, 5000]),
    budgets=st.integers(1, 20),
)
def test_exact_p_on_error_rates_is_the_enumerated_p(counts, test_size, budgets):
    """Differences of band-mean error rates (multiples of 1 / (test size x budgets)) get the
    p-value of enumerating every sign vector, ties (zeros) included."""
    d = np.asarray(counts, dtype=float) / test_size / budgets
    assert sig.sign_flip_p(d) == pytest.approx(enumerated_p(d), abs=1e-12)


def test_exact_p_agrees_with_scipy_permutation_test():
    rng = np.random.default_rng(1)
    for n in (5, 9, 12):
        x = rng.integers(0, 30, n) / 108
        y = rng.integers(0, 30, n) / 108
        ref = sps.permutation_test(
            (x, y),
            lambda a, b: np.mean(a - b),
            permutation_type="samples",
            n_resamples=np.inf,
            alternative="two-sided",
        ).pvalue
        assert sig.sign_flip_p(x - y) == pytest.approx(ref, abs=1e-12)


def test_large_samples_stay_exact_and_fast():
    """400 trials (Table 1's largest) on a 5,000-row test set: the lattice DP, no sampling."""
    rng = np.random.default_rng(2)
    d = rng.integers(-60, 61, 400) / 5000 / 7
    p = sig.sign_flip_p(d)
    z = d.sum() / math.sqrt((d**2).sum())  # the sign-flip statistic's normal approximation
    assert p == pytest.approx(2 * sps.norm.sf(abs(z)), abs=0.01)
    same_sign = np.full(30, 1 / 170)
    assert sig.sign_flip_p(same_sign) == pytest.approx(2.0**-29)


def test_ties_and_degenerate_inputs():
    assert sig.sign_flip_p([0.0, 0.0, 0.0]) == 1.0
    assert sig.sign_flip_p([]) == 1.0
    assert sig.sign_flip_p([0.1, 0.0, 0.0, 0.1]) == sig.sign_flip_p([0.1, 0.1])  # ties count once


def test_real_valued_differences_fall_back_to_enumeration_or_seeded_sampling():
    rng = np.random.default_rng(3)
    d = rng.normal(0.02, 0.05, 14)  # no common lattice: every sign vector
    assert sig.sign_flip_p(d) == pytest.approx(enumerated_p(d), abs=1e-12)
    big = rng.normal(0.01, 0.05, 40)
    p = sig.sign_flip_p(big)
    assert p == sig.sign_flip_p(big)  # seeded by the data: reproducible
    z = big.sum() / math.sqrt((big**2).sum())
    assert p == pytest.approx(2 * sps.norm.sf(abs(z)), abs=0.02)


def test_holm_matches_its_definition():
    p = [0.01, 0.04, 0.03, np.nan, 0.005]
    adjusted = sig.holm(p)
    assert adjusted[4] == pytest.approx(0.02) and adjusted[0] == pytest.approx(0.03)
    assert adjusted[2] == pytest.approx(0.06) and adjusted[1] == pytest.approx(0.06)
    assert np.isnan(adjusted[3])


def test_holm_hand_computed():
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04 -> running max
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(holm([np.nan, 0.2, 0.6]), [np.nan, 0.4, 0.6])
    np.testing.assert_allclose(holm([0.5, 0.9]), [1.0, 1.0])
    assert holm([]).shape == (0,)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_properties(pvalues):
    p = np.array(pvalues)
    adjusted = holm(p)
    assert np.all(adjusted >= p - 1e-12) and np.all(adjusted <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= -1e-12)  # monotone in the raw p order
    assert adjusted.min() == pytest.approx(min(1.0, len(p) * p.min()))
