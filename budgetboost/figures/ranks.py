"""Figures of the rank analysis: critical-difference diagrams and an outcome grid.

* :func:`draw_cd_diagram` draws one critical-difference (CD) diagram of Demšar (2006),
  Figure 1: the average ranks on a horizontal axis (best on the left), each algorithm
  connected to its label, thick bars joining algorithms whose ranks differ by less than the
  Nemenyi critical difference, and the CD itself as a scale bar.
* :func:`figure_cd`: one such diagram per budget band, from
:func:`budgetboost.analysis.ranks.cd_analysis`.
* :func:`figure_outcomes`: rows (dataset, cost model) by columns (algorithm), one panel per
  budget band, each cell coloured by the outcome of the algorithm's paired comparison with a
  control (better, equivalent, inconclusive, worse: :func:`budgetboost.analysis.paired.
  compare`) and annotated with the mean difference.

Figures are plain :class:`matplotlib.figure.Figure` objects (no pyplot state), as in
:mod:`budgetboost.figures.curves`; algorithm names are shown as given unless a ``labels`` mapping
(algorithm -> display name) is passed.

References
----------
J. Demšar, "Statistical Comparisons of Classifiers over Multiple Data Sets", Journal of
Machine Learning Research 7:1-30, 2006.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import Normalize
from matplotlib.figure import Figure

from budgetboost.analysis.bands import BAND_LABELS, BANDS
from budgetboost.analysis.ranks import cd_groups
from budgetboost.figures.registry import FigureContext, figure
from budgetboost.pipeline.catalogue import Catalogue

__all__ = ["OUTCOME_COLOURS", "draw_cd_diagram", "figure_cd", "figure_outcomes"]

#: Font size (points) of the CD diagrams; one vertical layout unit is one text line.
CD_FONTSIZE = 9.0
#: Height of one vertical layout unit of a CD diagram, in text lines of CD_FONTSIZE.
_LINE = 1.45
#: Layout of a CD diagram in vertical units (one unit = one text line): axis at 0.
_TICK, _TICK_LABEL, _CD_BAR = 0.25, 0.35, 1.75
_TOP = 2.75
_GROUP_START, _GROUP_STEP, _ROW_GAP = -0.45, 0.4, 0.45
#: Length of the horizontal stub between the rank axis and a label, in axes fractions.
_STUB = 0.015
#: Largest share of the axes width either column of labels may take, and both together.
_MAX_LABEL_SHARE = 0.42
_MAX_LABELS_SHARE = 0.6


def _cd_extent(k: int, n_groups: int) -> tuple[float, float, float]:
    """(first label row, bottom, top) of a CD diagram with ``k`` algorithms, in layout units."""
    lowest_bar = _GROUP_START - _GROUP_STEP * (n_groups - 1) if n_groups else 0.0
    first_row = lowest_bar - _ROW_GAP - 0.35
    bottom = first_row - (math.ceil(k / 2) - 1) - 0.7
    return first_row, bottom, _TOP


def _format_p(p: float) -> str:
    if not np.isfinite(p):
        return "n/a"
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def draw_cd_diagram(
    ax: Axes,
    ranks: pd.Series,
    cd: float,
    title: str,
    p_value: float,
    labels: Mapping[str, str] | None = None,
    *,
    fontsize: float = CD_FONTSIZE,
) -> list[tuple[int, int]]:
    """Draw a critical-difference diagram of average ranks on ``ax`` (Demšar 2006, Figure 1).

    The rank axis runs from 1 (best, left) to ``k`` (extended to ``1 + cd`` when the CD is longer
    than the axis, so the scale bar stays true). Every algorithm drops a line from its average rank
    to a label with its name and rank: the better half to the left, the others to the right, nested
    so that no two lines cross. Thick bars below the axis join the groups of
    :func:`budgetboost.analysis.ranks.cd_groups` (rank span below the CD: not significantly
    different by the Nemenyi test); a bar above the axis shows the length of the CD. The title is
    ``title`` followed by the Friedman p-value.

    The axes is turned off and its limits set: x in axes fractions, y in text lines (the
    caller should make the axes about ``(top - bottom) * 1.45`` lines of ``fontsize`` high;
    :func:`figure_cd` does). Labels are measured so that they fit in the axes width; if they
    would take more than 42 % of it on one side, or 60 % on both, the font is made smaller
    (down to 5 points).

    Parameters
    ----------
    ax : Axes
    ranks : Series
        Average ranks (:func:`budgetboost.analysis.ranks.average_ranks`), indexed by algorithm.
    cd : float
        Critical difference (:func:`budgetboost.analysis.ranks.nemenyi_cd`).
    title : str
    p_value : float
        Friedman p-value shown in the title (NaN shows as "n/a").
    labels : Mapping[str, str], optional
        Display name of each algorithm (default: the index of ``ranks``).
    fontsize : float
        Font size of labels and title, in points.

    Returns
    -------
    list of (int, int)
        The groups drawn, as positions in the ascending order of ``ranks``.

    Notes
    -----
    Artists carry ``gid`` values for tests and post-processing: ``"cd-group"`` for each
    group bar, ``"cd-scale"`` for the CD scale bar, ``"cd-label"`` for each algorithm label.
    """
    ranks = pd.Series(ranks, dtype=float).sort_values(kind="stable")
    k = ranks.size
    if k < 2:
        raise ValueError(f"a CD diagram needs at least 2 algorithms; got {k}")
    if not np.all((ranks >= 1.0 - 1e-9) & (ranks <= k + 1e-9)):
        raise ValueError(f"average ranks of {k} algorithms must lie in [1, {k}]; got {ranks}")
    if not np.isfinite(cd) or cd <= 0:
        raise ValueError(f"cd must be a positive number; got {cd!r}")
    labels = labels or {}
    names = [str(labels.get(name, name)) for name in ranks.index]
    r = ranks.to_numpy()
    groups = cd_groups(r, cd)
    first_row, bottom, top = _cd_extent(k, len(groups))
    n_left = math.ceil(k / 2)
    hi = max(float(k), 1.0 + cd)

    ax.set_axis_off()
    ax.set_xlim(0.0, 1.0)
    ax.set_ylim(bottom, top)
    texts = [f"{name} ({rank:.2f})" for name, rank in zip(names, r, strict=True)]
    left = np.arange(k) < n_left
    margins = _label_margins(ax, texts, left, fontsize)
    shrink = min(_MAX_LABEL_SHARE / max(margins), _MAX_LABELS_SHARE / sum(margins))
    if shrink < 1.0:  # long labels: a smaller font rather than a squeezed rank axis
        fontsize = max(5.0, fontsize * shrink)
        margins = _label_margins(ax, texts, left, fontsize)
    start, stop = (min(m, _MAX_LABEL_SHARE) for m in margins)
    stop = 1.0 - stop

    def x(rank: np.ndarray | float) -> np.ndarray | float:
        return start + (np.asarray(rank) - 1.0) / (hi - 1.0) * (stop - start)

    line = {"color": "black", "linewidth": 0.9}
    # rank axis with ticks at integers (labelled) and half-integers
    ax.plot([x(1.0), x(hi)], [0.0, 0.0], **line)
    whole = np.arange(1, math.floor(hi) + 1)
    halves = np.arange(1.5, hi, 1.0)
    ax.vlines(x(whole), 0.0, _TICK, **line)
    ax.vlines(x(halves), 0.0, _TICK / 2, **line)
    for value in whole:
        ax.text(x(value), _TICK_LABEL, f"{value:d}", ha="center", va="bottom", fontsize=fontsize)
    # the CD as a scale bar above the axis, starting at rank 1
    ax.plot([x(1.0), x(1.0 + cd)], [_CD_BAR, _CD_BAR], gid="cd-scale", **line)
    ax.vlines([x(1.0), x(1.0 + cd)], _CD_BAR - 0.12, _CD_BAR + 0.12, **line)
    ax.text(
        x(1.0 + cd / 2),
        _CD_BAR + 0.15,
        f"CD = {cd:.2f}",
        ha="center",
        va="bottom",
        fontsize=fontsize,
    )
    # one line per algorithm: down from its rank, then out to its label
    rows = np.concatenate([np.arange(n_left), np.arange(k - n_left)[::-1]])
    y = first_row - rows.astype(float)
    end = np.where(left, start - _STUB, stop + _STUB)
    xs = x(r)
    ax.vlines(xs, y, 0.0, **line)
    ax.hlines(y, np.minimum(xs, end), np.maximum(xs, end), **line)
    for i in range(k):
        ax.text(
            end[i] + (-0.006 if left[i] else 0.006),
            y[i],
            texts[i],
            ha="right" if left[i] else "left",
            va="center",
            fontsize=fontsize,
            gid="cd-label",
        )
    # groups of algorithms not significantly different
    pad = 0.006
    for j, (lo, hi_pos) in enumerate(groups):
        level = _GROUP_START - _GROUP_STEP * j
        ax.plot(
            [xs[lo] - pad, xs[hi_pos] + pad],
            [level, level],
            color="black",
            linewidth=3.2,
            solid_capstyle="round",
            gid="cd-group",
        )
    ax.set_title(f"{title} · Friedman p = {_format_p(p_value)}", fontsize=fontsize + 1)
    return groups


def _label_margins(
    ax: Axes, texts: list[str], left: np.ndarray, fontsize: float
) -> tuple[float, float]:
    """Shares of the axes width taken by the left and the right labels, with their stubs."""
    width = max(ax.get_window_extent().width, 1.0)
    probes = [ax.text(0.0, 0.0, text, fontsize=fontsize) for text in texts]
    widths = np.array([probe.get_window_extent().width for probe in probes])
    for probe in probes:
        probe.remove()
    pad = 6.0 / width + _STUB + 0.006
    return float(widths[left].max() / width + pad), float(widths[~left].max() / width + pad)


def figure_cd(
    cd_table: pd.DataFrame,
    labels: Mapping[str, str] | None = None,
    width: float = 7.5,
) -> Figure:
    """One critical-difference diagram per budget band, stacked top to bottom.

    Parameters
    ----------
    cd_table : DataFrame
        :func:`budgetboost.analysis.ranks.cd_analysis` output (or the Parquet file written from it).
    labels : Mapping[str, str], optional
        Display name of each algorithm (default: the names).
    width : float
        Figure width in inches.

    Returns
    -------
    Figure
        One axes per band present in ``cd_table``, in the order small, medium, larger
        budgets, each titled with the band, N (data sets) and k (algorithms) and the Friedman
        p-value (Iman-Davenport). Without any band, one axes saying so.
    """
    bands = [band for band in BANDS if band in set(cd_table["band"])]
    unit = CD_FONTSIZE * _LINE / 72.0  # inches per layout unit
    title_space, gap, edge = 0.42, 0.2, 0.1
    panels = []
    for band in bands:
        part = cd_table[cd_table["band"] == band]
        ranks = pd.Series(part["average_rank"].to_numpy(), index=part["algorithm"].astype(str))
        cd = float(part["cd"].iloc[0])
        _, bottom, top = _cd_extent(ranks.size, len(cd_groups(ranks, cd)))
        panels.append((band, part, ranks, cd, (top - bottom) * unit))
    if not panels:
        fig = Figure(figsize=(width, 1.5))
        ax = fig.add_subplot()
        ax.set_axis_off()
        ax.text(
            0.5,
            0.5,
            "no rank analysis: fewer than 2 algorithms or 2 data sets per band",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
        return fig
    height = sum(h + title_space for *_, h in panels) + gap * (len(panels) - 1) + 2 * edge
    fig = Figure(figsize=(width, height))
    top_in = height - edge
    for band, part, ranks, cd, h in panels:
        top_in -= title_space
        ax = fig.add_axes((0.02, (top_in - h) / height, 0.96, h / height))
        title = (
            f"{BAND_LABELS[band]}: N = {int(part['n_datasets'].iloc[0])} data sets, "
            f"k = {ranks.size}, α = {float(part['alpha'].iloc[0]):g}"
        )
        draw_cd_diagram(ax, ranks, cd, title, float(part["friedman_p"].iloc[0]), labels)
        top_in -= h + gap
    return fig


#: Colours of the outcomes of a comparison with the control (colour-blind safe).
OUTCOME_COLOURS = {
    "better": "#0173b2",
    "equivalent": "#a6cee3",
    "inconclusive": "#e5e5e5",
    "worse": "#d55e00",
}


def figure_outcomes(
    table: pd.DataFrame,
    control: str,
    labels: Mapping[str, str] | None = None,
    catalogue: Catalogue | None = None,
) -> Figure:
    """Grid of each algorithm's outcome against the control, per (dataset, cost model) and
    budget band.

    Parameters
    ----------
    table : DataFrame
        Rows of :func:`budgetboost.analysis.paired.compare` of each algorithm (``x``) against
        the control (``y``), per dataset (the rows across datasets are left out).
    control : str
        The control's name.
    labels : Mapping[str, str], optional
        Display name of each algorithm (default: the names).

    Returns
    -------
    Figure
        One panel per budget band: rows ``dataset · cost_model``, columns algorithms in
        canonical order, each cell coloured by the outcome (:data:`OUTCOME_COLOURS`) and
        annotated with the mean difference in test error (x minus the control); grey ``–``
        where the pair has no comparison.
    """
    labels = labels or {}
    table = table[table["dataset"] != "all"]
    keys = ["dataset", "cost_model"]
    rows = table[keys].drop_duplicates().sort_values(keys, kind="stable")
    index = pd.MultiIndex.from_frame(rows)
    columns = (catalogue if catalogue is not None else Catalogue.default()).sort(table["x"])
    bands = [b for b in BANDS if b in set(table["band"])]
    n_rows, n_cols = len(index), len(columns)
    fig = Figure(
        figsize=(
            1.5 + (1.2 + 0.62 * max(n_cols, 3)) * max(len(bands), 1),
            2.6 + 0.34 * max(n_rows, 2),
        ),
        layout="constrained",
    )
    if not bands or n_rows == 0 or n_cols == 0:
        ax = fig.add_subplot()
        ax.set_axis_off()
        ax.text(
            0.5,
            0.5,
            f"no comparisons with {labels.get(control, control)}",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
        return fig
    axes = fig.subplots(1, len(bands), sharey=True, squeeze=False)[0]
    order = list(OUTCOME_COLOURS)
    cmap = mpl.colors.ListedColormap([OUTCOME_COLOURS[o] for o in order]).with_extremes(bad="white")
    for ax, band in zip(axes, bands, strict=True):
        part = table[table["band"] == band]

        def wide(value: str, part: pd.DataFrame = part) -> pd.DataFrame:
            return part.pivot(index=keys, columns="x", values=value).reindex(
                index=index, columns=columns
            )

        outcome = wide("outcome")
        codes = outcome.map(lambda o: order.index(o) if isinstance(o, str) else np.nan)
        ax.imshow(
            np.ma.masked_invalid(codes.to_numpy(dtype=float)),
            cmap=cmap,
            norm=Normalize(-0.5, len(order) - 0.5),
            aspect="auto",
            interpolation="nearest",
        )
        difference = wide("mean_difference").to_numpy(dtype=float)
        for i, j in np.ndindex(difference.shape):
            text = "–" if np.isnan(difference[i, j]) else f"{difference[i, j]:+.2f}"
            ax.text(j, i, text, ha="center", va="center", fontsize=7, color="black")
        ax.set_xticks(
            np.arange(n_cols),
            [labels.get(a, a) for a in columns],
            rotation=35,
            ha="right",
            rotation_mode="anchor",
        )
        ax.set_yticks(np.arange(n_rows), [f"{d} · {c}" for d, c in index])
        ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=1.5)
        ax.tick_params(which="both", length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_title(BAND_LABELS[band], fontsize=10)
    handles = [mpl.patches.Patch(color=OUTCOME_COLOURS[o], label=o) for o in order]
    fig.legend(handles=handles, loc="outside lower center", ncols=len(order), frameon=False)
    fig.suptitle(
        f"Each algorithm against {labels.get(control, control)}: outcome per data set and band\n"
        "(cell: mean difference in test error, the algorithm minus the control)",
        fontsize=10,
    )
    return fig


# --------------------------------------------------------------------- registered figures

#: The families ranked against each other: every budgeted algorithm (not the reference).
RANKED_FAMILIES = ("boosting", "boosted_trees", "sampling", "tree", "peer", "other")


def _labels(context: FigureContext) -> dict[str, str]:
    return {name: context.catalogue.label(name) for name in context.catalogue}


@figure(
    "critical_difference",
    title="ranks across data sets (critical differences)",
    category="Rank statistics",
    families=RANKED_FAMILIES,
    tables=("ranks",),
    caption="""
