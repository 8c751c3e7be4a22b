"""The trials' correlation bounded from each test row's loss
(budgetboost.analysis.per_dataset.row_covariance) and its use by the per-dataset test and
the paired comparisons: on synthetic rows whose variance components are known, and unchanged
results where the rows' losses are absent."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost.analysis import compare_paired
from budgetboost.analysis.paired import Comparison, band_errors, compare
from budgetboost.analysis.per_dataset import correlation, row_covariance
from budgetboost.data.seeds import rng_from_key
from budgetboost.data.splits import SplitSizes


def synthetic_rows(
    rng: np.random.Generator,
    n_train: int,
    n_test: int,
    n_pool: int,
    trials: int,
    *,
    own: float,
    fresh: float,
    training: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Test rows, row differences ``a(i) + beta_j + e_ij`` and the rows' own parts ``a``:
    each pool row's own part (sd ``own``, kept from trial to trial), a part of the trial's
    training set alone (sd ``training``, drawn anew per trial: shared by no two trials) and
    a part of the row in the trial (sd ``fresh``, drawn anew per trial and row)."""
    a = rng.normal(0.0, own, n_pool)
    test = np.stack([rng.permutation(n_pool)[:n_test] for _ in range(trials)])
    beta = rng.normal(0.0, training, trials)
    losses = a[test] + beta[:, None] + rng.normal(0.0, fresh, (trials, n_test))
    return test, losses, a


def test_within_and_persistent_parts_are_recovered():
    """With many trials, ``W`` is the rows' variance in a trial over ``n_test`` and ``P``
    the part of it a row keeps (its own part, as the pool drew it), within 5 %."""
    rng = rng_from_key("test", "row covariance", "components")
    n_train, n_test, n_pool = 300, 100, 400
    test, losses, own = synthetic_rows(
        rng, n_train, n_test, n_pool, 200, own=0.6, fresh=0.8, training=0.0
    )
    got = row_covariance(test, losses, n_train, n_test, n_pool)
    assert got["stable"]
    assert got["within"] == pytest.approx((np.var(own) + 0.64) / n_test, rel=0.05)
    assert got["persistent"] == pytest.approx(np.var(own) / n_test, rel=0.05)


def test_the_bound_covers_the_true_covariance_and_is_narrower_where_test_rows_dominate():
    """Rows whose own part alone varies (the first-order model at the suite's 750/250 of
    1,000): two trials share the pool's mean of it, ``Var(a) / n_pool``, and the bound, over
    many simulated pools, is at least that; its correlation is below the sizes' bound (the
    training rows' share of 1/2), where the test rows carry the trials' variance."""
    rng = rng_from_key("test", "row covariance", "coverage")
    n_train, n_test, n_pool, own = 750, 250, 1000, 0.5
    bounds, rhos = [], []
    for _ in range(60):
        test, losses, _ = synthetic_rows(
            rng, n_train, n_test, n_pool, 10, own=own, fresh=0.0, training=0.0
        )
        got = row_covariance(test, losses, n_train, n_test, n_pool)
        assert got["stable"]
        bounds.append(got["covariance"])
        rhos.append(got["correlation"])
    assert np.mean(bounds) >= own**2 / n_pool
    assert np.mean(rhos) < correlation(n_train, n_test, n_pool)


def test_a_trial_part_outside_the_rows_is_taken_as_shared_by_the_training_rows():
    """Variance no test row explains (a training set's own effect) may be the training rows'
    pool mean: the bound counts it as shared at ``n_train / n_pool``, so it rises above the
    sizes' bound where that part dominates, and stays finite."""
    rng = rng_from_key("test", "row covariance", "training")
    test, losses, _ = synthetic_rows(rng, 750, 250, 1000, 30, own=0.1, fresh=0.1, training=0.05)
    got = row_covariance(test, losses, 750, 250, 1000)
    assert got["stable"]
    assert correlation(750, 250, 1000) < got["correlation"] < 1.0
    assert 0 < got["df"] <= 29


@settings(max_examples=examples(60), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_test=st.integers(5, 40),
    extra=st.integers(0, 60),
    trials=st.integers(5, 12),
    own=st.floats(0.0, 1.0),
    fresh=st.floats(0.0, 1.0),
    training=st.floats(0.0, 0.5),
)
def test_never_below_the_test_rows_share(seed, n_test, extra, trials, own, fresh, training):
    """Where the training rows are at least half the pool, the bound's correlation is never
    below the test rows' share of the pool (Nadeau & Bengio's), whatever the rows: the part
    of the variance the rows explain shares at least that."""
    n_train = n_test + extra
    n_train = max(n_train, n_test)
    n_pool = n_train + n_test + extra // 3
    if 2 * n_train < n_pool:
        n_pool = 2 * n_train
    rng = np.random.default_rng(seed)
    test, losses, _ = synthetic_rows(
        rng, n_train, n_test, n_pool, trials, own=own, fresh=fresh, training=training
    )
    got = row_covariance(test, losses, n_train, n_test, n_pool)
    if got["stable"]:
        assert got["correlation"] >= n_test / n_pool - 1e-12
        assert 0 < got["df"] <= trials - 1


def test_unstable_where_the_rows_cannot_say():
    """Too few trials, no spread or no variance within a trial: not stable, and the test
    takes the sizes' correlation."""
    rng = rng_from_key("test", "row covariance", "unstable")
    test, losses, _ = synthetic_rows(rng, 75, 25, 100, 4, own=0.5, fresh=0.5, training=0.0)
    assert not row_covariance(test, losses, 75, 25, 100)["stable"]
    flat = np.zeros((10, 25))
    test10 = np.stack([rng.permutation(100)[:25] for _ in range(10)])
    assert not row_covariance(test10, flat, 75, 25, 100)["stable"]
    d = losses.mean(axis=1)
    plain = compare_paired(d, 75, 25, 100)
    with_rows = compare_paired(d, 75, 25, 100, rows=(test, losses))
    assert not with_rows.pop("from_rows")
    plain.pop("from_rows")
    assert with_rows == plain


