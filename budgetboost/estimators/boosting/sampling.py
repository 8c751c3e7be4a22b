"""AdaBoostRS: AdaBoost with budgeted random sampling of its hypotheses at test time.

Reyzin (2011) trains plain AdaBoost, ignoring costs, and predicts each test example with a
vote of hypotheses drawn i.i.d. from the ensemble, paying for each new feature, until the
budget would not cover the most expensive hypothesis (``spent + max_i c(h_i) < B``, the
poster's loop condition). Each example's draws form one seeded sequence; every budget reads
a prefix of it, so the whole budget grid costs one sampling pass.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from ..contract.base import (
    BUDGET,
    PRICES,
    RANDOM_STATE,
    BudgetCosts,
    BudgetedEstimator,
    TrainingData,
)
from ..contract.params import Boolean, Interval
from ..contract.validation import check_budgets
from .booster import ADABOOST_PATH, VOTE_TIE, BoostPath, boost_path, path_for
from .stumps import stump_outputs

__all__ = ["AdaBoostRS", "MIN_COST"]

#: Costs below this are raised to it when they weight samples and votes (RS_AC), so a free
#: hypothesis is drawn often but not with infinite probability.
MIN_COST = 1e-6
#: Examples sampled together, and draws per example per step of the sampling loop: memory
#: stays at a few arrays of _ROW_BLOCK x _DRAW_CHUNK. Both lay out the random stream (each
#: block of rows its own stream, spawned from ``random_state`` in block order; each step takes
#: _ROW_BLOCK x _DRAW_CHUNK uniforms of it, row by row) and the order of the sums: changing
#: either changes the samples.
_ROW_BLOCK = 1024
_DRAW_CHUNK = 64


def _alias_table(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Vose's alias table of a distribution ``p``: ``(probability, alias)`` per slot.

    A loop over the ensemble's hypotheses (not examples), run once per prediction call.
    """
    n = p.size
    scaled = p * n
    prob = np.ones(n)
    alias = np.arange(n)
    small = [i for i in range(n) if scaled[i] < 1.0]
    large = [i for i in range(n) if scaled[i] >= 1.0]
    while small and large:
        s, big = small.pop(), large.pop()
        prob[s], alias[s] = scaled[s], big
        scaled[big] += scaled[s] - 1.0
        (small if scaled[big] < 1.0 else large).append(big)
    return prob, alias


def _alias_draws(
    rng: np.random.Generator,
    table: tuple[np.ndarray, np.ndarray],
    shape: tuple[int, int],
    rows: np.ndarray | None = None,
) -> np.ndarray:
    """Indices drawn i.i.d. with Walker's alias method: O(1) per draw.

    One uniform per draw: its integer part picks a slot, its fractional part decides
    between the slot and the slot's alias.

    Parameters
    ----------
    rng : numpy.random.Generator
        The stream; it advances by ``shape`` uniforms (row by row), whatever ``rows``.
    table : (ndarray, ndarray)
        ``(probability, alias)`` of ``_alias_table``.
    shape : (int, int)
        Examples x draws of one step.
    rows : ndarray of int, optional
        Map only these rows' uniforms to draws (the examples still sampling): a row's draws
        do not depend on which other rows are still sampling.

    Returns
    -------
    ndarray of int, shape (len(rows), shape[1]) or ``shape``
        Indices into the distribution of ``table``.
    """
    prob, alias = table
    uniform = rng.random(shape)
    scaled = (uniform if rows is None else uniform[rows]) * prob.size
    slot = np.minimum(scaled.astype(np.intp), prob.size - 1)
    return np.where(scaled - slot < prob[slot], slot, alias[slot])


