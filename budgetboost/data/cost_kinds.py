"""The built-in kinds of cost model, each one entry of :mod:`budgetboost.data.cost_registry`.

A spec is ``{"model": kind, ...parameters}``; each trial's draws come from the trial's own
stream (:class:`~budgetboost.data.cost_registry.Trial`):

``uniform_random`` ``{low, high}``
    i.i.d. ``U[low, high]`` per column (Huang et al. 2015: ``U[0, 2]``; Reyzin 2011:
    ``U[0, 1]``).
``constant`` ``{value}``
    every column costs ``value``.
``discrete`` ``{values, probabilities}``
    i.i.d. draws from a finite set (e.g. the paper's Webscope costs
    ``{.1, .5, 1, 2, 5, 10, 15, 20}``).
``per_attribute`` ``{low, high}``
    one ``U[low, high]`` draw per raw attribute, shared by its indicators, which are paid
    for together (``grouped``).
``real`` ``{file, scale, prices}``
    costs per raw attribute from a ``feature,cost`` file (default: the dataset's
    ``cost_file``, e.g. Turney's heart test costs), times ``scale`` (``grouped``). A file
    with ``group`` and ``discount_cost`` columns (Turney's discount groups: the tests of a
    group share the part ``cost - discount_cost``, paid once per example, and each test
    read adds its ``discount_cost``) hands both on per column (``extra``), and every method
    is charged with them. ``prices`` replaces the file's price of the attributes it names:
    a number, or null for a test that is *not offered* (cost ``inf``: the train job drops
    its columns); an attribute the file leaves without a price must be named there.
``correlated`` ``{low, high, noise, quality}``
    the paper's adversarial future work (Section 8): costs increase with a column's
    stand-alone edge ``|gamma_j| = |mean_i y_i (2 x_ij - 1)|`` (uniform weights, ``y`` in
    -1/+1) on the trial's *training rows only* (the test rows are never read), so the
    informative columns are the expensive ones. With ``u_j`` the edge's rank scaled to
    [0, 1] (ties share their average rank) and ``e_j ~ U[0, 1]`` drawn from the trial's
    seed, ``c_j = low + (high - low) ((1 - noise) u_j + noise e_j)``: ``noise = 0`` orders
    costs exactly by edge, ``noise = 1`` is ``uniform_random``. The scaled ranks average
    exactly 1/2, so the mean cost is ``(low + high) / 2`` (1 for ``low: 0, high: 2``, as
    ``U[0, 2]``): exactly without noise, in expectation with it. The Spearman correlation of
    cost and edge is about 0.99 at ``noise = 0.1``, 0.95 at 0.25 and 0.70 at 0.5 (heart,
    ionosphere, census, ocr17). Caveat: the edge of ``2 x - 1`` includes the constant
    predictor's ``|mean y|``, so on imbalanced data a nearly constant (rare) indicator has a
    large edge; on census (76 % negative) the edge's rank is *anti*-correlated with
    ``|corr(x_j, y)|`` (Spearman -0.38) and the model is not adversarial there. ``quality:
    correlation`` ranks by ``|corr(x_j, y)|`` on the training rows instead (0 for a constant
    column), which a constant predictor cannot inflate: the benchmark's ``adversarial`` cost
    model uses it (default ``quality: edge``).
``few_cheap`` ``{fraction, cheap, expensive}``
    a few cheap features among expensive ones: ``round(fraction * n)`` of the ``n`` columns
    (rounded half up), chosen at random per trial, cost ``U[cheap[0], cheap[1]]``, the rest
    ``U[expensive[0], expensive[1]]``. Defaults ``fraction: 0.1``, ``cheap: [0, 0.2]``,
    ``expensive: [1.5, 2.5]`` (mean cost about 1.81; a budget of 2 buys about one expensive
    feature or ten cheap ones).

``uniform_random``, ``constant``, ``discrete`` and ``few_cheap`` accept ``grouped: true`` to
draw per raw attribute instead of per column (``few_cheap``: a fraction of the attributes is
cheap).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from budgetboost.data.cost_registry import (
    MAX_COST,
    ColumnCosts,
    SpecError,
    Trial,
    cost_kind,
    interval,
    number,
    pair,
    too_large,
)
from budgetboost.data.io import SmallFileError, read_small_text
from budgetboost.estimators.contract.validation import SHARED_TOLERANCE  # the contract's, too

__all__ = [
    "check_attributes",
    "COST_FILE_COLUMNS",
    "MAX_COST_FILE_BYTES",
    "FEW_CHEAP_DEFAULTS",
    "NOT_OFFERED",
    "QUALITIES",
    "read_attribute_costs",
    "read_test_costs",
]

#: Defaults of ``few_cheap``.
FEW_CHEAP_DEFAULTS = {"fraction": 0.1, "cheap": (0.0, 0.2), "expensive": (1.5, 2.5)}


# --------------------------------------------------------------------------- drawn per column
@cost_kind("uniform_random", keys=("low", "high"), read=interval, grouped=None)
def uniform_random(trial: Trial, bounds: tuple[float, float]) -> ColumnCosts:
    low, high = bounds
    return trial.per_unit(lambda n: trial.rng.uniform(low, high, size=n))


def _value(where: str, spec: Mapping[str, object]) -> float:
    return number(where, spec, "value")


@cost_kind("constant", keys=("value",), read=_value, grouped=None)
def constant(trial: Trial, value: float) -> ColumnCosts:
    return trial.per_unit(lambda n: np.full(n, value))


def _finite_set(where: str, spec: Mapping[str, object]) -> tuple[np.ndarray, np.ndarray]:
    """The ``values`` and ``probabilities`` of a ``discrete`` model, checked."""
    try:
        values = np.asarray(spec.get("values", []), dtype=float).reshape(-1)
        probs = np.asarray(spec.get("probabilities", []), dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise SpecError(
            where,
            "values",
            "values and probabilities must be lists of "
            f"numbers; got {spec.get('values')!r}, "
            f"{spec.get('probabilities')!r}",
        ) from None
    if values.size == 0 or values.shape != probs.shape:
        raise SpecError(
            where,
            "values",
            "values and probabilities must be non-empty lists "
            f"of equal length; got {values.size} and {probs.size}",
        )
    if (~np.isfinite(values)).any() or (values < 0).any():
        raise SpecError(where, "values", f"must be finite and >= 0; got {values.tolist()}")
    if (values > MAX_COST).any():
        raise SpecError(where, "values", too_large(float(values.max())))
    if (~np.isfinite(probs)).any() or (probs < 0).any() or abs(probs.sum() - 1) > 1e-9:
        raise SpecError(where, "probabilities", f"must be >= 0 and sum to 1; got {probs.tolist()}")
    return values, probs


@cost_kind("discrete", keys=("values", "probabilities"), read=_finite_set, grouped=None)
def discrete(trial: Trial, law: tuple[np.ndarray, np.ndarray]) -> ColumnCosts:
    values, probs = law
    return trial.per_unit(lambda n: trial.rng.choice(values, size=n, p=probs))


@cost_kind("per_attribute", keys=("low", "high"), read=interval, grouped=True)
def per_attribute(trial: Trial, bounds: tuple[float, float]) -> ColumnCosts:
    low, high = bounds
    return trial.per_unit(lambda n: trial.rng.uniform(low, high, size=n))


# --------------------------------------------------------------------------- real test costs
#: The largest cost file read (10 MiB: Turney's heart costs are 200 bytes).
MAX_COST_FILE_BYTES = 10 << 20
#: The columns of a cost file: ``feature`` and ``cost``, optionally ``group`` and
#: ``discount_cost`` (Turney's discount groups).
COST_FILE_COLUMNS = ("feature", "cost", "group", "discount_cost")


def read_test_costs(path: str | os.PathLike) -> pd.DataFrame:
    """The tests of a cost file, one row per attribute, indexed by ``feature``.

    Two formats: a CSV with columns ``feature`` and ``cost``, and optionally ``group`` and
    ``discount_cost`` (Turney's discount groups: the tests of a group share the part ``cost -
    discount_cost``, paid once per example; each test read adds its ``discount_cost``), or
    plain text with one cost per line, line ``i`` giving attribute ``f{i}`` (the SVMlight
    feature numbering of the Webscope reader).

    Returns a frame with columns ``cost`` (NaN: the file gives no price, an empty cell),
    ``group`` (``""``: none) and ``discount_cost`` (``cost`` outside a group).

    Raises
    ------
    ValueError
        Naming the file and the attribute: a cost or discount that is not a number or not
        finite and >= 0, an attribute listed twice, a discount above its cost or missing in
        a group, a group whose tests share different parts, a price missing in a group.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"cost file {path} not found")
    try:
        text = read_small_text(path, MAX_COST_FILE_BYTES)
    except SmallFileError as exc:
        raise ValueError(f"cost file {exc}") from None
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        raise ValueError(f"cost file {path} is empty")
    try:
        float(lines[0].split(",")[0])
        plain = True
    except ValueError:
        plain = False
    if plain:
        costs = []
        for line_number, line in enumerate(lines, start=1):
            try:
                costs.append(float(line.split(",")[-1]))
            except ValueError:
                raise ValueError(
                    f"cost file {path}: cost {_shown(line.split(',')[-1])} of attribute "
                    f"f{line_number} (non-blank line {line_number}) is not a number"
                ) from None
        frame = pd.DataFrame({"feature": [f"f{i}" for i in range(1, len(costs) + 1)]})
        frame["cost"], frame["group"], frame["discount_cost"] = costs, "", costs
        _checked_costs(path, dict(zip(frame["feature"], frame["cost"], strict=True)))
        return frame.set_index("feature")
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, ValueError):
        raise ValueError(
            f"cost file {path}: not a CSV table of 'feature,cost' rows (nor one cost per line)"
        ) from None
    frame.columns = [str(c).strip() for c in frame.columns]  # a header of `feature , cost`
    if not {"feature", "cost"} <= set(frame.columns):
        raise ValueError(
            f"cost file {path}: needs a header line with the columns 'feature' and 'cost' "
            f"(its first line has {len(frame.columns)} comma-separated fields, neither "
            f"named so): {_separator_hint(frame.columns)}"
        )
    padded = frame["feature"] != frame["feature"].str.strip()
    if padded.any():
        name = frame.loc[padded, "feature"].iloc[0]
        raise ValueError(
            f"cost file {path}: attribute name {_shown(name)} has spaces around it; names "
            f"are matched exactly against the dataset's attributes: write {_shown(name.strip())}"
        )
    repeated = frame["feature"].duplicated(keep=False)
    if repeated.any():
        name = frame.loc[repeated, "feature"].iloc[0]
        given = frame.loc[frame["feature"] == name, "cost"].tolist()
        times = "twice" if len(given) == 2 else f"{len(given)} times"
        raise ValueError(
            f"cost file {path}: attribute {_shown(name)} is listed {times} (costs "
            f"{', '.join(value[:20] for value in given[:5])}); keep one row per attribute"
        )
    frame = frame.reindex(columns=list(COST_FILE_COLUMNS), fill_value="")
    frame["feature"] = frame["feature"].astype(str)
    cost = _numbers(path, frame, "cost")
    _checked_costs(path, dict(zip(frame["feature"], cost, strict=True)), unpriced=True)
    group = frame["group"].str.strip()
    discount = _numbers(path, frame, "discount_cost")
    _checked_costs(path, dict(zip(frame["feature"], discount, strict=True)), unpriced=True)
    out = pd.DataFrame(
        {
            "cost": cost.to_numpy(),
            "group": group.to_numpy(),
            "discount_cost": discount.fillna(cost).to_numpy(),
        },
        index=pd.Index(frame["feature"], name="feature"),
    )
    _check_groups(path, out)
    return out


