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
forest leaves little worth pruning under a small budget. As an option (``forest``) the
starting forest is grown with the cost-weighted impurity of the authors' BudgetRF (Nan, Wang
& Saligrama, ICML 2015; :mod:`.cost_weighted`), alone or beside the cost-blind one, the
(forest, ``lambda``) of fewest validation errors chosen per budget.

The paper reads its method at the *mean* test cost its ``lambda`` trades for: each pruned
forest walked in full by every example. With ``operating_point="mean_cost"`` the estimator
serves those operating points (a pruned forest whose every validation example finishes its
walk within the budget), for the average-cost reading; the default, ``"hard_cap"``, chooses
for the hard per-example cap (the class docstring says what each means).
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
    LARGEST,
    TRADEOFF,
    Choice,
    TunedEstimator,
    check_validation_part,
    choose,
    choose_by_budget,
    grid_size,
)
from ..contract.validation import check_budgets
from .cost_weighted import grow_cost_weighted_forest
from .forest import Forest, grow_forest
from .program import PrunedForest, prune, pruning_problem
from .serving import budgeted_walk, serve, walk_rows

__all__ = [
    "BudgetPrune",
    "CHOICE_GRID",
    "DEFAULT_TRADEOFFS",
    "FOREST_KINDS",
    "MEAN_COST_TRADEOFFS",
]

#: Default ``lambda`` grid, in units of ``1 / c``, ``c`` the mean positive price of a
#: feature group: at ``lambda = m / c`` a split on a group of mean price must remove ``m``
#: errors of its tree per example that reaches it and pays for the group only there.
DEFAULT_TRADEOFFS = (0.0, 1 / 64, 1 / 16, 1 / 4)
#: Default ``lambda`` grid of ``operating_point="mean_cost"`` (same units): 0 and 1/64 to 1
#: in steps of a factor sqrt(2), wider and finer, since every ``lambda`` is a point of the
#: trade-off offered (a forest walked in full jumps from its cheapest pruning with splits to
#: none within a factor of 2 of ``lambda``).
MEAN_COST_TRADEOFFS = (0.0, *(2.0 ** (k / 2) / 64 for k in range(13)))
#: The starting forests ``forest`` names: scikit-learn's random forest (gini) and BudgetRF's
#: cost-weighted one; ``"both"`` grows the two, in this order.
FOREST_KINDS = ("random", "cost_weighted")
#: Budgets at which the validation errors are compared (``BudgetPrune._choose``): 0 and
#: this many evenly spaced up to the largest a validation example can spend.
CHOICE_GRID = 64


