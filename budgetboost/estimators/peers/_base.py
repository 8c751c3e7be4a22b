"""What the library peers share: a grid of configurations, prefixes of trees, a choice per budget.

A peer wraps a gradient-boosting library whose split search can be charged for using a
feature (LightGBM's cost-effective gradient boosting, CatBoost's feature penalties). It
follows the protocol of every tuned estimator (:mod:`budgetboost.estimators.tuning`):

1. One model per *configuration* (a trade-off of the library's penalty, and a learning rate)
   is trained on the *fit part* of the training rows. Every prefix of ``k`` trees of every
   model is a candidate whose cost is the pay-once cost of the feature groups its trees
   split on, by this project's accounting (``feature_costs`` summed per group, each group
   once), whatever the library was told. At a budget ``B`` the candidate with the lowest
   error on the *validation part* among those costing at most ``B`` is chosen; the choice is
   a step function of the budget fixed at fit time (:attr:`PeerBooster.choice_`).
2. Each configuration chosen at some budget is trained again on all training rows, with as
   many trees as the largest prefix chosen of it.
3. Budget ``B`` is served by that refitted model's first ``k`` trees, or by fewer where the
   refitted trees reach ``B`` sooner: no budget is ever exceeded.

Under a grouped cost model the library is given one ordinal column per attribute of
threshold indicators, not the indicators (:class:`~._columns.ColumnEncoding`): the same
splits, one penalty per feature group (heart with Turney's costs: 371 columns become 13).
Ungrouped columns reach it unchanged.

A library module implements a :class:`PeerModel` (what the benchmark reads of one trained
model) and the hooks of :class:`PeerBooster`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from ..base import BudgetCosts, BudgetedEstimator, TrainingData
from ..params import Constraint, InvalidParameterError
from ..tuning import choose, validation_split
from ..validation import check_budgets
from ._columns import ColumnEncoding

__all__ = ["LibraryParams", "PeerBooster", "PeerModel"]

#: The empty model (no tree) predicts the training majority class with this score.
EMPTY_SCORE = 1e-10


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
    columns of :attr:`PeerBooster.encoding_`)."""

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
        self, X: np.ndarray, n_trees: np.ndarray, column_group: np.ndarray, group_cost: np.ndarray
    ) -> np.ndarray | None:
        """What each example pays for the groups on its decision paths through each prefix,
        (len(n_trees), n_samples); ``None`` when every example reads every split."""
        return None


