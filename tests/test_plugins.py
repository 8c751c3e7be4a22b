"""The one registry mechanism of every kind of plug-in (budgetboost.plugins.Registry), and a
results table, a figure and a cost kind each added from a module outside the package with
one registration and no other edit (the estimator's: tests/estimators/contract/
test_registry.py)."""

from __future__ import annotations

import importlib
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
from data.helpers import toy_data
from synthetic_results import sizes_for, synthetic_shards

from budgetboost.analysis.results import aggregate
from budgetboost.analysis.tables import TABLES
from budgetboost.catalogue import Catalogue
from budgetboost.data.cost_registry import COST_KINDS
from budgetboost.data.costs import SpecError, check_spec, make_costs
from budgetboost.figures import registry as figures
from budgetboost.plugins import DuplicateNameError, Registry, UnknownNameError


def first(run, tables):  # pragma: no cover - never called
    raise AssertionError


def second(run, tables):  # pragma: no cover - never called
    raise AssertionError


def test_register_as_a_decorator_with_or_without_a_name():
    registry = Registry("widget")

    @registry.register
    def spanner():  # pragma: no cover - never called
        pass

    @registry.register(name="wrench")
    def other():  # pragma: no cover - never called
        pass

    assert registry.register(len, name="size") is len
    assert list(registry) == ["spanner", "wrench", "size"]
    assert registry["wrench"] is other and len(registry) == 3 and "spanner" in registry


def test_an_unknown_name_is_named_with_the_kind_and_the_known_names():
    registry = Registry("widget", {"b": 1, "a": 2})
    with pytest.raises(UnknownNameError) as err:
        registry["c"]
    assert str(err.value) == "unknown widget 'c'; the registered ones are ['a', 'b']"
    assert registry.get("c") is None and ["x"] not in registry  # a mapping's answers


def test_a_second_plug_in_under_a_taken_name_is_refused_the_same_one_is_not():
    registry = Registry("widget")
    registry.register(first)
    registry.register(first)  # its module imported again: the same definition
    with pytest.raises(DuplicateNameError, match=r"widget 'first' is registered twice \(.*"):
        registry.register(second, name="first")
    with pytest.raises(ValueError, match="widget needs a name"):
        registry.register(3)
    assert dict(registry) == {"first": first}


def test_the_registry_is_read_only_except_through_its_methods():
    registry = Registry("widget", {"a": 1})
    with pytest.raises(TypeError):
        registry["b"] = 2  # type: ignore[index]
    with pytest.raises(TypeError):
        registry.view["b"] = 2  # type: ignore[index]
    with registry.registered(2, name="b"):
        assert dict(registry.view) == {"a": 1, "b": 2}
        with pytest.raises(DuplicateNameError, match="widget 'b' is already registered"):
            with registry.registered(3, name="b"):
                pass  # pragma: no cover - not reached
    assert dict(registry) == {"a": 1}
    with registry.restoring():
        registry.register(5, name="c")
        assert "c" in registry
    assert dict(registry) == {"a": 1}


def test_check_and_order_apply_to_every_registration():
    def positive(name, value):
        if value <= 0:
            raise ValueError(f"widget {name!r} must be positive")

    registry = Registry("widget", check=positive, order=lambda name, value: value % 2)
    for name, value in (("one", 1), ("two", 2), ("three", 3), ("four", 4)):
        registry.register(value, name=name)
    assert list(registry) == ["two", "four", "one", "three"]  # evens first, each in order
    with pytest.raises(ValueError, match="'zero' must be positive"):
        registry.register(0, name="zero")


@pytest.fixture
def outside(tmp_path, monkeypatch):
    """Write a module of the user's own outside the package and import it (gone afterwards)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    names = []

    def load(name: str, source: str):
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(source))
        names.append(name)
        return importlib.import_module(name)

    yield load
    for name in names:
        sys.modules.pop(name, None)


def test_a_results_table_from_outside_the_package_is_one_registration(outside):
    shards = synthetic_shards(datasets=("ecoli",), trials=2, budgets=(2,))
    shards = shards[shards["algorithm"].isin(["adaboost", "smoothed"])]  # few comparisons
    args = (shards, Catalogue.default(), "uniform_0_2", sizes_for(shards))
    built_in = list(TABLES)
    with TABLES.restoring():
        outside(
            "my_tables",
            """
            from budgetboost.analysis.tables import table

            @table("rows_per_algorithm", description="shard rows per algorithm")
            def rows_per_algorithm(run, tables):
                return run.shards.groupby("algorithm").size().rename("rows").reset_index()
            """,
        )
        assert list(TABLES) == [*built_in, "rows_per_algorithm"]
        assert "rows_per_algorithm" in figures.TABLES  # a figure may read it
        results = aggregate(*args)
        rows = results.rows_per_algorithm.set_index("algorithm")["rows"]
        assert rows.to_dict() == shards.groupby("algorithm").size().to_dict()
    assert list(TABLES) == built_in


def test_a_figure_from_outside_the_package_is_one_registration(outside):
    with figures.FIGURES.restoring():
        outside(
            "my_figures",
            """
            from budgetboost.figures.registry import figure

            @figure("algorithm_count", title="algorithms", caption="How many algorithms ran.",
                    category="Tests", families=("boosting",))
            def algorithm_count(tables, context):
                import matplotlib.pyplot as plt

                fig, ax = plt.subplots()
                ax.bar(["algorithms"], [tables["summary"]["algorithm"].nunique()])
                return fig
            """,
        )
        assert figures.check_modules(["my_figures"]) is None
        loaded = figures.load(["my_figures"])
        assert list(loaded)[-1] == "algorithm_count"
        spec = loaded["algorithm_count"]
        assert spec.module == "my_figures" and spec.input_tables() == {
            "summary": "results/summary/summary.parquet"
        }
        summary = pd.DataFrame({"algorithm": ["greedy", "smoothed", "greedy"]})
        fig = spec.draw({"summary": summary}, figures.FigureContext(Catalogue.default()))
        assert fig.axes[0].patches[0].get_height() == 2
    assert "algorithm_count" not in figures.FIGURES


def test_a_cost_kind_from_outside_the_package_is_one_registration(outside, tmp_path):
    with COST_KINDS.restoring():
        outside(
            "my_costs",
            """
            import numpy as np

            from budgetboost.data.cost_registry import ColumnCosts, cost_kind, number

            def read(where, spec):
                return number(where, spec, "value")

            @cost_kind("doubled", keys=("value",), read=read)
            def doubled(trial, value):
                return ColumnCosts(np.full(trial.n_columns, 2 * value))
            """,
        )
        spec = {"model": "doubled", "value": 1.5}
        assert check_spec(spec) == "doubled"
        with pytest.raises(SpecError, match="value: missing"):
            check_spec({"model": "doubled"})
        data = toy_data()
        table = make_costs("toy", "doubled_costs", spec, data, None, [0, 1], tmp_path)
        np.testing.assert_array_equal(table.costs, np.full((2, data.X.shape[1]), 3.0))
    with pytest.raises(SpecError, match="must be one of"):
        check_spec(spec)
