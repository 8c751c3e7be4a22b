"""The paper's figures drawn by budgetboost.plots: panels, lines, styles, files."""

from __future__ import annotations

import matplotlib.colors as mcolors
import numpy as np
import pytest
from synthetic_results import synthetic_shards

from budgetboost import plots, stats

PAPER_DATASETS = ("ocr17", "ocr49", "splice", "census", "breast_cancer", "ecoli", "sonar",
                  "heart", "ionosphere")


@pytest.fixture(scope="module")
def summary():
    shards = synthetic_shards(datasets=PAPER_DATASETS, trials=4, budgets=(2, 10, 20, 30),
                              extra=(("heart", "turney"), ("webscope", "webscope_costs")))
    return stats.summarize(shards)


def main_axes(fig):
    """Panels (axes with a title), without the twin axes that carry AdaBoostRS."""
    return [ax for ax in fig.axes if ax.get_title()]


def curves(ax) -> dict[str, object]:
    """Errorbar containers of an axes by legend label."""
    return {c.get_label(): c for c in ax.containers}


def test_panel_selection(summary):
    fig1 = plots.figure1_panels(summary, local_datasets=["webscope"])
    fig2 = plots.figure2_panels(summary, local_datasets=["webscope"])
    assert fig1 == [(d, "uniform_0_2") for d in PAPER_DATASETS]  # the paper's Table 1 order
    assert fig2 == [("heart", "turney"), ("webscope", "webscope_costs")]
    assert ("webscope", "webscope_costs") in plots.figure1_panels(summary)  # not local


def test_figure1_panels_lines_and_axes(summary):
    panels = plots.figure1_panels(summary, ["webscope"])
    fig = plots.figure_budget_curves(summary, panels, "Figure 1")
    axes = main_axes(fig)
    assert [ax.get_title() for ax in axes] == [f"{d} · uniform_0_2" for d in PAPER_DATASETS]
    assert all(ax.get_subplotspec().get_geometry()[:2] == (3, 3) for ax in axes)
    assert len(fig.axes) == 2 * len(axes)  # one right-hand axis per panel for AdaBoostRS
    for ax in axes:
        assert ax.get_xlabel() == "budget B" and ax.get_ylabel() == "test error"
        drawn = curves(ax)
        assert set(drawn) == {plots.STYLES[a].label for a in
                              ("adaboost_bt", "greedy", "smoothed", "speedboost")}
        x = drawn["AdaBoostBT"].lines[0].get_xdata()
        np.testing.assert_array_equal(x, [2, 10, 20, 30])
        reference = [line for line in ax.get_lines()
                     if line.get_label() == plots.STYLES["adaboost"].label]
        assert len(reference) == 1 and len(set(reference[0].get_ydata())) == 1
    twins = [ax for ax in fig.axes if not ax.get_title()]
    for twin in twins:
        assert set(curves(twin)) == {plots.STYLES["adaboost_rs"].label}
        assert "AdaBoostRS" in twin.get_ylabel()
    legend_labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend_labels[0] == plots.STYLES["adaboost"].label
    assert len(legend_labels) == len(set(legend_labels)) == 6


def test_reference_line_is_the_adaboost_mean(summary):
    fig = plots.figure_budget_curves(summary, [("ecoli", "uniform_0_2")], "one panel")
    (ax,) = main_axes(fig)
    ref = summary[(summary["algorithm"] == "adaboost") & (summary["dataset"] == "ecoli")
                  & (summary["cost_model"] == "uniform_0_2")].iloc[0]
    line = next(ln for ln in ax.get_lines() if ln.get_label() == plots.STYLES["adaboost"].label)
    assert line.get_ydata()[0] == pytest.approx(ref["error_mean"])


def test_styles_are_consistent_across_figures(summary):
    fig1 = plots.figure_budget_curves(summary, plots.figure1_panels(summary), "1")
    fig2 = plots.figure_budget_curves(summary, plots.figure2_panels(summary), "2")
    for fig in (fig1, fig2):
        for ax in fig.axes:
            for label, container in curves(ax).items():
                algorithm = next(a for a, s in plots.STYLES.items() if s.label == label)
                style = plots.STYLES[algorithm]
                line = container.lines[0]
                assert mcolors.same_color(line.get_color(), style.colour)
                assert line.get_marker() == style.marker
    colours = [mcolors.to_hex(s.colour) for s in plots.STYLES.values()]
    assert len(set(colours)) == len(colours)  # one colour per algorithm


def test_figure2_placeholder_without_real_costs(summary):
    plain = summary[summary["cost_model"] == "uniform_0_2"]
    fig = plots.figure_budget_curves(plain, plots.figure2_panels(plain), "Figure 2",
                                     empty_message="no real-cost results")
    assert len(fig.axes) == 1
    assert [t.get_text() for t in fig.axes[0].texts] == ["no real-cost results"]


def test_figure3_trees(summary):
    fig = plots.figure_trees(summary)
    axes = main_axes(fig)
    assert len(axes) == len(PAPER_DATASETS) + 2  # + heart/turney and webscope
    for ax in axes:
        assert ax.get_xscale() == "log"
        assert ax.get_xlabel() == "tree nodes (log scale)"
        assert set(curves(ax)) == {plots.STYLES["tree"].label}
        diamonds = [ln for ln in ax.get_lines() if ln.get_marker() == "D"]
        assert len(diamonds) == 1  # AdaBoost's error for comparison


@pytest.mark.parametrize("drop", ["tree_rows", "everything"])
def test_figure3_placeholder_without_trees(summary, drop):
    table = summary[summary["algorithm"] != "tree"] if drop == "tree_rows" else summary.iloc[:0]
    fig = plots.figure_trees(table)
    assert len(fig.axes) == 1
    assert "no tree results" in fig.axes[0].texts[0].get_text()


def test_save_figure_png_and_pdf_reproducible(summary, tmp_path):
    fig = plots.figure_budget_curves(summary, plots.figure2_panels(summary), "Figure 2")
    png, pdf = tmp_path / "f.png", tmp_path / "f.pdf"
    plots.save_figure(fig, png, pdf)
    first = png.read_bytes(), pdf.read_bytes()
    assert first[0].startswith(b"\x89PNG") and first[1].startswith(b"%PDF")
    plots.save_figure(fig, png, pdf)
    assert (png.read_bytes(), pdf.read_bytes()) == first
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.pdf", "f.png"]  # no temp files
