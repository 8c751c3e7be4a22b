"""What is particular to BudgetedLightGBM: its default grid, per-example costs on its
trees' paths, merged columns, regularisation grids, CEGB's feature penalty, the parameters
it reserves (what it shares with BudgetedCatBoost: test_library_peers.py; what every peer
keeps: test_peers.py)."""

from __future__ import annotations

import numpy as np
import pytest

from .helpers import BUDGETS, lightgbm_columns, lightgbm_params, problem

lightgbm = pytest.importorskip("lightgbm")

from budgetboost import InvalidParameterError  # noqa: E402
from budgetboost.estimators.contract.tuning import validation_split  # noqa: E402
from budgetboost.estimators.peers import BudgetedLightGBM  # noqa: E402
from budgetboost.estimators.peers._base import _prefix_costs  # noqa: E402

# ---------------------------------------------------------------------- against LightGBM


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
        assert lightgbm_columns(cents.models_[m].booster) == lightgbm_columns(
            est.models_[m].booster
        )
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


# ---------------------------------------------------------------------- parameters


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
    params = lightgbm_params(est, 0.0, costs[keep], 0.3)
    params["max_bin"] = 255
    booster = lightgbm.train(
        params, lightgbm.Dataset(X[:, keep], label=(y > 0).astype(int), params=params), 30
    )
    np.testing.assert_array_equal(
        est.models_[0].raw_scores(X, 30), booster.predict(X[:, keep], raw_score=True)
    )
    columns = lightgbm_columns(booster)
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
    params = lightgbm_params(est, config["tradeoff"], costs, config["learning_rate"])
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
    assert lightgbm_columns(coupled.booster) != lightgbm_columns(model.booster)
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
