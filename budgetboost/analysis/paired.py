"""Paired comparisons over budget bands: one row per (comparison, dataset, cost model, band)
and one across datasets per (comparison, band).

Trials share their split and costs across algorithms (and a trial's split across cost
models), so two algorithms' errors pair up by trial. A *comparison* is "x vs y"
(:class:`Comparison`): two algorithms under the same cost model, or one algorithm under a
cost model against itself under the baseline U[0, 2]. For each (dataset, cost model) and
budget band (:mod:`budgetboost.analysis.bands`), each trial's error is averaged over the
band's budgets (:func:`band_means`), and the trials both ran give the paired differences
``x - y`` of one *row* (:func:`compare`), tested about the dataset's population by
:func:`budgetboost.analysis.per_dataset.compare_paired` (the corrected resampled t-test: the
trials split one finite sample of the dataset's rows):

- ``mean_difference`` with its 90 % interval, the one its outcome reads (``ci_low``,
  ``ci_high``: :data:`~budgetboost.analysis.vocabulary.DECISION_CONFIDENCE`), and
  ``p_value`` (two-sided, no difference), all from one variance; ``p_beyond`` and
  ``p_equivalence``: the interval against the margin as one-sided tests
  (:func:`~budgetboost.analysis.per_dataset.margin_p_values`);
  ``p_holm`` (of ``p_value``), ``p_beyond`` and ``p_equivalence`` are Holm-adjusted over the
  rows of the comparison, each test apart;
- ``min_detectable``: the smallest true difference that reads ``better`` or ``worse`` with
  80 % power at the comparison's strictest Holm level (``alpha`` over its rows);
- ``correlation``: how much two trials of the dataset share, as the correction takes it
  (:func:`~budgetboost.analysis.per_dataset.correlation`);
- ``outcome``: ``better``, ``worse``, ``equivalent``, ``inconclusive`` or ``too few trials``,
  read off the interval (:data:`~budgetboost.analysis.vocabulary.RULE`);
- ``pool``: the pool the row enters across datasets (:class:`Comparison`: ``all``, the
  cost model for a comparison with the baseline, or the field's pool of its cost model).

**Across datasets**, each comparison and band has one more row (``dataset`` ``all``) when at
least two datasets ran it: the datasets are the unit
(:mod:`budgetboost.analysis.across_datasets`), each with one value, its mean difference (a dataset
under several cost models: the mean over them, so it counts once); the Wilcoxon signed-rank test
(``p_value`` and ``p_wilcoxon``, Holm over the comparison's bands in ``p_holm``) with the
Hodges-Lehmann estimate (``hodges_lehmann``) and the interval that inverts the same test
(``ci_low``, ``ci_high``; ``mean_difference`` is the mean over the datasets), that interval against
the margin (``p_beyond``, ``p_equivalence``, Holm over the comparison's bands), the Bayesian
signed-rank test's ``prob_better``, ``prob_equivalent``, ``prob_worse``, and ``datasets``.
A comparison with the baseline cost model is pooled per cost model.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from budgetboost.analysis.across_datasets import (
    compare_datasets,
    dataset_outcome,
    min_detectable,
)
from budgetboost.analysis.bands import in_budget_band
from budgetboost.analysis.per_dataset import compare_paired, detectable_beyond, outcome
from budgetboost.analysis.significance import holm
from budgetboost.analysis.summary import ROW_LOSSES, validate_shards
from budgetboost.analysis.vocabulary import ALL, ALPHA, EQUIVALENCE_MARGIN, TOO_FEW_TRIALS
from budgetboost.data.splits import SplitSizes

__all__ = [
    "BINDING_POOL",
    "COMPARISON_COLUMNS",
    "Comparison",
    "band_errors",
    "band_means",
    "compare",
]

#: Appended to a pool's name for its row across the datasets where the band binds.
BINDING_POOL = " (binding)"
#: Columns of :func:`compare`, in order.
COMPARISON_COLUMNS = [
    "question",
    "x",
    "y",
    "dataset",
    "cost_model",
    "pool",
    "band",
    "trials",
    "datasets",
    "error_x",
    "error_y",
    "mean_difference",
    "hodges_lehmann",
    "ci_low",
    "ci_high",
    "p_value",
    "p_holm",
    "p_equivalence",
    "p_beyond",
    "min_detectable",
    "correlation",
    "p_wilcoxon",
    "prob_better",
    "prob_equivalent",
    "prob_worse",
    "outcome",
]
_INTEGER_COLUMNS = ("trials", "datasets")
_TEXT_COLUMNS = ("question", "x", "y", "dataset", "cost_model", "pool", "band", "outcome")


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
    pools : tuple of (cost model, pool) or None
        Across datasets, the rows of these cost models pool under their pool's name, one row
        per pool (the field's regime: each cost model, or Turney's files together); a cost
        model not named pools under ``all``. ``None``: every cost model under ``all``.
    binding : frozenset of (dataset, cost model, band) or None
        Where each band binds (:mod:`budgetboost.analysis.binding`: a criterion of the prices
        alone, never of an error): each pool then has a second row across datasets, on the
        datasets where the band binds, pooled as ``"{pool}"`` + :data:`BINDING_POOL` (not
        where every dataset of the pool binds: that row is the pool's own).
    """

    question: str
    x: str
    y: str
    baseline: str | None = None
    pairs: tuple[tuple[str, str], ...] | None = None
    bands: tuple[str, ...] = ("small", "large")
    pools: tuple[tuple[str, str], ...] | None = None
    binding: frozenset[tuple[str, str, str]] | None = None


