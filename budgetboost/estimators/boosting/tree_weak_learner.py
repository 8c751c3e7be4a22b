"""Budgeted boosting of small decision trees: the weak learner of ``weak_learner="tree"``.

Section 8 of Huang, Powers & Reyzin (2015) conjectures that boosting decision trees with the
cost-aware criteria would beat stumps. :class:`TreeLearner` is the weak learner that the loop of
Algorithm 1 (:func:`budgetboost.estimators.boosting.booster.boost_path`) asks for, in each round,
one tree
of depth at most ``max_depth`` with +-1 leaves on the round's weights ``D_t``:

1. **Root.** The root split is the stump the stump engine chooses in that round
   (:class:`~budgetboost.estimators.boosting.criteria.StumpChoice`: the criterion on ``(|gamma|,
   c)``
   of every stump, ties to the larger ``|gamma|``, then the lower column, then the lower threshold),
   with the stump's leaves ``-s`` (``x < v``) and ``s`` (``x >= v``). A depth-1 tree is that
   stump, so ``max_depth=1`` reproduces the stump engine bit for bit. When no stump has an
   edge, boosting ends (``zero_edge``), even where a deeper tree would have one (XOR).
2. **Refinement.** The other nodes are visited in preorder (a node's whole left subtree
   before its right child), each while it is a leaf above depth ``max_depth``. A leaf ``l``
   split by candidate ``k`` gets two leaves labelled by the sign of their weighted label sums
   ``sum_{i in leaf} D_i y_i`` (0: the parent leaf's label), so the whole tree's edge becomes
   ``gamma(T) - v_l S_l + max(|S_l|, |e_k^l|)``, where ``S_l = sum_{i in l} D_i y_i``,
   ``v_l`` the leaf's label and ``e_k^l`` the edge of stump ``k`` (polarity +1) on the leaf's
   rows only. The split chosen maximises the round's criterion of the *resulting whole tree*
   ``(gamma', c')``, ``c'`` the ORIGINAL cost of the distinct feature groups of all its
   splits (as for a stump, already-paid groups keep their cost: Section 4); ties as for the
   root. Candidates that raise the tree's edge by ``GAMMA_ZERO`` or less are not splits; an
   edge of ``1 - GAMMA_CAP`` or more counts as 1 (a perfect tree, rounding aside). The
   leaf is split only if that beats leaving the tree as it is: a higher score beyond the tie
   tolerance, or a tied score with a larger edge (``_select``'s order, the unsplit tree
   counting as one more candidate that wins exact ties). So the tree may stop short of
   ``max_depth``, and its edge is ``sum_leaves |S_leaf|`` except that an unsplit child of
   the root keeps the stump's label ``+-s``.
3. **Payment and weights.** The tree's payment is the cost of its groups not yet paid (in
   the order its splits were made); boosting stops (``budget``) before a tree whose payment
   exceeds what is left of ``B``. ``alpha = 1/2 ln((1 + g) / (1 - g))`` with ``g`` the
   tree's edge capped at ``1 - GAMMA_CAP`` (a perfect tree ends boosting: ``perfect_tree``);
   the weights are updated as for stumps, ``D_{t+1}(i) ~ D_t(i) exp(-alpha y_i h(x_i))``.

Eq. 1, Eq. 2, SpeedBoost (Eq. 4) and AdaBoostBT (``|gamma|``) apply unchanged to
``(gamma, c)``; ``hybrid`` decides its phase on the stumps, exactly as the stump engine
(best unpaid stump's greedy score), and grows the tree with that phase's criterion. No
choice depends on ``B``, so one fit serves every budget as a prefix.

Edges of every candidate on a leaf's rows come from :meth:`StumpSpace.edges` with the other
rows' weights zeroed; edges are linear in the weights, so of two sibling leaves only the
first is computed, the second is its parent's minus the first's. A round of depth-``d``
trees costs at most ``2^(d-1)`` edge passes instead of one.
"""

from __future__ import annotations

import math

import numpy as np

from ..contract.pricing import Pricing
from .criteria import (
    CRITERIA,
    GAMMA_CAP,
    GAMMA_ZERO,
    PRUNE_MARGIN,
    PRUNE_MIN_CANDIDATES,
    TIE_TOL,
    score_one,
    select,
)
from .stumps import StumpSpace
from .weak_learners import Round, Step, WeakLearner

__all__ = ["TreeLearner", "example_costs", "first_reads", "tree_leaves"]


