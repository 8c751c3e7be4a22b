"""What the library peers share: a grid of configurations, prefixes of trees, a choice per budget.

A peer wraps a gradient-boosting library whose split search can be charged for using a
feature (LightGBM's cost-effective gradient boosting, CatBoost's feature penalties). It
follows the protocol of every tuned estimator (:mod:`budgetboost.estimators.contract.tuning`):

1. One model per *configuration* (a trade-off of the library's penalty, and a learning rate)
   is trained on the *fit part* of the training rows. Every prefix of ``k`` trees of every
   model is a candidate whose cost is the pay-once cost of the feature groups its trees
   split on, by this project's accounting (``feature_costs`` summed per group, each group
   once; with discount groups, the price of the set: each touched discount group's shared
   part once), whatever the library was told. At a budget ``B`` the candidate with the lowest
   error on the *validation part* among those costing at most ``B`` is chosen; the choice is
   a step function of the budget fixed at fit time (``PeerBooster.choice_``).
2. Each configuration chosen at some budget is trained again on all training rows, with as
   many trees as the largest prefix chosen of it.
3. Budget ``B`` is served by that refitted model's first ``k`` trees, or by fewer where the
   refitted trees reach ``B`` sooner: no budget is ever exceeded.

A configuration may also fix the trees' depth and regularisation, where the user gives
several values of them (``_structure_names``): they are chosen per budget like the rest.
LightGBM's peer can instead charge *per example* (``charging="example"``): each example its
own prefix, the longest its paths afford, the candidates (a configuration and a cap on its
trees) compared at a grid of budgets with each validation example served that way
(:mod:`~budgetboost.estimators.peers.per_example`).

Under a grouped cost model the library is given one ordinal column per attribute of
threshold indicators, not the indicators (:class:`~.columns.ColumnEncoding`): the same
splits, one penalty per feature group (heart with Turney's costs: 371 columns become 13).
Ungrouped columns reach it unchanged.

Discount groups (Turney's shared parts) cannot be told to either library: a feature's
first-use penalty is one number. Each library column's penalty is its group's full price
(its test alone), the largest marginal price the test can have, so the penalty never makes a
test look cheaper than it may be (it overstates a second test of a touched discount group).
The benchmark still charges the true price, with the discount groups, in the choice per
budget (the candidates' costs) and in every evaluation.

A library module implements a :class:`PeerModel` (what the benchmark reads of one trained
model) and the hooks of :class:`PeerBooster`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, NamedTuple

import numpy as np

from ..contract.base import BudgetCosts, TrainingData
from ..contract.params import Constraint
from ..contract.pricing import Pricing
from ..contract.tuning import EMPTY_SCORE, TunedEstimator, check_validation_part
from ..contract.validation import check_budgets
from .columns import ColumnEncoding, most_distinct

__all__ = ["LibraryParams", "PeerBooster", "PeerModel"]


class LibraryParams(Constraint):
    """A dict of further library parameters, none of which the wrapper sets itself."""

    def __init__(self, library: str, reserved: Mapping[str, str]):
        self.library = library
        self.reserved = dict(reserved)  # name or alias -> what sets it

    def is_satisfied_by(self, value: Any) -> bool:
        return (
            isinstance(value, Mapping)
            and all(isinstance(k, str) for k in value)
            and not self._clashes(value)
        )

    def _clashes(self, value: Mapping) -> list[str]:
        return [key for key in value if key in self.reserved]

    def explain(self, value: Any) -> str | None:
        if not isinstance(value, Mapping):
            return None
        if not all(isinstance(k, str) for k in value):
            return f"got non-string keys {[k for k in value if not isinstance(k, str)][:3]}"
        clashes = self._clashes(value)
        if clashes:
            key = clashes[0]
            return f"got {key!r}, which is set by {self.reserved[key]}"
        return None

    def __str__(self) -> str:
        return f"a dict of further {self.library} parameters (not those the wrapper sets itself)"


class PeerModel:
    """One trained library model, as the benchmark reads it (every ``X`` holds the library
    columns of ``PeerBooster.encoding_``)."""

    def tree_columns(self) -> list[np.ndarray]:
        """The library columns each tree splits on."""
        raise NotImplementedError

    def staged_scores(self, X: np.ndarray) -> np.ndarray:
        """Raw scores of every prefix of 1, 2, ... trees: (n_trees, n_samples)."""
        raise NotImplementedError

    def raw_scores(self, X: np.ndarray, n_trees: int) -> np.ndarray:
        """The library's own raw score of the first ``n_trees`` trees: (n_samples,)."""
        raise NotImplementedError

    def example_costs(
        self, X: np.ndarray, n_trees: np.ndarray, column_group: np.ndarray, pricing: Pricing
    ) -> np.ndarray | None:
        """What each example pays for the groups on its decision paths through each prefix,
        at the groups' prices (``pricing``), (len(n_trees), n_samples); ``None`` when every
        example reads every split."""
        return None

    def example_reads(
        self, X: np.ndarray, n_trees: np.ndarray, column_group: np.ndarray, n_groups: int
    ) -> np.ndarray:
        """The groups each example reads through each prefix, (len(n_trees), n_samples or 1,
        n_groups): here every split of the prefix's trees, the same for every example (the
        reads of :meth:`example_costs` ``None``; ``BudgetedEstimator._groups_read``)."""
        columns = self.tree_columns()
        reads = np.zeros((n_trees.size, 1, n_groups), dtype=bool)
        for b, k in enumerate(n_trees.tolist()):
            split = [column_group[c] for c in columns[:k]]
            reads[b, 0, np.concatenate(split or [np.empty(0, np.intp)]).astype(np.intp)] = True
        return reads


