"""The bounded selection of Greedy, Smoothed and SpeedBoost chooses what full scoring chooses.

Each round scores exactly only the candidates whose upper bound reaches the best lower bound
(``criteria.contenders``). These tests compare it with scoring every candidate, on random
candidate sets built to contain exact ties, near-ties on either side of the tie tolerance,
zero and perfect edges and zero costs, and on whole fits.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from helpers import examples, problems
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budgetboost import BudgetedBoost
from budgetboost.estimators.boosting import criteria
from budgetboost.estimators.boosting.criteria import CRITERIA, GAMMA_ZERO, CachedScores, select

RATIOS = ["greedy", "smoothed", "speedboost"]


@pytest.fixture(autouse=True, scope="module")
def bound_every_candidate_set():
    """Bound candidate sets of any size (the engine bounds only the large ones)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(criteria, "PRUNE_MIN_CANDIDATES", 0)
        yield


#: Edges at the edge cases: zero, around GAMMA_ZERO, tiny, ordinary, next to 1, exactly 1.
EDGES = [
    0.0,
    1e-13,
    GAMMA_ZERO,
    2e-12,
    1e-8,
    1e-3,
    0.01,
    0.3,
    0.3 + 1e-15,
    0.5,
    0.9,
    1 - 1e-10,
    1 - 1e-15,
    1.0,
]
COSTS = [0.0, 1e-300, 1e-6, 0.05, 0.5, 0.5 * (1 + 1e-13), 1.0, 1.7, 2.0, 1e6]
#: Relative offsets of a near-tie's denominator: exact, inside and outside TIE_TOL.
OFFSETS = [0.0, 1e-16, -1e-16, 1e-14, -1e-14, 1e-12, -1e-12, 3e-12, -3e-12, 1e-10, 1e-9]


def _numerator(phase: str, g: float) -> float:
    """``N(gamma)`` in the paper's form (Eq. 1/2: -ln(1 - g^2); Eq. 4: 1 - sqrt(1 - g^2))."""
    if phase == "speedboost":
        return g * g / (1.0 + math.sqrt(1.0 - g * g))
    return -math.log1p(-g * g) if g < 1.0 else math.inf


@st.composite
def candidate_sets(draw):
    """Edges, costs, amount spent and (column, threshold) keys of a random candidate set.

    A share of the candidates are near-ties of the first one: another edge, with the cost
    that gives the same ratio up to one of OFFSETS (or exactly the same edge and cost).
    """
    n = draw(st.integers(1, 40))
    edge = st.one_of(st.sampled_from(EDGES), st.floats(0.0, 1.0))
    cost = st.one_of(st.sampled_from(COSTS), st.floats(0.0, 2.0))
    gamma = np.array(draw(st.lists(edge, min_size=n, max_size=n)))
    costs = np.array(draw(st.lists(cost, min_size=n, max_size=n)))
    phase = draw(st.sampled_from(RATIOS))
    spent = draw(st.sampled_from([0.0, 0.0, 0.7, 3.0]))
    tau = draw(st.sampled_from([1.0, 0.4]))
    tie_with = draw(st.lists(st.integers(1, max(n - 1, 1)), max_size=n, unique=True))
    gamma *= draw(st.sampled_from([1.0, 1.0, 1e-4, 1e-7]))  # tiny edges: the tightest bounds
    base_n = _numerator(phase, gamma[0])
    base_d = tau * spent + costs[0] if phase == "smoothed" else costs[0]
    for i in tie_with:
        if i >= n or not 0 < base_n < math.inf or base_d <= 0:
            continue
        if draw(st.booleans()):  # the same candidate again: an exact tie
            gamma[i], costs[i] = gamma[0], costs[0]
            continue
        g = draw(st.floats(1e-6, 1.0 - 1e-6)) * draw(st.sampled_from([1.0, gamma[0]]))
        d = base_d * _numerator(phase, g) / base_n * (1.0 + draw(st.sampled_from(OFFSETS)))
        c = d - tau * spent if phase == "smoothed" else d
        if c > 0:
            gamma[i], costs[i] = g, c
    column = np.array(draw(st.permutations(range(n))), dtype=np.intp)
    threshold = np.array(draw(st.lists(st.sampled_from([1.0, 2.0]), min_size=n, max_size=n)))
    return phase, gamma, costs, spent, tau, column, threshold


def _prepared(gamma: np.ndarray) -> tuple[np.ndarray, float]:
    """``|gamma|`` as a round of ``boost_path`` prepares it, and its maximum."""
    abs_gamma = np.minimum(np.abs(gamma), 1.0)
    abs_gamma[abs_gamma <= GAMMA_ZERO] = 0.0
    return abs_gamma, float(np.abs(gamma).max())


