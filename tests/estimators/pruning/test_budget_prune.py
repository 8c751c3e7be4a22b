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

    import scipy.optimize  # the solver the program imports when it solves

    monkeypatch.setattr(scipy.optimize, "linprog", lambda c, **_: Half(c.size))
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
        ({"forest": "cheap"}, "forest"),
        ({"forest": None}, "forest"),
        ({"operating_point": "mean"}, "operating_point"),
        ({"forest": "both", "validation_fraction": 0.0}, "validation_fraction"),
        (
            {"forest": "both", "tradeoffs": 0.1, "validation_fraction": 0.0},
            "validation_fraction",
        ),
        ({"operating_point": "mean_cost", "validation_fraction": 0.0}, "validation_fraction"),
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


# ------------------------------------------------------------------ the default, written out
def _recomposed_default(X, y, costs, random_state, X_test, budgets):
    """The default protocol written out from the module's functions: the validation split,
    one forest on the fit part pruned at each ``lambda``, the ``lambda`` of fewest
    validation errors per budget, one forest on all rows pruned at the chosen ones, each
    test budget served by its ``lambda``'s pruned forest."""
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
    defaults = BudgetPrune().get_params()

    def pruned(rows, seed, tradeoffs):
        forest = budget_prune.grow_forest(
            X[rows],
            ypm[rows],
            groups,
            majority,
            n_estimators=defaults["n_estimators"],
            max_features=defaults["max_features"],
            max_depth=defaults["max_depth"],
            min_samples_leaf=defaults["min_samples_leaf"],
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


def test_default_is_the_protocol_written_out():
    """The default (scikit-learn's forest, the hard cap) is the protocol written out from
    the module's functions, score for score; ``forest="random"`` is the same fit."""
    X, y, costs = _budget_problem(2, 300)
    budgets = np.array([0.0, 0.3, 1.0, 2.0, 6.0, np.inf])
    model = BudgetPrune(feature_costs=costs, random_state=5).fit(X[:200], y[:200])
    scores, tradeoffs = _recomposed_default(X[:200], y[:200], costs, 5, X[200:], budgets)
    np.testing.assert_array_equal(model.predict_at_budgets(X[200:], budgets), scores > 0)
    np.testing.assert_array_equal(model.decision_function(X[200:]), scores[-1])
    np.testing.assert_array_equal(model.chosen_tradeoffs(budgets), tradeoffs)
    np.testing.assert_array_equal(model.chosen_forests(budgets), "random")


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


# ------------------------------------------------------------------ BudgetRF's forest
def ref_gini_sum(weight, positive):
    """``W g(P / W)``, ``g(p) = 2 p (1 - p)``: the node's weighted gini."""
    return 2.0 * positive * (weight - positive) / weight if weight > 0 else 0.0


def ref_marginal_price(g, paid, opened, pricing):
    """What reading group ``g`` adds on a path that paid ``paid`` and opened ``opened``."""
    if g in paid:
        return 0.0
    d = int(pricing.discount_group[g])
    if d < 0:
        return float(pricing.cost[g])
    return float(pricing.base[g]) + (0.0 if d in opened else float(pricing.shared[d]))


def ref_best_split(X, weight, positive, price, min_samples_leaf):
    """BudgetRF's split from its definition, one column and one cut at a time: each
    column's cut of largest gini reduction (cuts between consecutive distinct values, at
    their midpoint, at least ``min_samples_leaf`` rows a side; the lowest of equal ones),
    then the column of largest reduction per unit of price, a free column's (price 0)
    first; ``(-1, nan)`` when nothing reduces the impurity."""
    n, m = X.shape
    total_w, total_p = float(weight.sum()), float(positive.sum())
    parent = ref_gini_sum(total_w, total_p)
    best = []
    for j in range(m):
        values = sorted(set(X[:, j].tolist()))
        top_gain, top_cut = -np.inf, np.nan
        for lo, hi in itertools.zip_longest(values[:-1], values[1:]):
            if hi is None:
                break
            cut = (lo + hi) / 2.0
            left = [i for i in range(n) if X[i, j] <= cut]
            if len(left) < min_samples_leaf or n - len(left) < min_samples_leaf:
                continue
            w_left = float(sum(weight[i] for i in left))
            p_left = float(sum(positive[i] for i in left))
            children = ref_gini_sum(w_left, p_left) + ref_gini_sum(
                total_w - w_left, total_p - p_left
            )
            if parent - children > top_gain:
                top_gain, top_cut = parent - children, cut
        best.append((top_gain, top_cut))
    floor = 1e-12 * max(parent, 1.0)
    pick, pick_key = -1, None
    for j, (gain, _) in enumerate(best):
        if not gain > floor:
            continue
        key = (1, gain) if price[j] <= 0 else (0, gain / price[j])
        if pick_key is None or key > pick_key:
            pick, pick_key = j, key
    return (pick, best[pick][1]) if pick >= 0 else (-1, np.nan)


@st.composite
def split_problems(draw):
    """A node's rows (0/1 and many-valued columns), bootstrap counts and prices, some 0."""
    rng = np.random.default_rng(draw(st.integers(0, 2**16)))
    n, m = draw(st.integers(2, 25)), draw(st.integers(1, 6))
    levels = rng.integers(2, 6, size=m)
    X = (rng.integers(0, 100, size=(n, m)) % levels).astype(np.float32)
    X[:, rng.random(m) < 0.3] *= np.float32(0.37)  # some columns not 0/1
    weight = rng.integers(1, 4, size=n).astype(np.float64)
    label = rng.integers(0, 2, size=n)
    price = np.where(rng.random(m) < 0.3, 0.0, np.round(rng.uniform(0.1, 2, size=m), 1))
    return X, weight, weight * label, price, draw(st.integers(1, 3))


@SETTINGS
@given(problem=split_problems())
def test_best_split_is_budget_rfs_split(problem):
    """The vectorised split (0/1 columns by sums, the others by sorted cuts) is the one the
    loop over columns and cuts chooses, threshold included."""
    X, weight, positive, price, leaf = problem
    binary = np.all((X == 0) | (X == 1), axis=0)
    got = budget_prune.best_split(X, binary, weight, positive, price, leaf)
    want = ref_best_split(X.astype(np.float64), weight, positive, price, leaf)
    assert got[0] == want[0]
    if want[0] >= 0:
        assert got[1] == want[1]
    # marking no column 0/1 takes the sorted path for all: the same split
    assert (
        budget_prune.best_split(X, np.zeros_like(binary), weight, positive, price, leaf)[0]
        == got[0]
    )


def ref_grow(X, y, counts, groups, pricing, max_depth, min_samples_leaf):
    """One cost-weighted tree from the definition, recursively: a node of rows with
    bootstrap ``counts`` splits by :func:`ref_best_split` on every column, each priced at
    its group's marginal price on the path, unless pure, at ``max_depth`` or of fewer than
    ``2 * min_samples_leaf`` rows; nested dicts."""

    def grow(rows, depth, paid, opened):
        w = counts[rows].astype(np.float64)
        wp = w * (y[rows] > 0)
        node = {"p": float(wp.sum() / w.sum())}
        if wp.sum() in (0.0, w.sum()) or depth >= max_depth or rows.size < 2 * min_samples_leaf:
            return node
        price = np.array(
            [ref_marginal_price(int(g), paid, opened, pricing) for g in groups], dtype=float
        )
        j, cut = ref_best_split(X[rows].astype(np.float64), w, wp, price, min_samples_leaf)
        if j < 0:
            return node
        g = int(groups[j])
        d = int(pricing.discount_group[g])
        paid2, opened2 = paid | {g}, opened | ({d} if d >= 0 else set())
        left = X[rows, j] <= cut
        node.update(
            feature=j,
            threshold=cut,
            left=grow(rows[left], depth + 1, paid2, opened2),
            right=grow(rows[~left], depth + 1, paid2, opened2),
        )
        return node

    return grow(np.flatnonzero(counts > 0), 0, set(), set())


def _same_tree(forest, node, ref):
    """The forest's subtree at ``node`` is the reference's, node for node."""
    assert forest.score[node] == pytest.approx(2 * ref["p"] - 1, abs=1e-12)
    if "feature" not in ref:
        assert forest.left[node] < 0
        return
    assert forest.feature[node] == ref["feature"]
    assert forest.threshold[node] == ref["threshold"]
    _same_tree(forest, forest.left[node], ref["left"])
    _same_tree(forest, forest.right[node], ref["right"])


@SETTINGS
@given(problem=priced_problems(rows=(10, 40), attributes=(2, 4)), depth=st.integers(1, 4))
def test_cost_weighted_tree_is_the_recursive_definition(problem, depth):
    """A one-tree cost-weighted forest on every column (no draw at the nodes) is the tree
    the recursive definition grows on its bootstrap sample (the counts of ``n`` draws of
    the forest's generator), split for split and score for score, under per-column prices,
    grouped ones and Turney's discount groups."""
    X, y, params = problem
    groups = np.asarray(params["feature_groups"])
    # the contract's prices of the groups, as every fit reads them
    pricing = BudgetPrune(tradeoffs=0.0, validation_fraction=0, **params).fit(X, y).pricing_
    ypm = np.where(y > 0, 1.0, -1.0)
    forest = budget_prune.grow_cost_weighted_forest(
        X,
        ypm,
        groups,
        pricing,
        1.0,
        n_estimators=1,
        max_features=None,
        max_depth=depth,
        min_samples_leaf=2,
        seed=11,
    )
    counts = np.bincount(np.random.default_rng(11).integers(0, y.size, y.size), minlength=y.size)
    ref = ref_grow(X.astype(np.float32), ypm, counts, groups, pricing, depth, 2)
    _same_tree(forest, 0, ref)


def test_cost_weighted_prefers_what_the_path_paid_for():
    """Column 0 agrees with the label on 90 % of rows, column 2 on 85 %, column 1 is noise.
    At equal prices the root splits on column 0; below it a split on column 2 reduces the
    impurity most, yet a tree whose column 1 belongs to column 0's attribute re-reads that
    attribute (its price is 0 there); with three attributes, column 2. Priced 10 against 1,
    the root is column 2 (its reduction per unit of price is the larger)."""
    from budgetboost.estimators.contract.pricing import Pricing

    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, 400)
    X = np.column_stack(
        [np.where(rng.random(400) < 0.9, y, 1 - y), rng.integers(0, 2, 400)]
        + [np.where(rng.random(400) < 0.85, y, 1 - y)]
    ).astype(float)
    ypm = np.where(y > 0, 1.0, -1.0)

    def tree(groups, prices):
        return budget_prune.grow_cost_weighted_forest(
            X,
            ypm,
            np.asarray(groups),
            Pricing.plain(np.asarray(prices, dtype=float)),
            1.0,
            n_estimators=1,
            max_features=None,
            max_depth=2,
            min_samples_leaf=1,
            seed=0,
        )

    one_attribute = tree([0, 0, 1], [1, 1])
    three = tree([0, 1, 2], [1, 1, 1])
    assert one_attribute.feature[0] == three.feature[0] == 0
    children = [one_attribute.left[0], one_attribute.right[0]]
    assert list(one_attribute.feature[children]) == [1, 1]
    assert list(three.feature[[three.left[0], three.right[0]]]) == [2, 2]
    assert tree([0, 1, 2], [10, 1, 1]).feature[0] == 2


