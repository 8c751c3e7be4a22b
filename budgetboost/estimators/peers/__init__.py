"""The libraries' cost-aware boosting (the library peers), under the project's budget contract.

- :class:`BudgetedLightGBM` (``budgetboost.estimators.peers.lightgbm_peer``): LightGBM's
  cost-effective gradient boosting (``cegb_tradeoff``, ``cegb_penalty_feature_coupled``);
- :class:`BudgetedCatBoost` (``budgetboost.estimators.peers.catboost_peer``): CatBoost's
  feature penalties (``penalties_coefficient``, ``first_feature_use_penalties``).

The boosters fit a grid of trade-offs, serve every budget with the prefix of trees (and the
trade-off) that did best on a validation part of the training rows among those it can
afford, and account costs as the project does (see :mod:`budgetboost.estimators.peers._base`).
STreeD's optimal trees have a room of their own (:mod:`budgetboost.estimators.optimal_trees`).
The libraries are imported only when a peer is (``from budgetboost.estimators.peers import
BudgetedLightGBM`` needs ``lightgbm``, not ``catboost``): the names resolve through
:data:`budgetboost.estimators.contract.registry.ESTIMATORS`. In a config: ``estimator:
BudgetedLightGBM``.
"""

from __future__ import annotations

from typing import Any

from ..contract.registry import estimator_class

__all__ = ["BudgetedCatBoost", "BudgetedLightGBM"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        return estimator_class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
