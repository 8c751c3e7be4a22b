"""BudgetedSTreeD: STreeD's optimum against enumeration under the project's prices, its
accounting against Pricing, the pruning against a per-example walk, the contract, the
candidate tests and the parameters."""

from __future__ import annotations

import itertools
import warnings

import numpy as np
import pytest

pystreed = pytest.importorskip("pystreed")

from budgetboost import InvalidParameterError  # noqa: E402
from budgetboost.estimators.optimal_trees import (  # noqa: E402
    BudgetedSTreeD,
    CandidateTests,
    StreedTree,
    TimeLimitError,
    candidate_tests,
    cost_specifier,
    select_tests,
    solve,
)

from ..peers.helpers import BUDGETS, problem  # noqa: E402


# ------------------------------------------------------------------ problems
def turney_problem(seed: int = 0, n: int = 60):
    """Four 0/1 tests of three feature groups (two thresholds of one attribute, two single
    tests); groups 0 and 1 share a discount group (a blood draw), group 2 has none. The
    label (15 % noise) needs groups 0 and 1; group 2 is cheap noise."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 3, size=(n, 3))
    X = np.column_stack([raw[:, 0] >= 1, raw[:, 0] >= 2, raw[:, 1] >= 1, raw[:, 2] >= 1])
    X = X.astype(np.float64)
    noise = rng.random(n) < 0.15
    y = np.where(((raw[:, 0] >= 1) & (raw[:, 1] >= 1)) ^ noise, 1, 0)
    groups = np.array([0, 0, 1, 2])
    discount = np.array([0.4, 0.4, 0.3, 0.5])  # a test's price once the draw is paid
    dg = np.array([0, 0, 0, -1])
    cost = np.where(dg >= 0, 0.8 + discount, discount)  # the draw's shared part: 0.8
    params = {
        "feature_costs": cost,
        "feature_groups": groups,
        "discount_groups": dg,
        "discount_costs": discount,
    }
    return X, y, params


def enumeration_problem(seed: int, n: int = 50):
    """The four tests of :func:`turney_problem` on random data: a noisy linear label of random
    weights and random prices (a random shared part of the discount group), so that the
    optimal tree changes with the seed and the trade-off."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 3, size=(n, 3))
    X = np.column_stack([raw[:, 0] >= 1, raw[:, 0] >= 2, raw[:, 1] >= 1, raw[:, 2] >= 1])
    X = X.astype(np.float64)
    w = rng.uniform(0.5, 1.5, 4) * rng.choice([-1, 1], 4)
    y = np.where(X @ w + rng.normal(0, 0.6, n) > np.median(X @ w), 1, 0)
    discount = np.round(rng.uniform(0.1, 1.0, 3), 2)
    shared = np.round(rng.uniform(0.3, 1.5), 2)
    groups, dg = np.array([0, 0, 1, 2]), np.array([0, 0, 0, -1])
    cost = np.where(dg >= 0, shared + discount[groups], discount[groups])
    params = {
        "feature_costs": cost,
        "feature_groups": groups,
        "discount_groups": dg,
        "discount_costs": discount[groups],
    }
    return X, y, params


def training_data(X, y, params):
    """The TrainingData (with its Pricing) that ``fit`` hands to the estimator."""
    return BudgetedSTreeD(**params)._training_data(X, y)


# ------------------------------------------------------------------ references
def ref_price(groups_read, pricing) -> float:
    """Turney's price of a set of feature groups, written from the definition: each touched
    discount group's shared part once, each test its discount price (its full price outside a
    discount group)."""
    total, opened = 0.0, set()
    for g in sorted(set(groups_read)):
        d = int(pricing.discount_group[g])
        if d < 0:
            total += float(pricing.cost[g])
        else:
            total += float(pricing.base[g])
            if d not in opened:
                opened.add(d)
                total += float(pricing.shared[d])
    return total


def ref_objective(tree, X, y1, group, pricing, scale) -> float:
    """``sum of errors + scale * price of the groups on the path`` of a tree given as nested
    tuples ``(column, left, right)`` / ``None`` (a leaf predicting its rows' best label)."""
    total = 0.0
    leaves: dict[int, list[int]] = {}
    for i in range(X.shape[0]):  # one example at a time
        node, read, key = tree, [], 1
        while node is not None:
            column, left, right = node
            read.append(int(group[column]))
            go = X[i, column] > 0.5
            node, key = (right, 2 * key + 1) if go else (left, 2 * key)
        total += scale * ref_price(read, pricing)
        leaves.setdefault(key, []).append(int(y1[i]))
    for labels in leaves.values():
        total += min(sum(labels), len(labels) - sum(labels))
    return total


