"""The findings as text: the sections of ``claims.md`` and ``summary.md``, the tables of the
report's first page. Every one reads the findings table (``results/summary/findings.parquet``,
:mod:`budgetboost.analysis.findings`): one count, one rule.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from budgetboost.analysis.field import family_verdicts
from budgetboost.analysis.findings import QUESTIONS, pool, protocol, tally
from budgetboost.analysis.vocabulary import (
    ALL,
    ALPHA,
    EQUIVALENCE_MARGIN,
    EQUIVALENT,
    MIN_DATASETS,
    MIN_TRIALS,
    OUTCOMES,
    PROBABILITY,
    TOO_FEW_DATASETS,
)
from budgetboost.pipeline.catalogue import FAMILY_NAMES, Catalogue
from budgetboost.report.escape import for_markdown, for_rst
from budgetboost.report.tables import markdown_table, rst_table

__all__ = [
    "TITLES",
    "family_sentences",
    "findings_sections",
    "findings_table",
    "how_findings_read",
    "landing_lines",
]

#: Each question's title, in the order of :data:`budgetboost.analysis.findings.QUESTIONS`.
TITLES = {
    "field": "The field's methods against the paper's boosters, the library peers and each other",
    "peers": "The paper's boosters against the library peers (as published, and tuned)",
    "tuning": "What tuning on a validation part does to the paper's boosters",
    "trees": "Boosting depth-2 trees against stumps, same criterion (Section 8)",
    "costs": "Each algorithm under the open questions' cost models against U[0, 2] (Section 8)",
}
BAND_NAMES = {"small": "small", "medium": "medium", "large": "larger", "all": "all"}


def how_findings_read() -> str:
    """The rule every finding follows, in one paragraph."""
    return (
        "Each comparison is decided across datasets, the datasets being the unit: one value "
        "per dataset, its mean paired difference x − y in the budget band (small: the lowest "
        "third of the grid, medium: the middle, larger: the highest; a dataset under several "
        "cost models counts "
        "once, with their mean); the difference across datasets is their Hodges–Lehmann "
        "median with the 95 % interval of the Wilcoxon signed-rank test (exact, Holm over the "
        f"comparison's bands at {ALPHA}: an interval clear of 0 beside a Holm p above {ALPHA} "
        "is significant alone, not after Holm), beside the Bayesian signed-rank test with a "
        "region of "
        f"practical equivalence of ±{EQUIVALENCE_MARGIN}: P(x better / equivalent / y "
        "better). Outcomes, x against y: *better* / *worse* (Wilcoxon significant, x's error "
        f"lower / higher), *equivalent* (P(equivalent) ≥ {PROBABILITY}; a significant "
        "difference inside the margin is shown beside it), *inconclusive* (neither: the "
        f"tests could not tell), *too few datasets* (fewer than {MIN_DATASETS}). Under it, "
        "one row per dataset and cost model: the trials of a dataset split one finite sample, "
        "so each row is tested about the dataset's population with the corrected resampled "
        "t-test (Nadeau & Bengio 2003; its interval, test and two one-sided tests of "
        f"equivalence within ±{EQUIVALENCE_MARGIN} share one variance; Holm over the rows), "
        f"*too few trials* with fewer than {MIN_TRIALS} trials or when the test could not "
        "detect even the largest possible difference (equal differences alone never make "
        "*equivalent*). "
        "`min detectable`: the smallest difference the test detects with 80 % power (∞: "
        "it cannot reach the level). *Tuned*: chose its trade-off and the size of its model on "
        "a validation part of the training rows, then refit on all of them; *as published*: "
        "the paper's rule (tau = 1, the longest affordable prefix)."
    )


def _interval(row: pd.Series) -> str:
    """The difference with its interval: per dataset the mean, across datasets the
    Hodges-Lehmann estimate with the interval of the signed-rank test (``±∞``: a bound the
    test cannot reach with so few datasets)."""
    across = row["dataset"] == ALL
    centre = row["hodges_lehmann"] if across else row["mean_difference"]
    if math.isnan(row["ci_low"]) and math.isnan(row["ci_high"]):
        return f"{centre:+.3f}"

    def bound(value: float, side: str) -> str:
        return f"{side}∞" if math.isnan(value) else f"{value:+.3f}"

    return f"{centre:+.3f} [{bound(row['ci_low'], '−')}, {bound(row['ci_high'], '+')}]"


def _detectable(value: float) -> str:
    return "∞" if math.isinf(value) else f"{value:.3f}"


def _outcome(row: pd.Series) -> str:
    """The outcome, with the significance of a difference inside the margin beside it."""
    if row["outcome"] == EQUIVALENT and row["p_holm"] < ALPHA:
        side = "x lower" if row["mean_difference"] < 0 else "x higher"
        return f"{EQUIVALENT} ({side}, p {row['p_holm']:.2g})"
    return str(row["outcome"])


def _probabilities(row: pd.Series) -> str:
    if math.isnan(row["prob_better"]) or row["outcome"] == TOO_FEW_DATASETS:
        return "–"  # no outcome: its probabilities would read as one
    return f"{row['prob_better']:.2f} / {row['prob_equivalent']:.2f} / {row['prob_worse']:.2f}"


def _who(name: str, catalogue: Catalogue) -> str:
    """The label and the protocol, unless the label says it already ("Smoothed, tuned")."""
    label, how = catalogue.label(name), protocol(catalogue, name)
    return label if how in label.lower() else f"{label} ({how})"


def _per_dataset(counts: pd.Series | None) -> str:
    if counts is None:
        return "–"
    return " / ".join(str(int(counts[o])) for o in OUTCOMES)


def findings_table(rows: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """One line per (comparison, band): the outcome across datasets with its difference,
    interval, Wilcoxon p and Bayesian probabilities, the per-dataset outcomes counted,
    trials and power; a comparison that ran on one dataset only (no test across datasets)
    gets that dataset's row instead."""
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
                "outcome": _outcome(row),
                "datasets": int(row["datasets"]) if n is not None else row["dataset"],
                "Wilcoxon p (Holm)": (
                    f"{row['p_holm']:.3g}"
                    if n is not None and not math.isnan(row["p_holm"])
                    else "–"
                ),
                "P(better / equiv. / worse)": _probabilities(row),
                f"per dataset ({' / '.join(OUTCOMES)})": _per_dataset(n),
                "trials": int(n["trials"]) if n is not None else int(row["trials"]),
                "min detectable": _detectable(row["min_detectable"]),
            }
        )
    return pd.DataFrame(lines)


