"""BudgetedCatBoost: against CatBoost itself, cost accounting, its parameters (what
every peer keeps: test_peers.py)."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import BUDGETS, pay_once
from .helpers import problem as _problem

catboost = pytest.importorskip("catboost")

from budgetboost import InvalidParameterError  # noqa: E402
from budgetboost.estimators.peers import BudgetedCatBoost  # noqa: E402


def problem(n=300, d=10, seed=0):
    """The peers' problem at CatBoost's size (slower per tree than LightGBM)."""
    return _problem(n, d, seed)


def reference_model(est, config, costs, X, y, n_trees=None):
    """CatBoost fitted on raw numpy with the parameters written out independently, for the
    configuration ``config`` (an index of ``configs_``)."""
    model = catboost.CatBoostClassifier(
        iterations=est.iterations if n_trees is None else n_trees,
        learning_rate=est.configs_[config]["learning_rate"],
        depth=est.depth,
        l2_leaf_reg=est.l2_leaf_reg,
        random_strength=est.random_strength,
        loss_function="Logloss",
        thread_count=1,
        random_seed=est.seed_,
        allow_writing_files=False,
        verbose=False,
        penalties_coefficient=est.configs_[config]["tradeoff"],
        first_feature_use_penalties=list(costs),
        **(est.params or {}),
    )
    return model.fit(X, (y > 0).astype(int))


def split_columns(model, X):
    """Columns each tree splits on, found by flipping 0/1 columns and watching the leaf
    indexes (``calc_leaf_indexes``), not from the wrapper's reading of the JSON export."""
    base = model.calc_leaf_indexes(X)
    columns = [set() for _ in range(base.shape[1])]
    for j in range(X.shape[1]):
        flipped = X.copy()
        flipped[:, j] = 1 - flipped[:, j]
        for t in np.flatnonzero((model.calc_leaf_indexes(flipped) != base).any(axis=0)):
            columns[t].add(j)
    return columns


# ---------------------------------------------------------------------- against CatBoost
@pytest.mark.parametrize("depth", [1, 3])
def test_fixed_coefficient_is_the_library_model_and_the_longest_affordable_prefix(depth):
    X, y, costs = problem()
    coefficient = 3.0
    est = BudgetedCatBoost(
        iterations=30,
        learning_rate=0.2,
        depth=depth,
        penalties_coefficient=coefficient,
        validation_fraction=0.0,
        feature_costs=costs,
        random_state=3,
    ).fit(X, y)
    assert est.refits_[0] is est.models_[0]  # nothing held out: nothing to refit
    model = reference_model(est, 0, costs, X, y)
    assert model.tree_count_ == len(est.models_[0].tree_columns())
    columns = split_columns(model, X)
    assert columns == [set(c.tolist()) for c in est.models_[0].tree_columns()]
    expected_cost = [
        pay_once(columns, k, costs, np.arange(costs.size)) for k in range(model.tree_count_ + 1)
    ]
    np.testing.assert_allclose(est.prefix_cost_[0], expected_cost, rtol=0, atol=1e-12)

    Xt, yt, _ = problem(n=200, seed=1)
    ev = est.evaluate_at_budgets(Xt, yt, BUDGETS)
    scores, _ = est._scores_and_costs(Xt, np.asarray(BUDGETS))
    for b, budget in enumerate(BUDGETS):
        k = int(ev.rounds[b])
        assert k == np.flatnonzero(np.asarray(expected_cost) <= budget).max()
        assert ev.spent[b] <= budget
        if k:
            library = model.predict(Xt, prediction_type="RawFormulaVal", ntree_end=k)
            np.testing.assert_array_equal(scores[b], library)
            assert ev.error[b] == np.mean((library > 0) != (yt > 0))


def test_models_are_the_library_models_on_the_fit_part():
    X, y, costs = problem()
    est = BudgetedCatBoost(
        iterations=20,
        depth=2,
        learning_rate=[0.1, 0.3],
        penalties_coefficient=[0.1, 10.0],
        feature_costs=costs,
        random_state=5,
    ).fit(X, y)
    assert [(c["tradeoff"], c["learning_rate"]) for c in est.configs_] == [
        (0.1, 0.1),
        (0.1, 0.3),
        (10.0, 0.1),
        (10.0, 0.3),
    ]
    Xf, yf = X[est.fit_rows_], y[est.fit_rows_]
    Xv, yv = X[est.validation_rows_], y[est.validation_rows_]
    Xt = problem(n=100, seed=2)[0]
    for m in range(len(est.configs_)):
        model = reference_model(est, m, costs, Xf, yf)
        for k in (1, 7, model.tree_count_):
            np.testing.assert_array_equal(
                est.models_[m].raw_scores(Xt, k),
                model.predict(Xt, prediction_type="RawFormulaVal", ntree_end=k),
            )
        # every prefix, as the library predicts it (to rounding: a cumulative sum of leaves)
        staged = est.models_[m].staged_scores(Xt)
        assert staged.shape == (model.tree_count_, Xt.shape[0])
        for k in range(1, model.tree_count_ + 1, 3):
            np.testing.assert_allclose(
                staged[k - 1],
                model.predict(Xt, prediction_type="RawFormulaVal", ntree_end=k),
                atol=1e-12,
            )
        for k in (1, model.tree_count_):
            raw = model.predict(Xv, prediction_type="RawFormulaVal", ntree_end=k)
            assert est.validation_error_[m][k] == np.mean((raw > 0) != (yv > 0))


