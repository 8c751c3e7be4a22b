"""The findings beyond the paper as text: the sections of ``claims.md`` and the tables of the
report's first page (:mod:`budgetboost.analysis.findings` holds the counts)."""

from __future__ import annotations

import pandas as pd

from budgetboost.analysis import claims
from budgetboost.analysis.findings import BANDS, BETTER, TIED, WORSE, rise_table, tally
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report.tables import markdown_table, rst_table

__all__ = ["future_work_section", "head_to_head_markdown", "landing_lines", "peers_section"]

#: How the bands read in tables.
BAND_NAMES = {"small": "small", "large": "larger"}


def head_to_head_markdown(counts: pd.DataFrame, catalogue: Catalogue | None = None) -> str:
    """A table of :func:`tally`'s counts under catalogue labels."""
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    if counts.empty:
        return "No paired results for these algorithms in this run."
    shown = pd.DataFrame(
        {
            "algorithm": counts["x"].map(catalogue.label),
            "against": counts["y"].map(catalogue.label),
            "budgets": counts["band"].map({"small": "small", "large": "larger"}),
            "better": counts[BETTER],
            "tied": counts[TIED],
            "worse": counts[WORSE],
            "of": counts["n"],
            "trials": counts["trials"],
            "better on": counts["better_on"].replace("", "–"),
            "worse on": counts["worse_on"].replace("", "–"),
        }
    )
    return markdown_table(shown)


def peers_section(outcomes: pd.DataFrame, catalogue: Catalogue) -> str:
    """The ``## Beyond the paper`` section of ``claims.md`` (outcomes of
    :func:`budgetboost.analysis.findings.peer_outcomes`)."""
    lines = [
        "## Beyond the paper: the library peers",
        "",
        "Smoothed and Greedy against cost-aware gradient boosting (LightGBM's CEGB, "
        "CatBoost's feature penalties; trade-off chosen per budget on a validation part of "
        "the training rows). Per (dataset, cost model) at small and at larger budgets (the "
        "lowest and highest third of its grid): *better* / *worse* where at least half the "
        "budgets are significantly in that direction (Holm-adjusted Wilcoxon p < "
        f"{claims.ALPHA}) and at most a tenth against; *tied* otherwise. `trials`: the "
        "fewest paired trials behind a count (a peer may run on the first trials only). "
        "All cells: `findings.parquet`.",
        "",
    ]
    if not catalogue.of_family("peer") or not catalogue.peer_opponents():
        lines.append("No peer (family `peer`) or no Smoothed/Greedy in this run.")
    else:
        lines.append(head_to_head_markdown(tally(outcomes, catalogue), catalogue))
    return "\n".join([*lines, ""])


def future_work_section(trees: pd.DataFrame, costs: pd.DataFrame, catalogue: Catalogue) -> str:
    """The ``## Future work`` section of ``claims.md``: the tree variants' outcomes and the
    open cost models' rises (:mod:`budgetboost.analysis.findings`)."""
    lines = [
        "## Future work: the paper's open questions (Section 8)",
        "",
        "Findings, not claims: counted by the same cell rules as *Beyond the paper*.",
        "",
        "### Boosting small trees instead of stumps",
        "",
        "The conjecture: trees beat stumps, above all at small budgets. Each variant against "
        "its stump counterpart (same criterion), counted per (dataset, cost model) as above.",
        "",
    ]
    if trees.empty:
        lines.append("No variant (`variant_of`) ran beside its base algorithm in this run.")
    else:
        lines.append(head_to_head_markdown(tally(trees, catalogue), catalogue))
    lines += [
        "",
        "### Adversarial costs and few cheap features",
        "",
        "Each algorithm under the open questions' cost models against itself under "
        "U[0, 2] at equal budget, paired by trial (same split, other costs): the rise in "
        "test error averaged over the band's budgets and then over datasets (negative: "
        "the error falls), ranked from the algorithm that degrades least. *rises on* / "
        "*falls on*: datasets where the rise / fall is significant by the rule above. All "
        "cells: `cost_model_rise.parquet`.",
        "",
    ]
    if costs.empty:
        lines.append("No open-question cost model ran beside U[0, 2] in this run.")
        return "\n".join([*lines, ""])
    for cost_model, part in costs.groupby("cost_model", sort=True):
        for band in BANDS:
            table = rise_table(part[part["band"] == band])
            table["algorithm"] = table["algorithm"].map(catalogue.label)
            lines += [
                f"**{cost_model}, {BAND_NAMES[band]} budgets**: least degraded "
                f"{table['algorithm'].iloc[0]} ({table['rise'].iloc[0]:+.3f}), most "
                f"{table['algorithm'].iloc[-1]} ({table['rise'].iloc[-1]:+.3f}).",
                "",
                markdown_table(
                    table.rename(
                        columns={
                            "baseline": "error U[0,2]",
                            "error": f"error {cost_model}",
                            "rises_on": "rises on",
                            "falls_on": "falls on",
                        }
                    )
                ),
                "",
            ]
    return "\n".join(lines)


