"""Result shards, validated and summarised: what a reader of the paper's figures looks at.

The pipeline writes one shard row per (dataset, cost model, algorithm, trial, budget); see
``docs/design.md``.

* :func:`summarize`: per (dataset, cost model, algorithm, budget) the number of trials, mean
  and standard deviation of the test error with a Student-t 95 % confidence interval (the
  error bars of Figures 1-3 of Huang, Powers & Reyzin 2015), mean rounds, budget spent and
  features used, and the mean and maximum per-example cost (what AdaBoostRS actually pays).

(The budget at which an algorithm reaches the unbudgeted reference is a paired test:
:mod:`budgetboost.analysis.matching`.)
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from budgetboost.analysis.vocabulary import CONFIDENCE
from budgetboost.catalogue import Catalogue
from budgetboost.data.io import read_table
from budgetboost.data.schema import ROW_LOSSES, SHARD_COLUMNS
from budgetboost.data.splits import SplitSizes

__all__ = [
    "CONFIDENCE",
    "OPTIONAL_COLUMNS",
    "ROW_LOSSES",
    "column_dtype",
    "read_shards",
    "sort_rows",
    "summarize",
    "t_interval",
    "validate_shards",
    "with_names",
]

GROUP_KEYS = ["dataset", "cost_model", "algorithm", "budget"]
CELL_KEYS = ["dataset", "cost_model", "budget"]


def with_names(catalogue: Catalogue | None, names: Iterable[str]) -> Catalogue:
    """``catalogue`` (default: the built-in algorithms) with every name of the data in it."""
    return (catalogue if catalogue is not None else Catalogue.default()).including(names)


#: Shard columns an external table may leave out (filled with NaN).
OPTIONAL_COLUMNS = ("tradeoff",)


def validate_shards(df: pd.DataFrame, source: str = "shards") -> pd.DataFrame:
    """Check that ``df`` has the shard columns of docs/design.md with usable values.

    Returns a copy with canonical dtypes. Raises ``ValueError`` naming ``source`` and the
    offending column or value. The columns of :data:`OPTIONAL_COLUMNS` (``tradeoff``: only
    the peers choose one) are NaN where absent.
    """
    missing = [
        col for col in SHARD_COLUMNS if col not in df.columns and col not in OPTIONAL_COLUMNS
    ]
    if missing:
        raise ValueError(f"{source}: missing shard column(s) {missing}; have {list(df.columns)}")
    df = df.assign(**{col: np.nan for col in OPTIONAL_COLUMNS if col not in df.columns})
    out = df.loc[:, list(SHARD_COLUMNS)].copy()
    if ROW_LOSSES in df.columns:
        out[ROW_LOSSES] = df[ROW_LOSSES].to_numpy(dtype=object)
    for col, kind in SHARD_COLUMNS.items():
        if kind == "string":
            out[col] = out[col].astype(str)
        else:
            try:
                values = pd.to_numeric(out[col], errors="raise")
            except (TypeError, ValueError) as err:
                raise ValueError(f"{source}: column {col!r} must be numeric ({err})") from None
            out[col] = values.astype("int64" if kind.startswith("int") else "float64")
    bad = out["test_error"].isna() | ~out["test_error"].between(0.0, 1.0)
    if bad.any():
        raise ValueError(
            f"{source}: test_error must lie in [0, 1]; got {out.loc[bad, 'test_error'].iloc[0]!r}"
        )
    bad = out["budget"].isna() | (out["budget"] < 0)
    if bad.any():
        raise ValueError(
            f"{source}: budget must be >= 0 or inf; got {out.loc[bad, 'budget'].iloc[0]!r}"
        )
    dup = out.duplicated(subset=[*GROUP_KEYS, "trial"])
    if dup.any():
        row = out.loc[dup].iloc[0]
        raise ValueError(
            f"{source}: duplicate row for dataset={row.dataset!r}, "
            f"cost_model={row.cost_model!r}, algorithm={row.algorithm!r}, "
            f"trial={row.trial}, budget={row.budget}"
        )
    return out


def read_shards(paths: Sequence[str | os.PathLike]) -> pd.DataFrame:
    """Read and concatenate shard files, validating each (errors name the file)."""
    frames = [validate_shards(read_table(path), source=os.fspath(path)) for path in paths]
    if not frames:
        return validate_shards(pd.DataFrame({col: [] for col in SHARD_COLUMNS}))
    return pd.concat(frames, ignore_index=True)


def t_interval(
    values: Sequence[float] | np.ndarray, confidence: float = CONFIDENCE
) -> tuple[float, float, float, float]:
    """Mean, sample standard deviation and Student-t confidence interval of ``values``.

    ``mean ± t_{(1+confidence)/2, n-1} * sd / sqrt(n)``; with a single value the standard
    deviation and the interval are NaN (no spread can be estimated).
    """
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    x = np.asarray(values, dtype=float)
    if x.size == 0:
        raise ValueError("t_interval needs at least one value")
    mean = float(x.mean())
    if x.size < 2:
        return mean, float("nan"), float("nan"), float("nan")
    sd = float(x.std(ddof=1))
    half = float(sps.t.ppf(0.5 + confidence / 2, x.size - 1)) * sd / np.sqrt(x.size)
    return mean, sd, mean - half, mean + half


def summarize(
    shards: pd.DataFrame,
    confidence: float = CONFIDENCE,
    catalogue: Catalogue | None = None,
    sizes: Mapping[str, SplitSizes] | None = None,
) -> pd.DataFrame:
    """One row per (dataset, cost_model, algorithm, budget) with error statistics.

    Columns: the keys, ``trials``, ``error_mean``, ``error_sd``, ``ci_low``, ``ci_high``,
    ``ci_half`` (Student t on ``trials - 1`` degrees of freedom; with ``sizes``, each
    dataset's corrected resampled variance ``sd^2 (1 / trials + n_test / (n_pool -
    n_test))``, so that the interval is about the dataset's population and not only its
    sample: :mod:`budgetboost.analysis.per_dataset`; without, the trials are taken as
    independent draws), ``train_error_mean``, ``rounds_mean``,
    ``spent_mean``, ``spent_fraction`` (spent / budget; NaN for an unbudgeted row),
    ``n_features_mean``, ``nodes_mean``, ``example_cost_mean`` (mean over trials of the
    per-example mean cost), ``example_cost_max`` (largest per-example cost of any trial) and
    ``tradeoff_median`` (median over trials of the trade-off a peer chose at that budget on
    its validation part; NaN for the others).
    """
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    df = validate_shards(shards)
    grouped = df.groupby(GROUP_KEYS, sort=False, dropna=False)
    out = grouped.agg(
        trials=("test_error", "size"),
        error_mean=("test_error", "mean"),
        error_sd=("test_error", "std"),
        train_error_mean=("train_error", "mean"),
        rounds_mean=("rounds", "mean"),
        spent_mean=("spent", "mean"),
        n_features_mean=("n_features", "mean"),
        nodes_mean=("nodes", "mean"),
        example_cost_mean=("mean_example_cost", "mean"),
        example_cost_max=("max_example_cost", "max"),
        tradeoff_median=("tradeoff", "median"),
    ).reset_index()
    n = out["trials"].to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        tcrit = np.where(n > 1, sps.t.ppf(0.5 + confidence / 2, np.maximum(n - 1, 1)), np.nan)
        shared = out["dataset"].map(_shared_share(sizes)).fillna(0.0).to_numpy(dtype=float)
        half = tcrit * out["error_sd"].to_numpy() * np.sqrt(1.0 / n + shared)
        budget = out["budget"].to_numpy()
        out["spent_fraction"] = np.where(
            np.isfinite(budget) & (budget > 0), out["spent_mean"].to_numpy() / budget, np.nan
        )
    out["ci_half"] = half
    out["ci_low"] = out["error_mean"] - half
    out["ci_high"] = out["error_mean"] + half
    columns = [
        *GROUP_KEYS,
        "trials",
        "error_mean",
        "error_sd",
        "ci_low",
        "ci_high",
        "ci_half",
        "train_error_mean",
        "rounds_mean",
        "spent_mean",
        "spent_fraction",
        "n_features_mean",
        "nodes_mean",
        "example_cost_mean",
        "example_cost_max",
        "tradeoff_median",
    ]
    return sort_rows(out[columns], ["dataset", "cost_model", "algorithm", "budget"], catalogue)


def _shared_share(sizes: Mapping[str, SplitSizes] | None) -> dict[str, float]:
    """``rho / (1 - rho) = n_test / (n_pool - n_test)`` per dataset (none without sizes)."""
    return {name: s.n_test / (s.n_pool - s.n_test) for name, s in (sizes or {}).items()}


def sort_rows(
    df: pd.DataFrame,
    keys: list[str],
    catalogue: Catalogue | None = None,
) -> pd.DataFrame:
    """Sort rows by ``keys``, algorithm columns in catalogue order, and reset the index."""
    names = [
        n
        for col in ("algorithm", "algorithm_a", "algorithm_b")
        if col in df
        for n in df[col].unique()
    ]
    catalogue = with_names(catalogue, names)

    def key(col: pd.Series) -> pd.Series:
        if col.name in ("algorithm", "algorithm_a", "algorithm_b"):
            return col.map(catalogue.rank)
        return col

    return df.sort_values(keys, key=key, kind="stable").reset_index(drop=True)


def column_dtype(col: str) -> str:
    if col in (
        "dataset",
        "cost_model",
        "algorithm",
        "algorithm_a",
        "algorithm_b",
        "reference_cost_model",
    ):
        return "object"
    if col in ("n_pairs", "wins", "ties", "losses", "trials", "rises", "falls"):
        return "int64"
    return "float64"
