"""Per-example serving of the LightGBM peer (budgetboost.estimators.peers.per_example): the
vectorised pieces against plain loops written from the definitions, the serving against a
loop over examples and trees of LightGBM's own tree dump, the choice on validation served
the same way, the budget contract (per-column, grouped and discount-group costs), and no
example's prediction reading a group it did not pay for."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetboost.estimators.contract.pricing import Pricing
from budgetboost.estimators.contract.tuning import EMPTY_SCORE
from budgetboost.estimators.peers import per_example

from .helpers import priced, problem

lightgbm = pytest.importorskip("lightgbm")

from budgetboost.estimators.peers import BudgetedLightGBM  # noqa: E402


# ---------------------------------------------------------------------- loop references
def walk(tree: dict, x: np.ndarray) -> tuple[list[int], float]:
    """The columns tested on ``x``'s path through one tree of ``Booster.dump_model()``, root
    first, and its leaf's value (LightGBM's rule: left where ``x <= threshold``)."""
    node, columns = tree["tree_structure"], []
    while "split_feature" in node:
        column = int(node["split_feature"])
        assert node["decision_type"] == "<="
        columns.append(column)
        node = node["left_child"] if x[column] <= node["threshold"] else node["right_child"]
    return columns, float(node["leaf_value"])


def serve_one(trees, x, group_of, pricing, budget, cap):
    """One example served per example, in plain loops over the trees: the trees it uses
    (the longest prefix, at most ``cap``, whose groups on its paths cost at most ``budget``),
    their summed leaf values, and the groups it reads (its prefix's, and those it can still
    afford on the path of the first tree that does not fit, up to the first it cannot)."""
    paid, score, used = set(), 0.0, 0
    for tree in trees[:cap]:
        columns, value = walk(tree, x)
        groups = [int(group_of[c]) for c in columns]
        if pricing.set_cost(np.array(sorted(paid | set(groups)), dtype=int)) <= budget:
            paid |= set(groups)
            score += value
            used += 1
            continue
        for g in groups:  # learning that the tree does not fit
            if g in paid:
                continue
            if pricing.set_cost(np.array(sorted(paid | {g}), dtype=int)) > budget:
                break
            paid.add(g)
        break
    return used, score, paid


def reference(est, X, budgets):
    """What each example gets and pays at each budget: (trees, score, price, groups read)."""
    Xl = est.encoding_.transform(X)
    config, cap = est.choice_.at(np.asarray(budgets, dtype=float))
    pricing, group_of = est.pricing_, est.encoding_.group
    out = np.zeros((4, len(budgets), X.shape[0]))
    read = []
    for b, budget in enumerate(budgets):
        read.append([])
        trees = []
        if config[b] >= 0:
            trees = est.refits_[int(config[b])].booster.dump_model()["tree_info"]
        for i, x in enumerate(Xl):
            used, score, paid = serve_one(trees, x, group_of, pricing, budget, int(cap[b]))
            price = pricing.set_cost(np.array(sorted(paid), dtype=int))
            out[:, b, i] = used, score if used else est.majority_ * EMPTY_SCORE, price, len(paid)
            read[-1].append(paid)
    return out, read


def fitted(kind: str, n_trees: int = 25, **params) -> tuple[BudgetedLightGBM, np.ndarray]:
    X, y, _ = problem(n=400)
    est = BudgetedLightGBM(
        n_estimators=n_trees,
        max_depth=3,
        num_leaves=8,
        learning_rate=[0.3, 1.0],
        cegb_tradeoff=[0.0, 0.5],
        charging="example",
        random_state=3,
        **priced(kind),
        **params,
    ).fit(X[:300], y[:300])
    return est, X[300:]


KINDS = ["columns", "groups", "discounts"]


# ---------------------------------------------------------------------- the pieces
@st.composite
def sorted_rows(draw):
    """A (rows, length) array of halves in [0, 3], each row non-decreasing."""
    n_rows, length = draw(st.integers(0, 5)), draw(st.integers(0, 6))
    cells = draw(st.lists(st.integers(0, 6), min_size=n_rows * length, max_size=n_rows * length))
    return np.sort(np.array(cells, dtype=float).reshape(n_rows, length) / 2, axis=1)


@given(rows=sorted_rows(), values=st.lists(st.integers(-1, 7), min_size=0, max_size=6))
def test_count_at_most_counts_each_rows_entries_at_most_each_value(rows, values):
    values = np.array(values, dtype=float) / 2
    got = per_example.count_at_most(rows, values)
    expected = [[sum(e <= v for e in row) for v in values] for row in rows]
    assert got.shape == (rows.shape[0], values.size)
    np.testing.assert_array_equal(got, np.array(expected, dtype=int).reshape(got.shape))


@pytest.mark.parametrize("kind", KINDS)
def test_prefix_costs_are_the_price_of_the_groups_read_so_far(kind):
    rng = np.random.default_rng(1)
    params = priced(kind)
    est = BudgetedLightGBM(n_estimators=2, random_state=0, **params)
    pricing = est.fit(*problem(n=60)[:2]).pricing_
    used = np.array([0, 2, 3, 5])
    n_trees = 6
    first = rng.integers(0, n_trees + 1, size=(9, used.size))  # n_trees: never read
    costs = per_example.prefix_costs(first, n_trees, used, pricing)
    counts = per_example.prefix_group_counts(first, n_trees)
    for i in range(first.shape[0]):
        for k in range(n_trees + 1):
            read = [int(g) for g, t in zip(used, first[i], strict=True) if t < k]
            assert costs[i, k] == pytest.approx(pricing.set_cost(np.array(read, dtype=int)))
            assert counts[i, k] == len(read)
    assert np.all(np.diff(costs, axis=1) >= 0)


@given(
    seed=st.integers(0, 10_000),
    n=st.integers(1, 7),
    trees=st.integers(0, 5),
    n_budgets=st.integers(1, 6),
)
@settings(max_examples=examples(80), suppress_health_check=[HealthCheck.too_slow])
def test_errors_by_cap_serve_every_example_its_capped_affordable_prefix(seed, n, trees, n_budgets):
    rng = np.random.default_rng(seed)
    steps = rng.choice([0.0, 0.5, 1.0], size=(n, trees))
    costs = np.concatenate([np.zeros((n, 1)), np.cumsum(steps, axis=1)], axis=1)
    wrong = rng.integers(0, 2, size=(trees + 1, n))
    loss = rng.random((trees + 1, n))
    budgets = np.sort(rng.choice(np.arange(0.0, 3.5, 0.5), size=n_budgets))
    errors, losses = per_example.errors_by_cap(costs, wrong, loss, budgets)
    for m in range(trees + 1):
        for b, budget in enumerate(budgets):
            count, total = 0, 0.0
            for i in range(n):
                k = 0
                while k < m and costs[i, k + 1] <= budget:
                    k += 1
                count += wrong[k, i]
                total += loss[k, i]
            assert errors[m, b] == count
            assert losses[m, b] == pytest.approx(total)


def test_the_choice_takes_fewest_errors_then_loss_then_trees_then_configuration():
    budgets = np.array([0.0, 1.0, 2.0, 3.0])
    empty = (5, 3.0)
    # configuration 0: caps 1, 2; configuration 1: caps 1, 2
    first = (np.array([[5] * 4, [4, 4, 3, 3], [4, 4, 3, 2]]), np.ones((3, 4)))
    second = (
        np.array([[5] * 4, [6, 4, 3, 2], [6, 4, 3, 2]]),
        np.array([[1.0] * 4, [1, 1, 1, 0.5], [1, 1, 0.5, 0.5]]),
    )
    choice, best = per_example.choose_per_example(budgets, empty, [first, second])
    config, cap = choice.at(budgets)
    # 0: config 0 cap 1 (fewer errors); 1: a tie of errors and loss: config 0, cap 1 (the
    # earlier); 2: config 1 cap 2 (lower loss); 3: config 1 cap 1 (fewest trees of the best)
    np.testing.assert_array_equal(config, [0, 0, 1, 1])
    np.testing.assert_array_equal(cap, [1, 1, 2, 1])
    np.testing.assert_array_equal(best, [[4, 4, 3, 2], [5, 4, 3, 2]])  # the empty: 5
    choice, _ = per_example.choose_per_example(budgets, (1, 9.0), [first, second])
    np.testing.assert_array_equal(choice.config, [-1])  # nothing beats the empty model


def test_the_walk_reads_what_it_can_afford_up_to_the_first_group_it_cannot():
    pricing = Pricing(
        cost=np.array([1.0, 1.1, 2.0, 0.5]),
        discount_group=np.array([0, 0, -1, -1]),
        base=np.array([0.6, 0.7, 2.0, 0.5]),
        shared=np.array([0.4]),
    )
    used = np.array([0, 1, 2, 3])
    first = np.array([[9, 9, 9, 0], [0, 9, 9, 9]])  # example 0 read group 3, example 1 group 0
    # example 0 walks groups 3 (paid), 0 (1.0 alone), 1 (0.7: group 0 touched it), 2 (2.0)
    path = np.array([[3, 0, 1, 2], [1, 2, 3, -1], [3, 0, 1, 2]])
    example = np.array([0, 1, 0])
    tree = np.array([1, 1, 1])
    budget = np.array([2.5, 1.75, 1.2])
    paid = np.array([0.5, 1.0, 0.5])
    total, new = per_example.walk_charges(path, first, used, example, tree, budget, paid, pricing)
    # walk 0: 0.5 + 1.0 + 0.7 = 2.2, then 2.0 does not fit; walk 1: group 1 costs 0.7 (its
    # discount group touched by group 0 in the prefix), then group 2 does not fit; walk 2:
    # 0.5 + 1.0 = 1.5 > 1.2: stops at group 0
    np.testing.assert_allclose(total, [2.2, 1.7, 0.5])
    np.testing.assert_array_equal(new, [2, 1, 0])


# ---------------------------------------------------------------------- serving
@pytest.mark.parametrize("kind", KINDS)
def test_serving_is_the_loop_reference_and_within_every_budget(kind):
    est, Xt = fitted(kind)
    total = est.pricing_.set_cost(np.arange(est.pricing_.cost.size))
    budgets = np.round(np.linspace(0.0, total, 40) + 0.0137, 4)
    expected, _ = reference(est, Xt, budgets)
    scores, costs = est._scores_and_costs(est._validated(Xt), budgets)
    used, score, price, groups = expected
    np.testing.assert_allclose(scores, score, rtol=0, atol=1e-9)
    np.testing.assert_allclose(costs.rounds, used.mean(axis=1))
    np.testing.assert_allclose(costs.mean_example_cost, price.mean(axis=1), atol=1e-9)
    np.testing.assert_allclose(costs.max_example_cost, price.max(axis=1), atol=1e-9)
    np.testing.assert_allclose(costs.spent, price.max(axis=1), atol=1e-9)
    np.testing.assert_allclose(costs.n_features, groups.mean(axis=1))
    assert np.all(costs.max_example_cost <= budgets)
    # examples differ: not every example pays what the most expensive one does
    assert np.any(costs.mean_example_cost < costs.max_example_cost - 1e-9)
    ev = est.evaluate_at_budgets(Xt, problem(n=400)[1][300:], budgets)
    assert np.all(ev.spent <= budgets) and np.all(ev.max_example_cost <= budgets)


@pytest.mark.parametrize("kind", KINDS)
def test_a_prediction_reads_no_group_the_example_did_not_pay_for(kind):
    """Every column of a group an example did not read at a budget is given another value
    (the other rows' values, rolled): no prediction at that budget changes."""
    est, Xt = fitted(kind)
    total = est.pricing_.set_cost(np.arange(est.pricing_.cost.size))
    budgets = np.round(np.linspace(0.0, total, 9)[1:-1] + 0.0137, 4)
    _, read = reference(est, Xt, budgets)
    group_of_column = np.asarray(est.feature_groups) if kind != "columns" else np.arange(12)
    changed = 0
    for b, budget in enumerate(budgets):
        before = est.predict_at_budgets(Xt, [budget])[0]
        for shift in (1, 7):
            other = np.roll(Xt, shift, axis=0)
            unread = np.array([[g not in r for g in group_of_column] for r in read[b]])
            perturbed = np.where(unread, other, Xt)
            changed += int(np.sum(perturbed != Xt))
            np.testing.assert_array_equal(est.predict_at_budgets(perturbed, [budget])[0], before)
    assert changed  # the perturbation touched something


@pytest.mark.parametrize("kind", KINDS)
def test_the_groups_read_are_the_loop_references(kind):
    """``groups_read`` (what a train job's check asks) is, example by example, the set the
    loop reference reads: its prefix's paths and the walk that stopped it; its price is
    what the example is charged."""
    est, Xt = fitted(kind)
    total = est.pricing_.set_cost(np.arange(est.pricing_.cost.size))
    budgets = np.round(np.linspace(0.0, total, 17) + 0.0137, 4)
    expected, read = reference(est, Xt, budgets)
    reads = est.groups_read(Xt, budgets)
    assert reads.shape == (budgets.size, Xt.shape[0], est.pricing_.cost.size)
    for b in range(budgets.size):
        for i, paid in enumerate(read[b]):
            assert set(np.flatnonzero(reads[b, i]).tolist()) == paid, (budgets[b], i)
    prices = np.array([[est.pricing_.set_cost(np.flatnonzero(r)) for r in rows] for rows in reads])
    np.testing.assert_allclose(prices, expected[2], atol=1e-9)
    assert np.any(reads != reads[:, :1])  # examples read different groups


# ---------------------------------------------------------------------- the choice
def test_the_choice_is_the_best_candidate_served_as_test_examples_are():
    """At budgets of the choice's grid, the (configuration, cap) chosen makes the fewest
    validation errors of every candidate, each validation example served per example (the
    loop reference on the fit-part models)."""
    est, _ = fitted("groups", n_trees=12)
    X, y, _ = problem(n=400)
    Xv, yv = est.encoding_.transform(X[:300][est.validation_rows_]), y[:300][est.validation_rows_]
    picks = est.validation_budgets_[np.linspace(0, est.validation_budgets_.size - 1, 7).astype(int)]
    config, cap = est.choice_.at(picks)
    for b, budget in enumerate(picks + 1e-9):
        errors = {}
        for c, model in enumerate(est.models_):
            trees = model.booster.dump_model()["tree_info"]
            for m in range(1, len(trees) + 1):
                wrong = 0
                for x, label in zip(Xv, yv, strict=True):
                    used, score, _ = serve_one(
                        trees, x, est.encoding_.group, est.pricing_, budget, m
                    )
                    score = score if used else est.majority_ * EMPTY_SCORE
                    wrong += (score > 0) != (label > 0)
                errors[c, m] = wrong
        empty = int(np.sum((est.majority_ > 0) != (yv > 0)))
        best = min(min(errors.values()), empty)
        chosen = empty if config[b] < 0 else errors[int(config[b]), int(cap[b])]
        assert chosen == best
        np.testing.assert_allclose(
            est.validation_error_[:, np.searchsorted(est.validation_budgets_, picks[b])],
            [
                min(empty, *(e for (c, _), e in errors.items() if c == k)) / yv.size
                for k in range(len(est.models_))
            ],
        )


def test_nothing_held_out_serves_every_tree_the_budget_affords():
    X, y, costs = problem(n=300)
    est = BudgetedLightGBM(
        n_estimators=15,
        max_depth=2,
        learning_rate=0.3,
        cegb_tradeoff=0.0,
        validation_fraction=0.0,
        charging="example",
        feature_costs=costs,
        random_state=0,
    ).fit(X, y)
    np.testing.assert_array_equal(est.choice_.size, [est.models_[0].n_trees])
    budgets = [0.5, 2.0, 40.0]
    expected, _ = reference(est, X, budgets)
    ev = est.evaluate_at_budgets(X, y, budgets)
    np.testing.assert_allclose(ev.rounds, expected[0].mean(axis=1))
    assert ev.rounds[-1] == est.models_[0].n_trees


def test_first_reads_in_steps_of_a_few_trees_are_the_same(monkeypatch):
    """Each group's first reading tree, taken a few trees at a time (to bound memory on
    large test sets), is the one taken at once, and the one a loop over the trees finds."""
    from budgetboost.estimators.peers import lightgbm_peer

    est, Xt = fitted("groups")
    model = est.refits_[next(iter(est.refits_))]
    Xl = est.encoding_.transform(Xt)
    leaves = model.leaves(Xl, model.n_trees)
    used, first = model.first_reads(leaves, est.encoding_.group)
    monkeypatch.setattr(lightgbm_peer, "_CELLS", 2 * Xt.shape[0] * 3)
    np.testing.assert_array_equal(model.first_reads(leaves, est.encoding_.group)[1], first)
    trees = model.booster.dump_model()["tree_info"]
    for i, x in enumerate(Xl[:10]):
        for u, g in enumerate(used):
            reads = [
                t for t, tree in enumerate(trees) if g in est.encoding_.group[walk(tree, x)[0]]
            ]
            assert first[i, u] == (reads[0] if reads else len(trees))
