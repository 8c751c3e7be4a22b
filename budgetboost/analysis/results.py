"""Every table of a run's results from its shards, in one call (the ``aggregate`` rule).

- ``summary``: mean error with its interval per (dataset, cost model, algorithm, budget);
- ``budget_to_match``: the budget at which each algorithm reaches the unbudgeted reference;
- ``comparisons``: every paired comparison row (:func:`budgetboost.analysis.paired.compare`):
  the claims' (questions ``claim 1`` ...), each algorithm against the control (``control``:
  Smoothed, for the outcome grid), and the findings';
- ``findings``: the rows of the findings' questions (:mod:`budgetboost.analysis.findings`),
  which ``summary.md``, ``claims.md`` and the report's first page read;
- ``ranks``: average ranks, Friedman, Nemenyi CD and Holm against the control per band.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import pandas as pd

from budgetboost.analysis import findings as findings_
from budgetboost.analysis.bands import BANDS
from budgetboost.analysis.claims import CLAIM_BANDS, claim_comparisons
from budgetboost.analysis.paired import Comparison, band_means, compare
from budgetboost.analysis.ranks import cd_analysis
from budgetboost.analysis.summary import budget_to_match, summarize
from budgetboost.data.splits import SplitSizes
from budgetboost.pipeline.catalogue import Catalogue

__all__ = ["CONTROL_ROLE", "Results", "aggregate", "control_comparisons"]

#: The role of the control every algorithm is compared with (the paper's proposal).
CONTROL_ROLE = "smoothed"


@dataclass(frozen=True)
class Results:
    """The tables of :func:`aggregate`."""

    summary: pd.DataFrame
    budget_to_match: pd.DataFrame
    comparisons: pd.DataFrame
    findings: pd.DataFrame
    ranks: pd.DataFrame


def control_comparisons(
    catalogue: Catalogue, algorithms: list[str], pairs: tuple[tuple[str, str], ...]
) -> list[Comparison]:
    """Each budgeted algorithm of the paper's experiments against the control, per band."""
    control = catalogue.with_role(CONTROL_ROLE)
    if control is None:
        return []
    return [
        Comparison("control", a, control, pairs=pairs, bands=BANDS)
        for a in algorithms
        if a != control
    ]


def aggregate(
    shards: pd.DataFrame,
    catalogue: Catalogue,
    baseline: str | None,
    sizes: Mapping[str, SplitSizes],
    varied: set[tuple[str, str]] | None = None,
) -> Results:
    """The results tables of validated shards (see the module docstring).

    ``baseline`` is the cost model of the paper's U[0, 2]
    (:meth:`budgetboost.pipeline.plan.Plan.baseline_cost_model`), or ``None``; ``sizes``
    each dataset's training, test and pool rows (:func:`budgetboost.data.splits.
    read_sizes`), which the paired tests account for; ``varied`` the (dataset, cost model)
    pairs whose costs vary (:func:`budgetboost.data.costs.varied_pairs`; ``None``: all), to
    which the claims about varied costs are restricted.
    """
    catalogue = catalogue.including(shards["algorithm"])
    summary = summarize(shards, catalogue=catalogue, sizes=sizes)
    matches = budget_to_match(summary, catalogue)
    paper, open_ = findings_.experiment_pairs(shards, catalogue, baseline)
    means = band_means(shards, CLAIM_BANDS)
    reference = catalogue.with_role("reference")
    paper_index = pd.MultiIndex.from_tuples(paper) if paper else None
    in_paper = (
        pd.MultiIndex.from_frame(means[["dataset", "cost_model"]]).isin(paper_index)
        if paper_index is not None
        else pd.Series(False, index=means.index).to_numpy()
    )
    budgeted = catalogue.sort(means.loc[in_paper, "algorithm"])
    budgeted = [a for a in budgeted if a != reference]
    open_algorithms = (
        catalogue.sort(
            means.loc[
                pd.MultiIndex.from_frame(means[["dataset", "cost_model"]]).isin(list(open_)),
                "algorithm",
            ]
        )
        if open_
        else []
    )
    asked = [
        *claim_comparisons(catalogue, paper, varied),
        *control_comparisons(catalogue, budgeted, paper),
        *findings_.questions(catalogue, paper, open_, baseline, open_algorithms),
    ]
    comparisons = compare(means, asked, sizes)
    findings = comparisons[comparisons["question"].isin(findings_.QUESTIONS)]
    ranked = means[in_paper & means["algorithm"].isin(budgeted)]
    ranks = cd_analysis(ranked, catalogue=catalogue, control=catalogue.with_role(CONTROL_ROLE))
    return Results(summary, matches, comparisons, findings.reset_index(drop=True), ranks)
