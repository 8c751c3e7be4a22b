"""Figures of the rank analysis: critical-difference diagrams and an outcome grid.

* :func:`draw_cd_diagram` draws one critical-difference (CD) diagram of Demšar (2006),
  Figure 1, with :func:`scikit_posthocs.critical_difference_diagram`: the average ranks on a
  horizontal axis from 1 (best, left) to ``k``, each algorithm joined to its label in its
  catalogue colour, and, only when Friedman's test rejects, thick bars joining the
  algorithms Nemenyi's test cannot tell apart and the CD as a scale bar.
* :func:`figure_cd`: one such diagram per budget band, from
  :func:`budgetboost.analysis.ranks.cd_analysis`.
* :func:`figure_outcomes`: rows (dataset, cost model) by columns (algorithm), one panel per
  budget band, each cell coloured by the outcome of the algorithm's paired comparison with a
  control (:func:`budgetboost.analysis.paired.compare`) and annotated with the mean
  difference.

Figures are plain :class:`matplotlib.figure.Figure` objects (no pyplot state), as in
:mod:`budgetboost.figures.curves`; algorithm names are shown as given unless a catalogue or a
``labels`` mapping (algorithm -> display name) is passed.

The tests and the diagram are those of J. Demšar, "Statistical Comparisons of Classifiers
over Multiple Data Sets", Journal of Machine Learning Research 7:1-30, 2006.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import Normalize
from matplotlib.figure import Figure
from matplotlib.transforms import offset_copy

from budgetboost.analysis.bands import BAND_LABELS, BANDS
from budgetboost.analysis.ranks import nemenyi_p
from budgetboost.analysis.roles import paper_experiments
from budgetboost.catalogue import FAMILIES, Catalogue
from budgetboost.figures.pages import most_that_fit, paginate
from budgetboost.figures.registry import PLACEHOLDER_GID, FigureContext, figure

__all__ = ["OUTCOME_COLOURS", "draw_cd_diagram", "figure_cd", "figure_outcomes"]

#: Font size (points) of the CD diagrams.
CD_FONTSIZE = 9.0
#: Height of one row of a CD diagram (a label or a group bar), in inches.
_ROW = CD_FONTSIZE * 1.45 / 72.0
#: Height of the CD scale bar above the rank axis's tick labels, in points.
_CD_BAR = 2.4 * CD_FONTSIZE


def _format_p(p: float) -> str:
    if not np.isfinite(p):
        return "n/a"
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def draw_cd_diagram(
    ax: Axes,
    ranks: pd.Series,
    n: int,
    *,
    cd: float,
    alpha: float,
    friedman_p: float,
    rejects: bool,
    title: str,
    labels: Mapping[str, str] | None = None,
    colours: Mapping[str, str] | None = None,
    fontsize: float = CD_FONTSIZE,
) -> dict[str, list]:
    """Draw a critical-difference diagram of average ranks on ``ax`` (Demšar 2006, Figure 1).

    :func:`scikit_posthocs.critical_difference_diagram` draws the rank axis, one line per
    algorithm from its average rank to its label ("name (rank)", the better half on the left)
    and a thick bar over each largest set of algorithms whose pairwise Nemenyi p-values
    (:func:`budgetboost.analysis.ranks.nemenyi_p` of ``ranks`` on ``n`` datasets) are all at
    least ``alpha``. The axis is then set to run from 1 to ``k`` (to ``1 + cd`` when the CD is
    longer, so that the scale bar stays true) and the CD is drawn as a scale bar above it,
    from rank 1.

    Post-hoc groups only when Friedman's test rejects (``rejects``, the ``friedman_rejects``
    column of ``ranks.parquet``): otherwise no bar and no CD is drawn, and the title says
    that Friedman's test does not reject, with its p-value.

    Parameters
    ----------
    ax : Axes
    ranks : Series
        Average ranks (:func:`budgetboost.analysis.ranks.average_ranks`), indexed by algorithm.
    n : int
        Datasets ranked on.
    cd : float
        Critical difference (:func:`budgetboost.analysis.ranks.nemenyi_cd`) at ``alpha``.
    alpha : float
    friedman_p : float
        Friedman's p-value (Iman-Davenport), in the title (NaN shows as "n/a").
    rejects : bool
        Whether Friedman's test rejects at ``alpha``.
    title : str
        First line of the title; the second says what Friedman's test decided.
    labels, colours : Mapping[str, str], optional
        Display name and colour of each algorithm (default: the index of ``ranks``, and
        matplotlib's colour cycle).
    fontsize : float
        Font size of labels and title, in points.

    Returns
    -------
    dict of list
        The artists drawn: scikit-posthocs' ``markers``, ``elbows``, ``labels`` and
        ``crossbars`` (the group bars, each a list of lines), and ``scale`` (the CD bar, its
        ends and its text; empty without post-hoc test).

    Notes
    -----
    Artists carry ``gid`` values for tests and post-processing: ``"cd-group"`` for each
    group bar, ``"cd-scale"`` for the CD scale bar, ``"cd-label"`` for each algorithm label.
    """
    import scikit_posthocs  # here: it imports pyplot and statsmodels, seconds

    ranks = pd.Series(ranks, dtype=float).sort_values(kind="stable")
    k = ranks.size
    if k < 2:
        raise ValueError(f"a CD diagram needs at least 2 algorithms; got {k}")
    if not np.all((ranks >= 1.0 - 1e-9) & (ranks <= k + 1e-9)):
        raise ValueError(f"average ranks of {k} algorithms must lie in [1, {k}]; got {ranks}")
    if rejects and (not np.isfinite(cd) or cd <= 0):
        raise ValueError(f"cd must be a positive number; got {cd!r}")
    names = {name: str((labels or {}).get(name, name)) for name in ranks.index}
    if len(set(names.values())) < k:  # the library keys everything by label: keep them apart
        names = {name: str(name) for name in ranks.index}
    shown = ranks.rename(index=names)
    if rejects:
        p = nemenyi_p(shown, n)
    else:  # no post-hoc test: no pair at or above alpha, so the library draws no group bar
        p = pd.DataFrame(np.eye(k), index=shown.index, columns=shown.index)
    palette = {names[a]: colours[a] for a in ranks.index} if colours else None
    artists = scikit_posthocs.critical_difference_diagram(
        shown,
        p,
        alpha=alpha,
        ax=ax,
        label_fmt_left="{label} ({rank:.2f})",
        label_fmt_right="({rank:.2f}) {label}",
        label_props={"fontsize": fontsize},
        marker_props={"s": 16},
        elbow_props={"linewidth": 0.9},
        crossbar_props={"linewidth": 3.2, "solid_capstyle": "round"},
        color_palette=palette,
        text_h_margin=0.02 * (k - 1),
    )
    for text in artists["labels"]:
        text.set_gid("cd-label")
    for bar in artists["crossbars"]:
        for line in bar:
            line.set_gid("cd-group")
    hi = max(float(k), 1.0 + cd) if rejects else float(k)
    ax.set_xlim(1.0 - 0.02 * (hi - 1), hi + 0.02 * (hi - 1))
    ax.set_xticks(np.arange(1, math.floor(hi) + 1))
    ax.set_xticks(np.arange(1.5, hi, 1.0), minor=True)
    ax.tick_params(axis="x", which="both", labelsize=fontsize, direction="out")
    lowest = min(text.get_position()[1] for text in artists["labels"])
    ax.set_ylim(lowest - 0.7, 0.3)
    artists["scale"] = _draw_scale(ax, cd, fontsize) if rejects else []
    decision = (
        f"Friedman p = {_format_p(friedman_p)} < α: bars join algorithms the Nemenyi "
        "test cannot tell apart"
        if rejects
        else f"Friedman p = {_format_p(friedman_p)} ≥ α = {alpha:g}: the ranks do not "
        "differ significantly, no post-hoc groups"
    )
    pad = _CD_BAR + 1.4 * fontsize if rejects else 0.4 * fontsize
    ax.set_title(f"{title}\n{decision}", fontsize=fontsize + 0.5, pad=pad)
    return artists


def _draw_scale(ax: Axes, cd: float, fontsize: float) -> list:
    """The CD as a scale bar from rank 1, ``_CD_BAR`` points above the rank axis."""
    figure_ = ax.get_figure()
    above = offset_copy(ax.transData, fig=figure_, y=_CD_BAR, units="points")
    line = {"color": "black", "linewidth": 0.9, "clip_on": False, "transform": above}
    bar = ax.plot([1.0, 1.0 + cd], [0.0, 0.0], gid="cd-scale", **line)
    ends = ax.vlines([1.0, 1.0 + cd], -0.12, 0.12, **line)
    text = ax.text(
        1.0 + cd / 2,
        0.0,
        f"CD = {cd:.2f}",
        ha="center",
        va="bottom",
        fontsize=fontsize,
        clip_on=False,
        transform=offset_copy(ax.transData, fig=figure_, y=_CD_BAR + 2, units="points"),
    )
    return [*bar, ends, text]


def figure_cd(
    cd_table: pd.DataFrame,
    catalogue: Catalogue | None = None,
    width: float = 7.5,
) -> Figure:
    """One critical-difference diagram per budget band, stacked top to bottom.

    Parameters
    ----------
    cd_table : DataFrame
        :func:`budgetboost.analysis.ranks.cd_analysis` output (or the Parquet file written
        from it).
    catalogue : Catalogue, optional
        Labels and colours of the algorithms (default: names and matplotlib's colours).
    width : float
        Figure width in inches.

    Returns
    -------
    Figure
        One axes per band present in ``cd_table``, in the order small, medium, larger
        budgets, each titled with the band, N (datasets), k (algorithms), alpha and
        Friedman's p-value (Iman-Davenport) and whether it rejects; Nemenyi's groups and the
        CD only where it does (:func:`draw_cd_diagram`). Without any band, one axes saying
        so.
    """
    bands = [band for band in BANDS if band in set(cd_table["band"])]
    if not bands:
        fig = Figure(figsize=(width, 1.5))
        ax = fig.add_subplot()
        ax.set_axis_off()
        ax.set_gid(PLACEHOLDER_GID)  # nothing to draw (FigureSpec.has_content)
        ax.text(
            0.5,
            0.5,
            "no rank analysis: fewer than 2 algorithms or 2 datasets per band",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
        return fig
    if catalogue is not None:
        catalogue = catalogue.including(cd_table["algorithm"])
    fig = Figure(figsize=(width, 4.0), layout="constrained")
    axes = fig.subplots(len(bands), 1, squeeze=False)[:, 0]
    rows, extra = [], 0.0
    for ax, band in zip(axes, bands, strict=True):
        part = cd_table[cd_table["band"] == band]
        first = part.iloc[0]
        rejects = bool(first["friedman_rejects"])
        names = part["algorithm"].astype(str)
        title = (
            f"{BAND_LABELS[band]}: N = {int(first['n_datasets'])} datasets, "
            f"k = {len(part)}, α = {float(first['alpha']):g}"
        )
        draw_cd_diagram(
            ax,
            pd.Series(part["average_rank"].to_numpy(), index=names),
            int(first["n_datasets"]),
            cd=float(first["cd"]),
            alpha=float(first["alpha"]),
            friedman_p=float(first["friedman_p"]),
            rejects=rejects,
            title=title,
            labels={a: catalogue.label(a) for a in names} if catalogue is not None else None,
            colours=(
                {a: catalogue[a].style.colour for a in names} if catalogue is not None else None
            ),
        )
        bottom, top = ax.get_ylim()
        rows.append(top - bottom)
        extra += (_CD_BAR + 5.5 * CD_FONTSIZE) / 72.0  # tick labels, CD bar, two title lines
    fig.set_size_inches(width, sum(rows) * _ROW + extra + 0.2)
    axes[0].get_gridspec().set_height_ratios(rows)
    _widen_to_fit_labels(fig)
    return fig


def _widen_to_fit_labels(fig: Figure, attempts: int = 4) -> None:
    """Widen ``fig`` until every algorithm label lies inside it.

    The labels sit in data coordinates beyond the ends of the rank axis; with many long ones
    (the suite's 19 algorithms) constrained layout leaves some past the figure's edge (by
    ~10 px at 7.5 in). Each attempt draws the figure, measures how far the labels reach
    past either edge and widens the figure by twice that (the layout shares the room
    between both sides).
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    FigureCanvasAgg(fig)  # a renderer to measure the texts with
    for _ in range(attempts):
        renderer = fig.canvas.get_renderer()
        fig.draw(renderer)
        boxes = [
            text.get_window_extent(renderer)
            for ax in fig.axes
            for text in ax.texts
            if text.get_gid() == "cd-label"
        ]
        if not boxes:
            return
        frame = fig.bbox
        past = max(frame.x0 - min(b.x0 for b in boxes), max(b.x1 for b in boxes) - frame.x1)
        if past <= 0.0:
            return
        width, height = fig.get_size_inches()
        fig.set_size_inches(width + 2.0 * (past + 2.0) / fig.dpi, height)


#: Colours of the outcomes of a comparison with the control (colour-blind safe).
OUTCOME_COLOURS = {
    "better": "#0173b2",
    "equivalent": "#a6cee3",
    "inconclusive": "#e5e5e5",
    "worse": "#d55e00",
}
#: Colours of any other outcome the comparisons table holds (e.g. one that says a row's trials
#: cannot support a verdict), in order of first appearance: the grid reads the outcomes it
#: finds, it does not fix their list.
OTHER_OUTCOME_COLOURS = ("#fbafe4", "#ece133", "#949494", "#ca9161", "#56b4e9", "#cc78bc")


def figure_outcomes(
    table: pd.DataFrame,
    control: str,
    labels: Mapping[str, str] | None = None,
    catalogue: Catalogue | None = None,
    page: str = "",
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
    catalogue : Catalogue, optional
        The order of the columns (default: the package's algorithms').
    page : str, optional
        Which page of a figure drawn in pages this is ("page 2 of 4"), for the title.

    Returns
    -------
    Figure
        One panel per budget band: rows ``dataset · cost_model``, columns algorithms in
        canonical order, each cell coloured by the outcome (:data:`OUTCOME_COLOURS`; any
        other outcome in the table from :data:`OTHER_OUTCOME_COLOURS`, in the legend too) and
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
    fig = Figure(figsize=_grid_size(n_rows, n_cols, len(bands)), layout="constrained")
    if not bands or n_rows == 0 or n_cols == 0:
        ax = fig.add_subplot()
        ax.set_axis_off()
        ax.set_gid(PLACEHOLDER_GID)  # nothing to draw (FigureSpec.has_content)
        ax.text(
            0.5,
            0.5,
            f"no comparisons with {labels.get(control, control)}",
            ha="center",
            va="center",
            transform=ax.transAxes,
        )
        return fig
    axes = fig.subplots(len(bands), 1, sharex=True, squeeze=False)[:, 0]
    others = [o for o in dict.fromkeys(table["outcome"].dropna()) if o not in OUTCOME_COLOURS]
    colours = {**OUTCOME_COLOURS, **dict(zip(others, itertools.cycle(OTHER_OUTCOME_COLOURS)))}
    order = list(colours)
    cmap = mpl.colors.ListedColormap(list(colours.values())).with_extremes(bad="white")
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
        ax.tick_params(axis="x", labelbottom=ax is axes[-1])
        ax.set_yticks(np.arange(n_rows), [f"{d} · {c}" for d, c in index])
        ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
        ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
        ax.grid(which="minor", color="white", linewidth=1.5)
        ax.tick_params(which="both", length=0)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.set_title(BAND_LABELS[band], fontsize=10)
    handles = [mpl.patches.Patch(color=colours[o], label=o) for o in order]
    fig.legend(handles=handles, loc="outside lower center", ncols=min(len(order), 4), frameon=False)
    where = f", {page}" if page else ""
    fig.suptitle(
        f"Each algorithm against {labels.get(control, control)}: outcome per data set and "
        f"band{where}\n(cell: mean difference in test error, the algorithm minus the control)",
        fontsize=10,
    )
    return fig


# --------------------------------------------------------------------- registered figures

#: The families ranked against each other: every budgeted algorithm (not the reference).
RANKED_FAMILIES = tuple(family for family in FAMILIES if family != "reference")


def _labels(context: FigureContext) -> dict[str, str]:
    return {name: context.catalogue.label(name) for name in context.catalogue}


def _ranked(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> pd.DataFrame:
    """The ranks table's rows of the figure's algorithms."""
    table = tables["ranks"]
    return table[table["algorithm"].isin(context.algorithms(table["algorithm"]))]


def _ranked_bands(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> bool:
    """Whether :func:`critical_difference` draws a diagram (a band of :data:`BANDS` ranked),
    read off the table without drawing: the report's first page asks of every figure."""
    return bool(set(_ranked(tables, context)["band"]) & set(BANDS))


@figure(
    "critical_difference",
    title="ranks across datasets (critical differences)",
    category="Rank statistics",
    families=RANKED_FAMILIES,
    tables=("ranks",),
    content=_ranked_bands,
    caption="""
**Critical-difference diagrams** (Demšar, JMLR 2006) at small, medium and larger budgets (the
lowest, middle and highest third of each budget grid). A dataset counts once: its error is the
mean test error over the band's budgets, over the trials every ranked algorithm ran and over
the dataset's cost models in the paper's experiments (heart: U[0, 2] and Turney's costs). Each
budgeted algorithm sits at its average rank across datasets (1 = lowest error). Only where
Friedman's test (Iman-Davenport, p-value in each title) rejects at α = 0.05 are the post-hoc
groups drawn: a thick bar joins algorithms whose ranks differ by less than the Nemenyi
critical difference (CD, the scale bar), i.e. that the test cannot tell apart; where it does
not reject, the title says so and no group is drawn. Each algorithm against Smoothed (Holm):
``ranks.parquet``. Algorithms without results on some dataset are left out of that band.
**The ranks depend on the pool, and the test is conservative.** An algorithm's average rank,
the CD and each pair's Nemenyi p depend on which algorithms are ranked together: on 38
datasets the CD is 0.32 ranks for 2 algorithms, 1.95 for 9 and 4.54 for 19, and adding or
removing a third algorithm moves two algorithms' ranks, and their p-value, without any change
in their own errors. Nemenyi's test answers every pair at once, so it tells fewer pairs apart
than a test of one pair. A bar joining two algorithms does not show them equivalent, and a
gap wider than the CD is not a practical difference: the evidence about a pair is its paired
comparison across datasets in the findings (``claims.md``, ``findings.parquet``), which
depends on those two alone and is read against the margin of practical equivalence.
""",
)
def critical_difference(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """CD diagrams of the run's budgeted algorithms, one per budget band."""
    catalogue = context.catalogue.including(tables["ranks"]["algorithm"])
    return figure_cd(_ranked(tables, context), catalogue=catalogue)


def _grid_size(n_rows: int, n_cols: int, n_bands: int) -> tuple[float, float]:
    """The size (inches) of :func:`figure_outcomes`' grid of ``n_rows`` (dataset, cost model)
    rows by ``n_cols`` algorithms in each of ``n_bands`` panels, one above the other (side by
    side, 38 datasets' grid ran to 4,113 px and was unreadable at a page's width)."""
    return (
        max(7.0, 3.0 + 0.62 * max(n_cols, 3)),
        1.6 + max(n_bands, 1) * (1.9 + 0.3 * max(n_rows, 2)),
    )


def _rows_per_page(columns: int) -> int:
    """The (dataset, cost model) rows a page of the outcome grid holds with ``columns``
    algorithms in every band."""
    return most_that_fit(lambda n: _grid_size(n, columns, len(BANDS)))


def outcome_pages(
    tables: Mapping[str, pd.DataFrame], context: FigureContext
) -> list[list[tuple[str, str]]]:
    """The (dataset, cost model) rows of each page of :func:`against_smoothed`: the paper's
    experiments on which the control ran (those of its comparisons), as many a page as keep
    its grid of every other algorithm of those experiments in every band within two screens
    (:func:`budgetboost.figures.pages.most_that_fit`), each cost model's on pages of its own
    when they do not fit one. Read off the summary alone, as planning knows it
    (:func:`budgetboost.figures.registry.planned`)."""
    summary = tables["summary"]
    catalogue = context.catalogue.including(summary["algorithm"])
    control = catalogue.with_role("smoothed") or "smoothed"
    ran = paper_experiments(summary, summary, catalogue)
    at = ran[ran["algorithm"] == control]
    pairs = sorted(set(zip(at["dataset"], at["cost_model"], strict=True)))
    beside = ran[
        pd.MultiIndex.from_frame(ran[["dataset", "cost_model"]]).isin(pairs)
        & (ran["algorithm"] != control)
    ]
    by_model = beside.groupby("cost_model")["algorithm"]
    columns = [len(context.algorithms(names)) for _, names in by_model]
    # the narrowest cost model's grid holds the fewest rows
    per_page = min((_rows_per_page(n) for n in columns), default=1)
    if len(pairs) > per_page:  # the cost models' pages in config order
        order = list(context.cost_models)
        pairs.sort(key=lambda p: order.index(p[1]) if p[1] in order else len(order))
    return paginate(pairs, per_page, group=lambda pair: pair[1])


@figure(
    "against_smoothed",
    title="each algorithm against Smoothed",
    category="Rank statistics",
    families=RANKED_FAMILIES,
    tables=("comparisons", "summary"),
    pages=outcome_pages,
    caption="""
**Each algorithm against Smoothed** (the paper's recommendation, Eq. 2), per (dataset, cost
model) and budget band: the outcome of the paired comparison (each trial's error averaged over
the band; the corrected resampled t-test's 90 % interval, Holm over the comparison's rows):
*better* or *worse* (the interval wholly below −0.01 / above +0.01: lower / higher by more
than the margin), *equivalent* (wholly inside ±0.01) or *inconclusive* (reaching across a
bound of the margin); each cell gives the mean difference in test error (the algorithm minus
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
    pages = outcome_pages(tables, context)
    page = ""
    if len(pages) > 1:
        mine = pages[context.page] if context.page < len(pages) else []
        keys = pd.MultiIndex.from_frame(rows[["dataset", "cost_model"]])
        rows = rows[keys.isin(mine)]
        page = f"page {context.page + 1} of {len(pages)}"
    return figure_outcomes(
        rows, control, labels=_labels(FigureContext(catalogue)), catalogue=catalogue, page=page
    )