@pytest.mark.parametrize("kind", ["per_column", "grouped", "discount_groups"])
def test_both_forests_keep_the_contract(kind):
    """With both forests (each configuration a (forest, ``lambda``)), every test example at
    every budget walks the forest of its budget's configuration as the per-example loop
    does, paying (at the contract's prices) for each group before it reads it and never
    more than the budget; the reported costs and predictions are those of the loop."""
    X, y, params = _cost_problem(kind)
    model = BudgetPrune(n_estimators=5, max_depth=4, forest="both", random_state=4, **params)
    model.fit(X[:200], y[:200])
    np.testing.assert_array_equal(model.forests_, np.repeat(["random", "cost_weighted"], 4))
    X_test, y_test = X[200:], y[200:]
    budgets = np.array([0.0, 0.1, 0.5, 1.0, 2.0, 3.5, 5.0, 8.0, 20.0, np.inf])
    report = model.evaluate_at_budgets(X_test, y_test, budgets)
    predictions = model.predict_at_budgets(X_test, budgets)
    config, _ = model.choice_.at(budgets)
    for b, budget in enumerate(budgets):
        if config[b] < 0:
            continue
        pruned = model.refits_[int(config[b])]
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


def test_forest_and_lambda_chosen_by_brute_force_over_the_grid():
    """Every (forest, ``lambda``) of the grid (forest-major) is pruned from a forest of the
    fit part; its validation error at each budget of the validation grid, counted row by
    row with the walk written per example, is what the fit recorded; at each budget the
    first configuration of fewest errors is chosen (a loop over the grid); the chosen ones
    are pruned again at their ``lambda`` on their kind of forest grown on all rows; and the
    cost-blind forest is the default's."""
    X, y, costs = _budget_problem(6, 160)
    settings_ = {"n_estimators": 4, "max_depth": 3, "tradeoffs": [0.0, 0.1, 0.5]}
    model = BudgetPrune(feature_costs=costs, random_state=3, forest="both", **settings_).fit(X, y)
    np.testing.assert_array_equal(model.tradeoffs_, np.tile([0.0, 0.1, 0.5], 2))
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
    best = [int(np.flatnonzero(errors[:, b] == errors[:, b].min())[0]) for b in range(budgets.size)]
    np.testing.assert_array_equal(model.chosen_forests(budgets), model.forests_[best])
    np.testing.assert_array_equal(model.chosen_tradeoffs(budgets), model.tradeoffs_[best])
    for k, refit in model.refits_.items():
        assert refit.tradeoff == model.tradeoffs_[k]
        assert refit.forest.roots.size == 4
    default = BudgetPrune(feature_costs=costs, random_state=3, **settings_).fit(X, y)
    for a, b in zip(model.models_[:3], default.models_, strict=True):
        np.testing.assert_array_equal(a.forest.feature, b.forest.feature)
        np.testing.assert_array_equal(a.split, b.split)


