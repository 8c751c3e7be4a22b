"""BudgetPrune (budgetboost.estimators.pruning): the pruning LP against an
enumeration of every pruning, its integral optimum, the budgeted walk against a per-example
loop, the contract (budgets, prices with discount groups, reproducibility) and the choice.

The references are written from the definitions (the program of Nan, Wang & Saligrama 2016,
Section 3; Turney's prices; the serving walk of the class docstring), in plain Python loops
over examples, trees and nodes; they share no code with the engine but the grown forest's
arrays.
"""

from __future__ import annotations

import hashlib
import itertools

import numpy as np
import pytest
import scipy.sparse as sp
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

from budgetboost.estimators import pruning as budget_prune
from budgetboost.estimators.contract.params import InvalidParameterError
from budgetboost.estimators.contract.tuning import EMPTY_SCORE
from budgetboost.estimators.pruning import BudgetPrune

SETTINGS = settings(max_examples=examples(10), suppress_health_check=[HealthCheck.too_slow])


# ------------------------------------------------------------------ problems
@st.composite
def priced_problems(draw, rows=(8, 30), attributes=(2, 4)):
    """A small 0/1 problem (1-2 threshold indicators per raw attribute, the indicators of
    one attribute a feature group) with random prices: without discount groups, or with
    Turney-like ones (a shared part per discount group, a discount price per test)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    m, n_attr = draw(st.integers(*rows)), draw(st.integers(*attributes))
    raw = rng.integers(0, 3, size=(m, n_attr))
    y = np.where(raw[:, 0] + raw[:, -1] + rng.integers(0, 3, size=m) >= 3, 1, 0)
    y[:2] = [0, 1]
    columns, groups = [], []
    for a in range(n_attr):
        for t in range(1, 1 + draw(st.integers(1, 2))):
            columns.append(raw[:, a] >= t)
            groups.append(a)
    X = np.column_stack(columns).astype(np.float64)
    groups = np.asarray(groups)
    cost = np.round(rng.uniform(0, 2, size=n_attr), 2)
    params = {"feature_costs": cost[groups], "feature_groups": groups}
    if draw(st.booleans()):
        dg = rng.integers(-1, 2, size=n_attr)
        shared = np.round(rng.uniform(0, 3, size=2), 2)
        discount = cost  # each test's price once its discount group's part is paid
        cost = np.where(dg >= 0, shared[np.maximum(dg, 0)] + discount, discount)
        params = {
            "feature_costs": cost[groups],
            "feature_groups": groups,
            "discount_groups": dg[groups],
            "discount_costs": discount[groups],
        }
    return X, y, params


def _budget_problem(seed=0, n=300):
    """Expensive informative columns, cheap weak ones (as the tree's tests)."""
    rng = np.random.default_rng(seed)
    signal = rng.integers(0, 2, n)
    X = np.column_stack(
        [np.where(rng.random(n) < p, signal, 1 - signal) for p in (0.95, 0.85, 0.7, 0.65, 0.6)]
        + [rng.integers(0, 2, n) for _ in range(3)]
    ).astype(float)
    costs = np.array([3.0, 1.5, 0.3, 0.2, 0.1, 0.05, 0.5, 1.0])
    return X, signal, costs


def _turney_problem(seed=3, n=240):
    """Six tests, two discount groups sharing parts (a blood draw, a scan)."""
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 3, size=(n, 6))
    y = (raw[:, 0] + raw[:, 2] + raw[:, 4] + rng.integers(0, 3, n) >= 5).astype(int)
    X = np.column_stack([raw >= 1, raw >= 2]).astype(float)
    groups = np.tile(np.arange(6), 2)
    cost = np.array([1.0, 2.5, 3.0, 3.5, 6.0, 7.0])
    dg = np.array([-1, 0, 0, 0, 1, 1])
    discount = np.array([1.0, 0.5, 1.0, 1.5, 2.0, 3.0])  # shared parts 2.0 and 4.0
    params = {
        "feature_costs": cost[groups],
        "feature_groups": groups,
        "discount_groups": dg[groups],
        "discount_costs": discount[groups],
    }
    return X, y, params


# ------------------------------------------------------------------ references
def ref_price(groups_read, pricing) -> float:
    """Turney's price of a set of feature groups: each touched discount group's shared part
    once, each test its discount price (its full price outside a discount group)."""
    total, opened = 0.0, set()
    for g in groups_read:
        d = int(pricing.discount_group[g])
        if d < 0:
            total += float(pricing.cost[g])
        else:
            total += float(pricing.base[g])
            if d not in opened:
                opened.add(d)
                total += float(pricing.shared[d])
    return total


def ref_leaf(forest, split, root, x):
    """The leaf of ``x`` in a pruned tree, and the groups its path reads."""
    node, read = root, []
    while split[node]:
        read.append(int(forest.group[node]))
        go_right = np.float32(x[forest.feature[node]]) > forest.threshold[node]
        node = forest.right[node] if go_right else forest.left[node]
    return node, read


