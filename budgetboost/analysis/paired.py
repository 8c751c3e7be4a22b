"""Paired comparisons: trials share their split and costs, so errors pair up by trial.

* :func:`paired_comparisons`: at each budget the errors of two algorithms pair up by trial.
  For every pair: mean difference, win/tie/loss counts and a Wilcoxon signed-rank p-value,
  Holm-corrected across the budgets of one (dataset, cost model, pair) curve.
* :func:`cost_model_comparisons`: each algorithm under the open questions' cost models
  against itself under the baseline U[0, 2], paired by trial (same split, other costs).
* :func:`oriented`: the cells of one comparison "x vs y", whatever the stored pair order.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection, Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from budgetboost.analysis.summary import column_dtype, sort_rows, validate_shards, with_names
from budgetboost.pipeline.catalogue import Catalogue

__all__ = [
    "CELL_KEYS",
    "RISE_COLUMNS",
    "cost_model_comparisons",
    "holm",
    "oriented",
    "paired_comparisons",
    "wilcoxon_p",
]

CELL_KEYS = ["dataset", "cost_model", "budget"]
_PAIR = ["dataset", "cost_model"]


def holm(pvalues: Sequence[float] | np.ndarray) -> np.ndarray:
    """Holm (1979) step-down adjusted p-values; NaN entries are ignored and stay NaN.

    With the ``m`` finite p-values sorted ascending, ``p_(i)`` becomes
    ``max_{j <= i} min(1, (m - j + 1) p_(j))``. Rejecting where the adjusted value is below
    ``alpha`` controls the family-wise error rate at ``alpha``.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    finite = np.flatnonzero(~np.isnan(p))
    m = finite.size
    if m == 0:
        return out
    order = finite[np.argsort(p[finite], kind="stable")]
    scaled = (m - np.arange(m)) * p[order]
    out[order] = np.minimum(1.0, np.maximum.accumulate(scaled))
    return out


def wilcoxon_p(differences: Sequence[float] | np.ndarray) -> float:
    """Two-sided Wilcoxon signed-rank p-value of paired ``differences``.

    Zero differences are dropped (Wilcoxon's convention); all-zero differences give
    ``p = 1`` (no evidence of any difference) and no differences give NaN. Differences are
    rounded to 12 decimals first, so that error rates differing by the same number of test
    examples tie exactly despite floating-point noise. The exact null distribution is used
    for up to 50 non-zero differences without tied magnitudes, the normal approximation
    (with tie correction) otherwise.
    """
    d = np.round(np.asarray(differences, dtype=float), 12)
    d = d[~np.isnan(d)]
    if d.size == 0:
        return float("nan")
    d = d[d != 0]
    if d.size == 0:
        return 1.0
    ties = np.unique(np.abs(d)).size < d.size
    method = "exact" if d.size <= 50 and not ties else "approx"
    return float(sps.wilcoxon(d, zero_method="wilcox", correction=False, method=method).pvalue)


def paired_comparisons(shards: pd.DataFrame, catalogue: Catalogue | None = None) -> pd.DataFrame:
    """Paired comparison of every pair of algorithms at every shared budget.

    Rows are matched on (dataset, cost_model, budget, trial). For a pair (``algorithm_a``,
    ``algorithm_b``) in ``catalogue`` order (default: the built-in algorithms): ``n_pairs``,
    ``error_a``, ``error_b``, ``mean_diff`` (a - b, negative when a is better), ``wins`` /
    ``ties`` / ``losses`` (trials where a has lower / equal / higher error than b),
    ``p_value`` (Wilcoxon signed rank) and ``p_holm``: Holm-adjusted across the budgets of
    the same (dataset, cost_model, pair).
    """
    df = validate_shards(shards)
    columns = [
        "dataset",
        "cost_model",
        "budget",
        "algorithm_a",
        "algorithm_b",
        "n_pairs",
        "error_a",
        "error_b",
        "mean_diff",
        "wins",
        "ties",
        "losses",
        "p_value",
        "p_holm",
    ]
    wide = df.pivot_table(
        index=[*CELL_KEYS, "trial"], columns="algorithm", values="test_error", aggfunc="first"
    )
    catalogue = with_names(catalogue, wide.columns)
    frames = []
    for a, b in itertools.combinations(catalogue.sort(wide.columns), 2):
        both = wide[[a, b]].dropna()
        if both.empty:
            continue
        diff = (both[a] - both[b]).round(12).rename("diff")  # as in wilcoxon_p
        cells = pd.DataFrame(
            {
                "a": both[a],
                "b": both[b],
                "diff": diff,
                "win": diff < 0,
                "tie": diff == 0,
                "loss": diff > 0,
            }
        )
        grouped = cells.groupby(level=CELL_KEYS, sort=False)
        part = grouped.agg(
            n_pairs=("diff", "size"),
            error_a=("a", "mean"),
            error_b=("b", "mean"),
            mean_diff=("diff", "mean"),
            wins=("win", "sum"),
            ties=("tie", "sum"),
            losses=("loss", "sum"),
        )
        part["p_value"] = grouped["diff"].apply(wilcoxon_p)
        part = part.reset_index()
        part.insert(3, "algorithm_a", a)
        part.insert(4, "algorithm_b", b)
        frames.append(part)
    if not frames:
        return pd.DataFrame({col: pd.Series(dtype=column_dtype(col)) for col in columns})
    out = pd.concat(frames, ignore_index=True)
    out["p_holm"] = out.groupby(
        ["dataset", "cost_model", "algorithm_a", "algorithm_b"], sort=False
    )["p_value"].transform(lambda p: holm(p.to_numpy()))
    for col in ("n_pairs", "wins", "ties", "losses"):
        out[col] = out[col].astype("int64")
    return sort_rows(
        out[columns], ["dataset", "cost_model", "algorithm_a", "algorithm_b", "budget"], catalogue
    )


