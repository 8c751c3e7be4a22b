"""The findings (budgetboost.analysis.findings): which comparisons each question asks, their
outcomes, and the one table that summary.md, claims.md and the first page read
(budgetboost.report.findings)."""

from __future__ import annotations

import docutils.core as docutils_core
import docutils.nodes as docutils_nodes
import numpy as np
import pandas as pd
from synthetic_results import sizes_for
from test_claims import build

from budgetboost.analysis import findings
from budgetboost.analysis.results import aggregate
from budgetboost.analysis.vocabulary import MIN_TRIALS, OUTCOMES
from budgetboost.data.seeds import rng_from_key
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report import findings as findings_text
from budgetboost.report import summary as report_summary

PEER = "lgbm"
CATALOGUE = Catalogue(
    {
        **Catalogue.default().records(),
        PEER: {"label": "LightGBM CEGB", "family": "peer", "tuned": True},
        "smoothed_tuned": {
            "label": "Smoothed, tuned",
            "family": "boosting",
            "variant_of": "smoothed",
            "tuned": True,
        },
    }
)


def results(curves: dict, datasets=("ecoli", "heart"), trials=12, catalogue=CATALOGUE):
    return aggregate(
        shards := build(curves, datasets, trials=trials),
        catalogue,
        "uniform_0_2",
        sizes_for(shards),
    )


def test_the_questions_come_from_the_catalogue():
    pairs = (("ecoli", "uniform_0_2"),)
    asked = findings.questions(CATALOGUE, pairs, (), "uniform_0_2")
    peers = [(c.x, c.y) for c in asked if c.question == "peers"]
    # as published (Smoothed, Greedy) and tuned against tuned (the tuned variant)
    assert peers == [("smoothed", PEER), ("greedy", PEER), ("smoothed_tuned", PEER)]
    assert [(c.x, c.y) for c in asked if c.question == "tuning"] == [("smoothed_tuned", "smoothed")]
    assert not [c for c in asked if c.question in ("trees", "costs")]
    assert findings.protocol(CATALOGUE, "smoothed") == "as published"
    assert findings.protocol(CATALOGUE, PEER) == "tuned"


def test_better_equivalent_worse_and_inconclusive_per_dataset_and_band():
    # Smoothed clearly better at small budgets (2-4), clearly worse at larger ones (10-12);
    # Greedy equal to the peer up to noise everywhere
    curves = {
        "smoothed": lambda b: 0.20 if b <= 4 else 0.10 if b < 10 else 0.30,
        "greedy": lambda b: 0.25,
        PEER: lambda b: 0.25,
    }
    rows = results(curves).findings
    peers = rows[rows["question"] == "peers"]
    assert set(peers["band"]) == {"small", "large"}
    smoothed = peers[(peers["x"] == "smoothed") & (peers["dataset"] != "all")]
    smoothed = smoothed.set_index(["band", "dataset"])["outcome"]
    assert (smoothed.loc["small"] == "better").all()
    assert (smoothed.loc["large"] == "worse").all()
    # the same error up to noise (sd 0.002 per budget): equivalent within 0.01, not "tied"
    greedy = peers[(peers["x"] == "greedy") & (peers["dataset"] != "all")]
    assert (greedy["outcome"] == "equivalent").all()
    assert (greedy["ci_high"] - greedy["ci_low"] < 0.02).all()
    counts = findings.tally(peers, CATALOGUE).set_index(["x", "band"])
    assert counts.loc[("smoothed", "small"), ["better", "equivalent", "worse", "n"]].tolist() == [
        2,
        0,
        0,
        2,
    ]
    assert counts.loc[("smoothed", "small"), "trials"] == 12
    for column in ("mean_difference", "ci_low", "ci_high", "p_value", "trials", "min_detectable"):
        assert column in rows.columns


def test_too_few_trials_say_so_and_what_they_could_detect():
    curves = {"smoothed": lambda b: 0.20, PEER: lambda b: 0.30}
    rows = results(curves, trials=MIN_TRIALS - 1).findings
    per = rows[(rows["question"] == "peers") & (rows["dataset"] != "all")]
    assert (per["outcome"] == "too few trials").all()  # whatever the difference
    assert per["p_value"].isna().all() and np.isfinite(per["min_detectable"]).all()
    many = results(curves, trials=12).findings
    per = many[(many["question"] == "peers") & (many["dataset"] != "all")]
    assert (per["outcome"] == "better").all() and np.isfinite(per["min_detectable"]).all()


def _with_open_questions():
    """Paper experiments (with the reference) plus `adversarial` costs on the first 8
    trials without it: Smoothed's error 0.1 higher there, Greedy's unchanged; and a tree
    variant of Greedy better than Greedy at small budgets only."""
    curves = {
        "greedy": lambda b: 0.25,
        "smoothed": lambda b: 0.20,
        "greedy_tree2": lambda b: 0.15 if b <= 4 else 0.25,
    }
    paper = build(curves, ("ecoli", "heart"), trials=12)
    open_q = paper[(paper["trial"] < 8) & paper["algorithm"].isin(["greedy", "smoothed"])]
    noise = rng_from_key("open questions").normal(0, 0.003, len(open_q))
    open_q = open_q.assign(
        cost_model="adversarial",
        test_error=open_q["test_error"]
        + np.where(open_q["algorithm"] == "smoothed", 0.1, 0.0)
        + noise,
    )
    catalogue = Catalogue(
        {
            **Catalogue.default().records(),
            "greedy_tree2": {"family": "boosted_trees", "variant_of": "greedy"},
        }
    )
    return pd.concat([paper, open_q], ignore_index=True), catalogue


