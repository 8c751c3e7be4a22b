"""AACO: the vectorised acquisition against a loop reference, hand-checked cases, the contract.

The reference below is written from the definitions of ``budgetboost.estimators.acquisition``
(one example, one trade-off and one candidate at a time: distances summed over the observed
groups, neighbours sorted by (distance, stored order), every candidate's expected loss in
plain Python floats); it shares no code with the engine but the fitted model it reads (pool,
classifier weights, oracle rows, candidate subsets).
"""

from __future__ import annotations

import hashlib
import math

import numpy as np
import pytest
from helpers import examples, problems
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost.estimators.acquisition.aaco import AACO
from budgetboost.estimators.acquisition.masked_logistic import fit_masked_logistic
from budgetboost.estimators.acquisition.masked_network import MaskedNetwork
from budgetboost.estimators.acquisition.pool import select_pool
from budgetboost.estimators.acquisition.rollout import (
    CAP,
    UNITS,
    Trajectories,
    mean_absolute_difference,
    nearest,
    rollout,
)
from budgetboost.estimators.contract.params import InvalidParameterError

#: Decisions closer than this (objective units) are near-ties: the engine's float32 losses
#: may order them otherwise than the reference's float64 (such examples are not compared).
NEAR_TIE = 1e-5


def _softplus(z: float) -> float:
    return max(z, 0.0) + math.log1p(math.exp(-abs(z)))


def masked_scorer(oracle):
    """The classifier's score of a masked input, from its definition, in plain Python.

    Returns ``score(value_of, observed)``: ``observed`` the set of observed pool groups,
    ``value_of(g, c)`` the value of column ``c`` (of group ``g``) where it is observed. The
    logistic model sums ``b_g + sum_{j in g} w_j x_j`` over the observed groups; the network
    builds its input (each column standardised and times its group's mask bit, then the
    mask bits) and runs forward: the rectified hidden units, then the output layer, with
    scikit-learn's fitted weights (``coefs_``, ``intercepts_``).
    """
    clf = oracle.classifier
    P = oracle.size
    read = [(int(c), int(g)) for c, g in zip(clf.columns, clf.column_group, strict=True)]
    if isinstance(clf, MaskedNetwork):
        first = [[float(v) for v in row] for row in clf.network.coefs_[0]]
        hidden_bias = [float(v) for v in clf.network.intercepts_[0]]
        second = [float(v) for v in clf.network.coefs_[1][:, 0]]
        out_bias = float(clf.network.intercepts_[1][0])
        mean = [float(v) for v in clf.mean]
        scale = [float(v) for v in clf.scale]
        cache: dict = {}

        def forward(inputs):
            if inputs not in cache:
                total = out_bias
                for u, b in enumerate(hidden_bias):
                    h = b + sum(value * first[i][u] for i, value in enumerate(inputs) if value)
                    total += second[u] * max(h, 0.0)
                cache[inputs] = total
            return cache[inputs]

        def score(value_of, observed):
            inputs = [
                (value_of(g, c) - mean[j]) / scale[j] if g in observed else 0.0
                for j, (c, g) in enumerate(read)
            ]
            return forward(tuple(inputs + [1.0 if g in observed else 0.0 for g in range(P)]))

        return score
    weight = [float(w) for w in clf.weight]

    def score(value_of, observed):  # w_0 + sum over o of b_g + sum_{j in g} w_j x_j
        total = float(clf.intercept)
        for g in sorted(observed):
            total += float(clf.bias[g])
            total += sum(weight[j] * value_of(g, c) for j, (c, gg) in enumerate(read) if gg == g)
        return total

    return score