def all_trees(n_columns: int, depth: int):
    """Every tree of depth at most ``depth`` over the columns, as nested tuples."""
    if depth == 0:
        return [None]
    below = all_trees(n_columns, depth - 1)
    out = [None]
    for column in range(n_columns):
        out.extend((column, left, right) for left, right in itertools.product(below, below))
    return out


def walk(tree: StreedTree, x, budget, group_of_column, pricing):
    """The leaf of one example at ``budget``, descending while the next split keeps what it
    pays within the budget, and the groups it paid for."""
    node, paid = 0, []
    while tree.feature[node] >= 0:
        g = int(group_of_column[tree.feature[node]])
        if ref_price([*paid, g], pricing) > budget:
            break
        if g not in paid:
            paid.append(g)
        node = (
            tree.right[node] if x[tree.feature[node]] >= tree.threshold[node] else tree.left[node]
        )
    return node, paid


def structure(tree: StreedTree, budget, group_of_column, pricing):
    """(internal nodes, nodes, most expensive path) of the tree pruned to ``budget``, by a
    recursion over its nodes."""

    def visit(node, paid):
        f = tree.feature[node]
        if f >= 0:
            below = [*paid, int(group_of_column[f])]
            if ref_price(below, pricing) <= budget:
                a, b = visit(tree.left[node], below), visit(tree.right[node], below)
                return (1 + a[0] + b[0], 1 + a[1] + b[1], max(a[2], b[2]))
        return (0, 1, ref_price(paid, pricing))

    return visit(0, [])


# ------------------------------------------------------------------ against enumeration
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("scale", ["blind", 0.02, 0.05, 0.1, 0.2])
def test_streed_optimum_is_the_enumerated_optimum_under_pricing(seed, scale):
    """Over four tests (one feature group of two thresholds, one discount group), STreeD's
    depth-2 tree reaches the least ``errors + scale * price of the path`` of every depth-2
    tree, priced by Pricing (the discount group's shared part once per example); and its
    own reported objective is that of its tree under Pricing."""
    X, y, params = enumeration_problem(seed)
    data = training_data(X, y, params)
    y1 = (data.y > 0).astype(np.int64)
    tests = candidate_tests(data.X, y1, data)
    assert tests.column.tolist() == [0, 1, 2, 3]
    price = data.pricing.prices()
    if scale == "blind":  # the estimator's cost-blind scale: all prices under one error
        scale = 1.0 / (2.0 * y.size * price.sum())
    chosen = select_tests(tests, price, scale, 64, 8)
    costs = cost_specifier(chosen.group, data.pricing, scale)
    root = solve(chosen.values(data.X), y1, costs, 2, 1, 60.0, 7)
    tree = StreedTree.build(root, chosen, data.X, y1, data)

    group = data.group_of_column
    best = min(ref_objective(t, data.X, y1, group, data.pricing, scale) for t in all_trees(4, 2))
    leaves = tree.leaves(tree.paths(data.X), np.array([np.inf]))[0]
    errors = ((tree.scores(leaves[None], 1.0)[0] > 0) != (y1 > 0)).sum()
    ours = errors + scale * tree.reach_cost[leaves].sum()
    assert ours == pytest.approx(best, rel=1e-9, abs=1e-12)

    # pystreed's reported score is its objective normalised (cost_sensitive.cpp ComputeScore)
    solver = pystreed.STreeDCostSensitiveClassifier(max_depth=2, random_seed=7)
    solver.fit(chosen.values(data.X), y1.astype(np.intc), costs)
    total = scale * ref_price([0, 1, 2], data.pricing)
    majority = max(y1.sum(), y1.size - y1.sum()) / y1.size
    reported = solver.fit_result.score() * y1.size * (total + (1.0 - majority))
    assert reported == pytest.approx(ours, rel=1e-9)


