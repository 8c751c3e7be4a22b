"""Budgeted boosting: Algorithm 1's loop, the boosting path, and :class:`BudgetedBoost`.

Algorithm 1 of Huang, Powers & Reyzin (IJCAI 2015): boost; in every round pick a stump by a
*criterion* among ALL stumps (:mod:`budgetboost.estimators.boosting.criteria`), pay for the feature
groups of the round's hypothesis not yet paid, and stop as soon as that payment exceeds what
is left of the budget ``B``. The loop is written once (:func:`boost_path`); the weak learner
supplies each round's hypothesis (:mod:`budgetboost.estimators.boosting.weak_learners`): the chosen
stump (Algorithm 1 as printed) or a small tree grown from it
(:mod:`budgetboost.estimators.boosting.tree_weak_learner`).

No criterion depends on ``B`` itself (Eq. 2 uses what has been spent, ``B - B_t``), so the
sequence of hypotheses is the same for every budget: one fit to ``max_rounds`` gives the exact
ensemble of every smaller budget as a prefix. :meth:`BudgetedBoost.predict_at_budgets`
evaluates that whole path in one pass.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from dataclasses import dataclass, field
from numbers import Integral, Real
from typing import Any

import numpy as np

from ..contract.base import (
    BUDGET,
    PRICES,
    BudgetCosts,
    BudgetedEstimator,
    TrainingData,
)
from ..contract.params import InstanceOf, Interval, InvalidParameterError, Options
from ..contract.pricing import Pricing
from ..contract.validation import check_budgets, check_X_y, encode_labels
from .criteria import CRITERION_NAMES, GAMMA_CAP, StumpChoice
from .stumps import StumpSpace
from .tree_weak_learner import TreeLearner
from .weak_learners import Round, StumpLearner

__all__ = ["BoostPath", "BudgetedBoost", "WEAK_LEARNERS", "adaboost_path", "boost_path"]

#: Deepest tree of ``weak_learner="tree"`` (a round grows at most ``2^(d-1)`` edge passes).
MAX_TREE_DEPTH = 8
#: ``|F(x)|`` below this is a tie of the vote, resolved to the training majority class.
VOTE_TIE = 1e-10
#: Cells (rows x rounds) of the outputs held at once when scoring prefixes (2 MiB of float64:
#: blocks that stay in cache; 5,000 test rows x 500 stumps: census 25 ms, ocr17 34 ms, against
#: 37 and 63 ms at 2^22).
SCORE_BLOCK = 1 << 18
#: The weak learners by the name ``BudgetedBoost``'s ``weak_learner`` parameter gives them.
WEAK_LEARNERS = {
    "stump": lambda model: StumpLearner(),
    "tree": lambda model: TreeLearner(model.max_depth),
}


@dataclass
class BoostPath:
    """The rounds of one boosting run, one entry per round.

    ``feature``, ``threshold``, ``polarity`` and ``group`` are the round's stump (for trees,
    the root's); ``learner`` holds the weak learner's own per-round arrays (the trees).
    """

    feature: np.ndarray
    threshold: np.ndarray
    polarity: np.ndarray
    alpha: np.ndarray
    edge: np.ndarray  # |gamma_t| of the round's hypothesis
    group: np.ndarray  # feature group of the stump (the root)
    new_groups: np.ndarray  # how many feature groups the round paid for
    spent: np.ndarray  # cumulative cost after the round
    criterion: np.ndarray  # criterion used in the round (differs from the setting for hybrid)
    stop_reason: str
    fingerprint: str | None = None  # training rows it was fitted on (rows_fingerprint)
    learner: dict[str, np.ndarray] = field(default_factory=dict)

    def under_costs(
        self,
        group_of_column: np.ndarray,
        group_cost: np.ndarray,
        *,
        max_rounds: int,
        budget: float = np.inf,
        pricing: Pricing | None = None,
    ) -> BoostPath:
        """This plain-AdaBoost path as :func:`boost_path` gives it under other costs.

        AdaBoost's choices do not depend on the costs (Algorithm 1 with ``|gamma|`` as the
        criterion): only the groups paid, the amount spent and where a budget cuts the path
        do. So one path, fitted once per training set, serves every cost vector and every
        ``max_rounds`` up to its length: its first ``max_rounds`` rounds, cut before the first
        round whose new group would take the spent amount above ``budget``, are the rounds
        ``boost_path(..., criterion="adaboost", max_rounds=max_rounds, budget=budget)``
        returns, bit for bit (the running sum adds costs in the same order). ``pricing``
        (default: ``group_cost`` paid once per group) prices the groups with discount groups:
        a round's first group of an untouched discount group pays its shared part too.
        """
        if np.any(self.criterion != "adaboost"):
            raise ValueError(
                "only a plain AdaBoost path (criterion 'adaboost') serves other "
                "costs: its choices do not depend on them"
            )
        if max_rounds > len(self.feature) and self.stop_reason == "max_rounds":
            raise ValueError(
                f"the shared AdaBoost path has {len(self.feature)} rounds, "
                f"fewer than the {max_rounds} asked for"
            )
        n = min(int(max_rounds), len(self.feature))
        group = np.asarray(group_of_column)[self.feature[:n]]
        first = np.zeros(n, dtype=bool)
        first[np.unique(group, return_index=True)[1]] = True
        pricing = Pricing.plain(group_cost) if pricing is None else pricing
        spent = np.cumsum(pricing.first_use(group, first))
        over = np.flatnonzero(spent > budget)
        stop = self.stop_reason if n == len(self.feature) else "max_rounds"
        if over.size:
            n, stop = int(over[0]), "budget"
        return BoostPath(
            feature=self.feature[:n],
            threshold=self.threshold[:n],
            polarity=self.polarity[:n],
            alpha=self.alpha[:n],
            edge=self.edge[:n],
            group=group[:n],
            new_groups=first[:n].astype(np.intp),
            spent=spent[:n],
            criterion=self.criterion[:n],
            stop_reason=stop,
            fingerprint=self.fingerprint,
        )


#: Constraint of the ``adaboost_path`` parameter (set per trial by the pipeline).
ADABOOST_PATH = [
    InstanceOf(
        (BoostPath,), "a BoostPath of budgetboost.estimators.boosting.booster.adaboost_path"
    ),
    None,
]


def rows_fingerprint(X: np.ndarray, y: np.ndarray) -> str:
    """A sha256 of validated training rows, so a shared path is used only on its own rows."""
    digest = hashlib.sha256(np.ascontiguousarray(X, dtype=np.float64).tobytes())
    digest.update(np.ascontiguousarray(y, dtype=np.float64).tobytes())
    return digest.hexdigest()


def adaboost_path(X: np.ndarray, y: np.ndarray, max_rounds: int) -> BoostPath:
    """The plain AdaBoost path of ``max_rounds`` on raw training rows, costs aside.

    Fitted once per training set, it serves every cost model and every algorithm that boosts
    plainly (the unbudgeted reference, AdaBoostBT, AdaBoostRS and RS_AC) through their
    ``adaboost_path`` parameter (:meth:`BoostPath.under_costs`).
    """
    Xa, y_raw = check_X_y(X, y, estimator="adaboost_path")
    _, ypm = encode_labels(y_raw)
    n = Xa.shape[1]
    path = boost_path(
        Xa,
        ypm,
        criterion="adaboost",
        max_rounds=int(max_rounds),
        group_of_column=np.arange(n),
        group_cost=np.zeros(n),
    )
    return dataclasses.replace(path, fingerprint=rows_fingerprint(Xa, ypm))


def path_for(
    estimator: BudgetedEstimator, data: TrainingData, rounds: int, budget: float = np.inf
) -> BoostPath | None:
    """An estimator's ``adaboost_path`` under its costs, after checking it fits the rows."""
    shared = estimator.adaboost_path
    if shared is None:
        return None
    if shared.fingerprint != rows_fingerprint(data.X, data.y):
        raise ValueError(
            f"{type(estimator).__name__}: adaboost_path was fitted on other "
            "training rows than the ones given to fit"
        )
    return shared.under_costs(
        data.group_of_column,
        data.group_cost,
        max_rounds=rounds,
        budget=budget,
        pricing=data.pricing,
    )


