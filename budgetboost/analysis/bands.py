"""Budget bands: the lowest, middle and highest third of each budget grid.

The paper speaks of "small" and "larger" budgets (claims 2, 3 and 5); the claims, the
findings and the rank statistics all cut each (dataset, cost model)'s sorted grid of
distinct finite budgets the same way: with ``m = ceil(n / 3)`` (at least 1) of its ``n``
budgets, ``small`` is the ``m`` lowest, ``large`` the ``m`` highest and ``medium`` what lies
strictly between them; ``all`` is the whole grid ("at every budget", claim 1).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

__all__ = ["BANDS", "BAND_LABELS", "BAND_SHARE", "budget_band", "in_budget_band"]

#: The budget bands, in order: lowest, middle and highest third of each budget grid.
BANDS = ("small", "medium", "large")
#: How the bands are named in titles and tables (the paper speaks of "larger budgets").
BAND_LABELS = {
    "small": "Small budgets",
    "medium": "Medium budgets",
    "large": "Larger budgets",
    "all": "All budgets",
}
#: The share of a grid in the small and in the large band.
BAND_SHARE = 1 / 3


def in_budget_band(position: ArrayLike, grid_size: ArrayLike, band: str) -> np.ndarray:
    """Whether the budget at ``position`` of a sorted grid of ``grid_size`` budgets is in ``band``.

    A grid of 3 budgets gives one budget per band; grids of 1, 2 and 4 budgets have no medium
    band (and a single budget is both small and large).

    Parameters
    ----------
    position : array_like of int
        0-based position of each budget in its sorted grid of distinct finite budgets.
    grid_size : array_like of int
        Number of distinct finite budgets of that grid (broadcast against ``position``).
    band : {"small", "medium", "large", "all"}

    Returns
    -------
    ndarray of bool
    """
    if band not in (*BANDS, "all"):
        raise ValueError(f"band must be one of {(*BANDS, 'all')}; got {band!r}")
    position = np.asarray(position, dtype=np.int64)
    size = np.asarray(grid_size, dtype=np.int64)
    if band == "all":
        return np.broadcast_to(True, np.broadcast(position, size).shape).copy()
    share = np.maximum(1, -(-size // 3))  # ceil(size / 3) in integers
    small = position < share
    large = position >= size - share
    return {"small": small, "large": large, "medium": ~small & ~large}[band]


def budget_band(table: pd.DataFrame, band: str) -> pd.DataFrame:
    """The rows of ``table`` at the budgets of ``band``, per (dataset, cost model).

    The grid is the sorted distinct finite budgets of each (dataset, cost model) in
    ``table``; rows at an infinite budget (the unbudgeted reference) are left out.
    """
    finite = table[np.isfinite(table["budget"])]
    if finite.empty:
        return finite
    grid = finite.groupby(["dataset", "cost_model"], sort=False)["budget"]
    position = grid.rank(method="dense").to_numpy(dtype=np.int64) - 1
    return finite[in_budget_band(position, grid.transform("nunique"), band)]
