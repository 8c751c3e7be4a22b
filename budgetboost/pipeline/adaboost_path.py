"""The shared plain AdaBoost path: fitted once per (dataset, trial), read by many jobs.

AdaBoost's choices do not depend on feature costs, so the unbudgeted reference, AdaBoostBT,
AdaBoostRS and RS_AC, under every cost model, boost the same path on a trial's training rows.
The pipeline's ``adaboost_path`` rule fits it once per block of trials
(:func:`fit_adaboost_paths`) and writes ``results/paths/{dataset}/block-{k}.parquet``
(:func:`write_adaboost_paths`); the train jobs of the algorithms with ``adaboost_path: true``
read it (:func:`read_adaboost_paths`) and pass each trial's path to their estimator, which
cuts it under its own costs, rounds and budget (``BoostPath.under_costs``): the shards are
bit for bit those of boosting anew.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from budgetboost.data.io import read_metadata, read_table, write_table
from budgetboost.data.schema import TIMING_COLUMNS
from budgetboost.estimators.boosting.booster import BoostPath, adaboost_path

__all__ = ["fit_adaboost_paths", "read_adaboost_paths", "write_adaboost_paths"]


def fit_adaboost_paths(
    X: np.ndarray,
    y: np.ndarray,
    splits: Mapping[int, tuple[np.ndarray, np.ndarray]],
    trials: Sequence[int],
    max_rounds: int,
) -> tuple[dict[int, BoostPath], pd.DataFrame]:
    """The shared plain AdaBoost path of each trial's training rows, and the fit times.

    AdaBoost's choices do not depend on feature costs, so one path per (dataset, trial) serves the
    unbudgeted reference, AdaBoostBT and AdaBoostRS under every cost model
    (:meth:`budgetboost.estimators.boosting.booster.BoostPath.under_costs`), instead of boosting
    again in
    each of their jobs.
    """
    paths, timing_rows = {}, []
    for trial in trials:
        train_idx = splits[trial][0]
        start = time.perf_counter()
        paths[int(trial)] = adaboost_path(X[train_idx], y[train_idx], max_rounds)
        timing_rows.append((int(trial), time.perf_counter() - start, 0.0))
    timings = pd.DataFrame(timing_rows, columns=list(TIMING_COLUMNS)).astype(TIMING_COLUMNS)
    return paths, timings


def write_adaboost_paths(
    paths: Mapping[int, BoostPath], path: str | Path, metadata: Mapping[str, Any] | None = None
) -> None:
    """``results/paths/{dataset}/block-{k}.parquet``: one row per (trial, round).

    Columns ``trial``, ``round``, ``feature``, ``threshold``, ``polarity``, ``alpha``,
    ``edge``; each trial's stop reason and training-rows fingerprint in the metadata.
    """
    trials = sorted(paths)
    frame = pd.DataFrame(
        {
            "trial": np.concatenate(
                [np.full(len(paths[t].feature), t) for t in trials] or [np.empty(0)]
            ).astype(np.int32),
            "round": np.concatenate(
                [np.arange(len(paths[t].feature)) for t in trials] or [np.empty(0)]
            ).astype(np.int32),
            **{
                name: np.concatenate(
                    [getattr(paths[t], name) for t in trials] or [np.empty(0)]
                ).astype(dtype)
                for name, dtype in _PATH_COLUMNS.items()
            },
        }
    )
    about = {
        str(t): {"stop_reason": paths[t].stop_reason, "fingerprint": paths[t].fingerprint}
        for t in trials
    }
    write_table(frame, path, {**dict(metadata or {}), "paths": about})


def read_adaboost_paths(path: str | Path) -> dict[int, BoostPath]:
    """The paths of a file of :func:`write_adaboost_paths`, by trial."""
    frame, about = read_table(path), read_metadata(path)["paths"]
    paths = {}
    for key, info in about.items():
        rows = frame[frame["trial"] == int(key)].sort_values("round")
        n = len(rows)
        paths[int(key)] = BoostPath(
            **{name: rows[name].to_numpy(dtype=dtype) for name, dtype in _PATH_COLUMNS.items()},
            group=rows["feature"].to_numpy(dtype=np.intp),
            new_groups=_first_uses(rows["feature"]),
            spent=np.zeros(n),
            criterion=np.full(n, "adaboost", dtype=object),
            stop_reason=info["stop_reason"],
            fingerprint=info["fingerprint"],
        )
    return paths


def _first_uses(feature: pd.Series) -> np.ndarray:
    """1 in the round that first uses a feature, else 0 (a path fitted with groups = columns)."""
    first = np.zeros(len(feature), dtype=np.intp)
    first[np.unique(feature.to_numpy(), return_index=True)[1]] = 1
    return first


_PATH_COLUMNS = {
    "feature": np.intp,
    "threshold": np.float64,
    "polarity": np.float64,
    "alpha": np.float64,
    "edge": np.float64,
}
