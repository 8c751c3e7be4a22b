"""What the library peers share: a grid of trade-offs, prefixes of trees, a choice per budget.

A peer wraps a gradient-boosting library whose split search can be charged for using a
feature (LightGBM's cost-effective gradient boosting, CatBoost's feature penalties). Per fit
it trains one model per trade-off of a grid on the *fit part* of the training rows; every
prefix of ``k`` trees of every model is a candidate classifier whose cost is the pay-once
cost of the feature groups its trees split on, by this project's accounting
(``feature_costs`` summed per group, each group once), whatever the library was told. At a
budget ``B`` the peer uses the candidate with the lowest error on the *validation part* of
the training rows among those costing at most ``B``. The choice is a step function of the
budget fixed at fit time (:attr:`PeerBooster.choice_budgets_`): test rows take no part in it.

Under a grouped cost model the library is given one ordinal column per attribute of threshold
indicators, not the indicators (:class:`~budgetboost.estimators.peers._columns.ColumnEncoding`): the
same splits, one penalty per feature group (heart with Turney's costs: 371 columns become 13).
Ungrouped columns reach it unchanged.

A library module implements five hooks (see :class:`PeerBooster`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from ..base import BudgetCosts, BudgetedEstimator, TrainingData
from ..params import (
    Constraint,
    InvalidParameterError,
)
from ..tuning import validation_split
from ..validation import check_budgets
from ._columns import ColumnEncoding

__all__ = ["LibraryParams", "PeerBooster"]

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


def _log_loss(scores: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mean logistic loss ``log(1 + exp(-y s))`` along the last axis (``y`` in -1/+1)."""
    return np.logaddexp(0.0, -scores * y).mean(axis=-1)