def _log_loss(scores: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mean logistic loss ``log(1 + exp(-y s))`` along the last axis (``y`` in -1/+1)."""
    return np.logaddexp(0.0, -scores * y).mean(axis=-1)


def _prefix_costs(
    trees: list[np.ndarray], group_cost: np.ndarray, pricing: Pricing | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Pay-once cost and group count of every prefix ``0..len(trees)`` (trees as groups),
    at the groups' prices (``pricing``; default ``group_cost``)."""
    pricing = Pricing.plain(group_cost) if pricing is None else pricing
    paid = np.zeros(group_cost.size, dtype=bool)
    touched = pricing.untouched()
    cost = np.zeros(len(trees) + 1)
    n_groups = np.zeros(len(trees) + 1)
    for k, groups in enumerate(trees, start=1):
        new = groups[~paid[groups]]
        paid[new] = True
        cost[k] = cost[k - 1] + pricing.added(new, touched)
        n_groups[k] = n_groups[k - 1] + new.size
    return cost, n_groups


class _LibraryData(NamedTuple):
    """The training rows as the library sees them (kept while a fit runs)."""

    X: np.ndarray  # the columns of ``encoding_``
    y01: np.ndarray  # 0/1 labels
    penalty: np.ndarray  # one cost per library column: its group's


class PeerBooster(TunedEstimator):
    """Base of the library peers: a grid of configurations, prefixes, a choice per budget.

    A configuration is one value of each *grid parameter*: the library's cost trade-off
    (``_tradeoff_name``, if the library has one: a cost-blind peer sets it to ``None``), the
    parameters of ``_grid_names`` (the learning rate), each of which the user may give as
    one value or several, and each parameter of ``_structure_names`` (the trees' depth and
    regularisation) that the user gives as several values (an array-like: one number keeps
    it out of the configurations, as before such grids existed). Subclasses store those
    parameters, ``validation_fraction``,
    ``random_state``, ``feature_costs``, ``feature_groups`` and the number of trees
    (``_n_trees_name``), and implement two hooks:

    - ``_tradeoff_scale(n_fit, mean_cost) -> float``: the unit of the default trade-off grid
      ``_relative_grid`` (only with a trade-off);
    - ``_fit_models(X, y01, penalty, configs, seed, n_trees) -> list of PeerModel``: one
      trained model per configuration (a dict: the trade-off under ``"tradeoff"``, if any,
      and each grid parameter under its name; ``_value`` reads a parameter of the trees
      from it or, when it is not a grid, from the estimator) of ``n_trees[i]`` trees, on the
      rows given (``y01`` 0/1, ``penalty`` one cost per column), the library's data built
      once for all of them with ``n_bins_`` bins per column at least.

    Threads are the job's (:func:`~budgetboost.estimators.contract.threads.thread_limit`),
    never a wrapper's choice. The rest is the protocol of
    :class:`~budgetboost.estimators.contract.tuning.TunedEstimator`; a candidate is a prefix
    of ``k`` trees of a configuration's model.

    Attributes
    ----------
    configs_ : list of dict
        The configurations fitted: every trade-off with every value of each grid parameter
        (the depth's, where it is a grid: :meth:`chosen_depths`).
    tradeoffs_ : ndarray of shape (n_configs,)
        The trade-off of each configuration (the library's units; NaN without a trade-off).
    models_ : list of PeerModel
        One model per configuration, trained on the fit part.
    prefix_cost_, validation_error_ : list of ndarray
        Per configuration: the pay-once cost and the validation error of each prefix of its
        fit-part model (``k = 0 .. n_trees``).
    choice_ : Choice
        The (configuration, number of trees) of every budget, chosen on the validation part.
    refits_ : dict of int to PeerModel
        The chosen configurations trained on all training rows.
    refit_prefix_cost_, refit_prefix_n_groups_ : dict of int to ndarray
        Their prefixes' pay-once cost and number of groups.
    fit_rows_, validation_rows_ : ndarray of int
        Rows of the training ``X`` in the fit and validation parts.
    encoding_ : ColumnEncoding
        The columns given to the library (made from all training rows): a threshold
        attribute's indicators as one ordinal column, every other column as it is.
    n_bins_ : int
        The most distinct values of a library column on the training rows: the libraries
        are given at least that many bins (their defaults, 255 and 254, would merge the
        thresholds of an attribute with more values, e.g. Pima's under grouped costs: 420).
    seed_ : int
        The library's seed (the same for every model of the fit).
    """

    _tradeoff_name: ClassVar[str | None]
    _grid_names: ClassVar[tuple[str, ...]] = ("learning_rate",)
    #: Parameters of the trees that join the configurations when given as several values.
    _structure_names: ClassVar[tuple[str, ...]] = ()
    #: The parameter holding the trees' depth (:meth:`chosen_depths`).
    _depth_name: ClassVar[str]
    _n_trees_name: ClassVar[str]
    _relative_grid: ClassVar[tuple[float, ...]] = ()

    # ------------------------------------------------------------------ hooks
    def _tradeoff_scale(self, n_fit: int, mean_cost: float) -> float:
        raise NotImplementedError

    def _fit_models(
        self,
        X: np.ndarray,
        y01: np.ndarray,
        penalty: np.ndarray,
        configs: Sequence[dict],
        seed: int,
        n_trees: Sequence[int],
    ) -> list[PeerModel]:
        raise NotImplementedError

    # ------------------------------------------------------------------ fit
    def _grid(self, name: str) -> list:
        value = getattr(self, name)
        if value is None:
            return [None]
        if name in self._structure_names:  # integers stay integers (a depth)
            return np.atleast_1d(np.asarray(value)).tolist()
        return np.atleast_1d(np.asarray(value, dtype=float)).tolist()

    def _grid_parameters(self) -> tuple[str, ...]:
        """The parameters that vary over the configurations (besides the trade-off): those
        of ``_grid_names``, and each of ``_structure_names`` given as an array-like."""
        several = (name for name in self._structure_names if np.ndim(getattr(self, name)) > 0)
        return (*self._grid_names, *several)

    def _value(self, config: Mapping[str, Any] | None, name: str) -> Any:
        """A parameter of one configuration: its value in ``config`` where it is a grid
        parameter, else the estimator's (the first of a grid when no configuration is given:
        the library's data, built once for every configuration, do not depend on it)."""
        if config is not None and name in config:
            return config[name]
        value = getattr(self, name)
        return np.atleast_1d(np.asarray(value)).tolist()[0] if np.ndim(value) > 0 else value

    def _tradeoff_grid(self, n_fit: int, penalty: np.ndarray) -> list[float | None]:
        """The trade-offs to fit: the parameter, or the default grid scaled; ``[None]``
        for a peer without a trade-off."""
        if self._tradeoff_name is None:
            return [None]
        tradeoffs = getattr(self, self._tradeoff_name)
        if tradeoffs is None:
            positive = penalty[penalty > 0]
            mean_cost = float(positive.mean()) if positive.size else 1.0
            tradeoffs = np.asarray(self._relative_grid) * self._tradeoff_scale(n_fit, mean_cost)
        return np.atleast_1d(np.asarray(tradeoffs, dtype=np.float64)).tolist()

    def _configs(self, n_fit: int, penalty: np.ndarray) -> list[dict]:
        """Every trade-off (if any) with every value of each grid parameter: the trade-off
        varying slowest, then the learning rate, the depth and the regularisation."""
        names = self._grid_parameters()
        grids = [self._grid(name) for name in names]
        configs = []
        for tradeoff in self._tradeoff_grid(n_fit, penalty):
            for values in itertools.product(*grids):
                config = {} if tradeoff is None else {"tradeoff": float(tradeoff)}
                configs.append({**config, **dict(zip(names, values, strict=True))})
        return configs

    def _check_choices(self) -> None:
        check_validation_part(self.get_params(), self._choice_counts())

    def _choice_counts(self) -> dict[str, int]:
        """Per parameter chosen on validation, how many values it holds."""
        counts = {}
        if self._tradeoff_name is not None:  # None: the default grid
            tradeoffs = getattr(self, self._tradeoff_name)
            default = len(self._relative_grid)
            counts[self._tradeoff_name] = (
                default if tradeoffs is None else len(self._grid(self._tradeoff_name))
            )
        counts.update({name: len(self._grid(name)) for name in self._grid_parameters()})
        return counts

    def _fit(self, data: TrainingData) -> None:
        """The protocol (the library's data built once), then the refits' prefix costs."""
        self._check_choices()
        super()._fit(data)
        del self._library
        self.refit_prefix_cost_, self.refit_prefix_n_groups_ = {}, {}
        for index, model in self.refits_.items():
            cost, n_groups = self._prefix_costs(model)
            self.refit_prefix_cost_[index] = cost
            self.refit_prefix_n_groups_[index] = n_groups

    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[PeerModel]]:
        """One model per configuration on the fit part (the library's seed drawn first)."""
        self.seed_ = int(rng.integers(0, 2**31 - 1))
        self.encoding_ = ColumnEncoding.fit(data.X, data.group_of_column)
        self.group_cost_ = data.group_cost
        self.pricing_ = data.pricing
        penalty = data.group_cost[self.encoding_.group]  # full prices (module docstring)
        library = _LibraryData(
            self.encoding_.transform(data.X), (data.y > 0).astype(np.int32), penalty
        )
        self._library = library
        self.n_bins_ = most_distinct(library.X)
        self.configs_ = self._configs(fit_rows.size, penalty)
        n_trees = [int(getattr(self, self._n_trees_name))] * len(self.configs_)
        models = self._fit_models(
            library.X[fit_rows], library.y01[fit_rows], penalty, self.configs_, self.seed_, n_trees
        )
        return np.array([c.get("tradeoff", np.nan) for c in self.configs_]), models

    def _prefix_costs(self, model: PeerModel) -> tuple[np.ndarray, np.ndarray]:
        """Pay-once cost and group count of every prefix of ``model``'s trees."""
        groups = [np.unique(self.encoding_.group[c]) for c in model.tree_columns()]
        return _prefix_costs(groups, self.group_cost_, self.pricing_)

    def _candidates(self, index: int, model: PeerModel, data: TrainingData, rows: np.ndarray):
        """Every prefix of trees: its cost, validation error and log loss."""
        cost, _ = self._prefix_costs(model)
        yv = data.y[rows]
        empty = np.full((1, rows.size), self.majority_ * EMPTY_SCORE)
        staged = model.staged_scores(self._library.X[rows]).reshape(-1, rows.size)
        staged = np.vstack([empty, staged])
        error = ((staged > 0) != (yv > 0)).mean(axis=1)
        return np.arange(cost.size), cost, error, _log_loss(staged, yv)

    def _refit(self, data: TrainingData, chosen, sizes) -> list[PeerModel]:
        """The chosen configurations on all rows, each with its largest prefix's trees."""
        picked = [self.configs_[index] for index in chosen]
        library = self._library
        return self._fit_models(library.X, library.y01, library.penalty, picked, self.seed_, sizes)

    # ------------------------------------------------------------------ the choice
    def chosen_values(self, name: str, budgets: Any) -> np.ndarray:
        """The value of one parameter of the trees in the model used at each budget (NaN
        where the empty model is), e.g. ``"learning_rate"`` or the depth's parameter.

        Parameters
        ----------
        name : str
            A grid parameter, or any numeric parameter the trees are trained with (its one
            value then, wherever a model serves).
        budgets : float or array-like of float
            As in :meth:`chosen_tradeoffs`.

        Returns
        -------
        ndarray of shape (len(budgets),), float64
        """
        self._check_fitted()
        config, _ = self.choice_.at(self._capped(check_budgets(budgets)))
        values = np.array([float(self._value(c, name)) for c in self.configs_])
        return np.where(config >= 0, values[np.maximum(config, 0)], np.nan)

    def chosen_depths(self, budgets: Any) -> np.ndarray:
        """The depth of the trees used at each budget (NaN where the empty model is): the
        depth chosen on the validation part where the depth is a grid."""
        return self.chosen_values(self._depth_name, budgets)

    # ------------------------------------------------------------------ serving
    def _affordable(self, index: int, model: PeerModel, budgets: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.refit_prefix_cost_[index], budgets, side="right") - 1

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Raw scores of the refitted model served at each budget, and what it costs.

        ``spent`` is the pay-once cost of the groups its trees split on; the per-example
        costs are those of the groups on each example's paths (``PeerModel.example_costs``).
        """
        return super()._scores_and_costs(self.encoding_.transform(X), budgets)

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray | None:
        """What each example reads at each budget (``PeerModel.example_reads`` of the
        refit served there), on the library's columns of ``X``."""
        return super()._groups_read(self.encoding_.transform(X), budgets)

    def _serve_reads(self, index, model: PeerModel, X, budgets, sizes) -> np.ndarray:
        return model.example_reads(X, sizes, self.encoding_.group, self._n_groups())

    def _serve(self, index, model: PeerModel, X, budgets, sizes):
        n = X.shape[0]
        spent = self.refit_prefix_cost_[index][sizes]
        scores = np.empty((sizes.size, n))
        for n_trees in np.unique(sizes).tolist():
            scores[sizes == n_trees] = model.raw_scores(X, n_trees)
        paid = model.example_costs(X, sizes, self.encoding_.group, self.pricing_)
        if paid is None:
            mean_cost, max_cost = spent, spent
        else:  # <= spent, but for rounding: clip it there
            paid = np.minimum(paid, spent[:, None])
            mean_cost = paid.mean(axis=1) if n else np.zeros(sizes.size)
            max_cost = paid.max(axis=1) if n else np.zeros(sizes.size)
        costs = BudgetCosts(
            rounds=sizes,
            spent=spent,
            n_features=self.refit_prefix_n_groups_[index][sizes],
            mean_example_cost=mean_cost,
            max_example_cost=max_cost,
            nodes=np.zeros(sizes.size),
        )
        return scores, costs
