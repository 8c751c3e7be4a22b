"""Real test costs with Turney's discount groups: the price, the contract, every
method charged per example, Turney's heart costs, tests not offered.

The loop reference (:func:`turney_price`) is Turney's own rule as his ``.expense`` file states
it, order by order: "The full cost is charged when the given test is the first test of its
group that has been ordered for a given patient. The discount cost is charged when the given
test is the second or later test of its group". The package prices a set instead (the shared
parts of the touched groups plus each test's discount price, vectorised): the two must agree.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import CRITERIA, examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetboost.estimators.boosting.booster import BudgetedBoost, adaboost_path
from budgetboost.estimators.boosting.sampling import AdaBoostRS
from budgetboost.estimators.boosting.tuned_boost import TunedBoost
from budgetboost.estimators.contract.base import BudgetedEstimator
from budgetboost.estimators.contract.checks import BUDGET_TOLERANCE
from budgetboost.estimators.contract.params import InvalidParameterError
from budgetboost.estimators.contract.pricing import Pricing
from budgetboost.estimators.contract.validation import check_discount_groups, check_feature_groups
from budgetboost.estimators.trees.budgeted_tree import BudgetedTree


# ------------------------------------------------------------------ the loop reference
def turney_price(tests, cost, discount, group) -> float:
    """What one patient pays for the tests ordered, in order (Turney's ``.expense`` rule):
    a test's full cost if it is the first of its group ordered for the patient (or has no
    group), its discount cost after; a test ordered again costs nothing more."""
    total, ordered, opened = 0.0, set(), set()
    for a in tests:
        if a in ordered:
            continue
        ordered.add(a)
        g = group[a]
        if g < 0:
            total += cost[a]
        elif g in opened:
            total += discount[a]
        else:
            total += cost[a]
            opened.add(g)
    return total


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


# ------------------------------------------------------------------ random priced problems
@st.composite
def priced(draw, max_attributes: int = 6):
    """A small 0/1 problem, 1-3 threshold indicators per attribute, and Turney-like prices:
    random discount groups, each with a shared part, and a discount price per test."""
    n_attr = draw(st.integers(2, max_attributes))
    m = draw(st.integers(12, 40))
    seed = draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    raw = rng.integers(0, 4, size=(m, n_attr))
    y = np.where(raw[:, 0] + rng.integers(0, 3, size=m) >= 3, 1, -1)
    if np.unique(y).size < 2:
        y[:2] = [1, -1]
    columns, groups = [], []
    for a in range(n_attr):
        for t in range(1, 1 + draw(st.integers(1, 3))):
            columns.append(raw[:, a] >= t)
            groups.append(a)
    X = np.column_stack(columns).astype(np.float64)
    groups = np.asarray(groups)
    n_dg = draw(st.integers(0, 3))
    dg = np.array(draw(st.lists(st.integers(-1, n_dg - 1), min_size=n_attr, max_size=n_attr)))
    shared = np.round(rng.uniform(0, 5, size=max(n_dg, 1)), 2)
    discount = np.round(rng.uniform(0, 2, size=n_attr), 2)
    cost = np.where(
        dg >= 0, shared[np.maximum(dg, 0)] + discount, np.round(rng.uniform(0, 3, size=n_attr), 2)
    )
    discount = np.where(dg >= 0, discount, cost)
    return X, y, groups, cost, dg, discount


def _params(cost, dg, discount, groups) -> dict:
    return {
        "feature_costs": cost[groups],
        "feature_groups": groups,
        "discount_groups": dg[groups],
        "discount_costs": discount[groups],
    }


def _budgets(cost) -> np.ndarray:
    total = float(cost.sum())
    return np.unique(np.round(np.linspace(0.0, total + 1.0, 9), 3))


# ------------------------------------------------------------------ the price
@given(problem=priced(), order_seed=st.integers(0, 1000))
@settings(max_examples=examples(60), suppress_health_check=[HealthCheck.too_slow])
def test_the_set_price_is_turneys_order_rule(problem, order_seed):
    """Every way the package prices a set (a set, rows of sets, a sequence of reads, step by
    step) gives what Turney's rule charges in any order."""
    _, _, _, cost, dg, discount = problem
    pricing = _pricing(cost, dg, discount)
    rng = np.random.default_rng(order_seed)
    n = cost.size
    reads = rng.integers(0, n, size=rng.integers(0, 3 * n + 1))  # repeats: paid once
    distinct = np.unique(reads)
    expected = turney_price(reads.tolist(), cost, discount, dg)
    assert _close(pricing.set_cost(distinct), expected)
    rows = rng.random((5, n)) < 0.5
    reference = [turney_price(np.flatnonzero(r).tolist(), cost, discount, dg) for r in rows]
    np.testing.assert_allclose(pricing.set_costs(rows, np.arange(n)), reference, atol=1e-9)
    first = np.zeros(reads.size, dtype=bool)
    first[np.unique(reads, return_index=True)[1]] = True
    steps = np.cumsum(pricing.first_use(reads, first))
    prefix = [turney_price(reads[: t + 1].tolist(), cost, discount, dg) for t in range(reads.size)]
    np.testing.assert_allclose(steps, prefix, atol=1e-9)
    touched = pricing.untouched()
    order = list(dict.fromkeys(reads.tolist()))
    assert _close(sum(pricing.sequence(order, touched), 0.0), expected)
    assert _close(pricing.added(np.asarray(order, dtype=np.intp), touched), expected)


