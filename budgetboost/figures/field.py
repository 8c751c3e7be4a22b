"""The field's question: which approach leads at each budget, and by how much.

:func:`field_curves` draws each method of the field's families (optimal trees, forest
pruning, feature acquisition, select-then-train, and a user's method of family ``other``) as
test error against budget on every dataset and cost model it ran, beside the methods the
findings compare it with: the paper's Smoothed and Greedy, as published and tuned, the
library peers and the field's other methods, where they ran.

:func:`field` sums the question up across datasets. Left, the mean rank of each method the
field's question compares (:meth:`~budgetboost.catalogue.Catalogue.field_contenders`) at
every budget of the field's first pool (else the baseline U[0, 2], whose grid every dataset
shares), ranked within each dataset by mean test error (1 = lowest; ties share their mean
rank), over the datasets where every one of them ran. Right, the findings across datasets
(``findings.parquet``, questions ``field`` and ``peers``): each comparison's Hodges-Lehmann
difference in test error with its 90 % interval (the one its outcome reads), at small and at
larger budgets, coloured by its outcome.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from budgetboost.analysis.field import FIELD_QUESTIONS
from budgetboost.analysis.vocabulary import ALL, BETTER, EQUIVALENT, FINDING_BANDS, WORSE
from budgetboost.catalogue import FIELD_FAMILIES, Catalogue
from budgetboost.figures.pages import paginate
from budgetboost.figures.panels import (
    budget_curves,
    grid_ticks,
    legend_label,
    panel_pages,
    panel_pairs,
    placeholder,
    subset,
)
from budgetboost.figures.panels import title as figure_title
from budgetboost.figures.registry import FigureContext, figure
from budgetboost.figures.style import paper_style

__all__ = [
    "field",
    "field_curves",
    "field_methods",
    "field_pages",
    "field_pool",
    "field_selection",
    "mean_ranks",
]

#: Colours of the outcomes (x against y): x lower, x higher, equivalent, the rest.
OUTCOME_COLOURS = {BETTER: "#029e73", WORSE: "#d55e00", EQUIVALENT: "#0173b2"}
UNDECIDED_COLOUR = "#949494"
BAND_TITLES = {"small": "small budgets", "medium": "medium budgets", "large": "larger budgets"}
#: Height (inches) of the rank panel, and of one row of the differences.
RANKS_HEIGHT, ROW_HEIGHT = 4.2, 0.24
#: The most field methods whose comparisons one page of :func:`field` draws: four against
#: the suite's fifteen other contenders make about 60 rows, a page within two screens.
FIELD_METHODS_PER_PAGE = 4


def mean_ranks(summary: pd.DataFrame, names: list[str], cost_model: str | None) -> pd.DataFrame:
    """Mean rank of each of ``names`` per budget of ``cost_model`` (see the module docstring):
    columns ``algorithm``, ``budget``, ``rank``, ``datasets``."""
    rows = summary[summary["algorithm"].isin(names) & np.isfinite(summary["budget"])]
    if cost_model is not None:
        rows = rows[rows["cost_model"] == cost_model]
    wide = rows.pivot_table(
        index=["dataset", "budget"], columns="algorithm", values="error_mean", aggfunc="mean"
    )
    present = [n for n in names if n in wide.columns]
    wide = wide[present].dropna()
    if wide.empty:
        return pd.DataFrame(columns=["algorithm", "budget", "rank", "datasets"])
    ranks = wide.rank(axis=1, method="average")
    out = ranks.groupby(level="budget").mean().stack().rename("rank").reset_index()
    counts = wide.groupby(level="budget").size().rename("datasets").reset_index()
    return out.merge(counts, on="budget")


def field_pool(context: FigureContext) -> tuple[str, str | None]:
    """The pool the field's figure reads and the cost model whose grid it ranks on: the
    field's first pool and its first cost model, else ``all`` and the baseline."""
    if context.field:
        cost_model, pool = next(iter(context.field.items()))
        return pool, cost_model
    return ALL, context.baseline