#: Separators a cost file written with another one shows in its one-field header.
_SEPARATORS = (";", "\t", "|")


def _separator_hint(columns: pd.Index) -> str:
    """What a header without 'feature' and 'cost' suggests: a file separated otherwise (a
    cost file is read with commas only), else not a cost table."""
    if len(columns) == 1:
        for sep in _SEPARATORS:
            if sep in str(columns[0]):
                return (
                    f"its header is one field, {_shown(str(columns[0]))}: a file separated "
                    f"by {sep!r}? A cost file is read with commas: write 'feature,cost' rows"
                )
    return "not a cost table?"


def _numbers(path: Path, frame: pd.DataFrame, column: str) -> pd.Series:
    """A column of numbers, NaN where the cell is empty; anything else is an error."""
    text = frame[column].str.strip()
    values = pd.to_numeric(text.where(text != ""), errors="coerce")
    bad = values.isna() & (text != "")
    if bad.any():
        name, given = frame.loc[bad, "feature"].iloc[0], text[bad].iloc[0]
        what = "cost" if column == "cost" else "discount cost"
        raise ValueError(
            f"cost file {path}: {what} of {_shown(name)} is not a number: {_shown(given)}"
        )
    return values.astype(float)


def _check_groups(path: Path, tests: pd.DataFrame) -> None:
    """A group's tests are priced, each discount at most its cost, one shared part each."""
    grouped = tests[tests["group"] != ""]
    unpriced = grouped.index[grouped["cost"].isna()]
    if len(unpriced):
        raise ValueError(
            f"cost file {path}: {unpriced[0]!r} is in group {grouped.loc[unpriced[0], 'group']!r} "
            "but has no cost"
        )
    over = grouped.index[grouped["discount_cost"] > grouped["cost"]]
    if len(over):
        row = grouped.loc[over[0]]
        raise ValueError(
            f"cost file {path}: discount cost of {over[0]!r} ({row['discount_cost']}) exceeds "
            f"its cost ({row['cost']})"
        )
    part = grouped["cost"] - grouped["discount_cost"]
    first = part.groupby(grouped["group"], sort=False).transform("first")
    tolerance = SHARED_TOLERANCE * np.maximum(1.0, grouped["cost"])
    differ = grouped.index[(part - first).abs() > tolerance]
    if len(differ):
        name = differ[0]
        group = grouped.loc[name, "group"]
        leader = grouped.index[grouped["group"] == group][0]
        raise ValueError(
            f"cost file {path}: the tests of group {group!r} share different parts (cost - "
            f"discount_cost: {part[leader]:g} for {leader!r}, {part[name]:g} for {name!r}); "
            "a group's shared part is paid once, so it must be one number"
        )


