"""The building blocks of budget-curve figures: panels, curves, the reference, the legend.

A budget-curve figure is a grid of panels, one per (dataset, cost model), ordered as the
registry lists the datasets (Table 1's order, :meth:`FigureContext.panel_order`); each panel
draws test error against budget, one line per algorithm with its 95 % confidence interval as
a thin error bar at each budget, the unbudgeted AdaBoost reference as a horizontal line with
its interval shaded, and test-time sampling on a right-hand axis (its error is on another
scale). Labels, colours, markers and line styles come from the run's
:class:`~budgetboost.catalogue.Catalogue`; every figure has one legend listing each
algorithm once. The figures themselves are :mod:`budgetboost.figures.curves`.

Where many curves share a panel, three things keep each one readable:

- the curves of a panel are *dodged*: each is drawn a few points to the side of the budget
  it was measured at (its data stay the budgets), so their markers and error bars stand side
  by side, as ``position_dodge`` does in ggplot2; with few trials the intervals are wide, and
  as shaded bands they merged into one grey mass;
- a curve whose mean errors are those of a curve drawn before it in the same panel (within
  :data:`COINCIDE` of the panel's height, where their lines would cover each other) is drawn
  dashed over it, so both colours show, and the legend names the two and the panels where it
  happens ("dashed: X ≈ Y in heart, ecoli"); it shows every algorithm in its own line style;
- the budget axis is ticked at budgets of the grid (:func:`grid_ticks`), never between them.

An interval is clipped to [0, 1] (an error rate's range) and drawn only for a mean over
:data:`~budgetboost.analysis.vocabulary.MIN_INTERVAL_TRIALS` trials or more: over two, the 95 %
interval ran from 0 to 1 and flattened every curve; the legend says where one is left out.
The legend stands beside the panels; a figure with more panels than one page holds
(:data:`PAGE_PANELS`) is drawn in pages, one cost model's panels per page
(:func:`panel_pages`), each page a PNG of its own within two screens
(:mod:`budgetboost.figures.pages`).
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
from matplotlib.lines import Line2D
from matplotlib.transforms import offset_copy

from budgetboost.analysis.vocabulary import MIN_INTERVAL_TRIALS
from budgetboost.catalogue import Catalogue
from budgetboost.figures.pages import paginate
from budgetboost.figures.registry import PLACEHOLDER_GID, FigureContext
from budgetboost.figures.style import paper_style

__all__ = [
    "CURVE_FAMILIES",
    "NCOLS",
    "PAGE_PANELS",
    "PanelNotes",
    "budget_curves",
    "balanced_wrap",
    "budget_panel",
    "coinciding",
    "dodges",
    "draw_curve",
    "draw_reference",
    "grid",
    "grid_ticks",
    "grow_to_fit",
    "legend_label",
    "legend",
    "note_entries",
    "page_heading",
    "page_panels",
    "panel_pages",
    "panel_pairs",
    "placeholder",
    "reference",
    "subset",
    "taking_turns",
    "title",
    "trials_note",
]

#: The ``gid`` of every curve :func:`draw_curve` draws, and of its error bars.
CURVE_GID = "budget-curve"
INTERVAL_GID = "budget-interval"
#: Curves whose mean errors differ by at most this fraction of the panel's height at every
#: budget they share are drawn as coinciding (a 1.4 pt line on a panel about 180 pt high
#: covers 0.8 % of it).
COINCIDE = 0.01
#: Dash length (points) of a curve drawn over one it coincides with.
DASH = 4.0
#: Horizontal distance (points) between the dodged curves of a panel, at most, and the share
#: of the distance between two budgets that all of a panel's curves together may take.
DODGE_POINTS, DODGE_SHARE = 3.0, 0.45
#: Width of a panel's plotting area (points) assumed to size the dodge before layout.
PANEL_POINTS = 250.0
#: At most this many ticks on a budget axis.
MAX_TICKS = 7
#: Legend entry of the curves whose intervals are left out (fewer trials than it needs).
NO_INTERVAL_LABEL = f"no error bar: a mean over fewer than {MIN_INTERVAL_TRIALS} trials"
#: Families drawn as budget curves (Figures 1 and 2).
CURVE_FAMILIES = ("reference", "boosting", "sampling")
NCOLS = 3
#: Rows of panels on one page, and the panels a page holds: a page of four rows and its
#: legend beside them stays well within two screens (:mod:`budgetboost.figures.pages`).
PAGE_ROWS = 4
PAGE_PANELS = NCOLS * PAGE_ROWS
#: Characters of a legend entry per line (longer ones are wrapped), and the most panels a
#: note of coinciding curves names before it counts them instead.
LEGEND_WIDTH, NOTE_PANELS = 34, 4
#: Room (inches) around a title or a legend, beyond the height it takes.
FIT_PAD = 0.12


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


def panel_pages(
    panels: Sequence[tuple[str, str]], context: FigureContext
) -> list[list[tuple[str, str]]]:
    """``panels`` on pages of at most :data:`PAGE_PANELS`: all on one page if they fit, else
    each cost model's on pages of its own (:func:`budgetboost.figures.pages.paginate`), the
    cost models in config order."""
    order = list(context.cost_models)

    def rank(cost_model: str) -> tuple:
        return (order.index(cost_model) if cost_model in order else len(order), cost_model)

    ordered = (
        sorted(panels, key=lambda pair: rank(pair[1])) if len(panels) > PAGE_PANELS else panels
    )
    return paginate(ordered, PAGE_PANELS, group=lambda pair: pair[1])


def page_panels(panels: Sequence[tuple[str, str]], context: FigureContext) -> list[tuple[str, str]]:
    """The panels of the context's page (none past the last page)."""
    pages = panel_pages(panels, context)
    return pages[context.page] if context.page < len(pages) else []


