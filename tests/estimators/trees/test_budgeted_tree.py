"""BudgetedTree: growth and pruning against slow references, the budget invariant, costs.

The references below are written straight from the definitions in
``budgetboost.estimators.trees.cart_splits`` and ``pruned_tree`` (every threshold of every column
enumerated, examples counted in loops, pruned trees recomputed from scratch at every step);
they share no code with the engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from tree_reference import (
    fit_tree,
)

from budgetboost.estimators.trees import cart_splits
from budgetboost.estimators.trees.budgeted_tree import DEFAULT_TRADEOFFS, BudgetedTree


def _budget_problem(seed=0, n=800):
    """Expensive informative columns, cheap weak ones: the best tree depends on the budget."""
    rng = np.random.default_rng(seed)
    signal = rng.integers(0, 2, n)
    X = np.column_stack(
        [np.where(rng.random(n) < p, signal, 1 - signal) for p in (0.95, 0.85, 0.7, 0.65, 0.6)]
        + [rng.integers(0, 2, n) for _ in range(3)]
    ).astype(float)
    costs = np.array([3.0, 1.5, 0.3, 0.2, 0.1, 0.05, 0.5, 1.0])
    return X, signal, costs


def test_cost_sensitive_tree_gives_a_curve():
    """Different budgets use different trees (and trade-offs): errors fall with the budget.
    The chosen trade-offs are grown again on all training rows (refit), the others are not."""
    X, y, costs = _budget_problem()
    train, test = np.arange(500), np.arange(500, 800)
    budgets = [0.0, 0.1, 0.3, 0.6, 1.0, 1.6, 2.0, 3.0, 5.0, 10.0]
    model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=0)
    model.fit(X[train], y[train])
    report = model.evaluate_at_budgets(X[test], y[test], budgets)
    assert np.all(report.max_example_cost <= budgets)
    assert report.error[-1] < report.error[0]
    chosen = model.chosen_tradeoffs(budgets)
    assert np.unique(chosen).size >= 2
    n_fit = model.fit_rows_.size
    assert all(tree.value_[0].sum() == n_fit for tree in model.models_)  # the root's rows
    assert sorted(model.refits_) == sorted(set(model.choice_.config.tolist()))
    assert all(tree.value_[0].sum() == 500 for tree in model.refits_.values())
    assert np.all(np.diff(model.choice_.budgets) > 0) and model.choice_.budgets[0] == 0


@pytest.mark.parametrize("max_nodes", [None, 7])
def test_choice_is_the_fewest_validation_errors(max_nodes):
    """At every budget: the tree with the fewest errors on the validation rows, smaller
    lambda on ties; recomputed here with each tree's own predictions."""
    X, y, costs = _budget_problem(1, 400)
    model = BudgetedTree(
        cost_sensitive=True, max_nodes=max_nodes, feature_costs=costs, random_state=5
    ).fit(X, y)
    Xv, yv = X[model.validation_rows_], y[model.validation_rows_]
    budgets = np.unique(np.concatenate([[0.0, 0.15, 0.7, 2.2, 50.0], model.choice_.budgets]))
    errors = np.vstack([t.evaluate_at_budgets(Xv, yv, budgets).error for t in model.models_])
    expected = model.tradeoffs_[np.argmin(errors, axis=0)]
    np.testing.assert_array_equal(model.chosen_tradeoffs(budgets), expected)
    # each budget is served by its lambda's tree grown on all rows, pruned to the budget
    refit = model.refits_
    np.testing.assert_array_equal(
        model.predict_at_budgets(X, budgets),
        [
            refit[int(np.flatnonzero(model.tradeoffs_ == t)[0])].predict_at_budgets(X, [b])[0]
            for t, b in zip(expected, budgets, strict=True)
        ],
    )


def test_trees_see_only_the_fit_part():
    """The rows split into fit and validation parts; each tree is a fixed trade-off tree of
    the fit part, whatever the validation rows hold."""
    X, y, costs = _budget_problem(2, 300)
    model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=7).fit(X, y)
    fit, val = model.fit_rows_, model.validation_rows_
    assert np.intersect1d(fit, val).size == 0
    np.testing.assert_array_equal(np.union1d(fit, val), np.arange(300))
    for label in (0, 1):  # stratified: a quarter of each class
        assert (y[val] == label).sum() == int(np.floor(0.25 * (y == label).sum() + 0.5))
    noisy = X.copy()
    noisy[val] = 1 - noisy[val]  # other validation features: same split, same trees
    other = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=7).fit(noisy, y)
    np.testing.assert_array_equal(other.fit_rows_, fit)
    np.testing.assert_array_equal(other.tradeoffs_, model.tradeoffs_)
    for lam, a, b in zip(model.tradeoffs_, model.models_, other.models_, strict=True):
        alone = fit_tree((X[fit], y[fit], costs, None), float(lam))
        for name in ("feature_", "threshold_", "value_"):
            np.testing.assert_array_equal(getattr(a, name), getattr(alone, name))
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    # the choice reads the validation rows only: their errors, not the fit rows'
    for t, errors in zip(model.models_, model.validation_error_, strict=True):
        steps = t.budget_path_.max_path_cost
        np.testing.assert_allclose(errors, t.evaluate_at_budgets(X[val], y[val], steps).error)


