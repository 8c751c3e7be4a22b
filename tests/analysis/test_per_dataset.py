"""Per-dataset inference (budgetboost.analysis.per_dataset): the corrected resampled t-test,
its one variance, and the outcomes a row's trials can support."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from budgetboost.analysis import compare_paired
from budgetboost.analysis.per_dataset import (
    TRAINING_SHARE,
    correlation,
    detectable_in_se,
    margin_p_values,
    outcome,
)
from budgetboost.analysis.vocabulary import (
    BETTER,
    EQUIVALENCE_MARGIN,
    EQUIVALENT,
    MIN_TRIALS,
    TOO_FEW_TRIALS,
    WORSE,
)

sizes = st.tuples(st.integers(4, 2000), st.integers(4, 6000), st.integers(0, 50_000))


def test_equal_differences_over_two_trials_are_never_equivalent():
    for n_train, n_test, n_pool in ((100, 170, None), (1000, 1000, None), (10**5, 10**5, 10**7)):
        row = compare_paired([0.0, 0.0], n_train, n_test, n_pool)
        assert row["outcome"] == TOO_FEW_TRIALS
        assert math.isnan(row["p_equivalence"])


def test_a_clear_difference_reads_better():
    d = np.random.default_rng(7).normal(-0.03, 0.01, 30)
    row = compare_paired(d, 1000, 1000)
    assert row["outcome"] == BETTER and row["ci_high"] < 0 < 0.05 - row["p_value"]


def test_the_variance_is_nadeau_and_bengios_with_the_pool():
    d = np.array([0.01, -0.02, 0.03, 0.0, 0.015, -0.005])
    row = compare_paired(d, 100, 170)
    # the splits use every row: rho / (1 - rho) = n_test / n_train (more test rows than
    # training rows: the test rows' share bounds the correlation)
    assert row["se"] == pytest.approx(d.std(ddof=1) * math.sqrt(1 / 6 + 170 / 100))
    assert row["correlation"] == pytest.approx(170 / 270) == correlation(100, 170)
    big = compare_paired(d, 1000, 5000, 48_842)  # census: 6,000 of 48,842 rows
    assert big["se"] == pytest.approx(d.std(ddof=1) * math.sqrt(1 / 6 + 5000 / 43_842))
    t = row["mean_difference"] / row["se"]
    assert row["p_value"] == pytest.approx(2 * sps.t.sf(abs(t), 5))


def test_the_training_rows_share_of_the_correlation_counts_too():
    """750 training and 250 test rows of 1,000 (the suite's most common size): the trials
    share training rows as well as test rows, and the correlation taken lies between the
    test rows' share (0.25) and the training rows' (0.75), at the training share allowed."""
    assert correlation(750, 250, 1000, training_share=0.0) == pytest.approx(0.25)
    assert correlation(750, 250, 1000, training_share=1.0) == pytest.approx(0.75)
    rho = correlation(750, 250)
    assert rho == pytest.approx(0.25 + TRAINING_SHARE * 0.5)
    d = np.array([0.01, -0.02, 0.03, 0.0, 0.015, -0.005])
    row = compare_paired(d, 750, 250)
    assert row["correlation"] == pytest.approx(rho)
    assert row["se"] == pytest.approx(d.std(ddof=1) * math.sqrt(1 / 6 + rho / (1 - rho)))
    before = compare_paired(d, 750, 250, training_share=0.0)
    assert before["se"] == pytest.approx(d.std(ddof=1) * math.sqrt(1 / 6 + 250 / 750))
    assert correlation(1000, 1000, 5000) == pytest.approx(0.2)  # equal parts: either share
    with pytest.raises(ValueError, match="training_share"):
        correlation(750, 250, training_share=1.5)


@pytest.mark.parametrize(
    ("args", "match"),
    [((0, 10), "n_train"), ((10, 2.5), "n_test"), ((10, 10, 15), "n_pool")],
)
def test_bad_sizes_are_named(args, match):
    with pytest.raises(ValueError, match=match):
        compare_paired([0.1, 0.2, 0.3], *args)


@settings(max_examples=examples(300))
@given(
    counts=st.lists(st.integers(-30, 30), min_size=2, max_size=40),
    shape=sizes,
)
def test_interval_test_and_outcomes_come_from_one_variance(counts, shape):
    """The 90 % interval the table prints excludes 0 exactly when the two-sided test rejects
    at 10 % (the one-sided test at 5 % on the estimate's side); at 5 % each, the one-sided
    tests against the margin reject exactly when it lies inside the margin (``equivalent``
    only then) or wholly beyond it (``better`` / ``worse`` only then); equal differences
    alone never make ``equivalent``; fewer than MIN_TRIALS trials support no outcome."""
    n_train, n_test, extra = shape
    d = np.asarray(counts, dtype=float) / n_test
    row = compare_paired(d, n_train, n_test, n_train + n_test + extra)
    assert row["ci_low"] <= row["mean_difference"] <= row["ci_high"]
    if len(counts) < MIN_TRIALS:
        assert row["outcome"] == TOO_FEW_TRIALS
    if len(set(counts)) == 1:
        assert row["outcome"] != EQUIVALENT
    if row["outcome"] == TOO_FEW_TRIALS:
        assert math.isnan(row["p_value"])
        return
    excludes = row["ci_low"] > 0 or row["ci_high"] < 0
    assert excludes == (row["p_value"] < 0.10) or abs(row["p_value"] - 0.10) < 1e-9
    inside = -EQUIVALENCE_MARGIN < row["ci_low"] and row["ci_high"] < EQUIVALENCE_MARGIN
    below, above = row["ci_high"] < -EQUIVALENCE_MARGIN, row["ci_low"] > EQUIVALENCE_MARGIN
    for p, holds in ((row["p_equivalence"], inside), (row["p_beyond"], below or above)):
        assert (p < 0.05) == holds or abs(p - 0.05) < 1e-9
    assert row["outcome"] != EQUIVALENT or inside
    assert row["outcome"] != BETTER or below
    assert row["outcome"] != WORSE or above


def test_min_detectable_has_the_power_it_states():
    """A true difference of ``min_detectable`` is detected in 80 % of normal samples (the
    noncentral t, not the optimistic (t_a + t_b) sd / sqrt(n))."""
    rng = np.random.default_rng(3)
    for n, level in ((10, 0.05 / 20), (30, 0.05 / 20), (10, 0.05)):
        delta = detectable_in_se(n - 1, level)
        x = rng.standard_normal((40_000, n)) + delta / math.sqrt(n)
        t = x.mean(axis=1) / (x.std(axis=1, ddof=1) / math.sqrt(n))
        power = np.mean(np.abs(t) > sps.t.ppf(1 - level / 2, n - 1))
        assert power == pytest.approx(0.8, abs=0.01), (n, level, power)
    approximate = sps.t.ppf(1 - 0.05 / 40, 9) + sps.t.ppf(0.8, 9)  # (t_a + t_b): optimistic
    assert detectable_in_se(9, 0.05 / 20) > approximate + 0.1


def test_min_detectable_counts_the_shared_rows():
    d = np.random.default_rng(1).normal(0, 0.02, 30)
    small_pool = compare_paired(d, 100, 170)["min_detectable"]
    large_pool = compare_paired(d, 100, 170, 100_000)["min_detectable"]
    assert large_pool < small_pool / 3


def test_outcomes_say_what_they_mean():
    """``outcome(mean, p_beyond, p_equivalence)``."""
    assert outcome(-0.05, 0.001, 1.0) == "better"
    assert outcome(0.05, 0.001, 1.0) == "worse"
    assert outcome(0.002, 1.0, 0.01) == "equivalent"
    assert outcome(-0.03, 0.2, 1.0) == "inconclusive"
    assert outcome(-0.03, 0.001, 1.0, enough=False) == "too few trials"


def test_a_significant_difference_inside_the_margin_is_not_better():
    """0.006 lower on every trial, tightly: significant, but the interval lies inside the
    margin, so equivalent, never better (a lead the report calls practically the same)."""
    d = np.random.default_rng(4).normal(-0.006, 0.001, 30)
    row = compare_paired(d, 1000, 1000, 100_000)
    assert row["p_value"] < 1e-6 and row["outcome"] == EQUIVALENT
    crossing = compare_paired(d - 0.004, 1000, 1000, 100_000)  # -0.01, on the margin
    assert crossing["ci_low"] < -EQUIVALENCE_MARGIN < crossing["ci_high"]
    assert crossing["outcome"] == "inconclusive"


@pytest.mark.parametrize("mean", [-0.05, -0.012, -0.003, 0.0, 0.004, 0.011, 0.08])
def test_margin_p_values_are_the_one_sided_t_tests_of_the_margin(mean):
    """Against scipy's one-sample t-tests of a sample with that mean and standard error:
    p_beyond is the smaller p of the one-sided tests beyond either bound of the margin,
    p_equivalence the larger of the two one-sided tests of its bounds (the conventional
    TOST)."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal(10)
    x = mean + 0.004 * math.sqrt(10) * (x - x.mean()) / x.std(ddof=1)
    se, df, margin = float(x.std(ddof=1) / math.sqrt(10)), 9, EQUIVALENCE_MARGIN

    def one_sided(bound: float, alternative: str) -> float:
        return float(sps.ttest_1samp(x, bound, alternative=alternative).pvalue)

    beyond = min(one_sided(-margin, "less"), one_sided(margin, "greater"))
    equivalence = max(one_sided(-margin, "greater"), one_sided(margin, "less"))
    got = margin_p_values(float(x.mean()), se, df, margin)
    assert got == pytest.approx((beyond, equivalence), rel=1e-9, abs=1e-12)
