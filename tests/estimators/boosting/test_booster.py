"""BudgetedBoost: the engine against the slow reference, the anytime path, degenerate cases."""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import CRITERIA, examples, problems
from helpers import fit_engine as _engine
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import reference_fit

from budgetboost import AdaBoostRS, BudgetedBoost
from budgetboost.estimators.boosting.booster import GAMMA_CAP, adaboost_path


@settings(
    max_examples=examples(250), derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    problem=problems(),
    criterion=st.sampled_from(CRITERIA),
    tau=st.sampled_from([1.0, 0.4]),
    max_rounds=st.integers(1, 8),
)
def test_engine_matches_reference(problem, criterion, tau, max_rounds):
    X, y, costs, groups = problem
    model = _engine(X, y, costs, groups, criterion, max_rounds, tau=tau)
    g = list(range(X.shape[1])) if groups is None else list(groups)
    ref = reference_fit(X.tolist(), y.tolist(), costs.tolist(), g, criterion, max_rounds, tau=tau)
    assert len(model.alpha_) == len(ref)
    if ref:
        j, v, s, a = (np.array(c) for c in zip(*ref, strict=True))
        np.testing.assert_array_equal(model.feature_, j)
        np.testing.assert_array_equal(model.threshold_, v)
        np.testing.assert_array_equal(model.polarity_, s)
        np.testing.assert_allclose(model.alpha_, a, rtol=1e-12, atol=1e-12)


@settings(max_examples=examples(150), derandomize=True)
@given(
    problem=problems(), criterion=st.sampled_from(CRITERIA), budget=st.floats(0, 4, allow_nan=False)
)
def test_budgeted_fit_is_a_prefix_of_the_unbudgeted_path(problem, criterion, budget):
    X, y, costs, groups = problem
    full = _engine(X, y, costs, groups, criterion, 10)
    cut = _engine(X, y, costs, groups, criterion, 10, budget=budget)
    t = int(np.searchsorted(full.spent_, budget, side="right"))
    assert len(cut.alpha_) == t
    for name in ("feature_", "threshold_", "polarity_", "alpha_", "spent_"):
        np.testing.assert_array_equal(getattr(cut, name), getattr(full, name)[:t])
    assert (cut.spent_ <= budget).all()
    np.testing.assert_array_equal(full.predict_at_budgets(X, [budget])[0], cut.predict(X))


def test_budgeted_prefix_on_random_budgets_larger_problem():
    rng = np.random.default_rng(3)
    X = rng.normal(size=(150, 12))
    y = np.where(X[:, 0] + X[:, 3] * X[:, 1] + 0.3 * rng.normal(size=150) > 0, 1, -1)
    costs = rng.uniform(0, 2, size=12)
    for criterion in CRITERIA:
        full = _engine(X, y, costs, None, criterion, 60)
        budgets = rng.uniform(0, full.spent_[-1] * 1.1, size=5)
        rows = full.predict_at_budgets(X, budgets)
        for b, row in zip(budgets, rows, strict=True):
            cut = _engine(X, y, costs, None, criterion, 60, budget=float(b))
            t = int(np.searchsorted(full.spent_, b, side="right"))
            np.testing.assert_array_equal(cut.feature_, full.feature_[:t])
            np.testing.assert_array_equal(cut.alpha_, full.alpha_[:t])
            np.testing.assert_array_equal(cut.predict(X), row)


def test_equal_costs_make_greedy_speedboost_adaboost_agree():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=(80, 7)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] - X[:, 2] + rng.normal(size=80) > 2, 1, -1)
    paths = {
        c: _engine(X, y, np.full(7, 0.7), None, c, 40)
        for c in ("adaboost", "greedy", "speedboost", "smoothed")
    }
    for c in ("greedy", "speedboost", "smoothed"):
        np.testing.assert_array_equal(paths[c].feature_, paths["adaboost"].feature_)
        np.testing.assert_array_equal(paths[c].threshold_, paths["adaboost"].threshold_)
        np.testing.assert_allclose(paths[c].alpha_, paths["adaboost"].alpha_, rtol=1e-12)


