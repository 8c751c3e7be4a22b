"""The paper's figures, drawn from the aggregated summary table.

* :func:`figure_budget_curves` with :func:`figure1_panels`: Figure 1 of Huang, Powers &
  Reyzin (2015): one panel per dataset (and cost model), test error against budget, one line
  per algorithm with 95 % confidence-interval error bars, the unbudgeted AdaBoost reference as a
  horizontal line (its interval shaded) and AdaBoostRS on a secondary right axis, since its
  error is on another scale.
* The same function with :func:`figure2_panels`: Figure 2, the real-cost experiments (heart
  with Turney's costs, and any local dataset such as Yahoo! Webscope).
* :func:`figure_trees`: Figure 3, budgeted decision trees, error against number of nodes
  (log scale), AdaBoost's error as diamonds on a horizontal line for comparison.

Figures are plain :class:`matplotlib.figure.Figure` objects (no pyplot state); every algorithm
has one colour, marker and line style, defined once in :data:`STYLES`.
"""

from __future__ import annotations

import math
import os
from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter, NullFormatter

from budgetboost.io import atomic_path
from budgetboost.stats import REFERENCE_ALGORITHM, sort_algorithms

__all__ = [
    "REAL_COST_MODELS",
    "STYLES",
    "figure1_panels",
    "figure2_panels",
    "figure_budget_curves",
    "figure_trees",
    "save_figure",
]

_COLOURS = sns.color_palette("colorblind", 10)


@dataclass(frozen=True)
class Style:
    """How one algorithm is drawn in every figure."""

    label: str
    colour: tuple[float, float, float] | str
    marker: str
    linestyle: str = "-"


#: The one mapping from algorithm to label, colour, marker and line style.
STYLES = {
    "adaboost": Style("AdaBoost (unbudgeted)", "black", "D", ":"),
    "adaboost_bt": Style("AdaBoostBT", _COLOURS[0], "o"),
    "greedy": Style("AdaBoostBT_Greedy", _COLOURS[1], "s"),
    "smoothed": Style("AdaBoostBT_Smoothed", _COLOURS[2], "^"),
    "speedboost": Style("SpeedBoost", _COLOURS[4], "v", "--"),
    "hybrid": Style("Hybrid", _COLOURS[9], "P"),
    "adaboost_rs": Style("AdaBoostRS (right axis)", "#4d4d4d", "X", "-."),
    "adaboost_rs_ac": Style("AdaBoostRS_AC (right axis)", _COLOURS[7], "*", "-."),
    "tree": Style("Decision tree", _COLOURS[3], "h"),
    "tree_cs": Style("Cost-sensitive tree", _COLOURS[8], "p"),
}
#: Algorithms drawn against the right-hand axis (their error is on another scale).
SECONDARY = ("adaboost_rs", "adaboost_rs_ac")
#: Algorithms left out of the budget curves (they have their own Figure 3).
TREES = ("tree", "tree_cs")
#: Panel order: the paper's Table 1 (other datasets follow alphabetically).
DATASET_ORDER = ("ocr17", "ocr49", "splice", "census", "breast_cancer", "ecoli", "sonar",
                 "heart", "ionosphere", "webscope")
#: Cost models of the real-cost experiment (Figure 2).
REAL_COST_MODELS = ("turney",)
NCOLS = 3


def style(algorithm: str) -> Style:
    """The :class:`Style` of ``algorithm`` (grey dots with its own name if unknown)."""
    return STYLES.get(algorithm, Style(algorithm, "grey", "."))


def figure2_panels(summary: pd.DataFrame,
                   local_datasets: Collection[str] = ()) -> list[tuple[str, str]]:
    """(dataset, cost_model) panels of Figure 2: real costs or a local dataset."""
    pairs = _pairs(summary)
    return [(d, c) for d, c in pairs if c in REAL_COST_MODELS or d in set(local_datasets)]


def figure1_panels(summary: pd.DataFrame,
                   local_datasets: Collection[str] = ()) -> list[tuple[str, str]]:
    """(dataset, cost_model) panels of Figure 1: every experiment not in Figure 2."""
    fig2 = set(figure2_panels(summary, local_datasets))
    return [p for p in _pairs(summary) if p not in fig2]