def page_heading(heading: str, panels: Sequence[tuple[str, str]], context: FigureContext) -> str:
    """``heading``, its first line followed by which page of how many this is and the cost
    model of its panels, when the figure has more than one page."""
    pages = panel_pages(panels, context)
    if len(pages) < 2 or context.page >= len(pages):
        return heading
    first, *rest = heading.split("\n")
    models = ", ".join(dict.fromkeys(c for _, c in pages[context.page]))
    return "\n".join([f"{first}: page {context.page + 1} of {len(pages)} ({models})", *rest])


def grid(n_panels: int, width: float = 4.6, height: float = 3.4) -> tuple[Figure, list[Axes]]:
    ncols = min(NCOLS, max(1, n_panels))
    nrows = max(1, math.ceil(n_panels / ncols))
    width = max(width * ncols, 7.0)
    # the title adds its height, the legend its width (grow_to_fit)
    fig = Figure(figsize=(width, height * nrows), layout="constrained")
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


def draw_reference(
    ax: Axes, ref: pd.Series | None, catalogue: Catalogue, labelled: bool = True
) -> bool:
    """The unbudgeted reference's error as a horizontal line, its 95 % interval shaded grey
    (clipped to [0, 1]; left out below :data:`MIN_INTERVAL_TRIALS` trials, which the return
    value says); ``labelled=False`` leaves the line out of the legend (a figure that draws
    the reference's legend entry itself)."""
    if ref is None:
        return False
    s = catalogue[ref["algorithm"]].style
    ax.axhline(
        ref["error_mean"],
        color=s.colour,
        linestyle=s.linestyle,
        linewidth=1.2,
        label=legend_label(catalogue, ref["algorithm"]) if labelled else "_reference",
    )
    if not np.isfinite(ref["ci_half"]):
        return False
    if ref["trials"] < MIN_INTERVAL_TRIALS:
        return True
    low, high = max(ref["ci_low"], 0.0), min(ref["ci_high"], 1.0)
    ax.axhspan(low, high, color="0.6", alpha=0.18, linewidth=0)
    return False