def test_shapes_are_checked():
    with pytest.raises(ValueError, match="shape"):
        row_covariance(np.zeros((5, 3), dtype=int), np.zeros((5, 4)), 10, 3, 20)
    with pytest.raises(ValueError, match="n_pool"):
        row_covariance(np.full((5, 3), 20), np.zeros((5, 3)), 10, 3, 20)
    with pytest.raises(ValueError, match="one trial's test rows"):
        compare_paired(np.zeros(5), 10, 3, 20, rows=(np.zeros((4, 3), int), np.zeros((4, 3))))


def test_compare_paired_takes_the_rows_where_they_narrow_the_interval():
    """Where the test rows carry the trials' variance (each row's own part alone) and the
    trials' spread falls below the test rows' part (this draw: ``S^2 / W`` = 0.53 of 30
    trials), the rows' bound gives a narrower interval than the sizes' and the test uses it
    (``from_rows``, its correlation and Satterthwaite's degrees of freedom, below J - 1)."""
    rng = rng_from_key("test", "row covariance", "narrower", 1)
    test, losses, _ = synthetic_rows(rng, 750, 250, 1000, 30, own=0.5, fresh=0.0, training=0.0)
    d = losses.mean(axis=1)
    plain = compare_paired(d, 750, 250, 1000)
    got = compare_paired(d, 750, 250, 1000, rows=(test, losses))
    assert got["from_rows"] and not plain["from_rows"]
    assert got["ci_high"] - got["ci_low"] < plain["ci_high"] - plain["ci_low"]
    assert got["correlation"] < plain["correlation"]
    assert got["df"] < 29
    assert got["mean_difference"] == plain["mean_difference"]


def _shards(rng: np.random.Generator, n_test: int, trials: int, rows: bool) -> pd.DataFrame:
    records = []
    for algorithm in ("x", "y"):
        for trial in range(trials):
            for budget in (1.0, 2.0, 3.0, 4.0):
                wrong = rng.random(n_test) < (0.2 if algorithm == "x" else 0.3)
                record = {
                    "dataset": "d",
                    "cost_model": "c",
                    "algorithm": algorithm,
                    "trial": trial,
                    "budget": budget,
                    "test_error": float(wrong.mean()),
                }
                if rows:
                    record["test_wrong"] = np.packbits(wrong).tobytes()
                records.append(record)
    return pd.DataFrame(records)


def test_band_errors_read_the_rows_losses_and_compare_is_unchanged_without_them():
    """Band means of shards with the rows' losses carry each row's loss over the band (its
    mean is the trial's error); the comparison without them (or without the splits' test
    rows) is the comparison of before, value for value."""
    rng = rng_from_key("test", "row covariance", "bands")
    n_train, n_test, n_pool, trials = 60, 21, 81, 8
    shards = _shards(rng, n_test, trials, rows=True)
    with_rows = band_errors(shards, ["small", "large"])
    without = band_errors(shards.drop(columns="test_wrong"), ["small", "large"])
    assert list(without.columns) == ["dataset", "cost_model", "band", "algorithm", "trial", "error"]
    pd.testing.assert_frame_equal(with_rows.drop(columns="losses"), without)
    means = np.array([v[:n_test].mean() for v in with_rows["losses"]])
    np.testing.assert_allclose(means, with_rows["error"], rtol=0, atol=1e-12)
    sizes = {"d": SplitSizes(n_train, n_test, n_pool)}
    tests = {"d": {t: rng.permutation(n_pool)[:n_test] for t in range(trials)}}
    asked = [Comparison("q", "x", "y")]
    before = compare(without, asked, sizes)
    pd.testing.assert_frame_equal(compare(without, asked, sizes, tests=tests), before)
    pd.testing.assert_frame_equal(compare(with_rows, asked, sizes), before)
    read = compare(with_rows, asked, sizes, tests=tests)
    pd.testing.assert_series_equal(read["mean_difference"], before["mean_difference"])


@settings(max_examples=examples(40), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_train=st.integers(5, 60),
    n_test=st.integers(5, 60),
    extra=st.integers(0, 60),
    training=st.floats(0.0, 0.5),
)
def test_an_unseen_test_part_counts_the_rest_as_shared_at_the_most_any_part_shares(
    seed, n_train, n_test, extra, training
):
    """With a part of the test rows the losses do not show (the average-cost reading's
    mixture weights), the rest of a trial's variance is counted at the most any part
    shares: the same bound where the training rows are at least as many as the test rows,
    never a smaller one, and a larger one where the test rows are the more and the trials
    vary beyond their rows (a training set's own effect)."""
    n_pool = n_train + n_test + extra
    rng = np.random.default_rng(seed)
    test, losses, _ = synthetic_rows(
        rng, n_train, n_test, n_pool, 10, own=0.3, fresh=0.3, training=training
    )
    plain = row_covariance(test, losses, n_train, n_test, n_pool)
    unseen = row_covariance(test, losses, n_train, n_test, n_pool, unseen_test_part=True)
    assert plain["stable"] == unseen["stable"]
    if not plain["stable"]:
        return
    if n_train >= n_test:
        assert unseen == plain
    else:
        assert unseen["covariance"] >= plain["covariance"] - 1e-15
        if plain["spread2"] > plain["within"]:
            assert unseen["covariance"] > plain["covariance"]
