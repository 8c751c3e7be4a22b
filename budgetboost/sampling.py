"""AdaBoostRS: AdaBoost with budgeted random sampling of its hypotheses at test time.

Reyzin (2011) trains plain AdaBoost, ignoring costs, and predicts each test example with a
vote of hypotheses drawn i.i.d. from the ensemble, paying for each new feature, until the
budget would not cover the most expensive hypothesis (``spent + max_i c(h_i) < B``, the
poster's loop condition). Each example's draws form one seeded sequence; every budget reads
a prefix of it, so the whole budget grid costs one sampling pass.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from ._params import Boolean, Interval
from ._validation import check_budgets
from .base import (
    BUDGET,
    FEATURE_COSTS,
    FEATURE_GROUPS,
    RANDOM_STATE,
    BudgetCosts,
    BudgetedEstimator,
    TrainingData,
)
from .boosting import ADABOOST_PATH, VOTE_TIE, BoostPath, boost_path, path_for
from .stumps import stump_outputs

__all__ = ["AdaBoostRS", "MIN_COST"]

#: Costs below this are raised to it when they weight samples and votes (RS_AC), so a free
#: hypothesis is drawn often but not with infinite probability.
MIN_COST = 1e-6
#: Examples sampled together, and draws per example per step of the sampling loop: memory
#: stays at a few arrays of _ROW_BLOCK x _DRAW_CHUNK.
_ROW_BLOCK = 1024
_DRAW_CHUNK = 64


def _alias_table(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vose's alias table of a distribution ``p``: ``(probability, alias)`` per slot.

    A loop over the ensemble's hypotheses (not examples), run once per prediction call.
    """
    n = p.size
    scaled = p * n
    prob = np.ones(n)
    alias = np.arange(n)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s, big = small.pop(), large.pop()
        prob[s], alias[s] = scaled[s], big
        scaled[big] += scaled[s] - 1.0
        (small if scaled[big] < 1.0 else large).append(big)
    return prob, alias


def _alias_draws(rng: np.random.Generator, table: tuple[np.ndarray, np.ndarray],
                 shape: tuple[int, int]) -> np.ndarray:
    """Indices drawn i.i.d. with Walker's alias method: O(1) per draw.

    One uniform per draw: its integer part picks a slot, its fractional part decides
    between the slot and the slot's alias.
    """
    prob, alias = table
    scaled = rng.random(shape) * prob.size
    slot = np.minimum(scaled.astype(np.intp), prob.size - 1)
    return np.where(scaled - slot < prob[slot], slot, alias[slot])


