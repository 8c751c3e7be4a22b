"""BudgetedLightGBM: against LightGBM itself, cost accounting, the choice, its
parameters (what every peer keeps: test_peers.py)."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import BUDGETS, pay_once, problem

lightgbm = pytest.importorskip("lightgbm")

from budgetboost import InvalidParameterError  # noqa: E402
from budgetboost.estimators.contract.tuning import validation_split  # noqa: E402
from budgetboost.estimators.peers import BudgetedLightGBM  # noqa: E402
from budgetboost.estimators.peers._base import _prefix_costs  # noqa: E402


def reference_params(est, tradeoff, costs, learning_rate):
    """LightGBM's parameters for one configuration, written out independently of the wrapper."""
    return {
        "objective": "binary",
        "learning_rate": learning_rate,
        "num_leaves": est.num_leaves,
        "max_depth": est.max_depth,
        "min_data_in_leaf": est.min_child_samples,
        "min_data_in_bin": est.min_data_in_bin,
        "feature_pre_filter": False,
        "lambda_l2": est.reg_lambda,
        "num_threads": 1,
        "deterministic": True,
        "force_row_wise": True,
        "seed": est.seed_,
        "verbosity": -1,
        "cegb_tradeoff": tradeoff,
        "cegb_penalty_feature_coupled": list(costs),
    }


def reference_booster(est, config, costs, X, y, n_trees=None):
    """LightGBM trained on ``X, y`` with configuration ``config`` (an index of ``configs_``)."""
    tradeoff, rate = est.configs_[config]["tradeoff"], est.configs_[config]["learning_rate"]
    params = reference_params(est, tradeoff, costs, rate)
    return lightgbm.train(
        params,
        lightgbm.Dataset(X, label=(y > 0).astype(int), params=params),
        num_boost_round=est.n_estimators if n_trees is None else n_trees,
    )


def split_columns(booster):
    """Columns split on by each tree, from ``trees_to_dataframe`` (not the wrapper's parser)."""
    frame = booster.trees_to_dataframe()
    splits = frame[frame["split_feature"].notna()]
    columns = [set() for _ in range(booster.num_trees())]
    for tree, feature in zip(splits["tree_index"], splits["split_feature"], strict=True):
        columns[tree].add(int(feature.removeprefix("Column_")))
    return columns


# ---------------------------------------------------------------------- against LightGBM
@pytest.mark.parametrize("max_depth", [1, 3])
def test_fixed_tradeoff_is_the_library_model_and_the_longest_affordable_prefix(max_depth):
    X, y, costs = problem()
    tradeoff = 20.0
    est = BudgetedLightGBM(
        n_estimators=40,
        learning_rate=0.1,
        max_depth=max_depth,
        num_leaves=8,
        cegb_tradeoff=tradeoff,
        validation_fraction=0.0,
        feature_costs=costs,
        random_state=3,
    ).fit(X, y)
    assert est.fit_rows_.size == X.shape[0] and est.validation_rows_.size == 0
    assert est.refits_[0] is est.models_[0]  # nothing held out: nothing to refit
    booster = reference_booster(est, 0, costs, X, y)
    assert booster.num_trees() == len(est.models_[0].trees)
    columns = split_columns(booster)
    expected_cost = [
        pay_once(columns, k, costs, np.arange(costs.size)) for k in range(booster.num_trees() + 1)
    ]
    np.testing.assert_allclose(est.prefix_cost_[0], expected_cost, rtol=0, atol=1e-12)

    Xt, yt, _ = problem(n=300, seed=1)
    ev = est.evaluate_at_budgets(Xt, yt, BUDGETS)
    scores, _ = est._scores_and_costs(Xt, np.asarray(BUDGETS))
    for b, budget in enumerate(BUDGETS):
        k = int(ev.rounds[b])
        affordable = np.flatnonzero(np.asarray(expected_cost) <= budget)
        assert k == affordable.max()  # the longest affordable prefix
        assert ev.spent[b] <= budget
        if k:
            library = booster.predict(Xt, num_iteration=k, raw_score=True)
            np.testing.assert_array_equal(scores[b], library)
            assert ev.error[b] == np.mean((library > 0) != (yt > 0))