def _comparisons(findings: pd.DataFrame, catalogue: Catalogue, pool: str = ALL) -> pd.DataFrame:
    """The across-dataset rows of the field's questions in ``pool`` that involve a field
    method (its ``x``: :func:`budgetboost.analysis.findings.questions` puts it there)."""
    rows = findings[findings["question"].isin(FIELD_QUESTIONS) & (findings["dataset"] == ALL)]
    if "pool" in rows:
        rows = rows[rows["pool"] == pool]
    if rows.empty:
        return rows
    field_methods = set(catalogue.including(rows["x"]).of_family(*FIELD_FAMILIES))
    keep = rows["x"].isin(field_methods) | rows["y"].isin(field_methods)
    return rows[keep]


def field_methods(summary: pd.DataFrame, context: FigureContext) -> list[str]:
    """The methods of :data:`FIELD_FAMILIES` with results, in catalogue order."""
    catalogue = context.catalogue.including(summary["algorithm"])
    present = set(summary["algorithm"])
    return [n for n in catalogue.of_family(*FIELD_FAMILIES) if n in present]


def field_pages(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> list[list[str]]:
    """The field methods whose comparisons each page of :func:`field` draws,
    :data:`FIELD_METHODS_PER_PAGE` at most (one page, perhaps of none, at least)."""
    return paginate(field_methods(tables["summary"], context), FIELD_METHODS_PER_PAGE) or [[]]


def _field_content(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> bool:
    """Whether :func:`field` draws anything: a budget every contender ran, or a comparison."""
    summary = tables["summary"]
    catalogue = context.catalogue.including(summary["algorithm"])
    pool, cost_model = field_pool(context)
    ran = summary[summary["cost_model"] == cost_model] if cost_model else summary
    names = [n for n in catalogue.field_contenders() if n in set(ran["algorithm"])]
    ranks = mean_ranks(summary, names, cost_model)
    return not ranks.empty or not _comparisons(tables["findings"], catalogue, pool).empty


@figure(
    "field",
    title="which approach at a test-time budget",
    category="The field",
    families=("peer", *FIELD_FAMILIES),  # and the peers' opponents, as the peers' figure
    tables=("summary", "findings"),
    content=_field_content,
    pages=field_pages,
    caption="""
**Which approach to use at a test-time budget.** Left: the mean rank of each method of the
field's question (the paper's Smoothed and Greedy, as published and tuned; the libraries'
cost-aware boosting; optimal cost-sensitive trees, forest pruning and per-example feature
acquisition) at every budget of the field's first pool (its first cost model: prices per
attribute, budgets in attributes' worth), or under U[0, 2] where a run has no field pool,
ranked within each dataset by mean test error (1 = lowest), over the datasets where all of
them ran (their number in the title). Right: each comparison of a field method across
datasets (x − y in test error: the Hodges–Lehmann estimate with the 90 % interval of the
Wilcoxon signed-rank test, the one the outcome reads) in the same pool, read at the hard
cap, at small, medium and larger budgets (the mean-cost reading and the other pools: *where each
family leads*); green: x better (the interval wholly below −0.01: lower by more than the
margin), orange: x worse (wholly above +0.01), blue: equivalent (wholly inside ±0.01), grey:
inconclusive (reaching across a bound of the margin) or too few datasets. With more than
four field methods, each page holds the comparisons of four of them (the ranks on every
page). Every row: ``findings.parquet``.
""",
)
def field(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """The mean-rank curves and the across-dataset differences of the field's question: the
    comparisons of the field methods of the context's page (:func:`field_pages`)."""
    summary, findings = tables["summary"], tables["findings"]
    catalogue = context.catalogue.including(summary["algorithm"])
    pool, cost_model = field_pool(context)
    ran = summary[summary["cost_model"] == cost_model] if cost_model else summary
    names = [n for n in catalogue.field_contenders() if n in set(ran["algorithm"])]
    ranks = mean_ranks(summary, names, cost_model)
    rows = _comparisons(findings, catalogue, pool)
    pages = field_pages(tables, context)
    if len(pages) > 1:
        mine = set(pages[context.page]) if context.page < len(pages) else set()
        field_set = set(catalogue.of_family(*FIELD_FAMILIES))
        owner = rows["x"].where(rows["x"].isin(field_set), rows["y"])
        rows = rows[owner.isin(mine)]
    labels = [f"{catalogue.label(x)} − {catalogue.label(y)}" for x, y in _pairs(rows)]
    style, paper = paper_style()
    with style, paper:
        height = max(RANKS_HEIGHT + 2.5, ROW_HEIGHT * len(labels) + 1.8)
        fig = Figure(figsize=(7.0 + 4.5 * len(FINDING_BANDS), height), layout="constrained")
        grid = fig.add_gridspec(
            2,
            1 + len(FINDING_BANDS),
            width_ratios=[1.3] + [1.0] * len(FINDING_BANDS),
            height_ratios=[RANKS_HEIGHT, height - RANKS_HEIGHT],
        )
        budget = (
            f"budget (attributes' worth, cost model {cost_model})"
            if pool != ALL
            else "budget (U[0, 2] costs)"
        )
        ranks_ax = fig.add_subplot(grid[0, 0])
        _draw_ranks(ranks_ax, ranks, names, catalogue, budget)
        _rank_legend(fig, grid[1, 0], ranks_ax)
        first = None
        for i, band in enumerate(FINDING_BANDS, start=1):
            ax = fig.add_subplot(grid[:, i], sharey=first)
            _draw_differences(ax, rows[rows["band"] == band], labels, catalogue, band)
            if first is not None:
                ax.tick_params(labelleft=False)
            first = first or ax
        if len(pages) > 1 and context.page < len(pages):
            methods = ", ".join(catalogue.label(n) for n in pages[context.page])
            figure_title(
                fig,
                f"Which approach at a test-time budget: page {context.page + 1} of "
                f"{len(pages)}\n(the comparisons of {methods})",
            )
    return fig


def _rank_legend(fig: Figure, cell, ranks_ax) -> None:
    """The rank panel's legend in an empty axes under it (grid ``cell``), beside the
    differences: it was under a rank panel stretched to the differences' height, far below
    its curves. No curves, no legend (nor axes)."""
    handles, labels = ranks_ax.get_legend_handles_labels()
    if not handles:
        return
    ax = fig.add_subplot(cell)
    ax.set_axis_off()
    ax.legend(handles, labels, loc="upper left", fontsize="small", ncols=2, frameon=False)


def _pairs(rows: pd.DataFrame) -> list[tuple[str, str]]:
    return list(dict.fromkeys(zip(rows["x"], rows["y"], strict=True)))


def _draw_ranks(
    ax, ranks: pd.DataFrame, names: list[str], catalogue: Catalogue, budget: str
) -> None:
    if ranks.empty:
        placeholder(ax, "no budget at which every method\nof the field's question ran")
        return
    for name in names:
        part = ranks[ranks["algorithm"] == name].sort_values("budget")
        if part.empty:
            continue
        s = catalogue[name].style
        ax.plot(
            part["budget"],
            part["rank"],
            color=s.colour,
            marker=s.marker,
            linestyle=s.linestyle,
            markersize=4,
            label=legend_label(catalogue, name),
        )
    ax.invert_yaxis()
    ax.set_xticks(grid_ticks(ranks["budget"]))
    ax.set_xlabel(budget)
    ax.set_ylabel("mean rank across datasets (1 = lowest error)")
    ax.set_title(f"Mean rank at each budget ({int(ranks['datasets'].max())} datasets)")


def _draw_differences(ax, rows, labels, catalogue: Catalogue, band: str) -> None:
    ax.set_title(f"Across datasets, {BAND_TITLES.get(band, band)}")
    ax.axvline(0.0, color="black", linewidth=0.8)
    if rows.empty:
        placeholder(ax, "no comparison of a field method\nacross datasets")
        return
    position = {label: i for i, label in enumerate(labels)}
    for row in rows.itertuples():
        label = f"{catalogue.label(row.x)} − {catalogue.label(row.y)}"
        y = position[label]
        colour = OUTCOME_COLOURS.get(row.outcome, UNDECIDED_COLOUR)
        low, high = row.ci_low, row.ci_high
        if np.isfinite(low) and np.isfinite(high):
            ax.plot([low, high], [y, y], color=colour, linewidth=2)
        ax.plot(row.hodges_lehmann, y, "o", color=colour, markersize=5)
    ax.set_yticks(range(len(labels)), labels)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xlabel("difference in test error, x − y")


def _trials_range(trials: pd.Series) -> str:
    """ "3 trials per dataset", or the range over methods and cost models ("2–3 trials per
    dataset; summary.md gives each": one count per method made a title of five lines)."""
    counts = sorted(set(trials))
    if not counts:
        return ""
    if len(counts) == 1:
        return f"{counts[0]} trials per dataset"
    return f"{counts[0]}–{counts[-1]} trials per dataset; summary.md gives each"


def field_selection(
    summary: pd.DataFrame, context: FigureContext
) -> tuple[pd.DataFrame, list[str], list[tuple[str, str]]]:
    """What :func:`field_curves` draws: the rows of the field's contenders
    (:meth:`~budgetboost.catalogue.Catalogue.field_contenders`), their names, and
    the (dataset, cost model) panels on which a method of :data:`FIELD_FAMILIES` ran."""
    catalogue = context.catalogue.including(summary["algorithm"])
    present = set(summary["algorithm"])
    methods = [n for n in catalogue.of_family(*FIELD_FAMILIES) if n in present]
    names = [n for n in catalogue.field_contenders() if n in present]
    chosen = summary[summary["algorithm"].isin(names)]
    panels = panel_pairs(chosen[chosen["algorithm"].isin(methods)], context, methods)
    return chosen, names, panels


@figure(
    "field_curves",
    title="the field's methods against budget",
    category="The field",
    families=("peer", *FIELD_FAMILIES),  # and the peers' opponents, as the field's figure
    pages=lambda tables, context: panel_pages(
        field_selection(tables["summary"], context)[2], context
    ),
    caption="""
**Each method of the field against budget.** Test error (y) against the feature budget B (x),
one panel per dataset and cost model on which a method of the field's question ran (optimal
cost-sensitive trees, forest pruning, per-example feature acquisition, select-then-train, and
a method of your own of family ``other``), with 95 % confidence intervals as error bars; beside it
the methods the findings compare it with, where they ran on the same dataset and cost model:
the paper's Smoothed and Greedy as published (tau = 1) and tuned on validation, the library
peers (LightGBM CEGB, CatBoost penalties) and the field's other methods. The curves of a
panel are set a few points apart so that their error bars stand side by side; a curve drawn
dashed has the same mean errors as the curve under it, named in the legend. Paired
comparisons: ``findings.parquet``, question ``field``.
""",
)
def field_curves(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Budget curves of the field's methods and their references (see the module
    docstring), on every dataset and cost model a field method ran."""
    summary = tables["summary"]
    catalogue = context.catalogue.including(summary["algorithm"])
    chosen, names, panels = field_selection(summary, context)
    title = "The field's methods against budget, beside Smoothed, Greedy and the peers"
    note = _trials_range(chosen["trials"])
    families = tuple(dict.fromkeys(catalogue[n].family for n in names)) or FIELD_FAMILIES
    families_named = ", ".join(FIELD_FAMILIES)
    return budget_curves(
        chosen,
        panels,
        f"{title}\n({note})" if note else title,
        dataclasses.replace(context, catalogue=subset(catalogue, names), families=families),
        empty_message=f"no results of the field's methods\n(families {families_named})",
    )