def reference_rollout(oracle, X, alphas, horizons=None):
    """Every (configuration, example) trajectory, one at a time, from the definitions.

    A configuration is an ``alpha`` and a horizon (default: the oracle's). Returns
    ``(groups, paid, scores, clear)``: per row the acquired pool positions, the cumulative
    prices and the scores after each acquisition, and whether no decision of the row was a
    near-tie (:data:`NEAR_TIE`).
    """
    P, n = oracle.size, oracle.oracle_y.size
    T = oracle.candidates.shape[0]
    position = {int(c): i for i, c in enumerate(oracle.distance_columns)}
    columns = {
        g: [int(c) for c in oracle.distance_columns[oracle.distance_group == g]] for g in range(P)
    }
    score_of = masked_scorer(oracle)
    if horizons is None:
        horizons = [oracle.horizon] * len(alphas)

    def price(groups, touched):  # marginal price of a set given the touched discount groups
        total, fresh = 0.0, set()
        for g in groups:
            total += float(oracle.base[g])
            d = int(oracle.discount_group[g])
            if d >= 0 and d not in touched and d not in fresh:
                fresh.add(d)
        return total + sum(float(oracle.shared[d]) for d in sorted(fresh))

    y = [float(v) for v in oracle.oracle_y]
    out_groups, out_paid, out_scores, clear = [], [], [], []
    for alpha, horizon in zip(alphas, horizons, strict=True):
        for x in X:
            observed, touched, spent = [], set(), 0.0
            score = score_of(lambda g, c, x=x: float(x[c]), set())
            groups, paid, scores, gap = [], [], [score], math.inf
            for step in range(T):
                if observed:
                    dist = []
                    for r in range(n):
                        total = 0.0
                        for g in observed:
                            part = sum(
                                abs(float(x[c]) - float(oracle.oracle_X[r, position[c]]))
                                for c in columns[g]
                            )
                            unit = UNITS / float(oracle.scale[g])
                            total += min(float(np.rint(part * unit)), CAP)
                        dist.append(total)
                    nb = sorted(range(n), key=lambda r: (dist[r], r))[: oracle.n_neighbors]
                else:
                    nb = list(range(n))

                def expected(extra, nb=nb, x=x, observed=observed):
                    """Mean loss over the neighbours once ``extra`` is observed too: the
                    example's values on what it observed, the neighbour's on ``extra``."""
                    seen = set(observed) | set(extra)
                    total = 0.0
                    for r in nb:

                        def value_of(group, column, r=r):
                            if group in observed:
                                return float(x[column])
                            return float(oracle.oracle_X[r, position[column]])

                        total += _softplus(-y[r] * score_of(value_of, seen))
                    return total / len(nb)

                stop = expected([])
                seen = {}
                for cand in oracle.candidates[step]:
                    v = tuple(g for g in range(P) if cand[g] and g not in observed)
                    if not v or v in seen:
                        continue
                    cost = price(v, touched)
                    if spent + cost > horizon:
                        continue
                    loss = expected(v)
                    if oracle.stopping == "improvement" and not loss < stop:
                        continue
                    seen[v] = loss + alpha * cost
                ranked = sorted(seen.values())
                if len(ranked) > 1:
                    gap = min(gap, ranked[1] - ranked[0])
                if oracle.stopping == "aco" and ranked:
                    gap = min(gap, abs(ranked[0] - stop))
                if not ranked or (oracle.stopping == "aco" and not ranked[0] < stop):
                    break
                best = next(v for v, value in seen.items() if value == ranked[0])
                single = {g: expected([g]) + alpha * price([g], touched) for g in best}
                order = sorted(single.values())
                if len(order) > 1:
                    gap = min(gap, order[1] - order[0])
                j = min(best, key=lambda g: (single[g], g))
                spent += price([j], touched)
                if int(oracle.discount_group[j]) >= 0:
                    touched.add(int(oracle.discount_group[j]))
                observed.append(j)
                score = score_of(lambda g, c, x=x: float(x[c]), set(observed))
                groups.append(j)
                paid.append(spent)
                scores.append(score)
            out_groups.append(groups)
            out_paid.append(paid)
            out_scores.append(scores)
            clear.append(gap > NEAR_TIE)
    return out_groups, out_paid, out_scores, clear


def _mixed_problem(seed=0, n=70):
    """0/1 columns: a 3-column group of nested thresholds, single columns, discount groups."""
    rng = np.random.default_rng(seed)
    latent = rng.normal(size=n)
    signal = latent + 0.8 * rng.normal(size=n)
    thresholds = np.column_stack([latent > t for t in (-0.5, 0.0, 0.7)])
    singles = np.column_stack(
        [(latent + s * rng.normal(size=n)) > 0 for s in (0.6, 1.0, 1.5, 3.0)]
        + [rng.integers(0, 2, n).astype(bool)]
    )
    X = np.column_stack([thresholds, singles]).astype(float)
    y = (signal > 0).astype(int)
    groups = np.array([0, 0, 0, 1, 2, 3, 4, 5])
    costs = np.array([1.2, 1.2, 1.2, 0.4, 0.9, 0.3, 0.2, 0.5])
    discount_groups = np.array([-1, -1, -1, 7, 7, -1, 3, 3])
    discount_costs = np.array([1.2, 1.2, 1.2, 0.1, 0.6, 0.3, 0.05, 0.35])
    return X, y, costs, groups, discount_groups, discount_costs