def draw_curve(
    ax: Axes,
    curve: pd.DataFrame,
    algorithm: str,
    catalogue: Catalogue,
    x: str = "budget",
    dodge: float = 0.0,
    dashes: tuple[float, tuple[float, float]] | None = None,
) -> bool:
    """The mean test error at each ``x``, its 95 % interval a thin error bar clipped to
    [0, 1], the whole drawn ``dodge`` points to the right of its data (see the module
    docstring); ``dashes`` (offset, (on, off)) draws the line dashed over a coinciding one.
    Returns whether an interval was left out: a mean over fewer than
    :data:`MIN_INTERVAL_TRIALS` trials has no error bar.

    The interval was a shaded band, and error bars before that: the bands of eight
    algorithms over three trials merged into one grey mass, and unclipped error bars ran
    below 0. The line's data are the true ``x`` and means (the dodge is a display offset).
    """
    s = catalogue[algorithm].style
    curve = curve.sort_values(x)
    enough = curve["trials"] >= MIN_INTERVAL_TRIALS
    half = curve["ci_half"].where(enough).fillna(0.0)
    low = (curve["error_mean"] - half).clip(lower=0.0)
    high = (curve["error_mean"] + half).clip(upper=1.0)
    bars = ax.vlines(
        curve[x][enough],
        low[enough],
        high[enough],
        colors=s.colour,
        alpha=0.55,
        linewidth=1.0,
        gid=INTERVAL_GID,
    )
    (line,) = ax.plot(
        curve[x],
        curve["error_mean"],
        color=s.colour,
        marker=s.marker,
        linestyle=s.linestyle if dashes is None else dashes,
        markersize=4,
        linewidth=1.4,
        label=legend_label(catalogue, algorithm),
        gid=CURVE_GID,
    )
    if dodge:  # after the limits took the data: the offset moves the drawing only
        shifted = offset_copy(ax.transData, fig=ax.get_figure(), x=dodge, units="points")
        bars.set_transform(shifted)
        line.set_transform(shifted)
    return bool((~enough).any())


def dodges(n_curves: int, n_budgets: int) -> np.ndarray:
    """Display offsets (points) of ``n_curves`` curves over a grid of ``n_budgets`` budgets,
    centred on 0: :data:`DODGE_POINTS` apart, or closer so that together they take at most
    :data:`DODGE_SHARE` of the distance between two budgets of a :data:`PANEL_POINTS` wide
    panel."""
    if n_curves < 2:
        return np.zeros(n_curves)
    step = PANEL_POINTS / max(n_budgets - 1, 1)
    apart = min(DODGE_POINTS, DODGE_SHARE * step / (n_curves - 1))
    return (np.arange(n_curves) - (n_curves - 1) / 2) * apart


def coinciding(curves: Sequence[pd.DataFrame], tolerance: float) -> list[int | None]:
    """For each curve (columns ``budget``, ``error_mean``), the index of the first earlier
    curve it coincides with: the same budgets (two or more) and mean errors within
    ``tolerance`` at each; ``None`` if there is none."""
    keyed = [c.set_index("budget")["error_mean"] for c in curves]
    found: list[int | None] = []
    for i, mine in enumerate(keyed):
        match = None
        for j in range(i):
            other = keyed[j]
            if len(mine) >= 2 and mine.index.equals(other.index):
                if float(np.max(np.abs(mine.to_numpy() - other.to_numpy()))) <= tolerance:
                    match = j if found[j] is None else found[j]
                    break
        found.append(match)
    return found


def taking_turns(under: Sequence[int | None]) -> list[tuple[float, tuple[float, float]] | None]:
    """Dash patterns of coinciding curves (``under``: :func:`coinciding`'s answer): a curve
    drawn first is solid; the k - 1 curves drawn over it each show one dash of
    :data:`DASH` points in turn, so that along the line all k colours alternate."""
    groups: dict[int, list[int]] = {}
    for i, first in enumerate(under):
        if first is not None:
            groups.setdefault(first, []).append(i)
    patterns: list[tuple[float, tuple[float, float]] | None] = []
    for i, first in enumerate(under):
        if first is None:
            patterns.append(None)
            continue
        size, turn = len(groups[first]) + 1, groups[first].index(i) + 1
        offset = ((size - turn + 1) * DASH) % (size * DASH)
        patterns.append((offset, (DASH, (size - 1) * DASH)))
    return patterns


