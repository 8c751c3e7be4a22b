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

from budgetboost.analysis.paired import oriented
from budgetboost.analysis.summary import ALPHA, CONFIDENCE, with_names
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report.tables import markdown_table

__all__ = ["error_table", "summary_markdown"]


def error_table(
    summary: pd.DataFrame,
    dataset: str,
    cost_model: str,
    catalogue: Catalogue | None = None,
    comparisons: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Budget × algorithm table of ``mean ± CI half-width`` for one dataset and cost model.

    Columns are the algorithms' labels, in catalogue order. With ``comparisons``
    (:func:`paired_comparisons`), the lowest mean of each budget is in bold and every other
    algorithm not significantly worse than it (Holm-adjusted Wilcoxon p >= 0.05 over the
    paired trials) is marked ``†``, so a reader sees at a glance who wins and who ties.
    """
    part = summary[(summary["dataset"] == dataset) & (summary["cost_model"] == cost_model)]
    catalogue = with_names(catalogue, part["algorithm"])
    cell = part["error_mean"].map("{:.3f}".format) + np.where(
        part["ci_half"].notna(), " ± " + part["ci_half"].map("{:.3f}".format), ""
    )
    if comparisons is not None:
        cell = _marked(part, cell, comparisons)
    wide = (
        part.assign(cell=cell)
        .pivot(index="budget", columns="algorithm", values="cell")
        .reindex(columns=catalogue.sort(part["algorithm"]))
        .fillna("")
    )
    wide.index = [("inf" if np.isinf(b) else f"{b:g}") for b in wide.index]
    wide.columns = [catalogue.label(name) for name in wide.columns]
    return wide.rename_axis("budget").reset_index()


#: Marks of :func:`error_table`: the best mean, and the means not significantly worse.
BEST_MARK, TIED_MARK = "**", " †"


def _marked(part: pd.DataFrame, cell: pd.Series, comparisons: pd.DataFrame) -> pd.Series:
    """``cell`` with the best mean of each finite budget bold and its ties marked."""
    finite = part[np.isfinite(part["budget"])]
    if finite.empty:
        return cell
    best = finite.loc[finite.groupby("budget")["error_mean"].idxmin(), ["budget", "algorithm"]]
    best = best.rename(columns={"algorithm": "best"})
    c = comparisons[
        (comparisons["dataset"] == part["dataset"].iloc[0])
        & (comparisons["cost_model"] == part["cost_model"].iloc[0])
    ]
    pairs = pd.concat(
        [
            c.rename(columns={"algorithm_a": "best", "algorithm_b": "algorithm"}),
            c.rename(columns={"algorithm_b": "best", "algorithm_a": "algorithm"}),
        ]
    )
    ties = pairs.merge(best, on=["budget", "best"])
    ties = ties[ties["p_holm"] >= ALPHA][["budget", "algorithm"]].assign(tied=True)
    flags = (
        part[["budget", "algorithm"]]
        .merge(best, on="budget", how="left")
        .merge(ties, on=["budget", "algorithm"], how="left")
    )
    is_best = (flags["algorithm"] == flags["best"]).to_numpy()
    is_tied = flags["tied"].eq(True).to_numpy()
    values = cell.to_numpy(dtype=object)
    out = np.where(
        is_best, BEST_MARK + values + BEST_MARK, np.where(is_tied, values + TIED_MARK, values)
    )
    return pd.Series(out, index=cell.index)


def summary_markdown(
    summary: pd.DataFrame,
    matches: pd.DataFrame,
    comparisons: pd.DataFrame,
    catalogue: Catalogue | None = None,
) -> str:
    """The terminal-readable ``summary.md``: error tables, budget to match, RS costs.

    Algorithms appear under their catalogue labels, in catalogue order.
    """
    catalogue = with_names(catalogue, summary["algorithm"] if not summary.empty else [])
    lines = [
        "# Results summary",
        "",
        f"Test error: mean ± half-width of the {CONFIDENCE:.0%} Student-t confidence "
        "interval over trials. Budget `inf` is the unbudgeted AdaBoost reference. "
        "**Bold**: the lowest mean at that budget; †: not significantly worse than it "
        f"(paired trials, Holm-adjusted Wilcoxon p >= {ALPHA}).",
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
            markdown_table(error_table(summary, dataset, cost_model, catalogue, comparisons)),
            "",
        ]
    if not matches.empty:
        lines += [
            "## Budget to match AdaBoost",
            "",
            "Smallest budget at which the mean error is at or below the upper end of "
            "the unbudgeted AdaBoost reference's confidence interval (– never).",
            "",
            markdown_table(
                labelled(matches)[
                    [
                        "dataset",
                        "cost_model",
                        "algorithm",
                        "reference_error",
                        "reference_ci_high",
                        "match_budget",
                        "error_at_match",
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
    lines += _against_peers(comparisons, catalogue)
    lines += _chosen_tradeoffs(summary, catalogue)
    if not comparisons.empty:
        sig = comparisons[comparisons["p_holm"] < ALPHA]
        lines += [
            "## Paired comparisons",
            "",
            f"{len(comparisons)} (budget, pair) cells; {len(sig)} with Holm-adjusted "
            "Wilcoxon p < 0.05. Full table: `comparisons.parquet`.",
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


def _against_peers(comparisons: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """Smoothed and Greedy against each peer: budgets significantly better / tied / worse."""
    peers = catalogue.of_family("peer")
    columns: dict[str, pd.Series] = {}
    for x in catalogue.peer_opponents():
        for y in peers:
            cells = oriented(comparisons, [x], [y])
            cells = cells[np.isfinite(cells["budget"])]
            if cells.empty:
                continue
            significant = cells["p_holm"] < ALPHA
            flags = pd.DataFrame(
                {
                    "dataset": cells["dataset"],
                    "cost_model": cells["cost_model"],
                    "better": significant & (cells["diff"] < 0),
                    "worse": significant & (cells["diff"] > 0),
                    "tied": ~significant,
                }
            )
            counts = flags.groupby(["dataset", "cost_model"]).sum()
            columns[f"{catalogue.label(x)} vs {catalogue.label(y)}"] = (
                counts["better"].astype(str)
                + " / "
                + counts["tied"].astype(str)
                + " / "
                + counts["worse"].astype(str)
            )
    if not columns:
        return []
    table = pd.DataFrame(columns).fillna("–").reset_index()
    return [
        "## Smoothed and Greedy against the peers",
        "",
        "Budgets where the booster's paired test error is significantly lower / not "
        f"significantly different / significantly higher than the peer's (Holm-adjusted "
        f"Wilcoxon p < {ALPHA}), on the trials both ran. Per band and dataset counts: "
        "`claims.md`, section *Beyond the paper*.",
        "",
        markdown_table(table),
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
