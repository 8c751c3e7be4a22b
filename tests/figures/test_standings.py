"""The per-dataset standings figure (budgetboost.figures.standings): the datasets named across
each panel's rows, and where each band binds marked in that band's panels."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from synthetic_results import PEER, PEER_CATALOGUE, const, curve_shards, sizes_for

from budgetboost.analysis.binding import Prices
from budgetboost.analysis.leads import standings_of_run
from budgetboost.analysis.results import aggregate
from budgetboost.catalogue import Catalogue
from budgetboost.figures import registry as figures

from .helpers import make_context

CATALOGUE = Catalogue(
    {**PEER_CATALOGUE.records(), "streed": {"label": "STreeD", "family": "optimal_tree"}}
)


def test_each_panel_marks_the_datasets_its_band_binds_on():
    """Four unit-priced attributes on some datasets, eight on the others: a band binds where a
    cheapest-first buyer reads at most half of them at the band's largest budget, so the
    bands bind on different datasets, and each panel marks its own."""
    curves = {"streed": lambda b: 0.22 - 0.01 * b, "smoothed": const(0.16), PEER: const(0.15)}
    shards = curve_shards(curves, cost_model="unit", trials=6, reference=None)
    datasets = sorted(shards["dataset"].unique())
    width = {d: 4 if i % 2 else 16 for i, d in enumerate(datasets)}
    prices = {(d, "unit"): Prices(np.ones((6, w)), np.arange(w), True) for d, w in width.items()}
    results = aggregate(
        shards, CATALOGUE, "uniform_0_2", sizes_for(shards), field={"unit": "unit"}, prices=prices
    )
    tables = {name: getattr(results, name) for name in figures.TABLES}
    spec = figures.load()["field_standings"]
    context = replace(make_context(CATALOGUE, spec.families), field={"unit": "unit"})
    fig = spec.draw({t: tables[t] for t in spec.tables}, context)

    found = standings_of_run(tables, CATALOGUE)
    binding = found.groupby(["reading", "band"])["binds"].agg(
        lambda b: set(found.loc[b[b].index, "dataset"])
    )
    assert len({frozenset(v) for v in binding}) > 1  # the bands bind on different datasets
    families = found["family"].nunique()
    panels = [ax for ax in fig.axes if ax.images]
    assert len(panels) == len(binding)
    names = [t.get_text() for t in panels[0].get_yticklabels()]  # the row's first panel
    assert sorted(names) == datasets  # every dataset named, across (no rotation)
    assert all(t.get_rotation() == 0 for t in panels[0].get_yticklabels())
    for ax in panels:
        marked = {names[round(t.get_position()[1])] for t in ax.texts if t.get_text() == "*"}
        stars = sum(t.get_text() == "*" for t in ax.texts)
        title = ax.get_title().replace("\n", " ")
        reading = "cap" if title.startswith("hard cap") else "mean"
        band = {"small": "small", "medium": "medium", "larger": "large"}[title.split()[-2]]
        assert marked == binding[(reading, band)], title
        assert stars == families * len(marked), title


def test_a_pool_of_one_dataset_keeps_its_name_beside_its_own_panels():
    """A pool with one dataset (a real-cost experiment of its own) gets panels tall enough
    for its rotated name: the name ends inside its panels' height, not beside the next
    pool's rows."""
    curves = {"streed": lambda b: 0.22 - 0.01 * b, "smoothed": const(0.16), PEER: const(0.15)}
    many = curve_shards(curves, cost_model="unit", trials=6, reference=None)
    one = curve_shards(
        curves, datasets=["heart"], cost_model="a_long_pool_name", trials=6, reference=None
    )
    shards = pd.concat([many, one], ignore_index=True)
    field = {"unit": "unit", "a_long_pool_name": "a_long_pool_name"}
    results = aggregate(shards, CATALOGUE, "uniform_0_2", sizes_for(shards), field=field)
    tables = {name: getattr(results, name) for name in figures.TABLES}
    spec = figures.load()["field_standings"]
    context = replace(make_context(CATALOGUE, spec.families), field=field)
    fig = spec.draw({t: tables[t] for t in spec.tables}, context)
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    firsts = [ax for ax in fig.axes if ax.images and ax.get_ylabel()]
    assert [ax.get_ylabel() for ax in firsts] == ["pool unit", "pool a_long_pool_name"]
    for ax in firsts:
        label = ax.yaxis.label.get_window_extent(renderer)
        panel = ax.get_window_extent(renderer)
        assert panel.y0 - 1 <= label.y0 and label.y1 <= panel.y1 + 1, ax.get_ylabel()


def test_pools_too_tall_for_one_page_go_on_pages_that_fit():
    """The suite's two field pools of 38 datasets, Turney's five experiments and the cube ran
    to 2,273 px on one page: planned from the summary alone (as the workflow plans its
    files), the pools go on pages in the config's order, each within two screens, a small
    pool sharing the page before it where it fits; the last pool alone would fit with the
    second to last, but not the four together."""
    from budgetboost.figures.pages import fits
    from budgetboost.figures.standings import _rows_for, _size, standings_pages

    field = {"attribute_0_2": "attribute_0_2", "attribute_unit": "attribute_unit"}
    field |= {f"turney_{i}": "turney" for i in range(5)} | {"synthetic_unit": "synthetic"}
    pairs = [(f"d{i}", c) for c in ("attribute_0_2", "attribute_unit") for i in range(38)]
    pairs += [(f"t{i}", f"turney_{i}") for i in range(5)] + [("cube", "synthetic_unit")]
    families = ("peer", "optimal_tree", "forest", "acquisition", "selection")
    catalogue = Catalogue({"smoothed": {}, **{f"m_{f}": {"family": f} for f in families}})
    methods = ("smoothed", *(f"m_{f}" for f in families))
    summary = pd.DataFrame(
        [(d, c, a) for d, c in pairs for a in methods],
        columns=["dataset", "cost_model", "algorithm"],
    )
    spec = figures.load()["field_standings"]
    context = replace(make_context(catalogue, spec.families), field=field)
    pages = standings_pages({"summary": summary}, context)
    assert pages == [["attribute_0_2", "attribute_unit"], ["turney", "synthetic"]]
    rows = {"attribute_0_2": 38, "attribute_unit": 38}
    rows |= {pool: max(3, n, _rows_for(pool)) for pool, n in (("turney", 5), ("synthetic", 1))}
    for page in pages:
        assert fits(*_size([rows[p] for p in page], 6, len(methods)))
    assert not fits(*_size(list(rows.values()), 6, len(methods)))
    assert spec.page_count({"summary": summary}, context) == 2
