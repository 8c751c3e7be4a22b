"""The paper's figures, drawn from the aggregated summary table and registered by name.

* :func:`figure1`: Figure 1 of Huang, Powers & Reyzin (2015): one panel per dataset (and cost
  model), test error against budget, one line per algorithm with 95 % confidence-interval
  error bars, the unbudgeted AdaBoost reference as a horizontal line (its interval shaded) and
  test-time sampling (AdaBoostRS) on a secondary right axis, since its error is on another
  scale.
* :func:`figure2`: Figure 2, the real-cost experiments (heart with Turney's costs, and any
  local dataset such as Yahoo! Webscope).
* :func:`figure3`: Figure 3, budgeted decision trees, error against number of nodes (log
  scale), AdaBoost's error as diamonds on a horizontal line for comparison.

Each is registered with :func:`budgetboost.figures.registry.figure` (name, caption, families), which
is all the pipeline needs to draw it and put it in the report. Figures are plain
:class:`matplotlib.figure.Figure` objects (no pyplot state); labels, colours, markers and
line styles come from the run's :class:`~budgetboost.pipeline.catalogue.Catalogue`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection, Mapping, Sequence

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter

from budgetboost.data.io import atomic_path
from budgetboost.figures.registry import FigureContext, figure
from budgetboost.pipeline.catalogue import Catalogue, paper_experiments

__all__ = [
    "REAL_COST_MODELS",
    "figure1",
    "figure1_panels",
    "figure2",
    "figure2_panels",
    "figure3",
    "figure_budget_curves",
    "figure_trees",
    "save_figure",
]

#: Panel order: the paper's Table 1 (other datasets follow alphabetically).
DATASET_ORDER = (
    "ocr17",
    "ocr49",
    "splice",
    "census",
    "breast_cancer",
    "ecoli",
    "sonar",
    "heart",
    "ionosphere",
    "webscope",
)
#: Cost models of the real-cost experiment (Figure 2).
REAL_COST_MODELS = ("turney",)
#: Families drawn as budget curves (Figures 1 and 2).
CURVE_FAMILIES = ("reference", "boosting", "sampling")
NCOLS = 3
#: Legend text per inch of figure width (paper context, font scale 1.1), to size its columns.
LEGEND_CHARS_PER_INCH = 9


def _paper_style():
    """The figures' look (seaborn's whitegrid, paper context); seaborn is imported here, not
    when the figure registry is loaded to plan a workflow (it takes a second or more)."""
    import seaborn as sns

    return sns.axes_style("whitegrid"), sns.plotting_context("paper", font_scale=1.1)


def _label(catalogue: Catalogue, algorithm: str) -> str:
    entry = catalogue[algorithm]
    return f"{entry.label} (right axis)" if entry.right_axis else entry.label


def figure2_panels(
    summary: pd.DataFrame, local_datasets: Collection[str] = ()
) -> list[tuple[str, str]]:
    """(dataset, cost_model) panels of Figure 2: real costs or a local dataset."""
    pairs = _pairs(summary)
    return [(d, c) for d, c in pairs if c in REAL_COST_MODELS or d in set(local_datasets)]


def figure1_panels(
    summary: pd.DataFrame, local_datasets: Collection[str] = ()
) -> list[tuple[str, str]]:
    """(dataset, cost_model) panels of Figure 1: every experiment not in Figure 2."""
    fig2 = set(figure2_panels(summary, local_datasets))
    return [p for p in _pairs(summary) if p not in fig2]


def _pairs(
    summary: pd.DataFrame, algorithms: Collection[str] | None = None
) -> list[tuple[str, str]]:
    """(dataset, cost_model) pairs with finite-budget rows, in :data:`DATASET_ORDER`.

    Rows of ``algorithms`` only if given, else of the budget-curve families.
    """
    if algorithms is None:
        algorithms = Catalogue.default().including(summary["algorithm"]).of_family(*CURVE_FAMILIES)
    curves = summary[summary["algorithm"].isin(algorithms) & np.isfinite(summary["budget"])]
    pairs = {(d, c) for d, c in zip(curves["dataset"], curves["cost_model"], strict=True)}
    return sorted(
        pairs,
        key=lambda p: (
            DATASET_ORDER.index(p[0]) if p[0] in DATASET_ORDER else len(DATASET_ORDER),
            p,
        ),
    )


def _grid(n_panels: int, width: float = 4.6, height: float = 3.4) -> tuple[Figure, list[Axes]]:
    ncols = min(NCOLS, max(1, n_panels))
    nrows = max(1, math.ceil(n_panels / ncols))
    width = max(width * ncols, 7.0)
    fig = Figure(figsize=(width, height * nrows + 0.9), layout="constrained")
    axes = list(fig.subplots(nrows, ncols, squeeze=False).ravel())
    for ax in axes[max(1, n_panels) :]:
        fig.delaxes(ax)
    return fig, axes[: max(1, n_panels)]


def _reference(
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


def _draw_reference(ax: Axes, ref: pd.Series | None, catalogue: Catalogue) -> None:
    if ref is None:
        return
    s = catalogue[ref["algorithm"]].style
    ax.axhline(
        ref["error_mean"],
        color=s.colour,
        linestyle=s.linestyle,
        linewidth=1.2,
        label=_label(catalogue, ref["algorithm"]),
    )
    if np.isfinite(ref["ci_half"]):
        ax.axhspan(ref["ci_low"], ref["ci_high"], color="0.6", alpha=0.18, linewidth=0)


def _draw_curve(
    ax: Axes, curve: pd.DataFrame, algorithm: str, catalogue: Catalogue, x: str = "budget"
) -> None:
    s = catalogue[algorithm].style
    curve = curve.sort_values(x)
    ax.errorbar(
        curve[x],
        curve["error_mean"],
        yerr=curve["ci_half"].fillna(0.0),
        color=s.colour,
        marker=s.marker,
        linestyle=s.linestyle,
        markersize=4,
        linewidth=1.4,
        capsize=2,
        elinewidth=0.8,
        label=_label(catalogue, algorithm),
    )


def _budget_panel(
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
        _draw_reference(ax, _reference(summary, dataset, cost_model, catalogue), catalogue)
    algorithms = [
        a for a in context.algorithms(part["algorithm"]) if catalogue[a].family != "reference"
    ]
    for algorithm in algorithms:
        if not catalogue[algorithm].right_axis:
            _draw_curve(ax, part[part["algorithm"] == algorithm], algorithm, catalogue)
    secondary = [a for a in algorithms if catalogue[a].right_axis]
    if secondary:
        right = ax.twinx()
        right.grid(False)
        for algorithm in secondary:
            _draw_curve(right, part[part["algorithm"] == algorithm], algorithm, catalogue)
        colour = catalogue[secondary[0]].style.colour
        right.set_ylabel("test error (test-time sampling)", color=colour)
        right.tick_params(axis="y", colors=colour)


def _placeholder(ax: Axes, message: str) -> None:
    ax.set_axis_off()
    ax.set_title("no results")
    ax.text(
        0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, fontsize=12, wrap=True
    )


def _legend(fig: Figure, ncols: int, catalogue: Catalogue) -> None:
    """One figure legend with each algorithm once, in catalogue order."""
    by_label = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            by_label.setdefault(label, handle)
    if not by_label:
        return
    order = [label for label in (_label(catalogue, a) for a in catalogue) if label in by_label]
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


def figure_budget_curves(
    summary: pd.DataFrame,
    panels: Sequence[tuple[str, str]],
    title: str,
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
    context = FigureContext(catalogue, context.local_datasets, context.families)
    axes_style, context_style = _paper_style()
    with axes_style, context_style:
        fig, axes = _grid(len(panels))
        if not panels:
            _placeholder(axes[0], empty_message)
        for ax, (dataset, cost_model) in zip(axes, panels, strict=False):
            _budget_panel(ax, summary, dataset, cost_model, context)
        fig.suptitle(title)
        _legend(fig, min(NCOLS, max(1, len(panels))), catalogue)
    return fig


def figure_trees(summary: pd.DataFrame, context: FigureContext) -> Figure:
    """Test error against number of nodes (log x) of the tree family, with AdaBoost's error.

    One panel per (dataset, cost_model) with tree results; trees evaluated at several budgets
    give one point per budget at the mean node count. Without tree results the figure holds
    one placeholder panel saying so.
    """
    catalogue = context.catalogue.including(summary["algorithm"])
    names = catalogue.of_family("tree")
    trees = summary[summary["algorithm"].isin(names) & (summary["nodes_mean"] > 0)]
    panels = _pairs(trees, names)
    axes_style, context_style = _paper_style()
    with axes_style, context_style:
        fig, axes = _grid(len(panels))
        if not panels:
            _placeholder(axes[0], "no tree results\n(no algorithm of family 'tree' ran)")
        for ax, (dataset, cost_model) in zip(axes, panels, strict=False):
            part = trees[(trees["dataset"] == dataset) & (trees["cost_model"] == cost_model)]
            for algorithm in catalogue.sort(part["algorithm"]):
                _draw_curve(
                    ax, part[part["algorithm"] == algorithm], algorithm, catalogue, x="nodes_mean"
                )
            ref = _reference(summary, dataset, cost_model, catalogue)
            if ref is not None:
                s = catalogue[ref["algorithm"]].style
                _draw_reference(ax, ref, catalogue)
                ax.plot(
                    [part["nodes_mean"].min(), part["nodes_mean"].max()],
                    [ref["error_mean"]] * 2,
                    linestyle="none",
                    marker=s.marker,
                    color=s.colour,
                    markersize=6,
                )
            ax.set_xscale("log")
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))  # 10, not 10^1
            ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels overlapped
            ax.set_title(f"{dataset} · {cost_model}")
            ax.set_xlabel("tree nodes (log scale)")
            ax.set_ylabel("test error")
        fig.suptitle("Figure 3: budgeted decision trees against AdaBoost")
        _legend(fig, min(NCOLS, max(1, len(panels))), catalogue)
    return fig


# --------------------------------------------------------------------- registered figures


@figure(
    "figure1",
    title="1: uniform random costs",
    category="Reproduction",
    families=CURVE_FAMILIES,
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
    summary = paper_experiments(tables["summary"], tables["summary"], context.catalogue)
    return figure_budget_curves(
        summary,
        figure1_panels(summary, context.local_datasets),
        "Figure 1: test error against budget (95 % CI; test-time sampling on the right axis)",
        context,
    )


@figure(
    "figure2",
    title="2: real costs",
    category="Reproduction",
    families=CURVE_FAMILIES,
    caption="""