@pytest.mark.parametrize(
    "stopping,classifier,horizons",
    [
        ("improvement", "logistic", None),
        ("aco", "logistic", None),
        ("improvement", "network", None),
        ("aco", "network", None),
        ("improvement", "logistic", [0.3, 1.0]),
        ("improvement", "network", [0.3, 0.6, 1.0]),
    ],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_rollout_matches_the_loop_reference(seed, stopping, classifier, horizons):
    """Same acquisitions, prices and scores as the reference, for every configuration (each
    trade-off under each horizon), with the logistic model or the network in the oracle."""
    X, y, costs, groups, dg, dc = _mixed_problem(seed)
    model = AACO(
        budget=2.5,
        n_neighbors=7,
        n_subsets=6,
        max_acquisitions=5,
        stopping=stopping,
        classifier=classifier,
        hidden_units=4,
        horizons=horizons,
        random_state=seed,
        feature_costs=costs,
        feature_groups=groups,
        discount_groups=dg,
        discount_costs=dc,
    ).fit(X[:50], y[:50])
    oracle = model.refits_[next(iter(model.refits_))]
    assert isinstance(oracle.classifier, MaskedNetwork) == (classifier == "network")
    test = X[50:]
    alphas, limits = model.tradeoffs_, model.horizons_
    trajectories = rollout(oracle, test, alphas, horizons=limits)
    groups_ref, paid_ref, scores_ref, clear = reference_rollout(oracle, test, alphas, limits)
    assert np.mean(clear) > 0.8
    compared = 0
    for row in np.flatnonzero(clear):
        length = len(groups_ref[row])
        assert trajectories.group[row, :length].tolist() == groups_ref[row]
        assert np.all(trajectories.group[row, length:] == -1)
        assert np.allclose(trajectories.paid[row, :length], paid_ref[row], rtol=0, atol=1e-12)
        assert np.all(np.isinf(trajectories.paid[row, length:]))
        assert np.allclose(trajectories.score[row, : length + 1], scores_ref[row], atol=1e-9)
        compared += 1
    assert compared >= 0.8 * len(clear)


def test_vectorised_parts_match_their_definitions():
    """``nearest``: the k smallest, ties to the lower column; ``mean_absolute_difference``:
    the mean over pairs."""
    rng = np.random.default_rng(3)
    distance = rng.integers(0, 4, size=(30, 25)).astype(float)
    for k in (1, 5, 25, 40):
        got = nearest(distance, k)
        for row in range(distance.shape[0]):
            expected = sorted(range(25), key=lambda c: (distance[row, c], c))[:k]
            assert sorted(got[row].tolist()) == sorted(expected)
    values = rng.normal(size=(9, 3))
    pairs = [np.abs(values[a] - values[b]) for a in range(9) for b in range(a + 1, 9)]
    assert np.allclose(mean_absolute_difference(values), np.mean(pairs, axis=0))


def test_masked_classifier_scores_are_additive_over_groups():
    """The score of a set is the intercept plus its groups' contributions; the fit lowers
    the masked log loss below the constant model's."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, size=(200, 6)).astype(float)
    y = np.where(X[:, 0] + X[:, 1] + 0.3 * rng.normal(size=200) > 1, 1.0, -1.0)
    column_group = np.array([0, 0, 1, 2, 3, 3])
    clf = fit_masked_logistic(X, y, np.arange(6), column_group, 4, rng, 8, 1.0)
    a = clf.contributions(X)
    expected = clf.bias[column_group[0]] + X[:, 0] * clf.weight[0] + X[:, 1] * clf.weight[1]
    assert np.allclose(a[:, 0], expected)
    full = clf.intercept + a.sum(axis=1)
    assert np.mean((full > 0) == (y > 0)) > 0.75


def test_pool_prefers_the_informative_and_the_cheap():
    """The pool's first pick is the column of most value; the second the most value per
    price; a group priced above the horizon is never eligible."""
    rng = np.random.default_rng(1)
    n = 400
    y = np.where(rng.random(n) < 0.5, 1.0, -1.0)
    strong = np.where(rng.random(n) < 0.9, y > 0, y < 0)
    weak = np.where(rng.random(n) < 0.7, y > 0, y < 0)
    noise = rng.integers(0, 2, size=(n, 4)).astype(bool)
    X = np.column_stack([strong, weak, noise, strong]).astype(float)
    price = np.array([2.0, 0.05, 1.0, 1.0, 1.0, 1.0, 50.0])
    eligible = price <= 10.0
    pool = select_pool(X, y, np.arange(7), price, eligible, size=3)
    assert pool[0] == 0 and pool[1] == 1
    assert 6 not in pool


def _informative_cheap(n=120, seed=0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    X = np.column_stack([y, rng.integers(0, 2, (n, 3)), y]).astype(float)
    costs = np.array([0.1, 1.0, 1.0, 1.0, 10.0])
    return X, y, costs


def test_hand_checked_cheap_decisive_feature_first_and_expensive_never():
    """Column 0 decides the label and costs 0.1: every example acquires it first, under
    every trade-off, and is then classified without error; column 4 (the same signal)
    costs 10, above the budget: never in the pool, never acquired. Below 0.1 nothing is
    bought and the majority class is predicted."""
    X, y, costs = _informative_cheap()
    model = AACO(budget=3.0, random_state=0, feature_costs=costs).fit(X[:80], y[:80])
    oracle = model.refits_[next(iter(model.refits_))]
    assert 4 not in oracle.pool.tolist()
    trajectories = rollout(oracle, X[80:], model.tradeoffs_)
    first = oracle.pool[trajectories.group[:, 0]]
    assert np.all(first == 0)
    report = model.evaluate_at_budgets(X[80:], y[80:], [0.05, 0.1, 1.0, 3.0])
    assert report.rounds[0] == 0 and report.max_example_cost[0] == 0
    assert report.error[0] == pytest.approx(np.mean(y[80:] != np.bincount(y[:80]).argmax()))
    assert np.all(report.error[1:] == 0)
    assert np.all(report.rounds[1:] >= 1)


def _set_price(columns, costs, discount_groups, discount_costs):
    """Price of reading ``columns`` (one per group) from the definition: each touched discount
    group's shared part once, each test its discount price (full price outside a group)."""
    total, shared = 0.0, {}
    for c in columns:
        d = discount_groups[c]
        if d < 0:
            total += costs[c]
        else:
            total += discount_costs[c]
            shared[d] = costs[c] - discount_costs[c]
    return total + sum(shared.values())


#: The non-additive oracle with a chosen horizon, as the tests run it (few hidden units).
NETWORK = {"classifier": "network", "hidden_units": 4, "horizons": [0.25, 0.5, 1.0]}
#: The boosted predictor, a model per subset, each budget its own horizon; and the masked one.
BOOSTED = {"predictor": "boosted", "horizons": "budget"}
MASKED = {"predictor": "boosted", "max_subset_models": 1}


@pytest.mark.parametrize(
    "variant", [{}, NETWORK, BOOSTED, MASKED], ids=["logistic", "network", "boosted", "masked"]
)
def test_examples_pay_exactly_their_groups_with_discounts_and_within_budget(variant):
    """Each example's prefix at each budget costs the price of its groups (shared parts once)
    and at most the budget; ``evaluate_at_budgets`` reports their mean and maximum, and
    ``groups_read`` the groups."""
    X, y, costs, groups, dg, dc = _mixed_problem(2, n=160)
    budgets = np.array([0.0, 0.2, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0])
    model = AACO(
        **variant,
        budget=3.0,
        random_state=4,
        feature_costs=costs,
        feature_groups=groups,
        discount_groups=dg,
        discount_costs=dc,
    ).fit(X[:100], y[:100])
    test = X[100:]
    report = model.evaluate_at_budgets(test, y[100:], budgets)
    capped = np.minimum(budgets, 3.0)
    assert np.all(report.max_example_cost <= capped) and np.all(report.spent <= capped)
    assert np.array_equal(report.spent, report.max_example_cost)
    oracle = model.refits_[next(iter(model.refits_))]
    config, _ = model.choice_.at(capped)
    first_column = {g: int(np.flatnonzero(groups == g)[0]) for g in np.unique(groups)}
    for b, budget in enumerate(capped):
        chosen = [config[b]]
        own = model.horizons == "budget"  # each budget its own horizon
        horizon = [budget] if own else model.horizons_[chosen]
        trajectories = rollout(oracle, test, model.tradeoffs_[chosen], horizons=horizon)
        steps, _, paid = trajectories.at_budgets(np.array([budget]))
        expected = [
            _set_price([first_column[oracle.pool[g]] for g in row[:s]], costs, dg, dc)
            for row, s in zip(trajectories.group, steps[0], strict=True)
        ]
        assert np.allclose(paid[0], expected, rtol=0, atol=1e-12)
        # what each example reads (the train job's check): the groups it acquired
        reads = model.groups_read(test, [budgets[b]])[0]
        acquired = [
            sorted(oracle.pool[row[:s]].tolist())
            for row, s in zip(trajectories.group, steps[0], strict=True)
        ]
        assert [np.flatnonzero(r).tolist() for r in reads] == acquired
        assert report.mean_example_cost[b] == pytest.approx(np.mean(expected))
        assert report.max_example_cost[b] == pytest.approx(np.max(expected))
        assert report.rounds[b] == pytest.approx(steps.mean())


@pytest.mark.parametrize(
    "variant", [{}, NETWORK, BOOSTED, MASKED], ids=["logistic", "network", "boosted", "masked"]
)
def test_reproducible_under_the_same_random_state(variant):
    """Same inputs and seed: byte-identical outputs; the refit is what serves."""
    X, y, costs, groups, dg, dc = _mixed_problem(5, n=150)
    budgets = [0.3, 1.0, 2.0, 5.0]
    runs = []
    for _ in range(2):
        model = AACO(**variant, budget=5.0, random_state=11, feature_costs=costs)
        model.fit(X[:100], y[:100])
        report = model.evaluate_at_budgets(X[100:], y[100:], budgets)
        runs.append(
            b"".join(v.tobytes() for v in report.as_dict().values())
            + model.decision_function(X[100:]).tobytes()
            + model.chosen_tradeoffs(budgets).tobytes()
        )
    assert runs[0] == runs[1]


def test_validation_rows_never_find_themselves():
    """While choosing, the oracle rows are the fit part: no validation example is ever among
    its own neighbours; the refit's oracle rows are all training rows."""
    X, y, costs, *_ = _mixed_problem(6, n=120)
    model = AACO(budget=4.0, random_state=2, feature_costs=costs).fit(X, y)
    oracle = model.models_[0]
    assert sorted(oracle.oracle_rows.tolist()) == model.fit_rows_.tolist()
    assert not set(model.fit_rows_) & set(model.validation_rows_)
    trace: list = []
    rollout(oracle, X[model.validation_rows_], model.tradeoffs_, trace=trace)
    assert trace
    for neighbour_rows, state, example in trace:
        own = model.validation_rows_[example]
        assert not np.any(neighbour_rows[state] == own[:, None])
    refit = model.refits_[next(iter(model.refits_))]
    assert sorted(refit.oracle_rows.tolist()) == list(range(X.shape[0]))


@pytest.mark.parametrize(
    "params,name",
    [
        ({"n_neighbors": 0}, "n_neighbors"),
        ({"n_subsets": -1}, "n_subsets"),
        ({"pool_size": 0}, "pool_size"),
        ({"max_acquisitions": 0}, "max_acquisitions"),
        ({"n_masks": 0}, "n_masks"),
        ({"regularization": 0.0}, "regularization"),
        ({"alphas": -1.0}, "alphas"),
        ({"alphas": []}, "alphas"),
        ({"stopping": "never"}, "stopping"),
        ({"validation_fraction": 1.0}, "validation_fraction"),
        ({"validation_fraction": 0.0}, "validation_fraction"),
        ({"budget": -1.0}, "budget"),
        ({"classifier": "tree"}, "classifier"),
        ({"hidden_units": 0}, "hidden_units"),
        ({"network_regularization": 0.0}, "network_regularization"),
        ({"network_regularization": [1.0, -1.0]}, "network_regularization"),
        (
            {"classifier": "network", "alphas": 0.0, "validation_fraction": 0.0},
            "validation_fraction",
        ),
        ({"horizons": 0.0}, "horizons"),
        ({"horizons": [0.5, 1.5]}, "horizons"),
        ({"horizons": []}, "horizons"),
        (
            {"alphas": 0.0, "horizons": [0.5, 1.0], "validation_fraction": 0.0},
            "validation_fraction",
        ),
        ({"nothing": 1}, "nothing"),
    ],
)
def test_parameter_errors_name_the_parameter(params, name):
    with pytest.raises(InvalidParameterError, match=f"^{name}: "):
        AACO.check_params(params)
    X, y, costs = _informative_cheap(40)
    with pytest.raises(InvalidParameterError, match=f"^{name}: "):
        AACO(**params).fit(X, y) if name != "nothing" else AACO().set_params(**params)


def test_fixed_alpha_without_validation_fits_on_all_rows():
    X, y, costs = _informative_cheap(60)
    model = AACO(alphas=0.0, validation_fraction=0.0, feature_costs=costs, random_state=0)
    model.fit(X, y)
    assert model.tradeoffs_.tolist() == [0.0]
    assert model.refits_[0] is model.models_[0]
    assert model.score(X, y) == 1.0


@settings(max_examples=examples(25), derandomize=True)
@given(
    problem=problems(rows=(6, 30), columns=5, levels=(2, 3)),
    budget=st.sampled_from([0.0, 0.3, 1.0, 2.5, None]),
    budgets=st.lists(
        st.sampled_from([0.0, 0.05, 0.4, 1.0, 2.0, 6.0, np.inf]), min_size=1, max_size=5
    ),
    variant=st.sampled_from([{}, NETWORK]),
)
def test_contract_holds_on_small_problems(problem, budget, budgets, variant):
    """On any small problem, with either oracle: finite scores, every example within every
    (capped) budget, ``rounds`` equal to ``n_features``, and the same outputs from a second
    fit."""
    X, y, costs, groups = problem
    reports = []
    for _ in range(2):
        model = AACO(
            **variant,
            budget=budget,
            n_subsets=4,
            max_acquisitions=4,
            random_state=3,
            feature_costs=costs,
            feature_groups=groups,
        ).fit(X, y)
        reports.append(model.evaluate_at_budgets(X, y, budgets))
    report = reports[0]
    capped = np.minimum(budgets, np.inf if budget is None else budget)
    assert np.all(report.max_example_cost <= capped + 1e-12)
    assert np.all(report.mean_example_cost <= report.max_example_cost + 1e-12)
    assert np.array_equal(report.rounds, report.n_features)
    assert np.all(report.nodes == 0)
    for a, b in zip(reports[0].as_dict().values(), reports[1].as_dict().values(), strict=True):
        assert a.tobytes() == b.tobytes()


def test_trajectories_serve_the_longest_affordable_prefix():
    paid = np.array([[0.5, 1.0, 1.0, np.inf], [2.0, np.inf, np.inf, np.inf]])
    score = np.arange(10.0).reshape(2, 5)
    steps, served, cost = Trajectories(np.zeros((2, 4), int), paid, score).at_budgets(
        np.array([0.0, 1.0, 5.0])
    )
    assert steps.tolist() == [[0, 0], [3, 0], [3, 1]]
    assert served.tolist() == [[0.0, 5.0], [3.0, 5.0], [3.0, 6.0]]
    assert cost.tolist() == [[0.0, 0.0], [1.0, 0.0], [1.0, 2.0]]


def test_limits_end_trajectories_without_changing_the_prefixes_they_serve():
    """A trajectory cut at its limit serves every budget up to the limit as the uncut one."""
    X, y, costs, groups, dg, dc = _mixed_problem(7, n=140)
    model = AACO(budget=4.0, random_state=1, feature_costs=costs).fit(X[:90], y[:90])
    oracle = model.refits_[next(iter(model.refits_))]
    limits = np.array([0.5, 1.5, 4.0, 0.0, 2.5])[: model.tradeoffs_.size]
    whole = rollout(oracle, X[90:], model.tradeoffs_)
    cut = rollout(oracle, X[90:], model.tradeoffs_, limits)
    m = X.shape[0] - 90
    for c, limit in enumerate(limits):
        rows = slice(c * m, (c + 1) * m)
        budgets = np.linspace(0.0, limit, 7)
        a = Trajectories(whole.group[rows], whole.paid[rows], whole.score[rows])
        b = Trajectories(cut.group[rows], cut.paid[rows], cut.score[rows])
        for x, z in zip(a.at_budgets(budgets), b.at_budgets(budgets), strict=True):
            assert np.array_equal(x, z)
        assert np.all(cut.paid[rows][np.isfinite(cut.paid[rows])] <= limit)


def test_a_large_group_reads_columns_spread_over_its_range():
    """Of 40 nested thresholds the classifier reads 5, evenly spread by their means; a
    constant column is never read; a small group keeps its columns."""
    rng = np.random.default_rng(0)
    v = rng.normal(size=300)
    thresholds = [v > t for t in np.linspace(-2, 2, 40)]
    X = np.column_stack([*thresholds, np.ones(300), rng.random(300) > 0.5]).astype(float)
    keep = AACO(max_group_columns=5)._classifier_columns(X, np.arange(42), np.array([0] * 41 + [1]))
    assert keep.tolist() == [0, 10, 19, 29, 39, 41]


def test_group_distances_match_their_definition_on_any_values():
    """Tabled (few values, several columns) and computed (many values) groups add
    ``min(rint(L1 * UNITS / scale), CAP)``; equal codes are equal values."""
    from budgetboost.estimators.acquisition.rollout import _GroupDistances

    rng = np.random.default_rng(4)
    n = 400
    X = np.column_stack(
        [rng.normal(size=n), rng.integers(0, 2, n), rng.integers(0, 3, (n, 2)) > 0]
    ).astype(float)
    X[:5, 0] = 1e9  # outliers: capped
    groups = np.array([0, 1, 2, 2])
    model = AACO(alphas=0.0, validation_fraction=0.0, random_state=0)
    model.set_params(feature_groups=groups).fit(X[:300], (X[:300, 0] > 0).astype(int))
    oracle = model.refits_[0]
    distances = _GroupDistances(oracle, X[300:])
    assert sorted(oracle.pool.tolist()) == [0, 1, 2]
    assert distances.tabled.tolist() == [g != 0 for g in oracle.pool]  # 0: many values
    position = {int(c): i for i, c in enumerate(oracle.distance_columns)}
    example = np.repeat(np.arange(100), oracle.size)
    group = np.tile(np.arange(oracle.size), 100)
    got = np.zeros((example.size, oracle.oracle_y.size))
    distances.add(got, example, group)
    for s, (e, g) in enumerate(zip(example, group, strict=True)):
        cols = oracle.distance_columns[oracle.distance_group == g]
        l1 = np.abs(X[300 + e, cols][None, :] - oracle.oracle_X[:, [position[c] for c in cols]])
        expected = np.minimum(np.rint(l1.sum(axis=1) * (UNITS / oracle.scale[g])), CAP)
        assert np.array_equal(got[s], expected)
    codes = distances.code
    for g in range(oracle.size):
        cols = oracle.distance_columns[oracle.distance_group == g]
        values = X[300:][:, cols]
        same_code = codes[:, g][:, None] == codes[:, g][None, :]
        same_value = (values[:, None, :] == values[None, :, :]).all(axis=2)
        assert np.array_equal(same_code, same_value)


def test_patterns_number_rows_as_unique_does():
    from budgetboost.estimators.acquisition.rollout import _patterns

    rng = np.random.default_rng(0)
    for columns in (1, 3, 52, 60, 160):
        rows = (rng.random((300, columns)) < 0.3).astype(float)
        rows[150:] = rows[:150]  # every row twice
        patterns, code = _patterns(rows)
        expected, inverse = np.unique(rows, axis=0, return_inverse=True)
        assert np.array_equal(patterns, expected)
        assert np.array_equal(code, inverse.reshape(-1))
    values = rng.integers(0, 3, size=(50, 4)).astype(float)  # not 0/1: np.unique itself
    assert np.array_equal(_patterns(values)[0], np.unique(values, axis=0))


@pytest.mark.parametrize("block", [None, 1200], ids=["one-block", "blocks-of-few-states"])
@pytest.mark.parametrize("root", [False, True])
def test_network_scores_every_candidate_as_a_forward_pass_of_its_masked_input(
    monkeypatch, block, root
):
    """Under the network, the expected loss of every candidate of every state is the mean
    over its neighbours of the loss of the network run forward on the masked input (the
    example's values on what it observed, the neighbour's on the candidate's new groups),
    built and run in plain loops; a candidate of nothing new scores the loss of stopping.
    Small blocks put states of different observed groups together and apart."""
    from budgetboost.estimators.acquisition import rollout as engine

    if block is not None:
        monkeypatch.setattr(engine, "_NETWORK_BLOCK_ELEMENTS", block)
    X, y, costs, groups, dg, dc = _mixed_problem(8, n=90)
    model = AACO(
        budget=3.0,
        n_neighbors=5,
        n_subsets=6,
        max_acquisitions=4,
        classifier="network",
        hidden_units=5,
        network_regularization=10.0,
        alphas=0.0,
        validation_fraction=0.0,
        random_state=1,
        feature_costs=costs,
        feature_groups=groups,
    ).fit(X[:60], y[:60])
    oracle = model.refits_[0]
    P, n = oracle.size, oracle.oracle_y.size
    rng = np.random.default_rng(0)
    S = 1 if root else 14
    examples = X[60 : 60 + S]
    observed = rng.random((S, P)) < 0.4
    if root:  # nothing observed
        observed[:] = False
    else:
        observed[:2] = observed[2]  # three states alike (a block may observe the same groups)
        observed[3:5] = True  # two states that observed everything (one block, at times)
        observed[5] = False
    clf = oracle.classifier
    hidden = clf.initial_state + np.einsum("spk,sp->sk", clf.contributions(examples), observed)
    distance = rng.integers(0, 6, size=(S, n)).astype(float)
    stop, loss, neighbours = engine._evaluate_network(
        oracle, 1, observed, hidden, distance, root, engine.network_parts(oracle)
    )
    assert neighbours.shape == (S, n if root else oracle.n_neighbors)
    score_of = masked_scorer(oracle)
    position = {int(c): i for i, c in enumerate(oracle.distance_columns)}
    y_oracle = [float(v) for v in oracle.oracle_y]
    for s in range(S):
        seen = {g for g in range(P) if observed[s, g]}
        x = examples[s]

        def expected(extra, seen=seen, x=x, s=s):
            total = 0.0
            for r in neighbours[s]:

                def value_of(group, column, r=r):
                    if group in seen:
                        return float(x[column])
                    return float(oracle.oracle_X[r, position[column]])

                total += _softplus(-y_oracle[r] * score_of(value_of, seen | set(extra)))
            return total / len(neighbours[s])

        assert stop[s] == pytest.approx(expected(()), rel=0, abs=1e-12)
        for r, cand in enumerate(oracle.candidates[1]):
            new = [g for g in range(P) if cand[g] and g not in seen]
            assert loss[s, r] == pytest.approx(expected(new), rel=0, abs=2e-5), (s, r)


@pytest.mark.parametrize("classifier", ["logistic", "network"])
def test_configuration_chosen_per_budget_as_a_brute_force(classifier):
    """Every (alpha, horizon) rolled out alone on the validation rows gives the trajectories
    of the joint rollout; at every budget the configuration of fewest validation errors
    (ties: lower mean log loss, then the larger horizon and smaller alpha), counted from the
    longest affordable prefixes in plain loops, is the one chosen; and a test budget is
    served by the refit's trajectory of its configuration, cut at the budget."""
    X, y, costs, groups, dg, dc = _mixed_problem(9, n=200)
    alphas, fractions = [0.0, 0.3], [0.25, 0.5, 1.0]
    model = AACO(
        budget=3.0,
        alphas=alphas,
        horizons=fractions,
        classifier=classifier,
        hidden_units=4,
        n_neighbors=7,
        n_subsets=6,
        max_acquisitions=5,
        random_state=3,
        feature_costs=costs,
        feature_groups=groups,
        discount_groups=dg,
        discount_costs=dc,
    ).fit(X[:150], y[:150])
    configs = [(a, 3.0 * f) for f in sorted(fractions, reverse=True) for a in alphas]
    assert list(zip(model.tradeoffs_, model.horizons_, strict=True)) == configs
    oracle, rows = model.models_[0], model.validation_rows_
    labels = np.where(y[:150][rows] > 0, 1.0, -1.0)
    joint = rollout(oracle, X[rows], model.tradeoffs_, horizons=model.horizons_)
    m = rows.size
    alone = []
    for c, (alpha, horizon) in enumerate(configs):
        one = rollout(oracle, X[rows], [alpha], horizons=[horizon])
        part = slice(c * m, (c + 1) * m)
        assert np.array_equal(one.group, joint.group[part])
        assert np.array_equal(one.paid, joint.paid[part])
        assert np.array_equal(one.score, joint.score[part])
        alone.append(one)
    majority = 1.0 if model.majority_ > 0 else -1.0

    def served(trajectory, row, budget):  # the longest prefix costing at most the budget
        steps = 0
        while steps < trajectory.paid.shape[1] and trajectory.paid[row, steps] <= budget:
            steps += 1
        return trajectory.score[row, steps] + majority * 1e-10, steps

    budgets = model.validation_budgets_
    chosen, _ = model.choice_.at(budgets)
    for b, budget in enumerate(budgets):
        ranking = []
        for c, one in enumerate(alone):
            wrong, loss = 0, 0.0
            for i in range(m):
                score, _ = served(one, i, budget)
                wrong += (score > 0) != (labels[i] > 0)
                loss += _softplus(-labels[i] * score)
            ranking.append((wrong, loss / m, c))
        assert chosen[b] == min(ranking)[2], budget
    assert len(set(model.horizons_[chosen])) > 1  # the horizon is a choice here, not fixed
    test = X[150:]
    grid = np.array([0.3, 0.8, 1.5, 2.2, 3.0])
    scores, costs_at = model._checked_scores_and_costs(test, grid)
    refit = model.refits_[next(iter(model.refits_))]
    config, _ = model.choice_.at(grid)
    for b, budget in enumerate(grid):
        alpha, horizon = configs[config[b]]
        one = rollout(refit, test, [alpha], horizons=[horizon])
        for i in range(test.shape[0]):
            score, steps = served(one, i, budget)
            assert scores[b, i] == score
            assert (0.0 if steps == 0 else one.paid[i, steps - 1]) <= budget


@pytest.mark.parametrize(
    "variant", [{}, NETWORK, BOOSTED, MASKED], ids=["logistic", "network", "boosted", "masked"]
)
def test_no_example_reads_a_column_it_did_not_pay_for(variant):
    """At each budget, every test example's score and cost stay the same, to the bit, when
    every column of the groups it did not pay for changes its value."""
    X, y, costs, groups, dg, dc = _mixed_problem(10, n=170)
    model = AACO(
        **variant,
        budget=3.0,
        random_state=5,
        feature_costs=costs,
        feature_groups=groups,
        discount_groups=dg,
        discount_costs=dc,
    ).fit(X[:110], y[:110])
    test = X[110:]
    refit = model.refits_[next(iter(model.refits_))]
    for budget in (0.4, 1.0, 2.0, 3.0):
        scores, report = model._checked_scores_and_costs(test, np.array([budget]))
        config, _ = model.choice_.at(np.array([budget]))
        horizon = [budget] if model.horizons == "budget" else model.horizons_[config]
        one = rollout(refit, test, model.tradeoffs_[config], horizons=horizon)
        steps, _, _ = one.at_budgets(np.array([budget]))
        other = 1.0 - test  # every 0/1 value flipped, then the paid ones put back
        for i in range(test.shape[0]):
            paid_groups = refit.pool[one.group[i, : steps[0, i]]]
            paid_columns = np.isin(groups, paid_groups)
            other[i, paid_columns] = test[i, paid_columns]
        assert np.mean(other != test) > (0.5 if budget < 1 else 0.1)  # not all were paid
        again, report_again = model._checked_scores_and_costs(other, np.array([budget]))
        assert again.tobytes() == scores.tobytes()
        assert report_again.mean_example_cost.tobytes() == report.mean_example_cost.tobytes()


def test_defaults_give_the_results_of_before_the_network_and_the_horizons():
    """The default AACO (logistic oracle, the fitted budget as the only horizon) gives a recorded
    digest of its errors, costs, labels at every budget and chosen configurations on two small
    problems (every decision there clear of near-ties, so the digest does not depend on the
    machine's rounding); the defaults spelled out give the same bytes."""
    budgets = [0.0, 0.3, 0.6, 1.0, 1.5, 2.0, 2.5, 3.0]
    recorded = {
        3: "745fe1db156d2ccb317170c050169ebd7efb98703b77982d43477d2e9149e2f1",
        4: "8f57bb511ac82fa3325c990017e40ea4f9c759f02d24106cc5c738220e11cdef",
    }
    for seed, digest in recorded.items():
        X, y, costs, groups, dg, dc = _mixed_problem(seed, n=130)
        outputs = []
        for spelled in ({}, {"classifier": "logistic", "horizons": 1.0, "hidden_units": 3}):
            model = AACO(
                **spelled,
                budget=2.5,
                n_neighbors=7,
                n_subsets=6,
                max_acquisitions=5,
                random_state=seed,
                feature_costs=costs,
                feature_groups=groups,
                discount_groups=dg,
                discount_costs=dc,
            ).fit(X[:90], y[:90])
            report = model.evaluate_at_budgets(X[90:], y[90:], budgets)
            labels = model.predict_at_budgets(X[90:], budgets)
            h = hashlib.sha256()
            for value in report.as_dict().values():
                h.update(np.ascontiguousarray(value, dtype=np.float64).tobytes())
            h.update(np.ascontiguousarray(labels, dtype=np.int64).tobytes())
            h.update(np.ascontiguousarray(model.choice_.config, dtype=np.int64).tobytes())
            scores, _ = model._checked_scores_and_costs(X[90:], np.asarray(budgets))
            outputs.append(scores.tobytes())
            assert h.hexdigest() == digest
        assert outputs[0] == outputs[1]


def _xor(seed: int, n: int = 300):
    """The label is the exclusive or of columns 0 and 1 (price 1 each); four cheaper columns
    are noise: neither informative column says anything alone."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, 6)).astype(float)
    return X, (X[:, 0] != X[:, 1]).astype(int), np.array([1.0, 1.0, 0.5, 0.5, 0.5, 0.5])


@pytest.mark.parametrize("seed", [0, 2])
def test_hand_checked_the_network_oracle_acquires_an_interaction(seed):
    """On the exclusive or, a nongreedy oracle must value the pair of columns 0 and 1 above
    each alone. With the network it does: at budget 4 every test example is classified
    without error. The additive oracle cannot see the pair's value (nor classify from it):
    its error stays near chance."""
    X, y, costs = _xor(seed)
    errors = {}
    for classifier in ("logistic", "network"):
        model = AACO(
            budget=4.0,
            classifier=classifier,
            hidden_units=8,
            random_state=seed,
            feature_costs=costs,
        ).fit(X[:200], y[:200])
        errors[classifier] = model.evaluate_at_budgets(X[200:], y[200:], [4.0]).error[0]
    assert errors["network"] == 0.0
    assert errors["logistic"] > 0.3
