"""The report's first page (reStructuredText): what ran, the verdicts, the findings, where to
look."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from budgetboost.analysis.findings import pool
from budgetboost.analysis.verdicts import NOT_REPRODUCED, NOT_TESTED, REPRODUCED, UNDECIDED
from budgetboost.analysis.vocabulary import ALL, TOO_FEW_DATASETS, TOO_FEW_TRIALS
from budgetboost.catalogue import Catalogue
from budgetboost.report.escape import for_rst, rst_text
from budgetboost.report.tables import rst_table

__all__ = ["EXPLORE_NAME", "decided_findings", "landing_page", "none_tested"]

#: Outcomes that decide nothing: the run has too few datasets or trials for one.
UNDECIDABLE = (TOO_FEW_DATASETS, TOO_FEW_TRIALS)


def families(catalogue: Catalogue, algorithms: Sequence[str]) -> dict[str, list[str]]:
    """The run's algorithms grouped by family, in the catalogue's order (a family first
    appears where its first member does): one line per family on the first page."""
    grouped: dict[str, list[str]] = {}
    for a in algorithms:
        grouped.setdefault(catalogue.including([a])[a].family, []).append(a)
    return grouped


def decided_findings(findings: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The findings the first page prints (each comparison and band whose row, across
    datasets or on its one dataset, reached an outcome) and one sentence for the rest: the
    tiny run's first page was about 6,000 px of rows that all read "too few datasets". Every
    row stays in ``claims.md`` and ``findings.parquet``."""
    if findings.empty:
        return findings, ""
    rows = findings.assign(pool=pool(findings))
    key = ["question", "x", "y", "pool", "band"]
    across = rows["dataset"] == ALL
    pooled = pd.MultiIndex.from_frame(rows.loc[across, key])
    shown = across | ~pd.MultiIndex.from_frame(rows[key]).isin(pooled)  # as findings_table
    undecidable = shown & rows["outcome"].isin(UNDECIDABLE)
    if not undecidable.any():
        return findings, ""
    counts = rows.loc[undecidable, "outcome"].value_counts()
    parts = [f"{int(counts[o])} {o}" for o in UNDECIDABLE if o in counts]
    dropped = pd.MultiIndex.from_frame(rows.loc[undecidable, key])
    keep = ~pd.MultiIndex.from_frame(rows[key]).isin(dropped)
    sentence = (
        f"Of the {int(shown.sum())} comparisons beyond the paper (each in a budget band), "
        f"{int(undecidable.sum())} cannot be decided on this run ({', '.join(parts)} for an "
        "outcome); their rows are in ``claims.md``."
    )
    return findings[keep].reset_index(drop=True), sentence


def none_tested(claims_table: pd.DataFrame) -> str:
    """The first page's sentence on a run that tests none of the paper's claims (a run
    without the paper's regime, say): that it tests none, and why when every claim says the
    same (its evidence, :func:`budgetboost.analysis.claims.no_paper_regime`'s), so that the
    verdicts read as what the run did not ask, never as claims that failed."""
    reasons = (
        claims_table["evidence"].drop_duplicates() if "evidence" in claims_table.columns else []
    )
    why = f": {rst_text(reasons.iloc[0])}" if len(reasons) == 1 else ""
    return (
        f"This run tests none of the {len(claims_table)} claims of Huang, Powers & Reyzin "
        f"(IJCAI 2015){why}."
    )


