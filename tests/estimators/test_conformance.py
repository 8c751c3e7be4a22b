"""Every registered estimator against the contract, in one suite parametrised over the registry.

The registered estimators are the package's (``budgetboost.estimators.contract.registry``: its
``ESTIMATORS``, and the ``PARTS`` other estimators are built of), every
``"module:Class"`` a config of ``config/`` names, and those of the configs given with
``--conformance-config FILE`` (a config of a user's own). An estimator joins these tests by
being registered: no edit here. Each is checked at each of its ``conformance_cases`` (small
parameter sets its class declares): scikit-learn's estimator checks, its parameters' declared
constraints, the record of ``evaluate_at_budgets``, the budget under three pricings (per
column, per attribute, per attribute with Turney's discount groups), the price each example
pays for the feature groups it reads, the train job's check of those reads, and the same
results from the same ``random_state``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from helpers import REPO

from budgetboost.data.seeds import rng_from_key
from budgetboost.data.yamlfile import load_yaml
from budgetboost.estimators.contract.base import BudgetedEstimator, BudgetEvaluation
from budgetboost.estimators.contract.checks import BUDGET_TOLERANCE
from budgetboost.estimators.contract.registry import ESTIMATORS, PARTS, estimator_class
from budgetboost.pipeline.verify import TrialPrices, check_reads_paid_for, measure

#: The budgets of these tests: from nothing to everything.
BUDGETS = [0.0, 0.5, 1.0, 2.0, 3.5, 6.0, 12.0]
PRICINGS = ["per column", "per attribute", "discount groups"]


def registered(configs: list[Path]) -> dict[str, str]:
    """``{name: estimator}``: the package's estimators (and the parts of them that are
    estimators too) and every ``module:Class`` the ``configs`` name (an algorithm entry's
    ``estimator``)."""
    found = {name: name for name in ESTIMATORS}
    found.update({path.rpartition(":")[2]: path for path in PARTS})
    for path in configs:
        for entry in (load_yaml(path) or {}).get("algorithms", {}).values():
            estimator = str(entry.get("estimator", ""))
            if ":" in estimator:
                found.setdefault(estimator.rpartition(":")[2], estimator)
    return found


def pytest_generate_tests(metafunc):
    """``case``: (estimator, case name) of every registered estimator; ``cls``: each class."""
    configs = sorted((REPO / "config").glob("*.yaml"))
    configs += [Path(p) for p in metafunc.config.getoption("--conformance-config")]
    estimators = registered(configs)
    if "case" in metafunc.fixturenames:
        cases = [
            (estimator, case)
            for estimator in estimators.values()
            for case in estimator_class(estimator).conformance_cases
        ]
        ids = [f"{estimator.rpartition(':')[2]}-{case}" for estimator, case in cases]
        metafunc.parametrize("case", cases, ids=ids)
    if "cls" in metafunc.fixturenames:
        metafunc.parametrize(
            "cls", [estimator_class(e) for e in estimators.values()], ids=list(estimators)
        )


def make(case: tuple[str, str], **costs) -> BudgetedEstimator:
    """The estimator of ``case``, seeded and capped below the largest budget where it has a
    ``random_state`` and a ``budget`` (as the pipeline sets them)."""
    estimator, name = case
    cls = estimator_class(estimator)
    names = cls._get_param_names()
    seeded = {"random_state": 3} if "random_state" in names else {}
    capped = {"budget": max(BUDGETS[:-1])} if "budget" in names else {}
    return cls(**cls.conformance_cases[name], **seeded, **capped, **costs)


@pytest.fixture(scope="module")
def priced():
    """Four raw attributes of three 0/1 indicators each (12 columns) with an informative
    pair, and their prices three ways: per column, per attribute, and per attribute with
    Turney's discount groups (attributes 1 and 2 share a part of 0.5)."""
    rng = rng_from_key("test_conformance", "priced")
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


def fitted(priced, case, pricing) -> BudgetedEstimator:
    """The estimator of ``case`` fitted on the first 180 rows at ``pricing`` (once per module).

    An estimator without ``discount_groups`` runs only under cost models whose tests share no
    part (the pipeline would pass it the groups): the discount-groups pricing is skipped."""
    names = estimator_class(case[0])._get_param_names()
    if pricing == "discount groups" and "discount_groups" not in names:
        pytest.skip(f"{case[0]} takes no discount groups (it runs where tests share no part)")
    if (case, pricing) not in _FITTED:
        X, y, prices = priced
        _FITTED[case, pricing] = make(case, **prices[pricing]).fit(X[:180], y[:180])
    return _FITTED[case, pricing]


def trial_prices(priced, pricing) -> TrialPrices:
    params = priced[2][pricing]
    discounts = params.get("discount_groups")
    return TrialPrices.of(
        params["feature_costs"],
        params.get("feature_groups"),
        None if discounts is None else (discounts, params["discount_costs"]),
    )


# ------------------------------------------------------------------ parameters
def test_every_constructor_parameter_has_constraints(cls):
    assert sorted(cls._parameter_constraints) == cls._get_param_names()


