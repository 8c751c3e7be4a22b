"""Every registered figure keeps its text inside its canvas: titles, subtitles,
axis and tick labels, legends, read from the rendered artists' extents, on results shaped like
the suite's (its algorithms, labels and families, the adversarial and few-cheap cost models)
and on a run with no results for a figure; and every page of it fits two screens, on results
with as many datasets as the suite's."""

from __future__ import annotations

import warnings
from dataclasses import replace

import matplotlib
import numpy as np
import pandas as pd
import pytest
import yaml
from helpers import REPO
from synthetic_results import synthetic_shards

from budgetboost.analysis.vocabulary import ALL
from budgetboost.catalogue import Catalogue
from budgetboost.figures import registry as figures
from budgetboost.figures.pages import MAX_SHOWN_HEIGHT, shown_height
from budgetboost.figures.style import save_figure
from budgetboost.pipeline.plan import algorithm_catalogue

from .helpers import PAPER_DATASETS, make_context, results_tables

matplotlib.use("Agg")

SUITE = yaml.safe_load((REPO / "config" / "suite.yaml").read_text())["algorithms"]
#: every algorithm of the suite, each a copy of one of the synthetic results' shifted a little
COPIES = {
    name: ("smoothed" if entry.get("family") != "boosted_trees" else "greedy")
    for name, entry in SUITE.items()
}


@pytest.fixture(scope="module")
def suite_like():
    base = synthetic_shards(
        datasets=PAPER_DATASETS,
        trials=5,
        budgets=(2, 10, 20, 30),
        extra=(("heart", "turney"), ("ecoli", "adversarial"), ("ecoli", "few_cheap")),
    )
    parts = [base]
    present = set(base["algorithm"])
    for k, (name, source) in enumerate(COPIES.items()):
        if name in present:
            continue
        copy = base[base["algorithm"] == source].copy()
        copy["algorithm"] = name
        copy["test_error"] = np.clip(copy["test_error"] + 0.004 * (k % 5 - 2), 0, 1)
        parts.append(copy)
    return pd.concat(parts, ignore_index=True)


def outside(fig) -> list[str]:
    """What ``fig`` draws beyond its canvas (more than a pixel): each axes with its ticks,
    labels and title, each legend and each text of the figure (and of its subfigures), as
    rendered for saving."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas_agg = FigureCanvasAgg(fig)  # as save_figure's savefig renders it
    canvas_agg.draw()
    renderer = canvas_agg.get_renderer()
    canvas = fig.bbox
    parts = [(f"axes {ax.get_title()!r}", ax) for ax in fig.axes]
    for owner in [fig, *getattr(fig, "subfigs", [])]:
        texts = [*owner.texts, owner._suptitle, owner._supxlabel, owner._supylabel]
        parts += [
            (f"text {text.get_text()!r}", text)
            for text in texts
            if text is not None and text.get_visible() and text.get_text().strip()
        ]
        parts += [(f"legend {i}", legend) for i, legend in enumerate(owner.legends)]
    found = []
    for what, artist in parts:
        box = artist.get_tightbbox(renderer) if hasattr(artist, "get_tightbbox") else None
        box = box if box is not None else artist.get_window_extent(renderer)
        if (
            box.x0 < canvas.x0 - 1
            or box.y0 < canvas.y0 - 1
            or box.x1 > canvas.x1 + 1
            or box.y1 > canvas.y1 + 1
        ):
            found.append(f"{what} at {tuple(round(v) for v in box.extents)} of {canvas.extents}")
    return found


@pytest.fixture(scope="module")
def suite_tables(suite_like):
    """The results tables of the suite-like shards, aggregated once (the field's findings of
    every pair of the suite's methods take most of a minute) and shared by every figure."""
    catalogue = algorithm_catalogue(SUITE, tuned=["smoothed_tuned", "greedy_tuned"])
    catalogue = catalogue.including(suite_like["algorithm"])
    return results_tables(suite_like, catalogue), catalogue


@pytest.mark.slow
@pytest.mark.parametrize("name", list(figures.load()))
def test_every_figure_keeps_its_text_inside_its_canvas(suite_tables, name):
    """... and constrained layout lays it out: the suite's 19 algorithms in a one-panel figure
    (adversarial costs, few cheap features) keep their legend off the panel, without matplotlib's
    "axes sizes collapsed to zero"."""
    tables, catalogue = suite_tables
    spec = figures.load()[name]
    context = make_context(catalogue, spec.families)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        fig = spec.draw({t: tables[t] for t in spec.tables}, context)
        found = outside(fig)
    assert found == [], name
    assert [str(w.message) for w in caught if "collapsed" in str(w.message)] == [], name


@pytest.mark.parametrize("name", list(figures.load()))
def test_a_figure_without_results_says_so_inside_its_canvas(name):
    empty = synthetic_shards(datasets=("heart",), trials=2, budgets=(2, 4), extra=())
    empty = empty[empty["algorithm"] == "adaboost"]
    tables = results_tables(empty)
    spec = figures.load()[name]
    fig = spec.draw(
        {t: tables[t] for t in spec.tables}, make_context(Catalogue.default(), spec.families)
    )
    assert outside(fig) == [], name
    titles = [t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text()]
    assert not any(title.rstrip().endswith(("; )", "()", "( )")) for title in titles), titles


@pytest.fixture(scope="module")
def many_datasets(suite_tables):
    """The suite-like tables with every dataset four times over (36 datasets and the open
    questions' cost models, as the suite's 38 make them): the per-dataset rows copied under
    new names, the rows across datasets (findings, ranks) as they are."""
    tables, catalogue = suite_tables
    wide = dict(tables)
    for name in ("summary", "comparisons"):
        table = tables[name]
        per = table[table["dataset"] != ALL]
        copies = [per.assign(dataset=per["dataset"] + f"_{k}") for k in range(4)]
        wide[name] = pd.concat([*copies, table[table["dataset"] == ALL]], ignore_index=True)
    return wide, catalogue


@pytest.mark.slow
@pytest.mark.parametrize("name", list(figures.load()))
def test_every_page_of_every_figure_fits_two_screens(many_datasets, name, tmp_path):
    """No PNG taller than two screens when shown 1,400 px wide (pages.MAX_SHOWN_HEIGHT), with the
    suite's 38 datasets; each page is drawn as the plot rule draws it and saved as it saves it."""
    from PIL import Image

    tables, catalogue = many_datasets
    spec = figures.load()[name]
    context = make_context(catalogue, spec.families)
    mine = {t: tables[t] for t in spec.tables}
    count = spec.page_count(mine, context)
    if name in ("figure1", "field_curves", "against_smoothed"):
        assert count > 1, name  # more panels or rows than a page holds
    for page in range(count):
        path = tmp_path / f"{name}-{page}.png"
        save_figure(spec.draw(mine, replace(context, page=page)), path)
        with Image.open(path) as image:
            width, height = image.size
        assert shown_height(width, height) <= MAX_SHOWN_HEIGHT, (name, page, width, height)