def grid_ticks(values: Sequence[float], most: int = MAX_TICKS) -> np.ndarray:
    """Tick positions on a budget grid: every budget if there are at most ``most``; else, on
    an evenly spaced grid, the budgets that are multiples of the smallest multiple of its
    step leaving at most ``most`` (2 to 30 by 2: 4, 8, ..., 28), otherwise every k-th
    budget. Ticks at 3, 5, 7, 9 on a grid of even budgets pointed at budgets never run."""
    grid = np.unique(np.asarray(values, dtype=float))
    grid = grid[np.isfinite(grid)]
    if grid.size <= most:
        return grid
    steps = np.diff(grid)
    even = np.allclose(steps, steps[0])
    for k in range(2, grid.size + 1):
        if even:
            spacing = k * steps[0]
            ratio = grid / spacing
            ticks = grid[np.isclose(ratio, np.round(ratio))]
            if 2 <= ticks.size <= most:
                return ticks
        ticks = grid[::k]
        if ticks.size <= most:
            return ticks
    return grid[[0, -1]]


@dataclasses.dataclass
class PanelNotes:
    """What a figure's legend says about its panels: which curves were drawn dashed over
    which (``(dashed, under)`` labels -> the panels' titles) and whether an interval was
    left out for too few trials."""

    coinciding: dict[tuple[str, str], list[tuple[str, str]]] = dataclasses.field(
        default_factory=dict
    )
    withheld: bool = False
    panels: set[tuple[str, str]] = dataclasses.field(default_factory=set)

    def add(self, panel: tuple[str, str], pairs: Sequence[tuple[str, str]], withheld: bool) -> None:
        self.panels.add(panel)
        for pair in pairs:
            self.coinciding.setdefault(pair, []).append(panel)
        self.withheld |= withheld


def budget_panel(
    ax: Axes,
    summary: pd.DataFrame,
    dataset: str,
    cost_model: str,
    context: FigureContext,
    notes: PanelNotes | None = None,
) -> list[tuple[str, str]]:
    """One panel: the curves of the context's algorithms on ``dataset`` under
    ``cost_model`` (see the module docstring). Returns the pairs of labels (drawn dashed,
    drawn under) of the curves that coincide, and adds them to ``notes`` for the legend
    with whether an interval was left out."""
    catalogue = context.catalogue
    part = summary[
        (summary["dataset"] == dataset)
        & (summary["cost_model"] == cost_model)
        & np.isfinite(summary["budget"])
    ]
    ax.set_title(f"{dataset} · {cost_model}")
    ax.set_ylabel("test error")
    withheld = False
    if "reference" in context.families:
        ref = reference(summary, dataset, cost_model, catalogue)
        withheld |= draw_reference(ax, ref, catalogue)
    algorithms = [
        a for a in context.algorithms(part["algorithm"]) if catalogue[a].family != "reference"
    ]
    left = [a for a in algorithms if not catalogue[a].right_axis]
    secondary = [a for a in algorithms if catalogue[a].right_axis]
    budgets = part["budget"].unique()
    offsets = dict(zip(algorithms, dodges(len(algorithms), budgets.size), strict=True))
    if offsets:  # room at both ends for the dodged markers
        reach = max(abs(v) for v in offsets.values()) + 4.0
        ax.set_xmargin(max(ax.get_xmargin(), reach / PANEL_POINTS))
    curves = [part[part["algorithm"] == a].sort_values("budget") for a in left]
    span = _span(curves)
    under = coinciding(curves, COINCIDE * span) if span > 0 else [None] * len(curves)
    pairs = []
    for i, (algorithm, curve, dashes) in enumerate(
        zip(left, curves, taking_turns(under), strict=True)
    ):
        if under[i] is not None:
            pairs.append(
                (legend_label(catalogue, algorithm), legend_label(catalogue, left[under[i]]))
            )
        withheld |= draw_curve(
            ax, curve, algorithm, catalogue, dodge=offsets[algorithm], dashes=dashes
        )
    if secondary:
        right = ax.twinx()
        right.grid(False)
        for algorithm in secondary:
            withheld |= draw_curve(
                right,
                part[part["algorithm"] == algorithm],
                algorithm,
                catalogue,
                dodge=offsets[algorithm],
            )
        colour = catalogue[secondary[0]].style.colour
        right.set_ylabel("test error (test-time sampling)", color=colour)
        right.tick_params(axis="y", colors=colour)
    if budgets.size:
        ax.set_xticks(grid_ticks(budgets))
    ax.set_xlabel("budget B")
    if notes is not None:
        notes.add((dataset, cost_model), pairs, withheld)
    return pairs


