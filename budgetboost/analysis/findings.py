"""Findings beyond the paper's claims, counted per dataset with the claims' own cell rules.

The paper's claims (:mod:`budgetboost.analysis.claims`) get a verdict; the questions the paper
leaves open get *counts*, reported whatever they come out as:

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
from budgetboost.analysis.bands import budget_band
from budgetboost.analysis.paired import oriented
from budgetboost.pipeline.catalogue import Catalogue

__all__ = [
    "BANDS",
    "HEAD_TO_HEAD_RULE",
    "OUTCOME_COLUMNS",
    "TALLY_COLUMNS",
    "band_outcomes",
    "band_rises",
    "cost_model_rises",
    "peer_outcomes",
    "peer_pairs",
    "rise_table",
    "tally",
    "tree_outcomes",
]

#: The bands a head-to-head is counted in: the claims' small and larger budgets.
BANDS = ("small", "large")
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


def peer_pairs(catalogue: Catalogue) -> list[tuple[str, str]]:
    """``(booster, peer)`` pairs: the catalogue's peer opponents against every ``peer``."""
    peers = catalogue.of_family("peer")
    return [(x, y) for x in catalogue.peer_opponents() for y in peers]


def band_outcomes(
    comparisons: pd.DataFrame, pairs: Iterable[tuple[str, str]], bands: Sequence[str] = BANDS
) -> pd.DataFrame:
    """Better / tied / worse per (pair, band, dataset, cost model); see the module docstring.

    Parameters
    ----------
    comparisons : DataFrame
        :func:`budgetboost.analysis.paired.paired_comparisons` (algorithm names, not roles).
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
            part = budget_band(cells, band)
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


def peer_outcomes(comparisons: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """The paper's boosters against each library peer (#15): :func:`band_outcomes` of
    :func:`peer_pairs`, with ``question`` ``peers``."""
    return band_outcomes(comparisons, peer_pairs(catalogue)).assign(question="peers")


def tree_outcomes(comparisons: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """Each declared variant (``variant_of``: boosting small trees) against its base algorithm
    (the same criterion with stumps), with ``question`` ``trees`` (#16, 1)."""
    return band_outcomes(comparisons, catalogue.variants()).assign(question="trees")


def band_rises(rises: pd.DataFrame, bands: Sequence[str] = BANDS) -> pd.DataFrame:
    """Per (cost model, algorithm, band, dataset): the mean error rise over the band's
    budgets (:func:`budgetboost.analysis.paired.cost_model_comparisons`) and whether it rises or
    falls significantly by :data:`HEAD_TO_HEAD_RULE` (a rise is X = the algorithm under the
    cost model being *worse* than Y = itself under the baseline)."""
    rows = []
    for (cost_model, algorithm), cells in rises.groupby(["cost_model", "algorithm"], sort=False):
        cells = cells.assign(diff=cells["rise"])
        for band in bands:
            part = budget_band(cells, band)
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


def cost_model_rises(rises: pd.DataFrame) -> pd.DataFrame:
    """How much each algorithm's error rises under the open questions' cost models against
    U[0, 2] at equal budget (#16, 2 and 3): :func:`band_rises` with ``question`` ``costs``."""
    return band_rises(rises).assign(question="costs")


def rise_table(detail: pd.DataFrame) -> pd.DataFrame:
    """One (cost model, band) of :func:`cost_model_rises`: per algorithm the rise averaged over
    datasets (best first), the baseline's and the cost model's errors, the datasets where it
    rises / falls significantly, and the fewest paired trials."""
    return (
        detail.groupby("algorithm", sort=False)
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