#: Columns of :func:`cost_model_comparisons`.
RISE_COLUMNS = [
    "dataset",
    "cost_model",
    "algorithm",
    "budget",
    "n_pairs",
    "error",
    "baseline_error",
    "rise",
    "rises",
    "falls",
    "p_value",
    "p_holm",
]


def cost_model_comparisons(
    shards: pd.DataFrame,
    baseline: str | None,
    catalogue: Catalogue | None = None,
) -> pd.DataFrame:
    """Each algorithm under the open questions' cost models against itself under ``baseline``.

    The open questions' cost models are those of (dataset, cost model) pairs without the unbudgeted
    reference (:func:`budgetboost.pipeline.catalogue.paper_experiments`). Rows are paired on
    (dataset, algorithm, budget, trial): a trial has the same train/test split under every cost
    model, so the pair differs only in the costs. Per (dataset, cost model, algorithm, budget):
    ``n_pairs``, mean ``error`` and ``baseline_error``, ``rise`` (their mean difference: positive
    when the error rises), ``rises`` / ``falls`` (trials where it rises / falls), the Wilcoxon
    ``p_value`` and ``p_holm`` (Holm across the budgets of the same dataset, cost model and
    algorithm).
    """
    df = validate_shards(shards)
    catalogue = with_names(catalogue, df["algorithm"])
    reference = catalogue.with_role("reference")
    paper = set(zip(*(df.loc[df["algorithm"] == reference, c] for c in _PAIR), strict=True))
    pairs = set(zip(df["dataset"], df["cost_model"], strict=True))
    others = {(d, c) for d, c in pairs - paper if c != baseline and (d, baseline) in pairs}
    if not paper or not others:
        return pd.DataFrame({col: pd.Series(dtype=column_dtype(col)) for col in RISE_COLUMNS})
    keys = ["dataset", "algorithm", "budget", "trial"]
    base = df[df["cost_model"] == baseline][[*keys, "test_error"]]
    mask = pd.MultiIndex.from_frame(df[_PAIR]).isin(list(others))
    cells = df[mask][[*keys, "cost_model", "test_error"]].merge(
        base, on=keys, suffixes=("", "_baseline")
    )
    cells["diff"] = (cells["test_error"] - cells["test_error_baseline"]).round(12)
    grouped = cells.groupby(["dataset", "cost_model", "algorithm", "budget"], sort=False)
    out = grouped.agg(
        n_pairs=("diff", "size"),
        error=("test_error", "mean"),
        baseline_error=("test_error_baseline", "mean"),
        rise=("diff", "mean"),
        rises=("diff", lambda d: int((d > 0).sum())),
        falls=("diff", lambda d: int((d < 0).sum())),
    )
    out["p_value"] = grouped["diff"].apply(wilcoxon_p)
    out = out.reset_index()
    out["p_holm"] = out.groupby(["dataset", "cost_model", "algorithm"], sort=False)[
        "p_value"
    ].transform(lambda p: holm(p.to_numpy()))
    for col in ("n_pairs", "rises", "falls"):
        out[col] = out[col].astype("int64")
    return sort_rows(out[RISE_COLUMNS], ["dataset", "cost_model", "algorithm", "budget"], catalogue)


def oriented(
    comparisons: pd.DataFrame, better: Collection[str], worse: Collection[str]
) -> pd.DataFrame:
    """Cells comparing an algorithm of ``better`` with one of ``worse``, as ``x`` vs ``y``.

    ``diff`` is x's mean error minus y's (negative: x better), whatever the stored pair order.
    """
    c = comparisons
    forward = c[c["algorithm_a"].isin(better) & c["algorithm_b"].isin(worse)]
    backward = c[c["algorithm_b"].isin(better) & c["algorithm_a"].isin(worse)]
    keys = ["dataset", "cost_model", "budget", "n_pairs", "p_value", "p_holm"]
    fwd = forward[keys].assign(
        x=forward["algorithm_a"],
        y=forward["algorithm_b"],
        error_x=forward["error_a"],
        error_y=forward["error_b"],
        diff=forward["mean_diff"],
        wins=forward["wins"],
        losses=forward["losses"],
    )
    bwd = backward[keys].assign(
        x=backward["algorithm_b"],
        y=backward["algorithm_a"],
        error_x=backward["error_b"],
        error_y=backward["error_a"],
        diff=-backward["mean_diff"],
        wins=backward["losses"],
        losses=backward["wins"],
    )
    out = pd.concat([fwd, bwd], ignore_index=True)
    cols = [
        "dataset",
        "cost_model",
        "x",
        "y",
        "budget",
        "n_pairs",
        "error_x",
        "error_y",
        "diff",
        "wins",
        "losses",
        "p_value",
        "p_holm",
    ]
    return (
        out[cols]
        .sort_values(["dataset", "cost_model", "x", "y", "budget"], kind="stable")
        .reset_index(drop=True)
    )
