"""The group-lasso solver against its KKT conditions and a loop reference (proximal gradient
written from the definition, group by group), and the path's sets."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import expit

from budgetboost.estimators.contract.pricing import Pricing
from budgetboost.estimators.selection.design import Design
from budgetboost.estimators.selection.group_lasso import (
    fit_group_lasso,
    group_gradient_norms,
    lasso_path,
)


def _problem(seed: int, n: int = 150):
    """Five blocks of 1, 2, 3, 1 and 3 columns, two of them correlated, three informative."""
    rng = np.random.default_rng(seed)
    starts = np.array([0, 1, 3, 6, 7, 10])
    Z = rng.normal(size=(n, 10))
    Z[:, 4] = Z[:, 3] + 0.3 * rng.normal(size=n)
    y = np.where(Z[:, 0] + Z[:, 3] - 0.5 * Z[:, 8] + rng.normal(size=n) > 0, 1.0, -1.0)
    weight = np.array([1.0, 0.5, 2.0, 1.0, 0.3]) * np.sqrt(np.diff(starts))
    return Z, starts, y, weight


def kkt_violation(Z, starts, y, weight, lam, b, beta) -> float:
    """The largest violation of the KKT conditions, block by block: ``grad_g + lambda w_g
    beta_g / ||beta_g||`` (an active block) or ``||grad_g|| - lambda w_g`` above 0 (an
    inactive one), and the intercept's gradient."""
    residual = expit(b + Z @ beta) - (y > 0)
    gradient = Z.T @ residual / y.size
    worst = abs(float(residual.mean()))
    for k in range(starts.size - 1):
        block = slice(starts[k], starts[k + 1])
        norm = float(np.linalg.norm(beta[block]))
        if norm > 0:
            worst = max(
                worst, float(np.abs(gradient[block] + lam * weight[k] * beta[block] / norm).max())
            )
        else:
            worst = max(worst, float(np.linalg.norm(gradient[block])) - lam * weight[k])
    return worst


def reference_proximal_gradient(Z, starts, y, weight, lam, iterations=20_000):
    """Plain proximal gradient (ISTA) from the definition: the mean logistic loss's gradient,
    row by row, then block soft-thresholding, block by block, with the step 1 / L."""
    n, p = Z.shape
    A = np.hstack([np.ones((n, 1)), Z])
    step = 4.0 * n / float(np.linalg.norm(A, 2)) ** 2
    x = [0.0] * (p + 1)
    for _ in range(iterations):
        grad = [0.0] * (p + 1)
        for i in range(n):
            z = x[0] + sum(Z[i, j] * x[j + 1] for j in range(p))
            r = 1.0 / (1.0 + math.exp(-z)) - (1.0 if y[i] > 0 else 0.0)
            grad[0] += r / n
            for j in range(p):
                grad[j + 1] += r * Z[i, j] / n
        moved = [x[j] - step * grad[j] for j in range(p + 1)]
        new = [moved[0]]
        for k in range(starts.size - 1):
            block = moved[starts[k] + 1 : starts[k + 1] + 1]
            norm = math.sqrt(sum(v * v for v in block))
            shrink = max(0.0, 1.0 - step * lam * weight[k] / norm) if norm > 0 else 0.0
            new += [v * shrink for v in block]
        if max(abs(a - c) for a, c in zip(new, x, strict=True)) < 1e-11:
            x = new
            break
        x = new
    return x[0], np.array(x[1:])


@pytest.mark.parametrize("lam", [0.2, 0.05, 0.01, 0.002])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_solution_meets_the_kkt_conditions(seed, lam):
    Z, starts, y, weight = _problem(seed)
    b, beta = fit_group_lasso(Z, starts, y, weight, lam, tolerance=1e-11, max_iterations=100_000)
    assert kkt_violation(Z, starts, y, weight, lam, b, beta) < 1e-7


@pytest.mark.parametrize("lam", [0.05, 0.01])
def test_solution_is_the_loop_references(lam):
    Z, starts, y, weight = _problem(3, n=60)
    b, beta = fit_group_lasso(Z, starts, y, weight, lam, tolerance=1e-11, max_iterations=100_000)
    rb, rbeta = reference_proximal_gradient(Z, starts, y, weight, lam, iterations=3000)
    assert b == pytest.approx(rb, abs=1e-5)
    assert np.allclose(beta, rbeta, atol=1e-5)
    zero = [k for k in range(5) if np.linalg.norm(rbeta[starts[k] : starts[k + 1]]) == 0]
    assert [k for k in range(5) if np.linalg.norm(beta[starts[k] : starts[k + 1]]) == 0] == zero


