"""LightGBM with cost-effective gradient boosting (CEGB) as a budgeted peer.

LightGBM's CEGB (Peter et al. 2017) subtracts a feature's penalty from the gain of a split on
it (``src/treelearner/cost_effective_gradient_boosting.hpp``): the *coupled* penalty
``cegb_tradeoff * cegb_penalty_feature_coupled[j]`` until ``j`` is first used anywhere in the
model (a per-model cost), or the *lazy* one, ``cegb_tradeoff * cegb_penalty_feature_lazy[j]``
for each row of the leaf that has not yet read ``j`` on its path through an earlier split of
any tree (a per-example cost: the paper's Eq. 9). A split whose penalised gain is not
positive is not made, and training stops at the first tree that cannot split.
"""

from __future__ import annotations

import re
from numbers import Integral, Real
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np

from ..contract.base import (
    PRICES,
    RANDOM_STATE,
    BudgetCosts,
    TrainingData,
)
from ..contract.params import Boolean, Interval, OptionGrid, Options
from ..contract.threads import thread_limit
from ..contract.tuning import GRID, LARGEST, TRADEOFF, Choice, IntegerGrid, TradeoffGrid
from ..contract.validation import check_budgets
from . import per_example
from ._base import LibraryParams, PeerBooster, PeerModel
from .columns import distinct_columns

if TYPE_CHECKING:  # the library loads where a model is trained (planning imports this module)
    import lightgbm

__all__ = ["BudgetedLightGBM"]

#: The most (example, tree, level) cells of one step of :meth:`LightGBMModel.first_reads`.
_CELLS = 4_000_000

#: CEGB's feature penalties, by the wrapper's name (``cegb_feature_penalty``): LightGBM's
#: parameter that receives the columns' costs.
PENALTIES = {
    "coupled": "cegb_penalty_feature_coupled",
    "lazy": "cegb_penalty_feature_lazy",
}


def _reserved() -> dict[str, str]:
    """LightGBM parameters (with their aliases) that the wrapper sets itself."""
    by = {
        "objective": ("objective_type", "app", "application", "loss"),
        "n_estimators": (
            "num_iterations",
            "num_iteration",
            "n_iter",
            "num_tree",
            "num_trees",
            "num_round",
            "num_rounds",
            "nrounds",
            "num_boost_round",
            "max_iter",
        ),
        "learning_rate": ("shrinkage_rate", "eta"),
        "num_leaves": ("num_leaf", "max_leaves", "max_leaf", "max_leaf_nodes"),
        "max_depth": (),
        "min_child_samples": (
            "min_data_in_leaf",
            "min_data_per_leaf",
            "min_data",
            "min_samples_leaf",
        ),
        "min_data_in_bin": (),
        "reg_lambda": ("lambda_l2", "lambda", "l2_regularization"),
        "cegb_tradeoff": (),
        "cegb_penalty_split": (),
        "feature_costs": ("cegb_penalty_feature_coupled", "cegb_penalty_feature_lazy"),
        "random_state": ("seed", "random_seed"),
        "the job (its thread limit)": (
            "num_threads",
            "num_thread",
            "nthread",
            "nthreads",
            "n_jobs",
        ),
        "the wrapper (deterministic mode)": ("deterministic",),
        "the wrapper (silent)": ("verbosity", "verbose"),
        "the wrapper (a Dataset reused over the grid)": ("feature_pre_filter",),
        "the wrapper (every tree kept: the number used is chosen on validation)": (
            "early_stopping_round",
            "early_stopping_rounds",
            "early_stopping",
            "n_iter_no_change",
        ),
    }
    reserved = {}
    for owner, aliases in by.items():
        where = owner if owner.startswith("the ") else f"the parameter {owner!r}"
        for name in (owner, *aliases):
            if not name.startswith("the "):
                reserved[name] = where
    return reserved


class _Tree(NamedTuple):
    """One tree of a LightGBM model, as the benchmark reads it."""

    values: np.ndarray  # each leaf's value (LightGBM's leaf index)
    columns: np.ndarray  # the distinct library columns the tree splits on, sorted
    paths: np.ndarray  # (leaves, deepest path): the columns tested to reach each, root first


