"""What the two peers that wrap a boosting library share, checked on each: BudgetedLightGBM and
BudgetedCatBoost against the library itself, the refit on all training rows, the choice per
budget, and the parameters each names when it refuses them (what is particular to one library
is in test_lightgbm_peer.py and test_catboost_peer.py; what every peer keeps: test_peers.py)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pytest

from budgetboost import InvalidParameterError
from budgetboost.estimators.peers import BudgetedCatBoost, BudgetedLightGBM

from .helpers import (
    BUDGETS,
    catboost_columns,
    catboost_reference,
    lightgbm_columns,
    lightgbm_reference,
    pay_once,
    problem,
)


class Reference:
    """A model the library trained itself, read through the library's own API."""

    def __init__(self, library: str, model, X: np.ndarray):
        self.library, self.model = library, model
        if library == "lightgbm":
            self.n_trees = model.num_trees()
            self.columns = lightgbm_columns(model)
        else:
            self.n_trees = model.tree_count_
            self.columns = catboost_columns(model, X)

    def raw(self, X: np.ndarray, k: int | None = None) -> np.ndarray:
        """The raw score of the first ``k`` trees (all of them: None)."""
        if self.library == "lightgbm":
            return self.model.predict(X, num_iteration=k, raw_score=True)
        return self.model.predict(X, prediction_type="RawFormulaVal", ntree_end=k or 0)


@dataclass(frozen=True)
class Library:
    """One wrapped library: its estimator, its names for the number of trees, the depth and the
    cost trade-off, trade-offs on its scale, the size of the problem it is tested on, readers
    of the costs a fitted model was given and of the columns its trees split on (through the
    library), and the parameters it refuses with the name it gives."""

    name: str
    estimator: type
    trees: str
    depth: str
    tradeoff: str
    fixed_tradeoff: float
    grid: tuple[float, ...]
    rows: int
    columns: int
    reference: Callable
    penalties: Callable
    tree_columns: Callable
    extra: dict = field(default_factory=dict)
    refused: tuple = ()

    def problem(self, n: int | None = None, seed: int = 0):
        return problem(n or self.rows, self.columns, seed)

    def fit(self, X, y, *, trees, depth, tradeoff=None, **params):
        """The estimator with the library's names for ``trees``, ``depth`` and ``tradeoff``."""
        names = {self.trees: trees, self.depth: depth}
        if tradeoff is not None:
            names[self.tradeoff] = tradeoff
        return self.estimator(**names, **params).fit(X, y)

    def library_model(self, est, config, costs, X, y, n_trees=None) -> Reference:
        return Reference(self.name, self.reference(est, config, costs, X, y, n_trees), X)


LIGHTGBM = Library(
    name="lightgbm",
    estimator=BudgetedLightGBM,
    trees="n_estimators",
    depth="max_depth",
    tradeoff="cegb_tradeoff",
    fixed_tradeoff=20.0,
    grid=(1.0, 300.0),
    rows=400,
    columns=12,
    reference=lightgbm_reference,
    penalties=lambda model: model.booster.params["cegb_penalty_feature_coupled"],
    tree_columns=lambda model, X: lightgbm_columns(model.booster),
    extra={"num_leaves": 8},
    refused=(
        ({"cegb_tradeoff": -1.0}, "cegb_tradeoff"),
        ({"cegb_tradeoff": []}, "cegb_tradeoff"),
        ({"cegb_tradeoff": [1.0, np.nan]}, "cegb_tradeoff"),
        ({"validation_fraction": 1.0}, "validation_fraction"),
        ({"n_estimators": 0}, "n_estimators"),
        ({"max_depth": -2}, "max_depth"),
        ({"num_leaves": 1}, "num_leaves"),
        ({"learning_rate": 0.0}, "learning_rate"),
        ({"params": {"num_threads": 4}}, "params"),
        ({"params": {"seed": 1}}, "params"),
        ({"params": {"cegb_penalty_feature_lazy": [1.0]}}, "params"),
        ({"params": "gbdt"}, "params"),
        ({"random_state": -1}, "random_state"),
        ({"feature_costs": [1.0, -1.0]}, "feature_costs"),
        ({"n_trees": 3}, "n_trees"),
    ),
)
# CatBoost's trees are slower to fit than LightGBM's: a smaller problem
CATBOOST = Library(
    name="catboost",
    estimator=BudgetedCatBoost,
    trees="iterations",
    depth="depth",
    tradeoff="penalties_coefficient",
    fixed_tradeoff=3.0,
    grid=(0.1, 10.0),
    rows=300,
    columns=10,
    reference=catboost_reference,
    penalties=lambda model: model.model.get_params()["first_feature_use_penalties"],
    tree_columns=lambda model, X: catboost_columns(model.model, X),
    refused=(
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
    ),
)


