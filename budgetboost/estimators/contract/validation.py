"""Input checks shared by the estimators.

Every check raises ``ValueError`` (``TypeError`` for sparse input) with a message that names
the argument and the offending value, so a bad call is diagnosed from the message alone.
"""

from __future__ import annotations

import sys
import warnings
from typing import Any

import numpy as np

from .params import InvalidParameterError
from .pricing import Pricing

__all__ = [
    "DataConversionWarning",
    "check_X",
    "check_X_y",
    "check_feature_costs",
    "check_feature_groups",
    "check_discount_groups",
    "check_budgets",
    "check_y",
    "encode_labels",
    "feature_names",
    "check_feature_names",
]


class DataConversionWarning(UserWarning):
    """A column-vector ``y`` was passed where a 1-d array was expected."""


def feature_names(X: Any) -> np.ndarray | None:
    """Column names of a DataFrame-like ``X`` when they are all strings, else ``None``."""
    columns = getattr(X, "columns", None)
    if columns is None:
        return None
    names = np.asarray(columns, dtype=object)
    if names.size and all(isinstance(n, str) for n in names):
        return names
    return None


def check_feature_names(estimator: Any, X: Any) -> None:
    """Warn or raise, as scikit-learn does, when prediction-time names differ from fit."""
    fitted = getattr(estimator, "feature_names_in_", None)
    given = feature_names(X)
    name = type(estimator).__name__
    if fitted is None and given is not None:
        warnings.warn(
            f"X has feature names, but {name} was fitted without feature names",
            UserWarning,
            stacklevel=3,
        )
    elif fitted is not None and given is None:
        warnings.warn(
            f"X does not have valid feature names, but {name} was fitted with feature names",
            UserWarning,
            stacklevel=3,
        )
    elif fitted is not None and (len(fitted) != len(given) or np.any(fitted != given)):
        raise ValueError(
            "The feature names should match those that were passed during fit.\n"
            f"Fitted with: {list(fitted)[:10]}; got: {list(given)[:10]}"
        )


def check_X(X: Any, *, n_features: int | None = None, estimator: str = "estimator") -> np.ndarray:
    """Return ``X`` as a finite 2-d float64 array (0/1 and integer data are kept exact).

    Missing values (NaN, ``None``, ``pd.NA``) raise a ``ValueError`` that names the column
    (its name for a DataFrame, its index otherwise) and the first row holding one.
    """
    if hasattr(X, "toarray") and hasattr(X, "nnz"):
        raise TypeError("X is a sparse matrix; sparse input is not supported, pass a dense array")
    if X is None:
        raise ValueError("X is None; expected a 2-d array of shape (n_samples, n_features)")
    arr = np.asarray(X)
    if np.iscomplexobj(arr):
        raise ValueError("Complex data not supported in X")
    if arr.dtype.kind not in "biuf":
        try:
            arr = arr.astype(np.float64)  # TypeError for non-numeric objects
        except (TypeError, ValueError):
            missing = _missing_mask(arr)
            if missing is not None and missing.any():
                raise _missing_values(X, missing) from None
            raise
    if arr.ndim != 2:
        raise ValueError(
            f"X must be 2-d (n_samples, n_features); got an array of shape {arr.shape}. "
            "Reshape your data either using array.reshape(-1, 1) if it has a single feature "
            "or array.reshape(1, -1) if it contains a single sample."
        )
    if arr.shape[0] == 0:
        raise ValueError(
            f"Found array with 0 sample(s) (shape={arr.shape}) while a minimum "
            "of 1 is required by X"
        )
    if arr.shape[1] == 0:
        raise ValueError(
            f"Found array with 0 feature(s) (shape={arr.shape}) while a minimum "
            "of 1 is required by X"
        )
    arr = np.asarray(arr, dtype=np.float64)
    if not np.isfinite(arr).all():
        missing = np.isnan(arr)
        if missing.any():
            raise _missing_values(X, missing)
        row, col = np.argwhere(~np.isfinite(arr))[0]
        raise ValueError(
            f"X contains an infinite value in column {_column(X, col)} (first at "
            f"row {row}: {arr[row, col]}); budgetboost needs finite values"
        )
    if n_features is not None and arr.shape[1] != n_features:
        raise ValueError(
            f"X has {arr.shape[1]} features, but {estimator} is expecting "
            f"{n_features} features as input"
        )
    return arr


