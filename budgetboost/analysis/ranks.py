"""Ranks of the budgeted algorithms across datasets: Friedman's test, Nemenyi's critical
difference and each algorithm against a control (Demšar 2006).

The paired comparisons (:func:`budgetboost.analysis.paired.compare`) answer "is X better than
Y on this dataset in this budget band?". Over many datasets and many algorithms the question
becomes "which algorithms are better *in general*?", and Demšar (2006) recommends ranks for
it: rank the algorithms on every dataset (1 = lowest error), average the ranks, test with
Friedman's statistic whether the average ranks differ more than chance allows and, only if
they do, compare the algorithms pairwise (Nemenyi's test, drawn as a critical-difference
diagram by :mod:`budgetboost.figures.ranks`) or each with a control (the paper's proposal,
Smoothed) with Holm's procedure.

**A dataset counts once.** The unit of the test is the *dataset*: the test assumes its units
independent, and a dataset run under two cost models (heart, under U[0, 2] and Turney's real
costs) has the same examples, splits and labels under both, so ranking each (dataset, cost
model) pair would count it twice. An algorithm's score on a dataset is its test error
averaged over the budgets of one *budget band* (:mod:`budgetboost.analysis.bands`), over the
trials *every* ranked algorithm ran (an algorithm run on the first 30 trials only is ranked
on those 30 beside the others' same 30), and over the dataset's cost models: each cost
model's band mean over its common trials, then the mean of these means, so both cost models
speak and neither twice. ``n_datasets`` counts datasets.

**The libraries, and what is still written here.**

* Friedman's statistic is :func:`scipy.stats.friedmanchisquare`, which has a tie correction
  (Demšar's formula has none; the two agree without ties). Ties are common here (two
  boosters that choose the same stumps have equal errors), and with the corrected statistic
  Iman and Davenport's ``F_F = (N - 1) chi2 / (N (k - 1) - chi2)`` is exactly the
  repeated-measures ANOVA F on the ranks actually used, which is how Iman and Davenport
  derived it (:func:`iman_davenport`; ``tests/analysis/test_ranks.py`` checks both). scipy
  refuses two algorithms, and returns NaN when every dataset ties every algorithm: :func:`friedman`
  gives the same statistic there by its closed form (the sign test's ``(w - l)^2 / (w + l)``)
  and 0 (no evidence).
* The comparisons with the control are Demšar's z test,
  :func:`scikit_posthocs.posthoc_siegel_friedman`, the control's row, Holm over its ``k - 1``
  comparisons.
* Nemenyi's test needs only the average ranks; :func:`scikit_posthocs.posthoc_nemenyi_friedman`
  needs the whole error table, which ``ranks.parquet`` does not hold, so :func:`nemenyi_p`
  computes the same p-values (studentized range, infinite degrees of freedom) from the
  average ranks, for the figure; it equals the library's to 1e-12 (tested).
  :func:`nemenyi_q` and :func:`nemenyi_cd` give the critical difference, the scale bar of
  the diagram.

**Post-hoc only after Friedman rejects.** ``friedman_rejects`` says whether Friedman's test
(Iman-Davenport's F) rejects at ``alpha``; the critical-difference diagram draws Nemenyi's
groups only then. The comparisons with the control (``p_vs_control``,
``p_holm_vs_control``) are computed in every band (Holm alone controls their family-wise
error), but, as Demšar recommends, are to be read as findings only where
``friedman_rejects`` is true. Nemenyi's test compares all pairs, so it is conservative next
to the comparisons with the control.

* :func:`band_errors`: the (dataset x algorithm) error table of one band, on common trials,
  cost models averaged.
* :func:`average_ranks`, :func:`friedman`, :func:`iman_davenport`, :func:`nemenyi_p`,
  :func:`nemenyi_cd`, :func:`against_control`: Demšar (2006), Section 3.2.2.
* :func:`cd_analysis`: all three bands in one tidy table (``ranks.parquet``), the input of
  :func:`budgetboost.figures.ranks.figure_cd`.

References
----------
J. Demšar, "Statistical Comparisons of Classifiers over Multiple Data Sets", Journal of
Machine Learning Research 7:1-30, 2006.
R. L. Iman and J. M. Davenport, "Approximations of the critical region of the Friedman
statistic", Communications in Statistics 9:571-595, 1980.
M. Terpilowski, "scikit-posthocs: Pairwise multiple comparison tests in Python", Journal of
Open Source Software 4(36):1169, 2019.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import pandas as pd

from budgetboost.analysis.bands import BANDS
from budgetboost.analysis.significance import holm
from budgetboost.analysis.vocabulary import ALPHA
from budgetboost.catalogue import Catalogue

__all__ = [
    "ALPHA",
    "CD_COLUMNS",
    "FriedmanResult",
    "against_control",
    "average_ranks",
    "band_errors",
    "cd_analysis",
    "friedman",
    "iman_davenport",
    "nemenyi_cd",
    "nemenyi_p",
    "nemenyi_q",
]

#: Columns of :func:`cd_analysis`, in order.
CD_COLUMNS = [
    "band",
    "algorithm",
    "average_rank",
    "n_datasets",
    "k",
    "friedman_chi2",
    "friedman_chi2_p",
    "iman_davenport_F",
    "friedman_p",
    "alpha",
    "friedman_rejects",
    "cd",
    "trials",
    "control",
    "p_vs_control",
    "p_holm_vs_control",
]
_PAIR = ["dataset", "cost_model"]
#: Errors are rounded to this many decimals before ranking, so that equal error rates tie
#: exactly despite floating-point noise (as the paired tests do).
_DECIMALS = 12


def _sorted(names, catalogue: Catalogue | None) -> list[str]:
    """Distinct ``names`` in catalogue order (default: the built-in algorithms first)."""
    return (catalogue if catalogue is not None else Catalogue.default()).sort(names)


def band_errors(means: pd.DataFrame, band: str, catalogue: Catalogue | None = None) -> pd.DataFrame:
    """Mean test error of each algorithm over ``band``, per dataset, on common trials.

    Parameters
    ----------
    means : DataFrame
        Each trial's error averaged over the band's budgets
        (:func:`budgetboost.analysis.paired.band_means`: ``dataset``, ``cost_model``,
        ``band``, ``algorithm``, ``trial``, ``error``), of the algorithms to rank.
    band : {"small", "medium", "large"}

    Returns
    -------
    DataFrame
        Index ``dataset``: one row per dataset (a dataset counts once, whatever its cost
        models); one column per algorithm in canonical order. The Friedman test needs a
        complete table: only algorithms with results on *every* (dataset, cost model) pair
        are kept (``attrs["dropped"]`` lists the others). On each pair an algorithm's error
        is its mean over the trials *every* kept algorithm ran there, and its score on a
        dataset the mean of these over the dataset's cost models; ``attrs["trials"]`` is the
        fewest common trials of a pair.
    """
    keys = [*_PAIR, "trial"]
    part = means[means["band"] == band]
    n_pairs = part[_PAIR].drop_duplicates().shape[0]
    pairs_of = part[["algorithm", *_PAIR]].drop_duplicates()["algorithm"].value_counts()
    keep = _sorted([a for a, n in pairs_of.items() if n == n_pairs], catalogue)
    part = part[part["algorithm"].isin(keep)]
    count = part.groupby(keys, sort=False)["algorithm"].transform("nunique")
    common = part[count == len(keep)]
    per_pair = common.groupby([*_PAIR, "algorithm"], sort=True)["error"].mean()
    wide = (
        per_pair.groupby(["dataset", "algorithm"], sort=True)
        .mean()
        .unstack("algorithm")
        .reindex(columns=keep)
    )
    wide = wide.dropna().rename_axis(columns="algorithm")
    trials = common.groupby(_PAIR)["trial"].nunique()
    wide.attrs["band"] = band
    wide.attrs["trials"] = int(trials.min()) if trials.size else 0
    wide.attrs["dropped"] = [
        a
        for a in _sorted(means.loc[means["band"] == band, "algorithm"], catalogue)
        if a not in keep
    ]
    return wide


def _check_errors(errors: pd.DataFrame) -> pd.DataFrame:
    if errors.isna().to_numpy().any():
        raise ValueError(
            "errors must be complete (one value per dataset and algorithm); "
            f"missing values in {list(errors.columns[errors.isna().any()])}"
        )
    return errors


def _rounded(errors: pd.DataFrame) -> pd.DataFrame:
    """``errors`` as floats rounded to ``_DECIMALS``, checked complete: what is ranked."""
    return _check_errors(errors).astype(float).round(_DECIMALS)


def average_ranks(errors: pd.DataFrame) -> pd.Series:
    """Average rank of each algorithm over the datasets (rows) of ``errors``.

    On every row the algorithms are ranked by error, 1 for the lowest; tied errors (equal to
    12 decimals) get the average of the ranks they span, so each row's ranks sum to
    ``k (k + 1) / 2``. The average ranks ``R_j`` are the statistics of Demšar (2006),
    Section 3.2.2, which Friedman's test and the Nemenyi critical difference are about.

    Parameters
    ----------
    errors : DataFrame
        Datasets as rows, algorithms as columns (e.g. :func:`band_errors`); no missing value.

    Returns
    -------
    Series
        Named ``average_rank``, indexed by algorithm, in the column order of ``errors``.
    """
    ranks = _rounded(errors).rank(axis=1, method="average", ascending=True)
    return ranks.mean(axis=0).rename("average_rank")


class FriedmanResult(NamedTuple):
    """Friedman's test on ranks, with the Iman-Davenport F."""

    #: Friedman's statistic chi2_F with the tie correction, chi-square with k - 1 degrees of
    #: freedom under H0.
    chi2: float
    #: Its p-value.
    p: float
    #: Iman and Davenport's F_F, F-distributed with k - 1 and (k - 1)(N - 1) degrees of freedom.
    iman_davenport_F: float
    #: Its p-value (the one Demšar recommends: chi2_F is undesirably conservative).
    p_F: float


