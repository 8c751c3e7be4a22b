"""The estimators a config may name by a short name: one explicit registry.

A config entry's ``estimator`` is a short name of :data:`ESTIMATORS` or a
``"package.module:Class"`` path (an estimator of the user's own, a
:class:`~budgetboost.BudgetedEstimator`). :data:`ESTIMATORS` is a
:class:`~budgetboost.plugins.Registry` of ``"module:Class"`` paths: the package's estimators
are a literal table here, one line each, so resolving a name imports only the module of the
estimator asked for, and an estimator's module loads no learning library (LightGBM,
CatBoost, pystreed and scikit-learn load where a model is trained: planning a run imports
every class it names to check its parameters; the package's ``__init__`` lists every name
without importing any). A class of a user's module
registers itself with the decorator (``@ESTIMATORS.register``, under its class name, or
``@ESTIMATORS.register(name=...)``); the registry keeps its path.

``tests/estimators/contract/test_registry.py`` walks every module of
:mod:`budgetboost.estimators` and fails on a public estimator class that is neither
registered nor one of :data:`PARTS` (a class another estimator is built of, which no config
runs on its own).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping

from budgetboost.plugins import Registry

__all__ = ["ESTIMATORS", "PARTS", "EstimatorRegistry", "estimator_class", "estimator_module"]


def _path(plug_in: object) -> str:
    """``"module:Class"`` of a class, or the path itself."""
    if isinstance(plug_in, type):
        return f"{plug_in.__module__}:{plug_in.__qualname__}"
    return str(plug_in)


def _check_path(name: str, path: str) -> None:
    module, sep, cls = path.partition(":")
    if not sep or not module or not cls or not name.isidentifier():
        raise ValueError(
            f"estimator {name!r}: a registered estimator is an identifier with a "
            f"'module:Class' path; got {path!r}"
        )


class EstimatorRegistry(Registry[str]):
    """A :class:`~budgetboost.plugins.Registry` of ``"module:Class"`` paths whose
    :meth:`register` also takes the class itself (as a decorator), keeping its path: the
    class is imported only when a name is resolved (:func:`estimator_class`)."""

    def __init__(self, entries: Mapping[str, str]):
        super().__init__("estimator", entries, origin=_path, check=_check_path)

    def register(self, plug_in=None, *, name=None):
        """Register an estimator class (or its ``"module:Class"`` path, with ``name``) and
        return it unchanged; usable as a decorator (see
        :meth:`budgetboost.plugins.Registry.register`)."""
        if plug_in is None:
            return lambda cls: self.register(cls, name=name)
        if name is None and isinstance(plug_in, str):
            raise ValueError(f"estimator path {plug_in!r}: register it with name=...")
        super().register(_path(plug_in), name=name or plug_in.__name__)
        return plug_in


#: The package's estimators: short name -> ``"module:Class"``. A new estimator of the
#: package is one line here (and a config entry naming it).
ESTIMATORS: EstimatorRegistry = EstimatorRegistry(
    {
        "AACO": "budgetboost.estimators.acquisition.aaco:AACO",
        "AdaBoostRS": "budgetboost.estimators.boosting.sampling:AdaBoostRS",
        "BudgetPrune": "budgetboost.estimators.pruning.budget_prune:BudgetPrune",
        "BudgetedBoost": "budgetboost.estimators.boosting.booster:BudgetedBoost",
        "BudgetedCatBoost": "budgetboost.estimators.peers.catboost_peer:BudgetedCatBoost",
        "BudgetedLightGBM": "budgetboost.estimators.peers.lightgbm_peer:BudgetedLightGBM",
        "BudgetedSTreeD": "budgetboost.estimators.optimal_trees.streed:BudgetedSTreeD",
        "BudgetedTree": "budgetboost.estimators.trees.budgeted_tree:BudgetedTree",
        "SelectThenTrain": "budgetboost.estimators.selection.select_then_train:SelectThenTrain",
        "TunedBoost": "budgetboost.estimators.boosting.tuned_boost:TunedBoost",
    }
)

#: Public estimator classes of the package that are parts of another estimator, not one a
#: config runs: ``"module:Class"`` -> what uses it. Not registered, and known to the test
#: that walks the package for unregistered estimators.
PARTS: Mapping[str, str] = {
    "budgetboost.estimators.trees.pruned_tree:PrunedTree": (
        "one tree of a fixed trade-off, which BudgetedTree fits per trade-off and budget"
    ),
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
    cls = module
    try:
        for part in class_name.split("."):
            cls = getattr(cls, part)
    except AttributeError:
        raise ValueError(
            f"estimator {estimator!r}: module {module_name!r} has no {class_name!r}"
        ) from None
    return cls
