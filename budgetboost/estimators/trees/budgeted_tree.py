"""Budgeted decision trees: the Section 7 baseline of Huang, Powers & Reyzin (2015).

:class:`BudgetedTree` is plain CART pruned to the budget, one tree
(:class:`~.pruned_tree.PrunedTree`: growing, pruning sequences, reading the tree pruned to a
budget or a node count), or the cost-sensitive tree (``cost_sensitive=True``, Greedy Miser's
criterion ``gain - lambda * unpaid cost``, Xu et al. 2012), which grows one such tree per
``lambda`` of a grid on a fit part of the training rows and, per budget, uses the ``lambda``
whose tree, pruned to the budget, makes the fewest errors on the validation part: the
protocol of every tuned estimator (:class:`~.tuning.TunedEstimator`). The split search is
:mod:`~.cart_splits`.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Real
from typing import Any

import numpy as np

from ..contract.base import RANDOM_STATE, BudgetCosts, TrainingData
from ..contract.params import Boolean, Interval, InvalidParameterError
from ..contract.tuning import (
    TRADEOFF,
    Choice,
    TunedEstimator,
    check_validation_part,
    choose_by_budget,
    grid_size,
)
from ..contract.validation import check_budgets
from .cart_splits import SplitSearch, split_gains
from .pruned_tree import PrunedTree

__all__ = ["DEFAULT_TRADEOFFS", "BudgetedTree"]

#: Default trade-off grid of the cost-sensitive tree, in units of (root gain / mean cost).
DEFAULT_TRADEOFFS = (0.0, 1 / 64, 1 / 16, 1 / 4, 1.0, 4.0)


def _tradeoff_unit(tree: PrunedTree, data: TrainingData) -> float:
    """``g / c``: gain of the plain tree's root split over the mean positive column cost.

    1 when the root is a leaf (no split improves: every tree is that leaf) or when no column
    costs anything (costs cannot change a split).
    """
    if tree.feature_[0] < 0:
        return 1.0
    value = tree.value_
    right = tree.children_right_[0]
    gain = float(
        split_gains(
            value[right].sum(), value[right, 1], value[0].sum(), value[0, 1], tree.criterion
        )
    )
    cost = data.group_cost[data.group_of_column]
    positive = cost[cost > 0]
    return gain / float(positive.mean()) if positive.size and gain > 0 else 1.0


def _errors_by_budget_step(tree: PrunedTree, X: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Error of ``tree`` on ``(X, y)`` (``y > 0``: class ``classes_[1]``) after each step of
    its budget sequence.

    An example's leaf at step ``s`` is the node at depth ``#{d: m_d > s}`` of its path, ``m``
    the prefix minima of the path's cut steps (see ``PrunedTree._leaves``): the node at
    depth ``d`` is its leaf for steps in ``[m_d, m_{d-1})``. A difference array over steps
    counts the misclassified examples at every step at once. The fitted ``max_nodes`` cuts
    every path at its node-count leaf.
    """
    n_steps = tree.budget_path_.n_nodes.size  # steps 0 .. n_steps - 1
    paths = tree._paths(X)
    m = np.minimum.accumulate(tree.budget_path_.cut_step[paths], axis=1)
    if tree.size_step_ > 0:
        kept = np.minimum.accumulate(tree.size_path_.cut_step[paths], axis=1) > tree.size_step_
        m = np.where(kept, m, 0)
    upper = np.concatenate([np.full((m.shape[0], 1), n_steps), m[:, :-1]], axis=1)
    lo, hi = np.minimum(m, n_steps), np.minimum(upper, n_steps)
    positive = tree.value_[:, 1] > tree.value_[:, 0]
    wrong = (positive[paths] != (y[:, None] > 0)).astype(np.int64)
    diff = np.zeros(n_steps + 1, dtype=np.int64)
    np.add.at(diff, lo.ravel(), wrong.ravel())
    np.add.at(diff, hi.ravel(), -wrong.ravel())
    return np.cumsum(diff)[:n_steps] / max(X.shape[0], 1)


