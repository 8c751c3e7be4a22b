"""A train block under real test costs with Turney's discount groups: the costs,
discount groups and fits of the train job's path, Turney's heart costs charged, tests not
offered."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import yaml
from helpers import REPO

from budgetboost.estimators.boosting.booster import adaboost_path
from budgetboost.pipeline.blocks import block_inputs, run_block_on
from budgetboost.pipeline.specs import algorithm_spec, make_estimator

SUITE = yaml.safe_load((REPO / "config" / "suite.yaml").read_text())


# ------------------------------------------------------------------ Turney's heart costs
@pytest.fixture(scope="module")
def cleveland(built):
    """Heart disease Cleveland under Turney's costs, as a train job draws its trial 0."""
    data = built("heart_cleveland")
    from budgetboost.data.registry import load_registry

    entry = load_registry(REPO / "config" / "datasets.yaml")["heart_cleveland"]
    inputs = block_inputs(
        data,
        dataset="heart_cleveland",
        cost_model="turney",
        cost_spec=SUITE["cost_models"]["turney"]["spec"],
        train_size=entry["train_size"],
        test_size=entry["test_size"],
        trials=[0],
        root=REPO,
    )
    return data, inputs


@pytest.mark.parametrize(
    "tests, charged",
    [(("exang", "oldpeak"), 86.30 + 1.00 + 1.00), (("thal", "thalach"), 103.90)],
)
def test_heart_cleveland_charges_turneys_groups(cleveland, tests, charged):
    """A model that reads exang and oldpeak (one exercise ECG) costs 86.30 + 1.00
    + 1.00 = 88.30 per example, thal with thalach (one thallium scan) 103.90; their full
    prices would be 174.60 and 205.80."""
    data, inputs = cleveland
    columns = np.flatnonzero(np.isin(data.attributes, tests))
    train, test = inputs.splits[0]
    discount_groups, discount_costs = inputs.discounts[0]
    spec = algorithm_spec(
        "adaboost",
        {"estimator": "BudgetedBoost", "params": {"criterion": "adaboost", "max_rounds": 40}},
    )
    model = make_estimator(
        spec,
        dataset="heart_cleveland",
        cost_model="turney",
        trial=0,
        feature_costs=inputs.costs[0][columns],
        feature_groups=data.groups[columns],
        discount_groups=discount_groups[columns],
        discount_costs=discount_costs[columns],
    )
    model.fit(data.X[train][:, columns], data.y[train])
    assert set(np.asarray(data.attributes)[columns][model.feature_]) == set(tests)
    result = model.evaluate_at_budgets(data.X[test][:, columns], data.y[test], [np.inf])
    assert result.mean_example_cost[0] == pytest.approx(charged, abs=1e-9)
    assert result.max_example_cost[0] == pytest.approx(charged, abs=1e-9)
    full = inputs.costs[0][columns][np.unique(data.groups[columns], return_index=True)[1]].sum()
    assert full == pytest.approx({88.30: 174.60, 103.90: 205.80}[round(charged, 2)])


def test_a_train_block_charges_every_method_the_grouped_price(cleveland):
    """The train job's path (costs, discount groups, one fit per trial, the contract on what
    it stores): at the top of the grid nothing costs more than all 13 tests with the groups."""
    data, inputs = cleveland
    budgets = [10.0, 100.0, 330.0]
    for name in ("greedy", "adaboost_rs_ac", "tree_cs"):
        spec = algorithm_spec(name, SUITE["algorithms"][name])
        spec = dataclasses.replace(spec, adaboost_path=False)  # boost anew: no shared path here
        shard, _, _ = run_block_on(
            data,
            inputs,
            dataset="heart_cleveland",
            cost_model="turney",
            spec=spec,
            budgets=budgets,
            trials=[0],
        )
        assert (shard["max_example_cost"] <= shard["budget"]).all()
        assert shard["max_example_cost"].max() <= 323.97 + 1e-9


# ------------------------------------------------------------------ unpriced tests
def test_tests_not_offered_are_read_by_no_method(built):
    """Hepatitis under Turney's costs: alk_phosphate and sgot have no price and are not
    offered (spec `prices: null`); the train job drops their columns, the shared AdaBoost
    path gives way to boosting anew, and the stumps keep the dataset's column numbers."""
    data = built("hepatitis")
    from budgetboost.data.registry import load_registry

    entry = load_registry(REPO / "config" / "datasets.yaml")["hepatitis"]
    spec_costs = SUITE["cost_models"]["turney_hepatitis"]["spec"]
    inputs = block_inputs(
        data,
        dataset="hepatitis",
        cost_model="turney_hepatitis",
        cost_spec=spec_costs,
        train_size=entry["train_size"],
        test_size=entry["test_size"],
        trials=[0, 1],
        root=REPO,
    )
    attribute = np.asarray(data.attributes)
    unoffered = np.isin(attribute, ["alk_phosphate", "sgot"])
    assert (
        np.isinf(inputs.costs[0][unoffered]).all()
        and np.isfinite(inputs.costs[0][~unoffered]).all()
    )
    assert inputs.costs[0][attribute == "age"][0] == 1.0
    X, y = data.X.astype(np.float64), data.y
    paths = {t: adaboost_path(X[inputs.splits[t][0]], y[inputs.splits[t][0]], 50) for t in (0, 1)}
    for name in ("adaboost_bt", "greedy", "tree"):
        spec = algorithm_spec(name, SUITE["algorithms"][name])
        shard, _, stumps = run_block_on(
            data,
            inputs,
            dataset="hepatitis",
            cost_model="turney_hepatitis",
            spec=spec,
            budgets=[2.0, 10.0, 33.0],
            trials=[0, 1],
            paths=paths,
        )
        assert (shard["max_example_cost"] <= shard["budget"]).all()
        if len(stumps):
            assert not unoffered[stumps["feature"].to_numpy()].any()
            assert (stumps["feature"] < attribute.size).all()
