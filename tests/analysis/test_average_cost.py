"""The average-cost reading: each front read at the grid's levels, never extrapolated."""

import numpy as np
import pandas as pd
import pytest
from helpers import examples
from hypothesis import given, settings
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


# ------------------------------------------------------------------ each test row's loss


def _with_rows(points, algorithm="a", trial=0):
    """Shard rows of one front with each test row's loss: (budget, mean cost, wrong rows)
    triples, ``test_error`` the wrong rows' share as a shard row's."""
    shards = _shards(
        [(b, c, float(np.mean(w))) for b, c, w in points], algorithm=algorithm, trial=trial
    )
    shards["test_wrong"] = [np.packbits(np.asarray(w, dtype=bool)).tobytes() for _, _, w in points]
    return shards


def test_a_level_between_two_points_reads_each_rows_expected_loss_under_their_mixture():
    """Costs 0.8 and 1.8 around level 1: the mixture plays the costlier point a fifth of the
    time, so a row wrong at the cheaper point only loses 0.8, at the costlier only 0.2; at
    level 2, above the costliest point, its rows' losses exactly."""
    a = [1, 0, 1, 0, 1, 1, 0, 0, 1]
    b = [0, 0, 1, 1, 0, 1, 0, 0, 0]
    read = at_mean_cost(_with_rows([(1, 0.8, a), (2, 1.8, b)])).set_index("budget")
    losses = {level: np.asarray(v) for level, v in read["test_wrong"].items()}
    assert losses[1.0].size == 16  # two packed bytes: seven padding rows, 0
    np.testing.assert_allclose(
        losses[1.0][:9], [0.8, 0.0, 1.0, 0.2, 0.8, 1.0, 0.0, 0.0, 0.8], rtol=0, atol=1e-12
    )
    np.testing.assert_array_equal(losses[2.0][:9], b)
    assert not losses[1.0][9:].any() and not losses[2.0][9:].any()
    assert read.loc[1.0, "test_error"] == pytest.approx(losses[1.0][:9].mean(), abs=1e-12)
    assert read.loc[1.0, "test_error"] == pytest.approx(0.8 * np.mean(a) + 0.2 * np.mean(b))


def test_a_point_without_its_rows_losses_leaves_only_the_levels_that_read_it_without_them():
    shards = _with_rows([(1, 0.5, [1, 0, 1]), (2, 1.5, [0, 0, 1]), (3, 2.5, [0, 1, 0])])
    shards.loc[shards["budget"] == 3, "test_wrong"] = None
    read = at_mean_cost(shards).set_index("budget")["test_wrong"]
    assert read[1.0] is not None  # between points 1 and 2
    assert read[2.0] is None and read[3.0] is None  # both read point 3
    plain = at_mean_cost(shards.drop(columns="test_wrong"))
    assert list(plain.columns) == [
        "dataset",
        "cost_model",
        "algorithm",
        "trial",
        "budget",
        "test_error",
    ]


def test_fronts_of_unequal_test_rows_are_refused():
    shards = pd.concat(
        [_with_rows([(1, 0.5, [1, 0, 1])], "a"), _with_rows([(1, 0.5, [1] * 9)], "b")]
    )
    with pytest.raises(ValueError, match="bytes"):
        at_mean_cost(shards)


@settings(max_examples=examples(80), deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n_test=st.integers(1, 20),
    budgets=st.integers(1, 6),
    fronts=st.integers(1, 4),
)
def test_each_reads_rows_losses_average_to_its_error_and_lie_between_its_points(
    seed, n_test, budgets, fronts
):
    """The invariant of the reading: at every level it reads, each front's rows' losses
    average to the error it reads there (as a shard row's bits to its ``test_error``), each
    lies between the row's losses at the front's points, and the padding rows stay 0."""
    rng = np.random.default_rng(seed)
    parts, wrong = [], {}
    for front in range(fronts):
        costs = np.round(rng.uniform(0, budgets + 1, budgets), 1)  # ties and levels hit
        rows = rng.random((budgets, n_test)) < rng.uniform(0, 1, (budgets, 1))
        wrong[front] = rows
        parts.append(
            _with_rows(
                [(float(b + 1), c, w) for b, (c, w) in enumerate(zip(costs, rows, strict=True))],
                trial=front,
            )
        )
    read = at_mean_cost(pd.concat(parts, ignore_index=True))
    for trial, error, losses in zip(
        read["trial"], read["test_error"], read["test_wrong"], strict=True
    ):
        losses = np.asarray(losses)
        assert losses[:n_test].mean() == pytest.approx(error, abs=1e-12)
        assert (losses[:n_test] >= wrong[trial].min(axis=0) - 1e-12).all()
        assert (losses[:n_test] <= wrong[trial].max(axis=0) + 1e-12).all()
        assert not losses[n_test:].any()
