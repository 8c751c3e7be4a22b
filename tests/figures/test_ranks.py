"""Figures of budgetboost.figures.ranks: panels, bars, labels, and that every text fits."""

from __future__ import annotations

import itertools

import matplotlib
import numpy as np
import pandas as pd
import pytest
from helpers import DEMSAR_AUC, DEMSAR_NAMES
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from synthetic_results import sizes_for, synthetic_shards

from budgetboost.analysis import paired, ranks
from budgetboost.analysis.results import aggregate
from budgetboost.catalogue import Catalogue
from budgetboost.figures import ranks as rank_plots
from budgetboost.figures.style import save_figure

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
    labels of the axes (x, y) that are shown."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw(renderer)
    texts = list(fig.texts)
    for ax in fig.axes:
        texts += [*ax.texts, ax.title]
        for axis in (ax.xaxis, ax.yaxis) if ax.axison else ():
            if axis.get_visible():
                texts += [*axis.get_ticklabels(), axis.label]
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


def groups_below_cd(values, cd: float) -> list[tuple[float, float]]:
    """(lowest, highest) rank of each group a CD diagram should draw: the maximal runs of the
    sorted ranks spanning less than ``cd`` (Demšar 2006, Figure 1), written out as loops."""
    r = sorted(values)
    runs = []
    for i in range(len(r)):
        j = i
        while j + 1 < len(r) and r[j + 1] - r[i] < cd:
            j += 1
        if j > i and not any(lo <= i and j <= hi for lo, hi in runs):
            runs.append((i, j))
    return [(r[lo], r[hi]) for lo, hi in runs]


def drawn_groups(ax) -> list[tuple[float, float]]:
    bars = [line.get_xdata() for line in with_gid(ax, "cd-group")]
    return sorted((float(min(x)), float(max(x))) for x in bars)


def same_groups(drawn: list[tuple[float, float]], expected) -> bool:
    """The groups drawn are the expected ones, as (lowest, highest) average ranks; pytest's
    ``approx`` takes no nested sequences."""
    expected = [tuple(map(float, g)) for g in expected]
    return len(drawn) == len(expected) and np.allclose(
        np.reshape(drawn, (-1, 2)), np.reshape(expected, (-1, 2))
    )


def draw(ranks_: dict, n: int, *, rejects: bool = True, alpha: float = 0.05, **kwargs):
    fig = Figure(figsize=(6, 2.6), layout="constrained")
    ax = fig.add_subplot()
    series = pd.Series(ranks_, dtype=float)
    cd = ranks.nemenyi_cd(len(series), n, alpha)
    artists = rank_plots.draw_cd_diagram(
        ax,
        series,
        n,
        cd=cd,
        alpha=alpha,
        friedman_p=kwargs.pop("friedman_p", 0.0123 if rejects else 0.4),
        rejects=rejects,
        title=kwargs.pop("title", "Example"),
        **kwargs,
    )
    return fig, ax, cd, artists


def test_cd_diagram_one_bar_joins_the_two_close_algorithms():
    # k = 3 on 10 datasets: CD = 1.05; a and b are 0.4 apart, c is 1.6 and 2 away: one group
    fig, ax, cd, artists = draw({"c": 3.0, "a": 1.0, "b": 1.4}, 10, labels={"a": "Alpha"})
    assert 0.4 < cd < 1.6
    assert drawn_groups(ax) == [(1.0, 1.4)]
    # the scale bar runs from rank 1 over one CD, above the axis
    (scale,) = with_gid(ax, "cd-scale")
    assert list(scale.get_xdata()) == pytest.approx([1.0, 1.0 + cd])
    assert [t.get_text() for t in artists["scale"] if hasattr(t, "get_text")] == [f"CD = {cd:.2f}"]
    labels = [t.get_text() for t in with_gid(ax, "cd-label")]
    assert labels == ["Alpha (1.00)", "b (1.40)", "(3.00) c"]
    assert ax.get_title() == (
        "Example\nFriedman p = 0.012 < α: bars join algorithms the Nemenyi test cannot tell apart"
    )
    assert ax.get_xlim()[0] < 1.0 and ax.get_xlim()[1] > 3.0  # the axis runs from 1 to k
    assert_texts_fit(fig, [labels])


