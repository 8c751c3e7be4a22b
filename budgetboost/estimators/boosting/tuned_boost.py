"""The paper's boosters under the protocol of every tuned method: :class:`TunedBoost`.

The paper's boosters choose nothing on held-out rows: Smoothed runs with ``tau = 1`` and
every budget gets the longest affordable prefix of the path. The library peers, and the
cost-sensitive tree, choose their trade-off and the size of their model per budget on a
validation part of the training rows, then refit on all of them
(:mod:`budgetboost.estimators.contract.tuning`). A comparison of the two is fair only when both
sides
may tune: :class:`TunedBoost` is :class:`~budgetboost.estimators.boosting.booster.BudgetedBoost`
with
``tau`` (Eq. 2) and the number of rounds chosen per budget the same way.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np

from ..contract.base import (
    BUDGET,
    PRICES,
    RANDOM_STATE,
    TrainingData,
)
from ..contract.params import Interval, Options
from ..contract.tuning import TunedEstimator, UnitGrid
from .booster import MAX_TREE_DEPTH, WEAK_LEARNERS, BudgetedBoost
from .criteria import CRITERION_NAMES

__all__ = ["TunedBoost"]


class TunedBoost(TunedEstimator):
    """BudgetedBoost with ``tau`` and the prefix chosen per budget on a validation part.

    Per fit: the training rows are split, stratified by class, into a fit part and a
    validation part (``validation_fraction``, seeded by ``random_state``); one
    :class:`~budgetboost.estimators.boosting.booster.BudgetedBoost` per value of ``tau`` is boosted
    on
    the fit part, and every prefix of every path (its first ``k`` rounds, ``k = 0`` the
    majority vote) is a candidate with the cost of its feature groups and its error on the
    validation part. At each budget ``B`` the candidate with the lowest validation error among
    those costing at most ``B`` is chosen (ties: lower exponential loss, lower cost, fewer
    rounds, earlier ``tau``). Each ``tau`` chosen at some budget is boosted again on all
    training rows, and budget ``B`` uses its first ``k`` rounds, or fewer where the refitted
    path reaches ``B`` sooner (:mod:`budgetboost.estimators.contract.tuning`).

    Parameters
    ----------
    criterion, max_rounds, switch, weak_learner, max_depth, budget, feature_costs, \
feature_groups, discount_groups, discount_costs
        As :class:`~budgetboost.estimators.boosting.booster.BudgetedBoost` (every path, and so every
        candidate's cost, is priced with the discount groups).
    tau : float in (0, 1] or array-like of them, default=(1/8, 1/4, 1/2, 1)
        The scale of the spent budget in Eq. 2 (``smoothed``, ``hybrid``), one value or a
        grid to choose from; other criteria ignore it (give one value).
    validation_fraction : float in (0, 1), default=0.25
        Share of each class of the training rows held out to choose (each class keeps at
        least one fit row; on tiny data with no validation row the fit part chooses).
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None
        Seeds the validation split (the pipeline sets it per trial).

    Attributes
    ----------
    tradeoffs_ : ndarray
        The ``tau`` values fitted (:meth:`chosen_tradeoffs` gives each budget's).
    models_ : list of BudgetedBoost
        One path per ``tau``, boosted on the fit part.
    refits_ : dict of int to BudgetedBoost
        The chosen ``tau`` values' paths boosted on all training rows, by index of
        ``tradeoffs_``.
    choice_ : Choice
        The (``tau`` index, rounds) of every budget, chosen on the validation part.
    prefix_cost_, validation_error_ : list of ndarray
        Cost and validation error of every prefix of every fit-part path.
    fit_rows_, validation_rows_ : ndarray of int

    References
    ----------
    Y. Huang, B. Powers, L. Reyzin. Training-Time Optimization of a Budgeted Booster. IJCAI
    2015 (Algorithm 1, Eq. 2).
    """

    label = "Budgeted boosting, tuned"
    family = "boosting"

    conformance_cases = {"smoothed": {"criterion": "smoothed", "max_rounds": 20}}
    _parameter_constraints = {
        "criterion": [Options(CRITERION_NAMES)],
        "budget": BUDGET,
        "max_rounds": [Interval(Integral, 1, None, closed="left")],
        "tau": [Interval(Real, 0, 1, closed="right"), UnitGrid()],
        "switch": [Interval(Real, 0, np.inf, closed="neither")],
        "weak_learner": [Options(tuple(WEAK_LEARNERS))],
        "max_depth": [Interval(Integral, 1, MAX_TREE_DEPTH, closed="both")],
        "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
        "random_state": RANDOM_STATE,
        **PRICES,
    }

    def __init__(
        self,
        criterion: str = "smoothed",
        budget: float | None = None,
        max_rounds: int = 500,
        tau=(0.125, 0.25, 0.5, 1.0),
        switch: float = 0.5,
        weak_learner: str = "stump",
        max_depth: int = 2,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.criterion = criterion
        self.budget = budget
        self.max_rounds = max_rounds
        self.tau = tau
        self.switch = switch
        self.weak_learner = weak_learner
        self.max_depth = max_depth
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    def _booster(self, tau: float, max_rounds: int) -> BudgetedBoost:
        return BudgetedBoost(
            criterion=self.criterion,
            budget=self.budget,
            max_rounds=max_rounds,
            tau=float(tau),
            switch=self.switch,
            weak_learner=self.weak_learner,
            max_depth=self.max_depth,
            feature_costs=self.feature_costs,
            feature_groups=self.feature_groups,
            discount_groups=self.discount_groups,
            discount_costs=self.discount_costs,
        )

    # ------------------------------------------------------------------ the protocol's steps
    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[BudgetedBoost]]:
        """One path per ``tau``, boosted on the fit part."""
        taus = np.unique(np.atleast_1d(np.asarray(self.tau, dtype=np.float64)))
        X, y = data.X[fit_rows], data.y[fit_rows]
        return taus, [self._booster(tau, int(self.max_rounds)).fit(X, y) for tau in taus.tolist()]

    def _candidates(self, index: int, model: BudgetedBoost, data: TrainingData, rows: np.ndarray):
        """Every prefix of the path: its groups' cost, validation error and exponential loss."""
        sizes = np.arange(model.alpha_.size + 1)
        margin = model._scores_at(data.X[rows], sizes) * data.y[rows]
        error = (margin <= 0).mean(axis=1)
        loss = np.exp(-np.clip(margin, -50, 50)).mean(axis=1)
        return sizes, np.concatenate([[0.0], model.spent_]), error, loss

    def _refit(self, data: TrainingData, chosen, sizes) -> list[BudgetedBoost]:
        return [
            self._booster(self.tradeoffs_[index], rounds).fit(data.X, data.y)
            for index, rounds in zip(chosen, sizes, strict=True)
        ]

    def _affordable(self, index: int, model: BudgetedBoost, budgets: np.ndarray) -> np.ndarray:
        return model.rounds_at_budgets(budgets)

    def _serve(self, index, model: BudgetedBoost, X, budgets, sizes):
        """The refitted path's first rounds (costs as ``BudgetedBoost``'s)."""
        return model._at_rounds(X, sizes)

    def _serve_reads(self, index, model: BudgetedBoost, X, budgets, sizes):
        """The groups of the refitted path's first rounds."""
        return model._reads_at_rounds(X, sizes)