def _missing_mask(arr: np.ndarray) -> np.ndarray | None:
    """Where an object array holds missing values (``pd.NA``, ``NaT``, ``None``, NaN).

    Only pandas creates ``pd.NA``; it is asked only when it is already imported.
    """
    pandas = sys.modules.get("pandas")
    if pandas is None or arr.ndim != 2:
        return None
    return np.asarray(pandas.isna(arr), dtype=bool)


def _column(X: Any, j: int) -> str:
    """Column ``j`` of ``X`` as shown in messages: its name for a DataFrame, else ``j``."""
    columns = getattr(X, "columns", None)
    return repr(columns[j]) if columns is not None else str(j)


def _missing_values(X: Any, missing: np.ndarray) -> ValueError:
    """The error for missing values at the True entries of ``missing`` (rows x columns)."""
    columns = np.flatnonzero(missing.any(axis=0))
    first = int(columns[0])
    row = int(np.flatnonzero(missing[:, first])[0])
    if columns.size == 1:
        where = f"column {_column(X, first)} (first at row {row})"
    else:
        shown = ", ".join(_column(X, int(j)) for j in columns[:5])
        more = ", ..." if columns.size > 5 else ""
        where = (
            f"{columns.size} columns [{shown}{more}] (first at row {row} of {_column(X, first)})"
        )
    return ValueError(
        f"X has missing values (NaN, None or NA) in {where}; budgetboost "
        "needs complete data: impute them, or drop those rows or columns"
    )


def check_y(
    y: Any, n_samples: int, *, classes: np.ndarray | None = None, estimator: str = "estimator"
) -> np.ndarray:
    """Return ``y`` as a 1-d array with one label per row of ``X``.

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Labels; a column vector is accepted with a ``DataConversionWarning``.
    n_samples : int
        Rows of ``X``.
    classes : ndarray, optional
        The classes seen in ``fit``: every label must be one of them (a ``y`` coded
        differently from the training labels, e.g. 0/1 after -1/+1, would otherwise be
        scored as all wrong or all right).
    estimator : str
        Name used in the message when ``y`` is ``None``.

    Raises
    ------
    ValueError
        Naming ``y`` and the offending shape, length or labels.
    """
    if y is None:
        raise ValueError(f"{estimator} requires y to be passed, but the target y is None")
    labels = np.asarray(y)
    if labels.ndim == 2 and labels.shape[1] == 1:
        warnings.warn(
            "A column-vector y was passed when a 1d array was expected. Please "
            "change the shape of y to (n_samples, ), for example using ravel().",
            DataConversionWarning,
            stacklevel=3,
        )
        labels = labels.ravel()
    if labels.ndim != 1:
        raise ValueError(f"y must be 1-d; got an array of shape {labels.shape}")
    if labels.shape[0] != n_samples:
        raise ValueError(
            f"X and y have inconsistent lengths: X has {n_samples} rows, "
            f"y has {labels.shape[0]} labels"
        )
    if classes is not None:
        unseen = ~np.isin(labels, classes)
        if unseen.any():
            values = list(dict.fromkeys(labels[unseen].tolist()))
            shown = f"{values[:5]}{' ...' if len(values) > 5 else ''}"
            raise ValueError(
                f"y has labels the estimator was not fitted on: {shown} (first "
                f"at row {int(np.flatnonzero(unseen)[0])}); the fitted classes "
                f"are {classes.tolist()}"
            )
    return labels


def check_X_y(X: Any, y: Any, *, estimator: str = "estimator") -> tuple[np.ndarray, np.ndarray]:
    """Validate training data: ``X`` as in :func:`check_X`, ``y`` as in :func:`check_y`."""
    if y is None:
        raise ValueError(f"{estimator} requires y to be passed, but the target y is None")
    arr = check_X(X, estimator=estimator)
    return arr, check_y(y, arr.shape[0], estimator=estimator)