def _best_split(
    phase: str,
    cand_gamma: np.ndarray,
    index: np.ndarray,
    tree_cost: np.ndarray,
    spent: float,
    tau: float,
    space: StumpSpace,
) -> int:
    """The candidate (of ``index``) whose tree scores best, or -1; ties as ``_select``.

    As :func:`~budgetboost.estimators.boosting.criteria.contenders` does for stumps, only the
    candidates
    whose upper bound ``k x / (d (1 - k x))`` (``x = gamma^2``, ``d`` the denominator) reaches the
    best lower bound ``M = max k x / d``, less the relative margin ``PRUNE_MARGIN * (1 + |log M|)``,
    are scored exactly: the others score below the best by more than the tie tolerance.
    """
    if phase == "adaboost":
        return select(cand_gamma[index], cand_gamma, space.column, space.threshold, index=index)
    ratio = CRITERIA[phase]
    gamma = cand_gamma[index]
    den = ratio.denominator(tree_cost, spent, tau)
    if index.size >= PRUNE_MIN_CANDIDATES and den.min() > 0.0:
        lower = np.square(gamma)
        lower /= den
        top = float(gamma.max())
        best = float(lower.max())
        reach = (1.0 - PRUNE_MARGIN * (1.0 + abs(math.log(best)))) * (1.0 - ratio.slope * top * top)
        if reach > 0.0:
            keep = (lower >= best * reach).nonzero()[0]
            index, gamma, den = index[keep], gamma[keep], den[keep]
    with np.errstate(divide="ignore"):
        score = ratio.score(gamma, np.log(den))
    return select(score, cand_gamma, space.column, space.threshold, index=index)


def _beats(score: float, gamma: float, score0: float, gamma0: float) -> bool:
    """Whether a split tree ``(score, gamma)`` beats the unsplit one ``(score0, gamma0)``
    in :func:`~budgetboost.estimators.boosting.criteria.select`'s order, the unsplit tree winning
    exact ties.
    """
    if score == -math.inf:
        return False
    if math.isinf(score) or math.isinf(score0):
        tied = score == score0
    else:
        tied = score >= score0 - TIE_TOL * (1.0 + abs(score0)) and score0 >= score - TIE_TOL * (
            1.0 + abs(score)
        )
    if not tied:
        return score > score0
    return gamma0 < gamma - TIE_TOL * (1.0 + gamma)


