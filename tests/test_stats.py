"""Summaries (budgetboost.analysis.summary) and band-level paired comparisons
(budgetboost.analysis.paired) against values computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sps
from synthetic_results import row, shard_frame, sizes_for

from budgetboost.analysis import paired
from budgetboost.analysis import summary as summaries
from budgetboost.analysis.results import aggregate
from budgetboost.analysis.significance import holm
from budgetboost.analysis.vocabulary import ALL
from budgetboost.data import schema
from budgetboost.data.io import write_table
from budgetboost.pipeline.catalogue import Catalogue
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


BUDGETS = (2.0, 4.0, 6.0)  # one budget per band: small 2, medium 4, large 6


def compare(df: pd.DataFrame, *comparisons: paired.Comparison) -> pd.DataFrame:
    means = paired.band_means(df, ("small", "medium", "large", "all"))
    return paired.compare(means, comparisons, sizes_for(df))


def test_band_means_average_each_trial_over_the_band():
    df = _table(
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
    df = _table({("greedy", 2.0): a, ("smoothed", 2.0): b})
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
    half = sps.t.ppf(0.975, 4) * se
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((-0.08 - half, -0.08 + half))
    assert row["outcome"] == "better"


def test_outcomes_better_worse_equivalent_inconclusive():
    rng = np.random.default_rng(1)
    base = rng.integers(20, 40, 20) / 100

    def outcome(shift: float, noise: float = 0.0) -> str:
        other = np.clip(base + shift + rng.normal(0, noise, 20).round(3), 0, 1)
        df = _table({("greedy", 2.0): list(base), ("smoothed", 2.0): list(other)})
        rows = compare(df, paired.Comparison("t", "greedy", "smoothed", bands=("small",)))
        return rows.iloc[0]["outcome"]

    assert outcome(0.1, noise=0.01) == "better"  # greedy 0.1 lower in every trial
    assert outcome(-0.1, noise=0.01) == "worse"
    assert outcome(0.0, noise=0.002) == "equivalent"  # within the margin, shown by the trials
    assert outcome(0.0) == "inconclusive"  # equal differences alone are not equivalence
    assert outcome(0.0, noise=0.2) == "inconclusive"


def test_comparisons_pair_only_shared_trials_and_holm_over_their_rows():
    df = _table(
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
            _table({("greedy", 2.0): [0.1] * 8, ("smoothed", 2.0): list(0.3 + noise)}, "heart"),
            _table({("greedy", 2.0): [0.1] * 8, ("smoothed", 2.0): list(0.2 + noise)}, "sonar"),
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
    other = _table({("greedy", 2.0): list(0.3 + noise[:6] + noise[2:])}, cost_model="adversarial")
    df = pd.concat([_table(base), other])
    rows = compare(
        df,
        paired.Comparison("costs", "greedy", "greedy", baseline="uniform_0_2", bands=("small",)),
    )
    row = rows.iloc[0]
    assert row["cost_model"] == "adversarial" and row["trials"] == 6  # the trials both ran
    assert row["mean_difference"] == pytest.approx(0.1 + noise[2:].mean(), abs=1e-9)
    assert row["outcome"] == "worse"


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
    text = report_summary.summary_markdown(
        aggregate(df, Catalogue.default(), "uniform_0_2", sizes_for(df))
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


def test_markdown_table_escapes_headers_and_line_breaks():
    """A label is a column header in summary.md (#25): its ``|`` and line breaks must not
    break the table."""
    text = tables.markdown_table(pd.DataFrame({"Mine | v2\nnew": [0.5], "x": ["a\nb"]}))
    header, rule, body = text.splitlines()
    assert header.startswith("| Mine \\| v2 new |") and header.count(" | ") == 1
    assert "a b" in body


def test_error_table_marks_the_best_mean():
    """At each budget the lowest mean is bold, and only it."""
    rng = np.random.default_rng(0)
    base = rng.normal(0.3, 0.02, 12)
    cells = {
        ("smoothed", 2.0): base,
        ("greedy", 2.0): base + rng.normal(0, 0.001, 12),
        ("adaboost_bt", 2.0): base + 0.1,
    }
    df = _table(cells)
    table = report_summary.error_table(summaries.summarize(df), "ecoli", "uniform_0_2")
    row = table.iloc[0]
    best = min(
        ("AdaBoostBT_Greedy", "AdaBoostBT_Smoothed"),
        key=lambda c: float(row[c].strip("*").split()[0]),
    )
    other = ({"AdaBoostBT_Greedy", "AdaBoostBT_Smoothed"} - {best}).pop()
    assert row[best].startswith("**") and row[best].endswith("**")
    assert "*" not in row[other] and "*" not in row["AdaBoostBT"]