class BudgetPrune(TunedEstimator):
    """A random forest pruned for prediction on a budget (BudgetPrune, Nan et al. 2016).

    **Growing.** A random forest of ``n_estimators`` trees (scikit-learn's
    ``RandomForestClassifier``: bootstrap samples, ``max_features`` columns drawn at each
    split, gini, grown to ``max_depth`` / ``min_samples_leaf``; :func:`grow_forest`). By
    default it is grown cost-blind, so at a small budget the pruning can only cut short a
    forest whose splits are on columns the budget cannot pay for.

    **A cost-aware starting forest** (``forest``). The paper's program prunes the forest it
    is given, and its abstract says the method "benefits from good RF initialization"; the
    authors' own cost-aware forest is BudgetRF (Nan, Wang & Saligrama, ICML 2015). With
    ``forest="cost_weighted"`` the trees are grown as Breiman's (bootstrap samples,
    ``max_features`` columns drawn at each node) but each node takes the split of largest
    gini reduction per unit of the marginal price of its column's feature group on the
    node's path, a group already paid for higher on the path costing nothing
    (:func:`~.cost_weighted.grow_cost_weighted_forest`): under per-column prices cheap
    indicators win unless a dear one reduces the impurity more per unit of price, and under
    equal prices a tree re-reads the attributes its examples already bought. ``"both"``
    grows the cost-blind and the cost-weighted forest from the same seed, and a
    configuration is a (forest, ``lambda``), chosen per budget on validation like
    ``lambda`` alone. The program and the walk charge the contract's prices whatever forest
    they prune.

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
    An example that enters no tree gets the empty model, the training majority. (On held-out
    training rows this vote erred less than a majority vote of the same trees' classes and
    than the mean over every tree, the abstaining ones' priors counted: see "Defaults".)

    **Choosing lambda** (and the forest; the protocol of every tuned estimator,
    :mod:`~budgetboost.estimators.contract.tuning`): each forest is grown on a fit part of
    the training rows and pruned at each ``lambda`` of the grid; then, per budget:

    - ``operating_point="hard_cap"`` (the benchmark's hard cap): the configuration whose
      pruned forest, served at that budget (walks cut where the next price no longer
      fits), errs least on the validation part (ties: the cost-blind forest, then the
      smaller ``lambda``; :func:`~.tuning.choose_by_budget`). A forest's validation error
      is a step function of the budget, changing wherever some example's walk changes; it
      is computed at :data:`CHOICE_GRID` + 1 budgets evenly spaced from 0 to the most any
      validation example spends unbudgeted under any configuration (capped at
      ``budget``), and a budget between two of them takes the choice made at the lower
      one.
    - ``operating_point="mean_cost"`` (the paper's operating points, for the average-cost
      reading): each configuration's pruned forest walked in full by every validation
      example, the paper's reading of a ``lambda``; at budget ``B``, the one of fewest
      validation errors among those whose every validation example's walk costs at most
      ``B`` (:func:`~.tuning.choose`: the empty model, the training majority, where none
      fits; ties: the cheaper, then the earlier configuration). Its test examples then walk
      that forest in full, each paying its own path: their mean cost is what the
      ``lambda`` traded for, well below ``B`` (a test example dearer than every validation
      one would be stopped at ``B``, as the contract says). So a row at budget ``B`` is a
      point of the pruned forests' (mean cost, error) trade-off, chosen on validation,
      that also keeps the cap ``B``; the average-cost reading reads the front of these
      points at their mean cost.

    Then each chosen configuration's forest is grown on all training rows and pruned at
    each ``lambda`` chosen with it; they serve.

    **Defaults** (``n_estimators``, ``max_features``, ``max_depth``, the vote) were chosen
    on validation rows carved from training rows alone (``benchmarks/budget_prune_defaults.py``):
    a stratified quarter of each trial's training rows held out, the estimator fitted on the
    rest with each setting, its error on the held-out rows averaged over the cost model's
    budgets; 6 suite datasets (heart, pima, ionosphere, spambase, german, sonar) under U[0, 2]
    and attribute-unit prices, 3 trials each. The rule: a default stays unless another
    setting errs less with a 95 % interval of the paired difference (over the 36 (dataset,
    cost model, trial) units) that excludes 0. No setting did; the defaults are the
    settings of lowest held-out error or within that interval of it (numbers under each
    parameter).

    Parameters
    ----------
    n_estimators : int, default=10
        Trees of the forest. Held-out error (see "Defaults"), half the columns: 0.2189 with
        10 trees, 0.2185 with 20 (paired difference 0.0004, 95 % interval [-0.0049,
        0.0057]) at twice the time, 0.2263 with 5.
    max_features : {"sqrt", "log2"}, int, float in (0, 1] or None, default=0.5
        Columns drawn at each split, in scikit-learn's meaning (a float is a share of the
        columns; None: all). Half the columns, rather than the classic square root, lets
        the trees split on the same informative columns, which an example then pays for
        once. Held-out error with 10 trees (see "Defaults"): 0.2189 at 0.5, 0.2200 all
        columns, 0.2263 at 0.3, 0.2322 ``"sqrt"``; half the columns erred least at 10 and
        at 20 trees.
    max_depth : int or None, default=8
        Depth of the grown trees (None: until ``min_samples_leaf``); with ``n_estimators``
        it bounds the size of the program and the length of the walk. Held-out error (see
        "Defaults", 10 trees, half the columns): 0.2191 at depth 4, 0.2179 at 6, 0.2189 at
        8, 0.2173 at 12 (8 minus 12: 0.0016, 95 % interval [-0.0007, 0.0039]).
    min_samples_leaf : int, default=3
        scikit-learn's least number of training rows in a leaf.
    tradeoffs : float, array-like of float or None, default=None
        The ``lambda`` grid (numbers >= 0; sorted, duplicates dropped); one number is a
        fixed trade-off. ``None``: :data:`DEFAULT_TRADEOFFS` ``(0, 1/64, 1/16, 1/4)`` (for
        ``operating_point="mean_cost"``, :data:`MEAN_COST_TRADEOFFS`, 0 and 1/64 to 1) times
        ``1 / c``, ``c`` the mean positive price of a feature group: at ``lambda = m / c``
        a split on a group of price ``c`` must remove ``m`` errors of its tree per example
        that reaches it and pays for the group nowhere else, so the grid runs from pruning
        for the error alone (0) to keeping only splits that are nearly free or remove an
        error for every fourth example they charge. Finer or wider grids (5 to 7 values)
        did no better: more candidates, more noise in a choice on small validation parts.
    forest : {"random", "cost_weighted", "both"}, default="random"
        The starting forest: scikit-learn's (cost-blind), BudgetRF's cost-weighted one, or
        both, chosen per budget with ``lambda`` on validation.
    operating_point : {"hard_cap", "mean_cost"}, default="hard_cap"
        What a budget ``B`` asks for: the fewest validation errors with every walk cut at
        ``B`` (the hard cap), or a pruned forest walked in full whose every validation
        walk costs at most ``B`` (the paper's operating points, read at their mean cost).
    budget : float or None, default=None
        Caps every budget served (above it, the choice at ``budget``) and the validation
        grid's range. None: unlimited.
    validation_fraction : float in [0, 1), default=0.25
        Share of each class of the training rows held out to choose ``lambda`` (and the
        forest); 0 needs a single ``lambda`` and a single forest (it is then grown and
        pruned on all rows).
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seeds the validation split and, through two ints drawn from the same generator,
        the forests (fit part, all rows; every forest takes the same two).
    feature_costs, feature_groups, discount_groups, discount_costs : array-like, default=None
        The contract's prices (:class:`~budgetboost.BudgetedEstimator`).

    Attributes
    ----------
    tradeoffs_, forests_ : ndarray of shape (n_configs,)
        The ``lambda`` and the starting forest (a name of :data:`FOREST_KINDS`) of each
        configuration, forest-major (every ``lambda`` of the first forest first).
    forest_ : Forest or None
        The forest grown on all training rows that serves the largest budgets (None where
        the empty model serves every budget).
    models_ : list of PrunedForest
        The fit part's forest of each configuration pruned at its ``lambda``.
    refits_ : dict of int to PrunedForest
        Each chosen configuration (by index): its forest grown on all training rows, pruned
        at its ``lambda``; the configurations of one forest share it.
    validation_budgets_ : ndarray
        ``"hard_cap"``: the budgets at which the validation errors were compared;
        ``"mean_cost"``: the cost of each configuration's dearest full validation walk.
    validation_error_ : list of ndarray
        Per configuration: its pruned forest's validation error at each of those budgets
        (``"mean_cost"``: of its full walks, one value).
    validation_mean_cost_ : ndarray of shape (n_configs,)
        ``"mean_cost"`` only: the mean cost of each configuration's full validation walks.
    choice_ : Choice
        The configuration of every budget (:meth:`chosen_tradeoffs`,
        :meth:`chosen_forests`).
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
    took 0.6 CPU seconds at the median and at most 1.7, on a busy machine. The
    cost-weighted forest is grown in numpy, node by node (each node's columns at once):
    slower than scikit-learn's, most on the datasets of thousands of columns.

    References
    ----------
    F. Nan, J. Wang, V. Saligrama. Pruning Random Forests for Prediction on a Budget. NIPS
    2016 (Section 3: the 0-1 program, its LP relaxation and total unimodularity).
    F. Nan, J. Wang, V. Saligrama. Feature-Budgeted Random Forest. ICML 2015 (BudgetRF:
    trees grown for a budget).
    L. Breiman. Random Forests. Machine Learning 45, 2001.
    """

    label = "BudgetPrune, pruned forest"
    family = "forest"

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
        "forest": [Options((*FOREST_KINDS, "both"))],
        "operating_point": [Options(("hard_cap", "mean_cost"))],
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
        forest: str = "random",
        operating_point: str = "hard_cap",
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
        self.forest = forest
        self.operating_point = operating_point
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
        single forest (``"both"`` counts as two).

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        default = (
            MEAN_COST_TRADEOFFS
            if params.get("operating_point") == "mean_cost"
            else DEFAULT_TRADEOFFS
        )
        counts = {
            "tradeoffs": grid_size(params.get("tradeoffs"), default),
            "forest": len(FOREST_KINDS) if params.get("forest") == "both" else 1,
        }
        check_validation_part(params, counts)

    # ------------------------------------------------------------------ helpers
    def _kinds(self) -> tuple[str, ...]:
        """The starting forests grown, in :data:`FOREST_KINDS` order."""
        return FOREST_KINDS if self.forest == "both" else (str(self.forest),)

    def _grow(self, data: TrainingData, rows: np.ndarray, seed: int, kind: str) -> Forest:
        """The forest ``kind`` of the parameters on the training ``rows``."""
        common = {
            "n_estimators": int(self.n_estimators),
            "max_features": self.max_features,
            "max_depth": self.max_depth,
            "min_samples_leaf": int(self.min_samples_leaf),
            "seed": seed,
        }
        X, y = data.X[rows], data.y[rows]
        if kind == "cost_weighted":
            return grow_cost_weighted_forest(
                X, y, data.group_of_column, data.pricing, self.majority_, **common
            )
        return grow_forest(X, y, data.group_of_column, self.majority_, **common)

    def _grid(self, data: TrainingData) -> np.ndarray:
        """The ``lambda`` grid: ``tradeoffs``, or the default one in units of ``1 / c``."""
        if self.tradeoffs is not None:
            return np.unique(np.atleast_1d(np.asarray(self.tradeoffs, dtype=np.float64)))
        positive = data.group_cost[data.group_cost > 0]
        unit = 1.0 / float(positive.mean()) if positive.size else 1.0
        default = MEAN_COST_TRADEOFFS if self.operating_point == "mean_cost" else DEFAULT_TRADEOFFS
        return np.unique(np.asarray(default) * unit)

    def _pruned(
        self,
        data: TrainingData,
        rows: np.ndarray,
        seed: int,
        tradeoffs: Sequence[float],
        kind: str,
    ) -> list[PrunedForest]:
        """The forest ``kind`` grown on ``rows`` and pruned on them at each ``lambda`` (the
        program charges the contract's prices)."""
        forest = self._grow(data, rows, seed, kind)
        paths = forest.paths(data.X[rows])
        problem = pruning_problem(forest, paths, data.y[rows], data.pricing)
        return prune(forest, problem, tradeoffs)

    # ------------------------------------------------------------------ the protocol's steps
    def _fit(self, data: TrainingData) -> None:
        """The protocol (``TunedEstimator._fit``); the refits of one forest share it."""
        self.pricing_ = data.pricing
        super()._fit(data)
        served = self.choice_.config[self.choice_.config >= 0]
        self.forest_ = self.refits_[int(served[-1])].forest if served.size else None

    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[PrunedForest]]:
        """The fit part's forest of each kind pruned at each ``lambda`` of the grid
        (forest-major); the seed of the all-rows forests is drawn here too. Every forest
        takes the same two seeds, so the cost-blind forest of ``"both"`` is the one grown
        by ``"random"``."""
        seeds = rng.integers(0, 2**31 - 1, size=2)
        self._refit_seed = int(seeds[1])
        grid = self._grid(data)
        kinds = self._kinds()
        self.forests_ = np.repeat(np.asarray(kinds, dtype=object), grid.size)
        models = [
            model
            for kind in kinds
            for model in self._pruned(data, fit_rows, int(seeds[0]), grid, kind)
        ]
        return np.tile(grid, len(kinds)), models

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """The configuration of every budget on the validation ``rows`` (the class
        docstring): ``_choose_hard_cap`` or ``_choose_mean_cost``."""
        paths = _paths_by_forest(self.models_, data.X[rows])
        if self.operating_point == "mean_cost":
            return self._choose_mean_cost(data, rows, paths)
        return self._choose_hard_cap(data, rows, paths)

    def _choose_hard_cap(
        self, data: TrainingData, rows: np.ndarray, paths: list[list[np.ndarray]]
    ) -> Choice:
        """The configuration of fewest validation errors at every budget of a grid, each
        pruned forest served at each budget (:func:`serve`)."""
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

    def _choose_mean_cost(
        self, data: TrainingData, rows: np.ndarray, paths: list[list[np.ndarray]]
    ) -> Choice:
        """At every budget, the configuration of fewest validation errors among those whose
        full validation walks all cost at most the budget (the empty model where none does;
        :func:`~.tuning.choose`)."""
        inf = np.array([np.inf])
        served = [
            serve(m, p, inf, data.pricing, self.majority_)
            for m, p in zip(self.models_, paths, strict=True)
        ]
        truth = data.y[rows] > 0
        error = np.array([float(((s.score[0] > 0) != truth).mean()) for s in served])
        dearest = np.array([float(s.spent[0].max(initial=0.0)) for s in served])
        self.validation_budgets_ = dearest
        self.validation_error_ = [np.array([e]) for e in error]
        self.validation_mean_cost_ = np.array([float(s.spent[0].mean()) for s in served])
        n = len(self.models_)
        empty = float(((self.majority_ > 0) != truth).mean())
        return choose(
            config=np.append(np.arange(n), -1),
            size=np.append(np.full(n, LARGEST), 0),
            cost=np.append(dearest, 0.0),
            error=np.append(error, empty),
        )

    def _refit(
        self, data: TrainingData, chosen: Sequence[int], sizes: Sequence[int]
    ) -> list[PrunedForest]:
        """For each chosen forest, one grown on all training rows, pruned at each
        ``lambda`` chosen with it."""
        rows = np.arange(data.y.size)
        chosen = list(chosen)
        refits: dict[int, PrunedForest] = {}
        for kind in self._kinds():
            picked = [i for i in chosen if self.forests_[i] == kind]
            if picked:
                pruned = self._pruned(data, rows, self._refit_seed, self.tradeoffs_[picked], kind)
                refits.update(zip(picked, pruned, strict=True))
        return [refits[i] for i in chosen]

    def chosen_forests(self, budgets: Any) -> np.ndarray:
        """The starting forest of the model used at each budget, as
        :meth:`chosen_tradeoffs` gives its ``lambda``.

        Parameters
        ----------
        budgets : float or array-like of float
            Numbers >= 0 in any order; ``inf`` is the fitted model.

        Returns
        -------
        ndarray of shape (len(budgets),), object
            Names of :data:`FOREST_KINDS` (None where the empty model serves), chosen on
            the validation part.
        """
        self._check_fitted()
        config, _ = self.choice_.at(self._capped(check_budgets(budgets)))
        return np.where(config >= 0, self.forests_[np.maximum(config, 0)], None)

    # ------------------------------------------------------------------ serving
    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """At each budget (capped at ``budget``) the forest of the budget's configuration
        pruned at its ``lambda`` and served within it (:func:`serve`); costs as in the class
        Notes. The examples' paths in each forest are computed once, for every ``lambda``
        chosen with it (``_serve`` keeps them here)."""
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
