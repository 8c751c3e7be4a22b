"""AdaBoostRS: sampling frequencies, the per-example budget, convergence with budget."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from budgetboost import AdaBoostRS, BudgetedBoost
from budgetboost.estimators.boosting import sampling
from budgetboost.estimators.boosting.booster import VOTE_TIE
from budgetboost.estimators.boosting.sampling import MIN_COST, _alias_draws, _alias_table


@pytest.fixture(scope="module")
def toy():
    rng = np.random.default_rng(11)
    X = rng.normal(size=(400, 8))
    y = np.where(X[:, 0] + X[:, 1] - X[:, 2] > 0, 1, -1)  # separable by a linear rule
    costs = rng.uniform(0.2, 2.0, size=8)
    return X, y, costs


@pytest.mark.parametrize("cost_weighted", [False, True])
def test_sampling_frequencies_match_p(toy, cost_weighted):
    X, y, costs = toy
    model = AdaBoostRS(
        n_rounds=40,
        cost_weighted=cost_weighted,
        feature_costs=costs,
        random_state=123,
        max_draws=500,
    ).fit(X[:200], y[:200])
    expected = model.alpha_ / (model.hypothesis_cost_ if cost_weighted else 1.0)
    np.testing.assert_allclose(model.sampling_probability_, expected / expected.sum())
    table = _alias_table(model.sampling_probability_)
    draws = _alias_draws(np.random.default_rng(123), table, (200, 500))  # 100,000 draws
    observed = np.bincount(draws.ravel(), minlength=model.alpha_.size)
    result = stats.chisquare(observed, model.sampling_probability_ * draws.size)
    assert result.pvalue > 1e-3


@settings(max_examples=examples(40), derandomize=True)
@given(
    budgets=st.lists(st.floats(0, 30, allow_nan=False), min_size=1, max_size=6),
    cost_weighted=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_per_example_cost_never_reaches_the_budget(toy, budgets, cost_weighted, seed):
    X, y, costs = toy
    model = AdaBoostRS(
        n_rounds=30,
        cost_weighted=cost_weighted,
        feature_costs=costs,
        random_state=seed,
        max_draws=300,
    ).fit(X[:150], y[:150])
    sample = model.sample_at_budgets(X[150:250], budgets)
    b = np.asarray(budgets)[:, None]
    assert np.all((sample["cost"] < b) | (sample["cost"] == 0))
    # one sequence per example serves every budget: more budget never means fewer draws
    order = np.argsort(budgets)
    assert np.all(np.diff(sample["draws"][order], axis=0) >= 0)


def test_more_budget_does_not_increase_vote_error(toy):
    X, y, costs = toy
    budgets = np.array([3.0, 5.0, 8.0, 12.0, 20.0])
    errors = []
    for seed in range(5):
        model = AdaBoostRS(n_rounds=100, feature_costs=costs, random_state=seed).fit(
            X[:200], y[:200]
        )
        errors.append(model.evaluate_at_budgets(X[200:], y[200:], budgets).error)
    mean = np.mean(errors, axis=0)
    assert np.all(np.diff(mean) <= 0.02), mean  # non-increasing up to sampling noise
    assert mean[-1] < mean[0]


def test_same_seed_same_predictions_and_full_budget_is_adaboost(toy):
    X, y, costs = toy
    a = AdaBoostRS(n_rounds=50, feature_costs=costs, random_state=5).fit(X[:200], y[:200])
    b = AdaBoostRS(n_rounds=50, feature_costs=costs, random_state=5).fit(X[:200], y[:200])
    np.testing.assert_array_equal(
        a.predict_at_budgets(X[200:], [4, 9]), b.predict_at_budgets(X[200:], [4, 9])
    )
    ada = BudgetedBoost(criterion="adaboost", max_rounds=50).fit(X[:200], y[:200])
    np.testing.assert_array_equal(a.feature_, ada.feature_)
    np.testing.assert_array_equal(a.predict(X[200:]), ada.predict(X[200:]))


def test_budget_below_the_costliest_hypothesis_gives_empty_vote_and_majority():
    X = np.array([[0.0], [1.0], [2.0], [3.0], [4.0]])
    y = np.array([0, 0, 1, 1, 1])
    model = AdaBoostRS(n_rounds=5, feature_costs=[2.0], budget=2.0, random_state=0).fit(X, y)
    np.testing.assert_array_equal(model.predict(X), np.ones(5))  # 2 + 0 < 2 fails: no draw
    result = model.evaluate_at_budgets(X, y, [2.0, 2.5])
    assert result.rounds[0] == 0 and result.max_example_cost[0] == 0
    assert result.rounds[1] >= 1 and result.max_example_cost[1] == 2.0


def test_bad_arguments():
    X = np.arange(8.0).reshape(4, 2)
    with pytest.raises(ValueError, match="n_rounds: must be an integer >= 1; got 0"):
        AdaBoostRS(n_rounds=0).fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="budget: must be a number >= 0 or None; got -3"):
        AdaBoostRS(budget=-3).fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="cost_weighted: must be True or False; got 'yes'"):
        AdaBoostRS(cost_weighted="yes").fit(X, [0, 1, 0, 1])


def _reference_sample(model, X, budgets):
    """The poster's loop one example and one draw at a time, on the engine's random stream.

    The stream's layout is part of the contract (results are byte-identical for a
    ``random_state``): blocks of ``_ROW_BLOCK`` examples, each with its own stream (spawned
    from ``random_state`` in block order); in each step of a block, a
    ``(block rows, _DRAW_CHUNK)`` array of uniforms, one row per example; steps go on while
    some example of the block could still draw within the largest budget, up to
    ``max_draws``. Sums are taken as the engine takes them: within a step from zero, then
    added to the example's total.
    """
    prob, alias = _alias_table(model.sampling_probability_)
    n = prob.size
    h = np.where(X[:, model.feature_] >= model.threshold_, model.polarity_, -model.polarity_)
    step_vote = h * np.maximum(model.hypothesis_cost_, MIN_COST) if model.cost_weighted else h
    costliest = model.hypothesis_cost_.max()
    largest = max(budgets)
    starts = range(0, len(X), sampling._ROW_BLOCK)
    streams = np.random.default_rng(model.random_state).spawn(len(starts))
    out = {key: np.zeros((len(budgets), len(X))) for key in ("vote", "cost", "draws", "n_features")}
    out["reads"] = np.zeros((len(budgets), len(X), model._n_groups()), dtype=bool)
    for start, rng in zip(starts, streams, strict=True):
        rows = range(start, min(start + sampling._ROW_BLOCK, len(X)))
        paid, vote, groups = [0.0] * len(rows), [0.0] * len(rows), [0] * len(rows)
        seen = [set() for _ in rows]
        done = 0
        while done < model.max_draws and any(p + costliest < largest for p in paid):
            width = min(sampling._DRAW_CHUNK, model.max_draws - done)
            uniform = rng.random((len(rows), width))
            for i, example in enumerate(rows):
                step_paid, step_vote_sum, step_groups = 0.0, 0, 0
                for t in range(width):
                    reach = (paid[i] + step_paid if t else paid[i]) + costliest
                    scaled = uniform[i, t] * n
                    slot = min(int(scaled), n - 1)
                    draw = slot if scaled - slot < prob[slot] else alias[slot]
                    group = model.group_[draw]
                    if group not in seen[i]:
                        seen[i].add(group)
                        step_paid += model.hypothesis_cost_[draw]
                        step_groups += 1
                    step_vote_sum += step_vote[example, draw]
                    for k, budget in enumerate(budgets):
                        if reach < budget:  # the poster's loop condition, before the draw
                            out["draws"][k, example] = done + t + 1
                            out["cost"][k, example] = paid[i] + step_paid
                            out["vote"][k, example] = vote[i] + step_vote_sum
                            out["n_features"][k, example] = groups[i] + step_groups
                            out["reads"][k, example] = False  # the groups drawn so far
                            out["reads"][k, example, list(seen[i])] = True
                paid[i] += step_paid
                vote[i] += step_vote_sum
                groups[i] += step_groups
            done += width
    out["vote"] += model.majority_ * VOTE_TIE
    return out


@settings(max_examples=examples(25), derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    cost_weighted=st.booleans(),
    budgets=st.lists(
        st.sampled_from([0.0, 0.3, 1.0, 2.5, 4.0, 7.5, 12.0, np.inf]), min_size=1, max_size=5
    ),
    max_draws=st.sampled_from([1, 70, 300]),
    grouped=st.booleans(),
)
def test_sampling_is_the_reference_loop_on_the_same_stream(
    toy, seed, cost_weighted, budgets, max_draws, grouped
):
    """Byte for byte: the vectorised sampler draws and sums exactly as the loop does, and
    says each example reads the groups of its draws."""
    X, y, costs = toy
    groups = np.array([0, 0, 1, 2, 2, 3, 4, 4]) if grouped else None
    if grouped:
        costs = costs[[0, 0, 2, 3, 3, 5, 6, 6]]
    model = AdaBoostRS(
        n_rounds=30,
        cost_weighted=cost_weighted,
        feature_costs=costs,
        feature_groups=groups,
        random_state=seed,
        max_draws=max_draws,
    )
    model.fit(X[:150], y[:150])
    with pytest.MonkeyPatch.context() as patch:  # several blocks of examples
        patch.setattr(sampling, "_ROW_BLOCK", 16)
        sample = model.sample_at_budgets(X[150:190], budgets)
        sample["reads"] = model.groups_read(X[150:190], budgets)  # what the job's check reads
        expected = _reference_sample(model, X[150:190], budgets)
    for key in expected:
        np.testing.assert_array_equal(sample[key], expected[key], err_msg=key)


@pytest.mark.parametrize("cost_weighted", [False, True])
def test_a_budget_samples_the_same_whatever_the_other_budgets(toy, cost_weighted):
    """Several blocks of rows: what an example draws at a budget does not depend on the other
    budgets asked with it (the largest one sets how many steps a block takes, which must not move a
    later block's draws: a train job's check of unread columns, at one budget, sees the draws its
    evaluation made)."""
    X, y, costs = toy
    model = AdaBoostRS(n_rounds=30, cost_weighted=cost_weighted, feature_costs=costs)
    model.set_params(random_state=7, max_draws=300).fit(X[:150], y[:150])
    grid = [0.3, 1.0, 2.5, 4.0, 12.0]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sampling, "_ROW_BLOCK", 16)
        together = model.sample_at_budgets(X[150:], grid)
        for k, budget in enumerate(grid):
            alone = model.sample_at_budgets(X[150:], [budget])
            for key in together:
                np.testing.assert_array_equal(alone[key][0], together[key][k], err_msg=key)
