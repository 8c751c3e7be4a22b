"""The train job's check of what each test example reads (budgetboost.pipeline.verify), at
every budget: models that cheat at one budget only, or read cheaper columns than they report,
are caught, whatever rows the check samples; honest models pass, those that say what they
read and those that do not."""

from __future__ import annotations

import numpy as np
import pytest
from external_estimator import CheapestStump

from budgetboost.data.seeds import rng_from_key
from budgetboost.estimators.contract.checks import ContractError
from budgetboost.estimators.contract.names import estimator_class
from budgetboost.pipeline import verify
from budgetboost.pipeline.verify import TrialPrices, check_reads

#: The prices of the issue's cases: the best column costs 1.35; with the next two (0.53 and
#: 1.65) a vote reads 3.54; a cheap column of 0.2 is the honest stump's.
COSTS = np.array([1.35, 0.53, 1.65, 0.2, 1.9, 0.8])
#: A grid whose first, middle and last budgets (all the old check looked at) miss 1.0.
GRID = [0.25, 0.5, 1.0, 2.0, 3.0, 4.0]
#: Seeds of the check's draws: the cases must be caught whatever rows it samples.
SEEDS = range(12)


@pytest.fixture(scope="module")
def data():
    """Column 0 is the label with 10 % noise, columns 1 and 2 with 25 and 30 %: the three best
    columns are 0, 1, 2 in that order; 3-5 are noise. 300 rows: 200 to fit, 100 to test."""
    rng = rng_from_key("test_verify", "data")
    y = np.where(rng.random(300) < 0.5, 1, -1)
    positive = y > 0
    columns = [positive ^ (rng.random(300) < p) for p in (0.1, 0.25, 0.3)]
    columns += [rng.random(300) < 0.5 for _ in range(3)]
    return np.column_stack(columns).astype(float), y


def fitted(data, name, **params):
    X, y = data
    cls = estimator_class(f"fixtures.misbehaving_estimators:{name}")
    return cls(feature_costs=COSTS, **params).fit(X[:200], y[:200])


def checked(estimator, data, seed=0, grid=GRID, prices=None):
    """:func:`check_reads` of a fitted estimator on the test rows, as a train job calls it."""
    X, y = data
    evaluation = estimator.evaluate_at_budgets(X[200:], y[200:], grid)
    prices = TrialPrices.of(COSTS) if prices is None else prices
    rng = np.random.default_rng(seed)
    return check_reads(estimator, X[200:], y[200:], evaluation, grid, prices, rng, "trial 0")


def test_the_old_check_looked_at_three_budgets_of_six():
    """Wrong case 1's premise: the grid's first, middle and last budgets leave 1.0 out."""
    assert {GRID[0], GRID[len(GRID) // 2], GRID[-1]} == {0.25, 2.0, 4.0}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "detail"),
    [
        # no groups_read: the columns priced above the reported cost are replaced
        ("OneBudgetPeeker", "every example checked paid at most 0, so none could read the 6"),
        # groups_read says nothing is read at 1.0: every column is replaced there
        ("OneBudgetPeekerSays", "replacing the columns outside the feature groups each"),
    ],
)
def test_a_model_cheating_at_one_budget_is_caught_at_that_budget(data, seed, name, detail):
    """Wrong case 1: honest everywhere but at budget 1.0, where it reads the best column
    (1.35) and reports a spent of 0; the check looked at the first, middle and last budgets
    only and accepted it."""
    cheat = fitted(data, name)
    evaluation = cheat.evaluate_at_budgets(data[0][200:], data[1][200:], GRID)
    assert evaluation.spent[GRID.index(1.0)] == 0  # what it reports there
    with pytest.raises(ContractError) as err:
        checked(cheat, data, seed)
    assert str(err.value).startswith("trial 0, budget 1: the model reads columns it does not")
    assert detail in str(err.value)
    assert err.value.budget == 1.0


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "detail"),
    [
        # no groups_read: each group replaced alone shows the vote depends on two or three
        ("ThreeColumnVote", "the model reads more than it reports: the prediction of test row"),
        # groups_read names one column: the two cheaper ones are replaced
        ("ThreeColumnVoteSaysOne", "the model reads columns it does not pay for: replacing"),
        # groups_read names all three: their price is not what is reported
        ("ThreeColumnVoteSaysAll", "mean_example_cost is 1.65, but the feature groups the"),
    ],
)
def test_a_model_reading_cheaper_columns_than_it_reports_is_caught(data, seed, name, detail):
    """Wrong case 2: a vote of three columns (1.35 + 0.53 + 1.65 = 3.54) reported as 1.65 was
    accepted: only the columns priced above 1.65 were shuffled."""
    cheat = fitted(data, name)
    assert sorted(cheat.columns_.tolist()) == [0, 1, 2] and cheat.reported_ == 1.65
    with pytest.raises(ContractError) as err:
        checked(cheat, data, seed)
    assert str(err.value).startswith("trial 0, budget 2: ")
    assert detail in str(err.value)