def test_the_cases_pass_the_parameter_checks(cls):
    assert cls.conformance_cases, f"{cls.__name__} declares no conformance case"
    for params in cls.conformance_cases.values():
        cls.check_params(params)


# ------------------------------------------------------------------ scikit-learn
@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:Estimator .* does not inherit")
def test_scikit_learns_estimator_checks(case):
    from sklearn.utils.estimator_checks import check_estimator

    check_estimator(make(case))


# ------------------------------------------------------------------ the contract
@pytest.mark.parametrize("pricing", PRICINGS)
def test_the_record_and_the_budget_under_grouped_costs(priced, case, pricing):
    """The record of ``evaluate_at_budgets`` (one float64 entry per budget, in the order
    asked, the error that of ``predict_at_budgets``) and every cost within its budget."""
    X, y, _ = priced
    model = fitted(priced, case, pricing)
    order = [3.5, 0.0, 12.0, 1.0, 0.5, 6.0, 2.0]
    record = model.evaluate_at_budgets(X[180:], y[180:], order)
    assert isinstance(record, BudgetEvaluation) and len(record) == len(order)
    labels = model.predict_at_budgets(X[180:], order)
    np.testing.assert_array_equal(record.error, (labels != y[180:]).mean(axis=1))
    limit = np.asarray(order) + BUDGET_TOLERANCE * np.maximum(1.0, order)
    assert np.all(record.spent <= limit) and np.all(record.max_example_cost <= limit)
    assert np.all(record.mean_example_cost <= record.max_example_cost + 1e-12)


@pytest.mark.parametrize("pricing", PRICINGS)
def test_each_example_pays_the_price_of_the_groups_it_reads(priced, case, pricing):
    """From the definition, one test example at a time: the cost each example pays at each
    budget is the price of the feature groups ``groups_read`` says it reads (at the cost
    model's prices, discount groups included), and within the budget. An estimator that does
    not say what it reads is probed by the next test instead."""
    X, y, _ = priced
    model = fitted(priced, case, pricing)
    prices = trial_prices(priced, pricing)
    if model.groups_read(X[180:181], BUDGETS) is None:
        pytest.skip(f"{case[0]} does not say what it reads (the train job probes it)")
    for i in range(180, 260, 4):
        row = X[i : i + 1]
        reads = model.groups_read(row, BUDGETS)
        paid = model.evaluate_at_budgets(row, y[i : i + 1], BUDGETS).mean_example_cost
        for b, read in enumerate(reads):
            price = prices.pricing.set_cost(np.flatnonzero(read[0]))
            assert paid[b] == pytest.approx(price, rel=1e-12, abs=1e-12), (i, BUDGETS[b])
            assert price <= BUDGETS[b] + 1e-9


@pytest.mark.parametrize("pricing", PRICINGS)
def test_the_train_jobs_check_of_what_it_reads_passes(priced, case, pricing, monkeypatch):
    """What an estimator says it reads is what it reads; the probe used for estimators that
    do not say finds nothing wrong with it either."""
    X, y, _ = priced
    model = fitted(priced, case, pricing)
    labels, evaluation = measure(model, X[180:], y[180:], BUDGETS)
    prices = trial_prices(priced, pricing)
    says = model.groups_read(X[180:181], BUDGETS) is not None
    for seed in range(3):
        rng = np.random.default_rng(seed)
        args = (model, X[180:], y[180:], labels, evaluation, BUDGETS, prices, rng, "t")
        assert check_reads_paid_for(*args) == ("reads" if says else "probed")
    monkeypatch.setattr(model, "_groups_read", lambda X, budgets: None)
    assert check_reads_paid_for(*args) == "probed"


@pytest.mark.parametrize("pricing", PRICINGS)
def test_what_the_pipeline_stores_is_the_estimators_evaluation(priced, case, pricing):
    """The train job computes its record itself (``verify.measure``: the checked hook through
    the base class); for every estimator it is its ``evaluate_at_budgets``, byte for byte,
    and its labels are ``predict_at_budgets``: no shard moves by a last bit."""
    X, y, _ = priced
    model = fitted(priced, case, pricing)
    labels, stored = measure(model, X[180:], y[180:], BUDGETS)
    own = model.evaluate_at_budgets(X[180:], y[180:], BUDGETS)
    np.testing.assert_array_equal(labels, model.predict_at_budgets(X[180:], BUDGETS))
    for field, value in own.as_dict().items():
        assert getattr(stored, field).tobytes() == value.tobytes(), field


def test_the_same_random_state_gives_the_same_results(priced, case):
    X, y, prices = priced
    again = make(case, **prices["per attribute"]).fit(X[:180], y[:180])
    first = fitted(priced, case, "per attribute").evaluate_at_budgets(X[180:], y[180:], BUDGETS)
    second = again.evaluate_at_budgets(X[180:], y[180:], BUDGETS)
    for field, value in first.as_dict().items():
        np.testing.assert_array_equal(value, getattr(second, field), err_msg=field)


def test_clone_keeps_the_parameters(case):
    from sklearn.base import clone

    model = make(case, feature_costs=[1.0, 2.0])
    assert repr(clone(model).get_params()) == repr(model.get_params())
