"""budgetboost: feature-efficient (test-time budgeted) boosting.

Estimators with a scikit-learn-style API:

- :class:`BudgetedBoost`: AdaBoostBT and its criteria (Huang, Powers & Reyzin 2015);
- :class:`AdaBoostRS`: AdaBoost with test-time sampling (Reyzin 2011);
- :class:`BudgetedTree`: CART pruned to a per-example budget (Section 7's baseline).

Each is a :class:`BudgetedEstimator`, whose docstring is the contract every estimator of the
benchmark follows; ``evaluate_at_budgets`` returns a :class:`BudgetEvaluation`, and
``check_params`` raises :class:`InvalidParameterError`.
"""

from importlib.metadata import PackageNotFoundError, version

from ._params import InvalidParameterError
from .base import BudgetCosts, BudgetedEstimator, BudgetEvaluation
from .boosting import BudgetedBoost
from .sampling import AdaBoostRS
from .trees import BudgetedTree

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
]