def _parse_model(text: str, columns: np.ndarray | None = None) -> list[_Tree]:
    """Each tree of ``Booster.model_to_string()``.

    A path lists the library columns tested on the way from the root to the leaf (LightGBM's
    leaf index, as returned by ``predict(pred_leaf=True)``), root first, ``-1`` after its
    last split. The booster's feature ``j`` is library column ``columns[j]`` of the argument
    (``None``: column ``j``). Leaf values are written with 17 significant digits, so they
    parse to the booster's own doubles (the same as ``dump_model()``'s, read at a fraction
    of the cost on wide data).
    """
    body = text.split("\nend of trees", 1)[0]

    def numbers(field: str, dtype: type) -> np.ndarray:
        """Every tree's ``field=`` line, in tree order, as one array."""
        lines = re.findall(f"^{field}=(.*)$", body, flags=re.MULTILINE)
        return np.array(" ".join(lines).split(), dtype=dtype)

    n_leaves = numbers("num_leaves", np.intp)
    if not n_leaves.size:  # no tree
        return []
    feature = numbers("split_feature", np.intp)  # every tree's nodes, one-leaf trees none
    if columns is not None:
        feature = np.asarray(columns, dtype=np.intp)[feature]
    leaf_start = np.concatenate([[0], np.cumsum(n_leaves)])
    node_start = np.concatenate([[0], np.cumsum(n_leaves - 1)])
    tree_of_node = np.repeat(np.arange(n_leaves.size), n_leaves - 1)
    # the parent (a node, model-wide) of every leaf and node: a child < 0 is leaf ~child
    up_leaf = np.full(int(leaf_start[-1]), -1, dtype=np.intp)
    up_node = np.full(int(node_start[-1]), -1, dtype=np.intp)
    for child in (numbers("left_child", np.intp), numbers("right_child", np.intp)):
        leaf, node = child < 0, np.flatnonzero(child >= 0)
        up_leaf[~child[leaf] + leaf_start[tree_of_node[leaf]]] = np.flatnonzero(leaf)
        up_node[child[node] + node_start[tree_of_node[node]]] = node
    # each leaf's path, climbed from the leaf (one step per level), then root first
    climbed, up = [], up_leaf
    while np.any(up >= 0):
        climbed.append(np.where(up >= 0, feature[np.maximum(up, 0)], -1))
        up = np.where(up >= 0, up_node[np.maximum(up, 0)], -1)
    depth = len(climbed)
    climbed = np.stack(climbed, axis=1) if depth else np.zeros((up_leaf.size, 0), np.intp)
    length = (climbed >= 0).sum(axis=1)
    step = length[:, None] - 1 - np.arange(depth)[None, :]
    paths = np.where(
        step >= 0, np.take_along_axis(climbed, np.maximum(step, 0), axis=1), -1
    ).astype(np.intp)
    # each tree's distinct split columns
    pairs = np.unique(np.stack([tree_of_node, feature], axis=1), axis=0)
    split = np.split(pairs[:, 1], np.searchsorted(pairs[:, 0], np.arange(1, n_leaves.size)))
    values = numbers("leaf_value", np.float64)
    return [
        _Tree(values[a:b], columns_of_tree, paths[a:b])
        for a, b, columns_of_tree in zip(
            leaf_start[:-1].tolist(), leaf_start[1:].tolist(), split, strict=True
        )
    ]


def _train(
    params: dict[str, Any], dataset: lightgbm.Dataset, rounds: int
) -> tuple[lightgbm.Booster, str]:
    """``lightgbm.train(params, dataset, rounds)``, stopped at the first round that adds no
    tree, and the model's text. CEGB may leave no split of positive penalised gain; LightGBM
    then adds no tree and changes nothing (no random draw: no bagging or column sampling
    here), so every later round would do the same: ``lightgbm.train`` tries them all (each
    a root's histograms). As ``lightgbm.train`` does, the booster is then reloaded from its
    text and its training data freed: a trained booster holds its training state (each
    column's histograms, the rows' bins), which a grid of models would keep many times."""
    import lightgbm

    booster = lightgbm.Booster({**params, "num_iterations": int(rounds)}, dataset)
    for _ in range(int(rounds)):
        if booster.update():
            break
    text = booster.model_to_string()
    booster.model_from_string(text).free_dataset()
    return booster, text