def _pricing(cost, dg, discount) -> Pricing:
    n = cost.size
    goc, gc = check_feature_groups(np.arange(n), cost)
    return check_discount_groups(dg, discount, cost, goc, gc)


def test_marginal_prices_of_a_test():
    """0 once paid, the discount once its group is touched, discount + shared (its price
    alone) before, the cost outside a group: heart's exercise ECG (group C)."""
    cost = np.array([87.3, 87.3, 87.3, 15.5])
    discount = np.array([1.0, 1.0, 1.0, 15.5])
    dg = np.array([0, 0, 0, -1])
    pricing = _pricing(cost, dg, discount)
    touched = pricing.untouched()
    assert pricing.sequence([0, 1, 3], touched) == pytest.approx([87.3, 1.0, 15.5])
    np.testing.assert_allclose(pricing.prices(touched), cost)
    pricing.touch(touched, [0])
    np.testing.assert_allclose(pricing.prices(touched), [1.0, 1.0, 1.0, 15.5])
    assert pricing.set_cost(np.array([0, 1, 2])) == pytest.approx(89.3)


# ------------------------------------------------------------------ the contract's check
@pytest.mark.parametrize(
    "change, parameter, reason",
    [
        ({"discount_costs": None}, "discount_costs", "must be given with discount_groups"),
        ({"discount_groups": [0, 0, 1]}, "discount_groups", "one entry per column of X (4)"),
        ({"discount_groups": [0.5, 0, -1, -1]}, "discount_groups", "must hold integers"),
        (
            {"discount_costs": [9, 1, 1, 1]},
            "discount_costs",
            "column 0's discount price 9.0 exceeds",
        ),
        (
            {"discount_groups": [0, 1, -1, -1]},
            "discount_groups",
            "columns 0 and 1 of one feature group",
        ),
        (
            {"discount_costs": [1, 1, 1, 4]},
            "discount_costs",
            "discount group 0 share different parts",
        ),
    ],
)
def test_bad_discount_groups_name_the_parameter(change, parameter, reason):
    X = np.array([[0, 1, 0, 1], [1, 0, 1, 0], [1, 1, 0, 0], [0, 0, 1, 1]], dtype=float)
    params = {
        "feature_costs": [5.0, 5.0, 3.0, 5.0],
        "feature_groups": [0, 0, 1, 2],
        "discount_groups": [0, 0, -1, 0],
        "discount_costs": [1.0, 1.0, 3.0, 1.0],
        **change,
    }
    with pytest.raises(InvalidParameterError) as err:
        BudgetedBoost(**params).fit(X, [0, 1, 0, 1])
    assert err.value.parameter == parameter and reason in err.value.reason


