"""The paper's binarization of a raw table into 0/1 indicator columns.

Huang, Powers & Reyzin (2015), Section 6: "the features and labels were collapsed into
binary categories, and decision stumps were used". Each raw attribute becomes a block of
indicators, chosen per column kind by a method spec (from ``config/datasets.yaml``):

``{"method": "distinct"}``
    one indicator ``x >= v`` for every distinct value ``v`` above the attribute's minimum
    over the pooled table; this reproduces Table 1's counts (sonar 11196, ionosphere 8114,
    heart 371, ecoli 356).
``{"method": "quantiles", "k": k}``
    ``x >= q`` for the distinct observed quantiles ``q`` at levels ``i / (k + 1)``,
    ``i = 1..k``, above the minimum (at most ``k`` indicators; for wide-ranging attributes
    such as census' fnlwgt).
``{"method": "threshold", "value": v}``
    a single ``x >= v`` (MNIST pixels: ``v = 128``).
``{"method": "onehot", "categories": [...]}``
    one ``x == c`` per category; ``categories`` restricts and orders them (splice keeps
    A, C, G, T, so its ambiguity codes get no indicator), otherwise every observed value,
    sorted.

Missing values (null, NaN, ``'?'`` or an empty string) satisfy no comparison: all of that
attribute's indicators are 0 for the row. Indicators that are constant over the pooled
table carry no information for a stump and are dropped (``drop_constant``); this removes
MNIST's always-blank pixels.

The fitted indicators are plain dictionaries (``name``, ``attribute``, ``kind`` and
``threshold`` or ``category``) so they go straight into Parquet metadata and can explain a
stump as "sonar V11 >= 0.1973".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

__all__ = [
    "METHODS",
    "MISSING_STRINGS",
    "NotNumericError",
    "column_kind",
    "normalise_missing",
    "fit_attribute",
    "fit_indicators",
    "transform",
    "binarize_frame",
    "format_value",
]

METHODS = ("distinct", "quantiles", "threshold", "onehot")
MISSING_STRINGS = ("?", "")


class NotNumericError(ValueError):
    """An attribute that should hold numbers holds a value that is not one.

    Attributes
    ----------
    attribute : str
        The raw attribute (column).
    value : object
        Its first value that is not a number (e.g. ``'NA'`` read from a CSV as text).
    row : int
        The 0-based row of that value in the table being binarized.
    """

    def __init__(self, message: str, *, attribute: str, value: object, row: int):
        super().__init__(message)
        self.attribute, self.value, self.row = attribute, value, row


def _first_non_number(series: pd.Series) -> tuple[int, object] | None:
    """``(row, value)`` of the first present value that does not parse as a number."""
    values = series.astype(object)
    present = values.notna().to_numpy()
    parsed = pd.to_numeric(values.where(present, None), errors="coerce")
    bad = present & parsed.isna().to_numpy()
    if not bad.any():
        return None
    row = int(np.flatnonzero(bad)[0])
    return row, values.iloc[row]


def format_value(value: object) -> str:
    """Shortest readable form of a threshold or category (``0.1973``, ``128``, ``A``)."""
    if isinstance(value, (float, np.floating)):
        return np.format_float_positional(float(value), trim="-")
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    return str(value)


def column_kind(series: pd.Series) -> str:
    """``"numeric"`` for numeric/boolean dtypes, ``"categorical"`` otherwise."""
    if pd.api.types.is_numeric_dtype(series) or pd.api.types.is_bool_dtype(series):
        return "numeric"
    return "categorical"


def normalise_missing(series: pd.Series) -> pd.Series:
    """Return ``series`` with ``'?'``, empty and blank strings turned into nulls.

    Numeric columns are returned as float64 with NaN for missing entries.
    """
    if column_kind(series) == "numeric":
        return series.astype("float64")
    values = series.astype(object)
    stripped = values.where(values.isna(), values.astype(str).str.strip())
    return stripped.where(~stripped.isin(MISSING_STRINGS) & stripped.notna(), None)


def _numeric_thresholds(values: np.ndarray, method: Mapping[str, object]) -> np.ndarray:
    present = values[~np.isnan(values)]
    if present.size == 0:
        return np.empty(0)
    low = present.min()
    name = method["method"]
    if name == "distinct":
        thresholds = np.unique(present)
    elif name == "quantiles":
        k = int(method["k"])
        levels = np.arange(1, k + 1) / (k + 1)
        thresholds = np.unique(np.quantile(present, levels, method="inverted_cdf"))
    elif name == "threshold":
        thresholds = np.array([float(method["value"])])
    else:  # pragma: no cover - guarded by fit_attribute
        raise ValueError(name)
    return thresholds[thresholds > low]


def fit_attribute(attribute: str, series: pd.Series, method: Mapping[str, object]) -> list[dict]:
    """Indicator descriptions for one raw attribute under one method spec.

    Parameters
    ----------
    attribute : str
        Raw attribute name, used in the indicator names (``V11>=0.1973``, ``pos7=A``).
    series : pandas.Series
        The attribute over the pooled table, missing values already normalised.
    method : mapping
        ``{"method": "distinct" | "quantiles" | "threshold" | "onehot", ...}``.

    Returns
    -------
    list of dict
        One ``{"name", "attribute", "kind", "threshold" | "category"}`` per indicator.
    """
    name = method.get("method")
    if name not in METHODS:
        raise ValueError(
            f"attribute {attribute!r}: unknown binarization method {name!r}; "
            f"expected one of {METHODS}"
        )
    if name == "onehot":
        categories = method.get("categories")
        if categories is None:
            categories = sorted({format_value(v) for v in series.dropna().unique()})
        labels = [format_value(c) for c in categories]
        return [
            {"name": f"{attribute}={c}", "attribute": attribute, "kind": "category", "category": c}
            for c in labels
        ]
    if column_kind(series) != "numeric":
        first = _first_non_number(series)
        if first is None:  # text that all parses as numbers, e.g. an object column
            raise ValueError(
                f"attribute {attribute!r}: method {name!r} needs numbers, got "
                f"values like {series.dropna().astype(str).head(3).tolist()}"
            )
        row, value = first
        raise NotNumericError(
            f"attribute {attribute!r}: method {name!r} needs numbers, but its value "
            f"{value!r} at row {row} (0-based, header not counted) is not a number",
            attribute=attribute,
            value=value,
            row=row,
        )
    values = series.to_numpy(dtype=float, na_value=np.nan)
    infinite = np.flatnonzero(np.isinf(values))
    if infinite.size:
        row = int(infinite[0])
        raise NotNumericError(
            f"attribute {attribute!r}: its value {values[row]} at row {row} (0-based, "
            "header not counted) is not finite; a feature value is a finite number or missing",
            attribute=attribute,
            value=series.iloc[row],
            row=row,
        )
    thresholds = _numeric_thresholds(values, method)
    return [
        {
            "name": f"{attribute}>={format_value(t)}",
            "attribute": attribute,
            "kind": "threshold",
            "threshold": float(t),
        }
        for t in thresholds
    ]


def method_for(
    attribute: str, series: pd.Series, spec: Mapping[str, object]
) -> Mapping[str, object]:
    """The method spec of one attribute: ``spec["columns"][attribute]`` or its kind's."""
    overrides = spec.get("columns") or {}
    if attribute in overrides:
        return overrides[attribute]
    kind = column_kind(series)
    if kind not in spec:
        first = _first_non_number(series) if kind == "categorical" else None
        if first is None:
            raise ValueError(
                f"attribute {attribute!r} is {kind} but the binarization spec "
                f"has no {kind!r} method (keys: {sorted(spec)})"
            )
        row, value = first
        raise NotNumericError(
            f"attribute {attribute!r} is categorical, as its value {value!r} at row {row} "
            "(0-based, header not counted) is not a number, but the binarization spec has no "
            f"'categorical' method (keys: {sorted(spec)})",
            attribute=str(attribute),
            value=value,
            row=row,
        )
    return spec[kind]


