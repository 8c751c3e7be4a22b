"""Summaries (budgetboost.analysis.summary) against values computed by hand: intervals, the
summary table, shards checked and read."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from synthetic_results import trial_shards

from budgetboost.analysis import summary as summaries
from budgetboost.data import schema
from budgetboost.data.io import write_table


def test_t_interval_hand_computed():
    # mean 3, sd sqrt(2.5), t_{0.975, 4} = 2.776445105 -> half-width 1.963243
    mean, sd, low, high = summaries.t_interval([1, 2, 3, 4, 5])
    assert mean == 3.0
    assert sd == pytest.approx(math.sqrt(2.5))
    assert low == pytest.approx(3 - 1.9632432, abs=1e-6)
    assert high == pytest.approx(3 + 1.9632432, abs=1e-6)
    # two values: t_{0.975, 1} = 12.7062047 -> half-width 12.7062047 * 0.5
    _, _, low, high = summaries.t_interval([0.0, 1.0])
    assert (low, high) == pytest.approx((0.5 - 6.35310236, 0.5 + 6.35310236))


def test_t_interval_single_value_has_no_interval():
    mean, sd, low, high = summaries.t_interval([0.25])
    assert mean == 0.25 and np.isnan(sd) and np.isnan(low) and np.isnan(high)
    with pytest.raises(ValueError, match="at least one"):
        summaries.t_interval([])


def test_summarize_hand_computed():
    df = trial_shards(
        {("adaboost", np.inf): [0.1, 0.2, 0.3], ("adaboost_bt", 2.0): [0.3, 0.3, 0.3, 0.5]}
    )
    df.loc[df["algorithm"] == "adaboost_bt", "spent"] = [1.0, 2.0, 1.0, 2.0]
    df.loc[df["algorithm"] == "adaboost_bt", "max_example_cost"] = [1.0, 2.0, 3.5, 2.0]
    s = summaries.summarize(df)
    assert list(s["algorithm"]) == ["adaboost", "adaboost_bt"]
    ref, bt = s.iloc[0], s.iloc[1]
    assert ref["trials"] == 3 and ref["error_mean"] == pytest.approx(0.2)
    # sd 0.1, t_{0.975,2} = 4.30265273 -> half 4.30265273 * 0.1 / sqrt(3)
    assert ref["ci_half"] == pytest.approx(4.30265273 * 0.1 / math.sqrt(3))
    assert np.isnan(ref["spent_fraction"])  # unbudgeted
    assert bt["error_mean"] == pytest.approx(0.35) and bt["error_sd"] == pytest.approx(0.1)
    assert bt["spent_mean"] == pytest.approx(1.5)
    assert bt["spent_fraction"] == pytest.approx(0.75)
    assert bt["example_cost_max"] == 3.5
    assert bt["ci_low"] == pytest.approx(0.35 - 3.18244631 * 0.1 / 2)


def test_validate_shards_names_the_problem():
    df = trial_shards({("greedy", 2.0): [0.1, 0.2]})
    with pytest.raises(ValueError, match=r"my\.parquet.*missing shard column.*'nodes'"):
        summaries.validate_shards(df.drop(columns="nodes"), source="my.parquet")
    bad = df.copy()
    bad.loc[0, "test_error"] = 1.5
    with pytest.raises(ValueError, match="test_error must lie in"):
        summaries.validate_shards(bad)
    with pytest.raises(ValueError, match="duplicate row.*greedy.*trial=0"):
        summaries.validate_shards(pd.concat([df, df.iloc[:1]]))


def test_read_shards_roundtrip_and_errors(tmp_path):
    df = trial_shards({("greedy", 2.0): [0.1, 0.2], ("adaboost", np.inf): [0.1, 0.1]})
    write_table(df.iloc[:2], tmp_path / "a.parquet")
    write_table(df.iloc[2:], tmp_path / "b.parquet")
    back = summaries.read_shards([tmp_path / "a.parquet", tmp_path / "b.parquet"])
    assert len(back) == 4 and list(back.columns) == list(schema.SHARD_COLUMNS)
    write_table(df.drop(columns="rounds"), tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match="bad.parquet"):
        summaries.read_shards([tmp_path / "bad.parquet"])
    assert summaries.read_shards([]).empty
