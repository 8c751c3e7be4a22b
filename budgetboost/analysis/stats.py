"""Aggregation of result shards and paired comparisons between algorithms.

The pipeline writes one shard row per (dataset, cost model, algorithm, trial, budget); see
``docs/design.md``. This module turns those rows into what a reader of the paper looks at:

* :func:`summarize`: per (dataset, cost model, algorithm, budget) the number of trials, mean
  and standard deviation of the test error with a Student-t 95 % confidence interval (the
  error bars of Figures 1-3 of Huang, Powers & Reyzin 2015), mean rounds, budget spent and
  features used, and the mean and maximum per-example cost (what AdaBoostRS actually pays).
* :func:`paired_comparisons`: trials share their split and costs across algorithms, so at each
  budget the errors of two algorithms pair up by trial. For every pair: mean difference,
  win/tie/loss counts and a Wilcoxon signed-rank p-value, Holm-corrected across the budgets
  of one (dataset, cost model, pair) curve.
* :func:`budget_to_match`: the smallest budget at which an algorithm's mean error is within
  the confidence interval of the unbudgeted AdaBoost reference (Section 6: on ecoli,
  Smoothed at budget 6 does what AdaBoost needs 18 for).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Collection, Iterable, Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps

from budgetboost.data.io import read_table
from budgetboost.data.schema import SHARD_COLUMNS
from budgetboost.pipeline.catalogue import BASELINE_COST_MODEL, Catalogue

__all__ = [
    "BASELINE_COST_MODEL",
    "CONFIDENCE",
    "RISE_COLUMNS",
    "cost_model_comparisons",
    "SHARD_COLUMNS",
    "budget_to_match",
    "error_table",
    "markdown_table",
    "oriented",
    "rst_table",
    "summary_markdown",
    "holm",
    "paired_comparisons",
    "read_shards",
    "summarize",
    "t_interval",
    "validate_shards",
    "wilcoxon_p",
]

#: Confidence level of every interval reported (the paper's error bars are 95 % intervals).
CONFIDENCE = 0.95
#: Significance level of the paired tests a reader's marks rest on (Holm-adjusted p).
ALPHA = 0.05
GROUP_KEYS = ["dataset", "cost_model", "algorithm", "budget"]
CELL_KEYS = ["dataset", "cost_model", "budget"]


def _catalogue(catalogue: Catalogue | None, names: Iterable[str]) -> Catalogue:
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
    shards: pd.DataFrame, confidence: float = CONFIDENCE, catalogue: Catalogue | None = None
) -> pd.DataFrame:
    """One row per (dataset, cost_model, algorithm, budget) with error statistics.

    Columns: the keys, ``trials``, ``error_mean``, ``error_sd``, ``ci_low``, ``ci_high``,
    ``ci_half`` (Student t, see :func:`t_interval`), ``train_error_mean``, ``rounds_mean``,
    ``spent_mean``, ``spent_fraction`` (spent / budget; NaN for an unbudgeted row),
    ``n_features_mean``, ``nodes_mean``, ``example_cost_mean`` (mean over trials of the
    per-example mean cost), ``example_cost_max`` (largest per-example cost of any trial) and
    ``tradeoff_median`` (median over trials of the trade-off a peer chose at that budget on
    its validation part; NaN for the others).
    """
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
        half = tcrit * out["error_sd"].to_numpy() / np.sqrt(n)
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
    return _sort(out[columns], ["dataset", "cost_model", "algorithm", "budget"], catalogue)


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
    catalogue = _catalogue(catalogue, wide.columns)
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
        return pd.DataFrame({col: pd.Series(dtype=_dtype(col)) for col in columns})
    out = pd.concat(frames, ignore_index=True)
    out["p_holm"] = out.groupby(
        ["dataset", "cost_model", "algorithm_a", "algorithm_b"], sort=False
    )["p_value"].transform(lambda p: holm(p.to_numpy()))
    for col in ("n_pairs", "wins", "ties", "losses"):
        out[col] = out[col].astype("int64")
    return _sort(
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
    baseline: str = BASELINE_COST_MODEL,
    catalogue: Catalogue | None = None,
) -> pd.DataFrame:
    """Each algorithm under the open questions' cost models against itself under ``baseline``.

    The open questions' cost models are those of (dataset, cost model) pairs without the
    unbudgeted reference (:func:`budgetboost.pipeline.catalogue.paper_experiments`). Rows are paired on
    (dataset, algorithm, budget, trial): a trial has the same train/test split under every
    cost model, so the pair differs only in the costs. Per (dataset, cost model, algorithm,
    budget): ``n_pairs``, mean ``error`` and ``baseline_error``, ``rise`` (their mean
    difference: positive when the error rises), ``rises`` / ``falls`` (trials where it rises /
    falls), the Wilcoxon ``p_value`` and ``p_holm`` (Holm across the budgets of the same
    dataset, cost model and algorithm).
    """
    df = validate_shards(shards)
    catalogue = _catalogue(catalogue, df["algorithm"])
    reference = catalogue.with_role("reference")
    paper = set(zip(*(df.loc[df["algorithm"] == reference, c] for c in _PAIR), strict=True))
    pairs = set(zip(df["dataset"], df["cost_model"], strict=True))
    others = {(d, c) for d, c in pairs - paper if c != baseline and (d, baseline) in pairs}
    if not paper or not others:
        return pd.DataFrame({col: pd.Series(dtype=_dtype(col)) for col in RISE_COLUMNS})
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
    return _sort(out[RISE_COLUMNS], ["dataset", "cost_model", "algorithm", "budget"], catalogue)


_PAIR = ["dataset", "cost_model"]


def budget_to_match(summary: pd.DataFrame, catalogue: Catalogue | None = None) -> pd.DataFrame:
    """Smallest budget at which each algorithm's mean error reaches the AdaBoost reference.

    "Reaches" means ``error_mean <= ci_high`` of the unbudgeted reference (the catalogue's
    role ``reference``, budget = inf) of the same dataset and cost model; if that
    cost model has no reference row, the dataset's reference under the first cost model
    (sorted) is used and named in ``reference_cost_model``. ``match_budget`` is NaN when the
    algorithm never reaches it on the budget grid. With one trial the interval is undefined
    and the reference mean itself is the bar.
    """
    columns = [
        "dataset",
        "cost_model",
        "algorithm",
        "reference_cost_model",
        "reference_error",
        "reference_ci_high",
        "match_budget",
        "error_at_match",
        "largest_budget",
    ]
    catalogue = _catalogue(catalogue, summary["algorithm"])
    reference = catalogue.with_role("reference")
    ref = summary[(summary["algorithm"] == reference) & np.isinf(summary["budget"])]
    curves = summary[(summary["algorithm"] != reference) & np.isfinite(summary["budget"])]
    rows = []
    for (dataset, cost_model, algorithm), curve in curves.groupby(
        ["dataset", "cost_model", "algorithm"], sort=True
    ):
        ref_rows = ref[ref["dataset"] == dataset]
        if ref_rows.empty:
            continue
        same = ref_rows[ref_rows["cost_model"] == cost_model]
        ref_row = (same if not same.empty else ref_rows.sort_values("cost_model")).iloc[0]
        bar = ref_row["ci_high"] if np.isfinite(ref_row["ci_high"]) else ref_row["error_mean"]
        curve = curve.sort_values("budget")
        reached = curve[curve["error_mean"] <= bar]
        rows.append(
            {
                "dataset": dataset,
                "cost_model": cost_model,
                "algorithm": algorithm,
                "reference_cost_model": ref_row["cost_model"],
                "reference_error": float(ref_row["error_mean"]),
                "reference_ci_high": float(bar),
                "match_budget": float(reached["budget"].iloc[0]) if not reached.empty else np.nan,
                "error_at_match": (
                    float(reached["error_mean"].iloc[0]) if not reached.empty else np.nan
                ),
                "largest_budget": float(curve["budget"].max()),
            }
        )
    if not rows:
        return pd.DataFrame({col: pd.Series(dtype=_dtype(col)) for col in columns})
    return _sort(
        pd.DataFrame(rows, columns=columns), ["dataset", "cost_model", "algorithm"], catalogue
    )


def _sort(
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
    catalogue = _catalogue(catalogue, names)

    def key(col: pd.Series) -> pd.Series:
        if col.name in ("algorithm", "algorithm_a", "algorithm_b"):
            return col.map(catalogue.rank)
        return col

    return df.sort_values(keys, key=key, kind="stable").reset_index(drop=True)


def _dtype(col: str) -> str:
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


def rst_table(df: pd.DataFrame) -> str:
    """``df`` as an reStructuredText grid of the simple kind (columns padded, ``=`` rules)."""
    cells = [[str(c) for c in df.columns], *[[str(v) for v in row] for row in df.to_numpy()]]
    widths = [max(len(r[i]) for r in cells) for i in range(len(df.columns))]
    rule = "  ".join("=" * w for w in widths)
    body = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in cells]
    return "\n".join([rule, body[0], rule, *body[1:], rule])


def markdown_table(df: pd.DataFrame, floatfmt: str = ".3f") -> str:
    """Render ``df`` as a GitHub-flavoured pipe table, padded for reading in a terminal.

    Numeric columns are right-aligned, text left-aligned; ``|`` inside a cell is escaped.
    Budgets (columns named ``budget`` or ``*_budget``) print in their shortest form.
    """

    def fmt(value: object, spec: str) -> str:
        if isinstance(value, (float, np.floating)):
            if np.isnan(value):
                return "–"
            if np.isinf(value):
                return "inf"
            return format(value, spec)
        return str(value).replace("|", "\\|")

    header = [str(col) for col in df.columns]
    specs = ["g" if col == "budget" or col.endswith("_budget") else floatfmt for col in header]
    numeric = [pd.api.types.is_numeric_dtype(df[col]) for col in df.columns]
    body = [
        [fmt(v, spec) for v, spec in zip(row, specs, strict=True)]
        for row in df.itertuples(index=False, name=None)
    ]
    widths = [max(len(cell) for cell in col) for col in zip(header, *body, strict=True)]

    def line(cells: list[str]) -> str:
        padded = (
            c.rjust(w) if num else c.ljust(w)
            for c, w, num in zip(cells, widths, numeric, strict=True)
        )
        return "| " + " | ".join(padded) + " |"

    rule = (
        "|"
        + "|".join(
            ("-" * (w + 1) + ":") if num else ("-" * (w + 2))
            for w, num in zip(widths, numeric, strict=True)
        )
        + "|"
    )
    return "\n".join([line(header), rule, *(line(row) for row in body)])


def error_table(
    summary: pd.DataFrame,
    dataset: str,
    cost_model: str,
    catalogue: Catalogue | None = None,
    comparisons: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Budget × algorithm table of ``mean ± CI half-width`` for one dataset and cost model.

    Columns are the algorithms' labels, in catalogue order. With ``comparisons``
    (:func:`paired_comparisons`), the lowest mean of each budget is in bold and every other
    algorithm not significantly worse than it (Holm-adjusted Wilcoxon p >= 0.05 over the
    paired trials) is marked ``†``, so a reader sees at a glance who wins and who ties.
    """
    part = summary[(summary["dataset"] == dataset) & (summary["cost_model"] == cost_model)]
    catalogue = _catalogue(catalogue, part["algorithm"])
    cell = part["error_mean"].map("{:.3f}".format) + np.where(
        part["ci_half"].notna(), " ± " + part["ci_half"].map("{:.3f}".format), ""
    )
    if comparisons is not None:
        cell = _marked(part, cell, comparisons)
    wide = (
        part.assign(cell=cell)
        .pivot(index="budget", columns="algorithm", values="cell")
        .reindex(columns=catalogue.sort(part["algorithm"]))
        .fillna("")
    )
    wide.index = [("inf" if np.isinf(b) else f"{b:g}") for b in wide.index]
    wide.columns = [catalogue.label(name) for name in wide.columns]
    return wide.rename_axis("budget").reset_index()


