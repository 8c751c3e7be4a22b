"""Per-trial random train/test splits (Table 1's sizes), shared by every algorithm.

Trial ``t`` of a dataset draws one permutation of the row indices from
``rng_from_key("split", dataset, t)``; its first ``train_size`` entries are the training
rows and the next ``test_size`` the test rows. The split therefore depends only on
(dataset, t, n_rows, sizes): it is the same for every cost model and algorithm, so their
comparisons are paired, and raising the number of trials leaves earlier trials unchanged.
Indices are stored sorted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa

from budgetboost.data.io import read_arrow, read_metadata, write_table
from budgetboost.data.seeds import rng_from_key

__all__ = [
    "SplitSizes",
    "check_training_classes",
    "make_splits",
    "read_sizes",
    "read_splits",
    "split_indices",
    "write_splits",
]


class SplitSizes(NamedTuple):
    """The rows of every trial of a dataset and the pool they are drawn from."""

    n_train: int
    n_test: int
    n_pool: int


def _check_sizes(dataset: str, n_rows: int, train_size: int, test_size: int) -> None:
    for name, value in (("n_rows", n_rows), ("train_size", train_size), ("test_size", test_size)):
        if int(value) != value or value < 1:
            raise ValueError(
                f"dataset {dataset!r}: {name} must be a positive integer, got {value!r}"
            )
    if train_size + test_size > n_rows:
        raise ValueError(
            f"dataset {dataset!r}: train_size {train_size} + test_size "
            f"{test_size} = {train_size + test_size} is larger than its "
            f"{n_rows} rows"
        )


def split_indices(
    dataset: str, trial: int, n_rows: int, train_size: int, test_size: int
) -> tuple[np.ndarray, np.ndarray]:
    """Sorted int32 (train, test) row indices of one trial (disjoint)."""
    _check_sizes(dataset, n_rows, train_size, test_size)
    order = rng_from_key("split", dataset, int(trial)).permutation(n_rows)
    train = np.sort(order[:train_size]).astype(np.int32)
    test = np.sort(order[train_size : train_size + test_size]).astype(np.int32)
    return train, test


def check_training_classes(
    dataset: str, y: np.ndarray, train_size: int, test_size: int, trials: int | Iterable[int]
) -> None:
    """Raise ``ValueError`` naming the first trial whose training part holds one class only.

    Splits are drawn without stratification (as the paper's), so a small ``train_size`` on a
    skewed dataset can leave a trial's training rows all of one class; no estimator can be
    fitted on those, so the split job (and planning, where the data exists, and each train
    job, which may run before the split job) says which trial and what to change instead of
    an estimator failing. ``trials``: how many (trials ``0 .. trials - 1``), or which.
    """
    y = np.asarray(y)
    for trial in range(int(trials)) if isinstance(trials, (int, np.integer)) else trials:
        train, _ = split_indices(dataset, trial, y.size, train_size, test_size)
        classes = np.unique(y[train])
        if classes.size < 2:
            raise ValueError(
                f"dataset {dataset!r}, trial {trial}: its {train_size} training rows all "
                f"have label {classes[0]}; raise train_size (datasets.{dataset}.train_size "
                "in the config) so that every trial's training part holds both classes"
            )


def make_splits(
    dataset: str, n_rows: int, train_size: int, test_size: int, trials: int
) -> pd.DataFrame:
    """Splits of trials ``0 .. trials-1``: one row each (``trial``, ``train``, ``test``).

    Parameters
    ----------
    dataset : str
        Dataset name, part of the seed key.
    n_rows : int
        Rows of the binarized dataset.
    train_size, test_size : int
        Table 1's sizes; their sum may not exceed ``n_rows``.
    trials : int
        Number of trials.

    Returns
    -------
    pandas.DataFrame
        Columns ``trial`` (int32), ``train`` and ``test`` (int32 index arrays); the sizes
        are kept in ``DataFrame.attrs`` and written as metadata by :func:`write_splits`.
    """
    _check_sizes(dataset, n_rows, train_size, test_size)
    if int(trials) != trials or trials < 1:
        raise ValueError(f"dataset {dataset!r}: trials must be a positive integer, got {trials!r}")
    pairs = [split_indices(dataset, t, n_rows, train_size, test_size) for t in range(trials)]
    frame = pd.DataFrame(
        {
            "trial": np.arange(trials, dtype=np.int32),
            "train": [p[0] for p in pairs],
            "test": [p[1] for p in pairs],
        }
    )
    frame.attrs.update(
        {
            "dataset": dataset,
            "n_rows": int(n_rows),
            "train_size": int(train_size),
            "test_size": int(test_size),
            "trials": int(trials),
            "seed_key": ["split", dataset, "<trial>"],
        }
    )
    return frame


def _list_column(arrays: list[np.ndarray]) -> pa.ListArray:
    lengths = np.array([len(a) for a in arrays], dtype=np.int32)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    values = np.concatenate(arrays).astype(np.int32) if arrays else np.empty(0, np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values))


def write_splits(df: pd.DataFrame, path: str | os.PathLike, metadata: dict | None = None) -> None:
    """Write ``results/splits/{dataset}.parquet`` atomically (list<int32> columns).

    ``metadata`` defaults to ``df.attrs`` (dataset, sizes, trials, seed key).
    """
    frame = pd.DataFrame(
        {
            "trial": df["trial"].to_numpy(dtype=np.int32),
            "train": pd.arrays.ArrowExtensionArray(_list_column(list(df["train"]))),
            "test": pd.arrays.ArrowExtensionArray(_list_column(list(df["test"]))),
        }
    )
    write_table(frame, path, metadata=dict(df.attrs) if metadata is None else metadata)


def _unpack(column: pa.ChunkedArray) -> list[np.ndarray]:
    array = column.combine_chunks()
    offsets = array.offsets.to_numpy()
    values = array.flatten().to_numpy().astype(np.int64)
    start = offsets[0]
    return np.split(values, offsets[1:-1] - start)


def read_splits(path: str | os.PathLike) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """``{trial: (train_indices, test_indices)}`` from a file of :func:`write_splits`."""
    table = read_arrow(path)
    missing = {"trial", "train", "test"} - set(table.column_names)
    if missing:
        raise ValueError(f"{path}: not a splits file, missing columns {sorted(missing)}")
    trials = table.column("trial").to_numpy()
    trains, tests = _unpack(table.column("train")), _unpack(table.column("test"))
    return {int(t): (tr, te) for t, tr, te in zip(trials, trains, tests, strict=True)}


def read_sizes(paths: list[str | os.PathLike]) -> dict[str, SplitSizes]:
    """``{dataset: SplitSizes}`` from the metadata of splits files (:func:`write_splits`):
    what the paired tests need to account for trials that share rows
    (:mod:`budgetboost.analysis.per_dataset`)."""
    sizes = {}
    for path in paths:
        meta = read_metadata(path)
        try:
            sizes[str(meta["dataset"])] = SplitSizes(
                int(meta["train_size"]), int(meta["test_size"]), int(meta["n_rows"])
            )
        except KeyError as missing:
            raise ValueError(f"{path}: not a splits file, no {missing} in its metadata") from None
    return sizes