def ref_objective(forest, split, X, y, pricing, tradeoff) -> float:
    """The program's objective of one pruning, from its definition: the errors of every
    pruned tree on every row, plus lambda times each row's price, over the rows."""
    total = 0.0
    for x, label in zip(X, y, strict=True):
        read = set()
        for root in forest.roots:
            leaf, groups = ref_leaf(forest, split, root, x)
            total += forest.vote[leaf] != label
            read.update(groups)
        total += tradeoff * ref_price(sorted(read), pricing)
    return total / len(y)


def prunings(forest):
    """Every pruning: each tree a subset of its internal nodes closed under parents."""
    per_tree = []
    for t, root in enumerate(forest.roots):
        end = forest.roots[t + 1] if t + 1 < forest.roots.size else forest.n_nodes
        inner = [h for h in range(root, end) if forest.left[h] >= 0]
        options = []
        for k in range(len(inner) + 1):
            for subset in itertools.combinations(inner, k):
                chosen = set(subset)
                if all(h == root or forest.parent[h] in chosen for h in chosen):
                    options.append(chosen)
        per_tree.append(options)
    for combo in itertools.product(*per_tree):
        split = np.zeros(forest.n_nodes, dtype=bool)
        split[sorted(set().union(*combo))] = True
        yield split


def ref_walk(forest, split, x, budget, pricing):
    """One example's serving walk, step by step: the node it stops at in each tree, the
    groups it paid for and what it spent."""
    paid, opened, spent, stops = set(), set(), 0.0, []
    for root in forest.roots:
        node = root
        while split[node]:
            g = int(forest.group[node])
            if g not in paid:
                d = int(pricing.discount_group[g])
                if d < 0:
                    price = float(pricing.cost[g])
                else:
                    price = float(pricing.base[g]) + (0.0 if d in opened else pricing.shared[d])
                if spent + price > budget:
                    break
                spent += price
                paid.add(g)
                if d >= 0:
                    opened.add(d)
            go_right = np.float32(x[forest.feature[node]]) > forest.threshold[node]
            node = forest.right[node] if go_right else forest.left[node]
        stops.append(node)
    return stops, paid, spent


def ref_score(forest, stops, majority) -> float:
    """The mean class score of the trees the example entered; the empty model's if none."""
    entered = [forest.score[s] for s, r in zip(stops, forest.roots, strict=True) if s != r]
    score = sum(entered) / len(entered) if entered else 0.0
    return score if score != 0 else majority * EMPTY_SCORE


def _fixed(X, y, params, tradeoff, **forest):
    """A forest grown and pruned on all rows at one ``lambda``."""
    settings_ = {"n_estimators": 2, "max_depth": 2, "min_samples_leaf": 1, **forest}
    return BudgetPrune(
        tradeoffs=tradeoff, validation_fraction=0, random_state=0, **settings_, **params
    ).fit(X, y)


def _lp_solution(problem, tradeoff):
    """The LP relaxation solved directly from the problem's documented fields."""
    n_x, n_w = problem.nodes.size, problem.set_price.size
    if n_x == 0:
        return np.zeros(0), problem.base_error
    c = np.concatenate(
        [problem.error_gain + tradeoff * problem.node_price, tradeoff * problem.set_price]
    )
    pairs = np.hstack([problem.tree_rows, problem.set_rows + np.array([[0], [n_x]])])
    rows = np.arange(pairs.shape[1])
    A = sp.csr_matrix(
        (np.tile([1.0, -1.0], rows.size), (np.repeat(rows, 2), pairs.T.ravel())),
        shape=(rows.size, n_x + n_w),
    )
    result = linprog(c, A_ub=A, b_ub=np.zeros(rows.size), bounds=(0, 1), method="highs")
    return result.x, problem.base_error + result.fun


# ------------------------------------------------------------------ the program
def test_forest_is_scikit_learns():
    """The flat forest holds scikit-learn's trees: the same leaves for every row, the class
    probabilities of scikit-learn's soft vote."""
    from sklearn.ensemble import RandomForestClassifier

    X, y, costs = _budget_problem(4, 120)
    forest = budget_prune.grow_forest(
        X,
        np.where(y == 1, 1.0, -1.0),
        np.arange(X.shape[1]),
        1.0,
        n_estimators=5,
        max_features=0.5,
        max_depth=4,
        min_samples_leaf=2,
        seed=11,
    )
    reference = RandomForestClassifier(
        n_estimators=5, max_features=0.5, max_depth=4, min_samples_leaf=2, random_state=11
    ).fit(X, y)
    leaves = np.column_stack([p[:, -1] for p in forest.paths(X)])
    np.testing.assert_array_equal(leaves - forest.roots, reference.apply(X))
    proba = ((forest.score[leaves] + 1) / 2).mean(axis=1)
    np.testing.assert_allclose(proba, reference.predict_proba(X)[:, 1], atol=1e-12)


