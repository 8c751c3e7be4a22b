"""Head-to-head counts of budgetboost.analysis.findings, their text (budgetboost.report.findings)
and the peer sections of summary.md."""

from __future__ import annotations

import docutils.core as docutils_core
import docutils.nodes as docutils_nodes
import numpy as np
import pandas as pd
from test_claims import build

from budgetboost.analysis import findings, paired
from budgetboost.analysis import summary as summaries
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report import findings as findings_text
from budgetboost.report import summary as report_summary

PEER = "lgbm"
CATALOGUE = Catalogue(
    {
        **Catalogue.default().records(),
        PEER: {"label": "LightGBM CEGB", "family": "peer"},
    }
)


def _comparisons(curves: dict, datasets=("ecoli", "heart"), trials=12) -> pd.DataFrame:
    return paired.paired_comparisons(build(curves, datasets, trials=trials), CATALOGUE)


def test_better_tied_and_worse_are_counted_per_dataset_and_band():
    # Smoothed clearly better at small budgets (2-4), clearly worse at larger ones (10-12);
    # Greedy equal to the peer up to noise everywhere
    curves = {
        "smoothed": lambda b: 0.20 if b <= 4 else 0.10 if b < 10 else 0.30,
        "greedy": lambda b: 0.25,
        PEER: lambda b: 0.25,
    }
    outcomes = findings.band_outcomes(_comparisons(curves), findings.peer_pairs(CATALOGUE))
    assert set(outcomes["band"]) == {"small", "large"}
    smoothed = outcomes[outcomes["x"] == "smoothed"].set_index(["band", "dataset"])["outcome"]
    assert (smoothed.loc["small"] == "better").all()
    assert (smoothed.loc["large"] == "worse").all()
    counts = findings.tally(outcomes, CATALOGUE).set_index(["x", "band"])
    assert counts.loc[("smoothed", "small"), ["better", "tied", "worse", "n"]].tolist() == [
        2,
        0,
        0,
        2,
    ]
    assert (
        counts.loc[("smoothed", "large"), "worse_on"] == "ecoli · uniform_0_2, heart · uniform_0_2"
    )
    assert counts.loc[("smoothed", "small"), "trials"] == 12
    # noise alone (sd 0.002 per trial) decides nothing at alpha 0.05 after Holm, mostly:
    # at least one of the two datasets is tied in each band
    greedy = counts.loc["greedy"]
    assert (greedy["tied"] >= 1).all()


def test_a_mixed_band_is_tied():
    # in the small band (2, 4) Smoothed is better at 2 and worse at 4: neither rule passes
    curves = {"smoothed": lambda b: 0.10 if b == 2 else 0.40, PEER: lambda b: 0.25}
    outcomes = findings.band_outcomes(_comparisons(curves, ("ecoli",)), [("smoothed", PEER)])
    small = outcomes[outcomes["band"] == "small"]
    assert small["outcome"].tolist() == ["tied"]
    assert small["supported_share"].item() == 0.5 and small["contradicted_share"].item() == 0.5


def test_the_peers_section_names_each_peer_and_the_fewest_trials():
    curves = {"smoothed": lambda b: 0.2, "greedy": lambda b: 0.2, PEER: lambda b: 0.3}
    outcomes = findings.peer_outcomes(_comparisons(curves), CATALOGUE)
    text = findings_text.peers_section(outcomes, CATALOGUE)
    assert text.startswith("## Beyond the paper")
    assert "LightGBM CEGB" in text and "AdaBoostBT_Smoothed" in text
    assert set(outcomes["question"]) == {"peers"}
    default = Catalogue.default()
    empty = findings_text.peers_section(
        findings.peer_outcomes(_comparisons(curves), default), default
    )
    assert "No peer" in empty