def test_smoothed_pays_for_a_strong_expensive_stump_before_greedy_does():
    """Section 4: Eq. 1 keeps favouring cheap stumps; Eq. 2 dampens cost once money is spent.

    Four cheap weak columns (60% agreement with y, cost 0.02) and one strong expensive column
    (85% agreement, cost 1). Round 1 is the same (nothing spent: Eq. 1 = Eq. 2); at the first
    round where the paths part, Smoothed buys the strong column and Greedy a cheap one.
    """
    rng = np.random.default_rng(1)
    m = 400
    strong = rng.integers(0, 2, m)
    y = np.where(rng.random(m) < 0.85, strong, 1 - strong) * 2 - 1
    agree = rng.random((m, 4)) < 0.6
    weak = np.where(agree, (y[:, None] + 1) // 2, 1 - (y[:, None] + 1) // 2)
    X = np.column_stack([weak, strong]).astype(float)
    costs = np.array([0.02, 0.02, 0.02, 0.02, 1.0])
    greedy = _engine(X, y, costs, None, "greedy", 15)
    smoothed = _engine(X, y, costs, None, "smoothed", 15)
    assert greedy.feature_[0] == smoothed.feature_[0] != 4
    t = int(np.flatnonzero(greedy.feature_ != smoothed.feature_)[0])
    assert smoothed.feature_[t] == 4 and greedy.feature_[t] != 4
    assert smoothed.edge_[t] > greedy.edge_[t]
    assert (smoothed.feature_ == 4).sum() > (greedy.feature_ == 4).sum()


def test_zero_cost_stump_wins_under_greedy_whatever_its_edge():
    rng = np.random.default_rng(5)
    X = rng.integers(0, 2, size=(60, 3)).astype(float)
    y = np.where(X[:, 0] > 0, 1, -1)
    y[:25] = rng.choice([-1, 1], 25)  # column 2 (free) is noise; column 0 is strong
    model = _engine(X, y, np.array([1.0, 1.0, 0.0]), None, "greedy", 1)
    assert model.feature_[0] == 2 and model.edge_[0] < 0.5


def test_perfect_stump_caps_alpha_and_stops():
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    y = np.array([0, 0, 1, 1])
    model = BudgetedBoost(criterion="adaboost", max_rounds=50).fit(X, y)
    assert model.stop_reason_ == "perfect_stump"
    assert len(model.alpha_) == 1 and model.threshold_[0] == 2.0
    cap = 0.5 * math.log((2 - GAMMA_CAP) / GAMMA_CAP)
    assert model.alpha_[0] == pytest.approx(cap)
    np.testing.assert_array_equal(model.predict(X), y)


def test_all_zero_edges_stop_with_majority_prediction():
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    y = np.array(["a", "b", "a", "b"])
    model = BudgetedBoost(criterion="smoothed").fit(X, y)
    assert model.stop_reason_ == "zero_edge" and len(model.alpha_) == 0
    assert set(model.predict(X)) == {"a"}  # equal counts: the first class


def test_zero_budget_gives_empty_ensemble_predicting_majority():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(30, 3))
    y = np.array([1] * 20 + [0] * 10)
    model = BudgetedBoost(budget=0.0, feature_costs=[1.0, 2.0, 0.5]).fit(X, y)
    assert len(model.alpha_) == 0 and model.stop_reason_ == "budget"
    np.testing.assert_array_equal(model.predict(X), np.ones(30))
    # a free feature is affordable at budget 0
    free = BudgetedBoost(budget=0.0, criterion="adaboost", feature_costs=[0.0, 0.0, 0.0]).fit(X, y)
    assert len(free.alpha_) > 0 and free.spent_[-1] == 0.0


def test_constant_columns_give_no_stumps():
    X = np.ones((5, 2))
    model = BudgetedBoost().fit(X, [0, 1, 0, 1, 1])
    assert model.stop_reason_ == "no_stumps" and len(model.alpha_) == 0


def test_single_class_is_a_clear_error():
    with pytest.raises(ValueError, match="exactly two classes; got 1 class"):
        BudgetedBoost().fit(np.zeros((4, 2)), [1, 1, 1, 1])


