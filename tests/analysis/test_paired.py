"""The rows of every comparison (budgetboost.analysis.paired): band means per trial,
comparisons paired by trial with the corrected resampled test, Holm over their rows."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from synthetic_results import sizes_for, trial_shards

from budgetboost.analysis import paired
from budgetboost.analysis.significance import holm
from budgetboost.analysis.vocabulary import ALL

BUDGETS = (2.0, 4.0, 6.0)  # one budget per band: small 2, medium 4, large 6


def compare(df: pd.DataFrame, *comparisons: paired.Comparison) -> pd.DataFrame:
    means = paired.band_means(df, ("small", "medium", "large", "all"))
    return paired.compare(means, comparisons, sizes_for(df))


def test_band_means_average_each_trial_over_the_band():
    df = trial_shards(
        {
            ("greedy", 2.0): [0.1, 0.2],
            ("greedy", 4.0): [0.3, 0.2],
            ("greedy", 6.0): [0.5, 0.2],
            ("smoothed", 2.0): [0.2, 0.2],  # no budget 4 or 6: only in the small band
            ("adaboost", np.inf): [0.1, 0.1],  # unbudgeted: in no band
        }
    )
    means = paired.band_means(df, ("small", "large", "all")).set_index(
        ["band", "algorithm", "trial"]
    )["error"]
    assert means[("small", "greedy", 0)] == pytest.approx(0.1)
    assert means[("large", "greedy", 0)] == pytest.approx(0.5)
    assert means[("all", "greedy", 0)] == pytest.approx(0.3)
    assert ("all", "smoothed", 0) not in means.index  # misses budgets of the band
    assert ("small", "smoothed", 1) in means.index
    assert "adaboost" not in set(means.index.get_level_values("algorithm"))


def test_a_comparison_row_hand_computed():
    a = [0.10, 0.20, 0.30, 0.40, 0.50]
    b = [0.20, 0.30, 0.40, 0.50, 0.50]  # a lower by 0.1 in 4 trials, tied in 1
    df = trial_shards({("greedy", 2.0): a, ("smoothed", 2.0): b})
    df = df.sample(frac=1.0, random_state=0)  # pairing must follow trial, not row order
    rows = compare(df, paired.Comparison("test", "greedy", "smoothed", bands=("small",)))
    row = rows[rows["dataset"] == "ecoli"].iloc[0]
    assert row["trials"] == 5 and row["mean_difference"] == pytest.approx(-0.08)
    assert row["error_x"] == pytest.approx(0.3) and row["error_y"] == pytest.approx(0.38)
    # the corrected resampled variance: 1,000 of 20,000 rows tested per trial
    se = np.std([-0.1, -0.1, -0.1, -0.1, 0.0], ddof=1) * math.sqrt(1 / 5 + 1000 / 19_000)
    assert row["correlation"] == pytest.approx(1000 / 20_000)
    assert row["p_value"] == pytest.approx(2 * sps.t.sf(0.08 / se, 4))
    assert row["p_holm"] == row["p_value"]  # one row
    half = sps.t.ppf(0.95, 4) * se
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((-0.08 - half, -0.08 + half))
    assert row["outcome"] == "better"


def test_outcomes_better_worse_equivalent_inconclusive():
    rng = np.random.default_rng(1)
    base = rng.integers(20, 40, 20) / 100

    def outcome(shift: float, noise: float = 0.0) -> str:
        other = np.clip(base + shift + rng.normal(0, noise, 20).round(3), 0, 1)
        df = trial_shards({("greedy", 2.0): list(base), ("smoothed", 2.0): list(other)})
        rows = compare(df, paired.Comparison("t", "greedy", "smoothed", bands=("small",)))
        return rows.iloc[0]["outcome"]

    assert outcome(0.1, noise=0.01) == "better"  # greedy 0.1 lower in every trial
    assert outcome(-0.1, noise=0.01) == "worse"
    assert outcome(0.0, noise=0.002) == "equivalent"  # within the margin, shown by the trials
    assert outcome(0.0) == "inconclusive"  # equal differences alone are not equivalence
    assert outcome(0.0, noise=0.2) == "inconclusive"


def test_comparisons_pair_only_shared_trials_and_holm_over_their_rows():
    df = trial_shards(
        {
            ("greedy", 2.0): [0.1, 0.2, 0.3],
            ("smoothed", 2.0): [0.2, 0.2],
            ("adaboost", np.inf): [0.1, 0.1],
        }
    )
    noise = np.random.default_rng(2).normal(0, 0.01, 8).round(3)
    df = pd.concat(
        [
            df,
            trial_shards(
                {("greedy", 2.0): [0.1] * 8, ("smoothed", 2.0): list(0.3 + noise)}, "heart"
            ),
            trial_shards(
                {("greedy", 2.0): [0.1] * 8, ("smoothed", 2.0): list(0.2 + noise)}, "sonar"
            ),
        ]
    )
    rows = compare(df, paired.Comparison("t", "greedy", "smoothed", bands=("small",)))
    per = rows[rows["dataset"] != ALL].set_index("dataset")
    assert per.loc["ecoli", "trials"] == 2 and per.loc["heart", "trials"] == 8
    assert per.loc["ecoli", "outcome"] == "too few trials" and np.isnan(per.loc["ecoli", "p_holm"])
    enough = per.loc[["heart", "sonar"]]
    np.testing.assert_allclose(enough["p_holm"], holm(enough["p_value"].to_numpy()))
    across = rows[rows["dataset"] == ALL].iloc[0]
    assert across["trials"] == 2 and across["cost_model"] == ALL and across["datasets"] == 3
    assert across["outcome"] == "too few datasets"


def test_a_cost_model_is_compared_with_the_baseline_by_trial():
    noise = np.random.default_rng(3).normal(0, 0.01, 8).round(3)
    base = {("greedy", 2.0): list(0.2 + noise)}
    other = trial_shards(
        {("greedy", 2.0): list(0.3 + noise[:6] + noise[2:])}, cost_model="adversarial"
    )
    df = pd.concat([trial_shards(base), other])
    rows = compare(
        df,
        paired.Comparison("costs", "greedy", "greedy", baseline="uniform_0_2", bands=("small",)),
    )
    row = rows.iloc[0]
    assert row["cost_model"] == "adversarial" and row["trials"] == 6  # the trials both ran
    assert row["mean_difference"] == pytest.approx(0.1 + noise[2:].mean(), abs=1e-9)
    assert row["outcome"] == "worse"


def test_a_decided_row_reads_as_its_printed_interval():
    """Outcomes are Holm-corrected over a comparison's bands: a row reading better, worse or
    equivalent has a printed 90 % interval that says so too (past or inside the margin);
    an interval that just clears a bound may still read inconclusive, never the reverse."""
    rng = np.random.default_rng(3)
    tables = []
    for _ in range(6):
        frames = []
        for dataset in ["ecoli", "heart", "sonar", "pima", "wdbc", "bupa", "spect"]:
            base = rng.integers(20, 40, 10) / 100
            lead = rng.uniform(-0.03, 0.03) if rng.random() < 0.5 else 0.0
            errors = {}
            for budget in (2.0, 6.0):  # the small and the large band
                errors[("greedy", budget)] = list(base)
                other = base + lead + rng.normal(0, rng.uniform(0.002, 0.02), 10)
                errors[("smoothed", budget)] = list(np.clip(other, 0, 1).round(3))
            frames.append(trial_shards(errors, dataset))
        comparison = paired.Comparison("t", "greedy", "smoothed", bands=("small", "large"))
        tables.append(compare(pd.concat(frames), comparison))
    rows = pd.concat(tables)
    assert len(rows) == 6 * 16  # 7 datasets and across them, two bands, six draws
    low, high, outcome = rows["ci_low"], rows["ci_high"], rows["outcome"]
    assert (high[outcome == "better"] < -0.01).all()
    assert (low[outcome == "worse"] > 0.01).all()
    equivalent = outcome == "equivalent"
    assert ((low[equivalent] > -0.01) & (high[equivalent] < 0.01)).all()
    assert (outcome == "better").any() and (outcome == "worse").any() and equivalent.any()