def test_per_column_groups_are_a_weighted_l1():
    """With one column a group, the penalty ``lambda sum_j w_j |beta_j|`` is the plain L1 on
    the columns scaled by ``1 / w_j``: ``beta_j = beta'_j / w_j``."""
    Z, _, y, _ = _problem(4)
    starts = np.arange(11)
    w = np.linspace(0.2, 2.0, 10)
    lam = 0.01
    b, beta = fit_group_lasso(Z, starts, y, w, lam, tolerance=1e-12, max_iterations=100_000)
    b1, beta1 = fit_group_lasso(
        Z / w, starts, y, np.ones(10), lam, tolerance=1e-12, max_iterations=100_000
    )
    assert b == pytest.approx(b1, abs=1e-7)
    assert np.allclose(beta, beta1 / w, atol=1e-7)
    assert np.array_equal(beta == 0, beta1 == 0)


def test_lambda_max_is_the_least_lambda_that_selects_nothing():
    Z, starts, y, weight = _problem(5)
    mean = float(np.mean(y > 0))
    norms = group_gradient_norms(Z, starts, y, np.full(y.size, math.log(mean / (1 - mean))))
    lam_max = float((norms / weight).max())
    _, at = fit_group_lasso(Z, starts, y, weight, lam_max * 1.001)
    _, below = fit_group_lasso(Z, starts, y, weight, lam_max * 0.95)
    assert np.all(at == 0)
    top = int(np.argmax(norms / weight))
    nonzero = [k for k in range(5) if np.any(below[starts[k] : starts[k + 1]] != 0)]
    assert nonzero == [top]


def _design(seed: int, n: int = 400, groups: int = 8):
    """Independent columns (so the lasso's sets are nested), one or two a group."""
    rng = np.random.default_rng(seed)
    group_of_column = np.repeat(np.arange(groups), [1, 2] * (groups // 2))
    X = rng.normal(size=(n, group_of_column.size))
    signal = X @ np.linspace(1.0, 0.0, group_of_column.size)
    y = np.where(signal + rng.normal(size=n) > 0, 1.0, -1.0)
    return Design.build(X, group_of_column, groups, per_group=8), y


def test_path_sets_shrink_as_lambda_grows_and_each_is_the_direct_solutions():
    """Along the path (lambda decreasing) each set holds the one before it; each is the set of
    the problem solved directly on every group at its lambda (the strong rule and the KKT
    check lose nothing)."""
    design, y = _design(0)
    pricing = Pricing.plain(np.linspace(0.5, 1.5, 8))
    path = lasso_path(
        design,
        y,
        pricing,
        np.ones(8, dtype=bool),
        budget=np.inf,
        max_groups=8,
        n_lambdas=25,
        min_ratio=1e-3,
    )
    assert len(path.sets) >= 4
    for smaller, larger in zip(path.sets, path.sets[1:], strict=False):
        assert set(smaller.tolist()) < set(larger.tolist())
    assert np.all(np.diff(path.relative_lambda) < 0)
    weight = pricing.prices() * np.sqrt(np.diff(design.starts))
    mean = float(np.mean(y > 0))
    norms = group_gradient_norms(
        design.Z, design.starts, y, np.full(y.size, math.log(mean / (1 - mean)))
    )
    lam_max = float((norms / weight).max())
    for groups, ratio in zip(path.sets, path.relative_lambda, strict=True):
        _, beta = fit_group_lasso(
            design.Z,
            design.starts,
            y,
            weight,
            lam_max * ratio,
            tolerance=1e-10,
            max_iterations=100_000,
        )
        direct = [g for g in range(8) if np.any(beta[design.starts[g] : design.starts[g + 1]] != 0)]
        assert groups.tolist() == direct


def test_path_stops_at_the_budget_and_the_size_cap_and_skips_the_ineligible():
    design, y = _design(1)
    pricing = Pricing.plain(np.linspace(0.5, 1.5, 8))
    eligible = np.ones(8, dtype=bool)
    eligible[0] = False  # the most informative group may not be selected
    for budget, cap in [(2.0, 8), (np.inf, 3), (0.4, 8)]:
        path = lasso_path(
            design,
            y,
            pricing,
            eligible,
            budget=budget,
            max_groups=cap,
            n_lambdas=25,
            min_ratio=1e-3,
        )
        for groups in path.sets:
            assert 0 not in groups.tolist()
            assert groups.size <= cap and pricing.set_cost(groups) <= budget
    assert path.sets == []  # nothing costs at most 0.4


def test_a_free_group_is_weighted_as_a_thousandth_of_the_mean_price():
    """A group of price 0 still enters the path at a finite lambda (its weight is not 0), and
    first: the path orders it before groups of mean price that say as much."""
    design, y = _design(2)
    prices = np.ones(8)
    prices[3] = 0.0
    path = lasso_path(
        design,
        y,
        Pricing.plain(prices),
        np.ones(8, dtype=bool),
        budget=np.inf,
        max_groups=8,
        n_lambdas=25,
        min_ratio=1e-3,
    )
    assert path.sets[0].tolist() == [3]
