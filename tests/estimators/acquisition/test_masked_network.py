"""The network on masked inputs of AACO: its group-additive form against scikit-learn's own
forward pass, what it can fit that the logistic model cannot, and its reproducibility."""

from __future__ import annotations

import numpy as np
import pytest

from budgetboost.estimators.acquisition.masked_logistic import fit_masked_logistic, random_masks
from budgetboost.estimators.acquisition.masked_network import (
    choose_masked_network,
    fit_masked_network,
)


def _masked_input(network, X, observed):
    """The network's input built from its definition: each column read, standardised and
    times its group's mask bit, then the mask bits."""
    values = (X[:, network.columns] - network.mean) / network.scale
    return np.concatenate([values * observed[:, network.column_group], observed], axis=1)


@pytest.mark.parametrize("hidden_units", [1, 6])
def test_scores_of_any_observed_groups_are_the_fitted_networks(hidden_units):
    """``initial_state`` plus the contributions of the observed groups, then ``scores``: the
    log-odds scikit-learn's fitted network gives the masked input (``predict_proba``), for
    random sets of observed groups, with groups of one and of several columns, a constant
    column and columns of several values."""
    rng = np.random.default_rng(0)
    n = 240
    X = np.column_stack(
        [rng.integers(0, 2, (n, 4)), rng.normal(size=n) * 3 + 1, np.ones(n), rng.integers(0, 5, n)]
    ).astype(float)
    y = np.where(X[:, 0] + X[:, 1] * X[:, 4] + 0.3 * rng.normal(size=n) > 1, 1.0, -1.0)
    column_group = np.array([0, 0, 1, 2, 3, 3, 4])
    network = fit_masked_network(
        X,
        y,
        np.arange(7),
        column_group,
        5,
        rng,
        n_masks=4,
        regularization=1.0,
        hidden_units=hidden_units,
    )
    observed = rng.random((300, 5)) < 0.5
    observed[0], observed[1] = False, True
    Xt = X[rng.integers(0, n, 300)]
    state = network.initial_state + np.einsum("ngh,ng->nh", network.contributions(Xt), observed)
    scores = network.scores(state)
    probability = network.network.predict_proba(_masked_input(network, Xt, observed))[:, 1]
    assert np.allclose(1.0 / (1.0 + np.exp(-scores)), probability, rtol=0, atol=1e-12)
    assert network.intercept == pytest.approx(float(network.scores(state[:1])[0]))
    assert network.network.classes_.tolist() == [-1.0, 1.0]


def test_the_network_fits_an_interaction_the_logistic_model_cannot():
    """The exclusive or of two columns: with both observed the network classifies the rows
    it was fitted on; the additive logistic model stays near chance."""
    rng = np.random.default_rng(3)
    n = 400
    X = rng.integers(0, 2, size=(n, 4)).astype(float)
    y = np.where(X[:, 0] != X[:, 1], 1.0, -1.0)
    column_group = np.arange(4)
    both = np.zeros((n, 4), dtype=bool)
    both[:, :2] = True
    network = fit_masked_network(
        X, y, np.arange(4), column_group, 4, np.random.default_rng(0), 8, 1.0, 8
    )
    state = network.initial_state + np.einsum("ngh,ng->nh", network.contributions(X), both)
    assert np.mean((network.scores(state) > 0) == (y > 0)) == 1.0
    logistic = fit_masked_logistic(
        X, y, np.arange(4), column_group, 4, np.random.default_rng(0), 8, 1.0
    )
    score = logistic.intercept + (logistic.contributions(X) * both).sum(axis=1)
    assert np.mean((score > 0) == (y > 0)) < 0.8


def test_same_generator_same_network():
    """The masks and the network's initial weights come from the generator: the same seed
    gives the same weights to the bit, another seed others."""
    rng = np.random.default_rng(1)
    X = rng.integers(0, 2, size=(120, 5)).astype(float)
    y = np.where(X[:, 0] + X[:, 2] > 1, 1.0, -1.0)
    fits = [
        fit_masked_network(X, y, np.arange(5), np.arange(5), 5, np.random.default_rng(s), 4, 1.0, 3)
        for s in (7, 7, 8)
    ]
    for name in ("hidden_intercept", "weight", "bias", "output_weight"):
        assert getattr(fits[0], name).tobytes() == getattr(fits[1], name).tobytes()
    assert fits[0].weight.tobytes() != fits[2].weight.tobytes()


def test_the_strength_of_lowest_held_out_masked_log_loss_is_kept():
    """Each candidate is the network fitted at its strength from the same generator state;
    its held-out loss is the mean log loss of scikit-learn's network on the held-out rows
    under masks drawn as the training masks (after the seed); the lowest is kept."""
    rng = np.random.default_rng(4)
    X = rng.integers(0, 2, size=(300, 6)).astype(float)
    y = np.where((X[:, 0] != X[:, 1]) ^ (rng.random(300) < 0.15), 1.0, -1.0)
    strengths = np.array([0.01, 3.0, 300.0])
    args = (np.arange(6), np.arange(6), 6)
    chosen, losses = choose_masked_network(
        X[:200], y[:200], X[200:], y[200:], *args, np.random.default_rng(9), 4, strengths, 6
    )
    replay = np.random.default_rng(9)
    seed = int(replay.integers(2**63 - 1))
    observed = random_masks(replay, 100, 6, 4)
    networks, expected = [], []
    for strength in strengths:
        network = fit_masked_network(
            X[:200], y[:200], *args, np.random.default_rng(seed), 4, strength, 6
        )
        loss = []
        for mask in observed:
            p = network.network.predict_proba(_masked_input(network, X[200:], mask))[:, 1]
            loss.extend(-np.log(np.where(y[200:] > 0, p, 1.0 - p)))
        networks.append(network)
        expected.append(np.mean(loss))
    assert np.allclose(losses, expected, rtol=1e-9)
    best = int(np.argmin(expected))
    assert np.argmin(losses) == best
    assert chosen.weight.tobytes() == networks[best].weight.tobytes()
    assert len(set(np.round(losses, 6))) == 3  # the strengths make a difference