#: Marks of :func:`error_table`: the best mean, and the means not significantly worse.
BEST_MARK, TIED_MARK = "**", " †"


def _marked(part: pd.DataFrame, cell: pd.Series, comparisons: pd.DataFrame) -> pd.Series:
    """``cell`` with the best mean of each finite budget bold and its ties marked."""
    finite = part[np.isfinite(part["budget"])]
    if finite.empty:
        return cell
    best = finite.loc[finite.groupby("budget")["error_mean"].idxmin(), ["budget", "algorithm"]]
    best = best.rename(columns={"algorithm": "best"})
    c = comparisons[
        (comparisons["dataset"] == part["dataset"].iloc[0])
        & (comparisons["cost_model"] == part["cost_model"].iloc[0])
    ]
    pairs = pd.concat(
        [
            c.rename(columns={"algorithm_a": "best", "algorithm_b": "algorithm"}),
            c.rename(columns={"algorithm_b": "best", "algorithm_a": "algorithm"}),
        ]
    )
    ties = pairs.merge(best, on=["budget", "best"])
    ties = ties[ties["p_holm"] >= ALPHA][["budget", "algorithm"]].assign(tied=True)
    flags = (
        part[["budget", "algorithm"]]
        .merge(best, on="budget", how="left")
        .merge(ties, on=["budget", "algorithm"], how="left")
    )
    is_best = (flags["algorithm"] == flags["best"]).to_numpy()
    is_tied = flags["tied"].eq(True).to_numpy()
    values = cell.to_numpy(dtype=object)
    out = np.where(
        is_best, BEST_MARK + values + BEST_MARK, np.where(is_tied, values + TIED_MARK, values)
    )
    return pd.Series(out, index=cell.index)


