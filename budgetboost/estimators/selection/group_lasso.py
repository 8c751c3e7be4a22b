"""The cost-weighted group-lasso logistic path: its solver (FISTA) and its sets.

For a decreasing grid of ``lambda`` the logistic regression

    minimise over (b, beta)   (1/n) sum_i log(1 + exp(-y_i (b + z_i . beta)))
                              + lambda * sum_g w_g ||beta_g||_2

is solved (Yuan & Lin 2006; Meier, van de Geer & Buehlmann 2008 for the logistic loss), with
``w_g`` the group's price times ``sqrt(p_g)`` (``p_g`` its columns: the usual factor that
makes groups of different sizes comparable) and ``b`` unpenalised; each solution's *set* is
the groups with a non-zero coefficient block. A group of per-column costs is one column, and
the penalty is then the weighted L1 (``lasso`` with column ``j`` scaled by ``1 / w_j``). A free
group (price 0) is weighted as though it cost a thousandth of the mean price, so that the
path still orders it.

**The solver** (:func:`fit_group_lasso`) is FISTA (Beck & Teboulle 2009): a gradient step on
the logistic loss with the step ``1 / L`` (``L = sigma_max([1, Z])^2 / (4 n)``, the loss's
gradient Lipschitz constant) then the proximal map of the penalty, block soft-thresholding
``beta_g <- max(0, 1 - t lambda w_g / ||beta_g||) beta_g``; Nesterov's momentum, restarted
whenever a step goes against it (O'Donoghue & Candes 2015). Its optimum satisfies the KKT
conditions ``grad_g + lambda w_g beta_g / ||beta_g|| = 0`` where ``beta_g != 0`` and
``||grad_g|| <= lambda w_g`` where ``beta_g = 0`` (``grad`` the loss's gradient).

**The path** (:func:`lasso_path`) starts at ``lambda_max``, the least ``lambda`` whose
solution is empty, goes down ``n_lambdas`` log-spaced values to ``lambda_max * min_ratio``,
each solve warm-started from the last, and solves each on the groups the sequential strong
rule keeps (Tibshirani et al. 2012: ``||grad_g|| >= w_g (2 lambda - lambda_prev)`` at the
previous solution, or active there), then adds any group violating its KKT condition and
solves again, so each solution is that of the whole problem. It stops at the first set that
costs more than ``budget`` or holds more than ``max_groups`` groups, or holds every group.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

from ..contract.pricing import Pricing
from .design import Design, ranges
from .logistic import softplus

__all__ = ["LassoPath", "fit_group_lasso", "group_gradient_norms", "lasso_path"]

#: FISTA stops when no coefficient moves more than this in an iteration.
TOLERANCE = 1e-7
#: Most FISTA iterations of one solve.
MAX_ITERATIONS = 5000
#: A free group's weight, as a share of the mean positive price.
FREE_WEIGHT = 1e-3


def _blocks(starts: np.ndarray) -> np.ndarray:
    """The block of each column: ``starts`` (n_blocks + 1,) cut the columns into blocks."""
    return np.repeat(np.arange(starts.size - 1), np.diff(starts))


def _block_norms(values: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Euclidean norm of each block of ``values`` (0 for an empty block)."""
    sums = np.bincount(_blocks(starts), weights=values**2, minlength=starts.size - 1)
    return np.sqrt(sums)


def group_gradient_norms(
    Z: np.ndarray, starts: np.ndarray, y: np.ndarray, scores: np.ndarray
) -> np.ndarray:
    """``||grad_g||`` of the mean logistic loss at ``scores``, per block of ``Z``'s columns."""
    residual = expit(scores) - (y > 0)
    return _block_norms(residual @ Z / y.size, starts)


def _objective(Z, starts, y, weight, lam, b, beta) -> float:
    z = b + Z @ beta
    return float(softplus(-y * z).mean() + lam * (weight * _block_norms(beta, starts)).sum())


