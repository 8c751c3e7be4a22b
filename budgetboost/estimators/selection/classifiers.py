"""The classifiers trained on a chosen set of feature groups: LightGBM and logistic regression.

Each reads only the columns of its set's groups (the estimator hands it nothing else). Its
*sizes* are what the choice per budget may pick besides the set: for LightGBM every prefix of
its trees (``k = 1 .. n_trees``, the number of trees a user tunes on held-out rows), for the
logistic regression the one fitted model (size 1). A fitted classifier gives its validation
error and log loss per size, its raw scores at given sizes, and what each example pays: the
logistic regression reads every group of its set for every example; a LightGBM example reads
the groups its own decision paths test
(:meth:`~budgetboost.estimators.peers.lightgbm_peer.LightGBMModel.example_costs`, the library peer's
accounting, reused).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from ..contract.pricing import Pricing
from ..contract.threads import thread_limit
from ..peers.lightgbm_peer import LightGBMModel as ParsedBooster

if TYPE_CHECKING:  # the libraries load where a model is trained (planning imports this module)
    import lightgbm

__all__ = ["FittedGBM", "FittedLinear", "fit_gbm", "fit_linear", "gbm_params"]


def _log_loss(scores: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mean logistic loss ``log(1 + exp(-y s))`` along the last axis (``y`` in -1/+1)."""
    return np.logaddexp(0.0, -scores * y).mean(axis=-1)


def gbm_params(
    *,
    num_leaves: int,
    min_child_samples: int,
    min_data_in_bin: int,
    learning_rate: float,
    max_bin: int,
    seed: int,
) -> dict[str, Any]:
    """LightGBM's parameters of every fit: the small-data settings of the library peer
    (:class:`~budgetboost.estimators.peers.lightgbm_peer.BudgetedLightGBM`: leaves and bins of
    a few rows, a bin per distinct value), binary log loss, deterministic, the job's threads."""
    return {
        "objective": "binary",
        "num_leaves": int(num_leaves),
        "min_data_in_leaf": int(min_child_samples),
        "min_data_in_bin": int(min_data_in_bin),
        "learning_rate": float(learning_rate),
        "feature_pre_filter": False,
        "enable_bundle": False,
        "max_bin": int(max_bin),
        "num_threads": thread_limit(),
        "deterministic": True,
        "force_row_wise": True,
        "seed": int(seed),
        "verbosity": -1,
    }


@dataclass(eq=False)
class FittedGBM:
    """A LightGBM booster on a set's columns.

    Attributes
    ----------
    booster : lightgbm.Booster
    n_trees : int
        Its trees (LightGBM stops early when no split is left).
    validation_error, validation_loss : ndarray of shape (n_trees,) or None
        Error and log loss of each prefix of 1, 2, ... trees on the validation rows.
    """

    booster: lightgbm.Booster
    n_trees: int
    validation_error: np.ndarray | None = None
    validation_loss: np.ndarray | None = None
    _parsed: ParsedBooster | None = field(default=None, repr=False)

    def _trees(self) -> ParsedBooster:
        if self._parsed is None:  # the trees of dump_model(), parsed once, when served
            self._parsed = ParsedBooster(self.booster)
        return self._parsed

    def scores(self, X: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """Raw scores of the first ``sizes[b]`` trees: (len(sizes), n)."""
        out = np.empty((sizes.size, X.shape[0]))
        for k in np.unique(sizes).tolist():
            out[sizes == k] = self.booster.predict(
                X, raw_score=True, num_iteration=int(k), num_threads=thread_limit()
            )
        return out

    def example_costs(
        self, X: np.ndarray, sizes: np.ndarray, column_group: np.ndarray, pricing: Pricing
    ) -> np.ndarray:
        """What each example pays for the groups on its paths through the first ``sizes[b]``
        trees: (len(sizes), n)."""
        if not X.shape[0]:
            return np.zeros((sizes.size, 0))
        return self._trees().example_costs(X, np.asarray(sizes), column_group, pricing)


def fit_gbm(
    X: np.ndarray,
    y: np.ndarray,
    params: dict[str, Any],
    n_trees: int,
    validation: tuple[np.ndarray, np.ndarray] | None = None,
) -> FittedGBM:
    """LightGBM on ``(X, y)`` (``y`` -1/+1) with ``n_trees`` rounds; with ``validation``
    (rows, labels) the error and log loss of every prefix on them, recorded by LightGBM as it
    trains (its ``binary_error`` counts a probability <= 0.5 as the negative class: a raw score
    <= 0, as the estimator predicts). The booster is returned as trained
    (``keep_training_booster``: LightGBM's default would copy it through its model string,
    a fifth of the fit on 750 rows)."""
    import lightgbm

    dataset = lightgbm.Dataset(X, label=(y > 0).astype(np.int32), params=params)
    if validation is None:
        booster = lightgbm.train(
            params, dataset, num_boost_round=int(n_trees), keep_training_booster=True
        )
        return FittedGBM(booster, booster.num_trees())
    Xv, yv = validation
    valid = lightgbm.Dataset(Xv, label=(yv > 0).astype(np.int32), reference=dataset)
    record: dict = {}
    booster = lightgbm.train(
        {**params, "metric": ["binary_error", "binary_logloss"]},
        dataset,
        num_boost_round=int(n_trees),
        valid_sets=[valid],
        valid_names=["validation"],
        callbacks=[lightgbm.record_evaluation(record)],
        keep_training_booster=True,
    )
    curves = record.get("validation", {})
    n = booster.num_trees()
    error = np.asarray(curves.get("binary_error", []), dtype=np.float64)[:n]
    loss = np.asarray(curves.get("binary_logloss", []), dtype=np.float64)[:n]
    return FittedGBM(booster, n, error, loss)


@dataclass(eq=False)
class FittedLinear:
    """An L2 logistic regression on a set's standardised columns (one size).

    Attributes
    ----------
    model : sklearn Pipeline
        ``StandardScaler`` then ``LogisticRegression``.
    validation_error, validation_loss : ndarray of shape (1,) or None
    """

    model: Any
    validation_error: np.ndarray | None = None
    validation_loss: np.ndarray | None = None

    @property
    def n_trees(self) -> int:
        return 1

    def scores(self, X: np.ndarray, sizes: np.ndarray) -> np.ndarray:
        """The log-odds of every row, once per entry of ``sizes`` (all 1)."""
        return np.tile(self.model.decision_function(X), (sizes.size, 1))


def fit_linear(
    X: np.ndarray,
    y: np.ndarray,
    C: float,
    validation: tuple[np.ndarray, np.ndarray] | None = None,
) -> FittedLinear:
    """scikit-learn's L2 logistic regression (``lbfgs``, inverse penalty ``C``) on the
    standardised columns of ``(X, y)``; with ``validation``, its error and log loss there."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    model = make_pipeline(StandardScaler(), LogisticRegression(C=float(C), max_iter=1000))
    model.fit(X, y)
    fitted = FittedLinear(model)
    if validation is not None:
        Xv, yv = validation
        scores = model.decision_function(Xv)
        fitted.validation_error = np.array([np.mean((scores > 0) != (yv > 0))])
        fitted.validation_loss = np.array([_log_loss(scores, yv)])
    return fitted
