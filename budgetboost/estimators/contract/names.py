"""The estimators by the short names a config may give them, and the lookup of any other.

A config entry's ``estimator`` is one of :data:`ESTIMATORS` or a ``"package.module:Class"``
path (an estimator of the user's own, a :class:`~budgetboost.BudgetedEstimator`). Modules are
imported only when their estimator is asked for, so the peers' libraries (LightGBM, CatBoost)
load only where a peer runs.
"""

from __future__ import annotations

import importlib

__all__ = ["ESTIMATORS", "estimator_class", "estimator_module"]

#: The built-in estimators: short name -> ``"module:Class"``.
ESTIMATORS: dict[str, str] = {
    "BudgetedBoost": "budgetboost.estimators.boosting.booster:BudgetedBoost",
    "TunedBoost": "budgetboost.estimators.boosting.tuned_boost:TunedBoost",
    "AdaBoostRS": "budgetboost.estimators.boosting.sampling:AdaBoostRS",
    "BudgetedTree": "budgetboost.estimators.trees.budgeted_tree:BudgetedTree",
    "BudgetedLightGBM": "budgetboost.estimators.peers.lightgbm_peer:BudgetedLightGBM",
    "BudgetedCatBoost": "budgetboost.estimators.peers.catboost_peer:BudgetedCatBoost",
    "BudgetedSTreeD": "budgetboost.estimators.optimal_trees.streed:BudgetedSTreeD",
    "BudgetPrune": "budgetboost.estimators.pruning.budget_prune:BudgetPrune",
    "AACO": "budgetboost.estimators.acquisition.aaco:AACO",
    "SelectThenTrain": "budgetboost.estimators.selection.select_then_train:SelectThenTrain",
}


def estimator_module(estimator: str) -> str:
    """The module that defines ``estimator`` (a key of :data:`ESTIMATORS` or ``module:Class``)."""
    return ESTIMATORS.get(estimator, estimator).partition(":")[0]


def estimator_class(estimator: str) -> type:
    """Import the class named by ``estimator`` (a key of :data:`ESTIMATORS` or ``module:Class``).

    Raises
    ------
    ValueError
        Naming ``estimator`` when it is neither, or its module or class cannot be imported.
    """
    target = ESTIMATORS.get(estimator, estimator)
    module_name, sep, class_name = target.partition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(
            f"estimator {estimator!r} is neither one of {sorted(ESTIMATORS)} "
            "nor a 'module:Class' path"
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - a user's module may fail in any way on import
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise ValueError(
            f"estimator {estimator!r}: cannot import module {module_name!r} ({detail})"
        ) from exc
    try:
        return getattr(module, class_name)
    except AttributeError:
        raise ValueError(
            f"estimator {estimator!r}: module {module_name!r} has no {class_name!r}"
        ) from None
