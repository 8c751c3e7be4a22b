"""A small scikit-learn-compatible estimator base, without a runtime scikit-learn dependency.

scikit-learn is a test dependency only. This base gives ``get_params`` / ``set_params`` (so
``sklearn.base.clone`` works), a ``repr``, ``score`` and the ``__sklearn_tags__`` hook that
``sklearn.utils.estimator_checks.check_estimator`` reads; the hook imports scikit-learn lazily,
which is only ever called by scikit-learn itself.
"""

from __future__ import annotations

import functools
import inspect
import sys
from typing import Any, NamedTuple

import numpy as np

from ._validation import (
    check_feature_costs,
    check_feature_groups,
    check_feature_names,
    check_X,
    check_X_y,
    encode_labels,
    feature_names,
)

__all__ = ["BudgetedEstimator", "NotFittedError", "TrainingData"]


class TrainingData(NamedTuple):
    """Validated training input shared by every estimator's ``fit``."""

    X: np.ndarray  # float64, finite
    y: np.ndarray  # -1/+1
    classes: np.ndarray  # the two original labels; classes[1] is +1
    group_of_column: np.ndarray  # feature group index of each column
    group_cost: np.ndarray  # cost of each group (paid once)


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
    """Base class of the budgetboost classifiers: parameters, tags and accuracy score."""

    _estimator_type = "classifier"

    @classmethod
    def _get_param_names(cls) -> list[str]:
        signature = inspect.signature(cls.__init__)
        return sorted(
            name
            for name, p in signature.parameters.items()
            if name != "self" and p.kind != p.VAR_KEYWORD
        )

    def get_params(self, deep: bool = True) -> dict[str, Any]:
        """Return the constructor arguments as a dict (``deep`` is accepted for sklearn)."""
        return {name: getattr(self, name) for name in self._get_param_names()}

    def set_params(self, **params: Any) -> BudgetedEstimator:
        """Set constructor arguments; unknown names raise ``ValueError``."""
        valid = set(self._get_param_names())
        for name, value in params.items():
            if name not in valid:
                raise ValueError(
                    f"Invalid parameter {name!r} for {type(self).__name__}; "
                    f"valid parameters are {sorted(valid)}"
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

    def _training_data(self, X: Any, y: Any) -> TrainingData:
        """Validate ``X``, ``y``, ``feature_costs`` and ``feature_groups``, and record the
        input's shape, feature names, classes and majority class on the estimator."""
        Xa, y_raw = check_X_y(X, y, estimator=type(self).__name__)
        classes, ypm = encode_labels(y_raw)
        costs = check_feature_costs(self.feature_costs, Xa.shape[1])
        group_of_column, group_cost = check_feature_groups(self.feature_groups, costs)
        self.classes_ = classes
        self.n_features_in_ = Xa.shape[1]
        names = feature_names(X)
        if names is not None:
            self.feature_names_in_ = names
        self.majority_ = 1.0 if (ypm > 0).sum() > (ypm < 0).sum() else -1.0
        return TrainingData(Xa, ypm, classes, group_of_column, group_cost)

    def _validated(self, X: Any) -> np.ndarray:
        """``X`` checked against the fitted estimator (fitted, names, feature count)."""
        self._check_fitted()
        check_feature_names(self, X)
        return check_X(X, n_features=self.n_features_in_, estimator=type(self).__name__)

    def _check_fitted(self) -> None:
        if not self.__sklearn_is_fitted__():
            raise _not_fitted_error("sklearn.exceptions" in sys.modules)(
                f"This {type(self).__name__} instance is not fitted yet. "
                "Call 'fit' with appropriate arguments before using this estimator."
            )

    def score(self, X: Any, y: Any) -> float:
        """Mean accuracy of ``predict(X)`` against ``y``."""
        return float(np.mean(self.predict(X) == np.asarray(y)))