def read_attribute_costs(path: str | os.PathLike) -> dict[str, float]:
    """Per raw attribute costs of a cost file (:func:`read_test_costs`; NaN: no price)."""
    return read_test_costs(path)["cost"].to_dict()


def _checked_costs(path: Path, costs: dict[str, float], unpriced: bool = False) -> dict[str, float]:
    """``costs``, unless one is not finite or negative (a negative cost would let a model
    buy budget by reading a feature; an infinite one makes every budget unreachable); with
    ``unpriced``, NaN (an empty cell: no price given) passes."""
    for name, cost in costs.items():
        if unpriced and np.isnan(cost):
            continue
        if not (np.isfinite(cost) and cost >= 0):
            raise ValueError(
                f"cost file {path}: cost of {_shown(name)} is {cost} (costs must be finite "
                "and >= 0)"
            )
        if cost > MAX_COST:
            raise ValueError(f"cost file {path}: cost of {_shown(name)}: {too_large(cost)}")
    return costs


def _shown(value: object, limit: int = 40) -> str:
    """A value of a file, quoted and cut to ``limit`` characters (never a file's content)."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _real_spec(where: str, spec: Mapping[str, object]) -> None:
    if "file" in spec and not (isinstance(spec["file"], str) and spec["file"]):
        raise SpecError(where, "file", f"must be a file path; got {spec['file']!r}")
    if "scale" in spec:
        number(where, spec, "scale")
    prices = spec.get("prices", {})
    if not isinstance(prices, Mapping) or not all(isinstance(k, str) for k in prices):
        raise SpecError(
            where, "prices", f"must map attribute names to a price or null; got {prices!r}"
        )
    for name, price in prices.items():
        if price is not None:
            try:
                number(where, prices, name)
            except SpecError as err:
                raise SpecError(where, f"prices.{name}", err.reason) from None


#: The prices of a test that is not offered: no budget reaches it (the train job drops its
#: columns, so no method reads it).
NOT_OFFERED = math.inf


@cost_kind(
    "real",
    keys=("file", "scale", "prices"),
    read=_real_spec,
    grouped=True,
    read_file=read_test_costs,
)
def real(trial: Trial, _: None) -> ColumnCosts:
    """Real test prices per raw attribute from a cost file, times ``scale``.

    Where the file has Turney's discount groups (``group``, ``discount_cost``), the kind
    hands on each column's discount price and discount group (an integer, ``-1``: none) as
    ``extra`` ``discount_cost`` and ``discount_group``. ``prices`` (attribute -> price, or
    null) replaces the file's price of the attributes it names: a number prices the test
    alone (no group), null means the test is *not offered* (its columns cost ``inf``: the
    train job drops them, so no method can read them). An attribute the file lists without a
    price must be named there.
    """
    where, spec, data = trial.where, trial.spec, trial.data
    file = spec.get("file") or data.meta.get("cost_file")
    if not file:
        raise ValueError(
            f"{where}: model 'real' needs a cost `file` (or a cost_file in the "
            "dataset's registry entry)"
        )
    path = Path(file) if Path(file).is_absolute() else trial.root / file
    scale = number(where, spec, "scale", float(data.meta.get("cost_scale") or 1))
    try:
        tests = read_test_costs(path)
    except (ValueError, FileNotFoundError) as err:
        raise type(err)(f"{where}: {err}") from err
    attributes = [str(a) for a in data.meta["attributes"]]
    label = str((data.meta.get("label") or {}).get("column", ""))
    if label in tests.index:
        raise ValueError(f"{where}: cost file {path} {label_priced(label)}")
    prices = dict(spec.get("prices") or {})
    unknown = [a for a in prices if a not in attributes]
    if unknown:
        raise ValueError(f"{where}: spec.prices names {unknown[:5]}, not attributes of the data")
    missing = [a for a in attributes if a not in tests.index and a not in prices]
    if missing:
        raise ValueError(f"{where}: cost file {path} has no cost for attribute(s) {missing[:5]}")
    tests = tests.reindex(attributes)
    unpriced = [a for a in attributes if np.isnan(tests.loc[a, "cost"]) and a not in prices]
    if unpriced:
        raise ValueError(
            f"{where}: cost file {path} gives no price for {unpriced[:5]}: name them under "
            "the spec's `prices` (a price, or null: the test is not offered)"
        )
    for name, price in prices.items():
        value = NOT_OFFERED if price is None else float(price)
        tests.loc[name, ["cost", "group", "discount_cost"]] = [value, "", value]
    cost = scale * tests["cost"].to_numpy(dtype=float)
    groups = sorted(set(tests["group"]) - {""})
    if not groups:
        return ColumnCosts(cost[data.groups])
    label = tests["group"].map({g: i for i, g in enumerate(groups)}).fillna(-1).to_numpy(float)
    discount = scale * tests["discount_cost"].to_numpy(dtype=float)
    extra = {"discount_cost": discount[data.groups], "discount_group": label[data.groups]}
    return ColumnCosts(cost[data.groups], extra)


# --------------------------------------------------------------------------- by the training rows
def label_priced(label: str) -> str:
    """What is wrong with a cost file that prices the label column."""
    return (
        f"prices the label column {label!r}: no method reads the label (remove its row, or "
        "is the registry's label column another one?)"
    )


def check_attributes(
    path: str | os.PathLike,
    tests: pd.DataFrame,
    columns: Sequence[str],
    attributes: Sequence[str],
    label: str,
    prices: Mapping[str, object],
) -> None:
    """A cost file's tests against the dataset it prices (``columns``: its source's columns;
    ``attributes``: those it binarizes): no price for the label or for a column the source
    does not have (it would be ignored, and a typo would leave its attribute unpriced), and a
    price, in the file (not an empty cell) or under the spec's ``prices``, for every
    attribute.

    Raises
    ------
    ValueError
        Naming the file and the first attribute(s) at fault.
    """
    if label in tests.index:
        raise ValueError(f"cost file {path} {label_priced(label)}")
    unknown = [t for t in tests.index if t not in set(columns)]
    if unknown:
        raise ValueError(
            f"cost file {path} prices {unknown[:5]}, not columns of the dataset (its "
            f"columns: {list(columns)[:8]}{', ...' if len(columns) > 8 else ''})"
        )
    missing = [a for a in attributes if a not in tests.index and a not in prices]
    if missing:
        raise ValueError(
            f"cost file {path} has no cost for attribute(s) {missing[:5]} (price them in the "
            "file, or under the spec's `prices`: a price, or null: the test is not offered)"
        )
    given = tests["cost"].reindex([a for a in attributes if a not in prices])
    unpriced = given.index[given.isna()].tolist()
    if unpriced:
        raise ValueError(
            f"cost file {path} gives no price for {unpriced[:5]} (an empty cost cell): price "
            "them in the file, or name them under the spec's `prices` (a price, or null: the "
            "test is not offered)"
        )


def _edges(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Stand-alone edge ``|mean y (2x - 1)|`` of every column."""
    return np.abs((2.0 * (y @ X) - y.sum()) / len(y))