@pytest.mark.parametrize("kind", ["binary", "numeric"])
def test_trees_sharing_node_gains_are_the_trees_grown_alone(kind):
    """The trees of the grid share their nodes' gains (they depend on a node's rows alone),
    and so do the refits: each is the fixed trade-off tree grown alone on its rows."""
    rng = np.random.default_rng(11)
    X = rng.integers(0, 2 if kind == "binary" else 6, size=(240, 12)).astype(float)
    y = (X[:, 0] + X[:, 1] - X[:, 2] + rng.normal(0, 1, 240) > 1).astype(int)
    costs = rng.uniform(0, 2, 12)
    model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=5).fit(X, y)
    fit = model.fit_rows_
    assert len(model.refits_) > 1  # the refits share gains too
    for index, lam in enumerate(model.tradeoffs_):
        grown = [(model.models_[index], X[fit], y[fit])]
        if index in model.refits_:
            grown.append((model.refits_[index], X, y))
        for tree, Xa, ya in grown:
            alone = fit_tree((Xa, ya, costs, None), float(lam))
            for name in ("feature_", "threshold_", "value_"):
                np.testing.assert_array_equal(getattr(tree, name), getattr(alone, name))


def test_default_grid_is_scaled_by_root_gain_over_mean_cost():
    X, y, costs = _budget_problem(3, 300)
    model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=1).fit(X, y)
    root = model.models_[0]  # lambda = 0: plain CART on the fit part
    assert model.tradeoffs_[0] == 0.0
    value = root.value_
    right = root.children_right_[0]
    gain = cart_splits.split_gains(
        value[right].sum(), value[right, 1], value[0].sum(), value[0, 1], "gini"
    )
    np.testing.assert_allclose(
        model.tradeoffs_, np.array(DEFAULT_TRADEOFFS) * gain / costs.mean(), rtol=1e-12
    )
    # a given grid is sorted and deduplicated; one value is a fixed trade-off
    grid = BudgetedTree(
        cost_sensitive=True, tradeoffs=[0.5, 0.0, 0.5], feature_costs=costs, random_state=1
    ).fit(X, y)
    assert grid.tradeoffs_.tolist() == [0.0, 0.5]


def test_cost_sensitive_tree_is_deterministic():
    X, y, costs = _budget_problem(4, 300)
    budgets = [0.0, 0.2, 0.5, 1.0, 3.0, np.inf]

    def run(seed):
        model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=seed)
        model.fit(X, y)
        return model, model.predict_at_budgets(X, budgets)

    (a, pa), (b, pb) = run(11), run(11)
    np.testing.assert_array_equal(pa, pb)
    np.testing.assert_array_equal(a.validation_rows_, b.validation_rows_)
    np.testing.assert_array_equal(a.chosen_tradeoffs(budgets), b.chosen_tradeoffs(budgets))
    c, _ = run(12)
    assert not np.array_equal(a.validation_rows_, c.validation_rows_)


def test_fitted_budget_caps_the_choice():
    X, y, costs = _budget_problem(5, 300)
    full = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=2).fit(X, y)
    capped = BudgetedTree(cost_sensitive=True, budget=0.4, feature_costs=costs, random_state=2)
    capped.fit(X, y)
    at = full.predict_at_budgets(X, [0.4])[0]
    np.testing.assert_array_equal(capped.predict(X), at)
    np.testing.assert_array_equal(capped.predict_at_budgets(X, [np.inf, 7.0]), [at, at])
    assert capped.chosen_tradeoffs([np.inf])[0] == full.chosen_tradeoffs([0.4])[0]
    assert capped.evaluate_at_budgets(X, y, [np.inf]).max_example_cost[0] <= 0.4
    assert capped.pruned_tree()["present"].sum() == capped.evaluate_at_budgets(X, y, [9.0]).nodes[0]


def test_check_params_catches_config_mistakes_without_data():
    from budgetboost.estimators.contract.params import InvalidParameterError

    BudgetedTree.check_params({"cost_sensitive": True, "tradeoffs": [0.0, 0.1]})
    with pytest.raises(InvalidParameterError, match="tradeoffs: only used"):
        BudgetedTree.check_params({"tradeoffs": [0.0, 0.1]})
    with pytest.raises(InvalidParameterError, match="validation_fraction"):
        BudgetedTree.check_params({"cost_sensitive": True, "validation_fraction": 0.0})


