"""Inference across datasets (budgetboost.analysis.across_datasets): the exact Wilcoxon
signed-rank test and the Bayesian signed-rank test, one value per dataset."""

from __future__ import annotations

import itertools
import math

import baycomp
import numpy as np
import pytest
from helpers import examples
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from budgetboost.analysis.across_datasets import (
    bayesian_signed_rank,
    compare_datasets,
    margin_p_values,
    min_detectable,
    shift_p_values,
    signed_rank_interval,
    signed_rank_p,
)
from budgetboost.analysis.vocabulary import (
    BETTER,
    EQUIVALENT,
    INCONCLUSIVE,
    MIN_DATASETS,
    TOO_FEW_DATASETS,
    WORSE,
)


@settings(max_examples=examples(100))
@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=18, unique=True))
def test_without_ties_it_is_scipys_exact_wilcoxon(values):
    d = np.asarray([v for v in values if abs(v) > 1e-9])
    if d.size == 0 or np.unique(np.round(np.abs(d), 12)).size < d.size:
        return
    assert signed_rank_p(d) == pytest.approx(sps.wilcoxon(d, method="exact").pvalue, abs=1e-12)


def _enumerated_p(values: np.ndarray) -> float:
    """The signed-rank test of values with no zero, every sign vector enumerated (mean
    ranks for ties): a loop reference."""
    ranks = sps.rankdata(np.abs(values))
    observed = abs(np.sum(np.sign(values) * ranks))
    flips = [
        abs(np.dot(signs, ranks)) >= observed - 1e-9
        for signs in itertools.product((-1, 1), repeat=ranks.size)
    ]
    return float(np.mean(flips))


@settings(max_examples=examples(100))
@given(st.lists(st.integers(-4, 4), min_size=1, max_size=12))
def test_with_ties_and_zeros_it_is_the_permutation_test_of_the_signed_ranks(counts):
    """Mean ranks for ties, every sign vector enumerated; a zero takes the smallest rank and
    the sign least favourable to rejecting (the larger p of the two), as the interval's
    inversion treats it."""
    d = np.asarray(counts, dtype=float) / 100
    if not np.any(d != 0):
        assert signed_rank_p(d) == 1.0
        return
    if not np.any(d == 0) and not np.any(np.isin(d, -d[d != 0])):
        assert signed_rank_p(d) == pytest.approx(_enumerated_p(d), abs=1e-12)
        return
    # the shifts just beside 0: zeros and opposite pairs split toward either side
    walsh = np.add.outer(d, d)[np.triu_indices(d.size)] / 2
    below, above = walsh[walsh < 0], walsh[walsh > 0]
    left = below.max() / 2 if below.size else -1.0
    right = above.min() / 2 if above.size else 1.0
    expected = max(_enumerated_p(d - left), _enumerated_p(d - right))
    assert signed_rank_p(d) == pytest.approx(expected, abs=1e-12)


@settings(max_examples=examples(200))
@given(
    st.lists(st.integers(-40, 40), min_size=2, max_size=30),
    st.integers(0, 6),
)
@example(counts=[0, 0], zeros=3)  # five equal values inside the margin
@example(counts=[20] * 5, zeros=0)  # five equal values beyond it
def test_the_test_the_interval_and_the_margin_tests_agree_zeros_included(counts, zeros):
    """One test of every shift (every value the same included): the 95 % interval excludes 0
    exactly when the two-sided test rejects at 5 % (zeros and ties included, where
    Wilcoxon's dropping of zeros did not); at 5 % each, the one-sided ``p_beyond`` rejects
    exactly when the 90 % interval lies wholly beyond the margin, ``p_equivalence`` exactly
    when it lies wholly inside."""
    d = np.r_[np.asarray(counts, dtype=float) / 1000, np.zeros(zeros)]
    _, low, high = signed_rank_interval(d)
    p = signed_rank_p(d)
    low_, high_ = (-np.inf if np.isnan(low) else low), (np.inf if np.isnan(high) else high)
    assert (p < 0.05) == (low_ > 0 or high_ < 0)
    _, low, high = signed_rank_interval(d, 0.90)
    low_, high_ = (-np.inf if np.isnan(low) else low), (np.inf if np.isnan(high) else high)
    assert (p < 0.10) == (low_ > 0 or high_ < 0)
    beyond, equivalence = margin_p_values(d, 0.01)
    assert (beyond < 0.05) == (high_ < -0.01 or low_ > 0.01)
    assert (equivalence < 0.05) == (-0.01 < low_ and high_ < 0.01)


