"""The split search of the budgeted CART tree (:class:`~budgetboost.BudgetedTree`).

A split ``x_j >= v`` uses the boosters' thresholds (a 0/1 column has the single threshold 1,
a numeric column one threshold per distinct training value above its minimum). It scores
``gain - tradeoff * unpaid``: the impurity decrease per example of the node
(:func:`split_gains`, :func:`impurity`), less the trade-off times the unpaid cost of the
split's feature group on the node's path (plain CART: ``tradeoff = 0``; Greedy Miser's
criterion, Xu et al. 2012, otherwise).

The search is vectorised per node (:class:`SplitSearch`): for 0/1 matrices the node's counts
(examples with ``x_j = 1`` and positives among them) come from one matrix product, and a split
node computes its smaller child's counts and takes the larger child's by subtraction (the
trick of histogram-based boosting); otherwise class-count cumulative sums over the node's
sorted columns. A node's gains depend on its rows alone, so the trees of other trade-offs
grown on the same rows reuse them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["CRITERIA", "GAIN_TOL", "TIE_TOL", "Split", "SplitSearch", "impurity", "split_gains"]

#: Impurity functions a split may decrease.
CRITERIA = ("gini", "entropy")
#: A split must decrease the impurity per example by more than this to count as improving.
GAIN_TOL = 1e-12
#: Scores within this relative distance of the best one tie (then: lower column, threshold).
TIE_TOL = 1e-12
#: Elements per block of the sorted split search (bounds memory on wide numeric data).
_BLOCK = 1 << 21


# ---------------------------------------------------------------------------- impurity
def impurity(p: np.ndarray, criterion: str) -> np.ndarray:
    """Impurity of a node whose fraction of class ``classes_[1]`` is ``p``.

    ``gini``: ``1 - p^2 - (1-p)^2 = 2 p (1-p)``; ``entropy``: ``-p log2 p - (1-p) log2 (1-p)``
    with ``0 log 0 = 0``.
    """
    p = np.asarray(p, dtype=np.float64)
    if criterion == "gini":
        return 2.0 * p * (1.0 - p)
    q = 1.0 - p
    with np.errstate(divide="ignore", invalid="ignore"):
        return -(np.where(p > 0, p * np.log2(p), 0.0) + np.where(q > 0, q * np.log2(q), 0.0))


def split_gains(
    n_right: np.ndarray, n1_right: np.ndarray, n: float, n1: float, criterion: str
) -> np.ndarray:
    """Impurity decrease per example of splits of a node with ``n`` examples, ``n1`` positive.

    ``gain = I(n1/n) - (n_L/n) I(n1_L/n_L) - (n_R/n) I(n1_R/n_R)`` (weighted children), where
    the right side is ``x_j >= v``. A split with an empty side gets ``-inf``.
    """
    n_right = np.asarray(n_right, dtype=np.float64)
    n1_right = np.asarray(n1_right, dtype=np.float64)
    n_left = n - n_right
    n1_left = n1 - n1_right
    with np.errstate(divide="ignore", invalid="ignore"):
        children = (
            n_left * impurity(n1_left / n_left, criterion)
            + n_right * impurity(n1_right / n_right, criterion)
        ) / n
    gain = impurity(n1 / n, criterion) - children
    return np.where((n_left > 0) & (n_right > 0), gain, -np.inf)


def _scores(gains: np.ndarray, unpaid: np.ndarray, tradeoff: float) -> np.ndarray:
    """Split scores ``gain - tradeoff * unpaid`` (higher is better); ``-inf`` if not improving.

    A split improves when its score exceeds :data:`GAIN_TOL`. With ``tradeoff = 0`` (plain
    CART) the score is the gain itself. With ``tradeoff > 0`` (Greedy Miser's criterion, Xu
    et al. 2012) a split is made only when its gain pays for ``tradeoff`` times the unpaid
    cost of its feature group on the node's path (0 when the group is paid above the node).
    """
    score = gains if tradeoff == 0 else gains - tradeoff * unpaid
    return np.where((gains > GAIN_TOL) & (score > GAIN_TOL), score, -np.inf)


def _best_key(score: np.ndarray) -> float | None:
    """The best score of a set of candidates; None if none improves."""
    best = score.max() if score.size else -np.inf
    return None if best == -np.inf else float(best)


def _tied(score: np.ndarray, best: float) -> np.ndarray:
    """Mask of the candidates within :data:`TIE_TOL` (relative) of the best score (> 0)."""
    return score >= best - TIE_TOL * best


# ---------------------------------------------------------------------------- split search
@dataclass(frozen=True)
class Split:
    """A node's split ``x[feature] >= threshold``."""

    feature: int
    threshold: float
    goes_right: np.ndarray  # over the node's examples: x_j >= threshold


