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
from typing import Any

import numpy as np

__all__ = ["BudgetedEstimator", "NotFittedError"]


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

    def _check_fitted(self) -> None:
        if not self.__sklearn_is_fitted__():
            raise _not_fitted_error("sklearn.exceptions" in sys.modules)(
                f"This {type(self).__name__} instance is not fitted yet. "
                "Call 'fit' with appropriate arguments before using this estimator."
            )

    def score(self, X: Any, y: Any) -> float:
        """Mean accuracy of ``predict(X)`` against ``y``."""
        return float(np.mean(self.predict(X) == np.asarray(y)))
