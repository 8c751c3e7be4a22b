"""The protocol of every tuned estimator: the validation split and the choice per budget."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost.estimators.contract.tuning import Choice, choose, validation_split


def reference_choice(config, size, cost, error, loss, budget):
    """The candidate used at ``budget``, written from the definition with a loop: the best
    by (error, loss, cost, size, config) among those costing at most ``budget``."""
    best = None
    for i in range(len(config)):
        if cost[i] > budget:
            continue
        key = (error[i], loss[i], cost[i], size[i], config[i])
        if best is None or key < best[0]:
            best = (key, i)
    return None if best is None else best[1]


candidates = st.integers(1, 25).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(-1, 3), min_size=n, max_size=n),
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
        st.lists(st.sampled_from([0.0, 0.5, 1.0, 1.5, 2.0, 4.0]), min_size=n, max_size=n),
        st.lists(st.sampled_from([0.1, 0.2, 0.3, 0.5]), min_size=n, max_size=n),
        st.lists(st.sampled_from([0.4, 0.6, 0.7]), min_size=n, max_size=n),
    )
)


@settings(max_examples=examples(300))
@given(candidates)
def test_choose_is_the_best_affordable_candidate_at_every_budget(drawn):
    config, size, cost, error, loss = (np.asarray(a) for a in drawn)
    cost[0] = 0.0  # a candidate every budget affords (as the empty model)
    choice = choose(config, size, cost, error, loss)
    assert choice.budgets[0] == 0.0 and np.all(np.diff(choice.budgets) > 0)
    budgets = np.unique(np.concatenate([cost, cost + 0.25, [np.inf]]))
    got_config, got_size = choice.at(budgets)
    for b, budget in enumerate(budgets):
        i = reference_choice(config, size, cost, error, loss, budget)
        assert (got_config[b], got_size[b]) == (config[i], size[i])


def test_choose_breaks_ties_by_loss_then_cost_then_size():
    #           config size cost error loss
    table = [
        (-1, 0, 0.0, 0.5, 0.70),  # the empty model
        (0, 1, 1.0, 0.2, 0.60),
        (1, 1, 1.0, 0.2, 0.50),  # same error, lower loss: wins from 1.0
        (0, 2, 2.0, 0.2, 0.50),  # same error and loss, dearer: never
        (1, 3, 3.0, 0.1, 0.90),
    ]
    config, size, cost, error, loss = (np.array(c) for c in zip(*table, strict=True))
    choice = choose(config, size, cost, error, loss)
    np.testing.assert_array_equal(choice.budgets, [0.0, 1.0, 3.0])
    np.testing.assert_array_equal(choice.config, [-1, 1, 1])
    np.testing.assert_array_equal(choice.size, [0, 1, 3])
    assert choice.at(np.array([0.99, 2.5, np.inf]))[1].tolist() == [0, 1, 3]


def test_a_choice_is_a_step_function_of_the_budget():
    choice = Choice(np.array([0.0, 1.0, 2.5]), np.array([-1, 0, 2]), np.array([0, 3, 5]))
    np.testing.assert_array_equal(
        choice.steps(np.array([0.0, 0.5, 1.0, 2.4, 2.5, 9.0])), [0, 0, 1, 1, 2, 2]
    )


@pytest.mark.parametrize("fraction", [0.1, 0.25, 0.5])
def test_the_validation_part_is_a_stratified_share_of_each_class(fraction):
    y = np.where(np.random.default_rng(1).random(203) < 0.3, 1.0, -1.0)
    fit, validation = validation_split(y, fraction, np.random.default_rng(0))
    assert np.intersect1d(fit, validation).size == 0
    np.testing.assert_array_equal(np.union1d(fit, validation), np.arange(y.size))
    for label in (-1.0, 1.0):
        assert np.sum(y[validation] == label) == np.floor(fraction * np.sum(y == label) + 0.5)
    again = validation_split(y, fraction, np.random.default_rng(0))
    np.testing.assert_array_equal(again[1], validation)


def test_the_fit_part_keeps_a_row_of_each_class():
    y = np.array([1.0, -1.0, -1.0, -1.0])
    fit, validation = validation_split(y, 0.9, np.random.default_rng(0))
    assert set(y[fit]) == {-1.0, 1.0} and validation.size == 2
