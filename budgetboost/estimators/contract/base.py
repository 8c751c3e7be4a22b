"""The estimator contract: :class:`BudgetedEstimator` and its record :class:`BudgetEvaluation`.

The contract itself needs no scikit-learn (a runtime dependency of some estimators:
BudgetPrune's forest, AACO's network, SelectThenTrain's folds). The base gives
``get_params`` / ``set_params`` (so ``sklearn.base.clone`` works), a ``repr``, ``score`` and
the ``__sklearn_tags__`` hook that ``sklearn.utils.estimator_checks.check_estimator`` reads;
the hook imports scikit-learn lazily, and is only ever called by scikit-learn itself.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from typing import Any, ClassVar, NamedTuple, TypeVar

import numpy as np

from .checks import check_costs, check_reads_shape, check_scores
from .params import (
    Boolean,
    InstanceOf,
    Interval,
    InvalidParameterError,
    NonNegativeVector,
    Options,
    Vector,
    validate_params,
)
from .pricing import Pricing
from .validation import (
    check_budgets,
    check_discount_groups,
    check_feature_costs,
    check_feature_groups,
    check_feature_names,
    check_X,
    check_X_y,
    check_y,
    encode_labels,
    feature_names,
)

__all__ = [
    "BUDGET",
    "DISCOUNT_COSTS",
    "DISCOUNT_GROUPS",
    "FEATURE_COSTS",
    "FEATURE_GROUPS",
    "PRICES",
    "RANDOM_STATE",
    "Boolean",
    "BudgetCosts",
    "BudgetEvaluation",
    "BudgetedEstimator",
    "InstanceOf",
    "Interval",
    "InvalidParameterError",
    "NonNegativeVector",
    "NotFittedError",
    "Options",
    "Pricing",
    "TrainingData",
    "Vector",
]

#: Constraints of the parameters the pipeline sets per trial (see :class:`BudgetedEstimator`).
BUDGET = [Interval(Real, 0, None, closed="left"), None]
FEATURE_COSTS = [NonNegativeVector(), None]
FEATURE_GROUPS = [Vector(), None]
DISCOUNT_GROUPS = [Vector(), None]
DISCOUNT_COSTS = [NonNegativeVector(), None]
#: The constraints of the prices the pipeline sets per trial, which every estimator takes:
#: ``_parameter_constraints = {..., **PRICES}``.
PRICES: dict[str, list[Any]] = {
    "feature_costs": FEATURE_COSTS,
    "feature_groups": FEATURE_GROUPS,
    "discount_groups": DISCOUNT_GROUPS,
    "discount_costs": DISCOUNT_COSTS,
}
RANDOM_STATE = [
    Interval(Integral, 0, None, closed="left"),
    InstanceOf(
        (np.random.Generator, np.random.BitGenerator, np.random.SeedSequence),
        "a numpy random Generator (or BitGenerator, SeedSequence)",
    ),
    None,
]

_E = TypeVar("_E", bound="BudgetedEstimator")


@dataclass(frozen=True, eq=False)
class BudgetCosts:
    """What the examples paid at each budget: one float64 array per field, one entry per budget.

    Attributes
    ----------
    rounds : ndarray of shape (n_budgets,)
        Size of the model used: boosting rounds (a prefix of the path), internal nodes of a
        tree, or for AdaBoostRS the mean number of hypotheses drawn per example.
    spent : ndarray of shape (n_budgets,)
        The model's cost at the budget, never above it: the cost of the feature groups of a
        boosting prefix, of the most expensive root-to-leaf path of a pruned tree, the mean
        cost paid per example for AdaBoostRS.
    n_features : ndarray of shape (n_budgets,)
        Feature groups paid for (mean per example when examples differ).
    mean_example_cost, max_example_cost : ndarray of shape (n_budgets,)
        Mean and largest cost paid by one test example: each example pays for the feature
        groups its prediction reads, each group once. Equal to ``spent`` for a boosting
        prefix (every example reads every stump); a tree's examples pay their own path.
    nodes : ndarray of shape (n_budgets,)
        Nodes of the pruned tree (0 for estimators without a tree).
    """

    rounds: np.ndarray
    spent: np.ndarray
    n_features: np.ndarray
    mean_example_cost: np.ndarray
    max_example_cost: np.ndarray
    nodes: np.ndarray

    def __post_init__(self) -> None:
        lengths = set()
        for field in dataclasses.fields(self):
            value = np.array(getattr(self, field.name), dtype=np.float64)  # a read-only copy
            if value.ndim != 1:
                raise ValueError(
                    f"{type(self).__name__}.{field.name} must be 1-d (one entry "
                    f"per budget); got shape {value.shape}"
                )
            value.flags.writeable = False
            object.__setattr__(self, field.name, value)
            lengths.add(value.size)
        if len(lengths) > 1:
            sizes = {f.name: getattr(self, f.name).size for f in dataclasses.fields(self)}
            raise ValueError(f"{type(self).__name__}: fields of different lengths {sizes}")

    def __len__(self) -> int:
        """The number of budgets."""
        return getattr(self, dataclasses.fields(self)[0].name).size

    def as_dict(self) -> dict[str, np.ndarray]:
        """``{field: array}`` in field order (e.g. for a DataFrame)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}