def encode_labels(y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Map exactly two class labels to -1/+1 (the larger label is +1).

    Returns ``(classes, y_pm)``. Continuous targets and anything but two classes raise.
    """
    if y.dtype.kind == "f":
        if not np.isfinite(y).all():
            raise ValueError("y contains NaN or inf")
        if np.any(y != np.round(y)):
            raise ValueError(
                "Unknown label type: continuous. y must hold two class labels, "
                f"got values such as {y[y != np.round(y)][:3].tolist()}"
            )
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size != 2:
        shown = classes[:10].tolist()
        kind = "multiclass" if classes.size > 2 else "a single class"
        raise ValueError(
            f"y must contain exactly two classes; got {classes.size} "
            f"class{'es' if classes.size != 1 else ''}: {shown}. Only binary "
            f"classification is supported. The type of the target is {kind}."
        )
    return classes, (2 * codes - 1).astype(np.float64)


def check_feature_costs(costs: Any, n_features: int) -> np.ndarray:
    """Costs as a float64 vector of length ``n_features`` (default all 1).

    Their values (finite, >= 0) are checked by the estimator's parameter constraints; this
    checks what needs ``X``: one cost per column.
    """
    if costs is None:
        return np.ones(n_features)
    arr = np.asarray(costs, dtype=np.float64)
    if arr.ndim != 1 or arr.shape[0] != n_features:
        raise InvalidParameterError(
            "feature_costs",
            f"must have one cost per column of X ({n_features}); got shape {arr.shape}",
        )
    return arr


def check_feature_groups(groups: Any, costs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(group_of_column, group_cost)``; columns of one group share one cost.

    ``groups`` holds one label per column (default: each column its own group). All columns
    of a group must carry the same cost: the group is paid for once, at that cost.
    """
    n = costs.shape[0]
    if groups is None:
        return np.arange(n), costs.copy()
    labels = np.asarray(groups)
    if labels.ndim != 1 or labels.shape[0] != n:
        raise InvalidParameterError(
            "feature_groups", f"must have one label per column of X ({n}); got shape {labels.shape}"
        )
    _, index = np.unique(labels, return_inverse=True)
    group_cost = np.full(index.max() + 1, np.nan)
    group_cost[index] = costs
    mismatch = costs != group_cost[index]
    if mismatch.any():
        j = int(np.flatnonzero(mismatch)[0])
        raise InvalidParameterError(
            "feature_groups",
            f"columns of group {labels.tolist()[j]!r} have different costs "
            f"(column {j} costs {costs[j]}, the group "
            f"{group_cost[index[j]]}); a group is paid for once, at one cost",
        )
    return index, group_cost


#: How far the shared parts (``cost - discount``) of one discount group's columns may differ,
#: relative to the larger cost (at least 1): prices in cents differ by rounding only.
SHARED_TOLERANCE = 1e-9


def check_discount_groups(
    discount_groups: Any,
    discount_costs: Any,
    costs: np.ndarray,
    group_of_column: np.ndarray,
    group_cost: np.ndarray,
) -> Pricing:
    """The :class:`~budgetboost.estimators.contract.pricing.Pricing` of a fit's columns.

    ``discount_groups`` holds one label per column (integers; a negative label: no discount
    group) and ``discount_costs`` one price per column: what the column's test costs once
    another test of its discount group is paid for the example (ignored outside a discount
    group). Both or neither are given (neither: every feature group costs its
    ``feature_costs``). The columns of one feature group must share their discount group and
    discount price (they are one test), a discount price may not exceed the column's cost,
    and the tests of one discount group must share one part ``cost - discount`` (within
    :data:`SHARED_TOLERANCE`); the first column's is the group's.
    """
    if discount_groups is None and discount_costs is None:
        return Pricing.plain(group_cost)
    for name, value, other in (
        ("discount_groups", discount_groups, "discount_costs"),
        ("discount_costs", discount_costs, "discount_groups"),
    ):
        if value is None:
            raise InvalidParameterError(name, f"must be given with {other} (or neither)")
    n = costs.shape[0]
    labels = np.asarray(discount_groups)
    discount = np.asarray(discount_costs, dtype=np.float64)
    for name, array in (("discount_groups", labels), ("discount_costs", discount)):
        if array.ndim != 1 or array.shape[0] != n:
            raise InvalidParameterError(
                name, f"must have one entry per column of X ({n}); got shape {array.shape}"
            )
    if labels.dtype.kind not in "iuf" or not np.all(np.isfinite(labels)):
        raise InvalidParameterError(
            "discount_groups", "must hold numbers (integers; negative: no discount group)"
        )
    if np.any(labels != np.round(labels)):
        j = int(np.flatnonzero(labels != np.round(labels))[0])
        raise InvalidParameterError(
            "discount_groups", f"must hold integers; got {labels[j]} for column {j}"
        )
    grouped = labels >= 0
    values, inverse = np.unique(labels[grouped], return_inverse=True)
    column_group = np.full(n, -1, dtype=np.intp)
    column_group[grouped] = inverse
    discount = np.where(grouped, discount, costs)
    over = discount > costs
    if over.any():
        j = int(np.flatnonzero(over)[0])
        raise InvalidParameterError(
            "discount_costs",
            f"column {j}'s discount price {discount[j]} exceeds its cost {costs[j]}",
        )
    first = np.unique(group_of_column, return_index=True)[1][group_of_column]
    for name, per_column in (("discount_groups", column_group), ("discount_costs", discount)):
        differ = per_column != per_column[first]
        if differ.any():
            j = int(np.flatnonzero(differ)[0])
            i = int(first[j])
            raise InvalidParameterError(
                name,
                f"columns {i} and {j} of one feature group differ ({per_column[i]} and "
                f"{per_column[j]}); a feature group is one test",
            )
    if not values.size:  # no column in a discount group: the plain prices
        return Pricing.plain(group_cost)
    part = costs - discount
    leader = np.flatnonzero(grouped)[np.unique(inverse, return_index=True)[1]]
    shared = part[leader]
    gap = np.abs(part - shared[np.maximum(column_group, 0)])
    bad = grouped & (gap > SHARED_TOLERANCE * np.maximum(1.0, costs))
    if bad.any():
        j = int(np.flatnonzero(bad)[0])
        i = int(leader[column_group[j]])
        raise InvalidParameterError(
            "discount_costs",
            f"columns {i} and {j} of discount group {values[column_group[j]]:g} share "
            f"different parts (cost - discount: {part[i]} and {part[j]}); the tests of a "
            "discount group share one part, paid once",
        )
    return Pricing.from_columns(group_of_column, group_cost, column_group, discount, shared)


def check_budgets(budgets: Any, *, increasing: bool = False) -> np.ndarray:
    """Budgets as a 1-d float64 array, each a number >= 0 (``inf``: unlimited).

    Parameters
    ----------
    budgets : float or array-like of float
        A budget or a list of them, in any order for the estimators.
    increasing : bool, default=False
        Also require at least one budget, in strictly increasing order: the pipeline's
        budget grid, whose last budget is the largest (one anytime fit serves the grid) and
        in which no budget appears twice (one shard row per trial and budget).

    Raises
    ------
    ValueError
        Naming the offending budget(s).
    """
    try:
        arr = np.atleast_1d(np.asarray(budgets, dtype=np.float64))
    except (TypeError, ValueError):
        raise ValueError(f"budgets must be numbers >= 0 (or inf); got {budgets!r}") from None
    if arr.ndim != 1:
        raise ValueError(f"budgets must be 1-d; got shape {arr.shape}")
    bad = np.isnan(arr) | (arr < 0)
    if bad.any():
        raise ValueError(f"budgets must be numbers >= 0 (or inf); got {arr[bad][0]}")
    if increasing:
        if arr.size == 0:
            raise ValueError("the budget grid is empty")
        if np.any(arr[1:] <= arr[:-1]):
            raise ValueError(f"budgets must be strictly increasing; got {arr.tolist()}")
    return arr