def _correlations(X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """``|corr(x_j, y)|`` of every column (0 for a constant column)."""
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    scale = np.sqrt((Xc * Xc).sum(axis=0) * (yc @ yc))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(scale > 0, np.abs(yc @ Xc) / scale, 0.0)


#: Column qualities the ``correlated`` model can rank by, on the training rows.
QUALITIES = {"edge": _edges, "correlation": _correlations}


def _correlated_spec(where: str, spec: Mapping[str, object]) -> tuple[float, float, float, str]:
    low, high = interval(where, spec)
    noise = number(where, spec, "noise")
    if noise > 1:
        raise SpecError(where, "noise", f"must lie in [0, 1]; got {spec['noise']!r}")
    quality = spec.get("quality", "edge")
    if quality not in QUALITIES:
        raise SpecError(where, "quality", f"must be one of {list(QUALITIES)}; got {quality!r}")
    return low, high, noise, str(quality)


@cost_kind("correlated", keys=("low", "high", "noise", "quality"), read=_correlated_spec)
def correlated(trial: Trial, parameters: tuple[float, float, float, str]) -> ColumnCosts:
    low, high, noise, quality = parameters
    train = trial.training_rows()
    X = trial.data.X[train].astype(np.float64)
    y = trial.data.y[train].astype(np.float64)
    score = QUALITIES[quality](X, y)
    n = score.size
    # ties (duplicate columns) share their average rank; pandas' rank, as scipy.stats'
    # rankdata, whose import costs ~1 s of CPU in every job with this cost model
    average = pd.Series(score).rank(method="average").to_numpy(dtype=np.float64)
    rank = (average - 1) / max(n - 1, 1)
    mix = (1.0 - noise) * rank + noise * trial.rng.uniform(size=n)
    return ColumnCosts(low + (high - low) * mix)


# --------------------------------------------------------------------------- a few cheap
def _few_cheap_spec(where: str, spec: Mapping[str, object]) -> tuple[float, tuple, tuple]:
    """``fraction``, ``cheap`` and ``expensive`` of a ``few_cheap`` model, checked."""
    fraction = number(where, spec, "fraction", FEW_CHEAP_DEFAULTS["fraction"])
    if fraction > 1:
        raise SpecError(where, "fraction", f"must lie in [0, 1]; got {spec['fraction']!r}")
    return (
        fraction,
        pair(where, spec, "cheap", FEW_CHEAP_DEFAULTS["cheap"]),
        pair(where, spec, "expensive", FEW_CHEAP_DEFAULTS["expensive"]),
    )


@cost_kind("few_cheap", keys=("fraction", "cheap", "expensive"), read=_few_cheap_spec, grouped=None)
def few_cheap(trial: Trial, parameters: tuple[float, tuple, tuple]) -> ColumnCosts:
    fraction, (c_low, c_high), (e_low, e_high) = parameters
    rng = trial.rng

    def draw(size: int) -> np.ndarray:
        n_cheap = int(math.floor(fraction * size + 0.5))
        cheap = np.zeros(size, dtype=bool)
        cheap[rng.permutation(size)[:n_cheap]] = True
        return np.where(
            cheap, rng.uniform(c_low, c_high, size=size), rng.uniform(e_low, e_high, size=size)
        )

    return trial.per_unit(draw)
