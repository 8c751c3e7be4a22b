"""Figures beyond the paper: the library peers (issue #15) and its open questions (#16).

* :func:`figure_peers`: test error against budget, AdaBoostBT, Greedy and Smoothed against
  every algorithm of family ``peer`` (LightGBM's cost-efficient gradient boosting, CatBoost's
  feature penalties), one panel per dataset and cost model where a peer ran, 95 % CIs.
* :func:`figure_boosted_trees`: each declared variant (``variant_of``: boosting depth-2
  trees) against its stump counterpart (Section 8, first question).
* :func:`figure_adversarial`, :func:`figure_few_cheap`: every algorithm under the
  ``adversarial`` and ``few_cheap`` cost models, the same algorithms under U[0, 2] faintly
  behind (Section 8, second and third questions).

Registered with :func:`budgetboost.figures.registry.figure` like the paper's figures
(:mod:`budgetboost.figures.curves`), whose panel and legend helpers it reuses.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from budgetboost.figures.curves import (
    NCOLS,
    _budget_panel,
    _grid,
    _legend,
    _pairs,
    _paper_style,
    _placeholder,
    figure_budget_curves,
)
from budgetboost.figures.registry import FigureContext, figure
from budgetboost.pipeline.catalogue import BASELINE_COST_MODEL, Catalogue, paper_experiments

__all__ = [
    "ADVERSARIAL_COST_MODELS",
    "FEW_CHEAP_COST_MODELS",
    "PEER_OPPONENTS",
    "cost_model_curves",
    "figure_adversarial",
    "figure_boosted_trees",
    "figure_few_cheap",
    "figure_peers",
    "peer_curves",
    "variant_curves",
]

#: The paper's boosters drawn against the peers (roles).
PEER_OPPONENTS = ("adaboost_bt", "greedy", "smoothed")


def _subset(catalogue: Catalogue, names: list[str]) -> Catalogue:
    """``catalogue`` restricted to ``names``, keeping each one's label and style."""
    records = catalogue.records()
    return Catalogue({name: records[name] for name in names})


def _trials_note(summary: pd.DataFrame, names: list[str], catalogue: Catalogue) -> str:
    """How many trials per dataset ``names`` ran on: "10 trials per dataset" when they
    agree, else one count (or range) per label."""
    shown = {}
    for name in names:
        counts = sorted(set(summary.loc[summary["algorithm"] == name, "trials"]))
        if counts:
            shown[catalogue.label(name)] = "–".join(
                map(str, dict.fromkeys(counts[:1] + counts[-1:]))
            )
    if not shown:
        return ""
    if len(set(shown.values())) == 1:
        return f"{next(iter(shown.values()))} trials per dataset"
    return "trials per dataset: " + "; ".join(f"{k}: {v}" for k, v in shown.items())


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
    families=("peer",),  # and the boosters of PEER_OPPONENTS' roles, as Figure 3 its reference
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
    """The peers figure: AdaBoostBT, Greedy and Smoothed against every peer (the paper's
    experiments; the open questions' cost models have figures of their own)."""
    summary = tables["summary"]
    return peer_curves(paper_experiments(summary, summary, context.catalogue), context)


# ------------------------------------------------------------------ future work (issue #16)

#: Cost models of the paper's open questions (Section 8), drawn against the baseline.
ADVERSARIAL_COST_MODELS = ("adversarial",)
FEW_CHEAP_COST_MODELS = ("few_cheap",)
#: How faint the baseline's curves are drawn behind another cost model's.
BASELINE_ALPHA = 0.3


def variant_curves(summary: pd.DataFrame, context: FigureContext) -> Figure:
    """Budget curves of every declared variant (``variant_of``) and its base algorithm."""
    catalogue = context.catalogue.including(summary["algorithm"])
    present = set(summary["algorithm"])
    pairs = [(v, b) for v, b in catalogue.variants() if v in present and b in present]
    variants = [v for v, _ in pairs]
    names = catalogue.sort([n for pair in pairs for n in pair])
    chosen = summary[summary["algorithm"].isin(names)]
    panels = _pairs(chosen[chosen["algorithm"].isin(variants)], variants)
    title = "Future work: boosting small trees against stumps, same criterion"
    note = _trials_note(chosen, variants, catalogue)
    families = tuple({catalogue[n].family for n in names}) or ("boosted_trees",)
    return figure_budget_curves(
        chosen,
        panels,
        f"{title}\n({note})" if note else title,
        FigureContext(_subset(catalogue, names), context.local_datasets, families),
        empty_message="no variant results\n(no algorithm with variant_of ran)",
    )


