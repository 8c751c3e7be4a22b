"""The acquisition of :class:`~.aaco.AACO`, vectorised over examples: its fitted oracle and the
rollout of every example's trajectory.

An :class:`Oracle` is what one fit holds: the pool of candidate feature groups with their
prices, the classifier on masked inputs (the logistic model of :mod:`~.masked_logistic` or
the network of :mod:`~.masked_network`), the oracle rows (the training rows the nearest
neighbours come from, with their labels) and the random candidate subsets of every step.
:func:`rollout` runs the approximate acquisition conditioned oracle (AACO, Valancius et al.
2024) for every example and every configuration (a cost trade-off ``alpha`` and a horizon)
at once:

1. **Neighbours.** The ``k`` oracle rows nearest to the example on its observed groups stand
   for ``p(x_u, y | x_o)``. The distance is a sum over the observed groups of the L1
   distance on a group's columns divided by its mean over pairs of oracle rows (a
   standardised distance, as the authors standardise features), counted in whole units of
   1/1024 (``_GroupDistances``) so that equal distances are exactly equal. Ties are
   broken by the oracle rows' stored order, a random permutation drawn at fit. With nothing
   observed (the first step) every oracle row is a neighbour: ``p(x, y)`` itself.
2. **Candidate subsets.** Every singleton of the pool and ``n_subsets`` random subsets of it
   (drawn at fit, one set per step, shared by all examples), each less what the example has
   observed. A subset is a candidate if its marginal price, with what the example has paid,
   fits within the configuration's horizon (by default the fitted ``budget``).
3. **The ACO objective.** Each candidate ``v`` costs ``(1/k) sum_n loss(y_n, f(x_o, x_{n,v}))
   + alpha * c(v | o)``: the mean logistic loss over the neighbours of the classifier fed the
   example's observed values and the neighbour's values on ``v``, plus ``alpha`` times the
   price of ``v`` given what is paid. The empty subset (stopping) costs the mean loss of the
   current prediction. Both classifiers are additive over groups up to their output: the
   logistic model's score (one product scores every candidate of every neighbour,
   ``_evaluate``), the network's hidden pre-activations (the same product, ``H`` times
   wider, then the rectifier and the output layer, ``_evaluate_network``).
4. **Acquire or stop.** The example acquires the group of the best subset (ties: the
   earlier candidate) whose own objective as a singleton is lowest (ties: the earlier pool
   position), and the next step plans anew; or it stops. With ``stopping="aco"`` it stops
   when the empty subset is best (ties: stop), as the paper's ACO; with
   ``stopping="improvement"`` only subsets that lower the expected loss are candidates,
   and it stops when none is left (the budget-constrained ACO's rule).

Examples whose observed groups and values are equal share their neighbours and losses, so
the work of a step is done once per distinct *state* (all examples and configurations start
in one; the first steps have few), then each (configuration, example) row picks its action
(a configuration's horizon and ``alpha`` enter there only). The losses of step 3 are
computed in float32 (:data:`LOSS_DTYPE`: half the time of float64); candidates whose
objectives differ by less than its rounding (~1e-7) are ties, which the arithmetic breaks,
always the same way.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .boosted import MaskedBoosted, SubsetBoosted, predicted_scores
from .masked_logistic import MaskedLogistic, softplus
from .masked_network import MaskedNetwork

__all__ = ["Oracle", "Trajectories", "nearest", "predicted", "rollout"]

#: The floating type of the (states, neighbours, candidates) loss tensor.
LOSS_DTYPE = np.float32
#: A group's distance is counted in units of 1 / UNITS of its scale, rounded (whole numbers).
UNITS = 1024.0
#: The most distance one group adds, in those units (1024 scales).
CAP = float(2**20)
#: Groups of at most this many distinct values (patterns) look their distances up in a table.
MAX_TABLE = 256
#: Elements of the (states, neighbours, candidates) loss tensor evaluated at once.
_BLOCK_ELEMENTS = 1 << 21
#: Elements of the network's (candidates, states, neighbours, hidden units) tensor at once.
_NETWORK_BLOCK_ELEMENTS = 1 << 18


@dataclass(frozen=True, eq=False)
class Oracle:
    """One fitted AACO model (see the module docstring).

    Attributes
    ----------
    pool : ndarray of int, shape (P,)
        The feature groups that may be acquired (indices of the fit's groups).
    distance_columns : ndarray of int, shape (n_distance_columns,)
        The columns of ``X`` of the pool's groups, group by group.
    distance_group : ndarray of int, shape (n_distance_columns,)
        The pool position of each of those columns.
    scale : ndarray of shape (P,)
        Each group's mean L1 distance over pairs of oracle rows (1 where that is 0).
    oracle_X : ndarray of shape (n, n_distance_columns)
        The oracle rows on ``distance_columns``, in their stored (random) order.
    oracle_y : ndarray of shape (n,)
        Their labels, -1/+1.
    oracle_rows : ndarray of int, shape (n,)
        The training row of each oracle row.
    oracle_contributions : ndarray of shape (n, P) or (n, P, H)
        The classifier's group contributions of the oracle rows (the network's: to its ``H``
        hidden pre-activations).
    classifier : MaskedLogistic or MaskedNetwork
    base : ndarray of shape (P,)
        What acquiring a group adds once its discount group is paid (its price where it has
        none).
    discount_group : ndarray of int, shape (P,)
        The discount group of each pool group (``-1``: none), numbered 0 .. D - 1.
    shared : ndarray of shape (D,)
        Each discount group's shared part.
    candidates : ndarray of bool, shape (max_acquisitions, P + n_subsets, P)
        The candidate subsets of each step: the P singletons, then the random subsets.
    n_neighbors : int
    horizon : float
        The largest total an example may pay (the fitted ``budget``; ``inf``: none), unless
        :func:`rollout` is given a configuration's own (smaller) horizon.
    stopping : {"aco", "improvement"}
        The stopping rule (module docstring, step 4).
    predictor : SubsetBoosted, MaskedBoosted or None
        What predicts from the groups an example acquired (:mod:`~.boosted`); ``None``: the
        classifier itself. The acquisition is planned with the classifier either way.
    """

    pool: np.ndarray
    distance_columns: np.ndarray
    distance_group: np.ndarray
    scale: np.ndarray
    oracle_X: np.ndarray
    oracle_y: np.ndarray
    oracle_rows: np.ndarray
    oracle_contributions: np.ndarray
    classifier: MaskedLogistic | MaskedNetwork
    base: np.ndarray
    discount_group: np.ndarray
    shared: np.ndarray
    candidates: np.ndarray
    n_neighbors: int
    horizon: float
    stopping: str = "aco"
    predictor: SubsetBoosted | MaskedBoosted | None = None

    @property
    def size(self) -> int:
        """P: the groups of the pool."""
        return int(self.pool.size)

    def price(self, group: np.ndarray, touched: np.ndarray) -> np.ndarray:
        """Marginal price of acquiring pool group ``group[i]`` given the discount groups
        ``touched[i]`` already paid (shape (n, D))."""
        price = self.base[group]
        if self.shared.size:
            d = self.discount_group[group]
            fresh = (d >= 0) & ~touched[np.arange(group.size), np.maximum(d, 0)]
            price = price + np.where(fresh, self.shared[np.maximum(d, 0)], 0.0)
        return price


@dataclass(frozen=True, eq=False)
class Trajectories:
    """What :func:`rollout` returns: row ``r = c * n_examples + i`` is example ``i`` under
    configuration ``c``; ``T`` is ``max_acquisitions``.

    Attributes
    ----------
    group : ndarray of int, shape (n_rows, T)
        Pool position of the group acquired at each step (``-1`` after the example stopped).
    paid : ndarray of shape (n_rows, T)
        The cumulative price paid after each step (``inf`` after the example stopped).
    score : ndarray of shape (n_rows, T + 1)
        The classifier's score after each number of acquisitions (column 0: none).
    """

    group: np.ndarray
    paid: np.ndarray
    score: np.ndarray

    def at_budgets(self, budgets: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The longest affordable prefix of every row at every budget.

        Returns
        -------
        steps : ndarray of int, shape (n_budgets, n_rows)
            Acquisitions whose cumulative price is at most the budget.
        score, cost : ndarray of shape (n_budgets, n_rows)
            The score after them and what they cost.
        """
        taken = np.isfinite(self.paid)  # inf: after the row stopped
        steps = (taken[None] & (self.paid[None] <= budgets[:, None, None])).sum(axis=2)
        rows = np.arange(self.paid.shape[0])
        score = self.score[rows[None, :], steps]
        paid = np.concatenate([np.zeros((self.paid.shape[0], 1)), self.paid], axis=1)
        return steps, score, paid[rows[None, :], steps]


