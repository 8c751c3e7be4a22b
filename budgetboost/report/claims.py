"""The claims as text: ``claims.md`` and the report's first page.

:mod:`budgetboost.analysis.claims` reaches the verdicts; this module writes them down: the
verdicts first, then the findings beyond the paper, the rules and thresholds, and per claim
the evidence that decides it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from budgetboost.analysis.claims import claims_table, thresholds_table
from budgetboost.analysis.roles import roles_table
from budgetboost.analysis.verdicts import NOT_TESTED, ClaimResult
from budgetboost.analysis.vocabulary import ALL, ALPHA, TOO_FEW_DATASETS, WORSE
from budgetboost.catalogue import Catalogue
from budgetboost.report.escape import for_markdown
from budgetboost.report.findings import BAND_NAMES, how_findings_read
from budgetboost.report.tables import markdown_table

__all__ = ["claims_markdown", "deciding_evidence"]


#: How many of the closest calls (p nearest ALPHA) claims.md shows per claim, per dataset.
CLOSEST_CALLS = 5
#: How many rows of a claim's other evidence claims.md shows.
SHOWN_ROWS = 10
#: The columns of a claim's rows across datasets that claims.md shows.
ACROSS_COLUMNS = [
    "x",
    "y",
    "band",
    "datasets",
    "trials",
    "mean_difference",
    "hodges_lehmann",
    "ci_low",
    "ci_high",
    "p_wilcoxon",
    "p_holm",
    "p_beyond",
    "p_equivalence",
    "prob_better",
    "prob_equivalent",
    "prob_worse",
    "min_detectable",
    "outcome",
]
#: The columns of a claim's rows per dataset that claims.md shows.
DATASET_COLUMNS = [
    "x",
    "y",
    "dataset",
    "cost_model",
    "band",
    "trials",
    "mean_difference",
    "ci_low",
    "ci_high",
    "p_holm",
    "p_beyond",
    "p_equivalence",
    "min_detectable",
    "outcome",
]


def readable(rows: pd.DataFrame) -> pd.DataFrame:
    """Rows as a reader expects them: bands named as everywhere (small, medium, larger), and
    no posterior probabilities beside an outcome of too few datasets (they would read as
    one)."""
    rows = rows.copy()
    if "band" in rows.columns:
        rows["band"] = rows["band"].map(lambda b: BAND_NAMES.get(b, b))
    if "outcome" in rows.columns:
        short = rows["outcome"] == TOO_FEW_DATASETS
        for column in ("prob_better", "prob_equivalent", "prob_worse"):
            if column in rows.columns:
                rows[column] = rows[column].astype(object).where(~short, "–")
    return rows


def deciding_evidence(detail: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The rows per dataset of a claim's evidence worth showing under its rows across
    datasets, and a sentence counting the rest.

    For comparison rows: every row per dataset whose outcome is ``worse`` and the
    :data:`CLOSEST_CALLS` other rows whose Holm-adjusted p-value is nearest :data:`ALPHA`;
    for other evidence, its first :data:`SHOWN_ROWS` rows.
    """
    if {"outcome", "p_holm", "dataset"} <= set(detail.columns):
        per_dataset = detail[detail["dataset"] != ALL]
        contradicting = per_dataset[per_dataset["outcome"] == WORSE]
        rest = per_dataset.drop(contradicting.index)
        closest = rest.loc[(rest["p_holm"] - ALPHA).abs().sort_values(kind="stable").index]
        closest = closest.head(CLOSEST_CALLS)
        shown = pd.concat([contradicting.assign(why="x worse"), closest.assign(why="closest call")])
        shown = shown[[*DATASET_COLUMNS, "why"]]
        note = (
            f"Per dataset and cost model: {len(contradicting)} rows where x is worse and the "
            f"{len(closest)} closest calls of {len(per_dataset)} rows; the other "
            f"{len(per_dataset) - len(shown)}: "
        )
    else:
        shown = detail.head(SHOWN_ROWS)
        note = f"{len(shown)} of {len(detail)} rows; all: "
    return shown, note + "`claims_evidence.parquet` (column `claim`)."


def _none_tested(results: Sequence[ClaimResult]) -> list[str]:
    """A paragraph for a run that tests no claim, with the reason every claim gives (a run
    without the paper's regime: :func:`budgetboost.analysis.claims.no_paper_regime`)."""
    reasons = {r.evidence for r in results}
    if not results or any(r.verdict != NOT_TESTED for r in results) or len(reasons) != 1:
        return []
    return [f"**This run tests none of the claims**: {reasons.pop()}.", ""]


def claims_markdown(
    results: Sequence[ClaimResult],
    catalogue: Catalogue | None = None,
    findings: Sequence[str] = (),
) -> str:
    """``claims.md``: the verdicts first, then ``findings`` (markdown sections of
    :mod:`budgetboost.report.findings`), then the rules, then per claim the evidence that
    decides it: the rows across datasets its verdict rests on, and the rows per dataset
    under them (all of them in ``claims_evidence.parquet``).

    The evidence names algorithms by role; a table maps each role to this run's algorithm.
    """
    table = claims_table(results)
    catalogue = for_markdown(catalogue if catalogue is not None else Catalogue.default())
    lines = [
        "# The paper's claims on this run",
        "",
        "Huang, Powers & Reyzin (IJCAI 2015), Sections 6–7: each claim checked on this run's "
        "paired results in the paper's regime, with a verdict and the evidence that decides it.",
        "",
        *_none_tested(results),
        "## Verdicts",
        "",
        markdown_table(table[["claim", "verdict", "statement"]]),
        "",
        *findings,
        "## How a verdict is reached",
        "",
        "Claims 1, 2, 3a, 4a and 5 compare the paper's algorithms and are decided across "
        "datasets, by the rule printed with each in the table below. "
        + how_findings_read()
        + " Claims 3b, 4b and 6 rest on spent budgets, stump choices and budgets to match, "
        "each with its threshold below.",
        "",
        "### Thresholds and rules",
        "",
        markdown_table(thresholds_table()),
        "",
        "### Roles",
        "",
        "The claims name the paper's algorithms by role; in this run:",
        "",
        markdown_table(roles_table(catalogue)),
        "",
    ]
    for r in results:
        lines += [f"## Claim {r.claim}: {r.verdict}", "", f"*{r.statement}*", "", r.evidence, ""]
        if not r.deciding.empty:
            lines += [
                "Across datasets (the verdict rests on these rows):",
                "",
                markdown_table(readable(r.deciding[ACROSS_COLUMNS])),
                "",
            ]
        if not r.detail.empty:
            shown, note = deciding_evidence(r.detail)
            lines += [note, ""]
            if not shown.empty:
                lines += [markdown_table(readable(shown)), ""]
    return "\n".join(lines)
