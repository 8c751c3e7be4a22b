"""Budgeted boosting with decision stumps: AdaBoostBT and its cost-aware criteria.

Algorithm 1 of Huang, Powers & Reyzin (IJCAI 2015): boost with stumps; in every round pick a
stump by a *criterion* among ALL stumps, pay for its feature group if not yet paid, and stop
as soon as the unpaid cost of the chosen stump exceeds what is left of the budget ``B``.

No criterion depends on ``B`` itself (Eq. 2 uses what has been spent, ``B - B_t``), so the
sequence of stumps is the same for every budget: one fit to ``max_rounds`` gives the exact
ensemble of every smaller budget as a prefix. :meth:`BudgetedBoost.predict_at_budgets`
evaluates that whole path in one pass.

A criterion is a function ``(abs_gamma, cost, spent, tau) -> score`` (higher is better),
computed in log space; adding one means adding one entry to :data:`CRITERIA` (a
:class:`Ratio` of a log-numerator in ``|gamma|`` and a log-denominator in the cost).

A fit does not take the logarithms of every candidate in every round (Greedy runs all 500
rounds over the 11,196 stumps of binarized sonar): each :class:`Ratio` numerator ``N`` lies
between two cheap bounds in ``x = gamma^2``, ``k x <= N(x) <= k x / (1 - k x)`` (Eq. 1 and 2:
``x <= -ln(1 - x) <= x / (1 - x)``, ``k = 1``; Eq. 4: ``x/2 <= 1 - sqrt(1 - x) <= x / (2 -
x)``, ``k = 1/2``), and only the candidates whose upper bound reaches the best lower bound
are scored exactly (:func:`_contenders`). The others score below the best by more than the
tie tolerance, so the chosen stump, ties included, is the one the full scoring would choose.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from budgetboost.estimators.base import (
    BUDGET,
    FEATURE_COSTS,
    FEATURE_GROUPS,
    BudgetCosts,
    BudgetedEstimator,
    TrainingData,
)
from budgetboost.estimators.params import InstanceOf, Interval, InvalidParameterError, Options
from budgetboost.estimators.stumps import StumpSpace, stump_outputs
from budgetboost.estimators.validation import check_budgets, check_X_y, encode_labels

__all__ = ["BudgetedBoost", "CRITERIA", "boost_path", "BoostPath"]

#: Deepest tree of ``weak_learner="tree"`` (a round grows at most ``2^(d-1)`` edge passes).
MAX_TREE_DEPTH = 8
#: Fitted attributes only the tree weak learner sets.
_TREE_ATTRIBUTES = ("tree_feature_", "tree_threshold_", "tree_group_", "tree_value_", "group_cost_")
#: Edges with ``|gamma|`` at or below this are treated as exactly zero (no information).
GAMMA_ZERO = 1e-12
#: ``|gamma|`` is capped at ``1 - GAMMA_CAP`` for alpha (alpha <= about 11.86); such a
#: perfect stump ends boosting, since every later distribution would be degenerate.
GAMMA_CAP = 1e-10
#: Scores within this (relative, plus absolute) tolerance of the best count as a tie.
TIE_TOL = 1e-12
#: ``|F(x)|`` below this is a tie of the vote, resolved to the training majority class.
VOTE_TIE = 1e-10
#: Relative margin (times ``1 + |log M|``, ``M`` the best lower bound) by which a candidate's
#: upper bound must miss ``M`` for it to be left unscored: 1000 times :data:`TIE_TOL`, so the
#: rounding of the bounds and of the exact scores never moves a candidate across a tie.
PRUNE_MARGIN = 1e-9
#: Fewer candidates than this are all scored exactly: bounding them would cost more.
PRUNE_MIN_CANDIDATES = 1000


def _log_loss_reduction(abs_gamma: np.ndarray) -> np.ndarray:
    """``log(-ln(1 - gamma^2))``: log of the per-round drop of the training-error bound.

    Eq. 1 and 2 minimise ``(1 - gamma^2)^(1/c)``, i.e. maximise ``-ln(1 - gamma^2) / c``.
    Computed in place on one new array; ``|gamma| = 1`` gives ``+inf``, ``gamma = 0`` gives
    ``-inf`` (under :meth:`Ratio.score`'s error state).
    """
    out = np.square(abs_gamma)
    np.negative(out, out=out)
    np.log1p(out, out=out)
    np.negative(out, out=out)
    return np.log(out, out=out)


def _log_speed_gain(abs_gamma: np.ndarray) -> np.ndarray:
    """``log(1 - sqrt(1 - gamma^2))``, SpeedBoost's gain (Eq. 4).

    ``1 - sqrt(1 - g^2) = g^2 / (1 + sqrt(1 - g^2))`` is used for accuracy at small edges;
    ``gamma = 0`` gives ``-inf`` (under :meth:`Ratio.score`'s error state).
    """
    g2 = np.square(abs_gamma)
    return np.log(g2) - np.log1p(np.sqrt(1.0 - g2))


def _log_cost(cost: np.ndarray) -> np.ndarray:
    """``log c(h)``: the ORIGINAL cost of the stump's feature, even once it is paid.

    That keeps free (already paid) stumps from winning whatever their edge (Section 4).
    """
    with np.errstate(divide="ignore"):
        return np.log(cost)


def _log_smoothed_cost(cost: np.ndarray, spent: float, tau: float) -> np.ndarray:
    """``log(tau * (B - B_t) + c(h))`` of Eq. 2, where ``B - B_t`` is what has been spent."""
    with np.errstate(divide="ignore"):
        return np.log(tau * spent + cost)


@dataclass(frozen=True)
class Ratio:
    """A criterion ``log_numerator(|gamma|) - log_denominator(c(h), spent, tau)``, maximised.

    The denominator is the stump's original cost ``c(h)`` (Eq. 1 and 4), or with
    ``smoothed`` the cost plus the scaled amount spent, ``tau * (B - B_t) + c(h)`` (Eq. 2).
    Split in two so that a fit computes the denominator only when it changes (once for
    Eq. 1 and 4; after each newly paid group for Eq. 2). 0/0 (no edge, zero cost) scores
    ``-inf``; a positive edge over a zero cost scores ``+inf``.

    ``slope`` is the ``k`` of the numerator's bounds ``k x <= N(x) <= k x / (1 - k x)`` in
    ``x = gamma^2`` (module docstring), with which :func:`_contenders` leaves out the
    candidates that cannot win; ``None`` (no such bounds) scores every candidate.
    """

    log_numerator: Callable[[np.ndarray], np.ndarray]
    slope: float | None = None
    smoothed: bool = False  # the denominator grows with what is spent (Eq. 2)

    def __call__(
        self, abs_gamma: np.ndarray, cost: np.ndarray, spent: float, tau: float
    ) -> np.ndarray:
        return self.score(abs_gamma, self.log_denominator(cost, spent, tau))

    def log_denominator(self, cost: np.ndarray, spent: float, tau: float) -> np.ndarray:
        """``log c(h)``, or ``log(tau * spent + c(h))`` for a smoothed ratio."""
        return _log_smoothed_cost(cost, spent, tau) if self.smoothed else _log_cost(cost)

    def denominator(self, cost: np.ndarray, spent: float, tau: float) -> np.ndarray:
        """``c(h)``, or ``tau * spent + c(h)`` for a smoothed ratio."""
        return tau * spent + cost if self.smoothed else cost

    def score(self, abs_gamma: np.ndarray, log_den: np.ndarray) -> np.ndarray:
        """The scores given a precomputed ``log_denominator``."""
        with np.errstate(divide="ignore", invalid="ignore"):  # log 0; inf - inf is nan
            score = self.log_numerator(abs_gamma)
            np.subtract(score, log_den, out=score)
        score[np.isnan(score)] = -np.inf
        return score


def adaboost_score(abs_gamma, cost, spent, tau):
    """AdaBoost / AdaBoostBT: maximise ``|gamma|`` (costs ignored)."""
    return abs_gamma


Criterion = Callable[[np.ndarray, np.ndarray, float, float], np.ndarray]

#: The stump-selection criteria of step 4 of Algorithm 1, by name: functions
#: ``(abs_gamma, cost, spent, tau) -> score`` (higher is better), in log space. Every one but
#: ``adaboost`` (which :func:`boost_path` scores by ``|gamma|`` directly) is a :class:`Ratio`.
CRITERIA: dict[str, Criterion] = {
    "adaboost": adaboost_score,
    # Eq. 1: minimise (1 - gamma^2)^(1/c(h)), c(h) the original cost
    "greedy": Ratio(_log_loss_reduction, slope=1.0),
    # Eq. 2: minimise (1 - gamma^2)^(1/(tau*(B - B_t) + c(h)))
    "smoothed": Ratio(_log_loss_reduction, slope=1.0, smoothed=True),
    # Eq. 4 (SpeedBoost, Grubb & Bagnell 2012): maximise (1 - sqrt(1 - gamma^2)) / c(h)
    "speedboost": Ratio(_log_speed_gain, slope=0.5),
}
_ALL_CRITERIA = (*CRITERIA, "hybrid")


def _select(
    score: np.ndarray,
    abs_gamma: np.ndarray,
    column: np.ndarray,
    threshold: np.ndarray,
    best: float | None = None,
    index: np.ndarray | None = None,
) -> int:
    """Index of the best candidate, or -1 when every score is ``-inf``.

    Ties (within :data:`TIE_TOL`) go to the larger ``|gamma|``, then the lower column index,
    then the lower threshold. ``best`` is ``score.max()`` when the caller knows it already.
    ``index``: the candidates that ``score`` scores (default: all, in order); ``abs_gamma``,
    ``column`` and ``threshold`` are over all candidates.
    """
    best = float(score.max() if best is None else best)
    if best == -math.inf:
        return -1
    if best == math.inf:
        tied = (score == best).nonzero()[0]
    else:
        tied = (score >= best - TIE_TOL * (1.0 + abs(best))).nonzero()[0]
    if index is not None:
        tied = index[tied]
    if tied.size > 1:
        g = abs_gamma[tied]
        top = g.max()
        tied = tied[g >= top - TIE_TOL * (1.0 + top)]
    if tied.size > 1:
        tied = tied[np.lexsort((threshold[tied], column[tied]))]
    return int(tied[0])


class _Round(NamedTuple):
    """One round of :func:`boost_path`: the chosen stump and what was paid."""

    feature: int
    threshold: float
    polarity: float
    alpha: float
    edge: float
    group: int
    new_group: bool
    spent: float
    criterion: str


@dataclass
class BoostPath:
    """The rounds of one boosting run, one entry per round."""

    feature: np.ndarray
    threshold: np.ndarray
    polarity: np.ndarray
    alpha: np.ndarray
    edge: np.ndarray  # |gamma_t| of the chosen stump
    group: np.ndarray  # feature group of the chosen stump
    new_group: np.ndarray  # True where the round paid for its group
    spent: np.ndarray  # cumulative cost after the round
    criterion: np.ndarray  # criterion used in the round (differs from the setting for hybrid)
    stop_reason: str
    fingerprint: str | None = None  # training rows it was fitted on (rows_fingerprint)

    @classmethod
    def from_rounds(cls, rounds: list[_Round], stop_reason: str) -> BoostPath:
        """The path of a list of rounds (typed arrays, also when there are none)."""

        def column(name: str, dtype: type) -> np.ndarray:
            return np.asarray([getattr(r, name) for r in rounds], dtype=dtype)

        return cls(
            feature=column("feature", np.intp),
            threshold=column("threshold", np.float64),
            polarity=column("polarity", np.float64),
            alpha=column("alpha", np.float64),
            edge=column("edge", np.float64),
            group=column("group", np.intp),
            new_group=column("new_group", bool),
            spent=column("spent", np.float64),
            criterion=column("criterion", object),
            stop_reason=stop_reason,
        )

    def under_costs(
        self,
        group_of_column: np.ndarray,
        group_cost: np.ndarray,
        *,
        max_rounds: int,
        budget: float = np.inf,
    ) -> BoostPath:
        """This plain-AdaBoost path as :func:`boost_path` gives it under other costs.

        AdaBoost's choices do not depend on the costs (Algorithm 1 with ``|gamma|`` as the
        criterion): only the groups paid, the amount spent and where a budget cuts the path
        do. So one path, fitted once per training set, serves every cost vector and every
        ``max_rounds`` up to its length: its first ``max_rounds`` rounds, cut before the first
        round whose new group would take the spent amount above ``budget``, are the rounds
        ``boost_path(..., criterion="adaboost", max_rounds=max_rounds, budget=budget)``
        returns, bit for bit (the running sum adds costs in the same order).
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
        spent = np.cumsum(np.where(first, np.asarray(group_cost)[group], 0.0))
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
            new_group=first[:n],
            spent=spent[:n],
            criterion=self.criterion[:n],
            stop_reason=stop,
            fingerprint=self.fingerprint,
        )