def test_the_price_of_a_read_includes_the_discount_groups(data):
    """The costs are compared at the cost model's prices: columns 1 and 2 (0.53 and 1.65)
    share a part of 0.5 (discount prices 0.03 and 1.15), so the three columns cost 1.35 +
    0.5 + 0.03 + 1.15 = 3.03, not 3.54, and the reported 1.65 is refused with that price."""
    cheat = fitted(data, "ThreeColumnVoteSaysAll")
    dg = np.array([-1, 0, 0, -1, -1, -1])
    discount = np.array([1.35, 0.03, 1.15, 0.2, 1.9, 0.8])
    prices = TrialPrices.of(COSTS, None, (dg, discount))
    with pytest.raises(ContractError, match="cost 3.03 at the cost model's prices"):
        checked(cheat, data, prices=prices)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_honest_model_that_does_not_say_what_it_reads_passes_the_probe(data, seed):
    """The README's example estimator has no groups_read: what its predictions depend on is
    found, one feature group at a time, and it is what it pays for."""
    X, y = data
    model = CheapestStump(feature_costs=COSTS).fit(X[:200], y[:200])
    assert checked(model, data, seed) == "probed"


def test_what_an_estimator_says_it_reads_is_checked_for_shape(data):
    """``groups_read`` is part of the contract: a wrong shape or dtype is refused."""
    model = fitted(data, "ThreeColumnVoteSaysAll")
    X = data[0][200:]
    good = model._groups_read(X, np.array(GRID))
    assert model.groups_read(X, GRID).shape == (len(GRID), 1, 6)
    for bad, message in [
        (good.astype(int), "must be a boolean array"),
        (good[:, :, :5], r"expected \(n_budgets, n_samples or 1, n_groups\) = \(6, 100 or 1, 6\)"),
        (np.zeros((6, 7, 6), dtype=bool), "have 7 rows for 100 examples"),
    ]:
        model._groups_read = lambda X, budgets, bad=bad: bad
        with pytest.raises(ContractError, match=message):
            model.groups_read(X, GRID)


def test_every_budget_is_checked_on_its_own_sample(data, monkeypatch):
    """Each budget gets :data:`~verify.CHECK_ROWS` rows drawn afresh, stacked: the model is
    asked once for what they read and twice for their predictions, whatever the grid."""
    model = fitted(data, "ThreeColumnVoteSaysAll")
    model.reported_ = float(COSTS[[0, 1, 2]].sum())  # an honest report
    calls = []
    for method in ("groups_read", "predict_at_budgets"):
        original = getattr(model, method)

        def spy(X, budgets, original=original, method=method):
            calls.append((method, X.shape[0], len(budgets)))
            return original(X, budgets)

        monkeypatch.setattr(model, method, spy)
    X, y = data
    evaluation = model.evaluate_at_budgets(X[200:], y[200:], GRID)
    rng = np.random.default_rng(0)
    prices = TrialPrices.of(COSTS)
    assert check_reads(model, X[200:], y[200:], evaluation, GRID, prices, rng, "t") == "reads"
    rows = verify.CHECK_ROWS * len(GRID)
    assert calls == [
        ("groups_read", rows, len(GRID)),
        ("predict_at_budgets", rows, len(GRID)),
        ("predict_at_budgets", rows, len(GRID)),
    ]


# ------------------------------------------------------------------ the package's estimators
#: Every estimator of the package, small.
BUILT_IN = {
    "greedy": ("BudgetedBoost", {"criterion": "greedy", "max_rounds": 25}),
    "smoothed_trees": (
        "BudgetedBoost",
        {"criterion": "smoothed", "max_rounds": 15, "weak_learner": "tree", "max_depth": 2},
    ),
    "tuned": ("TunedBoost", {"criterion": "smoothed", "max_rounds": 20}),
    "rs": ("AdaBoostRS", {"n_rounds": 25}),
    "rs_ac": ("AdaBoostRS", {"n_rounds": 25, "cost_weighted": True}),
    "tree": ("BudgetedTree", {}),
    "tree_cs": ("BudgetedTree", {"cost_sensitive": True}),
    "prune": ("BudgetPrune", {"n_estimators": 4, "max_depth": 3}),
    "aaco": ("AACO", {"n_subsets": 4}),
    "select_linear": ("SelectThenTrain", {"model": "linear"}),
    "lightgbm": ("BudgetedLightGBM", {"n_estimators": 20, "max_depth": 1}),
    "lightgbm_depth": ("BudgetedLightGBM", {"n_estimators": 20, "max_depth": [1, 3]}),
    "lightgbm_example": (
        "BudgetedLightGBM",
        {"n_estimators": 20, "max_depth": [1, 3], "charging": "example"},
    ),
    "catboost": ("BudgetedCatBoost", {"iterations": 15, "depth": [1, 2]}),
    "streed": ("BudgetedSTreeD", {"max_depth": [1, 2, 3], "min_leaf_node_size": 5}),
}
#: The budgets of these tests: from nothing to everything.
BUDGETS = [0.0, 0.5, 1.0, 2.0, 3.5, 6.0, 12.0]


