"""BudgetedBoost with weak_learner="tree": small trees against the slow reference."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import CRITERIA, examples, problems
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import reference_tree_fit

from budgetboost import BudgetedBoost
from budgetboost.estimators.boosting.booster import adaboost_path, boost_path
from budgetboost.estimators.boosting.tree_weak_learner import TreeLearner

STUMP_ATTRIBUTES = (
    "feature_",
    "threshold_",
    "polarity_",
    "alpha_",
    "edge_",
    "group_",
    "spent_",
    "n_features_used_",
    "criterion_used_",
)


def _fit(X, y, costs, groups, criterion, max_rounds, depth, budget=None, tau=1.0, switch=0.5):
    return BudgetedBoost(
        criterion=criterion,
        max_rounds=max_rounds,
        budget=budget,
        tau=tau,
        switch=switch,
        feature_costs=costs,
        feature_groups=groups,
        weak_learner="tree",
        max_depth=depth,
    ).fit(X, y)


@settings(
    max_examples=examples(120), derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    problem=problems(),
    criterion=st.sampled_from(CRITERIA),
    tau=st.sampled_from([1.0, 0.4]),
    max_rounds=st.integers(1, 8),
)
def test_depth_one_trees_are_the_stump_engine_bit_for_bit(problem, criterion, tau, max_rounds):
    X, y, costs, groups = problem
    kwargs = dict(
        criterion=criterion,
        max_rounds=max_rounds,
        tau=tau,
        feature_costs=costs,
        feature_groups=groups,
    )
    stumps = BudgetedBoost(**kwargs).fit(X, y)
    trees = BudgetedBoost(**kwargs, weak_learner="tree", max_depth=1).fit(X, y)
    for name in STUMP_ATTRIBUTES:
        assert getattr(trees, name).tobytes() == getattr(stumps, name).tobytes(), name
    reason = {"perfect_stump": "perfect_tree"}.get(stumps.stop_reason_, stumps.stop_reason_)
    assert trees.stop_reason_ == reason
    budgets = [0.0, 0.3, 1.0, 2.5, np.inf]
    a, b = trees.evaluate_at_budgets(X, y, budgets), stumps.evaluate_at_budgets(X, y, budgets)
    for name, value in a.as_dict().items():
        np.testing.assert_allclose(value, getattr(b, name), rtol=1e-12, atol=1e-12, err_msg=name)
    np.testing.assert_array_equal(trees.decision_function(X), stumps.decision_function(X))


def _check_against_reference(X, y, costs, groups, criterion, max_rounds, depth, tau=1.0):
    model = _fit(X, y, costs, groups, criterion, max_rounds, depth, tau=tau)
    g = list(range(X.shape[1])) if groups is None else list(groups)
    ref = reference_tree_fit(
        X.tolist(), y.tolist(), costs.tolist(), g, criterion, max_rounds, depth, tau=tau
    )
    assert len(model.alpha_) == len(ref)
    if not ref:
        return
    feature, threshold, value, alpha, spent = (np.array(c) for c in zip(*ref, strict=True))
    np.testing.assert_array_equal(model.tree_feature_, feature)
    np.testing.assert_array_equal(model.tree_threshold_, threshold)
    np.testing.assert_array_equal(model.tree_value_, value)
    np.testing.assert_allclose(model.alpha_, alpha, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(model.spent_, spent, rtol=1e-12, atol=1e-12)


@settings(
    max_examples=examples(150), derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    problem=problems(),
    criterion=st.sampled_from(CRITERIA),
    tau=st.sampled_from([1.0, 0.4]),
    max_rounds=st.integers(1, 6),
    depth=st.sampled_from([2, 3]),
)
def test_trees_match_the_reference(problem, criterion, tau, max_rounds, depth):
    X, y, costs, groups = problem
    _check_against_reference(X, y, costs, groups, criterion, max_rounds, depth, tau=tau)


@pytest.mark.parametrize("criterion", CRITERIA)
@pytest.mark.parametrize("grouped", [False, True])
def test_trees_match_the_reference_on_a_larger_problem(criterion, grouped):
    """Numeric and 0/1 columns, costs with zeros, 14 rows: deeper trees, many splits."""
    rng = np.random.default_rng(11 + grouped)
    X = np.column_stack(
        [rng.integers(0, 4, size=(14, 3)), rng.integers(0, 2, size=(14, 3))]
    ).astype(float)
    y = np.where((X[:, 0] > 1) ^ (X[:, 4] > 0) | (rng.random(14) < 0.2), 1, -1)
    costs = rng.choice([0.0, 0.3, 1.0, 1.7], size=6)
    groups = None
    if grouped:
        groups = np.array([0, 0, 1, 1, 2, 2])
        costs = costs[groups * 2]
    for depth in (2, 3):
        _check_against_reference(X, y, costs, groups, criterion, 6, depth, tau=0.5)


@settings(max_examples=examples(80), derandomize=True)
@given(
    problem=problems(),
    criterion=st.sampled_from(CRITERIA),
    depth=st.sampled_from([2, 3]),
    budget=st.floats(0, 4, allow_nan=False),
)
def test_budgets_are_never_exceeded_and_prefixes_are_the_budgeted_fit(
    problem, criterion, depth, budget
):
    X, y, costs, groups = problem
    full = _fit(X, y, costs, groups, criterion, 10, depth)
    cut = _fit(X, y, costs, groups, criterion, 10, depth, budget=budget)
    assert np.all(np.diff(full.spent_) >= 0)
    assert (cut.spent_ <= budget).all()
    t = int(np.searchsorted(full.spent_, budget, side="right"))
    assert len(cut.alpha_) == t
    for name in ("tree_feature_", "tree_threshold_", "tree_value_", "alpha_", "spent_"):
        np.testing.assert_array_equal(getattr(cut, name), getattr(full, name)[:t])
    np.testing.assert_array_equal(full.predict_at_budgets(X, [budget])[0], cut.predict(X))
    budgets = np.array([0.0, budget / 2, budget, budget * 2, np.inf])
    result = full.evaluate_at_budgets(X, y, budgets)
    assert np.all(result.spent <= budgets)
    assert np.all(np.diff(result.spent) >= 0) and np.all(np.diff(result.rounds) >= 0)
    assert np.all(result.max_example_cost <= result.spent + 1e-12)
    assert np.all(result.mean_example_cost <= result.max_example_cost + 1e-12)


def test_lazy_example_costs_are_the_groups_on_each_path():
    """Per-example cost, from plain loops: the groups on the example's paths, each once (the
    groups ``groups_read`` says each example reads)."""
    rng = np.random.default_rng(4)
    X = rng.integers(0, 5, size=(120, 8)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] * (X[:, 2] > 2) + rng.normal(size=120) > 3, 1, -1)
    groups = np.array([0, 0, 1, 1, 2, 3, 3, 4])
    costs = np.array([0.5, 1.0, 0.2, 2.0, 0.7])[groups]
    model = _fit(X, y, costs, groups, "smoothed", 25, 3)
    Xt = rng.integers(0, 5, size=(40, 8)).astype(float)
    budgets = [0.0, 0.6, *np.unique(model.spent_), np.inf]
    result = model.evaluate_at_budgets(Xt, np.where(Xt[:, 0] > 2, 1, -1), budgets)
    said = model.groups_read(Xt, budgets)
    for b, n_rounds in enumerate(model.rounds_at_budgets(budgets)):
        per_example = []
        for i, row in enumerate(Xt):
            read = set()
            for t in range(n_rounds):
                n = 0
                while n < model.tree_feature_.shape[1] and model.tree_feature_[t, n] >= 0:
                    j = model.tree_feature_[t, n]
                    read.add(groups[j])
                    n = 2 * n + 2 if row[j] >= model.tree_threshold_[t, n] else 2 * n + 1
            per_example.append(sum(costs[list(groups).index(g)] for g in read))
            assert set(np.flatnonzero(said[b, i]).tolist()) == read  # the job's check reads it
        assert result.mean_example_cost[b] == pytest.approx(np.mean(per_example), abs=1e-12)
        assert result.max_example_cost[b] == pytest.approx(np.max(per_example), abs=1e-12)
    assert np.any(result.mean_example_cost < result.spent - 1e-9)  # lazy reading pays less


def test_lazy_example_costs_with_discount_groups_follow_each_path(monkeypatch):
    """With discount groups, from plain loops: along its paths (tree by tree, root first) a
    row pays each group's discount price at its first read, and a discount group's shared
    part at the first read of any of its tests; blocks of one row give the same bytes."""
    from budgetboost.estimators.boosting import tree_weak_learner as trees

    rng = np.random.default_rng(7)
    X = rng.integers(0, 4, size=(150, 9)).astype(float)
    y = np.where(X[:, 0] + X[:, 3] * (X[:, 5] > 1) + rng.normal(size=150) > 3, 1, -1)
    costs = np.array([3.0, 2.5, 1.0, 4.0, 3.5, 2.0, 0.5, 1.5, 2.2])
    discount_groups = np.array([0, 0, -1, 1, 1, 1, -1, 0, -1])
    model = BudgetedBoost(
        criterion="smoothed",
        max_rounds=30,
        feature_costs=costs,
        discount_groups=discount_groups,
        discount_costs=costs - np.array([1.2, 1.8, 0.0])[discount_groups],  # shared parts
        weak_learner="tree",
        max_depth=3,
    ).fit(X, y)
    pricing = model.pricing_
    Xt = rng.integers(0, 4, size=(45, 9)).astype(float)
    n_rounds = np.arange(model.alpha_.size + 1)
    expected = np.zeros((n_rounds.size, Xt.shape[0]))
    for i, row in enumerate(Xt):
        read, touched, total, after = set(), set(), 0.0, [0.0]  # after[k]: first k trees
        for t in range(model.alpha_.size):
            n = 0
            while n < model.tree_feature_.shape[1] and model.tree_feature_[t, n] >= 0:
                g = model.tree_group_[t, n]
                if g not in read:
                    read.add(g)
                    total += pricing.base[g]
                    d = pricing.discount_group[g]
                    if d >= 0 and d not in touched:
                        touched.add(d)
                        total += pricing.shared[d]
                j = model.tree_feature_[t, n]
                n = 2 * n + 2 if row[j] >= model.tree_threshold_[t, n] else 2 * n + 1
            after.append(total)
        expected[:, i] = np.array(after)[n_rounds]

    def costs_now():
        leaves = trees.tree_leaves(Xt, model.tree_feature_, model.tree_threshold_)
        return trees.example_costs(leaves, model.tree_group_, model.group_cost_, n_rounds, pricing)

    got = costs_now()
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12)
    assert pricing.discounted and (np.ptp(got, axis=1) > 0).any()  # rows that pay differently
    monkeypatch.setattr(trees, "LEAF_TEST_CELLS", 1)
    monkeypatch.setattr(trees, "FIRST_READ_CELLS", 1)
    np.testing.assert_array_equal(costs_now(), got)


def test_tree_outputs_match_a_plain_traversal():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(90, 6)).round(1)
    y = np.where(X[:, 0] * X[:, 1] > 0, 1, -1)
    model = _fit(X, y, None, None, "adaboost", 30, 3)
    Xt = rng.normal(size=(50, 6)).round(1)
    votes = np.zeros(50)
    for t in range(len(model.alpha_)):
        for i, row in enumerate(Xt):
            n = 0
            while n < 7 and model.tree_feature_[t, n] >= 0:
                up = row[model.tree_feature_[t, n]] >= model.tree_threshold_[t, n]
                n = 2 * n + 2 if up else 2 * n + 1
            while n < 7:  # an unsplit node: its value fills the slots below
                n = 2 * n + 1
            votes[i] += model.alpha_[t] * model.tree_value_[t, n - 7]
    np.testing.assert_allclose(model.decision_function(Xt), votes + model.majority_ * 1e-10)
    assert np.mean(model.predict(X) != y) < 0.1  # XOR-like: stumps cannot, trees can


def test_trees_learn_xor_that_stumps_cannot():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 4, size=(300, 6)).astype(float)
    y = np.where((X[:, 0] > 1) ^ (X[:, 1] > 1), 1, -1)
    y[:20] = -y[:20]
    stumps = BudgetedBoost(criterion="adaboost", max_rounds=40).fit(X, y)
    trees = _fit(X, y, None, None, "adaboost", 40, 2)
    assert np.mean(trees.predict(X) != y) < 0.1 < np.mean(stumps.predict(X) != y)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"weak_learner": "forest"}, r"weak_learner: must be one of \['stump', 'tree'\]"),
        ({"weak_learner": "tree", "max_depth": 0}, "max_depth: must be an integer in"),
        ({"weak_learner": "tree", "max_depth": 2.5}, "max_depth: must be an integer in"),
        ({"weak_learner": "tree", "max_depth": 9}, "max_depth: must be an integer in"),
        ({"max_depth": "2"}, "max_depth: must be an integer in"),
    ],
)
def test_bad_tree_parameters_are_clear_errors(kwargs, match):
    X = np.arange(12.0).reshape(4, 3)
    with pytest.raises(ValueError, match=match):
        BudgetedBoost(**kwargs).fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match=match):
        BudgetedBoost.check_params(kwargs)


def test_a_shared_adaboost_path_is_refused_for_trees():
    rng = np.random.default_rng(0)
    X = (rng.random((20, 5)) < 0.5).astype(float)
    y = np.where(rng.random(20) < 0.5, 1, -1)
    shared = adaboost_path(X, y, max_rounds=10)
    with pytest.raises(ValueError, match="adaboost_path: a shared AdaBoost path holds stumps"):
        BudgetedBoost(criterion="adaboost", weak_learner="tree", adaboost_path=shared).fit(X, y)


def test_fits_are_deterministic_and_refits_forget_the_trees():
    rng = np.random.default_rng(9)
    X = rng.normal(size=(80, 7)).round(2)
    y = np.where(X[:, 0] + X[:, 1] * X[:, 2] > 0, "a", "b")
    costs = rng.uniform(0, 2, 7)
    one = _fit(X, y, costs, None, "hybrid", 30, 3)
    two = _fit(X, y, costs, None, "hybrid", 30, 3)
    for name in ("tree_feature_", "tree_threshold_", "tree_value_", "alpha_", "spent_"):
        assert getattr(one, name).tobytes() == getattr(two, name).tobytes()
    one.set_params(weak_learner="stump").fit(X, y)
    assert not hasattr(one, "tree_feature_")
    np.testing.assert_array_equal(
        one.predict(X),
        BudgetedBoost(criterion="hybrid", max_rounds=30, feature_costs=costs).fit(X, y).predict(X),
    )


def test_degenerate_inputs():
    model = _fit(np.ones((5, 2)), [0, 1, 0, 1, 1], None, None, "greedy", 5, 2)
    assert model.stop_reason_ == "no_stumps" and model.tree_feature_.shape == (0, 3)
    assert model.evaluate_at_budgets(np.ones((3, 2)), [0, 1, 1], [1.0]).mean_example_cost[0] == 0
    X = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]] * 3)
    y = np.where(X[:, 0] != X[:, 1], 1, -1)  # XOR: every stump's edge is 0
    assert _fit(X, y, None, None, "adaboost", 5, 2).stop_reason_ == "zero_edge"
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    perfect = _fit(X, [0, 0, 1, 1], None, None, "adaboost", 50, 2)
    assert perfect.stop_reason_ == "perfect_tree" and len(perfect.alpha_) == 1
    path = boost_path(
        X,
        np.array([-1.0, -1.0, 1.0, 1.0]),
        criterion="greedy",
        max_rounds=3,
        group_of_column=np.arange(1),
        group_cost=np.ones(1),
        learner=TreeLearner(max_depth=2),
        budget=0.5,
    )
    assert path.stop_reason == "budget" and path.alpha.shape == (0,)
    assert math.isnan(np.nan)


@pytest.mark.parametrize("criterion", ["greedy", "smoothed", "speedboost", "hybrid"])
def test_bounded_split_scoring_chooses_what_full_scoring_chooses(criterion):
    """The splits below the root score exactly only the candidates that can win
    (``_best_split``); bounding every candidate set gives the fit of scoring them all."""
    from budgetboost.estimators.boosting import tree_weak_learner

    rng = np.random.default_rng(17)
    X = np.column_stack(
        [rng.integers(0, 6, size=(150, 10)), rng.normal(size=(150, 4)).round(1)]
    ).astype(float)
    y = np.where(X[:, 0] * (X[:, 1] > 2) + X[:, 11] + rng.normal(size=150) > 2, 1, -1)
    costs = rng.choice([0.1, 0.5, 1.0, 2.0], size=14)
    fits = []
    for minimum in (0, 10**9):
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(tree_weak_learner, "PRUNE_MIN_CANDIDATES", minimum)
            fits.append(_fit(X, y, costs, None, criterion, 40, 3, tau=0.5))
    for name in ("tree_feature_", "tree_threshold_", "tree_value_", "alpha_", "spent_"):
        assert getattr(fits[0], name).tobytes() == getattr(fits[1], name).tobytes(), name


@pytest.mark.parametrize("weak_learner", ["stump", "tree"])
def test_a_budget_alone_evaluates_as_in_the_whole_grid(weak_learner):
    """A small budget's prefix is computed from its own rounds only (the hypotheses past it
    are never evaluated): each budget asked alone gives the bytes of the whole grid's."""
    rng = np.random.default_rng(11)
    X = rng.integers(0, 5, size=(200, 10)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] * (X[:, 2] > 2) + rng.normal(size=200) > 3, 1, -1)
    costs = rng.uniform(0.2, 2.0, size=10)
    model = BudgetedBoost(
        criterion="greedy", max_rounds=40, feature_costs=costs, weak_learner=weak_learner
    ).fit(X, y)
    Xt = rng.integers(0, 5, size=(60, 10)).astype(float)
    yt = np.where(Xt[:, 0] > 2, 1, -1)
    budgets = [0.0, *np.unique(model.spent_)[:3], float(model.spent_[-1]) / 2, np.inf]
    whole = model.evaluate_at_budgets(Xt, yt, budgets)
    labels = model.predict_at_budgets(Xt, budgets)
    assert 0 < model.rounds_at_budgets(budgets)[2] < model.alpha_.size
    for b, budget in enumerate(budgets):
        alone = model.evaluate_at_budgets(Xt, yt, [budget])
        for field in ("error", "rounds", "spent", "mean_example_cost", "max_example_cost"):
            assert getattr(alone, field)[0] == getattr(whole, field)[b]
        np.testing.assert_array_equal(model.predict_at_budgets(Xt, [budget])[0], labels[b])