def _pairs(summary: pd.DataFrame, algorithms: Collection[str] | None = None
           ) -> list[tuple[str, str]]:
    """(dataset, cost_model) pairs with finite-budget rows, in :data:`DATASET_ORDER`.

    Rows of ``algorithms`` only if given, else of every algorithm but the trees.
    """
    keep = (summary["algorithm"].isin(algorithms) if algorithms is not None
            else ~summary["algorithm"].isin(TREES))
    curves = summary[keep & np.isfinite(summary["budget"])]
    pairs = {(d, c) for d, c in zip(curves["dataset"], curves["cost_model"], strict=True)}
    return sorted(pairs, key=lambda p: (DATASET_ORDER.index(p[0]) if p[0] in DATASET_ORDER
                                        else len(DATASET_ORDER), p))


def _grid(n_panels: int, width: float = 4.6, height: float = 3.4) -> tuple[Figure, list[Axes]]:
    ncols = min(NCOLS, max(1, n_panels))
    nrows = max(1, math.ceil(n_panels / ncols))
    width = max(width * ncols, 7.0)
    fig = Figure(figsize=(width, height * nrows + 0.9), layout="constrained")
    axes = list(fig.subplots(nrows, ncols, squeeze=False).ravel())
    for ax in axes[max(1, n_panels):]:
        fig.delaxes(ax)
    return fig, axes[:max(1, n_panels)]


def _reference(summary: pd.DataFrame, dataset: str, cost_model: str) -> pd.Series | None:
    ref = summary[(summary["algorithm"] == REFERENCE_ALGORITHM) & np.isinf(summary["budget"])
                  & (summary["dataset"] == dataset)]
    if ref.empty:
        return None
    same = ref[ref["cost_model"] == cost_model]
    return (same if not same.empty else ref.sort_values("cost_model")).iloc[0]


def _draw_reference(ax: Axes, ref: pd.Series | None) -> None:
    if ref is None:
        return
    s = style(REFERENCE_ALGORITHM)
    ax.axhline(ref["error_mean"], color=s.colour, linestyle=s.linestyle, linewidth=1.2,
               label=s.label)
    if np.isfinite(ref["ci_half"]):
        ax.axhspan(ref["ci_low"], ref["ci_high"], color="0.6", alpha=0.18, linewidth=0)


def _draw_curve(ax: Axes, curve: pd.DataFrame, algorithm: str, x: str = "budget") -> None:
    s = style(algorithm)
    curve = curve.sort_values(x)
    ax.errorbar(curve[x], curve["error_mean"], yerr=curve["ci_half"].fillna(0.0),
                color=s.colour, marker=s.marker, linestyle=s.linestyle, markersize=4,
                linewidth=1.4, capsize=2, elinewidth=0.8, label=s.label)


def _budget_panel(ax: Axes, summary: pd.DataFrame, dataset: str, cost_model: str) -> None:
    part = summary[(summary["dataset"] == dataset) & (summary["cost_model"] == cost_model)
                   & np.isfinite(summary["budget"])]
    ax.set_title(f"{dataset} · {cost_model}")
    ax.set_xlabel("budget B")
    ax.set_ylabel("test error")
    _draw_reference(ax, _reference(summary, dataset, cost_model))
    algorithms = [a for a in sort_algorithms(part["algorithm"])
                  if a not in TREES and a != REFERENCE_ALGORITHM]
    for algorithm in algorithms:
        if algorithm not in SECONDARY:
            _draw_curve(ax, part[part["algorithm"] == algorithm], algorithm)
    secondary = [a for a in algorithms if a in SECONDARY]
    if secondary:
        right = ax.twinx()
        right.grid(False)
        for algorithm in secondary:
            _draw_curve(right, part[part["algorithm"] == algorithm], algorithm)
        right.set_ylabel("test error (AdaBoostRS)", color=style(secondary[0]).colour)
        right.tick_params(axis="y", colors=style(secondary[0]).colour)