def test_pystreed_charges_the_discount_groups_as_pricing():
    """A label that needs both groups of the discount group: pystreed's reported objective
    counts the blood draw's shared part once per example that reads both (Pricing), not once
    per test."""
    X, y, params = turney_problem(0, n=200)
    data = training_data(X, y, params)
    y1 = ((X[:, 0] > 0) & (X[:, 2] > 0)).astype(np.int64)  # groups 0 and 1, no noise
    chosen = select_tests(candidate_tests(data.X, y1, data), data.pricing.prices(), 0.1, 64, 8)
    costs = cost_specifier(chosen.group, data.pricing, 0.1)
    solver = pystreed.STreeDCostSensitiveClassifier(max_depth=2, random_seed=0)
    solver.fit(chosen.values(data.X), y1.astype(np.intc), costs)
    tree = StreedTree.build(solver.tree_, chosen, data.X, y1, data)
    leaves = tree.leaves(tree.paths(data.X), np.array([np.inf]))[0]
    assert ((tree.scores(leaves[None], 1.0)[0] > 0) == (y1 > 0)).all()
    both = tree.n_groups[leaves] == 2
    assert both.any()
    np.testing.assert_allclose(tree.reach_cost[leaves][both], 0.8 + 0.4 + 0.3)
    majority = max(y1.sum(), y1.size - y1.sum()) / y1.size
    total = 0.1 * ref_price([0, 1, 2], data.pricing)
    reported = solver.fit_result.score() * y1.size * (total + (1.0 - majority))
    assert reported == pytest.approx(0.1 * tree.reach_cost[leaves].sum(), rel=1e-9)


def test_tree_predicts_as_pystreed():
    """The wrapper's reading of pystreed's tree (left: test 0) predicts as pystreed does."""
    X, y, costs = problem(n=300, d=12, seed=4)
    est = BudgetedSTreeD(
        tradeoffs=0.05, max_depth=3, validation_fraction=0.0, feature_costs=costs, random_state=1
    ).fit(X, y)
    data = est._training_data(X, y)
    y1 = (data.y > 0).astype(np.int64)
    chosen = select_tests(
        candidate_tests(data.X, y1, data), data.pricing.prices(), 0.05 / est.unit_, 64, 8
    )
    solver = pystreed.STreeDCostSensitiveClassifier(max_depth=3, random_seed=est.seed_)
    solver.fit(
        chosen.values(data.X),
        y1.astype(np.intc),
        cost_specifier(chosen.group, data.pricing, 0.05 / est.unit_),
    )
    tree = est.refits_[0]
    leaves = tree.leaves(tree.paths(data.X), np.array([np.inf]))[0]
    decided = tree.value[leaves, 0] != tree.value[leaves, 1]
    ours = est.decision_function(X) > 0
    np.testing.assert_array_equal(
        ours[decided], solver.predict(chosen.values(data.X))[decided] == 1
    )


# ------------------------------------------------------------------ pruning to a budget
def test_pruning_matches_a_per_example_walk():
    """At every budget, each example's prediction and what it pays are those of a walk down
    the refitted tree that stops before the first split it cannot afford; ``spent``,
    ``rounds`` and ``nodes`` those of the pruned tree, by a recursion over its nodes."""
    X, y, params = turney_problem(1, n=150)
    est = BudgetedSTreeD(max_depth=3, random_state=0, **params).fit(X, y)
    # away from the prices themselves, where the order of a sum may round either way
    budgets = np.array([0.0, 0.55, 1.15, 1.25, 1.45, 1.55, 2.05, 3.0, np.inf])
    report = est.evaluate_at_budgets(X, y, budgets)
    labels = est.predict_at_budgets(X, budgets)
    config, _ = est.choice_.at(budgets)
    data = est._training_data(X, y)
    pricing, group = data.pricing, data.group_of_column
    for b, budget in enumerate(budgets):
        if config[b] < 0:  # the empty model
            continue
        tree = est.refits_[int(config[b])]
        walked = [walk(tree, x, budget, group, pricing) for x in X]
        paid = np.array([ref_price(p, pricing) for _, p in walked])
        assert report.mean_example_cost[b] == pytest.approx(paid.mean(), abs=1e-12)
        assert report.max_example_cost[b] == pytest.approx(paid.max(), abs=1e-12)
        assert report.n_features[b] == pytest.approx(np.mean([len(p) for _, p in walked]))
        n0, n1 = tree.value[[n for n, _ in walked]].T
        majority = est.classes_[int(est.majority_ > 0)]
        expected = np.where(n1 > n0, est.classes_[1], np.where(n0 > n1, est.classes_[0], majority))
        np.testing.assert_array_equal(labels[b], expected)
        rounds, nodes, spent = structure(tree, budget, group, pricing)
        assert (report.rounds[b], report.nodes[b]) == (rounds, nodes)
        assert report.spent[b] == pytest.approx(spent, abs=1e-12)