def summary_markdown(
    summary: pd.DataFrame,
    matches: pd.DataFrame,
    comparisons: pd.DataFrame,
    catalogue: Catalogue | None = None,
) -> str:
    """The terminal-readable ``summary.md``: error tables, budget to match, RS costs.

    Algorithms appear under their catalogue labels, in catalogue order.
    """
    catalogue = _catalogue(catalogue, summary["algorithm"] if not summary.empty else [])
    lines = [
        "# Results summary",
        "",
        f"Test error: mean ± half-width of the {CONFIDENCE:.0%} Student-t confidence "
        "interval over trials. Budget `inf` is the unbudgeted AdaBoost reference. "
        "**Bold**: the lowest mean at that budget; †: not significantly worse than it "
        f"(paired trials, Holm-adjusted Wilcoxon p >= {ALPHA}).",
        "",
    ]
    if summary.empty:
        return "\n".join([*lines, "No result shards.", ""])

    def labelled(df: pd.DataFrame) -> pd.DataFrame:
        return df.assign(algorithm=df["algorithm"].map(catalogue.label))

    trials = summary.groupby(["dataset", "cost_model"])["trials"].agg(["min", "max"])
    for (dataset, cost_model), (tmin, tmax) in trials.iterrows():
        count = f"{tmin}" if tmin == tmax else f"{tmin}–{tmax}"
        lines += [
            f"## {dataset} · {cost_model} ({count} trials)",
            "",
            markdown_table(error_table(summary, dataset, cost_model, catalogue, comparisons)),
            "",
        ]
    if not matches.empty:
        lines += [
            "## Budget to match AdaBoost",
            "",
            "Smallest budget at which the mean error is at or below the upper end of "
            "the unbudgeted AdaBoost reference's confidence interval (– never).",
            "",
            markdown_table(
                labelled(matches)[
                    [
                        "dataset",
                        "cost_model",
                        "algorithm",
                        "reference_error",
                        "reference_ci_high",
                        "match_budget",
                        "error_at_match",
                    ]
                ]
            ),
            "",
        ]
    rs = summary[summary["algorithm"].isin(catalogue.of_family("sampling"))]
    if not rs.empty:
        lines += [
            "## AdaBoostRS: cost paid per test example",
            "",
            markdown_table(
                labelled(rs)[
                    [
                        "dataset",
                        "cost_model",
                        "algorithm",
                        "budget",
                        "example_cost_mean",
                        "example_cost_max",
                        "n_features_mean",
                    ]
                ]
            ),
            "",
        ]
    lines += _capped_trials(summary, catalogue)
    lines += _against_peers(comparisons, catalogue)
    lines += _chosen_tradeoffs(summary, catalogue)
    if not comparisons.empty:
        sig = comparisons[comparisons["p_holm"] < ALPHA]
        lines += [
            "## Paired comparisons",
            "",
            f"{len(comparisons)} (budget, pair) cells; {len(sig)} with Holm-adjusted "
            "Wilcoxon p < 0.05. Full table: `comparisons.parquet`.",
            "",
        ]
    return "\n".join(lines)


