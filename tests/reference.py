"""A deliberately slow reference of Algorithm 1, written straight from the paper's equations.

Plain Python loops over stumps and examples; criteria evaluated in their original (not log)
form: Eq. 1 and 2 as ``(1 - gamma^2)^(1/...)`` minimised, Eq. 4 maximised, and SpeedBoost's
alpha from Eq. 3 with the unnormalised exponential losses. Used only to check the engine.
"""

from __future__ import annotations

import math

GAMMA_ZERO = 1e-12
GAMMA_CAP = 1e-10
REL_TIE = 1e-9


def _stumps(X):
    n = len(X[0])
    out = []
    for j in range(n):
        values = sorted({row[j] for row in X})
        for v in values[1:]:
            for s in (1.0, -1.0):
                out.append((j, v, s))
    return out


def _h(row, j, v, s):
    return s * (1.0 if row[j] >= v else -1.0)


def _value(criterion, gamma, c, spent, tau):
    """(value, maximise?) of a stump under a criterion, in the paper's form."""
    if criterion == "adaboost":
        return gamma, True
    if criterion == "greedy":  # Eq. 1
        return (0.0 if gamma > 0 else 1.0) if c == 0 else (1 - gamma**2) ** (1 / c), False
    if criterion == "smoothed":  # Eq. 2
        d = tau * spent + c
        return (0.0 if gamma > 0 else 1.0) if d == 0 else (1 - gamma**2) ** (1 / d), False
    if criterion == "speedboost":  # Eq. 4
        num = 1 - math.sqrt(1 - gamma**2)
        return (math.inf if gamma > 0 else 0.0) if c == 0 else num / c, True
    raise ValueError(criterion)


def _close(a, b):
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(a - b) <= REL_TIE * max(abs(a), abs(b), 1e-300)


def reference_fit(X, y, costs, groups, criterion, max_rounds, budget=math.inf, tau=1.0, switch=0.5):
    """Return the list of rounds ``(column, threshold, polarity, alpha)``."""
    m = len(y)
    D = [1.0 / m] * m
    H = [0.0] * m  # SpeedBoost's running vote, for Eq. 3
    group_cost = {groups[j]: costs[j] for j in range(len(costs))}
    paid = set()
    spent = 0.0
    remaining = budget
    phase = "greedy" if criterion == "hybrid" else criterion
    q1 = None
    rounds = []
    stumps = _stumps(X)
    for _ in range(max_rounds):
        cands = []
        for j, v, s in stumps:
            gamma = sum(D[i] * y[i] * _h(X[i], j, v, s) for i in range(m))
            gamma = min(gamma, 1.0)
            if gamma <= GAMMA_ZERO:  # the weak learner returns stumps with a positive edge
                continue
            cands.append((j, v, s, gamma, group_cost[groups[j]]))
        if not cands:
            break
        if criterion == "hybrid" and phase == "greedy":
            unpaid = [
                -math.log(1 - g**2) / c if c > 0 and g < 1 else math.inf  # g = 1: no loss left
                for j, v, s, g, c in cands
                if groups[j] not in paid
            ]
            q = max(unpaid) if unpaid else -math.inf
            q1 = q if q1 is None else q1
            if not (q >= switch * q1 if not math.isinf(q1) else q == q1):
                phase = "smoothed"
        t = 1.0 if phase == "greedy" else tau
        scored = [(_value(phase, g, c, spent, t), (j, v, s, g, c)) for j, v, s, g, c in cands]
        maximise = scored[0][0][1]
        best = (max if maximise else min)(val for (val, _), _ in scored)
        tied = [cand for (val, _), cand in scored if _close(val, best)]
        top_gamma = max(c[3] for c in tied)
        tied = [c for c in tied if top_gamma - c[3] <= REL_TIE]
        tied.sort(key=lambda c: (c[0], c[1], -c[2]))
        j, v, s, gamma, c = tied[0]
        unpaid_cost = 0.0 if groups[j] in paid else group_cost[groups[j]]
        if unpaid_cost > remaining:
            break
        remaining -= unpaid_cost
        spent += unpaid_cost
        paid.add(groups[j])
        g = min(gamma, 1 - GAMMA_CAP)
        if phase == "speedboost":  # Eq. 3 with l_t(i) = exp(-y_i H_t(x_i))
            right = sum(math.exp(-y[i] * H[i]) for i in range(m) if _h(X[i], j, v, s) == y[i])
            wrong = sum(math.exp(-y[i] * H[i]) for i in range(m) if _h(X[i], j, v, s) != y[i])
            total = right + wrong
            wrong = max(wrong, total * (1 - g) / 2)  # the same cap on |gamma|
            alpha = 0.5 * math.log((total - wrong) / wrong)
        else:
            alpha = 0.5 * math.log((1 + g) / (1 - g))
        rounds.append((j, v, s, alpha))
        if gamma >= 1 - GAMMA_CAP:
            break
        for i in range(m):
            hi = _h(X[i], j, v, s)
            D[i] *= math.exp(-alpha * y[i] * hi)
            H[i] += alpha * hi
        z = sum(D)
        D = [d / z for d in D]
    return rounds
