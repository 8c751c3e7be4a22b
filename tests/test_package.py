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


def test_importing_the_package_loads_no_peer_library():
    """The peers' libraries load only when a peer is asked for."""
    code = (
        "import sys, budgetboost; "
        "print(sorted(m for m in ('lightgbm', 'catboost', 'pystreed') if m in sys.modules)); "
        "from budgetboost import BudgetedLightGBM; print('lightgbm' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["[]", "True"]
