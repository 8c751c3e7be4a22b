"""Findings beyond the paper's claims, counted per dataset with the claims' own cell rules.

The paper's claims (:mod:`budgetboost.claims`) get a verdict; the questions the paper leaves
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

from budgetboost import claims
from budgetboost.catalogue import Catalogue
from budgetboost.stats import markdown_table

__all__ = [
    "BANDS",
    "HEAD_TO_HEAD_RULE",
    "OUTCOME_COLUMNS",
    "TALLY_COLUMNS",
    "band_outcomes",
    "beyond_the_paper",
    "head_to_head_markdown",
    "peer_pairs",
    "tally",
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
        :func:`budgetboost.stats.paired_comparisons` (algorithm names, not roles).
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
        cells = claims.oriented(comparisons, [x], [y])
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