def _span(curves: Sequence[pd.DataFrame]) -> float:
    """The height of the panel the curves' means and intervals take (their data range)."""
    if not curves:
        return 0.0
    both = pd.concat(curves)
    half = both["ci_half"].where(both["trials"] >= MIN_INTERVAL_TRIALS).fillna(0.0)
    low = (both["error_mean"] - half).clip(lower=0.0).min()
    high = (both["error_mean"] + half).clip(upper=1.0).max()
    return float(high - low) if np.isfinite(high - low) else 0.0


def placeholder(ax: Axes, message: str) -> None:
    """An axes that says it has nothing to draw (marked :data:`PLACEHOLDER_GID`, which
    :meth:`~budgetboost.figures.registry.FigureSpec.has_content` reads)."""
    ax.set_axis_off()
    ax.set_gid(PLACEHOLDER_GID)
    ax.set_title("no results")
    ax.text(
        0.5, 0.5, message, ha="center", va="center", transform=ax.transAxes, fontsize=12, wrap=True
    )


def legend(
    fig: Figure,
    catalogue: Catalogue,
    extra: Sequence[tuple[object, str]] = (),
) -> None:
    """One figure legend beside the panels, each algorithm once, in catalogue order, then the
    ``extra`` ``(handle, label)`` entries (notes: :func:`note_entries`); labels longer than
    :data:`LEGEND_WIDTH` characters are wrapped. The figure grows by the legend's width, and
    by its height where the legend is the taller (:func:`grow_to_fit`).

    The legend was under the panels: under the suite's 38 panels it stood about 9,000 px
    below the first one.
    """
    by_label = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            by_label.setdefault(label, handle)
    if not by_label and not extra:
        return
    for name in catalogue:  # a curve's own style, not the dashes it was drawn over another in
        label = legend_label(catalogue, name)
        if getattr(by_label.get(label), "get_gid", lambda: None)() == CURVE_GID:
            s = catalogue[name].style
            by_label[label] = Line2D(
                [],
                [],
                color=s.colour,
                marker=s.marker,
                linestyle=s.linestyle,
                markersize=4,
                linewidth=1.4,
            )
    order = [
        label for label in (legend_label(catalogue, a) for a in catalogue) if label in by_label
    ]
    order += [label for label in by_label if label not in order]
    for handle, label in extra:
        by_label.setdefault(label, handle)
        order.append(label)
    shown = fig.legend(
        [by_label[label] for label in order],
        [textwrap.fill(label, LEGEND_WIDTH, break_on_hyphens=False) for label in order],
        loc="outside right upper",
        frameon=False,
    )
    grow_to_fit(fig, shown, beside=True)


def note_entries(notes: PanelNotes) -> list[tuple[Line2D, str]]:
    """The legend's notes: each pair of coinciding curves with the panels where the first
    is drawn dashed over the second (their datasets when the panels share a cost model;
    a count beyond :data:`NOTE_PANELS`, or "every panel"), and whether an interval was left
    out."""
    entries = []
    models = {cost_model for panels in notes.coinciding.values() for _, cost_model in panels}
    for (dashed, under), panels in notes.coinciding.items():
        names = [d if len(models) == 1 else f"{d} · {c}" for d, c in panels]
        if len(notes.panels) > 1 and set(panels) == notes.panels:
            where = "every panel"
        elif len(names) <= NOTE_PANELS:
            where = ", ".join(names)
        else:
            where = f"{len(names)} panels"
        handle = Line2D([], [], color="0.35", linestyle=(0, (DASH, DASH)), linewidth=1.4)
        entries.append((handle, f"dashed: {dashed} ≈ {under} in {where}"))
    if notes.withheld:
        entries.append((Line2D([], [], linestyle="none"), NO_INTERVAL_LABEL))
    return entries