def boost_path(
    X: np.ndarray,
    y: np.ndarray,
    *,
    criterion: str,
    max_rounds: int,
    group_of_column: np.ndarray,
    group_cost: np.ndarray,
    budget: float = np.inf,
    tau: float = 1.0,
    switch: float = 0.5,
    learner: Any = None,
    space: StumpSpace | None = None,
    pricing: Pricing | None = None,
) -> BoostPath:
    """Run Algorithm 1 on validated inputs (``y`` in {-1, +1}) and return the path.

    Each round: the stumps' edges under the weights ``D_t`` (where the machine computes
    them faster another way, float32 or sparse sums, approximate edges with the candidates
    that decide the choice made exact: the same choice, bit for bit,
    :mod:`~budgetboost.estimators.boosting.stumps`);
    the stump the criterion chooses
    (:class:`~budgetboost.estimators.boosting.criteria.StumpChoice`; boosting ends with
    ``zero_edge`` when no stump has an edge); the weak learner's hypothesis (``learner``,
    default :class:`~budgetboost.estimators.boosting.weak_learners.StumpLearner`); its unpaid
    feature
    groups, paid in the order of its splits, or the end (``budget``) when they cost more than
    what is left of ``budget``; ``alpha = 1/2 ln((1 + g) / (1 - g))`` with the hypothesis's
    edge ``g`` capped at ``1 - GAMMA_CAP`` (a perfect hypothesis ends boosting); and the
    weights ``D_{t+1}(i) ~ D_t(i) exp(-alpha y_i h(x_i))``.

    ``pricing`` (default: each group's ``group_cost``, paid once) prices the groups with
    discount groups (:mod:`~budgetboost.estimators.contract.pricing`): a round pays the marginal
    price
    of each new group given the discount groups paid before it, and the criteria read each
    candidate's price given the discount groups the ensemble has touched (its discount price
    once its group is touched, whether or not the candidate itself is paid).
    """
    learner = StumpLearner() if learner is None else learner
    space = StumpSpace.from_matrix(X, max_rounds) if space is None else space
    pricing = Pricing.plain(group_cost) if pricing is None else pricing
    m = X.shape[0]
    cand_group = group_of_column[space.column]
    touched = pricing.untouched()
    choice = StumpChoice(
        space,
        criterion,
        cand_group,
        pricing.prices(touched)[cand_group],
        tau,
        switch,
    )
    step = learner.start(X, y, space, group_of_column, group_cost, tau, pricing=pricing)
    approximate = space.approximate and not learner.reads_every_edge
    paid = np.zeros(group_cost.shape[0], dtype=bool)
    weights = np.full(m, 1.0 / m)
    wy = np.empty(m)
    factor = np.empty(2)  # exp(alpha) where the hypothesis errs, exp(-alpha) where it is right
    spent = 0.0
    rounds, records = [], []
    stop_reason = "max_rounds" if space.n_candidates else "no_stumps"
    for _ in range(max_rounds if space.n_candidates else 0):
        np.multiply(weights, y, out=wy)
        if approximate:  # the machine's faster kernel, its deciding candidates made exact
            gamma, error = space.approximate_edges(wy)
            deciding = choice.deciding(gamma, paid, spent, error)
            if deciding is None:
                gamma = space.edges(wy)
            else:
                space.refine(wy, gamma, deciding)
        else:
            gamma = space.edges(wy)
        k, abs_gamma = choice.choose(gamma, paid, spent)
        if k < 0:
            stop_reason = "zero_edge"
            break
        hypothesis = step(Round(wy, gamma, abs_gamma, k, choice.phase, spent, touched))
        new = [g for g in hypothesis.groups if not paid[g]]
        total = spent
        for price in pricing.sequence(new, touched):
            total += price
        if total > budget:
            stop_reason = "budget"
            break
        for g in new:
            paid[g] = True
        if pricing.touch(touched, new):  # a discount group's tests now cost their discount
            choice.reprice(pricing.prices(touched)[cand_group])
        spent = total
        edge = hypothesis.edge
        capped = min(edge, 1.0 - GAMMA_CAP)
        alpha = 0.5 * np.log((1.0 + capped) / (1.0 - capped))
        polarity = 1.0 if gamma[k] >= 0 else -1.0
        rounds.append((k, polarity, alpha, edge, len(new), spent, choice.phase))
        records.append(hypothesis.record)
        if edge >= 1.0 - GAMMA_CAP:
            stop_reason = learner.perfect
            break
        factor[0], factor[1] = alpha, -alpha
        weights *= np.exp(factor, out=factor).take(hypothesis.right)
        weights /= np.add.reduce(weights)
    k, polarity, alpha, edge, new_groups, spent_path, phases = (
        list(column) for column in (zip(*rounds, strict=True) if rounds else [()] * 7)
    )
    k = np.asarray(k, dtype=np.intp)
    return BoostPath(
        feature=space.column[k],
        threshold=space.threshold[k],
        polarity=np.asarray(polarity, dtype=np.float64),
        alpha=np.asarray(alpha, dtype=np.float64),
        edge=np.asarray(edge, dtype=np.float64),
        group=group_of_column[space.column[k]],
        new_groups=np.asarray(new_groups, dtype=np.intp),
        spent=np.asarray(spent_path, dtype=np.float64),
        criterion=np.asarray(phases, dtype=object),
        stop_reason=stop_reason,
        learner=learner.stacked(records),
    )


