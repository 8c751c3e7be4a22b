"""The budgeted CART tree written from its definitions, for the tests of cart_splits and
pruned_tree: every threshold of every column enumerated, examples counted in loops, pruned
trees recomputed from scratch at every step; the references share no code with the engine.

Also the tiny problems they are checked on and a fit of the engine (plain CART or a fixed
trade-off tree)."""

from __future__ import annotations

import math

from helpers import examples, problems
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from budgetboost.estimators.trees.budgeted_tree import BudgetedTree

#: the engine's GAIN_TOL and TIE_TOL, restated
TOL = 1e-12


def ref_impurity(n1: int, n: int, criterion: str) -> float:
    p = n1 / n
    if criterion == "gini":
        return 1.0 - p * p - (1.0 - p) * (1.0 - p)
    return -sum(q * math.log2(q) for q in (p, 1.0 - p) if q > 0)


def ref_grow(X, y, group, group_cost, criterion, tradeoff):
    """Preorder list of nodes ``(feature, threshold, n0, n1, paid groups above)``.

    A split scores ``gain - tradeoff * unpaid cost`` and counts when gain and score both
    exceed TOL (plain CART: ``tradeoff = 0``).
    """
    n_cols = len(X[0])
    thresholds = [sorted({row[j] for row in X})[1:] for j in range(n_cols)]
    nodes = []

    def grow(rows, paid):
        n = len(rows)
        n1 = sum(y[r] for r in rows)
        me = len(nodes)
        nodes.append([-1, None, n - n1, n1, frozenset(paid)])
        if n1 in (0, n):
            return
        parent = ref_impurity(n1, n, criterion)
        cands = []  # in (column, threshold) order
        for j in range(n_cols):
            for v in thresholds[j]:
                right = [r for r in rows if X[r][j] >= v]
                left = [r for r in rows if X[r][j] < v]
                if not right or not left:
                    continue
                gain = (
                    parent
                    - len(left) / n * ref_impurity(sum(y[r] for r in left), len(left), criterion)
                    - len(right) / n * ref_impurity(sum(y[r] for r in right), len(right), criterion)
                )
                cost = 0.0 if group[j] in paid else group_cost[group[j]]
                score = gain - tradeoff * cost
                if gain <= TOL or score <= TOL:
                    continue
                cands.append((j, v, gain, score, left, right))
        if not cands:
            return
        best = max(c[3] for c in cands)
        chosen = next(c for c in cands if c[3] >= best - TOL * best)
        j, v, _, _, left, right = chosen
        nodes[me][0], nodes[me][1] = j, v
        grow(left, paid | {group[j]})
        grow(right, paid | {group[j]})

    grow(list(range(len(X))), frozenset())
    return nodes


def tree_children(model):
    return model.children_left_.tolist(), model.children_right_.tolist()


def ref_path_costs(model, group, group_cost):
    """Cost of the distinct groups split on above each node, walking parents (math.fsum)."""
    left, right = tree_children(model)
    parent = {c: p for p in range(len(left)) for c in (left[p], right[p]) if c >= 0}
    out = []
    for node in range(len(left)):
        groups, a = set(), node
        while a in parent:
            a = parent[a]
            groups.add(group[model.feature_[a]])
        out.append(math.fsum(group_cost[g] for g in groups))
    return out


def ref_pruning(model, path_cost, by):
    """The cut sequence, recomputing every subtree quantity from scratch at every step."""
    left, right = tree_children(model)
    leaf_err = [min(int(a), int(b)) for a, b in model.value_]
    cut: set[int] = set()
    order = []

    def is_leaf(t):
        return left[t] < 0 or t in cut

    def leaves_below(t):
        if is_leaf(t):
            return [t]
        return leaves_below(left[t]) + leaves_below(right[t])

    def present_internal(t):
        if is_leaf(t):
            return []
        return [t] + present_internal(left[t]) + present_internal(right[t])

    while not is_leaf(0):
        top = max(path_cost[v] for v in leaves_below(0))
        if by == "budget" and top <= 0:
            break
        cands = []
        for t in present_internal(0):
            below = leaves_below(t)
            increase = leaf_err[t] - sum(leaf_err[v] for v in below)
            if by == "budget":
                if max(path_cost[v] for v in below) != top or top - path_cost[t] <= 0:
                    continue
                saved = top - path_cost[t]
            else:
                saved = 2.0 * (len(below) - 1)
            cands.append((increase / saved, -saved, t))
        t = min(cands)[2]
        cut.add(t)
        order.append(t)
    return order


def ref_predict(model, X, budget_leaf):
    """Walk each example down the tree until a leaf of the pruned tree."""
    left, right = tree_children(model)
    labels = model.classes_[(model.value_[:, 1] > model.value_[:, 0]).astype(int)]
    out = []
    for row in X:
        node = 0
        while not budget_leaf[node]:
            go_right = row[model.feature_[node]] >= model.threshold_[node]
            node = right[node] if go_right else left[node]
        out.append((labels[node], node))
    return out


# ---------------------------------------------------------------------------- problems
def tree_problems(max_m=10):
    """Tiny problems: integer-valued or 0/1 columns, labels 0/1, costs with zeros, optional
    groups (:func:`helpers.problems`)."""
    return problems(
        rows=(2, max_m), labels=(0, 1), costs=st.sampled_from([0.0, 1.0, 2.0, 3.0, 5.0])
    )


def reference_groups(groups, costs):
    """The group of each column and the cost of each group, as the references take them."""
    group = list(range(costs.size)) if groups is None else [int(g) for g in groups]
    group_cost = {g: float(c) for g, c in zip(group, costs, strict=True)}
    return group, group_cost


def fit_tree(problem, tradeoff=None, **kwargs):
    """Plain CART (``tradeoff=None``) or a fixed trade-off tree on all rows."""
    X, y, costs, groups = problem
    if tradeoff is not None:
        kwargs.update(cost_sensitive=True, tradeoffs=tradeoff, validation_fraction=0.0)
    return BudgetedTree(feature_costs=costs, feature_groups=groups, **kwargs).fit(X, y)


#: Trade-offs of the fixed trade-off trees tested against the references (None: plain CART).
TRADEOFFS = st.sampled_from([None, 0.0, 0.01, 0.05, 0.2, 1.0])


SETTINGS = settings(
    max_examples=examples(120), derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
