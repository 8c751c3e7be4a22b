"""The budget-curve figures (budgetboost.figures.curves, .panels): panels, lines, styles,
placeholders, and the figures of the open questions."""

from __future__ import annotations

import dataclasses

import matplotlib.colors as mcolors
import numpy as np
import pandas as pd
import pytest
from synthetic_results import synthetic_shards

from budgetboost.figures import curves as plots
from budgetboost.figures import panels as curve_panels
from budgetboost.figures import registry as figures
from budgetboost.figures.curves import BASELINE_ALPHA
from budgetboost.pipeline.catalogue import Catalogue

from .conftest import (
    CATALOGUE,
    CONTEXT,
    LOCAL,
    PAPER_DATASETS,
    TREES,
    curves,
    label,
    main_axes,
    make_context,
    results_tables,
    texts,
)


def test_panel_selection(summary):
    """Figure 2 holds the real costs, whatever the dataset's source (issue #36: a local
    dataset was drawn there whatever its costs)."""
    fig1 = plots.figure1_panels(summary, LOCAL)
    fig2 = plots.figure2_panels(summary, LOCAL)
    paper = [(d, "uniform_0_2") for d in PAPER_DATASETS]  # the paper's Table 1 order
    assert fig1 == [*paper, ("webscope", "webscope_costs")]  # local, but costs not real
    assert fig2 == [("heart", "turney")]
    real = dataclasses.replace(LOCAL, cost_models={**LOCAL.cost_models, "webscope_costs": "real"})
    assert plots.figure2_panels(summary, real) == [
        ("heart", "turney"),
        ("webscope", "webscope_costs"),
    ]
    assert plots.figure1_panels(summary, real) == paper


def test_figure1_panels_lines_and_axes(summary):
    panels = [p for p in plots.figure1_panels(summary, LOCAL) if p[0] != "webscope"]
    fig = curve_panels.budget_curves(summary, panels, "Figure 1", CONTEXT)
    axes = main_axes(fig)
    assert [ax.get_title() for ax in axes] == [f"{d} · uniform_0_2" for d in PAPER_DATASETS]
    assert all(ax.get_subplotspec().get_geometry()[:2] == (3, 3) for ax in axes)
    assert len(fig.axes) == 2 * len(axes)  # one right-hand axis per panel for AdaBoostRS
    for ax in axes:
        assert ax.get_xlabel() == "budget B" and ax.get_ylabel() == "test error"
        drawn = curves(ax)
        assert set(drawn) == {label(a) for a in ("adaboost_bt", "greedy", "smoothed", "speedboost")}
        x = drawn["AdaBoostBT"].lines[0].get_xdata()
        np.testing.assert_array_equal(x, [2, 10, 20, 30])
        reference = [line for line in ax.get_lines() if line.get_label() == label("adaboost")]
        assert len(reference) == 1 and len(set(reference[0].get_ydata())) == 1
    twins = [ax for ax in fig.axes if not ax.get_title()]
    for twin in twins:
        assert set(curves(twin)) == {label("adaboost_rs") + " (right axis)"}
        assert "test-time sampling" in twin.get_ylabel()
    legend_labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend_labels[0] == label("adaboost")
    assert len(legend_labels) == len(set(legend_labels)) == 6


def test_reference_line_is_the_adaboost_mean(summary):
    fig = curve_panels.budget_curves(summary, [("ecoli", "uniform_0_2")], "one panel", CONTEXT)
    (ax,) = main_axes(fig)
    ref = summary[
        (summary["algorithm"] == "adaboost")
        & (summary["dataset"] == "ecoli")
        & (summary["cost_model"] == "uniform_0_2")
    ].iloc[0]
    line = next(ln for ln in ax.get_lines() if ln.get_label() == label("adaboost"))
    assert line.get_ydata()[0] == pytest.approx(ref["error_mean"])


def test_styles_are_consistent_across_figures(summary):
    fig1 = curve_panels.budget_curves(summary, plots.figure1_panels(summary, CONTEXT), "1", CONTEXT)
    fig2 = curve_panels.budget_curves(summary, plots.figure2_panels(summary, CONTEXT), "2", CONTEXT)
    by_label = {curve_panels.legend_label(CATALOGUE, a): a for a in CATALOGUE}
    for fig in (fig1, fig2):
        for ax in fig.axes:
            for text, container in curves(ax).items():
                style = CATALOGUE[by_label[text]].style
                line = container.lines[0]
                assert mcolors.same_color(line.get_color(), style.colour)
                assert line.get_marker() == style.marker
    colours = [mcolors.to_hex(a.style.colour) for a in CATALOGUE.values()]
    assert len(set(colours)) == len(colours)  # one colour per algorithm


def test_figure2_placeholder_without_real_costs(summary):
    plain = summary[summary["cost_model"] == "uniform_0_2"]
    fig = curve_panels.budget_curves(
        plain,
        plots.figure2_panels(plain, CONTEXT),
        "Figure 2",
        CONTEXT,
        empty_message="no real-cost results",
    )
    assert len(fig.axes) == 1
    assert [t.get_text() for t in fig.axes[0].texts] == ["no real-cost results"]


