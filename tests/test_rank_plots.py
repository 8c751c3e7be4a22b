"""Figures of budgetboost.figures.ranks: panels, bars, labels, and that every text fits."""

from __future__ import annotations

import itertools

import matplotlib
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from synthetic_results import sizes_for, synthetic_shards
from test_ranks import DEMSAR_AUC, DEMSAR_NAMES

from budgetboost.analysis import paired, ranks
from budgetboost.analysis.results import aggregate
from budgetboost.figures import ranks as rank_plots
from budgetboost.figures.style import save_figure
from budgetboost.pipeline.catalogue import Catalogue

matplotlib.use("Agg")  # the figures never touch pyplot; this keeps any GUI backend away

LABELS = {
    "adaboost_bt": "AdaBoostBT",
    "greedy": "AdaBoostBT_Greedy",
    "smoothed": "AdaBoostBT_Smoothed",
    "speedboost": "SpeedBoost",
    "adaboost_rs": "AdaBoostRS",
    "tree": "Decision tree",
}


@pytest.fixture(scope="module")
def shards() -> pd.DataFrame:
    return synthetic_shards(
        datasets=("ecoli", "heart", "sonar", "ionosphere", "breast_cancer"),
        trials=8,
        budgets=(2, 6, 10, 14, 18, 22),
        extra=(("heart", "turney"),),
    )


def with_gid(ax, gid: str) -> list:
    return [artist for artist in ax.get_children() if artist.get_gid() == gid]


