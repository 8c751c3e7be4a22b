"""The claims as text: ``claims.md`` and the report's first page.

:mod:`budgetboost.analysis.claims` reaches the verdicts; this module writes them down: the
verdicts first, then the findings beyond the paper, the rules and thresholds, and per claim
the evidence that decides it.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from budgetboost.analysis.claims import (
    ALPHA,
    ClaimResult,
    claims_table,
    roles_table,
    thresholds_table,
)
from budgetboost.analysis.significance import WORSE
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report.escape import for_markdown
from budgetboost.report.findings import how_findings_read
from budgetboost.report.tables import markdown_table

__all__ = ["claims_markdown", "deciding_evidence"]


#: How many of the closest calls (p nearest ALPHA) claims.md shows per directional claim.
CLOSEST_CALLS = 5
#: How many rows of a non-directional claim's evidence claims.md shows.
SHOWN_ROWS = 10


def deciding_evidence(detail: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The rows of a claim's evidence that decide it, and a sentence counting the rest.

    For the comparison rows of a claim: every contradicting row (outcome ``worse``) and the
    :data:`CLOSEST_CALLS` other rows whose Holm-adjusted p-value is nearest :data:`ALPHA`;
    for other evidence, its first :data:`SHOWN_ROWS` rows.
    """
    if {"outcome", "p_holm"} <= set(detail.columns):
        contradicting = detail[detail["outcome"] == WORSE]
        rest = detail.drop(contradicting.index)
        closest = rest.loc[(rest["p_holm"] - ALPHA).abs().sort_values(kind="stable").index]
        closest = closest.head(CLOSEST_CALLS)
        shown = pd.concat(
            [contradicting.assign(why="contradicts"), closest.assign(why="closest call")]
        )
        shown = shown.drop(columns=[c for c in ("question",) if c in shown.columns])
        note = (
            f"{len(contradicting)} contradicting rows and the {len(closest)} closest calls "
            f"of {len(detail)} rows; the other {len(detail) - len(shown)}: "
        )
    else:
        shown = detail.head(SHOWN_ROWS)
        note = f"{len(shown)} of {len(detail)} rows; all: "
    return shown, note + "`claims_evidence.parquet` (column `claim`)."


def claims_markdown(
    results: Sequence[ClaimResult],
    catalogue: Catalogue | None = None,
    findings: Sequence[str] = (),
) -> str:
    """``claims.md``: the verdicts first, then ``findings`` (markdown sections of
    :mod:`budgetboost.analysis.findings`), then the rules, then per claim the evidence that decides
    it (the full evidence is in ``claims_evidence.parquet``).

    The evidence names algorithms by role; a table maps each role to this run's algorithm.
    """
    table = claims_table(results)
    catalogue = for_markdown(catalogue if catalogue is not None else Catalogue.default())
    lines = [
        "# The paper's claims on this run",
        "",
        "Huang, Powers & Reyzin (IJCAI 2015), Sections 6–7: each claim checked on this run's "
        "paired results, with a verdict and the evidence that decides it.",
        "",
        "## Verdicts",
        "",
        markdown_table(table[["claim", "verdict", "statement"]]),
        "",
        *findings,
        "## How a verdict is reached",
        "",
        'A claim "X beats Y" reads the rows of its comparisons, one per (X vs Y, dataset, '
        "cost model, budget band): "
        + how_findings_read()
        + " A row *supports* the claim if its outcome is *better*, *contradicts* it if "
        "*worse*. Reproduced: supported share >= min_supported and contradicted share <= "
        "max_contradicted. Not reproduced: contradicted share > max_contradicted or the "
        "share of rows where X is better by mean < min_direction. Otherwise inconclusive. "
        "Claim 4a counts the *equivalent* rows.",
        "",
        "### Thresholds",
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
        if not r.detail.empty:
            shown, note = deciding_evidence(r.detail)
            shown = shown.drop(columns=[c for c in ("p_value",) if c in shown.columns])
            lines += [note, ""]
            if not shown.empty:
                lines += [markdown_table(shown), ""]
    return "\n".join(lines)