def test_no_discount_group_is_the_plain_price_bit_for_bit():
    """Discount groups that group nothing (every label negative) leave a fit as it is."""
    rng = np.random.default_rng(3)
    X = (rng.random((60, 8)) < 0.5).astype(float)
    y = np.where(X[:, 0] + X[:, 3] + rng.random(60) > 1.2, 1, -1)
    cost = rng.uniform(0, 2, size=8)
    for make in (
        lambda: BudgetedBoost(criterion="smoothed", max_rounds=30, budget=6.0),
        lambda: BudgetedTree(cost_sensitive=True, random_state=1),
        lambda: AdaBoostRS(n_rounds=30, cost_weighted=True, random_state=2),
    ):
        plain = make().set_params(feature_costs=cost).fit(X, y)
        none = make().set_params(
            feature_costs=cost, discount_groups=np.full(8, -1), discount_costs=cost / 2
        )
        none.fit(X, y)
        a, b = plain.evaluate_at_budgets(X, y, [1, 3, 6]), none.evaluate_at_budgets(X, y, [1, 3, 6])
        for field, value in a.as_dict().items():
            np.testing.assert_array_equal(value, getattr(b, field), err_msg=field)


# ------------------------------------------------------------------ every family, charged
def _families(seed: int) -> list[BudgetedEstimator]:
    return [
        *(BudgetedBoost(criterion=c, max_rounds=15) for c in CRITERIA),
        BudgetedBoost(criterion="greedy", max_rounds=6, weak_learner="tree", max_depth=2),
        BudgetedBoost(criterion="smoothed", max_rounds=6, weak_learner="tree", max_depth=3),
        TunedBoost(criterion="smoothed", max_rounds=10, tau=(0.5, 1.0), random_state=seed),
        AdaBoostRS(n_rounds=15, max_draws=200, random_state=seed),
        AdaBoostRS(n_rounds=15, cost_weighted=True, max_draws=200, random_state=seed),
        BudgetedTree(),
        BudgetedTree(cost_sensitive=True, random_state=seed),
    ]


def _peers(seed: int) -> list[BudgetedEstimator]:
    lightgbm = pytest.importorskip("budgetboost.estimators.peers.lightgbm_peer")
    catboost = pytest.importorskip("budgetboost.estimators.peers.catboost_peer")
    return [
        lightgbm.BudgetedLightGBM(n_estimators=12, max_depth=2, random_state=seed),
        catboost.BudgetedCatBoost(iterations=12, depth=2, random_state=seed),
    ]


def _within(evaluation, budgets) -> None:
    limit = budgets + BUDGET_TOLERANCE * np.maximum(1.0, budgets)
    assert np.all(evaluation.spent <= limit)
    assert np.all(evaluation.max_example_cost <= limit)
    assert np.all(evaluation.mean_example_cost <= evaluation.max_example_cost + 1e-12)


@given(problem=priced())
@settings(max_examples=examples(12), suppress_health_check=[HealthCheck.too_slow])
def test_every_family_stays_within_the_budget_under_grouped_costs(problem):
    """BudgetedBoost (every criterion, stumps and trees), TunedBoost, AdaBoostRS and RS_AC,
    BudgetedTree plain and cost-sensitive: spent and every example's cost at most the budget,
    whether fitted at the largest budget (one anytime fit) or at each budget."""
    X, y, groups, cost, dg, discount = problem
    budgets = _budgets(cost)
    for estimator in _families(0):
        estimator.set_params(**_params(cost, dg, discount, groups))
        _within(
            estimator.set_params(budget=budgets[-1]).fit(X, y).evaluate_at_budgets(X, y, budgets),
            budgets,
        )
        for b in budgets[1:-1:3]:
            _within(
                estimator.set_params(budget=b).fit(X, y).evaluate_at_budgets(X, y, [b]),
                np.array([b]),
            )


