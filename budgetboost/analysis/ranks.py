"""Ranks of the budgeted algorithms across data sets: Friedman test, critical differences and
each algorithm against a control.

The paired comparisons (:func:`budgetboost.analysis.paired.compare`) answer "is X better than
Y on this data set in this budget band?". Over many data sets and many algorithms the
question becomes "which algorithms are better *in general*?", and Demšar (2006) recommends
ranks for it: rank the algorithms on every data set (1 = lowest error), average the ranks,
test with Friedman's statistic whether the average ranks differ more than chance allows, then
compare each algorithm with a control (the paper's proposal, Smoothed) with Holm's procedure,
and draw the Nemenyi critical difference (CD) as a CD diagram (:mod:`budgetboost.figures.ranks`).

Here a "data set" of the Friedman test is one (dataset, cost model) pair and an algorithm's
score on it is its mean test error averaged over the budgets of one *budget band*
(:mod:`budgetboost.analysis.bands`), over the trials *every* ranked algorithm ran (an
algorithm run on the first 30 trials only is ranked on those 30 beside the others' same 30).
Two caveats a reader should keep in mind: the Friedman test assumes independent data sets, and
two cost models of the same dataset share their examples, so the test is somewhat optimistic
when many datasets appear under several cost models; and the Nemenyi test compares all pairs,
so it is conservative next to the comparisons with the control.

* :func:`band_errors`: the (data set x algorithm) error table of one band, on common trials.
* :func:`average_ranks`, :func:`friedman`, :func:`nemenyi_cd`, :func:`cd_groups`,
  :func:`against_control`: the statistics of Demšar (2006), Section 3.2.2, and the bars of
  his CD diagrams.
* :func:`cd_analysis`: all three bands in one tidy table, the input of
  :func:`budgetboost.figures.ranks.figure_cd`.

References
----------
J. Demšar, "Statistical Comparisons of Classifiers over Multiple Data Sets", Journal of
Machine Learning Research 7:1-30, 2006.
R. L. Iman and J. M. Davenport, "Approximations of the critical region of the Friedman
statistic", Communications in Statistics 9:571-595, 1980.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from budgetboost.analysis.bands import BANDS
from budgetboost.analysis.significance import holm
from budgetboost.pipeline.catalogue import Catalogue

__all__ = [
    "ALPHA",
    "CD_COLUMNS",
    "FriedmanResult",
    "average_ranks",
    "band_errors",
    "cd_analysis",
    "cd_groups",
    "friedman",
    "nemenyi_cd",
    "nemenyi_q",
    "against_control",
]

#: Significance level of the Nemenyi critical difference and of the win/tie/loss counts.
ALPHA = 0.05
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
    "cd",
    "trials",
    "control",
    "p_vs_control",
    "p_holm_vs_control",
]
_ROW_KEYS = ["dataset", "cost_model"]
#: Errors are rounded to this many decimals before ranking, so that equal error rates tie
#: exactly despite floating-point noise (as :func:`budgetboost.analysis.paired.wilcoxon_p` does).
_DECIMALS = 12


def _sorted(names, catalogue: Catalogue | None) -> list[str]:
    """Distinct ``names`` in catalogue order (default: the built-in algorithms first)."""
    return (catalogue if catalogue is not None else Catalogue.default()).sort(names)


def band_errors(means: pd.DataFrame, band: str, catalogue: Catalogue | None = None) -> pd.DataFrame:
    """Mean test error of each algorithm over ``band``, per data set, on common trials.

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
        Index (``dataset``, ``cost_model``): one row per data set of the rank analysis; one
        column per algorithm in canonical order. The Friedman test needs a complete table:
        only algorithms with results on *every* data set are kept (``attrs["dropped"]`` lists
        the others), and on each data set the errors are means over the trials *every* kept
        algorithm ran (an algorithm run on the first 30 trials only is ranked on those 30
        beside the others' same 30), ``attrs["trials"]`` the fewest of them.
    """
    keys = [*_ROW_KEYS, "trial"]
    part = means[means["band"] == band]
    n_pairs = part[_ROW_KEYS].drop_duplicates().shape[0]
    pairs_of = part[["algorithm", *_ROW_KEYS]].drop_duplicates()["algorithm"].value_counts()
    keep = _sorted([a for a, n in pairs_of.items() if n == n_pairs], catalogue)
    part = part[part["algorithm"].isin(keep)]
    count = part.groupby(keys, sort=False)["algorithm"].transform("nunique")
    common = part[count == len(keep)]
    wide = (
        common.groupby([*_ROW_KEYS, "algorithm"], sort=True)["error"]
        .mean()
        .unstack("algorithm")
        .reindex(columns=keep)
    )
    wide = wide.dropna().rename_axis(columns="algorithm")
    trials = common.groupby(_ROW_KEYS)["trial"].nunique()
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
            "errors must be complete (one value per data set and algorithm); "
            f"missing values in {list(errors.columns[errors.isna().any()])}"
        )
    return errors


def _row_ranks(errors: pd.DataFrame) -> pd.DataFrame:
    """Ranks within each row: 1 = lowest error, ties share the average of their ranks."""
    values = _check_errors(errors).astype(float).round(_DECIMALS)
    return values.rank(axis=1, method="average", ascending=True)


def average_ranks(errors: pd.DataFrame) -> pd.Series:
    """Average rank of each algorithm over the data sets (rows) of ``errors``.

    On every row the algorithms are ranked by error, 1 for the lowest; tied errors (equal to
    12 decimals) get the average of the ranks they span, so each row's ranks sum to
    ``k (k + 1) / 2``. The average ranks ``R_j`` are the statistics of Demšar (2006),
    Section 3.2.2, which Friedman's test and the Nemenyi critical difference are about.

    Parameters
    ----------
    errors : DataFrame
        Data sets as rows, algorithms as columns (e.g. :func:`band_errors`); no missing value.

    Returns
    -------
    Series
        Named ``average_rank``, indexed by algorithm, in the column order of ``errors``.
    """
    return _row_ranks(errors).mean(axis=0).rename("average_rank")


class FriedmanResult(NamedTuple):
    """Friedman's test on average ranks, with the Iman-Davenport correction."""

    #: Friedman's statistic chi2_F, chi-square with k - 1 degrees of freedom under H0.
    chi2: float
    #: Its p-value.
    p: float
    #: Iman and Davenport's F_F, F-distributed with k - 1 and (k - 1)(N - 1) degrees of freedom.
    iman_davenport_F: float
    #: Its p-value (the one Demšar recommends: chi2_F is undesirably conservative).
    p_F: float


def friedman(errors: pd.DataFrame) -> FriedmanResult:
    """Friedman's test that all algorithms have the same average rank, as in Demšar (2006).

    With ``N`` data sets (rows), ``k`` algorithms (columns) and average ranks ``R_j``
    (:func:`average_ranks`), Demšar (2006), Section 3.2.2:

    .. math::

        \\chi^2_F = \\frac{12 N}{k (k + 1)} \\Big[\\sum_j R_j^2 - \\frac{k (k + 1)^2}{4}\\Big],
        \\qquad
        F_F = \\frac{(N - 1) \\chi^2_F}{N (k - 1) - \\chi^2_F},

    ``chi2_F`` against the chi-square distribution with ``k - 1`` degrees of freedom and
    Iman and Davenport's ``F_F`` against the F distribution with ``k - 1`` and
    ``(k - 1)(N - 1)`` degrees of freedom. Ties are ranked by averaging but, as in the paper,
    the statistic has no tie correction (:func:`scipy.stats.friedmanchisquare` has one, so it
    is larger when rows contain ties, and equal otherwise). When every row ranks the
    algorithms the same way without ties, ``F_F`` is infinite and its p-value 0.

    Parameters
    ----------
    errors : DataFrame
        Data sets as rows, algorithms as columns; no missing value.

    Returns
    -------
    FriedmanResult
        ``(chi2, p, iman_davenport_F, p_F)``; all NaN with fewer than 2 algorithms or 2 data
        sets (no test is possible).
    """
    n, k = _check_errors(errors).shape
    if k < 2 or n < 2:
        return FriedmanResult(np.nan, np.nan, np.nan, np.nan)
    ranks = average_ranks(errors).to_numpy()
    chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(ranks**2) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(0.0, float(chi2))  # rounding can leave -1e-15 when all ranks are equal
    denominator = n * (k - 1) - chi2
    if denominator <= 1e-9 * n * (k - 1):
        f_stat = np.inf
    else:
        f_stat = (n - 1) * chi2 / denominator
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    p = float(sps.chi2.sf(chi2, k - 1))
    p_f = float(sps.f.sf(f_stat, k - 1, (k - 1) * (n - 1)))
    return FriedmanResult(chi2, p, float(f_stat), p_f)


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
    """Nemenyi critical difference of average ranks for ``k`` algorithms on ``n`` data sets.

    Two algorithms perform significantly differently when their average ranks differ by at
    least ``CD = q_alpha sqrt(k (k + 1) / (6 n))`` (Demšar 2006, Section 3.2.2;
    ``q_alpha`` from :func:`nemenyi_q`). E.g. ``k = 4``, ``n = 14``, ``alpha = 0.05``:
    ``CD = 2.569 sqrt(20 / 84) = 1.25``.
    """
    if int(n) != n or n < 1:
        raise ValueError(f"the critical difference needs at least 1 data set; got n={n!r}")
    return nemenyi_q(k, alpha) * float(np.sqrt(k * (k + 1) / (6.0 * n)))


def cd_groups(ranks: pd.Series | ArrayLike, cd: float) -> list[tuple[int, int]]:
    """Groups of algorithms whose average ranks are not significantly different.

    The thick bars of a CD diagram (Demšar 2006, Figure 1): with the average ranks sorted
    ascending (ties keep their input order), each ``(lo, hi)`` is a maximal run of positions
    ``lo < hi`` whose rank span ``r[hi] - r[lo]`` is below ``cd``. Runs contained in another
    run are dropped, and an algorithm that differs from all others gets no group. Groups may
    overlap (an algorithm between two groups belongs to both).

    Parameters
    ----------
    ranks : Series or array_like
        Average ranks, in any order.
    cd : float
        The critical difference (:func:`nemenyi_cd`).

    Returns
    -------
    list of (int, int)
        ``(lo, hi)`` positions in the ascending order of ``ranks``
        (``np.argsort(ranks, kind="stable")``), sorted by ``lo``.
    """
    r = np.sort(np.asarray(ranks, dtype=float), kind="stable")
    if r.size == 0:
        return []
    # hi[i]: last position whose rank is below r[i] + cd; non-decreasing in i, so a run is
    # contained in its predecessor exactly when both end at the same position
    hi = np.searchsorted(r, r + cd, side="left") - 1
    previous = np.concatenate([[-1], hi[:-1]])
    lo = np.flatnonzero((hi > np.arange(r.size)) & (hi > previous))
    return [(int(i), int(hi[i])) for i in lo]


def cd_analysis(
    means: pd.DataFrame,
    alpha: float = ALPHA,
    catalogue: Catalogue | None = None,
    control: str | None = None,
) -> pd.DataFrame:
    """Average ranks, Friedman test and Nemenyi CD of the budgeted algorithms, per band.

    For each band of :data:`BANDS`, :func:`band_errors` gives the (data set x algorithm)
    table; :func:`average_ranks`, :func:`friedman` and :func:`nemenyi_cd` summarise it.

    Parameters
    ----------
    means : DataFrame
        :func:`budgetboost.analysis.paired.band_means` of the algorithms to rank.
    alpha : float
        Significance level of the critical difference and of the comparisons with the
        control.
    control : str or None
        The control algorithm of :func:`against_control`.

    Returns
    -------
    DataFrame
        Tidy, one row per (band, ranked algorithm), bands in :data:`BANDS` order and algorithms by
        average rank (best first), columns :data:`CD_COLUMNS`: ``band``, ``algorithm``,
        ``average_rank``, ``n_datasets`` (N), ``k`` (algorithms ranked), ``friedman_chi2`` (chi2_F)
        with its p-value ``friedman_chi2_p``, ``iman_davenport_F`` (F_F), ``friedman_p`` (the
        p-value of F_F, the less conservative one Demšar recommends), ``alpha``, ``cd``, ``trials``
        (the fewest common trials of a data set), ``control`` and each algorithm's ``p_vs_control``
        and ``p_holm_vs_control``. The band-level columns repeat on each row of the band. A band
        with fewer than 2 complete algorithms or 2 data sets has no rows and is named in
        ``attrs["skipped"]`` (band -> reason); ``attrs["dropped"]`` maps each band to the algorithms
        left out for missing results (:func:`band_errors`).
    """
    parts, dropped, skipped = [], {}, {}
    for band in BANDS:
        errors = band_errors(means, band, catalogue)
        dropped[band] = list(errors.attrs["dropped"])
        n, k = errors.shape
        if k < 2 or n < 2:
            skipped[band] = f"{k} algorithm(s) with complete results on {n} data set(s)"
            continue
        ranks = average_ranks(errors).sort_values(kind="stable")
        test = friedman(errors)
        versus = against_control(ranks, n, control)
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
    if col in ("band", "algorithm"):
        return "object"
    return "int64" if col in ("n_datasets", "k") else "float64"


def against_control(ranks: pd.Series, n: int, control: str | None) -> pd.DataFrame:
    """Each algorithm's average rank against the control's, Holm over the comparisons.

    Demšar (2006), Section 3.2.2: ``z = (R_i - R_c) / sqrt(k (k + 1) / (6 N))`` against the
    standard normal, two-sided; Holm's step-down over the ``k - 1`` comparisons with the
    control (the control's own row, and every row when no control ranks, is NaN).

    Parameters
    ----------
    ranks : Series
        Average ranks by algorithm (:func:`average_ranks`).
    n : int
        Data sets ranked on.
    control : str or None
        The control algorithm (the paper's proposal, Smoothed).

    Returns
    -------
    DataFrame
        Indexed like ``ranks``: ``p`` and ``p_holm``.
    """
    out = pd.DataFrame({"p": np.nan, "p_holm": np.nan}, index=ranks.index)
    if control is None or control not in ranks.index or len(ranks) < 2:
        return out
    from scipy import stats as sps  # here: scipy.stats takes a second to import

    k = len(ranks)
    z = (ranks - ranks[control]) / np.sqrt(k * (k + 1) / (6.0 * n))
    others = ranks.index != control
    out.loc[others, "p"] = 2 * sps.norm.sf(np.abs(z[others]))
    out.loc[others, "p_holm"] = holm(out.loc[others, "p"].to_numpy())
    return out