def nearest(distance: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` columns of smallest distance in each row, ties to the lower column: shape
    (n_rows, k), increasing column order (all columns when there are at most ``k``).

    ``distance`` holds whole numbers (below ``2**53 / n_columns``), so ``distance *
    n_columns + column`` ranks (distance, column) exactly and one partition finds them.
    """
    n_rows, n = distance.shape
    if k >= n:
        return np.broadcast_to(np.arange(n), (n_rows, n))
    key = distance * n
    key += np.arange(n)
    return np.sort(np.argpartition(key, k - 1, axis=1)[:, :k], axis=1)


def mean_absolute_difference(values: np.ndarray) -> np.ndarray:
    """Mean of ``|a - b|`` over the pairs of rows of ``values`` (n, c), per column."""
    n = values.shape[0]
    if n < 2:
        return np.zeros(values.shape[1])
    ordered = np.sort(values, axis=0)
    weight = 2.0 * np.arange(1, n + 1) - n - 1
    return 2.0 * (weight @ ordered) / (n * (n - 1))


def _patterns(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of ``rows`` (in lexicographic order) and the index of each row
    among them, as ``np.unique(axis=0)`` gives them.

    0/1 rows are numbered by their binary value, 52 columns to a float64 word (exact), and
    the words sorted: much faster than ``np.unique``'s row-wise comparisons.
    """
    if not np.all((rows == 0) | (rows == 1)):
        patterns, code = np.unique(rows, axis=0, return_inverse=True)
        return patterns, code.reshape(-1)
    n_words = max(1, -(-rows.shape[1] // 52))
    padded = np.zeros((rows.shape[0], n_words * 52))
    padded[:, : rows.shape[1]] = rows
    words = padded.reshape(rows.shape[0], n_words, 52) @ 2.0 ** np.arange(51, -1, -1)
    order = np.lexsort(words.T[::-1])
    ordered = words[order]
    new = np.concatenate([[True], np.any(ordered[1:] != ordered[:-1], axis=1)])
    code = np.empty(rows.shape[0], dtype=np.intp)
    code[order] = np.cumsum(new) - 1
    return rows[order[new]], code


class _GroupDistances:
    """The distance a group adds between query rows and the oracle rows (module docstring,
    step 1), and a code of each query row's values on each group (equal codes: equal
    values), for one rollout.

    A group adds ``min(rint(|x_g - x'_g|_1 * UNITS / s_g), CAP)``: its L1 distance in units
    of ``1 / UNITS`` of its scale ``s_g`` (the mean over pairs of oracle rows), rounded, so
    that distances are whole numbers and equal distances exactly equal (ties then go to the
    oracle rows' stored order), and capped (an outlier counts as far, not as everything). A
    group with few distinct values (patterns of its columns) among the oracle and query rows
    looks it up in a table over them (0/1 indicators: two values, or one more pattern than
    threshold columns); a one-column group of many values computes it from the two values.
    """

    def __init__(self, oracle: Oracle, X: np.ndarray):
        P = oracle.size
        m, n = X.shape[0], oracle.oracle_X.shape[0]
        Xq = X[:, oracle.distance_columns]
        single = np.bincount(oracle.distance_group, minlength=P) == 1
        self.unit = UNITS / oracle.scale
        first = np.searchsorted(oracle.distance_group, np.arange(P))  # a column of each
        self.query_value = Xq[:, first] + 0.0  # (m, P); -0.0 becomes 0.0
        self.oracle_value = oracle.oracle_X[:, first].T + 0.0  # (P, n)
        # one-column groups: a code per value, its rank among the values seen
        both = np.concatenate([self.oracle_value.T, self.query_value])
        order = np.argsort(both, axis=0, kind="stable")
        ordered = np.take_along_axis(both, order, axis=0)
        new = np.concatenate([np.zeros((1, P)), np.diff(ordered, axis=0) != 0])
        rank = np.cumsum(new, axis=0).astype(np.int64)
        codes = np.empty((n + m, P), dtype=np.int64)
        np.put_along_axis(codes, order, rank, axis=0)
        self.code = codes[n:].copy()  # (m, P)
        self.oracle_code = codes[:n].T.copy()  # (P, n)
        self.n_patterns = rank[-1] + 1
        self.tabled = ~single | (self.n_patterns <= MAX_TABLE)
        self.offset = np.zeros(P, dtype=np.intp)
        tables, offset = [], 0
        for g in np.flatnonzero(self.tabled):  # setup only: once per group of few values
            if single[g]:
                patterns = np.unique(both[:, g])[:, None]
            else:
                cols = np.flatnonzero(oracle.distance_group == g)
                rows = np.concatenate([oracle.oracle_X[:, cols], Xq[:, cols]]) + 0.0
                patterns, code = _patterns(rows)
                self.oracle_code[g] = code[:n]
                self.code[:, g] = code[n:]
                self.n_patterns[g] = patterns.shape[0]
            table = np.zeros((patterns.shape[0], patterns.shape[0]))
            for column in patterns.T:
                table += np.abs(column[:, None] - column[None, :])
            tables.append(np.minimum(np.rint(table.ravel() * self.unit[g]), CAP))
            self.offset[g] = offset
            offset += table.size
        self.table = np.concatenate(tables) if tables else np.zeros(0)
        self.n_codes = int(self.code.max(initial=0)) + 1

    def add(self, distance: np.ndarray, example: np.ndarray, group: np.ndarray) -> None:
        """Add to ``distance[s]`` (shape (S, n), in place) what group ``group[s]`` adds
        between query row ``example[s]`` and each oracle row."""
        tabled = self.tabled[group]
        if tabled.all():
            distance += self._looked_up(example, group)
            return
        distance[tabled] += self._looked_up(example[tabled], group[tabled])
        e, g = example[~tabled], group[~tabled]
        added = self.oracle_value[g]
        added -= self.query_value[e, g][:, None]
        np.abs(added, out=added)
        added *= self.unit[g][:, None]
        np.rint(added, out=added)
        distance[~tabled] += np.minimum(added, CAP, out=added)

    def _looked_up(self, example: np.ndarray, group: np.ndarray) -> np.ndarray:
        at = self.offset[group] + self.code[example, group] * self.n_patterns[group]
        index = self.oracle_code[group]
        index += at[:, None]
        return self.table[index]


def _softplus_inplace(z: np.ndarray) -> np.ndarray:
    """:func:`~.masked_logistic.softplus` of ``z``, written over ``z`` (same values)."""
    tail = np.abs(z)
    np.negative(tail, out=tail)
    np.exp(tail, out=tail)
    np.log1p(tail, out=tail)
    np.maximum(z, 0.0, out=z)
    z += tail
    return z


def _neighbours(oracle: Oracle, distance: np.ndarray, root: bool) -> np.ndarray:
    """The oracle rows standing for each state's ``p(x_u, y | x_o)`` (module docstring, step
    1): shape (S, K); at the root (nothing observed) every oracle row."""
    if root:
        return np.broadcast_to(
            np.arange(oracle.oracle_y.size), (distance.shape[0], oracle.oracle_y.size)
        )
    return nearest(distance, oracle.n_neighbors)


def _evaluate(
    oracle: Oracle,
    step: int,
    observed: np.ndarray,
    score: np.ndarray,
    distance: np.ndarray,
    root: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Expected losses of the states of one step under the logistic model (module docstring,
    steps 1-3 without the prices): the loss of stopping (S,), of each candidate (S, R) and
    the neighbours (S, K). ``score`` (S,) is each state's current score."""
    S = observed.shape[0]
    cand = oracle.candidates[step].astype(LOSS_DTYPE)  # (R, P)
    R = cand.shape[0]
    neighbours = _neighbours(oracle, distance, root)
    K = neighbours.shape[1]
    stop = np.empty(S)
    loss = np.empty((S, R))
    unobserved = ~observed
    # the margin -y_n * score is what the loss reads: -y_n a_ng summed over v, plus -y_n s
    signed = (-oracle.oracle_y[:, None] * oracle.oracle_contributions).astype(LOSS_DTYPE)
    block = max(1, _BLOCK_ELEMENTS // max(K * R, 1))
    for start in range(0, S, block):  # blocks of states bound the memory, not a hot loop
        rows = slice(start, min(start + block, S))
        nb = neighbours[rows]
        b = nb.shape[0]
        margin = -oracle.oracle_y[nb] * score[rows, None]  # (b, K): the current prediction
        contrib = signed[nb] * unobserved[rows, None, :]  # (b, K, P)
        z = (contrib.reshape(b * K, -1) @ cand.T).reshape(b, K, R)
        z += margin[:, :, None].astype(LOSS_DTYPE)
        loss[rows] = _softplus_inplace(z).mean(axis=1)
        stop[rows] = softplus(margin).mean(axis=1)
    return stop, loss, neighbours


def network_parts(oracle: Oracle) -> np.ndarray:
    """The oracle rows' group contributions to the network's hidden pre-activations as
    ``_evaluate_network`` gathers them: row ``g * n + r`` group ``g`` of oracle row
    ``r``, then a row of zeros (what an observed group adds); float32, shape (P n + 1, H)."""
    contributions = oracle.oracle_contributions
    H = contributions.shape[2]
    parts = np.zeros((contributions.shape[1] * contributions.shape[0] + 1, H), LOSS_DTYPE)
    parts[:-1] = contributions.transpose(1, 0, 2).reshape(-1, H)
    return parts


def _evaluate_network(
    oracle: Oracle,
    step: int,
    observed: np.ndarray,
    hidden: np.ndarray,
    distance: np.ndarray,
    root: bool,
    parts: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``_evaluate`` under the network: ``hidden`` (S, H) is each state's hidden
    pre-activations, ``parts`` (P * n + 1, H) each oracle row's contribution of each group
    to them (row ``g * n + r``: group ``g`` of oracle row ``r``; the last row zeros), float32.

    A candidate ``v`` of a state with hidden pre-activations ``h_o`` gives neighbour ``r``
    the pre-activations ``h_o + sum_{g in v, g not observed} A_g(x_r)``: for a singleton a
    sum of two vectors, for the random subsets one product of the subsets (Rs, P) with the
    neighbours' unobserved parts (P, b K H); then the rectifier, the output layer and the
    logistic loss of the neighbour's label. Candidate order as ``_evaluate``'s: the P
    singletons (the first P candidates are the pool's singletons), then the random subsets.
    A block of states gathers the groups some state of it has not observed (an observed
    group gathers the zero row); a singleton every state of the block observed adds nothing
    and scores the loss of stopping, as it does under the logistic model (so does every
    candidate of a block that observed everything). The rectifier is taken as ``max(u,
    -h_o) + h_o`` of the candidates' parts ``u``, and ``w . h_o`` added to the output: the
    same values, one pass over the tensor fewer.
    """
    S = observed.shape[0]
    P = oracle.size
    n = oracle.oracle_y.size
    clf = oracle.classifier
    subsets = oracle.candidates[step][P:].astype(LOSS_DTYPE)  # (Rs, P)
    Rs = subsets.shape[0]
    H = parts.shape[1]
    neighbours = _neighbours(oracle, distance, root)
    K = neighbours.shape[1]
    stop = np.empty(S)
    loss = np.empty((S, P + Rs))
    unobserved = ~observed.T  # (P, S)
    current = clf.scores(hidden)  # (S,): the current prediction
    output = clf.output_weight.astype(LOSS_DTYPE)
    floor = -hidden.astype(LOSS_DTYPE)  # (S, H): max(u, -h_o) + h_o = max(u + h_o, 0)
    offset = hidden.astype(LOSS_DTYPE) @ output + LOSS_DTYPE(clf.output_intercept)  # (S,)
    block = max(1, _NETWORK_BLOCK_ELEMENTS // max(K * (P + Rs) * H, 1))
    for start in range(0, S, block):  # blocks of states bound the memory, not a hot loop
        rows = slice(start, min(start + block, S))
        nb = neighbours[rows]
        b = nb.shape[0]
        sign = -oracle.oracle_y[nb]  # (b, K)
        stop[rows] = softplus(sign * current[rows, None]).mean(axis=1)
        # the groups some state of the block has not observed, each neighbour's part of them
        keep = np.flatnonzero(unobserved[:, rows].any(axis=1))
        Q = keep.size
        loss[rows] = stop[rows, None]  # a candidate of nothing unobserved adds nothing
        if not Q:
            continue
        index = np.where(unobserved[keep, rows, None], keep[:, None, None] * n + nb, P * n)
        z = np.empty((Q + Rs, b, K, H), dtype=LOSS_DTYPE)
        np.take(parts, index, axis=0, out=z[:Q])  # the singletons' parts u
        if Rs:  # the random subsets' parts: sums of the singletons'
            np.matmul(subsets[:, keep], z[:Q].reshape(Q, -1), out=z[Q:].reshape(Rs, -1))
        flat = z.reshape(Q + Rs, -1)
        bound = np.broadcast_to(floor[rows, None, :], (b, K, H)).reshape(1, -1)
        np.maximum(flat, bound, out=flat)
        margin = flat.reshape(-1, H) @ output  # (Q + Rs) b K
        margin = margin.reshape(Q + Rs, b, K)
        margin += offset[rows, None]
        margin *= sign.astype(LOSS_DTYPE)
        expected = _softplus_inplace(margin).mean(axis=2).T  # (b, Q + Rs)
        loss[rows, keep] = expected[:, :Q]
        loss[rows, P:] = expected[:, Q:]
    return stop, loss, neighbours


def _candidate_prices(
    oracle: Oracle, step: int, observed: np.ndarray, touched: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Marginal price of each state's candidates given what it paid, and how many new
    groups each adds: two arrays of shape (S, R)."""
    cand = oracle.candidates[step].astype(np.float64).T  # (P, R)
    unobserved = (~observed).astype(np.float64)
    price = (unobserved * oracle.base) @ cand
    new = unobserved @ cand
    for d in range(oracle.shared.size):  # the discount groups (a handful), not features
        member = (oracle.discount_group == d).astype(np.float64)
        touches = ((unobserved * member) @ cand) > 0
        price += np.where(touches & ~touched[:, d : d + 1], oracle.shared[d], 0.0)
    return price, new


def rollout(
    oracle: Oracle,
    X: np.ndarray,
    alphas: np.ndarray,
    limits: np.ndarray | None = None,
    trace: list | None = None,
    horizons: np.ndarray | None = None,
    predict: bool = True,
) -> Trajectories:
    """Every example's acquisition under every configuration (the module docstring).

    Parameters
    ----------
    oracle : Oracle
    X : ndarray of shape (n_examples, n_features)
        The examples (validated, the fit's columns).
    alphas : ndarray of shape (n_configs,)
        The trade-off (>= 0) of the ACO objective of each configuration.
    limits : ndarray of shape (n_configs,), optional
        The largest budget each configuration's trajectories will serve (default: all). A
        trajectory ends before an acquisition that would take it above its limit: no budget
        it serves could use that acquisition or any later one, and the planning (within the
        configuration's horizon) is not changed, so every prefix it serves is the same.
    trace : list, optional
        If given, each step appends ``(neighbour_rows, state, example)``: the training rows
        of every state's neighbours (S, K), and the state and example of every active row
        (for tests).
    horizons : ndarray of shape (n_configs,), optional
        Each configuration's horizon: the most an example may pay, within which its
        candidate subsets must fit (default: ``oracle.horizon`` for every configuration).
    predict : bool, default=True
        Score the trajectories with the oracle's predictor, where it has one (``False``:
        with the classifier).

    Returns
    -------
    Trajectories
        Rows ``c * n_examples + i``: example ``i`` under configuration ``c``; the scores
        are the oracle's predictor's where it has one (:func:`~.boosted.predicted_scores`).
    """
    trajectories = _rollout(oracle, X, alphas, limits, trace, horizons)
    if oracle.predictor is None or not X.shape[0] or not predict:
        return trajectories
    return predicted(oracle, X, trajectories)


def predicted(oracle: Oracle, X: np.ndarray, trajectories: Trajectories) -> Trajectories:
    """``trajectories`` of the examples ``X`` (rows ``c * n_examples + i``) scored by the
    oracle's predictor (:func:`~.boosted.predicted_scores`)."""
    m = X.shape[0]
    example = np.tile(np.arange(m), trajectories.group.shape[0] // max(m, 1))
    score = predicted_scores(
        oracle.predictor, X, example, trajectories.group, trajectories.paid, oracle.size
    )
    return Trajectories(trajectories.group, trajectories.paid, score)


def _rollout(
    oracle: Oracle,
    X: np.ndarray,
    alphas: np.ndarray,
    limits: np.ndarray | None,
    trace: list | None,
    horizons: np.ndarray | None,
) -> Trajectories:
    """:func:`rollout` with the classifier's scores."""
    alphas = np.asarray(alphas, dtype=np.float64)
    m = X.shape[0]
    T = oracle.candidates.shape[0]
    P = oracle.size
    D = oracle.shared.size
    n_rows = alphas.size * m
    example = np.tile(np.arange(m), alphas.size)
    trade = np.repeat(np.arange(alphas.size), m)
    limit = np.full(alphas.size, np.inf) if limits is None else np.asarray(limits, np.float64)
    if horizons is None:
        horizon = np.full(alphas.size, oracle.horizon)
    else:
        horizon = np.asarray(horizons, dtype=np.float64)
    classifier = oracle.classifier
    network = isinstance(classifier, MaskedNetwork)
    group = np.full((n_rows, T), -1, dtype=np.intp)
    paid = np.full((n_rows, T), np.inf)
    score_after = np.full((n_rows, T + 1), classifier.intercept)
    if P == 0 or m == 0:
        return Trajectories(group, paid, score_after)
    contributions = classifier.contributions(X)  # (m, P), the network's (m, P, H)
    if network:
        parts = network_parts(oracle)
    distances = _GroupDistances(oracle, X)
    # the states: all rows start in the root (nothing observed); a state's classifier state
    # is its score (logistic) or its hidden pre-activations (network)
    active = np.arange(n_rows)
    state = np.zeros(n_rows, dtype=np.intp)
    observed = np.zeros((1, P), dtype=bool)
    touched = np.zeros((1, D), dtype=bool)
    spent = np.zeros(1)
    hidden = np.asarray(classifier.initial_state, dtype=np.float64)[None]
    distance = np.zeros((1, oracle.oracle_y.size))
    for step in range(T):
        if not active.size:
            break
        if network:
            stop_loss, loss, neighbours = _evaluate_network(
                oracle, step, observed, hidden, distance, step == 0, parts
            )
        else:
            stop_loss, loss, neighbours = _evaluate(
                oracle, step, observed, hidden, distance, step == 0
            )
        if trace is not None:
            trace.append((oracle.oracle_rows[neighbours], state.copy(), example[active].copy()))
        price, new = _candidate_prices(oracle, step, observed, touched)
        valid = new > 0
        if oracle.stopping == "improvement":  # only subsets that lower the expected loss
            valid &= loss < stop_loss[:, None]
        # rows of one state and one configuration act alike: decide once per pair
        n_states = observed.shape[0]
        pairs, first, pair_of_row = np.unique(
            trade[active] * n_states + state, return_index=True, return_inverse=True
        )
        p_state, p_config = state[first], trade[active[first]]
        p_alpha = alphas[p_config]
        # the candidates that fit within the configuration's horizon
        fits = spent[p_state, None] + price[p_state] <= horizon[p_config, None]
        loss_valid = np.where(valid[p_state] & fits, loss[p_state], np.inf)
        objective = loss_valid + p_alpha[:, None] * price[p_state]
        best = np.argmin(objective, axis=1)
        best_objective = objective[np.arange(pairs.size), best]
        if oracle.stopping == "improvement":
            go = np.isfinite(best_objective)
        else:  # the ACO's: the empty subset competes (ties: stop)
            go = best_objective < stop_loss[p_state]
        # the group of the best subset whose own objective (as a singleton) is lowest
        member = oracle.candidates[step][best] & ~observed[p_state]
        single = np.where(member, loss[p_state, :P] + p_alpha[:, None] * price[p_state, :P], np.inf)
        chosen = np.argmin(single, axis=1)
        go &= spent[p_state] + price[p_state, chosen] <= limit[p_config]
        moving = go[pair_of_row]
        active, state = active[moving], state[moving]
        chosen = chosen[pair_of_row[moving]]
        if not active.size:
            break
        # the new states: (old state, group, the example's values on it)
        e = example[active]
        key = (state * P + chosen) * distances.n_codes + distances.code[e, chosen]
        _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        parent, g, rep = state[first], chosen[first], e[first]
        new_observed = observed[parent]
        new_observed[np.arange(first.size), g] = True
        new_spent = spent[parent] + oracle.price(g, touched[parent])
        new_touched = touched[parent]
        if D:
            d = oracle.discount_group[g]
            new_touched[np.flatnonzero(d >= 0), d[d >= 0]] = True
        new_hidden = hidden[parent] + contributions[rep, g]
        new_distance = distance[parent]
        distances.add(new_distance, rep, g)
        observed, touched, spent, hidden, distance = (
            new_observed,
            new_touched,
            new_spent,
            new_hidden,
            new_distance,
        )
        state = inverse
        group[active, step] = chosen
        paid[active, step] = spent[state]
        score_after[active, step + 1 :] = classifier.scores(hidden[state])[:, None]
    return Trajectories(group, paid, score_after)