@SETTINGS
@given(
    problem=priced_problems(rows=(6, 14), attributes=(2, 3)),
    tradeoff=st.sampled_from([0.0, 0.05, 0.3, 1.0, 5.0]),
)
def test_lp_optimum_is_the_best_pruning_and_integral(problem, tradeoff):
    """The LP's optimum equals the least objective over every pruning of the forest
    (enumerated, each scored from the program's definition), its vertex is integral (total
    unimodularity), and the pruning it returns attains that least objective."""
    X, y, params = problem
    model = _fixed(X, y, params, tradeoff, n_estimators=3)
    forest, pricing = model.forest_, model.pricing_
    ypm = np.where(y == model.classes_[1], 1.0, -1.0)
    best = min(ref_objective(forest, s, X, ypm, pricing, tradeoff) for s in prunings(forest))
    problem_ = budget_prune.pruning_problem(forest, forest.paths(X), ypm, pricing)
    raw, value = _lp_solution(problem_, tradeoff)
    assert np.max(np.abs(raw - np.round(raw)), initial=0.0) <= 1e-9
    assert value == pytest.approx(best, abs=1e-9)
    pruned = model.refits_[0]
    assert pruned.objective == pytest.approx(best, abs=1e-9)
    assert ref_objective(forest, pruned.split, X, ypm, pricing, tradeoff) == pytest.approx(
        best, abs=1e-9
    )


def test_hand_checked_pruning():
    """One stump on one column that separates the classes (20 rows of class 0, 30 of class
    1): as a leaf the root errs on the 20 rows of the class its bootstrap sample holds
    fewer of, split it errs on none, and all 50 rows pay the column's price 1. So the split
    stays while ``20 / 50 > lambda * 50 * 1 / 50``, i.e. ``lambda < 0.4``, and the optimum is
    ``min(lambda, 0.4)``."""
    X = np.repeat([[0.0], [1.0]], [20, 30], axis=0)
    y = np.repeat([0, 1], [20, 30])
    for tradeoff, kept in [(0.0, True), (0.3, True), (0.39, True), (0.41, False), (2.0, False)]:
        model = _fixed(X, y, {"feature_costs": [1.0]}, tradeoff, n_estimators=1, max_depth=1)
        forest = model.forest_
        assert forest.vote[0] == 1.0 and forest.left[0] >= 0  # the bootstrap holds more 1s
        assert bool(model.refits_[0].split[0]) is kept
        assert model.refits_[0].objective == pytest.approx(min(tradeoff, 0.4))


def test_lp_refuses_a_fractional_solution(monkeypatch):
    """A solution away from integers raises rather than being rounded silently."""
    X, y, costs = _budget_problem(0, 60)
    model = _fixed(X, y, {"feature_costs": costs}, 0.1)
    problem = budget_prune.pruning_problem(
        model.forest_,
        model.forest_.paths(X),
        np.where(y == 1, 1.0, -1.0),
        model.pricing_,
    )

    class Half:
        status, message = 0, "ok"

        def __init__(self, n):
            self.x = np.full(n, 0.5)

    from budgetboost.estimators.pruning import program

    monkeypatch.setattr(program, "linprog", lambda c, **_: Half(c.size))
    with pytest.raises(RuntimeError, match="integral"):
        budget_prune.solve_pruning(problem, 0.1)


# ------------------------------------------------------------------ the walk
@SETTINGS
@given(problem=priced_problems(), budgets=st.lists(st.floats(0, 8), min_size=1, max_size=4))
def test_walk_matches_the_per_example_loop(problem, budgets):
    """The vectorised walk (and :func:`serve`, which skips the walks every price fits)
    against the walk written per example: the nodes it stops at, the groups it paid, what
    it spent, the forest's score; every example within its budget."""
    X, y, params = problem
    model = _fixed(X, y, params, 0.02, n_estimators=4, max_depth=3)
    pruned, forest, pricing = model.refits_[0], model.forest_, model.pricing_
    budgets = np.asarray(budgets + [np.inf])
    paths = forest.paths(X)
    walk = budget_prune.budgeted_walk(pruned, paths, budgets, pricing)
    served = budget_prune.serve(pruned, paths, budgets, pricing, model.majority_)
    n = X.shape[0]
    for b, budget in enumerate(budgets):
        for i in range(n):
            stops, paid, spent = ref_walk(forest, pruned.split, X[i], budget, pricing)
            r = b * n + i
            assert walk.stop[:, r].tolist() == stops
            assert set(walk.groups[walk.paid[r]].tolist()) == paid
            assert walk.spent[r] == pytest.approx(spent, abs=1e-12)
            assert spent <= budget
            assert served.spent[b, i] == pytest.approx(spent, abs=1e-12)
            assert served.n_groups[b, i] == len(paid)
            assert served.score[b, i] == pytest.approx(ref_score(forest, stops, model.majority_))


