"""Forward selection by cross-validation: a loop reference written from the definition (every
candidate cross-validated with scikit-learn, one fold at a time), a hand-checked first pick,
the screen, the budget and size limits, and the design it reads."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import expit
from sklearn.linear_model import LogisticRegression

from budgetboost.estimators.contract.pricing import Pricing
from budgetboost.estimators.selection.design import Design, spread_columns, stratified_folds
from budgetboost.estimators.selection.forward import _screen, forward_path


def _softplus(z: float) -> float:
    return max(z, 0.0) + math.log1p(math.exp(-abs(z)))


def reference_forward(design, y, folds, pricing, tradeoff, budget, max_groups, C=1.0):
    """The forward selection from its definition: at each step every affordable group's
    ``k``-fold cross-validated log loss (scikit-learn, one fold at a time, in plain loops)
    plus ``tradeoff`` times its marginal price; the least is added."""
    n, k = y.size, int(folds.max()) + 1

    def cv_loss(columns):
        total = 0.0
        for f in range(k):
            train, test = folds != f, folds == f
            if columns:
                model = LogisticRegression(C=C, tol=1e-12, max_iter=10_000)
                model.fit(design.Z[train][:, columns], y[train])
                scores = model.decision_function(design.Z[test][:, columns])
            else:  # the intercept alone: the log-odds of the fold's training labels
                p = float(np.mean(y[train] > 0))
                scores = np.full(int(test.sum()), math.log(p / (1 - p)))
            total += sum(
                _softplus(-float(a) * float(s)) for a, s in zip(y[test], scores, strict=True)
            )
        return total / n

    chosen, losses = [], [cv_loss([])]
    while len(chosen) < max_groups:
        best = None
        for g in range(design.n_groups):
            if g in chosen or design.starts[g + 1] == design.starts[g]:
                continue
            marginal = pricing.set_cost(np.array(chosen + [g])) - pricing.set_cost(
                np.array(chosen, dtype=int)
            )
            if pricing.set_cost(np.array(chosen + [g])) > budget + 1e-12:
                continue
            columns = [int(c) for h in chosen + [g] for c in design.of([h])]
            loss = cv_loss(columns)
            if best is None or loss + tradeoff * marginal < best[0]:
                best = (loss + tradeoff * marginal, g, loss)
        if best is None:
            break
        chosen.append(best[1])
        losses.append(best[2])
    return chosen, losses


def _problem(seed: int, n: int = 90):
    """Continuous columns (no ties), groups of one or two columns, informative and not."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 7))
    y = np.where(X[:, 0] + 0.8 * X[:, 2] - 0.6 * X[:, 5] + rng.normal(size=n) > 0, 1.0, -1.0)
    group_of_column = np.array([0, 1, 2, 2, 3, 4, 4])
    return X, y, group_of_column, rng


@pytest.mark.parametrize("tradeoff", [0.0, 0.05, 0.4])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_path_is_the_loop_reference_when_every_group_is_shortlisted(seed, tradeoff):
    X, y, group_of_column, rng = _problem(seed)
    design = Design.build(X, group_of_column, 5, per_group=8)
    folds = stratified_folds(y, 3, rng)
    pricing = Pricing.plain(rng.uniform(0.2, 2.0, size=5))
    budget, max_groups = 4.0, 4
    path = forward_path(
        design,
        y,
        folds,
        pricing,
        np.ones(5, dtype=bool),
        tradeoff=tradeoff,
        budget=budget,
        max_groups=max_groups,
        shortlist=5,
    )
    groups, losses = reference_forward(design, y, folds, pricing, tradeoff, budget, max_groups)
    assert path.groups.tolist() == groups
    assert np.allclose(path.loss, losses, atol=1e-7)
    assert np.allclose(
        path.price[1:], [pricing.set_cost(path.groups[: k + 1]) for k in range(len(groups))]
    )


def test_discount_groups_price_a_shared_part_once():
    """With Turney's discount groups the marginal price of a second test of a touched group is
    its discount price: the path is the reference's, which prices sets with ``Pricing``."""
    X, y, group_of_column, rng = _problem(4)
    design = Design.build(X, group_of_column, 5, per_group=8)
    folds = stratified_folds(y, 3, rng)
    pricing = Pricing(
        cost=np.array([1.5, 1.0, 1.4, 0.5, 1.2]),
        discount_group=np.array([0, -1, 0, -1, 0]),
        base=np.array([0.3, 1.0, 0.2, 0.5, 0.4]),
        shared=np.array([1.2]),
    )
    path = forward_path(
        design,
        y,
        folds,
        pricing,
        np.ones(5, dtype=bool),
        tradeoff=0.2,
        budget=3.0,
        max_groups=5,
        shortlist=5,
    )
    groups, losses = reference_forward(design, y, folds, pricing, 0.2, 3.0, 5)
    assert path.groups.tolist() == groups
    assert np.allclose(path.loss, losses, atol=1e-7)
    assert path.price[-1] == pytest.approx(pricing.set_cost(path.groups)) and path.price[-1] <= 3.0


