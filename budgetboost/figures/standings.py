"""Where each family leads: the field's per-dataset standings, at the hard cap and at mean cost.

One panel per (pool, reading, band): the datasets as rows (their names read across), the
families of the field's question as columns, each cell coloured by the family's standing on
that dataset (:func:`budgetboost.analysis.leads.dataset_standings`: leads, on par, trails,
undecided), and an asterisk in each cell of a dataset where the band binds
(:mod:`budgetboost.analysis.binding`). The counts behind it are ``leads.parquet``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure
from matplotlib.patches import Patch
from matplotlib.textpath import TextPath

from budgetboost.analysis.average_cost import READINGS
from budgetboost.analysis.leads import STANDINGS, standings_of_run
from budgetboost.analysis.vocabulary import ALL, FINDING_BANDS
from budgetboost.catalogue import FIELD_FAMILIES
from budgetboost.figures.pages import fits
from budgetboost.figures.panels import placeholder
from budgetboost.figures.registry import FigureContext, figure
from budgetboost.figures.style import paper_style

__all__ = ["SHORT_FAMILY_NAMES", "STANDING_COLOURS", "standings"]

#: Colours of the standings, in :data:`~budgetboost.analysis.leads.STANDINGS` order.
STANDING_COLOURS = {
    "leads": "#029e73",
    "on_par": "#0173b2",
    "trails": "#d55e00",
    "undecided": "#dedede",
}
_BAND_TITLES = {"small": "small budgets", "medium": "medium budgets", "large": "larger budgets"}
_READING_TITLES = {"cap": "hard cap", "mean": "mean cost"}
#: Families as a panel's rows name them (short: the panels sit side by side).
SHORT_FAMILY_NAMES = {
    "boosting": "paper's boosting",
    "peer": "library peers",
    "optimal_tree": "optimal trees",
    "forest": "forest pruning",
    "acquisition": "acquisition",
    "selection": "select-then-train",
    "other": "other",
}


def _family_order(families) -> list[str]:
    order = ["boosting", "peer", *FIELD_FAMILIES]
    return sorted(set(families), key=lambda f: (order.index(f) if f in order else len(order), f))


def _draw(ax, part: pd.DataFrame, datasets: list[str], families: list[str]) -> None:
    """One panel: datasets (rows, named horizontally) x families (columns), coloured by
    standing; the cells of a dataset where the band binds are marked ``*``."""
    code = {s: i for i, s in enumerate(STANDINGS)}
    grid = np.full((len(datasets), len(families)), code["undecided"], dtype=float)
    row = {d: i for i, d in enumerate(datasets)}
    column = {f: j for j, f in enumerate(families)}
    for family, label, standing in zip(
        part["family"], part["label"], part["standing"], strict=True
    ):
        grid[row[label], column[family]] = code[standing]
    cmap = ListedColormap([STANDING_COLOURS[s] for s in STANDINGS])
    ax.imshow(grid, cmap=cmap, vmin=-0.5, vmax=len(STANDINGS) - 0.5, aspect="auto")
    ax.grid(False)
    for label in set(part.loc[part["binds"], "label"]):  # each cell of a binding row
        for j in range(len(families)):
            ax.text(j, row[label], "*", ha="center", va="center", fontsize=6, color="#444444")
    ax.set_yticks(range(len(datasets)), datasets, fontsize=7)
    ax.set_xticks(
        range(len(families)), [SHORT_FAMILY_NAMES.get(f, f) for f in families], rotation=90
    )


def _standings_content(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> bool:
    """Whether a method of the field's families ran: the field's question has rows."""
    ran = set(tables["summary"]["algorithm"])
    return bool(context.catalogue.including(ran).of_family(*FIELD_FAMILIES))


def standings_pages(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> list[list[str]]:
    """The pools each page of :func:`standings` draws: in the config's order, a pool joining
    the page before while it stays within two screens (:func:`budgetboost.figures.pages.fits`;
    the suite's two field pools of 38 datasets, Turney's and the cube ran to 2,273 px on
    one). Read off the summary alone, as planning knows it
    (:func:`budgetboost.figures.registry.planned`): each pool's (dataset, cost model) pairs
    where a method of the field's question ran, its full grid of two readings by three bands
    and the families of those methods."""
    summary = tables["summary"]
    catalogue = context.catalogue.including(summary["algorithm"])
    ran = summary[summary["algorithm"].isin(catalogue.field_contenders())]
    if context.field:
        ran = ran[ran["cost_model"].isin(context.field)]
    pools = ran["cost_model"].map(context.field) if context.field else ALL
    ran = ran.assign(pool=pools)
    if ran.empty:
        return [[]]
    order = list(dict.fromkeys([*context.field.values(), ALL]))
    style, paper = paper_style()
    with style, paper:  # the names measured in the figure's font
        rows = {
            pool: max(3, len(part[["dataset", "cost_model"]].drop_duplicates()), _rows_for(pool))
            for pool, part in sorted(ran.groupby("pool"), key=lambda item: order.index(item[0]))
        }
    columns = len(READINGS) * len(FINDING_BANDS)
    families = len({catalogue[a].family for a in ran["algorithm"].unique()})
    pages: list[list[str]] = []
    for pool, height in rows.items():
        if pages and fits(*_size([rows[p] for p in pages[-1]] + [height], columns, families)):
            pages[-1].append(pool)
        else:
            pages.append([pool])
    return pages


#: Inches per dataset (a row) and per family (a column).
_CELL = 0.15
#: Font size (points) of a pool's name beside its panels.
_LABEL_SIZE = 9


def _labelled(found: pd.DataFrame) -> pd.DataFrame:
    """``found`` with each row's ``label``: its dataset, and its cost model where the pool
    holds several (Turney's experiments)."""
    if found.empty:
        return found.assign(label=pd.Series(dtype=str))
    several = found.groupby("pool")["cost_model"].nunique()
    return found.assign(
        label=[
            f"{d} ({c})" if several[p] > 1 else d
            for d, c, p in zip(found["dataset"], found["cost_model"], found["pool"], strict=True)
        ]
    )


def _size(rows: list[int], columns: int, families: int) -> tuple[float, float]:
    """The figure's size (inches) for pools of ``rows`` rows each and ``columns`` panels of
    ``families`` columns."""
    return (
        3.6 + columns * (0.25 + _CELL * families),
        2.2 + 0.45 * len(rows) + _CELL * sum(rows),
    )


def _pool_rows(found: pd.DataFrame, pool: str) -> int:
    """The rows a pool's panels take: its datasets, at least 3 and as many as its rotated
    name needs (a pool of one dataset, the cube, is otherwise shorter than its name; as
    :func:`standings_pages` counts them)."""
    return max(3, found.loc[found["pool"] == pool, "label"].nunique(), _rows_for(pool))


def _placeholder(text: str) -> Figure:
    """A figure that says it has nothing to draw."""
    style, paper = paper_style()
    with style, paper:
        fig = Figure(figsize=(8.0, 3.0), layout="constrained")
        placeholder(fig.add_subplot(), text)
    return fig


def _pool_name(pool: str) -> str:
    return "the paper's experiments" if pool == ALL else f"pool {pool}"


def _rows_for(pool: str) -> int:
    """Rows of :data:`_CELL` inches the pool's name needs, drawn rotated beside its panels."""
    length = TextPath((0, 0), _pool_name(pool), size=_LABEL_SIZE).get_extents().width / 72
    return math.ceil(length / _CELL)


@figure(
    "field_standings",
    title="where each family leads, per dataset",
    category="The field",
    families=("peer", *FIELD_FAMILIES),  # and their opponents, as the field's figure
    tables=("summary", "findings", "field_mean_cost", "binding"),
    content=_standings_content,
    pages=standings_pages,
    caption="""
**Where each family leads, per dataset.** For each pool of the field's regime (prices per
raw attribute, budgets in attributes' worth; or the paper's experiments where a run has no
such pool), each reading (the hard cap per example; the mean cost per example, each method
read on its own error-cost front) and each budget band: the families of the field's
question (columns) on each dataset (rows). Green: the family leads there (one of its methods
has a lower error than every method of every other family by more than the margin); blue:
on par (one of its methods lower or equivalent against all of them); orange: it trails
(every one of its methods is beaten beyond the margin); grey: undecided. Each cell rests on
the per-dataset paired tests (Holm over each comparison's rows). An asterisk in a cell marks
the datasets where the band binds (a cheapest-first buyer reads at most half the attributes
at the band's largest budget). The counts: ``leads.parquet``.
""",
)
def standings(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
    """The per-dataset standings of the field's families (module docstring), the pools of
    this page (:func:`standings_pages`)."""
    found = _labelled(standings_of_run(tables, context.catalogue))
    if found.empty:
        return _placeholder("the field's question has no per-dataset rows")
    pages = standings_pages(tables, context)
    mine = pages[context.page] if context.page < len(pages) else []
    pools = [pool for pool in mine if pool in set(found["pool"])]
    found = found[found["pool"].isin(pools)]
    if found.empty:
        return _placeholder("no per-dataset rows in this page's pools")
    style, paper = paper_style()
    readings = [r for r in READINGS if r in set(found["reading"])]
    bands = [b for b in FINDING_BANDS if b in set(found["band"])]
    families = _family_order(found["family"])
    with style, paper:
        rows = [_pool_rows(found, pool) for pool in pools]
        columns = len(readings) * len(bands)
        fig = Figure(figsize=_size(rows, columns, len(families)), layout="constrained")
        axes = fig.subplots(len(pools), columns, squeeze=False, gridspec_kw={"height_ratios": rows})
        for i, pool in enumerate(pools):
            in_pool = found[found["pool"] == pool]
            datasets = list(dict.fromkeys(sorted(in_pool["label"], key=_order(context))))
            for j, (reading, band) in enumerate((r, b) for r in readings for b in bands):
                part = in_pool[(in_pool["reading"] == reading) & (in_pool["band"] == band)]
                _draw(axes[i, j], part, datasets, families)
                if i == 0:
                    title = f"{_READING_TITLES[reading]},\n{_BAND_TITLES.get(band, band)}"
                    axes[i, j].set_title(title, fontsize=9)
                axes[i, j].tick_params(labelleft=j == 0, labelbottom=i == len(pools) - 1)
            axes[i, 0].set_ylabel(_pool_name(pool), fontsize=_LABEL_SIZE)
        fig.legend(
            handles=[
                Patch(color=STANDING_COLOURS[s], label=s.replace("_", " ")) for s in STANDINGS
            ],
            loc="outside right upper",
            fontsize=8,
        )
        if len(pages) > 1:
            fig.suptitle(f"page {context.page + 1} of {len(pages)}", fontsize=9)
    return fig


def _order(context: FigureContext):
    """Sort key of a dataset label: the registry's order, then by name."""
    rank = {d: i for i, d in enumerate(context.datasets)}

    def key(label: str) -> tuple[int, str]:
        return rank.get(label.split(" (")[0], len(rank)), label

    return key