def landing_page(
    claims_table: pd.DataFrame,
    summary: pd.DataFrame,
    *,
    catalogue: Catalogue,
    figures: Sequence[tuple[str, str, str]],
    version: str,
    findings: Sequence[str] = (),
    field: Sequence[str] = (),
    undecided: str = "",
    explore: str = "",
) -> str:
    """The report's first page (reStructuredText): what ran, the verdicts, the findings
    beyond the paper, where to look.

    ``figures`` is ``(name, title, category)`` per registered figure; ``claims_table`` is
    :func:`claims_table`'s output, ``summary`` :func:`budgetboost.analysis.summary.summarize`'s;
    ``findings`` the lines of :func:`budgetboost.report.findings.landing_lines` (of the
    rows :func:`decided_findings` keeps; ``undecided`` its sentence for the rest); ``field``
    the sentences of :func:`budgetboost.report.findings.family_sentences` (which family of
    methods wins at small, medium and larger budgets), right under the verdicts; ``explore`` the
    path of the run's interactive page (:mod:`budgetboost.report.explore`), linked by its
    name: it lies beside the report when the report is written into the run's folder.

    Every label, name and title is written literally (:func:`rst_text`), and the page is one
    Jinja2 ``raw`` block inside reStructuredText comments: Snakemake renders the report's
    first page as a Jinja2 template before docutils, and nothing on this page is one.
    """
    catalogue = for_rst(catalogue)
    trials = (
        summary.groupby(["dataset", "cost_model"])["trials"].max().reset_index()
        if not summary.empty
        else pd.DataFrame(columns=["dataset", "cost_model", "trials"])
    )
    algorithms = catalogue.sort(summary["algorithm"]) if not summary.empty else []
    verdicts = claims_table[["claim", "verdict", "statement"]]
    counts = verdicts["verdict"].value_counts()
    tally = (
        f"Huang, Powers & Reyzin (IJCAI 2015) reproduced on {trials['dataset'].nunique()} "
        f"datasets: {counts.get(REPRODUCED, 0)} of {len(verdicts)} claims reproduced, "
        f"{counts.get(NOT_REPRODUCED, 0)} not reproduced, {counts.get(UNDECIDED, 0)} inconclusive"
        + (f", {counts[NOT_TESTED]} not tested by this run." if counts.get(NOT_TESTED) else ".")
    )
    if len(verdicts) and counts.get(NOT_TESTED, 0) == len(verdicts):
        tally = none_tested(claims_table)
    title = "budgetboost: feature-budgeted boosting, reproduced and compared"
    lines = [
        RAW_START,
        "",
        ".. raw:: html",
        "",
        f"   {TOP_ALIGNED}",
        "",
        title,
        "=" * len(title),
        "",
        f"Package version {rst_text(version)}. {tally}",
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
                "Which approach at a test-time budget",
                "------------------------------------",
                "",
                *[line for sentence in field for line in (sentence, "")],
            ]
            if field
            else []
        ),
        *(
            [
                "Beyond the paper and its open questions",
                "---------------------------------------",
                "",
                *([undecided, ""] if undecided else []),
                *(
                    [
                        "Findings (``claims.md``, sections *Beyond the paper* and *Future "
                        "work*; every row: ``findings.parquet``), each comparison across "
                        "datasets per budget band:",
                        "",
                        *findings,
                    ]
                    if findings
                    else []
                ),
            ]
            if findings or undecided
            else []
        ),
        "What ran",
        "--------",
        "",
        "Datasets, their cost models and trials:",
        "",
        *[
            f"- {rst_text(dataset)}: "
            + ", ".join(f"{rst_text(r.cost_model)} ({int(r.trials)})" for r in rows.itertuples())
            for dataset, rows in trials.groupby("dataset", sort=True)
        ],
        "",
        "Algorithms, by family:",
        "",
        *[
            f"- {rst_text(family)}: "
            + ", ".join(f"{catalogue.label(a)} (``{a}``)" for a in members)
            for family, members in families(catalogue, algorithms).items()
        ],
        "",
        "Where to look",
        "-------------",
        "",
        *(
            [
                f"- Interactive: `{EXPLORE_NAME} <{EXPLORE_NAME}>`__ (``{rst_text(explore)}``, "
                "offline in a browser): the curves of any cost model, dataset (or all), band, "
                "reading and methods, each number on hover, and where each family leads",
            ]
            if explore
            else []
        ),
        *[
            f"- {rst_text(category)}: {rst_text(title)} (``{name}``)"
            for name, title, category in figures
        ],
        "- Tables: ``summary.md`` (mean error per budget, the best in bold) and "
        "``claims.md`` (verdicts and their evidence)",
        "",
        RAW_END,
        "",
    ]
    return "\n".join(lines)


#: The interactive page's file name: the first page links it relative to the report.
EXPLORE_NAME = "explore.html"
#: Snakemake's report centres its main page in a box of the window's height, so the top of a
#: page taller than the window lies above the box, where no scrolling reaches (reported
#: upstream as Snakemake's GitHub issue 2782): while the page is shown, its boxes align their
#: content to the top instead.
TOP_ALIGNED = (
    "<style>.items-center.justify-center.h-screen.overflow-auto"
    "{align-items:flex-start !important;justify-content:flex-start !important}</style>"
)
#: The page's first and last lines: a Jinja2 ``raw`` block, in reStructuredText comments (an
#: empty comment once Jinja2 took the tags out; plain docutils skips them).
RAW_START, RAW_END = ".. {% raw %}", ".. {% endraw %}"