def test_cd_diagram_without_friedman_rejecting_draws_no_group():
    # the same ranks, but Friedman's test does not reject: no bar, no CD, and the title says so
    fig, ax, _, artists = draw({"c": 3.0, "a": 1.0, "b": 1.4}, 10, rejects=False)
    assert with_gid(ax, "cd-group") == [] and with_gid(ax, "cd-scale") == []
    assert artists["crossbars"] == [] and artists["scale"] == []
    assert ax.get_title() == (
        "Example\nFriedman p = 0.400 ≥ α = 0.05: the ranks do not differ significantly, "
        "no post-hoc groups"
    )
    assert [t.get_text() for t in with_gid(ax, "cd-label")] == ["a (1.00)", "b (1.40)", "(3.00) c"]
    assert_texts_fit(fig)


def test_cd_diagram_two_groups_colours_and_a_cd_longer_than_the_axis():
    # k = 4 on 40 datasets: CD = 0.74; w, x 0.5 apart and y, z 0.5 apart, 2 between: two bars
    colours = {"w": "#0173b2", "x": "#de8f05", "y": "#029e73", "z": "#d55e00"}
    fig, ax, cd, artists = draw(
        {"w": 1.0, "x": 1.5, "y": 3.5, "z": 4.0}, 40, colours=colours, friedman_p=1e-5
    )
    assert drawn_groups(ax) == [(1.0, 1.5), (3.5, 4.0)]
    assert "p = 1.0e-05" in ax.get_title()
    by_label = {t.get_text(): to_hex(t.get_color()) for t in with_gid(ax, "cd-label")}
    assert by_label == {
        "w (1.00)": colours["w"],
        "x (1.50)": colours["x"],
        "(3.50) y": colours["y"],
        "(4.00) z": colours["z"],
    }
    by_rank = {line.get_xdata()[1]: to_hex(line.get_color()) for line in artists["elbows"]}
    assert by_rank == dict(zip([1.0, 1.5, 3.5, 4.0], colours.values(), strict=True))
    # k = 3 on 2 datasets: CD = 2.34 > k - 1, the axis reaches 1 + CD and everything fits
    fig, ax, cd, _ = draw({"p": 1.0, "q": 2.5, "r": 2.5}, 2, friedman_p=np.nan)
    assert cd > 2 and ax.get_xlim()[1] >= 1.0 + cd
    assert "p = n/a" in ax.get_title()
    assert drawn_groups(ax) == [(1.0, 2.5)]
    assert_texts_fit(fig)


def test_cd_diagram_rejects_bad_input():
    ax = Figure().add_subplot()
    common = {"alpha": 0.05, "friedman_p": 0.01, "rejects": True, "title": "t"}
    with pytest.raises(ValueError, match="at least 2 algorithms"):
        rank_plots.draw_cd_diagram(ax, pd.Series({"a": 1.0}), 5, cd=1.0, **common)
    with pytest.raises(ValueError, match=r"must lie in \[1, 2\]"):
        rank_plots.draw_cd_diagram(ax, pd.Series({"a": 1.0, "b": 2.5}), 5, cd=1.0, **common)
    with pytest.raises(ValueError, match="cd must be a positive"):
        rank_plots.draw_cd_diagram(ax, pd.Series({"a": 1.0, "b": 2.0}), 5, cd=np.nan, **common)


