"""The budgeted contract checked on every result, not trusted.

Estimators that break it (tests/external_estimator.py) fail in the base class, in the
pipeline's block (naming algorithm, dataset, cost model, trial and budget) and in a real
``snakemake`` train job; honest ones are untouched.
"""

from __future__ import annotations

import numpy as np
import pytest
from external_estimator import (
    CheapestStump,
    NaNCosts,
    NaNScores,
    Overspending,
)

from budgetboost.estimators.contract.checks import (
    BUDGET_TOLERANCE,
    ContractError,
    check_costs,
    check_scores,
)

COST_FIELDS = ("rounds", "spent", "n_features", "mean_example_cost", "max_example_cost", "nodes")


def _costs(budgets, **fields):
    return {k: np.asarray(fields.get(k, np.zeros(len(budgets))), float) for k in COST_FIELDS}


# ------------------------------------------------------------------ the checks themselves


def test_spent_exactly_at_the_budget_and_within_the_tolerance_passes():
    budgets = np.array([0.0, 1.0, 1e6, np.inf])
    spent = budgets.copy()
    spent[2] += 0.5 * BUDGET_TOLERANCE * 1e6  # a few ulps of a large budget
    spent[3] = 123.0  # the fitted model: any finite cost
    check_costs("m", _costs(budgets, spent=spent, max_example_cost=spent), budgets)


@pytest.mark.parametrize(
    "field, values, message",
    [
        ("spent", [0.0, 2.0 + 1e-6], "m: spent 2 exceeds the budget 2"),
        ("max_example_cost", [0.5, 0.0], "m: max_example_cost 0.5 exceeds the budget 0"),
        ("spent", [np.nan, 0.0], "m: costs.spent is nan at budget 0 (must be finite and >= 0)"),
        ("nodes", [0.0, np.inf], "m: costs.nodes is inf at budget 2"),
        ("rounds", [-1.0, 0.0], "m: costs.rounds is -1.0 at budget 0"),
        ("n_features", [0.0], "m: costs.n_features has 1 entries for 2 budgets"),
    ],
)
def test_a_broken_cost_names_the_field_and_the_first_budget(field, values, message):
    budgets = np.array([0.0, 2.0])
    with pytest.raises(ContractError) as err:
        check_costs("m", _costs(budgets, **{field: values}), budgets)
    assert str(err.value).startswith(message)


def test_scores_must_be_finite_and_one_row_per_budget():
    budgets = np.array([1.0, 3.0])
    check_scores("m", np.zeros((2, 5)), budgets, 5)
    scores = np.zeros((2, 5))
    scores[1, [0, 3]] = [np.nan, -np.inf]
    with pytest.raises(ContractError, match=r"m: 2 of 5 scores are not finite .* at budget 3$"):
        check_scores("m", scores, budgets, 5)
    with pytest.raises(ContractError, match=r"scores of shape \(5,\), expected .* \(2, 5\)"):
        check_scores("m", np.zeros(5), budgets, 5)


def test_scores_and_costs_that_are_not_numbers_are_named():
    """Scores and costs that are not numbers (strings) are refused naming them, not failing inside
    numpy (``ufunc 'isfinite'``)."""
    budgets = np.array([1.0, 3.0])
    with pytest.raises(ContractError, match=r"m: scores must be numbers .* dtype <U3, e.g. 'yes'"):
        check_scores("m", np.full((2, 5), "yes"), budgets, 5)
    with pytest.raises(ContractError, match="m: scores must be real numbers"):
        check_scores("m", np.zeros((2, 5), dtype=complex), budgets, 5)
    with pytest.raises(
        ContractError, match=r"m: costs.spent must be real numbers; .* dtype object"
    ):
        check_costs("m", {**_costs(budgets), "spent": np.array(["a", None], dtype=object)}, budgets)
    check_scores("m", np.zeros((2, 5), dtype=np.int64), budgets, 5)  # integers are numbers


# ------------------------------------------------------------------ in the base class

BREAKERS = [
    (Overspending, "Overspending._scores_and_costs: spent 5 exceeds the budget 0"),
    (NaNCosts, "NaNCosts._scores_and_costs: costs.rounds is nan at budget 0"),
    (NaNScores, "NaNScores._scores_and_costs: 60 of 60 scores are not finite"),
]


@pytest.mark.parametrize("cls, message", BREAKERS)
def test_the_base_class_refuses_a_broken_result_in_every_public_method(data, cls, message):
    X, y = data
    model = cls(feature_costs=[2.0, 0.5, 1.0, 3.0]).fit(X, y)
    for call in (
        lambda: model.evaluate_at_budgets(X, y, [0.0, 1.0]),
        lambda: model.predict_at_budgets(X, [0.0, 1.0]),
    ):
        with pytest.raises(ContractError) as err:
            call()
        assert str(err.value).startswith(message)
    if cls is not Overspending:  # at budget inf any finite cost is allowed
        with pytest.raises(ContractError):
            model.predict(X)


def test_an_honest_estimator_is_untouched(data):
    X, y = data
    result = CheapestStump(feature_costs=[2.0, 0.5, 1.0, 3.0]).fit(X, y)
    assert result.evaluate_at_budgets(X, y, [0.0, 0.5]).spent.tolist() == [0.0, 0.5]


# ------------------------------------------------------------------ in the pipeline