**Critical-difference diagrams** (Demšar, JMLR 2006) at small, medium and larger budgets (the
lowest, middle and highest third of each data set's budget grid; a data set is one (dataset,
cost model) pair of the paper's experiments, its error the mean test error over the band's
budgets and over the trials every ranked algorithm ran). Each budgeted algorithm sits at its
average rank across data sets (1 = lowest error); a thick bar joins algorithms whose ranks
differ by less than the Nemenyi critical difference (CD, the scale bar), i.e. that the test
cannot tell apart at α = 0.05. The Friedman test's p-value (Iman-Davenport) is in each title;
each algorithm against Smoothed (Holm): ``ranks.parquet``. Algorithms without results on
some data set are left out of that band.
""",
)
def critical_difference(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """CD diagrams of the run's budgeted algorithms, one per budget band."""
    table = tables["ranks"]
    catalogue = context.catalogue.including(table["algorithm"])
    ranked = table[table["algorithm"].isin(context.algorithms(table["algorithm"]))]
    return figure_cd(ranked, labels=_labels(FigureContext(catalogue)))


@figure(
    "against_smoothed",
    title="each algorithm against Smoothed",
    category="Rank statistics",
    families=RANKED_FAMILIES,
    tables=("comparisons",),
    caption="""
**Each algorithm against Smoothed** (the paper's recommendation, Eq. 2), per (dataset, cost
model) and budget band: the outcome of the paired comparison (each trial's error averaged over
the band, the exact sign-flip test, Holm over the comparison's rows): *better* or *worse*
(significantly lower / higher error), *equivalent* (within ±0.01, two one-sided tests) or
*inconclusive*; each cell gives the mean difference in test error (the algorithm minus
Smoothed).
""",
)
def against_smoothed(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """The outcome grid of the run's budgeted algorithms against Smoothed."""
    comparisons = tables["comparisons"]
    rows = comparisons[comparisons["question"] == "control"]
    catalogue = context.catalogue.including(rows["x"])
    control = catalogue.with_role("smoothed") or "smoothed"
    rows = rows[rows["x"].isin(context.algorithms(rows["x"]))]
    return figure_outcomes(
        rows, control, labels=_labels(FigureContext(catalogue)), catalogue=catalogue
    )
