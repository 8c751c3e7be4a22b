"""Estimators written outside budgetboost, as a user would: ``"external_estimator:Class"``.

``CheapestStump`` is the example of :class:`budgetboost.BudgetedEstimator`'s docstring.
"""

from __future__ import annotations

import numpy as np

from budgetboost import BudgetCosts, BudgetedEstimator
from budgetboost.estimators.contract.base import FEATURE_COSTS, FEATURE_GROUPS


class CheapestStump(BudgetedEstimator):
    """A stump on the cheapest feature, paid for when the budget allows it."""

    _parameter_constraints = {"feature_costs": FEATURE_COSTS, "feature_groups": FEATURE_GROUPS}

    def __init__(self, feature_costs=None, feature_groups=None):
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups

    def _fit(self, data):
        cost = data.group_cost[data.group_of_column]
        self.feature_ = int(np.argmin(cost))
        self.cost_ = float(cost[self.feature_])
        x = data.X[:, self.feature_]
        self.threshold_ = float(np.median(x))
        above = x >= self.threshold_
        self.sign_ = 1.0 if (data.y[above].sum() - data.y[~above].sum()) >= 0 else -1.0

    def _scores_and_costs(self, X, budgets):
        paid = budgets >= self.cost_
        vote = np.where(X[:, self.feature_] >= self.threshold_, self.sign_, -self.sign_)
        scores = np.where(paid[:, None], vote, self.majority_)
        spent = np.where(paid, self.cost_, 0.0)
        return scores, BudgetCosts(
            rounds=paid,
            spent=spent,
            n_features=paid,
            mean_example_cost=spent,
            max_example_cost=spent,
            nodes=np.zeros(budgets.size),
        )


class DictEvaluation(CheapestStump):
    """Breaks the contract: ``evaluate_at_budgets`` returns a dict instead of the record (the
    pipeline never calls it, and planning refuses the class)."""

    def evaluate_at_budgets(self, X, y, budgets):
        return super().evaluate_at_budgets(X, y, budgets).as_dict()


# ------------------------------------------------------------------ contract breakers
# Each would win a comparison by breaking a rule if nothing checked it.


class Overspending(CheapestStump):
    """Reports ``spent = 10 B + 5`` at every budget: more than any budget allows."""

    def _scores_and_costs(self, X, budgets):
        scores, costs = super()._scores_and_costs(X, budgets)
        spent = np.where(np.isfinite(budgets), 10 * budgets + 5, 1.0)
        return scores, BudgetCosts(**{**costs.as_dict(), "spent": spent})


class NaNCosts(CheapestStump):
    """Reports NaN for every cost field (read as 0 or as a huge node count if unchecked)."""

    def _scores_and_costs(self, X, budgets):
        scores, costs = super()._scores_and_costs(X, budgets)
        return scores, BudgetCosts(**{k: np.full(budgets.size, np.nan) for k in costs.as_dict()})


class NaNScores(CheapestStump):
    """Scores NaN at every budget (read as the class of ``score <= 0`` if unchecked)."""

    def _scores_and_costs(self, X, budgets):
        scores, costs = super()._scores_and_costs(X, budgets)
        return np.full_like(scores, np.nan), costs


class OverspendingRecord(CheapestStump):
    """Keeps ``_scores_and_costs`` honest but rewrites the record ``evaluate_at_budgets``
    returns (the pipeline computes what it stores from the hook: the record never enters)."""

    def evaluate_at_budgets(self, X, y, budgets):
        from budgetboost import BudgetEvaluation

        record = super().evaluate_at_budgets(X, y, budgets).as_dict()
        return BudgetEvaluation(**{**record, "spent": record["spent"] + 100.0})