@dataclass(frozen=True, eq=False)
class BudgetEvaluation(BudgetCosts):
    """What :meth:`BudgetedEstimator.evaluate_at_budgets` returns: error and costs per budget.

    Every field is a read-only float64 array with one entry per budget, in the order of the
    budgets asked for; the cost fields are those of :class:`BudgetCosts`.

    Attributes
    ----------
    error : ndarray of shape (n_budgets,)
        Fraction of the examples misclassified by the model at each budget.
    """

    error: np.ndarray


class TrainingData(NamedTuple):
    """Validated training input, given to ``BudgetedEstimator._fit``."""

    X: np.ndarray  # float64, finite, (n_samples, n_features)
    y: np.ndarray  # float64 -1/+1: -1 is classes_[0], +1 is classes_[1]
    classes: np.ndarray  # the two original labels
    group_of_column: np.ndarray  # feature group index of each column
    group_cost: np.ndarray  # cost of each group (paid once): its full price, alone
    pricing: Pricing | None = None  # the groups' prices with discount groups (always set by fit)


class NotFittedError(ValueError, AttributeError):
    """Raised when a prediction method is called before ``fit`` (as scikit-learn's)."""


@functools.cache
def _not_fitted_error(sklearn_loaded: bool) -> type[NotFittedError]:
    """Our error, also a scikit-learn ``NotFittedError`` when scikit-learn is in use.

    scikit-learn is never imported here: only if the caller already did so (its checks
    expect their own class) is its exception class mixed in.
    """
    if not sklearn_loaded:
        return NotFittedError
    sk_error = sys.modules["sklearn.exceptions"].NotFittedError
    return type("NotFittedError", (NotFittedError, sk_error), {"__module__": __name__})