def _first_draws(group: np.ndarray) -> np.ndarray:
    """Mask of the first draw of each group in each row (a stable sort per row)."""
    order = np.argsort(group, axis=1, kind="stable")
    ranked = np.take_along_axis(group, order, axis=1)
    first = np.ones(group.shape, dtype=bool)
    first[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
    out = np.empty(group.shape, dtype=bool)
    np.put_along_axis(out, order, first, axis=1)
    return out


class AdaBoostRS(BudgetedEstimator):
    """AdaBoost with test-time random sampling (AdaBoostRS and AdaBoostRS_AC, Reyzin 2011).

    Parameters
    ----------
    n_rounds : int, default=500
        Rounds of plain AdaBoost (stumps, costs ignored) trained by ``fit``.
    budget : float or None, default=None
        Test-time budget per example used by ``predict``; ``None`` predicts with the whole
        ensemble (no sampling: an unlimited budget).
    cost_weighted : bool, default=False
        ``False``: draw hypothesis ``i`` with ``p(i) ∝ alpha_i`` and take an unweighted
        majority vote (AdaBoostRS). ``True``: ``p(i) ∝ alpha_i / c(h_i)`` and votes weighted by
        ``c(h_i)`` (AdaBoostRS_AC, the poster's Algorithm 3).
    feature_costs, feature_groups : array-like of shape (n_features,), default=None
        As in :class:`~budgetboost.BudgetedBoost`.
    random_state : int or None, default=None
        Seed of the test-time draws (``None``: fresh entropy on every call).
    max_draws : int, default=2000
        Length of each example's draw sequence: the loop also ends after this many draws
        (it would run forever once every feature of the ensemble is paid for).
    adaboost_path : BoostPath or None, default=None
        A plain AdaBoost path fitted on the same training rows
        (:func:`budgetboost.boosting.adaboost_path`), used instead of boosting again: the
        pipeline fits one per trial and shares it (see :class:`~budgetboost.BudgetedBoost`).

    Attributes
    ----------
    classes_, feature_, threshold_, polarity_, alpha_ : as in BudgetedBoost
        The trained AdaBoost ensemble.
    hypothesis_cost_ : ndarray of shape (n_rounds,)
        Original cost ``c(h_i)`` of each hypothesis (its feature group's cost).
    sampling_probability_ : ndarray of shape (n_rounds,)
        ``p(i)`` used at test time.

    References
    ----------
    L. Reyzin. Boosting on a budget: sampling for feature-efficient prediction. ICML 2011.
    """

    _parameter_constraints = {
        "n_rounds": [Interval(Integral, 1, None, closed="left")],
        "budget": BUDGET,
        "cost_weighted": [Boolean()],
        "feature_costs": FEATURE_COSTS,
        "feature_groups": FEATURE_GROUPS,
        "random_state": RANDOM_STATE,
        "max_draws": [Interval(Integral, 1, None, closed="left")],
        "adaboost_path": ADABOOST_PATH,
    }

    def __init__(self, n_rounds: int = 500, budget: float | None = None,
                 cost_weighted: bool = False, feature_costs=None, feature_groups=None,
                 random_state: int | None = None, max_draws: int = 2000,
                 adaboost_path: BoostPath | None = None):
        self.n_rounds = n_rounds
        self.budget = budget
        self.cost_weighted = cost_weighted
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.random_state = random_state
        self.max_draws = max_draws
        self.adaboost_path = adaboost_path

    def _fit(self, data: TrainingData) -> None:
        """Train plain AdaBoost for ``n_rounds`` rounds and set the sampling distribution."""
        path = path_for(self, data, int(self.n_rounds))
        if path is None:
            path = boost_path(
                data.X,
                data.y,
                criterion="adaboost",
                max_rounds=int(self.n_rounds),
                group_of_column=data.group_of_column,
                group_cost=data.group_cost,
            )
        self.feature_ = path.feature
        self.threshold_ = path.threshold
        self.polarity_ = path.polarity
        self.alpha_ = path.alpha
        self.group_ = path.group
        self.hypothesis_cost_ = data.group_cost[path.group]
        weight = self.alpha_.copy()
        if self.cost_weighted:
            weight /= np.maximum(self.hypothesis_cost_, MIN_COST)
        self.sampling_probability_ = weight / weight.sum() if weight.size else weight

    # ------------------------------------------------------------------ prediction
    def decision_function(self, X) -> np.ndarray:
        """The full ensemble's vote ``sum_i alpha_i h_i(x)``: the limit of unlimited budget."""
        Xa = self._validated(X)
        h = stump_outputs(Xa, self.feature_, self.threshold_, self.polarity_)
        return h @ self.alpha_ + self.majority_ * VOTE_TIE

    def predict(self, X) -> np.ndarray:
        """Labels by sampling at ``budget``; with ``budget=None`` the full ensemble's vote."""
        budget = np.inf if self.budget is None else float(self.budget)
        if np.isinf(budget):
            return self._labels(self.decision_function(X))
        return self.predict_at_budgets(X, [budget])[0]

    def sample_at_budgets(self, X, budgets) -> dict[str, np.ndarray]:
        """Sample votes for every example and budget; shapes (len(budgets), n_samples).

        Returns ``vote`` (the sampled vote, tie offset included), ``cost`` (what each example
        paid: always below its budget), ``draws`` (hypotheses drawn) and ``n_features``
        (distinct feature groups paid for). Every example has one sequence of draws that
        serves all budgets; the stream is seeded by ``random_state``.
        """
        return self._sample(self._validated(X), check_budgets(budgets))

    def _sample(self, Xa: np.ndarray, budget_arr: np.ndarray) -> dict[str, np.ndarray]:
        m = Xa.shape[0]
        out = {key: np.zeros((budget_arr.size, m)) for key in ("vote", "cost", "draws",
                                                               "n_features")}
        if self.alpha_.size:
            rng = np.random.default_rng(self.random_state)
            table = _alias_table(self.sampling_probability_)
            above = Xa[:, self.feature_] >= self.threshold_  # (m, T); int8 votes: compact gathers
            h = np.where(above, self.polarity_, -self.polarity_).astype(np.int8)
            for start in range(0, m, _ROW_BLOCK):
                rows = slice(start, min(start + _ROW_BLOCK, m))
                block = self._sample_rows(h[rows], rng, table, budget_arr)
                for key, value in block.items():
                    out[key][:, rows] = value
        out["vote"] += self.majority_ * VOTE_TIE
        return out

    def _sample_rows(self, h: np.ndarray, rng: np.random.Generator,
                     table: tuple[np.ndarray, np.ndarray],
                     budgets: np.ndarray) -> dict[str, np.ndarray]:
        """The poster's loop for a block of examples, every budget at once.

        Each example draws in chunks of ``_DRAW_CHUNK``; the loop over chunks ends once no
        example could draw again within the largest budget (or after ``max_draws``).
        """
        m = h.shape[0]
        costliest = self.hypothesis_cost_.max()
        group_of = self.group_.astype(np.min_scalar_type(self.group_.max()))  # radix sorts
        seen = np.zeros((m, int(self.group_.max()) + 1), dtype=bool)
        rows = np.arange(m)
        paid, vote, n_groups = np.zeros(m), np.zeros(m), np.zeros(m)
        out = {key: np.zeros((budgets.size, m)) for key in ("vote", "cost", "draws",
                                                            "n_features")}
        done = 0
        while done < self.max_draws and (paid + costliest < budgets.max()).any():
            draws = _alias_draws(rng, table, (m, min(_DRAW_CHUNK, self.max_draws - done)))
            done += draws.shape[1]
            group = group_of[draws]
            new = _first_draws(group) & ~seen[rows[:, None], group]
            seen[np.broadcast_to(rows[:, None], group.shape)[new], group[new]] = True
            cost = self.hypothesis_cost_[draws]
            sampled = np.take_along_axis(h, draws, axis=1)
            if self.cost_weighted:
                sampled = sampled * np.maximum(cost, MIN_COST)
            paid_after = paid[:, None] + np.cumsum(np.where(new, cost, 0.0), axis=1)
            vote_after = vote[:, None] + np.cumsum(sampled, axis=1)
            groups_after = n_groups[:, None] + np.cumsum(new, axis=1)
            # draw again while spent + max_i c(h_i) < B; spent before each draw of the chunk:
            reach = np.concatenate([paid[:, None], paid_after[:, :-1]], axis=1) + costliest
            taken = (reach[None, :, :] < budgets[:, None, None]).sum(axis=2)  # (n_budgets, m)
            out["draws"] += taken
            b, row = np.nonzero(taken)
            last = taken[b, row] - 1
            out["vote"][b, row] = vote_after[row, last]
            out["cost"][b, row] = paid_after[row, last]
            out["n_features"][b, row] = groups_after[row, last]
            paid, vote, n_groups = paid_after[:, -1], vote_after[:, -1], groups_after[:, -1]
        return out

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Sampled votes at each budget, and what the examples paid.

        ``rounds`` is the mean number of draws per example; ``spent`` and
        ``mean_example_cost`` the mean cost paid, ``max_example_cost`` the largest.
        """
        sample = self._sample(X, budgets)
        mean_cost = sample["cost"].mean(axis=1)
        costs = BudgetCosts(
            rounds=sample["draws"].mean(axis=1),
            spent=mean_cost,
            n_features=sample["n_features"].mean(axis=1),
            mean_example_cost=mean_cost,
            max_example_cost=sample["cost"].max(axis=1),
            nodes=np.zeros(budgets.size),
        )
        return sample["vote"], costs