@given(problem=priced(max_attributes=4))
@settings(max_examples=examples(5), suppress_health_check=[HealthCheck.too_slow])
def test_the_peers_stay_within_the_budget_under_grouped_costs(problem):
    """LightGBM's and CatBoost's penalties know no discount groups; their choice per budget
    and their evaluation use the grouped price, so no budget is exceeded."""
    X, y, groups, cost, dg, discount = problem
    budgets = _budgets(cost)
    for estimator in _peers(0):
        estimator.set_params(**_params(cost, dg, discount, groups))
        _within(estimator.fit(X, y).evaluate_at_budgets(X, y, budgets), budgets)


@given(problem=priced())
@settings(max_examples=examples(15), suppress_health_check=[HealthCheck.too_slow])
def test_boosters_and_trees_are_charged_turneys_price_per_example(problem):
    """Against the loop reference: a stump prefix costs its groups in round order; an example
    of boosted trees pays for the groups on its paths through the prefix; an example of a
    pruned tree for those on its path; a CatBoost prefix for its trees' groups."""
    X, y, groups, cost, dg, discount = problem
    params = _params(cost, dg, discount, groups)
    budgets = _budgets(cost)

    def reference(group_lists):
        return [turney_price(g, cost, discount, dg) for g in group_lists]

    for criterion in CRITERIA:
        model = BudgetedBoost(criterion=criterion, max_rounds=15, **params).fit(X, y)
        prefixes = [model.group_[:k].tolist() for k in range(1, model.group_.size + 1)]
        np.testing.assert_allclose(model.spent_, reference(prefixes), atol=1e-9)
    tree = BudgetedBoost(criterion="greedy", max_rounds=6, weak_learner="tree", **params)
    tree.fit(X, y)
    charged = tree.evaluate_at_budgets(X, y, budgets)
    for b, k in enumerate(tree.rounds_at_budgets(budgets)):
        per_example = []
        for i in range(X.shape[0]):
            read = []  # the groups on the example's paths through the first k trees, in order
            for t in range(k):
                node = 0
                while node < tree.tree_feature_.shape[1] and tree.tree_feature_[t, node] >= 0:
                    read.append(int(tree.tree_group_[t, node]))
                    up = X[i, tree.tree_feature_[t, node]] >= tree.tree_threshold_[t, node]
                    node = 2 * node + 1 + int(up)
            per_example.append(turney_price(read, cost, discount, dg))
        assert _close(charged.mean_example_cost[b], float(np.mean(per_example)))
        assert _close(charged.max_example_cost[b], float(np.max(per_example)))
    cart = BudgetedTree(**params).fit(X, y)
    charged = cart.evaluate_at_budgets(X, y, [np.inf])
    per_example = []
    for i in range(X.shape[0]):
        node, read = 0, []
        while cart.feature_[node] >= 0:
            read.append(int(groups[cart.feature_[node]]))
            up = X[i, cart.feature_[node]] >= cart.threshold_[node]
            node = cart.children_right_[node] if up else cart.children_left_[node]
        per_example.append(turney_price(read, cost, discount, dg))
    assert _close(charged.mean_example_cost[0], float(np.mean(per_example)))
    assert _close(charged.max_example_cost[0], float(np.max(per_example)))