def friedman(errors: pd.DataFrame) -> FriedmanResult:
    """Friedman's test that all algorithms have the same average rank (Demšar 2006).

    ``chi2_F`` is :func:`scipy.stats.friedmanchisquare` of the errors (rounded to 12
    decimals, so that equal error rates tie): with ``N`` datasets (rows), ``k`` algorithms
    (columns) and average ranks ``R_j``, Demšar's (2006, Section 3.2.2)

    .. math::

        \\chi^2_F = \\frac{12 N}{k (k + 1)} \\Big[\\sum_j R_j^2 - \\frac{k (k + 1)^2}{4}\\Big]

    divided by scipy's tie correction ``1 - sum(t^3 - t) / (N k (k^2 - 1))`` (``t`` the
    sizes of the groups of tied errors in a row), against the chi-square distribution with
    ``k - 1`` degrees of freedom; then Iman and Davenport's ``F_F`` of it
    (:func:`iman_davenport`), whose p-value is the test's (``p_F``). Without ties the
    correction is 1 and both are Demšar's. Ties are common here, and the correction is what
    makes ``F_F`` the F of the ANOVA on the ranks actually used (Iman and Davenport's
    derivation); uncorrected, ``chi2_F`` understates the evidence whenever rows tie.

    scipy needs ``k >= 3``; with two algorithms the corrected statistic is the sign test's
    ``(w - l)^2 / (w + l)`` (``w``, ``l``: datasets where the first algorithm has the lower
    and the higher error), computed here. When every row ties all algorithms (where scipy
    divides by zero) there is no evidence: ``chi2_F = 0``, p-value 1.

    Parameters
    ----------
    errors : DataFrame
        Datasets as rows, algorithms as columns; no missing value.

    Returns
    -------
    FriedmanResult
        ``(chi2, p, iman_davenport_F, p_F)``; all NaN with fewer than 2 algorithms or 2
        datasets (no test is possible).
    """
    values = _rounded(errors).to_numpy()
    n, k = values.shape
    if k < 2 or n < 2:
        return FriedmanResult(np.nan, np.nan, np.nan, np.nan)
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    if np.all(values == values[:, :1]):
        chi2 = 0.0
    elif k == 2:
        wins = int(np.sum(values[:, 0] < values[:, 1]))
        losses = int(np.sum(values[:, 0] > values[:, 1]))
        chi2 = (wins - losses) ** 2 / (wins + losses)
    else:
        chi2 = float(sps.friedmanchisquare(*values.T).statistic)
    chi2 = max(0.0, chi2)  # rounding can leave -1e-15 when all ranks are equal
    f_stat, p_f = iman_davenport(chi2, n, k)
    return FriedmanResult(chi2, float(sps.chi2.sf(chi2, k - 1)), f_stat, p_f)


