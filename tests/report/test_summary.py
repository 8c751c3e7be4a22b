"""summary.md (budgetboost.report.summary): readable tables, the best mean marked."""

from __future__ import annotations

import numpy as np
from synthetic_results import sizes_for, trial_shards

from budgetboost.analysis import summary as summaries
from budgetboost.analysis.results import aggregate
from budgetboost.catalogue import Catalogue
from budgetboost.report import summary as report_summary


def test_summary_markdown_is_a_readable_table():
    df = trial_shards(
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
    table = text.split("## ecoli")[1].split("##")[0]
    assert "**0.350**" in table  # greedy at budget 2, without an interval: two trials
    assert "±" not in table
    assert "fewer than 3 trials is printed without an interval" in text
    assert "AdaBoostRS: cost paid per test example" in text
    table = [line for line in text.splitlines() if line.startswith("|")]
    assert len({line.count("|") for line in table[:4]}) == 1  # aligned columns


def test_error_table_marks_the_best_mean():
    """At each budget the lowest mean is bold, and only it."""
    rng = np.random.default_rng(0)
    base = rng.normal(0.3, 0.02, 12)
    cells = {
        ("smoothed", 2.0): base,
        ("greedy", 2.0): base + rng.normal(0, 0.001, 12),
        ("adaboost_bt", 2.0): base + 0.1,
    }
    df = trial_shards(cells)
    table = report_summary.error_table(summaries.summarize(df), "ecoli", "uniform_0_2")
    row = table.iloc[0]
    best = min(
        ("AdaBoostBT_Greedy", "AdaBoostBT_Smoothed"),
        key=lambda c: float(row[c].strip("*").split()[0]),
    )
    other = ({"AdaBoostBT_Greedy", "AdaBoostBT_Smoothed"} - {best}).pop()
    assert row[best].startswith("**") and row[best].endswith("**")
    assert "*" not in row[other] and "*" not in row["AdaBoostBT"]


def test_an_interval_is_printed_from_three_trials_on():
    """A mean error over fewer than three trials is printed alone, without its 95 % interval (over
    two, e.g. ``0.268 ± 1.489``, it runs past the whole error scale)."""
    df = trial_shards({("greedy", 2.0): [0.3, 0.4, 0.35], ("smoothed", 2.0): [0.25, 0.3]})
    summary = summaries.summarize(df)
    assert (summary["ci_half"] > 0.1).all()  # both have an interval, the two trials' wide
    row = report_summary.error_table(summary, "ecoli", "uniform_0_2").iloc[0]
    greedy, smoothed = row["AdaBoostBT_Greedy"], row["AdaBoostBT_Smoothed"]
    assert greedy.startswith("0.350 ± ") and float(greedy.split("± ")[1]) < 0.2
    assert smoothed.strip("*") == "0.275"
