"""The columns a library peer is given: one ordinal column per attribute of thresholds.

The benchmark's data are the paper's 0/1 indicators: an attribute ``x`` of sonar becomes
up to 207 columns ``x >= t`` (Table 1: 11,196 columns for 60 attributes). A gradient-boosting
library handed those columns searches each of them separately (LightGBM and CatBoost build
a histogram per column) and charges its feature penalty per column, although under a grouped
cost model (Turney's test costs) the columns of one attribute form one feature group, paid
once. Handed instead what a user of the library
would hand it, the attribute itself, it finds the same splits (``x >= t`` for the same
thresholds ``t``, as long as its bins keep every value apart: at most 255 of them by
default) at a fraction of the time, and its first-use penalty is the group's pay-once cost.

:class:`ColumnEncoding` recovers that from the indicators alone: within a feature group,
columns whose 1-sets are nested on the rows the library is fitted on (``x >= t`` for
increasing ``t``) are replaced by their sum, the number of thresholds ``x`` reaches, a
monotone function of ``x`` (columns constant on those rows take no part: no library can
split on them). Every other column (a one-hot category, a non-binary or constant column, a
column of a group that is not nested) is given as it is, so ungrouped data reach the library
unchanged. Each library column keeps the feature group it came from, so the project's cost
accounting is unchanged.

:func:`distinct_columns` goes one step further where a peer asks for it
(``merge_identical_columns``): of the library columns equal on the rows a model is trained
on, the model is given one, the cheapest. On sonar's 75 fit rows the 11,196 threshold
columns take 4,164 distinct values (ionosphere: 8,114 and 4,670), and both libraries spend
their time per column (LightGBM builds a histogram of each and sets up each column's
state for every model; CatBoost scores each).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ColumnEncoding", "distinct_columns", "most_distinct"]


@dataclass(frozen=True)
class ColumnEncoding:
    """Library columns as sums of training columns.

    Attributes
    ----------
    order : ndarray of int
        Training columns, segment by segment (each segment in decreasing number of 1s).
    starts : ndarray of int
        Start of each library column's segment in ``order``.
    group : ndarray of int
        Feature group of each library column.
    identity : bool
        The library columns are the training columns, in order (nothing to transform).
    """

    order: np.ndarray
    starts: np.ndarray
    group: np.ndarray
    identity: bool

    @classmethod
    def fit(cls, X: np.ndarray, group_of_column: np.ndarray) -> ColumnEncoding:
        """The encoding of ``X`` (the rows the library is fitted on) and its groups.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
        group_of_column : ndarray of int, shape (n_features,)

        Returns
        -------
        ColumnEncoding
            Library columns in the order of their first training column.
        """
        d = X.shape[1]
        varying = X.max(axis=0, initial=-np.inf) > X.min(axis=0, initial=np.inf)
        binary = np.all((X == 0) | (X == 1), axis=0) & varying
        # varying 0/1 columns of a group, most 1s first; every other column alone
        key = np.where(binary, np.asarray(group_of_column), -1 - np.arange(d))
        order = np.lexsort((np.arange(d), -X.sum(axis=0), key))
        key = key[order]
        same = key[1:] == key[:-1]
        nested = np.all(X[:, order[1:]] <= X[:, order[:-1]], axis=0)
        broken = np.unique(key[1:][same & ~nested])
        chain = same & ~np.isin(key[1:], broken)
        starts = np.flatnonzero(np.concatenate([[True], ~chain]))
        # library columns in the order of their first training column
        lengths = np.diff(np.append(starts, order.size))
        segment = np.repeat(np.arange(starts.size), lengths)
        rank = np.empty(starts.size, dtype=np.intp)
        rank[np.argsort(np.minimum.reduceat(order, starts), kind="stable")] = np.arange(starts.size)
        order = order[np.lexsort((np.arange(order.size), rank[segment]))]
        lengths = lengths[np.argsort(rank)]
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.intp)
        return cls(
            order=order.astype(np.intp),
            starts=starts,
            group=np.asarray(group_of_column)[order[starts]],
            identity=bool(starts.size == d and np.array_equal(order, np.arange(d))),
        )

    @property
    def n_columns(self) -> int:
        """Number of library columns."""
        return int(self.starts.size)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """The library columns of ``X`` (float64): each segment's columns summed."""
        if self.identity:
            return X
        return np.add.reduceat(X[:, self.order].astype(np.float64), self.starts, axis=1)


def distinct_columns(X: np.ndarray, penalty: np.ndarray) -> np.ndarray:
    """One column of each set of columns equal on the rows of ``X`` (sorted): the cheapest
    by ``penalty``, then the first.

    A tree cannot tell such columns apart on these rows: any split on one splits the rows as
    a split on another does, so a library given only the representative finds the same
    splits, each on the cheapest column that makes it (a cost-aware library prefers that one
    anyway; a cost-blind one, where the trade-off is 0, would take the first of equal gains).
    """
    data = np.ascontiguousarray(np.asarray(X, dtype=np.float64).T)
    keys = data.view(np.dtype((np.void, data.shape[1] * data.itemsize))).ravel()
    order = np.lexsort((np.arange(keys.size), np.asarray(penalty)))
    _, first = np.unique(keys[order], return_index=True)
    return np.sort(order[first]).astype(np.intp)


def most_distinct(X: np.ndarray) -> int:
    """The most distinct values of a column of ``X`` (1 for no column)."""
    if not X.size:
        return 1
    ordered = np.sort(X, axis=0)
    return int(1 + (np.diff(ordered, axis=0) != 0).sum(axis=0).max(initial=0))