@pytest.mark.parametrize("seed", range(6))
def test_every_shift_is_tested_as_the_loop_reference_tests_it(seed):
    """The p of each gap between Walsh averages against the plain enumeration of the signed
    ranks of the shifted values (small samples, with ties)."""
    rng = np.random.default_rng(seed)
    d = rng.integers(-5, 6, size=9).astype(float) / 100
    points, p = shift_p_values(d)
    gaps = np.r_[points[0] - 1, (points[:-1] + points[1:]) / 2, points[-1] + 1]
    for gap, ours in zip(gaps, p, strict=True):
        assert ours == pytest.approx(_enumerated_p(d - gap), abs=1e-12)


def test_outcomes_across_datasets():
    rng = np.random.default_rng(5)
    clear = compare_datasets(rng.normal(-0.05, 0.01, 12), key=("clear",))
    assert clear["outcome"] == BETTER and clear["prob_better"] > 0.95
    assert compare_datasets(rng.normal(0.05, 0.01, 12), key=("w",))["outcome"] == WORSE
    same = compare_datasets(rng.normal(0, 0.001, 12), key=("same",))
    assert same["outcome"] == EQUIVALENT and same["prob_equivalent"] >= 0.95
    noisy = compare_datasets(rng.normal(0, 0.05, 12), key=("noisy",))
    assert noisy["outcome"] == INCONCLUSIVE
    few = compare_datasets(np.full(MIN_DATASETS - 1, -0.2), key=("few",))
    assert few["outcome"] == TOO_FEW_DATASETS and few["datasets"] == MIN_DATASETS - 1
    for row in (clear, same, noisy, few):
        total = row["prob_better"] + row["prob_equivalent"] + row["prob_worse"]
        assert total == pytest.approx(1.0)


def test_the_bayesian_draws_are_seeded_by_the_comparison():
    d = np.random.default_rng(2).normal(0.004, 0.01, 9)
    one, again = compare_datasets(d, key=("a", 1)), compare_datasets(d, key=("a", 1))
    other = compare_datasets(d, key=("a", 2))
    assert one == again
    assert one["prob_worse"] != other["prob_worse"]  # another stream of draws
    assert one["prob_worse"] == pytest.approx(other["prob_worse"], abs=0.02)


def test_min_detectable_respects_the_exact_tests_granularity():
    """Zeros carry no sign: 28 zeros and 2 non-zero values cannot reach 0.05."""
    values = np.r_[np.zeros(28), 0.001, -0.002]
    assert math.isinf(min_detectable(values, 0.05))
    assert math.isfinite(min_detectable(np.linspace(-0.02, 0.03, 10), 0.05))
    assert math.isinf(min_detectable(np.full(10, 0.01), 0.05))  # no spread


@pytest.mark.parametrize(
    ("mean", "sd", "n"), [(0.005, 0.01, 10), (-0.02, 0.01, 8), (0.009, 0.002, 12), (0, 0.004, 30)]
)
def test_the_bayesian_signed_rank_test_is_baycomps(mean, sd, n):
    """The same posterior as ``baycomp.SignedRankTest`` (which loops over its draws in
    Python): the probabilities agree within Monte Carlo error."""
    d = np.round(np.random.default_rng(n).normal(mean, sd, n), 4)
    ours = bayesian_signed_rank(d, 0.01, np.random.default_rng(1), samples=100_000)
    theirs = baycomp.SignedRankTest.probs(
        np.zeros(n), d, rope=0.01, nsamples=50_000, random_state=2
    )
    np.testing.assert_allclose(ours, theirs, atol=0.01)
