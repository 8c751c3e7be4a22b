"""The budget-curve figures (budgetboost.figures.curves, .panels): panels, lines, styles,
placeholders, and the figures of the open questions."""

from __future__ import annotations

import dataclasses

import matplotlib.colors as mcolors
import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from synthetic_results import synthetic_shards

from budgetboost.catalogue import Catalogue
from budgetboost.figures import curves as plots
from budgetboost.figures import panels as curve_panels
from budgetboost.figures import registry as figures
from budgetboost.figures.curves import BASELINE_ALPHA

from .helpers import (
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
    """Figure 2 holds the datasets with real costs, whatever their source: a local dataset is drawn
    there only for its real costs."""
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


# ------------------------------------------------------------- readability of the curves


def _two_panels(budgets=(2, 4, 6, 8, 10)):
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=3, budgets=budgets, extra=())
    tables = results_tables(shards)
    spec = figures.load()["figure1"]
    return spec.draw({"summary": tables["summary"]}, make_context(CATALOGUE, spec.families))


def test_grid_ticks_lie_on_the_budget_grid():
    np.testing.assert_array_equal(curve_panels.grid_ticks([2, 4, 6, 8, 10]), [2, 4, 6, 8, 10])
    np.testing.assert_array_equal(
        curve_panels.grid_ticks(np.arange(2, 31, 2)), [4, 8, 12, 16, 20, 24, 28]
    )
    np.testing.assert_array_equal(
        curve_panels.grid_ticks([50, 100, 150, 200, 250, 300]), [50, 100, 150, 200, 250, 300]
    )
    uneven = [1, 2, 3, 5, 8, 13, 21, 34, 55]
    assert set(curve_panels.grid_ticks(uneven)) <= set(uneven)


@given(
    start=st.floats(0.0, 100.0),
    step=st.floats(0.05, 50.0),
    n=st.integers(1, 60),
    jitter=st.booleans(),
)
def test_grid_ticks_are_budgets_of_the_grid_and_few(start, step, n, jitter):
    grid = start + step * np.arange(n)
    if jitter:  # an uneven grid
        grid = grid + np.linspace(0, step / 3, n) ** 2
    ticks = curve_panels.grid_ticks(grid)
    assert set(ticks.tolist()) <= set(grid.tolist())
    assert min(n, 2) <= ticks.size <= curve_panels.MAX_TICKS


def test_the_budget_axis_is_ticked_at_budgets_of_the_grid():
    """Ticks at 3, 5, 7, 9 on a grid of even budgets pointed at budgets never run."""
    fig = _two_panels()
    for ax in main_axes(fig):
        np.testing.assert_array_equal(ax.get_xticks(), [2, 4, 6, 8, 10])