def _mark_new(seen: np.ndarray, rows: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Which draws pay for their group: the first draw of a group not ``seen`` in its row.

    One vectorised step per draw position (a step has at most ``_DRAW_CHUNK``), in the order
    the examples draw, so a group drawn twice in one step is paid once, the first time.

    Parameters
    ----------
    seen : ndarray of bool, shape (examples, groups)
        Groups each example has paid for; updated in place.
    rows : ndarray of int
        The examples that drew.
    group : ndarray of int, shape (len(rows), draws)
        The feature group of each draw, in draw order along axis 1.

    Returns
    -------
    ndarray of bool, shape of ``group``
        True where the draw pays for its group.
    """
    flat = seen.reshape(-1)
    cells = (rows * seen.shape[1])[:, None] + group
    new = np.empty(group.shape, dtype=bool)
    for t in range(group.shape[1]):
        new[:, t] = ~flat[cells[:, t]]
        flat[cells[:, t]] = True
    return new


def _crossings(
    start: np.ndarray, end: np.ndarray, sorted_budgets: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The (example, budget) pairs whose budget lies in ``(start, end]`` for that example.

    With ``start[i]`` and ``end[i]`` what example ``i`` could reach (``spent + max_i
    c(h_i)``) before the first and after the last draw of a step, these are the budgets at
    which its draws stop within the step (the poster's loop draws while that sum is below
    ``B``), and no others.

    Parameters
    ----------
    start, end : ndarray of shape (examples,)
        ``start <= end``.
    sorted_budgets : ndarray
        The budgets, ascending.

    Returns
    -------
    row, budget : ndarray of int
        One entry per pair: the example (index into ``start``) and the budget (index into
        ``sorted_budgets``).
    """
    low = np.searchsorted(sorted_budgets, start, side="right")
    count = np.searchsorted(sorted_budgets, end, side="right") - low
    row = np.repeat(np.arange(count.size), count)
    budget = np.arange(count.sum()) - np.repeat(np.cumsum(count) - count - low, count)
    return row, budget


class _DrawPrices:
    """What the draws of one block of examples pay, with or without discount groups.

    Without them a new group's draw pays its ``hypothesis_cost_`` (the sums of the plain
    sampler, byte for byte). With them it pays its group's discount price, plus its discount
    group's shared part where the example touches that group first; ``seen_dg`` holds what
    each example has touched, over the discount groups of the ensemble (a last column
    collects the hypotheses of none). For AdaBoostRS_AC the distribution and the vote weights
    are the prices given the example's touched discount groups, one alias table per state
    met (:meth:`stateful_draws`), a state coded as the bits of its touched groups.
    """

    def __init__(self, model: AdaBoostRS, m: int):
        self.model = model
        pricing = model.pricing_
        self.discounted = pricing.discounted
        self.stateful = model._stateful()
        if not self.discounted:
            self.costliest = model.hypothesis_cost_.max()
            return
        dg = pricing.discount_group[model.group_]
        grouped = dg >= 0
        present, local = np.unique(dg[grouped], return_inverse=True)
        self.k = k = present.size
        if self.stateful and k > 62:
            raise ValueError(
                f"AdaBoostRS_AC samples by state: its ensemble reads {k} discount groups, "
                "at most 62 are supported"
            )
        self.dg = np.full(dg.size, k, dtype=np.intp)  # column k: no discount group
        self.dg[grouped] = local.reshape(-1)
        self.base = pricing.base[model.group_]
        self.shared = np.where(grouped, pricing.shared[np.maximum(dg, 0)], 0.0)
        self.costliest = (self.base + self.shared).max()
        self.seen_dg = np.zeros((m, k + 1), dtype=bool)
        self.code = np.zeros(m, dtype=np.int64)  # stateful: the bits of the touched groups
        self.tables: dict[int, tuple[tuple[np.ndarray, np.ndarray], np.ndarray]] = {}

    def paid(self, draws: np.ndarray, new: np.ndarray, active: np.ndarray) -> np.ndarray:
        """What each draw pays (its example's rows ``active``, in draw order)."""
        if not self.discounted:
            return np.where(new, self.model.hypothesis_cost_[draws], 0.0)
        if not self.stateful:  # stateful_draws marks the touches as it draws
            self.new_dg = _mark_new(self.seen_dg, active, self.dg[draws])
        return np.where(new, self.base[draws], 0.0) + np.where(self.new_dg, self.shared[draws], 0.0)

    def _table(self, code: int) -> tuple[tuple[np.ndarray, np.ndarray], np.ndarray]:
        """RS_AC's alias table and prices for an example whose touched groups are ``code``."""
        cached = self.tables.get(code)
        if cached is None:
            touched = np.append((code >> np.arange(self.k)) & 1, 0).astype(bool)
            price = self.base + np.where(touched[self.dg], 0.0, self.shared)
            price = np.maximum(price, MIN_COST)
            weight = self.model.alpha_ / price
            cached = self.tables[code] = (_alias_table(weight / weight.sum()), price)
        return cached

    def stateful_draws(
        self, rng: np.random.Generator, shape: tuple[int, int], active: np.ndarray, seen
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """RS_AC's draws of one step: ``(draws, new, weight)`` for the rows ``active``.

        The same uniforms as the plain sampler (``shape`` of them, row by row), each mapped
        through the table of its example's touched discount groups before the draw;
        ``weight`` is the drawn hypothesis's price then. An example's state changes only at a
        draw that touches a new group, at most once per group: each pass maps every pending
        position of the examples of one state through that state's table and keeps them up
        to the first such draw (that draw included, made before its touch), so a step takes
        at most one pass more than the groups touched in it.
        """
        uniform = rng.random(shape)[active]
        n_rows, width = uniform.shape
        draws = np.empty((n_rows, width), dtype=np.intp)
        weight = np.empty((n_rows, width))
        bit = np.append(np.int64(1) << np.arange(self.k, dtype=np.int64), np.int64(0))
        start = np.zeros(n_rows, dtype=np.intp)  # each example's first position not drawn
        code = self.code[active]
        pending = np.arange(n_rows)
        position = np.arange(width)
        while pending.size:
            codes, which = np.unique(code[pending], return_inverse=True)
            for s, state in enumerate(codes.tolist()):
                rows = pending[which.reshape(-1) == s]
                (prob, alias), price = self._table(state)
                scaled = uniform[rows] * prob.size
                slot = np.minimum(scaled.astype(np.intp), prob.size - 1)
                drawn = np.where(scaled - slot < prob[slot], slot, alias[slot])
                later = position >= start[rows, None]
                touches = later & ((bit[self.dg[drawn]] & ~np.int64(state)) != 0)
                stop = np.where(touches.any(axis=1), touches.argmax(axis=1), width - 1)
                keep = later & (position <= stop[:, None])
                draws[rows] = np.where(keep, drawn, draws[rows])
                weight[rows] = np.where(keep, price[drawn], weight[rows])
                code[rows] |= bit[self.dg[drawn[np.arange(rows.size), stop]]]
                start[rows] = stop + 1
            pending = pending[start[pending] < width]
        self.code[active] = code
        new = _mark_new(seen, active, self.model.group_[draws])
        self.new_dg = _mark_new(self.seen_dg, active, self.dg[draws])
        return draws, new, weight


class AdaBoostRS(BudgetedEstimator):
    """AdaBoost with test-time random sampling (AdaBoostRS and AdaBoostRS_AC, Reyzin 2011).

    Parameters
    ----------
    n_rounds : int, default=500
        Rounds of plain AdaBoost (stumps, costs ignored) trained by ``fit``.
    budget : float or None, default=None
        Test-time budget per example used by ``predict``; ``None`` predicts with the whole
        ensemble (no sampling: an unlimited budget).
    cost_weighted : bool, default=False
        ``False``: draw hypothesis ``i`` with ``p(i) ∝ alpha_i`` and take an unweighted
        majority vote (AdaBoostRS). ``True``: ``p(i) ∝ alpha_i / c(h_i)`` and votes weighted by
        ``c(h_i)`` (AdaBoostRS_AC, the poster's Algorithm 3).
    feature_costs, feature_groups : array-like of shape (n_features,), default=None
        As in :class:`~budgetboost.BudgetedBoost`.
    discount_groups, discount_costs : array-like of shape (n_features,), default=None
        Turney's discount groups, as in :class:`~budgetboost.BudgetedBoost`. A draw pays the
        marginal price of its group given what its example has paid (its discount price once
        the example has touched its discount group, plus the shared part at the first
        touch). AdaBoostRS_AC samples and weighs each draw by the price of its hypothesis
        given the discount groups the example has touched (its discount price once one is,
        its full price before; a paid hypothesis keeps that price, as ``c(h_i)`` does without
        groups), so its distribution changes as the example touches groups.
    random_state : int or None, default=None
        Seed of the test-time draws (``None``: fresh entropy on every call).
    max_draws : int, default=2000
        Length of each example's draw sequence: the loop also ends after this many draws
        (it would run forever once every feature of the ensemble is paid for).
    adaboost_path : BoostPath or None, default=None
        A plain AdaBoost path fitted on the same training rows
        (:func:`budgetboost.estimators.boosting.booster.adaboost_path`), used instead of boosting
        again: the
        pipeline fits one per trial and shares it (see :class:`~budgetboost.BudgetedBoost`).

    Attributes
    ----------
    classes_, feature_, threshold_, polarity_, alpha_ : as in BudgetedBoost
        The trained AdaBoost ensemble.
    hypothesis_cost_ : ndarray of shape (n_rounds,)
        Original cost ``c(h_i)`` of each hypothesis (its feature group's cost).
    sampling_probability_ : ndarray of shape (n_rounds,)
        ``p(i)`` used at test time (AdaBoostRS_AC with discount groups: before the example
        has touched any).
    pricing_ : Pricing
        The feature groups' prices with their discount groups.

    References
    ----------
    L. Reyzin. Boosting on a budget: sampling for feature-efficient prediction. ICML 2011.
    """

    label = "AdaBoostRS"
    family = "sampling"

    conformance_cases = {
        "rs": {"n_rounds": 25},
        "rs_ac": {"n_rounds": 25, "cost_weighted": True},
    }
    _parameter_constraints = {
        "n_rounds": [Interval(Integral, 1, None, closed="left")],
        "budget": BUDGET,
        "cost_weighted": [Boolean()],
        "random_state": RANDOM_STATE,
        "max_draws": [Interval(Integral, 1, None, closed="left")],
        "adaboost_path": ADABOOST_PATH,
        **PRICES,
    }

    def __init__(
        self,
        n_rounds: int = 500,
        budget: float | None = None,
        cost_weighted: bool = False,
        feature_costs=None,
        feature_groups=None,
        random_state: int | None = None,
        max_draws: int = 2000,
        adaboost_path: BoostPath | None = None,
        discount_groups=None,
        discount_costs=None,
    ):
        self.n_rounds = n_rounds
        self.budget = budget
        self.cost_weighted = cost_weighted
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.random_state = random_state
        self.max_draws = max_draws
        self.adaboost_path = adaboost_path
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs

    def _fit(self, data: TrainingData) -> None:
        """Train plain AdaBoost for ``n_rounds`` rounds and set the sampling distribution."""
        path = path_for(self, data, int(self.n_rounds))
        if path is None:
            path = boost_path(
                data.X,
                data.y,
                criterion="adaboost",
                max_rounds=int(self.n_rounds),
                group_of_column=data.group_of_column,
                group_cost=data.group_cost,
            )
        self.feature_ = path.feature
        self.threshold_ = path.threshold
        self.polarity_ = path.polarity
        self.alpha_ = path.alpha
        self.group_ = path.group
        self.hypothesis_cost_ = data.group_cost[path.group]
        self.pricing_ = data.pricing
        weight = self.alpha_.copy()
        if self.cost_weighted:
            weight /= np.maximum(self.hypothesis_cost_, MIN_COST)
        self.sampling_probability_ = weight / weight.sum() if weight.size else weight

    # ------------------------------------------------------------------ prediction
    def decision_function(self, X) -> np.ndarray:
        """The full ensemble's vote ``sum_i alpha_i h_i(x)``: the limit of unlimited budget."""
        Xa = self._validated(X)
        h = stump_outputs(Xa, self.feature_, self.threshold_, self.polarity_)
        return h @ self.alpha_ + self.majority_ * VOTE_TIE

    def predict(self, X) -> np.ndarray:
        """Labels by sampling at ``budget``; with ``budget=None`` the full ensemble's vote."""
        budget = self._fitted_budget()
        if np.isinf(budget):
            return self._labels(self.decision_function(X))
        return self.predict_at_budgets(X, [budget])[0]

    def sample_at_budgets(self, X, budgets) -> dict[str, np.ndarray]:
        """Sample votes for every example and budget; shapes (len(budgets), n_samples).

        Returns ``vote`` (the sampled vote, tie offset included), ``cost`` (what each example
        paid: always below its budget), ``draws`` (hypotheses drawn) and ``n_features``
        (distinct feature groups paid for). Every example has one sequence of draws that
        serves all budgets; the stream is seeded by ``random_state``.
        """
        return self._sample(self._validated(X), check_budgets(budgets))

    def _sample(
        self, Xa: np.ndarray, budget_arr: np.ndarray, first_draw: np.ndarray | None = None
    ) -> dict[str, np.ndarray]:
        """:meth:`sample_at_budgets` of validated rows; ``first_draw`` (m, n_groups), if
        given, receives the position in its example's sequence of each group's first draw
        (left as it is for a group never drawn)."""
        m = Xa.shape[0]
        out = {
            key: np.zeros((budget_arr.size, m)) for key in ("vote", "cost", "draws", "n_features")
        }
        if self.alpha_.size:
            rng = np.random.default_rng(self.random_state)
            table = _alias_table(self.sampling_probability_)
            # votes of the distinct stumps only (AdaBoost repeats its stumps), int8 and one
            # row per example: the draws of an example gather from one short row
            stumps = np.column_stack([self.feature_, self.threshold_, self.polarity_])
            _, first, column = np.unique(stumps, axis=0, return_index=True, return_inverse=True)
            feature, polarity = self.feature_[first], self.polarity_[first]
            above = Xa[:, feature] >= self.threshold_[first]
            h = np.where(above, polarity, -polarity).astype(np.int8, order="C")
            if self.cost_weighted and not self._stateful():  # the vote a draw adds: h
                h = h * np.maximum(self.hypothesis_cost_[first], MIN_COST)  # times the cost
            starts = range(0, m, _ROW_BLOCK)
            # a stream per block of rows: how many steps a block takes depends on the
            # largest budget asked, so a shared stream would give the next block's rows
            # other draws at the same budget when other budgets are asked with it
            for start, stream in zip(starts, rng.spawn(len(starts)), strict=True):
                rows = slice(start, min(start + _ROW_BLOCK, m))
                block = self._sample_rows(
                    h[rows],
                    column.ravel(),
                    stream,
                    table,
                    budget_arr,
                    None if first_draw is None else first_draw[rows],
                )
                for key, value in block.items():
                    out[key][:, rows] = value
        out["vote"] += self.majority_ * VOTE_TIE
        return out

    def _stateful(self) -> bool:
        """Whether RS_AC's distribution depends on what each example has paid."""
        return bool(self.cost_weighted and self.pricing_.discounted)

    def _sample_rows(
        self,
        h: np.ndarray,
        column: np.ndarray,
        rng: np.random.Generator,
        table: tuple[np.ndarray, np.ndarray],
        budgets: np.ndarray,
        first_draw: np.ndarray | None = None,
    ) -> dict[str, np.ndarray]:
        """The poster's loop for a block of examples, every budget at once (``first_draw``:
        see ``_sample``).

        ``h[i, column[t]]`` is what a draw of hypothesis ``t`` adds to example ``i``'s vote:
        ``h_t(x_i)`` in {-1, +1}, times ``c(h_t)`` for AdaBoostRS_AC.

        Each example draws in chunks of ``_DRAW_CHUNK``; the loop over chunks ends once no
        example could draw again within the largest budget (or after ``max_draws``). Every
        chunk takes uniforms for the whole block, but only the examples still *active*
        (``spent + max_i c(h_i) < max(B)``) map and count them: a finished example's later
        draws never count at any budget, and the others' draws are the same either way.
        What an example has at budget ``B`` is recorded once, in the chunk where its
        ``spent + max_i c(h_i)`` reaches ``B`` (``_crossings``), or at the end.
        """
        m, n_columns = h.shape
        prices = _DrawPrices(self, m)
        costliest = prices.costliest
        order = np.argsort(budgets, kind="stable")
        sorted_budgets = budgets[order]
        seen = np.zeros((m, int(self.group_.max()) + 1), dtype=bool)
        paid, vote, n_groups = np.zeros(m), np.zeros(m), np.zeros(m)
        out = {key: np.zeros((budgets.size, m)) for key in ("vote", "cost", "draws", "n_features")}
        active = np.flatnonzero(paid + costliest < sorted_budgets[-1])
        done = 0
        while done < self.max_draws and active.size:
            width = min(_DRAW_CHUNK, self.max_draws - done)
            if prices.stateful:  # RS_AC with discount groups: p depends on what is paid
                draws, new, weight = prices.stateful_draws(rng, (m, width), active, seen)
                vote_of_draw = h[active[:, None], column[draws]] * weight
            else:
                draws = _alias_draws(rng, table, (m, width), active)
                new = _mark_new(seen, active, self.group_[draws])
                vote_of_draw = h.reshape(-1)[(active * n_columns)[:, None] + column[draws]]
            if first_draw is not None:  # what each example reads: its groups' first draws
                row, step = np.nonzero(new)
                first_draw[active[row], self.group_[draws[row, step]]] = done + step
            paid_after = paid[active, None] + np.cumsum(prices.paid(draws, new, active), axis=1)
            # the chunk's votes and new groups, summed in draw order (added to the example's
            # totals where they are read)
            votes = np.cumsum(vote_of_draw, axis=1)
            groups = np.cumsum(new, axis=1)
            # draw t counts at budget B while spent + max_i c(h_i) < B before it: its level
            # (how many sorted budgets that sum has reached) is at most B's index, and
            # below[i, k] counts example i's draws of level <= k
            reach = np.concatenate([paid[active, None], paid_after[:, :-1]], axis=1) + costliest
            level = np.searchsorted(sorted_budgets, reach, side="right")
            levels = sorted_budgets.size + 1
            level += levels * np.arange(active.size)[:, None]
            below = np.bincount(level.ravel(), minlength=levels * active.size)
            below = np.cumsum(below.reshape(active.size, levels), axis=1)
            # record each budget in the chunk where the example stops short of it
            row, b = _crossings(reach[:, 0], paid_after[:, -1] + costliest, sorted_budgets)
            taken = below[row, b]  # at least one draw
            at = active[row]
            self._record(
                out,
                (order[b], at),
                done + taken,
                paid_after[row, taken - 1],
                vote[at] + votes[row, taken - 1],
                n_groups[at] + groups[row, taken - 1],
            )
            done += width
            paid[active] = paid_after[:, -1]
            vote[active] += votes[:, -1]
            n_groups[active] += groups[:, -1]
            active = active[paid[active] + costliest < sorted_budgets[-1]]
        # max_draws ended the loop: the budgets not reached get the whole sequence
        row, b = _crossings(paid[active] + costliest, np.full(active.size, np.inf), sorted_budgets)
        self._record(
            out,
            (order[b], active[row]),
            done,
            paid[active[row]],
            vote[active[row]],
            n_groups[active[row]],
        )
        return out

    @staticmethod
    def _record(
        out: dict[str, np.ndarray],
        at: tuple[np.ndarray, np.ndarray],
        draws,
        cost: np.ndarray,
        vote: np.ndarray,
        n_features: np.ndarray,
    ) -> None:
        """Write what examples have at budgets: ``at`` = (budget indices, examples)."""
        out["draws"][at] = draws
        out["cost"][at] = cost
        out["vote"][at] = vote
        out["n_features"][at] = n_features

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray:
        """The groups of the hypotheses each example drew within each budget (the draws do
        not depend on ``X``: the same as ``_scores_and_costs`` makes)."""
        first = np.full((X.shape[0], self._n_groups()), np.iinfo(np.intp).max)
        drawn = self._sample(X, budgets, first)["draws"]
        return first[None, :, :] < drawn[:, :, None]

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Sampled votes at each budget, and what the examples paid.

        ``rounds`` is the mean number of draws per example; ``spent`` and
        ``mean_example_cost`` the mean cost paid, ``max_example_cost`` the largest.
        """
        sample = self._sample(X, budgets)
        mean_cost = sample["cost"].mean(axis=1)
        costs = BudgetCosts(
            rounds=sample["draws"].mean(axis=1),
            spent=mean_cost,
            n_features=sample["n_features"].mean(axis=1),
            mean_example_cost=mean_cost,
            max_example_cost=sample["cost"].max(axis=1),
            nodes=np.zeros(budgets.size),
        )
        return sample["vote"], costs