@SETTINGS
@given(problem=priced_problems(), budgets=st.lists(st.floats(0, 8), min_size=1, max_size=4))
def test_the_groups_read_are_those_the_walk_paid_for(problem, budgets):
    """``groups_read`` (what the train job checks) against the per-example walk: at each
    budget, the groups the example paid for in the forest that serves the budget."""
    X, y, params = problem
    model = _fixed(X, y, params, 0.02, n_estimators=4, max_depth=3)
    budgets = np.asarray(budgets + [np.inf])
    reads = model.groups_read(X, budgets)
    config, _ = model.choice_.at(model._capped(budgets))
    for b, budget in enumerate(budgets):
        for i in range(X.shape[0]):
            paid = set()
            if config[b] >= 0:
                pruned = model.refits_[config[b]]
                _, paid, _ = ref_walk(pruned.forest, pruned.split, X[i], budget, model.pricing_)
            assert set(np.flatnonzero(reads[b, i]).tolist()) == paid


# ------------------------------------------------------------------ the contract
@SETTINGS
@given(problem=priced_problems(rows=(12, 40), attributes=(2, 5)))
def test_every_example_within_budget_and_charged_its_price(problem):
    """At every budget no example pays more than the budget, scores are finite, and what is
    reported is what the groups each example read cost (``Pricing.set_costs``)."""
    X, y, params = problem
    model = BudgetPrune(n_estimators=4, max_depth=3, random_state=1, **params).fit(X, y)
    budgets = np.array([0.0, 0.5, 1.0, 2.0, 4.0, 8.0, np.inf])
    report = model.evaluate_at_budgets(X, y, budgets)
    assert np.all(report.max_example_cost <= budgets)
    assert np.all(report.spent == report.max_example_cost)
    assert np.all(np.isfinite(model.decision_function(X)))
    paths = model.forest_.paths(X)
    config, _ = model.choice_.at(budgets)
    for b, budget in enumerate(budgets):
        pruned = model.refits_[int(config[b])]
        walk = budget_prune.budgeted_walk(pruned, paths, np.array([budget]), model.pricing_)
        price = model.pricing_.set_costs(walk.paid, walk.groups)
        np.testing.assert_allclose(walk.spent, price, rtol=1e-12, atol=1e-12)
        assert report.mean_example_cost[b] == pytest.approx(price.mean(), abs=1e-12)
        assert report.max_example_cost[b] == pytest.approx(price.max(), abs=1e-12)
        assert report.n_features[b] == pytest.approx(walk.paid.sum(axis=1).mean())
        assert report.nodes[b] == pruned.n_nodes


def test_discount_groups_charged_exactly():
    """With Turney's discount groups an example pays each touched group's shared part once:
    the walk's costs equal the loop price of the groups read (less than their full prices
    summed where two tests of a discount group are read), and every budget holds."""
    X, y, params = _turney_problem()
    model = BudgetPrune(n_estimators=8, random_state=2, **params).fit(X, y)
    budgets = np.array([0.0, 1.0, 3.0, 4.5, 6.0, 9.0, 14.0, 30.0])
    report = model.evaluate_at_budgets(X, y, budgets)
    assert np.all(report.max_example_cost <= budgets)
    paths = model.forest_.paths(X)
    config, _ = model.choice_.at(budgets)
    shared_once = 0
    for b, budget in enumerate(budgets):
        walk = budget_prune.budgeted_walk(
            model.refits_[int(config[b])], paths, np.array([budget]), model.pricing_
        )
        read = [walk.groups[row].tolist() for row in walk.paid]
        loop = [ref_price(groups, model.pricing_) for groups in read]
        np.testing.assert_allclose(walk.spent, loop, rtol=1e-12)
        assert report.mean_example_cost[b] == pytest.approx(np.mean(loop), abs=1e-12)
        full = [float(model.pricing_.cost[groups].sum()) for groups in read]
        shared_once += int(np.sum(np.asarray(loop) < np.asarray(full) - 1e-9))
    assert shared_once > 0


def test_reproducible_and_seeded():
    """The same random_state gives the same bytes; another one another forest."""
    X, y, costs = _budget_problem(1, 150)
    budgets = [0.0, 0.2, 0.5, 1.0, 2.0, 4.0, 8.0]
    settings_ = {"n_estimators": 6, "max_depth": 4, "feature_costs": costs}
    fits = [BudgetPrune(random_state=s, **settings_).fit(X, y) for s in (7, 7, 8)]
    reports = [m.evaluate_at_budgets(X, y, budgets).as_dict() for m in fits]
    for key, value in reports[0].items():
        np.testing.assert_array_equal(value, reports[1][key])
    np.testing.assert_array_equal(fits[0].decision_function(X), fits[1].decision_function(X))
    same = [np.array_equal(fits[0].forest_.feature, f.forest_.feature) for f in fits[1:]]
    assert same == [True, False]
    rng_fit = BudgetPrune(random_state=np.random.default_rng(7), **settings_).fit(X, y)
    np.testing.assert_array_equal(
        rng_fit.predict_at_budgets(X, budgets), fits[0].predict_at_budgets(X, budgets)
    )