def test_feature_paid_once_and_groups_paid_together():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(100, 4))
    y = np.where(X[:, 0] + 0.5 * X[:, 1] > 0, 1, -1)
    model = BudgetedBoost(
        criterion="adaboost",
        max_rounds=40,
        feature_costs=[1.0, 1.0, 3.0, 3.0],
        feature_groups=["a", "a", "b", "b"],
    ).fit(X, y)
    groups_used = {int(f) // 2 for f in model.feature_}
    assert model.spent_[-1] == sum({0: 1.0, 1: 3.0}[g] for g in groups_used)
    assert model.n_features_used_[-1] == len(groups_used)


def test_hybrid_switches_from_greedy_to_smoothed_for_good():
    rng = np.random.default_rng(7)
    X = rng.normal(size=(200, 20))
    y = np.where(X[:, :5].sum(axis=1) + rng.normal(size=200) > 0, 1, -1)
    model = BudgetedBoost(
        criterion="hybrid", max_rounds=80, switch=0.5, feature_costs=rng.uniform(0.1, 2, 20)
    ).fit(X, y)
    phases = list(model.criterion_used_)
    assert phases[0] == "greedy" and "smoothed" in phases
    k = phases.index("smoothed")
    assert set(phases[k:]) == {"smoothed"}


def test_predict_at_budgets_shapes_and_monotone_rounds():
    rng = np.random.default_rng(8)
    X = rng.normal(size=(50, 5))
    y = np.where(X[:, 0] > 0, "pos", "neg")
    model = BudgetedBoost(max_rounds=30, feature_costs=rng.uniform(0, 2, 5)).fit(X, y)
    budgets = [0, 0.5, 1, 2, np.inf]
    labels = model.predict_at_budgets(X, budgets)
    assert labels.shape == (5, 50) and set(np.unique(labels)) <= {"pos", "neg"}
    assert np.all(np.diff(model.rounds_at_budgets(budgets)) >= 0)
    np.testing.assert_array_equal(labels[-1], model.predict(X))
    result = model.evaluate_at_budgets(X, y, budgets)
    assert set(result.as_dict()) == {
        "error",
        "rounds",
        "spent",
        "n_features",
        "mean_example_cost",
        "max_example_cost",
        "nodes",
    }
    assert np.all(result.spent <= np.array(budgets))


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"criterion": "gredy"}, "criterion: must be one of .* got 'gredy'"),
        ({"tau": 0.0}, r"tau: must be a number in \(0, 1\]; got 0.0"),
        ({"tau": 1.5}, r"tau: must be a number in \(0, 1\]; got 1.5"),
        ({"budget": -1}, "budget: must be a number >= 0 or None; got -1"),
        ({"max_rounds": 0}, "max_rounds: must be an integer >= 1; got 0"),
        ({"switch": -0.1}, "switch: must be a finite number > 0; got -0.1"),
        ({"feature_costs": [1, 2]}, r"feature_costs: must have one cost per column of X \(3\)"),
        ({"feature_costs": [1, -2, 1]}, r"feature_costs: .*got -2.0 at index 1"),
        ({"feature_costs": [1, np.nan, 1]}, r"feature_costs: .*got nan at index 1"),
        (
            {"feature_groups": [0, 0, 1], "feature_costs": [1, 2, 1]},
            "feature_groups: columns of group 0 have different costs",
        ),
    ],
)
def test_bad_parameters_name_the_argument_and_value(kwargs, match):
    X = np.arange(12.0).reshape(4, 3)
    with pytest.raises(ValueError, match=match):
        BudgetedBoost(**kwargs).fit(X, [0, 1, 0, 1])


def test_bad_data_is_rejected_with_a_clear_message():
    X = np.arange(12.0).reshape(4, 3)
    with pytest.raises(ValueError, match="infinite value in column 2 .*row 1"):
        bad = X.copy()
        bad[1, 2] = np.inf
        BudgetedBoost().fit(bad, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="exactly two classes; got 3 classes"):
        BudgetedBoost().fit(X, [0, 1, 2, 1])
    with pytest.raises(ValueError, match="inconsistent lengths"):
        BudgetedBoost().fit(X, [0, 1, 0])
    model = BudgetedBoost(max_rounds=3).fit(X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="X has 2 features, but BudgetedBoost is expecting 3"):
        model.predict(X[:, :2])


def test_a_path_without_rounds_has_typed_empty_arrays():
    from budgetboost.estimators.boosting.booster import boost_path

    path = boost_path(
        np.ones((4, 2)),
        np.array([1.0, -1.0, 1.0, -1.0]),
        criterion="hybrid",
        max_rounds=5,
        group_of_column=np.arange(2),
        group_cost=np.ones(2),
    )
    assert path.stop_reason == "no_stumps"
    dtypes = {
        "feature": np.intp,
        "threshold": np.float64,
        "polarity": np.float64,
        "alpha": np.float64,
        "edge": np.float64,
        "group": np.intp,
        "new_groups": np.intp,
        "spent": np.float64,
        "criterion": object,
    }
    for name, dtype in dtypes.items():
        value = getattr(path, name)
        assert value.shape == (0,) and value.dtype == dtype, name


