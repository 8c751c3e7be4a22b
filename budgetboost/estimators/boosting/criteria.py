"""The cost-aware criteria of Algorithm 1, and how a round chooses its stump (step 4).

A criterion is a function ``(abs_gamma, cost, spent, tau) -> score`` (higher is better) of a
stump's edge ``|gamma|``, the ORIGINAL cost ``c(h)`` of its feature group and what has been
spent, computed in log space; adding one means adding one entry to :data:`CRITERIA` (a
:class:`Ratio` of a log-numerator in ``|gamma|`` and a log-denominator in the cost):

- ``adaboost``: ``|gamma|`` (AdaBoost, and AdaBoostBT under a budget);
- ``greedy``: Eq. 1 of Huang, Powers & Reyzin (IJCAI 2015), minimise ``(1 - gamma^2)^(1/c(h))``;
- ``smoothed``: Eq. 2, minimise ``(1 - gamma^2)^(1/(tau (B - B_t) + c(h)))``;
- ``speedboost``: Eq. 4 (Grubb & Bagnell 2012), maximise ``(1 - sqrt(1 - gamma^2)) / c(h)``;
- ``hybrid`` (:class:`StumpChoice`): ``greedy`` until the best unpaid stump's score falls
  below ``switch`` times its round-1 value, then ``smoothed``.

A round does not take the logarithms of every candidate (Greedy runs all 500 rounds over the
11,196 stumps of binarized sonar): each :class:`Ratio` numerator ``N`` lies between two cheap
bounds in ``x = gamma^2``, ``k x <= N(x) <= k x / (1 - k x)`` (Eq. 1 and 2: ``x <= -ln(1 -
x) <= x / (1 - x)``, ``k = 1``; Eq. 4: ``x/2 <= 1 - sqrt(1 - x) <= x / (2 - x)``, ``k =
1/2``), and only the candidates whose upper bound reaches the best lower bound are scored
exactly (:func:`contenders`). The others score below the best by more than the tie
tolerance, so the chosen stump, ties included, is the one the full scoring would choose.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

from .stumps import StumpSpace

__all__ = [
    "CRITERIA",
    "CRITERION_NAMES",
    "GAMMA_CAP",
    "GAMMA_ZERO",
    "TIE_TOL",
    "CachedScores",
    "Ratio",
    "StumpChoice",
    "contenders",
    "score_one",
    "select",
]

#: Edges with ``|gamma|`` at or below this are treated as exactly zero (no information).
GAMMA_ZERO = 1e-12
#: ``|gamma|`` is capped at ``1 - GAMMA_CAP`` for alpha (alpha <= about 11.86); such a
#: perfect stump ends boosting, since every later distribution would be degenerate.
GAMMA_CAP = 1e-10
#: Scores within this (relative, plus absolute) tolerance of the best count as a tie.
TIE_TOL = 1e-12
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
    ``x = gamma^2`` (module docstring), with which :func:`contenders` leaves out the
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
#: ``adaboost`` (which :class:`StumpChoice` scores by ``|gamma|`` directly) is a :class:`Ratio`.
CRITERIA: dict[str, Criterion] = {
    "adaboost": adaboost_score,
    # Eq. 1: minimise (1 - gamma^2)^(1/c(h)), c(h) the original cost
    "greedy": Ratio(_log_loss_reduction, slope=1.0),
    # Eq. 2: minimise (1 - gamma^2)^(1/(tau*(B - B_t) + c(h)))
    "smoothed": Ratio(_log_loss_reduction, slope=1.0, smoothed=True),
    # Eq. 4 (SpeedBoost, Grubb & Bagnell 2012): maximise (1 - sqrt(1 - gamma^2)) / c(h)
    "speedboost": Ratio(_log_speed_gain, slope=0.5),
}
#: Every criterion a booster may be given (``hybrid`` switches between two of them).
CRITERION_NAMES = (*CRITERIA, "hybrid")


def select(
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


class _Denominator(NamedTuple):
    """One :class:`Ratio`'s denominator at one amount spent, in the forms a round reads."""

    log: np.ndarray  # log of the denominator: the exact scores subtract it
    root: np.ndarray | None  # sqrt(slope / denominator) for the bounds; None: no bounds