def test_figure_cd_one_panel_per_band(shards, tmp_path):
    table = ranks.cd_analysis(band_means(shards))
    assert table["friedman_rejects"].all()
    catalogue = Catalogue.default()
    fig = rank_plots.figure_cd(table, catalogue=catalogue)
    assert len(fig.axes) == 3
    titles = [ax.get_title() for ax in fig.axes]
    assert [t.split(":")[0] for t in titles] == [
        "Small budgets",
        "Medium budgets",
        "Larger budgets",
    ]
    # five datasets: heart counts once under its two cost models
    assert all("N = 5 datasets, k = 6" in t and "Friedman p = " in t for t in titles)
    for ax, (band, part) in zip(fig.axes, table.groupby("band", sort=False), strict=True):
        labels = [t.get_text() for t in with_gid(ax, "cd-label")]
        shown = [
            (catalogue.label(a), r)
            for a, r in zip(part["algorithm"], part["average_rank"], strict=True)
        ]
        expected = [f"{label} ({r:.2f})" for label, r in shown[:3]]
        expected += [f"({r:.2f}) {label}" for label, r in shown[3:][::-1]]
        assert labels == expected, band
        colours = [to_hex(t.get_color()) for t in with_gid(ax, "cd-label")]
        order = [*part["algorithm"][:3], *part["algorithm"][3:][::-1]]
        assert colours == [to_hex(catalogue[a].style.colour) for a in order]
        groups = groups_below_cd(part["average_rank"], part["cd"].iloc[0])
        assert same_groups(drawn_groups(ax), groups), band
        assert len(with_gid(ax, "cd-scale")) == 1
    assert_texts_fit(fig, [[t.get_text() for t in with_gid(ax, "cd-label")] for ax in fig.axes])
    save_figure(fig, tmp_path / "cd.png")
    assert (tmp_path / "cd.png").stat().st_size > 10_000


def test_figure_cd_draws_groups_only_where_friedman_rejects(shards, tmp_path):
    # two datasets, noise: Friedman cannot reject in any band, and no band gets a group
    rng = np.random.default_rng(3)
    means = band_means(shards)
    means = means[means["dataset"].isin(["ecoli", "sonar"])].assign(
        error=lambda m: rng.uniform(0.1, 0.3, len(m))
    )
    table = ranks.cd_analysis(means)
    assert not table["friedman_rejects"].any()
    fig = rank_plots.figure_cd(table, catalogue=Catalogue.default())
    for ax in fig.axes:
        assert with_gid(ax, "cd-group") == [] and with_gid(ax, "cd-scale") == []
        assert "no post-hoc groups" in ax.get_title()
        assert len(with_gid(ax, "cd-label")) == 6
    assert_texts_fit(fig)
    save_figure(fig, tmp_path / "cd_not_rejected.png")


def test_figure_cd_ten_algorithms_with_long_names(tmp_path):
    # ten algorithms with long names: the axis narrows, nothing is clipped
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
            "friedman_rejects": True,
            "cd": ranks.nemenyi_cd(10, 12),
        }
    )
    fig = rank_plots.figure_cd(table)
    assert len(fig.axes) == 1
    assert same_groups(
        drawn_groups(fig.axes[0]), groups_below_cd(rank_values, ranks.nemenyi_cd(10, 12))
    )
    assert_texts_fit(fig, [[t.get_text() for t in with_gid(fig.axes[0], "cd-label")]])
    save_figure(fig, tmp_path / "cd_long.png")