def _capped_trials(summary: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """A note naming the algorithms run on fewer trials than the others (config ``trials``)."""
    counts = summary.groupby(["dataset", "cost_model", "algorithm"], sort=False)["trials"].max()
    most = counts.groupby(level=["dataset", "cost_model"]).transform("max")
    fewer = counts[counts < most].reset_index()
    if fewer.empty:
        return []
    lines = [
        "## Algorithms run on fewer trials",
        "",
        "These ran on the first trials of each dataset only (the `trials` key of their "
        "config entry or of the cost model's), so they pair with the others' same trials; "
        "their intervals are wider and their paired tests rest on these trials.",
        "",
    ]
    for name, part in fewer.groupby("algorithm", sort=False):
        values = sorted(set(part["trials"]))
        shown = ", ".join(map(str, values))
        lines.append(f"- {catalogue.label(name)}: {shown} trials per dataset")
    return [*lines, ""]


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


def _against_peers(comparisons: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """Smoothed and Greedy against each peer: budgets significantly better / tied / worse."""
    boosters = [catalogue.with_role(role) for role in ("smoothed", "greedy")]
    peers = catalogue.of_family("peer")
    columns: dict[str, pd.Series] = {}
    for x in [b for b in boosters if b is not None]:
        for y in peers:
            cells = oriented(comparisons, [x], [y])
            cells = cells[np.isfinite(cells["budget"])]
            if cells.empty:
                continue
            significant = cells["p_holm"] < ALPHA
            flags = pd.DataFrame(
                {
                    "dataset": cells["dataset"],
                    "cost_model": cells["cost_model"],
                    "better": significant & (cells["diff"] < 0),
                    "worse": significant & (cells["diff"] > 0),
                    "tied": ~significant,
                }
            )
            counts = flags.groupby(["dataset", "cost_model"]).sum()
            columns[f"{catalogue.label(x)} vs {catalogue.label(y)}"] = (
                counts["better"].astype(str)
                + " / "
                + counts["tied"].astype(str)
                + " / "
                + counts["worse"].astype(str)
            )
    if not columns:
        return []
    table = pd.DataFrame(columns).fillna("–").reset_index()
    return [
        "## Smoothed and Greedy against the peers",
        "",
        "Budgets where the booster's paired test error is significantly lower / not "
        f"significantly different / significantly higher than the peer's (Holm-adjusted "
        f"Wilcoxon p < {ALPHA}), on the trials both ran. Per band and dataset counts: "
        "`claims.md`, section *Beyond the paper*.",
        "",
        markdown_table(table),
        "",
    ]


def _chosen_tradeoffs(summary: pd.DataFrame, catalogue: Catalogue) -> list[str]:
    """The trade-offs chosen on validation parts (the peers, the cost-sensitive tree), at a
    few budgets."""
    chosen = summary[summary["tradeoff_median"].notna() & np.isfinite(summary["budget"])]
    if chosen.empty:
        return []
    rows = []
    for (dataset, cost_model, name), part in chosen.groupby(
        ["dataset", "cost_model", "algorithm"], sort=False
    ):
        part = part.sort_values("budget")
        picks = part.iloc[np.unique(np.linspace(0, len(part) - 1, 4).round().astype(int))]
        rows.append(
            {
                "dataset": dataset,
                "cost_model": cost_model,
                "algorithm": catalogue.label(name),
                "median trade-off at budgets": ", ".join(
                    f"{b:g}: {t:.3g}"
                    for b, t in zip(picks["budget"], picks["tradeoff_median"], strict=True)
                ),
            }
        )
    return [
        "## Chosen trade-offs",
        "",
        "Median over trials of the trade-off (LightGBM `cegb_tradeoff`, CatBoost "
        "`penalties_coefficient`, the cost-sensitive tree's lambda) each algorithm chose on "
        "the validation part of the training rows, at four budgets of the grid; every "
        "budget: `tradeoff_median` in `summary.parquet`.",
        "",
        markdown_table(pd.DataFrame(rows)),
        "",
    ]