def test_figure3_trees(summary):
    fig = plots.figure_trees(summary, TREES)
    axes = main_axes(fig)
    assert len(axes) == len(PAPER_DATASETS) + 2  # + heart/turney and webscope
    for ax in axes:
        assert ax.get_xscale() == "log"
        assert ax.get_xlabel() == "tree nodes (log scale)"
        assert set(curves(ax)) == {label("tree")}
        diamonds = [ln for ln in ax.get_lines() if ln.get_marker() == "D"]
        assert len(diamonds) == 1  # AdaBoost's error for comparison


@pytest.mark.parametrize("drop", ["tree_rows", "everything"])
def test_figure3_placeholder_without_trees(summary, drop):
    table = summary[summary["algorithm"] != "tree"] if drop == "tree_rows" else summary.iloc[:0]
    fig = plots.figure_trees(table, TREES)
    assert len(fig.axes) == 1
    assert "no tree results" in fig.axes[0].texts[0].get_text()


def _open_question_shards():
    """Paper experiments on two datasets, a tree variant of Greedy, and `adversarial` costs
    (first 4 trials, no reference) where every error is 0.05 higher than under U[0, 2]."""
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=6, budgets=(2, 6, 10), extra=())
    greedy = shards[shards["algorithm"] == "greedy"]
    variant = greedy[greedy["trial"] < 4].assign(
        algorithm="greedy_tree2", test_error=greedy["test_error"] - 0.03
    )
    boosters = shards[shards["algorithm"].isin(["greedy", "smoothed"]) & (shards["trial"] < 4)]
    adversarial = boosters.assign(
        cost_model="adversarial", test_error=boosters["test_error"] + 0.05
    )
    config = {name: {} for name in shards["algorithm"].unique()}
    config["greedy_tree2"] = {
        "label": "Greedy, trees",
        "family": "boosted_trees",
        "variant_of": "greedy",
    }
    shards = pd.concat([shards, variant, adversarial], ignore_index=True)
    return shards, Catalogue.from_config(config)


def test_the_paper_figures_leave_the_tuned_variants_to_the_peers_figure():
    """Figures 1 and 2 are the paper's: a tuned variant of Smoothed (family boosting, tau
    chosen on validation) is drawn against the peers, not there, nor with the tree variants."""
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=4, budgets=(2, 10), extra=())
    smoothed = shards[shards["algorithm"] == "smoothed"]
    tuned = smoothed.assign(algorithm="smoothed_tuned", test_error=smoothed["test_error"] + 0.01)
    shards = pd.concat([shards, tuned], ignore_index=True)
    config = {name: {} for name in shards["algorithm"].unique()}
    config["smoothed_tuned"] = {
        "label": "Smoothed, tuned",
        "family": "boosting",
        "variant_of": "smoothed",
    }
    catalogue = Catalogue.from_config(config, tuned=["smoothed_tuned"])
    tables = results_tables(shards, catalogue)
    for name in ("figure1", "boosted_trees"):
        spec = figures.load()[name]
        context = make_context(catalogue, spec.families)
        fig = spec.draw({t: tables[t] for t in spec.tables}, context)
        drawn = {text for ax in fig.axes for text in curves(ax)}
        assert "Smoothed, tuned" not in drawn, name
        assert (catalogue.label("smoothed") in drawn) == (name == "figure1")


def test_the_open_questions_figures_draw_their_experiments_only():
    shards, catalogue = _open_question_shards()
    tables = results_tables(shards, catalogue)
    registry = figures.load()
    draw = {
        name: registry[name].draw(
            {t: tables[t] for t in registry[name].tables},
            make_context(catalogue, registry[name].families),
        )
        for name in ("figure1", "boosted_trees", "adversarial_costs", "few_cheap_costs")
    }
    titles = {name: {ax.get_title() for ax in fig.axes} - {""} for name, fig in draw.items()}
    # the adversarial cost model has no reference: not a paper experiment, not in Figure 1
    assert titles["figure1"] == {"ecoli · uniform_0_2", "heart · uniform_0_2"}
    assert titles["adversarial_costs"] == {"ecoli · adversarial", "heart · adversarial"}
    assert titles["few_cheap_costs"] == {"no results"}
    # trees against stumps: the variant and its base only, on the paper's experiments
    shown = {c for ax in draw["boosted_trees"].axes for c in curves(ax)}
    assert shown == {"Greedy, trees", catalogue.label("greedy")}
    assert "4 trials per dataset" in " ".join(texts(draw["boosted_trees"]))
    # under adversarial costs each curve has its U[0, 2] counterpart drawn faintly behind
    ax = draw["adversarial_costs"].axes[0]
    faint = [line for line in ax.get_lines() if line.get_alpha() == BASELINE_ALPHA]
    assert len(faint) == 2 and all(line.get_label().startswith("_") for line in faint)
    greedy = curves(ax)[catalogue.label("greedy")].lines[0]
    baseline = next(f for f in faint if mcolors.same_color(f.get_color(), greedy.get_color()))
    rise = np.asarray(greedy.get_ydata(), float) - np.asarray(baseline.get_ydata(), float)
    np.testing.assert_allclose(rise, 0.05, atol=0.02)
