"""SelectThenTrain: the contract under per-column, grouped and discount-group costs (no budget
exceeded, no unpaid column read, each example charged its own paths' groups, checked against a
walk of LightGBM's trees written here), the protocol (the fit part trains, the validation part
chooses, no other rows), determinism and the parameter checks."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import examples, problems
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost.estimators.contract.params import InvalidParameterError
from budgetboost.estimators.contract.pricing import Pricing
from budgetboost.estimators.contract.registry import estimator_class
from budgetboost.estimators.selection.select_then_train import SelectThenTrain

BUDGETS = np.array([0.0, 0.3, 0.8, 1.5, 2.5, 4.0, 6.0, np.inf])
#: Small settings that keep a fit well under a second (the exhaustive search: the sets of one
#: group, or of two of the six attributes).
FAST = {
    "n_estimators": 20,
    "max_groups": 6,
    "forward_tradeoffs": (0.0, 0.25),
    "max_exhaustive_sets": 30,
    "learning_rate": 0.1,
    "num_leaves": 31,
}


def _binarized(seed: int, n: int = 240):
    """Six raw attributes, each as 4 threshold indicators (24 0/1 columns, a group each
    attribute); the label depends on attributes 0, 1 and 2."""
    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(n, 6))
    y = np.where(raw[:, 0] + raw[:, 1] - 0.7 * raw[:, 2] + 0.5 * rng.normal(size=n) > 0, 1, -1)
    X = np.column_stack([raw[:, a] >= t for a in range(6) for t in (-1.0, -0.3, 0.3, 1.0)])
    groups = np.repeat(np.arange(6), 4)
    return X.astype(float), y, groups, rng


def _prices(kind: str, rng):
    """Fit parameters of a cost model: per-column U[0, 2], grouped, or grouped with Turney's
    discount groups (attributes 1, 2 and 4 share a part of 0.6)."""
    if kind == "column":
        return {"feature_costs": rng.uniform(0.0, 2.0, 24)}
    attribute = np.array([0.4, 1.2, 0.9, 0.3, 1.0, 0.2])
    params = {
        "feature_costs": np.repeat(attribute, 4),
        "feature_groups": np.repeat(np.arange(6), 4),
    }
    if kind == "discount":
        shares = np.array([-1, 0, 0, -1, 0, -1])
        params["discount_groups"] = np.repeat(shares, 4)
        params["discount_costs"] = np.repeat(np.where(shares >= 0, attribute - 0.6, attribute), 4)
    return params


def walk_paid(booster, X, n_trees, column_group, pricing):
    """What each row pays through the first ``n_trees`` trees, walking ``dump_model()`` row by
    row (``x <= threshold`` goes left), each group on its paths once, priced by ``pricing``."""
    trees = booster.dump_model()["tree_info"][:n_trees]
    paid = []
    for x in X:
        read = set()
        for tree in trees:
            node = tree["tree_structure"]
            while "split_feature" in node:
                column = node["split_feature"]
                read.add(int(column_group[column]))
                node = node["left_child"] if x[column] <= node["threshold"] else node["right_child"]
        paid.append(pricing.set_cost(np.array(sorted(read), dtype=np.intp)))
    return np.array(paid)


def _set_columns(model: SelectThenTrain, budget: float, n_columns: int, groups) -> np.ndarray:
    """The training columns of the set served at ``budget`` (none for the empty model)."""
    config, _ = model.choice_.at(np.minimum([budget], model._fitted_budget()))
    if config[0] < 0:
        return np.empty(0, dtype=np.intp)
    chosen = model.sets_[model.configs_[int(config[0])][0]]
    group_of = np.arange(n_columns) if groups is None else groups
    return np.flatnonzero(np.isin(group_of, chosen))


@pytest.mark.parametrize("model", ["gbm", "linear"])
@pytest.mark.parametrize("kind", ["column", "grouped", "discount"])
def test_contract_no_budget_exceeded_and_no_unpaid_column_read(kind, model):
    """At every budget: ``spent`` and every example's cost within it; shuffling every column
    outside the served set across the test rows changes no prediction."""
    X, y, groups, rng = _binarized(0)
    params = _prices(kind, rng)
    fitted = SelectThenTrain(model=model, budget=4.0, random_state=1, **FAST, **params)
    fitted.fit(X[:160], y[:160])
    test = X[160:]
    report = fitted.evaluate_at_budgets(test, y[160:], BUDGETS)
    capped = np.minimum(BUDGETS, 4.0)
    assert np.all(report.spent <= capped) and np.all(report.max_example_cost <= capped)
    assert np.all(report.mean_example_cost <= report.max_example_cost + 1e-12)
    assert report.spent[0] == 0.0 and report.error[-1] < 0.35
    for b, budget in enumerate(BUDGETS):
        keep = _set_columns(fitted, budget, X.shape[1], params.get("feature_groups"))
        shuffled = test.copy()
        others = np.setdiff1d(np.arange(X.shape[1]), keep)
        shuffled[:, others] = test[rng.permutation(test.shape[0])][:, others]
        before = fitted.predict_at_budgets(test, [budget])
        after = fitted.predict_at_budgets(shuffled, [budget])
        assert np.array_equal(before, after)
        if keep.size and model == "linear":  # every example pays its whole set
            assert report.max_example_cost[b] == report.spent[b]
            assert report.mean_example_cost[b] == pytest.approx(report.spent[b], rel=1e-14)


@pytest.mark.parametrize("kind", ["column", "discount"])
def test_each_example_pays_the_groups_of_its_own_paths(kind):
    """LightGBM's examples pay the groups their own decision paths test (a walk of the refit's
    trees, row by row), through the ordinal columns of a grouped attribute too."""
    X, y, groups, rng = _binarized(1)
    params = _prices(kind, rng)
    fitted = SelectThenTrain(budget=6.0, random_state=2, **FAST, **params).fit(X[:160], y[:160])
    test = X[160:]
    budgets = np.array([1.0, 2.5, 6.0])
    report = fitted.evaluate_at_budgets(test, y[160:], budgets)
    config, size = fitted.choice_.at(budgets)
    pricing = fitted.pricing_
    inputs = fitted._inputs(test)
    for b in range(budgets.size):
        if config[b] < 0:
            continue
        refit = fitted.refits_[int(config[b])]
        columns = fitted.config_columns_[int(config[b])]
        paid = walk_paid(
            refit.booster, inputs[:, columns], int(size[b]), fitted.input_group_[columns], pricing
        )
        assert report.mean_example_cost[b] == pytest.approx(paid.mean(), abs=1e-12)
        assert report.max_example_cost[b] == pytest.approx(paid.max(), abs=1e-12)
        assert report.spent[b] == report.max_example_cost[b]
        assert paid.max() <= fitted.config_cost_[int(config[b])] + 1e-12


def test_set_prices_pay_a_discount_groups_shared_part_once():
    X, y, groups, rng = _binarized(2)
    params = _prices("discount", rng)
    fitted = SelectThenTrain(model="linear", budget=6.0, random_state=0, **FAST, **params)
    fitted.fit(X[:160], y[:160])
    full = np.array([0.4, 1.2, 0.9, 0.3, 1.0, 0.2])
    shares = np.array([-1, 0, 0, -1, 0, -1])
    for s, price in zip((c[0] for c in fitted.configs_), fitted.config_cost_, strict=True):
        chosen = fitted.sets_[s]
        by_hand = sum(full[g] - (0.6 if shares[g] >= 0 else 0.0) for g in chosen)
        by_hand += 0.6 if np.any(shares[chosen] >= 0) else 0.0
        assert price == pytest.approx(by_hand, abs=1e-12)
    assert fitted.pricing_.discounted and isinstance(fitted.pricing_, Pricing)


@pytest.mark.parametrize("model", ["gbm", "linear"])
def test_fit_part_trains_validation_part_chooses_and_refits_see_every_row(model):
    """The paths and the candidates' classifiers see the fit part only (changing the columns
    of every validation row leaves the paths' sets as they were); the validation part is rows
    the fit part does not hold; the chosen are refitted on all training rows."""
    X, y, groups, rng = _binarized(3)
    params = _prices("column", rng)
    fitted = SelectThenTrain(model=model, budget=5.0, random_state=4, **FAST, **params)
    fitted.fit(X[:160], y[:160])
    fit_rows, validation_rows = fitted.fit_rows_, fitted.validation_rows_
    assert not set(fit_rows) & set(validation_rows)
    assert sorted([*fit_rows, *validation_rows]) == list(range(160))
    for label in (-1, 1):  # each class gives a quarter of its rows, rounded
        n_class = int(np.sum(y[:160] == label))
        assert np.sum(y[validation_rows] == label) == int(np.floor(0.25 * n_class + 0.5))

    def rows_seen(classifier):
        if model == "gbm":
            return classifier.booster.train_set.num_data()
        return int(classifier.model[0].n_samples_seen_)

    assert all(rows_seen(m) == fit_rows.size for m in fitted.models_)
    assert fitted.refits_ and all(rows_seen(m) == 160 for m in fitted.refits_.values())
    X2 = X[:160].copy()  # the split depends on the labels alone: keep them
    X2[validation_rows] = 1.0 - X2[validation_rows]
    other = SelectThenTrain(model=model, budget=5.0, random_state=4, **FAST, **params)
    other.fit(X2, y[:160])
    assert np.array_equal(other.fit_rows_, fit_rows)
    assert [s.tolist() for s in other.sets_] == [s.tolist() for s in fitted.sets_]


def test_choice_is_the_least_validation_error_among_the_affordable():
    """At each budget the served candidate's validation error is the least of every candidate
    (every set, value and number of trees, and the empty model) costing at most the budget;
    the recorded LightGBM curve is the error of each prefix's raw scores."""
    X, y, groups, rng = _binarized(4)
    params = _prices("column", rng)
    fitted = SelectThenTrain(budget=5.0, random_state=5, **FAST, **params).fit(X[:200], y[:200])
    cost = np.concatenate(fitted.prefix_cost_)
    error = np.concatenate(fitted.validation_error_)
    for budget in np.linspace(0.0, 5.0, 11):
        config, size = fitted.choice_.at(np.array([budget]))
        c, k = int(config[0]), int(size[0])
        served = fitted.validation_error_[max(c, 0)][k if c >= 0 else 0]
        assert served == error[cost <= budget].min()
    rows = fitted.validation_rows_
    inputs = fitted._inputs(X[:200])
    for index in range(0, len(fitted.models_), 7):
        model = fitted.models_[index]
        columns = fitted.config_columns_[index]
        for k in (1, model.n_trees // 2, model.n_trees):
            scores = model.booster.predict(
                inputs[np.ix_(rows, columns)], raw_score=True, num_iteration=k
            )
            wrong = np.mean((scores > 0) != (y[rows] > 0))
            assert model.validation_error[k - 1] == pytest.approx(wrong, abs=1e-12)


def test_chosen_tradeoffs_name_the_served_sets_path():
    X, y, groups, rng = _binarized(5)
    fitted = SelectThenTrain(budget=5.0, random_state=6, **FAST, **_prices("column", rng))
    fitted.fit(X[:200], y[:200])
    budgets = np.array([0.0, 1.0, 3.0, 5.0, 9.0])
    config, _ = fitted.choice_.at(np.minimum(budgets, 5.0))
    expected = [
        np.nan if c < 0 else fitted.set_paths_[fitted.configs_[c][0]][1] for c in config.tolist()
    ]
    assert np.array_equal(fitted.chosen_tradeoffs(budgets), expected, equal_nan=True)
    names = {fitted.set_paths_[s][0] for s, _ in fitted.configs_}
    assert names == {"forward", "lasso", "exhaustive"}


@pytest.mark.parametrize("model", ["gbm", "linear"])
def test_reproducible_under_the_same_random_state(model):
    X, y, groups, rng = _binarized(6)
    params = _prices("grouped", rng)
    runs = []
    for _ in range(2):
        fitted = SelectThenTrain(model=model, budget=4.0, random_state=7, **FAST, **params)
        fitted.fit(X[:160], y[:160])
        report = fitted.evaluate_at_budgets(X[160:], y[160:], BUDGETS)
        runs.append(
            b"".join(v.tobytes() for v in report.as_dict().values())
            + fitted.decision_function(X[160:]).tobytes()
            + fitted.chosen_tradeoffs(BUDGETS).tobytes()
        )
    assert runs[0] == runs[1]


@pytest.mark.parametrize(
    "params,name",
    [
        ({"validation_fraction": 0.0}, "validation_fraction"),
        ({"validation_fraction": 1.0}, "validation_fraction"),
        ({"model": "tree"}, "model"),
        ({"paths": []}, "paths"),
        ({"paths": ["forward", "ridge"]}, "paths"),
        ({"paths": ["lasso", "lasso"]}, "paths"),
        ({"forward_tradeoffs": -1.0}, "forward_tradeoffs"),
        ({"forward_tradeoffs": []}, "forward_tradeoffs"),
        ({"cv_folds": 1}, "cv_folds"),
        ({"max_groups": 0}, "max_groups"),
        ({"n_lambdas": 1}, "n_lambdas"),
        ({"lambda_min_ratio": 1.0}, "lambda_min_ratio"),
        ({"learning_rate": 0.0}, "learning_rate"),
        ({"C": [1.0, -1.0]}, "C"),
        ({"budget": -1.0}, "budget"),
        ({"nothing": 1}, "nothing"),
    ],
)
def test_parameter_errors_name_the_parameter(params, name):
    with pytest.raises(InvalidParameterError, match=f"^{name}: "):
        SelectThenTrain.check_params(params)
    X, y, *_ = _binarized(7, n=60)
    with pytest.raises(InvalidParameterError, match=f"^{name}: "):
        SelectThenTrain(**params).fit(X, y) if name != "nothing" else SelectThenTrain().set_params(
            **params
        )


def test_one_path_a_single_name_and_the_registry():
    X, y, groups, rng = _binarized(8)
    fitted = SelectThenTrain(paths="lasso", budget=3.0, random_state=0, **FAST).fit(X, y)
    assert {name for name, _ in fitted.set_paths_} == {"lasso"}
    assert estimator_class("SelectThenTrain") is SelectThenTrain
    assert SelectThenTrain.tunes({}) and SelectThenTrain.tunes({"validation_fraction": 0.5})


def test_nothing_affordable_is_the_empty_model():
    """When no group fits the budget, every budget serves the training majority at no cost."""
    X, y, groups, rng = _binarized(9)
    fitted = SelectThenTrain(budget=0.5, random_state=0, feature_costs=np.ones(24), **FAST)
    fitted.fit(X[:160], y[:160])
    assert fitted.sets_ == [] and fitted.refits_ == {}
    report = fitted.evaluate_at_budgets(X[160:], y[160:], [0.0, 0.5, 9.0])
    assert np.all(report.spent == 0) and np.all(report.n_features == 0)
    majority = 1 if np.sum(y[:160] > 0) > np.sum(y[:160] < 0) else -1
    assert np.all(fitted.predict(X[160:]) == majority)


@settings(max_examples=examples(20), derandomize=True)
@given(
    problem=problems(rows=(8, 40), columns=5, levels=(2, 3)),
    model=st.sampled_from(["gbm", "linear"]),
    budget=st.sampled_from([0.0, 0.3, 1.0, 2.5, None]),
    budgets=st.lists(
        st.sampled_from([0.0, 0.05, 0.4, 1.0, 2.0, 6.0, np.inf]), min_size=1, max_size=5
    ),
)
def test_contract_holds_on_small_problems(problem, model, budget, budgets):
    """On any small problem (ties, zero costs, groups, tiny classes): finite scores, every
    example within every (capped) budget, and the same outputs from a second fit."""
    X, y, costs, groups = problem
    reports = []
    for _ in range(2):
        fitted = SelectThenTrain(
            model=model,
            budget=budget,
            random_state=3,
            n_estimators=10,
            max_groups=3,
            feature_costs=costs,
            feature_groups=groups,
        ).fit(X, y)
        reports.append(fitted.evaluate_at_budgets(X, y, budgets))
    report = reports[0]
    capped = np.minimum(budgets, np.inf if budget is None else budget)
    assert np.all(report.max_example_cost <= capped + 1e-12)
    assert np.all(report.spent <= capped + 1e-12)
    assert np.all(report.mean_example_cost <= report.max_example_cost + 1e-12)
    for a, b in zip(reports[0].as_dict().values(), reports[1].as_dict().values(), strict=True):
        assert a.tobytes() == b.tobytes()


# ---------------------------------------------------------------------- the exhaustive search
def test_the_searched_size_and_the_sets_enumerated():
    from math import comb

    from budgetboost.estimators.selection.exhaustive import enumerate_sets, searched_size

    assert searched_size(57, 3, 1700) == 2 and comb(57, 1) + comb(57, 2) == 1653
    assert searched_size(21, 3, 1700) == 3 and searched_size(22, 3, 1700) == 2
    assert searched_size(1701, 3, 1700) == 0 and searched_size(4, 3, 1700) == 3
    pricing = Pricing.plain(np.array([1.0, 1.0, 2.5, 0.5]))
    eligible = np.array([True, True, True, False])
    sets = enumerate_sets(eligible, pricing, 3.0, 3, 100)
    expected = [[0], [1], [2], [0, 1]]  # {0, 2}, {1, 2}, {0, 1, 2} cost more than 3
    assert [s.tolist() for s in sets] == expected


@given(
    price=st.lists(st.integers(0, 4), min_size=1, max_size=12),
    data=st.data(),
    keep=st.integers(1, 4),
)
@settings(max_examples=examples(60))
def test_kept_sets_are_the_few_best_of_every_set_costing_no_more(price, data, keep):
    from budgetboost.estimators.selection.exhaustive import pareto_sets

    n = len(price)
    loss = data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n))
    price, loss = np.array(price, float), np.array(loss, float)
    kept = pareto_sets(price, loss, keep)
    for i in range(n):
        better = [
            j
            for j in range(n)
            if price[j] <= price[i] and (loss[j], price[j], j) < (loss[i], price[i], i)
        ]
        assert kept[i] == (len(better) < keep)


