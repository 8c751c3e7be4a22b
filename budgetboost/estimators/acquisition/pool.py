"""The pool of :class:`~.aaco.AACO`: the feature groups an example may acquire, chosen on the
training rows by a cost-aware forward stagewise selection.

With up to ~11,000 groups (one per 0/1 column under per-column costs) the oracle cannot
weigh every group at every step of every example, nor can its classifier read them all; so
AACO's candidates are restricted to a pool of ``size`` groups (a departure from the paper,
which considers every feature). The pool is what a logistic model built forward, one group
at a time, picks: each pick is the group of the column that best fits the current residual,
``(r . x~_j)^2 / |x~_j|^2`` (``r = y * sigmoid(-y F)`` the logistic loss's negative
gradient at the current scores ``F``, ``x~_j`` the centred column: the loss decrease of a
Newton step, to second order), alternately by that *value* and by value *per price*
(``price + 1e-3 * mean price``), so the pool holds both the groups worth most and the ones
worth most for what they cost: the trade-offs ``alpha`` of the acquisition need both. The
scores ``F`` then take a Newton step along the picked column, so a later pick is what adds
to the picks before it (no two thresholds of one attribute that say the same thing; two
that together shape a non-linear effect, both). Columns are shortlisted first by their
marginal correlation with the label (value and value per price), ``shortlist`` per place.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

__all__ = ["select_pool"]


def _group_best(score: np.ndarray, group: np.ndarray, n_groups: int) -> np.ndarray:
    """The largest score of each group's columns (``-inf`` for a group without any)."""
    best = np.full(n_groups, -np.inf)
    np.maximum.at(best, group, score)
    return best


def select_pool(
    X: np.ndarray,
    y: np.ndarray,
    group_of_column: np.ndarray,
    price: np.ndarray,
    eligible: np.ndarray,
    size: int,
    shortlist: int = 32,
) -> np.ndarray:
    """The pool: at most ``size`` eligible groups, in the order they were picked.

    Parameters
    ----------
    X : ndarray of shape (n, n_columns)
    y : ndarray of shape (n,)
        Labels -1/+1.
    group_of_column : ndarray of int, shape (n_columns,)
        The group of each column (0 .. n_groups - 1).
    price : ndarray of shape (n_groups,)
        Each group's price alone.
    eligible : ndarray of bool, shape (n_groups,)
        The groups that may be in the pool (affordable within the horizon).
    size : int
        The most groups in the pool.
    shortlist : int
        Columns shortlisted per place in the pool, by each marginal criterion.

    Returns
    -------
    ndarray of int
        Group indices, in the order picked (at most ``size``; fewer when fewer groups have
        a non-constant column). With at most ``size`` such groups, all of them, by value.
    """
    n, n_groups = X.shape[0], price.size
    varies = X.max(axis=0) > X.min(axis=0) if n else np.zeros(X.shape[1], dtype=bool)
    columns = np.flatnonzero(varies & eligible[group_of_column])
    group = group_of_column[columns]
    centred = X[:, columns] - X[:, columns].mean(axis=0)
    norm = np.einsum("ij,ij->j", centred, centred)
    positive = price[price > 0]
    floor = 1e-3 * (positive.mean() if positive.size else 1.0)
    per_price = 1.0 / (price[group] + floor)
    # the marginal value of each column (the residual of the constant model is y - mean y)
    prior = float(np.clip(np.mean(y > 0), 1e-6, 1 - 1e-6))
    F = np.full(n, np.log(prior / (1 - prior)))
    residual = y * expit(-y * F)
    value = (residual @ centred) ** 2 / norm
    candidates = np.unique(group)
    if candidates.size <= size:
        best = _group_best(value, group, n_groups)[candidates]
        return candidates[np.argsort(-best, kind="stable")]
    keep = int(shortlist) * int(size)
    if columns.size > 2 * keep:  # shortlist by value and by value per price
        by_value = np.argsort(-value, kind="stable")[:keep]
        by_price = np.argsort(-value * per_price, kind="stable")[:keep]
        short = np.unique(np.concatenate([by_value, by_price]))
        columns, group, centred = columns[short], group[short], centred[:, short]
        norm, per_price = norm[short], per_price[short]
    taken = np.zeros(n_groups, dtype=bool)
    picks: list[int] = []
    for place in range(size):  # one pick per place of the pool (fit time)
        p = expit(y * F)  # probability of the true label
        residual = y * (1.0 - p)
        fit = residual @ centred
        value = fit**2 / norm
        score = value * per_price if place % 2 else value
        score = np.where(taken[group], -np.inf, score)
        column = int(np.argmax(score))
        if not np.isfinite(score[column]) or value[column] <= 0:
            break
        picks.append(int(group[column]))
        taken[group[column]] = True
        weight = p * (1.0 - p)
        curvature = float((weight * centred[:, column] ** 2).sum())
        F = F + fit[column] / max(curvature, 1e-12) * centred[:, column]
    return np.asarray(picks, dtype=np.intp)