def test_choice_is_the_fewest_validation_errors():
    """At each budget of the validation grid: the lambda whose fit-part forest, pruned and
    walked at that budget, errs least on the validation rows (ties: the smaller); the
    chosen lambdas are pruned again on a forest of all rows, which serves."""
    X, y, costs = _budget_problem(2, 400)
    model = BudgetPrune(feature_costs=costs, random_state=5).fit(X, y)
    val = model.validation_rows_
    paths = model.models_[0].forest.paths(X[val])
    budgets = model.validation_budgets_
    assert budgets[0] == 0 and np.all(np.diff(budgets) > 0)
    errors = []
    for pruned in model.models_:
        walk = budget_prune.budgeted_walk(pruned, paths, budgets, model.pricing_)
        scores = budget_prune.forest_scores(pruned, walk.stop, model.majority_)
        wrong = (scores.reshape(budgets.size, -1) > 0) != (y[val] == 1)
        errors.append(wrong.mean(axis=1))
    np.testing.assert_allclose(np.vstack(errors), np.vstack(model.validation_error_))
    expected = model.tradeoffs_[np.argmin(np.vstack(errors), axis=0)]
    np.testing.assert_array_equal(model.chosen_tradeoffs(budgets), expected)
    assert sorted(model.refits_) == sorted(set(model.choice_.config.tolist()))
    assert all(m.forest is model.forest_ for m in model.refits_.values())
    assert model.forest_ is not model.models_[0].forest
    assert model.fit_rows_.size + val.size == 400
    # the chosen forests cost less at small budgets: the curve falls
    report = model.evaluate_at_budgets(X, y, [0.0, 0.3, 1.0, 6.0])
    assert report.error[-1] < report.error[0]


def test_empty_model_and_zero_budget():
    """At budget 0 an example reads only free splits; one that reads none gets the training
    majority by less than any vote."""
    X, y, costs = _budget_problem(3, 120)
    costs = np.maximum(costs, 0.01)  # nothing free
    model = BudgetPrune(feature_costs=costs, random_state=0).fit(X, y)
    scores = model.predict_at_budgets(X, [0.0])
    report = model.evaluate_at_budgets(X, y, [0.0])
    assert report.max_example_cost[0] == 0 and report.rounds[0] == 0
    assert np.all(scores == model.classes_[int(model.majority_ > 0)])


# ------------------------------------------------------------------ parameters
@pytest.mark.parametrize(
    ("params", "name"),
    [
        ({"n_estimators": 0}, "n_estimators"),
        ({"max_features": "auto"}, "max_features"),
        ({"max_features": 1.5}, "max_features"),
        ({"max_depth": 0}, "max_depth"),
        ({"min_samples_leaf": 0}, "min_samples_leaf"),
        ({"tradeoffs": -1.0}, "tradeoffs"),
        ({"tradeoffs": []}, "tradeoffs"),
        ({"budget": -1.0}, "budget"),
        ({"validation_fraction": 1.0}, "validation_fraction"),
        ({"validation_fraction": 0.0}, "validation_fraction"),
        ({"random_state": -3}, "random_state"),
        ({"feature_costs": [1.0, -1.0]}, "feature_costs"),
        ({"max_column_cost": -1.0}, "max_column_cost"),
        ({"max_column_cost": "cheap"}, "max_column_cost"),
        ({"max_column_cost": []}, "max_column_cost"),
        ({"max_column_cost": [0.5, np.nan]}, "max_column_cost"),
        ({"max_column_cost": "auto", "validation_fraction": 0.0}, "validation_fraction"),
        (
            {"max_column_cost": [1.0, 2.0], "tradeoffs": 0.1, "validation_fraction": 0.0},
            "validation_fraction",
        ),
    ],
)
def test_parameter_errors_name_the_parameter(params, name):
    X, y, _ = _budget_problem(0, 40)
    with pytest.raises(InvalidParameterError) as info:
        BudgetPrune(**params).fit(X[:, :2], y)
    assert info.value.parameter == name
    with pytest.raises(InvalidParameterError, match=f"^{name}: "):
        BudgetPrune.check_params(params)


def test_a_single_tradeoff_needs_no_validation_part():
    X, y, costs = _budget_problem(0, 80)
    model = BudgetPrune(tradeoffs=0.1, validation_fraction=0, feature_costs=costs).fit(X, y)
    assert model.fit_rows_.size == 80 and list(model.refits_) == [0]
    assert model.refits_[0] is model.models_[0]
    assert BudgetPrune.tunes({}) and not BudgetPrune.tunes({"validation_fraction": 0})