def test_hand_checked_first_group():
    """Group 0 predicts the label exactly and costs 2; group 1 agrees with it on 80 % of the
    rows and costs 0.1; group 2 is noise and free. The cross-validated losses are about 0
    (group 0), 0.5 (group 1: the entropy of an 80/20 split) and log 2 (group 2). Price-blind,
    group 0 enters first; at a trade-off of 1 nat per unit of price group 0 costs 1.9 more
    than group 1 for a loss about 0.45 lower, and group 2 saves 0.1 for a loss about 0.19
    higher: group 1 enters first."""
    rng = np.random.default_rng(0)
    n = 100
    y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
    agree = np.ones(n, dtype=bool)
    agree[rng.choice(n // 2, 10, replace=False) * 2] = False  # 10 positives, 10 negatives
    agree[rng.choice(n // 2, 10, replace=False) * 2 + 1] = False
    X = np.column_stack([y > 0, np.where(agree, y > 0, y < 0), rng.random(n) > 0.5]).astype(float)
    design = Design.build(X, np.arange(3), 3, per_group=1)
    folds = stratified_folds(y, 3, rng)
    pricing = Pricing.plain(np.array([2.0, 0.1, 0.0]))
    eligible = np.ones(3, dtype=bool)
    first = {
        tradeoff: forward_path(
            design,
            y,
            folds,
            pricing,
            eligible,
            tradeoff=tradeoff,
            budget=10.0,
            max_groups=1,
            shortlist=3,
        )
        for tradeoff in (0.0, 1.0)
    }
    assert first[0.0].groups.tolist() == [0]
    assert first[1.0].groups.tolist() == [1]
    assert first[1.0].loss[1] == pytest.approx(0.5, abs=0.05)
    assert first[0.0].loss[1] < 0.2
    assert first[0.0].loss[0] == pytest.approx(math.log(2), abs=0.01)


def test_a_path_never_exceeds_its_budget_nor_its_size():
    X, y, group_of_column, rng = _problem(5, n=120)
    design = Design.build(X, group_of_column, 5, per_group=8)
    folds = stratified_folds(y, 3, rng)
    pricing = Pricing.plain(np.array([1.0, 0.7, 1.2, 0.4, 2.5]))
    eligible = np.array([True, True, True, True, False])
    for budget, max_groups in [(0.5, 5), (1.5, 5), (10.0, 2), (0.0, 5)]:
        path = forward_path(
            design,
            y,
            folds,
            pricing,
            eligible,
            tradeoff=0.0,
            budget=budget,
            max_groups=max_groups,
            shortlist=2,
        )
        assert path.groups.size <= max_groups and 4 not in path.groups.tolist()
        assert pricing.set_cost(path.groups) <= budget
        # it stops only when no eligible group fits what remains, or at the size cap
        left = [g for g in range(4) if g not in path.groups.tolist()]
        fits = [g for g in left if pricing.set_cost(np.append(path.groups, g)) <= budget]
        assert path.groups.size == max_groups or not fits


def test_screen_is_the_newton_decrease_of_the_best_column():
    """Each candidate's screen is the largest, over its columns, of ``(r . z)^2 / (2 n
    sum w z^2)`` at the current scores, written here in loops."""
    X, y, group_of_column, rng = _problem(6)
    design = Design.build(X, group_of_column, 5, per_group=8)
    scores = rng.normal(size=y.size)
    candidates = np.array([0, 2, 4])
    got = _screen(design, (y > 0).astype(float), scores, candidates)
    for value, g in zip(got, candidates, strict=True):
        best = 0.0
        for c in design.of([g]):
            num = sum((float(y[i] > 0) - expit(scores[i])) * design.Z[i, c] for i in range(y.size))
            den = sum(
                expit(scores[i]) * (1 - expit(scores[i])) * design.Z[i, c] ** 2
                for i in range(y.size)
            )
            best = max(best, num**2 / (2 * y.size * den))
        assert value == pytest.approx(best, rel=1e-10)


def test_spread_columns_keep_a_large_groups_range_and_drop_constants():
    """Of 40 nested thresholds 5 are kept, at ranks rint(k * 39 / 4) of the columns ordered
    by mean (0, 10, 20, 29, 39: numpy rounds 19.5 to 20); a constant column never; a small
    group keeps its columns."""
    rng = np.random.default_rng(0)
    v = rng.normal(size=300)
    thresholds = [v > t for t in np.linspace(-2, 2, 40)]  # means decrease with the column
    X = np.column_stack([*thresholds, np.ones(300), rng.random(300) > 0.5]).astype(float)
    groups = np.array([0] * 41 + [1])
    kept = spread_columns(X, groups, 5)
    assert kept.tolist() == sorted([39 - r for r in (0, 10, 20, 29, 39)] + [41])
    design = Design.build(X, groups, 2, per_group=5)
    assert design.starts.tolist() == [0, 5, 6]
    assert np.allclose(design.Z.mean(axis=0), 0) and np.allclose(design.Z.std(axis=0), 1)


def test_stratified_folds_share_each_class():
    rng = np.random.default_rng(1)
    y = np.where(rng.random(101) < 0.3, 1.0, -1.0)
    folds = stratified_folds(y, 3, rng)
    for label in (-1.0, 1.0):
        counts = np.bincount(folds[y == label], minlength=3)
        assert counts.max() - counts.min() <= 1