class CachedScores:
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
        """:func:`contenders` under criterion ``phase``."""
        return contenders(CRITERIA[phase], abs_gamma, top, self.denominator(phase, spent), among)


def contenders(
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
    :func:`select` could reach, whatever the rounding; the best is among those kept. The
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


class StumpChoice:
    """Step 4 of Algorithm 1, round after round: the stump each round's criterion chooses.

    Holds what the choice carries from round to round: the cached denominators of the
    candidates' costs and, for ``hybrid``, its phase and round-1 quality. ``hybrid`` runs
    ``greedy`` while the best UNPAID stump's greedy score ``-ln(1 - gamma^2) / c(h)`` is at
    least ``switch`` times its value in round 1, then ``smoothed`` for good (an infinite
    round-1 value is matched only by an infinite one).

    Parameters
    ----------
    space : StumpSpace
        The candidates.
    criterion : str
        One of :data:`CRITERION_NAMES`.
    cand_group, cand_cost : ndarray of shape (n_candidates,)
        Feature group of each candidate and its group's original cost (with discount
        groups: its price given the discount groups touched, :meth:`reprice`).
    tau, switch : float
        Eq. 2's scale of the amount spent; ``hybrid``'s switch threshold.

    Attributes
    ----------
    phase : str
        The criterion the last round applied (``hybrid``: ``greedy``, then ``smoothed``).
    """

    def __init__(
        self,
        space: StumpSpace,
        criterion: str,
        cand_group: np.ndarray,
        cand_cost: np.ndarray,
        tau: float,
        switch: float,
    ):
        self.space = space
        self.criterion = criterion
        self.cand_group = cand_group
        self.switch = switch
        self.scores = CachedScores(cand_cost, tau)
        self.phase = "greedy" if criterion == "hybrid" else criterion
        self._first_quality: float | None = None

    def reprice(self, cand_cost: np.ndarray) -> None:
        """New prices of the candidates (a discount group was touched: its tests now cost
        their discount price); the cached denominators are recomputed."""
        self.scores = CachedScores(cand_cost, self.scores.tau)

    def deciding(
        self, gamma: np.ndarray, paid: np.ndarray, spent: float, error: float
    ) -> np.ndarray | None:
        """The candidates whose edges decide :meth:`choose` this round, when each edge of
        ``gamma`` is within ``error`` of its exact value; None: any of them may.

        With those candidates' edges exact, :meth:`choose` returns what it returns on the
        exact edges (the others' only need to be within ``error``). Kept: the candidates
        that may reach ``max |gamma|`` within ``2 error`` and the tie tolerance (the top,
        and ``adaboost``'s choice), and for each criterion the round may apply (``hybrid``:
        greedy over all and over the unpaid, and smoothed) those whose upper bound (at
        ``|gamma| + error``) reaches the best lower bound (at ``|gamma| - error``, 0 at or
        below :data:`GAMMA_ZERO`) by :func:`contenders`' test: every other one scores below
        the best by more than the tie tolerance, whichever its exact edge.
        """
        abs_gamma = np.abs(gamma)
        top = float(abs_gamma.max())
        if top <= GAMMA_ZERO + error:  # boosting may end: every edge decides
            return None
        reach_top = top - 2.0 * error - 2.0 * TIE_TOL * (1.0 + top + error)
        keep = abs_gamma >= reach_top
        if self.phase == "adaboost":
            return keep.nonzero()[0]
        high = np.minimum(abs_gamma + error, 1.0)
        low = abs_gamma - error
        low[low <= GAMMA_ZERO] = 0.0
        np.minimum(low, 1.0, out=low)
        phases = [(self.phase, None)]
        if self.criterion == "hybrid" and self.phase == "greedy":
            unpaid = ~paid[self.cand_group]
            phases += [("greedy", unpaid), ("smoothed", None)]
        for phase, among in phases:
            ratio, den = CRITERIA[phase], self.scores.denominator(phase, spent)
            if den.root is None:
                return None
            v_low, v_high = low * den.root, high * den.root
            if among is not None:
                v_low = np.where(among, v_low, 0.0)
                v_high = np.where(among, v_high, 0.0)
            v_max = float(v_low.max())
            if v_max <= 0.0:
                return None
            v_top = float(v_high.max())
            margin = PRUNE_MARGIN * (1.0 + max(abs(2.0 * math.log(v)) for v in (v_max, v_top)))
            bound = min(top + error, 1.0)
            reach = (1.0 - margin) * (1.0 - ratio.slope * (bound * bound))
            if reach <= 0.0:
                return None
            keep |= v_high >= v_max * math.sqrt(reach)
        return keep.nonzero()[0]

    def choose(self, gamma: np.ndarray, paid: np.ndarray, spent: float) -> tuple[int, np.ndarray]:
        """The stump chosen among all candidates this round.

        ``gamma`` are the candidates' edges (polarity +1) under the round's weights, ``paid``
        which feature groups are paid for. Returns the chosen candidate's index (-1 when no
        stump has an edge: boosting ends) and the ``|gamma|`` the criterion read (capped at
        1; for a cost-aware phase, ``<= GAMMA_ZERO`` set to 0).
        """
        space, phase = self.space, self.phase
        abs_gamma = np.abs(gamma)
        top = float(abs_gamma.max())
        if top <= GAMMA_ZERO:
            return -1, abs_gamma
        if top > 1.0:  # rounding: |gamma| <= sum(D) = 1
            np.minimum(abs_gamma, 1.0, out=abs_gamma)
            top = 1.0
        if phase != "adaboost":  # no information: keep free stumps with ~0 edge out
            abs_gamma[abs_gamma <= GAMMA_ZERO] = 0.0
        if self.criterion == "hybrid" and phase == "greedy":
            unpaid = np.flatnonzero(~paid[self.cand_group])
            _, unpaid_score = self.scores.contenders(phase, abs_gamma, top, spent, unpaid)
            quality = unpaid_score.max() if unpaid_score.size else -np.inf
            if self._first_quality is None:
                self._first_quality = quality
            if not quality >= np.log(self.switch) + self._first_quality:
                phase = self.phase = "smoothed"
        if phase == "adaboost":
            k = select(abs_gamma, abs_gamma, space.column, space.threshold, top)
        else:  # only the candidates that can win are scored (contenders)
            index, score = self.scores.contenders(phase, abs_gamma, top, spent)
            k = select(score, abs_gamma, space.column, space.threshold, index=index)
        return k, abs_gamma


def score_one(phase: str, gamma: float, cost: float, spent: float, tau: float) -> float:
    """The criterion ``phase`` of one hypothesis of edge ``gamma`` and original cost ``cost``:
    the value :data:`CRITERIA` gives, in scalar arithmetic (a tree's split test)."""
    if phase == "adaboost":
        return gamma
    ratio = CRITERIA[phase]
    den = ratio.denominator(cost, spent, tau)
    if gamma <= 0.0:
        num = -math.inf
    elif ratio.slope == 1.0:  # Eq. 1 and 2: log(-ln(1 - gamma^2))
        num = math.inf if gamma >= 1.0 else math.log(-math.log1p(-gamma * gamma))
    else:  # Eq. 4: log(1 - sqrt(1 - gamma^2))
        num = math.log(gamma * gamma) - math.log1p(math.sqrt(1.0 - gamma * gamma))
    log_den = math.log(den) if den > 0 else -math.inf
    if math.isinf(num) and num == log_den:
        return -math.inf  # 0/0 or inf/inf, as Ratio.score's nan
    return num - log_den
