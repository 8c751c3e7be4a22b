"""One budgeted CART tree (budgetboost.estimators.trees.pruned_tree): its pruning sequences against
the
reference, the budget invariant, each group paid once per path, reading the tree pruned to a
budget or a node count."""

from __future__ import annotations

import time

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from tree_reference import (
    SETTINGS,
    TRADEOFFS,
    fit_tree,
    ref_path_costs,
    ref_predict,
    ref_pruning,
    reference_groups,
    tree_children,
    tree_problems,
)

from budgetboost.estimators.trees import pruned_tree
from budgetboost.estimators.trees.budgeted_tree import BudgetedTree


# ---------------------------------------------------------------------------- pruning
@SETTINGS
@given(problem=tree_problems())
def test_pruning_sequences_match_reference(problem):
    X, y, costs, groups = problem
    model = fit_tree(problem)
    group, group_cost = reference_groups(groups, costs)
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


def ref_reads(model, X, budget_leaf, groups):
    """The feature groups (numbered as the labels sort) on each example's path down to its
    leaf of the pruned tree: what it reads, one row of booleans per example."""
    labels = np.arange(X.shape[1]) if groups is None else np.asarray(groups)
    number = {label: i for i, label in enumerate(np.unique(labels).tolist())}
    left, right = tree_children(model)
    out = []
    for row in X:
        read, node = [False] * len(number), 0
        while not budget_leaf[node]:
            read[number[labels[model.feature_[node]].item()]] = True
            node = (
                right[node] if row[model.feature_[node]] >= model.threshold_[node] else left[node]
            )
        out.append(read)
    return out


@SETTINGS
@given(problem=real_cost_problems(), tradeoff=TRADEOFFS)
def test_every_path_within_budget_and_predictions_follow_pruned_tree(problem, tradeoff):
    X, y, costs, groups, budgets = problem
    model = fit_tree((X, y, costs, groups), tradeoff)
    group, group_cost = reference_groups(groups, costs)
    path_cost = ref_path_costs(model, group, group_cost)
    labels = model.predict_at_budgets(X, budgets)
    report = model.evaluate_at_budgets(X, y, budgets)
    reads = model.groups_read(X, budgets)
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
        assert reads[b].tolist() == ref_reads(model, X, pruned["leaf"], groups)


@SETTINGS
@given(problem=real_cost_problems())
def test_more_nodes_never_increase_training_error(problem):
    X, y, costs, groups, _ = problem
    model = fit_tree((X, y, costs, groups))
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
