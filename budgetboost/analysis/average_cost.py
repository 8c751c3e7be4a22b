"""The average-cost reading: each method's test error at a matched *mean* test cost.

The hard cap reads a method at budget ``B``: no test example pays more than ``B``. The field's
adaptive methods (Greedy Miser, CSTC, BudgetPrune, DIME) optimise and report the *average*
test cost instead, and gain most by spending more on hard examples. This module reads every
method on the same footing: its error against its mean per-example cost, the error-cost
front, one point per budget of its grid (``mean_example_cost``, ``test_error`` of its shard
rows), read at the levels ``c`` of the grid itself:

* the front's points are sorted by mean cost (a method with one operating point per budget
  is read at its mean cost); at a level between two points the error is interpolated
  linearly between them (a mixture of the two operating points spends ``c`` on average);
* at a level at or above the costliest point the error is that point's: the method spends
  less than ``c`` on average, which the reading allows (never extrapolated);
* at a level below the cheapest point the method is not read there (no row).

The rule reads the points in a fixed order and never chooses among them by error, so no test
error picks an operating point. Each (algorithm, trial) is read on its own front, so the
result pairs by trial as the hard cap's does, and
:func:`budgetboost.analysis.paired.band_means` and :func:`~budgetboost.analysis.paired.compare` read
it unchanged.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["READINGS", "at_mean_cost"]

#: The two readings of a budget, in the order they are reported: the hard per-example cap
#: and the mean cost over the test examples.
READINGS = {"cap": "hard cap per example", "mean": "mean cost per example"}

_KEYS = ["dataset", "cost_model", "algorithm", "trial"]


def at_mean_cost(shards: pd.DataFrame) -> pd.DataFrame:
    """Every (algorithm, trial)'s test error at mean test cost equal to each budget of its
    (dataset, cost model)'s grid (module docstring).

    Parameters
    ----------
    shards : DataFrame
        Shard rows with ``dataset, cost_model, algorithm, trial, budget, test_error,
        mean_example_cost``; rows at an infinite budget are left out.

    Returns
    -------
    DataFrame
        ``dataset, cost_model, algorithm, trial, budget, test_error``: ``budget`` is the mean
        cost level read, ``test_error`` the error there; a level below a front's cheapest
        point has no row.
    """
    columns = [*_KEYS, "budget", "test_error"]
    finite = shards[np.isfinite(shards["budget"]) & shards["mean_example_cost"].notna()]
    parts = [pd.DataFrame(columns=columns)]
    for _, pair in finite.groupby(["dataset", "cost_model"], sort=False):
        parts.append(_read_pair(pair))
    out = pd.concat(parts, ignore_index=True)
    return out.astype({"trial": "int64", "budget": "float64", "test_error": "float64"})


def _read_pair(pair: pd.DataFrame) -> pd.DataFrame:
    """:func:`at_mean_cost` for one (dataset, cost model): every front at once."""
    levels = np.unique(pair["budget"].to_numpy(dtype=np.float64))
    wide = pair.pivot_table(
        index=_KEYS, columns="budget", values=["mean_example_cost", "test_error"], aggfunc="first"
    )
    cost = wide["mean_example_cost"].to_numpy(dtype=np.float64)  # (fronts, budgets)
    error = wide["test_error"].to_numpy(dtype=np.float64)
    # a front without a budget of the grid has +inf there: sorted last, never read
    missing = np.isnan(cost) | np.isnan(error)
    cost = np.where(missing, np.inf, cost)
    order = np.argsort(cost, axis=1, kind="stable")  # ties keep the grid's order
    cost = np.take_along_axis(cost, order, axis=1)
    error = np.take_along_axis(np.where(missing, np.nan, error), order, axis=1)
    points = (~missing).sum(axis=1)  # each front's number of points
    read = _interpolate(cost, error, points, levels)  # (fronts, levels)
    index = wide.index.to_frame(index=False)
    out = index.loc[index.index.repeat(levels.size)].reset_index(drop=True)
    out["budget"] = np.tile(levels, len(index))
    out["test_error"] = read.reshape(-1)
    return out[out["test_error"].notna()]


def _interpolate(
    cost: np.ndarray, error: np.ndarray, points: np.ndarray, levels: np.ndarray
) -> np.ndarray:
    """Each row's error at each level: linear between the points around it, the costliest
    point's at or above it, NaN below the cheapest (rows sorted by cost, ``points`` finite
    points first)."""
    rows = np.arange(cost.shape[0])[:, None]
    # index of the last point whose cost is <= the level (ties: the last in grid order)
    below = (cost[:, :, None] <= levels[None, None, :]).sum(axis=1) - 1  # (fronts, levels)
    last = (points - 1)[:, None]
    lo = np.clip(below, 0, None)
    hi = np.minimum(lo + 1, last)
    c_lo, c_hi = cost[rows, lo], cost[rows, hi]
    e_lo, e_hi = error[rows, lo], error[rows, hi]
    between = (below >= 0) & (below < last)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(between, (levels[None, :] - c_lo) / (c_hi - c_lo), 0.0)
    read = e_lo + share * (e_hi - e_lo)
    read = np.where(between, read, e_lo)  # at or above the costliest point: its error
    return np.where((below < 0) | (points[:, None] == 0), np.nan, read)
