"""The field's figures (budgetboost.figures.field): a method of any field family, a user's
included, drawn as test error against budget on every dataset and cost model it ran, beside
the methods its findings compare it with."""

from __future__ import annotations

import numpy as np
import pandas as pd
from synthetic_results import synthetic_shards

from budgetboost.catalogue import Catalogue
from budgetboost.figures import registry as figures

from .helpers import curves, main_axes, make_context, results_tables

#: the README's example: a method of family ``other`` with a label of its own
MINE = {"estimator": "my_methods:CheapestStump", "label": "Cheapest stump", "family": "other"}


def _field_run():
    """ecoli and heart under U[0, 2], ecoli also under adversarial costs (no reference);
    Smoothed and Greedy as published and tuned, a peer on heart only, STreeD on ecoli only,
    and a user's method everywhere."""
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=3, budgets=(2, 6, 10), extra=())
    smoothed = shards[shards["algorithm"] == "smoothed"]
    greedy = shards[shards["algorithm"] == "greedy"]
    adversarial = pd.concat([smoothed, greedy])
    adversarial = adversarial[adversarial["dataset"] == "ecoli"].assign(cost_model="adversarial")
    parts = [
        shards,
        adversarial,
        smoothed.assign(algorithm="smoothed_tuned", test_error=smoothed["test_error"] - 0.01),
        greedy.assign(algorithm="greedy_tuned", test_error=greedy["test_error"] - 0.015),
        smoothed[smoothed["dataset"] == "heart"].assign(
            algorithm="lightgbm_stumps", test_error=smoothed["test_error"] + 0.02
        ),
        greedy[greedy["dataset"] == "ecoli"].assign(
            algorithm="streed", test_error=greedy["test_error"] + 0.03
        ),
    ]
    for cost_model in ("uniform_0_2", "adversarial"):
        base = greedy[greedy["dataset"] == "ecoli"] if cost_model == "adversarial" else greedy
        error = 0.45 - 0.01 * base["budget"] + 0.002 * base["trial"]  # falls with the budget
        parts.append(base.assign(algorithm="mine", cost_model=cost_model, test_error=error))
    shards = pd.concat(parts, ignore_index=True)
    config = {name: {} for name in shards["algorithm"].unique()}
    config.update(
        smoothed_tuned={"label": "Smoothed, tuned", "variant_of": "smoothed", "family": "boosting"},
        greedy_tuned={"label": "Greedy, tuned", "variant_of": "greedy", "family": "boosting"},
        lightgbm_stumps={"label": "LightGBM CEGB", "family": "peer"},
        streed={"label": "STreeD", "family": "optimal_tree"},
        mine=MINE,
    )
    catalogue = Catalogue.from_config(config, tuned=["smoothed_tuned", "greedy_tuned"])
    return results_tables(shards, catalogue), catalogue


def test_a_users_method_is_drawn_against_budget_beside_its_references():
    """A user's method (the README's `mine`, family other) is drawn against budget on every dataset
    and cost model it ran, at every budget, with the references where they ran there: Smoothed and
    Greedy as published and tuned, the peers and the field's other methods; nothing else (no
    mean-rank line over one dataset, no "no results" panel)."""
    tables, catalogue = _field_run()
    spec = figures.load()["field_curves"]
    context = make_context(catalogue, spec.families)
    assert spec.has_content(tables, context)
    fig = spec.draw({t: tables[t] for t in spec.tables}, context)
    panels = {ax.get_title(): curves(ax) for ax in main_axes(fig)}
    published = {"AdaBoostBT_Smoothed", "AdaBoostBT_Greedy"}
    tuned = {"Smoothed, tuned", "Greedy, tuned"}
    assert panels.keys() == {"ecoli · uniform_0_2", "heart · uniform_0_2", "ecoli · adversarial"}
    mine = {"Cheapest stump"}
    assert set(panels["ecoli · uniform_0_2"]) == published | tuned | mine | {"STreeD"}
    assert set(panels["heart · uniform_0_2"]) == published | tuned | mine | {"LightGBM CEGB"}
    assert set(panels["ecoli · adversarial"]) == published | mine
    summary = tables["summary"]
    for title, drawn in panels.items():
        dataset, cost_model = title.split(" · ")
        mine = summary[
            (summary["algorithm"] == "mine")
            & (summary["dataset"] == dataset)
            & (summary["cost_model"] == cost_model)
        ].sort_values("budget")
        line = drawn["Cheapest stump"].lines[0]
        np.testing.assert_array_equal(line.get_xdata(), [2, 6, 10])
        np.testing.assert_allclose(line.get_ydata(), mine["error_mean"])
    shown = {t.get_text() for t in fig.legends[0].get_texts()}
    assert "AdaBoostBT" not in shown and "AdaBoostRS" not in shown  # not the field's question


def test_the_field_curves_say_so_when_no_field_method_ran():
    tables, catalogue = _field_run()
    summary = tables["summary"]
    tables = {**tables, "summary": summary[~summary["algorithm"].isin(["mine", "streed"])]}
    spec = figures.load()["field_curves"]
    context = make_context(catalogue, spec.families)
    assert not spec.has_content(tables, context)
    fig = spec.draw({t: tables[t] for t in spec.tables}, context)
    assert [ax.get_gid() for ax in fig.axes] == [figures.PLACEHOLDER_GID]
