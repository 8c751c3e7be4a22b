"""The building blocks of budget-curve figures: panels, curves, the reference, the legend.

A budget-curve figure is a grid of panels, one per (dataset, cost model), ordered as the
registry lists the datasets (Table 1's order, :meth:`FigureContext.panel_order`); each panel
draws test error against budget, one line per algorithm with its 95 % confidence interval as
error bars, the unbudgeted AdaBoost reference as a horizontal line with its interval shaded,
and test-time sampling on a right-hand axis (its error is on another scale). Labels, colours,
markers and line styles come from the run's :class:`~budgetboost.pipeline.catalogue.Catalogue`;
every figure has one legend listing each algorithm once. The figures themselves are
:mod:`budgetboost.figures.curves`.
"""

from __future__ import annotations

import dataclasses
import math
import textwrap
from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from budgetboost.figures.registry import FigureContext
from budgetboost.figures.style import paper_style
from budgetboost.pipeline.catalogue import Catalogue

__all__ = [
    "CURVE_FAMILIES",
    "NCOLS",
    "budget_curves",
    "budget_panel",
    "draw_curve",
    "draw_reference",
    "grid",
    "legend_label",
    "legend",
    "panel_pairs",
    "placeholder",
    "reference",
    "subset",
    "title",
    "trials_note",
]

#: The ``gid`` of every curve :func:`draw_curve` draws (the interval around it is a band).
CURVE_GID = "budget-curve"
#: Families drawn as budget curves (Figures 1 and 2).
CURVE_FAMILIES = ("reference", "boosting", "sampling")
NCOLS = 3
#: Legend text per inch of figure width (paper context, font scale 1.1), to size its columns.
LEGEND_CHARS_PER_INCH = 9


def legend_label(catalogue: Catalogue, algorithm: str) -> str:
    entry = catalogue[algorithm]
    return f"{entry.label} (right axis)" if entry.right_axis else entry.label


def panel_pairs(
    summary: pd.DataFrame, context: FigureContext, algorithms: Collection[str] | None = None
) -> list[tuple[str, str]]:
    """(dataset, cost_model) pairs with finite-budget rows, in the context's panel order.

    Rows of ``algorithms`` only if given, else of the budget-curve families.
    """
    if algorithms is None:
        algorithms = context.catalogue.including(summary["algorithm"]).of_family(*CURVE_FAMILIES)
    curves = summary[summary["algorithm"].isin(algorithms) & np.isfinite(summary["budget"])]
    pairs = {(d, c) for d, c in zip(curves["dataset"], curves["cost_model"], strict=True)}
    return sorted(pairs, key=context.panel_order)


def grid(n_panels: int, width: float = 4.6, height: float = 3.4) -> tuple[Figure, list[Axes]]:
    ncols = min(NCOLS, max(1, n_panels))
    nrows = max(1, math.ceil(n_panels / ncols))
    width = max(width * ncols, 7.0)
    fig = Figure(figsize=(width, height * nrows + 0.9), layout="constrained")
    axes = list(fig.subplots(nrows, ncols, squeeze=False).ravel())
    for ax in axes[max(1, n_panels) :]:
        fig.delaxes(ax)
    return fig, axes[: max(1, n_panels)]


def reference(
    summary: pd.DataFrame, dataset: str, cost_model: str, catalogue: Catalogue
) -> pd.Series | None:
    ref = summary[
        (summary["algorithm"] == catalogue.with_role("reference"))
        & np.isinf(summary["budget"])
        & (summary["dataset"] == dataset)
    ]
    if ref.empty:
        return None
    same = ref[ref["cost_model"] == cost_model]
    return (same if not same.empty else ref.sort_values("cost_model")).iloc[0]


def draw_reference(ax: Axes, ref: pd.Series | None, catalogue: Catalogue) -> None:
    if ref is None:
        return
    s = catalogue[ref["algorithm"]].style
    ax.axhline(
        ref["error_mean"],
        color=s.colour,
        linestyle=s.linestyle,
        linewidth=1.2,
        label=legend_label(catalogue, ref["algorithm"]),
    )
    if np.isfinite(ref["ci_half"]):
        ax.axhspan(ref["ci_low"], ref["ci_high"], color="0.6", alpha=0.18, linewidth=0)


def draw_curve(
    ax: Axes, curve: pd.DataFrame, algorithm: str, catalogue: Catalogue, x: str = "budget"
) -> None:
    """The mean test error at each budget, its 95 % interval a faint band clipped to [0, 1]
    (error bars ran below 0 and hid the curves when a few trials made the intervals wide)."""
    s = catalogue[algorithm].style
    curve = curve.sort_values(x)
    half = curve["ci_half"].fillna(0.0)
    ax.fill_between(
        curve[x],
        (curve["error_mean"] - half).clip(lower=0.0),
        (curve["error_mean"] + half).clip(upper=1.0),
        color=s.colour,
        alpha=0.12,
        linewidth=0,
    )
    ax.plot(
        curve[x],
        curve["error_mean"],
        color=s.colour,
        marker=s.marker,
        linestyle=s.linestyle,
        markersize=4,
        linewidth=1.4,
        label=legend_label(catalogue, algorithm),
        gid=CURVE_GID,
    )


