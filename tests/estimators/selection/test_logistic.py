"""The batched L2 logistic regressions against scikit-learn's, one problem at a time."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression

from budgetboost.estimators.selection.logistic import fit_logistic_batch, softplus


def _problems(seed: int, B: int = 6, n: int = 80, d: int = 4):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(B, n, d))
    X[:, :, -1] = (X[:, :, -1] > 0.5).astype(float)  # a 0/1 column too
    y = np.where(X[0, :, 0] - X[0, :, 1] + rng.normal(size=n) > 0, 1.0, -1.0)
    weight = (rng.random((B, n)) > 0.3).astype(float)
    design = np.concatenate([np.ones((B, n, 1)), X], axis=2)
    return design, y, weight


@pytest.mark.parametrize("C", [0.1, 1.0, 10.0])
@pytest.mark.parametrize("seed", [0, 1])
def test_each_problem_is_scikit_learns_logistic_regression(seed, C):
    """Problem ``b`` is ``LogisticRegression(C)`` on its rows of weight 1 (intercept
    unpenalised), to the solvers' tolerance."""
    design, y, weight = _problems(seed)
    beta = fit_logistic_batch(design, y, weight, C)
    for b in range(design.shape[0]):
        rows = weight[b] > 0
        ref = LogisticRegression(C=C, tol=1e-12, max_iter=10_000).fit(design[b, rows, 1:], y[rows])
        assert beta[b, 0] == pytest.approx(ref.intercept_[0], abs=1e-6)
        assert np.allclose(beta[b, 1:], ref.coef_[0], atol=1e-6)


def test_zero_columns_pad_and_warm_starts_reach_the_same_optimum():
    """A zero column's coefficient is 0 and leaves the others unchanged; a warm start (even
    a far one) converges to the cold start's optimum."""
    design, y, weight = _problems(3)
    padded = np.concatenate([design, np.zeros(design.shape[:2] + (2,))], axis=2)
    cold = fit_logistic_batch(design, y, weight, 1.0)
    pad = fit_logistic_batch(padded, y, weight, 1.0)
    assert np.all(pad[:, -2:] == 0.0)
    assert np.allclose(pad[:, :-2], cold, atol=1e-9)
    far = fit_logistic_batch(design, y, weight, 1.0, start=np.full(cold.shape, 25.0))
    assert np.allclose(far, cold, atol=1e-7)


def test_softplus_is_stable_and_exact():
    z = np.array([-800.0, -30.0, -1.0, 0.0, 1.0, 30.0, 800.0])
    assert np.all(np.isfinite(softplus(z)))
    assert np.allclose(softplus(z[1:-1]), np.log1p(np.exp(z[1:-1])), rtol=1e-14)
    assert softplus(np.array([800.0]))[0] == 800.0
