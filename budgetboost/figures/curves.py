"""Every budget-curve figure, registered by name: the paper's Figures 1-3 and those beyond it.

* :func:`figure1`: Figure 1 of Huang, Powers & Reyzin (2015): one panel per dataset (and cost
  model), test error against budget, one line per algorithm with 95 % confidence-interval
  error bars, the unbudgeted AdaBoost reference as a horizontal line (its interval shaded) and
  test-time sampling (AdaBoostRS) on a secondary right axis, since its error is on another
  scale.
* :func:`figure2`: Figure 2, the real-cost experiments (cost models of a kind whose prices
  are real, :func:`budgetboost.data.costs.real_kinds`: Turney's prices with their discount
  groups; and any local dataset such as Yahoo! Webscope).
* :func:`figure3`: Figure 3, budgeted decision trees, error against number of nodes (log
  scale), AdaBoost's error as diamonds on a horizontal line for comparison.
* :func:`figure_peers`: the paper's boosters that face the peers
  (:meth:`~budgetboost.catalogue.Catalogue.peer_opponents`) against every algorithm of
  family ``peer`` (LightGBM's cost-efficient gradient boosting, CatBoost's feature
  penalties), one panel per dataset and cost model where a peer ran.
* :func:`figure_boosted_trees`: each declared variant (``variant_of``: boosting depth-2
  trees) against its stump counterpart (Section 8, first question).
* :func:`figure_adversarial`, :func:`figure_few_cheap`: every algorithm under the cost
  models of kind ``correlated`` and ``few_cheap``, the same algorithms under the baseline
  U[0, 2] faintly behind (Section 8, second and third questions).

Each is registered with :func:`budgetboost.figures.registry.figure` (name, caption,
families), which is all the pipeline needs to draw it and put it in the report.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from budgetboost.analysis.roles import paper_experiments
from budgetboost.catalogue import Catalogue
from budgetboost.data.costs import real_kinds
from budgetboost.figures.panels import (
    CURVE_FAMILIES,
    PanelNotes,
    budget_curves,
    budget_panel,
    draw_curve,
    draw_reference,
    grid,
    legend,
    legend_label,
    note_entries,
    page_heading,
    page_panels,
    panel_pages,
    panel_pairs,
    placeholder,
    reference,
    subset,
    trials_note,
)
from budgetboost.figures.panels import title as figure_title
from budgetboost.figures.registry import FigureContext, figure
from budgetboost.figures.style import paper_style

__all__ = [
    "cost_model_curves",
    "cost_model_selection",
    "figure1",
    "figure1_panels",
    "figure2",
    "figure2_panels",
    "figure3",
    "figure_adversarial",
    "figure_boosted_trees",
    "figure_few_cheap",
    "figure_peers",
    "figure_trees",
    "paper_only",
    "paper_rows",
    "peer_curves",
    "peer_selection",
    "tree_panels",
    "variant_curves",
    "variant_selection",
]

#: How faint the baseline's curves are drawn behind another cost model's.
BASELINE_ALPHA = 0.3


def figure2_panels(summary: pd.DataFrame, context: FigureContext) -> list[tuple[str, str]]:
    """(dataset, cost_model) panels of Figure 2: real costs (a kind of
    :func:`~budgetboost.data.costs.real_kinds`), whatever the dataset's source (the paper's
    Webscope set, read from a local file, has its real costs in a ``cost_file``)."""
    real = set(context.of_kind(*real_kinds()))
    return [(d, c) for d, c in panel_pairs(summary, context) if c in real]


def figure1_panels(summary: pd.DataFrame, context: FigureContext) -> list[tuple[str, str]]:
    """(dataset, cost_model) panels of Figure 1: every experiment not in Figure 2."""
    fig2 = set(figure2_panels(summary, context))
    return [p for p in panel_pairs(summary, context) if p not in fig2]


def tree_panels(summary: pd.DataFrame, context: FigureContext) -> list[tuple[str, str]]:
    """(dataset, cost_model) panels of Figure 3: those with results of the tree family."""
    names = context.catalogue.including(summary["algorithm"]).of_family("tree")
    trees = summary[summary["algorithm"].isin(names) & (summary["nodes_mean"] > 0)]
    return panel_pairs(trees, context, names)


def figure_trees(summary: pd.DataFrame, context: FigureContext) -> Figure:
    """Test error against number of nodes (log x) of the tree family, with AdaBoost's error.

    One panel per (dataset, cost_model) with tree results; trees evaluated at several budgets
    give one point per budget at the mean node count. AdaBoost's error is a dotted line with
    a diamond at the trees' fewest and most nodes, as in the paper's Figure 3; its legend
    entry shows the diamond. Without tree results the figure holds one placeholder panel
    saying so.
    """
    catalogue = context.catalogue.including(summary["algorithm"])
    names = catalogue.of_family("tree")
    trees = summary[summary["algorithm"].isin(names) & (summary["nodes_mean"] > 0)]
    panels = tree_panels(summary, context)
    shown = page_panels(panels, context)
    axes_style, context_style = paper_style()
    with axes_style, context_style:
        fig, axes = grid(len(shown))
        if not shown:
            placeholder(axes[0], "no tree results\n(no algorithm of family 'tree' ran)")
        notes = PanelNotes()
        for ax, (dataset, cost_model) in zip(axes, shown, strict=False):
            part = trees[(trees["dataset"] == dataset) & (trees["cost_model"] == cost_model)]
            withheld = False
            for algorithm in catalogue.sort(part["algorithm"]):
                withheld |= draw_curve(
                    ax, part[part["algorithm"] == algorithm], algorithm, catalogue, x="nodes_mean"
                )
            ref = reference(summary, dataset, cost_model, catalogue)
            notes.add((dataset, cost_model), [], withheld)
            if ref is not None:
                s = catalogue[ref["algorithm"]].style
                notes.add((dataset, cost_model), [], draw_reference(ax, ref, catalogue, False))
                # the diamonds carry the legend entry: a black diamond the legend did not
                # explain was read as a result of its own
                ax.plot(
                    [part["nodes_mean"].min(), part["nodes_mean"].max()],
                    [ref["error_mean"]] * 2,
                    linestyle=s.linestyle,
                    marker=s.marker,
                    color=s.colour,
                    linewidth=1.2,
                    markersize=6,
                    label=legend_label(catalogue, ref["algorithm"]),
                )
            ax.set_xscale("log")
            # 1, 2, 5, 10, 20, ...: a decade alone left a panel one tick label
            ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))  # 10, not 10^1
            ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels overlapped
            ax.set_title(f"{dataset} · {cost_model}")
            ax.set_xlabel("tree nodes (log scale)")
            ax.set_ylabel("test error")
        heading = "Figure 3: budgeted decision trees against AdaBoost"
        figure_title(fig, page_heading(heading, panels, context))
        legend(fig, catalogue, note_entries(notes))
    return fig


def paper_rows(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> pd.DataFrame:
    """The summary rows of Figures 1 and 2: the paper's experiments, as published."""
    summary = as_published(tables["summary"], context.catalogue)
    return paper_experiments(summary, summary, context.catalogue)


