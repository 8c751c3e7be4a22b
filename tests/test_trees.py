"""BudgetedTree: growth and pruning against slow references, the budget invariant, costs.

The references below are written straight from the definitions in
``budgetboost.estimators.cart_splits`` and ``pruned_tree`` (every threshold of every column
enumerated, examples counted in loops, pruned trees recomputed from scratch at every step);
they share no code with the engine.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetboost.estimators import cart_splits, pruned_tree
from budgetboost.estimators.budgeted_tree import DEFAULT_TRADEOFFS, BudgetedTree

TOL = 1e-12  # the engine's GAIN_TOL and TIE_TOL, restated


# ---------------------------------------------------------------------------- references
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
@st.composite
def problems(draw, max_m=10):
    """Tiny problems: integer-valued or 0/1 columns, costs with zeros, optional groups."""
    m = draw(st.integers(2, max_m))
    n = draw(st.integers(1, 4))
    levels = draw(st.sampled_from([2, 3, 5]))
    X = np.array(
        draw(
            st.lists(
                st.lists(st.integers(0, levels - 1), min_size=n, max_size=n), min_size=m, max_size=m
            )
        ),
        dtype=float,
    )
    y = np.array(draw(st.lists(st.sampled_from([0, 1]), min_size=m, max_size=m)))
    if y.min() == y.max():
        y[0] = 1 - y[0]
    costs = np.array(
        draw(st.lists(st.sampled_from([0.0, 1.0, 2.0, 3.0, 5.0]), min_size=n, max_size=n))
    )
    if n > 1 and draw(st.booleans()):  # pair up columns in groups sharing one cost
        groups = np.arange(n) // 2
        costs = costs[groups * 2]
    else:
        groups = None
    return X, y, costs, groups


def _groups(groups, costs):
    group = list(range(costs.size)) if groups is None else [int(g) for g in groups]
    group_cost = {g: float(c) for g, c in zip(group, costs, strict=True)}
    return group, group_cost


def _fit(problem, tradeoff=None, **kwargs):
    """Plain CART (``tradeoff=None``) or a fixed trade-off tree on all rows."""
    X, y, costs, groups = problem
    if tradeoff is not None:
        kwargs.update(cost_sensitive=True, tradeoffs=tradeoff, validation_fraction=0.0)
    return BudgetedTree(feature_costs=costs, feature_groups=groups, **kwargs).fit(X, y)


#: Trade-offs of the fixed trade-off trees tested against the references (None: plain CART).
TRADEOFFS = st.sampled_from([None, 0.0, 0.01, 0.05, 0.2, 1.0])


SETTINGS = settings(
    max_examples=120, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


# ---------------------------------------------------------------------------- growth
@SETTINGS
@given(problem=problems(), criterion=st.sampled_from(["gini", "entropy"]), tradeoff=TRADEOFFS)
def test_grown_tree_matches_brute_force(problem, criterion, tradeoff):
    X, y, costs, groups = problem
    model = _fit(problem, tradeoff, criterion=criterion)
    group, group_cost = _groups(groups, costs)
    ref = ref_grow(X.tolist(), y.tolist(), group, group_cost, criterion, tradeoff or 0.0)
    assert model.feature_.tolist() == [r[0] for r in ref]
    thresholds = [None if np.isnan(v) else v for v in model.threshold_.tolist()]
    assert thresholds == [r[1] for r in ref]
    assert model.value_.tolist() == [[r[2], r[3]] for r in ref]
    ref_cost = [math.fsum(group_cost[g] for g in r[4]) for r in ref]
    np.testing.assert_allclose(model.path_cost_, ref_cost, rtol=1e-12)
    assert model.path_n_groups_.tolist() == [len(r[4]) for r in ref]


@SETTINGS
@given(problem=problems(max_m=14), tradeoff=TRADEOFFS)
def test_blocked_split_search_is_identical(problem, tradeoff):
    X, y, costs, groups = problem
    X = X + 0.5 * (X > 0)  # not 0/1: the sorted search
    whole = _fit((X, y, costs, groups), tradeoff)
    saved = cart_splits._BLOCK
    cart_splits._BLOCK = 1  # one column per block
    try:
        blocked = _fit((X, y, costs, groups), tradeoff)
    finally:
        cart_splits._BLOCK = saved
    np.testing.assert_array_equal(whole.feature_, blocked.feature_)
    np.testing.assert_array_equal(whole.threshold_, blocked.threshold_)


def test_thresholds_are_the_boosters():
    """Numeric column: a training value above the left side; 0/1 column: exactly 1."""
    X = np.array([[0.0, 0], [1.5, 0], [4.0, 1], [7.0, 1]])
    y = np.array([0, 0, 1, 1])
    model = BudgetedTree().fit(X, y)
    assert model.feature_[0] == 0 and model.threshold_[0] == 4.0  # first of the tied splits
    model = BudgetedTree().fit(X[:, [1]], y)
    assert model.threshold_[0] == 1.0


def test_xor_node_stays_a_leaf():
    """Grown until pure or no split improves: no single split of XOR improves Gini."""
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
    model = BudgetedTree().fit(X, [0, 1, 1, 0])
    assert model.feature_.tolist() == [-1]


# ---------------------------------------------------------------------------- pruning
@SETTINGS
@given(problem=problems())
def test_pruning_sequences_match_reference(problem):
    X, y, costs, groups = problem
    model = _fit(problem)
    group, group_cost = _groups(groups, costs)
    path_cost = ref_path_costs(model, group, group_cost)
    np.testing.assert_allclose(model.path_cost_, path_cost, rtol=1e-12)
    assert model.budget_path_.cut_node.tolist() == ref_pruning(model, path_cost, "budget")
    assert model.size_path_.cut_node.tolist() == ref_pruning(model, path_cost, "nodes")


@st.composite
def real_cost_problems(draw):
    """Numeric problems with real-valued costs and groups, plus a list of budgets."""
    m = draw(st.integers(5, 40))
    n = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    X = rng.integers(0, draw(st.integers(2, 6)), size=(m, n)).astype(float)
    y = rng.integers(0, 2, size=m)
    y[0], y[1] = 0, 1
    groups = rng.integers(0, max(1, n - 1), size=n) if draw(st.booleans()) else None
    base = rng.uniform(0.0, 3.0, size=n)
    costs = base if groups is None else base[groups]
    budgets = draw(st.lists(st.floats(0, 12, allow_nan=False), min_size=1, max_size=6))
    return X, y, costs, groups, budgets


@SETTINGS
@given(problem=real_cost_problems(), tradeoff=TRADEOFFS)
def test_every_path_within_budget_and_predictions_follow_pruned_tree(problem, tradeoff):
    X, y, costs, groups, budgets = problem
    model = _fit((X, y, costs, groups), tradeoff)
    group, group_cost = _groups(groups, costs)
    path_cost = ref_path_costs(model, group, group_cost)
    labels = model.predict_at_budgets(X, budgets)
    report = model.evaluate_at_budgets(X, y, budgets)
    for b, budget in enumerate(budgets):
        pruned = model.pruned_tree(budget=budget)
        leaves = np.flatnonzero(pruned["leaf"])
        assert all(path_cost[v] <= budget * (1 + 1e-12) for v in leaves)
        ref = ref_predict(model, X, pruned["leaf"])
        assert labels[b].tolist() == [r[0] for r in ref]
        paid = [path_cost[r[1]] for r in ref]
        assert report.max_example_cost[b] <= budget  # exact, in the engine's own sums
        np.testing.assert_allclose(report.max_example_cost[b], max(paid), rtol=1e-12)
        np.testing.assert_allclose(report.mean_example_cost[b], np.mean(paid), rtol=1e-12)
        np.testing.assert_allclose(report.spent[b], max(path_cost[v] for v in leaves), rtol=1e-12)
        assert report.nodes[b] == pruned["present"].sum()
        assert report.rounds[b] == pruned["present"].sum() - leaves.size
        assert report.error[b] == np.mean(labels[b] != y)


@SETTINGS
@given(problem=real_cost_problems())
def test_more_nodes_never_increase_training_error(problem):
    X, y, costs, groups, _ = problem
    model = _fit((X, y, costs, groups))
    for path in (model.size_path_, model.budget_path_):
        errors = path.train_errors
        assert np.all(np.diff(errors) >= 0)  # later steps: fewer nodes, never fewer errors
        assert np.all(np.diff(path.n_nodes) < 0)
        assert np.all(np.diff(path.max_path_cost) <= 0)
    # the recorded errors are the training errors of the pruned trees
    nodes = model.size_path_.n_nodes
    measured = model.evaluate_at_nodes(X, y, nodes)
    wrong = (model.predict_at_nodes(X, nodes) != y).sum(axis=1)
    np.testing.assert_array_equal(wrong, model.size_path_.train_errors)
    np.testing.assert_allclose(measured.error, wrong / len(y), rtol=1e-15)
    np.testing.assert_array_equal(measured.nodes, nodes)
    assert measured.nodes[-1] == 1


def test_budget_prunes_only_what_it_must():
    """The first tree of the budget sequence within B: one cut fewer breaks the budget."""
    rng = np.random.default_rng(3)
    X = rng.integers(0, 4, size=(80, 5)).astype(float)
    y = (X[:, 0] + X[:, 3] + rng.integers(0, 3, 80) > 4).astype(int)
    model = BudgetedTree(feature_costs=[1.0, 0.5, 2.0, 3.0, 0.25]).fit(X, y)
    path = model.budget_path_
    for budget in (0.0, 0.3, 1.0, 2.5, 4.0, 6.0):
        step = int(path.step_for_budget(budget))
        assert path.max_path_cost[step] <= budget
        assert step == 0 or path.max_path_cost[step - 1] > budget


# ---------------------------------------------------------------------------- costs
def test_repeated_feature_is_paid_once_per_path():
    x = np.arange(6.0)[:, None]
    y = np.array([0, 0, 1, 1, 0, 0])
    model = BudgetedTree(feature_costs=[3.0]).fit(x, y)
    assert (model.feature_ == 0).sum() == 2  # the same feature twice on one path
    leaves = model.feature_ < 0
    assert model.path_cost_[leaves].tolist() == [3.0] * leaves.sum()
    report = model.evaluate_at_budgets(x, y, [np.inf, 3.0, 2.9])
    assert report.error.tolist() == [0.0, 0.0, 1 / 3]
    assert report.max_example_cost.tolist() == [3.0, 3.0, 0.0]
    assert report.n_features.tolist() == [1.0, 1.0, 0.0]
    assert report.rounds.tolist() == [2, 2, 0]


def test_group_is_paid_once_per_path():
    X = np.array([[0, 0], [0, 1], [1, 0], [1, 1]] * 3, dtype=float)
    y = np.array([0, 0, 0, 1] * 3)  # AND: two splits on one path
    grouped = BudgetedTree(feature_costs=[5.0, 5.0], feature_groups=[7, 7]).fit(X, y)
    single = BudgetedTree(feature_costs=[5.0, 5.0]).fit(X, y)
    assert grouped.feature_.tolist() == single.feature_.tolist() == [0, -1, 1, -1, -1]
    assert grouped.path_cost_.tolist() == [0, 5, 5, 5, 5]
    assert single.path_cost_.tolist() == [0, 5, 5, 10, 10]
    assert grouped.evaluate_at_budgets(X, y, [5.0]).error[0] == 0.0
    assert single.evaluate_at_budgets(X, y, [5.0]).error[0] == 0.25
    assert grouped.evaluate_at_budgets(X, y, [5.0]).n_features[0] == 1.0


def test_fixed_tradeoff_picks_the_cheap_feature_on_equal_gains():
    rng = np.random.default_rng(0)
    col = rng.integers(0, 2, 30)
    X = np.column_stack([col, col]).astype(float)
    y = col ^ (rng.random(30) < 0.2)
    plain = BudgetedTree(feature_costs=[5.0, 1.0]).fit(X, y)
    cheap = _fit((X, y, np.array([5.0, 1.0]), None), 0.001)
    assert plain.feature_[0] == 0  # equal gains: the lower column
    assert cheap.feature_[0] == 1


def _strong_and_weak(seed, agreement):
    rng = np.random.default_rng(seed)
    strong = rng.integers(0, 2, 200)
    weak = np.where(rng.random(200) < agreement, strong, 1 - strong)
    X = np.column_stack([strong, weak]).astype(float)
    gains = [
        float(
            cart_splits.split_gains(
                X[:, j].sum(), (X[:, j] * strong).sum(), 200, strong.sum(), "gini"
            )
        )
        for j in (0, 1)
    ]
    return X, strong, gains


def test_fixed_tradeoff_trades_gain_for_cost():
    """Score gain - lambda * cost: the weaker feature wins exactly when cheap enough."""
    X, y, (g0, g1) = _strong_and_weak(1, 0.7)
    assert g0 > g1 > 0
    costs = np.array([1.0, 0.1])
    crossing = (g0 - g1) / (costs[0] - costs[1])  # g0 - l c0 = g1 - l c1
    assert g1 - 1.1 * crossing * costs[1] > 0  # both splits pay for themselves
    assert _fit((X, y, costs, None), 0.9 * crossing).feature_[0] == 0
    assert _fit((X, y, costs, None), 1.1 * crossing).feature_[0] == 1
    # a split is made only when it pays for its cost: gain > lambda * cost
    assert _fit((X, y, np.array([1.0, 1.0]), None), 1.01 * g0).feature_.tolist() == [-1]
    # a free column is split on whatever the trade-off
    assert _fit((X, y, np.array([1.0, 0.0]), None), 1e6).feature_[0] == 1


def test_a_group_paid_above_is_free():
    """A second threshold of the root's feature costs nothing on the path."""
    # cells (x0, x1): examples, positives; x0 < 2 all negative, on x0 >= 2 x1 gains more
    cells = {
        (0, 0): (5, 0),
        (0, 1): (5, 0),
        (1, 0): (5, 0),
        (1, 1): (5, 0),
        (2, 0): (5, 0),
        (2, 1): (5, 4),
        (3, 0): (5, 1),
        (3, 1): (5, 5),
    }
    rows = [(a, b, int(i < pos)) for (a, b), (n, pos) in cells.items() for i in range(n)]
    x0, x1, y = (np.array(c, dtype=float) for c in zip(*rows, strict=True))
    X = np.column_stack([x0, x1])
    costs = np.array([1.0, 1.0])
    plain = BudgetedTree(feature_costs=costs).fit(X, y)
    right = plain.children_right_[0]
    assert plain.feature_[0] == 0 and plain.threshold_[0] == 2.0
    assert plain.feature_[right] == 1  # x1 gains more on x0 >= 2 ...
    sub = x0 >= 2
    n, n1 = sub.sum(), y[sub].sum()
    g_x1 = cart_splits.split_gains(x1[sub].sum(), (x1 * y)[sub].sum(), n, n1, "gini")
    g_x0 = cart_splits.split_gains((x0[sub] >= 3).sum(), ((x0 >= 3) * y)[sub].sum(), n, n1, "gini")
    assert g_x1 > g_x0 > 0
    cheap_root = np.array([0.1, 1.0])  # x0 cheap enough to stay the root split
    cs = _fit((X, y, cheap_root, None), 1.5 * (g_x1 - g_x0))
    assert cs.feature_[0] == 0 and cs.threshold_[0] == 2.0
    assert cs.feature_[cs.children_right_[0]] == 0  # ... but the free re-split on x0 wins


