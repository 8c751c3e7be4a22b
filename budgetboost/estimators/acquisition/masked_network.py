"""The non-additive classifier on masked inputs of :class:`~.aaco.AACO`: a one-hidden-layer
network on ``[x * m, m]``.

The paper's AACO scores candidate subsets with a classifier that can see how features act
together (gradient boosting or a network on masked inputs, Valancius et al. 2024); an
additive model (:mod:`~.masked_logistic`) cannot value a subset above the sum of its groups,
which is what a nongreedy acquisition exists to find. This network has ``H`` rectified
hidden units and a logistic output:

    h(x, o) = c + sum over groups g in o of A_g(x),   A_g(x) = d_g + sum_{j in g} V_j x~_j,
    score(x, o) = w . max(h(x, o), 0) + b,

``x~_j`` the column standardised on the fit rows, ``V_j`` its row of the first layer,
``d_g`` the first layer's row of group ``g``'s mask bit, ``c`` and ``b`` the two intercepts.
The first layer is still additive over groups, so the hidden pre-activations of the subset
``o ∪ v`` are those of ``o`` plus the sum of ``A_g`` over ``v``: one product per step scores
every candidate of every neighbour (:mod:`~.rollout`), at ``H`` times the logistic's cost,
followed by the rectifier and the output layer, where the interactions live.

scikit-learn's :class:`~sklearn.neural_network.MLPClassifier` fits it (L-BFGS, its default
200 iterations, the solver its documentation advises for small data sets), on masked copies
drawn as the logistic model's, in float32 (scikit-learn keeps the input's precision: 0.33
CPU s against 0.51 in float64 for 6,000 copies of 128 inputs and 16 units; the weights are
then read in float64). Its L2 strength is chosen among a few on held-out rows
(:func:`choose_masked_network`): at the logistic model's strength the network fits the
masked copies of its rows (several copies of each row) far better than it predicts other
rows (on the validation parts of Spambase, pima, german, ionosphere and kr_vs_kp, trial 0,
its masked log loss was 0.52-1.02 against the logistic model's 0.40-0.58; about 0.39-0.59
at ten times the strength).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import threadpoolctl

from ..contract.threads import thread_limit
from .masked_logistic import random_masks, softplus

if TYPE_CHECKING:
    from sklearn.neural_network import MLPClassifier

__all__ = ["MaskedNetwork", "choose_masked_network", "fit_masked_network"]

#: L-BFGS iterations of the fit (scikit-learn's default ``max_iter``).
MAX_ITERATIONS = 200


@dataclass(frozen=True, eq=False)
class MaskedNetwork:
    """A fitted one-hidden-layer network on masked inputs (see the module docstring), in the
    form the rollout reads: each group's additive part of the hidden pre-activations.

    Attributes
    ----------
    hidden_intercept : ndarray of shape (H,)
        ``c``: the hidden pre-activations of the empty set of groups.
    columns : ndarray of int, shape (n_columns,)
        The columns of ``X`` the network reads.
    column_group : ndarray of int, shape (n_columns,)
        The group (position in the pool) of each of those columns.
    weight : ndarray of shape (n_columns, H)
        Each column's first-layer row, per unit of the raw column (``V_j / s_j``).
    bias : ndarray of shape (n_groups, H)
        What observing group ``g`` adds whatever its values: ``d_g - sum_{j in g} V_j
        mu_j / s_j`` (``mu_j``, ``s_j`` the column's standardisation).
    output_weight : ndarray of shape (H,)
        ``w``.
    output_intercept : float
        ``b``.
    mean, scale : ndarray of shape (n_columns,)
        The standardisation of each column read (``x~ = (x - mean) / scale``).
    network : sklearn.neural_network.MLPClassifier
        The fitted network itself (its input: the standardised columns times their groups'
        mask bits, then the mask bits).
    """

    hidden_intercept: np.ndarray
    columns: np.ndarray
    column_group: np.ndarray
    weight: np.ndarray
    bias: np.ndarray
    output_weight: np.ndarray
    output_intercept: float
    mean: np.ndarray
    scale: np.ndarray
    network: MLPClassifier

    @property
    def initial_state(self) -> np.ndarray:
        """The hidden pre-activations of nothing observed: shape (H,)."""
        return self.hidden_intercept

    @property
    def intercept(self) -> float:
        """The score of nothing observed."""
        return float(self.scores(self.hidden_intercept[None])[0])

    def contributions(self, X: np.ndarray) -> np.ndarray:
        """``A_g(x)`` of every row and group: shape (n_rows, n_groups, H).

        The hidden pre-activations of a row observed on the groups ``o`` are
        :attr:`initial_state` plus the sum of its contributions over ``o``.
        """
        n_groups, H = self.bias.shape
        # the first layer as a block matrix: column j's row in its group's block of H units
        blocks = np.zeros((self.columns.size, n_groups, H))
        blocks[np.arange(self.columns.size), self.column_group] = self.weight
        summed = X[:, self.columns] @ blocks.reshape(self.columns.size, n_groups * H)
        return summed.reshape(X.shape[0], n_groups, H) + self.bias

    def scores(self, state: np.ndarray) -> np.ndarray:
        """The score (log-odds of +1) of hidden pre-activations ``state`` (n, H)."""
        return np.maximum(state, 0.0) @ self.output_weight + self.output_intercept

    def masked_log_loss(self, X: np.ndarray, y: np.ndarray, observed: np.ndarray) -> float:
        """Mean logistic loss of rows ``X`` (labels ``y``, -1/+1) under masks ``observed``
        (n_masks, n, n_groups): every row under each of its masks."""
        parts = self.contributions(X)  # (n, P, H)
        state = self.hidden_intercept + np.einsum("kng,ngh->knh", observed, parts)
        score = self.scores(state.reshape(-1, state.shape[2])).reshape(observed.shape[:2])
        return float(softplus(-y[None, :] * score).mean())


def fit_masked_network(
    X: np.ndarray,
    y: np.ndarray,
    columns: np.ndarray,
    column_group: np.ndarray,
    n_groups: int,
    rng: np.random.Generator,
    n_masks: int,
    regularization: float,
    hidden_units: int,
    max_observed: int = 1 << 30,
) -> MaskedNetwork:
    """Fit the network on ``n_masks`` random masks of every row.

    The masks are drawn as the logistic model's (:func:`~.masked_logistic.random_masks`).
    The columns are standardised on the rows (scikit-learn's advice for its networks: they
    are sensitive to the scale of their inputs; a constant column is centred only). The L2
    penalty is ``regularization / (2 n) |W|^2`` over both layers' weights (``n`` the rows,
    as the logistic model's; scikit-learn's ``alpha`` is per copy, hence ``alpha =
    regularization * n_masks``). The network's initial weights are seeded from ``rng``.

    Parameters
    ----------
    X : ndarray of shape (n, n_features)
    y : ndarray of shape (n,)
        Labels -1/+1.
    columns, column_group : ndarray of int
        The columns read, and the group (0 .. n_groups - 1) of each.
    n_groups : int
    rng : numpy Generator
        Draws the masks and the network's seed.
    n_masks : int
        Copies of each row, each under its own random mask.
    regularization : float
        L2 strength per training row (> 0).
    hidden_units : int
        ``H``.
    max_observed : int
        The most groups a mask observes.
    """
    # here: scikit-learn costs about 1.4 CPU s to import, which AACO's default classifier,
    # the logistic model, never needs
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPClassifier

    n = X.shape[0]
    columns = np.asarray(columns, dtype=np.intp)
    column_group = np.asarray(column_group, dtype=np.intp)
    observed = random_masks(rng, n, n_groups, n_masks, max_observed)
    Xc = X[:, columns]
    mean = Xc.mean(axis=0) if n else np.zeros(columns.size)
    std = Xc.std(axis=0) if n else np.ones(columns.size)
    scale = np.where(std > 0, std, 1.0)
    Z = np.concatenate([((Xc - mean) / scale)[None] * observed[:, :, column_group], observed], 2)
    Z = Z.reshape(n_masks * n, columns.size + n_groups).astype(np.float32)
    network = MLPClassifier(
        hidden_layer_sizes=(int(hidden_units),),
        activation="relu",
        solver="lbfgs",
        alpha=float(regularization) * n_masks,
        max_iter=MAX_ITERATIONS,
        random_state=int(rng.integers(2**31 - 1)),
    )
    with warnings.catch_warnings(), threadpoolctl.threadpool_limits(thread_limit()):
        warnings.simplefilter("ignore", ConvergenceWarning)  # 200 iterations is the stop
        network.fit(Z, np.tile(y, n_masks))
    first, second = (layer.astype(np.float64) for layer in network.coefs_)
    column_rows = first[: columns.size] / scale[:, None]
    bias = first[columns.size :].copy()
    np.add.at(bias, column_group, -(mean / scale)[:, None] * first[: columns.size])
    # classes_ is [-1, 1]: the output is the log-odds of +1
    return MaskedNetwork(
        hidden_intercept=network.intercepts_[0].astype(np.float64),
        columns=columns,
        column_group=column_group,
        weight=column_rows,
        bias=bias,
        output_weight=second[:, 0].copy(),
        output_intercept=float(network.intercepts_[1][0]),
        mean=mean,
        scale=scale,
        network=network,
    )


def choose_masked_network(
    X: np.ndarray,
    y: np.ndarray,
    X_held_out: np.ndarray,
    y_held_out: np.ndarray,
    columns: np.ndarray,
    column_group: np.ndarray,
    n_groups: int,
    rng: np.random.Generator,
    n_masks: int,
    regularizations: np.ndarray,
    hidden_units: int,
    max_observed: int = 1 << 30,
) -> tuple[MaskedNetwork, np.ndarray]:
    """The network of lowest masked log loss on held-out rows, among one fitted on ``X`` at
    each L2 strength of ``regularizations``.

    Every candidate is fitted from the same generator state (the same masks and initial
    weights: only the strength differs); the held-out rows are scored under ``n_masks``
    random masks each, drawn as the training masks (:func:`~.masked_logistic.random_masks`)
    from ``rng`` afterwards. Ties: the earlier strength.

    Returns
    -------
    network : MaskedNetwork
        The chosen one.
    losses : ndarray of shape (len(regularizations),)
        Each candidate's held-out masked log loss.
    """
    seed = int(rng.integers(2**63 - 1))
    observed = random_masks(rng, X_held_out.shape[0], n_groups, n_masks, max_observed)
    networks, losses = [], []
    for strength in regularizations:  # a handful of strengths, each a fit
        network = fit_masked_network(
            X,
            y,
            columns,
            column_group,
            n_groups,
            np.random.default_rng(seed),
            n_masks,
            float(strength),
            hidden_units,
            max_observed,
        )
        networks.append(network)
        losses.append(network.masked_log_loss(X_held_out, y_held_out, observed))
    losses = np.asarray(losses)
    return networks[int(np.argmin(losses))], losses
