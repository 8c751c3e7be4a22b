"""The findings as text: the sections of ``claims.md`` and ``summary.md``, the tables of the
report's first page. Every one reads the findings table (``results/summary/findings.parquet``,
:mod:`budgetboost.analysis.findings`): one count, one rule.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from budgetboost.analysis.findings import QUESTIONS, pool, protocol, tally
from budgetboost.analysis.paired import ALL, EQUIVALENCE_MARGIN
from budgetboost.analysis.significance import ALPHA, BETTER, EQUIVALENT, INCONCLUSIVE, WORSE
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report.escape import for_markdown, for_rst
from budgetboost.report.tables import markdown_table, rst_table

__all__ = [
    "TITLES",
    "findings_sections",
    "findings_table",
    "how_findings_read",
    "landing_lines",
]

#: Each question's title, in the order of :data:`budgetboost.analysis.findings.QUESTIONS`.
TITLES = {
    "peers": "The paper's boosters against the library peers (as published, and tuned)",
    "tuning": "What tuning on a validation part does to the paper's boosters",
    "trees": "Boosting depth-2 trees against stumps, same criterion (Section 8)",
    "costs": "Each algorithm under the open questions' cost models against U[0, 2] (Section 8)",
}
BAND_NAMES = {"small": "small", "medium": "medium", "large": "larger", "all": "all"}


def how_findings_read() -> str:
    """The rule every finding follows, in one paragraph."""
    return (
        "One test per (comparison, dataset, cost model, budget band): each trial's test "
        "error averaged over the band's budgets (small: the lowest third of the grid, larger: "
        "the highest), paired by trial (same split, same costs), the exact sign-flip "
        f"permutation test, Holm over the rows of the comparison at {ALPHA}. Outcomes, x "
        "against y: *better* / *worse* (significantly lower / higher error), *equivalent* "
        f"(two one-sided tests: the difference lies within ±{EQUIVALENCE_MARGIN}), "
        "*inconclusive* (neither: the test could not tell). Each row gives the mean paired "
        "difference x − y with its 95 % interval and the smallest difference its test "
        "detects with 80 % power (`min_detectable`; ∞: too few trials). Across datasets: the "
        "same tests over the (dataset, cost model) pairs. *Tuned*: chose its trade-off and "
        "the size of its model on a validation part of the training rows, then refit on all "
        "of them; *as published*: the paper's rule (tau = 1, the longest affordable prefix)."
    )


def _interval(row: pd.Series) -> str:
    if math.isnan(row["ci_low"]):
        return f"{row['mean_difference']:+.3f}"
    return f"{row['mean_difference']:+.3f} [{row['ci_low']:+.3f}, {row['ci_high']:+.3f}]"


def _detectable(value: float) -> str:
    return "∞" if math.isinf(value) else f"{value:.3f}"


def _who(name: str, catalogue: Catalogue) -> str:
    return f"{catalogue.label(name)} ({protocol(catalogue, name)})"


def findings_table(rows: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """One line per (comparison, band): the outcome across datasets with its interval, the
    per-dataset outcomes counted, trials and power; a comparison that ran on one dataset
    only (no test across datasets) gets that dataset's row instead."""
    counts = tally(rows, catalogue).set_index(["question", "x", "y", "pool", "band"])
    rows = rows.assign(pool=pool(rows))
    across = rows[rows["dataset"] == ALL]
    pooled = {(r.question, r.x, r.y, r.band, r.pool) for r in across.itertuples()}
    lonely = [
        r.dataset != ALL and (r.question, r.x, r.y, r.band, r.pool) not in pooled
        for r in rows.itertuples()
    ]
    alone = rows[np.array(lonely, dtype=bool)]
    lines = []
    for _, row in pd.concat([across, alone]).iterrows():
        key = (row["question"], row["x"], row["y"], row["pool"], row["band"])
        n = counts.loc[key] if row["dataset"] == ALL and key in counts.index else None
        if row["question"] == "costs":
            comparison = f"{catalogue.label(row['x'])}: {row['cost_model']} vs U[0, 2]"
        else:
            comparison = f"{_who(row['x'], catalogue)} vs {_who(row['y'], catalogue)}"
        lines.append(
            {
                "comparison": comparison,
                "budgets": BAND_NAMES.get(row["band"], row["band"]),
                "difference [95% CI]": _interval(row),
                "outcome": row["outcome"],
                "datasets": int(row["trials"]) if n is not None else row["dataset"],
                "per dataset (better/equiv./inconcl./worse)": (
                    "–"
                    if n is None
                    else f"{n[BETTER]} / {n[EQUIVALENT]} / {n[INCONCLUSIVE]} / {n[WORSE]}"
                ),
                "trials": int(n["trials"]) if n is not None else int(row["trials"]),
                "min detectable": _detectable(row["min_detectable"]),
            }
        )
    return pd.DataFrame(lines)


def findings_sections(findings: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """The ``## Beyond the paper`` and ``## Future work`` sections of ``claims.md``."""
    catalogue = for_markdown(catalogue)
    beyond, future = ["peers", "tuning"], ["trees", "costs"]
    sections = []
    for title, questions in (
        ("Beyond the paper: the library peers", beyond),
        ("Future work: the paper's open questions (Section 8)", future),
    ):
        lines = [f"## {title}", "", how_findings_read(), ""]
        for question in questions:
            rows = findings[findings["question"] == question]
            lines += [f"### {TITLES[question]}", ""]
            if rows.empty:
                lines += ["No such comparison ran in this run.", ""]
                continue
            lines += [markdown_table(findings_table(rows, catalogue)), ""]
        lines.append("Every row, per dataset and cost model: `findings.parquet`.")
        sections.append("\n".join([*lines, ""]))
    return sections


def landing_lines(findings: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """The findings as reStructuredText tables for the report's first page: per question,
    one row per comparison and band with the difference across datasets, its interval, the
    outcome, the per-dataset outcomes and the protocol each side had."""
    catalogue = for_rst(catalogue)
    lines: list[str] = []
    for question in QUESTIONS:
        rows = findings[findings["question"] == question] if not findings.empty else findings
        if rows.empty:
            continue
        table = findings_table(rows, catalogue)
        if table.empty:
            continue
        lines += [f"{TITLES[question]}:", "", rst_table(table), ""]
    if lines:
        lines = [how_findings_read(), "", *lines]
    return lines