def test_chosen_configurations_are_refitted_on_all_training_rows():
    X, y, costs = problem()
    est = BudgetedCatBoost(
        iterations=20,
        depth=2,
        learning_rate=[0.1, 0.3],
        penalties_coefficient=[0.0, 1.0, 10.0],
        feature_costs=costs,
        random_state=6,
    ).fit(X, y)
    chosen = np.unique(est.choice_.config[est.choice_.config >= 0])
    assert sorted(est.refits_) == chosen.tolist() and chosen.size
    for index in chosen.tolist():
        most = int(est.choice_.size[est.choice_.config == index].max())
        model = reference_model(est, index, costs, X, y, n_trees=most)
        np.testing.assert_array_equal(
            est.refits_[index].raw_scores(X, most),
            model.predict(X, prediction_type="RawFormulaVal"),
        )
        columns = split_columns(model, X)
        np.testing.assert_allclose(
            est.refit_prefix_cost_[index],
            [pay_once(columns, k, costs, np.arange(costs.size)) for k in range(most + 1)],
        )


def test_the_refit_serves_the_chosen_size_or_fewer_trees_within_the_budget():
    X, y, costs = problem()
    est = BudgetedCatBoost(
        iterations=30, depth=2, learning_rate=0.2, feature_costs=costs, random_state=1
    ).fit(X, y)
    budgets = np.unique(np.concatenate([np.linspace(0, 8, 65), *est.prefix_cost_]))
    config, size = est.choice_.at(budgets)
    ev = est.evaluate_at_budgets(X, y, budgets)
    assert np.all(ev.spent <= budgets)
    assert np.all(ev.rounds <= size)
    for b, budget in enumerate(budgets):
        if size[b] == 0:
            assert ev.rounds[b] == 0
            continue
        cost = est.refit_prefix_cost_[int(config[b])]
        affordable = int(np.flatnonzero(cost <= budget).max())
        assert ev.rounds[b] == min(size[b], affordable)
        assert ev.spent[b] == cost[int(ev.rounds[b])]


def test_continuous_features_quantized_once_give_the_library_model():
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 5))
    y = np.where(X[:, 0] + X[:, 1] ** 2 > 1, 1, -1)
    costs = rng.uniform(0, 2, 5)
    est = BudgetedCatBoost(
        iterations=15,
        learning_rate=0.1,
        depth=3,
        penalties_coefficient=1.0,
        validation_fraction=0.0,
        feature_costs=costs,
        random_state=0,
    ).fit(X, y)
    model = reference_model(est, 0, costs, X, y)
    np.testing.assert_array_equal(
        est.decision_function(X), model.predict(X, prediction_type="RawFormulaVal")
    )


def test_the_default_grid_scales_with_the_root_of_fit_rows_and_mean_cost():
    X, y, costs = problem()
    est = BudgetedCatBoost(iterations=3, depth=1, feature_costs=costs, random_state=0).fit(X, y)
    scale = np.sqrt(est.fit_rows_.size) / costs[costs > 0].mean()
    grid = scale * np.array([0.0, *(1e-3 * 4.0**i for i in range(7))])
    np.testing.assert_allclose(est.tradeoffs_, np.repeat(grid, 3))  # each with 3 rates


# ---------------------------------------------------------------------- cost accounting
def test_a_group_is_paid_once_and_its_columns_carry_its_cost():
    X, y, _ = problem()
    groups = np.array([0, 0, 0, 1, 2, 2, 3, 3, 4, 5])  # columns 0-2: one attribute
    group_cost = np.array([1.2, 0.3, 0.7, 0.0, 1.9, 0.4])
    costs = group_cost[groups]
    est = BudgetedCatBoost(
        iterations=30,
        learning_rate=0.2,
        depth=2,
        penalties_coefficient=0.0,
        validation_fraction=0.0,
        feature_costs=costs,
        feature_groups=groups,
        random_state=0,
    ).fit(X, y)
    model = est.models_[0].model
    assert model.get_params()["first_feature_use_penalties"] == costs.tolist()
    columns = split_columns(model, X)
    used = set().union(*columns)
    assert {0, 1, 2} <= used
    assert est.prefix_cost_[0][-1] == pytest.approx(
        pay_once(columns, len(columns), group_cost, groups)
    )
    assert est.refit_prefix_n_groups_[0][-1] == len({groups[c] for c in used})