def band_means(shards: pd.DataFrame, bands: Sequence[str]) -> pd.DataFrame:
    """Each trial's test error averaged over the budgets of each band.

    The grid of a (dataset, cost model) is the sorted distinct finite budgets of all its
    algorithms; an (algorithm, trial) enters a band only if it has every budget of it.

    Returns
    -------
    DataFrame
        Columns ``dataset``, ``cost_model``, ``band``, ``algorithm``, ``trial``, ``error``.
        Where the shards carry each test row's loss (the column
        :data:`~budgetboost.analysis.summary.ROW_LOSSES`), also ``losses``: each test row's
        loss averaged over the band's budgets, in the split's order (an array; None where a
        budget of the band lacks it).
    """
    return band_errors(validate_shards(shards), bands)


def band_errors(table: pd.DataFrame, bands: Sequence[str]) -> pd.DataFrame:
    """:func:`band_means` of a table with the columns ``dataset, cost_model, algorithm,
    trial, budget, test_error`` alone (e.g. the average-cost reading's,
    :func:`budgetboost.analysis.average_cost.at_mean_cost`), and ``losses`` where it has
    :data:`~budgetboost.analysis.summary.ROW_LOSSES` (packed bits, or each row's loss as
    floats: the average-cost reading's)."""
    rows = ROW_LOSSES in table.columns
    df = table[np.isfinite(table["budget"])][
        ["dataset", "cost_model", "algorithm", "trial", "budget", "test_error"]
        + ([ROW_LOSSES] if rows else [])
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
        if rows:
            table["losses"] = cells[ROW_LOSSES].agg(_mean_losses)
        whole = table[table["n"] == table["need"]]
        parts.append(whole[["error", "losses"] if rows else ["error"]].reset_index())
    return pd.concat(parts, ignore_index=True)


def _mean_losses(packed: pd.Series) -> np.ndarray | None:
    """Each test row's loss averaged over a cell's budgets, from their packed bits
    (:data:`~budgetboost.analysis.summary.ROW_LOSSES`; the padding bits of the last byte
    are 0 and are cut off by the reader, who knows the test rows) or from float arrays of
    the same length (the average-cost reading's expected losses,
    :func:`budgetboost.analysis.average_cost.at_mean_cost`); None where a budget lacks
    them."""
    if all(isinstance(b, bytes | bytearray | memoryview) for b in packed):
        return np.stack([np.unpackbits(np.frombuffer(b, dtype=np.uint8)) for b in packed]).mean(
            axis=0
        )
    if all(isinstance(b, np.ndarray) for b in packed):
        return np.stack(list(packed)).astype(np.float64).mean(axis=0)
    return None


def _pairs_of(by_algorithm: Mapping[str, pd.DataFrame], comparison: Comparison) -> pd.DataFrame:
    """Trial by trial, x's and y's band errors of one comparison (``by_algorithm``: the band
    means of each algorithm, split once for every comparison)."""
    x, y = by_algorithm.get(comparison.x), by_algorithm.get(comparison.y)
    if x is None or y is None:
        return pd.DataFrame()
    keys = ["dataset", "cost_model", "band", "trial"]
    if comparison.baseline is not None:
        y = y[y["cost_model"] == comparison.baseline].drop(columns="cost_model")
        x = x[x["cost_model"] != comparison.baseline]
        keys = ["dataset", "band", "trial"]
    both = x.merge(y, on=keys, suffixes=("_x", "_y"))
    if comparison.pairs is not None and not both.empty:
        if not comparison.pairs:
            return both.iloc[:0]
        wanted = pd.MultiIndex.from_tuples(comparison.pairs)
        both = both[pd.MultiIndex.from_frame(both[["dataset", "cost_model"]]).isin(wanted)]
    return both


def _row_differences(
    part: pd.DataFrame, size: SplitSizes, tests: Mapping[int, np.ndarray] | None
) -> tuple[np.ndarray, np.ndarray] | None:
    """Each trial's test rows and their loss differences x - y (:func:`compare_paired`'s
    ``rows``), or None where the trials' rows or their losses are not all known."""
    if tests is None or "losses_x" not in part.columns:
        return None
    trials = part["trial"].to_numpy()
    if not all(int(t) in tests for t in trials):
        return None
    if any(v is None or (isinstance(v, float) and np.isnan(v)) for v in part["losses_x"]) or any(
        v is None or (isinstance(v, float) and np.isnan(v)) for v in part["losses_y"]
    ):
        return None
    n = size.n_test
    x = np.stack([np.asarray(v)[:n] for v in part["losses_x"]])
    y = np.stack([np.asarray(v)[:n] for v in part["losses_y"]])
    test = np.stack([np.asarray(tests[int(t)]) for t in trials])
    if x.shape != test.shape or y.shape != test.shape:
        raise ValueError(
            f"the rows' losses of {x.shape[1]} / {y.shape[1]} test rows do not match the "
            f"split's {test.shape[1]} (dataset sizes {tuple(size)})"
        )
    return test, x - y


def _dataset_rows(
    in_band: pd.DataFrame,
    band: str,
    sizes: Mapping[str, SplitSizes],
    tests: Mapping[str, Mapping[int, np.ndarray]] | None = None,
    unseen_test_part: bool = False,
) -> list[dict]:
    """One row per (dataset, cost model) of one band (Holm and outcome filled in later)."""
    rows = []
    for (dataset, cost_model), part in in_band.groupby(["dataset", "cost_model"], sort=False):
        if dataset not in sizes:
            raise ValueError(
                f"no split sizes for dataset {dataset!r} (have {sorted(sizes)}): the paired "
                "tests need each dataset's training, test and pool rows"
            )
        d = (part["error_x"] - part["error_y"]).to_numpy()
        known = _row_differences(part, sizes[dataset], (tests or {}).get(dataset))
        tested = compare_paired(d, *sizes[dataset], rows=known, unseen_test_part=unseen_test_part)
        rows.append(
            {
                "dataset": dataset,
                "cost_model": cost_model,
                "band": band,
                "trials": tested["trials"],
                "datasets": 1,
                "error_x": float(part["error_x"].mean()),
                "error_y": float(part["error_y"].mean()),
                **{k: tested[k] for k in ("mean_difference", "ci_low", "ci_high", "p_value")},
                "p_equivalence": tested["p_equivalence"],
                "p_beyond": tested["p_beyond"],
                "correlation": tested["correlation"],
                "_se": tested["se"],
                "_df": tested["df"],
                "_enough": tested["outcome"] != TOO_FEW_TRIALS,
            }
        )
    return rows


def _pool_of(comparison: Comparison, cost_model: str) -> str:
    """The pool a row of ``cost_model`` enters across datasets (:class:`Comparison`)."""
    if comparison.baseline is not None:
        return cost_model
    if comparison.pools:
        return dict(comparison.pools).get(cost_model, ALL)
    return ALL


def _across_rows(family: list[dict], comparison: Comparison, band: str, alpha: float) -> list[dict]:
    """The rows across datasets of one band: one value per dataset (its cost models'
    mean), pooled per cost model for a comparison with the baseline."""
    if not family:
        return []
    table = pd.DataFrame(family)
    table["pool"] = [_pool_of(comparison, c) for c in table["cost_model"]]
    if comparison.binding:
        binds = [
            (d, c, band) in comparison.binding
            for d, c in zip(table["dataset"], table["cost_model"], strict=True)
        ]
        bound = table[binds]
        # a pool whose every dataset binds has that row already: no second, identical test
        whole = {p: part["dataset"].nunique() for p, part in table.groupby("pool")}
        some = {p: part["dataset"].nunique() for p, part in bound.groupby("pool")}
        strict = np.array([some[p] < whole[p] for p in bound["pool"]], dtype=bool)
        bound = bound.loc[strict].assign(pool=lambda t: t["pool"] + BINDING_POOL)
        table = pd.concat([table, bound], ignore_index=True)
    rows = []
    for pool, part in table.groupby("pool", sort=False):
        by_dataset = part.groupby("dataset", sort=False)
        per_dataset = by_dataset[["mean_difference", "error_x", "error_y"]].mean()
        per_dataset["trials"] = by_dataset["trials"].min()
        if len(per_dataset) < 2:
            continue
        key = (comparison.question, comparison.x, comparison.y, band, pool)
        tested = compare_datasets(per_dataset["mean_difference"].to_numpy(), key=key, alpha=alpha)
        rows.append(
            {
                "dataset": ALL,
                "cost_model": pool,
                "band": band,
                "trials": int(per_dataset["trials"].min()),
                "datasets": tested["datasets"],
                "error_x": float(per_dataset["error_x"].mean()),
                "error_y": float(per_dataset["error_y"].mean()),
                "mean_difference": tested["mean_difference"],
                "hodges_lehmann": tested["hodges_lehmann"],
                "ci_low": tested["ci_low"],
                "ci_high": tested["ci_high"],
                "p_value": tested["p_wilcoxon"],
                "p_equivalence": tested["p_equivalence"],
                "p_beyond": tested["p_beyond"],
                "correlation": np.nan,
                "p_wilcoxon": tested["p_wilcoxon"],
                "prob_better": tested["prob_better"],
                "prob_equivalent": tested["prob_equivalent"],
                "prob_worse": tested["prob_worse"],
                "_values": per_dataset["mean_difference"].to_numpy(),
            }
        )
    return rows


def _finish_datasets(family: list[dict], alpha: float) -> None:
    """Holm over a comparison's per-dataset rows that support an outcome (each test apart:
    no difference, beyond the margin, inside it); outcomes and ``min_detectable`` at the
    strictest Holm level."""
    enough = np.array([r["_enough"] for r in family], dtype=bool)

    def adjusted(column: str) -> np.ndarray:
        return holm(np.where(enough, [r[column] for r in family], np.nan))

    p_holm, pb_holm, pe_holm = adjusted("p_value"), adjusted("p_beyond"), adjusted("p_equivalence")
    level = alpha / max(1, int(enough.sum()))
    for row, ph, pbh, peh in zip(family, p_holm, pb_holm, pe_holm, strict=True):
        row["p_holm"], row["p_beyond"], row["p_equivalence"] = float(ph), float(pbh), float(peh)
        row["min_detectable"] = (
            EQUIVALENCE_MARGIN + detectable_beyond(row["_df"], level) * row["_se"]
            if row["_df"] >= 1
            else np.inf
        )
        row["outcome"] = outcome(row["mean_difference"], pbh, peh, alpha, row["_enough"])


def _finish_across(across: list[dict], alpha: float) -> None:
    """Holm over a comparison's rows across datasets (each test apart); outcomes and
    ``min_detectable``."""
    p_holm = holm([r["p_wilcoxon"] for r in across])
    pb_holm = holm([r["p_beyond"] for r in across])
    pe_holm = holm([r["p_equivalence"] for r in across])
    level = alpha / max(1, len(across))
    for row, ph, pbh, peh in zip(across, p_holm, pb_holm, pe_holm, strict=True):
        row["p_holm"], row["p_beyond"], row["p_equivalence"] = float(ph), float(pbh), float(peh)
        row["min_detectable"] = EQUIVALENCE_MARGIN + min_detectable(row["_values"], level)
        row["outcome"] = dataset_outcome(row["hodges_lehmann"], pbh, peh, row["datasets"], alpha)


def compare(
    means: pd.DataFrame,
    comparisons: Iterable[Comparison],
    sizes: Mapping[str, SplitSizes],
    alpha: float = ALPHA,
    tests: Mapping[str, Mapping[int, np.ndarray]] | None = None,
    unseen_test_part: bool = False,
) -> pd.DataFrame:
    """The rows of every comparison (see the module docstring), columns
    :data:`COMPARISON_COLUMNS`, in each comparison's bands.

    Parameters
    ----------
    means : DataFrame
        :func:`band_means` of the shards, in every band a comparison asks for.
    comparisons : iterable of Comparison
    sizes : mapping
        Each dataset's :class:`~budgetboost.data.splits.SplitSizes` (training, test and
        pool rows: :func:`budgetboost.data.splits.read_sizes`).
    tests : mapping, optional
        Each dataset's test rows per trial (``{dataset: {trial: rows}}``, the splits'
        :func:`budgetboost.data.splits.read_splits`): with the rows' losses of ``means``
        (``losses``), the trials' correlation is bounded from them
        (:func:`~budgetboost.analysis.per_dataset.row_covariance`); else, and where either
        is missing, it is taken from the sizes.
    unseen_test_part : bool
        Whether the errors hold a part of the test rows that their losses do not show (the
        average-cost reading's:
        :func:`~budgetboost.analysis.per_dataset.row_covariance`).
    """
    rows = []
    by_algorithm = dict(tuple(means.groupby("algorithm", sort=False)))
    for comparison in comparisons:
        both = _pairs_of(by_algorithm, comparison)
        if both.empty:
            continue
        family, across = [], []
        for band in comparison.bands:
            band_rows = _dataset_rows(
                both[both["band"] == band], band, sizes, tests, unseen_test_part
            )
            family += band_rows
            across += _across_rows(band_rows, comparison, band, alpha)
        if family:
            _finish_datasets(family, alpha)
        if across:
            _finish_across(across, alpha)
        for row in family:
            row["pool"] = _pool_of(comparison, row["cost_model"])
        for row in across:
            row["pool"] = row["cost_model"]
        for row in (*family, *across):
            rows.append(
                {
                    "question": comparison.question,
                    "x": comparison.x,
                    "y": comparison.y,
                    **{k: v for k, v in row.items() if not k.startswith("_")},
                }
            )
    table = pd.DataFrame(rows).reindex(columns=COMPARISON_COLUMNS)
    return _typed(table)


def _typed(table: pd.DataFrame) -> pd.DataFrame:
    dtypes = {
        c: "int64" if c in _INTEGER_COLUMNS else "object" if c in _TEXT_COLUMNS else "float64"
        for c in COMPARISON_COLUMNS
    }
    if table.empty:
        return pd.DataFrame({c: pd.Series(dtype=t) for c, t in dtypes.items()})
    return table.astype(dtypes)
