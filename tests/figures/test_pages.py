"""Figures planned before a run and split into pages (budgetboost.figures.pages and
registry.planned): a figure with nothing to draw is not made, one too large for a screen is
made in pages, and the pages the plan expects are those the drawing makes."""

from __future__ import annotations

import copy
from dataclasses import replace

import pandas as pd
import pytest
from helpers import REPO
from synthetic_results import synthetic_shards

from budgetboost.analysis.summary import summarize
from budgetboost.catalogue import Catalogue
from budgetboost.checks import check_all
from budgetboost.data.yamlfile import load_yaml
from budgetboost.figures import registry as figures
from budgetboost.figures.pages import (
    MAX_SHOWN_HEIGHT,
    PNG_DPI,
    fits,
    most_that_fit,
    page_name,
    paginate,
    shown_height,
)
from budgetboost.figures.ranks import _grid_size
from budgetboost.pipeline.plan import Plan

from .helpers import PAPER_DATASETS, make_context


def test_units_that_fit_one_page_stay_on_one():
    assert paginate([1, 2, 3], 12, group=lambda u: u % 2) == [[1, 2, 3]]
    assert paginate([], 12) == []


def test_a_group_too_large_for_a_page_is_split_into_pages_of_even_size():
    """38 panels of one cost model on 4 pages of 10, 10, 9, 9, then the small cost models'
    panels together on one page."""
    units = [(f"d{i}", "uniform") for i in range(38)]
    units += [(f"t{i}", "turney") for i in range(5)] + [("e", "adversarial"), ("e", "few")]
    pages = paginate(units, 12, group=lambda u: u[1])
    assert [len(p) for p in pages] == [10, 10, 9, 9, 7]
    assert [u for p in pages for u in p] == units  # every unit once, in order
    assert {c for _, c in pages[0]} == {"uniform"}


def test_a_page_is_named_after_its_figure():
    assert [page_name("field", k) for k in range(3)] == ["field", "field-2", "field-3"]


def test_shown_height_scales_a_wide_image_to_the_screen_and_never_enlarges():
    assert shown_height(2800, 3000) == 1500
    assert shown_height(700, 1900) == 1900
    assert MAX_SHOWN_HEIGHT == 2000


def test_a_page_holds_the_most_units_whose_figure_fits_two_screens():
    """A 7-inch figure is shown as drawn: 13.3 inches at 150 dpi fill two screens; a
    14-inch-wide one is scaled to 1,400 px, so it may be half as tall again."""
    assert fits(7.0, 2000 / PNG_DPI) and not fits(7.0, 2001 / PNG_DPI)
    assert fits(14.0, 20.0) and not fits(14.0, 20.1)  # 2,100 px wide, shown at 2/3
    assert most_that_fit(lambda n: (7.0, 1.0 + n)) == 12  # 13.3 inches hold 12 of 1
    assert most_that_fit(lambda n: (7.0, 20.0)) == 1  # a page holds one unit at least
    assert most_that_fit(lambda n: (7.0, 1.0), limit=50) == 50


@pytest.mark.parametrize("columns", [1, 5, 13, 30])
@pytest.mark.parametrize("bands", [1, 2, 3])
def test_the_outcome_grids_pages_fit_whatever_their_columns(columns, bands):
    """The suite's grid of 13 algorithms in 3 bands ran to 2,063 px on pages of 12 rows: the
    rows a page holds follow from the grid's width, so every page fits and one row more
    would not."""
    rows = most_that_fit(lambda n: _grid_size(n, columns, bands))
    assert fits(*_grid_size(rows, columns, bands))
    assert not fits(*_grid_size(rows + 1, columns, bands))


def _plan(edit=None):
    config = load_yaml(REPO / "config" / "test.yaml")
    if edit is not None:
        config = copy.deepcopy(config)
        edit(config)
    checked, registry = check_all(config, REPO)
    plan = Plan(checked, registry)
    catalogue = plan.catalogue()
    return figures.plan_figures(figures.load(), plan, catalogue)


def test_the_tiny_run_plans_no_figure_with_nothing_to_draw():
    """Its ``turney`` cost model is used by no dataset and no cost model is adversarial: Figure 2
    and the adversarial figure, which would say "no results" or be empty, are not made."""
    planned = _plan()
    names = {name for name, _ in planned.values()}
    assert "figure2" not in names and "adversarial_costs" not in names
    assert {"figure1", "few_cheap_costs", "field_curves", "peers"} <= names
    assert all(page == 0 for _, page in planned.values())  # two datasets: one page each


def test_a_figure_is_planned_once_the_config_gives_it_something_to_draw():
    def with_real_and_adversarial_costs(config):
        config["datasets"]["heart"]["cost_models"] = ["uniform_0_2", "turney"]
        config["cost_models"]["adversarial"] = {
            "spec": {"model": "correlated", "low": 0.0, "high": 2.0, "noise": 0.2},
            "budgets": {"step": 2, "stop": 10},
            "algorithms": ["greedy", "smoothed"],
        }
        config["datasets"]["ecoli"]["cost_models"].append("adversarial")

    names = {name for name, _ in _plan(with_real_and_adversarial_costs).values()}
    assert {"figure2", "adversarial_costs"} <= names


@pytest.fixture(scope="module")
def wide_shards():
    """Table 1's datasets four times over (36 datasets, and Turney's costs on heart): more
    panels than a page holds."""
    base = synthetic_shards(
        datasets=PAPER_DATASETS, trials=3, budgets=(2, 10, 20), extra=(("heart", "turney"),)
    )
    copies = [base.assign(dataset=base["dataset"] + f"_{k}") for k in range(4)]
    return pd.concat(copies, ignore_index=True)


def test_the_pages_planned_are_the_pages_drawn(wide_shards):
    """The plan's stand-in summary (every planned cell, no errors) splits each curve figure
    into the pages its drawing from the real results makes."""
    summary = summarize(wide_shards)
    cells = [
        (d, c, a, sorted(part["budget"].unique()), int(part["trial"].nunique()))
        for (d, c, a), part in wide_shards.groupby(["dataset", "cost_model", "algorithm"])
    ]
    stand_in = figures.planned_summary(cells)
    context = make_context(Catalogue.default(), ())
    planned = figures.planned(figures.load(), stand_in, context)
    for name in ("figure1", "figure2", "figure3", "peers"):
        spec = figures.load()[name]
        tables = {"summary": summary}
        drawn = spec.page_count(tables, context) if spec.has_content(tables, context) else 0
        assert sum(1 for n, _ in planned.values() if n == name) == drawn, name
    assert sum(1 for n, _ in planned.values() if n == "figure1") == 3  # 36 panels
    assert "figure2" in {n for n, _ in planned.values()}
    assert "peers" not in {n for n, _ in planned.values()}  # no peer in these results


def test_every_planned_page_draws_its_own_panels(wide_shards):
    tables = {"summary": summarize(wide_shards)}
    spec = figures.load()["figure1"]
    context = make_context(Catalogue.default(), spec.families)
    seen = []
    for page in range(spec.page_count(tables, context)):
        fig = spec.draw(tables, replace(context, page=page))
        seen += [ax.get_title() for ax in fig.axes if " · " in ax.get_title()]
    assert len(seen) == len(set(seen)) == 36  # every panel once, on one page