def iman_davenport(chi2: float, n: int, k: int) -> tuple[float, float]:
    """Iman and Davenport's ``F_F`` of Friedman's ``chi2`` and its p-value.

    ``F_F = (N - 1) chi2 / (N (k - 1) - chi2)`` against the F distribution with ``k - 1`` and
    ``(k - 1)(N - 1)`` degrees of freedom (Demšar 2006, Section 3.2.2: ``chi2_F = 9.28`` on
    ``N = 14``, ``k = 4`` gives ``F_F = 3.69``). Of the tie-corrected ``chi2`` it is the F of
    the two-way ANOVA on the ranks. When every row ranks the algorithms the same way
    (``chi2 = N (k - 1)``, its largest value) ``F_F`` is infinite and its p-value 0.
    """
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    denominator = n * (k - 1) - chi2
    f_stat = np.inf if denominator <= 1e-9 * n * (k - 1) else (n - 1) * chi2 / denominator
    return float(f_stat), float(sps.f.sf(f_stat, k - 1, (k - 1) * (n - 1)))


@functools.lru_cache(maxsize=256)
def nemenyi_q(k: int, alpha: float = ALPHA) -> float:
    """Critical value ``q_alpha`` of the two-tailed Nemenyi test for ``k`` algorithms.

    The ``1 - alpha`` quantile of the studentized range of ``k`` means with infinite degrees
    of freedom, divided by ``sqrt(2)``: Demšar (2006), Table 5a (e.g. 2.569 for ``k = 4`` at
    ``alpha = 0.05``; the table gives 3 decimals, within 1e-3 of these values).
    """
    if int(k) != k or k < 2:
        raise ValueError(f"the Nemenyi test needs at least 2 algorithms; got k={k!r}")
    if not 0.0 < alpha < 1.0:
        raise ValueError(f"alpha must lie in (0, 1); got {alpha!r}")
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    return float(sps.studentized_range.ppf(1.0 - alpha, int(k), np.inf) / np.sqrt(2.0))