@pytest.fixture(scope="module")
def priced():
    """Four raw attributes of three 0/1 indicators each (12 columns) with an informative
    pair, and their prices three ways: per column, per attribute, and per attribute with
    Turney's discount groups (attributes 1 and 2 share a part of 0.5)."""
    rng = rng_from_key("test_verify", "priced")
    raw = rng.integers(0, 4, size=(260, 4))
    y = np.where(raw[:, 0] + raw[:, 1] + rng.integers(0, 3, 260) >= 4, 1, -1)
    X = np.column_stack([raw >= t for t in (1, 2, 3)]).astype(float)
    groups = np.tile(np.arange(4), 3)
    cost = np.array([1.35, 0.53, 1.65, 0.8])
    return (
        X,
        y,
        {
            "per column": {"feature_costs": rng.uniform(0, 2, 12)},
            "per attribute": {"feature_costs": cost[groups], "feature_groups": groups},
            "discount groups": {
                "feature_costs": cost[groups],
                "feature_groups": groups,
                "discount_groups": np.array([-1, 0, 0, -1])[groups],
                "discount_costs": np.array([1.35, 0.03, 1.15, 0.8])[groups],
            },
        },
    )


_FITTED: dict = {}


def built_in(priced, name, pricing):
    """The estimator ``name`` fitted on the first 180 rows at ``pricing`` (once per module)."""
    if (name, pricing) not in _FITTED:
        _FITTED[name, pricing] = _fit(priced, name, pricing)
    return _FITTED[name, pricing]


def _fit(priced, name, pricing):
    X, y, prices = priced
    cls_name, params = BUILT_IN[name]
    cls = estimator_class(cls_name)
    names = cls._get_param_names()
    seeded = {"random_state": 3} if "random_state" in names else {}
    capped = {"budget": max(BUDGETS[:-1])} if "budget" in names else {}
    model = cls(**params, **seeded, **prices[pricing], **capped)
    return model.fit(X[:180], y[:180])


def trial_prices(priced, pricing):
    params = priced[2][pricing]
    discounts = params.get("discount_groups")
    return TrialPrices.of(
        params["feature_costs"],
        params.get("feature_groups"),
        None if discounts is None else (discounts, params["discount_costs"]),
    )


PRICINGS = ["per column", "per attribute", "discount groups"]


@pytest.mark.parametrize("pricing", PRICINGS)
@pytest.mark.parametrize("name", list(BUILT_IN))
def test_each_example_pays_the_price_of_the_groups_it_reads(priced, name, pricing):
    """From the definition, one test example at a time: the cost each example pays at each
    budget is the price of the feature groups ``groups_read`` says it reads (at the cost
    model's prices, discount groups included), and within the budget."""
    X, y, _ = priced
    model = built_in(priced, name, pricing)
    prices = trial_prices(priced, pricing)
    for i in range(180, 260, 4):
        row = X[i : i + 1]
        reads = model.groups_read(row, BUDGETS)
        paid = model.evaluate_at_budgets(row, y[i : i + 1], BUDGETS).mean_example_cost
        for b, read in enumerate(reads):
            price = prices.pricing.set_cost(np.flatnonzero(read[0]))
            assert paid[b] == pytest.approx(price, rel=1e-12, abs=1e-12), (i, BUDGETS[b])
            assert price <= BUDGETS[b] + 1e-9


@pytest.mark.parametrize("pricing", PRICINGS)
@pytest.mark.parametrize("name", list(BUILT_IN))
def test_the_package_estimators_pass_both_checks(priced, name, pricing, monkeypatch):
    """Every estimator of the package says what it reads, and is what it says; the probe
    used for the estimators that do not say finds nothing wrong with them either."""
    X, y, _ = priced
    model = built_in(priced, name, pricing)
    evaluation = model.evaluate_at_budgets(X[180:], y[180:], BUDGETS)
    prices = trial_prices(priced, pricing)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        args = (model, X[180:], y[180:], evaluation, BUDGETS, prices, rng, "t")
        assert check_reads(*args) == "reads"
    monkeypatch.setattr(model, "_groups_read", lambda X, budgets: None)
    assert check_reads(*args) == "probed"