def test_decision_function_agrees_with_predict():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] > 0.2, "yes", "no")
    y[:5] = "yes"
    model = BudgetedTree(max_nodes=5).fit(X, y)
    assert model.classes_.tolist() == ["no", "yes"]
    scores = model.decision_function(X)
    np.testing.assert_array_equal(model.predict(X), model.classes_[(scores > 0).astype(int)])
    assert model.predict_at_budgets(X, [0.0, np.inf]).dtype == model.classes_.dtype


def test_evaluate_keys_and_shapes():
    rng = np.random.default_rng(6)
    X = rng.integers(0, 2, size=(50, 8))
    y = X[:, 0] | X[:, 1]
    report = BudgetedTree().fit(X, y).evaluate_at_budgets(X, y, [0, 1, 2, np.inf])
    assert set(report.as_dict()) == {
        "error",
        "rounds",
        "spent",
        "n_features",
        "mean_example_cost",
        "max_example_cost",
        "nodes",
    }
    assert all(v.shape == (4,) and v.dtype == np.float64 for v in report.as_dict().values())
    assert report.error[0] == min(y.mean(), 1 - y.mean())  # the root: majority class
    assert report.error[-1] == 0.0  # y = x0 or x1 is separable
    assert report.nodes[0] == 1 and report.spent[0] == 0.0


@pytest.mark.parametrize(
    "params, match",
    [
        ({"criterion": "mse"}, "criterion"),
        ({"cost_sensitive": "yes"}, "cost_sensitive"),
        ({"cost_sensitive": True, "tradeoffs": -1.0}, "tradeoffs"),
        ({"cost_sensitive": True, "tradeoffs": [0.0, float("nan")]}, "tradeoffs"),
        ({"cost_sensitive": True, "tradeoffs": []}, "tradeoffs"),
        ({"tradeoffs": 0.5}, "tradeoffs: only used with cost_sensitive=True"),
        ({"cost_sensitive": True, "validation_fraction": 1.0}, "validation_fraction"),
        ({"cost_sensitive": True, "validation_fraction": -0.1}, "validation_fraction"),
        ({"cost_sensitive": True, "validation_fraction": 0.0}, "validation_fraction: must be > 0"),
        (
            {"cost_sensitive": True, "tradeoffs": [0.0, 1.0], "validation_fraction": 0.0},
            "validation_fraction: must be > 0",
        ),
        ({"cost_sensitive": True, "random_state": -1}, "random_state"),
        ({"cost_sensitive": True, "random_state": "seed"}, "random_state"),
        ({"budget": -1.0}, "budget"),
        ({"budget": float("nan")}, "budget"),
        ({"max_nodes": 0}, "max_nodes"),
        ({"max_nodes": 2.5}, "max_nodes"),
        ({"feature_costs": [1.0, 2.0]}, "feature_costs"),
        ({"feature_costs": [1.0, -2.0, 1.0]}, "feature_costs"),
        ({"feature_costs": [1.0, float("nan"), 1.0]}, "feature_costs"),
        ({"feature_groups": [0, 1]}, "feature_groups"),
        ({"feature_costs": [1.0, 2.0, 3.0], "feature_groups": [0, 0, 1]}, "feature_groups"),
    ],
)
def test_bad_parameters_name_the_argument(params, match):
    X = np.arange(12.0).reshape(4, 3)
    with pytest.raises(ValueError, match=match):
        BudgetedTree(**params).fit(X, [0, 1, 0, 1])


def test_bad_data_names_the_argument():
    X = np.arange(12.0).reshape(4, 3)
    y = [0, 1, 0, 1]
    with pytest.raises(ValueError, match="X"):
        BudgetedTree().fit(np.where(X > 5, np.nan, X), y)
    with pytest.raises(ValueError, match="y"):
        BudgetedTree().fit(X, [0, 1, 2, 1])
    with pytest.raises(ValueError, match="y"):
        BudgetedTree().fit(X, [1, 1, 1, 1])
    model = BudgetedTree().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features"):
        model.predict(X[:, :2])
    with pytest.raises(ValueError, match="budgets"):
        model.predict_at_budgets(X, [1.0, -1.0])
    with pytest.raises(ValueError, match="node_counts"):
        model.predict_at_nodes(X, [0])
    with pytest.raises(ValueError, match="y"):
        model.evaluate_at_budgets(X, y[:3], [1.0])
    with pytest.raises(ValueError, match="not fitted"):
        BudgetedTree().predict_at_budgets(X, [1.0])


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"budget": 2.0, "criterion": "entropy"},
        {"max_nodes": 5, "cost_sensitive": True},
        {"cost_sensitive": True, "budget": 2.0, "random_state": 3},
        {"cost_sensitive": True, "tradeoffs": 0.1, "validation_fraction": 0.0},
    ],
    ids=repr,
)
@pytest.mark.filterwarnings("ignore:Estimator .* does not inherit")
def test_check_estimator(params):
    estimator_checks = pytest.importorskip("sklearn.utils.estimator_checks")
    estimator_checks.check_estimator(BudgetedTree(**params))
