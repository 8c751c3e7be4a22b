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

**Each test row's loss.** Where the shards carry which test rows each point got wrong
(:data:`~budgetboost.analysis.summary.ROW_LOSSES`, packed bits), the reading carries each
row's loss too, so the paired tests bound the trials' correlation from the rows
(:func:`budgetboost.analysis.per_dataset.row_covariance`) as at the hard cap. At a level a
share ``w`` of the way from the cheaper point ``a`` to the costlier ``b`` the mixture plays
``b`` with probability ``w``, so a row's loss is its expected loss ``(1 - w) wrong_a + w
wrong_b`` (a fraction where the two disagree on it); at or above the costliest point, that
point's. The rows' mean is the read error, as a shard row's bits average to its
``test_error``. The bound reads real-valued losses (a band's are already each row's mean
over the band's budgets): its parts are variances and products of the rows' losses, and a
mixture's loss of a row is a function of the row and the trial like any other. What the
mixture changes is elsewhere: ``w`` is read off the trial's mean test costs, which depend on
the test rows wherever a method's examples pay different costs (an adaptive method's, not
one whose every example reads the same attributes), so to first order the reading holds one
more part per test row, the front's slope times the row's centred cost, that the rows'
losses do not show. The paired tests of this reading therefore count the rest of a trial's
variance as shared at the most any part shares, not at the training rows' share alone
(``unseen_test_part`` of :func:`~budgetboost.analysis.per_dataset.row_covariance`): the
same bound where the training rows are at least as many as the test rows (the suite's 750 /
250 of 1,000), a more cautious one where the test rows are the more.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetboost.analysis.summary import ROW_LOSSES

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
        mean_example_cost``, and optionally :data:`~budgetboost.analysis.summary.ROW_LOSSES`
        (packed bits per row); rows at an infinite budget are left out.

    Returns
    -------
    DataFrame
        ``dataset, cost_model, algorithm, trial, budget, test_error``: ``budget`` is the mean
        cost level read, ``test_error`` the error there; a level below a front's cheapest
        point has no row. Where ``shards`` has
        :data:`~budgetboost.analysis.summary.ROW_LOSSES`, that column too: each test row's
        loss at the level (module docstring), a float array over the packed bits (padding
        rows 0: a reader cuts them off, as it does the bits'), None where a point it reads
        lacks them.
    """
    rows = ROW_LOSSES in shards.columns
    columns = [*_KEYS, "budget", "test_error", *([ROW_LOSSES] if rows else [])]
    finite = shards[np.isfinite(shards["budget"]) & shards["mean_example_cost"].notna()]
    parts = [pd.DataFrame(columns=columns)]
    for _, pair in finite.groupby(["dataset", "cost_model"], sort=False):
        parts.append(_read_pair(pair, rows))
    out = pd.concat(parts, ignore_index=True)[columns]
    return out.astype({"trial": "int64", "budget": "float64", "test_error": "float64"})


def _read_pair(pair: pd.DataFrame, rows: bool) -> pd.DataFrame:
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
    lo, hi, share, read = _interpolate(cost, error, points, levels)  # each (fronts, levels)
    index = wide.index.to_frame(index=False)
    out = index.loc[index.index.repeat(levels.size)].reset_index(drop=True)
    out["budget"] = np.tile(levels, len(index))
    out["test_error"] = read.reshape(-1)
    if rows:
        fronts = np.arange(order.shape[0])[:, None]
        out[ROW_LOSSES] = _mixed_losses(
            pair,
            wide.index,
            wide["test_error"].columns.to_numpy(dtype=np.float64),
            order[fronts, lo],
            order[fronts, hi],
            share,
            ~np.isnan(read),
        )
    return out[out["test_error"].notna()]


def _interpolate(
    cost: np.ndarray, error: np.ndarray, points: np.ndarray, levels: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each row's error at each level: linear between the points around it, the costliest
    point's at or above it, NaN below the cheapest (rows sorted by cost, ``points`` finite
    points first); with the two points read (``lo``, ``hi``: places in the sorted row) and
    the costlier one's weight ``share`` (0 where one point is read), each ``(rows,
    levels)``."""
    rows = np.arange(cost.shape[0])[:, None]
    # index of the last point whose cost is <= the level (ties: the last in grid order)
    below = (cost[:, :, None] <= levels[None, None, :]).sum(axis=1) - 1  # (fronts, levels)
    last = (points - 1)[:, None]
    lo = np.clip(below, 0, None)
    hi = np.clip(np.minimum(lo + 1, last), 0, None)
    c_lo, c_hi = cost[rows, lo], cost[rows, hi]
    e_lo, e_hi = error[rows, lo], error[rows, hi]
    between = (below >= 0) & (below < last)
    with np.errstate(invalid="ignore", divide="ignore"):
        share = np.where(between, (levels[None, :] - c_lo) / (c_hi - c_lo), 0.0)
    read = e_lo + share * (e_hi - e_lo)
    read = np.where(between, read, e_lo)  # at or above the costliest point: its error
    read = np.where((below < 0) | (points[:, None] == 0), np.nan, read)
    return lo, hi, share, read


def _mixed_losses(
    pair: pd.DataFrame,
    fronts: pd.MultiIndex,
    budgets: np.ndarray,
    lo: np.ndarray,
    hi: np.ndarray,
    share: np.ndarray,
    readable: np.ndarray,
) -> np.ndarray:
    """Each (front, level)'s test rows' losses, flattened front by front (an object array of
    float arrays, None where not read or where a point read lacks its rows' losses):
    ``(1 - share)`` times the bits of budget column ``lo`` plus ``share`` times those of
    ``hi`` (module docstring)."""
    out = np.full(lo.size, None, dtype=object)
    packed = pair[ROW_LOSSES].to_numpy(dtype=object)
    stored = np.array([isinstance(b, bytes | bytearray | memoryview) for b in packed], dtype=bool)
    if not stored.any():
        return out
    sizes = {len(b) for b in packed[stored]}
    if len(sizes) > 1:
        raise ValueError(
            f"{ROW_LOSSES}: the rows of one (dataset, cost model) pack {sorted(sizes)} bytes; "
            "every trial's test rows are as many"
        )
    front = fronts.get_indexer(pd.MultiIndex.from_frame(pair[_KEYS]))
    column = pd.Index(budgets).get_indexer(pair["budget"].to_numpy(dtype=np.float64))
    has = np.zeros((len(fronts), budgets.size), dtype=bool)
    bits = np.zeros((len(fronts), budgets.size, 8 * sizes.pop()), dtype=np.uint8)
    keep = stored & (front >= 0) & (column >= 0)
    flat = np.frombuffer(b"".join(bytes(b) for b in packed[keep]), dtype=np.uint8)
    bits[front[keep], column[keep]] = np.unpackbits(flat.reshape(int(keep.sum()), -1), axis=1)
    has[front[keep], column[keep]] = True
    rows = np.arange(lo.shape[0])[:, None]
    known = readable & has[rows, lo] & (has[rows, hi] | (share == 0))
    f, level = np.nonzero(known)
    w = share[f, level][:, None]  # a missing hi has zero bits and is read only at w = 0
    mixed = (1.0 - w) * bits[f, lo[f, level]] + w * bits[f, hi[f, level]]
    for place, losses in zip(np.flatnonzero(known), mixed, strict=True):
        out[place] = losses  # one array per row of the table: an object column
    return out
