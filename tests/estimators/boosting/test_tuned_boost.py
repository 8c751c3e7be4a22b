"""TunedBoost: the paper's boosters under the protocol of every tuned method."""

from __future__ import annotations

import hashlib
import warnings

import numpy as np
import pytest

from budgetboost import InvalidParameterError
from budgetboost.estimators.boosting.booster import BudgetedBoost
from budgetboost.estimators.boosting.tuned_boost import TunedBoost
from budgetboost.estimators.peers import BudgetedCatBoost, BudgetedLightGBM
from budgetboost.estimators.trees.budgeted_tree import BudgetedTree

BUDGETS = [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, np.inf]


def problem(n=300, d=12, seed=0):
    """0/1 features; the label depends on columns 0-3 (and noise); costs U[0, 2]."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < 0.5).astype(np.float64)
    signal = X[:, 0] + X[:, 1] - X[:, 2] + 0.5 * X[:, 3] + 0.6 * rng.standard_normal(n)
    return X, np.where(signal > 0.75, 1, -1), rng.uniform(0, 2, d)


def fitted(**params):
    X, y, costs = problem()
    params = {"max_rounds": 40, "tau": [0.25, 1.0], "random_state": 3, **params}
    return TunedBoost(feature_costs=costs, **params).fit(X, y), X, y, costs


def test_the_paths_are_the_boosters_on_the_fit_part():
    est, X, y, costs = fitted()
    np.testing.assert_array_equal(est.tradeoffs_, [0.25, 1.0])
    for tau, model in zip(est.tradeoffs_, est.models_, strict=True):
        alone = BudgetedBoost(
            criterion="smoothed", max_rounds=40, tau=tau, feature_costs=costs
        ).fit(X[est.fit_rows_], y[est.fit_rows_])
        np.testing.assert_array_equal(model.feature_, alone.feature_)
        np.testing.assert_array_equal(model.alpha_, alone.alpha_)


def test_the_choice_is_the_best_validation_error_among_affordable_prefixes():
    est, X, y, _ = fitted()
    Xv, yv = X[est.validation_rows_], y[est.validation_rows_]
    costs = [np.concatenate([[0.0], m.spent_]) for m in est.models_]
    budgets = np.unique(np.concatenate([BUDGETS, *costs]))
    config, size = est.choice_.at(budgets)
    # the validation error of every prefix, from the paths' own votes of k rounds
    errors = [
        np.mean((m._at_rounds(Xv, np.arange(c.size))[0] > 0) != (yv > 0), axis=1)
        for m, c in zip(est.models_, costs, strict=True)
    ]
    for b, budget in enumerate(budgets):
        best = min(e[c <= budget].min() for e, c in zip(errors, costs, strict=True))
        m = max(int(config[b]), 0)
        assert errors[m][size[b]] == best == est.validation_error_[m][size[b]]
        assert costs[m][size[b]] <= budget


def test_the_chosen_taus_are_refitted_on_all_rows_and_served_within_the_budget():
    est, X, y, costs = fitted()
    assert sorted(est.refits_) == np.unique(est.choice_.config[est.choice_.config >= 0]).tolist()
    for index, refit in est.refits_.items():
        most = int(est.choice_.size[est.choice_.config == index].max())
        alone = BudgetedBoost(
            criterion="smoothed", max_rounds=most, tau=est.tradeoffs_[index], feature_costs=costs
        ).fit(X, y)
        np.testing.assert_array_equal(refit.alpha_, alone.alpha_)
        np.testing.assert_array_equal(refit.feature_, alone.feature_)
    budgets = np.unique(np.concatenate([np.linspace(0, 10, 41), *(m.spent_ for m in est.models_)]))
    config, size = est.choice_.at(budgets)
    ev = est.evaluate_at_budgets(X, y, budgets)
    assert np.all(ev.spent <= budgets)
    for b, budget in enumerate(budgets):
        if size[b] == 0:
            assert ev.rounds[b] == 0
            continue
        refit = est.refits_[int(config[b])]
        assert ev.rounds[b] == min(size[b], refit.rounds_at_budgets([budget])[0])
        rounds = int(ev.rounds[b])
        served = refit._at_rounds(X, np.array([rounds]))[0][0]
        np.testing.assert_array_equal(est._scores_and_costs(X, np.array([budget]))[0][0], served)


def test_test_rows_never_change_the_choice_and_a_seed_gives_the_same_bytes():
    X, y, costs = problem(n=400)
    train, test = np.arange(300), np.arange(300, 400)
    make = lambda: TunedBoost(  # noqa: E731
        max_rounds=30, tau=[0.5, 1.0], feature_costs=costs, random_state=11
    ).fit(X[train], y[train])
    est, again = make(), make()
    first = est.evaluate_at_budgets(X[test], y[test], BUDGETS)
    Xr, yr, _ = problem(n=90, seed=99)
    for ev in (
        est.evaluate_at_budgets(Xr, yr, BUDGETS),
        again.evaluate_at_budgets(X[test], y[test], BUDGETS),
    ):
        np.testing.assert_array_equal(ev.rounds, first.rounds)
        np.testing.assert_array_equal(ev.spent, first.spent)
    digest = [
        hashlib.sha256(e.predict_at_budgets(X[test], BUDGETS).tobytes()).hexdigest()
        for e in (est, again)
    ]
    assert digest[0] == digest[1]
    other = TunedBoost(max_rounds=30, tau=[0.5, 1.0], feature_costs=costs, random_state=12)
    assert not np.array_equal(other.fit(X[train], y[train]).validation_rows_, est.validation_rows_)


def test_chosen_tradeoffs_are_taus_or_nan_for_the_empty_model():
    est, X, y, _ = fitted()
    chosen = est.chosen_tradeoffs(BUDGETS)
    _, size = est.choice_.at(np.asarray(BUDGETS))
    np.testing.assert_array_equal(np.isnan(chosen), size == 0)
    assert set(chosen[~np.isnan(chosen)]) <= {0.25, 1.0}


def test_which_estimators_tune():
    assert TunedBoost.tunes({})
    assert not BudgetedBoost.tunes({"criterion": "smoothed"})
    assert BudgetedTree.tunes({"cost_sensitive": True})
    assert not BudgetedTree.tunes({"cost_sensitive": True, "validation_fraction": 0.0})
    assert not BudgetedTree.tunes({})
    assert BudgetedLightGBM.tunes({}) and BudgetedCatBoost.tunes({})
    assert not BudgetedLightGBM.tunes({"validation_fraction": 0.0})


@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"tau": 0.0}, "tau"),
        ({"tau": [0.5, 1.5]}, "tau"),
        ({"tau": []}, "tau"),
        ({"validation_fraction": 0.0}, "validation_fraction"),
        ({"criterion": "cheapest"}, "criterion"),
        ({"max_rounds": 0}, "max_rounds"),
    ],
)
def test_check_params_names_the_parameter(params, name):
    with pytest.raises(InvalidParameterError, match=f"^{name}: "):
        TunedBoost.check_params(params)


def test_check_estimator():
    pytest.importorskip("sklearn")
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Estimator .* does not inherit")
        check_estimator(TunedBoost(max_rounds=10, tau=[0.5, 1.0], random_state=0))