@settings(
    max_examples=examples(1000),
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(case=candidate_sets(), among_seed=st.integers(0, 2**32 - 1))
def test_bounded_selection_chooses_what_full_scoring_chooses(case, among_seed):
    phase, gamma, costs, spent, tau, column, threshold = case
    abs_gamma, top = _prepared(gamma)
    full = CRITERIA[phase](abs_gamma, costs, spent, tau)
    expected = select(full, abs_gamma, column, threshold)

    index, score = CachedScores(costs, tau).contenders(phase, abs_gamma, top, spent)
    np.testing.assert_array_equal(score, full[index])  # the same floats, not close ones
    assert select(score, abs_gamma, column, threshold, index=index) == expected

    # hybrid's quality: the best score among a subset (the unpaid candidates)
    among = np.flatnonzero(np.random.default_rng(among_seed).random(gamma.size) < 0.5)
    _, among_score = CachedScores(costs, tau).contenders(phase, abs_gamma, top, spent, among)
    best = full[among].max() if among.size else -np.inf
    assert (among_score.max() if among_score.size else -np.inf) == best


@pytest.mark.parametrize("phase", RATIOS)
@pytest.mark.parametrize("scale", [1e-7, 1e-4, 0.3])
@pytest.mark.parametrize("offset", [-5e-13, 5e-13, -3e-12, 3e-12, 0.0])
def test_a_near_tie_left_unscored_would_change_nothing(phase, scale, offset):
    """Two candidates whose ratios differ by ``offset`` (relative): inside the tie tolerance
    the larger edge wins; a bound without margin would leave it unscored when the edges are
    tiny (the bounds are then tight to rounding)."""
    g = np.array([1.0, 1.5, 0.5]) * scale
    n = np.array([_numerator(phase, x) for x in g])
    costs = np.array([1.0, n[1] / n[0] * (1.0 + offset), 50.0])
    abs_gamma, top = _prepared(g)
    column, threshold = np.arange(3), np.ones(3)
    full = CRITERIA[phase](abs_gamma, costs, 0.0, 1.0)
    expected = select(full, abs_gamma, column, threshold)
    index, score = CachedScores(costs, 1.0).contenders(phase, abs_gamma, top, 0.0)
    assert select(score, abs_gamma, column, threshold, index=index) == expected


def test_most_candidates_are_left_unscored():
    """The point of the bounds: on spread costs only a handful of candidates are scored."""
    rng = np.random.default_rng(0)
    abs_gamma = rng.uniform(0, 0.2, size=5000)
    costs = rng.uniform(0, 2, size=5000)
    for phase in RATIOS:
        index, _ = CachedScores(costs, 1.0).contenders(phase, abs_gamma, abs_gamma.max(), 1.0)
        assert 1 <= index.size < 50, phase


#: small fits: 0/1 or integer columns (many exact ties), costs with zeros and repeats
FITS = problems(
    rows=(4, 30),
    columns=12,
    levels=(2, 3, 6),
    costs=st.one_of(st.sampled_from([0.0, 0.3, 1.0, 1.0 + 1e-13]), st.floats(1e-3, 2.0)),
    grouped=False,
)


@settings(
    max_examples=examples(300), derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
@given(
    problem=FITS,
    criterion=st.sampled_from(RATIOS + ["hybrid"]),
    tau=st.sampled_from([1.0, 0.4]),
    switch=st.sampled_from([0.5, 0.9]),
)
def test_bounded_fit_equals_the_fully_scored_fit(problem, criterion, tau, switch):
    X, y, costs, _ = problem

    def fit():
        return BudgetedBoost(
            criterion=criterion, max_rounds=25, tau=tau, switch=switch, feature_costs=costs
        ).fit(X, y)

    bounded = fit()
    with pytest.MonkeyPatch.context() as patch:  # a margin of 1: every candidate scored
        patch.setattr(criteria, "PRUNE_MARGIN", 1.0)
        full = fit()
    for name in ("feature_", "threshold_", "polarity_", "alpha_", "spent_", "criterion_used_"):
        np.testing.assert_array_equal(getattr(bounded, name), getattr(full, name))
    assert bounded.stop_reason_ == full.stop_reason_


def test_cached_scores_equal_the_criteria_as_the_budget_is_spent():
    """A fit reuses each criterion's log-denominator until what is spent changes (Eq. 2);
    the scores must equal the criteria's direct values, including +inf/-inf at zero costs
    and zero or perfect edges."""
    from budgetboost.estimators.boosting.criteria import CRITERIA as criteria
    from budgetboost.estimators.boosting.criteria import CachedScores

    rng = np.random.default_rng(5)
    cost = np.concatenate([[0.0, 0.0, 1.5], rng.uniform(0, 2, size=40)])
    cached = CachedScores(cost, tau=0.4)
    for spent in [0.0, 0.0, 1.5, 1.5, 2.25, 7.0]:
        g = rng.uniform(0, 0.6, size=cost.size)
        g[[0, 2]] = 0.0  # 0/0 at a zero cost scores -inf, a zero edge over a cost -inf
        g[-1] = 1.0
        for phase in ["greedy", "smoothed", "speedboost"]:
            tau = 1.0 if phase == "greedy" else 0.4
            direct = criteria[phase](g, cost, spent, tau)
            scores = criteria[phase].score(g, cached.denominator(phase, spent).log)
            np.testing.assert_array_equal(scores, direct)
            assert direct[0] == -np.inf and direct[2] == -np.inf
            assert direct[1] == np.inf or (phase == "smoothed" and spent > 0)


def test_ratio_denominators_are_the_original_or_the_smoothed_cost():
    from budgetboost.estimators.boosting.criteria import CRITERIA as criteria

    cost = np.array([0.0, 0.5, 2.0])
    with np.errstate(divide="ignore"):
        np.testing.assert_array_equal(
            criteria["greedy"].log_denominator(cost, 3.0, 0.4), np.log(cost)
        )
        np.testing.assert_array_equal(
            criteria["speedboost"].log_denominator(cost, 3.0, 0.4), np.log(cost)
        )
        np.testing.assert_array_equal(
            criteria["smoothed"].log_denominator(cost, 3.0, 0.4), np.log(0.4 * 3.0 + cost)
        )
