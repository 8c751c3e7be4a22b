"""The budget at which an algorithm reaches the unbudgeted reference's error (claim 6).

Section 6 of the paper: on ecoli, Smoothed at budget 6 does what AdaBoost needs 18 for. An
algorithm *reaches* the reference at budget ``B`` when its test error, paired by trial with
the reference's (budget ``inf``, the catalogue's role ``reference``), is shown to be at most
:data:`~budgetboost.analysis.vocabulary.EQUIVALENCE_MARGIN` above it on the dataset's
population: the one-sided 95 % upper bound of the mean paired difference, with the corrected
resampled variance of :mod:`budgetboost.analysis.per_dataset` (the trials split one finite
sample), is at most the margin (a non-inferiority test), on at least
:data:`~budgetboost.analysis.vocabulary.MIN_TRIALS` trials. ``match_budget`` is the smallest
such budget of the grid (NaN: never).

The pairing matters: both errors move with the trial's split, so their difference varies
much less than either error, and a bar made of the reference's own interval (the way before
this test) is either too tight (the trials taken as independent) or, once that interval is
about the population, so wide that every curve "reaches" it at once.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from budgetboost.analysis.per_dataset import corrected_se
from budgetboost.analysis.summary import column_dtype, sort_rows, validate_shards, with_names
from budgetboost.analysis.vocabulary import ALPHA, EQUIVALENCE_MARGIN, MIN_TRIALS
from budgetboost.catalogue import Catalogue
from budgetboost.data.splits import SplitSizes

__all__ = ["MATCH_COLUMNS", "budget_to_match"]

#: Columns of :func:`budget_to_match`.
MATCH_COLUMNS = [
    "dataset",
    "cost_model",
    "algorithm",
    "reference_cost_model",
    "reference_error",
    "match_budget",
    "error_at_match",
    "upper_at_match",
    "trials",
    "largest_budget",
]
_DECIMALS = 12


def _reference_errors(df: pd.DataFrame, reference: str | None) -> pd.DataFrame:
    """Each (dataset, cost model)'s reference error per trial, with the cost model it ran
    under: its own, else the dataset's first (sorted) cost model with a reference (the
    splits, and so the trials, are the same under every cost model)."""
    ref = df[(df["algorithm"] == reference) & np.isinf(df["budget"])]
    ref = ref[["dataset", "cost_model", "trial", "test_error"]]
    if ref.empty:
        return pd.DataFrame()
    experiments = df[["dataset", "cost_model"]].drop_duplicates()
    has = set(zip(ref["dataset"], ref["cost_model"], strict=True))
    first = ref.groupby("dataset")["cost_model"].min()
    experiments = experiments.assign(
        reference_cost_model=[
            c if (d, c) in has else first.get(d)
            for d, c in zip(experiments["dataset"], experiments["cost_model"], strict=True)
        ]
    ).dropna(subset=["reference_cost_model"])
    ref = ref.rename(columns={"cost_model": "reference_cost_model", "test_error": "reference"})
    return experiments.merge(ref, on=["dataset", "reference_cost_model"])


def budget_to_match(
    shards: pd.DataFrame,
    sizes: Mapping[str, SplitSizes],
    catalogue: Catalogue | None = None,
    margin: float = EQUIVALENCE_MARGIN,
    alpha: float = ALPHA,
) -> pd.DataFrame:
    """Smallest budget at which each algorithm reaches the reference (module docstring).

    Parameters
    ----------
    shards : DataFrame
        Result shards (every algorithm's test error per trial and budget).
    sizes : mapping
        Each dataset's training, test and pool rows
        (:func:`budgetboost.data.splits.read_sizes`).

    Returns
    -------
    DataFrame
        Columns :data:`MATCH_COLUMNS`: per (dataset, cost model, algorithm), the reference's
        mean error on the common trials, ``match_budget`` (NaN: never), the algorithm's mean
        error there, ``upper_at_match`` (the upper bound of the paired difference there),
        the trials paired and the grid's largest budget.
    """
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    df = validate_shards(shards)
    catalogue = with_names(catalogue, df["algorithm"])
    reference = catalogue.with_role("reference")
    refs = _reference_errors(df, reference)
    curves = df[(df["algorithm"] != reference) & np.isfinite(df["budget"])]
    both = curves.merge(refs, on=["dataset", "cost_model", "trial"]) if len(refs) else refs
    if both.empty:
        return pd.DataFrame({c: pd.Series(dtype=column_dtype(c)) for c in MATCH_COLUMNS})
    both = both.assign(d=np.round(both["test_error"] - both["reference"], _DECIMALS))
    keys = ["dataset", "cost_model", "algorithm", "reference_cost_model", "budget"]
    cells = (
        both.groupby(keys, sort=True)
        .agg(
            trials=("d", "size"),
            mean=("d", "mean"),
            spread=("d", "std"),
            error=("test_error", "mean"),
            reference_error=("reference", "mean"),
        )
        .reset_index()
    )
    unknown = sorted(set(cells["dataset"]) - set(sizes))
    if unknown:
        raise ValueError(f"no split sizes for dataset(s) {unknown} (have {sorted(sizes)})")
    n_test = cells["dataset"].map(lambda d: sizes[d].n_test).to_numpy()
    n_pool = cells["dataset"].map(lambda d: sizes[d].n_pool).to_numpy()
    enough = cells["trials"].to_numpy() >= max(2, MIN_TRIALS)
    trials = np.maximum(cells["trials"].to_numpy(), 2)
    se = corrected_se(cells["spread"].fillna(0.0), cells["mean"], trials, n_test, n_pool)
    upper = cells["mean"].to_numpy() + sps.t.ppf(1 - alpha, trials - 1) * se
    cells = cells.assign(upper=upper, reached=enough & (upper <= margin))
    rows = []
    for (dataset, cost_model, algorithm, ref_cost_model), curve in cells.groupby(
        keys[:4], sort=True
    ):
        reached = curve[curve["reached"]]
        hit = reached.iloc[0] if not reached.empty else None
        rows.append(
            {
                "dataset": dataset,
                "cost_model": cost_model,
                "algorithm": algorithm,
                "reference_cost_model": ref_cost_model,
                "reference_error": float(curve["reference_error"].iloc[-1]),
                "match_budget": float(hit["budget"]) if hit is not None else np.nan,
                "error_at_match": float(hit["error"]) if hit is not None else np.nan,
                "upper_at_match": float(hit["upper"]) if hit is not None else np.nan,
                "trials": int(curve["trials"].min()),
                "largest_budget": float(curve["budget"].max()),
            }
        )
    out = pd.DataFrame(rows, columns=MATCH_COLUMNS)
    return sort_rows(out, ["dataset", "cost_model", "algorithm"], catalogue)