class BudgetedBoost(BudgetedEstimator):
    """Budgeted boosting of decision stumps or small trees (AdaBoostBT and its variants).

    Parameters
    ----------
    criterion : {"adaboost", "greedy", "smoothed", "speedboost", "hybrid"}, default="smoothed"
        How step 4 of Algorithm 1 picks the stump ``h_t`` among all stumps:

        - ``adaboost``: maximise ``|gamma|``. With a budget this is AdaBoostBT (AdaBoost stopped
          when the budget runs out); without one, plain AdaBoost.
        - ``greedy``: Eq. 1, minimise ``(1 - gamma^2)^(1/c(h))`` with the original cost.
        - ``smoothed``: Eq. 2, minimise ``(1 - gamma^2)^(1/(tau*(B - B_t) + c(h)))``.
        - ``speedboost``: Eq. 4, maximise ``(1 - sqrt(1 - gamma^2)) / c(h)``; alpha from
          Eq. 3, which for normalised weights equals AdaBoost's ``1/2 ln((1+g)/(1-g))``.
        - ``hybrid``: ``greedy`` while the best unpaid stump's greedy score
          ``-ln(1 - gamma^2)/c(h)`` is at least ``switch`` times its round-1 value, then
          ``smoothed`` for good (Section 4 names the idea, untried there).

        Scores are compared in log space. A stump of original cost 0 with a positive edge
        scores ``+inf`` under ``greedy``/``speedboost`` (and ``smoothed`` while nothing is
        spent). Ties go to larger ``|gamma|``, then the lower column, then the lower threshold;
        the polarity makes ``gamma >= 0`` (``s = +1`` when ``gamma = 0``).
    budget : float or None, default=None
        Test-time budget ``B``; ``None`` means unlimited (boost for ``max_rounds``).
    max_rounds : int, default=500
        Number of boosting rounds at most.
    tau : float in (0, 1], default=1.0
        Scale of the spent budget in Eq. 2 (``smoothed`` and the second phase of ``hybrid``).
    switch : float > 0, default=0.5
        Switch threshold of ``hybrid`` (a fraction of the round-1 greedy score).
    feature_costs : array-like of shape (n_features,), default=None
        Cost of each column of ``X`` (default: all 1). A feature is paid for once.
    feature_groups : array-like of shape (n_features,), default=None
        Group label per column; the columns of a group are paid for together (e.g. the
        indicators of one raw attribute) and must carry the same cost.
    discount_groups, discount_costs : array-like of shape (n_features,), default=None
        Turney's discount groups (see :class:`~budgetboost.BudgetedEstimator`): a label per
        column (negative: none) and the price of the column's test once its discount group
        is paid. A round pays each new group's marginal price (its discount price once its
        discount group is touched, plus the shared part at the first touch), and the
        criteria read ``c(h)`` as the price of ``h``'s group given the discount groups the
        ensemble has touched: its discount price once one is, its full price before.
    adaboost_path : BoostPath or None, default=None
        With ``criterion="adaboost"``: a plain AdaBoost path fitted on the same training rows
        (:func:`adaboost_path`), used instead of boosting again. AdaBoost's choices do not
        depend on the costs, so the pipeline fits one path per trial and shares it between
        the unbudgeted reference, AdaBoostBT and AdaBoostRS under every cost model; the
        fitted ensemble is bit for bit the one ``fit`` would boost
        (:meth:`BoostPath.under_costs`). A path fitted on other rows is refused. The path holds
        stumps: with ``weak_learner="tree"`` it is an :class:`InvalidParameterError`.
    weak_learner : {"stump", "tree"}, default="stump"
        ``stump``: Algorithm 1 as printed. ``tree``: each round grows one tree of depth at
        most ``max_depth`` with +-1 leaves on the round's weights
        (:mod:`budgetboost.estimators.boosting.tree_weak_learner`): the root is the stump the
        criterion
        chooses; then each leaf above ``max_depth``, in preorder, is split by the candidate
        that maximises the criterion of the resulting whole tree, ``(gamma, c)`` with ``gamma
        = sum_i D(i) y_i h(x_i)`` (new leaves take the sign of their weighted label sums) and
        ``c`` the original cost of the tree's distinct feature groups, if that beats leaving
        the leaf; the round pays for the tree's groups not yet paid. ``max_depth=1`` is the
        stump engine, bit for bit.
    max_depth : int in [1, 8], default=2
        Depth of the trees (``weak_learner="tree"`` only).

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        The two class labels; ``classes_[1]`` is the +1 class.
    feature_, threshold_, polarity_, alpha_ : ndarray of shape (n_rounds,)
        Stump ``t`` is ``polarity_[t] * (1 if x[feature_[t]] >= threshold_[t] else -1)``,
        weighted ``alpha_[t]``. For trees, the root stump of tree ``t`` (the tree is
        ``tree_feature_[t]``, ...).
    spent_ : ndarray of shape (n_rounds,)
        Cumulative cost paid after each round (non-decreasing).
    edge_ : ndarray of shape (n_rounds,)
        ``|gamma_t|`` of each chosen stump (tree).
    group_ : ndarray of shape (n_rounds,)
        Feature group of each stump (of each tree's root split).
    n_features_used_ : ndarray of shape (n_rounds,)
        Distinct feature groups paid for after each round.
    criterion_used_ : ndarray of shape (n_rounds,)
        The criterion applied in each round (``hybrid`` records its phase).
    stop_reason_ : str
        ``max_rounds``, ``budget``, ``zero_edge`` (every edge 0), ``perfect_stump`` (``|gamma|
        = 1``: alpha capped, boosting ends), ``perfect_tree`` (the same, for a tree) or
        ``no_stumps`` (every column constant).
    tree_feature_, tree_threshold_ : ndarray of shape (n_rounds, 2**max_depth - 1)
        ``weak_learner="tree"`` only. The splits ``x[f] >= v`` of each tree in heap layout:
        node ``n``'s children are ``2n + 1`` (``x[f] < v``) and ``2n + 2`` (``x[f] >= v``);
        ``-1`` and ``nan`` where there is no split (a leaf, or below one).
    tree_group_ : ndarray of shape (n_rounds, 2**max_depth - 1)
        ``weak_learner="tree"`` only. The feature group of each split (``-1``: none).
    tree_value_ : ndarray of shape (n_rounds, 2**max_depth)
        ``weak_learner="tree"`` only. The +-1 output of each depth-``max_depth`` leaf slot,
        left to right; a leaf above that depth fills every slot below it.
    group_cost_ : ndarray of shape (n_groups,)
        ``weak_learner="tree"`` only. Cost of each feature group, for the per-example costs
        (``evaluate_at_budgets``: an example pays for the groups on its decision paths).
    pricing_ : Pricing
        The feature groups' prices with their discount groups (the per-example costs of
        trees read it).

    Notes
    -----
    With trees, a prefix's ``spent`` (what the ``budget`` enforces) is the cost of the groups
    of all its trees, paid once; ``evaluate_at_budgets`` reports beside it each test example's
    lazy cost, the groups on its decision paths through the prefix's trees, each once
    (``mean_example_cost``, ``max_example_cost``; for stumps both equal ``spent``).

    Weights are updated as ``D_{t+1}(i) ∝ D_t(i) exp(-alpha_t y_i h_t(x_i))`` (Algorithm 1
    prints the exponent without its minus sign). The empty ensemble, and any exact tie of the
    vote, predicts the training majority class.

    References
    ----------
    Y. Huang, B. Powers, L. Reyzin. Training-Time Optimization of a Budgeted Booster. IJCAI
    2015 (Algorithm 1, Eq. 1, 2; Appendix A, Eq. 3, 4).
    """

    label = "Budgeted boosting"
    family = "boosting"

    conformance_cases = {
        "adaboost": {"max_rounds": 25},
        "greedy": {"criterion": "greedy", "max_rounds": 25},
        "smoothed_trees": {
            "criterion": "smoothed",
            "max_rounds": 15,
            "weak_learner": "tree",
            "max_depth": 2,
        },
    }
    _parameter_constraints = {
        "criterion": [Options(CRITERION_NAMES)],
        "budget": BUDGET,
        "max_rounds": [Interval(Integral, 1, None, closed="left")],
        "tau": [Interval(Real, 0, 1, closed="right")],
        "switch": [Interval(Real, 0, math.inf, closed="neither")],
        **PRICES,
        "adaboost_path": ADABOOST_PATH,
        "weak_learner": [Options(tuple(WEAK_LEARNERS))],
        "max_depth": [Interval(Integral, 1, MAX_TREE_DEPTH, closed="both")],
    }

    def __init__(
        self,
        criterion: str = "smoothed",
        budget: float | None = None,
        max_rounds: int = 500,
        tau: float = 1.0,
        switch: float = 0.5,
        feature_costs=None,
        feature_groups=None,
        adaboost_path: BoostPath | None = None,
        weak_learner: str = "stump",
        max_depth: int = 2,
        discount_groups=None,
        discount_costs=None,
    ):
        self.criterion = criterion
        self.budget = budget
        self.max_rounds = max_rounds
        self.tau = tau
        self.switch = switch
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.adaboost_path = adaboost_path
        self.weak_learner = weak_learner
        self.max_depth = max_depth
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    def _fit(self, data: TrainingData) -> None:
        """Boost until ``max_rounds``, a zero edge, or the budget runs out."""
        budget = self._fitted_budget()
        if self.adaboost_path is not None and self.criterion != "adaboost":
            raise InvalidParameterError(
                "adaboost_path", f"serves criterion 'adaboost' only; got {self.criterion!r}"
            )
        learner = WEAK_LEARNERS[self.weak_learner](self)
        if self.adaboost_path is not None and learner.name != "stump":
            raise InvalidParameterError(
                "adaboost_path",
                "a shared AdaBoost path holds stumps; it cannot serve "
                f"weak_learner={self.weak_learner!r} (leave adaboost_path None)",
            )
        previous = getattr(self, "weak_learner_", None)
        for name in previous.attributes if previous is not None else ():
            self.__dict__.pop(name, None)  # from an earlier fit with another weak learner
        path = path_for(self, data, int(self.max_rounds), budget)
        if path is None:
            path = boost_path(
                data.X,
                data.y,
                criterion=self.criterion,
                max_rounds=int(self.max_rounds),
                group_of_column=data.group_of_column,
                group_cost=data.group_cost,
                budget=budget,
                tau=float(self.tau),
                switch=float(self.switch),
                learner=learner,
                pricing=data.pricing,
            )
        self.pricing_ = data.pricing
        self.feature_ = path.feature
        self.threshold_ = path.threshold
        self.polarity_ = path.polarity
        self.alpha_ = path.alpha
        self.edge_ = path.edge
        self.group_ = path.group
        self.spent_ = path.spent
        self.n_features_used_ = np.cumsum(path.new_groups)
        self.criterion_used_ = path.criterion
        self.stop_reason_ = path.stop_reason
        for name, value in learner.fitted(path, data.group_cost).items():
            setattr(self, name, value)
        self.weak_learner_ = learner

    # ------------------------------------------------------------------ prediction
    def rounds_at_budgets(self, budgets) -> np.ndarray:
        """Number of leading rounds affordable at each budget (``inf`` = the whole path)."""
        self._check_fitted()
        return np.searchsorted(self.spent_, check_budgets(budgets), side="right")

    def _scores_at(self, Xa: np.ndarray, n_rounds: np.ndarray) -> np.ndarray:
        """Votes ``F(x) = sum_{t < T} alpha_t h_t(x)`` for each prefix length T: (len, m).

        Rows are taken in blocks of about :data:`SCORE_BLOCK` (rows x rounds) cells, so the
        memory stays bounded on tens of thousands of rows; each row's cumulative sum is its
        own, so the votes do not depend on the block size.
        """
        votes = np.zeros((n_rounds.size, Xa.shape[0]))
        has = n_rounds > 0
        if self.alpha_.size and has.any():
            rounds = int(n_rounds.max())
            alpha = self.alpha_[:rounds]
            step = max(1, SCORE_BLOCK // rounds)
            for start in range(0, Xa.shape[0], step):
                rows = slice(start, start + step)
                cumulative = np.multiply(self._outputs(Xa[rows], rounds), alpha)
                np.cumsum(cumulative, axis=1, out=cumulative)
                votes[has, rows] = cumulative[:, n_rounds[has] - 1].T
        return votes + self.majority_ * VOTE_TIE

    def _outputs(self, Xa: np.ndarray, rounds: int | None = None) -> np.ndarray:
        """Outputs ``h_t(x_i)`` in {-1, +1} of the first ``rounds`` rounds' stumps or trees
        (None: all): (m, T). A small budget's prefix computes its own rounds only."""
        return self.weak_learner_.outputs(self, Xa, rounds)

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Votes of the prefix affordable at each budget, and its cost.

        ``spent`` is the prefix's enforced cost: its groups, paid once. Every example reads
        every stump of a stump prefix: ``mean_example_cost`` and ``max_example_cost`` equal
        ``spent``. An example reads only its decision path through each tree: it pays for the
        groups on its paths through the prefix's trees, each once (at most ``spent``).
        ``nodes`` is 0 (no single tree).
        """
        return self._at_rounds(X, self.rounds_at_budgets(budgets))

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray:
        """The groups of the prefix affordable at each budget (a tree's: each row's paths)."""
        return self._reads_at_rounds(X, self.rounds_at_budgets(budgets))

    def _reads_at_rounds(self, X: np.ndarray, n_rounds: np.ndarray) -> np.ndarray:
        """The groups each row reads in the prefixes of ``n_rounds`` rounds."""
        return self.weak_learner_.reads(self, X, n_rounds)

    def _at_rounds(self, X: np.ndarray, n_rounds: np.ndarray) -> tuple[np.ndarray, BudgetCosts]:
        """Votes and costs of the prefixes of ``n_rounds`` rounds (see ``_scores_and_costs``)."""
        last = n_rounds - 1
        spent = np.where(
            n_rounds > 0, self.spent_[np.maximum(last, 0)] if self.spent_.size else 0.0, 0.0
        )
        n_features = np.where(
            n_rounds > 0, self.n_features_used_[np.maximum(last, 0)] if self.spent_.size else 0, 0
        )
        mean_cost = max_cost = spent
        paid = self.weak_learner_.example_costs(self, X, n_rounds)
        if paid is not None:
            mean_cost, max_cost = paid.mean(axis=1), paid.max(axis=1)
        costs = BudgetCosts(
            rounds=n_rounds,
            spent=spent,
            n_features=n_features,
            mean_example_cost=mean_cost,
            max_example_cost=max_cost,
            nodes=np.zeros(n_rounds.size),
        )
        return self._scores_at(X, n_rounds), costs