def _log_loss(scores: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mean logistic loss ``log(1 + exp(-y s))`` along the last axis (``y`` in -1/+1)."""
    return np.logaddexp(0.0, -scores * y).mean(axis=-1)


def _prefix_costs(trees: list[np.ndarray], group_cost: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Pay-once cost and group count of every prefix ``0..len(trees)`` (trees as groups)."""
    paid = np.zeros(group_cost.size, dtype=bool)
    cost = np.zeros(len(trees) + 1)
    n_groups = np.zeros(len(trees) + 1)
    for k, groups in enumerate(trees, start=1):
        new = groups[~paid[groups]]
        paid[new] = True
        cost[k] = cost[k - 1] + group_cost[new].sum()
        n_groups[k] = n_groups[k - 1] + new.size
    return cost, n_groups


class PeerBooster(BudgetedEstimator):
    """Base of the library peers: a grid of configurations, prefixes, a choice per budget.

    Subclasses declare ``_tradeoff_name`` (the library's trade-off parameter) and
    ``_relative_grid`` (the default grid, in units of :meth:`_tradeoff_scale`), store the
    parameters ``learning_rate``, ``validation_fraction``, ``random_state``,
    ``feature_costs``, ``feature_groups``, the trade-off parameter and the number of trees
    (``_n_trees_name``), and implement two hooks:

    - ``_tradeoff_scale(n_fit, mean_cost) -> float``: the default grid's unit;
    - ``_fit_models(X, y01, penalty, configs, seed, n_trees) -> list of PeerModel``: one
      trained model per configuration (a dict with the trade-off under ``"tradeoff"`` and
      ``"learning_rate"``) of ``n_trees[i]`` trees, on the rows given (``y01`` 0/1,
      ``penalty`` one cost per column), the library's data built once for all of them.

    Attributes
    ----------
    configs_ : list of dict
        The configurations fitted: every trade-off with every learning rate.
    tradeoffs_ : ndarray of shape (n_configs,)
        The trade-off of each configuration (the library's units).
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
    seed_ : int
        The library's seed (the same for every model of the fit).
    """

    _tradeoff_name: ClassVar[str]
    _n_trees_name: ClassVar[str]
    _relative_grid: ClassVar[tuple[float, ...]]

    @classmethod
    def tunes(cls, params: Mapping[str, Any]) -> bool:
        """The peers choose their trade-off, learning rate and trees on a validation part."""
        return params.get("validation_fraction", 0.25) > 0

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
        return [None] if value is None else np.atleast_1d(np.asarray(value, dtype=float)).tolist()

    def _configs(self, n_fit: int, penalty: np.ndarray) -> list[dict]:
        """Every trade-off (the parameter, or the default grid scaled) with every rate."""
        tradeoffs = getattr(self, self._tradeoff_name)
        if tradeoffs is None:
            positive = penalty[penalty > 0]
            mean_cost = float(positive.mean()) if positive.size else 1.0
            tradeoffs = np.asarray(self._relative_grid) * self._tradeoff_scale(n_fit, mean_cost)
        tradeoffs = np.atleast_1d(np.asarray(tradeoffs, dtype=np.float64))
        return [
            {"tradeoff": float(t), "learning_rate": rate}
            for t, rate in itertools.product(tradeoffs.tolist(), self._grid("learning_rate"))
        ]

    def _check_choices(self) -> None:
        tradeoffs = getattr(self, self._tradeoff_name)  # None: the default grid
        several = tradeoffs is None or len(self._grid(self._tradeoff_name)) > 1
        several = several or len(self._grid("learning_rate")) > 1
        if float(self.validation_fraction) == 0 and several:
            raise InvalidParameterError(
                "validation_fraction",
                f"must be > 0 to choose among several values of {self._tradeoff_name} or "
                "learning_rate (give one value of each, or a validation part)",
            )

    def _fit(self, data: TrainingData) -> None:
        """Fit the grid on the fit part, choose per budget, refit the chosen on all rows."""
        self._check_choices()
        fraction = float(self.validation_fraction)
        rng = np.random.default_rng(self.random_state)
        fit_rows, validation_rows = validation_split(data.y, fraction, rng)
        seed = int(rng.integers(0, 2**31 - 1))
        encoding = ColumnEncoding.fit(data.X, data.group_of_column)
        X = encoding.transform(data.X)
        penalty = data.group_cost[encoding.group]
        y01 = (data.y > 0).astype(np.int32)
        configs = self._configs(fit_rows.size, penalty)
        n_trees = [int(getattr(self, self._n_trees_name))] * len(configs)
        models = self._fit_models(X[fit_rows], y01[fit_rows], penalty, configs, seed, n_trees)
        # no validation part (tiny data): choose on the fit part
        rows = validation_rows if validation_rows.size else fit_rows
        yv = data.y[rows]
        candidates, costs, errors = [], [], []
        for index, model in enumerate(models):
            groups = [np.unique(encoding.group[c]) for c in model.tree_columns()]
            cost, _ = _prefix_costs(groups, data.group_cost)
            empty = np.full((1, rows.size), self.majority_ * EMPTY_SCORE)
            staged = np.vstack([empty, model.staged_scores(X[rows]).reshape(-1, rows.size)])
            error = ((staged > 0) != (yv > 0)).mean(axis=1)
            size = np.arange(cost.size)
            if fraction == 0:  # nothing held out: the longest affordable prefix
                error, loss = -size.astype(float), np.zeros(size.size)
            else:
                loss = _log_loss(staged, yv)
            candidates.append((np.where(size > 0, index, -1), size, cost, error, loss))
            costs.append(cost)
            errors.append(error)
        config, size, cost, error, loss = (np.concatenate(c) for c in zip(*candidates, strict=True))
        choice = choose(config, size, cost, error, loss)

        self.configs_ = configs
        self.tradeoffs_ = np.array([c["tradeoff"] for c in configs])
        self.models_ = models
        self.prefix_cost_, self.validation_error_ = costs, errors
        self.choice_ = choice
        self.seed_ = seed
        self.fit_rows_, self.validation_rows_ = fit_rows, validation_rows
        self.encoding_ = encoding
        self.group_cost_ = data.group_cost
        self.refits_, self.refit_prefix_cost_, self.refit_prefix_n_groups_ = {}, {}, {}
        chosen = np.unique(choice.config[choice.config >= 0]).tolist()
        if fit_rows.size == data.y.size:  # nothing held out: the models are the refits
            refits = [models[index] for index in chosen]
        else:  # each with as many trees as its largest prefix chosen
            most = [int(choice.size[choice.config == index].max()) for index in chosen]
            picked = [configs[index] for index in chosen]
            refits = self._fit_models(X, y01, penalty, picked, seed, most) if chosen else []
        for index, model in zip(chosen, refits, strict=True):
            groups = [np.unique(encoding.group[c]) for c in model.tree_columns()]
            cost, n_groups = _prefix_costs(groups, data.group_cost)
            self.refits_[index] = model
            self.refit_prefix_cost_[index] = cost
            self.refit_prefix_n_groups_[index] = n_groups

    # ------------------------------------------------------------------ choice
    def chosen_tradeoffs(self, budgets: Any) -> np.ndarray:
        """The trade-off of the model used at each budget (NaN where no tree is affordable).

        Parameters
        ----------
        budgets : float or array-like of float
            Numbers >= 0 in any order; ``inf`` is the fitted model.

        Returns
        -------
        ndarray of shape (len(budgets),), float64
            Values of the library's trade-off parameter, chosen on the validation part; the
            number of trees is ``rounds`` of :meth:`evaluate_at_budgets`.
        """
        self._check_fitted()
        config, _ = self.choice_.at(check_budgets(budgets))
        return np.where(config >= 0, self.tradeoffs_[np.maximum(config, 0)], np.nan)

    def _served(self, budgets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The configuration and number of refitted trees used at each budget."""
        config, size = self.choice_.at(budgets)
        trees = np.zeros(budgets.size, dtype=np.intp)
        for index, cost in self.refit_prefix_cost_.items():
            rows = config == index
            affordable = np.searchsorted(cost, budgets[rows], side="right") - 1
            trees[rows] = np.minimum(size[rows], affordable)
        return config, trees

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Raw scores of the refitted model served at each budget, and what it costs.

        ``spent`` is the pay-once cost of the groups its trees split on; the per-example
        costs are those of the groups on each example's paths (``PeerModel.example_costs``).
        """
        X = self.encoding_.transform(X)
        config, trees = self._served(budgets)
        n = X.shape[0]
        spent, n_groups = np.zeros(budgets.size), np.zeros(budgets.size)
        scores = np.full((budgets.size, n), self.majority_ * EMPTY_SCORE)
        mean_cost, max_cost = np.zeros(budgets.size), np.zeros(budgets.size)
        for index, model in self.refits_.items():
            rows = np.flatnonzero((config == index) & (trees > 0))
            if not rows.size:
                continue
            k = trees[rows]
            spent[rows] = self.refit_prefix_cost_[index][k]
            n_groups[rows] = self.refit_prefix_n_groups_[index][k]
            for n_trees in np.unique(k).tolist():
                scores[rows[k == n_trees]] = model.raw_scores(X, n_trees)
            paid = model.example_costs(X, k, self.encoding_.group, self.group_cost_)
            if paid is None:
                mean_cost[rows], max_cost[rows] = spent[rows], spent[rows]
            else:  # <= spent, but for rounding: clip it there
                paid = np.minimum(paid, spent[rows, None])
                mean_cost[rows] = paid.mean(axis=1) if n else 0.0
                max_cost[rows] = paid.max(axis=1) if n else 0.0
        costs = BudgetCosts(
            rounds=trees,
            spent=spent,
            n_features=n_groups,
            mean_example_cost=mean_cost,
            max_example_cost=max_cost,
            nodes=np.zeros(budgets.size),
        )
        return scores, costs
