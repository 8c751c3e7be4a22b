"""Results tables read through the paper's roles (budgetboost.analysis.roles)."""

from __future__ import annotations

import pandas as pd

from budgetboost.analysis.roles import paper_experiments


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