def test_choice_is_the_least_validation_error_at_every_budget():
    """Per budget, the configuration chosen has the least validation error among the grid's
    fit-part trees pruned to it (ties: the earlier, depth-major), and chosen_tradeoffs
    reports its lambda."""
    X, y, costs = problem(n=300, seed=2)
    est = BudgetedSTreeD(max_depth=[1, 3], random_state=5, feature_costs=costs).fit(X, y)
    assert est.tradeoffs_.size == est.depths_.size == 2 * 5
    assert est.depths_.tolist() == [1] * 5 + [3] * 5
    budgets = np.linspace(0, 8, 33)
    Xv, yv = X[est.validation_rows_], np.where(y[est.validation_rows_] > 0, 1.0, -1.0)
    errors = np.array([m.errors(Xv, yv, budgets, est.majority_) for m in est.models_])
    config, _ = est.choice_.at(budgets)
    np.testing.assert_array_equal(config, errors.argmin(axis=0))
    np.testing.assert_array_equal(est.chosen_tradeoffs(budgets), est.tradeoffs_[config])
    assert set(est.refits_) == set(np.unique(config).tolist())


# ------------------------------------------------------------------ the contract
def test_budget_holds_for_every_example_and_discounts_are_charged_exactly():
    """No example pays more than the budget at any budget; what each pays is Turney's price of
    the groups on its path (the draw's shared part once), and the largest budgets read both
    groups of the discount group."""
    X, y, params = turney_problem(2, n=200)
    est = BudgetedSTreeD(tradeoffs=[0.0, 0.05], random_state=3, **params).fit(X, y)
    budgets = np.concatenate([np.linspace(0, 3, 61), [np.inf]])
    report = est.evaluate_at_budgets(X, y, budgets)
    assert np.all(report.max_example_cost <= budgets + 1e-12)
    assert np.all(report.spent <= budgets + 1e-12)
    assert np.all(report.max_example_cost <= report.spent + 1e-12)
    data = est._training_data(X, y)
    config, _ = est.choice_.at(budgets)
    tree = est.refits_[int(config[-1])]
    paths = tree.paths(X)
    read = [{int(data.group_of_column[f]) for f in tree.feature[path] if f >= 0} for path in paths]
    loop = np.array([ref_price(r, data.pricing) for r in read])
    assert report.mean_example_cost[-1] == pytest.approx(loop.mean(), abs=1e-12)
    assert any({0, 1} <= r for r in read)  # the shared part is paid once for both


def test_fitted_budget_caps_every_budget():
    """``budget`` caps the budgets served: above it (and at ``inf``) the model at the budget."""
    X, y, params = turney_problem(2, n=200)
    capped = BudgetedSTreeD(budget=1.25, random_state=3, **params).fit(X, y)
    free = BudgetedSTreeD(random_state=3, **params).fit(X, y)
    report = capped.evaluate_at_budgets(X, y, [1.25, 3.0, np.inf])
    assert np.all(report.max_example_cost <= 1.25)
    np.testing.assert_array_equal(capped.predict(X), free.predict_at_budgets(X, [1.25])[0])


def test_reproducible_and_seeded():
    """The same random_state gives the same bytes; pystreed's seed comes from it."""
    X, y, costs = problem(n=250, seed=3)
    fits = [BudgetedSTreeD(feature_costs=costs, random_state=s).fit(X, y) for s in (4, 4, 5)]
    reports = [m.evaluate_at_budgets(X, y, BUDGETS).as_dict() for m in fits]
    for key, value in reports[0].items():
        np.testing.assert_array_equal(value, reports[1][key])
    np.testing.assert_array_equal(fits[0].decision_function(X), fits[1].decision_function(X))
    assert fits[0].seed_ == fits[1].seed_ != fits[2].seed_
    assert fits[0].depths_.tolist() == [1] * 5 + [2] * 5 + [3] * 5 + [4] * 5
    assert fits[0].columns_.tolist() == [128] * 15 + [40] * 5  # DEFAULT_COLUMNS by depth
    assert not np.array_equal(fits[0].validation_rows_, fits[2].validation_rows_)


