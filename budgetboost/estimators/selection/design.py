"""The columns the selection paths read, standardised, and the folds of their cross-validation.

A feature group is the contract's unit of payment: under per-column costs every 0/1 column is
its own group, under grouped costs the threshold indicators of one raw attribute form one
(up to 207 of them: sonar's). The selection paths (:mod:`~.forward`, :mod:`~.group_lasso`)
weigh whole groups with a logistic model; to keep that model small, a group is represented by
at most ``max_group_columns`` of its non-constant columns, spread evenly over its columns
ordered by their mean (thresholds of one attribute: spread over its range). The classifier
trained on a chosen set reads every column of its groups (:mod:`~.classifiers`).

Columns are standardised (mean 0, standard deviation 1 on the rows the paths are built on),
as penalised logistic models usually are (glmnet's default), so that a penalty weighs each
column alike whatever its share of 1s.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Design", "ranges", "spread_columns", "stratified_folds"]


def spread_columns(X: np.ndarray, group_of_column: np.ndarray, per_group: int) -> np.ndarray:
    """The columns representing each group, in increasing order: its non-constant columns,
    at most ``per_group`` of them, spread evenly over the group's columns ordered by mean.

    Parameters
    ----------
    X : ndarray of shape (n, n_columns)
    group_of_column : ndarray of int, shape (n_columns,)
    per_group : int >= 1

    Returns
    -------
    ndarray of int
        Column indices. Of ``c`` non-constant columns ranked by (mean, index) within their
        group, rank ``r`` is kept where it is the rounding of ``k (c - 1) / (q - 1)`` for
        some ``k < q``, ``q = min(per_group, c)``: the first and the last, and ``q`` in all.
    """
    group_of_column = np.asarray(group_of_column, dtype=np.intp)
    varies = X.max(axis=0, initial=-np.inf) > X.min(axis=0, initial=np.inf)
    columns = np.flatnonzero(varies)
    if not columns.size:
        return columns
    group = group_of_column[columns]
    order = np.lexsort((columns, X[:, columns].mean(axis=0), group))
    group = group[order]
    start = np.searchsorted(group, group)  # first position of each column's group
    rank = np.arange(order.size) - start
    count = np.bincount(group)[group]
    q = np.minimum(per_group, count)
    # rank r is kept where r = rint(k (c - 1) / (q - 1)) for an integer k in [0, q)
    k = np.rint(rank * (q - 1) / np.maximum(count - 1, 1))
    kept = (q == count) | (np.rint(k * (count - 1) / np.maximum(q - 1, 1)) == rank)
    return np.sort(columns[order[kept]])


def stratified_folds(y: np.ndarray, n_folds: int, rng: np.random.Generator) -> np.ndarray:
    """The fold (``0 .. n_folds - 1``) of each row: each class's rows in a random order,
    dealt to the folds in turn (so each fold holds its share of each class, within one)."""
    fold = np.empty(y.size, dtype=np.intp)
    for label in (-1.0, 1.0):
        rows = np.flatnonzero(y == label)
        fold[rows[rng.permutation(rows.size)]] = np.arange(rows.size) % n_folds
    return fold


@dataclass(frozen=True, eq=False)
class Design:
    """The standardised columns of the selection paths, on the rows they are built on.

    Attributes
    ----------
    Z : ndarray of shape (n, n_columns)
        The columns representing the groups (:func:`spread_columns`), each standardised.
    columns : ndarray of int, shape (n_columns,)
        Their indices in the training ``X``.
    group : ndarray of int, shape (n_columns,)
        The feature group of each, non-decreasing (a group's columns are contiguous).
    starts : ndarray of int, shape (n_groups + 1,)
        ``Z[:, starts[g]:starts[g + 1]]`` are the columns of group ``g`` (none for a group
        without a non-constant column).
    """

    Z: np.ndarray
    columns: np.ndarray
    group: np.ndarray
    starts: np.ndarray

    @classmethod
    def build(
        cls, X: np.ndarray, group_of_column: np.ndarray, n_groups: int, per_group: int
    ) -> Design:
        """The design of ``X`` (the rows the paths are built on): at most ``per_group``
        columns a group."""
        group_of_column = np.asarray(group_of_column, dtype=np.intp)
        columns = spread_columns(X, group_of_column, per_group)
        columns = columns[np.argsort(group_of_column[columns], kind="stable")]
        group = group_of_column[columns]
        values = X[:, columns].astype(np.float64)
        values = (values - values.mean(axis=0)) / values.std(axis=0)
        starts = np.searchsorted(group, np.arange(n_groups + 1))
        return cls(values, columns, group, starts.astype(np.intp))

    @property
    def n_groups(self) -> int:
        return int(self.starts.size - 1)

    def has_columns(self) -> np.ndarray:
        """Whether each group has a non-constant column (only those can be selected)."""
        return np.diff(self.starts) > 0

    def of(self, groups) -> np.ndarray:
        """Positions (in ``Z``) of the columns of ``groups``, group after group."""
        groups = np.asarray(groups, dtype=np.intp)
        return ranges(self.starts[groups], self.starts[groups + 1])


def ranges(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """``starts[0] .. ends[0] - 1``, then ``starts[1] .. ends[1] - 1``, ...: one array."""
    widths = np.asarray(ends, dtype=np.intp) - np.asarray(starts, dtype=np.intp)
    offsets = np.repeat(np.cumsum(widths) - widths, widths)
    return (np.arange(int(widths.sum())) - offsets + np.repeat(starts, widths)).astype(np.intp)