def test_open_cost_models_pair_each_algorithm_with_itself_under_the_baseline():
    shards, catalogue = _with_open_questions()
    rows = aggregate(shards, catalogue, "uniform_0_2", sizes_for(shards)).findings
    costs = rows[rows["question"] == "costs"]
    assert set(costs["cost_model"]) == {"adversarial"}  # not the paper's experiments
    assert set(costs["x"]) == {"greedy", "smoothed"} and (costs["x"] == costs["y"]).all()
    per = costs[costs["dataset"] != "all"]
    assert (per["trials"] == 8).all()  # paired on the trials both ran
    smoothed = per[per["x"] == "smoothed"]
    np.testing.assert_allclose(smoothed["mean_difference"], 0.1, atol=0.005)
    assert (smoothed["outcome"] == "worse").all()  # its error rises
    assert (per.loc[per["x"] == "greedy", "outcome"] == "equivalent").all()  # unchanged
    # without the reference no experiment is the paper's: no open question either
    alone = shards[shards["algorithm"] != "adaboost"]
    again = aggregate(alone, catalogue, "uniform_0_2", sizes_for(alone)).findings
    assert again[again["question"] == "costs"].empty
    # no baseline cost model in the run: nothing to compare the open ones with
    assert (
        aggregate(shards, catalogue, None, sizes_for(shards))
        .findings.query("question == 'costs'")
        .empty
    )


def test_each_open_cost_model_is_counted_on_its_own():
    """Two open cost models: each line of the tables counts its own datasets' outcomes."""
    shards, catalogue = _with_open_questions()
    few = shards[shards["cost_model"] == "adversarial"].assign(cost_model="few_cheap")
    rows = aggregate(
        both := pd.concat([shards, few]), catalogue, "uniform_0_2", sizes_for(both)
    ).findings
    counts = findings.tally(rows, catalogue)
    costs = counts[counts["question"] == "costs"]
    assert set(costs["pool"]) == {"adversarial", "few_cheap"}
    assert (costs["n"] == 2).all()  # ecoli and heart, once per cost model
    assert (counts.loc[counts["question"] != "costs", "pool"] == "all").all()
    table = findings_text.findings_table(rows[rows["question"] == "costs"], catalogue)
    per_dataset = table[f"per dataset ({' / '.join(OUTCOMES)})"]
    assert [sum(map(int, cell.split(" / "))) for cell in per_dataset] == [2] * len(table)


def test_trees_against_stumps_and_the_future_work_section():
    shards, catalogue = _with_open_questions()
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
    shards, catalogue = _with_open_questions()
    rows = aggregate(shards, catalogue, "uniform_0_2", sizes_for(shards)).findings
    lines = findings_text.landing_lines(rows, catalogue)
    text = "\n".join(lines)
    across = rows[(rows["question"] == "trees") & (rows["dataset"] == "all")]
    small = across[across["band"] == "small"].iloc[0]
    assert f"{small['mean_difference']:+.3f} [{small['ci_low']:+.3f}" in text
    assert "(as published)" in text and "equivalent" in text
    # reStructuredText without a warning: the report renders the page
    doctree = docutils_core.publish_doctree(
        text, settings_overrides={"halt_level": 2, "report_level": 5}
    )
    assert len(list(doctree.findall(docutils_nodes.table))) == 2  # trees, costs


def test_summary_md_reads_the_same_findings():
    curves = {"smoothed": lambda b: 0.2, "greedy": lambda b: 0.2, PEER: lambda b: 0.3}
    shards = build(curves, ("ecoli", "heart"), trials=12)
    shards = shards[(shards["algorithm"] != PEER) | (shards["trial"] < 8)].copy()
    shards["tradeoff"] = np.where(shards["algorithm"] == PEER, shards["budget"] / 10, np.nan)
    result = aggregate(shards, CATALOGUE, "uniform_0_2", sizes_for(shards))
    summary = result.summary
    assert summary.loc[summary["algorithm"] == "smoothed", "tradeoff_median"].isna().all()
    peer = summary[(summary["algorithm"] == PEER) & np.isfinite(summary["budget"])]
    np.testing.assert_allclose(peer["tradeoff_median"], peer["budget"] / 10)
    text = report_summary.summary_markdown(result, CATALOGUE)
    assert "- LightGBM CEGB: 8 trials per dataset" in text
    assert "## The paper's boosters against the peers" in text
    assert "## Chosen trade-offs" in text and "2: 0.2" in text
    table = findings_text.findings_table(
        result.findings[result.findings["question"] == "peers"], CATALOGUE
    )
    for line in table["difference [95% CI]"]:
        assert line in text  # the same numbers as claims.md and the first page
    per = result.findings[result.findings["dataset"] != "all"]
    assert (per["trials"] == 8).all()  # paired on the peer's eight trials
