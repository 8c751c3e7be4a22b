"""Feature cost models: one cost per binarized column, per (dataset, cost model, trial).

Every draw of trial ``t`` comes from ``rng_from_key("costs", dataset, cost_model, t)``, so
a trial's costs do not depend on which other trials are computed. A cost model is one
config entry (``spec``), ``{"model": name, ...parameters}``:

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
``real`` ``{file, scale}``
    costs per raw attribute from a ``feature,cost`` file (default: the dataset's
    ``cost_file``, e.g. Turney's heart test costs), times ``scale`` (``grouped``).
``correlated`` ``{low, high, noise, quality}``
    the paper's adversarial future work (Section 8): costs increase with a column's
    stand-alone edge ``|gamma_j| = |mean_i y_i (2 x_ij - 1)|`` (uniform weights, ``y`` in
    -1/+1) on the trial's *training rows only* (``splits[trial][0]``; the test rows are
    never read), so the informative columns are the expensive ones. With ``u_j`` the edge's
    rank scaled to [0, 1] (ties share their average rank) and ``e_j ~ U[0, 1]`` drawn from
    the trial's seed, ``c_j = low + (high - low) ((1 - noise) u_j + noise e_j)``:
    ``noise = 0`` orders costs exactly by edge, ``noise = 1`` is ``uniform_random``. The
    scaled ranks average exactly 1/2, so the mean cost is ``(low + high) / 2`` (1 for
    ``low: 0, high: 2``, as ``U[0, 2]``): exactly without noise, in expectation with it.
    The Spearman correlation of cost and edge is about 0.99 at ``noise = 0.1``, 0.95 at
    0.25 and 0.70 at 0.5 (heart, ionosphere, census, ocr17). Caveat: the edge of
    ``2 x - 1`` includes the constant predictor's ``|mean y|``, so on imbalanced data a
    nearly constant (rare) indicator has a large edge; on census (76 % negative) the edge's
    rank is *anti*-correlated with ``|corr(x_j, y)|`` (Spearman -0.38) and the model is not
    adversarial there. ``quality: correlation`` ranks by ``|corr(x_j, y)|`` on the training
    rows instead (0 for a constant column), which a constant predictor cannot inflate: the
    benchmark's ``adversarial`` cost model uses it (default ``quality: edge``).

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
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa

from budgetboost.data.io import (
    SmallFileError,
    read_arrow,
    read_metadata,
    read_small_text,
    write_table,
)
from budgetboost.data.seeds import rng_from_key

if TYPE_CHECKING:  # no runtime import: costs.py stays independent of the dataset readers
    from budgetboost.data.datasets import BinarizedData

__all__ = [
    "CostTable",
    "MODELS",
    "SpecError",
    "check_spec",
    "make_costs",
    "write_costs",
    "read_costs",
    "read_attribute_costs",
    "varied_pairs",
]

COMMON_KEYS = {"model", "description"}
MODEL_KEYS = {
    "uniform_random": {"low", "high", "grouped"},
    "constant": {"value", "grouped"},
    "discrete": {"values", "probabilities", "grouped"},
    "per_attribute": {"low", "high"},
    "real": {"file", "scale"},
    "correlated": {"low", "high", "noise", "quality"},
    "few_cheap": {"fraction", "cheap", "expensive", "grouped"},
}
#: The largest cost a model may give a feature: costs are summed over every feature a model
#: pays for and compared with budgets, and a cost near the largest float (``high: 1e308``)
#: overflows to ``inf`` there, which the contract would blame on the estimator. At 1e100 the
#: sum (and square) of the costs of a million features stays finite.
MAX_COST = 1e100
#: The largest cost file read (10 MiB: Turney's heart costs are 200 bytes).
MAX_COST_FILE_BYTES = 10 << 20
#: Defaults of ``few_cheap``.
FEW_CHEAP_DEFAULTS = {"fraction": 0.1, "cheap": (0.0, 0.2), "expensive": (1.5, 2.5)}
MODELS = tuple(MODEL_KEYS)
GROUPED_MODELS = {"per_attribute", "real"}


@dataclass
class CostTable:
    """Costs of every trial of one (dataset, cost model).

    Attributes
    ----------
    trials : numpy.ndarray of int, shape (T,)
    costs : numpy.ndarray of float64, shape (T, n_columns)
    grouped : bool
        The indicators of one raw attribute are paid for together: train with
        ``feature_groups=data.groups``.
    """

    trials: np.ndarray
    costs: np.ndarray
    grouped: bool

    def of_trial(self, trial: int) -> np.ndarray:
        """The cost vector of one trial."""
        hit = np.flatnonzero(self.trials == trial)
        if hit.size == 0:
            raise KeyError(
                f"trial {trial} not in the cost table (trials "
                f"{self.trials.min()}..{self.trials.max()})"
            )
        return self.costs[hit[0]]


# --------------------------------------------------------------------------- spec checks


class SpecError(ValueError):
    """A bad cost-model spec: ``key`` is the offending spec key (``""``: the spec itself).

    ``str()`` reads ``"<where>: <key>: <reason>"``; the pipeline's planner prefixes the
    config path instead (``config cost_models.<name>.spec.<key>: <reason>``).
    """

    def __init__(self, where: str, key: str, reason: str):
        self.where, self.key, self.reason = where, key, reason
        super().__init__(f"{where}: {key + ': ' if key else ''}{reason}")


def _number(
    where: str, spec: Mapping[str, object], key: str, default: float | None = None
) -> float:
    if key not in spec:
        if default is None:
            raise SpecError(where, key, "missing")
        return default
    value = spec[key]
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
    ):
        raise SpecError(where, key, f"must be a finite number >= 0; got {value!r}")
    if value > MAX_COST:
        raise SpecError(where, key, _too_large(value))
    return float(value)


def _too_large(value: float) -> str:
    return (
        f"{value:g} is larger than {MAX_COST:g}, the largest cost a feature may have (sums "
        "of such costs overflow to inf)"
    )


def _interval(where: str, spec: Mapping[str, object]) -> tuple[float, float]:
    low, high = _number(where, spec, "low"), _number(where, spec, "high")
    if low > high:
        raise SpecError(where, "low", f"{low} is larger than high {high}")
    return low, high


def _pair(where: str, spec: Mapping[str, object], key: str) -> tuple[float, float]:
    """An interval ``[low, high]`` given as a two-element list (default: ``FEW_CHEAP_DEFAULTS``)."""
    value = spec.get(key, FEW_CHEAP_DEFAULTS[key])
    ok = isinstance(value, (list, tuple)) and len(value) == 2
    ok = ok and all(
        not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v) and v >= 0
        for v in value
    )
    if not ok:
        raise SpecError(
            where, key, f"must be a list [low, high] of two finite numbers >= 0; got {value!r}"
        )
    low, high = float(value[0]), float(value[1])
    if low > high:
        raise SpecError(where, key, f"low {low} is larger than high {high}")
    if high > MAX_COST:
        raise SpecError(where, key, _too_large(high))
    return low, high


def _few_cheap(where: str, spec: Mapping[str, object]) -> tuple[float, tuple, tuple]:
    """``fraction``, ``cheap`` and ``expensive`` of a ``few_cheap`` model, checked."""
    fraction = _number(where, spec, "fraction", FEW_CHEAP_DEFAULTS["fraction"])
    if fraction > 1:
        raise SpecError(where, "fraction", f"must lie in [0, 1]; got {spec['fraction']!r}")
    return fraction, _pair(where, spec, "cheap"), _pair(where, spec, "expensive")


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
        raise SpecError(where, "values", _too_large(float(values.max())))
    if (~np.isfinite(probs)).any() or (probs < 0).any() or abs(probs.sum() - 1) > 1e-9:
        raise SpecError(where, "probabilities", f"must be >= 0 and sum to 1; got {probs.tolist()}")
    return values, probs


def check_spec(spec: Mapping[str, object], where: str = "cost model") -> str:
    """Check a cost-model spec without any data and return its model name.

    Every key and value the model reads is checked (unknown model, unknown or missing keys,
    numbers, ``low <= high``, ``noise`` and ``fraction`` in [0, 1], ``cheap`` and
    ``expensive`` two numbers ``[low, high]``, a discrete law that sums to 1, ``grouped``
    a bool, ``file`` a string), so a bad spec is caught when the workflow is planned rather
    than when its first job runs. Files are not opened here.

    Raises
    ------
    SpecError
        Naming the offending key and value.
    """
    if not isinstance(spec, Mapping):
        raise SpecError(where, "", f"must be a mapping with a 'model' key; got {spec!r}")
    model = spec.get("model")
    if model not in MODEL_KEYS:
        raise SpecError(where, "model", f"must be one of {list(MODELS)}; got {model!r}")
    unknown = sorted(set(spec) - COMMON_KEYS - MODEL_KEYS[model])
    if unknown:
        raise SpecError(
            where,
            unknown[0],
            f"unknown parameter of model {model!r} (allowed: {sorted(MODEL_KEYS[model])})",
        )
    if "grouped" in spec and not isinstance(spec["grouped"], bool):
        raise SpecError(where, "grouped", f"must be true or false; got {spec['grouped']!r}")
    if model in ("uniform_random", "per_attribute", "correlated"):
        _interval(where, spec)
    if model == "constant":
        _number(where, spec, "value")
    if model == "discrete":
        _finite_set(where, spec)
    if model == "few_cheap":
        _few_cheap(where, spec)
    if model == "correlated" and _number(where, spec, "noise") > 1:
        raise SpecError(where, "noise", f"must lie in [0, 1]; got {spec['noise']!r}")
    if model == "correlated" and spec.get("quality", "edge") not in QUALITIES:
        raise SpecError(
            where, "quality", f"must be one of {list(QUALITIES)}; got {spec['quality']!r}"
        )
    if model == "real":
        if "file" in spec and not (isinstance(spec["file"], str) and spec["file"]):
            raise SpecError(where, "file", f"must be a file path; got {spec['file']!r}")
        if "scale" in spec:
            _number(where, spec, "scale")
    return str(model)


# --------------------------------------------------------------------------- models


def _n_groups(data: BinarizedData) -> int:
    return int(np.max(data.groups)) + 1 if len(data.groups) else 0


def _draw(
    rng: np.random.Generator, where: str, spec: Mapping[str, object], model: str, size: int
) -> np.ndarray:
    if model in ("uniform_random", "per_attribute"):
        low, high = _interval(where, spec)
        return rng.uniform(low, high, size=size)
    if model == "constant":
        return np.full(size, _number(where, spec, "value"))
    if model == "few_cheap":
        fraction, (c_low, c_high), (e_low, e_high) = _few_cheap(where, spec)
        n_cheap = int(math.floor(fraction * size + 0.5))
        cheap = np.zeros(size, dtype=bool)
        cheap[rng.permutation(size)[:n_cheap]] = True
        return np.where(
            cheap, rng.uniform(c_low, c_high, size=size), rng.uniform(e_low, e_high, size=size)
        )
    values, probs = _finite_set(where, spec)
    return rng.choice(values, size=size, p=probs)


def read_attribute_costs(path: str | os.PathLike) -> dict[str, float]:
    """Per raw attribute costs from a file.

    Two formats: a CSV with columns ``feature`` and ``cost`` (e.g. Turney's heart costs),
    one row per attribute (an attribute listed twice is an error, not "the last one wins"),
    or plain text with one cost per line, line ``i`` giving attribute ``f{i}`` (the SVMlight
    feature numbering of the Webscope reader).

    The file must be a small UTF-8 text file (:data:`MAX_COST_FILE_BYTES`); an error names
    the file and the offending value or line, never the file's content (a path pointed at
    the wrong file, ``/proc/self/environ``, must not print it).
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
        for number, line in enumerate(lines, start=1):
            try:
                costs.append(float(line.split(",")[-1]))
            except ValueError:
                raise ValueError(
                    f"cost file {path}: cost {_shown(line.split(',')[-1])} of attribute "
                    f"f{number} (non-blank line {number}) is not a number"
                ) from None
        return _checked_costs(path, {f"f{i}": c for i, c in enumerate(costs, start=1)})
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, ValueError):
        raise ValueError(
            f"cost file {path}: not a CSV table of 'feature,cost' rows (nor one cost per line)"
        ) from None
    if not {"feature", "cost"} <= set(frame.columns):
        raise ValueError(
            f"cost file {path}: needs a header line with the columns 'feature' and 'cost' "
            f"(its first line has {len(frame.columns)} comma-separated fields, neither "
            "named so): not a cost table?"
        )
    costs = pd.to_numeric(frame["cost"], errors="coerce")
    if costs.isna().any():
        bad = frame.loc[costs.isna(), ["feature", "cost"]].iloc[0].tolist()
        raise ValueError(
            f"cost file {path}: cost of {_shown(bad[0])} is not a number: {_shown(bad[1])}"
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
    return _checked_costs(
        path, dict(zip(frame["feature"].astype(str), costs.astype(float), strict=True))
    )


def _shown(value: object, limit: int = 40) -> str:
    """A value of a file, quoted and cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


def _checked_costs(path: Path, costs: dict[str, float]) -> dict[str, float]:
    """``costs``, unless one is not finite or negative (a negative cost would let a model
    buy budget by reading a feature; an infinite one makes every budget unreachable) or
    larger than :data:`MAX_COST`."""
    for name, cost in costs.items():
        if not (np.isfinite(cost) and cost >= 0):
            raise ValueError(
                f"cost file {path}: cost of {_shown(name)} is {cost} (costs must be finite "
                "and >= 0)"
            )
        if cost > MAX_COST:
            raise ValueError(f"cost file {path}: cost of {_shown(name)}: {_too_large(cost)}")
    return costs


def _real_costs(
    where: str, spec: Mapping[str, object], data: BinarizedData, root: Path
) -> np.ndarray:
    file = spec.get("file") or data.meta.get("cost_file")
    if not file:
        raise ValueError(
            f"{where}: model 'real' needs a cost `file` (or a cost_file in the "
            "dataset's registry entry)"
        )
    path = Path(file) if Path(file).is_absolute() else root / file
    scale = _number(where, spec, "scale", float(data.meta.get("cost_scale") or 1))
    try:
        table = read_attribute_costs(path)
    except (ValueError, FileNotFoundError) as err:
        raise type(err)(f"{where}: {err}") from err
    attributes = data.meta["attributes"]
    missing = [a for a in attributes if a not in table]
    if missing:
        raise ValueError(f"{where}: cost file {path} has no cost for attribute(s) {missing[:5]}")
    return scale * np.array([table[a] for a in attributes], dtype=float)


def _edges(data: BinarizedData, train: np.ndarray) -> np.ndarray:
    """Stand-alone edge ``|mean y (2x - 1)|`` of every column on the training rows."""
    X = data.X[train].astype(np.float64)
    y = data.y[train].astype(np.float64)
    return np.abs((2.0 * (y @ X) - y.sum()) / len(y))


def _correlations(data: BinarizedData, train: np.ndarray) -> np.ndarray:
    """``|corr(x_j, y)|`` of every column on the training rows (0 for a constant column)."""
    X = data.X[train].astype(np.float64)
    y = data.y[train].astype(np.float64)
    Xc, yc = X - X.mean(axis=0), y - y.mean()
    scale = np.sqrt((Xc * Xc).sum(axis=0) * (yc @ yc))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(scale > 0, np.abs(yc @ Xc) / scale, 0.0)


#: Column qualities the ``correlated`` model can rank by.
QUALITIES = {"edge": _edges, "correlation": _correlations}


def _correlated(
    rng: np.random.Generator,
    where: str,
    spec: Mapping[str, object],
    data: BinarizedData,
    train: np.ndarray,
) -> np.ndarray:
    low, high = _interval(where, spec)
    noise = _number(where, spec, "noise")
    from scipy.stats import rankdata  # imported here: it costs ~1 s per pipeline job

    quality = QUALITIES[str(spec.get("quality", "edge"))](data, train)
    n = quality.size
    rank = (rankdata(quality, method="average") - 1) / max(n - 1, 1)
    mix = (1.0 - noise) * rank + noise * rng.uniform(size=n)
    return low + (high - low) * mix


def _trial_costs(
    dataset: str,
    cost_model: str,
    model: str,
    spec: Mapping[str, object],
    data: BinarizedData,
    splits: Mapping[int, tuple],
    trial: int,
    root: Path,
    grouped: bool,
) -> np.ndarray:
    where = f"dataset {dataset!r}, cost model {cost_model!r}"
    rng = rng_from_key("costs", dataset, cost_model, int(trial))
    n_columns = data.X.shape[1]
    if model == "real":
        return _real_costs(where, spec, data, root)[data.groups]
    if model == "correlated":
        if trial not in splits:
            raise ValueError(
                f"{where}: no split for trial {trial} (correlated costs use the training rows)"
            )
        return _correlated(rng, where, spec, data, np.asarray(splits[trial][0]))
    if grouped:
        return _draw(rng, where, spec, model, _n_groups(data))[data.groups]
    return _draw(rng, where, spec, model, n_columns)


def make_costs(
    dataset: str,
    cost_model: str,
    spec: Mapping[str, object],
    data: BinarizedData,
    splits: Mapping[int, tuple] | None,
    trials: Iterable[int],
    root: str | os.PathLike = ".",
) -> CostTable:
    """Cost vectors of ``trials`` for one dataset under one cost model.

    Parameters
    ----------
    dataset, cost_model : str
        Names used in the seed key ``("costs", dataset, cost_model, trial)``.
    spec : mapping
        The cost model's config entry, ``{"model": ..., parameters}``.
    data : BinarizedData
        The binarized dataset (columns, ``groups``, ``meta["attributes"]``, ``cost_file``).
    splits : mapping
        ``{trial: (train, test)}``; only ``correlated`` uses it.
    trials : iterable of int
    root : path-like
        Repository root for relative cost files.

    Raises
    ------
    ValueError
        Unknown model or parameter, a missing attribute in a cost file, or a negative or
        NaN cost; the message names the dataset, cost model (and file) and value.
    """
    where = f"dataset {dataset!r}, cost model {cost_model!r}"
    model = check_spec(spec, where)
    grouped = model in GROUPED_MODELS or bool(spec.get("grouped", False))
    trials = np.asarray(list(trials), dtype=np.int64)
    rows = [
        _trial_costs(dataset, cost_model, model, spec, data, splits or {}, t, Path(root), grouped)
        for t in trials
    ]
    costs = np.vstack(rows) if rows else np.empty((0, data.X.shape[1]))
    bad = ~np.isfinite(costs) | (costs < 0) | (costs > MAX_COST)
    if bad.any():
        t, j = np.argwhere(bad)[0]
        source = (
            f", file {spec.get('file') or data.meta.get('cost_file')}" if model == "real" else ""
        )
        raise ValueError(
            f"{where}{source}: cost {costs[t, j]!r} of column "
            f"{data.columns[j]!r} (trial {trials[t]}) is negative, not finite or larger "
            f"than {MAX_COST:g}"
        )
    return CostTable(trials=trials, costs=costs.astype(np.float64), grouped=grouped)


# --------------------------------------------------------------------------- on disk


def write_costs(
    table: CostTable, path: str | os.PathLike, metadata: Mapping[str, object] | None = None
) -> None:
    """Write ``results/costs/{dataset}/{cost_model}.parquet`` atomically.

    One row per trial: ``trial`` (int32) and ``costs`` (list<float64>); ``metadata`` is
    stored with ``grouped`` added.
    """
    n_trials, n_columns = table.costs.shape
    offsets = np.arange(n_trials + 1, dtype=np.int32) * n_columns
    lists = pa.ListArray.from_arrays(
        pa.array(offsets), pa.array(table.costs.reshape(-1), pa.float64())
    )
    frame = pd.DataFrame(
        {
            "trial": np.asarray(table.trials, dtype=np.int32),
            "costs": pd.arrays.ArrowExtensionArray(lists),
        }
    )
    meta = {**dict(metadata or {}), "grouped": bool(table.grouped), "n_columns": n_columns}
    write_table(frame, path, metadata=meta)


def read_costs(path: str | os.PathLike) -> CostTable:
    """Read a file of :func:`write_costs` into a :class:`CostTable`."""
    table = read_arrow(path)
    meta = read_metadata(path)
    if {"trial", "costs"} - set(table.column_names) or "grouped" not in meta:
        raise ValueError(
            f"{path}: not a cost table (columns trial, costs and metadata 'grouped' expected)"
        )
    lists = table.column("costs").combine_chunks()
    lengths = np.diff(lists.offsets.to_numpy())
    if lengths.size and (lengths != lengths[0]).any():
        raise ValueError(f"{path}: trials have different numbers of costs")
    values = lists.flatten().to_numpy()
    n_columns = int(lengths[0]) if lengths.size else int(meta.get("n_columns", 0))
    return CostTable(
        trials=table.column("trial").to_numpy().astype(np.int64),
        costs=values.reshape(len(lengths), n_columns).astype(np.float64),
        grouped=bool(meta["grouped"]),
    )


def varied_pairs(paths: Sequence[str | os.PathLike]) -> set[tuple[str, str]]:
    """(dataset, cost_model) pairs whose feature costs vary, from their cost tables.

    Paths follow ``results/costs/{dataset}/{cost_model}.parquet`` (docs/design.md); a pair has
    varied costs if any trial has two different costs (claims 2 and 3a are about those).
    """
    varied = set()
    for path in map(Path, paths):
        costs = read_costs(path).costs
        if costs.size and bool((np.ptp(costs, axis=1) > 0).any()):
            varied.add((path.parent.name, path.stem))
    return varied
