"""AACO's boosted predictor (budgetboost.estimators.acquisition.boosted) and the horizon equal to
each served budget: against LightGBM trained by hand and loops written from the definitions;
every choice (the masked model's trees, ``alpha`` per budget) made on the validation rows."""

from __future__ import annotations

import numpy as np
import pytest

from budgetboost.estimators.acquisition.aaco import AACO
from budgetboost.estimators.acquisition.boosted import (
    PARAMS,
    SUBSET_TREES,
    MaskedBoosted,
    SubsetBoosted,
    fit_masked_boosted,
    predicted_scores,
    reachable_subsets,
)
from budgetboost.estimators.acquisition.masked_logistic import random_masks, softplus
from budgetboost.estimators.acquisition.rollout import rollout

lightgbm = pytest.importorskip("lightgbm")


def grouped(seed: int = 0, n: int = 240):
    """0/1 columns in 4 groups of 2; the label needs groups 0 and 1 together (an XOR)."""
    rng = np.random.default_rng(seed)
    X = rng.integers(0, 2, size=(n, 8)).astype(float)
    y = np.where((X[:, 0] != X[:, 2]) ^ (rng.random(n) < 0.1), 1, -1)
    return X, y, np.arange(8) // 2


def test_reachable_subsets_count_every_subset_the_cheapest_afford():
    assert reachable_subsets(np.ones(4), 2.0, 32) == 1 + 4 + 6
    assert reachable_subsets(np.ones(4), 10.0, 32) == 16
    assert reachable_subsets(np.ones(4), 10.0, 1) == 5
    assert reachable_subsets(np.array([0.5, 3.0, 3.0]), 3.4, 32) == 1 + 3  # one at a time


def test_a_subset_model_is_lightgbm_on_its_groups_columns():
    X, y, group = grouped()
    columns = np.arange(8)
    model = SubsetBoosted(X[:200], (y[:200] > 0).astype(np.int32), columns, group, seed=3)
    observed = np.zeros((40, 4), dtype=bool)
    observed[:20, [0, 1]] = True  # half the examples observed groups 0 and 1, half nothing
    scores = model.scores(X[200:], observed)
    params = {**PARAMS, "num_threads": 1, "seed": 3}
    read = np.isin(group, [0, 1])
    data = lightgbm.Dataset(X[:200][:, read], label=(y[:200] > 0).astype(int), params=params)
    booster = lightgbm.train(params, data, num_boost_round=SUBSET_TREES)
    np.testing.assert_array_equal(scores[:20], booster.predict(X[200:220][:, read], raw_score=True))
    prior = np.mean(y[:200] > 0)
    np.testing.assert_allclose(scores[20:], np.log(prior / (1 - prior)))
    assert len(model.models) == 2  # one per subset asked for
    # a subset's model does not depend on which examples asked first
    again = SubsetBoosted(X[:200], (y[:200] > 0).astype(np.int32), columns, group, seed=3)
    np.testing.assert_array_equal(again.scores(X[200:][::-1], observed[::-1]), scores[::-1])


def test_predicted_scores_follow_each_trajectory_as_a_loop_does():
    X, y, group = grouped(1)
    model = SubsetBoosted(X[:150], (y[:150] > 0).astype(np.int32), np.arange(8), group, seed=0)
    rng = np.random.default_rng(0)
    m, T = 30, 3
    example = np.tile(np.arange(m), 2)
    traj = np.stack([rng.permutation(4)[:T] for _ in range(2 * m)])
    steps = rng.integers(0, T + 1, size=2 * m)
    paid = np.where(np.arange(T)[None, :] < steps[:, None], 1.0, np.inf)
    traj = np.where(np.isfinite(paid), traj, -1)
    score = predicted_scores(model, X[150:180], example, traj, paid, 4)
    for r in range(2 * m):
        for t in range(T + 1):
            observed = np.zeros((1, 4), dtype=bool)
            observed[0, traj[r, : min(t, steps[r])]] = True
            expected = model.scores(X[150 + example[r] : 151 + example[r]], observed)[0]
            assert score[r, t] == expected


def test_the_masked_models_trees_are_chosen_on_the_held_out_rows_only():
    """The trees used are the prefix of lowest masked log loss on the held-out rows (masks
    drawn after the training masks and the seed, as the fit draws them), computed here from
    LightGBM's own predictions; the model itself is trained without the held-out rows
    (the same trees without them), and a refit takes the number it is given."""
    X, y, group = grouped(2, n=400)
    columns = np.arange(8)
    train, held = slice(0, 250), slice(250, 400)
    model, losses = fit_masked_boosted(
        X[train], y[train], columns, group, 4, np.random.default_rng(7), 4, 4, (X[held], y[held])
    )
    assert isinstance(model, MaskedBoosted) and model.n_trees == int(np.argmin(losses))
    rng = np.random.default_rng(7)
    random_masks(rng, 250, 4, 4, 4)
    rng.integers(2**31 - 1)
    mask = random_masks(rng, 150, 4, 4, 4)
    Z = np.where(mask[:, :, group], np.broadcast_to(X[held], (4, 150, 8)), np.nan).reshape(-1, 8)
    margin = np.tile(np.where(y[held] > 0, 1.0, -1.0), 4)
    for k in (1, 10, model.n_trees, 300):
        raw = model.booster.predict(Z, raw_score=True, num_iteration=k)
        assert losses[k] == pytest.approx(softplus(-margin * raw).mean(), rel=1e-6)
    alone, none = fit_masked_boosted(
        X[train], y[train], columns, group, 4, np.random.default_rng(7), 4, 4, None, 17
    )
    assert none is None and alone.n_trees == 17
    probe = np.where(np.ones((150, 8), bool), X[held], np.nan)
    np.testing.assert_array_equal(
        alone.booster.predict(probe, raw_score=True, num_iteration=17),
        model.booster.predict(probe, raw_score=True, num_iteration=17),
    )