def landing_lines(
    outcomes: pd.DataFrame, costs: pd.DataFrame, catalogue: Catalogue | None = None
) -> list[str]:
    """The findings (:mod:`budgetboost.analysis.findings`) as reStructuredText
    tables for the report's first page: per question, one row per comparison with its
    better / tied / worse counts at small and at larger budgets; then, per open cost model
    and band, the algorithms whose error rises least and most."""
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    titles = {
        "peers": "Beyond the paper: the paper's boosters against the library peers",
        "trees": "Future work: boosting depth-2 trees against stumps (same criterion)",
    }
    lines: list[str] = []
    for question, title in titles.items():
        part = outcomes[outcomes["question"] == question] if not outcomes.empty else outcomes
        if part.empty:
            continue
        lines += [
            f"{title}. Per comparison, the (dataset, cost model) pairs where the first is "
            "better / tied / worse:",
            "",
            rst_table(_tally_table(tally(part, catalogue), catalogue)),
            "",
        ]
    if not costs.empty:
        order = {band: i for i, band in enumerate(BANDS)}
        groups = costs.groupby(["cost_model", "band"], sort=False)
        rows = []
        for cost_model, band in sorted(groups.groups, key=lambda k: (k[0], order.get(k[1], 9))):
            means = groups.get_group((cost_model, band)).groupby("algorithm")["rise"].mean()
            means = means.sort_values(kind="stable")
            rows.append(
                (
                    cost_model,
                    BAND_NAMES.get(band, band),
                    f"{catalogue.label(means.index[0])} ({means.iloc[0]:+.3f})",
                    f"{catalogue.label(means.index[-1])} ({means.iloc[-1]:+.3f})",
                )
            )
        table = pd.DataFrame(
            rows, columns=["Cost model", "Budgets", "Least degraded", "Most degraded"]
        )
        lines += [
            "Future work: how much each algorithm's mean test error rises against U[0, 2] "
            "(mean over datasets and the band's budgets):",
            "",
            rst_table(table),
            "",
        ]
    return lines


def _tally_table(counts: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """:func:`tally`'s counts with one row per comparison and one column per band."""
    rows = []
    for (x, y), part in counts.groupby(["x", "y"], sort=False):
        by_band = part.set_index("band")
        cells = {
            f"{BAND_NAMES.get(band, band).capitalize()} budgets": (
                f"{by_band.at[band, BETTER]} / {by_band.at[band, TIED]} / {by_band.at[band, WORSE]}"
                if band in by_band.index
                else "–"
            )
            for band in BANDS
        }
        rows.append(
            {
                "Comparison": f"{catalogue.label(x)} vs {catalogue.label(y)}",
                **cells,
                "Pairs": int(part["n"].max()),
                "Paired trials": int(part["trials"].min()),
            }
        )
    return pd.DataFrame(rows)
