"""Statistics of budgetboost.analysis.stats against values computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from synthetic_results import row, shard_frame

from budgetboost.analysis import paired
from budgetboost.analysis import summary as summaries
from budgetboost.data import schema
from budgetboost.data.io import write_table
from budgetboost.report import summary as report_summary
from budgetboost.report import tables


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


def test_holm_hand_computed():
    # sorted 0.005, 0.01, 0.03, 0.04 -> x4, x3, x2, x1 = 0.02, 0.03, 0.06, 0.04 -> running max
    adjusted = paired.holm([0.01, 0.04, 0.03, 0.005])
    np.testing.assert_allclose(adjusted, [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(paired.holm([np.nan, 0.2, 0.6]), [np.nan, 0.4, 0.6])
    np.testing.assert_allclose(paired.holm([0.5, 0.9]), [1.0, 1.0])
    assert paired.holm([]).shape == (0,)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_properties(pvalues):
    p = np.array(pvalues)
    adjusted = paired.holm(p)
    assert np.all(adjusted >= p - 1e-12) and np.all(adjusted <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= -1e-12)  # monotone in the raw p order
    assert adjusted.min() == pytest.approx(min(1.0, len(p) * p.min()))


def test_wilcoxon_exact_hand_computed():
    # n = 5, all positive: W- = 0, P(W- <= 0) = 1/32, two-sided 2/32
    assert paired.wilcoxon_p([1, 2, 3, 4, 5]) == pytest.approx(2 / 32)
    # smallest rank negative: W- = 1, subsets with rank sum <= 1: {}, {1} -> 2 * 2/32
    assert paired.wilcoxon_p([-1, 2, 3, 4, 5]) == pytest.approx(4 / 32)
    # rank 2 negative: W- = 2, subsets {}, {1}, {2} -> 2 * 3/32
    assert paired.wilcoxon_p([1, -2, 3, 4, 5]) == pytest.approx(6 / 32)
    # zeros are dropped (Wilcoxon's convention)
    assert paired.wilcoxon_p([0, 0, 1, 2, 3, 4, 5]) == pytest.approx(2 / 32)


def test_wilcoxon_normal_approximation_with_ties_hand_computed():
    # six tied differences: ranks 3.5, W+ = 21, mean n(n+1)/4 = 10.5,
    # var = n(n+1)(2n+1)/24 - (6^3 - 6)/48 = 22.75 - 4.375
    z = 10.5 / math.sqrt(22.75 - 4.375)
    assert paired.wilcoxon_p([0.1] * 6) == pytest.approx(math.erfc(z / math.sqrt(2)))


def test_wilcoxon_degenerate_inputs():
    assert paired.wilcoxon_p([0.0, 0.0, 0.0]) == 1.0
    assert np.isnan(paired.wilcoxon_p([]))


def _table(
    errors: dict[tuple[str, float], list[float]], dataset="ecoli", cost_model="uniform_0_2"
) -> pd.DataFrame:
    rows = [
        row(dataset, cost_model, alg, t, budget, e)
        for (alg, budget), values in errors.items()
        for t, e in enumerate(values)
    ]
    return shard_frame(rows)


def test_summarize_hand_computed():
    df = _table({("adaboost", np.inf): [0.1, 0.2, 0.3], ("adaboost_bt", 2.0): [0.3, 0.3, 0.3, 0.5]})
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


def test_paired_comparisons_hand_computed():
    a = [0.10, 0.20, 0.30, 0.40, 0.50]
    b = [0.20, 0.30, 0.40, 0.50, 0.50]  # a wins 4, ties 1
    df = _table(
        {("greedy", 2.0): a, ("smoothed", 2.0): b, ("greedy", 4.0): b, ("smoothed", 4.0): a}
    )
    df = df.sample(frac=1.0, random_state=0)  # pairing must follow trial, not row order
    c = paired.paired_comparisons(df)
    assert set(zip(c["algorithm_a"], c["algorithm_b"], strict=True)) == {("greedy", "smoothed")}
    at2 = c[c["budget"] == 2.0].iloc[0]
    assert (at2["wins"], at2["ties"], at2["losses"]) == (4, 1, 0)
    assert at2["mean_diff"] == pytest.approx(-0.08)
    assert at2["n_pairs"] == 5
    # four non-zero differences all equal: normal approximation with ties
    assert at2["p_value"] == pytest.approx(paired.wilcoxon_p([-0.1] * 4))
    at4 = c[c["budget"] == 4.0].iloc[0]
    assert (at4["wins"], at4["ties"], at4["losses"]) == (0, 1, 4)
    np.testing.assert_allclose(c["p_holm"], paired.holm(c["p_value"].to_numpy()))


def test_paired_comparisons_only_shared_budgets_and_trials():
    df = _table(
        {
            ("greedy", 2.0): [0.1, 0.2, 0.3],
            ("smoothed", 2.0): [0.2, 0.2],
            ("adaboost", np.inf): [0.1, 0.1],
        }
    )
    c = paired.paired_comparisons(df)
    assert len(c) == 1 and c.iloc[0]["n_pairs"] == 2


def test_budget_to_match():
    df = _table(
        {
            ("adaboost", np.inf): [0.1] * 4,
            ("smoothed", 2.0): [0.3] * 4,
            ("smoothed", 4.0): [0.1] * 4,
            ("smoothed", 6.0): [0.05] * 4,
            ("greedy", 2.0): [0.3] * 4,
            ("greedy", 6.0): [0.2] * 4,
        }
    )
    m = summaries.budget_to_match(summaries.summarize(df)).set_index("algorithm")
    assert m.loc["smoothed", "match_budget"] == 4.0
    assert m.loc["smoothed", "error_at_match"] == pytest.approx(0.1)
    assert np.isnan(m.loc["greedy", "match_budget"])
    assert m.loc["greedy", "largest_budget"] == 6.0


def test_budget_to_match_falls_back_to_other_cost_model_reference():
    ref = _table({("adaboost", np.inf): [0.2, 0.2]}, cost_model="constant")
    curve = _table({("smoothed", 2.0): [0.1, 0.1]}, cost_model="uniform_0_2")
    m = summaries.budget_to_match(summaries.summarize(pd.concat([ref, curve])))
    assert m.iloc[0]["reference_cost_model"] == "constant"
    assert m.iloc[0]["match_budget"] == 2.0


def test_validate_shards_names_the_problem():
    df = _table({("greedy", 2.0): [0.1, 0.2]})
    with pytest.raises(ValueError, match=r"my\.parquet.*missing shard column.*'nodes'"):
        summaries.validate_shards(df.drop(columns="nodes"), source="my.parquet")
    bad = df.copy()
    bad.loc[0, "test_error"] = 1.5
    with pytest.raises(ValueError, match="test_error must lie in"):
        summaries.validate_shards(bad)
    with pytest.raises(ValueError, match="duplicate row.*greedy.*trial=0"):
        summaries.validate_shards(pd.concat([df, df.iloc[:1]]))


def test_read_shards_roundtrip_and_errors(tmp_path):
    df = _table({("greedy", 2.0): [0.1, 0.2], ("adaboost", np.inf): [0.1, 0.1]})
    write_table(df.iloc[:2], tmp_path / "a.parquet")
    write_table(df.iloc[2:], tmp_path / "b.parquet")
    back = summaries.read_shards([tmp_path / "a.parquet", tmp_path / "b.parquet"])
    assert len(back) == 4 and list(back.columns) == list(schema.SHARD_COLUMNS)
    write_table(df.drop(columns="rounds"), tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match="bad.parquet"):
        summaries.read_shards([tmp_path / "bad.parquet"])
    assert summaries.read_shards([]).empty


def test_summary_markdown_is_a_readable_table():
    df = _table(
        {
            ("adaboost", np.inf): [0.1, 0.2],
            ("greedy", 2.0): [0.3, 0.4],
            ("adaboost_rs", 2.0): [0.4, 0.5],
        }
    )
    s = summaries.summarize(df)
    text = report_summary.summary_markdown(
        s, summaries.budget_to_match(s), paired.paired_comparisons(df)
    )
    assert "## ecoli · uniform_0_2 (2 trials)" in text
    assert "0.350 ± " in text  # greedy at budget 2
    assert "AdaBoostRS: cost paid per test example" in text
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert len({line.count("|") for line in table[:4]}) == 1  # aligned columns


def test_markdown_table_escapes_and_aligns():
    text = tables.markdown_table(pd.DataFrame({"name": ["a|b"], "x": [0.5]}))
    header, rule, body = text.splitlines()
    assert "a\\|b" in body and rule.endswith(":|")


@given(st.lists(st.integers(-20, 20), min_size=1, max_size=60))
def test_wilcoxon_properties(counts):
    d = np.array(counts) / 100  # error differences are multiples of 1 / n_test
    p = paired.wilcoxon_p(d)
    assert 0.0 <= p <= 1.0
    assert p == pytest.approx(paired.wilcoxon_p(-d))  # two-sided: symmetric in the sign
    assert p == pytest.approx(paired.wilcoxon_p(np.concatenate([d, [0.0, 0.0]])))  # zeros


@given(st.lists(st.tuples(st.integers(0, 10), st.integers(0, 10)), min_size=1, max_size=20))
def test_paired_counts_add_up(pairs):
    errors = {
        ("greedy", 2.0): [a / 10 for a, _ in pairs],
        ("smoothed", 2.0): [b / 10 for _, b in pairs],
    }
    c = paired.paired_comparisons(_table(errors)).iloc[0]
    assert c["wins"] + c["ties"] + c["losses"] == c["n_pairs"] == len(pairs)
    assert c["wins"] == sum(a < b for a, b in pairs)
    assert c["mean_diff"] == pytest.approx(np.mean([(a - b) / 10 for a, b in pairs]))


def test_error_table_marks_the_best_mean_and_its_ties():
    """At each budget the lowest mean is bold; an algorithm not significantly worse than it
    (Holm-adjusted p >= 0.05) gets a dagger; one significantly worse gets nothing."""
    rng = np.random.default_rng(0)
    base = rng.normal(0.3, 0.02, 12)
    cells = {
        ("smoothed", 2.0): base,
        ("greedy", 2.0): base + rng.normal(0, 0.001, 12),
        ("adaboost_bt", 2.0): base + 0.1,
    }
    df = _table(cells)
    table = report_summary.error_table(
        summaries.summarize(df), "ecoli", "uniform_0_2", comparisons=paired.paired_comparisons(df)
    )
    row = table.iloc[0]
    best = min(
        ("AdaBoostBT_Greedy", "AdaBoostBT_Smoothed"),
        key=lambda c: float(row[c].strip("*").split()[0]),
    )
    other = ({"AdaBoostBT_Greedy", "AdaBoostBT_Smoothed"} - {best}).pop()
    assert row[best].startswith("**") and row[best].endswith("**")
    assert row[other].endswith(" †")
    assert "*" not in row["AdaBoostBT"] and "†" not in row["AdaBoostBT"]