def aaco(**params) -> tuple[AACO, np.ndarray, np.ndarray]:
    X, y, group = grouped(3, n=300)
    costs = np.repeat([1.0, 1.0, 0.5, 0.25], 2)
    model = AACO(
        budget=2.0,
        n_subsets=4,
        max_acquisitions=4,
        random_state=2,
        feature_costs=costs,
        feature_groups=group,
        **params,
    ).fit(X[:200], y[:200])
    return model, X, y


def test_aaco_uses_a_model_per_subset_where_few_else_the_masked_model_chosen_on_validation():
    few, X, y = aaco(predictor="boosted")
    assert isinstance(few.refits_[next(iter(few.refits_))].predictor, SubsetBoosted)
    assert few.predictor_trees_ is None
    many, *_ = aaco(predictor="boosted", max_subset_models=4)
    fitted = many.models_[0].predictor
    assert isinstance(fitted, MaskedBoosted)
    assert many.predictor_trees_ == fitted.n_trees == int(np.argmin(many.predictor_losses_))
    assert many.refits_[next(iter(many.refits_))].predictor.n_trees == many.predictor_trees_
    # the validation rows decide: their values shuffled among them (the fit part and the
    # split unchanged), other losses of the same trees; other test rows served change nothing
    shuffled = X[:200].copy()
    rows = many.validation_rows_
    shuffled[rows] = shuffled[rows][np.random.default_rng(0).permutation(rows.size)]
    other = AACO(**many.get_params()).fit(shuffled, y[:200])
    assert np.array_equal(other.validation_rows_, rows)
    probe = X[200:].copy()
    np.testing.assert_array_equal(
        other.models_[0].predictor.booster.predict(probe, raw_score=True),
        fitted.booster.predict(probe, raw_score=True),
    )
    assert not np.array_equal(other.predictor_losses_, many.predictor_losses_)
    before = many.predictor_trees_
    many.predict_at_budgets(X[200:], [0.5, 1.0, 2.0])
    assert many.predictor_trees_ == before
    # the served scores are the predictor's on the served trajectories
    scores, _ = many._checked_scores_and_costs(X[200:], np.array([2.0]))
    refit = many.refits_[next(iter(many.refits_))]
    config, _ = many.choice_.at(np.array([2.0]))
    one = rollout(
        refit,
        X[200:],
        many.tradeoffs_[config],
        horizons=many.horizons_[config],
        predict=bool(many.boosted_[config[0]]),
    )
    steps, score, _ = one.at_budgets(np.array([2.0]))
    np.testing.assert_allclose(scores[0], score[0] + many.majority_ * 1e-10, rtol=0, atol=1e-12)


def test_each_budget_is_its_own_horizon_and_alpha_is_chosen_on_validation_rollouts():
    """With ``horizons="budget"``: the validation rollouts' horizons are ``budget`` halved
    while the cheapest group fits; at each validation budget the configuration chosen
    (``alpha``, and the boosted predictor or the classifier) is, among those whose horizon
    stands for the budget (the largest at most it), the one of fewest validation errors,
    the two predictors scoring the same plans; a served budget is a rollout whose horizon
    is the budget."""
    model, X, y = aaco(horizons="budget", alphas=[0.0, 0.5], predictor="boosted")
    np.testing.assert_allclose(np.unique(model.horizons_)[::-1], [2.0, 1.0, 0.5, 0.25])
    half = model.tradeoffs_.size // 2
    assert not model.boosted_[:half].any() and model.boosted_[half:].all()
    np.testing.assert_array_equal(model.tradeoffs_[:half], model.tradeoffs_[half:])
    oracle, rows = model.models_[0], model.validation_rows_
    plans = rollout(oracle, X[rows], model.tradeoffs_[:half], horizons=model.horizons_[:half])
    classified = rollout(
        oracle, X[rows], model.tradeoffs_[:half], horizons=model.horizons_[:half], predict=False
    )
    np.testing.assert_array_equal(plans.paid, classified.paid)
    assert not np.array_equal(plans.score, classified.score)
    budgets = model.validation_budgets_
    config, _ = model.choice_.at(budgets)
    grid = np.unique(model.horizons_)
    for b, budget in enumerate(budgets):
        own = grid[max(np.searchsorted(grid, budget, side="right") - 1, 0)]
        candidates = np.flatnonzero(model.horizons_ == own)
        assert model.horizons_[config[b]] == own
        errors = model.validation_error_[candidates, b]
        assert model.validation_error_[config[b], b] == errors.min()
    test = X[200:]
    served = np.array([0.3, 0.75, 1.6, 2.0])
    scores, report = model._checked_scores_and_costs(test, served)
    refit = model.refits_[next(iter(model.refits_))]
    chosen, _ = model.choice_.at(served)
    for b, budget in enumerate(served):
        one = rollout(
            refit,
            test,
            model.tradeoffs_[[chosen[b]]],
            horizons=[budget],
            predict=bool(model.boosted_[chosen[b]]),
        )
        _, score, paid = one.at_budgets(np.array([budget]))
        np.testing.assert_array_equal(scores[b], score[0] + model.majority_ * 1e-10)
        assert report.max_example_cost[b] == paid.max() <= budget