def _installed(library: Library):
    missing = importlib.util.find_spec(library.name) is None
    return pytest.param(
        library,
        id=library.name,
        marks=pytest.mark.skipif(missing, reason=f"{library.name} is not installed"),
    )


LIBRARIES = [_installed(LIGHTGBM), _installed(CATBOOST)]


def prefix_costs(columns, costs) -> list[float]:
    """What each prefix of trees splitting on ``columns`` pays, each column paid once."""
    return [pay_once(columns, k, costs, np.arange(costs.size)) for k in range(len(columns) + 1)]


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("depth", [1, 3])
def test_a_fixed_tradeoff_is_the_library_model_and_the_longest_affordable_prefix(library, depth):
    X, y, costs = library.problem()
    est = library.fit(
        X,
        y,
        trees=30,
        depth=depth,
        tradeoff=library.fixed_tradeoff,
        learning_rate=0.2,
        validation_fraction=0.0,
        feature_costs=costs,
        random_state=3,
        **library.extra,
    )
    assert est.fit_rows_.size == X.shape[0] and est.validation_rows_.size == 0
    assert est.refits_[0] is est.models_[0]  # nothing held out: nothing to refit
    model = library.library_model(est, 0, costs, X, y)
    assert model.columns == [set(c.tolist()) for c in est.models_[0].tree_columns()]
    expected_cost = prefix_costs(model.columns, costs)
    np.testing.assert_allclose(est.prefix_cost_[0], expected_cost, rtol=0, atol=1e-12)

    Xt, yt, _ = library.problem(n=200, seed=1)
    ev = est.evaluate_at_budgets(Xt, yt, BUDGETS)
    scores, _ = est._scores_and_costs(Xt, np.asarray(BUDGETS))
    for b, budget in enumerate(BUDGETS):
        k = int(ev.rounds[b])
        assert k == np.flatnonzero(np.asarray(expected_cost) <= budget).max()
        assert ev.spent[b] <= budget
        if k:
            library_scores = model.raw(Xt, k)
            np.testing.assert_array_equal(scores[b], library_scores)
            assert ev.error[b] == np.mean((library_scores > 0) != (yt > 0))