def test_time_limit_hit_is_refused():
    """A solve that stops at its time limit raises rather than return a tree that depends on
    the machine's speed."""
    X, y, costs = problem(n=400, d=40, seed=5)
    est = BudgetedSTreeD(
        tradeoffs=0.0,
        max_depth=4,
        time_limit=1e-9,
        validation_fraction=0.0,
        feature_costs=costs,
        random_state=0,
    )
    with pytest.raises(TimeLimitError, match="time_limit"):
        est.fit(X, y)


# ------------------------------------------------------------------ the tests given to STreeD
def test_candidate_tests_merge_equal_partitions_and_cut_between_values():
    """Equal and complementary 0/1 columns are one test (the cheapest kept); a column of
    several values gives a test between each two consecutive values, with its Gini gain."""
    rng = np.random.default_rng(0)
    n = 40
    a = (rng.random(n) < 0.5).astype(float)
    v = rng.integers(0, 4, n).astype(float)
    X = np.column_stack([a, 1 - a, a, v, np.ones(n)])
    y = np.where(a + rng.random(n) > 1.2, 1, 0)
    costs = np.array([1.0, 0.5, 0.5, 2.0, 0.0])
    data = training_data(X, y, {"feature_costs": costs})
    y1 = (data.y > 0).astype(np.int64)
    tests = candidate_tests(data.X, y1, data)
    assert tests.column.tolist() == [1, 3, 3, 3]
    np.testing.assert_array_equal(tests.threshold, [0.5, 0.5, 1.5, 2.5])
    for column, threshold, gain in zip(tests.column, tests.threshold, tests.gain, strict=True):
        right = X[:, column] >= threshold

        def gini(part):
            p = part.mean() if part.size else 0.0
            return 2 * p * (1 - p)

        expected = gini(y1) - (right.mean() * gini(y1[right]) + (~right).mean() * gini(y1[~right]))
        assert gain == pytest.approx(expected, abs=1e-12)


def test_select_tests_caps_columns_and_thresholds_groups_contiguous():
    """At most max_columns tests, at most max_thresholds per feature group, the best by
    ``gain - scale * price``, each group's tests contiguous."""
    rng = np.random.default_rng(1)
    tests = CandidateTests(
        column=np.arange(30),
        threshold=np.full(30, 0.5),
        group=rng.integers(0, 6, 30),
        gain=rng.random(30) / 4,
    )
    price = rng.uniform(0, 2, 6)
    chosen = select_tests(tests, price, 0.1, 10, 3)
    assert chosen.column.size == 10
    assert np.bincount(chosen.group).max() <= 3
    starts = np.flatnonzero(np.diff(chosen.group)) + 1
    assert np.unique(chosen.group[np.concatenate([[0], starts])]).size == starts.size + 1
    score = tests.gain - 0.1 * price[tests.group]
    # a test left out scores no better than the worst kept, unless its group was full
    left = np.setdiff1d(tests.column, chosen.column)
    full = np.flatnonzero(np.bincount(chosen.group, minlength=6) == 3)
    worst = score[chosen.column].min()
    assert all(score[c] <= worst or tests.group[c] in full for c in left)


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"max_depth": 0}, "max_depth"),
        ({"max_depth": [2, 25]}, "max_depth"),
        ({"max_depth": 2.5}, "max_depth"),
        ({"max_depth": [2, 2]}, "max_depth"),
        ({"max_depth": [1, 2], "max_columns": [5, 6, 7]}, "max_columns"),
        ({"max_columns": 0}, "max_columns"),
        ({"max_thresholds": 0}, "max_thresholds"),
        ({"min_leaf_node_size": 0}, "min_leaf_node_size"),
        ({"time_limit": 0.0}, "time_limit"),
        ({"tradeoffs": -1.0}, "tradeoffs"),
        ({"tradeoffs": []}, "tradeoffs"),
        ({"validation_fraction": 1.0}, "validation_fraction"),
        ({"validation_fraction": 0.0}, "validation_fraction"),
        ({"validation_fraction": 0.0, "tradeoffs": 0.1}, "validation_fraction"),
        ({"n_estimators": 3}, "n_estimators"),
    ],
)
def test_parameter_errors_name_the_parameter(params, name):
    with pytest.raises(InvalidParameterError) as info:
        BudgetedSTreeD.check_params(params)
    assert info.value.parameter == name
    X, y, costs = problem(n=60)
    if "n_estimators" not in params:
        with pytest.raises(InvalidParameterError, match=f"^{name}: "):
            BudgetedSTreeD(feature_costs=costs, **params).fit(X, y)


