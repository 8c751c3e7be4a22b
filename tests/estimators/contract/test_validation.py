"""Input checks shared by the estimators: missing values in X, y, budget grids."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetboost import BudgetedBoost, BudgetedTree
from budgetboost.estimators.contract.validation import check_budgets, check_X, check_y


@pytest.fixture
def frame():
    return pd.DataFrame(
        {"age": [63.0, 37.0, 41.0, 56.0], "chol": [233.0, 250.0, 204.0, 236.0], "sex": [1, 0, 1, 0]}
    )


@pytest.mark.parametrize("missing", [pd.NA, np.nan, None])
def test_missing_value_in_a_dataframe_names_the_column(frame, missing):
    frame["chol"] = frame["chol"].astype("Float64" if missing is pd.NA else "float64")
    frame.loc[2, "chol"] = missing
    with pytest.raises(
        ValueError,
        match=r"X has missing values \(NaN, None or NA\) in column "
        r"'chol' \(first at row 2\); .*impute",
    ):
        BudgetedBoost(max_rounds=3).fit(frame, [0, 1, 0, 1])


def test_pd_na_in_an_integer_column_is_a_missing_value(frame):
    frame["sex"] = pd.array([1, pd.NA, 1, 0], dtype="Int64")
    with pytest.raises(ValueError, match="missing values .* column 'sex' .*row 1"):
        check_X(frame)


def test_missing_values_in_several_columns_are_listed(frame):
    frame.loc[3, "age"] = np.nan
    frame.loc[1, "chol"] = np.nan
    with pytest.raises(
        ValueError,
        match=r"in 2 columns \['age', 'chol'\] \(first at row 3 of "
        r"'age'\)",
    ):
        check_X(frame)


def test_missing_value_in_an_array_names_the_column_index():
    X = np.arange(12.0).reshape(4, 3)
    X[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"missing values .* in column 2 \(first at row 1\)"):
        check_X(X)
    objects = X.astype(object)
    objects[1, 2] = None
    with pytest.raises(ValueError, match=r"in column 2 \(first at row 1\)"):
        check_X(objects)


def test_missing_value_at_prediction_time(frame):
    model = BudgetedTree().fit(frame, [0, 1, 0, 1])
    frame["age"] = frame["age"].astype("Float64")
    frame.loc[0, "age"] = pd.NA
    with pytest.raises(ValueError, match="missing values .* column 'age' .*row 0"):
        model.predict(frame)


def test_infinite_values_are_not_called_missing():
    X = np.ones((3, 2))
    X[2, 1] = -np.inf
    with pytest.raises(ValueError, match=r"infinite value in column 1 \(first at row 2: -inf\)"):
        check_X(X)


def test_non_numeric_objects_still_raise_type_error():
    X = np.ones((2, 2), dtype=object)
    X[0, 0] = {"a": 1}
    with pytest.raises(TypeError, match="argument must be a string.* number"):
        check_X(X)


def test_check_y_shape_length_and_classes():
    classes = np.array([-1, 1])
    np.testing.assert_array_equal(check_y([1, -1, 1], 3, classes=classes), [1, -1, 1])
    with pytest.raises(ValueError, match="X has 3 rows, y has 2 labels"):
        check_y([1, -1], 3)
    with pytest.raises(ValueError, match=r"not fitted on: \[0, 2\] \(first at row 1\)"):
        check_y([1, 0, 2, 0], 4, classes=classes)
    with pytest.raises(ValueError, match="y must be 1-d"):
        check_y(np.ones((2, 2)), 2)


def test_check_budgets_for_estimators_and_for_the_grid():
    np.testing.assert_array_equal(check_budgets([3, 0, np.inf, 3]), [3, 0, np.inf, 3])
    assert check_budgets(2.5).tolist() == [2.5]
    assert check_budgets([0, 2, np.inf], increasing=True).tolist() == [0.0, 2.0, np.inf]
    for bad in ([-1.0], [np.nan], [[1.0, 2.0]], ["a"]):
        with pytest.raises(ValueError, match="budgets must be"):
            check_budgets(bad)
    for bad, message in (
        ([], "empty"),
        ([2, 1], "strictly increasing"),
        ([1, 1], "strictly increasing"),
        ([np.inf, np.inf], "increasing"),
    ):
        with pytest.raises(ValueError, match=message):
            check_budgets(bad, increasing=True)
