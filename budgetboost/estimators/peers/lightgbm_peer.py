"""LightGBM with cost-effective gradient boosting (CEGB) as a budgeted peer.

LightGBM's CEGB (Peter et al. 2017) subtracts ``cegb_tradeoff * cegb_penalty_feature_coupled[j]``
from the gain of a split on feature ``j`` until ``j`` is first used anywhere in the model
(``src/treelearner/cost_effective_gradient_boosting.hpp``); a split whose penalised gain is
not positive is not made, and training stops at the first tree that cannot split.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import lightgbm
import numpy as np

from ..contract.base import (
    DISCOUNT_COSTS,
    DISCOUNT_GROUPS,
    FEATURE_COSTS,
    FEATURE_GROUPS,
    RANDOM_STATE,
)
from ..contract.params import Interval
from ..contract.threads import thread_limit
from ..contract.tuning import GRID, TRADEOFF
from ._base import LibraryParams, PeerBooster, PeerModel

__all__ = ["BudgetedLightGBM"]


def _reserved() -> dict[str, str]:
    """LightGBM parameters (with their aliases) that the wrapper sets itself."""
    by = {
        "objective": ("objective_type", "app", "application", "loss"),
        "n_estimators": (
            "num_iterations",
            "num_iteration",
            "n_iter",
            "num_tree",
            "num_trees",
            "num_round",
            "num_rounds",
            "nrounds",
            "num_boost_round",
            "max_iter",
        ),
        "learning_rate": ("shrinkage_rate", "eta"),
        "num_leaves": ("num_leaf", "max_leaves", "max_leaf", "max_leaf_nodes"),
        "max_depth": (),
        "min_child_samples": (
            "min_data_in_leaf",
            "min_data_per_leaf",
            "min_data",
            "min_samples_leaf",
        ),
        "min_data_in_bin": (),
        "reg_lambda": ("lambda_l2", "lambda", "l2_regularization"),
        "cegb_tradeoff": (),
        "cegb_penalty_split": (),
        "feature_costs": ("cegb_penalty_feature_coupled", "cegb_penalty_feature_lazy"),
        "random_state": ("seed", "random_seed"),
        "the job (its thread limit)": (
            "num_threads",
            "num_thread",
            "nthread",
            "nthreads",
            "n_jobs",
        ),
        "the wrapper (deterministic mode)": ("deterministic",),
        "the wrapper (silent)": ("verbosity", "verbose"),
        "the wrapper (a Dataset reused over the grid)": ("feature_pre_filter",),
    }
    reserved = {}
    for owner, aliases in by.items():
        where = owner if owner.startswith("the ") else f"the parameter {owner!r}"
        for name in (owner, *aliases):
            if not name.startswith("the "):
                reserved[name] = where
    return reserved


def _parse_tree(structure: dict) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(leaf_values, columns, reads)`` of one tree of ``Booster.dump_model()``.

    ``columns`` are the distinct columns the tree splits on (sorted); ``reads[l, c]`` says
    whether the path from the root to leaf ``l`` (LightGBM's ``leaf_index``, as returned by
    ``predict(pred_leaf=True)``) tests ``columns[c]``.
    """
    values: dict[int, float] = {}
    paths: dict[int, tuple[int, ...]] = {}
    stack = [(structure, ())]
    while stack:
        node, path = stack.pop()
        if "split_feature" in node:
            path = (*path, int(node["split_feature"]))
            stack.append((node["left_child"], path))
            stack.append((node["right_child"], path))
        else:
            leaf = int(node.get("leaf_index", 0))
            values[leaf] = float(node["leaf_value"])
            paths[leaf] = path
    n_leaves = len(values)
    columns = np.unique(np.fromiter((c for p in paths.values() for c in p), dtype=np.intp))
    reads = np.zeros((n_leaves, columns.size), dtype=bool)
    for leaf, path in paths.items():
        reads[leaf, np.searchsorted(columns, np.asarray(path, dtype=np.intp))] = True
    return np.array([values[i] for i in range(n_leaves)]), columns, reads


