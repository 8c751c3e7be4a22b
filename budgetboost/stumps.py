"""The decision stumps over a training matrix, and their edges for a weight vector.

A stump is ``h(x) = s * (1 if x[j] >= v else -1)`` with polarity ``s`` in {+1, -1}. The
candidate thresholds of column ``j`` are its distinct training values above the column's
minimum (a constant column has none): for a 0/1 column that is the single threshold 1, which
is exactly the paper's binarization of numeric attributes.

Edges ``gamma(h) = sum_i D(i) y_i h(x_i)`` of every candidate are computed in one vectorised
pass per round: for 0/1 columns a matrix-vector product with their +-1 stump outputs,
``gamma = S^T (D*y)``, and for other columns cumulative sums of ``D*y`` over presorted
columns, ``gamma(j, v) = sum(D*y) - 2 * sum_{x_ij < v} D(i) y_i``. Edges are reported for
``s = +1``; ``s = -1`` has the negated edge.

0/1 columns that are identical on the training rows (frequent after the paper's
binarization: every threshold between the same two training values gives the same column)
share one row of ``S``: the product runs over distinct columns only and is gathered back.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["StumpSpace", "stump_outputs"]


def _binary_columns(X: np.ndarray) -> np.ndarray:
    """Mask of columns whose values are all 0 or 1 (cheap: two comparisons per entry)."""
    return np.logical_or(X == 0, X == 1).all(axis=0)


def _distinct_sign_rows(B: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """+-1 rows of the distinct columns of a 0/1 block, and each column's row index.

    Columns are compared through their bit-packed form (one ``np.unique`` over short byte
    strings), so finding duplicates costs far less than one boosting round.
    """
    if B.shape[1] == 0:
        return np.empty((0, B.shape[0])), None
    packed = np.ascontiguousarray(np.packbits(B.astype(bool), axis=0).T)
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if first.size == B.shape[1]:  # all distinct: keep the columns in their own order
        return np.ascontiguousarray(2.0 * B.T - 1.0), None
    return np.ascontiguousarray(2.0 * B[:, first].T - 1.0), inverse.ravel()


@dataclass(frozen=True, eq=False)
class StumpSpace:
    """Candidate thresholds over the columns of a training matrix.

    Attributes
    ----------
    column, threshold : ndarray of shape (n_candidates,)
        Column index and threshold of every candidate (0/1 columns first, then the others).
    """

    column: np.ndarray
    threshold: np.ndarray
    _signs: np.ndarray  # (n_distinct, m) float64 +-1, C order: distinct 0/1 columns
    _binary_of: np.ndarray | None  # (n_binary,) row of _signs of each 0/1 column, or None
    _order: np.ndarray  # (m, n_numeric) argsort of each numeric column
    _boundary_row: np.ndarray  # (n_numeric_candidates,) last sorted position below v
    _boundary_col: np.ndarray  # (n_numeric_candidates,) index into the numeric block

    @classmethod
    def from_matrix(cls, X: np.ndarray) -> StumpSpace:
        """Build the stump space of a finite 2-d float matrix ``X`` (m x n)."""
        m = X.shape[0]
        is_binary = _binary_columns(X)
        has_both = X.max(axis=0) > X.min(axis=0)  # constant columns give no stump
        binary = np.flatnonzero(is_binary & has_both)
        numeric = np.flatnonzero(~is_binary & has_both)

        signs, binary_of = _distinct_sign_rows(X[:, binary])

        order = np.argsort(X[:, numeric], axis=0, kind="stable")
        sorted_vals = np.take_along_axis(X[:, numeric], order, axis=0)
        # a threshold sits at every sorted position k >= 1 whose value differs from k-1
        rises = sorted_vals[1:] > sorted_vals[:-1]  # (m-1, n_numeric)
        col, pos = np.nonzero(rises.T)  # transposed: candidates come column by column
        boundary_row = pos  # position k-1 in sorted order: the last value below v
        boundary_col = col
        numeric_threshold = sorted_vals[pos + 1, col] if m > 1 else np.empty(0)

        column = np.concatenate([binary, numeric[boundary_col]]).astype(np.intp)
        threshold = np.concatenate([np.ones(binary.size), numeric_threshold]).astype(np.float64)
        return cls(column, threshold, signs, binary_of, order, boundary_row, boundary_col)

    @property
    def n_candidates(self) -> int:
        return int(self.column.size)

    def edges(self, wy: np.ndarray) -> np.ndarray:
        """Edges of every candidate with polarity +1, for ``wy = D * y`` (length m)."""
        binary = self._signs @ wy
        if self._binary_of is not None:
            binary = binary[self._binary_of]
        if not self._boundary_row.size:
            return binary
        below = np.cumsum(wy[self._order], axis=0)
        numeric = wy.sum() - 2.0 * below[self._boundary_row, self._boundary_col]
        return np.concatenate([binary, numeric])


def stump_outputs(X: np.ndarray, feature: np.ndarray, threshold: np.ndarray,
                  polarity: np.ndarray) -> np.ndarray:
    """Outputs ``h_t(x_i)`` in {-1, +1} of stumps ``t`` on rows ``i``: shape (m, T)."""
    above = X[:, feature] >= threshold
    return np.where(above, 1.0, -1.0) * polarity
