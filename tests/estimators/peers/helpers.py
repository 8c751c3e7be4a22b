"""What the peer adapters' tests share: the problem both are fitted on, and the budgets."""

from __future__ import annotations

import numpy as np

BUDGETS = [0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, np.inf]


def problem(n: int = 400, d: int = 12, seed: int = 0):
    """0/1 features; the label depends on columns 0-3 (and noise); costs U[0, 2], one 0."""
    rng = np.random.default_rng(seed)
    X = (rng.random((n, d)) < 0.5).astype(np.float64)
    signal = X[:, 0] + X[:, 1] - X[:, 2] + 0.5 * X[:, 3] + 0.6 * rng.standard_normal(n)
    y = np.where(signal > 0.75, 1, -1)
    costs = rng.uniform(0, 2, d)
    costs[5] = 0.0
    return X, y, costs


def pay_once(columns_per_tree, k, group_cost, group_of_column):
    """The cost of the first ``k`` trees: each group read by any of them, paid once."""
    groups = {int(group_of_column[c]) for cols in columns_per_tree[:k] for c in cols}
    return sum(group_cost[g] for g in sorted(groups))


def priced(kind: str, d: int = 12, seed: int = 0) -> dict:
    """The cost parameters of :func:`problem`'s ``d`` columns, by kind of cost model:
    ``"columns"`` (each column its own price, U[0, 2], one free), ``"groups"`` (pairs of
    columns paid together) or ``"discounts"`` (pairs, and Turney's discount groups: groups
    0-1 share a part of 0.5, groups 2-3 one of 0.3, the rest none)."""
    rng = np.random.default_rng(seed + 100)
    if kind == "columns":
        return {"feature_costs": problem(d=d, seed=seed)[2]}
    groups = np.arange(d) // 2
    group_cost = np.round(rng.uniform(0.6, 2.0, groups.max() + 1), 2)
    params = {"feature_costs": group_cost[groups], "feature_groups": groups}
    if kind == "groups":
        return params
    label = np.array([0, 0, 1, 1] + [-1] * (groups.max() - 3))
    shared = np.array([0.5, 0.3])
    discount = np.where(label >= 0, group_cost - shared[np.maximum(label, 0)], group_cost)
    return {**params, "discount_groups": label[groups], "discount_costs": discount[groups]}


# ---------------------------------------------------------------------- the libraries themselves
# Each reference is trained on raw numpy with the parameters written out independently of the
# wrapper, and read back through the library's own API (not the wrapper's parsers).


def lightgbm_params(est, tradeoff, costs, learning_rate) -> dict:
    """LightGBM's parameters for one configuration of ``est``."""
    return {
        "objective": "binary",
        "learning_rate": learning_rate,
        "num_leaves": est.num_leaves,
        "max_depth": est.max_depth,
        "min_data_in_leaf": est.min_child_samples,
        "min_data_in_bin": est.min_data_in_bin,
        "feature_pre_filter": False,
        "lambda_l2": est.reg_lambda,
        "num_threads": 1,
        "deterministic": True,
        "force_row_wise": True,
        "seed": est.seed_,
        "verbosity": -1,
        "cegb_tradeoff": tradeoff,
        "cegb_penalty_feature_coupled": list(costs),
    }


def lightgbm_reference(est, config, costs, X, y, n_trees=None):
    """LightGBM trained on ``X, y`` with configuration ``config`` (an index of ``configs_``)."""
    import lightgbm

    tradeoff, rate = est.configs_[config]["tradeoff"], est.configs_[config]["learning_rate"]
    params = lightgbm_params(est, tradeoff, costs, rate)
    return lightgbm.train(
        params,
        lightgbm.Dataset(X, label=(y > 0).astype(int), params=params),
        num_boost_round=est.n_estimators if n_trees is None else n_trees,
    )


def lightgbm_columns(booster) -> list[set[int]]:
    """Columns split on by each tree, from ``trees_to_dataframe``."""
    frame = booster.trees_to_dataframe()
    splits = frame[frame["split_feature"].notna()]
    columns = [set() for _ in range(booster.num_trees())]
    for tree, feature in zip(splits["tree_index"], splits["split_feature"], strict=True):
        columns[tree].add(int(feature.removeprefix("Column_")))
    return columns


def catboost_reference(est, config, costs, X, y, n_trees=None):
    """CatBoost trained on ``X, y`` with configuration ``config`` (an index of ``configs_``)."""
    import catboost

    model = catboost.CatBoostClassifier(
        iterations=est.iterations if n_trees is None else n_trees,
        learning_rate=est.configs_[config]["learning_rate"],
        depth=est.depth,
        l2_leaf_reg=est.l2_leaf_reg,
        random_strength=est.random_strength,
        loss_function="Logloss",
        thread_count=1,
        random_seed=est.seed_,
        allow_writing_files=False,
        verbose=False,
        penalties_coefficient=est.configs_[config]["tradeoff"],
        first_feature_use_penalties=list(costs),
        **(est.params or {}),
    )
    return model.fit(X, (y > 0).astype(int))


def catboost_columns(model, X) -> list[set[int]]:
    """Columns each tree splits on, found by flipping 0/1 columns and watching the leaf
    indexes (``calc_leaf_indexes``), not from the wrapper's reading of the JSON export."""
    base = model.calc_leaf_indexes(X)
    columns = [set() for _ in range(base.shape[1])]
    for j in range(X.shape[1]):
        flipped = X.copy()
        flipped[:, j] = 1 - flipped[:, j]
        for t in np.flatnonzero((model.calc_leaf_indexes(flipped) != base).any(axis=0)):
            columns[t].add(j)
    return columns
