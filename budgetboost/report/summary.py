"""``summary.md``: the terminal-readable summary of a run.

Per (dataset, cost model) the budget x algorithm table of mean test error with its 95 %
interval (the best mean in bold, the means not significantly worse marked), the budget at
which each algorithm matches the unbudgeted reference, what test-time sampling paid per
example, the algorithms run on fewer trials, the paper's boosters against the peers and the
trade-offs chosen on validation parts.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetboost.analysis.results import Results
from budgetboost.analysis.summary import with_names
from budgetboost.analysis.vocabulary import (
    ALL,
    CONFIDENCE,
    EQUIVALENCE_MARGIN,
    MIN_INTERVAL_TRIALS,
    OUTCOMES,
)
from budgetboost.catalogue import Catalogue
from budgetboost.report.escape import for_markdown
from budgetboost.report.findings import findings_table, where_findings_read
from budgetboost.report.tables import markdown_table

__all__ = ["error_table", "summary_markdown"]


def error_table(
    summary: pd.DataFrame,
    dataset: str,
    cost_model: str,
    catalogue: Catalogue | None = None,
) -> pd.DataFrame:
    """Budget × algorithm table of ``mean ± CI half-width`` for one dataset and cost model.

    Columns are the algorithms' labels, in catalogue order; the lowest mean of each finite
    budget is in bold (a description: which differences are real is the comparisons' to
    say, per budget band). A mean over fewer than :data:`MIN_INTERVAL_TRIALS` trials is
    printed alone: its interval would say nothing (``0.268 ± 1.489`` over two trials).
    """
    part = summary[(summary["dataset"] == dataset) & (summary["cost_model"] == cost_model)]
    catalogue = with_names(catalogue, part["algorithm"])
    shown = part["ci_half"].notna() & (part["trials"] >= MIN_INTERVAL_TRIALS)
    cell = part["error_mean"].map("{:.3f}".format) + np.where(
        shown, " ± " + part["ci_half"].map("{:.3f}".format), ""
    )
    finite = np.isfinite(part["budget"].to_numpy())
    best = part[finite].groupby("budget")["error_mean"].transform("min")
    is_best = pd.Series(False, index=part.index)
    is_best[best.index] = part.loc[best.index, "error_mean"] == best
    cell = cell.where(~is_best, BEST_MARK + cell + BEST_MARK)
    wide = (
        part.assign(cell=cell)
        .pivot(index="budget", columns="algorithm", values="cell")
        .reindex(columns=catalogue.sort(part["algorithm"]))
        .fillna("")
    )
    wide.index = [("inf" if np.isinf(b) else f"{b:g}") for b in wide.index]
    wide.columns = [catalogue.label(name) for name in wide.columns]
    return wide.rename_axis("budget").reset_index()


#: Mark of :func:`error_table`: the lowest mean of a budget.
BEST_MARK = "**"


def summary_markdown(results: Results, catalogue: Catalogue | None = None) -> str:
    """The terminal-readable ``summary.md``: error tables, budget to match, RS costs, the
    algorithms run on fewer trials, the peers' findings, the trade-offs chosen, and how the
    paired comparisons came out.

    Algorithms appear under their catalogue labels, in catalogue order.
    """
    summary, matches = results.summary, results.budget_to_match
    catalogue = with_names(catalogue, summary["algorithm"] if not summary.empty else [])
    catalogue = for_markdown(catalogue)  # labels are the config's text: literal Markdown
    lines = [
        "# Results summary",
        "",
        f"Test error: mean ± half-width of the {CONFIDENCE:.0%} Student-t confidence "
        "interval over trials, about the dataset's population: its variance is the corrected "
        "resampled one (the trials split one finite sample; `docs/design.md`). Budget `inf` "
        "is the unbudgeted AdaBoost reference. "
        f"A mean over fewer than {MIN_INTERVAL_TRIALS} trials is printed without an interval "
        "(on one degree of freedom its critical value is 12.7: it would say nothing). "
        "**Bold**: the lowest mean at that budget (a description; the comparisons below, and "
        "`claims.md`, say which differences are real).",
        "",
    ]
    if summary.empty:
        return "\n".join([*lines, "No result shards.", ""])

    def labelled(df: pd.DataFrame) -> pd.DataFrame:
        return df.assign(algorithm=df["algorithm"].map(catalogue.label))

    trials = summary.groupby(["dataset", "cost_model"])["trials"].agg(["min", "max"])
    for (dataset, cost_model), (tmin, tmax) in trials.iterrows():
        count = f"{tmin}" if tmin == tmax else f"{tmin}–{tmax}"
        lines += [
            f"## {dataset} · {cost_model} ({count} trials)",
            "",
            markdown_table(error_table(summary, dataset, cost_model, catalogue)),
            "",
        ]
    if not matches.empty:
        lines += [
            "## Budget to match AdaBoost",
            "",
            "Smallest budget at which the algorithm reaches the unbudgeted AdaBoost "
            "reference: its error, paired by trial with the reference's, is at most "
            f"{EQUIVALENCE_MARGIN} above it (the one-sided 95 % upper bound of the paired "
            "difference, about the dataset's population; – never).",
            "",
            markdown_table(
                labelled(matches)[
                    [
                        "dataset",
                        "cost_model",
                        "algorithm",
                        "reference_error",
                        "match_budget",
                        "error_at_match",
                        "upper_at_match",
                    ]
                ]
            ),
            "",
        ]
    rs = summary[summary["algorithm"].isin(catalogue.of_family("sampling"))]
    if not rs.empty:
        lines += [
            "## AdaBoostRS: cost paid per test example",
            "",
            markdown_table(
                labelled(rs)[
                    [
                        "dataset",
                        "cost_model",
                        "algorithm",
                        "budget",
                        "example_cost_mean",
                        "example_cost_max",
                        "n_features_mean",
                    ]
                ]
            ),
            "",
        ]
    lines += _capped_trials(summary, catalogue)
    lines += _against_peers(results.findings, catalogue)
    lines += _chosen_tradeoffs(summary, catalogue)
    comparisons = results.comparisons
    if not comparisons.empty:
        counts = (
            comparisons[comparisons["dataset"] != ALL]
            .groupby("question", sort=False)["outcome"]
            .value_counts()
            .unstack(fill_value=0)
            .reindex(columns=list(OUTCOMES), fill_value=0)
            .reset_index()
        )
        lines += [
            "## Paired comparisons",
            "",
            "Rows per (comparison, dataset, cost model, budget band) by outcome, per question "
            "(`claim ...`: the claims' comparisons; `control`: each algorithm against "
            "Smoothed). Every row: `comparisons.parquet`; the rule: `claims.md`.",
            "",
            markdown_table(counts),
            "",
        ]
    return "\n".join(lines)


def _capped_trials(summary: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """A note naming the algorithms run on fewer trials than the others (config ``trials``)."""
    counts = summary.groupby(["dataset", "cost_model", "algorithm"], sort=False)["trials"].max()
    most = counts.groupby(level=["dataset", "cost_model"]).transform("max")
    fewer = counts[counts < most].reset_index()
    if fewer.empty:
        return []
    lines = [
        "## Algorithms run on fewer trials",
        "",
        "These ran on the first trials of each dataset only (the `trials` key of their "
        "config entry or of the cost model's), so they pair with the others' same trials; "
        "their intervals are wider and their paired tests rest on these trials.",
        "",
    ]
    for name, part in fewer.groupby("algorithm", sort=False):
        values = sorted(set(part["trials"]))
        shown = ", ".join(map(str, values))
        lines.append(f"- {catalogue.label(name)}: {shown} trials per dataset")
    return [*lines, ""]


def _against_peers(findings: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """The paper's boosters against the peers: the findings' rows (the same table as
    ``claims.md`` and the report's first page read)."""
    rows = findings[findings["question"] == "peers"]
    if rows.empty:
        return []
    table = findings_table(rows, catalogue)
    return [
        "## The paper's boosters against the peers",
        "",
        where_findings_read("`"),
        "",
        markdown_table(table) if not table.empty else "Too few datasets for a test across them.",
        "",
        "Per dataset and cost model: `findings.parquet`; `claims.md`, *Beyond the paper*.",
        "",
    ]


def _chosen_tradeoffs(summary: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """The trade-offs chosen on validation parts (the peers, the cost-sensitive tree), at a
    few budgets."""
    chosen = summary[summary["tradeoff_median"].notna() & np.isfinite(summary["budget"])]
    if chosen.empty:
        return []
    rows = []
    for (dataset, cost_model, name), part in chosen.groupby(
        ["dataset", "cost_model", "algorithm"], sort=False
    ):
        part = part.sort_values("budget")
        picks = part.iloc[np.unique(np.linspace(0, len(part) - 1, 4).round().astype(int))]
        rows.append(
            {
                "dataset": dataset,
                "cost_model": cost_model,
                "algorithm": catalogue.label(name),
                "median trade-off at budgets": ", ".join(
                    f"{b:g}: {t:.3g}"
                    for b, t in zip(picks["budget"], picks["tradeoff_median"], strict=True)
                ),
            }
        )
    return [
        "## Chosen trade-offs",
        "",
        "Median over trials of the trade-off (LightGBM `cegb_tradeoff`, CatBoost "
        "`penalties_coefficient`, the cost-sensitive tree's lambda) each algorithm chose on "
        "the validation part of the training rows, at four budgets of the grid; every "
        "budget: `tradeoff_median` in `summary.parquet`.",
        "",
        markdown_table(pd.DataFrame(rows)),
        "",
    ]
