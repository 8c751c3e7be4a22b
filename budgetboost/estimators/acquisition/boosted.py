"""The boosted predictor of :class:`~.aaco.AACO` (``predictor="boosted"``): LightGBM on what an
example acquired.

AACO's authors predict from an example's acquired features with gradient boosting: one model
per subset of features where the subsets are few, otherwise one model on randomly masked
inputs (Valancius et al. 2024; their code trains XGBoost). The masked classifier of the
oracle (:mod:`~.masked_logistic`, :mod:`~.masked_network`) must stay additive over groups to
score every candidate subset of every neighbour in one product; the *prediction* need not,
so it may be a stronger model. Two forms, fixed at fit:

- :class:`SubsetBoosted`: one LightGBM per subset of the pool's groups, trained on the
  training rows' columns of those groups alone, when the subsets an example can reach are
  few (:func:`reachable_subsets`); each model is trained the first time its subset is asked
  for (a function of the training rows and the subset only, so the order in which examples
  ask never changes a score);
- :class:`MaskedBoosted`: one LightGBM on ``n_masks`` randomly masked copies of each
  training row (an unobserved column is missing, which LightGBM routes by a learned
  default direction), its number of trees (its capacity) chosen on held-out rows by their
  masked log loss (:func:`fit_masked_boosted`).

Both are single-threaded (the job's thread limit) and deterministic (LightGBM's
``deterministic`` mode, no bagging or column sampling: no random draw). LightGBM is imported
where a model is trained: it loads scikit-learn, pandas and SciPy's statistics (about 1.4 CPU
s), which AACO's default predictor, the classifier, never needs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..contract.threads import thread_limit
from .masked_logistic import random_masks, softplus

if TYPE_CHECKING:
    import lightgbm

__all__ = [
    "MASKED_TREES",
    "PARAMS",
    "SUBSET_TREES",
    "MaskedBoosted",
    "SubsetBoosted",
    "fit_masked_boosted",
    "predicted_scores",
    "reachable_subsets",
]

#: LightGBM's settings of every model: small data (75 to 1,000 training rows), as the
#: LightGBM peer's defaults (leaves and bins of few rows), a moderate rate and small trees.
PARAMS = {
    "objective": "binary",
    "learning_rate": 0.1,
    "num_leaves": 8,
    "min_data_in_leaf": 5,
    "min_data_in_bin": 1,
    "feature_pre_filter": False,
    "deterministic": True,
    "force_row_wise": True,
    "verbosity": -1,
}
#: Trees of each per-subset model.
SUBSET_TREES = 100
#: Most trees of the masked model; the number used is chosen on held-out rows.
MASKED_TREES = 300


def _params(seed: int) -> dict:
    return {**PARAMS, "num_threads": thread_limit(), "seed": int(seed)}


def _log_odds(y01: np.ndarray) -> float:
    """The prior log-odds of the label (the score of nothing observed), clipped away from
    a single class."""
    p = float(np.clip(np.mean(y01), 1e-3, 1 - 1e-3)) if y01.size else 0.5
    return math.log(p / (1 - p))


def reachable_subsets(least_price: np.ndarray, horizon: float, max_acquisitions: int) -> int:
    """An upper bound of the subsets of the pool an example can acquire within ``horizon``:
    every subset of at most ``K`` of its ``P`` groups, ``K`` the most groups whose least
    prices fit the horizon together (the cheapest first), at most ``max_acquisitions``."""
    ordered = np.sort(np.asarray(least_price, dtype=np.float64))
    K = int(np.sum(np.cumsum(ordered) <= horizon))
    K = min(K, int(max_acquisitions), ordered.size)
    return sum(math.comb(ordered.size, k) for k in range(K + 1))


@dataclass(eq=False)
class SubsetBoosted:
    """One LightGBM per subset of the pool's groups, each trained when first asked for.

    Attributes
    ----------
    X : ndarray of shape (n, n_columns)
        The training rows on the columns the predictor reads.
    y01 : ndarray of shape (n,)
        Their labels, 0/1.
    columns : ndarray of int, shape (n_columns,)
        The columns of the examples' ``X`` read (those of ``X`` above).
    column_group : ndarray of int, shape (n_columns,)
        The pool position of each column's group.
    seed : int
        LightGBM's seed (the same for every subset).
    models : dict
        The trained models, by the subset's bytes (``np.packbits`` of its mask).
    """

    X: np.ndarray
    y01: np.ndarray
    columns: np.ndarray
    column_group: np.ndarray
    seed: int
    models: dict = field(default_factory=dict)

    def _model(self, observed: np.ndarray) -> lightgbm.Booster | float:
        key = np.packbits(observed).tobytes()
        if key not in self.models:
            read = observed[self.column_group]
            if not read.any() or np.unique(self.y01).size < 2:
                self.models[key] = _log_odds(self.y01)
            else:
                import lightgbm

                params = _params(self.seed)
                data = lightgbm.Dataset(self.X[:, read], label=self.y01, params=params)
                self.models[key] = lightgbm.train(params, data, num_boost_round=SUBSET_TREES)
        return self.models[key]

    def scores(self, X: np.ndarray, observed: np.ndarray) -> np.ndarray:
        """The raw score of each example ``X`` (the fit's columns) from the model of its
        observed groups ``observed`` (n, P): shape (n,)."""
        out = np.empty(X.shape[0])
        subsets, which = np.unique(observed, axis=0, return_inverse=True)
        which = which.reshape(-1)
        for index, subset in enumerate(subsets):
            rows = np.flatnonzero(which == index)
            model = self._model(subset)
            if isinstance(model, float):
                out[rows] = model
                continue
            read = self.columns[subset[self.column_group]]
            out[rows] = model.predict(
                X[np.ix_(rows, read)], raw_score=True, num_threads=thread_limit()
            )
        return out


@dataclass(eq=False)
class MaskedBoosted:
    """One LightGBM on masked inputs: an unobserved group's columns are missing.

    Attributes
    ----------
    booster : lightgbm.Booster or None
        None where the pool is empty (every score is the prior's).
    columns, column_group : ndarray of int
        The columns read and the pool position of each one's group.
    n_trees : int
        The trees used (chosen on held-out rows).
    prior : float
        The prior log-odds (the score with no tree).
    """

    booster: lightgbm.Booster | None
    columns: np.ndarray
    column_group: np.ndarray
    n_trees: int
    prior: float

    def scores(self, X: np.ndarray, observed: np.ndarray) -> np.ndarray:
        """The raw score of each example observed on ``observed`` (n, P): shape (n,)."""
        if self.booster is None or self.n_trees == 0:
            return np.full(X.shape[0], self.prior)
        return self.booster.predict(
            _masked(X[:, self.columns], observed[:, self.column_group]),
            raw_score=True,
            num_iteration=self.n_trees,
            num_threads=thread_limit(),
        )


def _masked(values: np.ndarray, read: np.ndarray) -> np.ndarray:
    """``values`` with every unread entry missing (NaN)."""
    return np.where(read, values, np.nan)


def fit_masked_boosted(
    X: np.ndarray,
    y: np.ndarray,
    columns: np.ndarray,
    column_group: np.ndarray,
    n_groups: int,
    rng: np.random.Generator,
    n_masks: int,
    max_observed: int,
    held_out: tuple[np.ndarray, np.ndarray] | None = None,
    n_trees: int | None = None,
) -> tuple[MaskedBoosted, np.ndarray | None]:
    """LightGBM on ``n_masks`` random masks of every row
    (:func:`~.masked_logistic.random_masks`, as the masked classifier), :data:`MASKED_TREES` trees;
    the number used is the prefix of lowest masked log loss on ``held_out`` (rows and -1/+1 labels,
    each under ``n_masks`` masks drawn the same way: ties to fewer trees), or ``n_trees`` when
    no rows are held out (a refit uses the number chosen).

    Returns
    -------
    model : MaskedBoosted
    losses : ndarray of shape (MASKED_TREES + 1,) or None
        The held-out masked log loss of every prefix (0 trees first), None without
        held-out rows.
    """
    import lightgbm

    y01 = (np.asarray(y) > 0).astype(np.int32)
    prior = _log_odds(y01)
    if not columns.size or np.unique(y01).size < 2:
        return MaskedBoosted(None, columns, column_group, 0, prior), None
    n = X.shape[0]
    observed = random_masks(rng, n, n_groups, n_masks, max_observed)
    values = np.broadcast_to(X[:, columns], (n_masks, n, columns.size))
    Z = _masked(values, observed[:, :, column_group]).reshape(n_masks * n, columns.size)
    params = _params(int(rng.integers(2**31 - 1)))
    data = lightgbm.Dataset(Z, label=np.tile(y01, n_masks), params=params)
    if held_out is None:
        booster = lightgbm.train(params, data, num_boost_round=MASKED_TREES)
        trees = booster.num_trees() if n_trees is None else min(n_trees, booster.num_trees())
        return MaskedBoosted(booster, columns, column_group, int(trees), prior), None
    Xh, yh = held_out
    mask = random_masks(rng, Xh.shape[0], n_groups, n_masks, max_observed)
    values = np.broadcast_to(Xh[:, columns], (n_masks, Xh.shape[0], columns.size))
    Zh = _masked(values, mask[:, :, column_group]).reshape(-1, columns.size)
    yh01 = np.tile((np.asarray(yh) > 0).astype(np.int32), n_masks)
    valid = lightgbm.Dataset(Zh, label=yh01, reference=data, params=params)
    record: dict = {}
    booster = lightgbm.train(
        {**params, "metric": "binary_logloss"},
        data,
        num_boost_round=MASKED_TREES,
        valid_sets=[valid],
        valid_names=["held_out"],
        callbacks=[lightgbm.record_evaluation(record)],
    )
    margin = np.where(yh01 > 0, 1.0, -1.0)
    losses = np.concatenate(
        [[softplus(-margin * prior).mean()], record["held_out"]["binary_logloss"]]
    )
    trees = int(np.argmin(losses))  # the first of the lowest: the fewest trees
    return MaskedBoosted(booster, columns, column_group, trees, prior), losses


def predicted_scores(
    predictor: SubsetBoosted | MaskedBoosted,
    X: np.ndarray,
    example: np.ndarray,
    group: np.ndarray,
    paid: np.ndarray,
    n_groups: int,
) -> np.ndarray:
    """The predictor's score of every trajectory after each number of acquisitions.

    Parameters
    ----------
    predictor : SubsetBoosted or MaskedBoosted
    X : ndarray of shape (m, n_features)
        The examples.
    example : ndarray of int, shape (n_rows,)
        The example of each trajectory.
    group, paid : ndarray of shape (n_rows, T)
        The trajectories (:class:`~.rollout.Trajectories`): the pool group acquired at each
        step, and the cumulative price (``inf`` after the example stopped).
    n_groups : int
        P, the pool's size.

    Returns
    -------
    ndarray of shape (n_rows, T + 1)
        Column ``t``: the score once the first ``t`` groups are observed (after a
        trajectory stopped, its last score). Trajectories of one example that observed
        the same groups share one prediction.
    """
    n_rows, T = group.shape
    steps = np.isfinite(paid).sum(axis=1)
    score = np.empty((n_rows, T + 1))
    observed = np.zeros((n_rows, n_groups), dtype=bool)
    for t in range(T + 1):
        live = np.flatnonzero(steps >= t)
        if live.size:
            key = np.concatenate([example[live, None], observed[live]], axis=1)
            _, first, inverse = np.unique(key, axis=0, return_index=True, return_inverse=True)
            rows = live[first]
            values = predictor.scores(X[example[rows]], observed[rows])
            score[live, t] = values[inverse.reshape(-1)]
        if t:  # a stopped trajectory keeps its last score
            stopped = np.flatnonzero(steps < t)
            score[stopped, t] = score[stopped, t - 1]
        if t < T:
            acquiring = np.flatnonzero(steps > t)
            observed[acquiring, group[acquiring, t]] = True
    return score
