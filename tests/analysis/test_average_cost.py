"""The average-cost reading: each front read at the grid's levels, never extrapolated."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetboost.analysis.average_cost import at_mean_cost


def _shards(points, algorithm="a", trial=0):
    """Shard rows of one front: (budget, mean cost, error) triples."""
    return pd.DataFrame(
        {
            "dataset": "d",
            "cost_model": "c",
            "algorithm": algorithm,
            "trial": trial,
            "budget": [p[0] for p in points],
            "mean_example_cost": [p[1] for p in points],
            "test_error": [p[2] for p in points],
        }
    )


def _read(table):
    return dict(zip(table["budget"], table["test_error"], strict=True))


def test_a_level_between_two_points_is_read_on_the_line_between_them():
    read = _read(at_mean_cost(_shards([(1, 0.5, 0.4), (2, 1.5, 0.2), (3, 2.5, 0.1)])))
    assert read[1.0] == pytest.approx(0.4 + (1 - 0.5) / 1.0 * (0.2 - 0.4))
    assert read[2.0] == pytest.approx(0.2 + 0.5 * (0.1 - 0.2))


def test_above_the_costliest_point_the_method_is_read_there_and_below_the_cheapest_not_at_all():
    read = _read(at_mean_cost(_shards([(1, 1.5, 0.3), (2, 1.8, 0.25), (3, 1.8, 0.2)])))
    assert 1.0 not in read  # cheapest point costs 1.5 > 1: not extrapolated
    assert read[2.0] == pytest.approx(0.2)  # tie at 1.8: the last point in the grid's order
    assert read[3.0] == pytest.approx(0.2)


def test_points_are_sorted_by_cost_not_by_budget():
    read = _read(at_mean_cost(_shards([(1, 0.8, 0.3), (2, 0.6, 0.35), (3, 2.0, 0.1)])))
    # sorted by cost: (0.6, 0.35), (0.8, 0.3), (2.0, 0.1)
    assert read[1.0] == pytest.approx(0.3 + (1 - 0.8) / 1.2 * (0.1 - 0.3))


def test_each_trial_and_algorithm_is_read_on_its_own_front():
    shards = pd.concat(
        [
            _shards([(1, 1.0, 0.5), (2, 2.0, 0.3)], "a", 0),
            _shards([(1, 0.5, 0.4), (2, 1.0, 0.2)], "a", 1),
            _shards([(1, 1.0, 0.1), (2, 1.0, 0.1)], "b", 0),
        ]
    )
    out = at_mean_cost(shards).set_index(["algorithm", "trial", "budget"])["test_error"]
    assert out[("a", 0, 1.0)] == pytest.approx(0.5)
    assert out[("a", 1, 2.0)] == pytest.approx(0.2)
    assert out[("b", 0, 2.0)] == pytest.approx(0.1)


@given(
    st.lists(
        st.tuples(st.floats(0, 10), st.floats(0, 1)),
        min_size=1,
        max_size=6,
        unique_by=lambda p: p[0],
    )
)
def test_a_read_error_lies_between_the_errors_of_the_points_it_reads(points):
    budgets = np.arange(1, len(points) + 1, dtype=float)
    rows = [(b, c, e) for b, (c, e) in zip(budgets, points, strict=True)]
    read = at_mean_cost(_shards(rows))
    errors = np.array([e for _, e in points])
    costs = np.array([c for c, _ in points])
    assert set(read["budget"]) == {b for b in budgets if b >= costs.min()}
    assert (read["test_error"] >= errors.min() - 1e-12).all()
    assert (read["test_error"] <= errors.max() + 1e-12).all()