def text_boxes(fig: Figure) -> list[tuple[str, object]]:
    """Rendered extents of the texts ``fig`` draws: annotations, titles, and the tick and axis
    labels of axes that are switched on."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    texts = list(fig.texts)
    for ax in fig.axes:
        texts += [*ax.texts, ax.title]
        if ax.axison:
            texts += [*ax.get_xticklabels(), *ax.get_yticklabels()]
            texts += [ax.xaxis.label, ax.yaxis.label]
    texts = [t for t in texts if t.get_visible() and t.get_text()]
    return [(t.get_text(), t.get_window_extent(renderer)) for t in texts]


def assert_texts_fit(fig: Figure, groups: list[list[str]] | None = None) -> None:
    """Every text lies inside the figure, and no two texts of a group overlap."""
    boxes = text_boxes(fig)
    frame = fig.bbox
    for text, box in boxes:
        assert box.x0 >= frame.x0 - 0.5 and box.x1 <= frame.x1 + 0.5, f"{text!r} clipped (x)"
        assert box.y0 >= frame.y0 - 0.5 and box.y1 <= frame.y1 + 0.5, f"{text!r} clipped (y)"
    by_text = {}
    for text, box in boxes:
        by_text.setdefault(text, []).append(box)
    for group in groups or []:
        mine = [box for text in group for box in by_text.get(text, [])]
        for a, b in itertools.combinations(mine, 2):
            assert not a.overlaps(b), f"overlapping texts in {group}"


def test_cd_diagram_one_bar_joins_the_two_close_algorithms():
    # a and b are 0.4 apart (< CD = 1), c is 1.6 and 2 away from them: one group, {a, b}
    fig = Figure(figsize=(6, 2.2))
    ax = fig.add_axes((0.02, 0.05, 0.96, 0.75))
    ranks_ = pd.Series({"c": 3.0, "a": 1.0, "b": 1.4})
    groups = rank_plots.draw_cd_diagram(ax, ranks_, 1.0, "Example", 0.0123, {"a": "Alpha"})
    assert groups == [(0, 1)]
    bars = with_gid(ax, "cd-group")
    assert len(bars) == 1
    scale = with_gid(ax, "cd-scale")
    assert len(scale) == 1
    # the bar spans the positions of a and b (and a little more), the scale bar one CD unit
    start, stop = scale[0].get_xdata()
    unit = (stop - start) / 1.0
    left, right = bars[0].get_xdata()
    assert left < start < start + 0.4 * unit < right < start + 2.0 * unit
    labels = [t.get_text() for t in with_gid(ax, "cd-label")]
    assert labels == ["Alpha (1.00)", "b (1.40)", "c (3.00)"]
    assert ax.get_title() == "Example · Friedman p = 0.012"
    assert_texts_fit(fig, [labels])


def test_cd_diagram_two_groups_and_a_cd_longer_than_the_axis():
    fig = Figure(figsize=(6, 2.6))
    ax = fig.add_axes((0.02, 0.05, 0.96, 0.75))
    ranks_ = pd.Series({"w": 1.0, "x": 1.5, "y": 3.5, "z": 4.0})
    assert rank_plots.draw_cd_diagram(ax, ranks_, 1.0, "t", 1e-5) == [(0, 1), (2, 3)]
    assert len(with_gid(ax, "cd-group")) == 2
    assert ax.get_title().endswith("p = 1.0e-05")
    # k = 3 on 2 data sets: CD = 2.34 > k - 1, the axis reaches 1 + CD and everything fits
    fig = Figure(figsize=(6, 2.4))
    ax = fig.add_axes((0.02, 0.05, 0.96, 0.75))
    cd = ranks.nemenyi_cd(3, 2)
    assert cd > 2
    rank_plots.draw_cd_diagram(ax, pd.Series({"p": 1.0, "q": 2.5, "r": 2.5}), cd, "t", np.nan)
    start, stop = with_gid(ax, "cd-scale")[0].get_xdata()
    assert 0 < start < stop < 1
    assert ax.get_title().endswith("p = n/a")
    assert len(with_gid(ax, "cd-group")) == 1
    assert_texts_fit(fig)


def test_cd_diagram_rejects_bad_input():
    ax = Figure().add_subplot()
    with pytest.raises(ValueError, match="at least 2 algorithms"):
        rank_plots.draw_cd_diagram(ax, pd.Series({"a": 1.0}), 1.0, "t", 0.5)
    with pytest.raises(ValueError, match=r"must lie in \[1, 2\]"):
        rank_plots.draw_cd_diagram(ax, pd.Series({"a": 1.0, "b": 2.5}), 1.0, "t", 0.5)
    with pytest.raises(ValueError, match="cd must be a positive"):
        rank_plots.draw_cd_diagram(ax, pd.Series({"a": 1.0, "b": 2.0}), np.nan, "t", 0.5)


def test_figure_cd_one_panel_per_band(shards, tmp_path):
    table = ranks.cd_analysis(band_means(shards))
    fig = rank_plots.figure_cd(table, labels=LABELS)
    assert len(fig.axes) == 3
    titles = [ax.get_title() for ax in fig.axes]
    assert [t.split(":")[0] for t in titles] == [
        "Small budgets",
        "Medium budgets",
        "Larger budgets",
    ]
    assert all("N = 6 data sets, k = 6" in t and "Friedman p = " in t for t in titles)
    for ax, (band, part) in zip(fig.axes, table.groupby("band", sort=False), strict=True):
        labels = [t.get_text() for t in with_gid(ax, "cd-label")]
        expected = [
            f"{LABELS[a]} ({r:.2f})"
            for a, r in zip(part["algorithm"], part["average_rank"], strict=True)
        ]
        assert labels == expected, band
        groups = ranks.cd_groups(part["average_rank"], part["cd"].iloc[0])
        assert len(with_gid(ax, "cd-group")) == len(groups)
    assert_texts_fit(fig, [[t.get_text() for t in with_gid(ax, "cd-label")] for ax in fig.axes])
    save_figure(fig, tmp_path / "cd.png")
    assert (tmp_path / "cd.png").stat().st_size > 10_000


def test_figure_cd_ten_algorithms_with_long_names(tmp_path):
    # ten algorithms with long names: the font shrinks or the axis narrows, nothing is clipped
    names = [f"budgeted_algorithm_number_{i}" for i in range(10)]
    rank_values = np.linspace(1.0, 10.0, 10) ** 0.9
    rank_values = 1 + (rank_values - 1) / (rank_values[-1] - 1) * 9
    table = pd.DataFrame(
        {
            "band": "large",
            "algorithm": names,
            "average_rank": rank_values,
            "n_datasets": 12,
            "k": 10,
            "friedman_p": 1e-4,
            "alpha": 0.05,
            "cd": ranks.nemenyi_cd(10, 12),
        }
    )
    fig = rank_plots.figure_cd(table)
    assert len(fig.axes) == 1
    assert_texts_fit(fig, [[t.get_text() for t in with_gid(fig.axes[0], "cd-label")]])
    save_figure(fig, tmp_path / "cd_long.png")


def test_figure_cd_without_bands(shards):
    table = ranks.cd_analysis(band_means(shards).iloc[:0])
    assert table.empty
    fig = rank_plots.figure_cd(table)
    assert len(fig.axes) == 1
    assert "no rank analysis" in fig.axes[0].texts[0].get_text()


def band_means(shards: pd.DataFrame) -> pd.DataFrame:
    means = paired.band_means(shards, ranks.BANDS)
    return means[means["algorithm"] != "adaboost"]


def control_rows(shards: pd.DataFrame) -> pd.DataFrame:
    """Each budgeted algorithm against Smoothed, as the aggregate rule's comparisons."""
    rows = aggregate(shards, Catalogue.default(), "uniform_0_2", sizes_for(shards)).comparisons
    return rows[rows["question"] == "control"]


