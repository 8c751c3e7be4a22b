"""The figure registry (budgetboost.figures.registry) every figure goes through: the paper's
figures registered with captions, every figure drawn from its tables, an algorithm of the
config's own in every figure of its family, entries checked."""

from __future__ import annotations

import docutils.core as docutils_core
import matplotlib.colors as mcolors
import pandas as pd
import pytest
from synthetic_results import sizes_for, synthetic_shards

from budgetboost.analysis import summary as summaries
from budgetboost.analysis.results import aggregate
from budgetboost.analysis.tables import registered as registered_table
from budgetboost.catalogue import Catalogue
from budgetboost.figures import registry as figures
from budgetboost.report import summary as report_summary

from .helpers import (
    BASELINE,
    CATALOGUE,
    curves,
    make_context,
    results_tables,
    texts,
)


def test_the_paper_figures_are_registered_with_captions():
    registered = figures.load()
    assert list(registered)[:3] == ["figure1", "figure2", "figure3"]
    assert {registered[f"figure{i}"].module for i in (1, 2, 3)} == {"budgetboost.figures.curves"}
    for spec in registered.values():
        assert spec.caption and spec.title and spec.category
        assert set(spec.tables) <= set(figures.TABLES)
        # the report renders captions as reStructuredText: no warning or error in any
        # (e.g. "|x|" is a substitution reference)
        docutils_core.publish_doctree(
            spec.caption, settings_overrides={"halt_level": 2, "report_level": 5}
        )


def test_every_registered_figure_draws_from_its_tables(shards):
    tables = results_tables(shards)
    for name, spec in figures.load().items():
        context = make_context(CATALOGUE, spec.families, ["webscope"])
        fig = spec.draw({t: tables[t] for t in spec.tables}, context)
        assert fig.axes, name


def test_registering_a_figure_twice_under_one_name_is_an_error():
    @figures.figure("test_twice", title="t", caption="c", category="Tests", families=("boosting",))
    def first(tables, context):  # pragma: no cover - never drawn
        raise AssertionError

    with pytest.raises(ValueError, match="registered twice"):

        @figures.figure(
            "test_twice", title="t", caption="c", category="Tests", families=("boosting",)
        )
        def second(tables, context):  # pragma: no cover - never drawn
            raise AssertionError


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"families": ("boostin",)}, "unknown families"),
        ({"families": ("boosting",), "tables": ("summry",)}, "unknown families or tables"),
    ],
)
def test_a_registry_entry_is_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        figures.figure("bad", title="t", caption="c", category="Tests", **kwargs)


def shard_rows(run, tables) -> pd.DataFrame:
    """A results table registered by a test: the shard rows of each algorithm."""
    return run.shards.groupby("algorithm").size().rename("rows").reset_index()


def test_a_figure_may_read_a_results_table_registered_later():
    """A table registered after the package's (budgetboost.analysis.tables) is one a figure
    may read: the entry is accepted, its plot job reads the table's file, and the figure
    gets it among the run's tables; once the table is gone, such an entry is refused."""
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=3, budgets=(2, 10), extra=())
    with (
        figures.FIGURES.restoring(),  # this test's figures
        registered_table("shard_rows", shard_rows, description="shard rows per algorithm"),
    ):
        assert list(figures.TABLES)[-1] == "shard_rows"

        @figures.figure(
            "test_shard_rows",
            title="shard rows",
            caption="Shard rows per algorithm.",
            category="Tests",
            families=("boosting",),
            tables=("summary", "shard_rows"),
        )
        def draw(tables, context):
            import matplotlib.pyplot as plt

            fig, ax = plt.subplots()
            rows = tables["shard_rows"]
            ax.bar(rows["algorithm"], rows["rows"])
            return fig

        spec = figures.registry()["test_shard_rows"]
        assert spec.input_tables()["shard_rows"] == "results/summary/shard_rows.parquet"
        tables = results_tables(shards)
        fig = spec.draw({t: tables[t] for t in spec.tables}, make_context(CATALOGUE, ()))
        heights = [bar.get_height() for bar in fig.axes[0].patches]
        assert sorted(heights) == sorted(shards.groupby("algorithm").size())
        assert spec.has_content(tables, make_context(CATALOGUE, ()))
    assert "shard_rows" not in figures.TABLES
    with pytest.raises(ValueError, match=r"unknown families or tables \['shard_rows'\]"):
        figures.figure(
            "test_shard_rows_after",
            title="t",
            caption="c",
            category="Tests",
            families=("boosting",),
            tables=("shard_rows",),
        )


OTHER_COST_MODELS = ("figure2", "adversarial_costs", "few_cheap_costs")


