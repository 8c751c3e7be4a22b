"""The candidate tests of an optimal tree and one solve of pystreed's cost-sensitive task:
the tests ordered by feature group, each group one ``FeatureCostSpecifier`` at the contract's
prices (see :mod:`budgetboost.estimators.optimal_trees`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from ..contract.base import (
    TrainingData,
)
from ..contract.pricing import Pricing

if TYPE_CHECKING:  # the library loads where a tree is solved (planning imports this module)
    from pystreed.data import CostSpecifier

__all__ = [
    "CandidateTests",
    "TimeLimitError",
    "candidate_tests",
    "cost_specifier",
    "select_tests",
    "solve",
]

#: The misclassification costs ``[true][predicted]``: one error costs 1.
_ERRORS = [[0.0, 1.0], [1.0, 0.0]]


class TimeLimitError(RuntimeError):
    """A STreeD solve stopped at its ``time_limit``: its tree is not proven optimal and
    would depend on the machine's speed, so it is refused."""


@dataclass(frozen=True, eq=False)
class CandidateTests:
    """The binary tests ``x[column] >= threshold`` STreeD may choose from, with their gains.

    Attributes
    ----------
    column : ndarray of int, shape (n_tests,)
        The column of ``X`` tested.
    threshold : ndarray of shape (n_tests,)
        Midway between two consecutive values of the column on the rows.
    group : ndarray of int, shape (n_tests,)
        The feature group of the column.
    gain : ndarray of shape (n_tests,)
        The Gini gain of the test as a split of the rows (``2 p (1 - p)`` impurity).
    """

    column: np.ndarray
    threshold: np.ndarray
    group: np.ndarray
    gain: np.ndarray

    def take(self, index: np.ndarray) -> CandidateTests:
        """The tests at ``index``, in that order."""
        return CandidateTests(
            self.column[index], self.threshold[index], self.group[index], self.gain[index]
        )

    def values(self, X: np.ndarray) -> np.ndarray:
        """The tests' 0/1 outcomes on ``X``: (n_samples, n_tests), ``np.intc`` for pystreed."""
        return (X[:, self.column] >= self.threshold).astype(np.intc)


def _gini_gains(n_right: np.ndarray, pos_right: np.ndarray, n: int, pos: int) -> np.ndarray:
    """Gini gain of splits that send ``n_right`` rows, ``pos_right`` of them positive, to the
    right, out of ``n`` rows, ``pos`` positive."""

    def impurity(k: np.ndarray, m: np.ndarray) -> np.ndarray:
        p = k / np.maximum(m, 1)
        return 2.0 * p * (1.0 - p)

    n_left, pos_left = n - n_right, pos - pos_right
    parent = impurity(np.float64(pos), np.float64(n))
    children = n_right * impurity(pos_right, n_right) + n_left * impurity(pos_left, n_left)
    return parent - children / n


def candidate_tests(X: np.ndarray, y1: np.ndarray, data: TrainingData) -> CandidateTests:
    """Every test that splits ``(X, y1)``, each partition of the rows offered once.

    A 0/1 column gives one test (``x >= 0.5``); any other column one test between each two
    consecutive distinct values. Tests that split the rows identically (or into the same two
    parts, swapped) are one: the first of them by price alone, then column, is kept (the
    same split at the lowest price; only 0/1 columns are compared, as the benchmark's data
    are).

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
        The rows the tree is fitted on.
    y1 : ndarray of int, shape (n_samples,)
        1 for ``classes_[1]``, else 0.
    data : TrainingData
        The columns' feature groups and the prices (``data.pricing``).

    Returns
    -------
    CandidateTests
        In column order, then threshold.
    """
    n = X.shape[0]
    pos = int(y1.sum())
    varying = X.max(axis=0) > X.min(axis=0)
    binary = varying & np.all((X == 0) | (X == 1), axis=0)
    # 0/1 columns: one test each, one per partition of the rows (cheapest, then first)
    columns = np.flatnonzero(binary)
    ones = X[:, columns] > 0.5
    flipped = ones ^ ones[:1]  # a part and its complement are one partition
    packed = np.ascontiguousarray(np.packbits(flipped, axis=0).T)
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    price = data.pricing.prices()[data.group_of_column[columns]]
    first = np.lexsort((columns, price))
    _, unique = np.unique(keys[first], return_index=True)
    keep = np.sort(first[unique])
    columns, ones = columns[keep], ones[:, keep]
    n_right = ones.sum(axis=0)
    pos_right = y1 @ ones
    column_parts, threshold_parts = [columns], [np.full(columns.size, 0.5)]
    n_parts, pos_parts = [n_right], [pos_right]
    # any other varying column: a test between each two consecutive distinct values
    other = np.flatnonzero(varying & ~binary)
    if other.size:
        order = np.argsort(X[:, other], axis=0, kind="stable")
        values = np.take_along_axis(X[:, other], order, axis=0)
        below = np.cumsum(y1[order], axis=0)  # positives among the k + 1 smallest
        k, j = np.nonzero(values[1:] > values[:-1])  # a cut after the k + 1 smallest
        column_parts.append(other[j])
        threshold_parts.append((values[k, j] + values[k + 1, j]) / 2)
        n_parts.append(n - (k + 1))
        pos_parts.append(pos - below[k, j])
    column = np.concatenate(column_parts).astype(np.intp)
    threshold = np.concatenate(threshold_parts)
    order = np.lexsort((threshold, column))
    column, threshold = column[order], threshold[order]
    gain = _gini_gains(
        np.concatenate(n_parts)[order].astype(np.float64),
        np.concatenate(pos_parts)[order].astype(np.float64),
        n,
        pos,
    )
    return CandidateTests(column, threshold, data.group_of_column[column], gain)