Figure 2 of the paper: the same curves as Figure 1 for real feature costs, heart with
Turney's test costs (cost model ``turney``) and any local dataset enabled in the config
(Yahoo! Webscope). A single "no results" panel means this run had none of these experiments.
""",
)
def figure2(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Figure 2: budget curves of the real-cost experiments."""
    summary = paper_experiments(tables["summary"], tables["summary"], context.catalogue)
    return figure_budget_curves(
        summary,
        figure2_panels(summary, context.local_datasets),
        "Figure 2: real feature costs (heart with Turney's costs, local datasets)",
        context,
        empty_message="no real-cost results\n(cost model turney or a local dataset)",
    )


@figure(
    "figure3",
    title="3: decision trees",
    category="Reproduction",
    families=("reference", "tree"),
    caption="""
Figure 3 of the paper: test error of budgeted decision trees (y) against the number of tree
nodes (x, log scale), one point per budget; the diamonds on the dotted line mark the
unbudgeted AdaBoost error for comparison. A single "no tree results" panel means no
algorithm of the tree family was part of this run.
""",
)
def figure3(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """Figure 3: trees against AdaBoost."""
    return figure_trees(
        paper_experiments(tables["summary"], tables["summary"], context.catalogue), context
    )


def save_figure(fig: Figure, *paths: str | os.PathLike) -> None:
    """Write ``fig`` to each path (format from the suffix: .png at 150 dpi, .pdf) atomically.

    Creation dates and software versions are left out so unchanged results give unchanged
    files.
    """
    for path in paths:
        fmt = os.fspath(path).rsplit(".", 1)[-1].lower()
        metadata = {
            "pdf": {"CreationDate": None, "Producer": None, "Creator": None},
            "png": {"Software": None},
        }.get(fmt)
        with atomic_path(path, suffix=f".{fmt}") as tmp:
            fig.savefig(tmp, format=fmt, dpi=150, metadata=metadata)