def nemenyi_cd(k: int, n: int, alpha: float = ALPHA) -> float:
    """Nemenyi critical difference of average ranks for ``k`` algorithms on ``n`` datasets.

    Two algorithms perform significantly differently when their average ranks differ by at
    least ``CD = q_alpha sqrt(k (k + 1) / (6 n))`` (Demšar 2006, Section 3.2.2;
    ``q_alpha`` from :func:`nemenyi_q`). E.g. ``k = 4``, ``n = 14``, ``alpha = 0.05``:
    ``CD = 2.569 sqrt(20 / 84) = 1.25``.
    """
    if int(n) != n or n < 1:
        raise ValueError(f"the critical difference needs at least 1 dataset; got n={n!r}")
    return nemenyi_q(k, alpha) * float(np.sqrt(k * (k + 1) / (6.0 * n)))


def nemenyi_p(ranks: pd.Series, n: int) -> pd.DataFrame:
    """Nemenyi's pairwise p-values from average ranks on ``n`` datasets.

    ``p_ij`` is the probability that the studentized range of ``k`` standard normal means
    (infinite degrees of freedom) exceeds ``sqrt(2) |R_i - R_j| / sqrt(k (k + 1) / (6 n))``:
    below ``alpha`` exactly when ``|R_i - R_j|`` exceeds :func:`nemenyi_cd`. The same values
    as :func:`scikit_posthocs.posthoc_nemenyi_friedman`, which needs the whole error table;
    the figure has only the ranks of ``ranks.parquet``.

    Parameters
    ----------
    ranks : Series
        Average ranks by algorithm (:func:`average_ranks`).
    n : int
        Datasets ranked on.

    Returns
    -------
    DataFrame
        Symmetric, indexed and labelled like ``ranks``, 1 on the diagonal.
    """
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    k = len(ranks)
    r = ranks.to_numpy(dtype=float)
    q = np.abs(r[:, None] - r[None, :]) / np.sqrt(k * (k + 1) / (6.0 * n)) * np.sqrt(2.0)
    p = sps.studentized_range.sf(q, k, np.inf) if k >= 2 else np.ones((k, k))
    p = np.minimum(np.asarray(p, dtype=float), 1.0)
    np.fill_diagonal(p, 1.0)
    return pd.DataFrame(p, index=ranks.index, columns=ranks.index)


def against_control(errors: pd.DataFrame, control: str | None) -> pd.DataFrame:
    """Each algorithm against the control: Demšar's z test of average ranks, Holm.

    Demšar (2006), Section 3.2.2: ``z = (R_i - R_c) / sqrt(k (k + 1) / (6 N))`` against the
    standard normal, two-sided (:func:`scikit_posthocs.posthoc_siegel_friedman`, the
    control's row); Holm's step-down over the ``k - 1`` comparisons with the control (the
    control's own row, and every row when no control ranks, is NaN).

    Parameters
    ----------
    errors : DataFrame
        Datasets as rows, algorithms as columns; no missing value.
    control : str or None
        The control algorithm (the paper's proposal, Smoothed).

    Returns
    -------
    DataFrame
        Indexed by the algorithms (columns of ``errors``): ``p`` and ``p_holm``.
    """
    values = _rounded(errors)
    out = pd.DataFrame({"p": np.nan, "p_holm": np.nan}, index=values.columns)
    if control is None or control not in values.columns or values.shape[1] < 2:
        return out
    import scikit_posthocs  # here: it imports pyplot and statsmodels, seconds

    z_test = scikit_posthocs.posthoc_siegel_friedman(values)
    others = values.columns != control
    out.loc[others, "p"] = z_test.loc[control, values.columns[others]].to_numpy()
    out.loc[others, "p_holm"] = holm(out.loc[others, "p"].to_numpy())
    return out