def budget_panel(
    ax: Axes, summary: pd.DataFrame, dataset: str, cost_model: str, context: FigureContext
) -> None:
    catalogue = context.catalogue
    part = summary[
        (summary["dataset"] == dataset)
        & (summary["cost_model"] == cost_model)
        & np.isfinite(summary["budget"])
    ]
    ax.set_title(f"{dataset} · {cost_model}")
    ax.set_xlabel("budget B")
    ax.set_ylabel("test error")
    if "reference" in context.families:
        draw_reference(ax, reference(summary, dataset, cost_model, catalogue), catalogue)
    algorithms = [
        a for a in context.algorithms(part["algorithm"]) if catalogue[a].family != "reference"
    ]
    for algorithm in algorithms:
        if not catalogue[algorithm].right_axis:
            draw_curve(ax, part[part["algorithm"] == algorithm], algorithm, catalogue)
    secondary = [a for a in algorithms if catalogue[a].right_axis]
    if secondary:
        right = ax.twinx()
        right.grid(False)
        for algorithm in secondary:
            draw_curve(right, part[part["algorithm"] == algorithm], algorithm, catalogue)
        colour = catalogue[secondary[0]].style.colour
        right.set_ylabel("test error (test-time sampling)", color=colour)
        right.tick_params(axis="y", colors=colour)


def placeholder(ax: Axes, message: str) -> None:
    ax.set_axis_off()
    ax.set_title("no results")
    ax.text(
        0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, fontsize=12, wrap=True
    )


def legend(fig: Figure, ncols: int, catalogue: Catalogue) -> None:
    """One figure legend with each algorithm once, in catalogue order."""
    by_label = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            by_label.setdefault(label, handle)
    if not by_label:
        return
    order = [
        label for label in (legend_label(catalogue, a) for a in catalogue) if label in by_label
    ]
    order += [label for label in by_label if label not in order]
    # as many columns as fit the figure's width (about LEGEND_CHARS_PER_INCH characters per
    # inch, each entry its label plus the marker), so that long labels are never cut off
    widest = max(len(label) for label in order) + 6
    fitting = max(1, int(fig.get_figwidth() * LEGEND_CHARS_PER_INCH / widest))
    fig.legend(
        [by_label[label] for label in order],
        order,
        loc="outside lower center",
        ncols=min(len(order), {1: 3, 2: 4}.get(ncols, 7), fitting),
        frameon=False,
    )


def budget_curves(
    summary: pd.DataFrame,
    panels: Sequence[tuple[str, str]],
    heading: str,
    context: FigureContext,
    empty_message: str = "no results",
) -> Figure:
    """Test error against budget, one panel per (dataset, cost_model) in ``panels``.

    Lines: one per algorithm of the context's families with its 95 % CI as error bars;
    right-axis families (test-time sampling) on the right axis; the unbudgeted AdaBoost
    reference as a dotted horizontal line with its CI shaded. With no panels the figure holds
    one placeholder panel saying ``empty_message``.
    """
    catalogue = context.catalogue.including(summary["algorithm"])
    context = dataclasses.replace(context, catalogue=catalogue)
    axes_style, context_style = paper_style()
    with axes_style, context_style:
        fig, axes = grid(len(panels))
        if not panels:
            placeholder(axes[0], empty_message)
        for ax, (dataset, cost_model) in zip(axes, panels, strict=False):
            budget_panel(ax, summary, dataset, cost_model, context)
        title(fig, heading)
        legend(fig, min(NCOLS, max(1, len(panels))), catalogue)
    return fig


#: Characters of a figure title per inch of figure width (paper context, title size).
TITLE_CHARS_PER_INCH = 8.5


def title(fig: Figure, text: str, **kwargs) -> None:
    """``fig.suptitle(text)``, each line wrapped to the figure's width, so that no title runs
    past the canvas (a one-panel figure is 7 inches wide)."""
    width = max(20, int(fig.get_figwidth() * TITLE_CHARS_PER_INCH))
    lines = [textwrap.fill(line, width) for line in text.split("\n")]
    fig.suptitle("\n".join(lines), **kwargs)


def subset(catalogue: Catalogue, names: list[str]) -> Catalogue:
    """``catalogue`` restricted to ``names``, keeping each one's label and style."""
    records = catalogue.records()
    return Catalogue({name: records[name] for name in names})


def trials_note(summary: pd.DataFrame, names: list[str], catalogue: Catalogue) -> str:
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
