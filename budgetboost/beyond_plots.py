"""Figures beyond the paper: its boosters against the library peers (issue #15).

* :func:`figure_peers`: test error against budget, AdaBoostBT, Greedy and Smoothed against
  every algorithm of family ``peer`` (LightGBM's cost-efficient gradient boosting, CatBoost's
  feature penalties), one panel per dataset and cost model where a peer ran, 95 % CIs.

Registered with :func:`budgetboost.figures.figure` like the paper's figures
(:mod:`budgetboost.plots`), whose panel and legend helpers it reuses.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
from matplotlib.figure import Figure

from budgetboost.catalogue import Catalogue
from budgetboost.figures import FigureContext, figure
from budgetboost.plots import _pairs, figure_budget_curves

__all__ = ["PEER_OPPONENTS", "figure_peers", "peer_curves"]

#: The paper's boosters drawn against the peers (roles).
PEER_OPPONENTS = ("adaboost_bt", "greedy", "smoothed")


def _subset(catalogue: Catalogue, names: list[str]) -> Catalogue:
    """``catalogue`` restricted to ``names``, keeping each one's label and style."""
    records = catalogue.records()
    return Catalogue({name: records[name] for name in names})


def _trials_note(summary: pd.DataFrame, peers: list[str], catalogue: Catalogue) -> str:
    """ "LightGBM CEGB, stumps: 20 trials; ..." where a peer ran on fewer trials."""
    parts = []
    for name in peers:
        counts = sorted(set(summary.loc[summary["algorithm"] == name, "trials"]))
        if counts:
            shown = "–".join(map(str, (counts[0], counts[-1]) if len(counts) > 1 else counts))
            parts.append(f"{catalogue.label(name)}: {shown}")
    return "trials per dataset: " + "; ".join(parts) if parts else ""


def peer_curves(summary: pd.DataFrame, context: FigureContext) -> Figure:
    """Budget curves of the peers and the paper's boosters (see :func:`figure_peers`)."""
    catalogue = context.catalogue.including(summary["algorithm"])
    peers = [a for a in catalogue.of_family("peer") if a in set(summary["algorithm"])]
    boosters = [catalogue.with_role(role) for role in PEER_OPPONENTS]
    names = [n for n in boosters if n is not None] + peers
    chosen = summary[summary["algorithm"].isin(names)]
    panels = _pairs(chosen[chosen["algorithm"].isin(peers)], peers)
    title = "Beyond the paper: the paper's boosters against the library peers"
    note = _trials_note(chosen, peers, catalogue)
    return figure_budget_curves(
        chosen,
        panels,
        f"{title}\n({note})" if note else title,
        FigureContext(_subset(catalogue, names), context.local_datasets, ("boosting", "peer")),
        empty_message="no peer results\n(no algorithm of family 'peer' ran)",
    )


@figure(
    "peers",
    title="Peers: LightGBM and CatBoost",
    category="Beyond the paper",
    families=("boosting", "peer"),
    caption="""
The paper's boosters (AdaBoostBT, Greedy Eq. 1, Smoothed Eq. 2) against cost-aware gradient
boosting in the libraries everyone uses: LightGBM's cost-efficient gradient boosting (CEGB)
and CatBoost's feature penalties, each with stumps and with small trees. Test error (y)
against the feature budget B (x), one panel per dataset and cost model on which a peer ran,
95 % confidence intervals. A peer uses, at each budget, the (trade-off, number of trees) with
the lowest error on a validation part of the training rows among those it can afford. The
slower peers run on the first trials of each dataset only (their number is in the figure's
title and in ``summary.md``), so their intervals are wider; the paired comparisons use the
trials both ran (``claims.md``, *Beyond the paper*).
""",
)
def figure_peers(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """The peers figure: AdaBoostBT, Greedy and Smoothed against every peer."""
    return peer_curves(tables["summary"], context)
