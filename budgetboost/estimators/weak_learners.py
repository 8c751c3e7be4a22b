"""What one round of budgeted boosting adds: the weak learner's step, and the stump learner.

The loop of Algorithm 1 (:func:`budgetboost.estimators.boosting.boost_path`) is written
once: each round it computes the stumps' edges under the round's weights, lets
:class:`~budgetboost.estimators.criteria.StumpChoice` choose the stump (step 4), asks the
*weak learner* for the round's hypothesis, pays for the feature groups the hypothesis reads
that are not yet paid (or stops, when they exceed what is left of the budget), weighs it and
reweights the examples. The weak learner supplies only the hypothesis (as scikit-learn's
``BaseWeightBoosting.fit`` owns the loop and ``_boost`` supplies the step):

- :class:`StumpLearner`: the chosen stump itself (Algorithm 1 as printed);
- :class:`~budgetboost.estimators.boosted_trees.TreeLearner`: a small tree grown from the
  chosen stump by the round's criterion (the paper's first open question, Section 8).

A weak learner has a ``name`` (the ``weak_learner`` parameter of ``BudgetedBoost``), the
stop reason of a perfect hypothesis, and four methods:

- ``start(X, y, space, group_of_column, group_cost, tau) -> step``: the per-fit state, as a
  function of a :class:`Round` returning a :class:`Step`;
- ``stacked(records) -> dict``: the learner's own per-round arrays of a path (e.g. the
  trees' nodes, ``tree_feature_``), from the ``record`` of each kept step;
- ``fitted(path, group_cost) -> dict``: the fitted attributes of ``BudgetedBoost`` beyond
  those of every round (named in ``attributes``);
- ``outputs(model, X) -> (n_samples, n_rounds)`` and ``example_costs(model, X, n_rounds)``:
  a fitted model's hypotheses on new rows, and what each row pays at each prefix (``None``:
  every row reads every hypothesis, and pays the prefix's ``spent``).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from budgetboost.estimators.stumps import StumpSpace, stump_outputs

__all__ = ["Round", "Step", "StumpLearner"]


class Round(NamedTuple):
    """What the loop knows when it asks the weak learner for the round's hypothesis."""

    wy: np.ndarray  # D(i) y_i under the round's weights
    gamma: np.ndarray  # every candidate stump's edge (polarity +1)
    abs_gamma: np.ndarray  # |gamma| as the criterion read it
    k: int  # the candidate the criterion chose
    phase: str  # the criterion applied this round
    spent: float  # cost paid before the round


class Step(NamedTuple):
    """The round's hypothesis, as the loop needs it."""

    groups: list[int]  # feature groups it reads, in the order its splits were made
    edge: float  # |gamma| of the hypothesis under the round's weights
    right: np.ndarray  # uint8 (n_samples,): 1 where h(x_i) = y_i
    record: Any = None  # what the learner keeps of the round (``stacked`` reads it)


class StumpLearner:
    """Algorithm 1's weak learner: the stump the round's criterion chose."""

    name = "stump"
    perfect = "perfect_stump"
    attributes: tuple[str, ...] = ()

    def start(
        self,
        X: np.ndarray,
        y: np.ndarray,
        space: StumpSpace,
        group_of_column: np.ndarray,
        group_cost: np.ndarray,
        tau: float,
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

    def stacked(self, records: list) -> dict[str, np.ndarray]:
        return {}

    def fitted(self, path: Any, group_cost: np.ndarray) -> dict[str, np.ndarray]:
        return {}

    def outputs(self, model: Any, X: np.ndarray) -> np.ndarray:
        return stump_outputs(X, model.feature_, model.threshold_, model.polarity_)

    def example_costs(self, model: Any, X: np.ndarray, n_rounds: np.ndarray) -> None:
        return None  # every example reads every stump of a prefix

    def __repr__(self) -> str:
        return "StumpLearner()"
