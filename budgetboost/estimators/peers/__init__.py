"""Peers from gradient-boosting libraries, under the project's budget contract.

- :class:`BudgetedLightGBM` (``budgetboost.estimators.peers.lightgbm_peer``): LightGBM's
  cost-effective gradient boosting (``cegb_tradeoff``, ``cegb_penalty_feature_coupled``);
- :class:`BudgetedCatBoost` (``budgetboost.estimators.peers.catboost_peer``): CatBoost's feature
  penalties (``penalties_coefficient``, ``first_feature_use_penalties``).

Each fits a grid of trade-offs, serves every budget with the prefix of trees (and the
trade-off) that did best on a validation part of the training rows among those it can
afford, and accounts costs as the project does (see :mod:`budgetboost.estimators.peers._base`). The
libraries are imported only when a peer is: ``from budgetboost.estimators.peers import
BudgetedLightGBM`` needs ``lightgbm``, not ``catboost``. In a pipeline config:
``estimator: "budgetboost.estimators.peers.lightgbm_peer:BudgetedLightGBM"``.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["BudgetedCatBoost", "BudgetedLightGBM"]

_MODULES = {
    "BudgetedLightGBM": "budgetboost.estimators.peers.lightgbm_peer",
    "BudgetedCatBoost": "budgetboost.estimators.peers.catboost_peer",
}


def __getattr__(name: str) -> Any:
    if name in _MODULES:
        return getattr(importlib.import_module(_MODULES[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
