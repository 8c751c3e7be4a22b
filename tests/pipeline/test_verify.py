"""What the train job computes and checks of an estimator (budgetboost.pipeline.verify): the
errors stored are those of the labels it predicts, whatever its own evaluate_at_budgets says;
at every budget, on the stored labels' own question, models that cheat at one budget only,
read cheaper columns than they report, or read an unpaid column only on questions larger than
a sample are caught, whatever the check draws; honest models pass, those that say what they
read and those that do not."""

from __future__ import annotations

import numpy as np
import pytest
from external_estimator import CheapestStump

from budgetboost.data.seeds import rng_from_key
from budgetboost.estimators.contract.checks import ContractError
from budgetboost.estimators.contract.registry import estimator_class
from budgetboost.pipeline import verify
from budgetboost.pipeline.verify import TrialPrices, check_reads_paid_for, measure

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
    """:func:`check_reads_paid_for` of a fitted estimator on the test rows, as a train job
    calls it."""
    X, y = data
    labels, evaluation = measure(estimator, X[200:], y[200:], grid)
    prices = TrialPrices.of(COSTS) if prices is None else prices
    rng = np.random.default_rng(seed)
    args = (labels, evaluation, grid, prices, rng, "trial 0")
    return check_reads_paid_for(estimator, X[200:], y[200:], *args)


def test_the_old_check_looked_at_three_budgets_of_six():
    """The grid's first, middle and last budgets leave 1.0 out: a check of those three alone misses
    a model cheating at 1.0 (the next test)."""
    assert {GRID[0], GRID[len(GRID) // 2], GRID[-1]} == {0.25, 2.0, 4.0}


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize(
    ("name", "detail"),
    [
        # no groups_read: the columns priced above the reported cost are replaced
        ("OneBudgetPeeker", "every test example paid at most 0, so none could read the 6"),
        # groups_read says nothing is read at 1.0: every column is replaced there
        ("OneBudgetPeekerSays", "replacing the columns outside the feature groups each"),
    ],
)
def test_a_model_cheating_at_one_budget_is_caught_at_that_budget(data, seed, name, detail):
    """A model honest everywhere but at budget 1.0, where it reads the best column (1.35) and
    reports a spent of 0, is caught at that budget (not only the first, middle and last budgets are
    checked)."""
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
    """A vote of three columns (1.35 + 0.53 + 1.65 = 3.54) reported as 1.65 is caught, though only
    the 1.65 column is priced at the reported spent."""
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


def test_the_stored_question_is_asked_again_a_few_times_whatever_the_grid(data, monkeypatch):
    """The model is asked for what every test row reads, then about the whole test set at
    the whole grid, as for the stored labels, :data:`~verify.CHECK_QUESTIONS` times: each
    time every row is checked at one budget, its unpaid columns replaced."""
    model = fitted(data, "ThreeColumnVoteSaysAll")
    model.reported_ = float(COSTS[[0, 1, 2]].sum())  # an honest report
    calls = []
    for method in ("_groups_read", "_scores_and_costs"):
        original = getattr(model, method)

        def spy(X, budgets, original=original, method=method):
            calls.append((method, X.shape[0], len(budgets)))
            return original(X, budgets)

        monkeypatch.setattr(model, method, spy)
    assert checked(model, data) == "reads"
    n = len(data[1]) - 200
    stored = ("_scores_and_costs", n, len(GRID))
    assert verify.CHECK_QUESTIONS < len(GRID)
    assert calls == [stored, ("_groups_read", n, len(GRID))] + [stored] * verify.CHECK_QUESTIONS


@pytest.mark.parametrize("seed", SEEDS)
def test_a_model_reading_an_unpaid_column_on_large_questions_only_is_caught(data, seed):
    """A model that pays for and says its three cheapest columns, and reads the best column outside
    them only when asked about more rows than 8 per budget (the check's sample), is caught."""
    cheat = fitted(data, "SizePeeker")
    X, y = data
    big, _ = measure(cheat, X[200:], y[200:], GRID)
    small = np.concatenate(
        [
            measure(cheat, X[200 + i : 208 + i], y[200 + i : 208 + i], GRID)[0]
            for i in range(0, 96, 8)
        ],
        axis=1,
    )
    at = GRID.index(4.0)  # the three cheapest columns (0.2 + 0.53 + 0.8) are paid
    assert np.mean(big[at, :96] != y[200:296]) < np.mean(small[at] != y[200:296])
    with pytest.raises(ContractError) as err:
        checked(cheat, data, seed)
    assert str(err.value).startswith(
        "trial 0, budget 2: the model reads columns it does not pay for: replacing the columns "
        "outside the feature groups each test example reads by other values changed "
    )


def test_the_stored_error_is_that_of_the_predicted_labels(data):
    """The stored error is that of the predicted labels, never what an estimator's own
    evaluate_at_budgets reports (here half its error): the pipeline never calls it."""
    X, y = data
    cheat = fitted(data, "HalfError")
    honest = CheapestStump(feature_costs=COSTS).fit(X[:200], y[:200])
    said = cheat.evaluate_at_budgets(X[200:], y[200:], GRID).error
    labels, stored = measure(cheat, X[200:], y[200:], GRID)
    np.testing.assert_array_equal(stored.error, np.mean(labels != y[None, 200:], axis=1))
    np.testing.assert_array_equal(stored.error, measure(honest, X[200:], y[200:], GRID)[1].error)
    assert (said < stored.error).any()
    assert verify.never_called(type(cheat)) == ["evaluate_at_budgets"]
    assert verify.never_called(CheapestStump) == []


@pytest.mark.parametrize("name", ["Restless", "RestlessSays"])
def test_a_model_drawing_from_global_random_state_is_called_not_reproducible(data, name):
    """A model drawing from global random state at every question is called not reproducible (asked
    the stored question again, unchanged, it answers otherwise), not a model reading columns it does
    not pay for."""
    model = fitted(data, name)
    with pytest.raises(ContractError) as err:
        checked(model, data)
    assert str(err.value).startswith("trial 0, budget 0.25: not reproducible: asked the same ")
    assert "draw every random number from random_state, never from global state" in str(err.value)