def test_a_config_only_algorithm_appears_with_its_label_and_own_style(summary):
    """An algorithm added in the config alone is drawn in every figure of its family
    with its label and a colour no other algorithm has (never grey dots)."""
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=4, budgets=(2, 10), extra=())
    smoothed = shards[shards["algorithm"] == "smoothed"]
    shards = pd.concat(
        [
            shards,
            smoothed.assign(
                algorithm="smoothed_tau_half", test_error=smoothed["test_error"] + 0.01
            ),
        ],
        ignore_index=True,
    )
    config = {name: {} for name in shards["algorithm"].unique()}
    config["smoothed_tau_half"] = {"label": "Smoothed τ=0.5", "family": "boosting"}
    catalogue = Catalogue.from_config(config)
    summaries.summarize(shards, catalogue=catalogue)  # the config-only algorithm summarises
    new = catalogue["smoothed_tau_half"]
    assert new.style.colour not in {
        catalogue[a].style.colour for a in catalogue if a != "smoothed_tau_half"
    }
    assert new.style.colour != "grey"
    tables = results_tables(shards, catalogue)
    for name, spec in figures.load().items():
        context = make_context(catalogue, spec.families)
        fig = spec.draw({t: tables[t] for t in spec.tables}, context)
        drawn = {text: c for ax in fig.axes for text, c in curves(ax).items()}
        shown = " | ".join(texts(fig))
        # figure2, adversarial_costs, few_cheap_costs: other cost models only
        if "boosting" not in spec.families or name in OTHER_COST_MODELS:
            assert "Smoothed τ=0.5" not in shown, name
        elif drawn:  # budget curves: its own colour and marker
            line = drawn["Smoothed τ=0.5"].lines[0]
            assert mcolors.same_color(line.get_color(), new.style.colour), name
            assert line.get_marker() == new.style.marker
        else:  # rank diagrams and grids: named by its label
            assert "Smoothed τ=0.5" in shown, name
    text = report_summary.summary_markdown(
        aggregate(shards, catalogue, BASELINE, sizes_for(shards)), catalogue
    )
    header = next(line for line in text.splitlines() if line.startswith("| budget"))
    cells = [c.strip() for c in header.strip("|").split("|")]
    assert cells == [
        "budget",
        "AdaBoost (unbudgeted)",
        "AdaBoostBT",
        "AdaBoostBT_Greedy",
        "AdaBoostBT_Smoothed",
        "SpeedBoost",
        "Smoothed τ=0.5",
        "AdaBoostRS",
        "Decision tree",
    ]


# ------------------------------------------------------- whether a figure has anything to draw


def _open_question_tables():
    """Two datasets under U[0, 2] and adversarial costs (no reference there), a tree variant
    of Greedy and no real costs: Figure 2 and the few-cheap figure have nothing to draw."""
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=3, budgets=(2, 6), extra=())
    greedy = shards[shards["algorithm"] == "greedy"]
    boosters = shards[shards["algorithm"].isin(["greedy", "smoothed"])]
    shards = pd.concat(
        [
            shards,
            greedy.assign(algorithm="greedy_tree2", test_error=greedy["test_error"] - 0.02),
            boosters.assign(cost_model="adversarial", test_error=boosters["test_error"] + 0.05),
        ],
        ignore_index=True,
    )
    config = {name: {} for name in shards["algorithm"].unique()}
    config["greedy_tree2"] = {"family": "boosted_trees", "variant_of": "greedy"}
    catalogue = Catalogue.from_config(config)
    return results_tables(shards, catalogue), catalogue


def _reference_only_tables():
    shards = synthetic_shards(datasets=("heart",), trials=2, budgets=(2, 4), extra=())
    return results_tables(shards[shards["algorithm"] == "adaboost"]), CATALOGUE


@pytest.mark.parametrize("case", ["paper", "open_questions", "reference_only"])
def test_has_content_says_whether_the_figure_draws_more_than_a_placeholder(shards, case):
    """Each figure's ``has_content`` (its cheap ``content`` function, where it has one) agrees with
    what its drawing shows: an axes other than a placeholder (the first page lists only figures with
    content)."""
    tables, catalogue = {
        "paper": lambda: (results_tables(shards), CATALOGUE),
        "open_questions": _open_question_tables,
        "reference_only": _reference_only_tables,
    }[case]()
    found = {}
    for name, spec in figures.load().items():
        context = make_context(catalogue, spec.families, ["webscope"])
        fig = spec.draw({t: tables[t] for t in spec.tables}, context)
        drawn = any(ax.get_gid() != figures.PLACEHOLDER_GID for ax in fig.axes)
        found[name] = spec.has_content(tables, context)
        assert found[name] == drawn, (case, name)
    empty = {name for name, has in found.items() if not has}
    assert (
        empty
        == {
            "paper": {
                "adversarial_costs",
                "boosted_trees",
                "few_cheap_costs",
                "field_curves",
                "field_standings",
                "peers",
            },
            # no real costs, no few-cheap cost model, no peer, no method of the field's families
            "open_questions": {
                "figure2",
                "few_cheap_costs",
                "field_curves",
                "field_standings",
                "peers",
            },
            "reference_only": set(found),  # AdaBoost alone: nothing is drawn
        }[case]
    ), (case, empty)


def test_with_content_lists_the_figures_that_draw_something_in_order(shards):
    """The first page's "Where to look" (rule ``landing``): the registered figures whose
    ``has_content`` is true for the run's tables, in the registry's order."""
    tables, catalogue = _open_question_tables()
    specs = figures.load()
    context = make_context(catalogue, (), ["webscope"])
    listed = figures.with_content(specs, tables, context)
    assert listed == [
        name
        for name, spec in specs.items()
        if spec.has_content(tables, make_context(catalogue, spec.families, ["webscope"]))
    ]
    assert "figure1" in listed and "figure2" not in listed
    assert figures.with_content(specs, *_reference_only_tables()[:1], context) == []


def test_has_content_without_a_content_function_draws_the_figure():
    @figures.figure(
        "test_always_empty", title="t", caption="c", category="Tests", families=("boosting",)
    )
    def always_empty(tables, context):
        from budgetboost.figures.panels import grid, placeholder

        fig, axes = grid(1)
        placeholder(axes[0], "nothing")
        return fig

    spec = figures.registry()["test_always_empty"]
    assert spec.content is None
    assert not spec.has_content({"summary": pd.DataFrame()}, make_context(CATALOGUE, ()))