class SplitSearch:
    """What the split searches of the trees grown on one ``(X, y1)`` share.

    Whether ``X`` is all 0/1 (then a float32 copy for the products), its thresholds, and each
    node's split gains, keyed by the node's rows: they depend on the rows alone, so the trees
    of other trade-offs grown on the same rows reuse them. For 0/1 data also each node's
    counts (examples with ``x_j = 1`` and positives among them, per column): a split computes
    its smaller child's by one product and takes the larger child's as the parent's minus
    the smaller's (the subtraction trick of histogram-based boosting).
    """

    def __init__(self, X: np.ndarray, y1: np.ndarray, criterion: str):
        self.X, self.y1, self.criterion = X, y1, criterion
        self.binary = bool(np.logical_or(X == 0, X == 1).all())
        self.Xf = X.astype(np.float32) if self.binary else None
        self.thresholds = _Thresholds(X)
        self.gains_of: dict[bytes, np.ndarray] = {}
        self._counts_of: dict[bytes, np.ndarray] = {}

    def counts(self, idx: np.ndarray) -> np.ndarray:
        """(2, n_columns): examples of the node with ``x_j = 1``, and positives among them."""
        key = idx.tobytes()
        counts = self._counts_of.get(key)
        if counts is None:
            both = np.stack([np.ones(idx.size, np.float32), self.y1[idx].astype(np.float32)])
            counts = self._counts_of[key] = both @ self.Xf[idx]
        return counts

    def binary_gains(self, idx: np.ndarray) -> np.ndarray:
        """Gains of the node's splits ``x_j = 1`` (0/1 data)."""
        key = idx.tobytes()
        gains = self.gains_of.get(key)
        if gains is None:
            n_right, n1_right = self.counts(idx)
            n1 = float(self.y1[idx].sum())
            gains = split_gains(n_right, n1_right, idx.size, n1, self.criterion)
            self.gains_of[key] = gains
        return gains

    def best(self, idx: np.ndarray, unpaid: np.ndarray, tradeoff: float) -> Split | None:
        """The best split of the node of rows ``idx`` by ``gain - tradeoff * unpaid``, or None
        where no split improves (score > :data:`GAIN_TOL`); ties to the lower column, then
        the lower threshold."""
        if self.binary:
            return _best_split_binary(self, idx, unpaid, tradeoff)
        return _best_split_sorted(
            self.X, idx, self.y1, unpaid, self.criterion, tradeoff, self.thresholds, self.gains_of
        )

    def split_counts(self, idx: np.ndarray, right: np.ndarray, left: np.ndarray) -> None:
        """Counts of both children of a split node (0/1 data), when a child will be searched:
        one product for the smaller, the parent's minus that for the larger."""
        if not self.binary:
            return
        impure = [0 < self.y1[c].sum() < c.size for c in (right, left)]
        if not any(impure):
            return
        small, large = (right, left) if right.size <= left.size else (left, right)
        large_key = large.tobytes()
        if large_key not in self._counts_of:
            self._counts_of[large_key] = self.counts(idx) - self.counts(small)


def _best_split_binary(
    search: SplitSearch, idx: np.ndarray, unpaid: np.ndarray, tradeoff: float
) -> Split | None:
    """Best split of a node of an all-0/1 matrix, from its counts (:class:`SplitSearch`)."""
    score = _scores(search.binary_gains(idx), unpaid, tradeoff)
    best = _best_key(score)
    if best is None:
        return None
    j = int(np.flatnonzero(_tied(score, best))[0])
    return Split(j, 1.0, search.Xf[idx, j] == 1)


def _sorted_gains(values: np.ndarray, yk: np.ndarray, criterion: str) -> np.ndarray:
    """Gains of splitting between consecutive sorted values of each column: (k - 1, c).

    Position ``i`` separates the ``i + 1`` smallest values from the rest; positions between
    equal values get ``-inf``.
    """
    k = values.shape[0]
    order = np.argsort(values, axis=0, kind="stable")
    sorted_vals = np.take_along_axis(values, order, axis=0)
    n1_left = np.cumsum(yk[order], axis=0)[:-1]
    n_left = np.arange(1, k, dtype=np.float64)[:, None]
    n1 = float(yk.sum())
    gains = split_gains(k - n_left, n1 - n1_left, k, n1, criterion)
    gains[sorted_vals[1:] == sorted_vals[:-1]] = -np.inf
    return gains


class _Thresholds:
    """The boosters' thresholds of each column (distinct training values), built lazily."""

    def __init__(self, X: np.ndarray):
        self._X = X
        self._unique: dict[int, np.ndarray] = {}

    def above(self, j: int, value: float) -> float:
        """Smallest distinct training value of column ``j`` strictly above ``value``."""
        if j not in self._unique:
            self._unique[j] = np.unique(self._X[:, j])
        u = self._unique[j]
        return float(u[np.searchsorted(u, value, side="right")])


def _best_split_sorted(
    X: np.ndarray,
    idx: np.ndarray,
    y1: np.ndarray,
    unpaid: np.ndarray,
    criterion: str,
    tradeoff: float,
    thresholds: _Thresholds,
    gains_of: dict[bytes, np.ndarray],
) -> Split | None:
    """Best split of a node of a numeric matrix: cumulative sums over sorted columns.

    Candidates are ordered by column, then threshold. Each column's best gain is found in
    column blocks (kept in ``gains_of`` for other trees grown on the same rows); the chosen
    column is then re-scanned for its first best position, whose threshold is the smallest
    training value above the left side (the lowest threshold giving that partition).
    """
    yk = y1[idx].astype(np.float64)
    col_gain = gains_of.get(idx.tobytes())
    if col_gain is None:
        n_cols = X.shape[1]
        col_gain = np.full(n_cols, -np.inf)
        width = max(1, _BLOCK // idx.size)
        for start in range(0, n_cols, width):
            block = slice(start, min(start + width, n_cols))
            col_gain[block] = _sorted_gains(X[idx, block], yk, criterion).max(axis=0)
        gains_of[idx.tobytes()] = col_gain
    col_score = _scores(col_gain, unpaid, tradeoff)
    key = _best_key(col_score)
    if key is None:
        return None
    j = int(np.flatnonzero(_tied(col_score, key))[0])
    values = X[idx, j]
    gains = _sorted_gains(values[:, None], yk, criterion)[:, 0]
    score = _scores(gains, np.full(gains.size, unpaid[j]), tradeoff)
    pos = int(np.flatnonzero(_tied(score, key))[0])
    below = np.sort(values)[pos]
    v = thresholds.above(j, below)
    return Split(j, v, values >= v)
