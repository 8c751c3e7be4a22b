"""Feature costs: one cost per binarized column, per (dataset, cost model, trial).

A cost model is one config entry (``spec``), ``{"model": kind, ...parameters}``; its kind is
one entry of the registry (:mod:`budgetboost.data.cost_registry`; the built-in kinds and what
their parameters mean: :mod:`budgetboost.data.cost_kinds`). Every draw of trial ``t`` comes
from ``rng_from_key("costs", dataset, cost_model, t)``, so a trial's costs do not depend on
which other trials are computed. :func:`make_costs` prices the trials of one (dataset, cost
model) as a :class:`CostTable`, which :func:`write_costs` and :func:`read_costs` keep on disk
(``results/costs/{dataset}/{cost_model}.parquet``).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import pyarrow as pa

from budgetboost.data import cost_kinds  # noqa: F401 - registers the built-in kinds
from budgetboost.data.cost_kinds import read_attribute_costs
from budgetboost.data.cost_registry import (
    MAX_COST,
    SpecError,
    Trial,
    check_spec,
    kind_of,
    kinds,
    real_kinds,
)
from budgetboost.data.io import read_arrow, read_metadata, write_table
from budgetboost.data.seeds import rng_from_key

if TYPE_CHECKING:  # no runtime import: costs.py stays independent of the dataset readers
    from budgetboost.data.datasets import BinarizedData

__all__ = [
    "CostTable",
    "SpecError",
    "check_spec",
    "kind_of",
    "kinds",
    "make_costs",
    "read_attribute_costs",
    "read_costs",
    "real_kinds",
    "varied_pairs",
    "write_costs",
]


@dataclass
class CostTable:
    """Costs of every trial of one (dataset, cost model).

    Attributes
    ----------
    trials : numpy.ndarray of int, shape (T,)
    costs : numpy.ndarray of float64, shape (T, n_columns)
        ``inf`` marks a column whose test is not offered (no price known: the train job
        drops it).
    grouped : bool
        The indicators of one raw attribute are paid for together: train with
        ``feature_groups=data.groups``.
    extra : dict of str to numpy.ndarray of shape (T, n_columns)
        Further per-column numbers of the trials, by name, where the kind hands some on
        (:class:`~budgetboost.data.cost_registry.ColumnCosts`): ``real`` costs with
        Turney's discount groups hand on ``discount_cost`` and ``discount_group`` (an
        integer, -1: none), the train job's ``discount_costs`` and ``discount_groups``.
    """

    trials: np.ndarray
    costs: np.ndarray
    grouped: bool
    extra: dict[str, np.ndarray] = field(default_factory=dict)

    def of_trial(self, trial: int) -> np.ndarray:
        """The cost vector of one trial."""
        hit = np.flatnonzero(self.trials == trial)
        if hit.size == 0:
            raise KeyError(
                f"trial {trial} not in the cost table (trials "
                f"{self.trials.min()}..{self.trials.max()})"
            )
        return self.costs[hit[0]]


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
        ``{trial: (train, test)}``: the training rows, for the kinds that read them
        (``correlated``).
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
    check_spec(spec, where)
    kind = kind_of(spec, where)
    parameters = kind.read(where, spec)
    grouped = kind.is_grouped(spec)
    trials = np.asarray(list(trials), dtype=np.int64)
    splits = splits or {}
    priced = []
    for t in trials.tolist():
        train = np.asarray(splits[t][0]) if t in splits else None
        rng = rng_from_key("costs", dataset, cost_model, int(t))
        trial = Trial(where, spec, data, int(t), rng, train, Path(root), grouped)
        priced.append(kind.costs(trial, parameters))
    n_columns = data.X.shape[1]
    costs = np.vstack([p.cost for p in priced]) if priced else np.empty((0, n_columns))
    # inf: a test not offered (cost_kinds.NOT_OFFERED); any other cost above MAX_COST
    # would overflow the sums the estimators and the contract make
    bad = np.isnan(costs) | (costs < 0) | (np.isfinite(costs) & (costs > MAX_COST))
    if bad.any():
        t, j = np.argwhere(bad)[0]
        file = kind.cost_file(spec, data.meta)
        source = f", file {file}" if file else ""
        raise ValueError(
            f"{where}{source}: cost {costs[t, j]!r} of column "
            f"{data.columns[j]!r} (trial {trials[t]}) is negative, not a number or larger "
            f"than {MAX_COST:g}"
        )
    names = sorted(priced[0].extra) if priced else []
    extra = {name: np.vstack([p.extra[name] for p in priced]) for name in names}
    return CostTable(trials=trials, costs=costs.astype(np.float64), grouped=grouped, extra=extra)


# --------------------------------------------------------------------------- on disk


def write_costs(
    table: CostTable, path: str | os.PathLike, metadata: Mapping[str, object] | None = None
) -> None:
    """Write ``results/costs/{dataset}/{cost_model}.parquet`` atomically.

    One row per trial: ``trial`` (int32), ``costs`` (list<float64>) and a list<float64>
    column per ``extra`` array (their names in the metadata's ``extra``, where there are
    any); ``metadata`` is stored with ``grouped`` added.
    """
    n_columns = table.costs.shape[1]
    frame = pd.DataFrame({"trial": np.asarray(table.trials, dtype=np.int32)})
    for name, matrix in {"costs": table.costs, **table.extra}.items():
        frame[name] = _lists(matrix)
    meta = {**dict(metadata or {}), "grouped": bool(table.grouped), "n_columns": n_columns}
    if table.extra:
        meta["extra"] = list(table.extra)
    write_table(frame, path, metadata=meta)


def read_costs(path: str | os.PathLike) -> CostTable:
    """Read a file of :func:`write_costs` into a :class:`CostTable`."""
    table = read_arrow(path)
    meta = read_metadata(path)
    if {"trial", "costs"} - set(table.column_names) or "grouped" not in meta:
        raise ValueError(
            f"{path}: not a cost table (columns trial, costs and metadata 'grouped' expected)"
        )
    matrices = {
        name: _matrix(path, table.column(name), int(meta.get("n_columns", 0)))
        for name in ["costs", *meta.get("extra", [])]
    }
    costs = matrices.pop("costs")
    return CostTable(
        trials=table.column("trial").to_numpy().astype(np.int64),
        costs=costs,
        grouped=bool(meta["grouped"]),
        extra=matrices,
    )


def _lists(matrix: np.ndarray) -> pd.arrays.ArrowExtensionArray:
    """The rows of a (T, n) float matrix as a list<float64> column."""
    n_rows, n_columns = matrix.shape
    offsets = np.arange(n_rows + 1, dtype=np.int32) * n_columns
    lists = pa.ListArray.from_arrays(pa.array(offsets), pa.array(matrix.reshape(-1), pa.float64()))
    return pd.arrays.ArrowExtensionArray(lists)


def _matrix(path: str | os.PathLike, column: pa.ChunkedArray, n_columns: int) -> np.ndarray:
    """A list<float64> column of equal-length rows as a (T, n) float64 matrix."""
    lists = column.combine_chunks()
    lengths = np.diff(lists.offsets.to_numpy())
    if lengths.size and (lengths != lengths[0]).any():
        raise ValueError(f"{path}: trials have different numbers of costs")
    values = lists.flatten().to_numpy()
    n_columns = int(lengths[0]) if lengths.size else n_columns
    return values.reshape(len(lengths), n_columns).astype(np.float64)


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