# ------------------------------------------------------------------ the cost-aware forest
def _recomposed_default(X, y, costs, random_state, X_test, budgets):
    """The default protocol written out from the module's functions, with no ``tau``
    anywhere: the validation split, one forest on the fit part pruned at each ``lambda``,
    the ``lambda`` of fewest validation errors per budget, one forest on all rows pruned at
    the chosen ones, each test budget served by its ``lambda``'s pruned forest."""
    from budgetboost.estimators.contract.pricing import Pricing
    from budgetboost.estimators.contract.tuning import choose_by_budget, validation_split

    ypm = np.where(y == 1, 1.0, -1.0)
    majority = 1.0 if (ypm > 0).sum() > (ypm < 0).sum() else -1.0
    pricing = Pricing.plain(costs)
    groups = np.arange(costs.size)
    rng = np.random.default_rng(random_state)
    fit, val = validation_split(ypm, 0.25, rng)
    seeds = rng.integers(0, 2**31 - 1, size=2)
    grid = np.asarray(budget_prune.DEFAULT_TRADEOFFS) / costs[costs > 0].mean()

    def pruned(rows, seed, tradeoffs):
        forest = budget_prune.grow_forest(
            X[rows],
            ypm[rows],
            groups,
            majority,
            n_estimators=10,
            max_features=0.5,
            max_depth=8,
            min_samples_leaf=3,
            seed=seed,
        )
        problem = budget_prune.pruning_problem(forest, forest.paths(X[rows]), ypm[rows], pricing)
        return budget_prune.prune(forest, problem, tradeoffs)

    models = pruned(fit, int(seeds[0]), grid)
    paths = models[0].forest.paths(X[val])
    top = max(
        budget_prune.walk_rows(
            m, paths, np.arange(val.size), np.full(val.size, np.inf), pricing
        ).spent.max(initial=0.0)
        for m in models
    )
    grid_budgets = np.unique(np.linspace(0.0, top, budget_prune.CHOICE_GRID + 1))
    served = [budget_prune.serve(m, paths, grid_budgets, pricing, majority) for m in models]
    errors = np.vstack([((s.score > 0) != (ypm[val] > 0)).mean(axis=1) for s in served])
    choice = choose_by_budget(grid_budgets, errors)
    chosen = np.unique(choice.config)
    refits = dict(zip(chosen, pruned(np.arange(y.size), int(seeds[1]), grid[chosen]), strict=True))
    test_paths = refits[chosen[0]].forest.paths(X_test)
    config, _ = choice.at(budgets)
    scores = np.vstack(
        [
            budget_prune.serve(refits[c], test_paths, np.array([b]), pricing, majority).score[0]
            for c, b in zip(config, budgets, strict=True)
        ]
    )
    return scores, grid[config]


def test_default_is_the_forest_on_every_column():
    """The default (``max_column_cost=None``) is the protocol without ``tau``, written out
    from the module's functions, score for score; ``[inf]`` and a ``tau`` above every price
    are the same fit, byte for byte."""
    X, y, costs = _budget_problem(2, 300)
    budgets = np.array([0.0, 0.3, 1.0, 2.0, 6.0, np.inf])
    model = BudgetPrune(feature_costs=costs, random_state=5).fit(X[:200], y[:200])
    scores, tradeoffs = _recomposed_default(X[:200], y[:200], costs, 5, X[200:], budgets)
    np.testing.assert_array_equal(model.predict_at_budgets(X[200:], budgets), scores > 0)
    np.testing.assert_array_equal(model.decision_function(X[200:]), scores[-1])
    np.testing.assert_array_equal(model.chosen_tradeoffs(budgets), tradeoffs)
    np.testing.assert_array_equal(model.chosen_max_column_costs(budgets), np.inf)
    for caps in ([np.inf], 3.0, [3.0, 5.0]):
        other = BudgetPrune(feature_costs=costs, random_state=5, max_column_cost=caps)
        other.fit(X[:200], y[:200])
        before, after = (_fingerprint(m, X[200:], y[200:], budgets) for m in (model, other))
        for a, b in zip(before, after, strict=True):
            np.testing.assert_array_equal(a, b)


def _fingerprint(model, X, y, budgets):
    """What a fitted model reports on ``X``: predictions, scores, costs and ``lambda``."""
    report = model.evaluate_at_budgets(X, y, budgets)
    return (
        model.predict_at_budgets(X, budgets),
        model.decision_function(X),
        *report.as_dict().values(),
        model.chosen_tradeoffs(budgets),
    )


def _digest(arrays) -> str:
    digest = hashlib.sha256()
    for array in arrays:
        digest.update(np.ascontiguousarray(array).tobytes())
    return digest.hexdigest()


@pytest.mark.parametrize(
    ("problem", "expected"),
    [
        ("plain", "78b249880d2d168aa91f833aa17d53109c45da8d3abace14c350942978d62a6d"),
        ("turney", "68f8a149886b29ae0938a1108226284e61b05daf37081d764aacf4e4651308d1"),
    ],
)
def test_default_fingerprint_is_unchanged(problem, expected):
    """The default's predictions, scores, costs and ``lambda`` on two fixed problems hash to
    recorded digests (recorded with scikit-learn 1.9.1, numpy 2.4.6, scipy 1.17.1: a library whose
    forest or LP changes changes them too, and the suite's results with them)."""
    if problem == "plain":
        X, y, costs = _budget_problem(2, 300)
        params, budgets, n_fit, seed = {"feature_costs": costs}, [0.0, 0.3, 1.0, 2.0, 6.0], 200, 5
    else:
        X, y, params = _turney_problem()
        budgets, n_fit, seed = [0.0, 1.0, 3.0, 4.5, 6.0, 9.0, 14.0], 160, 2
    budgets = [*budgets, np.inf]
    model = BudgetPrune(random_state=seed, **params).fit(X[:n_fit], y[:n_fit])
    assert _digest(_fingerprint(model, X[n_fit:], y[n_fit:], budgets)) == expected