def _grow(
    X: np.ndarray,
    wy: np.ndarray,
    gamma: np.ndarray,
    abs_gamma: np.ndarray,
    k: int,
    space: StumpSpace,
    depth: int,
    phase: str,
    spent: float,
    tau: float,
    cand_group: np.ndarray,
    cand_cost: np.ndarray,
    n_groups: int,
    pricing: Pricing | None = None,
    touched: np.ndarray | None = None,
):
    """Grow one tree from root stump ``k`` (see the module docstring).

    ``cand_cost`` is each candidate's price given the discount groups ``touched`` by the
    ensemble; with discount groups (``pricing``), a split that touches a further one lowers
    the price of that group's other candidates for the rest of the tree.

    Returns ``(feature, threshold, splits, label, node_of_row, edge, polarity)``: the split
    of each heap slot, the candidates split on in order, ``{heap index: output}`` of the final
    leaves, each training row's final leaf, the tree's edge and the root stump's polarity.
    """
    n_inner = 2**depth - 1
    feature = np.full(n_inner, -1, dtype=np.intp)
    threshold = np.full(n_inner, np.nan)
    j, v = int(space.column[k]), float(space.threshold[k])
    s = 1.0 if gamma[k] >= 0 else -1.0
    feature[0], threshold[0] = j, v
    right = X[:, j] >= v
    node_of_row = np.where(right, 2, 1).astype(np.intp)
    label = {1: -s, 2: s}
    total = {1: float(wy[~right].sum()), 2: float(wy[right].sum())}
    edges = {0: gamma}
    splits = [k]
    in_tree = np.zeros(n_groups, dtype=bool)
    in_tree[cand_group[k]] = True
    tree_cost = float(cand_cost[k])
    local = None
    if pricing is not None and pricing.discounted:
        local = touched.copy()
        if pricing.touch(local, [cand_group[k]]):
            cand_cost = pricing.prices(local)[cand_group]
    tree_gamma = float(abs_gamma[k])
    stack = [2, 1] if depth > 1 else []
    while stack:
        n = stack.pop()
        parent, sibling = (n - 1) // 2, n + 1 if n % 2 else n - 1
        if sibling in edges:  # edges are linear in the weights: parent = left + right
            e = edges[parent] - edges[sibling]
        else:
            e = space.edges(np.where(node_of_row == n, wy, 0.0))
        edges[n] = e
        S, vl = total[n], label[n]
        gain = np.maximum(abs(S), np.abs(e))
        gain -= vl * S
        index = (gain > GAMMA_ZERO).nonzero()[0]
        if not index.size:
            continue
        cand_gamma = gain
        cand_gamma += tree_gamma
        cand_gamma[cand_gamma >= 1.0 - GAMMA_CAP] = 1.0  # perfect, rounding aside
        cost = cand_cost.take(index)
        cost[in_tree.take(cand_group.take(index))] = 0.0
        cost += tree_cost
        best = _best_split(phase, cand_gamma, index, cost, spent, tau, space)
        if best < 0:
            continue
        added = 0.0 if in_tree[cand_group[best]] else float(cand_cost[best])
        score = score_one(phase, float(cand_gamma[best]), tree_cost + added, spent, tau)
        score0 = score_one(phase, tree_gamma, tree_cost, spent, tau)
        if not _beats(score, float(cand_gamma[best]), score0, tree_gamma):
            continue
        j, v = int(space.column[best]), float(space.threshold[best])
        feature[n], threshold[n] = j, v
        splits.append(best)
        rows = node_of_row == n
        up = rows & (X[:, j] >= v)
        down = rows & ~up
        node_of_row[down], node_of_row[up] = 2 * n + 1, 2 * n + 2
        for child, side in ((2 * n + 1, down), (2 * n + 2, up)):
            t = float(wy[side].sum())
            total[child] = t
            label[child] = vl if t == 0.0 else math.copysign(1.0, t)
        del label[n], total[n]
        g = cand_group[best]
        if not in_tree[g]:
            in_tree[g] = True
            tree_cost += float(cand_cost[best])
            if local is not None and pricing.touch(local, [g]):
                cand_cost = pricing.prices(local)[cand_group]
        tree_gamma = float(cand_gamma[best])
        if 2 * n + 2 < n_inner:  # the children are above the last level: visit them
            stack += [2 * n + 2, 2 * n + 1]
    return feature, threshold, splits, label, node_of_row, tree_gamma, s