def cd_analysis(
    means: pd.DataFrame,
    alpha: float = ALPHA,
    catalogue: Catalogue | None = None,
    control: str | None = None,
) -> pd.DataFrame:
    """Average ranks, Friedman test and Nemenyi CD of the budgeted algorithms, per band.

    For each band of :data:`BANDS`, :func:`band_errors` gives the (dataset x algorithm)
    table; :func:`average_ranks`, :func:`friedman`, :func:`nemenyi_cd` and
    :func:`against_control` summarise it.

    Parameters
    ----------
    means : DataFrame
        :func:`budgetboost.analysis.paired.band_means` of the algorithms to rank.
    alpha : float
        Significance level of Friedman's test, the critical difference and the comparisons
        with the control.
    catalogue : Catalogue, optional
        The order of the algorithms (default: the built-in one).
    control : str or None
        The control algorithm of :func:`against_control`.

    Returns
    -------
    DataFrame
        Tidy, one row per (band, ranked algorithm), bands in :data:`BANDS` order and
        algorithms by average rank (best first), columns :data:`CD_COLUMNS`: ``band``,
        ``algorithm``, ``average_rank``, ``n_datasets`` (N, datasets: a dataset counts once
        whatever its cost models), ``k`` (algorithms ranked), ``friedman_chi2`` (chi2_F,
        tie-corrected) with its p-value ``friedman_chi2_p``, ``iman_davenport_F`` (F_F),
        ``friedman_p`` (the p-value of F_F, the less conservative one Demšar recommends),
        ``alpha``, ``friedman_rejects`` (``friedman_p < alpha``: only then are Nemenyi's
        groups drawn and the comparisons with the control findings), ``cd``, ``trials`` (the
        fewest common trials of a (dataset, cost model) pair), ``control`` and each
        algorithm's ``p_vs_control`` and ``p_holm_vs_control``. The band-level columns repeat
        on each row of the band. A band with fewer than 2 complete algorithms or 2 datasets
        has no rows and is named in ``attrs["skipped"]`` (band -> reason);
        ``attrs["dropped"]`` maps each band to the algorithms left out for missing results
        (:func:`band_errors`).
    """
    parts, dropped, skipped = [], {}, {}
    for band in BANDS:
        errors = band_errors(means, band, catalogue)
        dropped[band] = list(errors.attrs["dropped"])
        n, k = errors.shape
        if k < 2 or n < 2:
            skipped[band] = f"{k} algorithm(s) with complete results on {n} dataset(s)"
            continue
        ranks = average_ranks(errors).sort_values(kind="stable")
        test = friedman(errors)
        versus = against_control(errors, control).reindex(ranks.index)
        parts.append(
            pd.DataFrame(
                {
                    "band": band,
                    "algorithm": ranks.index.astype(str),
                    "average_rank": ranks.to_numpy(),
                    "n_datasets": np.int64(n),
                    "k": np.int64(k),
                    "friedman_chi2": test.chi2,
                    "friedman_chi2_p": test.p,
                    "iman_davenport_F": test.iman_davenport_F,
                    "friedman_p": test.p_F,
                    "alpha": float(alpha),
                    "friedman_rejects": bool(test.p_F < alpha),
                    "cd": nemenyi_cd(k, n, alpha),
                    "trials": np.int64(errors.attrs["trials"]),
                    "control": control if control in ranks.index else None,
                    "p_vs_control": versus["p"].to_numpy(),
                    "p_holm_vs_control": versus["p_holm"].to_numpy(),
                }
            )
        )
    if parts:
        out = pd.concat(parts, ignore_index=True)[CD_COLUMNS]
    else:
        out = pd.DataFrame({col: pd.Series(dtype=_cd_dtype(col)) for col in CD_COLUMNS})
    out.attrs["dropped"] = dropped
    out.attrs["skipped"] = skipped
    return out


def _cd_dtype(col: str) -> str:
    if col in ("band", "algorithm", "control"):
        return "object"
    if col == "friedman_rejects":
        return "bool"
    return "int64" if col in ("n_datasets", "k") else "float64"
