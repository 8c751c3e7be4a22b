"""The package's top level: every built-in estimator the README lists imports from it."""

from __future__ import annotations

import subprocess
import sys

import budgetboost
from budgetboost.estimators.contract.base import BudgetedEstimator
from budgetboost.estimators.contract.registry import ESTIMATORS, estimator_class


def test_every_built_in_estimator_imports_from_the_package():
    """``from budgetboost import AACO`` (or any other built-in estimator the registry names) gives
    the registered class, listed in ``__all__``."""
    for name in ESTIMATORS:
        cls = getattr(budgetboost, name)
        assert cls is estimator_class(name) and issubclass(cls, BudgetedEstimator), name
        assert name in budgetboost.__all__
    assert not hasattr(budgetboost, "NotAnEstimator")


def test_importing_the_estimators_loads_no_learning_library():
    """Every registered estimator class imports (as planning a run does, to check its
    parameters) without loading LightGBM, CatBoost, pystreed or scikit-learn: each loads
    where a model is trained."""
    libraries = ("lightgbm", "catboost", "pystreed", "sklearn")
    code = (
        "import sys\n"
        "from budgetboost.estimators.contract.registry import ESTIMATORS, estimator_class\n"
        "for name in ESTIMATORS: estimator_class(name)\n"
        f"print(sorted(m for m in {libraries!r} if m in sys.modules))\n"
        "import numpy as np\n"
        "from budgetboost import BudgetedLightGBM\n"
        "X = np.array([[0, 1], [1, 0], [1, 1], [0, 0]] * 5, dtype=float)\n"
        "BudgetedLightGBM(n_estimators=2, feature_costs=np.ones(2)).fit(X, X[:, 0] > 0)\n"
        "print('lightgbm' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["[]", "True"]
