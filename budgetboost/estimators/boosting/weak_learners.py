"""What one round of budgeted boosting adds: the weak learner's step, and the stump learner.

The loop of Algorithm 1 (:func:`budgetboost.estimators.boosting.booster.boost_path`) is written
once: each round it computes the stumps' edges under the round's weights, lets
:class:`~budgetboost.estimators.boosting.criteria.StumpChoice` choose the stump (step 4), asks the
*weak learner* for the round's hypothesis, pays for the feature groups the hypothesis reads
that are not yet paid (or stops, when they exceed what is left of the budget), weighs it and
reweights the examples. The weak learner supplies only the hypothesis (as scikit-learn's
``BaseWeightBoosting.fit`` owns the loop and ``_boost`` supplies the step):

- :class:`StumpLearner`: the chosen stump itself (Algorithm 1 as printed);
- :class:`~budgetboost.estimators.boosting.tree_weak_learner.TreeLearner`: a small tree grown
  from the chosen stump by the round's criterion (the paper's first open question, Section 8).

A weak learner subclasses :class:`WeakLearner`, whose docstring is the contract.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .stumps import StumpSpace, stump_outputs

__all__ = ["Round", "Step", "StumpLearner", "WeakLearner"]


class Round(NamedTuple):
    """What the loop knows when it asks the weak learner for the round's hypothesis."""

    wy: np.ndarray  # D(i) y_i under the round's weights
    gamma: np.ndarray  # every candidate stump's edge (polarity +1)
    abs_gamma: np.ndarray  # |gamma| as the criterion read it
    k: int  # the candidate the criterion chose
    phase: str  # the criterion applied this round
    spent: float  # cost paid before the round
    touched: np.ndarray | None = None  # discount groups paid before the round


class Step(NamedTuple):
    """The round's hypothesis, as the loop needs it."""

    groups: list[int]  # feature groups it reads, in the order its splits were made
    edge: float  # |gamma| of the hypothesis under the round's weights
    right: np.ndarray  # uint8 (n_samples,): 1 where h(x_i) = y_i
    record: Any = None  # what the learner keeps of the round (``stacked`` reads it)


class WeakLearner:
    """What a weak learner supplies to the loop of Algorithm 1 (the module docstring).

    Attributes
    ----------
    name : str
        Its name as the ``weak_learner`` parameter of ``BudgetedBoost`` gives it.
    perfect : str
        The stop reason when a hypothesis has edge 1 (boosting ends).
    attributes : tuple of str
        The fitted attributes of ``BudgetedBoost`` it sets beyond those of every round.
    reads_every_edge : bool
        Whether its step reads the edges of other candidates than the chosen one (then
        every round computes them all exactly, :meth:`StumpSpace.edges`).
    """

    name: str
    perfect: str
    attributes: tuple[str, ...] = ()
    reads_every_edge: bool = True

    def start(
        self,
        X: np.ndarray,
        y: np.ndarray,
        space: StumpSpace,
        group_of_column: np.ndarray,
        group_cost: np.ndarray,
        tau: float,
        pricing: Any = None,
    ) -> Callable[[Round], Step]:
        """The per-fit state, as a function of a :class:`Round` returning the :class:`Step`
        of the round's hypothesis (``X`` finite, ``y`` in {-1, +1}; ``pricing``: the
        groups' :class:`~budgetboost.estimators.contract.pricing.Pricing`, None: ``group_cost``)."""
        raise NotImplementedError

    def stacked(self, records: list) -> dict[str, np.ndarray]:
        """The learner's own per-round arrays of a path (e.g. the trees' nodes), from the
        ``record`` of each step the loop kept."""
        return {}

    def fitted(self, path: Any, group_cost: np.ndarray) -> dict[str, np.ndarray]:
        """The fitted attributes of ``BudgetedBoost`` named in :attr:`attributes`."""
        return {}

    def outputs(self, model: Any, X: np.ndarray, rounds: int | None = None) -> np.ndarray:
        """A fitted model's first ``rounds`` hypotheses (None: all) on new rows: (n_samples,
        rounds) in {-1, +1}. A prefix costs only its own rounds (a small budget's votes)."""
        raise NotImplementedError

    def example_costs(self, model: Any, X: np.ndarray, n_rounds: np.ndarray) -> np.ndarray | None:
        """What each row pays at each prefix: (len(n_rounds), n_samples), or ``None`` when
        every row reads every hypothesis and pays the prefix's ``spent``."""
        return None

    def reads(self, model: Any, X: np.ndarray, n_rounds: np.ndarray) -> np.ndarray | None:
        """The feature groups each row reads at each prefix: (len(n_rounds), n_samples or 1,
        n_groups) (``BudgetedEstimator._groups_read``); None: not said."""
        return None


class StumpLearner(WeakLearner):
    """Algorithm 1's weak learner: the stump the round's criterion chose."""

    name = "stump"
    perfect = "perfect_stump"
    reads_every_edge = False  # the chosen stump's edge only

    def start(
        self,
        X: np.ndarray,
        y: np.ndarray,
        space: StumpSpace,
        group_of_column: np.ndarray,
        group_cost: np.ndarray,
        tau: float,
        pricing: Any = None,
    ):
        """The step function of one fit: the chosen stump, and where it is right."""
        cand_group = group_of_column[space.column]
        positive = y > 0
        agrees: dict[int, np.ndarray] = {}  # per chosen candidate: 1 where y = h, polarity +1

        def step(r: Round) -> Step:
            agree = agrees.get(r.k)
            if agree is None:
                j, v = space.column[r.k], space.threshold[r.k]
                agree = agrees[r.k] = ((X[:, j] >= v) == positive).view(np.uint8)
            right = agree if r.gamma[r.k] >= 0 else agree ^ np.uint8(1)
            return Step([cand_group[r.k]], r.abs_gamma[r.k], right)

        return step

    def outputs(self, model: Any, X: np.ndarray, rounds: int | None = None) -> np.ndarray:
        first = slice(rounds)
        return stump_outputs(
            X, model.feature_[first], model.threshold_[first], model.polarity_[first]
        )

    def reads(self, model: Any, X: np.ndarray, n_rounds: np.ndarray) -> np.ndarray:
        """Every row reads every stump of a prefix: its groups, (len(n_rounds), 1, n_groups)."""
        first = np.full(model._n_groups(), np.iinfo(np.intp).max)
        groups, at = np.unique(model.group_, return_index=True)  # each group's first round
        first[groups] = at
        return (first[None, :] < n_rounds[:, None])[:, None, :]

    def __repr__(self) -> str:
        return "StumpLearner()"