def test_tradeoff_zero_is_plain_cart():
    rng = np.random.default_rng(9)
    X = rng.integers(0, 4, size=(120, 5)).astype(float)
    y = (X[:, 0] + X[:, 3] + rng.integers(0, 3, 120) > 4).astype(int)
    costs = rng.uniform(0, 2, 5)
    plain = BudgetedTree(feature_costs=costs).fit(X, y)
    zero = _fit((X, y, costs, None), 0.0)
    for name in ("feature_", "threshold_", "value_", "path_cost_"):
        np.testing.assert_array_equal(getattr(plain, name), getattr(zero, name))
    assert np.isnan(plain.chosen_tradeoffs([1.0, np.inf])).all()  # no trade-off
    assert plain.tradeoffs_.tolist() == [0.0]


def _budget_problem(seed=0, n=800):
    """Expensive informative columns, cheap weak ones: the best tree depends on the budget."""
    rng = np.random.default_rng(seed)
    signal = rng.integers(0, 2, n)
    X = np.column_stack(
        [np.where(rng.random(n) < p, signal, 1 - signal) for p in (0.95, 0.85, 0.7, 0.65, 0.6)]
        + [rng.integers(0, 2, n) for _ in range(3)]
    ).astype(float)
    costs = np.array([3.0, 1.5, 0.3, 0.2, 0.1, 0.05, 0.5, 1.0])
    return X, signal, costs


