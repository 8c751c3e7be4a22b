"""The field's question in its regime: pools, both readings, standings, the first page."""

from __future__ import annotations

import numpy as np
import pandas as pd
from synthetic_results import PEER, PEER_CATALOGUE, const, curve_shards, sizes_for

from budgetboost.analysis.binding import Prices
from budgetboost.analysis.results import aggregate
from budgetboost.catalogue import Catalogue
from budgetboost.report.findings import field_lines

CATALOGUE = Catalogue(
    {**PEER_CATALOGUE.records(), "streed": {"label": "STreeD", "family": "optimal_tree"}}
)

CURVES = {"streed": const(0.10), "smoothed": const(0.16), "greedy": const(0.17), PEER: const(0.16)}


def _run(spent=None):
    paper = curve_shards(CURVES, trials=10)  # the paper's regime, with its reference
    field = curve_shards(CURVES, cost_model="unit", trials=10, spent=spent, reference=None)
    shards = pd.concat([paper, field], ignore_index=True)
    # eight attributes on half the datasets (the small band, budgets 2 and 4, binds there),
    # four on the others (budget 4 buys them all)
    datasets = field["dataset"].unique()
    prices = {
        (d, "unit"): Prices(np.ones((10, n)), np.arange(n), True)
        for i, d in enumerate(datasets)
        for n in [8 if i < len(datasets) // 2 else 4]
    }
    return aggregate(
        shards,
        CATALOGUE,
        "uniform_0_2",
        sizes_for(shards),
        field={"unit": "unit"},
        prices=prices,
    )


def test_the_field_question_is_asked_in_its_pools_and_the_paper_keeps_its_own_rows():
    results = _run()
    field = results.findings[results.findings["question"] == "field"]
    per_dataset = field[field["dataset"] != "all"]
    assert set(per_dataset["pool"]) == {"unit"} and set(per_dataset["cost_model"]) == {"unit"}
    # across datasets: the pool, and the datasets where the band binds (the small band's
    # largest budget, 4, reads half of eight attributes: it binds on half the datasets; the
    # medium band's, 8, and the large band's, 12, read them all)
    across = field[field["dataset"] == "all"]
    assert set(zip(across["pool"], across["band"], strict=True)) == {
        ("unit", "small"),
        ("unit", "medium"),
        ("unit", "large"),
        ("unit (binding)", "small"),
    }
    peers = results.findings[results.findings["question"] == "peers"]
    assert set(peers["cost_model"]) == {"uniform_0_2", "all"}  # the paper's experiments
    # the paper's boosters face the peers in the field's regime too
    assert ((field["x"] == "smoothed") & (field["y"] == PEER)).any()
    trees = across[(across["x"] == "streed") & (across["pool"] == "unit")]
    assert (trees["outcome"] == "better").all()


def test_both_readings_give_standings_and_the_first_page_says_them():
    results = _run(spent={"streed": 0.5})
    mean = results.field_mean_cost
    assert set(mean["pool"]) == {"unit", "unit (binding)"} and not mean.empty
    leads = results.leads
    trees = leads[(leads["family"] == "optimal_tree") & (leads["band"] == "small")]
    assert set(trees["reading"]) == {"cap", "mean"}
    assert (trees["leads"] == trees["datasets"]).all()  # a 0.06 lead, little noise: everywhere
    # eight attributes at price 1: budgets 4 and 8 read half and all of them
    assert set(results.binding["share"].round(6)) >= {0.5, 1.0}
    lines = field_lines({"cap": results.findings, "mean": mean}, leads, results.binding, CATALOGUE)
    text = "\n".join(lines)
    assert "Pool ``unit``, read at the hard cap per example" in text
    assert "read at matched mean cost per example" in text
    assert "optimal cost-sensitive trees wins" in text
    assert "Pool ``unit`` on the datasets where the band binds, read at the hard cap" in text


def test_a_field_cost_model_running_the_reference_stays_out_of_the_papers_questions():
    """The suite runs the unbudgeted reference under Turney's real costs too, a cost model of
    the field's regime: the paper's boosters against the peers read the paper's regime alone
    (where Smoothed and the peer err alike, not 0.15 apart as under Turney's costs)."""
    paper = curve_shards(CURVES, trials=10)
    turney = curve_shards({**CURVES, PEER: const(0.31)}, cost_model="turney", trials=10)
    shards = pd.concat([paper, turney], ignore_index=True)
    results = aggregate(
        shards, CATALOGUE, "uniform_0_2", sizes_for(shards), field={"turney": "turney"}
    )
    peers = results.findings[results.findings["question"] == "peers"]
    assert set(peers["cost_model"]) == {"uniform_0_2", "all"}
    field = results.findings[results.findings["question"] == "field"]
    assert set(field["cost_model"]) - {"all"} == {"turney"}
    smoothed = peers[(peers["x"] == "smoothed") & (peers["dataset"] == "all")]
    np.testing.assert_allclose(smoothed["hodges_lehmann"], 0.0, atol=0.003)