@pytest.mark.parametrize("library", LIBRARIES)
def test_the_models_are_the_library_models_on_the_fit_part(library):
    X, y, costs = library.problem()
    est = library.fit(
        X,
        y,
        trees=20,
        depth=2,
        tradeoff=list(library.grid),
        learning_rate=[0.1, 0.3],
        feature_costs=costs,
        random_state=5,
    )
    low, high = library.grid
    assert [(c["tradeoff"], c["learning_rate"]) for c in est.configs_] == [
        (low, 0.1),
        (low, 0.3),
        (high, 0.1),
        (high, 0.3),
    ]
    Xf, yf = X[est.fit_rows_], y[est.fit_rows_]
    Xv, yv = X[est.validation_rows_], y[est.validation_rows_]
    Xt = library.problem(n=100, seed=2)[0]
    for m in range(len(est.configs_)):
        model = library.library_model(est, m, costs, Xf, yf)
        ours = est.models_[m]
        assert model.n_trees == len(ours.tree_columns())
        for k in {1, model.n_trees // 2, model.n_trees} - {0}:
            np.testing.assert_array_equal(ours.raw_scores(Xt, k), model.raw(Xt, k))
        np.testing.assert_allclose(
            est.prefix_cost_[m], prefix_costs(model.columns, costs), rtol=0, atol=1e-12
        )
        # every prefix, as the library predicts it (to rounding: a cumulative sum of leaves)
        staged = ours.staged_scores(Xt)
        assert staged.shape == (model.n_trees, Xt.shape[0])
        for k in range(1, model.n_trees + 1, 3):
            np.testing.assert_allclose(staged[k - 1], model.raw(Xt, k), atol=1e-12)
        # the validation curve is the library's own prediction on the validation rows
        for k in (1, model.n_trees):
            wrong = (model.raw(Xv, k) > 0) != (yv > 0)
            assert est.validation_error_[m][k] == wrong.mean()


@pytest.mark.parametrize("library", LIBRARIES)
def test_the_chosen_configurations_are_refitted_on_all_training_rows(library):
    X, y, costs = library.problem()
    est = library.fit(
        X,
        y,
        trees=20,
        depth=2,
        tradeoff=[0.0, *library.grid],
        learning_rate=[0.1, 0.3],
        feature_costs=costs,
        random_state=6,
    )
    chosen = np.unique(est.choice_.config[est.choice_.config >= 0])
    assert sorted(est.refits_) == chosen.tolist() and chosen.size
    for index in chosen.tolist():
        most = int(est.choice_.size[est.choice_.config == index].max())
        model = library.library_model(est, index, costs, X, y, n_trees=most)
        refit = est.refits_[index]
        assert len(refit.tree_columns()) == model.n_trees <= most
        np.testing.assert_array_equal(refit.raw_scores(X, model.n_trees), model.raw(X))
        np.testing.assert_allclose(
            est.refit_prefix_cost_[index], prefix_costs(model.columns, costs)
        )


@pytest.mark.parametrize("library", LIBRARIES)
def test_the_refit_serves_the_chosen_size_or_fewer_trees_within_the_budget(library):
    X, y, costs = library.problem()
    est = library.fit(
        X, y, trees=30, depth=2, learning_rate=0.2, feature_costs=costs, random_state=1
    )
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


@pytest.mark.parametrize("library", LIBRARIES)
def test_budgets_are_never_exceeded_and_the_choice_minimises_validation_error(library):
    X, y, costs = library.problem(n=400)
    est = library.fit(X, y, trees=30, depth=2, feature_costs=costs, random_state=1)
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
        assert est.prefix_cost_[m][size[b]] <= budget
    np.testing.assert_array_equal(est.predict(X), est.predict_at_budgets(X, [np.inf])[0])


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_group_is_paid_once_and_its_columns_carry_its_cost(library):
    X, y, _ = library.problem()
    # columns 0-2: one attribute
    groups = np.array([0, 0, 0, 1, 2, 2, 3, 3, 4, 5, 6, 7])[: library.columns]
    group_cost = np.array([1.2, 0.3, 0.7, 0.0, 1.9, 0.4, 0.8, 1.1])[: groups.max() + 1]
    costs = group_cost[groups]
    est = library.fit(
        X,
        y,
        trees=30,
        depth=2,
        tradeoff=0.0,
        learning_rate=0.2,
        validation_fraction=0.0,
        feature_costs=costs,
        feature_groups=groups,
        random_state=0,
    )
    np.testing.assert_array_equal(library.penalties(est.models_[0]), costs)
    columns = library.tree_columns(est.models_[0], X)
    used = set().union(*columns)
    assert {0, 1, 2} <= used  # the model uses several columns of group 0 ...
    total = pay_once(columns, len(columns), group_cost, groups)
    assert est.prefix_cost_[0][-1] == pytest.approx(total)  # ... and pays for it once
    assert est.refit_prefix_n_groups_[0][-1] == len({groups[c] for c in used})


@pytest.mark.parametrize(
    ("library", "params", "name"),
    [
        pytest.param(lib.values[0], params, name, id=f"{lib.id}-{name}-{i}", marks=lib.marks)
        for lib in LIBRARIES
        for i, (params, name) in enumerate(lib.values[0].refused)
    ],
)
def test_check_params_names_the_parameter(library, params, name):
    with pytest.raises(InvalidParameterError, match=f"^{name}: ") as info:
        library.estimator.check_params(params)
    assert info.value.parameter == name
