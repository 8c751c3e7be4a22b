"""Findings beyond the paper's claims, counted per dataset with the claims' own cell rules.

The paper's claims (:mod:`budgetboost.analysis.claims`) get a verdict; the questions the paper leaves
open get *counts*, reported whatever they come out as:

* **Beyond the paper** (issue #15): Smoothed and Greedy against each library peer (family
  ``peer``: LightGBM's cost-efficient gradient boosting, CatBoost's feature penalties).
* **Future work** (issue #16, the paper's Section 8): boosted trees against stumps under
  the same criterion, and how much each algorithm's error rises under an adversarial or a
  few-cheap-features cost model against ``U[0, 2]`` at equal budget.

Head-to-head counts
-------------------
A *cell* is one paired comparison X vs Y at one (dataset, cost model, budget), as in the
claims: significant where the Holm-adjusted Wilcoxon p < ``claims.ALPHA``. For each
(dataset, cost model) and budget band (the thirds of its budget grid, as the claims' "small"
and "larger" budgets), X is **better** if the band's cells pass :data:`HEAD_TO_HEAD_RULE`
for "X beats Y" (claim 2's thresholds: at least half the cells significantly in X's favour,
at most a tenth significantly against), **worse** if they pass it for "Y beats X", and
**tied** otherwise (neither is ahead by that rule: no significant difference, or a mixed
band). The counts are of (dataset, cost model) pairs.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import pandas as pd

from budgetboost.analysis import claims
from budgetboost.analysis.stats import markdown_table, oriented, rst_table
from budgetboost.pipeline.catalogue import Catalogue

__all__ = [
    "BANDS",
    "HEAD_TO_HEAD_RULE",
    "OUTCOME_COLUMNS",
    "TALLY_COLUMNS",
    "band_outcomes",
    "band_rises",
    "beyond_the_paper",
    "cost_model_rises",
    "future_work",
    "trees_against_stumps",
    "head_to_head_markdown",
    "landing_lines",
    "peer_pairs",
    "tally",
]

#: The bands a head-to-head is counted in: the claims' small and larger budgets.
BANDS = ("small", "large")
#: How the bands read on the report's first page.
BAND_NAMES = {"small": "small", "large": "larger"}
#: The per-(dataset, cost model) rule: claim 2's thresholds (:data:`claims.DIRECTIONAL_RULES`).
HEAD_TO_HEAD_RULE = claims.DIRECTIONAL_RULES["2"]
BETTER, TIED, WORSE = "better", "tied", "worse"
#: Columns of :func:`band_outcomes`.
OUTCOME_COLUMNS = [
    "x",
    "y",
    "band",
    "dataset",
    "cost_model",
    "n_cells",
    "n_pairs",
    "error_x",
    "error_y",
    "supported_share",
    "contradicted_share",
    "outcome",
]
#: Columns of :func:`tally`.
TALLY_COLUMNS = ["x", "y", "band", BETTER, TIED, WORSE, "n", "trials", "better_on", "worse_on"]


def peer_pairs(catalogue: Catalogue, roles: Sequence[str] = ("smoothed", "greedy")) -> list:
    """``(booster, peer)`` pairs: the algorithms in ``roles`` against every ``peer``."""
    boosters = [catalogue.with_role(role) for role in roles]
    peers = catalogue.of_family("peer")
    return [(x, y) for x in boosters if x is not None for y in peers]


def band_outcomes(
    comparisons: pd.DataFrame, pairs: Iterable[tuple[str, str]], bands: Sequence[str] = BANDS
) -> pd.DataFrame:
    """Better / tied / worse per (pair, band, dataset, cost model); see the module docstring.

    Parameters
    ----------
    comparisons : DataFrame
        :func:`budgetboost.analysis.stats.paired_comparisons` (algorithm names, not roles).
    pairs : iterable of (str, str)
        ``(x, y)``: "is x better than y".
    bands : sequence of {"small", "large"}

    Returns
    -------
    DataFrame with :data:`OUTCOME_COLUMNS`; ``n_pairs`` is the smallest number of paired
    trials of the band's cells, ``error_x``/``error_y`` the band's mean errors.
    """
    rows = []
    for x, y in pairs:
        cells = oriented(comparisons, [x], [y])
        for band in bands:
            part = claims.budget_band(cells, band)
            for (dataset, cost_model), cell in part.groupby(["dataset", "cost_model"], sort=False):
                forward, supported, contradicted, _ = claims.directional_verdict(
                    cell["diff"], cell["p_holm"], HEAD_TO_HEAD_RULE
                )
                reverse = claims.directional_verdict(
                    -cell["diff"].to_numpy(), cell["p_holm"], HEAD_TO_HEAD_RULE
                )[0]
                outcome = (
                    BETTER
                    if forward == claims.REPRODUCED
                    else WORSE
                    if reverse == claims.REPRODUCED
                    else TIED
                )
                rows.append(
                    (
                        x,
                        y,
                        band,
                        dataset,
                        cost_model,
                        len(cell),
                        int(cell["n_pairs"].min()),
                        float(cell["error_x"].mean()),
                        float(cell["error_y"].mean()),
                        supported,
                        contradicted,
                        outcome,
                    )
                )
    out = pd.DataFrame(rows, columns=OUTCOME_COLUMNS)
    return out.astype({"n_cells": "int64", "n_pairs": "int64"})


def tally(outcomes: pd.DataFrame, catalogue: Catalogue | None = None) -> pd.DataFrame:
    """Counts of :func:`band_outcomes` per (x, y, band): how many (dataset, cost model)
    pairs x is better on, tied on, worse on, with the better and worse ones named;
    ``trials`` is the fewest paired trials of any of their cells."""
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    rows = []
    for (x, y, band), part in outcomes.groupby(["x", "y", "band"], sort=False):
        counts = part["outcome"].value_counts()

        def named(outcome: str, part: pd.DataFrame = part) -> str:
            chosen = part[part["outcome"] == outcome]
            pairs = zip(chosen["dataset"], chosen["cost_model"], strict=True)
            return ", ".join(f"{d} · {c}" for d, c in pairs)

        rows.append(
            (
                x,
                y,
                band,
                int(counts.get(BETTER, 0)),
                int(counts.get(TIED, 0)),
                int(counts.get(WORSE, 0)),
                len(part),
                int(part["n_pairs"].min()),
                named(BETTER),
                named(WORSE),
            )
        )
    out = pd.DataFrame(rows, columns=TALLY_COLUMNS)
    order = {band: i for i, band in enumerate(BANDS)}
    return out.sort_values(
        ["x", "y", "band"],
        key=lambda c: c.map(order) if c.name == "band" else c.map(catalogue.rank),
        kind="stable",
    ).reset_index(drop=True)


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


def beyond_the_paper(
    comparisons: pd.DataFrame, catalogue: Catalogue | None = None
) -> tuple[pd.DataFrame, str]:
    """Smoothed and Greedy against each library peer (issue #15).

    Returns the per-(dataset, cost model) outcomes (:data:`OUTCOME_COLUMNS` plus
    ``question``) and the ``## Beyond the paper`` section of ``claims.md``.
    """
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    pairs = peer_pairs(catalogue)
    outcomes = band_outcomes(comparisons, pairs).assign(question="peers")
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
    if not pairs:
        lines.append("No peer (family `peer`) or no Smoothed/Greedy in this run.")
    else:
        lines.append(head_to_head_markdown(tally(outcomes, catalogue), catalogue))
    return outcomes, "\n".join([*lines, ""])


def trees_against_stumps(
    comparisons: pd.DataFrame, catalogue: Catalogue | None = None
) -> tuple[pd.DataFrame, str]:
    """Each declared variant (``variant_of``: boosting small trees) against its base
    algorithm (the same criterion with stumps), on the paper's experiments (issue #16, 1).

    Returns the outcomes (:data:`OUTCOME_COLUMNS` plus ``question``) and the markdown part.
    """
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    pairs = catalogue.variants()
    outcomes = band_outcomes(comparisons, pairs).assign(question="trees")
    lines = [
        "### Boosting small trees instead of stumps",
        "",
        "The conjecture: trees beat stumps, above all at small budgets. Each variant against "
        "its stump counterpart (same criterion), counted per (dataset, cost model) as above.",
        "",
    ]
    if outcomes.empty:
        lines.append("No variant (`variant_of`) ran beside its base algorithm in this run.")
    else:
        lines.append(head_to_head_markdown(tally(outcomes, catalogue), catalogue))
    return outcomes, "\n".join([*lines, ""])


def band_rises(rises: pd.DataFrame, bands: Sequence[str] = BANDS) -> pd.DataFrame:
    """Per (cost model, algorithm, band, dataset): the mean error rise over the band's
    budgets (:func:`budgetboost.analysis.stats.cost_model_comparisons`) and whether it rises or
    falls significantly by :data:`HEAD_TO_HEAD_RULE` (a rise is X = the algorithm under the
    cost model being *worse* than Y = itself under the baseline)."""
    rows = []
    for (cost_model, algorithm), cells in rises.groupby(["cost_model", "algorithm"], sort=False):
        cells = cells.assign(diff=cells["rise"])
        for band in bands:
            part = claims.budget_band(cells, band)
            for dataset, cell in part.groupby("dataset", sort=False):
                falls = claims.directional_verdict(cell["diff"], cell["p_holm"], HEAD_TO_HEAD_RULE)
                up = claims.directional_verdict(-cell["diff"], cell["p_holm"], HEAD_TO_HEAD_RULE)
                outcome = (
                    "rises"
                    if up[0] == claims.REPRODUCED
                    else "falls"
                    if falls[0] == claims.REPRODUCED
                    else "unchanged"
                )
                rows.append(
                    (
                        cost_model,
                        algorithm,
                        band,
                        dataset,
                        int(cell["n_pairs"].min()),
                        float(cell["baseline_error"].mean()),
                        float(cell["error"].mean()),
                        float(cell["rise"].mean()),
                        outcome,
                    )
                )
    columns = [
        "cost_model",
        "algorithm",
        "band",
        "dataset",
        "n_pairs",
        "baseline_error",
        "error",
        "rise",
        "outcome",
    ]
    return pd.DataFrame(rows, columns=columns)


def cost_model_rises(
    rises: pd.DataFrame, catalogue: Catalogue | None = None
) -> tuple[pd.DataFrame, str]:
    """How much each algorithm's error rises under the open questions' cost models against
    U[0, 2] at equal budget, and which degrades least (issue #16, 2 and 3).

    Returns the per-dataset table of :func:`band_rises` and the markdown part: per cost
    model and band, each algorithm's rise averaged over datasets (best first), the datasets
    where it rises / falls significantly, and the fewest paired trials.
    """
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    detail = band_rises(rises)
    lines = [
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
    if detail.empty:
        lines.append("No open-question cost model ran beside U[0, 2] in this run.")
        return detail.assign(question="costs"), "\n".join([*lines, ""])
    for cost_model, part in detail.groupby("cost_model", sort=True):
        for band in BANDS:
            rows = part[part["band"] == band]
            table = (
                rows.groupby("algorithm", sort=False)
                .agg(
                    rise=("rise", "mean"),
                    baseline=("baseline_error", "mean"),
                    error=("error", "mean"),
                    datasets=("dataset", "size"),
                    rises_on=("outcome", lambda o: int((o == "rises").sum())),
                    falls_on=("outcome", lambda o: int((o == "falls").sum())),
                    trials=("n_pairs", "min"),
                )
                .sort_values("rise", kind="stable")
                .reset_index()
            )
            table["algorithm"] = table["algorithm"].map(catalogue.label)
            name = {"small": "small", "large": "larger"}[band]
            lines += [
                f"**{cost_model}, {name} budgets**: least degraded "
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
    return detail.assign(question="costs"), "\n".join(lines)


def future_work(
    comparisons: pd.DataFrame, rises: pd.DataFrame, catalogue: Catalogue | None = None
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """The ``## Future work`` section of ``claims.md``: :func:`trees_against_stumps` and
    :func:`cost_model_rises`; returns their tables and the section."""
    trees, trees_text = trees_against_stumps(comparisons, catalogue)
    costs, costs_text = cost_model_rises(rises, catalogue)
    text = "\n".join(
        [
            "## Future work: the paper's open questions (Section 8)",
            "",
            "Findings, not claims: counted by the same cell rules as *Beyond the paper*.",
            "",
            trees_text,
            costs_text,
        ]
    )
    return trees, costs, text


def landing_lines(
    outcomes: pd.DataFrame, costs: pd.DataFrame, catalogue: Catalogue | None = None
) -> list[str]:
    """The findings of :func:`beyond_the_paper` and :func:`future_work` as reStructuredText
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