def fit_indicators(frame: pd.DataFrame, spec: Mapping[str, object]) -> list[dict]:
    """Indicator descriptions for every column of ``frame``, in column order.

    ``spec`` maps a column kind (``numeric``, ``categorical``) to a method spec, with
    optional per-attribute overrides under ``columns``.
    """
    indicators: list[dict] = []
    for attribute in frame.columns:
        series = frame[attribute]
        indicators += fit_attribute(str(attribute), series, method_for(attribute, series, spec))
    return indicators


def transform(frame: pd.DataFrame, indicators: Sequence[Mapping[str, object]]) -> np.ndarray:
    """Evaluate ``indicators`` on ``frame``: a uint8 matrix (rows x indicators).

    Vectorised per raw attribute: one broadcast comparison of the column against all its
    thresholds (or category codes). Missing entries give 0 in every indicator.
    """
    out = np.zeros((len(frame), len(indicators)), dtype=np.uint8)
    if not indicators:
        return out
    attributes = np.array([ind["attribute"] for ind in indicators], dtype=object)
    kinds = np.array([ind["kind"] for ind in indicators], dtype=object)
    order = pd.unique(attributes)
    for attribute in order:
        idx = np.flatnonzero(attributes == attribute)
        series = frame[attribute]
        threshold_idx = idx[kinds[idx] == "threshold"]
        category_idx = idx[kinds[idx] == "category"]
        if threshold_idx.size:
            values = series.to_numpy(dtype=float, na_value=np.nan)
            thresholds = np.array([indicators[i]["threshold"] for i in threshold_idx])
            with np.errstate(invalid="ignore"):
                out[:, threshold_idx] = values[:, None] >= thresholds[None, :]
        if category_idx.size:
            out[:, category_idx] = _category_codes(
                series, [indicators[i]["category"] for i in category_idx]
            )
    return out