def fit_group_lasso(
    Z: np.ndarray,
    starts: np.ndarray,
    y: np.ndarray,
    weight: np.ndarray,
    lam: float,
    start: tuple[float, np.ndarray] | None = None,
    tolerance: float = TOLERANCE,
    max_iterations: int = MAX_ITERATIONS,
) -> tuple[float, np.ndarray]:
    """The group-lasso logistic regression at one ``lambda`` (module docstring), by FISTA.

    Parameters
    ----------
    Z : ndarray of shape (n, p)
        The columns, block after block.
    starts : ndarray of int, shape (n_blocks + 1,)
        Block ``k`` is ``Z[:, starts[k]:starts[k + 1]]``.
    y : ndarray of shape (n,)
        Labels -1/+1.
    weight : ndarray of shape (n_blocks,)
        ``w_g`` of each block (> 0).
    lam : float >= 0
    start : (float, ndarray of shape (p,)), optional
        Warm start ``(b, beta)`` (default: the intercept of the labels' log-odds, beta 0).

    Returns
    -------
    (float, ndarray of shape (p,))
        The intercept and the coefficients.
    """
    n, p = Z.shape
    y01 = (y > 0).astype(np.float64)
    if start is None:
        mean = float(np.clip(y01.mean(), 1e-12, 1 - 1e-12))
        x = np.concatenate([[np.log(mean / (1 - mean))], np.zeros(p)])
    else:
        x = np.concatenate([[float(start[0])], np.asarray(start[1], dtype=np.float64)])
    A = np.hstack([np.ones((n, 1)), Z])
    lipschitz = float(np.linalg.norm(A, 2)) ** 2 / (4.0 * n) if p else 0.25
    step = 1.0 / lipschitz
    threshold = step * lam * np.repeat(weight, np.diff(starts))
    blocks = _blocks(starts)
    momentum, point = 1.0, x.copy()
    for _ in range(max_iterations):
        gradient = A.T @ (expit(A @ point) - y01) / n
        moved = point - step * gradient
        beta = moved[1:]
        norms = np.sqrt(np.bincount(blocks, weights=beta**2, minlength=weight.size))
        shrink = np.maximum(0.0, 1.0 - threshold / np.maximum(norms[blocks], 1e-300))
        new = np.concatenate([moved[:1], beta * shrink])
        change = new - x
        if np.abs(change).max(initial=0.0) <= tolerance:
            x = new
            break
        if np.dot(point - new, change) > 0:  # the step goes against the momentum: restart
            momentum, point, x = 1.0, new, new
            continue
        following = (1.0 + np.sqrt(1.0 + 4.0 * momentum**2)) / 2.0
        point = new + (momentum - 1.0) / following * change
        momentum, x = following, new
    return float(x[0]), x[1:]


@dataclass(frozen=True)
class LassoPath:
    """The sets of a group-lasso path, in the order of decreasing ``lambda``.

    Attributes
    ----------
    sets : list of ndarray of int
        Each solution's groups (non-zero blocks), sorted; consecutive duplicates dropped.
    relative_lambda : ndarray
        The ``lambda / lambda_max`` of each set's first solution.
    """

    sets: list[np.ndarray]
    relative_lambda: np.ndarray


def lasso_path(
    design: Design,
    y: np.ndarray,
    pricing: Pricing,
    eligible: np.ndarray,
    *,
    budget: float,
    max_groups: int,
    n_lambdas: int,
    min_ratio: float,
) -> LassoPath:
    """The sets of the cost-weighted group-lasso path (module docstring) on ``design``'s rows.

    Parameters
    ----------
    design : Design
    y : ndarray of shape (n,)
        Labels -1/+1.
    pricing : Pricing
        The groups' prices; a group's weight is its price alone (``Pricing.prices()``, its
        largest marginal price) times the square root of its columns.
    eligible : ndarray of bool, shape (n_groups,)
        The groups that may be selected.
    budget, max_groups : float, int
        The path stops at the first set above either.
    n_lambdas : int >= 2
    min_ratio : float in (0, 1)
        The smallest ``lambda`` over ``lambda_max``.

    Returns
    -------
    LassoPath
    """
    groups = np.flatnonzero(eligible & design.has_columns())
    if not groups.size:
        return LassoPath([], np.empty(0))
    positions = design.of(groups)
    Z = design.Z[:, positions]
    widths = design.starts[groups + 1] - design.starts[groups]
    starts = np.concatenate([[0], np.cumsum(widths)]).astype(np.intp)
    price = pricing.prices()[groups]
    positive = pricing.prices()[pricing.prices() > 0]
    floor = FREE_WEIGHT * (positive.mean() if positive.size else 1.0)
    weight = np.maximum(price, floor) * np.sqrt(widths)

    y01 = (y > 0).astype(np.float64)
    mean = float(np.clip(y01.mean(), 1e-12, 1 - 1e-12))
    b, beta = float(np.log(mean / (1 - mean))), np.zeros(Z.shape[1])
    norms = group_gradient_norms(Z, starts, y, np.full(y.size, b))
    lam_max = float((norms / weight).max())
    sets: list[np.ndarray] = []
    relative: list[float] = []
    if lam_max <= 0:
        return LassoPath(sets, np.empty(0))
    previous = lam_max
    active = np.zeros(groups.size, dtype=bool)
    for ratio in np.geomspace(1.0, min_ratio, n_lambdas)[1:]:
        lam = lam_max * float(ratio)
        strong = active | (norms >= weight * (2.0 * lam - previous))
        while True:
            keep = np.flatnonzero(strong)
            cols = ranges(starts[keep], starts[keep + 1])
            sub_starts = np.concatenate([[0], np.cumsum(widths[keep])]).astype(np.intp)
            b, sub = fit_group_lasso(
                Z[:, cols], sub_starts, y, weight[keep], lam, start=(b, beta[cols])
            )
            beta = np.zeros(Z.shape[1])
            beta[cols] = sub
            norms = group_gradient_norms(Z, starts, y, b + Z[:, cols] @ sub)
            violators = ~strong & (norms > lam * weight * (1.0 + 1e-6))
            if not violators.any():
                break
            strong |= violators
        active = _block_norms(beta, starts) > 0
        previous = lam
        chosen = groups[active]
        if chosen.size > max_groups or pricing.set_cost(chosen) > budget:
            break
        if chosen.size and (not sets or not np.array_equal(sets[-1], chosen)):
            sets.append(chosen)
            relative.append(float(ratio))
        if chosen.size == groups.size:  # every group in: smaller lambdas give this set again
            break
    return LassoPath(sets, np.asarray(relative))
