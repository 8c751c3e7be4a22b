"""CatBoost with feature-use penalties as a budgeted peer.

CatBoost subtracts ``penalties_coefficient * first_feature_use_penalties[j]`` from the score
of a split on feature ``j`` while ``j`` is unused in the model
(``catboost/private/libs/algo/feature_penalties_calcer.cpp``). Its symmetric (oblivious)
trees always grow to ``depth`` levels, whatever the penalised scores: the penalty steers
which features are used, it never stops a tree.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any

import numpy as np

from ..contract.base import (
    PRICES,
    RANDOM_STATE,
)
from ..contract.params import Boolean, Interval
from ..contract.threads import thread_limit
from ..contract.tuning import GRID, TRADEOFF, IntegerGrid, TradeoffGrid
from ._base import LibraryParams, PeerBooster, PeerModel
from .columns import distinct_columns

if TYPE_CHECKING:  # the library loads where a model is trained (planning imports this module)
    import catboost

__all__ = ["BudgetedCatBoost"]

#: Parameters of the quantization of the features: a pool quantized once serves every fit
#: unless one of these is given (then each fit quantizes with them).
_QUANTIZATION = frozenset(
    {
        "border_count",
        "max_bin",
        "feature_border_type",
        "per_float_feature_quantization",
        "nan_mode",
        "input_borders",
    }
)


def _reserved() -> dict[str, str]:
    """CatBoost parameters (with their aliases) that the wrapper sets itself."""
    by = {
        "iterations": ("num_boost_round", "n_estimators", "num_trees"),
        "learning_rate": ("eta",),
        "depth": ("max_depth",),
        "l2_leaf_reg": ("reg_lambda",),
        "random_strength": (),
        "penalties_coefficient": (),
        "feature_costs": ("first_feature_use_penalties", "per_object_feature_penalties"),
        "random_state": ("random_seed",),
    }
    reserved = {
        name: f"the parameter {owner!r}"
        for owner, aliases in by.items()
        for name in (owner, *aliases)
    }
    wrapper = {
        "its thread limit": ("thread_count",),
        "no files": ("allow_writing_files", "train_dir"),
        "silent": ("verbose", "silent", "logging_level", "verbose_eval", "metric_period"),
        "binary log loss": ("loss_function", "objective"),
        "symmetric trees only (every example reads every split)": ("grow_policy",),
        "CPU only (CatBoost's penalties are CPU-only)": ("task_type", "devices"),
        "all trees kept": (
            "use_best_model",
            "early_stopping_rounds",
            "od_type",
            "od_wait",
            "od_pval",
        ),
    }
    for why, names in wrapper.items():
        owner = "the job" if why == "its thread limit" else "the wrapper"
        reserved.update({name: f"{owner} ({why})" for name in names})
    return reserved


class _Model(PeerModel):
    """One trained ``CatBoostClassifier`` (``None``: every column constant, no tree); its
    feature ``j`` is library column ``columns[j]`` (``None``: ``j``)."""

    def __init__(
        self, model: catboost.CatBoostClassifier | None, columns: np.ndarray | None = None
    ):
        self.model = model
        self.features = columns
        self.columns = [] if model is None else _tree_columns(model)
        if columns is not None:
            self.columns = [np.asarray(columns, dtype=np.intp)[c] for c in self.columns]

    def _input(self, X: np.ndarray) -> np.ndarray:
        return X if self.features is None else X[:, self.features]

    def tree_columns(self) -> list[np.ndarray]:
        return self.columns

    def staged_scores(self, X: np.ndarray) -> np.ndarray:
        """Raw scores of every prefix from the leaf indexes and values (``staged_predict``
        gives the same numbers, but slowly for a model with per-feature penalties)."""
        if self.model is None:
            return np.empty((0, X.shape[0]))
        leaves = np.asarray(
            self.model.calc_leaf_indexes(self._input(X), thread_count=thread_limit()),
            dtype=np.intp,
        )
        counts = np.asarray(self.model.get_tree_leaf_counts(), dtype=np.intp)
        offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])
        scale, bias = self.model.get_scale_and_bias()
        values = np.asarray(self.model.get_leaf_values(), dtype=np.float64)
        return (scale * np.cumsum(values[leaves + offsets], axis=1) + bias).T

    def raw_scores(self, X: np.ndarray, n_trees: int) -> np.ndarray:
        return self.model.predict(
            self._input(X),
            prediction_type="RawFormulaVal",
            ntree_end=n_trees,
            thread_count=thread_limit(),
        )

    # every example reads every split of a symmetric tree: example_costs is None (spent)


class BudgetedCatBoost(PeerBooster):
    """CatBoost with first-use feature penalties, tuned trade-off and learning rate, anytime
    prefix.

    Per fit (the protocol of :mod:`budgetboost.estimators.peers._base`): one
    ``CatBoostClassifier`` (log loss, ``iterations`` symmetric trees) per pair of a
    ``penalties_coefficient`` and a ``learning_rate`` is trained on the *fit part* of the
    training rows, with ``first_feature_use_penalties`` set to each column's cost; every
    prefix of the first ``k`` trees (``predict(ntree_end=k)``) is a candidate; at a budget
    ``B`` the candidate with the lowest error on the *validation part* among those whose
    ``spent`` is at most ``B`` is chosen (ties: lower validation log loss, then lower cost,
    fewer trees, earlier configuration); each chosen configuration is trained again on all
    training rows, and ``B`` gets its first ``k`` trees, or fewer where they reach ``B``
    sooner. The empty model (no tree, cost 0) predicts the training majority class.

    CatBoost's automatic learning rate applies only when ``l2_leaf_reg`` is not set (and was
    0.03 for 100 trees at the benchmark's sizes whenever it is: CatBoost's
    ``UpdateLearningRate``); here the rate is one of a grid chosen on validation, with enough
    trees for the unpenalised model to spend the top of the paper's budget grid (40 under
    U[0, 2]): 200 stumps spend 43-113 on eight of the Table 1 datasets' first trial and 33 on
    heart (``benchmarks/peers.py`` prints it).

    Parameters
    ----------
    iterations : int, default=200
        Trees per model of the grid (CatBoost's default is 1000); the prefix used at each
        budget is chosen on validation.
    learning_rate : float > 0 or array-like of them, default=(0.1, 0.3, 1.0)
        One value, or several to choose from on the validation part; 1.0, the full step
        (see :class:`~budgetboost.estimators.peers.lightgbm_peer.BudgetedLightGBM`), lifts
        the cap the step size put on the peers.
    depth : int in [1, 16] or array-like of them, default=6
        Depth of the symmetric trees: ``1`` gives stumps (the paper's hypothesis space),
        ``6`` is CatBoost's default, 3-6 the usual small trees. Several distinct values
        (e.g. ``[1, 2, 3]``) are a grid: each joins the configurations (trade-off x learning
        rate x depth) and the depth is chosen per budget on the validation part, as the
        learning rate is (:meth:`chosen_depths`).
    l2_leaf_reg : float >= 0 or array-like of them, default=3.0
        CatBoost's default, its regularisation of the leaf values at every depth (CatBoost's
        ``min_data_in_leaf`` applies to its Depthwise and Lossguide trees only, not to the
        symmetric ones here); several values are a grid chosen on validation.
    random_strength : float >= 0, default=1.0
        Scale of CatBoost's random noise on split scores (CatBoost's default).
    penalties_coefficient : float >= 0, array-like of them, or None, default=None
        CatBoost's multiplier of all penalties, in CatBoost's units: one value is a fixed
        trade-off, several a grid to choose from on the validation part. ``None`` is the
        grid ``sqrt(n_fit) / c * (0, 1e-3, 4e-3, ..., 1e-3 * 4^6)`` (8 values, log-spaced in
        factors of 4, and 0: no penalty), ``n_fit`` the rows of the fit part and ``c`` the
        mean positive cost of the columns given to the library. Why: CatBoost's default split
        score (``score_function="Cosine"``) is ``sqrt(sum over leaves of G^2 / W)``
        (gradient sum ``G``, weight ``W`` of each leaf), at most about ``sqrt(n_fit) / 2``
        with log loss (``|g| <= 1/2`` at the start), and candidate splits differ by far less.
        At ``1e-3 sqrt(n_fit) / c`` the penalty of a feature of average cost is below those
        differences (features nearly free); at ``4 sqrt(n_fit) / c`` above any score, so new
        features are taken cheapest first. The penalty never stops a tree (see the module
        docstring). With ``params={"score_function": "L2"}`` scores grow like ``n_fit``: give
        the grid explicitly then. Dividing by ``c`` makes the grid independent of the cost
        unit.
    validation_fraction : float in [0, 1), default=0.25
        Share of the training rows held out, stratified by class (each class gives its
        share, rounded, and keeps at least one row in the fit part), to choose the
        configuration and the prefix at each budget; the chosen configurations are then
        trained on all training rows. ``0`` trains one configuration on all rows and uses
        the longest affordable prefix (``penalties_coefficient`` and ``learning_rate`` must
        then be single values). On tiny data (a validation part with no row), the fit part
        chooses.
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seeds the validation split and CatBoost's ``random_seed`` (drawn from the same
        generator).
    feature_costs : array-like of shape (n_features,), default=None
        Cost of each column (default all 1); ``0`` is allowed (a free feature).
    feature_groups : array-like of shape (n_features,), default=None
        Group label per column; a group is paid for once. CatBoost knows no groups. The
        threshold indicators of one attribute (columns of a group nested on the training
        rows) are given to it as one ordinal column
        (:mod:`budgetboost.estimators.peers.columns`), whose first-use penalty is the group's cost:
        paid once, as the project pays it. Any other column of a group (a one-hot category) is given
        as it is, with its group's cost, so the model pays the group again for each further such
        column it uses (an over-estimate that steers CatBoost away from a paid group's other
        columns). The project's accounting (``spent``, the choice) pays each group once, exactly.
    discount_groups, discount_costs : array-like of shape (n_features,), default=None
        Turney's discount groups (see :class:`~budgetboost.BudgetedEstimator`). CatBoost
        cannot express them: a column's first-use penalty is its group's full price (its test
        alone, the most it can cost). The candidates' costs, hence the choice per budget,
        and every evaluation use the true prices with the discount groups.
    params : dict or None, default=None
        Further ``CatBoostClassifier`` parameters (e.g. ``{"bootstrap_type": "No"}``); not
        those above, nor those the wrapper sets: the job's ``thread_count``
        (:func:`~budgetboost.estimators.contract.threads.thread_limit`), a quantization
        with a border between every two distinct values of a column (at least CatBoost's
        254) unless a quantization parameter is given,
        ``allow_writing_files=False``, ``verbose=False``, ``loss_function="Logloss"``,
        symmetric trees (``grow_policy``), CPU, no early stopping.
    merge_identical_columns : bool, default=False
        Give each model one column of each set of columns equal on its training rows, the
        cheapest (:func:`~budgetboost.estimators.peers.columns.distinct_columns`): the same
        splits, each on the cheapest column that makes it, and CatBoost scores a fraction
        of the columns on wide data (sonar's 11,196 are 4,164 distinct on 75 rows). ``False``
        gives every column, as before.

    Attributes
    ----------
    classes_, n_features_in_, majority_
        As every :class:`~budgetboost.BudgetedEstimator`.
    configs_, tradeoffs_, models_, choice_, refits_, encoding_, seed_, ...
        See :class:`~budgetboost.estimators.peers._base.PeerBooster`; ``seed_`` is CatBoost's
        ``random_seed``.

    Notes
    -----
    ``spent`` at a budget is the pay-once cost of the groups the prefix served splits on
    (read from the model's JSON export). Every example evaluates every split of a symmetric
    tree (its leaf index is made of all the split bits), so ``mean_example_cost`` and
    ``max_example_cost`` equal ``spent``: charged per example, as
    :class:`~budgetboost.estimators.peers.lightgbm_peer.BudgetedLightGBM` can be, each
    example would pay exactly this, at any depth. ``rounds`` is the number of trees.

    References
    ----------
    L. Prokhorenkova et al. CatBoost: unbiased boosting with categorical features. NeurIPS
    2018. CatBoost parameters ``penalties_coefficient``, ``first_feature_use_penalties``,
    ``per_object_feature_penalties``, ``feature_weights``.
    Y. Huang, B. Powers, L. Reyzin. Training-Time Optimization of a Budgeted Booster.
    IJCAI 2015 (the budgets and costs of the benchmark).
    """

    label = "CatBoost penalties"
    family = "peer"

    _tradeoff_name = "penalties_coefficient"
    _n_trees_name = "iterations"
    _structure_names = ("depth", "l2_leaf_reg")
    _depth_name = "depth"
    _relative_grid = (0.0, *(1e-3 * 4.0**i for i in range(7)))

    libraries = ("catboost",)
    conformance_cases = {
        "depth": {"iterations": 10, "depth": [1, 2], "penalties_coefficient": [0.1, 10.0]}
    }
    _parameter_constraints = {
        "iterations": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither"), GRID],
        "depth": [
            Interval(Integral, 1, 16, closed="both"),
            IntegerGrid(1, 16, "the depths to choose from", distinct=True),
        ],
        "l2_leaf_reg": [Interval(Real, 0, None, closed="left"), TradeoffGrid()],
        "random_strength": [Interval(Real, 0, None, closed="left")],
        "penalties_coefficient": TRADEOFF,
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        **PRICES,
        "params": [LibraryParams("CatBoost", _reserved()), None],
        "merge_identical_columns": [Boolean()],
    }

    def __init__(
        self,
        iterations: int = 200,
        learning_rate=(0.1, 0.3, 1.0),
        depth: int = 6,
        l2_leaf_reg: float = 3.0,
        random_strength: float = 1.0,
        penalties_coefficient=None,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        params: dict | None = None,
        discount_groups=None,
        discount_costs=None,
        merge_identical_columns: bool = False,
    ):
        self.iterations = iterations
        self.learning_rate = learning_rate
        self.depth = depth
        self.l2_leaf_reg = l2_leaf_reg
        self.random_strength = random_strength
        self.penalties_coefficient = penalties_coefficient
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.params = params
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs
        self.merge_identical_columns = merge_identical_columns

    # ------------------------------------------------------------------ hooks
    def _tradeoff_scale(self, n_fit: int, mean_cost: float) -> float:
        return math.sqrt(n_fit) / mean_cost

    def _library_params(self, seed: int, config: dict | None = None) -> dict[str, Any]:
        """The ``CatBoostClassifier`` parameters of the fits of ``config`` (its trees' depth
        and ``l2_leaf_reg`` where they are grid parameters), but the rate and penalties."""
        params = {
            "depth": int(self._value(config, "depth")),
            "l2_leaf_reg": float(self._value(config, "l2_leaf_reg")),
            "random_strength": float(self.random_strength),
            "loss_function": "Logloss",
            "thread_count": thread_limit(),
            "random_seed": int(seed),
            "allow_writing_files": False,
            "verbose": False,
        }
        params.update(self.params or {})
        return params

    def _fit_models(self, X, y01, penalty, configs, seed, n_trees):
        """One quantized Pool (built once) and one model per configuration (of the columns
        that differ on these rows, with ``merge_identical_columns``)."""
        if not np.any(X.max(axis=0) > X.min(axis=0)):  # CatBoost needs a non-constant column
            return [_Model(None) for _ in configs]
        columns = distinct_columns(X, penalty) if self.merge_identical_columns else None
        if columns is not None:
            X, penalty = X[:, columns], penalty[columns]
        import catboost

        pool = catboost.Pool(X, label=y01)
        if not _QUANTIZATION & self._library_params(seed).keys():  # a border between every
            pool.quantize(border_count=max(254, int(self.n_bins_) - 1))  # two distinct values
        models = []
        for config, trees in zip(configs, n_trees, strict=True):
            model = catboost.CatBoostClassifier(
                **self._library_params(seed, config),
                iterations=int(trees),
                learning_rate=float(config["learning_rate"]),
                penalties_coefficient=float(config.get("tradeoff", 0.0)),
                first_feature_use_penalties=penalty.tolist(),
            )
            models.append(_Model(model.fit(pool), columns))
        return models


def _tree_columns(model: catboost.CatBoostClassifier) -> list[np.ndarray]:
    """The columns each symmetric tree splits on, from the model's JSON export."""
    with tempfile.TemporaryDirectory(prefix="budgetboost-catboost-") as tmp:
        path = os.path.join(tmp, "model.json")
        model.save_model(path, format="json")
        with open(path) as handle:
            exported = json.load(handle)
    flat = {
        int(f["feature_index"]): int(f["flat_feature_index"])
        for f in exported["features_info"].get("float_features", [])
    }
    trees = []
    for tree in exported["oblivious_trees"]:
        splits = tree.get("splits") or []
        if any(s.get("split_type", "FloatFeature") != "FloatFeature" for s in splits):
            raise ValueError(
                "BudgetedCatBoost: the model has a split on something else "
                "than a numeric column; only numeric columns are supported"
            )
        trees.append(
            np.unique(
                np.array([flat[int(s["float_feature_index"])] for s in splits], dtype=np.intp)
            )
        )
    return trees
