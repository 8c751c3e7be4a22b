"""STreeD's optimal cost-sensitive decision trees as a budgeted peer.

STreeD (Van der Linden, de Weerdt & Demirović, NeurIPS 2023) finds by dynamic programming
the tree of depth at most ``max_depth`` over binary tests that minimises a separable
objective exactly. Its cost-sensitive classification task (``pystreed``'s
``STreeDCostSensitiveClassifier``) minimises, summed over the training examples, the
misclassification cost of the example's leaf plus the price of the tests on the example's
root-to-leaf path, with Turney's (1995) cost model. That is this project's cost model
(:mod:`~budgetboost.estimators.contract.pricing`), mapped one to one:

- one error costs 1 (the misclassification matrix ``[[0, 1], [1, 0]]``) and a feature group
  of price ``p`` costs ``s * p``, ``s`` the trade-off's scale (:class:`BudgetedSTreeD`);
- the tests given to STreeD are ordered so that the tests of one feature group (thresholds of
  one raw attribute) are contiguous, and each group is one ``FeatureCostSpecifier(s * p,
  s * discount price, name, begin, end)``, its tests the columns ``begin`` to ``end``
  *inclusive* (``src/tasks/cost_sensitive.cpp``: ``for (f = binary_begin; f <= binary_end;
  f++)``). A test costs nothing when a test of its own specifier is on the path above (the
  group is paid), its discount price when a test of another specifier of the same ``name``
  is (the discount group's shared part is paid), and its full price otherwise. The name is
  the group's discount group (``"discount-3"``), or the group itself (``"group-17"``) where
  it has none: a set of groups on a path then costs ``s`` times
  :meth:`Pricing.set_cost <budgetboost.estimators.contract.pricing.Pricing.set_cost>` of it,
  which the tests check against the objective STreeD reports.

So one solve is one point of the trade-off between errors and what the examples pay, for
every example at once (a tree, not a prefix); the budget contract is a hard limit per
example, which the tree pruned to the budget meets (:class:`StreedTree`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np

from ..contract.base import (
    BUDGET,
    PRICES,
    RANDOM_STATE,
    BudgetCosts,
    TrainingData,
)
from ..contract.params import Interval, InvalidParameterError
from ..contract.tuning import (
    TRADEOFF,
    Choice,
    IntegerGrid,
    TunedEstimator,
    check_validation_part,
    choose_by_budget,
)
from .solver import (
    CandidateTests,
    candidate_tests,
    cost_specifier,
    select_tests,
    solve,
)
from .tree import StreedTree

__all__ = ["BudgetedSTreeD", "DEFAULT_COLUMNS", "DEFAULT_DEPTHS", "DEFAULT_TRADEOFFS", "MAX_DEPTH"]

#: Default trade-off grid ``lambda``: what a feature group of mean price costs, in errors.
DEFAULT_TRADEOFFS = (0.0, 1 / 64, 1 / 16, 1 / 4, 1.0)
#: Default ``max_depth`` grid.
DEFAULT_DEPTHS = (1, 2, 3, 4)
#: The most tests of a solve by its depth when ``max_columns`` is None: 128 up to depth 3,
#: 40 at depth 4, 20 deeper (the last entry); each keeps a solve of 750 of the benchmark's
#: rows at 0.1-0.4 s CPU.
DEFAULT_COLUMNS = (128, 128, 128, 40, 20)
#: The deepest tree pystreed accepts.
MAX_DEPTH = 20


def _depth_grid(max_depth: Any, max_columns: Any) -> tuple[np.ndarray, np.ndarray]:
    """The depths of the grid, increasing, and the most tests of a solve of each
    (:data:`DEFAULT_COLUMNS` by depth where ``max_columns`` is None).

    Raises
    ------
    InvalidParameterError
        When ``max_columns`` is neither one number nor one per value of ``max_depth``.
    """
    depths = np.atleast_1d(np.asarray(max_depth)).astype(np.intp)
    if max_columns is None:
        by_depth = np.asarray(DEFAULT_COLUMNS, dtype=np.intp)
        columns = by_depth[np.minimum(depths, by_depth.size) - 1]
    else:
        columns = np.atleast_1d(np.asarray(max_columns)).astype(np.intp)
    if columns.size == 1:
        columns = np.repeat(columns, depths.size)
    elif columns.size != depths.size:
        raise InvalidParameterError(
            "max_columns",
            f"must be one number or one per value of max_depth ({depths.size}); got {columns.size}",
        )
    order = np.argsort(depths, kind="stable")
    return depths[order], columns[order]


class BudgetedSTreeD(TunedEstimator):
    """Optimal cost-sensitive decision trees (STreeD) pruned to the budget.

    For each configuration ``(lambda, max_depth)`` of the grid (and minimum leaf size, where
    ``min_leaf_node_size`` is a grid), STreeD finds on the fit part
    of the training rows the tree of depth at most ``max_depth`` that minimises, summed over
    the rows, ``error + lambda * price(path) / c``: the row's misclassification (0 or 1) and
    what it pays for the feature groups on its root-to-leaf path (with Turney's discount
    groups), ``c`` the mean positive price of a feature group. ``lambda`` is what a group of
    mean price costs, in errors: at ``lambda = 1/16`` a split on one must remove at least one
    error in 16 of the rows that reach it; ``lambda = 0`` is cost-blind (the fewest errors;
    among those trees the cheapest, the prices scaled so that all of them together are worth
    less than one error).

    A test example at budget ``B`` pays the groups on its own path; every tree is served
    pruned to ``B`` (:class:`StreedTree`: each path cut at the first node whose split would
    cost more than ``B``, that node predicting its training rows' majority), so no example
    pays more than ``B``. At each budget the configuration whose fit-part tree, pruned to the
    budget, makes the fewest errors on the validation part is chosen (ties: the smaller
    depth, then the smaller minimum leaf size, then the smaller ``lambda``), and refitted
    on all training rows (the protocol of every tuned estimator,
    :mod:`budgetboost.estimators.contract.tuning`).

    **Departure from STreeD: fewer tests.** STreeD takes every binary test it is given, and
    its search grows with their number to the power of the depth (on 750 rows of the
    benchmark: a depth-3 solve takes about 0.03 s CPU on 64 tests, 0.2 s on 128, 1-2 s on
    256; a depth-4 solve 0.1-0.2 s on 32 tests, 0.5-0.9 s on 48). The benchmark's data have
    up to 11,196 threshold columns, so a solve of depth ``d`` is given at most
    ``max_columns`` tests (its number for depth ``d``): the best by Greedy Miser's root score
    ``gini gain - lambda * price / c`` on the rows solved (a cost-aware criterion, per
    ``lambda``), at most ``max_thresholds`` of one feature group, after merging tests that
    split those rows identically (the cheapest kept). Each tree is optimal over its tests,
    not over all columns.

    Parameters
    ----------
    budget : float or None, default=None
        Caps every budget served (``None``: unlimited).
    tradeoffs : float, array-like of float or None, default=None
        The ``lambda`` grid (numbers >= 0; sorted and deduplicated when fitted); one number is
        a fixed trade-off. ``None``: :data:`DEFAULT_TRADEOFFS` ``(0, 1/64, 1/16, 1/4, 1)``,
        from cost-blind to "a group of mean price must remove an error in every example that
        reads it".
    max_depth : int or array-like of int, default=(1, 2, 3, 4)
        pystreed's ``max_depth``: one, or a grid of distinct depths to choose from per budget
        (sorted when fitted).
    max_columns : int, array-like of int or None, default=None
        The most tests given to one STreeD solve (the departure above): one number for every
        depth, or one per value of ``max_depth``, in its order. ``None``:
        :data:`DEFAULT_COLUMNS`, 128 up to depth 3, 40 at depth 4 and 20 deeper. With the
        default grid one trial of the benchmark (the grid, the refits, 20 budgets on the
        test and the training rows) took a median 1.8 s CPU, 6.3 s at worst (38 datasets
        and five with Turney's costs, 5 trials each, 75-1,000 training rows); depth 4 on
        128 tests would take ten times as long, and ``max_depth=(1, 2, 3),
        max_columns=64`` a seventh (``docs/design.md``, "How the defaults were chosen").
    max_thresholds : int, default=4
        The most tests of one feature group (thresholds of one raw attribute when groups are
        given) among them, so that the tests spread over the attributes (4 at a fraction of
        the time of 8, 16 or 32: ``docs/design.md``, "How the defaults were chosen").
    min_leaf_node_size : int >= 1 or array-like of them, default=1
        pystreed's: the fewest training rows in a leaf (of the rows a tree is solved on: the
        fit part, then all training rows for the refit; a tree pruned to a budget only
        merges leaves). Several distinct values (e.g. ``[1, 5, 10]``) are a grid: each joins
        the configurations and is chosen per budget on the validation part with ``lambda``
        and the depth. A larger leaf keeps an optimal tree from fitting a few rows' noise.
    time_limit : float, default=60.0
        pystreed's, in seconds (wall clock) per solve. A solve that reaches it raises
        :class:`TimeLimitError` rather than return a tree that depends on the machine's
        speed; the defaults solve in well under a second.
    validation_fraction : float in [0, 1), default=0.25
        Share of each class of the training rows held out to choose the configuration per
        budget. 0 needs a single configuration (one ``lambda``, one ``max_depth``, one
        ``min_leaf_node_size``).
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seed of the validation split and of pystreed's ``random_seed`` (drawn from it).
    feature_costs, feature_groups, discount_groups, discount_costs : array-like, default=None
        The costs (see :class:`~budgetboost.BudgetedEstimator`): STreeD charges each path the
        price of its set of groups, discount groups included.

    Attributes
    ----------
    tradeoffs_, depths_, columns_, min_leaf_sizes_ : ndarray of shape (n_configs,)
        The ``lambda``, ``max_depth``, ``max_columns`` and ``min_leaf_node_size`` of each
        configuration, depth-major, then by leaf size (all ``lambda`` of the smallest depth
        and leaf size first).
    unit_ : float
        ``c``: the mean positive price of a feature group (1 when none is positive).
    seed_ : int
        pystreed's ``random_seed`` of every solve.
    models_ : list of StreedTree
        The tree of each configuration on the fit part.
    validation_error_ : ndarray of shape (n_configs, n_budgets)
        The validation error of each configuration at each budget of ``choice_budgets_``.
    choice_budgets_ : ndarray
        0 and every budget at which some tree's pruning changes.
    choice_ : Choice
        The configuration of every budget.
    refits_ : dict of int to StreedTree
        The chosen configurations refitted on all training rows.
    fit_rows_, validation_rows_ : ndarray of int
        The fit and validation parts.

    References
    ----------
    J. G. M. van der Linden, M. M. de Weerdt, E. Demirović. Necessary and Sufficient
    Conditions for Optimal Decision Trees using Dynamic Programming. NeurIPS 2023 (STreeD,
    with cost-sensitive classification under Turney's costs). P. D. Turney.
    Cost-Sensitive Classification: Empirical Evaluation of a Hybrid Genetic Decision Tree
    Induction Algorithm. JAIR 2, 1995 (test costs, discount groups). Z. Xu, K. Weinberger,
    O. Chapelle. The Greedy Miser. ICML 2012 (the score ``gain - lambda * cost``).
    """

    label = "STreeD, optimal cost-sensitive tree"
    family = "optimal_tree"

    libraries = ("pystreed",)

    conformance_cases = {"leaf5": {"max_depth": [1, 2, 3], "min_leaf_node_size": 5}}
    _parameter_constraints = {
        "budget": BUDGET,
        "tradeoffs": TRADEOFF,
        "max_depth": [IntegerGrid(1, MAX_DEPTH, "the depths to choose from", distinct=True)],
        "max_columns": [IntegerGrid(1, None, "one per value of max_depth"), None],
        "max_thresholds": [Interval(Integral, 1, None, closed="left")],
        "min_leaf_node_size": [IntegerGrid(1, None, "the sizes to choose from", distinct=True)],
        "time_limit": [Interval(Real, 0, np.inf, closed="neither")],
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        **PRICES,
    }

    def __init__(
        self,
        budget: float | None = None,
        tradeoffs=None,
        max_depth=DEFAULT_DEPTHS,
        max_columns=None,
        max_thresholds: int = 4,
        min_leaf_node_size: int = 1,
        time_limit: float = 60.0,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.budget = budget
        self.tradeoffs = tradeoffs
        self.max_depth = max_depth
        self.max_columns = max_columns
        self.max_thresholds = max_thresholds
        self.min_leaf_node_size = min_leaf_node_size
        self.time_limit = time_limit
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does.

        Besides each parameter's own constraints: ``max_columns`` gives one number, or one
        per value of ``max_depth``; ``validation_fraction=0`` needs a single configuration
        (one ``tradeoffs`` value, one ``max_depth`` and one ``min_leaf_node_size``): there
        is nothing to choose among otherwise.

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        depths, _ = _depth_grid(params.get("max_depth", DEFAULT_DEPTHS), params.get("max_columns"))
        grid = params.get("tradeoffs")
        n_tradeoffs = len(DEFAULT_TRADEOFFS) if grid is None else np.unique(grid).size
        leaf_sizes = np.atleast_1d(np.asarray(params.get("min_leaf_node_size", 1))).size
        counts = {"tradeoffs": n_tradeoffs, "max_depth": depths.size}
        check_validation_part(params, {**counts, "min_leaf_node_size": leaf_sizes})

    # ------------------------------------------------------------------ one tree
    def _tree(
        self,
        data: TrainingData,
        rows: np.ndarray,
        tradeoff: float,
        depth: int,
        columns: int,
        min_leaf: int,
    ) -> StreedTree:
        """STreeD's tree of one configuration (``columns`` tests at most, ``min_leaf`` rows
        in a leaf at least) on ``rows`` of the training data."""
        X, y1 = data.X[rows], (data.y[rows] > 0).astype(np.int64)
        key = rows.tobytes()
        if key not in self._tests_cache:  # the fit part's or all rows' tests, for the grid
            self._tests_cache[key] = candidate_tests(X, y1, data)
        tests = self._tests_cache[key]
        price = data.pricing.prices()
        selected = select_tests(
            tests,
            price,
            tradeoff / self.unit_,
            int(columns),
            int(self.max_thresholds),
        )
        if not selected.column.size:  # no test splits the rows: the tree is a leaf
            return StreedTree.build(_Leaf(), selected, X, y1, data)
        if tradeoff > 0:
            scale = tradeoff / self.unit_
        else:  # cost-blind: every path's price together is worth less than one error
            total = float(price[np.unique(selected.group)].sum())
            scale = 1.0 / (2.0 * rows.size * total) if total > 0 else 0.0
        costs = cost_specifier(selected.group, data.pricing, scale)
        root = solve(
            selected.values(X),
            y1,
            costs,
            depth,
            min_leaf,
            self.time_limit,
            self.seed_,
        )
        return StreedTree.build(root, selected, X, y1, data)

    # ------------------------------------------------------------------ the protocol's steps
    def _fit(self, data: TrainingData) -> None:
        """The protocol (``TunedEstimator._fit``), with the grid's unit and tests."""
        price = data.pricing.prices()
        positive = price[price > 0]
        self.unit_ = float(positive.mean()) if positive.size else 1.0
        self._tests_cache: dict[bytes, CandidateTests] = {}
        try:
            super()._fit(data)
        finally:
            del self._tests_cache

    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[StreedTree]]:
        """One tree per configuration on the fit part: depth-major, then the minimum leaf
        size, then ``lambda``."""
        self.seed_ = int(rng.integers(np.iinfo(np.int32).max))
        tradeoffs = np.unique(
            np.asarray(DEFAULT_TRADEOFFS if self.tradeoffs is None else self.tradeoffs, float)
        )
        depths, columns = _depth_grid(self.max_depth, self.max_columns)
        leaf_sizes = np.unique(np.atleast_1d(np.asarray(self.min_leaf_node_size)))
        grid = [
            (t, d, c, m)
            for d, c in zip(depths.tolist(), columns.tolist(), strict=True)
            for m in leaf_sizes.tolist()
            for t in tradeoffs.tolist()
        ]
        self.depths_ = np.array([d for _, d, _, _ in grid], dtype=np.intp)
        self.columns_ = np.array([c for _, _, c, _ in grid], dtype=np.intp)
        self.min_leaf_sizes_ = np.array([m for *_, m in grid], dtype=np.intp)
        models = [self._tree(data, fit_rows, *config) for config in grid]
        return np.array([t for t, *_ in grid], dtype=np.float64), models

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """The configuration whose tree, pruned to the budget, errs least on ``rows``, at
        every budget where some tree's pruning changes (:func:`choose_by_budget`)."""
        budgets = np.unique(np.concatenate([[0.0], *(t.change_points() for t in self.models_)]))
        X, y = data.X[rows], data.y[rows]
        self.validation_error_ = np.vstack(
            [tree.errors(X, y, budgets, self.majority_) for tree in self.models_]
        )
        self.choice_budgets_ = budgets
        return choose_by_budget(budgets, self.validation_error_)

    def _refit(
        self, data: TrainingData, chosen: Sequence[int], sizes: Sequence[int]
    ) -> list[StreedTree]:
        """The chosen configurations' trees on all training rows."""
        rows = np.arange(data.y.size)
        return [
            self._tree(
                data,
                rows,
                self.tradeoffs_[i],
                self.depths_[i],
                self.columns_[i],
                self.min_leaf_sizes_[i],
            )
            for i in chosen
        ]

    def _serve(
        self,
        index: int,
        model: StreedTree,
        X: np.ndarray,
        budgets: np.ndarray,
        sizes: np.ndarray,
    ) -> tuple[np.ndarray, BudgetCosts]:
        """The refitted tree pruned to each budget: ``rounds`` its internal nodes, ``spent``
        its most expensive path, ``n_features`` the groups on the examples' paths (mean),
        the per-example costs what each example's path cost, ``nodes`` its nodes."""
        leaves = model.leaves(model.paths(X), budgets)
        return model.scores(leaves, self.majority_), model.costs(leaves, budgets)

    def _serve_reads(
        self,
        index: int,
        model: StreedTree,
        X: np.ndarray,
        budgets: np.ndarray,
        sizes: np.ndarray,
    ) -> np.ndarray:
        """The groups split on above each example's leaf of the tree pruned to each budget
        (those whose price is its cost, ``reach_cost``): (n_budgets, n, n_groups)."""
        paths = model.paths(X)
        kept = (model.feature[paths] >= 0) & (model.split_cost[paths] <= budgets[:, None, None])
        b, i, step = np.nonzero(kept)
        reads = np.zeros((budgets.size, X.shape[0], self._n_groups()), dtype=bool)
        reads[b, i, self.group_of_column_[model.feature[paths[i, step]]]] = True
        return reads


class _Leaf:
    """A pystreed-like leaf: the tree of rows that no test splits."""

    @staticmethod
    def is_leaf_node() -> bool:
        return True