# ----------------------------------------------------------- the shared AdaBoost path


@settings(max_examples=examples(60))
@given(
    seed=st.integers(0, 2**32 - 1),
    max_rounds=st.integers(1, 40),
    budget=st.one_of(st.just(np.inf), st.floats(0.0, 6.0)),
    grouped=st.booleans(),
)
def test_a_shared_adaboost_path_is_the_fit_under_any_costs(seed, max_rounds, budget, grouped):
    """One cost-free AdaBoost path, cut under a cost vector and a budget, is bit for bit the
    path boosting under those costs gives (one path per trial serves all)."""
    rng = np.random.default_rng(seed)
    X = (rng.random((30, 8)) < 0.5).astype(float)
    y = np.where(rng.random(30) < 0.5, 1, -1)
    groups = np.repeat(np.arange(4), 2) if grouped else np.arange(8)
    costs = rng.choice([0.0, 0.5, 1.0, 2.0], size=groups.max() + 1)[groups]
    shared = adaboost_path(X, y, max_rounds=40)
    kwargs = dict(
        criterion="adaboost",
        max_rounds=max_rounds,
        feature_costs=costs,
        feature_groups=groups,
        budget=None if np.isinf(budget) else budget,
    )
    direct = BudgetedBoost(**kwargs).fit(X, y)
    reused = BudgetedBoost(**kwargs, adaboost_path=shared).fit(X, y)
    for name in (
        "feature_",
        "threshold_",
        "polarity_",
        "alpha_",
        "edge_",
        "group_",
        "spent_",
        "n_features_used_",
        "stop_reason_",
    ):
        np.testing.assert_array_equal(getattr(reused, name), getattr(direct, name), name)
    rs = AdaBoostRS(
        n_rounds=max_rounds,
        cost_weighted=True,
        feature_costs=costs,
        feature_groups=groups,
        random_state=1,
    )
    assert (
        rs.fit(X, y).sampling_probability_.tobytes()
        == rs.set_params(adaboost_path=shared).fit(X, y).sampling_probability_.tobytes()
    )


def test_a_shared_path_is_refused_on_other_rows_or_criteria():
    rng = np.random.default_rng(0)
    X = (rng.random((20, 5)) < 0.5).astype(float)
    y = np.where(rng.random(20) < 0.5, 1, -1)
    shared = adaboost_path(X, y, max_rounds=10)
    with pytest.raises(ValueError, match="fitted on other training rows"):
        BudgetedBoost(criterion="adaboost", adaboost_path=shared).fit(X[::-1], y[::-1])
    with pytest.raises(ValueError, match="adaboost_path: serves criterion 'adaboost' only"):
        BudgetedBoost(criterion="greedy", adaboost_path=shared).fit(X, y)
    with pytest.raises(ValueError, match="fewer than the 20 asked for"):
        BudgetedBoost(criterion="adaboost", max_rounds=20, adaboost_path=shared).fit(X, y)
    with pytest.raises(ValueError, match="adaboost_path"):
        BudgetedBoost.check_params({"adaboost_path": "a path"})


@pytest.mark.parametrize("weak_learner", ["stump", "tree"])
def test_scores_in_row_blocks_are_the_scores_at_once(monkeypatch, weak_learner):
    """Prefix votes are computed over blocks of rows (bounded memory on large data): each
    row's cumulative sum is its own, so blocks of one row give the same bytes."""
    from budgetboost.estimators.boosting import booster as boosting

    rng = np.random.default_rng(3)
    X = rng.integers(0, 2, size=(300, 20)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] + rng.normal(0, 0.5, 300) > 1, 1, -1)
    costs = rng.uniform(0, 2, 20)
    model = BudgetedBoost(
        criterion="smoothed", max_rounds=60, feature_costs=costs, weak_learner=weak_learner
    ).fit(X, y)
    prefixes = np.array([0, 1, 3, model.alpha_.size])
    at_once = model._scores_at(X, prefixes)
    errors = model.evaluate_at_budgets(X, y, [0.5, 2.0, np.inf]).error
    monkeypatch.setattr(boosting, "SCORE_BLOCK", 1)  # one row a block
    np.testing.assert_array_equal(model._scores_at(X, prefixes), at_once)
    np.testing.assert_array_equal(model.evaluate_at_budgets(X, y, [0.5, 2.0, np.inf]).error, errors)
    assert model.alpha_.size > 3 and np.ptp(at_once[-1]) > 0  # votes that vary