def test_cost_sensitive_tree_gives_a_curve():
    """Different budgets use different trees (and trade-offs): errors fall with the budget.
    The chosen trade-offs are grown again on all training rows (refit), the others are not."""
    X, y, costs = _budget_problem()
    train, test = np.arange(500), np.arange(500, 800)
    budgets = [0.0, 0.1, 0.3, 0.6, 1.0, 1.6, 2.0, 3.0, 5.0, 10.0]
    model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=0)
    model.fit(X[train], y[train])
    report = model.evaluate_at_budgets(X[test], y[test], budgets)
    assert np.all(report.max_example_cost <= budgets)
    assert report.error[-1] < report.error[0]
    chosen = model.chosen_tradeoffs(budgets)
    assert np.unique(chosen).size >= 2
    n_fit = model.fit_rows_.size
    assert all(tree.value_[0].sum() == n_fit for tree in model.models_)  # the root's rows
    assert sorted(model.refits_) == sorted(set(model.choice_.config.tolist()))
    assert all(tree.value_[0].sum() == 500 for tree in model.refits_.values())
    assert np.all(np.diff(model.choice_.budgets) > 0) and model.choice_.budgets[0] == 0


@pytest.mark.parametrize("max_nodes", [None, 7])
def test_choice_is_the_fewest_validation_errors(max_nodes):
    """At every budget: the tree with the fewest errors on the validation rows, smaller
    lambda on ties; recomputed here with each tree's own predictions."""
    X, y, costs = _budget_problem(1, 400)
    model = BudgetedTree(
        cost_sensitive=True, max_nodes=max_nodes, feature_costs=costs, random_state=5
    ).fit(X, y)
    Xv, yv = X[model.validation_rows_], y[model.validation_rows_]
    budgets = np.unique(np.concatenate([[0.0, 0.15, 0.7, 2.2, 50.0], model.choice_.budgets]))
    errors = np.vstack([t.evaluate_at_budgets(Xv, yv, budgets).error for t in model.models_])
    expected = model.tradeoffs_[np.argmin(errors, axis=0)]
    np.testing.assert_array_equal(model.chosen_tradeoffs(budgets), expected)
    # each budget is served by its lambda's tree grown on all rows, pruned to the budget
    refit = model.refits_
    np.testing.assert_array_equal(
        model.predict_at_budgets(X, budgets),
        [
            refit[int(np.flatnonzero(model.tradeoffs_ == t)[0])].predict_at_budgets(X, [b])[0]
            for t, b in zip(expected, budgets, strict=True)
        ],
    )