def test_figure_outcomes_from_comparisons(tmp_path):
    # 12 trials: Holm over a comparison's 18 rows needs p <= 0.05 / 18, which 8 never give
    shards = synthetic_shards(
        datasets=("ecoli", "heart", "sonar", "ionosphere", "breast_cancer"),
        trials=12,
        budgets=(2, 6, 10, 14, 18, 22),
        extra=(("heart", "turney"),),
    )
    rows = control_rows(shards)
    fig = rank_plots.figure_outcomes(rows, "smoothed", labels=LABELS)
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == ["Small budgets", "Medium budgets", "Larger budgets"]
    ax = axes[0]
    image = ax.images[0]
    assert image.get_array().shape == (6, 5)  # (dataset, cost model) x algorithm
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "AdaBoostBT",
        "AdaBoostBT_Greedy",
        "SpeedBoost",
        "AdaBoostRS",
        "Decision tree",
    ]
    assert ax.get_yticklabels()[0].get_text() == "breast_cancer · uniform_0_2"
    assert "Each algorithm against AdaBoostBT_Smoothed" in fig._suptitle.get_text()
    # AdaBoostRS is far worse everywhere: the "worse" colour and a positive difference
    worse = list(rank_plots.OUTCOME_COLOURS).index("worse")
    assert (image.get_array()[:, 3] == worse).all()
    rs = [t.get_text() for t in ax.texts if t.get_position()[0] == 3]
    assert all(text.startswith("+") for text in rs)
    assert_texts_fit(fig)
    save_figure(fig, tmp_path / "outcomes.png")


def test_figure_outcomes_marks_missing_pairs_and_fits_a_big_grid(tmp_path):
    rng = np.random.default_rng(4)
    rows = [
        {
            "question": "control",
            "x": f"algorithm_{j:02d}",
            "y": "smoothed",
            "dataset": f"dataset_{i // 2}",
            "cost_model": ("uniform_0_2", "turney")[i % 2],
            "band": band,
            "mean_difference": float(rng.normal(0, 0.05)),
            "outcome": ("better", "worse", "equivalent", "inconclusive")[(i + j) % 4],
        }
        for i in range(10)
        for j in range(15)
        for band in ("small", "large")
        if (i, j) != (0, 3)  # dataset_0 · uniform_0_2, the grid's second row
    ]
    fig = rank_plots.figure_outcomes(pd.DataFrame(rows), "smoothed")
    ax = fig.axes[0]
    assert len(ax.texts) == 150 and [t.get_text() for t in ax.texts].count("–") == 1
    assert np.ma.is_masked(ax.images[0].get_array()[1, 3])
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    cell_width = ax.get_window_extent(renderer).width / 15
    cell_height = ax.get_window_extent(renderer).height / 10
    for text in ax.texts:
        box = text.get_window_extent(renderer)
        assert box.width < 0.95 * cell_width and box.height < 0.9 * cell_height
    assert_texts_fit(fig)
    save_figure(fig, tmp_path / "outcomes_big.png")


def test_cd_diagram_of_demsar_example(tmp_path):
    # Demšar (2006), Figure 1 at alpha = 0.10: CD = 1.12, C4.5 (3.143) differs from C4.5+m
    # (2.000) and C4.5+m+cf (1.964), C4.5+cf (2.893) joins both groups: two bars
    errors = 1.0 - pd.DataFrame(DEMSAR_AUC, columns=DEMSAR_NAMES)
    average = ranks.average_ranks(errors)
    cd = ranks.nemenyi_cd(4, 14, alpha=0.10)
    fig = Figure(figsize=(6, 2.2))
    ax = fig.add_axes((0.02, 0.02, 0.96, 0.78))
    title = "Demšar (2006), Table 6, α = 0.10"
    groups = rank_plots.draw_cd_diagram(ax, average, cd, title, ranks.friedman(errors).p_F)
    assert groups == [(0, 2), (2, 3)]
    assert len(with_gid(ax, "cd-group")) == 2
    labels = [t.get_text() for t in with_gid(ax, "cd-label")]
    assert labels == ["C4.5+m+cf (1.96)", "C4.5+m (2.00)", "C4.5+cf (2.89)", "C4.5 (3.14)"]
    assert_texts_fit(fig, [labels])
    save_figure(fig, tmp_path / "cd_demsar.png")