class PeerBooster(BudgetedEstimator):
    """Base of the library peers: a trade-off grid, prefixes, a choice per budget.

    Subclasses declare ``_tradeoff_name`` (the library's trade-off parameter) and
    ``_relative_grid`` (the default grid, in units of :meth:`_tradeoff_scale`), store the
    parameters ``validation_fraction``, ``random_state``, ``feature_costs``,
    ``feature_groups`` and the trade-off parameter, and implement the hooks below. Every
    ``X`` a hook receives holds the *library columns* (:attr:`encoding_`), and every column
    index it returns is one of them:

    - ``_tradeoff_scale(n_fit, mean_cost) -> float``: the default grid's unit;
    - ``_fit_models(X, y01, penalty, tradeoffs, seed) -> list``: one fitted library model
      per trade-off, on the fit part (``y01`` 0/1, ``penalty`` one cost per column);
    - ``_tree_columns(m) -> list of int arrays``: the columns each tree of model ``m``
      (an index into ``models_``) splits on;
    - ``_staged_scores(m, X) -> ndarray (n_trees, n_samples)``: raw scores of every prefix
      (on the validation part);
    - ``_raw_scores(m, X, n_trees) -> ndarray (n_samples,)``: the library's own raw score
      of the first ``n_trees`` trees;
    - ``_example_costs(m, X, n_trees) -> ndarray (len(n_trees), n_samples) or None``: what
      each example pays for the groups on its decision paths through each prefix; ``None``
      when every example reads every split of a prefix (it pays ``spent``).

    Attributes
    ----------
    n_trees_ : ndarray of shape (n_tradeoffs,)
        Trees of each model.
    tree_groups_ : list of lists of ndarray
        ``tree_groups_[m][t]``: the feature groups tree ``t`` of model ``m`` splits on.
    prefix_cost_, prefix_n_groups_ : ndarray of shape (n_tradeoffs, max(n_trees_) + 1)
        Pay-once cost and number of the groups of the first ``k`` trees (column ``k``; NaN
        beyond a model's trees).
    validation_error_, validation_loss_ : ndarray of the same shape
        Error and mean log loss of each prefix on the validation part (NaN without one).
    choice_budgets_, choice_tradeoff_index_, choice_n_trees_ : ndarray of shape (n_steps,)
        The choice as a step function of the budget: from budget ``choice_budgets_[s]``
        (increasing, the first 0) up to the next, the model used is the first
        ``choice_n_trees_[s]`` trees of ``models_[choice_tradeoff_index_[s]]`` (-1 and 0:
        the empty model). :meth:`chosen_tradeoffs` reads it per budget.
    fit_rows_, validation_rows_ : ndarray of int
        Rows of the training ``X`` in the fit and validation parts.
    encoding_ : ColumnEncoding
        The columns given to the library, made from the fit part: a threshold attribute's
        indicators as one ordinal column, every other column as it is.
    """

    _tradeoff_name: ClassVar[str]
    _relative_grid: ClassVar[tuple[float, ...]]

    # ------------------------------------------------------------------ hooks
    def _tradeoff_scale(self, n_fit: int, mean_cost: float) -> float:
        raise NotImplementedError

    def _fit_models(
        self, X: np.ndarray, y01: np.ndarray, penalty: np.ndarray, tradeoffs: np.ndarray, seed: int
    ) -> list[Any]:
        raise NotImplementedError

    def _tree_columns(self, m: int) -> list[np.ndarray]:
        raise NotImplementedError

    def _staged_scores(self, m: int, X: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def _raw_scores(self, m: int, X: np.ndarray, n_trees: int) -> np.ndarray:
        raise NotImplementedError

    def _example_costs(self, m: int, X: np.ndarray, n_trees: np.ndarray) -> np.ndarray | None:
        raise NotImplementedError

    # ------------------------------------------------------------------ fit
    def _tradeoff_grid(self, n_fit: int, penalty: np.ndarray) -> np.ndarray:
        """The trade-offs to fit: the parameter as given, or the default grid scaled."""
        value = getattr(self, self._tradeoff_name)
        if value is not None:
            return np.atleast_1d(np.asarray(value, dtype=np.float64)).copy()
        positive = penalty[penalty > 0]
        mean_cost = float(positive.mean()) if positive.size else 1.0
        return np.asarray(self._relative_grid) * self._tradeoff_scale(n_fit, mean_cost)

    def _fit(self, data: TrainingData) -> None:
        """Fit one model per trade-off on the fit part and fix the choice per budget."""
        fraction = float(self.validation_fraction)
        grid = getattr(self, self._tradeoff_name)
        if fraction == 0 and (grid is None or np.atleast_1d(np.asarray(grid)).size > 1):
            raise InvalidParameterError(
                "validation_fraction",
                f"must be > 0 to choose among several values of {self._tradeoff_name} "
                "(give one value for a fixed trade-off, or a validation part)",
            )
        rng = np.random.default_rng(self.random_state)
        fit_rows, validation_rows = validation_split(data.y, fraction, rng)
        seed = int(rng.integers(0, 2**31 - 1))
        encoding = ColumnEncoding.fit(data.X[fit_rows], data.group_of_column)
        penalty = data.group_cost[encoding.group]
        tradeoffs = self._tradeoff_grid(fit_rows.size, penalty)
        y01 = (data.y > 0).astype(np.int32)
        Xf = encoding.transform(data.X[fit_rows])
        self.encoding_ = encoding
        models = self._fit_models(Xf, y01[fit_rows], penalty, tradeoffs, seed)

        self.tradeoffs_ = tradeoffs
        self.models_ = models
        self.seed_ = seed
        self.fit_rows_ = fit_rows
        self.validation_rows_ = validation_rows
        self.group_of_column_ = data.group_of_column
        self.group_cost_ = data.group_cost
        self.tree_groups_ = [
            [np.unique(encoding.group[cols]) for cols in self._tree_columns(m)]
            for m in range(len(models))
        ]
        self.n_trees_ = np.array([len(trees) for trees in self.tree_groups_], dtype=np.intp)
        width = int(self.n_trees_.max()) + 1
        shape = (len(models), width)
        self.prefix_cost_ = np.full(shape, np.nan)
        self.prefix_n_groups_ = np.full(shape, np.nan)
        self.validation_error_ = np.full(shape, np.nan)
        self.validation_loss_ = np.full(shape, np.nan)
        # no validation part (tiny data): choose on the fit part
        rows = validation_rows if validation_rows.size else fit_rows
        Xv, yv = encoding.transform(data.X[rows]), data.y[rows]
        empty = np.full(rows.size, self.majority_ * EMPTY_SCORE)
        for m, trees in enumerate(self.tree_groups_):
            cost, n_groups = self._prefix_costs(trees, data.group_cost)
            self.prefix_cost_[m, : cost.size] = cost
            self.prefix_n_groups_[m, : cost.size] = n_groups
            if fraction > 0:
                staged = np.vstack([empty, self._staged_scores(m, Xv).reshape(-1, rows.size)])
                self.validation_error_[m, : cost.size] = ((staged > 0) != (yv > 0)).mean(axis=1)
                self.validation_loss_[m, : cost.size] = _log_loss(staged, yv)
        self._choose(fraction > 0)

    @staticmethod
    def _prefix_costs(
        trees: list[np.ndarray], group_cost: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Pay-once cost and group count of every prefix ``0..len(trees)``."""
        paid = np.zeros(group_cost.size, dtype=bool)
        cost = np.zeros(len(trees) + 1)
        n_groups = np.zeros(len(trees) + 1)
        for k, groups in enumerate(trees, start=1):
            new = groups[~paid[groups]]
            paid[new] = True
            cost[k] = cost[k - 1] + group_cost[new].sum()
            n_groups[k] = n_groups[k - 1] + new.size
        return cost, n_groups

    def _choose(self, validated: bool) -> None:
        """The best candidate (trade-off, prefix) at every budget, as a step function.

        Candidates are every prefix of every model plus the empty model (trade-off -1).
        With a validation part they are ranked by validation error, then validation log
        loss, then cost, prefix length and trade-off index; without one (a single
        trade-off) by prefix length, longest first. At budget ``B`` the best-ranked
        candidate costing at most ``B`` is used.
        """
        t_index, k = np.nonzero(np.isfinite(self.prefix_cost_[:, 1:]))
        k = k + 1
        cand_t = np.concatenate([[-1], t_index])
        cand_k = np.concatenate([[0], k])
        cand_cost = np.concatenate([[0.0], self.prefix_cost_[t_index, k]])
        if validated:
            err = np.concatenate(
                [[self.validation_error_[0, 0]], self.validation_error_[t_index, k]]
            )
            loss = np.concatenate(
                [[self.validation_loss_[0, 0]], self.validation_loss_[t_index, k]]
            )
            order = np.lexsort((cand_t, cand_k, cand_cost, loss, err))
        else:
            order = np.lexsort((cand_t, cand_cost, -cand_k))
        rank = np.empty_like(order)
        rank[order] = np.arange(order.size)
        by_cost = np.lexsort((rank, cand_cost))
        best = np.minimum.accumulate(rank[by_cost])
        change = np.concatenate([[True], best[1:] != best[:-1]])
        chosen = order[best[change]]
        self.choice_budgets_ = cand_cost[by_cost][change]
        self.choice_tradeoff_index_ = cand_t[chosen]
        self.choice_n_trees_ = cand_k[chosen]

    # ------------------------------------------------------------------ choice
    def _steps(self, budgets: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.choice_budgets_, budgets, side="right") - 1

    def chosen_tradeoffs(self, budgets: Any) -> np.ndarray:
        """The trade-off of the model used at each budget (NaN where no tree is affordable).

        Parameters
        ----------
        budgets : float or array-like of float
            Numbers >= 0 in any order; ``inf`` is the fitted model.

        Returns
        -------
        ndarray of shape (len(budgets),), float64
            Values of the library's trade-off parameter (one of ``tradeoffs_``), chosen on
            the validation part; the number of trees is ``rounds`` of
            :meth:`evaluate_at_budgets`.
        """
        self._check_fitted()
        index = self.choice_tradeoff_index_[self._steps(check_budgets(budgets))]
        return np.where(index >= 0, self.tradeoffs_[np.maximum(index, 0)], np.nan)

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Raw scores of the model chosen at each budget, and what it costs.

        ``spent`` is the pay-once cost of the groups its trees split on; the per-example
        costs are those of the groups on each example's paths (hook ``_example_costs``).
        """
        X = self.encoding_.transform(X)
        steps = self._steps(budgets)
        t = self.choice_tradeoff_index_[steps]
        k = self.choice_n_trees_[steps]
        n = X.shape[0]
        spent = np.where(k > 0, self.prefix_cost_[np.maximum(t, 0), k], 0.0)
        n_groups = np.where(k > 0, self.prefix_n_groups_[np.maximum(t, 0), k], 0.0)
        scores = np.full((budgets.size, n), self.majority_ * EMPTY_SCORE)
        mean_cost, max_cost = spent.copy(), spent.copy()
        for m in np.unique(t[k > 0]).tolist():
            rows = np.flatnonzero((t == m) & (k > 0))
            for n_trees in np.unique(k[rows]).tolist():
                scores[rows[k[rows] == n_trees]] = self._raw_scores(m, X, n_trees)
            example_cost = self._example_costs(m, X, k[rows])
            if example_cost is not None:  # <= spent, but for rounding: clip it there
                example_cost = np.minimum(example_cost, spent[rows, None])
                mean_cost[rows] = example_cost.mean(axis=1)
                max_cost[rows] = example_cost.max(axis=1)
        costs = BudgetCosts(
            rounds=k,
            spent=spent,
            n_features=n_groups,
            mean_example_cost=mean_cost,
            max_example_cost=max_cost,
            nodes=np.zeros(budgets.size),
        )
        return scores, costs
