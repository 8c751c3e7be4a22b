"""budgetboost: feature-efficient (test-time budgeted) boosting.

Estimators with a scikit-learn-style API (:mod:`budgetboost.estimators`), every one of
:data:`budgetboost.estimators.contract.registry.ESTIMATORS` importable from here:

- :class:`BudgetedBoost`: AdaBoostBT and its criteria (Huang, Powers & Reyzin 2015), and
  :class:`TunedBoost`, the same tuned on a validation part;
- :class:`AdaBoostRS`: AdaBoost with test-time sampling (Reyzin 2011);
- :class:`BudgetedTree`: CART pruned to a per-example budget (Section 7's baseline);
- the field's methods: :class:`BudgetedSTreeD`, :class:`BudgetPrune`, :class:`AACO`,
  :class:`SelectThenTrain`; the library peers :class:`BudgetedLightGBM` and
  :class:`BudgetedCatBoost`. Every one is imported when first asked for (``from budgetboost
  import AACO``), so ``import budgetboost`` does not load LightGBM, CatBoost or pystreed, nor
  the boosting code a data or results job does not run.

Each is a :class:`BudgetedEstimator`, whose docstring is the contract every estimator of the
benchmark follows; ``evaluate_at_budgets`` returns a :class:`BudgetEvaluation`, and
``check_params`` raises :class:`InvalidParameterError`.

The package's layers, each a folder that imports only the ones before it: ``estimators``
(the algorithms and their contract), ``data`` (datasets, splits, costs, files), ``pipeline``
(what a config means), ``analysis`` (statistics and verdicts: tables in, tables out),
``figures`` and ``report`` (what a reader sees). ``catalogue`` (the algorithms' labels,
families, roles and styles) imports none of them; ``pipeline`` and the layers above read it.
"""

from importlib import import_module

from .estimators.contract.registry import ESTIMATORS, estimator_class

#: The contract's names, imported from their modules when first asked for, as the estimators
#: are: a job that imports one module of the package (a figure's, a results table's, the
#: data's) does not load every estimator's code for it.
_CONTRACT = {
    "BudgetCosts": "budgetboost.estimators.contract.base",
    "BudgetedEstimator": "budgetboost.estimators.contract.base",
    "BudgetEvaluation": "budgetboost.estimators.contract.base",
    "InvalidParameterError": "budgetboost.estimators.contract.params",
}

__all__ = [
    "BudgetCosts",
    "BudgetEvaluation",
    "BudgetedEstimator",
    "InvalidParameterError",
    "__version__",
    *sorted(ESTIMATORS),
]


def __getattr__(name: str) -> object:
    """The built-in estimators, the contract's names and ``__version__``, imported when first
    asked for."""
    if name in ESTIMATORS:
        return estimator_class(name)
    if name in _CONTRACT:
        return getattr(import_module(_CONTRACT[name]), name)
    if name == "__version__":
        return _version()
    raise AttributeError(f"module 'budgetboost' has no attribute {name!r}")


def _version() -> str:
    """The installed distribution's version (``0.0.0+unknown`` from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("budgetboost")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0+unknown"