def cost_model_curves(
    summary: pd.DataFrame,
    context: FigureContext,
    cost_models: tuple[str, ...],
    title: str,
    baseline: str = BASELINE_COST_MODEL,
) -> Figure:
    """Every algorithm under ``cost_models``, one panel per (dataset, cost model), with the
    same algorithms under ``baseline`` drawn faintly (dashed, unlabelled) for comparison;
    test-time sampling on a right-hand axis as in Figure 1 (without its baseline)."""
    catalogue = context.catalogue.including(summary["algorithm"])
    context = FigureContext(catalogue, context.local_datasets, context.families)
    chosen = summary[summary["cost_model"].isin(cost_models)]
    names = context.algorithms(chosen["algorithm"])
    chosen = chosen[chosen["algorithm"].isin(names)]
    panels = _pairs(chosen, names)
    axes_style, context_style = _paper_style()
    with axes_style, context_style:
        fig, axes = _grid(len(panels))
        if not panels:
            _placeholder(axes[0], f"no results under {', '.join(cost_models)}")
        for ax, (dataset, cost_model) in zip(axes, panels, strict=False):
            base = summary[(summary["dataset"] == dataset) & (summary["cost_model"] == baseline)]
            here = chosen.loc[
                (chosen["dataset"] == dataset) & (chosen["cost_model"] == cost_model), "algorithm"
            ]
            for algorithm in catalogue.sort(here):
                curve = base[base["algorithm"] == algorithm]
                curve = curve[np.isfinite(curve["budget"])].sort_values("budget")
                if curve.empty or catalogue[algorithm].right_axis:
                    continue  # right-axis curves (test-time sampling): no baseline drawn
                s = catalogue[algorithm].style
                ax.plot(
                    curve["budget"],
                    curve["error_mean"],
                    color=s.colour,
                    linestyle="--",
                    linewidth=1.0,
                    alpha=BASELINE_ALPHA,
                )
            _budget_panel(ax, chosen, dataset, cost_model, context)
        note = _trials_note(chosen, catalogue.sort(chosen["algorithm"]), catalogue)
        fig.suptitle(f"{title}\n(faint dashed: the same algorithm under {baseline}; {note})")
        _legend(fig, min(NCOLS, max(1, len(panels))), catalogue)
    return fig


@figure(
    "boosted_trees",
    title="Trees against stumps",
    category="Future work",
    families=("boosted_trees",),  # and each variant's base algorithm (variant_of)
    caption="""
The paper's first open question (Section 8): "boosting decision trees with the optimizations
we suggest … would likely outperform stumps, especially because decision trees show highest
gains at small budgets". Each algorithm declared a variant of another (``variant_of``:
AdaBoostBT, Greedy and Smoothed boosting depth-2 trees, each split chosen by the round's
criterion applied to the whole tree's edge and the original cost of its feature groups)
against its stump counterpart: test error (y) against budget B (x), 95 % CIs, one panel per
dataset and cost model of the paper's experiments. The tree variants run on the first trials
only (number in the title); ``claims.md``, *Future work*, counts where they win.
""",
)
def figure_boosted_trees(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Tree variants against their stump counterparts."""
    summary = tables["summary"]
    return variant_curves(paper_experiments(summary, summary, context.catalogue), context)


@figure(
    "adversarial_costs",
    title="Adversarial costs",
    category="Future work",
    families=("boosting", "boosted_trees", "sampling", "peer"),
    caption="""
The paper's second open question (Section 8): "an adversarial cost model where cost and
feature performance are strongly positively correlated". Cost model ``adversarial``: each
binarized feature's cost rises with its absolute correlation with the label on the trial's
training rows (rank scaled to [0, 2], a quarter uniform noise; mean 1 as U[0, 2]), so the
informative features are the expensive ones. Every boosting algorithm, AdaBoostRS and the
peers, test error against budget with 95 % CIs; the faint dashed lines are the same
algorithms under U[0, 2] (Figure 1). These run on the first trials only (numbers in the
title); ``claims.md``, *Future work*, gives how much each algorithm's error rises, paired by
trial.
""",
)
def figure_adversarial(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Every algorithm under the adversarial cost model."""
    return cost_model_curves(
        tables["summary"], context, ADVERSARIAL_COST_MODELS, "Future work: adversarial costs"
    )


@figure(
    "few_cheap_costs",
    title="Few cheap features",
    category="Future work",
    families=("boosting", "boosted_trees", "sampling", "peer"),
    caption="""
The paper's third open question (Section 8): "improve optimization for cost distributions
with few cheap features". Cost model ``few_cheap``: 10 % of the binarized features, chosen at
random per trial, cost U[0, 0.2], the rest U[1.5, 2.5] (mean about 1.8; budgets as for
U[0, 2]). Every boosting algorithm, AdaBoostRS and the peers, test error against budget with
95 % CIs; the faint dashed lines are the same algorithms under U[0, 2]. These run on the first
trials only (numbers in the title); ``claims.md``, *Future work*, gives how much each
algorithm's error rises, paired by trial.
""",
)
def figure_few_cheap(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Every algorithm under the few-cheap-features cost model."""
    return cost_model_curves(
        tables["summary"], context, FEW_CHEAP_COST_MODELS, "Future work: few cheap features"
    )