def test_column_cost_grid_hand_checked():
    """``"auto"``: the 1st, 2nd and 4th smallest of 8 prices (the least prices at or below
    which an eighth, a quarter and a half of the groups lie), then inf; a ``tau`` giving the
    same groups as a larger one gives way to it, one below every price is dropped."""
    price = np.array([0.7, 0.1, 0.4, 1.9, 0.2, 1.2, 0.9, 0.3])
    grid = budget_prune.column_cost_grid
    np.testing.assert_array_equal(grid("auto", price), [0.1, 0.2, 0.4, np.inf])
    np.testing.assert_array_equal(grid(None, price), [np.inf])
    np.testing.assert_array_equal(grid([0.05, 0.15, 0.19, 0.5, 2.0], price), [0.19, 0.5, 2.0])
    np.testing.assert_array_equal(grid([2.0, np.inf], price), [np.inf])
    assert grid(0.01, price).size == 0
    np.testing.assert_array_equal(grid("auto", np.ones(5)), [np.inf])  # unit costs: one forest
    np.testing.assert_array_equal(grid("auto", np.array([0.0, 0.0, 1.0])), [0.0, np.inf])
    within = budget_prune.columns_within(0.3, np.array([0, 0, 1, 2, 3]), np.array([0.3, 1, 0, 2]))
    np.testing.assert_array_equal(within, [0, 1, 3])
    assert budget_prune.columns_within(np.inf, np.arange(3), np.ones(3)) is None


@SETTINGS
@given(problem=priced_problems(rows=(12, 40), attributes=(2, 5)), share=st.floats(0.05, 1.0))
def test_a_forest_under_tau_never_splits_above_tau(problem, share):
    """Every forest grown under ``tau`` (fit part and refits) splits only on columns whose
    feature group's full price (alone, with discount groups) is at most ``tau``, its paths
    ignore every other column, and the configurations of one ``tau`` share its forest."""
    X, y, params = problem
    column_price = np.asarray(params["feature_costs"])  # a group's full price, per column
    tau = float(np.quantile(column_price, share))
    model = BudgetPrune(
        n_estimators=4, max_depth=3, random_state=0, max_column_cost=[tau, np.inf], **params
    ).fit(X, y)
    scrambled = X.copy()
    above = column_price > tau
    scrambled[:, above] = 1 - X[:, above]
    caps = model.max_column_costs_
    pairs = [
        *zip(model.models_, caps, strict=True),
        *((m, caps[k]) for k, m in model.refits_.items()),
    ]
    forests = {}
    for m, cap in zip(model.models_, caps, strict=True):
        forests.setdefault(cap, set()).add(id(m.forest))
    assert all(len(ids) == 1 for ids in forests.values())
    for m, cap in pairs:
        inner = m.forest.internal
        assert np.all(column_price[m.forest.feature[inner]] <= cap)
        if cap < np.inf:
            for a, b in zip(m.forest.paths(X), m.forest.paths(scrambled), strict=True):
                np.testing.assert_array_equal(a, b)


def test_tau_and_lambda_chosen_by_brute_force_over_the_grid():
    """Every (``tau``, ``lambda``) of the grid (``tau``-major) is a forest of the fit part;
    its validation error at each budget of the validation grid, counted row by row with the
    walk written per example, is what the fit recorded; at each budget the first
    configuration of fewest errors is chosen (a loop over the grid); the chosen ones are
    pruned again at their ``lambda`` on a forest of all rows grown under their ``tau``; and
    the forest of ``tau = inf`` is the default's."""
    X, y, costs = _budget_problem(6, 160)
    settings_ = {"n_estimators": 4, "max_depth": 3, "tradeoffs": [0.0, 0.1, 0.5]}
    model = BudgetPrune(
        feature_costs=costs, random_state=3, max_column_cost="auto", **settings_
    ).fit(X, y)
    taus = [0.05, 0.1, 0.3, np.inf]  # the 1st, 2nd and 4th smallest of the 8 prices, inf
    np.testing.assert_array_equal(model.column_cost_grid_, taus)
    np.testing.assert_array_equal(model.max_column_costs_, np.repeat(taus, 3))
    np.testing.assert_array_equal(model.tradeoffs_, np.tile([0.0, 0.1, 0.5], 4))
    val, budgets = model.validation_rows_, model.validation_budgets_
    errors = np.zeros((len(model.models_), budgets.size))
    for c, pruned in enumerate(model.models_):
        for b, budget in enumerate(budgets):
            for i in val:
                stops, _, _ = ref_walk(pruned.forest, pruned.split, X[i], budget, model.pricing_)
                score = ref_score(pruned.forest, stops, model.majority_)
                errors[c, b] += (score > 0) != (y[i] == model.classes_[1])
    errors /= val.size
    np.testing.assert_allclose(np.vstack(model.validation_error_), errors, atol=1e-12)
    best = []
    for b in range(budgets.size):
        first = 0
        for c in range(len(model.models_)):
            if errors[c, b] < errors[first, b]:
                first = c
        best.append(first)
    np.testing.assert_array_equal(
        model.chosen_max_column_costs(budgets), model.max_column_costs_[best]
    )
    np.testing.assert_array_equal(model.chosen_tradeoffs(budgets), model.tradeoffs_[best])
    assert len(set(model.max_column_costs_[best])) > 1  # the choice is not one forest's
    for k, refit in model.refits_.items():
        inner = refit.forest.internal
        assert refit.tradeoff == model.tradeoffs_[k]
        assert np.all(costs[refit.forest.feature[inner]] <= model.max_column_costs_[k])
    default = BudgetPrune(feature_costs=costs, random_state=3, **settings_).fit(X, y)
    for a, b in zip(model.models_[-3:], default.models_, strict=True):
        np.testing.assert_array_equal(a.forest.feature, b.forest.feature)
        np.testing.assert_array_equal(a.split, b.split)