def _placeholder(ax: Axes, message: str) -> None:
    ax.set_axis_off()
    ax.set_title("no results")
    ax.text(0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes,
            fontsize=12, wrap=True)


def _legend(fig: Figure, ncols: int) -> None:
    """One figure legend with each algorithm once, in canonical order."""
    by_label = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            by_label.setdefault(label, handle)
    if not by_label:
        return
    order = [style(a).label for a in sort_algorithms(
        [a for a in STYLES if style(a).label in by_label])]
    order += [label for label in by_label if label not in order]
    fig.legend([by_label[label] for label in order], order, loc="outside lower center",
               ncols=min(len(order), {1: 3, 2: 4}.get(ncols, 7)), frameon=False)


def figure_budget_curves(summary: pd.DataFrame, panels: Sequence[tuple[str, str]],
                         title: str, empty_message: str = "no results") -> Figure:
    """Test error against budget, one panel per (dataset, cost_model) in ``panels``.

    Lines: one per algorithm with its 95 % CI as error bars; AdaBoostRS on the right axis;
    the unbudgeted AdaBoost reference as a dotted horizontal line with its CI shaded. With no
    panels the figure holds one placeholder panel saying ``empty_message``.
    """
    with sns.axes_style("whitegrid"), sns.plotting_context("paper", font_scale=1.1):
        fig, axes = _grid(len(panels))
        if not panels:
            _placeholder(axes[0], empty_message)
        for ax, (dataset, cost_model) in zip(axes, panels, strict=False):
            _budget_panel(ax, summary, dataset, cost_model)
        fig.suptitle(title)
        _legend(fig, min(NCOLS, max(1, len(panels))))
    return fig


def figure_trees(summary: pd.DataFrame) -> Figure:
    """Figure 3: tree error against number of nodes (log x) with AdaBoost's error.

    One panel per (dataset, cost_model) with tree results; trees evaluated at several budgets
    give one point per budget at the mean node count. Without tree results the figure holds
    one placeholder panel saying so.
    """
    trees = summary[summary["algorithm"].isin(TREES) & (summary["nodes_mean"] > 0)]
    panels = _pairs(trees, TREES)
    with sns.axes_style("whitegrid"), sns.plotting_context("paper", font_scale=1.1):
        fig, axes = _grid(len(panels))
        if not panels:
            _placeholder(axes[0], "no tree results\n(algorithms tree / tree_cs not run)")
        for ax, (dataset, cost_model) in zip(axes, panels, strict=False):
            part = trees[(trees["dataset"] == dataset) & (trees["cost_model"] == cost_model)]
            for algorithm in sort_algorithms(part["algorithm"]):
                _draw_curve(ax, part[part["algorithm"] == algorithm], algorithm, x="nodes_mean")
            ref = _reference(summary, dataset, cost_model)
            if ref is not None:
                s = style(REFERENCE_ALGORITHM)
                _draw_reference(ax, ref)
                ax.plot([part["nodes_mean"].min(), part["nodes_mean"].max()],
                        [ref["error_mean"]] * 2, linestyle="none", marker=s.marker,
                        color=s.colour, markersize=6)
            ax.set_xscale("log")
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))  # 10, not 10^1
            ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels overlapped
            ax.set_title(f"{dataset} · {cost_model}")
            ax.set_xlabel("tree nodes (log scale)")
            ax.set_ylabel("test error")
        fig.suptitle("Figure 3: budgeted decision trees against AdaBoost")
        _legend(fig, min(NCOLS, max(1, len(panels))))
    return fig


def save_figure(fig: Figure, *paths: str | os.PathLike) -> None:
    """Write ``fig`` to each path (format from the suffix: .png at 150 dpi, .pdf) atomically.

    Creation dates and software versions are left out so unchanged results give unchanged
    files.
    """
    for path in paths:
        fmt = os.fspath(path).rsplit(".", 1)[-1].lower()
        metadata = {"pdf": {"CreationDate": None, "Producer": None, "Creator": None},
                    "png": {"Software": None}}.get(fmt)
        with atomic_path(path, suffix=f".{fmt}") as tmp:
            fig.savefig(tmp, format=fmt, dpi=150, metadata=metadata)