def _category_codes(series: pd.Series, categories: Sequence[str]) -> np.ndarray:
    """One-hot of ``series`` against ``categories`` (missing or other values: all 0)."""
    codes, uniques = pd.factorize(series, use_na_sentinel=True)
    lookup = {c: i for i, c in enumerate(categories)}
    # position in `categories` of each distinct observed value; -1 (last entry) for NA
    to_category = np.array([lookup.get(format_value(u), -1) for u in uniques] + [-1])
    category = to_category[codes]
    return category[:, None] == np.arange(len(categories))[None, :]


def binarize_frame(
    frame: pd.DataFrame, spec: Mapping[str, object], drop_constant: bool = True
) -> tuple[np.ndarray, list[dict]]:
    """Binarize a raw feature table (no label column) as the paper did.

    Parameters
    ----------
    frame : pandas.DataFrame
        Raw attributes, one column each; ``'?'``/empty strings count as missing.
    spec : mapping
        Per-kind method specs, e.g. ``{"numeric": {"method": "distinct"}}``.
    drop_constant : bool
        Drop indicators that take one value on every row.

    Returns
    -------
    X : numpy.ndarray of uint8, shape (rows, indicators)
    indicators : list of dict
        Description of each column of ``X``.
    """
    clean = pd.DataFrame(
        {col: normalise_missing(frame[col]) for col in frame.columns}, index=frame.index
    )
    indicators = fit_indicators(clean, spec)
    X = transform(clean, indicators)
    if drop_constant and X.shape[0] > 0:
        varying = X.min(axis=0) != X.max(axis=0)
        X = np.ascontiguousarray(X[:, varying])
        indicators = [ind for ind, keep in zip(indicators, varying, strict=True) if keep]
    names = [ind["name"] for ind in indicators]
    if len(set(names)) != len(names):
        dup = pd.Series(names)[pd.Series(names).duplicated()].iloc[0]
        raise ValueError(f"two indicators share the name {dup!r}; rename the attributes")
    return X, indicators