def paper_only(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> pd.DataFrame:
    """The summary rows of the paper's experiments (:func:`paper_experiments`)."""
    summary = tables["summary"]
    return paper_experiments(summary, summary, context.catalogue)


def as_published(summary: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """``summary`` without the tuned variants of the paper's boosters (e.g. Smoothed with tau
    chosen on validation): beyond the paper, they are drawn against the peers, not in the
    paper's figures."""
    tuned = {variant for variant, _ in catalogue.tuned_variants()}
    return summary[~summary["algorithm"].isin(tuned)]


@figure(
    "figure1",
    title="1: uniform random costs",
    category="Reproduction",
    families=CURVE_FAMILIES,
    pages=lambda tables, context: panel_pages(
        figure1_panels(paper_rows(tables, context), context), context
    ),
    caption="""
Figure 1 of the paper: test error (y) against the feature budget B (x), one panel per dataset
and cost model, one line per algorithm with 95 % confidence-interval error bars. The dotted
black line is AdaBoost run unbudgeted for its Table 1 rounds (grey band: its 95 % CI).
Test-time sampling (AdaBoostRS, RS_AC) is read on the right-hand axis, as in the paper,
because its error is much higher.
""",
)
def figure1(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Figure 1: budget curves of every experiment without real costs."""
    summary = paper_rows(tables, context)
    return budget_curves(
        summary,
        figure1_panels(summary, context),
        # non-breaking spaces: "95 %" and "CI" stay on one line
        "Figure 1: test error against budget (95\u00a0%\u00a0CI; test-time sampling on the "
        "right axis)",
        context,
    )


@figure(
    "figure2",
    title="2: real costs",
    category="Reproduction",
    families=CURVE_FAMILIES,
    pages=lambda tables, context: panel_pages(
        figure2_panels(paper_rows(tables, context), context), context
    ),
    caption="""
Figure 2 of the paper: the same curves as Figure 1 for real feature costs: heart with
Turney's test costs (cost model ``turney``), the suite's other Turney datasets and, when the
config enables it, the licensed Yahoo! Webscope set with its real costs. A run without
these experiments does not make this figure.
""",
)
def figure2(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Figure 2: budget curves of the real-cost experiments."""
    summary = paper_rows(tables, context)
    return budget_curves(
        summary,
        figure2_panels(summary, context),
        "Figure 2: real feature costs",
        context,
        empty_message="no real-cost results\n(a cost model of kind real, or a local dataset)",
    )


@figure(
    "figure3",
    title="3: decision trees",
    category="Reproduction",
    families=("reference", "tree"),
    pages=lambda tables, context: panel_pages(
        tree_panels(paper_only(tables, context), context), context
    ),
    caption="""
Figure 3 of the paper: test error of budgeted decision trees (y) against the number of tree
nodes (x, log scale), one point per budget; the dotted line with a diamond at the trees'
fewest and most nodes is the unbudgeted AdaBoost error, for comparison (as in the legend). A
run without an algorithm of the tree family does not make this figure.
""",
)
def figure3(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Figure 3: trees against AdaBoost."""
    return figure_trees(
        paper_experiments(tables["summary"], tables["summary"], context.catalogue), context
    )


def peer_selection(
    summary: pd.DataFrame, context: FigureContext
) -> tuple[pd.DataFrame, list[str], list[str], list[tuple[str, str]]]:
    """What the peers' figure draws: its rows, the algorithms, the peers among them and the
    panels (those where a peer ran)."""
    catalogue = context.catalogue.including(summary["algorithm"])
    peers = [a for a in catalogue.of_family("peer") if a in set(summary["algorithm"])]
    boosters = catalogue.peer_opponents()
    names = [n for n in boosters if n is not None] + peers
    chosen = summary[summary["algorithm"].isin(names)]
    panels = panel_pairs(chosen[chosen["algorithm"].isin(peers)], context, peers)
    return chosen, names, peers, panels


def peer_curves(summary: pd.DataFrame, context: FigureContext) -> Figure:
    """Budget curves of the peers and the paper's boosters (see :func:`figure_peers`)."""
    catalogue = context.catalogue.including(summary["algorithm"])
    chosen, names, peers, panels = peer_selection(summary, context)
    title = "Beyond the paper: the paper's boosters against the library peers"
    note = trials_note(chosen, peers, catalogue)
    return budget_curves(
        chosen,
        panels,
        f"{title}\n({note})" if note else title,
        dataclasses.replace(
            context, catalogue=subset(catalogue, names), families=("boosting", "peer")
        ),
        empty_message="no peer results\n(no algorithm of family 'peer' ran)",
    )


@figure(
    "peers",
    title="Peers: LightGBM and CatBoost",
    category="Beyond the paper",
    families=("peer",),  # and the catalogue's peer opponents, as Figure 3 its reference
    pages=lambda tables, context: panel_pages(
        peer_selection(paper_only(tables, context), context)[3], context
    ),
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


def variant_selection(
    summary: pd.DataFrame, context: FigureContext
) -> tuple[pd.DataFrame, list[str], list[str], list[tuple[str, str]]]:
    """What the trees-against-stumps figure draws: its rows, the algorithms, the variants
    among them and the panels (those where a variant ran)."""
    catalogue = context.catalogue.including(summary["algorithm"])
    present = set(summary["algorithm"])
    pairs = [(v, b) for v, b in catalogue.tree_variants() if v in present and b in present]
    variants = [v for v, _ in pairs]
    names = catalogue.sort([n for pair in pairs for n in pair])
    chosen = summary[summary["algorithm"].isin(names)]
    panels = panel_pairs(chosen[chosen["algorithm"].isin(variants)], context, variants)
    return chosen, names, variants, panels


def variant_curves(summary: pd.DataFrame, context: FigureContext) -> Figure:
    """Budget curves of every boosted-trees variant (``variant_of``) and its base algorithm
    (the tuned variants are drawn against the peers)."""
    catalogue = context.catalogue.including(summary["algorithm"])
    chosen, names, variants, panels = variant_selection(summary, context)
    title = "Future work: boosting small trees against stumps, same criterion"
    note = trials_note(chosen, variants, catalogue)
    families = tuple({catalogue[n].family for n in names}) or ("boosted_trees",)
    return budget_curves(
        chosen,
        panels,
        f"{title}\n({note})" if note else title,
        dataclasses.replace(context, catalogue=subset(catalogue, names), families=families),
        empty_message="no variant results\n(no algorithm with variant_of ran)",
    )


def cost_model_selection(
    summary: pd.DataFrame, context: FigureContext, kind: str
) -> tuple[pd.DataFrame, list[tuple[str, str]]]:
    """The rows and the panels of :func:`cost_model_curves` for the cost models of ``kind``
    (not the baseline)."""
    cost_models = tuple(c for c in context.of_kind(kind) if c != context.baseline)
    chosen = summary[summary["cost_model"].isin(cost_models)]
    names = context.algorithms(chosen["algorithm"])
    chosen = chosen[chosen["algorithm"].isin(names)]
    return chosen, panel_pairs(chosen, context, names)


def cost_model_curves(
    summary: pd.DataFrame,
    context: FigureContext,
    kind: str,
    title: str,
) -> Figure:
    """Every algorithm under the cost models of ``kind`` (spec ``model``), one panel per
    (dataset, cost model), with the same algorithms under the context's ``baseline`` (U[0, 2])
    drawn faintly (dashed, unlabelled) for comparison; test-time sampling on a right-hand axis
    as in Figure 1 (without its baseline)."""
    baseline = context.baseline
    catalogue = context.catalogue.including(summary["algorithm"])
    context = dataclasses.replace(context, catalogue=catalogue)
    chosen, panels = cost_model_selection(summary, context, kind)
    shown = page_panels(panels, context)
    axes_style, context_style = paper_style()
    with axes_style, context_style:
        fig, axes = grid(len(shown))
        if not shown:
            placeholder(axes[0], f"no results under a cost model of kind {kind!r}")
        notes = PanelNotes()
        for ax, (dataset, cost_model) in zip(axes, shown, strict=False):
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
            budget_panel(ax, chosen, dataset, cost_model, context, notes)
        note = trials_note(chosen, catalogue.sort(chosen["algorithm"]), catalogue)
        note = f"; {note}" if note else ""
        heading = f"{title}\n(faint dashed: the same algorithm under {baseline}{note})"
        figure_title(fig, page_heading(heading, panels, context))
        legend(fig, catalogue, note_entries(notes))
    return fig


@figure(
    "boosted_trees",
    title="Trees against stumps",
    category="Future work",
    families=("boosted_trees",),  # and each variant's base algorithm (variant_of)
    pages=lambda tables, context: panel_pages(
        variant_selection(paper_only(tables, context), context)[3], context
    ),
    caption="""
The paper's first open question (Section 8): "boosting decision trees with the optimizations
we suggest … would likely outperform stumps, especially because decision trees show highest
gains at small budgets". Each algorithm of the boosted-trees family declared a variant of
another (``variant_of``: AdaBoostBT, Greedy and Smoothed boosting depth-2 trees, each split
chosen by the round's criterion applied to the whole tree's edge and the original cost of its
feature groups) against its stump counterpart: test error (y) against budget B (x), 95 %
CIs, one panel per dataset and cost model of the paper's experiments. The tree variants run
on the first trials only (number in the title); ``claims.md``, *Future work*, counts where
they win.
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
    pages=lambda tables, context: panel_pages(
        cost_model_selection(tables["summary"], context, "correlated")[1], context
    ),
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
        tables["summary"], context, "correlated", "Future work: adversarial costs"
    )


@figure(
    "few_cheap_costs",
    title="Few cheap features",
    category="Future work",
    families=("boosting", "boosted_trees", "sampling", "peer"),
    pages=lambda tables, context: panel_pages(
        cost_model_selection(tables["summary"], context, "few_cheap")[1], context
    ),
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
        tables["summary"], context, "few_cheap", "Future work: few cheap features"
    )