class BudgetedEstimator:
    """Base class, and contract, of every estimator of the benchmark.

    A budgeted binary classifier with the scikit-learn estimator API. Its constructor only
    stores its parameters; ``fit`` checks them and the data. Labels may be any two values
    (``classes_``, sorted; ``classes_[1]`` is the positive class).

    **What the methods return** (``X`` of shape (n_samples, n_features), ``budgets`` a list
    of numbers >= 0 in any order, ``inf`` meaning unlimited):

    - ``fit(X, y)``: ``self``, fitted. One fit serves every budget up to the fitted
      ``budget`` (for the boosters and the tree, the model at a budget is a prefix or a
      pruning of the fitted one).
    - ``decision_function(X)``: ndarray of shape (n_samples,); ``> 0`` predicts
      ``classes_[1]``.
    - ``predict(X)``: ndarray of shape (n_samples,) of labels in ``classes_``, from the model
      as fitted (its ``budget``, if it has one).
    - ``predict_at_budgets(X, budgets)``: ndarray of shape (len(budgets), n_samples) of
      labels: row ``b`` is what the model predicts when every test example may spend at most
      ``budgets[b]`` (budgets above the fitted ``budget`` get the fitted model).
    - ``evaluate_at_budgets(X, y, budgets)``: a :class:`BudgetEvaluation`, one entry per
      budget: the ``error`` of ``predict_at_budgets`` against ``y``, and what was paid.
      ``y`` is checked like ``X``: 1-d, one label per row, every label one of ``classes_``.
    - ``score(X, y)``: accuracy of ``predict(X)``.

    **Costs.** Feature ``j`` costs ``feature_costs[j]`` (default 1) and is paid once per test
    example, however often the example's prediction reads it; the columns of one feature
    group (``feature_groups``, e.g. the 0/1 indicators of one raw attribute) are paid for
    together, once. Tests may also share a part (Turney's discount groups: one blood draw
    for several blood tests): with ``discount_groups`` (a label per column, negative: none)
    and ``discount_costs`` (a price per column), the tests of one discount group share the
    part ``feature_costs - discount_costs``, paid once per example for the group, and each
    test read adds its discount price; a set of groups costs ``sum of the touched discount
    groups' shared parts + sum of its tests' discount prices (full prices outside a discount
    group)`` (:mod:`~budgetboost.estimators.contract.pricing`, ``data.pricing``). ``spent`` is the
    model's cost at a budget, never above the budget; the per-example costs
    (``mean_example_cost``, ``max_example_cost``) are what individual test examples paid,
    each for the groups its own prediction read, at these prices (see :class:`BudgetCosts`).
    An estimator that ignores the discount groups charges the full prices, which never
    undercharges.

    **Parameters the pipeline sets per trial** (``budgetboost.pipeline.specs.make_estimator``);
    a config entry gives every other parameter:

    - ``feature_costs``: the trial's cost vector, one cost per column;
    - ``feature_groups``: when the cost model pays a raw attribute's indicators together;
    - ``discount_groups``, ``discount_costs``: when the cost model's tests share parts (real
      test costs with Turney's groups); checked by ``fit`` (one test per feature group, a
      discount price at most the cost, one shared part per discount group);
    - ``random_state``: if the class has it, ``seed_from_key("sampling", dataset,
      cost_model, algorithm, trial)`` (a 128-bit int), so results do not depend on job order;
    - ``budget``: if the class has it, the grid's largest budget (or each budget, with
      ``refit_per_budget``), unless the config entry sets it or is ``unbudgeted``.

    **Writing an estimator** (``"package.module:Class"`` in the pipeline config): subclass
    this class, store the constructor arguments as attributes of the same names, declare
    ``_parameter_constraints`` (what each parameter may be: ``fit`` checks them, and so does
    :meth:`check_params`, with which the pipeline checks a config before any job runs) and
    implement two hooks; label decoding, the ``X`` and ``y`` checks, the parameter checks and
    the :class:`BudgetEvaluation` come from the base.

    - ``_fit(self, data: TrainingData) -> None``: train on ``data.X`` (float64, finite) and
      ``data.y`` (-1/+1), with ``data.group_of_column``, ``data.group_cost`` (each group's
      full price) and ``data.pricing`` (the prices with discount groups). Fitted
      attributes end with ``_``.
    - ``_scores_and_costs(self, X, budgets) -> (scores, BudgetCosts)``: for a validated
      ``X`` and an array of budgets, the scores of shape (len(budgets), n_samples) (``> 0``
      predicts ``classes_[1]``) and what was paid at each budget. Budget ``inf`` is the model
      as fitted: ``decision_function`` is its row. Its outputs are checked each time
      (:mod:`~budgetboost.estimators.contract.checks`): finite scores, finite costs >= 0, ``spent``
      and ``max_example_cost`` within the budget; a violation raises ``ContractError``.

    A third hook says what the estimator reads, so that a train job checks it rather than
    trusts the costs (``budgetboost.pipeline.verify``); every estimator of the package
    implements it:

    - ``_groups_read(self, X, budgets) -> ndarray or None``: for a validated ``X`` and an
      array of budgets, a boolean array of shape (len(budgets), n_samples, n_groups), or
      (len(budgets), 1, n_groups) where every example reads the same groups: true where
      example ``i``'s prediction at budget ``b`` reads a column of feature group ``g`` (``g``
      indexes ``data.group_cost``). The per-example costs are then the prices of these sets
      (:meth:`Pricing.set_costs`), and ``spent`` too where every example reads the same set;
      and replacing any column outside an example's set by another example's value does not
      change its prediction. The default, None, says nothing: the job then probes which
      feature groups each prediction depends on, one group at a time (slower, and it sees
      only what changes a prediction).

    In a room of :mod:`budgetboost.estimators` the class is registered by one line of
    :data:`~budgetboost.estimators.contract.registry.ESTIMATORS`; elsewhere a config names it
    ``"module:Class"`` (or its module registers it: ``@ESTIMATORS.register``). Its ``label``
    and ``family`` are the defaults of a config entry that runs it. Its ``conformance_cases``
    (small parameter sets, by name) are what the one conformance suite
    (``tests/estimators/test_conformance.py``) fits it at.

    Override ``decision_function`` or ``predict`` only where they differ from that (as
    :class:`~budgetboost.AdaBoostRS` does: its ``predict`` samples at the fitted budget).
    Never override ``predict_at_budgets``, ``evaluate_at_budgets`` or ``groups_read``: a train
    job computes what it stores from the hooks itself (``budgetboost.pipeline.verify.measure``)
    and never calls them, and the config check refuses a class that does.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels, sorted; ``classes_[1]`` is the +1 class.
    n_features_in_ : int
        Columns of the training ``X``.
    group_of_column_ : ndarray of int, shape (``n_features_in_``,)
        The feature group of each column (``TrainingData.group_of_column``): the groups
        :meth:`groups_read` reports.
    feature_names_in_ : ndarray of str
        Column names, when ``X`` was a DataFrame with string column names.
    majority_ : float
        The training majority class as -1/+1 (ties of a vote go to it).

    Examples
    --------
    A stump on the cheapest feature, paid for when the budget allows it::

        class CheapestStump(BudgetedEstimator):
            _parameter_constraints = {"feature_costs": FEATURE_COSTS,
                                      "feature_groups": FEATURE_GROUPS}

            def __init__(self, feature_costs=None, feature_groups=None):
                self.feature_costs = feature_costs
                self.feature_groups = feature_groups

            def _fit(self, data):
                cost = data.group_cost[data.group_of_column]
                self.feature_ = int(np.argmin(cost))
                self.cost_ = float(cost[self.feature_])
                x = data.X[:, self.feature_]
                self.threshold_ = float(np.median(x))
                above = x >= self.threshold_
                self.sign_ = 1.0 if (data.y[above].sum() - data.y[~above].sum()) >= 0 else -1.0

            def _scores_and_costs(self, X, budgets):
                paid = budgets >= self.cost_
                vote = np.where(X[:, self.feature_] >= self.threshold_, self.sign_, -self.sign_)
                scores = np.where(paid[:, None], vote, self.majority_)
                spent = np.where(paid, self.cost_, 0.0)
                return scores, BudgetCosts(rounds=paid, spent=spent, n_features=paid,
                                           mean_example_cost=spent, max_example_cost=spent,
                                           nodes=np.zeros(budgets.size))
    """

    #: The libraries (their distribution names, as pip knows them) this estimator wraps:
    #: their versions go into every shard's metadata with numpy's, and an upgrade re-runs the
    #: estimator's shards (the train rule's params hold them).
    libraries: ClassVar[tuple[str, ...]] = ()

    #: How a config's algorithm of this estimator is shown and grouped when its entry does
    #: not say (:class:`budgetboost.catalogue.Catalogue`): ``label``, the name in legends and
    #: tables; ``family``, one of ``budgetboost.catalogue.FAMILIES`` (which figures draw it,
    #: where it sorts). None: the algorithm's name, and family ``other``.
    label: ClassVar[str | None] = None
    family: ClassVar[str | None] = None

    _estimator_type = "classifier"
    #: What each constructor parameter may be: ``{name: [constraint, ...]}`` (see
    #: :mod:`budgetboost.estimators.contract.params`); ``None`` in a list allows ``None``.
    _parameter_constraints: ClassVar[dict[str, list[Any]]] = {}
    #: Small parameter sets, by name, that the conformance tests fit on every estimator
    #: (``tests/estimators/test_conformance.py``: scikit-learn's checks, the record, the
    #: budget contract under grouped costs and discount groups, what each example reads and
    #: pays): each a different path through the estimator, each fitting in about a second.
    #: The cost parameters, ``random_state`` and ``budget`` are set by the tests, as the
    #: pipeline sets them per trial.
    conformance_cases: ClassVar[Mapping[str, Mapping[str, Any]]] = {"defaults": {}}

    # ------------------------------------------------------------------ parameters
    @classmethod
    def _get_param_names(cls) -> list[str]:
        signature = inspect.signature(cls.__init__)
        return sorted(
            name
            for name, p in signature.parameters.items()
            if name != "self" and p.kind != p.VAR_KEYWORD
        )

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does.

        Parameters
        ----------
        params : mapping
            Any subset of the constructor's parameters, e.g. a config entry's ``params``.

        Raises
        ------
        InvalidParameterError
            For an unknown name (the reason lists the valid ones) or a value outside the
            parameter's ``_parameter_constraints``; ``str()`` is ``"<parameter>: <reason>"``.
        """
        validate_params(cls.__name__, cls._parameter_constraints, params, cls._get_param_names())

    @classmethod
    def tunes(cls, params: Mapping[str, Any]) -> bool:
        """Whether an estimator of these parameters chooses anything (a trade-off, the size
        of its model) on a validation part of its training rows, by the protocol of
        :mod:`budgetboost.estimators.contract.tuning`; reports name each side's protocol."""
        return False

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Return the constructor arguments as a dict (``deep`` is accepted for sklearn)."""
        return {name: getattr(self, name) for name in self._get_param_names()}

    def set_params(self: _E, **params: Any) -> _E:
        """Set constructor arguments; unknown names raise :class:`InvalidParameterError`.

        Values are checked by ``fit`` (or :meth:`check_params`), as in scikit-learn.
        """
        valid = set(self._get_param_names())
        for name, value in params.items():
            if name not in valid:
                raise InvalidParameterError(
                    name,
                    f"unknown parameter of {type(self).__name__}"
                    f"; valid parameters are {sorted(valid)}",
                )
            setattr(self, name, value)
        return self

    def __repr__(self) -> str:
        defaults = {
            name: p.default
            for name, p in inspect.signature(type(self).__init__).parameters.items()
            if name != "self"
        }
        shown = []
        for name, value in self.get_params().items():
            default = defaults.get(name, inspect.Parameter.empty)
            if isinstance(value, np.ndarray) or value is not default and value != default:
                shown.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(shown)})"

    def __sklearn_is_fitted__(self) -> bool:
        return hasattr(self, "classes_")

    def __sklearn_tags__(self):  # pragma: no cover - exercised by check_estimator
        from sklearn.utils import ClassifierTags, InputTags, Tags, TargetTags

        return Tags(
            estimator_type="classifier",
            target_tags=TargetTags(required=True),
            classifier_tags=ClassifierTags(multi_class=False),
            input_tags=InputTags(),
        )

    # ------------------------------------------------------------------ the contract
    def fit(self: _E, X: Any, y: Any) -> _E:
        """Check the parameters and ``(X, y)``, then train.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Finite numbers (a DataFrame's string column names are remembered).
        y : array-like of shape (n_samples,)
            Exactly two distinct labels.

        Returns
        -------
        self
        """
        self.check_params(self.get_params())
        self._fit(self._training_data(X, y))
        return self

    def decision_function(self, X: Any) -> np.ndarray:
        """Score of each example under the fitted model: ``> 0`` predicts ``classes_[1]``.

        Returns
        -------
        ndarray of shape (n_samples,)
        """
        scores, _ = self._checked_scores_and_costs(self._validated(X), np.array([np.inf]))
        return scores[0]

    def predict(self, X: Any) -> np.ndarray:
        """Labels of the fitted model: ndarray of shape (n_samples,) of ``classes_``."""
        return self._labels(self.decision_function(X))

    def predict_at_budgets(self, X: Any, budgets: Any) -> np.ndarray:
        """Labels of the model at each budget.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        budgets : float or array-like of float
            Numbers >= 0 in any order; ``inf`` is the fitted model. Budgets above the
            fitted ``budget`` get the fitted model.

        Returns
        -------
        ndarray of shape (len(budgets), n_samples)
        """
        Xa = self._validated(X)
        scores, _ = self._checked_scores_and_costs(Xa, check_budgets(budgets))
        return self._labels(scores)

    def evaluate_at_budgets(self, X: Any, y: Any, budgets: Any) -> BudgetEvaluation:
        """Error and costs of the model at each budget.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True labels, each one of ``classes_``.
        budgets : float or array-like of float
            As in :meth:`predict_at_budgets`.

        Returns
        -------
        BudgetEvaluation
            One entry per budget: ``error`` of :meth:`predict_at_budgets` against ``y`` and
            the :class:`BudgetCosts` fields.
        """
        Xa = self._validated(X)
        labels = self._checked_y(y, Xa.shape[0])
        return self._evaluation(*self._checked_scores_and_costs(Xa, check_budgets(budgets)), labels)

    def groups_read(self, X: Any, budgets: Any) -> np.ndarray | None:
        """The feature groups each example's prediction reads at each budget.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        budgets : float or array-like of float
            As in :meth:`predict_at_budgets`.

        Returns
        -------
        ndarray of bool, shape (len(budgets), n_samples or 1, n_groups), or None
            ``[b, i, g]`` is true where example ``i``'s prediction at ``budgets[b]`` reads a
            column of feature group ``g`` (``group_of_column_`` gives each column's group); a
            middle axis of length 1 where every example reads the same groups. None when the
            estimator does not say (it implements no ``_groups_read``).
        """
        Xa = self._validated(X)
        grid = check_budgets(budgets)
        reads = self._groups_read(Xa, grid)
        if reads is None:
            return None
        owner = f"{type(self).__name__}._groups_read"
        check_reads_shape(owner, reads, grid, Xa.shape[0], self._n_groups())
        return np.asarray(reads, dtype=bool)

    def score(self, X: Any, y: Any) -> float:
        """Mean accuracy of ``predict(X)`` against ``y`` (checked as in evaluation)."""
        predicted = self.predict(X)
        return float(np.mean(predicted == self._checked_y(y, predicted.shape[0])))

    # ------------------------------------------------------------------ hooks
    def _fit(self, data: TrainingData) -> None:
        """Train on validated data (see the class docstring)."""
        raise NotImplementedError(f"{type(self).__name__} must implement _fit")

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Scores (len(budgets), n_samples) and costs at each budget (see the class docstring)."""
        raise NotImplementedError(f"{type(self).__name__} must implement _scores_and_costs")

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray | None:
        """The feature groups each example reads at each budget (see the class docstring);
        None: not said."""
        return None

    # ------------------------------------------------------------------ helpers
    def _training_data(self, X: Any, y: Any) -> TrainingData:
        """Validate ``X``, ``y``, ``feature_costs``, ``feature_groups`` and the discount
        groups, and record the input's shape, feature names, classes and majority class on
        the estimator."""
        Xa, y_raw = check_X_y(X, y, estimator=type(self).__name__)
        classes, ypm = encode_labels(y_raw)
        costs = check_feature_costs(getattr(self, "feature_costs", None), Xa.shape[1])
        group_of_column, group_cost = check_feature_groups(
            getattr(self, "feature_groups", None), costs
        )
        pricing = check_discount_groups(
            getattr(self, "discount_groups", None),
            getattr(self, "discount_costs", None),
            costs,
            group_of_column,
            group_cost,
        )
        self.classes_ = classes
        self.n_features_in_ = Xa.shape[1]
        self.group_of_column_ = group_of_column
        names = feature_names(X)
        if names is not None:
            self.feature_names_in_ = names
        self.majority_ = 1.0 if (ypm > 0).sum() > (ypm < 0).sum() else -1.0
        return TrainingData(Xa, ypm, classes, group_of_column, group_cost, pricing)

    def _validated(self, X: Any) -> np.ndarray:
        """``X`` checked against the fitted estimator (fitted, names, feature count)."""
        self._check_fitted()
        check_feature_names(self, X)
        return check_X(X, n_features=self.n_features_in_, estimator=type(self).__name__)

    def _checked_y(self, y: Any, n_samples: int) -> np.ndarray:
        """``y`` checked against the fitted classes and the rows of ``X``."""
        return check_y(y, n_samples, classes=self.classes_, estimator=type(self).__name__)

    def _check_fitted(self) -> None:
        if not self.__sklearn_is_fitted__():
            raise _not_fitted_error("sklearn.exceptions" in sys.modules)(
                f"This {type(self).__name__} instance is not fitted yet. "
                "Call 'fit' with appropriate arguments before using this estimator."
            )

    def _n_groups(self) -> int:
        """The number of feature groups of the fit."""
        return int(self.group_of_column_.max()) + 1 if self.group_of_column_.size else 0

    def _fitted_budget(self) -> float:
        """The ``budget`` parameter as a number: ``inf`` when it is None or the class has none."""
        budget = getattr(self, "budget", None)
        return np.inf if budget is None else float(budget)

    def _capped(self, budgets: np.ndarray) -> np.ndarray:
        """``budgets`` capped at the fitted ``budget`` (above it, the fitted model serves)."""
        return np.minimum(budgets, self._fitted_budget())

    def _labels(self, scores: np.ndarray) -> np.ndarray:
        """Labels of scores: ``classes_[1]`` where ``> 0``, else ``classes_[0]``."""
        return self.classes_[(scores > 0).astype(np.intp)]

    def _checked_scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """``_scores_and_costs``, its outputs checked against the contract (finite scores of
        the right shape, finite costs >= 0, nothing spent above the budget: see
        :mod:`budgetboost.estimators.contract.checks`), so that no subclass can break it unseen."""
        scores, costs = self._scores_and_costs(X, budgets)
        owner = f"{type(self).__name__}._scores_and_costs"
        if not isinstance(costs, BudgetCosts):
            raise TypeError(
                f"{owner} must return (scores, BudgetCosts); got costs of type "
                f"{type(costs).__name__}"
            )
        check_scores(owner, scores, budgets, X.shape[0])
        check_costs(owner, costs.as_dict(), budgets)
        return scores, costs

    def _evaluation(
        self, scores: np.ndarray, costs: BudgetCosts, y: np.ndarray
    ) -> BudgetEvaluation:
        """The record of checked scores (n_budgets, n_samples) and costs against checked
        labels."""
        error = (self._labels(scores) != y[None, :]).mean(axis=1)
        return BudgetEvaluation(error=error, **costs.as_dict())
