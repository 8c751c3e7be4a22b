"""scikit-learn's own estimator checks (scikit-learn is a test dependency only)."""

from __future__ import annotations

import pytest

pytest.importorskip("sklearn")
from sklearn.base import clone  # noqa: E402
from sklearn.utils.estimator_checks import check_estimator  # noqa: E402

from budgetboost import AdaBoostRS, BudgetedBoost  # noqa: E402
from budgetboost.estimators.acquisition.aaco import AACO  # noqa: E402
from budgetboost.estimators.pruning import BudgetPrune  # noqa: E402
from budgetboost.estimators.selection.select_then_train import SelectThenTrain  # noqa: E402

ESTIMATORS = [
    BudgetedBoost(max_rounds=50),
    BudgetedBoost(criterion="greedy", budget=5.0),
    AdaBoostRS(n_rounds=50, random_state=0),
    BudgetPrune(n_estimators=3, random_state=0),
    AACO(random_state=0, n_subsets=4, max_acquisitions=3),
    SelectThenTrain(random_state=0, n_estimators=10, forward_tradeoffs=0.0, max_groups=4),
    SelectThenTrain(
        model="linear", C=1.0, random_state=0, forward_tradeoffs=0.0, max_groups=4, n_lambdas=10
    ),
    AACO(
        random_state=0,
        n_subsets=4,
        max_acquisitions=3,
        classifier="network",
        hidden_units=3,
        horizons=[0.5, 1.0],
    ),
]


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
@pytest.mark.filterwarnings("ignore:Estimator .* does not inherit")
def test_check_estimator(estimator):
    check_estimator(estimator)


def test_clone_keeps_parameters():
    model = BudgetedBoost(criterion="hybrid", switch=0.3, feature_costs=[1.0, 2.0])
    assert clone(model).get_params() == model.get_params()
