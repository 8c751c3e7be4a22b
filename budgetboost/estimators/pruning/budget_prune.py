"""BudgetPrune: a random forest pruned by a linear program (Nan, Wang & Saligrama, NIPS 2016).

A random forest is grown (scikit-learn's: bootstrap samples, a random subset of the columns
at each split), then pruned *jointly*, all its trees at once, by the paper's 0-1 integer
program (its Section 3): the empirical error of the pruned trees traded, with a weight
``lambda``, against the mean price an example pays for the feature groups it reads. An
example pays for a group once however many trees read it, so the program rewards trees that
re-use what other trees already bought for the same example. The paper proves the
constraint matrix totally unimodular, so the LP relaxation has integral optima; it is solved
here with HiGHS (``scipy.optimize.linprog``) and every solution is checked to be integral.

The paper's text was not at hand when this module was written (only its abstract): the
program is written from its published description (node variables, per-example feature
usage variables, error plus ``lambda`` times the mean feature cost, total unimodularity)
in the form :func:`pruning_problem` states, and where a detail may differ from the paper's
(the rows a node's error is counted on, the forest's vote) the docstrings say what is done
here and why.

Beyond the paper, for the benchmark's contract: a hard per-example budget at serving time
(each example walks the pruned trees in order and stops in a tree where the next split's
price no longer fits what remains of its budget, :func:`walk_rows`), Turney's discount
groups in the program and in the walk, and ``lambda`` chosen per budget on a validation
part of the training rows (:mod:`~budgetboost.estimators.contract.tuning`).

The paper's abstract says the method "benefits from good RF initialization": a cost-blind
forest leaves little worth pruning under a small budget. As an option (``max_column_cost``)
forests are grown on the columns whose feature group costs at most ``tau`` alone, for a grid
of ``tau`` (:func:`column_cost_grid`, :func:`columns_within`), and the (``tau``,
``lambda``) of fewest validation errors is chosen per budget (the class docstring says what
of the authors' practice this follows).
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
from ..contract.params import Interval, Options
from ..contract.tuning import (
    TRADEOFF,
    Choice,
    TunedEstimator,
    check_validation_part,
    choose_by_budget,
    grid_size,
)
from ..contract.validation import check_budgets
from .forest import (
    DEFAULT_COLUMN_SHARES,
    ColumnCostGrid,
    Forest,
    column_cost_grid,
    columns_within,
    grow_forest,
)
from .program import PrunedForest, prune, pruning_problem
from .serving import budgeted_walk, serve, walk_rows

__all__ = ["BudgetPrune", "CHOICE_GRID", "DEFAULT_TRADEOFFS"]

#: Default ``lambda`` grid, in units of ``1 / c``, ``c`` the mean positive price of a
#: feature group: at ``lambda = m / c`` a split on a group of mean price must remove ``m``
#: errors of its tree per example that reaches it and pays for the group only there.
DEFAULT_TRADEOFFS = (0.0, 1 / 64, 1 / 16, 1 / 4)
#: Budgets at which the validation errors are compared (:meth:`BudgetPrune._choose`): 0 and
#: this many evenly spaced up to the largest a validation example can spend.
CHOICE_GRID = 64


class BudgetPrune(TunedEstimator):
    """A random forest pruned for prediction on a budget (BudgetPrune, Nan et al. 2016).

    **Growing.** A random forest of ``n_estimators`` trees (scikit-learn's
    ``RandomForestClassifier``: bootstrap samples, ``max_features`` columns drawn at each
    split, gini, grown to ``max_depth`` / ``min_samples_leaf``; :func:`grow_forest`). By
    default it is grown cost-blind on every column, so at a small budget the pruning can only
    cut short a forest whose splits are on columns the budget cannot pay for (at budget 2
    under U[0, 2] the validation part chose ``lambda = 0``, no pruning for cost, in 58 of 80
    trials of 16 suite datasets).

    **A cost-aware starting forest** (``max_column_cost``). The paper's program prunes the
    forest it is given, and its abstract says the method "benefits from good RF
    initialization". The initial forests of the authors' experiments are reported to be
    grown for the budget: with the minimax cost-weighted impurity of their BudgetRF (Nan,
    Wang & Saligrama, ICML 2015) or, for small budgets, on cheap features. Neither their
    full text nor their code was at hand here to check the details (the abstract only), so
    the second way is followed, the one a scikit-learn forest can take unchanged, with its
    threshold chosen per budget on validation. For each ``tau`` of a grid a forest is grown
    on the columns whose feature group's full price (alone; with Turney's discount groups,
    its test with the group's shared part) is at most ``tau`` (scikit-learn never sees the
    other columns, so no tree splits on them and no example reads them) and pruned at every
    ``lambda``: a configuration is a (``tau``, ``lambda``), and the program and the walk
    keep charging the contract's prices. ``"auto"``: ``tau`` at the least prices at or
    below which an eighth, a quarter and a half of the feature groups lie
    (:data:`DEFAULT_COLUMN_SHARES`, the columns doubling from step to step), and ``inf``
    (every column: the default's forest); a ``tau`` that admits the same groups as a larger
    one is dropped (under equal prices one forest remains). Every ``tau`` grows its forest
    from the same seeds, so the forest of ``tau = inf`` is the default's.

    **Pruning** (the paper's Section 3; :func:`pruning_problem`, :func:`solve_pruning`).
    Variables ``x_h`` say whether internal node ``h`` splits (``x_child <= x_parent``; a node
    is kept when its parent splits, a root always, and is a leaf when kept and not split);
    ``w_{k,i} >= x_h`` for the first node ``h`` on row ``i``'s path in each tree that splits
    on feature group ``k`` says row ``i`` pays for ``k``. The program

        minimise (1/N) sum_t sum_h e_h [h is a leaf of tree t]
                 + lambda (1/N) sum_i sum_k c_k w_{k,i}

    trades the summed errors of the pruned trees (``e_h``: the rows reaching ``h`` that its
    majority class misclassifies, counted over every row the forest is pruned on, in and out
    of each tree's bootstrap sample) against the mean price an example pays, each group once
    however many trees read it: a split on a group the example already pays for elsewhere
    costs nothing more. Every constraint is the difference of two variables, so the matrix
    is totally unimodular and the LP relaxation (HiGHS) has integral vertices; each solution
    is checked to be integral. With Turney's discount groups an example also pays each
    touched discount group's shared part once (``v_{d,i} >= w_{k,i}`` for ``k`` in ``d``,
    still differences), so the program charges the contract's prices.

    **Serving under a hard per-example budget** (the benchmark's contract; the paper's
    program bounds only the mean cost). At budget ``B`` each example walks the pruned trees
    in order; at a split on a group it has not paid for it pays the group's marginal price
    (:class:`~budgetboost.estimators.contract.pricing.Pricing`) if that fits what remains of
    ``B``, otherwise it stops in that tree at that node and takes the node's prediction (as
    if it were a leaf), then goes on to the next tree (:func:`walk_rows`). The forest's
    score is the mean of the trees' class probabilities (``2 p - 1``) at the nodes reached,
    scikit-learn's soft vote, over the trees the example entered: a tree whose root it could
    not pay for (or whose root the pruning made a leaf) abstains, since its root's bootstrap
    prior, counted, outvotes the few trees a small budget can read (:func:`forest_scores`).
    An example that enters no tree gets the empty model, the training majority. (This vote,
    a majority vote of the trees' classes and one counting the abstaining trees' priors
    were compared on the suite's first trials: ``docs/design.md``, "How the defaults were
    chosen", says how.)

    **Choosing lambda** (and ``tau``; the protocol of every tuned estimator,
    :mod:`~budgetboost.estimators.contract.tuning`): a forest is grown on a fit part of the
    training rows (one per ``tau``) and pruned at each ``lambda`` of the grid; at every
    budget, the configuration whose pruned forest, served at that budget, errs least on the
    validation part is chosen (ties: the smaller ``tau``, then the smaller ``lambda``;
    :func:`~.tuning.choose_by_budget`). A forest's validation error is a step function of
    the budget, changing wherever some example's walk changes; it is computed at
    :data:`CHOICE_GRID` + 1 budgets evenly spaced from 0 to the most any validation example
    spends unbudgeted under any configuration (capped at ``budget``), and a budget between
    two of them takes the choice made at the lower one. Then, for each chosen ``tau``, one
    forest is grown on all training rows under it and pruned at each ``lambda`` chosen with
    it; they serve.

    Parameters
    ----------
    n_estimators : int, default=10
        Trees of the forest: 5, 10 and 20 trees erred alike over the suite's first trials,
        and 10 takes half the time of 20 (how it was chosen: ``docs/design.md``, "How the
        defaults were chosen").
    max_features : {"sqrt", "log2"}, int, float in (0, 1] or None, default=0.5
        Columns drawn at each split, in scikit-learn's meaning (a float is a share of the
        columns; None: all). Half the columns, rather than the classic square root, lets
        the trees split on the same informative columns, which an example then pays for
        once (how it was chosen: ``docs/design.md``, "How the defaults were chosen").
    max_depth : int or None, default=8
        Depth of the grown trees (None: until ``min_samples_leaf``); with ``n_estimators``
        it bounds the size of the program and the length of the walk (``docs/design.md``,
        "How the defaults were chosen").
    min_samples_leaf : int, default=3
        scikit-learn's least number of training rows in a leaf.
    tradeoffs : float, array-like of float or None, default=None
        The ``lambda`` grid (numbers >= 0; sorted, duplicates dropped); one number is a
        fixed trade-off. ``None``: :data:`DEFAULT_TRADEOFFS` ``(0, 1/64, 1/16, 1/4)`` times
        ``1 / c``, ``c`` the mean positive price of a feature group: at ``lambda = m / c``
        a split on a group of price ``c`` must remove ``m`` errors of its tree per example
        that reaches it and pays for the group nowhere else, so the grid runs from pruning
        for the error alone (0) to keeping only splits that are nearly free or remove an
        error for every fourth example they charge. Finer or wider grids (5 to 7 values)
        did no better: more candidates, more noise in a choice on small validation parts.
    max_column_cost : None, "auto", float or array-like of float, default=None
        The ``tau`` grid of the starting forests (numbers >= 0, ``inf`` allowed: every
        column; :func:`column_cost_grid`). None: one forest on every column (the method as
        it was, byte for byte). ``"auto"``: the cheapest eighth, quarter and half of the
        feature groups, and all of them. A ``tau`` below every price is refused.
    budget : float or None, default=None
        Caps every budget served (above it, the choice at ``budget``) and the validation
        grid's range. None: unlimited.
    validation_fraction : float in [0, 1), default=0.25
        Share of each class of the training rows held out to choose ``lambda`` (and
        ``tau``); 0 needs a single ``lambda`` and a single ``tau`` (the forest is then grown
        and pruned on all rows).
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seeds the validation split and, through two ints drawn from the same generator,
        scikit-learn's forests (fit part, all rows; every ``tau`` takes the same two).
    feature_costs, feature_groups, discount_groups, discount_costs : array-like, default=None
        The contract's prices (:class:`~budgetboost.BudgetedEstimator`).

    Attributes
    ----------
    tradeoffs_, max_column_costs_ : ndarray of shape (n_configs,)
        The ``lambda`` and the ``tau`` of each configuration, ``tau``-major (every
        ``lambda`` of the smallest ``tau`` first; by default one ``tau``, ``inf``, and
        ``tradeoffs_`` the ``lambda`` grid, increasing).
    column_cost_grid_ : ndarray
        The ``tau`` grid, increasing (:func:`column_cost_grid`).
    forest_ : Forest
        The forest grown on all training rows that serves the largest budgets (by default
        the only one).
    models_ : list of PrunedForest
        The fit part's forest of each configuration's ``tau`` pruned at its ``lambda``.
    refits_ : dict of int to PrunedForest
        Each chosen configuration (by index): the forest of its ``tau`` grown on all
        training rows, pruned at its ``lambda``; the configurations of one ``tau`` share
        one forest.
    validation_budgets_ : ndarray
        The budgets at which the validation errors were compared.
    validation_error_ : list of ndarray
        Per configuration: its pruned forest's validation error at each of those budgets.
    choice_ : Choice
        The configuration of every budget (:meth:`chosen_tradeoffs`,
        :meth:`chosen_max_column_costs`).
    fit_rows_, validation_rows_ : ndarray of int
        Rows of the training ``X`` in the fit and validation parts.
    pricing_ : Pricing
        The fit's prices.

    Notes
    -----
    :meth:`evaluate_at_budgets` reports, per budget: ``mean_example_cost`` and
    ``max_example_cost``, what the examples paid on their walks (each for the groups it
    read, at the contract's prices); ``spent`` = ``max_example_cost`` (every example has a
    model cost of its own; the largest is within the budget); ``rounds``, the mean number of
    trees an example entered (passed the root's split of); ``n_features``, the mean number
    of feature groups an example paid for; ``nodes``, the nodes of the pruned forest (all
    trees, at the budget's ``lambda``).

    Time: one LP per ``lambda`` and per chosen ``lambda`` (rows x trees x depth bound its
    size; rows that would pay on the same nodes are merged) and walks vectorised over
    examples. On the 38 datasets (75-1,000 training rows, up to 5,000 test rows, 27 to
    11,196 columns), a trial (fit, then the 20 budgets on the test and the training rows)
    took 0.6 CPU seconds at the median and at most 1.7, on a busy machine. With
    ``max_column_cost="auto"`` (four forests a fit instead of one, 16 configurations) a
    trial took 2.3 times as long at the median over 12 of the datasets (1.04 CPU seconds against
    0.46; at most 2.15, ionosphere).

    References
    ----------
    F. Nan, J. Wang, V. Saligrama. Pruning Random Forests for Prediction on a Budget. NIPS
    2016 (Section 3: the 0-1 program, its LP relaxation and total unimodularity).
    F. Nan, J. Wang, V. Saligrama. Feature-Budgeted Random Forest. ICML 2015 (BudgetRF:
    trees grown for a budget).
    L. Breiman. Random Forests. Machine Learning 45, 2001.
    """

    libraries = ("scikit-learn", "scipy")

    conformance_cases = {"small": {"n_estimators": 4, "max_depth": 3}}
    _parameter_constraints = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "max_features": [
            Options(("sqrt", "log2")),
            Interval(Integral, 1, None, closed="left"),
            Interval(Real, 0, 1, closed="right"),
            None,
        ],
        "max_depth": [Interval(Integral, 1, None, closed="left"), None],
        "min_samples_leaf": [Interval(Integral, 1, None, closed="left")],
        "tradeoffs": TRADEOFF,
        "max_column_cost": [
            Options(("auto",)),
            Interval(Real, 0, None, closed="left"),
            ColumnCostGrid(),
            None,
        ],
        "budget": BUDGET,
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        **PRICES,
    }

    def __init__(
        self,
        n_estimators: int = 10,
        max_features: Any = 0.5,
        max_depth: int | None = 8,
        min_samples_leaf: int = 3,
        tradeoffs=None,
        max_column_cost=None,
        budget: float | None = None,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.max_depth = max_depth
        self.min_samples_leaf = min_samples_leaf
        self.tradeoffs = tradeoffs
        self.max_column_cost = max_column_cost
        self.budget = budget
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does; besides each one's
        constraints, ``validation_fraction=0`` needs a single ``tradeoffs`` value and a
        single ``max_column_cost`` (``"auto"`` counts as several).

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        caps = params.get("max_column_cost")
        n_caps = (
            len(DEFAULT_COLUMN_SHARES) + 1 if isinstance(caps, str) else grid_size(caps, [np.inf])
        )
        counts = {
            "tradeoffs": grid_size(params.get("tradeoffs"), DEFAULT_TRADEOFFS),
            "max_column_cost": n_caps,
        }
        check_validation_part(params, counts)

    # ------------------------------------------------------------------ helpers
    def _grow(self, data: TrainingData, rows: np.ndarray, seed: int, tau: float) -> Forest:
        """The forest of the parameters on the training ``rows``, on the columns whose
        feature group costs at most ``tau`` (:func:`columns_within`)."""
        return grow_forest(
            data.X[rows],
            data.y[rows],
            data.group_of_column,
            self.majority_,
            n_estimators=int(self.n_estimators),
            max_features=self.max_features,
            max_depth=self.max_depth,
            min_samples_leaf=int(self.min_samples_leaf),
            seed=seed,
            columns=columns_within(tau, data.group_of_column, data.group_cost),
        )

    def _grid(self, data: TrainingData) -> np.ndarray:
        """The ``lambda`` grid: ``tradeoffs``, or the default one in units of ``1 / c``."""
        if self.tradeoffs is not None:
            return np.unique(np.atleast_1d(np.asarray(self.tradeoffs, dtype=np.float64)))
        positive = data.group_cost[data.group_cost > 0]
        unit = 1.0 / float(positive.mean()) if positive.size else 1.0
        return np.unique(np.asarray(DEFAULT_TRADEOFFS) * unit)

    def _pruned(
        self,
        data: TrainingData,
        rows: np.ndarray,
        seed: int,
        tradeoffs: Sequence[float],
        tau: float,
    ) -> list[PrunedForest]:
        """A forest grown on ``rows`` under ``tau`` and pruned on them at each ``lambda``
        (the program charges the contract's prices)."""
        forest = self._grow(data, rows, seed, tau)
        paths = forest.paths(data.X[rows])
        problem = pruning_problem(forest, paths, data.y[rows], data.pricing)
        return prune(forest, problem, tradeoffs)

    # ------------------------------------------------------------------ the protocol's steps
    def _fit(self, data: TrainingData) -> None:
        """The protocol (:meth:`TunedEstimator._fit`); the refits of one ``tau`` share one
        forest."""
        self.pricing_ = data.pricing
        super()._fit(data)
        self.forest_ = self.refits_[int(self.choice_.config[-1])].forest

    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[PrunedForest]]:
        """The fit part's forest of each ``tau`` pruned at each ``lambda`` of the grid
        (``tau``-major); the seed of the all-rows forests is drawn here too. Every forest
        takes the same two seeds, so the forest of ``tau = inf`` is the one grown without
        ``max_column_cost``."""
        seeds = rng.integers(0, 2**31 - 1, size=2)
        self._refit_seed = int(seeds[1])
        grid = self._grid(data)
        self.column_cost_grid_ = column_cost_grid(self.max_column_cost, data.group_cost)
        if not self.column_cost_grid_.size:
            raise ValueError(
                f"max_column_cost: {self.max_column_cost!r} is below the price of every "
                "feature group: no forest can be grown"
            )
        self.max_column_costs_ = np.repeat(self.column_cost_grid_, grid.size)
        models = [
            model
            for tau in self.column_cost_grid_
            for model in self._pruned(data, fit_rows, int(seeds[0]), grid, float(tau))
        ]
        return np.tile(grid, self.column_cost_grid_.size), models

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """The (``tau``, ``lambda``) of fewest validation errors at every budget of a grid
        (see the class docstring): each pruned forest served at each budget
        (:func:`serve`)."""
        paths = _paths_by_forest(self.models_, data.X[rows])
        every = np.arange(rows.size)
        unlimited = np.full(rows.size, np.inf)
        top = max(
            float(walk_rows(m, p, every, unlimited, data.pricing).spent.max(initial=0.0))
            for m, p in zip(self.models_, paths, strict=True)
        )
        budgets = np.unique(np.linspace(0.0, min(top, self._fitted_budget()), CHOICE_GRID + 1))
        errors = (
            np.vstack(
                [
                    (serve(m, p, budgets, data.pricing, self.majority_).score > 0)
                    != (data.y[rows] > 0)
                    for m, p in zip(self.models_, paths, strict=True)
                ]
            )
            .reshape(len(self.models_), budgets.size, rows.size)
            .mean(axis=2)
        )
        self.validation_budgets_ = budgets
        self.validation_error_ = list(errors)
        return choose_by_budget(budgets, errors)

    def _refit(
        self, data: TrainingData, chosen: Sequence[int], sizes: Sequence[int]
    ) -> list[PrunedForest]:
        """For each chosen ``tau``, one forest grown on all training rows under it, pruned
        at each ``lambda`` chosen with it."""
        rows = np.arange(data.y.size)
        chosen = list(chosen)
        refits: dict[int, PrunedForest] = {}
        for tau in np.unique(self.max_column_costs_[chosen]):
            picked = [i for i in chosen if self.max_column_costs_[i] == tau]
            pruned = self._pruned(data, rows, self._refit_seed, self.tradeoffs_[picked], float(tau))
            refits.update(zip(picked, pruned, strict=True))
        return [refits[i] for i in chosen]

    def chosen_max_column_costs(self, budgets: Any) -> np.ndarray:
        """The ``tau`` (``max_column_cost``) of the forest used at each budget, as
        :meth:`chosen_tradeoffs` gives its ``lambda``.

        Parameters
        ----------
        budgets : float or array-like of float
            Numbers >= 0 in any order; ``inf`` is the fitted model.

        Returns
        -------
        ndarray of shape (len(budgets),), float64
            Values of ``column_cost_grid_`` (``inf``: the forest on every column), chosen
            on the validation part.
        """
        self._check_fitted()
        config, _ = self.choice_.at(self._capped(check_budgets(budgets)))
        return np.where(config >= 0, self.max_column_costs_[np.maximum(config, 0)], np.nan)

    # ------------------------------------------------------------------ serving
    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """At each budget (capped at ``budget``) the forest of the budget's ``tau`` pruned at
        its ``lambda`` and served within it (:func:`serve`); costs as in the class Notes. The
        examples' paths in each forest are computed once, for every ``lambda`` chosen with
        it (:meth:`_serve` keeps them here)."""
        self._serving_paths: dict[int, list[np.ndarray]] = {}
        try:
            return super()._scores_and_costs(X, budgets)
        finally:
            del self._serving_paths

    def _serve(
        self, index: int, model: PrunedForest, X: np.ndarray, budgets: np.ndarray, sizes
    ) -> tuple[np.ndarray, BudgetCosts]:
        """One pruned forest at the budgets it was chosen at (the protocol's step 3)."""
        key = id(model.forest)
        if key not in self._serving_paths:
            self._serving_paths[key] = model.forest.paths(X)
        paths = self._serving_paths[key]
        served = serve(model, paths, budgets, self.pricing_, self.majority_)
        worst = served.spent.max(axis=1)
        return served.score, BudgetCosts(
            rounds=served.trees.mean(axis=1),
            spent=worst,
            n_features=served.n_groups.mean(axis=1),
            mean_example_cost=served.spent.mean(axis=1),
            max_example_cost=worst,
            nodes=np.full(budgets.size, float(model.n_nodes)),
        )

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray | None:
        """The groups each example pays for on its walk through the forest served at each
        budget (:func:`walk_rows`: a row reads only the groups it pays for)."""
        self._serving_paths = {}
        try:
            return super()._groups_read(X, budgets)
        finally:
            del self._serving_paths

    def _serve_reads(
        self, index: int, model: PrunedForest, X: np.ndarray, budgets: np.ndarray, sizes
    ) -> np.ndarray:
        key = id(model.forest)
        if key not in self._serving_paths:
            self._serving_paths[key] = model.forest.paths(X)
        walk = budgeted_walk(model, self._serving_paths[key], budgets, self.pricing_)
        n = X.shape[0]
        reads = np.zeros((budgets.size * n, self._n_groups()), dtype=bool)
        reads[:, walk.groups] = walk.paid
        return reads.reshape(budgets.size, n, -1)


def _distinct_forests(models: Any) -> list[Forest]:
    """The forests of some pruned forests, each once, in order."""
    seen: dict[int, Forest] = {}
    for model in models:
        seen.setdefault(id(model.forest), model.forest)
    return list(seen.values())


def _paths_by_forest(models: Sequence[PrunedForest], X: np.ndarray) -> list[list[np.ndarray]]:
    """:meth:`Forest.paths` of ``X`` for each model, computed once per forest."""
    paths = {id(f): f.paths(X) for f in _distinct_forests(models)}
    return [paths[id(m.forest)] for m in models]