class _Model(PeerModel):
    """One trained ``lightgbm.Booster`` with its trees parsed (``dump_model()``)."""

    def __init__(self, booster: lightgbm.Booster):
        self.booster = booster
        self.trees = [_parse_tree(t["tree_structure"]) for t in booster.dump_model()["tree_info"]]

    def tree_columns(self) -> list[np.ndarray]:
        return [columns for _, columns, _ in self.trees]

    def _leaves(self, X: np.ndarray, n_trees: int) -> np.ndarray:
        """Leaf index of each example in each of the first ``n_trees`` trees: (n, n_trees)."""
        leaves = self.booster.predict(
            X, pred_leaf=True, num_iteration=n_trees, num_threads=thread_limit()
        )
        return np.asarray(leaves, dtype=np.intp).reshape(X.shape[0], n_trees)

    def staged_scores(self, X: np.ndarray) -> np.ndarray:
        if not self.trees:
            return np.empty((0, X.shape[0]))
        leaves = self._leaves(X, len(self.trees))
        offsets = np.cumsum([0] + [values.size for values, _, _ in self.trees[:-1]])
        values = np.concatenate([values for values, _, _ in self.trees])
        return np.cumsum(values[leaves + offsets], axis=1).T

    def raw_scores(self, X: np.ndarray, n_trees: int) -> np.ndarray:
        return self.booster.predict(
            X, raw_score=True, num_iteration=n_trees, num_threads=thread_limit()
        )

    def example_costs(self, X, n_trees, column_group, pricing):
        """Per example, the groups on its paths through each prefix: vectorised over
        examples, a loop over the trees."""
        last = int(n_trees.max())
        leaves = self._leaves(X, last)
        used = np.unique(
            np.concatenate([column_group[c] for _, c, _ in self.trees[:last]] or [np.empty(0, int)])
        ).astype(np.intp)
        first = np.full((X.shape[0], used.size), last, dtype=np.intp)  # first tree reading it
        for t, (_, columns, reads) in enumerate(self.trees[:last]):
            if not columns.size:
                continue
            position, which = np.unique(
                np.searchsorted(used, column_group[columns]), return_inverse=True
            )
            group_reads = np.zeros((reads.shape[0], position.size), dtype=bool)
            for c, g in enumerate(which.ravel()):
                group_reads[:, g] |= reads[:, c]
            hit = group_reads[leaves[:, t]]
            first[:, position] = np.minimum(first[:, position], np.where(hit, t, last))
        return np.stack([pricing.set_costs(first < k, used) for k in n_trees.tolist()])


