"""The report's first page (reStructuredText): what ran, the verdicts, the findings, where to
look."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from budgetboost.analysis.verdicts import NOT_REPRODUCED, REPRODUCED, UNDECIDED
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report.tables import rst_table

__all__ = ["landing_page"]


def landing_page(
    claims_table: pd.DataFrame,
    summary: pd.DataFrame,
    *,
    catalogue: Catalogue,
    figures: Sequence[tuple[str, str, str]],
    version: str,
    findings: Sequence[str] = (),
) -> str:
    """The report's first page (reStructuredText): what ran, the verdicts, the findings
    beyond the paper, where to look.

    ``figures`` is ``(name, title, category)`` per registered figure; ``claims_table`` is
    :func:`claims_table`'s output, ``summary`` :func:`budgetboost.analysis.summary.summarize`'s;
    ``findings`` the lines of :func:`budgetboost.report.findings.landing_lines`.
    """
    trials = (
        summary.groupby(["dataset", "cost_model"])["trials"].max().reset_index()
        if not summary.empty
        else pd.DataFrame(columns=["dataset", "cost_model", "trials"])
    )
    algorithms = catalogue.sort(summary["algorithm"]) if not summary.empty else []
    verdicts = claims_table[["claim", "verdict", "statement"]]
    counts = verdicts["verdict"].value_counts()
    lines = [
        "budgetboost: feature-budgeted boosting, reproduced and compared",
        "=" * 63,
        "",
        f"Package version {version}. Huang, Powers & Reyzin (IJCAI 2015) reproduced on "
        f"{trials['dataset'].nunique()} datasets: "
        f"{counts.get(REPRODUCED, 0)} of {len(verdicts)} claims reproduced, "
        f"{counts.get(NOT_REPRODUCED, 0)} not reproduced, "
        f"{counts.get(UNDECIDED, 0)} inconclusive.",
        "",
        "Verdicts",
        "--------",
        "",
        rst_table(verdicts),
        "",
        "The evidence of each verdict is in ``claims.md`` (Tables); every threshold is printed "
        "there.",
        "",
        *(
            [
                "Beyond the paper and its open questions",
                "---------------------------------------",
                "",
                "Findings (``claims.md``, sections *Beyond the paper* and *Future work*; every "
                "row: ``findings.parquet``), each comparison across datasets per budget band:",
                "",
                *findings,
            ]
            if findings
            else []
        ),
        "What ran",
        "--------",
        "",
        "Datasets and cost models (trials):",
        "",
        *[f"- {r.dataset} · {r.cost_model} ({int(r.trials)} trials)" for r in trials.itertuples()],
        "",
        "Algorithms (by family):",
        "",
        *[
            f"- {catalogue.label(a)} (``{a}``, {catalogue.including([a])[a].family})"
            for a in algorithms
        ],
        "",
        "Where to look",
        "-------------",
        "",
        *[f"- {category}: {title} (``{name}``)" for name, title, category in figures],
        "- Tables: ``summary.md`` (mean error per budget, the best in bold) and "
        "``claims.md`` (verdicts and their evidence)",
        "",
    ]
    return "\n".join(lines)