def test_trees_see_only_the_fit_part():
    """The rows split into fit and validation parts; each tree is a fixed trade-off tree of
    the fit part, whatever the validation rows hold."""
    X, y, costs = _budget_problem(2, 300)
    model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=7).fit(X, y)
    fit, val = model.fit_rows_, model.validation_rows_
    assert np.intersect1d(fit, val).size == 0
    np.testing.assert_array_equal(np.union1d(fit, val), np.arange(300))
    for label in (0, 1):  # stratified: a quarter of each class
        assert (y[val] == label).sum() == int(np.floor(0.25 * (y == label).sum() + 0.5))
    noisy = X.copy()
    noisy[val] = 1 - noisy[val]  # other validation features: same split, same trees
    other = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=7).fit(noisy, y)
    np.testing.assert_array_equal(other.fit_rows_, fit)
    np.testing.assert_array_equal(other.tradeoffs_, model.tradeoffs_)
    for lam, a, b in zip(model.tradeoffs_, model.models_, other.models_, strict=True):
        alone = _fit((X[fit], y[fit], costs, None), float(lam))
        for name in ("feature_", "threshold_", "value_"):
            np.testing.assert_array_equal(getattr(a, name), getattr(alone, name))
            np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    # the choice reads the validation rows only: their errors, not the fit rows'
    for t, errors in zip(model.models_, model.validation_error_, strict=True):
        steps = t.budget_path_.max_path_cost
        np.testing.assert_allclose(errors, t.evaluate_at_budgets(X[val], y[val], steps).error)


