"""The findings as text (budgetboost.report.findings): the future-work section, the first
page's tables, summary.md reading the same findings."""

from __future__ import annotations

import docutils.core as docutils_core
import docutils.nodes as docutils_nodes
import numpy as np
import pandas as pd
from synthetic_results import PEER, PEER_CATALOGUE, curve_shards, sizes_for, with_open_questions

from budgetboost.analysis.results import aggregate
from budgetboost.analysis.vocabulary import bound_text
from budgetboost.report import findings as findings_text
from budgetboost.report import summary as report_summary


def test_trees_against_stumps_and_the_future_work_section():
    shards, catalogue = with_open_questions()
    rows = aggregate(shards, catalogue, "uniform_0_2", sizes_for(shards)).findings
    trees = rows[(rows["question"] == "trees") & (rows["dataset"] != "all")]
    assert set(trees.loc[trees["band"] == "small", "outcome"]) == {"better"}
    assert "better" not in set(trees.loc[trees["band"] == "large", "outcome"])
    beyond, future = findings_text.findings_sections(rows, catalogue)
    assert beyond.startswith("## Beyond the paper") and "No such comparison" in beyond
    assert future.startswith("## Future work") and "### Boosting depth-2 trees" in future
    assert "Greedy: adversarial vs U[0, 2]" in future and "worse" in future
    assert "min detectable" in future and "[" in future  # intervals and power


def test_the_first_page_shows_the_findings_as_valid_rst_tables():
    shards, catalogue = with_open_questions()
    rows = aggregate(shards, catalogue, "uniform_0_2", sizes_for(shards)).findings
    lines = findings_text.landing_lines(rows, catalogue)
    text = "\n".join(lines)
    across = rows[(rows["question"] == "trees") & (rows["dataset"] == "all")]
    small = across[across["band"] == "small"].iloc[0]
    # two datasets: the signed-rank test reaches no bound of an interval, and no outcome
    assert f"{small['hodges_lehmann']:+.3f}   " in text and "too few datasets" in text
    assert "(as published)" in text and "equivalent" in text
    # reStructuredText without a warning: the report renders the page
    doctree = docutils_core.publish_doctree(
        text, settings_overrides={"halt_level": 2, "report_level": 5}
    )
    assert len(list(doctree.findall(docutils_nodes.table))) == 2  # trees, costs


def test_summary_md_reads_the_same_findings():
    curves = {"smoothed": lambda b: 0.2, "greedy": lambda b: 0.2, PEER: lambda b: 0.3}
    shards = curve_shards(curves, ("ecoli", "heart"), trials=12)
    shards = shards[(shards["algorithm"] != PEER) | (shards["trial"] < 8)].copy()
    shards["tradeoff"] = np.where(shards["algorithm"] == PEER, shards["budget"] / 10, np.nan)
    result = aggregate(shards, PEER_CATALOGUE, "uniform_0_2", sizes_for(shards))
    summary = result.summary
    assert summary.loc[summary["algorithm"] == "smoothed", "tradeoff_median"].isna().all()
    peer = summary[(summary["algorithm"] == PEER) & np.isfinite(summary["budget"])]
    np.testing.assert_allclose(peer["tradeoff_median"], peer["budget"] / 10)
    text = report_summary.summary_markdown(result, PEER_CATALOGUE)
    assert "- LightGBM CEGB: 8 trials per dataset" in text
    assert "## The paper's boosters against the peers" in text
    assert "## Chosen trade-offs" in text and "2: 0.2" in text
    table = findings_text.findings_table(
        result.findings[result.findings["question"] == "peers"], PEER_CATALOGUE
    )
    for line in table["difference [90% CI]"]:
        assert line in text  # the same numbers as claims.md and the first page
    per = result.findings[result.findings["dataset"] != "all"]
    assert (per["trials"] == 8).all()  # paired on the peer's eight trials


def test_a_bound_that_would_round_onto_the_margin_shows_its_side():
    """Three decimals unless they put a bound onto ±0.010 that is not on it: then as many as
    tell its side, so an interval that reads *equivalent* never prints a bound of ±0.010."""
    assert bound_text(-0.0123) == "-0.012" and bound_text(0.0) == "+0.000"
    assert bound_text(-0.00996) == "-0.00996" and bound_text(0.01004) == "+0.01004"
    assert bound_text(0.00951) == "+0.0095" and bound_text(-0.0099999) == "-0.0099999"
    assert bound_text(-0.01) == "-0.010"  # on the margin: inconclusive, as printed
    row = pd.Series(
        {"dataset": "all", "hodges_lehmann": 0.0, "ci_low": -0.00996, "ci_high": 0.0097}
    )
    assert findings_text._interval(row) == "+0.000 [-0.00996, +0.0097]"
