"""What one trial of an algorithm is expected to cost: the unit by which the plan sizes blocks.

A train job runs a *block* of trials of one (dataset, cost model, algorithm). Blocks sized by
a count of trials make jobs that last from under a second (Greedy on a small dataset) to half
an hour (CatBoost on sonar's 11,196 columns), and a run can never be shorter than its longest
job, whatever the cores. So the plan sizes each cell's blocks by the expected CPU seconds of
one trial (:meth:`TrialCosts.seconds`), so that no job is expected to run longer than the
config's ``block_seconds``, with :data:`HEADROOM` for jobs that run slower than expected
beside others.

The expectation comes from a calibration table, ``trial_seconds.csv`` beside this module,
measured by ``python benchmarks/calibrate_blocks.py`` (one trial of each algorithm of the
shipped configs on each of their datasets, as a train job runs it: fit, then the budget grid
on the test and the training rows, one thread, CPU seconds). A cell is estimated

1. by its own row, where the table has the same algorithm (estimator and parameters, the
   *kind*: :func:`algorithm_kind`) on the same dataset at the same sizes;
2. else by a log-linear model of the kind's rows, ``log s = a + b log(train rows) + c
   log(test rows) + d log(columns)`` (least squares over its datasets; the dataset's
   binarized columns from the table, the table's median for a dataset it does not hold);
3. else by the same model over every row of the estimator's class (a kind never measured,
   e.g. another depth);
4. else :data:`DEFAULT_SECONDS` (an estimator of a user's own, never measured).

An estimate only sizes blocks (and orders jobs): a wrong one makes jobs longer or shorter
than the target, never a result different. Shards are byte-identical whatever the blocks.
"""

from __future__ import annotations

import csv
import functools
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "CALIBRATION",
    "COLUMNS",
    "DEFAULT_SECONDS",
    "HEADROOM",
    "LogLinearModel",
    "TrialCosts",
    "algorithm_kind",
    "block_size",
]

#: The calibration table shipped with the package (``benchmarks/calibrate_blocks.py``).
CALIBRATION = Path(__file__).with_name("trial_seconds.csv")
#: Its columns.
COLUMNS = ("kind", "estimator", "dataset", "train_size", "test_size", "columns", "seconds")
#: Expected CPU seconds of one trial of an estimator the table knows nothing of: long enough
#: that a slow method of a user's own still gets small blocks (a fast one pays a few more
#: jobs' start-up).
DEFAULT_SECONDS = 10.0
#: The config entry's keys that change what a trial computes (with ``estimator`` and
#: ``params``); the others (label, family, trials, ...) do not.
_PROTOCOL_KEYS = ("unbudgeted", "refit_per_budget", "adaboost_path")
#: A model needs at least this many datasets of distinct sizes.
_MIN_POINTS = 4
#: How much slower than its estimate a train job may run and still end within ``block_seconds``:
#: blocks are sized to ``block_seconds / HEADROOM`` expected. The calibration times one process
#: alone; a run has a job on every core, and jobs side by side share caches and memory bandwidth:
#: one LightGBM trial on sonar took 10.5 CPU-s alone and 15.8 beside a second (1.50x, two cores),
#: and on a full default run the jobs expected over 60 s ran at 0.82-1.44x their estimate
#: (LightGBM's at 1.28-1.44x, two of them past 120 s). With blocks in powers of two a job is
#: expected within (``block_seconds / 2 HEADROOM``, ``block_seconds / HEADROOM``].
HEADROOM = 1.5


def algorithm_kind(entry: Mapping[str, Any]) -> str:
    """The key of what an algorithm entry computes: its estimator, parameters as written
    (a parameter the registry fills in per dataset, ``rounds_from_registry``, is not one)
    and protocol keys, as canonical JSON."""
    params = dict(entry.get("params") or {})
    rounds = entry.get("rounds_from_registry")
    if rounds:
        params[str(rounds)] = "registry"
    what = {
        "estimator": str(entry["estimator"]),
        "params": params,
        **{key: bool(entry.get(key, False)) for key in _PROTOCOL_KEYS},
    }
    return json.dumps(what, sort_keys=True, separators=(",", ":"), default=str)