class LightGBMModel(PeerModel):
    """One trained ``lightgbm.Booster`` with its trees parsed (``model_to_string()``); its
    feature ``j`` is library column ``columns[j]`` (``None``: ``j``)."""

    def __init__(
        self, booster: lightgbm.Booster, columns: np.ndarray | None = None, text: str | None = None
    ):
        self.booster = booster
        self.columns = columns
        self.trees = _parse_model(booster.model_to_string() if text is None else text, columns)

    @property
    def n_trees(self) -> int:
        return len(self.trees)

    def _input(self, X: np.ndarray) -> np.ndarray:
        return X if self.columns is None else X[:, self.columns]

    def tree_columns(self) -> list[np.ndarray]:
        return [tree.columns for tree in self.trees]

    def leaves(self, X: np.ndarray, n_trees: int) -> np.ndarray:
        """Leaf index of each example in each of the first ``n_trees`` trees: (n, n_trees)."""
        leaves = self.booster.predict(
            self._input(X), pred_leaf=True, num_iteration=n_trees, num_threads=thread_limit()
        )
        return np.asarray(leaves, dtype=np.intp).reshape(X.shape[0], n_trees)

    def staged_scores(self, X: np.ndarray) -> np.ndarray:
        if not self.trees:
            return np.empty((0, X.shape[0]))
        return self.staged_from_leaves(self.leaves(X, len(self.trees)))

    def staged_from_leaves(self, leaves: np.ndarray) -> np.ndarray:
        """Raw scores of every prefix of 1, 2, ... of the trees of ``leaves`` (n, k): (k, n)."""
        k = leaves.shape[1]
        if not k:
            return np.empty((0, leaves.shape[0]))
        offsets = np.cumsum([0] + [tree.values.size for tree in self.trees[: k - 1]])
        values = np.concatenate([tree.values for tree in self.trees[:k]])
        return np.cumsum(values[leaves + offsets], axis=1).T

    def raw_scores(self, X: np.ndarray, n_trees: int) -> np.ndarray:
        return self.booster.predict(
            self._input(X), raw_score=True, num_iteration=n_trees, num_threads=thread_limit()
        )

    def _path_table(self, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The first ``k`` trees' paths as one table, (their leaves, the deepest path), ``-1``
        padded, and the row of each tree's leaf 0."""
        sizes = [tree.paths.shape for tree in self.trees[:k]]
        offsets = np.cumsum([0] + [rows for rows, _ in sizes])
        table = np.full((int(offsets[-1]), max((d for _, d in sizes), default=0)), -1)
        for start, tree in zip(offsets[:-1].tolist(), self.trees[:k], strict=True):
            table[start : start + tree.paths.shape[0], : tree.paths.shape[1]] = tree.paths
        return table, offsets[:-1]

    def first_reads(
        self, leaves: np.ndarray, column_group: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``(used, first)``: the groups the trees of ``leaves`` (n, k) split on (sorted), and
        the first of those trees (0-based) on whose path each example reads each of them
        (``k`` where it reads it in none), (n, len(used)). Vectorised over the examples and
        the trees: every (example, tree, node of its path) at once."""
        n, last = leaves.shape
        split = [column_group[tree.columns] for tree in self.trees[:last]]
        used = np.unique(np.concatenate(split or [np.empty(0, int)])).astype(np.intp)
        first = np.full((n, used.size), last, dtype=np.intp)
        if not last or not used.size:
            return used, first
        table, offsets = self._path_table(last)
        step = max(1, _CELLS // max(n * table.shape[1], 1))  # trees at once, to bound memory
        for start in range(0, last, step):
            stop = min(start + step, last)
            columns = table[leaves[:, start:stop] + offsets[start:stop]]  # (n, trees, depth)
            on_path = columns >= 0
            group = np.searchsorted(used, column_group[np.maximum(columns, 0)])
            example = np.broadcast_to(np.arange(n)[:, None, None], columns.shape)
            tree = np.broadcast_to(np.arange(start, stop)[None, :, None], columns.shape)
            np.minimum.at(first, (example[on_path], group[on_path]), tree[on_path])
        return used, first

    def example_costs(self, X, n_trees, column_group, pricing):
        """Per example, the groups on its paths through each prefix: vectorised over
        examples, a loop over the trees."""
        used, first = self.first_reads(self.leaves(X, int(n_trees.max())), column_group)
        return np.stack([pricing.set_costs(first < k, used) for k in n_trees.tolist()])

    def example_reads(self, X, n_trees, column_group, n_groups):
        """Per example, the groups on its paths through each prefix (those
        :meth:`example_costs` prices): (len(n_trees), n, n_groups)."""
        used, first = self.first_reads(self.leaves(X, int(n_trees.max())), column_group)
        reads = np.zeros((n_trees.size, X.shape[0], n_groups), dtype=bool)
        reads[:, :, used] = first[None, :, :] < n_trees[:, None, None]
        return reads

    def path_groups(
        self, trees: np.ndarray, leaves: np.ndarray, column_group: np.ndarray
    ) -> np.ndarray:
        """The groups on the path to leaf ``leaves[e]`` of tree ``trees[e]``, root first
        (``-1`` after the leaf): (len(trees), the deepest path)."""
        table, offsets = self._path_table(len(self.trees))
        columns = table[offsets[trees] + leaves]
        return np.where(columns >= 0, column_group[np.maximum(columns, 0)], -1)


class BudgetedLightGBM(PeerBooster):
    """LightGBM with CEGB feature penalties, tuned trade-off and learning rate, anytime prefix.

    Per fit (the protocol of :mod:`budgetboost.estimators.peers._base`): one LightGBM model
    (binary log loss, ``n_estimators`` trees) per pair of a ``cegb_tradeoff`` and a
    ``learning_rate`` is trained on the *fit part* of the training rows, with
    ``cegb_penalty_feature_coupled`` set to each column's cost; every prefix of the first
    ``k`` trees (``Booster.predict(num_iteration=k)``) is a candidate; at a budget ``B`` the
    candidate with the lowest error on the *validation part* among those whose ``spent`` is
    at most ``B`` is chosen (ties: lower validation log loss, then lower cost, fewer trees,
    earlier configuration); each chosen configuration is trained again on all training rows,
    and ``B`` gets its first ``k`` trees, or fewer where they reach ``B`` sooner. The empty
    model (no tree, cost 0) predicts the training majority class.

    **The trees' depth and regularisation** may be chosen as the learning rate is: given as
    several values, ``max_depth`` (e.g. ``[1, 2, 3]``), ``min_child_samples`` and
    ``reg_lambda`` each join the configurations (trade-off x learning rate x depth x ...),
    and the one of lowest validation error is chosen per budget (:meth:`chosen_depths`
    reports the depth). That is how a user of the library sets them: the Parameters-Tuning
    guide names ``max_depth``, ``min_data_in_leaf`` ("its optimal value depends on the number
    of training samples and num_leaves") and ``lambda_l2`` as the parameters that keep trees
    from over-fitting, to be tuned on held-out data; none has a value right for every data.

    **Charged per example** (``charging="example"``), as the field's methods are: a test
    example reads only the splits on its own paths, so at budget ``B`` it gets the longest
    prefix of the chosen model's trees (up to a cap chosen on validation) whose feature
    groups *on its own paths* cost at most ``B``, and pays for them, plus the groups it
    could still afford on the path of the first tree that does not fit (it reads them to
    find where that tree stops; :mod:`~budgetboost.estimators.peers.per_example`). The
    choice serves each validation example the same way: at every budget of a grid
    (0 and the prices the validation examples pay, 256 at most), every (configuration, cap
    on its trees) is scored by its validation error (ties: lower log loss, fewer trees,
    earlier configuration). ``spent`` is then the most an example paid. Per model (the
    default) every example of a budget gets the same prefix and ``spent`` is its price.

    **CEGB's penalty follows the charging** (``cegb_feature_penalty``): per model, the
    coupled penalty (a feature is paid once for the model, as a per-model budget pays it);
    per example, CEGB's own per-example penalty, the lazy one (a feature is paid by each row
    that reads it, the first time its path does: Peter et al.'s Eq. 9, the cost a
    per-example budget charges), with the coupled one as a further candidate. Each
    penalty's models join the configurations, and the one of lowest validation error is
    chosen per budget with the rest (:meth:`chosen_penalties`).

    The defaults are LightGBM's maintainers' advice for data of the benchmark's size (75 to
    1,000 training rows): leaves and bins of very few rows (``min_data_in_leaf`` and
    ``min_data_in_bin`` of 1-5, in LightGBM's GitHub issues 5493, 6023 and 3507 on small data;
    its default of 20 rows a leaf leaves most 0/1 columns of sonar's 75 fit rows unsplittable,
    and ``min_data_in_bin=3`` merges the rare values of an ordinal column), the number of trees
    and the learning rate chosen on validation (the Parameters-Tuning guide), and enough trees
    for the unpenalised model to spend the top of the paper's budget grid (40 under U[0, 2]):
    200 stumps at the higher rate spend 43-81 on seven of the Table 1 datasets' first trial and
    24-32 on ecoli and heart, where 300 spend no more (``benchmarks/peers.py`` prints it).

    Parameters
    ----------
    n_estimators : int, default=200
        Boosting rounds (LightGBM's ``num_iterations``) of the models of the grid; a model
        may have fewer trees when CEGB leaves no split with a positive penalised gain
        (LightGBM then stops). The prefix used at each budget is chosen on validation.
    learning_rate : float > 0 or array-like of them, default=(0.1, 0.3, 1.0)
        One value, or several to choose from on the validation part (LightGBM's default
        is 0.1). 1.0 is the full Newton step, the counterpart of the step AdaBoost takes
        each round; with room above it (3.0) the choice on validation stays at 1.0
        (``benchmarks/peer_grids.py`` prints both; how the grid was chosen:
        ``docs/design.md``, "How the defaults were chosen").
    num_leaves : int >= 2, default=31
        LightGBM caps it at ``2 ** max_depth`` when ``max_depth > 0``.
    max_depth : int or array-like of int, default=-1
        ``1`` gives stumps (the paper's hypothesis space); ``-1`` or ``0``: no limit (trees
        grown leaf-wise to ``num_leaves``); e.g. ``4`` (with ``num_leaves=16``) the usual
        small trees. Several distinct values (e.g. ``[1, 2, 3]``) are a grid chosen per
        budget on the validation part (see above).
    min_child_samples : int >= 0 or array-like of them, default=2
        LightGBM's ``min_data_in_leaf`` (its default 20 is for tens of thousands of rows);
        several distinct values are a grid chosen on validation.
    min_data_in_bin : int >= 1, default=1
        LightGBM's ``min_data_in_bin`` (its default 3 merges rare values into one bin).
    reg_lambda : float >= 0 or array-like of them, default=0.0
        LightGBM's ``lambda_l2``; several values are a grid chosen on validation.
    cegb_tradeoff : float >= 0, array-like of them, or None, default=None
        LightGBM's multiplier of all CEGB penalties, in LightGBM's units: one value is a
        fixed trade-off, several a grid to choose from on the validation part. ``None`` is
        the grid ``n_fit / c * (0, 1e-4, 4e-4, ..., 1e-4 * 4^6)`` (8 values, log-spaced in
        factors of 4, and 0: no penalty), ``n_fit`` the rows of the fit part and ``c`` the
        mean positive cost of the columns given to the library. Why: LightGBM's split gain
        is ``G_L^2/(H_L+lambda) + G_R^2/(H_R+lambda) - G^2/(H+lambda)``, and with log loss
        ``g^2/h <= 1`` per row at the start (``g = +-1/2``, ``h = 1/4``), so a gain is at
        most about ``n_fit`` (a perfect first split) and useful splits gain ``1e-3 n_fit``
        to ``0.3 n_fit``. At ``1e-4 n_fit / c`` the penalty of a feature of average cost is
        below almost any useful gain (features nearly free); at ``0.4 n_fit / c`` above all
        but the best splits, so only features far cheaper than average are used. Dividing by
        ``c`` makes the grid independent of the cost unit.
    cegb_feature_penalty : {"coupled", "lazy"}, a list of them, or None, default=None
        Which of CEGB's feature penalties receives the columns' costs: LightGBM's
        ``cegb_penalty_feature_coupled`` (a feature's cost paid once per model) or
        ``cegb_penalty_feature_lazy`` (paid by each training row on whose path it is first
        read); several are a grid chosen per budget on the validation part. ``None``: the
        coupled penalty per model (``charging="model"``), and per example both, the lazy
        first (ties go to it; the lazy alone with ``validation_fraction=0``). The default
        trade-off grid is scaled for each: the lazy penalty is charged per row, as the gain
        grows, so its grid is the coupled one divided by ``n_fit`` (``(0, 1e-4, ...,
        1e-4 * 4^6) / c``: at the root the penalty of a feature of average cost is then the
        same share of the largest gain as the coupled one's). Trade-offs given as values
        are used as given for each penalty.
    cegb_penalty_split : float >= 0, default=0.0
        LightGBM's penalty per split and row of the node (times ``cegb_tradeoff``).
    validation_fraction : float in [0, 1), default=0.25
        Share of the training rows held out, stratified by class (each class gives its
        share, rounded, and keeps at least one row in the fit part), to choose the
        configuration and the prefix at each budget; the chosen configurations are then
        trained on all training rows. ``0`` trains one configuration on all rows and uses
        the longest affordable prefix (``cegb_tradeoff`` and ``learning_rate`` must then be
        single values). On tiny data (a validation part with no row), the fit part chooses.
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seeds the validation split and LightGBM's ``seed`` (drawn from the same generator).
    feature_costs : array-like of shape (n_features,), default=None
        Cost of each column (default all 1); ``0`` is allowed (a free feature).
    feature_groups : array-like of shape (n_features,), default=None
        Group label per column; a group is paid for once. LightGBM knows no groups. The
        threshold indicators of one attribute (columns of a group nested on the training
        rows) are given to it as one ordinal column
        (:mod:`budgetboost.estimators.peers.columns`), whose coupled penalty is the group's cost:
        paid once, as the project pays it. Any other column of a group (a one-hot category) is given
        as it is, with its group's cost, so the model pays the group again for each further such
        column it uses (an over-estimate that steers LightGBM away from a paid group's other
        columns). The project's accounting (``spent``, the choice) pays each group once, exactly.
    discount_groups, discount_costs : array-like of shape (n_features,), default=None
        Turney's discount groups (see :class:`~budgetboost.BudgetedEstimator`). LightGBM
        cannot express them: a column's ``cegb_penalty_feature_coupled`` is its group's full
        price (its test alone, the most it can cost). The candidates' costs, hence the
        choice per budget, and every evaluation use the true prices with the discount groups.
    params : dict or None, default=None
        Further LightGBM parameters (e.g. ``{"feature_fraction": 0.8}``), passed to
        ``lightgbm.Dataset`` and ``lightgbm.train``; not those above, nor ``objective``, the
        threads, ``seed``, ``deterministic``, ``feature_pre_filter`` or ``verbosity``, which
        the wrapper sets (``objective="binary"``, ``deterministic=True``, ``max_bin`` a bin
        per distinct value of the widest column (at least LightGBM's 255), the job's
        ``num_threads`` (:func:`~budgetboost.estimators.contract.threads.thread_limit`),
        ``feature_pre_filter=False``, ``force_row_wise=True`` unless ``force_col_wise`` is
        given, ``verbosity=-1``), nor early stopping (every tree is kept: the number used
        at each budget is chosen on validation).
    charging : {"model", "example"}, default="model"
        What an example pays at a budget: the groups every tree of the served prefix splits
        on (``"model"``), or those on its own paths, each example its own prefix
        (``"example"``; see above). The choice on validation charges as serving does.
    merge_identical_columns : bool, default=False
        Give each model one column of each set of columns equal on its training rows, the
        cheapest (:func:`~budgetboost.estimators.peers.columns.distinct_columns`): the same
        splits, each on the cheapest column that makes it, at a fraction of LightGBM's time
        on wide data (sonar's 11,196 columns are 4,164 distinct on 75 rows; LightGBM sets
        up every column for every model and builds a histogram of each for every leaf).
        ``False`` gives every column, as before (where the trade-off is 0, LightGBM takes
        the first of equal columns, not the cheapest).

    Attributes
    ----------
    classes_, n_features_in_, majority_
        As every :class:`~budgetboost.BudgetedEstimator`.
    configs_, tradeoffs_, models_, choice_, refits_, encoding_, seed_, ...
        See :class:`~budgetboost.estimators.peers._base.PeerBooster`; ``seed_`` is LightGBM's
        ``seed``.
    validation_budgets_ : ndarray
        Per example: the budgets at which the candidates were compared (0 first).
    validation_error_ : ndarray of shape (n_configs, n_budgets) or list of ndarray
        Per example: each configuration's validation error at each of those budgets, at its
        best cap; per model: each configuration's validation error of each prefix.

    Notes
    -----
    Per model, ``spent`` at a budget is the pay-once cost of the groups the prefix served
    splits on; ``mean_example_cost``/``max_example_cost`` what the test examples paid for
    the groups on their own decision paths through it (``predict(pred_leaf=True)`` and the
    trees of ``model_to_string()``): a per-example ("lazy") cost, at most ``spent``.
    ``rounds`` is the number of trees, ``n_features`` the groups of the prefix, ``nodes`` 0.
    Per example, each example pays for its own prefix and walk (at most the budget):
    ``spent`` and ``max_example_cost`` are the most one paid, ``rounds`` and ``n_features``
    the mean number of trees used and of groups paid for.

    References
    ----------
    S. Peter, F. Diego, F. A. Hamprecht, B. Nadler. Cost Efficient Gradient Boosting.
    NIPS 2017. LightGBM parameters ``cegb_tradeoff``, ``cegb_penalty_split``,
    ``cegb_penalty_feature_coupled``, ``cegb_penalty_feature_lazy``.
    Y. Huang, B. Powers, L. Reyzin. Training-Time Optimization of a Budgeted Booster.
    IJCAI 2015 (the budgets and costs of the benchmark).
    """

    label = "LightGBM CEGB"
    family = "peer"

    _tradeoff_name = "cegb_tradeoff"
    _n_trees_name = "n_estimators"
    _structure_names = ("max_depth", "min_child_samples", "reg_lambda")
    _depth_name = "max_depth"
    _relative_grid = (0.0, *(1e-4 * 4.0**i for i in range(7)))

    libraries = ("lightgbm",)
    conformance_cases = {
        "stumps": {"n_estimators": 20, "max_depth": 1, "min_child_samples": 2},
        "depth": {"n_estimators": 20, "max_depth": [1, 3], "min_child_samples": 2},
        "per_example": {
            "n_estimators": 20,
            "max_depth": [1, 3],
            "min_child_samples": 2,
            "charging": "example",
        },
    }
    _parameter_constraints = {
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither"), GRID],
        "num_leaves": [Interval(Integral, 2, 131072, closed="both")],
        "max_depth": [
            Interval(Integral, -1, None, closed="left"),
            IntegerGrid(-1, None, "the depths to choose from", distinct=True),
        ],
        "min_child_samples": [
            Interval(Integral, 0, None, closed="left"),
            IntegerGrid(0, None, "the values to choose from", distinct=True),
        ],
        "min_data_in_bin": [Interval(Integral, 1, None, closed="left")],
        "reg_lambda": [Interval(Real, 0, None, closed="left"), TradeoffGrid()],
        "charging": [Options(("model", "example"))],
        "merge_identical_columns": [Boolean()],
        "cegb_tradeoff": TRADEOFF,
        "cegb_feature_penalty": [
            OptionGrid(tuple(PENALTIES), "the penalties to choose from"),
            None,
        ],
        "cegb_penalty_split": [Interval(Real, 0, None, closed="left")],
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        **PRICES,
        "params": [LibraryParams("LightGBM", _reserved()), None],
    }

    def __init__(
        self,
        n_estimators: int = 200,
        learning_rate=(0.1, 0.3, 1.0),
        num_leaves: int = 31,
        max_depth: int = -1,
        min_child_samples: int = 2,
        min_data_in_bin: int = 1,
        reg_lambda: float = 0.0,
        cegb_tradeoff=None,
        cegb_penalty_split: float = 0.0,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        params: dict | None = None,
        discount_groups=None,
        discount_costs=None,
        charging: str = "model",
        merge_identical_columns: bool = False,
        cegb_feature_penalty=None,
    ):
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.max_depth = max_depth
        self.min_child_samples = min_child_samples
        self.min_data_in_bin = min_data_in_bin
        self.reg_lambda = reg_lambda
        self.cegb_tradeoff = cegb_tradeoff
        self.cegb_penalty_split = cegb_penalty_split
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.params = params
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs
        self.charging = charging
        self.merge_identical_columns = merge_identical_columns
        self.cegb_feature_penalty = cegb_feature_penalty

    # ------------------------------------------------------------------ hooks
    def _tradeoff_scale(self, n_fit: int, mean_cost: float) -> float:
        return n_fit / mean_cost

    def _penalties(self) -> list[str]:
        """The feature penalties to fit (``cegb_feature_penalty``; ``None``: by charging);
        none for a subclass without a trade-off (no penalty is charged)."""
        value = self.cegb_feature_penalty
        if self._tradeoff_name is None:
            return []
        if value is None and self.charging == "model":
            return ["coupled"]
        if value is None:  # nothing held out: nothing to choose between
            return ["lazy", "coupled"] if float(self.validation_fraction) > 0 else ["lazy"]
        return [value] if isinstance(value, str) else list(value)

    def _choice_counts(self) -> dict[str, int]:
        return {**super()._choice_counts(), "cegb_feature_penalty": len(self._penalties())}

    def _configs(self, n_fit: int, penalty: np.ndarray) -> list[dict]:
        """The protocol's configurations once per feature penalty (the penalty varying
        slowest), the lazy penalty's default trade-offs divided by ``n_fit`` (its penalty
        grows with the rows of a leaf, as the gain does)."""
        if not self._penalties():
            return super()._configs(n_fit, penalty)
        configs = []
        for kind in self._penalties():
            per_row = kind == "lazy" and self.cegb_tradeoff is None
            for config in super()._configs(n_fit, penalty):
                if per_row and "tradeoff" in config:
                    config = {**config, "tradeoff": config["tradeoff"] / n_fit}
                configs.append({**config, "cegb_feature_penalty": kind})
        return configs

    def chosen_penalties(self, budgets: Any) -> np.ndarray:
        """The feature penalty (``"coupled"`` or ``"lazy"``) of the model used at each
        budget, chosen on the validation part; ``""`` where the empty model is.

        Parameters
        ----------
        budgets : float or array-like of float
            As in :meth:`chosen_tradeoffs`.

        Returns
        -------
        ndarray of str, shape (len(budgets),)
        """
        self._check_fitted()
        config, _ = self.choice_.at(self._capped(check_budgets(budgets)))
        kinds = np.array([c.get("cegb_feature_penalty", "coupled") for c in self.configs_])
        return np.where(config >= 0, kinds[np.maximum(config, 0)], "")

    def _library_params(self, seed: int, config: dict | None = None) -> dict[str, Any]:
        """The LightGBM parameters of the fits of ``config`` (its trees' depth and
        regularisation where they are grid parameters), but the learning rate and CEGB's;
        with no configuration, those of the Dataset (built once for every configuration)."""
        extra = dict(self.params or {})
        depth = int(self._value(config, "max_depth"))
        params = {
            "objective": "binary",
            # LightGBM caps num_leaves at 2**max_depth itself; doing so here spares CEGB
            # its per-leaf bookkeeping for leaves that cannot exist (stumps fit ~1/3 faster)
            "num_leaves": int(self.num_leaves)
            if depth <= 0
            else min(int(self.num_leaves), 2**depth),
            "max_depth": depth,
            "min_data_in_leaf": int(self._value(config, "min_child_samples")),
            "min_data_in_bin": int(self.min_data_in_bin),
            "feature_pre_filter": False,
            # exclusive feature bundling finds nothing to gain on these 0/1 columns (the
            # same trees on sonar, splice and census) but costs 0.4 s a Dataset on sonar
            "enable_bundle": False,
            "lambda_l2": float(self._value(config, "reg_lambda")),
            "cegb_penalty_split": float(self.cegb_penalty_split),
            "num_threads": thread_limit(),
            # a bin per distinct value: every threshold the boosters see stays apart
            "max_bin": max(255, int(self.n_bins_)),
            "deterministic": True,
            "seed": int(seed),
            "verbosity": -1,
        }
        if not extra.get("force_col_wise", False):
            params["force_row_wise"] = True
        params.update(extra)
        return params

    def _fit_models(self, X, y01, penalty, configs, seed, n_trees):
        """One Dataset (built once) and one booster per configuration (of the columns that
        differ on these rows, with ``merge_identical_columns``)."""
        params = self._library_params(seed)
        columns = distinct_columns(X, penalty) if self.merge_identical_columns else None
        if columns is not None:
            X, penalty = X[:, columns], penalty[columns]
        import lightgbm

        dataset = lightgbm.Dataset(X, label=y01, params=params, free_raw_data=True).construct()
        costs = np.asarray(penalty, dtype=np.float64)  # an array: cheap to deepcopy
        models = []
        for config, trees in zip(configs, n_trees, strict=True):
            kind = config.get("cegb_feature_penalty", "coupled")
            params = {
                **self._library_params(seed, config),
                "learning_rate": float(config["learning_rate"]),
                "cegb_tradeoff": float(config.get("tradeoff", 0.0)),
                PENALTIES[kind]: costs,
            }
            booster, text = _train(params, dataset, int(trees))
            models.append(LightGBMModel(booster, columns, text))
        return models

    # ------------------------------------------------------------------ per-example charging
    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """Per model: the protocol's choice (:func:`~..contract.tuning.choose`). Per example:
        every (configuration, cap on its trees) at every budget of a grid, each validation
        example served as a test example is (:func:`.per_example.validation_choice`)."""
        if self.charging == "model":
            return super()._choose(data, rows)
        column_group = self.encoding_.group
        if float(self.validation_fraction) == 0:  # one configuration: every tree it has
            trees = int(self.models_[0].n_trees)
            self.validation_budgets_ = np.zeros(1)
            self.validation_error_ = np.full((1, 1), np.nan)
            return Choice(np.zeros(1), np.array([0 if trees else -1]), np.array([trees]))
        X = self._library.X[rows]
        parts = [
            per_example.prefixes(model, X, column_group, self.pricing_, self.majority_)
            for model in self.models_
        ]
        choice, budgets, errors = per_example.validation_choice(parts, data.y[rows])
        self.validation_budgets_ = budgets
        self.validation_error_ = errors
        return choice

    def _affordable(self, index: int, model: PeerModel, budgets: np.ndarray) -> np.ndarray:
        if self.charging == "model":
            return super()._affordable(index, model, budgets)
        return np.full(budgets.size, LARGEST)  # each example finds its own prefix

    def _serve(self, index, model, X, budgets, sizes) -> tuple[np.ndarray, BudgetCosts]:
        if self.charging == "model":
            return super()._serve(index, model, X, budgets, sizes)
        return per_example.serve(
            model, X, budgets, sizes, self.encoding_.group, self.pricing_, self.majority_
        )

    def _serve_reads(self, index, model, X, budgets, sizes) -> np.ndarray:
        if self.charging == "model":
            return super()._serve_reads(index, model, X, budgets, sizes)
        return per_example.serve_reads(
            model, X, budgets, sizes, self.encoding_.group, self.pricing_, self._n_groups()
        )