@pytest.mark.parametrize("kind", ["binary", "numeric"])
def test_trees_sharing_node_gains_are_the_trees_grown_alone(kind):
    """The trees of the grid share their nodes' gains (they depend on a node's rows alone),
    and so do the refits: each is the fixed trade-off tree grown alone on its rows."""
    rng = np.random.default_rng(11)
    X = rng.integers(0, 2 if kind == "binary" else 6, size=(240, 12)).astype(float)
    y = (X[:, 0] + X[:, 1] - X[:, 2] + rng.normal(0, 1, 240) > 1).astype(int)
    costs = rng.uniform(0, 2, 12)
    model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=5).fit(X, y)
    fit = model.fit_rows_
    assert len(model.refits_) > 1  # the refits share gains too
    for index, lam in enumerate(model.tradeoffs_):
        grown = [(model.models_[index], X[fit], y[fit])]
        if index in model.refits_:
            grown.append((model.refits_[index], X, y))
        for tree, Xa, ya in grown:
            alone = _fit((Xa, ya, costs, None), float(lam))
            for name in ("feature_", "threshold_", "value_"):
                np.testing.assert_array_equal(getattr(tree, name), getattr(alone, name))


def test_default_grid_is_scaled_by_root_gain_over_mean_cost():
    X, y, costs = _budget_problem(3, 300)
    model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=1).fit(X, y)
    root = model.models_[0]  # lambda = 0: plain CART on the fit part
    assert model.tradeoffs_[0] == 0.0
    value = root.value_
    right = root.children_right_[0]
    gain = cart_splits.split_gains(
        value[right].sum(), value[right, 1], value[0].sum(), value[0, 1], "gini"
    )
    np.testing.assert_allclose(
        model.tradeoffs_, np.array(DEFAULT_TRADEOFFS) * gain / costs.mean(), rtol=1e-12
    )
    # a given grid is sorted and deduplicated; one value is a fixed trade-off
    grid = BudgetedTree(
        cost_sensitive=True, tradeoffs=[0.5, 0.0, 0.5], feature_costs=costs, random_state=1
    ).fit(X, y)
    assert grid.tradeoffs_.tolist() == [0.0, 0.5]