class TreeLearner(WeakLearner):
    """The weak learner of ``weak_learner="tree"``: a tree of depth at most ``max_depth``
    grown from the round's stump (see the module docstring)."""

    name = "tree"
    perfect = "perfect_tree"
    attributes = ("tree_feature_", "tree_threshold_", "tree_group_", "tree_value_", "group_cost_")

    def __init__(self, max_depth: int):
        self.max_depth = int(max_depth)

    def start(
        self,
        X: np.ndarray,
        y: np.ndarray,
        space: StumpSpace,
        group_of_column: np.ndarray,
        group_cost: np.ndarray,
        tau: float,
        pricing: Pricing | None = None,
    ):
        """The step function of one fit: a tree per round, its groups in split order."""
        depth = self.max_depth
        cand_group = group_of_column[space.column]
        cand_cost = group_cost[cand_group]
        discounted = pricing is not None and pricing.discounted
        n_groups = group_cost.shape[0]
        n_inner, n_leaves = 2**depth - 1, 2**depth

        def step(r: Round) -> Step:
            feature, threshold, splits, label, node_of_row, edge, _ = _grow(
                X,
                r.wy,
                r.gamma,
                r.abs_gamma,
                r.k,
                space,
                depth,
                r.phase,
                r.spent,
                tau,
                cand_group,
                pricing.prices(r.touched)[cand_group] if discounted else cand_cost,
                n_groups,
                pricing,
                r.touched,
            )
            value = np.empty(n_leaves)
            out_of_node = np.zeros(2 * n_leaves - 1)
            for node, out in label.items():  # each final leaf fills its depth-d slots
                level = int(math.log2(node + 1))
                width = 2 ** (depth - level)
                first = (node + 1) * width - 1 - n_inner
                value[first : first + width] = out
                out_of_node[node] = out
            # exp(-alpha) where the tree is right, exp(alpha) where wrong (the same floats
            # as the stump learner's for a depth-1 tree)
            right = (out_of_node[node_of_row] == y).view(np.uint8)
            groups = list(dict.fromkeys(cand_group[c] for c in splits))  # in split order
            node_group = np.where(feature >= 0, group_of_column[np.maximum(feature, 0)], -1)
            return Step(groups, edge, right, (feature, threshold, node_group, value))

        return step

    def stacked(self, records: list) -> dict[str, np.ndarray]:
        """The trees of a path in heap layout (see ``BudgetedBoost``'s ``tree_*_``)."""
        n_inner, n_leaves = 2**self.max_depth - 1, 2**self.max_depth
        parts = list(zip(*records, strict=True)) or [(), (), (), ()]
        return {
            "tree_feature_": np.asarray(parts[0], dtype=np.intp).reshape(-1, n_inner),
            "tree_threshold_": np.asarray(parts[1], dtype=np.float64).reshape(-1, n_inner),
            "tree_group_": np.asarray(parts[2], dtype=np.intp).reshape(-1, n_inner),
            "tree_value_": np.asarray(parts[3], dtype=np.float64).reshape(-1, n_leaves),
        }

    def fitted(self, path, group_cost: np.ndarray) -> dict[str, np.ndarray]:
        """``BudgetedBoost``'s tree attributes: the path's trees and the groups' costs."""
        return {**path.learner, "group_cost_": np.array(group_cost, dtype=np.float64)}

    def outputs(self, model, X: np.ndarray, rounds: int | None = None) -> np.ndarray:
        first = slice(rounds)
        leaves = tree_leaves(X, model.tree_feature_[first], model.tree_threshold_[first])
        return model.tree_value_[first][np.arange(leaves.shape[1]), leaves]

    def example_costs(self, model, X: np.ndarray, n_rounds: np.ndarray) -> np.ndarray | None:
        """Each row's lazy cost at each prefix: the groups on its paths, each once (the
        trees past the longest prefix are never read)."""
        if not X.shape[0]:
            return None
        first = slice(int(n_rounds.max()) if n_rounds.size else 0)
        leaves = tree_leaves(X, model.tree_feature_[first], model.tree_threshold_[first])
        pricing = getattr(model, "pricing_", None)
        return example_costs(leaves, model.tree_group_[first], model.group_cost_, n_rounds, pricing)

    def reads(self, model, X: np.ndarray, n_rounds: np.ndarray) -> np.ndarray:
        """The groups on each row's paths through each prefix: (len(n_rounds), m, n_groups)."""
        n_groups = model._n_groups()
        out = np.zeros((n_rounds.size, X.shape[0], n_groups), dtype=bool)
        rounds = int(n_rounds.max()) if n_rounds.size else 0
        if not X.shape[0] or not rounds:
            return out
        first = slice(rounds)
        leaves = tree_leaves(X, model.tree_feature_[first], model.tree_threshold_[first])
        step = max(1, FIRST_READ_CELLS // (n_groups + 1))
        for start in range(0, X.shape[0], step):
            rows = slice(start, start + step)
            table = first_reads(leaves[rows], model.tree_group_[first], n_groups)[:, :n_groups]
            out[:, rows] = table[None] < n_rounds[:, None, None]
        return out

    def __repr__(self) -> str:
        return f"TreeLearner(max_depth={self.max_depth})"


#: Node tests (rows x trees x inner nodes) :func:`tree_leaves` gathers at a time: blocks
#: that stay in cache (ocr17's 5,000 rows x 500 depth-2 trees: 48 ms at 2^18, 157 at 2^23).
LEAF_TEST_CELLS = 1 << 18
#: Cells (rows x feature groups) of :func:`example_costs`' first-read table at a time.
FIRST_READ_CELLS = 1 << 22


def tree_leaves(X: np.ndarray, node_feature: np.ndarray, node_threshold: np.ndarray) -> np.ndarray:
    """Depth-``d`` leaf slot of every row in every tree: shape (n_samples, n_trees).

    Every inner node's test is read for every row at once (a gather of whole columns, the
    fast direction of a row-major ``X``), in blocks of rows of at most
    :data:`LEAF_TEST_CELLS` tests; then ``d`` passes walk down: a row's slot in level ``l``
    picks its test among that level's ``2^l`` nodes, and the test's bit is appended. An
    unsplit node sends its rows left, into the first of the slots its leaf fills.
    """
    n_trees, n_inner = node_feature.shape
    depth = int(math.log2(n_inner + 1))
    leaves = np.zeros((X.shape[0], n_trees), dtype=np.intp)
    if not n_trees or not depth:
        return leaves
    columns = np.maximum(node_feature, 0).ravel()
    thresholds = node_threshold.ravel()
    inner = node_feature >= 0
    slot_type = np.min_scalar_type(n_inner)
    step = max(1, LEAF_TEST_CELLS // (n_trees * n_inner))
    for start in range(0, X.shape[0], step):
        rows = slice(start, start + step)
        tests = (X[rows][:, columns] >= thresholds).reshape(-1, n_trees, n_inner)
        tests &= inner
        slot = tests[:, :, 0].astype(slot_type)  # the row's node within its level
        for level in range(1, depth):
            first = (1 << level) - 1  # heap index of the level's first node
            level_tests = tests[:, :, first : 2 * first + 1]
            up = np.take_along_axis(level_tests, slot[:, :, None], axis=2)[:, :, 0]
            slot <<= 1
            slot |= up
        leaves[rows] = slot
    return leaves


def example_costs(
    leaves: np.ndarray,
    node_group: np.ndarray,
    group_cost: np.ndarray,
    n_rounds: np.ndarray,
    pricing: Pricing | None = None,
) -> np.ndarray:
    """Lazy cost of each row at each prefix: shape (len(n_rounds), n_samples).

    A row pays for the feature groups on its decision paths through the prefix's trees, each
    group once (its cost when first read). ``leaves`` are :func:`tree_leaves`' slots. With
    discount groups (``pricing``) a first read pays the group's discount price, and the
    row's first read of a discount group's test its shared part too. Rows are independent:
    they are taken in blocks of at most :data:`FIRST_READ_CELLS` (rows x groups) cells.
    """
    m, n_trees = leaves.shape
    out = np.zeros((n_rounds.size, m))
    if n_trees == 0 or m == 0:
        return out
    step = max(1, FIRST_READ_CELLS // (group_cost.size + 1))
    prefix = np.minimum(n_rounds, n_trees)
    for start in range(0, m, step):
        rows = slice(start, start + step)
        paid = _first_read_costs(leaves[rows], node_group, group_cost, pricing)
        out[:, rows] = np.cumsum(paid, axis=1)[:, prefix].T  # [:, T]: the first T trees
    return out


def first_reads(leaves: np.ndarray, node_group: np.ndarray, n_groups: int) -> np.ndarray:
    """The tree in which each row first reads each feature group: ``(m, n_groups + 1)``,
    ``n_trees`` where it never does (the last column collects the slots without a test).

    The table is written tree by tree from the last tree to the first, so the first read's
    tree is the one left. ``leaves`` are :func:`tree_leaves`' slots.
    """
    m, n_trees = leaves.shape
    n_inner = node_group.shape[1]
    depth = int(math.log2(n_inner + 1))
    # the path's nodes from the leaf slot up: level l's node is (slot + n_inner + 1) >> (d - l)
    slot = leaves.T + (n_inner + 1)  # (T, m)
    tree = np.arange(n_trees)[:, None]
    groups = np.stack(
        [node_group[tree, (slot >> (depth - level)) - 1] for level in range(depth)], axis=1
    )  # (T, d, m); -1 (no test) reads the table's spare last column
    first = np.full((m, n_groups + 1), n_trees, dtype=np.min_scalar_type(n_trees))
    row = np.broadcast_to(np.arange(m), (depth, m))
    for t in range(n_trees - 1, -1, -1):
        first[row, groups[t]] = t
    return first


def _first_read_costs(
    leaves: np.ndarray, node_group: np.ndarray, group_cost: np.ndarray, pricing: Pricing | None
) -> np.ndarray:
    """What each row pays in each round, ``(m, n_trees + 1)`` (column ``t + 1``: tree
    ``t``): the groups it reads for the first time there.

    The round of each (row, group)'s first read is a dense table (:func:`first_reads`); the
    reads are then taken in (row, group) order, each cell's prices added in the same order
    whatever the blocks.
    """
    m, n_trees = leaves.shape
    n_groups = group_cost.size
    first = first_reads(leaves, node_group, n_groups)
    first_row, first_group = np.nonzero(first[:, :n_groups] < n_trees)
    first_round = first[first_row, first_group]
    paid = np.zeros((m, n_trees + 1))
    if pricing is None or not pricing.discounted:
        np.add.at(paid, (first_row, first_round + 1), group_cost[first_group])
    else:
        np.add.at(paid, (first_row, first_round + 1), pricing.base[first_group])
        # a discount group first touched by two groups in one round: either is the touch
        touch, shared = pricing.first_touches(first_row, first_group, first_round)
        np.add.at(paid, (first_row[touch], first_round[touch] + 1), shared)
    return paid