def test_cost_weighted_is_reproducible_and_seeded():
    """The same random_state gives the same bytes with the cost-weighted forest (its
    nodes' columns drawn); another one does not."""
    X, y, costs = _budget_problem(1, 200)
    budgets = [0.0, 0.2, 0.5, 1.0, 2.0, 4.0, 8.0, np.inf]
    settings_ = {"n_estimators": 5, "max_depth": 4, "feature_costs": costs, "max_features": 0.5}
    fits = [
        BudgetPrune(forest="cost_weighted", random_state=s, **settings_).fit(X, y)
        for s in (7, 7, 8)
    ]
    digests = [_digest(_fingerprint(m, X, y, budgets)) for m in fits]
    assert digests[0] == digests[1] != digests[2]


# ------------------------------------------------------------------ the mean-cost operating point
@pytest.mark.parametrize("kind", ["per_column", "discount_groups"])
def test_mean_cost_points_chosen_on_validation_by_brute_force(kind):
    """``operating_point="mean_cost"``: each configuration's pruned forest walked in full by
    every validation row (the loop per example), its errors and its dearest walk; at each
    budget the configuration of fewest errors among those whose dearest walk fits (ties:
    the cheaper, then the earlier), the empty model where none fits: what is chosen. The
    test rows then walk the chosen forest in full wherever their walk fits the budget (the
    score and the cost of the unbudgeted walk)."""
    X, y, params = _cost_problem(kind)
    model = BudgetPrune(
        n_estimators=4, max_depth=3, operating_point="mean_cost", random_state=2, **params
    ).fit(X[:200], y[:200])
    assert model.tradeoffs_.size == len(budget_prune.MEAN_COST_TRADEOFFS)
    val = model.validation_rows_
    error, dearest, mean = [], [], []
    for pruned in model.models_:
        wrong, spent = 0, []
        for i in val:
            stops, _, cost = ref_walk(pruned.forest, pruned.split, X[i], np.inf, model.pricing_)
            wrong += (ref_score(pruned.forest, stops, model.majority_) > 0) != (
                y[i] == model.classes_[1]
            )
            spent.append(cost)
        error.append(wrong / val.size)
        dearest.append(max(spent))
        mean.append(np.mean(spent))
    np.testing.assert_allclose(np.concatenate(model.validation_error_), error, atol=1e-12)
    np.testing.assert_allclose(model.validation_budgets_, dearest, atol=1e-12)
    np.testing.assert_allclose(model.validation_mean_cost_, mean, atol=1e-12)
    budgets = np.unique(np.concatenate([[0.0, np.inf], dearest, np.linspace(0, 12, 25)]))
    empty = np.mean((model.majority_ > 0) != (y[val] == model.classes_[1]))
    want = []
    for budget in budgets:
        fits = [(error[c], dearest[c], c) for c in range(len(error)) if dearest[c] <= budget]
        best = min(fits + [(empty, 0.0, -1)] if empty <= min(fits, default=(2,))[0] else fits)
        want.append(best[2])
    config, _ = model.choice_.at(budgets)
    np.testing.assert_array_equal(config, want)
    chosen = np.where(np.asarray(want) >= 0, model.tradeoffs_[np.maximum(want, 0)], np.nan)
    np.testing.assert_array_equal(model.chosen_tradeoffs(budgets), chosen)
    predictions = model.predict_at_budgets(X[200:], budgets)
    report = model.evaluate_at_budgets(X[200:], y[200:], budgets)
    for b, c in enumerate(config):
        if c < 0:
            assert report.max_example_cost[b] == 0
            continue
        pruned = model.refits_[int(c)]
        spent = []
        for i, x in enumerate(X[200:]):
            stops, _, free_cost = ref_walk(pruned.forest, pruned.split, x, np.inf, model.pricing_)
            if free_cost <= budgets[b]:  # the full walk fits: served in full
                score = ref_score(pruned.forest, stops, model.majority_)
                assert predictions[b, i] == model.classes_[int(score > 0)]
            spent.append(min(free_cost, budgets[b]) if free_cost <= budgets[b] else None)
        fitting = [s for s in spent if s is not None]
        assert report.max_example_cost[b] <= budgets[b]
        if len(fitting) == len(spent):
            assert report.mean_example_cost[b] == pytest.approx(np.mean(fitting), abs=1e-12)


def test_mean_cost_leaves_the_hard_cap_alone():
    """The two operating points grow and prune the same forests at a common ``lambda``;
    only the choice differs, and the hard cap's choice is the default's, byte for byte."""
    X, y, costs = _budget_problem(3, 240)
    grid = [0.0, 0.05, 0.3]
    common = {"feature_costs": costs, "random_state": 1, "tradeoffs": grid}
    cap = BudgetPrune(**common).fit(X[:160], y[:160])
    mean = BudgetPrune(operating_point="mean_cost", **common).fit(X[:160], y[:160])
    for a, b in zip(cap.models_, mean.models_, strict=True):
        np.testing.assert_array_equal(a.split, b.split)
    default = BudgetPrune(**common, operating_point="hard_cap").fit(X[:160], y[:160])
    budgets = [0.0, 0.5, 1.0, 3.0, np.inf]
    for a, b in zip(
        _fingerprint(cap, X[160:], y[160:], budgets),
        _fingerprint(default, X[160:], y[160:], budgets),
        strict=True,
    ):
        np.testing.assert_array_equal(a, b)
