"""The findings (budgetboost.analysis.findings): which comparisons each question asks, their
outcomes per dataset and across datasets, and the tally the reports' tables read."""

from __future__ import annotations

import numpy as np
import pandas as pd
from synthetic_results import (
    CURVE_DATASETS,
    PEER,
    PEER_CATALOGUE,
    curve_results,
    sizes_for,
    with_open_questions,
)

from budgetboost.analysis import findings
from budgetboost.analysis.results import aggregate
from budgetboost.analysis.vocabulary import MIN_TRIALS, OUTCOMES
from budgetboost.report import findings as findings_text


def test_the_questions_come_from_the_catalogue():
    pairs = (("ecoli", "uniform_0_2"),)
    asked = findings.questions(PEER_CATALOGUE, pairs, (), "uniform_0_2")
    peers = [(c.x, c.y) for c in asked if c.question == "peers"]
    # as published (Smoothed, Greedy) and tuned against tuned (the tuned variant)
    assert peers == [("smoothed", PEER), ("greedy", PEER), ("smoothed_tuned", PEER)]
    assert [(c.x, c.y) for c in asked if c.question == "tuning"] == [("smoothed_tuned", "smoothed")]
    assert not [c for c in asked if c.question in ("trees", "costs")]
    assert findings.protocol(PEER_CATALOGUE, "smoothed") == "as published"
    assert findings.protocol(PEER_CATALOGUE, PEER) == "tuned"


def test_as_published_names_the_papers_algorithms_only():
    """A user's method that chooses nothing reads "fixed settings"; "(as published)" means the
    paper's settings (tau = 1 for its boosters) and names the paper's algorithms only."""
    from budgetboost.catalogue import Catalogue

    catalogue = Catalogue.from_config(
        {
            "greedy": {},
            "mine": {"estimator": "mymodule:Mine", "label": "Cheapest stump"},
            "greedy_tree2": {"family": "boosted_trees", "variant_of": "greedy"},
        }
    )
    assert findings.protocol(catalogue, "greedy") == "as published"
    assert findings.protocol(catalogue, "mine") == "fixed settings"
    assert findings.protocol(catalogue, "greedy_tree2") == "fixed settings"


def test_better_equivalent_worse_and_inconclusive_per_dataset_and_band():
    # Smoothed clearly better at small and medium budgets (below 10), clearly worse at larger
    # ones (10-12); Greedy equal to the peer up to noise everywhere
    curves = {
        "smoothed": lambda b: 0.20 if b <= 4 else 0.10 if b < 10 else 0.30,
        "greedy": lambda b: 0.25,
        PEER: lambda b: 0.25,
    }
    rows = curve_results(curves).findings
    peers = rows[rows["question"] == "peers"]
    assert set(peers["band"]) == {"small", "medium", "large"}
    smoothed = peers[(peers["x"] == "smoothed") & (peers["dataset"] != "all")]
    smoothed = smoothed.set_index(["band", "dataset"])["outcome"]
    assert (smoothed.loc["small"] == "better").all()
    assert (smoothed.loc["medium"] == "better").all()
    assert (smoothed.loc["large"] == "worse").all()
    # the same error up to noise (sd 0.002 per budget): equivalent within 0.01, not "tied"
    greedy = peers[(peers["x"] == "greedy") & (peers["dataset"] != "all")]
    assert (greedy["outcome"] == "equivalent").all()
    assert (greedy["ci_high"] - greedy["ci_low"] < 0.02).all()
    counts = findings.tally(peers, PEER_CATALOGUE).set_index(["x", "band"])
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
    rows = curve_results(curves, trials=MIN_TRIALS - 1).findings
    per = rows[(rows["question"] == "peers") & (rows["dataset"] != "all")]
    assert (per["outcome"] == "too few trials").all()  # whatever the difference
    assert per["p_value"].isna().all() and np.isfinite(per["min_detectable"]).all()
    many = curve_results(curves, trials=12).findings
    per = many[(many["question"] == "peers") & (many["dataset"] != "all")]
    assert (per["outcome"] == "better").all() and np.isfinite(per["min_detectable"]).all()


def test_open_cost_models_pair_each_algorithm_with_itself_under_the_baseline():
    shards, catalogue = with_open_questions()
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
    shards, catalogue = with_open_questions()
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


def test_a_lead_confined_to_medium_budgets_is_read_there_and_only_there():
    """The findings read every third of the grid: Smoothed lower by 0.15 at budgets 6 and 8
    (the medium band of 2..12) and equal elsewhere wins that band alone, and the first page's
    sentence for it says so."""
    curves = {
        "smoothed": lambda b: 0.10 if 6 <= b <= 8 else 0.25,
        "greedy": lambda b: 0.25,
        PEER: lambda b: 0.25,
    }
    rows = curve_results(curves, datasets=CURVE_DATASETS).findings
    across = rows[(rows["question"] == "peers") & (rows["dataset"] == "all")]
    smoothed = across[across["x"] == "smoothed"].set_index("band")["outcome"]
    assert smoothed.to_dict() == {"small": "equivalent", "medium": "better", "large": "equivalent"}
    sentences = findings_text.family_sentences(rows, PEER_CATALOGUE)
    assert [s.split(" wins: ")[0] for s in sentences] == [
        "At small budgets, no family",
        "At medium budgets, budgeted boosting (the paper's)",
        "At larger budgets, no family",
    ]