def test_models_are_the_library_models_on_the_fit_part():
    X, y, costs = problem()
    est = BudgetedLightGBM(
        n_estimators=30,
        max_depth=2,
        learning_rate=[0.1, 0.3],
        cegb_tradeoff=[1.0, 300.0],
        feature_costs=costs,
        random_state=5,
    ).fit(X, y)
    assert [(c["tradeoff"], c["learning_rate"]) for c in est.configs_] == [
        (1.0, 0.1),
        (1.0, 0.3),
        (300.0, 0.1),
        (300.0, 0.3),
    ]
    Xf, yf = X[est.fit_rows_], y[est.fit_rows_]
    Xv, yv = X[est.validation_rows_], y[est.validation_rows_]
    Xt, _, _ = problem(n=200, seed=2)
    for m in range(len(est.configs_)):
        booster = reference_booster(est, m, costs, Xf, yf)
        model = est.models_[m]
        assert booster.num_trees() == len(model.trees)
        for k in {1, booster.num_trees() // 2, booster.num_trees()} - {0}:
            np.testing.assert_array_equal(
                model.raw_scores(Xt, k), booster.predict(Xt, num_iteration=k, raw_score=True)
            )
        columns = split_columns(booster)
        for k in range(booster.num_trees() + 1):
            assert est.prefix_cost_[m][k] == pytest.approx(
                pay_once(columns, k, costs, np.arange(costs.size)), abs=1e-12
            )
        # every prefix, as the library predicts it (to rounding: a cumulative sum of leaves)
        staged = model.staged_scores(Xt)
        assert staged.shape == (booster.num_trees(), Xt.shape[0])
        for k in range(1, booster.num_trees() + 1, 3):
            np.testing.assert_allclose(
                staged[k - 1], booster.predict(Xt, num_iteration=k, raw_score=True), atol=1e-12
            )
        # the validation curve is the library's own prediction on the validation rows
        for k in (1, booster.num_trees()):
            wrong = (booster.predict(Xv, num_iteration=k, raw_score=True) > 0) != (yv > 0)
            assert est.validation_error_[m][k] == wrong.mean()


def test_chosen_configurations_are_refitted_on_all_training_rows():
    X, y, costs = problem()
    est = BudgetedLightGBM(
        n_estimators=30,
        max_depth=2,
        learning_rate=[0.1, 0.3],
        cegb_tradeoff=[0.0, 3.0, 300.0],
        feature_costs=costs,
        random_state=6,
    ).fit(X, y)
    chosen = np.unique(est.choice_.config[est.choice_.config >= 0])
    assert sorted(est.refits_) == chosen.tolist() and chosen.size
    for index in chosen.tolist():
        most = int(est.choice_.size[est.choice_.config == index].max())
        booster = reference_booster(est, index, costs, X, y, n_trees=most)
        refit = est.refits_[index]
        assert len(refit.trees) == booster.num_trees() <= most
        np.testing.assert_array_equal(
            refit.raw_scores(X, booster.num_trees()), booster.predict(X, raw_score=True)
        )
        columns = split_columns(booster)
        np.testing.assert_allclose(
            est.refit_prefix_cost_[index],
            [pay_once(columns, k, costs, np.arange(costs.size)) for k in range(len(columns) + 1)],
        )


def test_the_refit_serves_the_chosen_size_or_fewer_trees_within_the_budget():
    X, y, costs = problem()
    est = BudgetedLightGBM(
        n_estimators=40, max_depth=2, learning_rate=0.2, feature_costs=costs, random_state=1
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


def test_the_default_grid_scales_with_fit_rows_and_mean_cost():
    X, y, costs = problem()
    est = BudgetedLightGBM(n_estimators=5, feature_costs=costs, random_state=0).fit(X, y)
    mean_cost = costs[costs > 0].mean()
    grid = est.fit_rows_.size / mean_cost * np.array([0.0, *(1e-4 * 4.0**i for i in range(7))])
    np.testing.assert_allclose(est.tradeoffs_, np.repeat(grid, 3))  # each with 3 rates
    assert [c["learning_rate"] for c in est.configs_[:3]] == [0.1, 0.3, 1.0]
    # costs in cents: the same models
    cents = BudgetedLightGBM(n_estimators=5, feature_costs=100 * costs, random_state=0).fit(X, y)
    for m in range(len(est.models_)):
        assert split_columns(cents.models_[m].booster) == split_columns(est.models_[m].booster)
        np.testing.assert_allclose(
            cents.models_[m].raw_scores(X, 5), est.models_[m].raw_scores(X, 5)
        )


# ---------------------------------------------------------------------- cost accounting
def test_prefix_costs_on_crafted_trees():
    """A group first used by tree 3 costs nothing for the 2-tree prefix; paid once."""
    group_cost = np.array([1.5, 0.25, 2.0, 0.0])
    trees = [
        np.array([0]),
        np.array([0]),
        np.array([1, 2]),
        np.array([0, 1]),
        np.array([], dtype=np.intp),
        np.array([3]),
    ]
    cost, n_groups = _prefix_costs(trees, group_cost)
    np.testing.assert_allclose(cost, [0, 1.5, 1.5, 3.75, 3.75, 3.75, 3.75])
    np.testing.assert_array_equal(n_groups, [0, 1, 1, 3, 3, 3, 4])


def test_a_group_is_paid_once_and_its_columns_carry_its_cost(monkeypatch):
    X, y, _ = problem()
    groups = np.array([0, 0, 0, 1, 2, 2, 3, 3, 4, 5, 6, 7])  # columns 0-2: one attribute
    group_cost = np.array([1.2, 0.3, 0.7, 0.0, 1.9, 0.4, 0.8, 1.1])
    costs = group_cost[groups]
    seen = []

    class Booster(lightgbm.Booster):  # the parameters of every booster trained
        def __init__(self, params=None, train_set=None, **kwargs):
            if train_set is not None:
                seen.append(params)
            super().__init__(params, train_set, **kwargs)

    monkeypatch.setattr(lightgbm, "Booster", Booster)
    est = BudgetedLightGBM(
        n_estimators=30,
        max_depth=2,
        learning_rate=0.1,
        cegb_tradeoff=0.0,
        validation_fraction=0.0,
        feature_costs=costs,
        feature_groups=groups,
        random_state=0,
    ).fit(X, y)
    np.testing.assert_array_equal(seen[0]["cegb_penalty_feature_coupled"], costs)
    columns = split_columns(est.models_[0].booster)
    used = set().union(*columns)
    assert {0, 1, 2} <= used  # the model uses several columns of group 0 ...
    total = pay_once(columns, len(columns), group_cost, groups)
    assert est.prefix_cost_[0][-1] == pytest.approx(total)  # ... and pays for it once
    assert est.refit_prefix_n_groups_[0][-1] == len({groups[c] for c in used})


def path_groups(frame, tree, x, group_of_column):
    """Groups tested on the path of ``x`` through one tree of ``trees_to_dataframe``."""
    nodes = frame[frame["tree_index"] == tree].set_index("node_index")
    node, groups = f"{tree}-S0", set()
    if node not in nodes.index:  # a single leaf
        return groups
    while node in nodes.index and isinstance(nodes.at[node, "split_feature"], str):
        column = int(nodes.at[node, "split_feature"].removeprefix("Column_"))
        groups.add(int(group_of_column[column]))
        assert nodes.at[node, "decision_type"] == "<="
        go_left = x[column] <= nodes.at[node, "threshold"]
        node = nodes.at[node, "left_child" if go_left else "right_child"]
    return groups


def test_per_example_costs_are_the_groups_on_each_examples_paths():
    X, y, costs = problem(n=300)
    groups = np.arange(X.shape[1]) // 2
    costs = costs[groups * 2]
    est = BudgetedLightGBM(
        n_estimators=12,
        learning_rate=0.1,
        max_depth=3,
        num_leaves=8,
        cegb_tradeoff=0.0,
        validation_fraction=0.0,
        feature_costs=costs,
        feature_groups=groups,
        random_state=0,
    ).fit(X, y)
    Xt = problem(n=40, seed=4)[0]
    budgets = np.array([est.prefix_cost_[0][k] for k in (2, 5, 12)])
    _, paid = est._scores_and_costs(Xt, budgets)
    frame = est.models_[0].booster.trees_to_dataframe()
    group_cost = costs[::2]
    for b, k in enumerate(paid.rounds.astype(int)):
        per_example = [
            sum(
                group_cost[g]
                for g in sorted(set().union(*(path_groups(frame, t, x, groups) for t in range(k))))
            )
            for x in Xt
        ]
        assert paid.mean_example_cost[b] == pytest.approx(np.mean(per_example))
        assert paid.max_example_cost[b] == pytest.approx(np.max(per_example))
        assert paid.max_example_cost[b] <= paid.spent[b] + 1e-12
    assert paid.mean_example_cost[-1] < paid.spent[-1]  # lazy: examples skip branches


def test_stumps_every_example_pays_the_prefix_and_trees_have_one_split():
    X, y, costs = problem()
    est = BudgetedLightGBM(n_estimators=25, max_depth=1, feature_costs=costs, random_state=0).fit(
        X, y
    )
    assert all(len(tree) <= 1 for model in est.models_ for tree in model.tree_columns())
    ev = est.evaluate_at_budgets(X, y, BUDGETS)
    np.testing.assert_allclose(ev.mean_example_cost, ev.spent)
    np.testing.assert_allclose(ev.max_example_cost, ev.spent)
    deep = BudgetedLightGBM(
        n_estimators=5,
        learning_rate=0.1,
        max_depth=4,
        num_leaves=16,
        min_child_samples=2,
        cegb_tradeoff=0.0,
        validation_fraction=0.0,
        random_state=0,
    ).fit(X, y)
    frame = deep.models_[0].booster.trees_to_dataframe()
    assert frame["node_depth"].max() == 5  # depth 4: leaves at node depth 5
    assert frame.groupby("tree_index")["split_feature"].count().max() > 1


def test_budgets_are_never_exceeded_and_the_fitted_model_is_the_choice_at_inf():
    X, y, costs = problem()
    est = BudgetedLightGBM(n_estimators=40, max_depth=2, feature_costs=costs, random_state=1).fit(
        X, y
    )
    budgets = np.linspace(0, 8, 33)
    ev = est.evaluate_at_budgets(X, y, budgets)
    assert np.all(ev.spent <= budgets)
    chosen = est.chosen_tradeoffs(budgets)
    assert chosen.shape == budgets.shape
    np.testing.assert_array_equal(np.isnan(chosen), ev.rounds == 0)
    assert set(chosen[~np.isnan(chosen)]) <= set(est.tradeoffs_)
    scores, _ = est._scores_and_costs(X, np.array([np.inf]))
    np.testing.assert_array_equal(est.decision_function(X), scores[0])
    np.testing.assert_array_equal(est.predict(X), est.predict_at_budgets(X, [np.inf])[0])


# ---------------------------------------------------------------------- the choice


def test_validation_split_keeps_both_classes_in_the_fit_part():
    rng = np.random.default_rng(0)
    y = np.array([1.0, -1.0, -1.0, -1.0])
    fit, val = validation_split(y, 0.9, rng)
    assert set(y[fit]) == {-1.0, 1.0} and val.size == 2


def test_the_choice_minimises_validation_error_among_affordable_candidates():
    X, y, costs = problem(n=500)
    est = BudgetedLightGBM(n_estimators=30, max_depth=2, feature_costs=costs, random_state=2).fit(
        X, y
    )
    budgets = np.unique(np.concatenate([BUDGETS, *est.prefix_cost_]))
    config, size = est.choice_.at(budgets)
    for b, budget in enumerate(budgets):
        best = min(
            error[cost <= budget].min()
            for cost, error in zip(est.prefix_cost_, est.validation_error_, strict=True)
        )
        m = max(int(config[b]), 0)  # the empty model's error is the same in every curve
        assert est.validation_error_[m][size[b]] == best
        assert est.prefix_cost_[m][size[b]] <= budget
    np.testing.assert_array_equal(np.isnan(est.chosen_tradeoffs(budgets)), size == 0)


# ---------------------------------------------------------------------- parameters
@pytest.mark.parametrize(
    ("params", "name"),
    [
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
    ],
)
def test_check_params_names_the_parameter(params, name):
    with pytest.raises(InvalidParameterError, match=f"^{name}: ") as info:
        BudgetedLightGBM.check_params(params)
    assert info.value.parameter == name


def test_reserved_library_parameters_say_who_sets_them():
    with pytest.raises(
        InvalidParameterError, match="'seed', which is set by the parameter 'random_state'"
    ):
        BudgetedLightGBM.check_params({"params": {"seed": 1}})
    with pytest.raises(
        InvalidParameterError, match="'feature_pre_filter', which is set by the wrapper"
    ):
        BudgetedLightGBM.check_params({"params": {"feature_pre_filter": True}})
    BudgetedLightGBM.check_params({"params": {"feature_fraction": 0.8, "force_col_wise": True}})


def test_merged_models_are_the_library_models_on_the_representative_columns():
    """With ``merge_identical_columns``, each model is LightGBM trained on one column of each
    set equal on its rows, the cheapest: the same predictions, its splits mapped back."""
    X, y, costs = problem()
    X = np.column_stack([X, X[:, :3]])  # three copies, the middle one cheaper
    costs = np.concatenate([costs, costs[:3] * np.array([2.0, 0.5, 1.0])])
    est = BudgetedLightGBM(
        n_estimators=30,
        max_depth=2,
        learning_rate=0.3,
        cegb_tradeoff=0.0,
        validation_fraction=0.0,
        merge_identical_columns=True,
        feature_costs=costs,
        random_state=0,
    ).fit(X, y)
    # copies of columns 0 and 2 are as dear or dearer (the first kept); column 1's is cheaper
    keep = np.array([0, 2, *range(3, 12), 13])
    np.testing.assert_array_equal(est.models_[0].columns, keep)
    params = reference_params(est, 0.0, costs[keep], 0.3)
    params["max_bin"] = 255
    booster = lightgbm.train(
        params, lightgbm.Dataset(X[:, keep], label=(y > 0).astype(int), params=params), 30
    )
    np.testing.assert_array_equal(
        est.models_[0].raw_scores(X, 30), booster.predict(X[:, keep], raw_score=True)
    )
    columns = split_columns(booster)
    assert [set(keep[sorted(c)].tolist()) for c in columns] == [
        set(c.tolist()) for c in est.models_[0].tree_columns()
    ]


def test_charging_is_per_model_or_per_example():
    with pytest.raises(InvalidParameterError, match="^charging: "):
        BudgetedLightGBM.check_params({"charging": "lazy"})
    with pytest.raises(InvalidParameterError, match="^merge_identical_columns: "):
        BudgetedLightGBM.check_params({"merge_identical_columns": 1})
    BudgetedLightGBM.check_params({"charging": "example", "max_depth": [1, 2, 3]})
    assert BudgetedLightGBM().charging == "model"


def test_regularisation_grids_join_the_configurations_and_reach_lightgbm():
    """``min_child_samples`` and ``reg_lambda`` given as several values are chosen like the
    depth: every combination is a configuration, trained with its own values (the Dataset,
    built once, does not depend on them)."""
    X, y, costs = problem(n=300)
    est = BudgetedLightGBM(
        n_estimators=10,
        max_depth=2,
        learning_rate=0.3,
        cegb_tradeoff=[0.0, 1.0],
        min_child_samples=[2, 10],
        reg_lambda=[0.0, 1.0],
        feature_costs=costs,
        random_state=0,
    ).fit(X, y)
    assert len(est.configs_) == 8
    for config, model in zip(est.configs_, est.models_, strict=True):
        params = model.booster.params
        assert params["min_data_in_leaf"] == config["min_child_samples"]
        assert params["lambda_l2"] == config["reg_lambda"]
        assert params["max_depth"] == 2 and "max_depth" not in config
        leaves = model.booster.trees_to_dataframe()
        counts = leaves.loc[leaves["split_feature"].isna(), "count"]
        assert counts.min() >= config["min_child_samples"] or config["min_child_samples"] == 2
    budgets = np.asarray(BUDGETS)
    config, _ = est.choice_.at(budgets)
    np.testing.assert_array_equal(
        est.chosen_values("reg_lambda", budgets),
        [est.configs_[c]["reg_lambda"] if c >= 0 else np.nan for c in config],
    )


# ---------------------------------------------------------------------- CEGB's feature penalty
def per_example_fit(**params) -> tuple[BudgetedLightGBM, np.ndarray, np.ndarray, np.ndarray]:
    """A per-example peer on :func:`problem` (300 training rows) and the training rows."""
    X, y, costs = problem(n=300)
    est = BudgetedLightGBM(
        n_estimators=15,
        max_depth=2,
        learning_rate=[0.3, 1.0],
        charging="example",
        feature_costs=costs,
        random_state=4,
        **params,
    ).fit(X, y)
    return est, X, y, costs


def test_per_example_the_lazy_penalty_is_fitted_and_the_coupled_is_a_candidate():
    """Per example, every configuration is fitted with the lazy penalty (first) and with the
    coupled one; a lazy model is LightGBM's model with ``cegb_penalty_feature_lazy`` set to
    the costs, at the coupled default trade-off divided by the fit rows; per model, only
    the coupled penalty is fitted."""
    est, X, y, costs = per_example_fit()
    kinds = [c["cegb_feature_penalty"] for c in est.configs_]
    half = len(kinds) // 2
    assert kinds == ["lazy"] * half + ["coupled"] * half
    n_fit = est.fit_rows_.size
    np.testing.assert_allclose(est.tradeoffs_[:half] * n_fit, est.tradeoffs_[half:])
    Xf, yf = X[est.fit_rows_], y[est.fit_rows_]
    lazy_index = int(np.flatnonzero(est.tradeoffs_[:half] > 0)[7])  # a middle trade-off
    config = est.configs_[lazy_index]
    params = reference_params(est, config["tradeoff"], costs, config["learning_rate"])
    params["max_depth"], params["num_leaves"] = 2, 4
    params["cegb_penalty_feature_lazy"] = params.pop("cegb_penalty_feature_coupled")
    booster = lightgbm.train(
        params, lightgbm.Dataset(Xf, label=(yf > 0).astype(int), params=params), 15
    )
    model = est.models_[lazy_index]
    assert booster.num_trees() == model.n_trees > 0
    np.testing.assert_array_equal(
        model.raw_scores(Xf, model.n_trees), booster.predict(Xf, raw_score=True)
    )
    # the penalty reached LightGBM: the coupled model of the same row differs
    coupled = est.models_[lazy_index + half]
    assert split_columns(coupled.booster) != split_columns(model.booster)
    per_model = BudgetedLightGBM(n_estimators=5, feature_costs=costs, random_state=4).fit(X, y)
    assert {c["cegb_feature_penalty"] for c in per_model.configs_} == {"coupled"}


def test_the_penalty_is_chosen_per_budget_on_the_validation_rows_only():
    """The penalty served at each budget is that of the configuration of fewest validation
    errors there (``validation_error_``, from the fit-part models on the validation rows),
    and the estimator fitted on the same training rows beside other test rows chooses the
    same; a penalty given alone is the only one served."""
    est, X, y, costs = per_example_fit()
    budgets = est.validation_budgets_
    config, _ = est.choice_.at(budgets)
    kinds = np.array([c["cegb_feature_penalty"] for c in est.configs_])
    served = est.chosen_penalties(budgets)
    np.testing.assert_array_equal(served, np.where(config >= 0, kinds[np.maximum(config, 0)], ""))
    fewest = est.validation_error_.min(axis=0)
    chosen = est.validation_error_[np.maximum(config, 0), np.arange(budgets.size)]
    np.testing.assert_array_equal(np.where(config >= 0, chosen, fewest), fewest)
    assert set(served) - {""} <= {"lazy", "coupled"}
    Xt, _, _ = problem(n=200, seed=7)
    again, *_ = per_example_fit()
    again.predict_at_budgets(Xt, budgets)  # serving test rows changes nothing
    np.testing.assert_array_equal(again.chosen_penalties(budgets), served)
    np.testing.assert_array_equal(again.choice_.config, est.choice_.config)
    alone, *_ = per_example_fit(cegb_feature_penalty="coupled")
    assert set(alone.chosen_penalties(budgets)) <= {"coupled", ""}


def test_the_feature_penalty_is_checked():
    for bad in ("eager", ["lazy", "lazy"], [], 1):
        with pytest.raises(InvalidParameterError, match="^cegb_feature_penalty: "):
            BudgetedLightGBM.check_params({"cegb_feature_penalty": bad})
    BudgetedLightGBM.check_params({"cegb_feature_penalty": ["coupled", "lazy"]})
    X, y, costs = problem(n=100)
    with pytest.raises(InvalidParameterError, match="cegb_feature_penalty"):
        BudgetedLightGBM(
            learning_rate=0.3,
            cegb_tradeoff=1.0,
            cegb_feature_penalty=["coupled", "lazy"],
            validation_fraction=0.0,
        ).fit(X, y)
