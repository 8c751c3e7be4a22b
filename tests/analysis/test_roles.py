"""Results tables read through the paper's roles (budgetboost.analysis.roles)."""

from __future__ import annotations

import pandas as pd

from budgetboost.analysis.roles import paper_experiments, paper_regime


def test_paper_experiments_are_the_pairs_the_reference_ran_on():
    summary = pd.DataFrame(
        {
            "dataset": ["heart", "heart", "heart", "ecoli"],
            "cost_model": ["uniform_0_2", "uniform_0_2", "adversarial", "uniform_0_2"],
            "algorithm": ["adaboost", "greedy", "greedy", "greedy"],
        }
    )
    kept = paper_experiments(summary, summary)
    assert kept["cost_model"].tolist() == ["uniform_0_2", "uniform_0_2"]
    assert kept["dataset"].tolist() == ["heart", "heart"]
    no_reference = summary[summary["algorithm"] != "adaboost"]
    assert paper_experiments(no_reference, no_reference).equals(no_reference)  # all kept


def test_the_paper_regime_is_the_paper_experiments_outside_the_field_regime():
    """Turney's costs in the field's regime run the reference too (config/suite.yaml): they
    are paper experiments, never the paper's regime; where the reference ran only there, the
    paper's regime is empty (not every row, as without any reference)."""
    summary = pd.DataFrame(
        {
            "dataset": ["heart", "heart", "heart", "heart", "ecoli"],
            "cost_model": ["uniform_0_2", "turney", "turney", "attribute_unit", "adversarial"],
            "algorithm": ["adaboost", "adaboost", "greedy", "greedy", "greedy"],
        }
    )
    field = ["turney", "attribute_unit"]
    assert paper_regime(summary, summary, field=field)["cost_model"].tolist() == ["uniform_0_2"]
    # without the field's regime named: the paper's experiments, as before
    assert paper_regime(summary, summary).equals(paper_experiments(summary, summary))
    no_paper = summary[summary["cost_model"] != "uniform_0_2"]
    assert paper_regime(no_paper, no_paper, field=field).empty
    assert paper_regime(no_paper, no_paper, field=["turney"]).empty  # adversarial: no reference


def test_the_questions_and_the_claims_read_one_paper_regime():
    """The findings' paper pairs (findings.experiment_pairs) are the claims' paper regime
    (roles.paper_regime) with the reference, without any reference, and with the reference
    only in the field's regime."""
    from budgetboost.analysis.findings import experiment_pairs
    from budgetboost.catalogue import Catalogue

    shards = pd.DataFrame(
        {
            "dataset": ["heart", "heart", "heart", "heart", "ecoli", "ecoli"],
            "cost_model": ["uniform_0_2", "uniform_0_2", "turney", "attribute_unit"]
            + ["uniform_0_2"] * 2,
            "algorithm": ["adaboost", "greedy", "adaboost", "greedy", "greedy", "smoothed"],
        }
    )
    field = ["turney", "attribute_unit"]
    runs = {
        "with the reference": shards,
        "without any reference": shards[shards["algorithm"] != "adaboost"],
        "the reference only in the field's regime": shards[
            ~((shards["algorithm"] == "adaboost") & (shards["cost_model"] == "uniform_0_2"))
        ],
    }
    expected = {
        "with the reference": {("heart", "uniform_0_2")},
        "without any reference": {("heart", "uniform_0_2"), ("ecoli", "uniform_0_2")},
        "the reference only in the field's regime": set(),
    }
    for name, run in runs.items():
        paper, _ = experiment_pairs(run, Catalogue.default(), "uniform_0_2", field=field)
        regime = paper_regime(run, run, field=field)
        pairs = set(zip(regime["dataset"], regime["cost_model"], strict=True))
        assert set(paper) == pairs == expected[name], name