@given(problem=priced(), budget=st.floats(0, 12))
@settings(max_examples=examples(25), suppress_health_check=[HealthCheck.too_slow])
def test_the_shared_adaboost_path_is_cut_as_boosting_anew_under_discount_groups(problem, budget):
    """One AdaBoost path per trial serves every cost model: cut under grouped prices it is
    the path AdaBoostBT boosts anew under them, bit for bit."""
    X, y, groups, cost, dg, discount = problem
    params = {**_params(cost, dg, discount, groups), "criterion": "adaboost", "max_rounds": 12}
    shared = adaboost_path(X, y, 12)
    anew = BudgetedBoost(budget=budget, **params).fit(X, y)
    cut = BudgetedBoost(budget=budget, adaboost_path=shared, **params).fit(X, y)
    for name in ("feature_", "threshold_", "alpha_", "spent_", "n_features_used_"):
        np.testing.assert_array_equal(getattr(anew, name), getattr(cut, name), err_msg=name)
    assert anew.stop_reason_ == cut.stop_reason_


def test_the_peers_prefixes_are_charged_turneys_price():
    """Each prefix of a peer's trees (CatBoost: every example reads every split, so its cost)
    costs the loop reference's price of its groups in tree order."""
    rng = np.random.default_rng(5)
    X = (rng.random((80, 12)) < 0.5).astype(float)
    y = np.where(X[:, 0] + X[:, 5] + X[:, 9] + rng.random(80) > 1.6, 1, -1)
    groups = np.arange(12) // 2
    cost = np.array([3.0, 2.5, 1.0, 6.0, 6.5, 2.0])
    dg = np.array([0, 0, -1, 1, 1, -1])
    discount = np.array([1.0, 0.5, 1.0, 2.0, 2.5, 2.0])
    params = _params(cost, dg, discount, groups)
    for peer in _peers(0):
        peer.set_params(**params).fit(X, y)
        for index, model in peer.refits_.items():
            trees = [
                list(dict.fromkeys(peer.encoding_.group[c].tolist())) for c in model.tree_columns()
            ]
            expected = [
                turney_price(sum(trees[:k], []), cost, discount, dg) for k in range(len(trees) + 1)
            ]
            np.testing.assert_allclose(peer.refit_prefix_cost_[index], expected, atol=1e-9)


def test_rs_ac_samples_by_the_price_given_what_the_example_paid():
    """With shared parts of 0, the price given any state is the full price: RS_AC's sampling
    by state draws, pays and votes exactly as the plain sampler; with a shared part, an
    example that has touched a group draws its tests at their discount price."""
    rng = np.random.default_rng(11)
    X = (rng.random((120, 10)) < 0.5).astype(float)
    y = np.where(X[:, 0] + X[:, 4] + rng.random(120) > 1.3, 1, -1)
    dg = np.array([0, 0, 0, 1, 1, -1, -1, 1, 0, -1])
    discount = rng.uniform(0.2, 1.0, size=10)
    cost = np.where(dg >= 0, np.array([1.0, 0.6])[np.maximum(dg, 0)] + discount, discount)
    budgets = [0.0, 1.0, 2.5, 5.0, 9.0]
    plain = AdaBoostRS(n_rounds=25, cost_weighted=True, random_state=4, feature_costs=cost)
    zero = AdaBoostRS(
        n_rounds=25,
        cost_weighted=True,
        random_state=4,
        feature_costs=cost,
        discount_groups=dg,
        discount_costs=cost,
    )
    a = plain.fit(X, y).sample_at_budgets(X, budgets)
    b = zero.fit(X, y).sample_at_budgets(X, budgets)
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    shared = zero.set_params(discount_costs=discount)
    shared.fit(X, y)
    from budgetboost.estimators.boosting.sampling import _DrawPrices

    prices = _DrawPrices(shared, 1)
    _, alone = prices._table(0)
    _, touched = prices._table((1 << prices.k) - 1)
    grouped = prices.dg < prices.k
    np.testing.assert_allclose(touched[grouped], np.maximum(prices.base[grouped], 1e-6))
    np.testing.assert_allclose(alone, np.maximum(prices.base + prices.shared, 1e-6))