def test_figure_cd_nineteen_long_labels_stay_inside_the_figure():
    # the suite's 19 algorithms: constrained layout alone left the longest left labels ~10 px
    # past the figure's edge at the default width; the figure widens until they fit
    labels = [
        "AACO, feature acquisition",
        "Greedy, depth-2 trees",
        "LightGBM CEGB, stumps",
        "AdaBoostBT_Greedy",
        "SpeedBoost",
        "Smoothed, depth-2 trees",
        "Hybrid",
        "AdaBoostBT_Smoothed",
        "CatBoost penalties, stumps",
        "Smoothed, tuned",
        "Greedy, tuned",
        "STreeD, optimal cost-sensitive tree",
        "BudgetPrune, pruned forest",
        "AdaBoostBT",
        "Cost-sensitive tree",
        "Decision tree",
        "AdaBoostBT, depth-2 trees",
        "AdaBoostRS",
        "AdaBoostRS_AC",
    ]
    names = [f"algorithm_{i}" for i in range(len(labels))]
    catalogue = Catalogue.from_config({n: {"label": t} for n, t in zip(names, labels, strict=True)})
    table = pd.DataFrame(
        {
            "band": "small",
            "algorithm": names,
            "average_rank": [
                6.34,
                6.42,
                6.46,
                6.96,
                7.18,
                7.2,
                7.43,
                7.72,
                8.13,
                8.55,
                9.0,
                10.07,
                10.92,
                11.46,
                11.64,
                13.11,
                14.39,
                18.26,
                18.74,
            ],
            "n_datasets": 38,
            "k": 19,
            "friedman_p": 1e-70,
            "alpha": 0.05,
            "friedman_rejects": True,
            "cd": ranks.nemenyi_cd(19, 38),
        }
    )
    fig = rank_plots.figure_cd(table, catalogue=catalogue)
    assert fig.get_size_inches()[0] > 7.5  # widened
    assert_texts_fit(fig, [[t.get_text() for t in with_gid(fig.axes[0], "cd-label")]])


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
    # the bands one above the other, the algorithms named under the last
    assert [t.get_text() for t in axes[-1].get_xticklabels()] == [
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


def test_figure_outcomes_reads_outcomes_it_does_not_know():
    # an outcome beyond the four (the comparisons table may say a row has too few trials):
    # coloured and in the legend, not an error
    rows = pd.DataFrame(
        {
            "question": "control",
            "x": ["greedy", "speedboost", "greedy", "speedboost"],
            "y": "smoothed",
            "dataset": ["heart", "heart", "ecoli", "ecoli"],
            "cost_model": "uniform_0_2",
            "band": "large",
            "mean_difference": [0.01, np.nan, -0.02, 0.0],
            "outcome": ["better", "too few trials", "worse", "inconclusive"],
        }
    )
    fig = rank_plots.figure_outcomes(rows, "smoothed", labels=LABELS)
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == [*rank_plots.OUTCOME_COLOURS, "too few trials"]
    image = fig.axes[0].images[0]
    cells = image.get_array()  # rows ecoli, heart; columns greedy, speedboost
    assert cells[1, 1] == legend.index("too few trials")
    assert to_hex(image.cmap(image.norm(cells[1, 1]))) == rank_plots.OTHER_OUTCOME_COLOURS[0]
    assert_texts_fit(fig)


def test_cd_diagram_of_demsar_example(tmp_path):
    # Demšar (2006), Figure 1 at alpha = 0.10: CD = 1.12, C4.5 (3.143) differs from C4.5+m
    # (2.000) and C4.5+m+cf (1.964), C4.5+cf (2.893) joins both groups: two bars
    errors = 1.0 - pd.DataFrame(DEMSAR_AUC, columns=DEMSAR_NAMES)
    average = ranks.average_ranks(errors)
    fig, ax, cd, _ = draw(
        average.to_dict(),
        14,
        alpha=0.10,
        friedman_p=ranks.friedman(errors).p_F,
        title="Demšar (2006), Table 6, α = 0.10",
    )
    assert cd == pytest.approx(1.12, abs=5e-3)
    r = average.to_dict()
    assert same_groups(
        drawn_groups(ax), [(r["C4.5+m+cf"], r["C4.5+cf"]), (r["C4.5+cf"], r["C4.5"])]
    )
    labels = [t.get_text() for t in with_gid(ax, "cd-label")]
    assert labels == ["C4.5+m+cf (1.96)", "C4.5+m (2.00)", "(3.14) C4.5", "(2.89) C4.5+cf"]
    assert_texts_fit(fig, [labels])
    save_figure(fig, tmp_path / "cd_demsar.png")
