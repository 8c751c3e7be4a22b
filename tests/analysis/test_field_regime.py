"""The field's question in its regime: pools, both readings, standings, the first page."""

from __future__ import annotations

import numpy as np
import pandas as pd
from synthetic_results import (
    CURVE_BUDGETS,
    PEER,
    PEER_CATALOGUE,
    const,
    curve_shards,
    row,
    shard_frame,
    sizes_for,
)

from budgetboost.analysis.binding import Prices
from budgetboost.analysis.results import aggregate, field_mean_cost_table
from budgetboost.analysis.summary import validate_shards
from budgetboost.analysis.tables import RunRows
from budgetboost.catalogue import Catalogue
from budgetboost.data.seeds import rng_from_key
from budgetboost.data.splits import SplitSizes
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


def _rows_run(trials: int = 10) -> tuple[pd.DataFrame, dict, dict]:
    """Field shards whose test rows carry their losses: pool row ``i`` is wrong at budget
    ``b`` wherever its draw ``u_i`` lies below the method's error curve there, whatever the
    trial (each row's own part alone, at the suite's 750 / 250 of 1,000 rows); the methods
    spend different shares of each budget on average, so the grid's levels fall between
    their points and are read as mixtures of two."""
    n_train, n_test, n_pool = 750, 250, 1000
    base = {"streed": 0.10, "smoothed": 0.16, "greedy": 0.19, PEER: 0.13}
    spent = {"streed": 0.6, "smoothed": 0.9, "greedy": 0.75, PEER: 0.97}
    rng = rng_from_key("test", "field regime", "rows' losses")
    u = rng.random(n_pool)
    tests = {t: rng.permutation(n_pool)[:n_test] for t in range(trials)}
    rows, wrong = [], []
    for t, test in tests.items():
        for algorithm, error in base.items():
            for b in CURVE_BUDGETS:
                lost = u[test] < error + 0.3 * np.exp(-b / 3)
                rows.append(
                    row("ecoli", "unit", algorithm, t, b, lost.mean(), b * spent[algorithm])
                )
                wrong.append(np.packbits(lost).tobytes())
    shards = validate_shards(shard_frame(rows).assign(test_wrong=wrong))
    return shards, {"ecoli": SplitSizes(n_train, n_test, n_pool)}, {"ecoli": tests}


def test_the_mean_cost_rows_bound_the_trials_correlation_from_each_test_rows_loss():
    """The mean-cost reading carries each test row's loss, so with the splits' test rows its
    per-dataset rows take the rows' bound where it is the narrower: the test rows carry the
    trials' variance here, so on some rows the correlation falls below the sizes' 1/2 and
    the interval narrows; the differences are the same and no interval widens."""
    shards, sizes, tests = _rows_run()
    catalogue = CATALOGUE.including(shards["algorithm"])
    tables = {
        name: field_mean_cost_table(
            RunRows(shards, catalogue, None, sizes, field={"unit": "unit"}, tests=rows), {}
        )
        for name, rows in (("sizes", {}), ("rows", tests))
    }
    sizes_only, rows = (t[t["dataset"] != "all"].reset_index(drop=True) for t in tables.values())
    assert len(rows) == len(sizes_only) > 0
    np.testing.assert_array_equal(rows["mean_difference"], sizes_only["mean_difference"])
    assert (sizes_only["correlation"] == 0.5).all()
    width = rows["ci_high"] - rows["ci_low"]
    before = sizes_only["ci_high"] - sizes_only["ci_low"]
    assert (width <= before + 1e-12).all()
    narrower = width < before - 1e-9
    assert narrower.sum() >= 3
    assert (rows.loc[narrower, "correlation"] < 0.5).all()


def test_a_pool_of_cost_models_with_grids_of_their_own_names_no_single_grid():
    """Turney's pool holds cost models priced in dollars of their own: a band's budgets are
    the same third of each grid, so the first page lists none of them as the pool's."""
    from budgetboost.report.findings import _band_budgets

    def grid(dataset, cost_model, budgets):
        return pd.DataFrame({"dataset": dataset, "cost_model": cost_model, "budget": budgets})

    pools = pd.Series({"turney": "turney", "turney_pima": "turney", "unit": "unit"})
    binding = pd.concat(
        [
            grid("heart", "turney", [10.0, 20.0, 30.0]),
            grid("pima", "turney_pima", [2.0, 4.0, 6.0]),
            grid("a", "unit", [1.0, 2.0, 3.0]),
            grid("b", "unit", [1.0, 2.0, 3.0]),
        ]
    )
    assert _band_budgets(binding, pools, "turney", "small") == (
        "its third of each cost model's own grid"
    )
    assert _band_budgets(binding, pools, "unit", "small") == "1"
    assert _band_budgets(binding, pools, "unit (binding)", "large") == "3"
