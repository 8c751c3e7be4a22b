"""An algorithm entry (budgetboost.pipeline.specs): the spec of a config entry, the estimator a
trial gets, its checks before any fit."""

from __future__ import annotations

import numpy as np
import pytest

from budgetboost.data.seeds import seed_from_key
from budgetboost.pipeline import specs

from .helpers import spec


def test_algorithm_spec_copies_registry_rounds_into_the_named_parameter():
    entry = {
        "estimator": "BudgetedBoost",
        "params": {"criterion": "adaboost"},
        "rounds_from_registry": "max_rounds",
        "unbudgeted": True,
    }
    resolved = specs.algorithm_spec("adaboost", entry, registry_rounds=15)
    assert resolved.params == {"criterion": "adaboost", "max_rounds": 15}
    assert resolved.unbudgeted and not resolved.refit_per_budget
    assert entry["params"] == {"criterion": "adaboost"}  # the config entry is not modified


def test_algorithm_spec_errors_name_the_algorithm():
    with pytest.raises(ValueError, match="'broken'.*estimator"):
        specs.algorithm_spec("broken", {"params": {}})
    with pytest.raises(ValueError, match="'ref'.*adaboost_rounds"):
        specs.algorithm_spec(
            "ref", {"estimator": "BudgetedBoost", "rounds_from_registry": "max_rounds"}
        )


def test_make_estimator_sets_costs_groups_and_a_stable_seed(problem):
    rs = spec("adaboost_rs", estimator="AdaBoostRS", params={"n_rounds": 10})
    est = specs.make_estimator(
        rs,
        dataset="toy",
        cost_model="u02",
        trial=3,
        feature_costs=problem.costs[3],
        feature_groups=problem.groups,
    )
    assert est.random_state == seed_from_key("sampling", "toy", "u02", "adaboost_rs", 3)
    np.testing.assert_array_equal(est.feature_costs, problem.costs[3])
    np.testing.assert_array_equal(est.feature_groups, problem.groups)
    assert est.n_rounds == 10


def test_make_estimator_rejects_a_parameter_the_class_lacks(problem):
    bad = spec(params={"criterion": "smoothed", "not_a_param": 1})
    with pytest.raises(ValueError, match="smoothed.*not_a_param"):
        specs.make_estimator(
            bad,
            dataset="toy",
            cost_model="u02",
            trial=0,
            feature_costs=problem.costs[0],
            feature_groups=None,
        )


def test_a_cost_spec_is_one_whatever_the_type_of_its_numbers():
    """``2.0`` and ``2`` in a cost spec are one price (every kind reads floats)."""
    from budgetboost.pipeline.specs import canonical_spec

    written = {"model": "discrete", "values": [1, 2.5], "high": 2, "prices": {"b": 1, "a": None}}
    assert canonical_spec(written) == {
        "high": 2.0,
        "model": "discrete",
        "prices": {"a": None, "b": 1.0},
        "values": [1.0, 2.5],
    }
    assert [type(v) for v in canonical_spec(written)["values"]] == [float, float]
    assert canonical_spec({"flag": True}) == {"flag": True}
