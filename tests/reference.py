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


def _best_stump(cands, groups, paid, spent, criterion, phase, q1, switch, tau):
    """The candidate ``(j, v, s, gamma, cost)`` of the round: Hybrid's switch first (from
    Greedy to Smoothed once the best unpaid ratio falls below ``switch`` times the first
    round's ``q1``), then the phase's best value, ties to the larger edge, then the lowest
    ``(column, threshold)`` and positive polarity. Returns it with the phase, ``q1``, the
    phase's tau and whether the criterion is maximised."""
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
    return tied[0], phase, q1, t, maximise


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
        (j, v, s, gamma, c), phase, q1, _, _ = _best_stump(
            cands, groups, paid, spent, criterion, phase, q1, switch, tau
        )
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


def _tree_out(row, nodes, labels):
    """Output of a tree ``{heap index: (column, threshold)}`` with leaves ``{heap: label}``."""
    n = 0
    while n in nodes:
        j, v = nodes[n]
        n = 2 * n + 2 if row[j] >= v else 2 * n + 1
    return labels[n]


def _better(value, best, maximise):
    return value > best if maximise else value < best


def reference_tree_fit(
    X, y, costs, groups, criterion, max_rounds, depth, budget=math.inf, tau=1.0, switch=0.5
):
    """Boosted depth-``depth`` trees, from the definitions
    (``budgetboost.estimators.boosting.tree_weak_learner``).

    The root's edges are summed as :func:`reference_fit` sums them; the trees' edges are
    exactly rounded sums (``math.fsum``). (Whether a perfect stump, ``|gamma| = 1`` up to
    rounding, ties at ``+inf`` with a zero-cost stump under Eq. 1 depends on that rounding, in
    the stump engine and in :func:`reference_fit` alike: such roots may differ.)

    The root is the stump :func:`reference_fit` would choose; then every leaf above
    ``depth``, in preorder, is split by the stump (on its rows) whose whole resulting tree
    (new leaves labelled by the sign of their sums of ``D y``, 0: the parent's label) has the
    best criterion value, ``gamma`` the tree's edge recomputed from scratch and ``c`` the
    original cost of its distinct groups; splits raising the edge by ``GAMMA_ZERO`` or less
    are left out, edges of at least ``1 - GAMMA_CAP`` count as 1; the split is made only
    if it beats the unsplit tree (better value, or a tied value with a larger edge).
    Returns per round ``(feature, threshold, value, alpha, spent)``: heap-layout lists
    (``-1``/``nan`` where no split; the ``2^depth`` leaf slots).
    """
    m = len(y)
    D = [1.0 / m] * m
    H = [0.0] * m
    group_cost = {groups[j]: costs[j] for j in range(len(costs))}
    paid = set()
    spent = 0.0
    phase = "greedy" if criterion == "hybrid" else criterion
    q1 = None
    rounds = []
    splits = sorted({(j, v) for j, v, _ in _stumps(X)})
    for _ in range(max_rounds):
        # --- the root: the stump reference_fit chooses
        cands = []
        for j, v, s in _stumps(X):
            gamma = min(sum(D[i] * y[i] * _h(X[i], j, v, s) for i in range(m)), 1.0)
            if gamma > GAMMA_ZERO:
                cands.append((j, v, s, gamma, group_cost[groups[j]]))
        if not cands:
            break
        (j, v, s, tree_gamma, _), phase, q1, t, maximise = _best_stump(
            cands, groups, paid, spent, criterion, phase, q1, switch, tau
        )
        nodes = {0: (j, v)}
        labels = {1: -s, 2: s}
        # --- the other nodes, in preorder
        stack = [2, 1] if depth > 1 else []
        while stack:
            n = stack.pop()
            rows = [i for i in range(m) if _leaf_of(X[i], nodes) == n]
            tree_cost = sum(group_cost[g] for g in {groups[a] for a, _ in nodes.values()})
            value0, _ = _value(phase, tree_gamma, tree_cost, spent, t)
            options = []
            for a, b in splits:
                up = sum(D[i] * y[i] for i in rows if X[i][a] >= b)
                down = sum(D[i] * y[i] for i in rows if X[i][a] < b)
                new_nodes = {**nodes, n: (a, b)}
                new_labels = {k: w for k, w in labels.items() if k != n}
                for child, total in ((2 * n + 1, down), (2 * n + 2, up)):
                    new_labels[child] = labels[n] if total == 0 else math.copysign(1.0, total)
                g = math.fsum(
                    D[i] * y[i] * _tree_out(X[i], new_nodes, new_labels) for i in range(m)
                )
                g = 1.0 if g >= 1 - GAMMA_CAP else g  # perfect, rounding aside
                if g - tree_gamma <= GAMMA_ZERO:
                    continue
                c = sum(group_cost[h] for h in {groups[k] for k, _ in new_nodes.values()})
                options.append((_value(phase, g, c, spent, t)[0], g, a, b, new_nodes, new_labels))
            if not options:
                continue
            best = (max if maximise else min)(o[0] for o in options)
            tied = [o for o in options if _close(o[0], best)]
            top_gamma = max(o[1] for o in tied)
            tied = [o for o in tied if top_gamma - o[1] <= REL_TIE]
            tied.sort(key=lambda o: (o[2], o[3]))
            value, g, a, b, new_nodes, new_labels = tied[0]
            if _close(value, value0):
                if not g - tree_gamma > REL_TIE:
                    continue
            elif not _better(value, value0, maximise):
                continue
            nodes, labels, tree_gamma = new_nodes, new_labels, g
            if 2 * n + 2 < 2**depth - 1:
                stack += [2 * n + 2, 2 * n + 1]
        # --- payment, alpha, weights
        unpaid_cost = 0.0
        for a, _ in [nodes[k] for k in sorted(nodes, key=_preorder_key)]:
            if groups[a] not in paid:
                paid.add(groups[a])
                unpaid_cost += group_cost[groups[a]]
        if spent + unpaid_cost > budget:
            break
        spent += unpaid_cost
        out = [_tree_out(X[i], nodes, labels) for i in range(m)]
        gamma = min(math.fsum(D[i] * y[i] * out[i] for i in range(m)), 1.0)
        g = min(gamma, 1 - GAMMA_CAP)
        if phase == "speedboost":  # Eq. 3 with l_t(i) = exp(-y_i H_t(x_i))
            right = sum(math.exp(-y[i] * H[i]) for i in range(m) if out[i] == y[i])
            wrong = sum(math.exp(-y[i] * H[i]) for i in range(m) if out[i] != y[i])
            total = right + wrong
            wrong = max(wrong, total * (1 - g) / 2)
            alpha = 0.5 * math.log((total - wrong) / wrong)
        else:
            alpha = 0.5 * math.log((1 + g) / (1 - g))
        n_inner = 2**depth - 1
        feature = [nodes[k][0] if k in nodes else -1 for k in range(n_inner)]
        threshold = [nodes[k][1] if k in nodes else math.nan for k in range(n_inner)]
        value = [_tree_out_slot(k + n_inner, nodes, labels) for k in range(n_inner + 1)]
        rounds.append((feature, threshold, value, alpha, spent))
        if gamma >= 1 - GAMMA_CAP:
            break
        for i in range(m):
            D[i] *= math.exp(-alpha * y[i] * out[i])
            H[i] += alpha * out[i]
        z = sum(D)
        D = [d / z for d in D]
    return rounds


def _leaf_of(row, nodes):
    n = 0
    while n in nodes:
        j, v = nodes[n]
        n = 2 * n + 2 if row[j] >= v else 2 * n + 1
    return n


def _preorder_key(n):
    """Sort key putting heap indices in preorder (the path of left/right turns)."""
    path = []
    while n > 0:
        path.append(0 if n % 2 else 1)
        n = (n - 1) // 2
    return path[::-1]


def _tree_out_slot(slot, nodes, labels):
    """Output of leaf slot ``slot`` (heap index at the last level): its leaf or ancestor's."""
    n = slot
    while n not in labels:
        n = (n - 1) // 2
    return labels[n]