def _against(row: pd.Series, catalogue: Catalogue) -> str:
    return f"{_interval(row)} against {catalogue.label(row['y'])}"


def family_sentences(findings: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """Which family of methods wins at small and at larger budgets, a sentence each
    (:func:`budgetboost.analysis.field.family_verdicts`), with the differences across
    datasets (x's error minus the other's: Hodges-Lehmann with its 95 % interval); none when
    no family faced another."""
    sentences = []
    for verdict in family_verdicts(findings, catalogue):
        rows = verdict.rows
        if verdict.method is None or rows.empty:
            continue
        budgets = f"At {BAND_NAMES[verdict.band]} budgets"
        name = catalogue.label(verdict.method)
        datasets = int(rows["datasets"].max())
        if verdict.family is not None:
            least, most = rows.iloc[-1], rows.iloc[0]
            by = _against(least, catalogue)
            if len(rows) > 1:
                by += f" to {_against(most, catalogue)}"
            sentences.append(
                f"{budgets}, {FAMILY_NAMES.get(verdict.family, verdict.family)} wins: {name} "
                f"has a lower error than every method of the other families across "
                f"{datasets} datasets, by {by} (its error minus theirs, with 95 % intervals)."
            )
            continue
        if (rows["outcome"] == TOO_FEW_DATASETS).all():
            sentences.append(
                f"{budgets}, too few datasets ({datasets}; an outcome needs {MIN_DATASETS}) "
                "to tell which family wins."
            )
            continue
        beaten = rows[rows["outcome"] == "better"]
        rest = rows[rows["outcome"] != "better"]
        undecided = "; ".join(
            f"{row['outcome']} against {catalogue.label(row['y'])}, {_interval(row)}"
            for _, row in rest.iterrows()
        )
        family = FAMILY_NAMES.get(catalogue.including([verdict.method])[verdict.method].family)
        sentences.append(
            f"{budgets}, no family wins: the closest, {name} ({family}), has a lower error "
            f"than {len(beaten)} of the {len(rows)} methods of other families across "
            f"{datasets} datasets, but not than the rest ({undecided})."
        )
    return sentences


def findings_sections(findings: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """The sections of ``claims.md`` on the field's question (which family wins, a sentence
    per band, then the rows), ``## Beyond the paper`` and ``## Future work``."""
    catalogue = for_markdown(catalogue)
    field, beyond, future = ["field"], ["peers", "tuning"], ["trees", "costs"]
    sections = []
    for title, questions in (
        ("Which approach at a test-time budget: the field", field),
        ("Beyond the paper: the library peers", beyond),
        ("Future work: the paper's open questions (Section 8)", future),
    ):
        if questions == field and findings[findings["question"] == "field"].empty:
            continue
        lines = [f"## {title}", ""]
        if questions == field:
            lines += [*family_sentences(findings, catalogue), ""]
        # the rule is printed once, under "How a verdict is reached" (claims_markdown)
        lines += ["Each row reads as *How a verdict is reached* says, below.", ""]
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
