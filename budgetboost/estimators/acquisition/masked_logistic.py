"""The classifier on masked inputs of :class:`~.aaco.AACO`: logistic regression on ``[x * m, m]``.

AACO scores every candidate subset ``v`` of the unobserved feature groups by the loss of a
classifier that sees ``x_{o ∪ v}`` only (Valancius et al. 2024: a classifier trained on
arbitrary subsets of the features, *e.g.* with random masks). Here it is a logistic
regression on the masked input and the mask itself, trained on each training row under
several random masks:

    score(x, o) = w_0 + sum over groups g in o of a_g(x),   a_g(x) = b_g + sum_{j in g} w_j x_j,

``b_g`` the weight of group ``g``'s mask bit and ``w_j`` the weight of column ``j`` (zero
when its group is masked). The score is *additive over feature groups*: the score of
``o ∪ v`` is the score of ``o`` plus ``sum_{g in v} a_g(x)``, so every candidate subset of
every neighbour is scored by one small matrix product (:mod:`~.rollout`), which is what
makes the oracle affordable at the benchmark's scale. It cannot see how groups act together;
the network of :mod:`~.masked_network` (``classifier="network"``) can, at ``H`` times the cost.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

__all__ = ["MaskedLogistic", "fit_masked_logistic", "random_masks", "softplus"]

#: L-BFGS iterations of the fit (it converges in far fewer on 0/1 inputs).
MAX_ITERATIONS = 500


def softplus(z: np.ndarray) -> np.ndarray:
    """``log(1 + exp(z))``, stable for any ``z``: the logistic loss of margin ``-z``."""
    return np.maximum(z, 0.0) + np.log1p(np.exp(-np.abs(z)))


@dataclass(frozen=True, eq=False)
class MaskedLogistic:
    """A fitted logistic regression on masked inputs (see the module docstring).

    Attributes
    ----------
    intercept : float
        ``w_0``: the score of the empty set of groups.
    columns : ndarray of int, shape (n_columns,)
        The columns of ``X`` the classifier reads.
    column_group : ndarray of int, shape (n_columns,)
        The group (position in the pool) of each of those columns.
    weight : ndarray of shape (n_columns,)
        ``w_j`` of each column.
    bias : ndarray of shape (n_groups,)
        ``b_g``: what observing group ``g`` adds whatever its values.
    """

    intercept: float
    columns: np.ndarray
    column_group: np.ndarray
    weight: np.ndarray
    bias: np.ndarray

    @property
    def initial_state(self) -> float:
        """The state of nothing observed: for this additive model the score itself."""
        return self.intercept

    def scores(self, state: np.ndarray) -> np.ndarray:
        """The score of each state: the state itself (the rollout's states are scores)."""
        return state

    def contributions(self, X: np.ndarray) -> np.ndarray:
        """``a_g(x)`` of every row and group: shape (n_rows, n_groups).

        The score of a row observed on the groups ``o`` is ``intercept`` plus the sum of its
        contributions over ``o``.
        """
        member = np.zeros((self.columns.size, self.bias.size))
        member[np.arange(self.columns.size), self.column_group] = 1.0
        return (X[:, self.columns] * self.weight) @ member + self.bias


def random_masks(
    rng: np.random.Generator, n: int, n_groups: int, n_masks: int, max_observed: int = 1 << 30
) -> np.ndarray:
    """``n_masks`` random masks of each of ``n`` rows: shape (n_masks, n, n_groups), bool.

    Each copy draws a size uniform in ``0 .. min(n_groups, max_observed)`` and observes that
    many groups, a uniformly random subset of them (so every subset size the acquisition
    reaches is trained on, from the empty set up).
    """
    sizes = rng.integers(0, min(n_groups, max_observed) + 1, size=(n_masks, n, 1))
    rank = np.argsort(np.argsort(rng.random((n_masks, n, n_groups)), axis=2), axis=2)
    return rank < sizes


def fit_masked_logistic(
    X: np.ndarray,
    y: np.ndarray,
    columns: np.ndarray,
    column_group: np.ndarray,
    n_groups: int,
    rng: np.random.Generator,
    n_masks: int,
    regularization: float,
    max_observed: int = 1 << 30,
) -> MaskedLogistic:
    """Fit the classifier on ``n_masks`` random masks of every row.

    Each copy of a row observes a random subset of the groups of a size uniform from none to
    ``max_observed`` (:func:`random_masks`), the masks the acquisition meets. The objective
    is the mean logistic loss over the copies plus ``regularization / (2 n) |w|^2`` (``n``
    the rows; the intercept is not penalised: the scale of scikit-learn's ``C = 1 /
    regularization``), minimised by L-BFGS from zero.

    Parameters
    ----------
    X : ndarray of shape (n, n_features)
    y : ndarray of shape (n,)
        Labels -1/+1.
    columns, column_group : ndarray of int
        The columns read, and the group (0 .. n_groups - 1) of each.
    n_groups : int
    rng : numpy Generator
        Draws the masks.
    n_masks : int
        Copies of each row, each under its own random mask.
    regularization : float
        L2 strength (> 0).
    """
    n = X.shape[0]
    observed = random_masks(rng, n, n_groups, n_masks, max_observed)
    Xc = X[:, columns]
    Z = np.concatenate([Xc[None] * observed[:, :, column_group], observed], axis=2)
    Z = Z.reshape(n_masks * n, columns.size + n_groups)
    yy = np.tile(y, n_masks)
    penalty = regularization / max(n, 1)

    def objective(theta: np.ndarray) -> tuple[float, np.ndarray]:
        margin = yy * (Z @ theta[1:] + theta[0])
        loss = softplus(-margin).mean() + 0.5 * penalty * theta[1:] @ theta[1:]
        slope = -yy * expit(-margin) / yy.size  # d loss / d score
        grad = np.concatenate([[slope.sum()], Z.T @ slope + penalty * theta[1:]])
        return float(loss), grad

    # here: the workflow imports the estimators when it checks the config, and scipy's
    # optimizer takes half a second to import
    from scipy.optimize import minimize

    theta0 = np.zeros(1 + Z.shape[1])
    result = minimize(
        objective,
        theta0,
        jac=True,
        method="L-BFGS-B",
        options={"maxiter": MAX_ITERATIONS, "gtol": 1e-7},
    )
    theta = result.x
    return MaskedLogistic(
        intercept=float(theta[0]),
        columns=np.asarray(columns, dtype=np.intp),
        column_group=np.asarray(column_group, dtype=np.intp),
        weight=theta[1 : 1 + columns.size].copy(),
        bias=theta[1 + columns.size :].copy(),
    )