def _xor_attributes(seed: int, n: int = 400):
    """Six raw attributes as 4 indicators each; the label is the XOR of attributes 0 and 1
    (5 % noise): neither says anything alone, so a forward path never starts with them."""
    rng = np.random.default_rng(seed)
    raw = rng.normal(size=(n, 6))
    label = (raw[:, 0] > 0) ^ (raw[:, 1] > 0) ^ (rng.random(n) < 0.05)
    X = np.column_stack([raw[:, a] >= t for a in range(6) for t in (-1.0, -0.3, 0.0, 0.3)])
    return X.astype(float), np.where(label, 1, -1), np.repeat(np.arange(6), 4)


def test_the_exhaustive_search_finds_a_pair_scored_by_lightgbm_on_the_fit_part_only():
    """Under equal prices the XOR's pair is among the exhaustive sets kept, and budget 2 is
    served by it (the forward paths do not reach it; the lasso path may, so it is left out
    here); the kept sets are scored on the fit part: other values on the validation rows
    (shuffled among them, the split unchanged) keep the same sets; every (rate, leaves)
    pair is a configuration the validation part chooses among."""
    X, y, groups = _xor_attributes(0)
    params = {
        "budget": 3.0,
        "random_state": 2,
        "n_estimators": 40,
        "paths": ("forward", "exhaustive"),
        "feature_costs": np.ones(24),
        "feature_groups": groups,
    }
    fitted = SelectThenTrain(**params).fit(X[:300], y[:300])
    kept = [s.tolist() for s, (path, _) in zip(fitted.sets_, fitted.set_paths_, strict=True)]
    origin = dict(zip(map(tuple, kept), [p for p, _ in fitted.set_paths_], strict=True))
    assert origin.get((0, 1)) == "exhaustive"
    assert fitted.exhaustive_sets_ == 6 + 15 + 20  # every set of at most 3 of 6 attributes
    config, _ = fitted.choice_.at(np.array([2.0]))
    assert fitted.sets_[fitted.configs_[config[0]][0]].tolist() == [0, 1]
    assert fitted.evaluate_at_budgets(X[300:], y[300:], [1.0, 2.0]).error[1] < 0.2
    rows = fitted.validation_rows_
    shuffled = X[:300].copy()
    shuffled[rows] = shuffled[rows][np.random.default_rng(1).permutation(rows.size)]
    other = SelectThenTrain(**params).fit(shuffled, y[:300])
    assert np.array_equal(other.validation_rows_, rows)

    def exhaustive(model):
        return [
            s.tolist()
            for s, (path, _) in zip(model.sets_, model.set_paths_, strict=True)
            if path == "exhaustive"
        ]

    assert exhaustive(other) == exhaustive(fitted)
    values = {value for _, value in fitted.configs_}
    assert values == {(0.1, 4), (0.1, 31), (0.3, 4), (0.3, 31)}