def test_cost_sensitive_tree_is_deterministic():
    X, y, costs = _budget_problem(4, 300)
    budgets = [0.0, 0.2, 0.5, 1.0, 3.0, np.inf]

    def run(seed):
        model = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=seed)
        model.fit(X, y)
        return model, model.predict_at_budgets(X, budgets)

    (a, pa), (b, pb) = run(11), run(11)
    np.testing.assert_array_equal(pa, pb)
    np.testing.assert_array_equal(a.validation_rows_, b.validation_rows_)
    np.testing.assert_array_equal(a.chosen_tradeoffs(budgets), b.chosen_tradeoffs(budgets))
    c, _ = run(12)
    assert not np.array_equal(a.validation_rows_, c.validation_rows_)


def test_fitted_budget_caps_the_choice():
    X, y, costs = _budget_problem(5, 300)
    full = BudgetedTree(cost_sensitive=True, feature_costs=costs, random_state=2).fit(X, y)
    capped = BudgetedTree(cost_sensitive=True, budget=0.4, feature_costs=costs, random_state=2)
    capped.fit(X, y)
    at = full.predict_at_budgets(X, [0.4])[0]
    np.testing.assert_array_equal(capped.predict(X), at)
    np.testing.assert_array_equal(capped.predict_at_budgets(X, [np.inf, 7.0]), [at, at])
    assert capped.chosen_tradeoffs([np.inf])[0] == full.chosen_tradeoffs([0.4])[0]
    assert capped.evaluate_at_budgets(X, y, [np.inf]).max_example_cost[0] <= 0.4
    assert capped.pruned_tree()["present"].sum() == capped.evaluate_at_budgets(X, y, [9.0]).nodes[0]


def test_check_params_catches_config_mistakes_without_data():
    from budgetboost.estimators.params import InvalidParameterError

    BudgetedTree.check_params({"cost_sensitive": True, "tradeoffs": [0.0, 0.1]})
    with pytest.raises(InvalidParameterError, match="tradeoffs: only used"):
        BudgetedTree.check_params({"tradeoffs": [0.0, 0.1]})
    with pytest.raises(InvalidParameterError, match="validation_fraction"):
        BudgetedTree.check_params({"cost_sensitive": True, "validation_fraction": 0.0})


