"""The estimator contract: declarative parameter checks, the evaluation record, ``y`` checks
and an estimator written outside the package."""

from __future__ import annotations

import numpy as np
import pytest
from external_estimator import CheapestStump

from budgetboost import (
    AdaBoostRS,
    BudgetCosts,
    BudgetedBoost,
    BudgetedTree,
    BudgetEvaluation,
    InvalidParameterError,
)

# ------------------------------------------------------------------ declarative parameter checks


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


# ------------------------------------------------------------------ y at evaluation


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