def select_tests(
    tests: CandidateTests,
    price: np.ndarray,
    scale: float,
    max_columns: int,
    max_thresholds: int,
) -> CandidateTests:
    """The ``max_columns`` best tests by Greedy Miser's score ``gain - scale * price``, at most
    ``max_thresholds`` of each feature group (a departure from STreeD, which takes every
    test: see :class:`BudgetedSTreeD`).

    Parameters
    ----------
    tests : CandidateTests
    price : ndarray of shape (n_groups,)
        Each feature group's price alone.
    scale : float
        The price of one unit of cost, in errors (the trade-off's scale; 0: cost-blind).
    max_columns, max_thresholds : int

    Returns
    -------
    CandidateTests
        Ordered by feature group, then column and threshold, so that each group's tests are
        contiguous (what pystreed's cost specifiers need). Ties of the score go to the
        lower price, then the lower column and threshold.
    """
    cost = price[tests.group]
    score = tests.gain - scale * cost
    order = np.lexsort((tests.threshold, tests.column, cost, -score))
    group = tests.group[order]
    by_group = np.argsort(group, kind="stable")  # score order within each group
    starts = np.searchsorted(group[by_group], group[by_group], side="left")
    rank = np.empty(order.size, dtype=np.intp)
    rank[by_group] = np.arange(order.size) - starts
    chosen = tests.take(order[rank < max_thresholds][:max_columns])
    return chosen.take(np.lexsort((chosen.threshold, chosen.column, chosen.group)))


def cost_specifier(group: np.ndarray, pricing: Pricing, scale: float) -> CostSpecifier:
    """pystreed's costs of tests whose feature groups are ``group`` (each group's tests
    contiguous): one error costs 1, a group of price ``p`` costs ``scale * p`` (the module
    docstring says how the discount groups map).

    Parameters
    ----------
    group : ndarray of int, shape (n_tests,)
        The feature group of each test given to STreeD, in the order given.
    pricing : Pricing
    scale : float
    """
    from pystreed.data import CostSpecifier, FeatureCostSpecifier

    starts = np.flatnonzero(np.concatenate([[True], group[1:] != group[:-1]]))
    ends = np.append(starts[1:], group.size) - 1
    if np.unique(group[starts]).size != starts.size:
        raise ValueError("the tests of each feature group must be contiguous")
    alone, base = pricing.prices(), pricing.base
    specifiers = []
    for begin, end in zip(starts.tolist(), ends.tolist(), strict=True):  # one per group
        g = int(group[begin])
        d = int(pricing.discount_group[g])
        name = f"discount-{d}" if d >= 0 else f"group-{g}"
        discount = base[g] if d >= 0 else alone[g]
        specifiers.append(
            FeatureCostSpecifier(float(scale * alone[g]), float(scale * discount), name, begin, end)
        )
    return CostSpecifier(_ERRORS, specifiers)


def solve(
    Z: np.ndarray,
    y1: np.ndarray,
    costs: CostSpecifier,
    max_depth: int,
    min_leaf_node_size: int,
    time_limit: float,
    seed: int,
) -> Any:
    """STreeD's optimal tree on the 0/1 tests ``Z`` (the pystreed tree's root).

    Raises
    ------
    TimeLimitError
        When the solve stops at ``time_limit`` (its tree is not proven optimal).
    RuntimeError
        When pystreed finds no tree (it always should: a leaf is feasible).
    """
    from pystreed import STreeDCostSensitiveClassifier

    solver = STreeDCostSensitiveClassifier(
        max_depth=int(max_depth),
        min_leaf_node_size=int(min_leaf_node_size),
        time_limit=float(time_limit),
        random_seed=int(seed),
    )
    solver.fit(Z, y1.astype(np.intc), costs)
    if not solver.is_fitted():
        raise RuntimeError("pystreed found no feasible tree")
    if not solver.fit_result.is_optimal():
        raise TimeLimitError(
            f"a STreeD solve (max_depth={max_depth}, {Z.shape[0]} rows x {Z.shape[1]} tests) "
            f"stopped at time_limit={time_limit} s: its tree would depend on the machine's "
            "speed. Lower max_depth or max_columns, or raise time_limit"
        )
    return solver.tree_