# ---------------------------------------------------------------------------- estimator API
def test_fitted_budget_and_max_nodes_select_the_pruned_tree():
    rng = np.random.default_rng(4)
    X = rng.normal(size=(120, 4))
    y = (X[:, 0] * X[:, 1] + 0.3 * rng.normal(size=120) > 0).astype(int)
    costs = [1.0, 2.0, 0.5, 1.5]
    full = BudgetedTree(feature_costs=costs).fit(X, y)
    budgets = [0.0, 1.0, 2.5, 3.0, np.inf]
    grid = full.predict_at_budgets(X, budgets)
    node_grid = full.predict_at_nodes(X, [1, 3, 9, 10**6])
    for b, budget in enumerate(budgets):
        model = BudgetedTree(budget=budget, feature_costs=costs).fit(X, y)
        np.testing.assert_array_equal(model.predict(X), grid[b])
        # larger budgets than the fitted one get the fitted tree
        np.testing.assert_array_equal(model.predict_at_budgets(X, [np.inf, budget])[0], grid[b])
    for k, nodes in enumerate([1, 3, 9, 10**6]):
        model = BudgetedTree(max_nodes=nodes, feature_costs=costs).fit(X, y)
        np.testing.assert_array_equal(model.predict(X), node_grid[k])
        assert model.evaluate_at_budgets(X, y, [np.inf]).nodes[0] <= nodes
    both = BudgetedTree(budget=2.5, max_nodes=9, feature_costs=costs).fit(X, y)
    report = both.evaluate_at_budgets(X, y, [np.inf])
    assert report.nodes[0] <= 9 and report.max_example_cost[0] <= 2.5


def test_decision_function_agrees_with_predict():
    rng = np.random.default_rng(5)
    X = rng.normal(size=(60, 3))
    y = np.where(X[:, 0] > 0.2, "yes", "no")
    y[:5] = "yes"
    model = BudgetedTree(max_nodes=5).fit(X, y)
    assert model.classes_.tolist() == ["no", "yes"]
    scores = model.decision_function(X)
    np.testing.assert_array_equal(model.predict(X), model.classes_[(scores > 0).astype(int)])
    assert model.predict_at_budgets(X, [0.0, np.inf]).dtype == model.classes_.dtype


def test_evaluate_keys_and_shapes():
    rng = np.random.default_rng(6)
    X = rng.integers(0, 2, size=(50, 8))
    y = X[:, 0] | X[:, 1]
    report = BudgetedTree().fit(X, y).evaluate_at_budgets(X, y, [0, 1, 2, np.inf])
    assert set(report.as_dict()) == {
        "error",
        "rounds",
        "spent",
        "n_features",
        "mean_example_cost",
        "max_example_cost",
        "nodes",
    }
    assert all(v.shape == (4,) and v.dtype == np.float64 for v in report.as_dict().values())
    assert report.error[0] == min(y.mean(), 1 - y.mean())  # the root: majority class
    assert report.error[-1] == 0.0  # y = x0 or x1 is separable
    assert report.nodes[0] == 1 and report.spent[0] == 0.0


@pytest.mark.parametrize(
    "params, match",
    [
        ({"criterion": "mse"}, "criterion"),
        ({"cost_sensitive": "yes"}, "cost_sensitive"),
        ({"cost_sensitive": True, "tradeoffs": -1.0}, "tradeoffs"),
        ({"cost_sensitive": True, "tradeoffs": [0.0, float("nan")]}, "tradeoffs"),
        ({"cost_sensitive": True, "tradeoffs": []}, "tradeoffs"),
        ({"tradeoffs": 0.5}, "tradeoffs: only used with cost_sensitive=True"),
        ({"cost_sensitive": True, "validation_fraction": 1.0}, "validation_fraction"),
        ({"cost_sensitive": True, "validation_fraction": -0.1}, "validation_fraction"),
        ({"cost_sensitive": True, "validation_fraction": 0.0}, "validation_fraction: must be > 0"),
        (
            {"cost_sensitive": True, "tradeoffs": [0.0, 1.0], "validation_fraction": 0.0},
            "validation_fraction: must be > 0",
        ),
        ({"cost_sensitive": True, "random_state": -1}, "random_state"),
        ({"cost_sensitive": True, "random_state": "seed"}, "random_state"),
        ({"budget": -1.0}, "budget"),
        ({"budget": float("nan")}, "budget"),
        ({"max_nodes": 0}, "max_nodes"),
        ({"max_nodes": 2.5}, "max_nodes"),
        ({"feature_costs": [1.0, 2.0]}, "feature_costs"),
        ({"feature_costs": [1.0, -2.0, 1.0]}, "feature_costs"),
        ({"feature_costs": [1.0, float("nan"), 1.0]}, "feature_costs"),
        ({"feature_groups": [0, 1]}, "feature_groups"),
        ({"feature_costs": [1.0, 2.0, 3.0], "feature_groups": [0, 0, 1]}, "feature_groups"),
    ],
)
def test_bad_parameters_name_the_argument(params, match):
    X = np.arange(12.0).reshape(4, 3)
    with pytest.raises(ValueError, match=match):
        BudgetedTree(**params).fit(X, [0, 1, 0, 1])