def test_intervals_are_error_bars_set_side_by_side():
    """With three trials the intervals are wide: each is a thin error bar in its curve's colour (not
    a shaded band merging with the others), and the curves of a panel are drawn a few points apart
    (their data stay the budgets), so no two markers or bars of one budget are drawn on top of each
    other."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import LineCollection, PolyCollection

    fig = _two_panels()
    FigureCanvasAgg(fig).draw()
    for ax in main_axes(fig):
        assert not [c for c in ax.collections if isinstance(c, PolyCollection)]  # no bands
        lines = [ln for ln in ax.get_lines() if ln.get_gid() == curve_panels.CURVE_GID]
        bars = [c for c in ax.collections if c.get_gid() == curve_panels.INTERVAL_GID]
        assert len(bars) == len(lines) == 4 and all(isinstance(b, LineCollection) for b in bars)
        drawn_at = []
        for line, bar in zip(lines, bars, strict=True):
            np.testing.assert_array_equal(line.get_xdata(), [2, 4, 6, 8, 10])
            xy = np.column_stack([line.get_xdata(), line.get_ydata()])
            at = line.get_transform().transform(xy)[:, 0]
            bar_at = [bar.get_transform().transform(seg)[0, 0] for seg in bar.get_segments()]
            np.testing.assert_allclose(bar_at, at)  # each bar on its own curve's marker
            drawn_at.append(at)
        drawn_at = np.sort(np.array(drawn_at), axis=0)
        assert np.diff(drawn_at, axis=0).min() >= 2.0  # pixels apart at every budget


def _pixels_of(rgba: np.ndarray, colour: str, tolerance: float = 60.0) -> int:
    target = np.array(mcolors.to_rgb(colour)) * 255
    return int((np.linalg.norm(rgba[..., :3].astype(float) - target, axis=-1) < tolerance).sum())


def test_a_curve_that_coincides_with_another_is_drawn_dashed_over_it():
    """ecoli, boosted trees, where Greedy with depth-2 trees has AdaBoostBT_Greedy's errors: the
    later curve is dashed over the earlier, both colours show along the line, the legend names the
    two and the panel (its notes kept off the next row's axes), while it keeps the curve's own
    (solid) line."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    shards = synthetic_shards(datasets=("ecoli",), trials=3, budgets=(2, 6, 10), extra=())
    greedy = shards[shards["algorithm"] == "greedy"]
    shards = pd.concat([shards, greedy.assign(algorithm="greedy_tree2")], ignore_index=True)
    config = {name: {} for name in shards["algorithm"].unique()}
    config["greedy_tree2"] = {
        "label": "Greedy, trees",
        "family": "boosted_trees",
        "variant_of": "greedy",
        "style": {"colour": "#cc00cc", "marker": "s"},
    }
    catalogue = Catalogue.from_config(config)
    spec = figures.load()["boosted_trees"]
    tables = results_tables(shards, catalogue)
    fig = spec.draw({"summary": tables["summary"]}, make_context(catalogue, spec.families))
    (ax,) = main_axes(fig)
    drawn = curves(ax)
    under, over = drawn[catalogue.label("greedy")].lines[0], drawn["Greedy, trees"].lines[0]
    np.testing.assert_array_equal(under.get_ydata(), over.get_ydata())
    assert under.get_linestyle() == "-" and over.get_linestyle() == "--"
    assert ax.get_xlabel() == "budget B"
    entries = dict(
        zip(
            [t.get_text().replace("\n", " ") for t in fig.legends[0].get_texts()],
            fig.legends[0].legend_handles,
            strict=True,
        )
    )
    assert "dashed: Greedy, trees ≈ AdaBoostBT_Greedy in ecoli" in entries
    assert entries["Greedy, trees"].get_linestyle() == "-"
    # both colours along the line between the first two budgets, as rendered
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba())
    xy = np.column_stack([over.get_xdata(), over.get_ydata()])
    (x0, y0), (x1, y1) = over.get_transform().transform(xy)[:2]
    middle = [(x0 + x1) / 2, (y0 + y1) / 2]
    columns = slice(int(middle[0] - 0.3 * (x1 - x0)), int(middle[0] + 0.3 * (x1 - x0)))
    rows = slice(int(rgba.shape[0] - middle[1] - 4), int(rgba.shape[0] - middle[1] + 5))
    strip = rgba[rows, columns]
    assert _pixels_of(strip, "#cc00cc") > 10
    assert _pixels_of(strip, catalogue["greedy"].style.colour) > 10


def test_a_long_title_wraps_into_lines_of_even_length():
    """Figure 1's title wrapped leaving "axis)" alone on its second line."""
    text = "Figure 1: test error against budget (95 % CI; test-time sampling on the right axis)"
    lines = curve_panels.balanced_wrap(text, 78).split("\n")
    assert len(lines) == 2 and abs(len(lines[0]) - len(lines[1])) <= 8, lines
    assert curve_panels.balanced_wrap("short", 78) == "short"
    fig = _two_panels()
    lines = fig.get_suptitle().split("\n")
    assert len(lines) == 2 and min(map(len, lines)) >= max(map(len, lines)) / 2, lines
    assert "95\u00a0%\u00a0CI" in fig.get_suptitle()  # kept on one line


def test_figure3_legend_explains_the_diamonds(summary):
    """Figure 3's legend explains its black diamonds: the reference's entry shows the diamond on the
    dotted line."""
    fig = plots.figure_trees(summary, TREES)
    texts_ = [t.get_text() for t in fig.legends[0].get_texts()]
    reference = dict(zip(texts_, fig.legends[0].legend_handles, strict=True))[label("adaboost")]
    assert reference.get_marker() == "D" and reference.get_linestyle() == ":"


