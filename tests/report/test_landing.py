"""The report's first page (budgetboost.report.landing): the undecidable rows summarised."""

from __future__ import annotations

import pandas as pd
from synthetic_results import sizes_for, synthetic_shards

from budgetboost.analysis.results import aggregate
from budgetboost.analysis.vocabulary import TOO_FEW_DATASETS, TOO_FEW_TRIALS
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report import findings as findings_text
from budgetboost.report.landing import decided_findings

UNDECIDABLE = [TOO_FEW_DATASETS, TOO_FEW_TRIALS]


def _findings():
    """Depth-2 variants of Greedy on 8 datasets (decided) and of Smoothed on 2 (not)."""
    shards = synthetic_shards(trials=3)
    greedy = shards[(shards["algorithm"] == "greedy") & (shards["dataset"] != "census")]
    smoothed = shards[
        (shards["algorithm"] == "smoothed") & shards["dataset"].isin(["heart", "ecoli"])
    ]
    shards = pd.concat(
        [
            shards,
            greedy.assign(algorithm="greedy_tree2"),
            smoothed.assign(algorithm="smoothed_tree2"),
        ],
        ignore_index=True,
    )
    config = {name: {} for name in shards["algorithm"].unique()}
    config["greedy_tree2"] = {"family": "boosted_trees", "variant_of": "greedy"}
    config["smoothed_tree2"] = {"family": "boosted_trees", "variant_of": "smoothed"}
    catalogue = Catalogue.from_config(config)
    return aggregate(shards, catalogue, "uniform_0_2", sizes_for(shards)).findings, catalogue


def test_the_first_page_prints_decided_rows_and_counts_the_rest():
    """The tiny run's first page was ~6,000 px of rows reading "too few datasets": it
    prints the comparisons that reached an outcome and one sentence for the others."""
    rows, catalogue = _findings()
    every = findings_text.findings_table(rows, catalogue)
    undecidable = every["outcome"].isin(UNDECIDABLE)
    assert undecidable.any() and (~undecidable).any()  # the case has both
    decided, sentence = decided_findings(rows)
    kept = findings_text.findings_table(decided, catalogue)
    assert not kept["outcome"].isin(UNDECIDABLE).any()
    # the rows kept read exactly as in the whole table (their per-dataset counts too)
    assert kept.to_dict("records") == every[~undecidable].to_dict("records")
    assert f"Of the {len(every)} comparisons" in sentence
    assert f"{int(undecidable.sum())} cannot be decided on this run" in sentence
    assert decided_findings(rows.iloc[:0])[1] == ""
    assert decided_findings(decided)[1] == ""  # nothing left to summarise
