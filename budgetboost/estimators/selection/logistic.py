"""L2-penalised logistic regressions solved side by side: the model the forward selection
cross-validates (:mod:`~.forward`).

Each step of the forward selection fits, for every shortlisted candidate group and every fold,
the logistic regression of the current set plus the candidate (a few dozen small problems of
the same rows). One Newton iteration of all of them is a few batched matrix products, where a
library solver called once per problem (scikit-learn's ``LogisticRegression``: 1.6-2 ms a fit
on 750 rows of Spambase) would spend most of its time on per-call overhead. The objective is
scikit-learn's ``LogisticRegression(C=C)``'s:

    0.5 * ||w||^2 + C * sum_i s_i * log(1 + exp(-y_i (b + x_i . w))),

with the intercept ``b`` unpenalised and ``s_i`` a row weight (0 or 1 here: the rows outside a
fold's training part weigh 0), minimised by Newton's method (the objective
is strictly convex in ``w``). A step that does not lower the objective is retried with the
Hessian damped (Levenberg-Marquardt: ``H + mu I``, ``mu`` growing tenfold, shrinking again
after each success), which tends to a short gradient step: every step is a descent, even
from a start far from the optimum where the curvature ``p (1 - p)`` vanishes.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit

__all__ = ["fit_logistic_batch", "softplus"]

#: Largest Newton iterations; warm-started problems converge in a handful.
MAX_ITERATIONS = 50
#: Newton stops once no coefficient of any problem moves more than this.
TOLERANCE = 1e-8
#: Most increases of the damping of one step (a factor of 10 each).
MAX_DAMPINGS = 40


def softplus(z: np.ndarray) -> np.ndarray:
    """``log(1 + exp(z))``, stable for any ``z``: the logistic loss of margin ``-z``."""
    return np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z)))


def _objective(X, beta, y, weight, C, penalised) -> np.ndarray:
    """The objective of every problem: shape (B,)."""
    z = np.matmul(X, beta[:, :, None])[:, :, 0]
    loss = (weight * softplus(-y * z)).sum(axis=1)
    return 0.5 * (penalised * beta**2).sum(axis=1) + C * loss


def fit_logistic_batch(
    X: np.ndarray,
    y: np.ndarray,
    weight: np.ndarray,
    C: float,
    start: np.ndarray | None = None,
) -> np.ndarray:
    """Coefficients of ``B`` L2-penalised logistic regressions (the module docstring).

    Parameters
    ----------
    X : ndarray of shape (B, n, d)
        Each problem's design, its column 0 the intercept's (ones); zero columns are allowed
        (their coefficient is 0: padding).
    y : ndarray of shape (n,)
        Labels -1/+1, shared by the problems.
    weight : ndarray of shape (B, n)
        Row weights of each problem (0: the row takes no part).
    C : float
        Inverse penalty (scikit-learn's ``C``).
    start : ndarray of shape (B, d), optional
        Warm start (default zeros).

    Returns
    -------
    ndarray of shape (B, d)
        Column 0 the intercept, then the weights.
    """
    B, _, d = X.shape
    beta = np.zeros((B, d)) if start is None else np.array(start, dtype=np.float64)
    penalised = np.ones(d)
    penalised[0] = 0.0
    y01 = (y > 0).astype(np.float64)
    Xt = X.transpose(0, 2, 1)
    diagonal = np.arange(d)
    current = _objective(X, beta, y, weight, C, penalised)
    damping = np.zeros(B)
    for _ in range(MAX_ITERATIONS):
        z = np.matmul(X, beta[:, :, None])[:, :, 0]
        p = expit(z)
        gradient = penalised * beta + C * np.matmul(Xt, (weight * (p - y01))[:, :, None])[:, :, 0]
        hessian = np.matmul(Xt, X * (C * weight * p * (1.0 - p))[:, :, None])
        hessian[:, diagonal, diagonal] += penalised
        scale = 1.0 + np.trace(hessian, axis1=1, axis2=2) / d
        move = np.zeros((B, d))
        pending = np.ones(B, dtype=bool)
        for _ in range(MAX_DAMPINGS):
            rows = np.flatnonzero(pending)
            if not rows.size:
                break
            system = hessian[rows].copy()
            system[:, diagonal, diagonal] += damping[rows, None]
            system[:, 0, 0] += 1e-12 * scale[rows]  # the intercept's pivot, when p(1-p) ~ 0
            step = np.linalg.solve(system, gradient[rows, :, None])[:, :, 0]
            trial = _objective(X[rows], beta[rows] - step, y, weight[rows], C, penalised)
            better = trial <= current[rows] + 1e-12 * (1.0 + np.abs(current[rows]))
            done = rows[better]
            move[done], current[done] = step[better], trial[better]
            pending[done] = False
            failed = rows[~better]  # Levenberg-Marquardt: damp towards a gradient step
            damping[failed] = np.where(damping[failed] > 0, 10.0 * damping[failed], 1e-6)
            damping[failed] = np.maximum(damping[failed], 1e-6 * scale[failed])
        beta = beta - move
        newton = damping == 0
        if np.all(newton) and np.abs(move).max(initial=0.0) <= TOLERANCE:
            break
        damping = np.where(pending, damping, damping / 10.0)
        damping[damping < 1e-9 * scale] = 0.0
    return beta