def test_a_feature_first_used_later_costs_nothing_before():
    X, y, costs = problem()
    est = BudgetedCatBoost(
        iterations=30,
        learning_rate=0.2,
        depth=1,
        penalties_coefficient=1.0,
        validation_fraction=0.0,
        feature_costs=costs,
        random_state=0,
    ).fit(X, y)
    columns = split_columns(est.models_[0].model, X)
    first_use = {}
    for t, cols in enumerate(columns):
        for c in cols:
            first_use.setdefault(c, t)
    for k in range(len(columns) + 1):
        expected = sum(costs[c] for c, t in sorted(first_use.items()) if t < k)
        assert est.prefix_cost_[0][k] == pytest.approx(expected)


def test_every_example_pays_the_whole_prefix_of_symmetric_trees():
    X, y, costs = problem()
    est = BudgetedCatBoost(iterations=20, depth=3, feature_costs=costs, random_state=0).fit(X, y)
    ev = est.evaluate_at_budgets(X, y, BUDGETS)
    np.testing.assert_array_equal(ev.mean_example_cost, ev.spent)
    np.testing.assert_array_equal(ev.max_example_cost, ev.spent)


def test_depth_sets_the_splits_per_tree():
    X, y, costs = problem()
    stumps = BudgetedCatBoost(iterations=10, depth=1, feature_costs=costs, random_state=0).fit(X, y)
    assert all(len(tree) <= 1 for model in stumps.models_ for tree in model.tree_columns())
    deep = BudgetedCatBoost(
        iterations=10,
        learning_rate=0.2,
        depth=4,
        penalties_coefficient=0.0,
        validation_fraction=0.0,
        random_state=0,
    ).fit(X, y)
    assert max(len(tree) for tree in deep.models_[0].tree_columns()) == 4


def test_constant_columns_give_the_empty_model():
    X = np.ones((20, 3))
    y = np.array([1] * 12 + [-1] * 8)
    est = BudgetedCatBoost(iterations=5, random_state=0).fit(X, y)
    assert all(model.model is None and not model.tree_columns() for model in est.models_)
    np.testing.assert_array_equal(est.predict(X), 1)
    assert np.isnan(est.chosen_tradeoffs([np.inf])[0])


# ---------------------------------------------------------------------- the choice
def test_budgets_are_never_exceeded_and_the_choice_minimises_validation_error():
    X, y, costs = problem(n=400)
    est = BudgetedCatBoost(iterations=30, depth=2, feature_costs=costs, random_state=1).fit(X, y)
    budgets = np.unique(np.concatenate([BUDGETS, *est.prefix_cost_]))
    ev = est.evaluate_at_budgets(X, y, budgets)
    config, size = est.choice_.at(budgets)
    np.testing.assert_array_equal(np.isnan(est.chosen_tradeoffs(budgets)), size == 0)
    for b, budget in enumerate(budgets):
        assert ev.spent[b] <= budget
        best = min(
            error[cost <= budget].min()
            for cost, error in zip(est.prefix_cost_, est.validation_error_, strict=True)
        )
        m = max(int(config[b]), 0)  # the empty model's error is the same in every curve
        assert est.validation_error_[m][size[b]] == best
    np.testing.assert_array_equal(est.predict(X), est.predict_at_budgets(X, [np.inf])[0])


# ---------------------------------------------------------------------- parameters
@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"penalties_coefficient": -1.0}, "penalties_coefficient"),
        ({"penalties_coefficient": []}, "penalties_coefficient"),
        ({"penalties_coefficient": [1.0, np.inf]}, "penalties_coefficient"),
        ({"validation_fraction": -0.1}, "validation_fraction"),
        ({"iterations": 0}, "iterations"),
        ({"depth": 0}, "depth"),
        ({"depth": 17}, "depth"),
        ({"learning_rate": -0.1}, "learning_rate"),
        ({"l2_leaf_reg": -1}, "l2_leaf_reg"),
        ({"params": {"thread_count": 4}}, "params"),
        ({"params": {"grow_policy": "Depthwise"}}, "params"),
        ({"params": {"first_feature_use_penalties": [1.0]}}, "params"),
        ({"params": [("depth", 2)]}, "params"),
        ({"random_state": 1.5}, "random_state"),
        ({"feature_groups": "abc"}, "feature_groups"),
        ({"n_estimators": 3}, "n_estimators"),
    ],
)
def test_check_params_names_the_parameter(params, name):
    with pytest.raises(InvalidParameterError, match=f"^{name}: ") as info:
        BudgetedCatBoost.check_params(params)
    assert info.value.parameter == name


def test_reserved_library_parameters_say_who_sets_them():
    with pytest.raises(InvalidParameterError, match="symmetric trees only"):
        BudgetedCatBoost.check_params({"params": {"grow_policy": "Lossguide"}})
    BudgetedCatBoost.check_params({"params": {"bootstrap_type": "No", "border_count": 16}})