#: Constraint of the ``adaboost_path`` parameter (set per trial by the pipeline).
ADABOOST_PATH = [
    InstanceOf((BoostPath,), "a BoostPath of budgetboost.estimators.boosting.adaboost_path"),
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
        data.group_of_column, data.group_cost, max_rounds=rounds, budget=budget
    )


class _Denominator(NamedTuple):
    """One :class:`Ratio`'s denominator at one amount spent, in the forms a round reads."""

    log: np.ndarray  # log of the denominator: the exact scores subtract it
    root: np.ndarray | None  # sqrt(slope / denominator) for the bounds; None: no bounds


class _CachedScores:
    """Scores of one fit's candidates under the :class:`Ratio` criteria; each one's
    denominator is recomputed only when the amount spent changes (never, for Eq. 1 and 4)."""

    def __init__(self, cost: np.ndarray, tau: float):
        self.cost, self.tau = cost, tau
        self.cache: dict[str, tuple[float, _Denominator]] = {}

    def denominator(self, phase: str, spent: float) -> _Denominator:
        """The denominator of criterion ``phase`` once ``spent`` has been paid."""
        ratio = CRITERIA[phase]
        cached = self.cache.get(phase)
        if cached is None or (ratio.smoothed and cached[0] != spent):
            root = None
            if ratio.slope is not None:
                with np.errstate(divide="ignore", over="ignore"):
                    root = np.sqrt(ratio.slope / ratio.denominator(self.cost, spent, self.tau))
                if not np.isfinite(root).all():  # a zero cost: no bound, score everything
                    root = None
            log_den = ratio.log_denominator(self.cost, spent, self.tau)
            cached = (spent, _Denominator(log_den, root))
            self.cache[phase] = cached
        return cached[1]

    def contenders(
        self,
        phase: str,
        abs_gamma: np.ndarray,
        top: float,
        spent: float,
        among: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """:func:`_contenders` under criterion ``phase``."""
        return _contenders(CRITERIA[phase], abs_gamma, top, self.denominator(phase, spent), among)


def _contenders(
    ratio: Ratio,
    abs_gamma: np.ndarray,
    top: float,
    den: _Denominator,
    among: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The candidates that may score within :data:`TIE_TOL` of the best, and their scores.

    Candidate ``i`` scores ``log(N(x_i) / d_i)``, ``x_i = gamma_i^2``, with ``k x <= N(x)
    <= k x / (1 - k x)`` (``k`` = ``ratio.slope``, see the module docstring) and ``x_i <=
    top^2``. So with ``M = max_i k x_i / d_i`` (the best lower bound, itself below the best
    score), a candidate with ``k x_i / d_i < M (1 - k top^2)`` has an upper bound below ``M``
    and cannot win. Leaving out only those below ``M (1 - k top^2)`` by the relative
    :data:`PRUNE_MARGIN` ``* (1 + |log M|)`` keeps every candidate that the tie tolerance of
    :func:`_select` could reach, whatever the rounding; the best is among those kept. The
    test runs on ``v_i = gamma_i sqrt(k / d_i)`` (``v_i^2`` is the lower bound): one product.

    Parameters
    ----------
    ratio : Ratio
        The criterion.
    abs_gamma : ndarray of shape (n_candidates,)
        ``|gamma|`` of every candidate, at most ``top``.
    top : float
        ``max |gamma|`` (at most 1).
    den : _Denominator
        The criterion's denominators at the amount spent.
    among : ndarray of int, optional
        Consider only these candidates (sorted indices), e.g. the unpaid ones.

    Returns
    -------
    index : ndarray of int
        Sorted indices of the candidates kept (every one of ``among``, or all, when no bound
        applies: no ``slope``, a zero denominator, no positive edge, or fewer than
        :data:`PRUNE_MIN_CANDIDATES` candidates).
    score : ndarray
        Their exact scores, equal to the full scoring's at the same indices.
    """
    index = among
    size = abs_gamma.size if among is None else among.size
    if den.root is not None and size >= max(PRUNE_MIN_CANDIDATES, 1):
        v = abs_gamma * den.root if among is None else abs_gamma[among] * den.root[among]
        v_max = float(v.max())
        if v_max > 0.0:
            margin = PRUNE_MARGIN * (1.0 + abs(2.0 * math.log(v_max)))
            reach = (1.0 - margin) * (1.0 - ratio.slope * (top * top))
            if reach > 0.0:
                keep = (v >= v_max * math.sqrt(reach)).nonzero()[0]
                index = keep if among is None else among[keep]
    if index is None:  # no bound applies: every candidate
        index = np.arange(abs_gamma.size)
    return index, ratio.score(abs_gamma[index], den.log[index])


def _choose_stump(
    gamma: np.ndarray,
    space: StumpSpace,
    phase: str,
    criterion: str,
    first_quality: float | None,
    switch: float,
    paid: np.ndarray,
    cand_group: np.ndarray,
    spent: float,
    score_of: _CachedScores,
) -> tuple[int, np.ndarray, str, float | None]:
    """Step 4 of Algorithm 1 for one round: the stump chosen among all candidates.

    ``gamma`` are the candidates' edges (polarity +1) under the round's weights. Returns the
    chosen candidate's index (-1 when no stump has an edge: boosting ends), the ``|gamma|``
    the criterion read (capped at 1; for a cost-aware phase, ``<= GAMMA_ZERO`` set to 0), and
    the ``hybrid`` state (phase, round-1 quality) after the round.
    """
    abs_gamma = np.abs(gamma)
    top = float(abs_gamma.max())
    if top <= GAMMA_ZERO:
        return -1, abs_gamma, phase, first_quality
    if top > 1.0:  # rounding: |gamma| <= sum(D) = 1
        np.minimum(abs_gamma, 1.0, out=abs_gamma)
        top = 1.0
    if phase != "adaboost":  # no information: keep free stumps with ~0 edge out
        abs_gamma[abs_gamma <= GAMMA_ZERO] = 0.0
    if criterion == "hybrid" and phase == "greedy":
        unpaid = np.flatnonzero(~paid[cand_group])
        _, unpaid_score = score_of.contenders(phase, abs_gamma, top, spent, unpaid)
        quality = unpaid_score.max() if unpaid_score.size else -np.inf
        if first_quality is None:
            first_quality = quality
        if not quality >= np.log(switch) + first_quality:
            phase = "smoothed"
    if phase == "adaboost":
        k = _select(abs_gamma, abs_gamma, space.column, space.threshold, top)
    else:  # only the candidates that can win are scored (_contenders)
        index, score = score_of.contenders(phase, abs_gamma, top, spent)
        k = _select(score, abs_gamma, space.column, space.threshold, index=index)
    return k, abs_gamma, phase, first_quality


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
    space: StumpSpace | None = None,
) -> BoostPath:
    """Run Algorithm 1 on validated inputs (``y`` in {-1, +1}) and return the path.

    ``hybrid`` runs ``greedy`` while the best UNPAID stump's greedy score
    ``-ln(1 - gamma^2) / c(h)`` is at least ``switch`` times its value in round 1, then
    ``smoothed`` for good (an infinite round-1 value is matched only by an infinite one).
    """
    space = StumpSpace.from_matrix(X) if space is None else space
    m = X.shape[0]
    cand_group = group_of_column[space.column]
    cand_cost = group_cost[cand_group]
    paid = np.zeros(group_cost.shape[0], dtype=bool)
    weights = np.full(m, 1.0 / m)
    wy = np.empty(m)
    positive = y > 0
    agrees: dict[int, np.ndarray] = {}  # per chosen candidate: 1 where y = h, polarity +1
    spent = 0.0
    phase = "greedy" if criterion == "hybrid" else criterion
    score_of = _CachedScores(cand_cost, tau)
    first_quality = None
    rounds: list[_Round] = []
    stop_reason = "max_rounds"
    if space.n_candidates == 0:
        stop_reason = "no_stumps"
    for _ in range(max_rounds if space.n_candidates else 0):
        gamma = space.edges(np.multiply(weights, y, out=wy))
        k, abs_gamma, phase, first_quality = _choose_stump(
            gamma, space, phase, criterion, first_quality, switch, paid, cand_group, spent, score_of
        )
        if k < 0:
            stop_reason = "zero_edge"
            break
        group = cand_group[k]
        new = not paid[group]
        total = spent + cand_cost[k] if new else spent
        if total > budget:
            stop_reason = "budget"
            break
        paid[group] = True
        spent = total
        polarity = 1.0 if gamma[k] >= 0 else -1.0
        edge = abs_gamma[k]
        capped = min(edge, 1.0 - GAMMA_CAP)
        alpha = 0.5 * np.log((1.0 + capped) / (1.0 - capped))
        j, v = space.column[k], space.threshold[k]
        rounds.append(_Round(j, v, polarity, alpha, edge, group, new, spent, phase))
        if edge >= 1.0 - GAMMA_CAP:
            stop_reason = "perfect_stump"
            break
        # D(i) exp(-alpha y_i h(x_i)): the exponent is -alpha s on the rows where y_i = +1
        # exactly when x_ij >= v (the stump of polarity s = +1 is right there), +alpha s
        # elsewhere; exp of these two values is the same float as elementwise
        agree = agrees.get(k)
        if agree is None:
            agree = agrees[k] = ((X[:, j] >= v) == positive).view(np.uint8)
        weights *= np.exp([alpha * polarity, -alpha * polarity]).take(agree)
        weights /= weights.sum()
    return BoostPath.from_rounds(rounds, stop_reason)


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
    adaboost_path : BoostPath or None, default=None
        With ``criterion="adaboost"``: a plain AdaBoost path fitted on the same training rows
        (:func:`adaboost_path`), used instead of boosting again. AdaBoost's choices do not
        depend on the costs, so the pipeline fits one path per trial and shares it between
        the unbudgeted reference, AdaBoostBT and AdaBoostRS under every cost model; the
        fitted ensemble is bit for bit the one ``fit`` would boost (:meth:`BoostPath.
        under_costs`). A path fitted on other rows is refused. The path holds stumps: with
        ``weak_learner="tree"`` it is an :class:`InvalidParameterError`.
    weak_learner : {"stump", "tree"}, default="stump"
        ``stump``: Algorithm 1 as printed. ``tree``: each round grows one tree of depth at most
        ``max_depth`` with +-1 leaves on the round's weights (:mod:`budgetboost.estimators.boosted_trees`):
        the root is the stump the criterion chooses; then each leaf above ``max_depth``, in
        preorder, is split by the candidate that maximises the criterion of the resulting
        whole tree, ``(gamma, c)`` with ``gamma = sum_i D(i) y_i h(x_i)`` (new leaves take the
        sign of their weighted label sums) and ``c`` the original cost of the tree's distinct
        feature groups, if that beats leaving the leaf; the round pays for the tree's groups
        not yet paid. ``max_depth=1`` is the stump engine, bit for bit.
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

    _parameter_constraints = {
        "criterion": [Options(_ALL_CRITERIA)],
        "budget": BUDGET,
        "max_rounds": [Interval(Integral, 1, None, closed="left")],
        "tau": [Interval(Real, 0, 1, closed="right")],
        "switch": [Interval(Real, 0, math.inf, closed="neither")],
        "feature_costs": FEATURE_COSTS,
        "feature_groups": FEATURE_GROUPS,
        "adaboost_path": ADABOOST_PATH,
        "weak_learner": [Options(("stump", "tree"))],
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

    def _fit(self, data: TrainingData) -> None:
        """Boost until ``max_rounds``, a zero edge, or the budget runs out."""
        budget = np.inf if self.budget is None else float(self.budget)
        if self.adaboost_path is not None and self.criterion != "adaboost":
            raise InvalidParameterError(
                "adaboost_path", f"serves criterion 'adaboost' only; got {self.criterion!r}"
            )
        for name in _TREE_ATTRIBUTES:  # from an earlier fit with the other weak learner
            self.__dict__.pop(name, None)
        if self.weak_learner == "tree":
            if self.adaboost_path is not None:
                raise InvalidParameterError(
                    "adaboost_path",
                    "a shared AdaBoost path holds stumps; it cannot serve "
                    "weak_learner='tree' (leave adaboost_path None)",
                )
            self._fit_trees(data, budget)
            return
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
            )
        self._store_rounds(path, path.feature, path.threshold, path.group, path.new_group)

    def _store_rounds(self, path, feature, threshold, group, new_group) -> None:
        """The fitted attributes of every round (of a stump, or of a tree's root)."""
        self.feature_ = feature
        self.threshold_ = threshold
        self.polarity_ = path.polarity
        self.alpha_ = path.alpha
        self.edge_ = path.edge
        self.group_ = group
        self.spent_ = path.spent
        self.n_features_used_ = np.cumsum(new_group)
        self.criterion_used_ = path.criterion
        self.stop_reason_ = path.stop_reason

    def _fit_trees(self, data: TrainingData, budget: float) -> None:
        """Boost depth-``max_depth`` trees (:mod:`budgetboost.estimators.boosted_trees`)."""
        from budgetboost.estimators.boosted_trees import boost_tree_path

        path = boost_tree_path(
            data.X,
            data.y,
            criterion=self.criterion,
            max_rounds=int(self.max_rounds),
            group_of_column=data.group_of_column,
            group_cost=data.group_cost,
            max_depth=int(self.max_depth),
            budget=budget,
            tau=float(self.tau),
            switch=float(self.switch),
        )
        self.tree_feature_ = path.node_feature
        self.tree_threshold_ = path.node_threshold
        self.tree_group_ = path.node_group
        self.tree_value_ = path.value
        self.group_cost_ = np.array(data.group_cost, dtype=np.float64)
        self._store_rounds(
            path,
            path.node_feature[:, 0].copy(),
            path.node_threshold[:, 0].copy(),
            path.node_group[:, 0].copy(),
            path.new_groups,
        )

    # ------------------------------------------------------------------ prediction
    def rounds_at_budgets(self, budgets) -> np.ndarray:
        """Number of leading rounds affordable at each budget (``inf`` = the whole path)."""
        self._check_fitted()
        return np.searchsorted(self.spent_, check_budgets(budgets), side="right")

    def _scores_at(self, Xa: np.ndarray, n_rounds: np.ndarray) -> np.ndarray:
        """Votes ``F(x) = sum_{t < T} alpha_t h_t(x)`` for each prefix length T: (len, m)."""
        votes = np.zeros((n_rounds.size, Xa.shape[0]))
        if self.alpha_.size:
            h = self._outputs(Xa)
            cumulative = np.cumsum(h * self.alpha_, axis=1)
            has = n_rounds > 0
            votes[has] = cumulative[:, n_rounds[has] - 1].T
        return votes + self.majority_ * VOTE_TIE

    def _outputs(self, Xa: np.ndarray) -> np.ndarray:
        """Outputs ``h_t(x_i)`` in {-1, +1} of every round's stump or tree: (m, T)."""
        if hasattr(self, "tree_feature_"):
            from budgetboost.estimators.boosted_trees import tree_leaves

            leaves = tree_leaves(Xa, self.tree_feature_, self.tree_threshold_)
            return self.tree_value_[np.arange(leaves.shape[1]), leaves]
        return stump_outputs(Xa, self.feature_, self.threshold_, self.polarity_)

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
        n_rounds = self.rounds_at_budgets(budgets)
        last = n_rounds - 1
        spent = np.where(
            n_rounds > 0, self.spent_[np.maximum(last, 0)] if self.spent_.size else 0.0, 0.0
        )
        n_features = np.where(
            n_rounds > 0, self.n_features_used_[np.maximum(last, 0)] if self.spent_.size else 0, 0
        )
        mean_cost = max_cost = spent
        if hasattr(self, "tree_feature_") and X.shape[0]:
            from budgetboost.estimators.boosted_trees import example_costs, tree_leaves

            paid = example_costs(
                tree_leaves(X, self.tree_feature_, self.tree_threshold_),
                self.tree_group_,
                self.group_cost_,
                n_rounds,
            )
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