def test_bad_data_names_the_argument():
    X = np.arange(12.0).reshape(4, 3)
    y = [0, 1, 0, 1]
    with pytest.raises(ValueError, match="X"):
        BudgetedTree().fit(np.where(X > 5, np.nan, X), y)
    with pytest.raises(ValueError, match="y"):
        BudgetedTree().fit(X, [0, 1, 2, 1])
    with pytest.raises(ValueError, match="y"):
        BudgetedTree().fit(X, [1, 1, 1, 1])
    model = BudgetedTree().fit(X, y)
    with pytest.raises(ValueError, match="X has 2 features"):
        model.predict(X[:, :2])
    with pytest.raises(ValueError, match="budgets"):
        model.predict_at_budgets(X, [1.0, -1.0])
    with pytest.raises(ValueError, match="node_counts"):
        model.predict_at_nodes(X, [0])
    with pytest.raises(ValueError, match="y"):
        model.evaluate_at_budgets(X, y[:3], [1.0])
    with pytest.raises(ValueError, match="not fitted"):
        BudgetedTree().predict_at_budgets(X, [1.0])


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"budget": 2.0, "criterion": "entropy"},
        {"max_nodes": 5, "cost_sensitive": True},
        {"cost_sensitive": True, "budget": 2.0, "random_state": 3},
        {"cost_sensitive": True, "tradeoffs": 0.1, "validation_fraction": 0.0},
    ],
    ids=repr,
)
@pytest.mark.filterwarnings("ignore:Estimator .* does not inherit")
def test_check_estimator(params):
    estimator_checks = pytest.importorskip("sklearn.utils.estimator_checks")
    estimator_checks.check_estimator(BudgetedTree(**params))


def test_speed_report_binary_1000x400():
    """Prints the fit time on a 1000 x 400 0/1 matrix (a figure, not a timed assertion)."""
    rng = np.random.default_rng(7)
    X = (rng.random((1000, 400)) < 0.3).astype(np.uint8)
    y = (X[:, :10].sum(axis=1) + rng.normal(0, 1, 1000) > 3).astype(int)  # noisy: a big tree
    start = time.perf_counter()
    model = BudgetedTree(feature_costs=rng.uniform(0, 2, 400)).fit(X, y)
    seconds = time.perf_counter() - start
    budgets = np.linspace(0, 20, 41)
    start = time.perf_counter()
    report = model.evaluate_at_budgets(X, y, budgets)
    eval_seconds = time.perf_counter() - start
    print(
        f"\nBudgetedTree 1000x400 0/1: fit {seconds:.3f} s, {model.feature_.size} nodes, "
        f"depth {model.max_depth_}; evaluate 41 budgets {eval_seconds:.3f} s"
    )
    assert report.error[-1] == model.size_path_.train_errors[0] / 1000
    assert np.all(report.max_example_cost <= budgets)


def test_node_count_pruning_is_computed_only_when_used(monkeypatch):
    """A budget alone never needs the node-count sequence (the pipeline's only use)."""
    calls = []
    original = pruned_tree.pruning_path

    def counting(tree, by):
        calls.append(by)
        return original(tree, by)

    monkeypatch.setattr(pruned_tree, "pruning_path", counting)
    rng = np.random.default_rng(8)
    X = rng.integers(0, 4, size=(80, 5)).astype(float)
    y = (X[:, 0] + X[:, 3] + rng.integers(0, 3, 80) > 4).astype(int)
    model = BudgetedTree(budget=3.0, feature_costs=[1.0, 0.5, 2.0, 3.0, 0.25]).fit(X, y)
    model.predict(X)
    model.decision_function(X)
    model.evaluate_at_budgets(X, y, [0.0, 1.0, np.inf])
    model.pruned_tree(budget=1.0)
    assert calls == ["budget"]
    nodes = model.size_path_.n_nodes
    assert calls == ["budget", "nodes"]
    model.evaluate_at_nodes(X, y, nodes)
    assert calls == ["budget", "nodes"]  # computed once
    model.fit(X[:40], y[:40])  # a new fit forgets the old sequence
    assert model.size_path_.n_nodes[0] == model.feature_.size
    BudgetedTree(max_nodes=5).fit(X, y)
    assert calls[-2:] == ["budget", "nodes"]
