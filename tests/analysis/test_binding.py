"""Where budgets bind: a cheapest-first buyer's share of the attributes."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetboost.analysis.binding import Prices, band_binds, binding, touched_share


def test_under_prices_per_attribute_the_buyer_pays_each_attribute_once():
    # attribute 0 has two indicators at 1 each, paid once: 1; attribute 3 is not offered
    prices = Prices(np.array([[1.0, 1.0, 0.5, 2.0, np.inf]]), np.array([0, 0, 1, 2, 3]), True)
    share = touched_share(prices, np.array([0.4, 0.5, 1.5, 3.5]))
    np.testing.assert_allclose(share, [[0, 1 / 3, 2 / 3, 1]])


def test_under_prices_per_indicator_the_buyer_touches_an_attribute_with_its_first_indicator():
    prices = Prices(np.array([[0.1, 0.2, 0.5, 2.0, 0.3]]), np.array([0, 0, 1, 2, 2]), False)
    share = touched_share(prices, np.array([0.1, 0.3, 0.6, 1.1]))
    np.testing.assert_allclose(share, [[1 / 3, 1 / 3, 2 / 3, 1]])


@given(
    st.lists(st.floats(0, 3), min_size=2, max_size=12),
    st.lists(st.floats(0.01, 20), min_size=1, max_size=5),
    st.booleans(),
)
def test_the_share_grows_with_the_budget_and_stays_in_0_1(costs, budgets, grouped):
    costs = np.array(costs)
    attributes = np.arange(costs.size) // 2
    budgets = np.sort(np.array(budgets))
    share = touched_share(Prices(costs[None, :], attributes, grouped), budgets)[0]
    assert ((share >= 0) & (share <= 1)).all()
    assert (np.diff(share) >= 0).all()
    if budgets[-1] >= costs.sum():
        assert share[-1] == pytest.approx(1.0)


def test_a_band_binds_where_its_largest_budget_does():
    prices = Prices(np.array([[1.0, 1.0, 1.0, 1.0]]), np.array([0, 1, 2, 3]), True)
    table = binding({("d", "c"): prices}, {("d", "c"): np.array([1.0, 2.0, 3.0])})
    assert table["share"].tolist() == [0.25, 0.5, 0.75]
    assert table["binds"].tolist() == [True, True, False]
    assert band_binds(table, "small")["binds"].tolist() == [True]
    assert band_binds(table, "large")["binds"].tolist() == [False]