def _cost_problem(kind):
    """Training and test rows with per-column prices, grouped prices or Turney's discount
    groups."""
    if kind == "per_column":
        X, y, costs = _budget_problem(7, 300)
        return X, y, {"feature_costs": costs}
    X, y, params = _turney_problem(5, 300)
    if kind == "grouped":
        params = {k: params[k] for k in ("feature_costs", "feature_groups")}
    return X, y, params


@pytest.mark.parametrize("kind", ["per_column", "grouped", "discount_groups"])
def test_cost_aware_forests_keep_the_contract(kind):
    """With several forests (one per chosen ``tau``), every test example at every budget
    walks the forest of its budget's ``tau`` as the per-example loop does, paying (at the
    contract's prices) for each group before it reads it and never more than the budget;
    the reported costs and predictions are those of the loop, and no forest reads a column
    priced above its ``tau``."""
    X, y, params = _cost_problem(kind)
    model = BudgetPrune(
        n_estimators=5, max_depth=4, max_column_cost="auto", random_state=4, **params
    ).fit(X[:200], y[:200])
    X_test, y_test = X[200:], y[200:]
    column_price = np.asarray(params["feature_costs"])
    budgets = np.array([0.0, 0.1, 0.5, 1.0, 2.0, 3.5, 5.0, 8.0, 20.0, np.inf])
    report = model.evaluate_at_budgets(X_test, y_test, budgets)
    predictions = model.predict_at_budgets(X_test, budgets)
    config, _ = model.choice_.at(budgets)
    assert len({id(model.refits_[c].forest) for c in config}) > 1  # several forests serve
    for b, budget in enumerate(budgets):
        pruned = model.refits_[int(config[b])]
        inner = pruned.forest.internal
        assert np.all(
            column_price[pruned.forest.feature[inner]] <= model.max_column_costs_[config[b]]
        )
        spent, n_paid = [], []
        for i, x in enumerate(X_test):
            stops, paid, cost = ref_walk(pruned.forest, pruned.split, x, budget, model.pricing_)
            assert cost <= budget
            assert cost == pytest.approx(ref_price(sorted(paid), model.pricing_), abs=1e-12)
            score = ref_score(pruned.forest, stops, model.majority_)
            assert predictions[b, i] == model.classes_[int(score > 0)]
            spent.append(cost)
            n_paid.append(len(paid))
        assert report.max_example_cost[b] == pytest.approx(max(spent), abs=1e-12)
        assert report.mean_example_cost[b] == pytest.approx(np.mean(spent), abs=1e-12)
        assert report.n_features[b] == pytest.approx(np.mean(n_paid))
        assert report.nodes[b] == pruned.n_nodes


def test_cost_aware_is_reproducible_and_seeded():
    """The same random_state gives the same bytes with several forests; another one does
    not."""
    X, y, costs = _budget_problem(1, 200)
    budgets = [0.0, 0.2, 0.5, 1.0, 2.0, 4.0, 8.0, np.inf]
    settings_ = {"n_estimators": 5, "max_depth": 4, "feature_costs": costs}
    fits = [
        BudgetPrune(max_column_cost="auto", random_state=s, **settings_).fit(X, y)
        for s in (7, 7, 8)
    ]
    digests = [_digest(_fingerprint(m, X, y, budgets)) for m in fits]
    assert digests[0] == digests[1] != digests[2]
    np.testing.assert_array_equal(
        fits[0].chosen_max_column_costs(budgets), fits[1].chosen_max_column_costs(budgets)
    )


def test_a_tau_below_every_price_is_refused():
    X, y, costs = _budget_problem(0, 80)
    with pytest.raises(ValueError, match="max_column_cost: .* below the price of every"):
        BudgetPrune(max_column_cost=0.01, feature_costs=costs + 0.1).fit(X, y)
    one = BudgetPrune(max_column_cost=0.3, tradeoffs=0.1, validation_fraction=0)
    one.set_params(feature_costs=costs).fit(X, y)
    np.testing.assert_array_equal(one.chosen_max_column_costs([0.0, np.inf]), [0.3, 0.3])
