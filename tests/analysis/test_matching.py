"""The budget at which an algorithm matches AdaBoost (budgetboost.analysis.matching): a paired
non-inferiority test."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from synthetic_results import sizes_for, trial_shards

from budgetboost.analysis.matching import budget_to_match


def test_budget_to_match_is_a_paired_non_inferiority_test():
    """Reached at the smallest budget where the error, paired by trial with the reference's,
    is shown to be at most 0.01 above it (one-sided 95 % bound, corrected variance)."""
    noise = np.random.default_rng(4).normal(0, 0.003, 8).round(4)
    ref = 0.1 + noise
    df = trial_shards(
        {
            ("adaboost", np.inf): list(ref),
            ("smoothed", 2.0): list(ref + 0.2),
            ("smoothed", 4.0): list(ref + 0.004 + noise[::-1] / 3),
            ("smoothed", 6.0): list(ref - 0.05),
            ("greedy", 2.0): list(ref + 0.2),
            ("greedy", 6.0): list(ref + 0.1),
        }
    )
    m = budget_to_match(df, sizes_for(df)).set_index("algorithm")
    assert m.loc["smoothed", "match_budget"] == 4.0
    assert m.loc["smoothed", "error_at_match"] == pytest.approx(
        np.mean(ref + 0.004 + noise[::-1] / 3)
    )
    assert m.loc["smoothed", "upper_at_match"] <= 0.01 and m.loc["smoothed", "trials"] == 8
    assert np.isnan(m.loc["greedy", "match_budget"])
    assert m.loc["greedy", "largest_budget"] == 6.0
    # equal differences alone show nothing: a copy of the reference never "reaches" it
    copy = trial_shards({("adaboost", np.inf): list(ref), ("smoothed", 2.0): list(ref)})
    assert np.isnan(budget_to_match(copy, sizes_for(copy)).iloc[0]["match_budget"])


def test_budget_to_match_falls_back_to_other_cost_model_reference():
    noise = np.random.default_rng(5).normal(0, 0.003, 6).round(4)
    ref = trial_shards({("adaboost", np.inf): list(0.2 + noise)}, cost_model="constant")
    curve = trial_shards({("smoothed", 2.0): list(0.1 + noise[::-1])}, cost_model="uniform_0_2")
    both = pd.concat([ref, curve])
    m = budget_to_match(both, sizes_for(both))
    assert m.iloc[0]["reference_cost_model"] == "constant"
    assert m.iloc[0]["match_budget"] == 2.0
