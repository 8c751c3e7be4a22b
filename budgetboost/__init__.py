"""budgetboost: feature-efficient (test-time budgeted) boosting.

Estimators with a scikit-learn-style API (:mod:`budgetboost.estimators`), every one of
:data:`budgetboost.estimators.contract.names.ESTIMATORS` importable from here:

- :class:`BudgetedBoost`: AdaBoostBT and its criteria (Huang, Powers & Reyzin 2015), and
  :class:`TunedBoost`, the same tuned on a validation part;
- :class:`AdaBoostRS`: AdaBoost with test-time sampling (Reyzin 2011);
- :class:`BudgetedTree`: CART pruned to a per-example budget (Section 7's baseline);
- the field's methods: :class:`BudgetedSTreeD`, :class:`BudgetPrune`, :class:`AACO`,
  :class:`SelectThenTrain`; the library peers :class:`BudgetedLightGBM` and
  :class:`BudgetedCatBoost`. These are imported when first asked for (``from budgetboost
  import AACO``), so ``import budgetboost`` does not load LightGBM, CatBoost or pystreed.

Each is a :class:`BudgetedEstimator`, whose docstring is the contract every estimator of the
benchmark follows; ``evaluate_at_budgets`` returns a :class:`BudgetEvaluation`, and
``check_params`` raises :class:`InvalidParameterError`.

The package's layers, each a folder that imports only the ones before it: ``estimators``
(the algorithms and their contract), ``data`` (datasets, splits, costs, files), ``pipeline``
(what a config means), ``analysis`` (statistics and verdicts: tables in, tables out),
``figures`` and ``report`` (what a reader sees). ``catalogue`` (the algorithms' labels,
families, roles and styles) imports none of them; ``pipeline`` and the layers above read it.
"""

from importlib.metadata import PackageNotFoundError, version

from .estimators.boosting.booster import BudgetedBoost
from .estimators.boosting.sampling import AdaBoostRS
from .estimators.contract.base import BudgetCosts, BudgetedEstimator, BudgetEvaluation
from .estimators.contract.names import ESTIMATORS, estimator_class
from .estimators.contract.params import InvalidParameterError
from .estimators.trees.budgeted_tree import BudgetedTree

try:
    __version__ = version("budgetboost")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

__all__ = [
    "AdaBoostRS",
    "BudgetCosts",
    "BudgetEvaluation",
    "BudgetedBoost",
    "BudgetedEstimator",
    "BudgetedTree",
    "InvalidParameterError",
    "__version__",
    *sorted(set(ESTIMATORS) - {"AdaBoostRS", "BudgetedBoost", "BudgetedTree"}),
]


def __getattr__(name: str) -> type:
    """The built-in estimators not imported above, imported when first asked for."""
    if name in ESTIMATORS:
        return estimator_class(name)
    raise AttributeError(f"module 'budgetboost' has no attribute {name!r}")