def block_size(seconds: float, target: float, cap: int | None = None) -> int:
    """Trials per block: the largest power of two whose expected time (``seconds`` a trial)
    is within ``target``, at least 1, at most ``cap``.

    Powers of two, so that a re-measured calibration moves a cell's blocks only when its
    trials' cost moves by a factor of two or more (a new block size re-runs the cell).
    """
    if not seconds > 0 or not math.isfinite(seconds):
        raise ValueError(f"a trial's expected seconds must be a finite number > 0, got {seconds}")
    fits = max(1, math.floor(target / seconds))
    size = 1 << (fits.bit_length() - 1)
    return size if cap is None else max(1, min(size, int(cap)))


@dataclass(frozen=True)
class LogLinearModel:
    """A least-squares model of a trial's seconds, ``log s = coef . [1, log train rows, log
    test rows, log columns]`` (None from :meth:`of` with fewer than four distinct shapes)."""

    coef: np.ndarray

    @classmethod
    def of(cls, rows: list[dict[str, Any]]) -> LogLinearModel | None:
        points = {(r["train_size"], r["test_size"], r["columns"]) for r in rows}
        if len(points) < _MIN_POINTS:
            return None
        features = np.array(
            [_features(r["train_size"], r["test_size"], r["columns"]) for r in rows]
        )
        target = np.log([r["seconds"] for r in rows])
        coef, *_ = np.linalg.lstsq(features, target, rcond=None)
        return cls(coef)

    def seconds(self, train_size: int, test_size: int, columns: float) -> float:
        return float(np.exp(_features(train_size, test_size, columns) @ self.coef))


def _features(train_size: float, test_size: float, columns: float) -> np.ndarray:
    return np.log([math.e, max(train_size, 1), max(test_size, 1), max(columns, 1)])


class TrialCosts:
    """The calibration table and the estimates made from it (see the module docstring).

    Parameters
    ----------
    rows : list of dict
        The table's rows (:data:`COLUMNS`), e.g. from :meth:`load`.
    """

    def __init__(self, rows: list[dict[str, Any]]):
        self.rows = rows
        self._exact = {
            (r["kind"], r["dataset"], r["train_size"], r["test_size"]): r["seconds"] for r in rows
        }
        columns = [r["columns"] for r in rows]
        self._columns = {r["dataset"]: r["columns"] for r in rows}
        self._median_columns = float(np.median(columns)) if columns else 100.0

    @classmethod
    @functools.cache
    def load(cls, path: str | Path = CALIBRATION) -> TrialCosts:
        """The table at ``path`` (default: the package's), read once per process."""
        return cls.read(path)

    @classmethod
    def read(cls, path: str | Path) -> TrialCosts:
        """The table at ``path``; no file gives no rows."""
        path = Path(path)
        if not path.is_file():
            return cls([])
        with path.open(newline="", encoding="utf-8") as handle:
            rows = [
                {
                    "kind": row["kind"],
                    "estimator": row["estimator"],
                    "dataset": row["dataset"],
                    "train_size": int(row["train_size"]),
                    "test_size": int(row["test_size"]),
                    "columns": int(row["columns"]),
                    "seconds": max(float(row["seconds"]), 1e-3),
                }
                for row in csv.DictReader(handle)
            ]
        return cls(rows)

    @functools.cached_property
    def _by_kind(self) -> dict[str, LogLinearModel | None]:
        kinds: dict[str, list] = {}
        for row in self.rows:
            kinds.setdefault(row["kind"], []).append(row)
        return {kind: LogLinearModel.of(rows) for kind, rows in kinds.items()}

    @functools.cached_property
    def _by_estimator(self) -> dict[str, LogLinearModel | None]:
        classes: dict[str, list] = {}
        for row in self.rows:
            classes.setdefault(row["estimator"], []).append(row)
        return {name: LogLinearModel.of(rows) for name, rows in classes.items()}

    def columns(self, dataset: str) -> float:
        """The binarized columns of ``dataset`` as measured (the table's median if unknown)."""
        return float(self._columns.get(dataset, self._median_columns))

    def seconds(
        self, entry: Mapping[str, Any], dataset: str, train_size: int, test_size: int
    ) -> float:
        """Expected CPU seconds of one trial of the algorithm ``entry`` (a config entry) on
        ``dataset`` at these sizes (the module docstring's order of estimates)."""
        kind = algorithm_kind(entry)
        exact = self._exact.get((kind, dataset, int(train_size), int(test_size)))
        if exact is not None:
            return exact
        columns = self.columns(dataset)
        for fit in (self._by_kind.get(kind), self._by_estimator.get(str(entry["estimator"]))):
            if fit is not None:
                return fit.seconds(train_size, test_size, columns)
        return DEFAULT_SECONDS