class BudgetedTree(TunedEstimator, PrunedTree):
    """A decision tree pruned to a test-time budget or a node count (Section 7).

    **Plain CART** (``cost_sensitive=False``): one tree is grown fully on the boosters'
    thresholds and then pruned; every budget and every node count is read off two nested
    pruning sequences of that one tree (see :func:`~.pruned_tree.pruning_path`), so
    :meth:`predict_at_budgets` and :meth:`evaluate_at_budgets` serve a whole budget grid from
    one fit. A test example pays for the feature groups split on along its own root-to-leaf
    path, each once; after budget pruning every path costs at most the budget, so the budget
    holds strictly for every example.

    **Cost-sensitive** (``cost_sensitive=True``, Greedy Miser's split criterion, Xu et al. 2012): a
    split maximises ``gain - lambda * c``, ``c`` the unpaid cost of the split's feature group on the
    node's path (0 if the group is split on above the node), and is made only when ``gain > lambda *
    c``: each split must lower ``mean impurity + lambda * mean example cost`` of the tree (the gain
    is per example of the node, so both terms are weighted by the node's share of the examples). The
    training rows are split, stratified by class, into a *fit part* and a *validation part*
    (``validation_fraction``, seeded by ``random_state``;
    :func:`~budgetboost.estimators.contract.tuning.validation_split`). One tree per ``lambda`` of
    the grid
    ``tradeoffs_`` is grown on the fit part and pruned by budget as plain CART is. At each budget
    ``B`` the tree used is the one, among the grid's trees each pruned to ``B``, with the fewest
    validation errors; ties go to the smaller ``lambda`` (so to plain CART, ``lambda = 0``, whenever
    it does as well). The choice is a step function of the budget fixed at fit time
    (``choice_``, :meth:`chosen_tradeoffs`). Each ``lambda`` chosen at some budget is
    then grown again on all training rows (the protocol of every tuned estimator,
    :mod:`budgetboost.estimators.contract.tuning`), and that tree, pruned to ``B``, serves budget
    ``B``.
    Test rows take no part in the fit or the choice (the estimator only sees the training rows).
    A single ``lambda`` is a fixed trade-off; with ``validation_fraction=0`` it is grown on all
    training rows.

    Parameters
    ----------
    budget : float or None, default=None
        Test-time budget ``B``: the tree is pruned until every root-to-leaf path costs at
        most ``B``. ``None`` means unlimited. It also caps the budgets of
        :meth:`predict_at_budgets` and :meth:`predict_at_nodes`.
    max_nodes : int or None, default=None
        Prune (weakest link, by nodes) to at most this many nodes. ``None``: no limit. It also
        caps the node counts of :meth:`predict_at_nodes` and applies to
        :meth:`predict_at_budgets` (the tree is then the intersection of both prunings).
    criterion : {"gini", "entropy"}, default="gini"
        Impurity ``I(p)``: ``2p(1-p)`` or ``-p log2 p - (1-p) log2 (1-p)``. A split's gain
        is ``I(parent) - sum_children (n_c/n) I(child)``.
    cost_sensitive : bool, default=False
        False: plain CART (the split with the largest gain). True: Greedy Miser's criterion
        ``gain - lambda * c`` with ``lambda`` chosen per budget on a validation part (above).
    tradeoffs : float, array-like of float or None, default=None
        The ``lambda`` grid of ``cost_sensitive=True`` (numbers >= 0; sorted and deduplicated
        when fitted); one number is a fixed trade-off. ``None``: the default grid
        :data:`DEFAULT_TRADEOFFS` ``(0, 1/64, 1/16, 1/4, 1, 4)`` times the unit ``g / c``,
        where ``g`` is the gain of plain CART's root split on the fit part and ``c`` the mean
        of the positive column costs. At ``lambda = g / c`` a split on a feature of mean
        cost must gain as much as the best root split does, so the grid runs from "costs
        nearly free" (``lambda = 0``: plain CART; ``g / (64 c)``) to "almost nothing
        affordable" (``4 g / c``: only features costing under a quarter of the mean are
        worth the best root split's gain). It scales with the data (gains) and the cost
        model (costs), so one grid serves every dataset. Ignored by plain CART; giving it
        there is an error.
    validation_fraction : float in [0, 1), default=0.25
        Share of each class of the training rows held out to choose ``lambda`` per budget
        (each class keeps at least one fit row). 0 needs a single ``lambda``. Ignored by
        plain CART.
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seed of the validation split (the pipeline sets it per trial). Ignored by plain CART.
    feature_costs : array-like of shape (n_features,), default=None
        Cost of each column of ``X`` (default: all 1).
    feature_groups : array-like of shape (n_features,), default=None
        Group label per column; a group is paid for once per path (e.g. the indicators of one
        raw attribute) and all its columns must carry the same cost.
    discount_groups, discount_costs : array-like of shape (n_features,), default=None
        Turney's discount groups (see :class:`~budgetboost.BudgetedEstimator`): an example
        pays the price of the set of groups on its path (each touched discount group's
        shared part once, each test its discount price), which the budget pruning bounds;
        the cost-sensitive criterion's unpaid cost is a column's marginal price given the
        groups split on above the node. The default ``tradeoffs`` grid's unit uses the full
        prices.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels; ``value_[:, 1]`` counts ``classes_[1]``.
    n_features_in_ : int
    feature_, threshold_ : ndarray of shape (n_nodes,)
        Split ``x[feature_] >= threshold_`` of each node of the grown tree (preorder); ``-1``
        and ``nan`` at leaves. Cost-sensitive: of the tree chosen at the fitted ``budget``
        (as are every attribute below, :meth:`pruned_tree`, :meth:`predict_at_nodes` and
        :meth:`evaluate_at_nodes`; :meth:`predict_at_budgets` uses each budget's choice).
    children_left_, children_right_ : ndarray of shape (n_nodes,)
        Child for ``x < v`` and for ``x >= v``; ``-1`` at leaves.
    value_ : ndarray of shape (n_nodes, 2)
        Training examples of each class at each node.
    path_cost_ : ndarray of shape (n_nodes,)
        Cost an example pays to reach the node: its distinct feature groups split on above.
    path_n_groups_ : ndarray of shape (n_nodes,)
        Number of those groups.
    max_depth_ : int
        Depth of the grown tree (0: a single leaf).
    budget_path_, size_path_ : PruningPath
        The pruning sequences by budget and by node count. ``size_path_`` is computed on
        first use (``max_nodes``, :meth:`predict_at_nodes`, :meth:`evaluate_at_nodes`): a
        budget alone never needs it.
    budget_step_, size_step_ : int
        Steps of those sequences selected by ``budget`` and ``max_nodes`` (0: none).
    tradeoffs_ : ndarray of shape (n_tradeoffs,)
        The ``lambda`` grid, increasing (plain CART: ``[0.]``).
    models_ : list of PrunedTree
        Cost-sensitive only: the tree of each ``lambda`` (a fixed trade-off tree grown on
        the fit part).
    fit_rows_, validation_rows_ : ndarray of int
        Cost-sensitive only: rows of the training ``X`` in the fit and validation parts.
    validation_error_ : list of ndarray
        Cost-sensitive only: error of tree ``m`` on the validation part (on the fit part if
        the validation part is empty) after each step of its ``budget_path_``.
    choice_ : Choice
        Cost-sensitive only: from budget ``choice_.budgets[s]`` (increasing, the first 0) up
        to the next, the ``lambda`` is ``tradeoffs_[choice_.config[s]]``.
    refits_ : dict of int to PrunedTree
        Cost-sensitive only: each chosen ``lambda``'s tree grown on all training rows, by
        index of ``tradeoffs_``; pruned to the budget, it serves the budgets it was chosen at.

    Notes
    -----
    Splits: among improving splits (score > ``GAIN_TOL`` = 1e-12 per example) the best score
    wins; scores within a relative ``TIE_TOL`` = 1e-12 tie and go to the lower column, then
    the lower threshold. Growing stops at pure nodes and where no split improves (so an XOR
    node stays a leaf). A leaf predicts its majority class; an exact tie predicts
    ``classes_[0]``.

    References
    ----------
    Y. Huang, B. Powers, L. Reyzin. Training-Time Optimization of a Budgeted Booster. IJCAI
    2015 (Section 7, Figure 3). L. Breiman et al. Classification and Regression Trees, 1984
    (cost-complexity pruning). Z. Xu, K. Weinberger, O. Chapelle. The Greedy Miser: Learning
    under Test-time Budgets. ICML 2012 (split criterion impurity gain - lambda * cost).
    """

    label = "Budgeted decision tree"
    family = "tree"

    conformance_cases = {"cart": {}, "cost_sensitive": {"cost_sensitive": True}}
    _parameter_constraints = {
        **{k: v for k, v in PrunedTree._parameter_constraints.items() if k != "tradeoff"},
        "cost_sensitive": [Boolean()],
        "tradeoffs": TRADEOFF,
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
    }

    def __init__(
        self,
        budget: float | None = None,
        max_nodes: int | None = None,
        criterion: str = "gini",
        cost_sensitive: bool = False,
        tradeoffs=None,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.budget = budget
        self.max_nodes = max_nodes
        self.criterion = criterion
        self.cost_sensitive = cost_sensitive
        self.tradeoffs = tradeoffs
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    @classmethod
    def tunes(cls, params: Mapping[str, Any]) -> bool:
        """A cost-sensitive tree chooses ``lambda`` on a validation part."""
        return bool(params.get("cost_sensitive", False)) and super().tunes(params)

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does.

        Besides each parameter's own constraints: ``tradeoffs`` needs
        ``cost_sensitive=True``, and ``validation_fraction=0`` needs a single ``tradeoffs``
        value (there is nothing to choose among otherwise).

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        cost_sensitive = bool(params.get("cost_sensitive", False))
        grid = params.get("tradeoffs")
        if grid is not None and not cost_sensitive:
            raise InvalidParameterError(
                "tradeoffs", "only used with cost_sensitive=True (plain CART has no trade-off)"
            )
        if cost_sensitive:
            check_validation_part(params, {"tradeoffs": grid_size(grid, DEFAULT_TRADEOFFS)})

    def _fit(self, data: TrainingData) -> None:
        """Grow the tree (plain), or the trees of the grid, the choice and the refits
        (cost-sensitive: the protocol), the tree chosen at the fitted budget held as this
        estimator's tree."""
        if not self.cost_sensitive:
            self.tradeoffs_ = np.zeros(1)
            self._grow_tree(data.X, (data.y > 0).astype(np.int64), data, 0.0)
            return
        TunedEstimator._fit(self, data)
        config, _ = self.choice_.at(np.array([self._fitted_budget()]))
        self._take_tree(self.refits_[int(config[0])])

    def _tree(
        self, data: TrainingData, X: np.ndarray, y1: np.ndarray, tradeoff: float, search
    ) -> PrunedTree:
        """The fixed trade-off tree grown on ``X`` (classes etc. copied from ``self``), its
        node gains shared through ``search`` with the other trees grown on ``X``."""
        tree = PrunedTree(
            max_nodes=self.max_nodes,
            criterion=self.criterion,
            tradeoff=float(tradeoff),
            feature_costs=self.feature_costs,
            feature_groups=self.feature_groups,
            discount_groups=self.discount_groups,
            discount_costs=self.discount_costs,
        )
        for name in ("classes_", "n_features_in_", "feature_names_in_", "majority_"):
            if hasattr(self, name):
                setattr(tree, name, getattr(self, name))
        tree._grow_tree(X, y1, data, float(tradeoff), search)
        return tree

    # ------------------------------------------------------------------ the protocol's steps
    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[PrunedTree]]:
        """One tree per ``lambda`` on the fit part (the default grid scaled by plain CART's
        root gain), the trees sharing their nodes' gains."""
        y1 = (data.y > 0).astype(np.int64)
        X, y = data.X[fit_rows], y1[fit_rows]
        shared = SplitSearch(X, y, self.criterion)
        if self.tradeoffs is not None:
            grid = np.unique(np.asarray(self.tradeoffs, dtype=np.float64))
            first = None
        else:  # plain CART first: its root gain is the default grid's unit
            first = self._tree(data, X, y, 0.0, shared)
            grid = np.unique(np.asarray(DEFAULT_TRADEOFFS) * _tradeoff_unit(first, data))
        trees = [
            first if (first is not None and lam == 0) else self._tree(data, X, y, lam, shared)
            for lam in grid
        ]
        return grid, trees

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """The tree with the fewest validation errors at every budget, each tree pruned to
        the budget (:func:`~.tuning.choose_by_budget`; ties to the smaller ``lambda``).

        Every tree's pruned form changes only at the ``max_path_cost`` values of its budget
        sequence, so the choice is evaluated at the union of those values (and 0).
        """
        trees = self.models_
        self.validation_error_ = [
            _errors_by_budget_step(t, data.X[rows], data.y[rows]) for t in trees
        ]
        budgets = np.unique(np.concatenate([[0.0], *(t.budget_path_.max_path_cost for t in trees)]))
        errors = np.vstack(
            [
                e[np.maximum(t.budget_path_.step_for_budget(budgets), t.budget_step_)]
                for t, e in zip(trees, self.validation_error_, strict=True)
            ]
        )
        return choose_by_budget(budgets, errors)

    def _refit(self, data: TrainingData, chosen, sizes) -> list[PrunedTree]:
        """The chosen ``lambda`` values' trees grown on all rows (sharing node gains)."""
        y1 = (data.y > 0).astype(np.int64)
        shared = SplitSearch(data.X, y1, self.criterion)
        return [self._tree(data, data.X, y1, self.tradeoffs_[index], shared) for index in chosen]

    def _serve(self, index, model: PrunedTree, X, budgets, sizes):
        return PrunedTree._scores_and_costs(model, X, budgets)

    # ------------------------------------------------------------------ serving
    def chosen_tradeoffs(self, budgets: Any) -> np.ndarray:
        """The ``lambda`` of the tree used at each budget (see
        :meth:`~.tuning.TunedEstimator.chosen_tradeoffs`); NaN for plain CART
        (``cost_sensitive=False``), which has no trade-off (the pipeline's shards hold NaN for
        estimators without one)."""
        if not self.cost_sensitive:
            self._check_fitted()
            return np.full(check_budgets(budgets).size, np.nan)
        return super().chosen_tradeoffs(budgets)

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """The tree pruned to each budget (and to the fitted ``max_nodes``); cost-sensitive:
        at each budget the refitted tree of the choice (:meth:`chosen_tradeoffs`) pruned to
        it. Costs as ``PrunedTree._scores_and_costs``'s."""
        if self.cost_sensitive:
            return TunedEstimator._scores_and_costs(self, X, budgets)
        return PrunedTree._scores_and_costs(self, X, budgets)

    def _serve_reads(self, index, model: PrunedTree, X, budgets, sizes):
        return model._reads_at_budgets(X, budgets, self.group_of_column_, self._n_groups())

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray:
        """The groups of the tests on each example's path through the tree served at each
        budget (as ``_scores_and_costs`` serves it)."""
        if self.cost_sensitive:
            return TunedEstimator._groups_read(self, X, budgets)
        return PrunedTree._groups_read(self, X, budgets)