def grow_to_fit(fig: Figure, artist, beside: bool = False) -> None:
    """Make ``fig`` taller by the height ``artist`` (its title or legend) takes, measured
    as it is rendered, so that the panels keep their height; ``beside``: wider by its width
    instead, and taller only where it is taller than the figure.

    A panel grid left a fixed 0.9 inch for the title and the legend: the suite's 19
    algorithms in a one-panel figure needed 14 legend rows, constrained layout squeezed the
    panel to nothing ("axes sizes collapsed to zero") and the legend was drawn over it.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = fig.canvas if isinstance(fig.canvas, FigureCanvasAgg) else FigureCanvasAgg(fig)
    box = artist.get_window_extent(canvas.get_renderer())
    width, height = box.width / fig.dpi, box.height / fig.dpi
    if not beside:
        fig.set_figheight(fig.get_figheight() + height + FIT_PAD)
        return
    fig.set_figwidth(fig.get_figwidth() + width + FIT_PAD)
    fig.set_figheight(max(fig.get_figheight(), height + 2 * FIT_PAD))


def budget_curves(
    summary: pd.DataFrame,
    panels: Sequence[tuple[str, str]],
    heading: str,
    context: FigureContext,
    empty_message: str = "no results",
) -> Figure:
    """Test error against budget, one panel per (dataset, cost_model) of ``panels`` on the
    context's page (:func:`page_panels`).

    Lines: one per algorithm of the context's families with its 95 % CI as error bars;
    right-axis families (test-time sampling) on the right axis; the unbudgeted AdaBoost
    reference as a dotted horizontal line with its CI shaded. With no panels the figure holds
    one placeholder panel saying ``empty_message``.
    """
    catalogue = context.catalogue.including(summary["algorithm"])
    context = dataclasses.replace(context, catalogue=catalogue)
    shown = page_panels(panels, context)
    axes_style, context_style = paper_style()
    with axes_style, context_style:
        fig, axes = grid(len(shown))
        if not shown:
            placeholder(axes[0], empty_message)
        notes = PanelNotes()
        for ax, (dataset, cost_model) in zip(axes, shown, strict=False):
            budget_panel(ax, summary, dataset, cost_model, context, notes)
        title(fig, page_heading(heading, panels, context))
        legend(fig, catalogue, note_entries(notes))
    return fig


#: Characters of a figure title per inch of figure width (paper context, title size).
TITLE_CHARS_PER_INCH = 8.5


def title(fig: Figure, text: str, **kwargs) -> None:
    """``fig.suptitle(text)``, each line wrapped to the figure's width into lines of even
    length (a title one word too long for one line left that word alone on the next: Figure
    1's "axis)"), so that no title runs past the canvas (a one-panel figure is 7 inches
    wide); the figure grows by the title's height (:func:`grow_to_fit`)."""
    width = max(20, int(fig.get_figwidth() * TITLE_CHARS_PER_INCH))
    lines = [balanced_wrap(line, width) for line in text.split("\n")]
    grow_to_fit(fig, fig.suptitle("\n".join(lines), **kwargs))


def balanced_wrap(text: str, width: int) -> str:
    """``text`` in as few lines as wrapping it at ``width`` characters gives, each line as
    close to the same length as the words allow (the narrowest width keeping that count)."""
    lines = textwrap.wrap(text, width)
    if len(lines) <= 1:
        return text
    for narrower in range(math.ceil(len(text) / len(lines)), width):
        even = textwrap.wrap(text, narrower)
        if len(even) == len(lines):
            return "\n".join(even)
    return "\n".join(lines)


def subset(catalogue: Catalogue, names: list[str]) -> Catalogue:
    """``catalogue`` restricted to ``names``, keeping each one's label and style; a variant
    whose base is not among them stands alone there (no pair of the two to draw), as the
    suite's deeper peers do, whose stumps it does not run."""
    records = catalogue.records()
    kept = {name: records[name] for name in names}
    for record in kept.values():
        if record["variant_of"] not in kept:
            record["variant_of"] = None
    return Catalogue(kept)


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
