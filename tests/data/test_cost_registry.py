"""The kinds of cost model as one registry (budgetboost.data.cost_registry): a kind is one entry,
and an unknown kind is named with the registered ones."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetboost.data.costs import (
    SpecError,
    check_spec,
    make_costs,
    read_costs,
    write_costs,
)

from .helpers import toy_data


@pytest.fixture
def discounted_kind():
    """A kind registered as the next one would be: real prices read from a file, paid per
    raw attribute, with a second number per column (a discount price) handed on."""
    from budgetboost.data import cost_registry

    def read_prices(path):
        return pd.read_csv(path).set_index("feature")

    def read(where, spec):
        if "file" in spec and not isinstance(spec["file"], str):
            raise SpecError(where, "file", "must be a file path")

    with cost_registry.COST_KINDS.restoring():

        @cost_registry.cost_kind(
            "toy_discounts", keys=("file",), read=read, grouped=True, read_file=read_prices
        )
        def toy_discounts(trial, _):
            attributes = trial.data.meta["attributes"]
            prices = read_prices(trial.root / trial.spec["file"]).loc[attributes]
            full, discount = (prices[c].to_numpy(float)[trial.data.groups] for c in prices.columns)
            return cost_registry.ColumnCosts(full, {"discount": discount})

        yield "toy_discounts"
    assert "toy_discounts" not in cost_registry.COST_KINDS


def test_a_kind_is_one_registry_entry(discounted_kind, tmp_path):
    """Spec check, grouping, the file it reads, its trial costs and a further number per
    column all come from the entry: the table keeps the extra numbers on disk."""
    from budgetboost.data.costs import kind_of, kinds, real_kinds

    (tmp_path / "prices.csv").write_text("feature,cost,discount\na0,5,1\na1,3,3\na2,8,0.5\n")
    spec = {"model": discounted_kind, "file": "prices.csv"}
    assert check_spec(spec) == discounted_kind and discounted_kind in kinds()
    assert discounted_kind in real_kinds() and "real" in real_kinds()
    assert "uniform_random" not in real_kinds()
    assert kind_of(spec).cost_file(spec) == "prices.csv"
    with pytest.raises(SpecError, match="unknown parameter of model 'toy_discounts'"):
        check_spec({**spec, "grouped": True})  # grouped by the kind, not by the spec
    data = toy_data()
    table = make_costs("toy", "turney_groups", spec, data, None, [0, 1], tmp_path)
    assert table.grouped
    np.testing.assert_array_equal(table.costs[0], np.array([5.0, 3, 8])[data.groups])
    np.testing.assert_array_equal(table.extra["discount"][1], np.array([1, 3, 0.5])[data.groups])
    write_costs(table, tmp_path / "c.parquet")
    back = read_costs(tmp_path / "c.parquet")
    np.testing.assert_array_equal(back.extra["discount"], table.extra["discount"])
    np.testing.assert_array_equal(back.costs, table.costs)


def test_unknown_kinds_are_named_with_the_registered_ones():
    from budgetboost.data.costs import kinds

    with pytest.raises(SpecError, match="must be one of") as err:
        check_spec({"model": ["uniform_random"]})
    assert all(name in str(err.value) for name in kinds())
    assert list(kinds())[:3] == ["uniform_random", "constant", "discrete"]
