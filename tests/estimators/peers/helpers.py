"""What the peer adapters' tests share: the problem both are fitted on, and the budgets."""

from __future__ import annotations

import numpy as np

BUDGETS = [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, np.inf]


def problem(n: int = 400, d: int = 12, seed: int = 0):
    """0/1 features; the label depends on columns 0-3 (and noise); costs U[0, 2], one 0."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < 0.5).astype(np.float64)
    signal = X[:, 0] + X[:, 1] - X[:, 2] + 0.5 * X[:, 3] + 0.6 * rng.standard_normal(n)
    y = np.where(signal > 0.75, 1, -1)
    costs = rng.uniform(0, 2, d)
    costs[5] = 0.0
    return X, y, costs


def pay_once(columns_per_tree, k, group_cost, group_of_column):
    """The cost of the first ``k`` trees: each group read by any of them, paid once."""
    groups = {int(group_of_column[c]) for cols in columns_per_tree[:k] for c in cols}
    return sum(group_cost[g] for g in sorted(groups))


def priced(kind: str, d: int = 12, seed: int = 0) -> dict:
    """The cost parameters of :func:`problem`'s ``d`` columns, by kind of cost model:
    ``"columns"`` (each column its own price, U[0, 2], one free), ``"groups"`` (pairs of
    columns paid together) or ``"discounts"`` (pairs, and Turney's discount groups: groups
    0-1 share a part of 0.5, groups 2-3 one of 0.3, the rest none)."""
    rng = np.random.default_rng(seed + 100)
    if kind == "columns":
        return {"feature_costs": problem(d=d, seed=seed)[2]}
    groups = np.arange(d) // 2
    group_cost = np.round(rng.uniform(0.6, 2.0, groups.max() + 1), 2)
    params = {"feature_costs": group_cost[groups], "feature_groups": groups}
    if kind == "groups":
        return params
    label = np.array([0, 0, 1, 1] + [-1] * (groups.max() - 3))
    shared = np.array([0.5, 0.3])
    discount = np.where(label >= 0, group_cost - shared[np.maximum(label, 0)], group_cost)
    return {**params, "discount_groups": label[groups], "discount_costs": discount[groups]}
