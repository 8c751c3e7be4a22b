"""The estimator contract: declarative parameter checks, the evaluation record, ``y`` checks
and an estimator written outside the package."""

from __future__ import annotations

import pickle
from numbers import Integral, Real
from pathlib import Path

import numpy as np
import pytest
import yaml
from external_estimator import CheapestStump

from budgetboost import (
    AdaBoostRS,
    BudgetCosts,
    BudgetedBoost,
    BudgetedTree,
    BudgetEvaluation,
    InvalidParameterError,
)
from budgetboost.estimators import names
from budgetboost.estimators.params import Interval
from budgetboost.pipeline import blocks, specs

ESTIMATORS = [BudgetedBoost, AdaBoostRS, BudgetedTree]
REPO = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ declarative parameter checks


@pytest.mark.parametrize(
    "cls, params, parameter, reason",
    [
        (
            BudgetedBoost,
            {"criterion": "gredy"},
            "criterion",
            "must be one of ['adaboost', 'greedy', 'smoothed', 'speedboost', 'hybrid']; "
            "got 'gredy'",
        ),
        (BudgetedBoost, {"tau": 2}, "tau", "must be a number in (0, 1]; got 2"),
        (BudgetedBoost, {"max_rounds": -1}, "max_rounds", "must be an integer >= 1; got -1"),
        (BudgetedBoost, {"max_rounds": 2.5}, "max_rounds", "must be an integer >= 1; got 2.5"),
        (BudgetedBoost, {"switch": float("inf")}, "switch", "must be a finite number > 0; got inf"),
        (BudgetedBoost, {"budget": "10"}, "budget", "must be a number >= 0 or None; got '10'"),
        (AdaBoostRS, {"n_rounds": 0}, "n_rounds", "must be an integer >= 1; got 0"),
        (AdaBoostRS, {"cost_weighted": "yes"}, "cost_weighted", "must be True or False; got 'yes'"),
        (
            AdaBoostRS,
            {"random_state": -1},
            "random_state",
            "must be an integer >= 0, a numpy random Generator (or BitGenerator, SeedSequence) "
            "or None; got -1",
        ),
        (BudgetedTree, {"max_nodes": 0}, "max_nodes", "must be an integer >= 1 or None; got 0"),
        (
            BudgetedTree,
            {"criterion": "mse"},
            "criterion",
            "must be one of ['gini', 'entropy']; got 'mse'",
        ),
        (
            BudgetedTree,
            {"feature_costs": [1.0, -2.0]},
            "feature_costs",
            "must be a 1-d array-like of finite numbers >= 0 (one per column of X) or None; "
            "got -2.0 at index 1",
        ),
    ],
)
def test_check_params_names_the_parameter_and_the_reason(cls, params, parameter, reason):
    with pytest.raises(InvalidParameterError) as err:
        cls.check_params(params)
    assert isinstance(err.value, ValueError)
    assert (err.value.parameter, err.value.reason) == (parameter, reason)
    assert str(err.value) == f"{parameter}: {reason}"


def test_check_params_rejects_an_unknown_name_listing_the_valid_ones():
    with pytest.raises(InvalidParameterError) as err:
        BudgetedBoost.check_params({"criterion": "greedy", "max_round": 5})
    assert err.value.parameter == "max_round"
    assert err.value.reason == (
        "unknown parameter of BudgetedBoost; valid parameters are ['adaboost_path', 'budget', "
        "'criterion', 'discount_costs', 'discount_groups', 'feature_costs', 'feature_groups', "
        "'max_depth', 'max_rounds', 'switch', 'tau', 'weak_learner']"
    )


def test_check_params_accepts_good_values_of_every_kind():
    BudgetedBoost.check_params(
        {
            "criterion": "hybrid",
            "tau": 1,
            "max_rounds": np.int64(3),
            "budget": None,
            "switch": 0.25,
            "feature_costs": [0, 1.5],
        }
    )
    BudgetedBoost.check_params({"budget": float("inf")})
    AdaBoostRS.check_params({"cost_weighted": np.True_, "random_state": 2**127 + 1, "max_draws": 1})
    AdaBoostRS.check_params({"random_state": np.random.default_rng(0)})
    AdaBoostRS.check_params({"random_state": np.random.PCG64(1)})
    BudgetedTree.check_params({"max_nodes": None, "feature_groups": ["a", "a", "b"]})


