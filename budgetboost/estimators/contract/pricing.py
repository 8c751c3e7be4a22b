"""What an example pays for the feature groups it reads, with Turney's discount groups.

Every estimator charges a test example for the feature groups (raw attributes: the contract's
``feature_groups``) its prediction reads, each once however often it reads it. Real test
costs also share parts between tests (Turney 1995): the tests of one *discount group* (a
blood draw, an exercise ECG) share a part ``cost - discount`` paid once per example for the
group, and each test of the group the example reads adds its *discount* price. A test
outside any discount group costs its ``cost``. So the price of the set ``S`` of feature
groups an example reads is

    price(S) = sum over discount groups d touched by S of shared_d
             + sum over a in S of base_a,

``base_a`` the discount price of a grouped test and the full price of an ungrouped one, and
the *marginal* price of reading ``a`` once the example has paid for ``P``: 0 if ``a`` is in
``P``; ``discount_a`` if its discount group is touched by ``P``; ``discount_a + shared_d``
(its price alone) if not; ``cost_a`` if it has no discount group.

:class:`Pricing` holds those prices and answers the questions the estimators ask of them,
vectorised where they ask per example. Without discount groups (every cost model but real
test costs) each answer is computed by the very expression the estimators used before
discount groups existed, so their results are byte-identical.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

__all__ = ["Pricing"]


@dataclass(frozen=True, eq=False)
class Pricing:
    """The prices of a fit's feature groups (see the module docstring).

    Attributes
    ----------
    cost : ndarray of shape (n_groups,)
        The full price of each feature group (its test alone): ``TrainingData.group_cost``.
    discount_group : ndarray of int, shape (n_groups,)
        The discount group of each feature group, ``-1`` where it has none.
    base : ndarray of shape (n_groups,)
        What reading the group adds once its discount group is paid: its discount price, or
        its full price where it has no discount group.
    shared : ndarray of shape (n_discount_groups,)
        Each discount group's shared part, paid once per example that reads any of its tests.
    """

    cost: np.ndarray
    discount_group: np.ndarray
    base: np.ndarray
    shared: np.ndarray

    @classmethod
    def plain(cls, cost: np.ndarray) -> Pricing:
        """Prices without discount groups: each group costs ``cost``, paid once."""
        cost = np.asarray(cost, dtype=np.float64)
        return cls(cost, np.full(cost.size, -1, dtype=np.intp), cost, np.zeros(0))

    @property
    def discounted(self) -> bool:
        """Whether any discount group shares a part (else every price is the full one)."""
        return bool(self.shared.size)

    @property
    def n_discount_groups(self) -> int:
        return int(self.shared.size)

    def untouched(self) -> np.ndarray:
        """The state of an example that has paid nothing: no discount group touched."""
        return np.zeros(self.shared.size, dtype=bool)

    # ------------------------------------------------------------------ one state
    def prices(self, touched: np.ndarray | None = None) -> np.ndarray:
        """Price of reading each feature group as though it were not yet paid, given the
        discount groups ``touched`` (None: none): its base, plus its group's shared part
        where that group is untouched. Without discount groups: ``cost`` itself.

        This is the price the cost-aware criteria read (the paper's "original cost", kept
        once a feature is paid, Section 4): a paid test of a touched group keeps its
        discount price.
        """
        if not self.discounted:
            return self.cost
        grouped = self.discount_group >= 0
        shared = self.shared[np.maximum(self.discount_group, 0)]
        if touched is not None:
            shared = np.where(touched[np.maximum(self.discount_group, 0)], 0.0, shared)
        return np.where(grouped, self.base + shared, self.base)

    def sequence(self, groups: Iterable[int], touched: np.ndarray) -> list[float]:
        """Marginal prices of reading the new, distinct ``groups`` one after the other,
        given the discount groups ``touched`` before the first (not changed here)."""
        if not self.discounted:
            return [self.cost[g] for g in groups]
        seen = set(np.flatnonzero(touched).tolist())
        out = []
        for g in groups:
            d = int(self.discount_group[g])
            price = self.base[g]
            if d >= 0 and d not in seen:
                seen.add(d)
                price = price + self.shared[d]
            out.append(price)
        return out

    def touch(self, touched: np.ndarray, groups: Iterable[int]) -> bool:
        """Mark the discount groups of ``groups`` touched; whether any was not before."""
        if not self.discounted:
            return False
        d = self.discount_group[np.asarray(list(groups), dtype=np.intp)]
        d = d[d >= 0]
        new = bool(d.size) and not touched[d].all()
        touched[d] = True
        return new

    def added(self, new: np.ndarray, touched: np.ndarray) -> float:
        """What reading the new, distinct feature groups ``new`` adds to a set whose
        discount groups ``touched`` are paid; marks theirs touched."""
        if not self.discounted:
            return self.cost[new].sum()
        d = np.unique(self.discount_group[new])
        d = d[d >= 0]
        fresh = d[~touched[d]]
        touched[fresh] = True
        return self.base[new].sum() + self.shared[fresh].sum()

    # ------------------------------------------------------------------ sets
    def set_cost(self, groups: np.ndarray) -> float:
        """The price of the set of distinct feature groups ``groups``."""
        groups = np.asarray(groups, dtype=np.intp)
        if not self.discounted:
            return float(self.cost[groups].sum())
        d = np.unique(self.discount_group[groups])
        return float(self.base[groups].sum() + self.shared[d[d >= 0]].sum())

    def set_costs(self, paid: np.ndarray, groups: np.ndarray) -> np.ndarray:
        """The price of each row's set: ``paid[i, k]`` says whether row ``i`` reads feature
        group ``groups[k]`` (distinct groups): shape (n_rows,)."""
        groups = np.asarray(groups, dtype=np.intp)
        out = np.where(paid, self.cost[groups] if not self.discounted else self.base[groups], 0.0)
        out = out.sum(axis=1)
        if self.discounted:
            out += self._touched_rows(paid, groups) @ self.shared
        return out

    def _touched_rows(self, paid: np.ndarray, groups: np.ndarray) -> np.ndarray:
        """(n_rows, n_discount_groups): whether each row reads a test of each group."""
        member = np.zeros((groups.size, self.shared.size))
        d = self.discount_group[groups]
        member[np.flatnonzero(d >= 0), d[d >= 0]] = 1.0
        return (paid.astype(np.float64) @ member) > 0

    def first_use(self, group: np.ndarray, first: np.ndarray) -> np.ndarray:
        """What each step of one sequence of reads pays: ``group[t]`` read at step ``t``,
        ``first[t]`` where it is that group's first read. A first read pays its base, plus
        its discount group's shared part at that group's first touch."""
        group = np.asarray(group, dtype=np.intp)
        if not self.discounted:
            return np.where(first, self.cost[group], 0.0)
        out = np.where(first, self.base[group], 0.0)
        d = self.discount_group[group]
        steps = np.flatnonzero(first & (d >= 0))
        _, at = np.unique(d[steps], return_index=True)  # the first step of each group
        out[steps[at]] += self.shared[d[steps[at]]]
        return out

    def first_touches(
        self, row: np.ndarray, group: np.ndarray, position: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Among first reads ``(row, group)`` made at increasing ``position`` within each row's
        sequence, the ones that first touch a discount group: ``(index, shared part)`` with
        ``index`` into the given arrays."""
        d = self.discount_group[group]
        grouped = np.flatnonzero(d >= 0)
        order = grouped[np.argsort(position[grouped], kind="stable")]
        key = row[order].astype(np.int64) * self.shared.size + d[order]
        _, at = np.unique(key, return_index=True)
        index = order[at]
        return index, self.shared[d[index]]

    # ------------------------------------------------------------------ building
    @classmethod
    def from_columns(
        cls,
        group_of_column: np.ndarray,
        group_cost: np.ndarray,
        column_group: np.ndarray,
        discount: np.ndarray,
        shared: np.ndarray,
    ) -> Pricing:
        """Prices from checked columns (``validation.check_discount_groups``): each column's
        discount group index (``-1``: none) and discount price, one per feature group."""
        first = np.unique(group_of_column, return_index=True)[1]  # a column of each group
        group_label = np.asarray(column_group, dtype=np.intp)[first]
        group_cost = np.asarray(group_cost, dtype=np.float64)
        return cls(
            cost=group_cost,
            discount_group=group_label,
            base=np.where(
                group_label >= 0, np.asarray(discount, dtype=np.float64)[first], group_cost
            ),
            shared=np.asarray(shared, dtype=np.float64),
        )