def test_max_columns_per_depth():
    """One number of tests per depth, paired with max_depth in its order (sorted by depth)."""
    X, y, costs = problem(n=150)
    est = BudgetedSTreeD(
        tradeoffs=0.0, max_depth=[3, 1], max_columns=[5, 2], feature_costs=costs, random_state=0
    ).fit(X, y)
    assert est.depths_.tolist() == [1, 3] and est.columns_.tolist() == [2, 5]
    used = [np.unique(m.feature[m.feature >= 0]).size for m in est.models_]
    assert used[0] <= 1 and used[1] <= 5


def test_single_configuration_without_validation_part():
    """One lambda and one depth with nothing held out: the model is its own refit."""
    X, y, costs = problem(n=120)
    BudgetedSTreeD.check_params({"validation_fraction": 0.0, "tradeoffs": 0.1, "max_depth": 2})
    est = BudgetedSTreeD(
        tradeoffs=0.1, max_depth=2, validation_fraction=0.0, feature_costs=costs
    ).fit(X, y)
    assert est.refits_[0] is est.models_[0]
    assert est.validation_rows_.size == 0


def test_check_estimator():
    """scikit-learn's checks (continuous columns included: tests between their values)."""
    from sklearn.exceptions import SkipTestWarning
    from sklearn.utils.estimator_checks import check_estimator

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Estimator .* does not inherit")
        warnings.filterwarnings("ignore", category=SkipTestWarning)
        check_estimator(
            BudgetedSTreeD(tradeoffs=[0.0, 0.1], max_depth=[1, 2], max_columns=8, random_state=0)
        )


# ------------------------------------------------------------------ the smallest leaf
def leaf_rows(tree: StreedTree) -> np.ndarray:
    """The training rows at each leaf of a grown tree."""
    return tree.value[tree.feature < 0].sum(axis=1)


@pytest.mark.parametrize("sizes", [7, [1, 7]])
def test_every_leaf_holds_the_minimum_leaf_size_of_its_configuration(sizes):
    """A minimum leaf size (one, or a grid chosen per budget with the depth and ``lambda``)
    is honoured by every tree, on the fit part and refitted: no leaf has fewer rows (and a
    tree pruned to a budget only merges leaves). Without it, the same problem has leaves
    below it."""
    X, y, costs = problem(n=80)  # 60 fit rows: depth-3 trees isolate a few rows
    est = BudgetedSTreeD(
        max_depth=(2, 3), min_leaf_node_size=sizes, feature_costs=costs, random_state=0
    ).fit(X, y)
    grid = np.atleast_1d(sizes)
    assert sorted(set(est.min_leaf_sizes_.tolist())) == sorted(grid.tolist())
    assert est.min_leaf_sizes_.size == grid.size * 2 * 5  # depths x sizes x default lambdas
    for index, tree in [*enumerate(est.models_), *est.refits_.items()]:
        assert leaf_rows(tree).min() >= est.min_leaf_sizes_[index]
    plain = BudgetedSTreeD(max_depth=(2, 3), feature_costs=costs, random_state=0).fit(X, y)
    assert min(leaf_rows(tree).min() for tree in plain.models_) < 7
    ev = est.evaluate_at_budgets(X, y, BUDGETS)
    assert np.all(ev.max_example_cost <= np.asarray(BUDGETS))


def test_a_leaf_size_grid_is_chosen_per_budget_on_validation():
    X, y, costs = problem(n=300)
    est = BudgetedSTreeD(
        max_depth=3, min_leaf_node_size=[1, 20], feature_costs=costs, random_state=0
    ).fit(X, y)
    chosen = np.argmin(est.validation_error_, axis=0)
    config, _ = est.choice_.at(est.choice_budgets_)
    np.testing.assert_array_equal(config, chosen)
    with pytest.raises(InvalidParameterError, match="^validation_fraction: .*min_leaf_node_size"):
        BudgetedSTreeD(
            max_depth=2, tradeoffs=0.0, min_leaf_node_size=[1, 5], validation_fraction=0.0
        ).fit(X, y)
    for bad in ([5, 5], [0, 3], 2.5):
        with pytest.raises(InvalidParameterError, match="^min_leaf_node_size: "):
            BudgetedSTreeD.check_params({"min_leaf_node_size": bad})