def test_the_config_entries_pass_the_estimators_checks():
    """The planner's use: ``estimator_class(entry["estimator"]).check_params(entry["params"])``."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    entries = config["algorithms"]
    assert entries
    for entry in entries.values():
        names.estimator_class(entry["estimator"]).check_params(entry.get("params") or {})


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_every_constructor_parameter_has_constraints(cls):
    assert sorted(cls._parameter_constraints) == cls._get_param_names()


@pytest.mark.parametrize(
    "cls, params",
    [
        (BudgetedBoost, {"tau": 2}),
        (AdaBoostRS, {"n_rounds": 0}),
        (BudgetedTree, {"cost_sensitive": 1}),
    ],
)
def test_fit_checks_with_the_same_routine(data, cls, params):
    with pytest.raises(InvalidParameterError) as err:
        cls(**params).fit(*data)
    assert err.value.parameter == next(iter(params))


def test_set_params_rejects_an_unknown_name():
    with pytest.raises(InvalidParameterError, match="max_round: unknown parameter"):
        BudgetedBoost().set_params(max_round=3)


def test_invalid_parameter_error_survives_pickling():
    err = pickle.loads(pickle.dumps(InvalidParameterError("tau", "must be a number")))
    assert (err.parameter, err.reason, str(err)) == (
        "tau",
        "must be a number",
        "tau: must be a number",
    )


@pytest.mark.parametrize(
    "interval, text",
    [
        (Interval(Real, 0, 1, closed="right"), "a number in (0, 1]"),
        (Interval(Real, 0, 1, closed="neither"), "a number in (0, 1)"),
        (Interval(Integral, 1, None, closed="left"), "an integer >= 1"),
        (Interval(Real, None, 0, closed="neither"), "a number < 0"),
        (Interval(Real, 0, float("inf"), closed="neither"), "a finite number > 0"),
    ],
)
def test_interval_descriptions(interval, text):
    assert str(interval) == text


def test_interval_membership():
    unit = Interval(Real, 0, 1, closed="right")
    assert [unit.is_satisfied_by(v) for v in (0, 0.5, 1, np.float32(1), True, np.nan, "1")] == [
        False,
        True,
        True,
        True,
        False,
        False,
        False,
    ]
    positive = Interval(Integral, 1, None, closed="left")
    assert [positive.is_satisfied_by(v) for v in (1, np.int8(3), 2**70, 1.0, 0)] == [
        True,
        True,
        True,
        False,
        False,
    ]


# ------------------------------------------------------------------ the record


def test_budget_evaluation_is_float64_read_only_one_entry_per_budget():
    costs = dict(
        rounds=np.array([0, 3]),
        spent=[0.0, 1.5],
        n_features=np.array([0, 2]),
        mean_example_cost=[0.0, 1.5],
        max_example_cost=[0.0, 1.5],
        nodes=np.zeros(2, dtype=np.int64),
    )
    record = BudgetEvaluation(error=[0.5, 0.25], **costs)
    assert len(record) == 2
    for name, value in record.as_dict().items():
        assert value.dtype == np.float64 and value.shape == (2,), name
        assert not value.flags.writeable
    assert list(record.as_dict()) == [
        "rounds",
        "spent",
        "n_features",
        "mean_example_cost",
        "max_example_cost",
        "nodes",
        "error",
    ]
    with pytest.raises(ValueError, match="different lengths"):
        BudgetEvaluation(error=[0.5], **costs)
    with pytest.raises(ValueError, match="1-d"):
        BudgetCosts(**{**costs, "spent": [[0.0, 1.5]]})


@pytest.mark.parametrize(
    "estimator",
    [BudgetedBoost(max_rounds=20), AdaBoostRS(n_rounds=20, random_state=0), BudgetedTree()],
    ids=repr,
)
def test_every_estimator_returns_the_record(data, estimator):
    X, y = data
    estimator.set_params(feature_costs=np.linspace(0.5, 2, 4)).fit(X, y)
    budgets = [0.0, 1.0, 3.0, np.inf]
    result = estimator.evaluate_at_budgets(X, y, budgets)
    assert isinstance(result, BudgetEvaluation) and len(result) == 4
    np.testing.assert_array_equal(
        result.error, (estimator.predict_at_budgets(X, budgets) != y).mean(axis=1)
    )


# ------------------------------------------------------------------ y at evaluation (issue 12)


@pytest.mark.parametrize(
    "estimator",
    [BudgetedBoost(max_rounds=20), AdaBoostRS(n_rounds=20, random_state=0), BudgetedTree()],
    ids=repr,
)
def test_evaluation_checks_y_like_x(data, estimator):
    X, y = data
    estimator.fit(X, y)
    with pytest.raises(ValueError, match="X has 60 rows, y has 59 labels"):
        estimator.evaluate_at_budgets(X, y[:-1], [1.0])
    with pytest.raises(
        ValueError,
        match=r"y has labels the estimator was not fitted on: "
        r"\[0\] \(first at row \d+\); the fitted classes "
        r"are \[-1, 1\]",
    ):
        estimator.evaluate_at_budgets(X, (y > 0).astype(int), [1.0])  # 0/1 after -1/+1
    with pytest.raises(ValueError, match="y must be 1-d"):
        estimator.evaluate_at_budgets(X, np.column_stack([y, y]), [1.0])
    with pytest.raises(ValueError, match="not fitted on"):
        estimator.score(X, (y > 0).astype(int))


def test_string_labels_are_checked_too(data):
    X, y = data
    labels = np.where(y > 0, "sick", "healthy")
    model = BudgetedBoost(max_rounds=5).fit(X, labels)
    error = model.evaluate_at_budgets(X, labels, [np.inf]).error[0]
    assert error == pytest.approx(1 - model.score(X, labels))
    with pytest.raises(ValueError, match=r"not fitted on: \['Sick'\]"):
        model.evaluate_at_budgets(X, np.where(y > 0, "Sick", "healthy"), [np.inf])


# ------------------------------------------------------------------ an estimator from outside


def test_an_external_estimator_gets_labels_checks_and_the_record(data):
    X, y = data
    labels = np.where(y > 0, "yes", "no")
    model = CheapestStump(feature_costs=[2.0, 0.5, 1.0, 3.0]).fit(X, labels)
    assert model.classes_.tolist() == ["no", "yes"] and model.feature_ == 1
    grid = model.predict_at_budgets(X, [0.0, 0.5])
    assert set(grid[0]) == {model.classes_[int(model.majority_ > 0)]}  # nothing paid
    np.testing.assert_array_equal(grid[1], model.predict(X))
    result = model.evaluate_at_budgets(X, labels, [0.0, 0.5])
    assert result.spent.tolist() == [0.0, 0.5] and result.rounds.tolist() == [0.0, 1.0]
    np.testing.assert_array_equal(result.error, (grid != labels).mean(axis=1))
    with pytest.raises(ValueError, match="not fitted on"):
        model.evaluate_at_budgets(X, y, [0.5])
    with pytest.raises(InvalidParameterError, match="feature_costs: must have one cost"):
        CheapestStump(feature_costs=[1.0]).fit(X, labels)


def test_the_pipeline_runs_an_external_estimator(data):
    X, y = data
    splits = {0: (np.arange(40), np.arange(40, 60))}
    spec = specs.algorithm_spec("cheap", {"estimator": "external_estimator:CheapestStump"})
    shard, _, stumps = blocks.run_block(
        X=X,
        y=y,
        groups=None,
        splits=splits,
        costs={0: np.array([2.0, 0.5, 1.0, 3.0])},
        grouped=False,
        dataset="toy",
        cost_model="c",
        spec=spec,
        budgets=[0.25, 1.0],
        trials=[0],
    )
    assert shard["spent"].tolist() == [0.0, 0.5] and stumps.empty


def test_the_pipeline_rejects_a_result_that_is_not_the_record(data):
    X, y = data
    spec = specs.algorithm_spec("dict", {"estimator": "external_estimator:DictEvaluation"})
    with pytest.raises(
        TypeError, match="'dict': evaluate_at_budgets must return a budgetboost.BudgetEvaluation"
    ):
        blocks.run_block(
            X=X,
            y=y,
            groups=None,
            splits={0: (np.arange(40), np.arange(40, 60))},
            costs={0: np.ones(4)},
            grouped=False,
            dataset="toy",
            cost_model="c",
            spec=spec,
            budgets=[1.0],
            trials=[0],
        )
