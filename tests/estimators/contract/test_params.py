"""Declarative parameter checks (budgetboost.estimators.contract.params): one routine for every
estimator, a
message naming the parameter and the reason; the config's entries pass them."""

from __future__ import annotations

import pickle
from numbers import Integral, Real

import numpy as np
import pytest
import yaml
from helpers import REPO

from budgetboost import (
    AdaBoostRS,
    BudgetedBoost,
    BudgetedTree,
    InvalidParameterError,
)
from budgetboost.estimators.contract import registry
from budgetboost.estimators.contract.params import Interval, shown


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
        (
            BudgetedBoost,
            {"budget": "10"},
            "budget",
            "must be a number >= 0 or None; got '10' (text, not a number: write 10)",
        ),
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
        registry.estimator_class(entry["estimator"]).check_params(entry.get("params") or {})


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


@pytest.mark.parametrize(
    ("text", "written"), [("1e308", "1.0e+308"), ("1e-5", "1.0e-05"), ("2.5e20", "2.5e+20")]
)
def test_a_number_read_as_text_is_shown_with_a_number_yaml_reads(text, written):
    """A number YAML read as text (``1e308``) is answered with a number YAML reads as a number, the
    same number (not "write 1e+308", which YAML reads as text again)."""
    message = shown(text)
    assert message == f"{text!r} (text, not a number: write {written})"
    assert yaml.safe_load(f"x: {written}")["x"] == float(text)
