"""Cost-aware forward selection of feature groups by cross-validation.

The wrapper every budgeted-learning paper compares with (Kohavi & John 1997, with a price):
starting from no group, grow a set one group at a time, each step adding the group ``g`` that
minimises

    CV(S + g) + tradeoff * price(g | S),

``CV`` the ``k``-fold cross-validated logistic loss (mean over the rows, nats) of the
L2-penalised logistic regression on the set's columns (:mod:`~.logistic`), ``price(g | S)``
the price of reading ``g`` once ``S`` is paid (its marginal price: with Turney's discount
groups, without the shared part of a discount group ``S`` touched). ``tradeoff = 0`` is the
price-blind selection; a positive one buys loss with price. A path goes on while a group fits
what remains of ``budget`` (also when no group lowers the objective: every prefix is a
candidate, chosen later on held-out rows) and stops at ``max_groups`` groups.

**Screening.** With thousands of groups (sonar's 11,196 columns, one group each, under
per-column costs) a step cannot cross-validate them all: each group is first scored by the
loss decrease a Newton step along its best column would give at the current model (a score
test), ``(r . z_j)^2 / (2 n sum_i w_i z_ij^2)``, ``r = y01 - p`` the logistic loss's
negative gradient and ``w = p (1 - p)`` its curvature at the current out-of-fold
probabilities ``p``; the ``shortlist`` groups of least ``-decrease + tradeoff * price`` are
cross-validated.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from ..contract.pricing import Pricing
from .design import Design
from .logistic import fit_logistic_batch, softplus

__all__ = ["ForwardPath", "forward_path"]

#: A price within this relative margin of what remains of the budget still fits it.
_FITS = 1e-12


@dataclass(frozen=True)
class ForwardPath:
    """One forward selection: the groups in the order added and the cross-validated loss
    after each addition (``loss[0]``: no group, the intercept alone)."""

    groups: np.ndarray
    loss: np.ndarray
    price: np.ndarray  # the price of each prefix: price[0] = 0


def _screen(design: Design, y01: np.ndarray, scores: np.ndarray, candidates: np.ndarray):
    """Each candidate group's score-test loss decrease (its best column's)."""
    p = expit(scores)
    residual = y01 - p
    curvature = p * (1.0 - p)
    positions = design.of(candidates)
    Z = design.Z[:, positions]
    gradient = residual @ Z
    hessian = curvature @ (Z * Z)
    decrease = gradient**2 / (2.0 * y01.size * np.maximum(hessian, 1e-300))
    lengths = design.starts[candidates + 1] - design.starts[candidates]
    return np.maximum.reduceat(decrease, np.concatenate([[0], np.cumsum(lengths)[:-1]]))


def forward_path(
    design: Design,
    y: np.ndarray,
    folds: np.ndarray,
    pricing: Pricing,
    eligible: np.ndarray,
    *,
    tradeoff: float,
    budget: float,
    max_groups: int,
    shortlist: int,
    C: float = 1.0,
) -> ForwardPath:
    """Forward selection (module docstring) on the rows of ``design``.

    Parameters
    ----------
    design : Design
        The standardised columns of the groups, on the rows to select on.
    y : ndarray of shape (n,)
        Labels -1/+1.
    folds : ndarray of int, shape (n,)
        The fold of each row (``0 .. k - 1``); each fold's model is fitted on the others.
    pricing : Pricing
        The groups' prices.
    eligible : ndarray of bool, shape (n_groups,)
        The groups that may be selected (each needs a column in ``design``).
    tradeoff : float >= 0
        Loss (nats per row) worth one unit of price.
    budget : float
        The most a set may cost (``inf``: no limit).
    max_groups : int
        The most groups of a set.
    shortlist : int
        Groups cross-validated per step (the rest are screened out).
    C : float
        Inverse L2 penalty of the logistic regressions (scikit-learn's ``C``).

    Returns
    -------
    ForwardPath
    """
    n = y.size
    y01 = (y > 0).astype(np.float64)
    n_folds = int(folds.max(initial=0)) + 1
    train = (folds[None, :] != np.arange(n_folds)[:, None]).astype(np.float64)  # (k, n)
    held_out = folds  # row i is scored by the model of fold folds[i]
    eligible = eligible & design.has_columns()

    chosen: list[int] = []
    positions = np.empty(0, dtype=np.intp)
    ones = np.ones((n_folds, n, 1))
    beta = fit_logistic_batch(ones, y, train, C)  # (k, 1): the intercept of each fold
    scores = beta[held_out, 0]
    losses = [float(softplus(-y * scores).mean())]
    prices = [0.0]
    touched = pricing.untouched()
    spent = 0.0
    while len(chosen) < max_groups:
        marginal = pricing.prices(touched)
        fits = spent + marginal <= budget + _FITS * max(1.0, budget)
        taken = np.zeros(eligible.size, dtype=bool)
        taken[chosen] = True
        candidates = np.flatnonzero(eligible & ~taken & fits)
        if not candidates.size:
            break
        estimate = -_screen(design, y01, scores, candidates) + tradeoff * marginal[candidates]
        short = candidates[np.lexsort((candidates, estimate))[:shortlist]]
        widths = design.starts[short + 1] - design.starts[short]
        d = 1 + positions.size + int(widths.max())
        X = np.zeros((short.size, n, d))
        X[:, :, 0] = 1.0
        X[:, :, 1 : 1 + positions.size] = design.Z[:, positions]
        for c, g in enumerate(short.tolist()):
            X[c, :, 1 + positions.size : 1 + positions.size + widths[c]] = design.Z[
                :, design.starts[g] : design.starts[g + 1]
            ]
        batch = np.repeat(X, n_folds, axis=0)  # problem c * k + f: candidate c, fold f
        start = np.zeros((short.size * n_folds, d))
        start[:, : beta.shape[1]] = np.tile(beta, (short.size, 1))
        fitted = fit_logistic_batch(batch, y, np.tile(train, (short.size, 1)), C, start)
        z = np.matmul(batch, fitted[:, :, None])[:, :, 0].reshape(short.size, n_folds, n)
        out_of_fold = z[:, held_out, np.arange(n)]  # (candidates, n)
        loss = softplus(-y * out_of_fold).mean(axis=1)
        best = int(np.argmin(loss + tradeoff * marginal[short]))
        g = int(short[best])
        chosen.append(g)
        positions = np.concatenate([positions, design.of([g])])
        beta = fitted[best * n_folds : (best + 1) * n_folds, : 1 + positions.size]
        scores = out_of_fold[best]
        spent += float(marginal[g])
        pricing.touch(touched, [g])
        losses.append(float(loss[best]))
        prices.append(spent)
    return ForwardPath(np.asarray(chosen, dtype=np.intp), np.asarray(losses), np.asarray(prices))
