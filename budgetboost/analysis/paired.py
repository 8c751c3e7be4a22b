"""Paired comparisons over budget bands: one test per (comparison, dataset, cost model, band).

Trials share their split and costs across algorithms (and a trial's split across cost
models), so two algorithms' errors pair up by trial. A *comparison* is "x vs y"
(:class:`Comparison`): two algorithms under the same cost model, or one algorithm under a
cost model against itself under the baseline U[0, 2]. For each (dataset, cost model) and
budget band (:mod:`budgetboost.analysis.bands`), each trial's error is averaged over the
band's budgets (:func:`band_means`), and the trials both ran give the paired differences
``x - y`` of one *row* (:func:`compare`):

- ``mean_difference`` with its 95 % Student-t interval (``ci_low``, ``ci_high``);
- ``p_value``: the exact sign-flip test (:func:`budgetboost.analysis.significance.
  sign_flip_p`), and ``p_holm``, Holm-adjusted over the rows of the comparison;
- ``p_equivalence``: the two one-sided tests within ``margin``, Holm-adjusted likewise;
- ``min_detectable``: the smallest difference the test detects with 80 % power at the
  comparison's strictest Holm level (``alpha`` over its rows);
- ``outcome``: ``better``, ``worse``, ``equivalent`` or ``inconclusive`` (x against y).

Across datasets, each comparison and band has one more row (``dataset`` ``all``): the same
tests over the (dataset, cost model) pairs, each a unit with its mean difference over trials
(Demšar 2006: compare over the replicated unit, datasets), Holm over the bands.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from budgetboost.analysis.bands import in_budget_band
from budgetboost.analysis.significance import (
    ALPHA,
    holm,
    mean_interval,
    min_detectable,
    outcome,
    sign_flip_p,
    tost_p,
)
from budgetboost.analysis.summary import validate_shards

__all__ = [
    "ALL",
    "COMPARISON_COLUMNS",
    "EQUIVALENCE_MARGIN",
    "Comparison",
    "band_means",
    "compare",
]

#: Equivalence margin of every comparison: two mean test errors within this (absolute error
#: rate) are practically the same (the paper's "almost identically", claim 4a).
EQUIVALENCE_MARGIN = 0.01
#: The ``dataset`` (and, for comparisons of two algorithms, ``cost_model``) of the rows
#: across datasets.
ALL = "all"
#: Columns of :func:`compare`, in order.
COMPARISON_COLUMNS = [
    "question",
    "x",
    "y",
    "dataset",
    "cost_model",
    "band",
    "trials",
    "error_x",
    "error_y",
    "mean_difference",
    "ci_low",
    "ci_high",
    "p_value",
    "p_holm",
    "p_equivalence",
    "min_detectable",
    "outcome",
]


@dataclass(frozen=True)
class Comparison:
    """One comparison "x vs y" (x's error minus y's).

    Attributes
    ----------
    question : str
        What it answers (``peers``, ``trees``, ``claim 2``, ...): rows are grouped by it.
    x, y : str
        Algorithms.
    baseline : str or None
        For a cost-model comparison: y is x itself under this cost model (the row's cost
        model is x's); else both run under the row's cost model.
    pairs : tuple of (dataset, cost model) or None
        The (dataset, cost model) pairs compared (default: every pair both ran on).
    bands : tuple of str
        The budget bands compared in (:mod:`budgetboost.analysis.bands`).
    """

    question: str
    x: str
    y: str
    baseline: str | None = None
    pairs: tuple[tuple[str, str], ...] | None = None
    bands: tuple[str, ...] = ("small", "large")


def band_means(shards: pd.DataFrame, bands: Sequence[str]) -> pd.DataFrame:
    """Each trial's test error averaged over the budgets of each band.

    The grid of a (dataset, cost model) is the sorted distinct finite budgets of all its
    algorithms; an (algorithm, trial) enters a band only if it has every budget of it.

    Returns
    -------
    DataFrame
        Columns ``dataset``, ``cost_model``, ``band``, ``algorithm``, ``trial``, ``error``.
    """
    df = validate_shards(shards)
    df = df[np.isfinite(df["budget"])][
        ["dataset", "cost_model", "algorithm", "trial", "budget", "test_error"]
    ]
    if df.empty:
        return pd.DataFrame(
            columns=["dataset", "cost_model", "band", "algorithm", "trial", "error"]
        )
    grid = df.groupby(["dataset", "cost_model"], sort=False)["budget"]
    position = grid.rank(method="dense").to_numpy(dtype=np.int64) - 1
    size = grid.transform("nunique").to_numpy(dtype=np.int64)
    parts = []
    for band in bands:
        inside = in_budget_band(position, size, band)
        part = df[inside].assign(band=band)
        need = part.groupby(["dataset", "cost_model"], sort=False)["budget"].transform("nunique")
        cells = part.assign(need=need).groupby(
            ["dataset", "cost_model", "band", "algorithm", "trial"], sort=False
        )
        table = cells.agg(
            error=("test_error", "mean"), n=("budget", "nunique"), need=("need", "first")
        )
        parts.append(table[table["n"] == table["need"]]["error"].reset_index())
    return pd.concat(parts, ignore_index=True)


def _stats(d: np.ndarray) -> dict:
    mean, low, high = mean_interval(d)
    return {
        "trials": int(d.size),
        "mean_difference": mean,
        "ci_low": low,
        "ci_high": high,
        "p_value": sign_flip_p(d),
        "p_equivalence": tost_p(d, EQUIVALENCE_MARGIN),
        "differences": d,
    }


def _pairs_of(means: pd.DataFrame, comparison: Comparison) -> pd.DataFrame:
    """Trial by trial, x's and y's band errors of one comparison."""
    x = means[means["algorithm"] == comparison.x]
    y = means[means["algorithm"] == comparison.y]
    keys = ["dataset", "cost_model", "band", "trial"]
    if comparison.baseline is not None:
        y = y[y["cost_model"] == comparison.baseline].drop(columns="cost_model")
        x = x[x["cost_model"] != comparison.baseline]
        keys = ["dataset", "band", "trial"]
    both = x.merge(y, on=keys, suffixes=("_x", "_y"))
    if comparison.pairs is not None and not both.empty:
        wanted = pd.MultiIndex.from_tuples(comparison.pairs)
        both = both[pd.MultiIndex.from_frame(both[["dataset", "cost_model"]]).isin(wanted)]
    return both


def compare(
    means: pd.DataFrame, comparisons: Iterable[Comparison], alpha: float = ALPHA
) -> pd.DataFrame:
    """The rows of every comparison (see the module docstring), columns
    :data:`COMPARISON_COLUMNS`, in each comparison's bands.

    Parameters
    ----------
    means : DataFrame
        :func:`band_means` of the shards, in every band a comparison asks for.
    comparisons : iterable of Comparison
    """
    rows = []
    for comparison in comparisons:
        both = _pairs_of(means, comparison)
        if both.empty:
            continue
        family, across = [], []
        for band in comparison.bands:
            in_band = both[both["band"] == band]
            units: dict[str, list] = {}
            for (dataset, cost_model), part in in_band.groupby(
                ["dataset", "cost_model"], sort=False
            ):
                d = (part["error_x"] - part["error_y"]).to_numpy()
                family.append(
                    {
                        "dataset": dataset,
                        "cost_model": cost_model,
                        "band": band,
                        "error_x": float(part["error_x"].mean()),
                        "error_y": float(part["error_y"].mean()),
                        **_stats(d),
                    }
                )
                # across datasets: pooled over the cost models, except that a cost model is
                # compared with the baseline on its own
                pool = cost_model if comparison.baseline is not None else ALL
                units.setdefault(pool, []).append(family[-1])
            for pool, unit_rows in units.items():
                if len(unit_rows) < 2:
                    continue
                ex = np.array([r["error_x"] for r in unit_rows])
                ey = np.array([r["error_y"] for r in unit_rows])
                across.append(
                    {
                        "dataset": ALL,
                        "cost_model": pool,
                        "band": band,
                        "error_x": float(ex.mean()),
                        "error_y": float(ey.mean()),
                        **_stats(ex - ey),
                    }
                )
        for group in (family, across):
            if not group:
                continue
            p_holm = holm([r["p_value"] for r in group])
            p_equivalence = holm([r["p_equivalence"] for r in group])
            level = alpha / len(group)
            for row, ph, pe in zip(group, p_holm, p_equivalence, strict=True):
                d = row.pop("differences")
                rows.append(
                    {
                        "question": comparison.question,
                        "x": comparison.x,
                        "y": comparison.y,
                        **row,
                        "p_holm": float(ph),
                        "p_equivalence": float(pe),
                        "min_detectable": min_detectable(d, level),
                        "outcome": outcome(row["mean_difference"], ph, pe, alpha),
                    }
                )
    table = pd.DataFrame(rows, columns=COMPARISON_COLUMNS)
    return table.astype({"trials": "int64"}) if not table.empty else _empty()


def _empty() -> pd.DataFrame:
    dtypes = {"trials": "int64"}
    text = {"question", "x", "y", "dataset", "cost_model", "band", "outcome"}
    return pd.DataFrame(
        {
            c: pd.Series(dtype=dtypes.get(c, "object" if c in text else "float64"))
            for c in COMPARISON_COLUMNS
        }
    )