def test_coinciding_curves_take_turns_along_the_line():
    """Three curves on one line: the first solid, the two drawn over it each showing one
    dash in turn, so that along the line each colour shows a third of the time (a loop over
    positions, read as matplotlib reads a dash pattern: on while (position + offset) modulo
    the period is below the dash)."""
    under = [None, 0, None, 0, 2]
    patterns = curve_panels.taking_turns(under)
    assert patterns[0] is None and patterns[2] is None
    dash = curve_panels.DASH

    def on(pattern, position):
        offset, (length, gap) = pattern
        return (position + offset) % (length + gap) < length

    positions = np.arange(0.0, 12 * dash, dash / 4) + dash / 8
    for group in ([1, 3], [4]):
        shown = np.array([[on(patterns[i], p) for p in positions] for i in group])
        assert shown.sum(axis=0).max() == 1  # never two dashes over each other
        first_shows = 1 - shown.sum(axis=0).mean()  # the solid curve in the gaps
        shares = [*shown.mean(axis=1), first_shows]
        np.testing.assert_allclose(shares, 1 / (len(group) + 1))


def test_an_interval_is_clipped_to_the_error_scale_and_left_out_below_three_trials():
    """A mean over fewer than three trials has no error bar (the legend says so), so two trials' 95
    % bands (0 to 1) never flatten the curves; every error bar drawn lies within [0, 1]."""
    from synthetic_results import trial_shards

    from budgetboost.analysis.summary import summarize

    shards = trial_shards(
        {
            ("greedy", 2.0): [0.0, 0.3, 0.02],  # a wide interval, its lower end below 0
            ("greedy", 4.0): [0.98, 0.7, 1.0],  # its upper end above 1
            ("smoothed", 2.0): [0.2, 0.3],
            ("smoothed", 4.0): [0.1, 0.25],
        }
    )
    summary = summarize(shards)
    assert (summary["ci_low"] < 0).any() and (summary["ci_high"] > 1).any()
    fig = plots.figure1({"summary": summary}, CONTEXT)
    (ax,) = main_axes(fig)
    bars = {
        mcolors.to_hex(c.get_colors()[0]): np.concatenate(c.get_segments())
        for c in ax.collections
        if c.get_gid() == curve_panels.INTERVAL_GID and len(c.get_segments())
    }
    assert set(bars) == {mcolors.to_hex(CATALOGUE["greedy"].style.colour)}
    ends = next(iter(bars.values()))[:, 1]
    assert ends.min() == 0.0 and ends.max() == 1.0
    legend = [t.get_text().replace("\n", " ") for t in fig.legends[0].get_texts()]
    assert curve_panels.NO_INTERVAL_LABEL in legend


def test_a_variant_whose_base_never_ran_is_drawn_alone():
    """The suite defines LightGBM's depths as a variant of its stumps and runs the depths
    alone: the peers figure draws them, with no pair to the stumps."""
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=4, budgets=(2, 10), extra=())
    smoothed = shards[shards["algorithm"] == "smoothed"]
    deeper = smoothed.assign(algorithm="lightgbm_depth", test_error=smoothed["test_error"] - 0.01)
    shards = pd.concat([shards, deeper], ignore_index=True)
    config = {name: {} for name in shards["algorithm"].unique()}
    config["lightgbm_stumps"] = {}
    config["lightgbm_depth"] = {"label": "LightGBM, depth", "variant_of": "lightgbm_stumps"}
    catalogue = Catalogue.from_config(config, defaults={"lightgbm_depth": {"family": "peer"}})
    assert catalogue.variants() == [("lightgbm_depth", "lightgbm_stumps")]
    tables = results_tables(shards, catalogue)
    spec = figures.load()["peers"]
    fig = spec.draw({t: tables[t] for t in spec.tables}, make_context(catalogue, spec.families))
    drawn = {text for ax in fig.axes for text in curves(ax)}
    assert "LightGBM, depth" in drawn
    assert catalogue.label("lightgbm_stumps") not in drawn
