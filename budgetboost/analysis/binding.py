"""Where a budget binds: the share of a dataset's attributes a cheapest-first buyer reads.

A budget binds on a dataset when it keeps a method from reading most of what the dataset
measures. The yardstick is a buyer who pays for the cheapest measurements first, with no
regard to what they say, until the next would pass the budget: under prices per raw
attribute (a measurement paid once, whatever indicators read it) it buys attributes; under
prices per indicator it buys indicators and *touches* every attribute one of them reads. The
share of the offered attributes it touches at budget ``B``, averaged over the trials' prices,
is :func:`touched_share`; a budget *binds* when that share is at most :data:`BINDS_AT`, and a
band binds on a dataset when its largest budget does. Turney's discount groups are left out
(each test at its full price): the share is then a lower bound.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from budgetboost.analysis.bands import in_budget_band

__all__ = ["BINDS_AT", "BINDING_COLUMNS", "Prices", "band_binds", "binding", "touched_share"]

#: A budget binds when a cheapest-first buyer touches at most this share of the attributes.
BINDS_AT = 0.5
#: Relative tolerance of a price sum against a budget (sums of decimals round: 0.1 + 0.2 +
#: 0.3 > 0.6 in floating point).
_TOLERANCE = 1e-9
#: Columns of :func:`binding`.
BINDING_COLUMNS = ["dataset", "cost_model", "budget", "attributes", "share", "binds"]


@dataclass(frozen=True)
class Prices:
    """The prices of one (dataset, cost model)'s trials.

    Attributes
    ----------
    costs : ndarray of shape (trials, columns)
        Each indicator's price per trial (``inf``: not offered).
    attributes : ndarray of int, shape (columns,)
        The raw attribute each indicator reads.
    grouped : bool
        An attribute's indicators are paid for together (a measurement paid once).
    """

    costs: np.ndarray
    attributes: np.ndarray
    grouped: bool


def touched_share(prices: Prices, budgets: np.ndarray) -> np.ndarray:
    """The share of the offered attributes a cheapest-first buyer touches at each budget,
    per trial: shape ``(trials, budgets)`` (module docstring)."""
    costs = np.atleast_2d(np.asarray(prices.costs, dtype=np.float64))
    codes = np.unique(np.asarray(prices.attributes), return_inverse=True)[1].reshape(-1)
    budgets = np.asarray(budgets, dtype=np.float64)
    n_trials, n_columns = costs.shape
    n_attributes = int(codes.max()) + 1 if codes.size else 0
    rows = np.arange(n_trials)[:, None]
    if prices.grouped:  # one price per attribute: its indicators' (equal) price
        price = np.full((n_trials, n_attributes), np.inf)
        np.minimum.at(price, (slice(None), codes), costs)
        units = np.sort(price, axis=1)  # not offered (inf) last
        new = np.isfinite(units)
    else:  # one price per indicator: buying one touches its attribute the first time
        order = np.argsort(costs, axis=1, kind="stable")
        units = np.take_along_axis(costs, order, axis=1)
        read = codes[order]
        position = np.broadcast_to(np.arange(n_columns), read.shape)
        first_at = np.full((n_trials, n_attributes), n_columns)
        np.minimum.at(first_at, (rows, read), position)
        new = (first_at[rows, read] == position) & np.isfinite(units)
    finite = np.isfinite(units)
    spent = np.where(finite, np.cumsum(np.where(finite, units, 0.0), axis=1), np.inf)
    touched = np.cumsum(new, axis=1)
    offered = np.maximum(1, new.sum(axis=1))
    # the units bought: the longest cheapest-first prefix within the budget
    bought = (spent[:, :, None] <= budgets[None, None, :] * (1 + _TOLERANCE)).sum(axis=1)
    count = np.where(bought > 0, touched[rows, np.maximum(bought - 1, 0)], 0)
    return count / offered[:, None]


def binding(
    prices: Mapping[tuple[str, str], Prices], budgets: Mapping[tuple[str, str], np.ndarray]
) -> pd.DataFrame:
    """Per (dataset, cost model, budget): the offered attributes, the mean share a
    cheapest-first buyer touches, and whether the budget binds; columns
    :data:`BINDING_COLUMNS`."""
    rows = []
    for (dataset, cost_model), grid in budgets.items():
        if (dataset, cost_model) not in prices:
            continue
        price = prices[(dataset, cost_model)]
        grid = np.asarray(grid, dtype=np.float64)
        share = touched_share(price, grid).mean(axis=0)
        offered = _offered(price)
        for budget, s in zip(grid, share, strict=True):
            rows.append((dataset, cost_model, float(budget), offered, float(s), s <= BINDS_AT))
    table = pd.DataFrame(rows, columns=BINDING_COLUMNS)
    return table.astype({"budget": "float64", "attributes": "int64", "share": "float64"})


def _offered(prices: Prices) -> int:
    """The number of attributes with an offered indicator in the first trial."""
    costs = np.atleast_2d(prices.costs)
    return int(np.unique(np.asarray(prices.attributes)[np.isfinite(costs[0])]).size)


def band_binds(table: pd.DataFrame, band: str) -> pd.DataFrame:
    """Per (dataset, cost model): whether ``band`` binds there (its largest budget binds)
    and the share at that budget: columns ``dataset, cost_model, band, share, binds``."""
    if table.empty:
        return pd.DataFrame(columns=["dataset", "cost_model", "band", "share", "binds"])
    grid = table.groupby(["dataset", "cost_model"], sort=False)["budget"]
    position = grid.rank(method="dense").to_numpy(dtype=np.int64) - 1
    inside = table[in_budget_band(position, grid.transform("nunique"), band)]
    top = inside.loc[inside.groupby(["dataset", "cost_model"], sort=False)["budget"].idxmax()]
    return top.assign(band=band)[["dataset", "cost_model", "band", "share", "binds"]].reset_index(
        drop=True
    )