def test_the_summary_names_capped_algorithms_and_the_chosen_tradeoffs():
    curves = {"smoothed": lambda b: 0.2, "greedy": lambda b: 0.2, PEER: lambda b: 0.3}
    shards = build(curves, ("ecoli",), trials=12)
    shards = shards[(shards["algorithm"] != PEER) | (shards["trial"] < 5)].copy()
    shards["tradeoff"] = np.where(shards["algorithm"] == PEER, shards["budget"] / 10, np.nan)
    summary = summaries.summarize(shards, catalogue=CATALOGUE)
    comparisons = paired.paired_comparisons(shards, CATALOGUE)
    assert summary.loc[summary["algorithm"] == "smoothed", "tradeoff_median"].isna().all()
    peer = summary[(summary["algorithm"] == PEER) & np.isfinite(summary["budget"])]
    np.testing.assert_allclose(peer["tradeoff_median"], peer["budget"] / 10)
    text = report_summary.summary_markdown(summary, summary.iloc[:0], comparisons, CATALOGUE)
    assert "- LightGBM CEGB: 5 trials per dataset" in text
    assert "## Smoothed and Greedy against the peers" in text
    assert "## Chosen trade-offs" in text and "2: 0.2" in text
    pair = comparisons[(comparisons["algorithm_b"] == PEER)]
    assert (pair["n_pairs"] == 5).all()  # paired on the peer's five trials


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
    open_q = open_q.assign(
        cost_model="adversarial",
        test_error=open_q["test_error"] + np.where(open_q["algorithm"] == "smoothed", 0.1, 0.0),
    )
    catalogue = Catalogue(
        {
            **Catalogue.default().records(),
            "greedy_tree2": {"family": "boosted_trees", "variant_of": "greedy"},
        }
    )
    return pd.concat([paper, open_q], ignore_index=True), catalogue


def test_cost_model_comparisons_pair_each_algorithm_with_itself_under_the_baseline():
    shards, catalogue = _with_open_questions()
    rises = paired.cost_model_comparisons(shards, baseline="uniform_0_2", catalogue=catalogue)
    assert set(rises["cost_model"]) == {"adversarial"}  # not the paper's experiments
    assert set(rises["algorithm"]) == {"greedy", "smoothed"}
    assert (rises["n_pairs"] == 8).all()  # paired on the trials both ran
    smoothed = rises[rises["algorithm"] == "smoothed"]
    np.testing.assert_allclose(smoothed["rise"], 0.1, atol=1e-9)
    assert (smoothed["rises"] == 8).all() and (smoothed["p_holm"] < 0.05).all()
    greedy = rises[rises["algorithm"] == "greedy"]
    assert (greedy["rise"] == 0).all() and (greedy["p_holm"] == 1).all()
    without_reference = shards[shards["algorithm"] != "adaboost"]
    assert paired.cost_model_comparisons(
        without_reference, baseline="uniform_0_2", catalogue=catalogue
    ).empty


def test_the_future_work_section_counts_trees_and_cost_model_rises():
    shards, catalogue = _with_open_questions()
    comparisons = paired.paired_comparisons(shards, catalogue)
    rises = paired.cost_model_comparisons(shards, baseline="uniform_0_2", catalogue=catalogue)
    trees = findings.tree_outcomes(comparisons, catalogue)
    costs = findings.cost_model_rises(rises)
    text = findings_text.future_work_section(trees, costs, catalogue)
    counts = findings.tally(trees, catalogue).set_index("band")
    assert counts.loc["small", ["better", "worse"]].tolist() == [2, 0]
    assert counts.loc["large", "better"] == 0
    assert set(costs.loc[costs["algorithm"] == "smoothed", "outcome"]) == {"rises"}
    assert set(costs.loc[costs["algorithm"] == "greedy", "outcome"]) == {"unchanged"}
    assert "least degraded AdaBoostBT_Greedy (+0.000)" in text
    assert text.startswith("## Future work") and "### Boosting small trees" in text
    assert len(comparisons)  # the paired comparisons include the adversarial cells too


def test_the_first_page_shows_the_findings_as_valid_rst_tables():
    shards, catalogue = _with_open_questions()
    comparisons = paired.paired_comparisons(shards, catalogue)
    rises = paired.cost_model_comparisons(shards, baseline="uniform_0_2", catalogue=catalogue)
    trees = findings.tree_outcomes(comparisons, catalogue)
    costs = findings.cost_model_rises(rises)
    lines = findings_text.landing_lines(trees, costs, catalogue)
    text = "\n".join(lines)
    # one row per comparison, the bands as columns: better / tied / worse
    tally = findings.tally(trees, catalogue).set_index("band")
    small = "{} / {} / {}".format(*tally.loc["small", ["better", "tied", "worse"]])
    larger = "{} / {} / {}".format(*tally.loc["large", ["better", "tied", "worse"]])
    row = next(part for line in lines for part in line.split("\n") if " vs " in part)
    assert small in row and larger in row
    assert "Least degraded" in text and "AdaBoostBT_Greedy (+0.000)" in text
    # reStructuredText without a warning: the report renders the page
    doctree = docutils_core.publish_doctree(
        text, settings_overrides={"halt_level": 2, "report_level": 5}
    )
    assert len(list(doctree.findall(docutils_nodes.table))) == 2