class BudgetedLightGBM(PeerBooster):
    """LightGBM with CEGB feature penalties, tuned trade-off and learning rate, anytime prefix.

    Per fit (the protocol of :mod:`budgetboost.estimators.peers._base`): one LightGBM model
    (binary log loss, ``n_estimators`` trees) per pair of a ``cegb_tradeoff`` and a
    ``learning_rate`` is trained on the *fit part* of the training rows, with
    ``cegb_penalty_feature_coupled`` set to each column's cost; every prefix of the first
    ``k`` trees (``Booster.predict(num_iteration=k)``) is a candidate; at a budget ``B`` the
    candidate with the lowest error on the *validation part* among those whose ``spent`` is
    at most ``B`` is chosen (ties: lower validation log loss, then lower cost, fewer trees,
    earlier configuration); each chosen configuration is trained again on all training rows,
    and ``B`` gets its first ``k`` trees, or fewer where they reach ``B`` sooner. The empty
    model (no tree, cost 0) predicts the training majority class.

    The defaults are LightGBM's maintainers' advice for data of the benchmark's size (75 to
    1,000 training rows): leaves and bins of very few rows (``min_data_in_leaf`` and
    ``min_data_in_bin`` of 1-5: LightGBM issues #5493, #6023, #3507; its default of 20 rows a
    leaf leaves most 0/1 columns of sonar's 75 fit rows unsplittable, and ``min_data_in_bin=3``
    merges the rare values of an ordinal column), the number of trees and the learning rate
    chosen on validation (the Parameters-Tuning guide), and enough trees for the unpenalised
    model to spend the top of the paper's budget grid (40 under U[0, 2]): 200 stumps at the
    higher rate spend 43-81 on seven of the Table 1 datasets' first trial and 24-32 on
    ecoli and heart, where 300 spend no more (``benchmarks/peers.py`` prints it).

    Parameters
    ----------
    n_estimators : int, default=200
        Boosting rounds (LightGBM's ``num_iterations``) of the models of the grid; a model
        may have fewer trees when CEGB leaves no split with a positive penalised gain
        (LightGBM then stops). The prefix used at each budget is chosen on validation.
    learning_rate : float > 0 or array-like of them, default=(0.1, 0.3, 1.0)
        One value, or several to choose from on the validation part (LightGBM's default
        is 0.1). 1.0 is the full Newton step, the counterpart of the step AdaBoost takes
        each round: without it the step size capped the peers (tic-tac-toe's error at larger
        budgets 0.16 with 0.1 and 0.3, 0.02 with 1.0, as the boosters'), and with room above
        it (3.0) the choice stays at 1.0 (``benchmarks/peer_grids.py`` prints both).
    num_leaves : int >= 2, default=31
        LightGBM caps it at ``2 ** max_depth`` when ``max_depth > 0``.
    max_depth : int, default=-1
        ``1`` gives stumps (the paper's hypothesis space); ``-1`` or ``0``: no limit (trees
        grown leaf-wise to ``num_leaves``); e.g. ``4`` (with ``num_leaves=16``) the usual
        small trees.
    min_child_samples : int >= 0, default=2
        LightGBM's ``min_data_in_leaf`` (its default 20 is for tens of thousands of rows).
    min_data_in_bin : int >= 1, default=1
        LightGBM's ``min_data_in_bin`` (its default 3 merges rare values into one bin).
    reg_lambda : float >= 0, default=0.0
        LightGBM's ``lambda_l2``.
    cegb_tradeoff : float >= 0, array-like of them, or None, default=None
        LightGBM's multiplier of all CEGB penalties, in LightGBM's units: one value is a
        fixed trade-off, several a grid to choose from on the validation part. ``None`` is
        the grid ``n_fit / c * (0, 1e-4, 4e-4, ..., 1e-4 * 4^6)`` (8 values, log-spaced in
        factors of 4, and 0: no penalty), ``n_fit`` the rows of the fit part and ``c`` the
        mean positive cost of the columns given to the library. Why: LightGBM's split gain
        is ``G_L^2/(H_L+lambda) + G_R^2/(H_R+lambda) - G^2/(H+lambda)``, and with log loss
        ``g^2/h <= 1`` per row at the start (``g = +-1/2``, ``h = 1/4``), so a gain is at
        most about ``n_fit`` (a perfect first split) and useful splits gain ``1e-3 n_fit``
        to ``0.3 n_fit``. At ``1e-4 n_fit / c`` the penalty of a feature of average cost is
        below almost any useful gain (features nearly free); at ``0.4 n_fit / c`` above all
        but the best splits, so only features far cheaper than average are used. Dividing by
        ``c`` makes the grid independent of the cost unit.
    cegb_penalty_split : float >= 0, default=0.0
        LightGBM's penalty per split and row of the node (times ``cegb_tradeoff``).
    validation_fraction : float in [0, 1), default=0.25
        Share of the training rows held out, stratified by class (each class gives its
        share, rounded, and keeps at least one row in the fit part), to choose the
        configuration and the prefix at each budget; the chosen configurations are then
        trained on all training rows. ``0`` trains one configuration on all rows and uses
        the longest affordable prefix (``cegb_tradeoff`` and ``learning_rate`` must then be
        single values). On tiny data (a validation part with no row), the fit part chooses.
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seeds the validation split and LightGBM's ``seed`` (drawn from the same generator).
    feature_costs : array-like of shape (n_features,), default=None
        Cost of each column (default all 1); ``0`` is allowed (a free feature).
    feature_groups : array-like of shape (n_features,), default=None
        Group label per column; a group is paid for once. LightGBM knows no groups. The
        threshold indicators of one attribute (columns of a group nested on the training
        rows) are given to it as one ordinal column (:mod:`budgetboost.estimators.peers.
        _columns`), whose coupled penalty is the group's cost: paid once, as the project pays
        it. Any other column of a group (a one-hot category) is given as it is, with its
        group's cost, so the model pays the group again for each further such column it uses
        (an over-estimate that steers LightGBM away from a paid group's other columns). The
        project's accounting (``spent``, the choice) pays each group once, exactly.
    discount_groups, discount_costs : array-like of shape (n_features,), default=None
        Turney's discount groups (see :class:`~budgetboost.BudgetedEstimator`). LightGBM
        cannot express them: a column's ``cegb_penalty_feature_coupled`` is its group's full
        price (its test alone, the most it can cost). The candidates' costs, hence the
        choice per budget, and every evaluation use the true prices with the discount groups.
    params : dict or None, default=None
        Further LightGBM parameters (e.g. ``{"feature_fraction": 0.8}``), passed to
        ``lightgbm.Dataset`` and ``lightgbm.train``; not those above, nor ``objective``, the
        threads, ``seed``, ``deterministic``, ``feature_pre_filter`` or ``verbosity``, which
        the wrapper sets (``objective="binary"``, ``deterministic=True``, ``max_bin`` a bin
        per distinct value of the widest column (at least LightGBM's 255), the job's
        ``num_threads`` (:func:`~budgetboost.estimators.contract.threads.thread_limit`),
        ``feature_pre_filter=False``, ``force_row_wise=True`` unless ``force_col_wise`` is
        given, ``verbosity=-1``).

    Attributes
    ----------
    classes_, n_features_in_, majority_
        As every :class:`~budgetboost.BudgetedEstimator`.
    configs_, tradeoffs_, models_, choice_, refits_, encoding_, seed_, ...
        See :class:`~budgetboost.estimators.peers._base.PeerBooster`; ``seed_`` is LightGBM's
        ``seed``.

    Notes
    -----
    ``spent`` at a budget is the pay-once cost of the groups the prefix served splits on;
    ``mean_example_cost``/``max_example_cost`` what the test examples paid for the groups
    on their own decision paths through it (``predict(pred_leaf=True)`` and the trees of
    ``dump_model()``): a per-example ("lazy") cost, at most ``spent``. ``rounds`` is the
    number of trees, ``n_features`` the groups of the prefix, ``nodes`` 0.

    References
    ----------
    S. Peter, F. Diego, F. A. Hamprecht, B. Nadler. Cost Efficient Gradient Boosting.
    NIPS 2017. LightGBM parameters ``cegb_tradeoff``, ``cegb_penalty_split``,
    ``cegb_penalty_feature_coupled``, ``cegb_penalty_feature_lazy``.
    Y. Huang, B. Powers, L. Reyzin. Training-Time Optimization of a Budgeted Booster.
    IJCAI 2015 (the budgets and costs of the benchmark).
    """

    _tradeoff_name = "cegb_tradeoff"
    _n_trees_name = "n_estimators"
    _relative_grid = (0.0, *(1e-4 * 4.0**i for i in range(7)))

    libraries = ("lightgbm",)
    _parameter_constraints = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither"), GRID],
        "num_leaves": [Interval(Integral, 2, 131072, closed="both")],
        "max_depth": [Interval(Integral, -1, None, closed="left")],
        "min_child_samples": [Interval(Integral, 0, None, closed="left")],
        "min_data_in_bin": [Interval(Integral, 1, None, closed="left")],
        "reg_lambda": [Interval(Real, 0, None, closed="left")],
        "cegb_tradeoff": TRADEOFF,
        "cegb_penalty_split": [Interval(Real, 0, None, closed="left")],
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        "feature_costs": FEATURE_COSTS,
        "feature_groups": FEATURE_GROUPS,
        "discount_groups": DISCOUNT_GROUPS,
        "discount_costs": DISCOUNT_COSTS,
        "params": [LibraryParams("LightGBM", _reserved()), None],
    }

    def __init__(
        self,
        n_estimators: int = 200,
        learning_rate=(0.1, 0.3, 1.0),
        num_leaves: int = 31,
        max_depth: int = -1,
        min_child_samples: int = 2,
        min_data_in_bin: int = 1,
        reg_lambda: float = 0.0,
        cegb_tradeoff=None,
        cegb_penalty_split: float = 0.0,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        params: dict | None = None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.max_depth = max_depth
        self.min_child_samples = min_child_samples
        self.min_data_in_bin = min_data_in_bin
        self.reg_lambda = reg_lambda
        self.cegb_tradeoff = cegb_tradeoff
        self.cegb_penalty_split = cegb_penalty_split
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.params = params
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    # ------------------------------------------------------------------ hooks
    def _tradeoff_scale(self, n_fit: int, mean_cost: float) -> float:
        return n_fit / mean_cost

    def _library_params(self, seed: int) -> dict[str, Any]:
        """The LightGBM parameters of every fit, but the learning rate and CEGB's."""
        extra = dict(self.params or {})
        params = {
            "objective": "binary",
            # LightGBM caps num_leaves at 2**max_depth itself; doing so here spares CEGB
            # its per-leaf bookkeeping for leaves that cannot exist (stumps fit ~1/3 faster)
            "num_leaves": int(self.num_leaves)
            if self.max_depth <= 0
            else min(int(self.num_leaves), 2 ** int(self.max_depth)),
            "max_depth": int(self.max_depth),
            "min_data_in_leaf": int(self.min_child_samples),
            "min_data_in_bin": int(self.min_data_in_bin),
            "feature_pre_filter": False,
            # exclusive feature bundling finds nothing to gain on these 0/1 columns (the
            # same trees on sonar, splice and census) but costs 0.4 s a Dataset on sonar
            "enable_bundle": False,
            "lambda_l2": float(self.reg_lambda),
            "cegb_penalty_split": float(self.cegb_penalty_split),
            "num_threads": thread_limit(),
            # a bin per distinct value: every threshold the boosters see stays apart
            "max_bin": max(255, int(self.n_bins_)),
            "deterministic": True,
            "seed": int(seed),
            "verbosity": -1,
        }
        if not extra.get("force_col_wise", False):
            params["force_row_wise"] = True
        params.update(extra)
        return params

    def _fit_models(self, X, y01, penalty, configs, seed, n_trees):
        """One Dataset (built once) and one booster per configuration."""
        params = self._library_params(seed)
        dataset = lightgbm.Dataset(X, label=y01, params=params, free_raw_data=True).construct()
        coupled = np.asarray(penalty, dtype=np.float64)  # an array: cheap to deepcopy
        return [
            _Model(
                lightgbm.train(
                    {
                        **params,
                        "learning_rate": float(config["learning_rate"]),
                        "cegb_tradeoff": float(config.get("tradeoff", 0.0)),
                        "cegb_penalty_feature_coupled": coupled,
                    },
                    dataset,
                    num_boost_round=int(trees),
                )
            )
            for config, trees in zip(configs, n_trees, strict=True)
        ]
