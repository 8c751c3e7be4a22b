"""The short names of the estimators (budgetboost.estimators.contract.names): a short name or a
module path
gives the class; what cannot is named."""

from __future__ import annotations

import pytest

from budgetboost import (
    AdaBoostRS,
    BudgetedBoost,
)
from budgetboost.estimators.contract import names


def test_estimator_class_short_name_and_module_path():
    assert names.estimator_class("BudgetedBoost") is BudgetedBoost
    assert (
        names.estimator_class("budgetboost.estimators.boosting.sampling:AdaBoostRS") is AdaBoostRS
    )


@pytest.mark.parametrize(
    "name,message",
    [
        ("Boost", "neither"),
        ("budgetboost.nowhere:X", "cannot import"),
        ("budgetboost.estimators.boosting.booster:Nothing", "has no 'Nothing'"),
    ],
)
def test_estimator_class_errors(name, message):
    with pytest.raises(ValueError, match=message):
        names.estimator_class(name)
