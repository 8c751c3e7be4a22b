"""Recompute a run's stump-engine shards with this package and compare them with the run's.

For every train job of a config whose estimator runs the stump engine (its module imports
``budgetboost.estimators.boosting.stumps``: the boosters, the tuned boosters, the boosted trees and
AdaBoostRS; not the CART trees nor the peers), recomputes the block as the train job does
(:func:`budgetboost.pipeline.blocks.run_block` on the run's binarized data, with the same
trials, splits, costs and budgets, and the shared AdaBoost paths fitted anew with this
package) and compares it with the run's files:

- the shared paths (``paths/{dataset}/block-{k}.parquet``): the same stump in every round,
  and the largest relative difference of ``alpha`` and ``edge``;
- each shard: every column (test and train error, rounds, spending, features, the trade-off
  chosen), and its stumps table (the same stump in every round of every trial).

A shard that differs is traced, trial by trial: the first round whose stump differs, with
both stumps' edges summed exactly (``math.fsum``) under that round's weights and their
costs, which says whether the choice was an exact tie on the training rows; or, where every
stump is the same, the test examples whose prediction changed and the size of their vote
against the ensemble's total weight (a vote that is an exact tie flips on a last-bit
change of the weights).

It is the check of a change to the engine that may move the last bits of an edge (another
summation order: docs/performance.md, "Speed changes"), against a run of the code before it. Run
from the repository root: ``python benchmarks/compare_shards.py --results DIR [--config
config/config.yaml] [--datasets a,b] [--algorithms x,y] [--kernel sparse]`` (any algorithms
of the config, e.g. to check a change elsewhere: ``tree,tree_cs,lightgbm_stumps``); ``DIR``
is the earlier run's ``results`` folder (the config's, with its ``data/``, ``paths/``,
``shards/`` and ``stumps/``). ``--kernel`` forces every sign block's kernel (float64, float32
or the sparse sums: :func:`budgetboost.estimators.boosting.stumps.fastest_kernel`), to check
that a kernel this machine does not pick gives the same results.
"""

from __future__ import annotations

import os

# before numpy loads its BLAS: one thread, as the pipeline's jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from budgetboost.checks import check_all, load_config_file  # noqa: E402
from budgetboost.data.datasets import read_binarized  # noqa: E402
from budgetboost.data.io import read_table  # noqa: E402
from budgetboost.data.splits import split_indices  # noqa: E402
from budgetboost.estimators.contract.registry import estimator_module  # noqa: E402
from budgetboost.pipeline.adaboost_path import fit_adaboost_paths, read_adaboost_paths  # noqa: E402
from budgetboost.pipeline.blocks import block_inputs, run_block_on  # noqa: E402
from budgetboost.pipeline.code import source_files  # noqa: E402
from budgetboost.pipeline.plan import Plan  # noqa: E402
from budgetboost.pipeline.specs import make_estimator  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ENGINE = "budgetboost/estimators/boosting/stumps.py"
#: Shard columns compared (every one but the names, trial and budget, which key the rows).
KEYS = ["trial", "budget"]
STUMP_KEYS = ["trial", "round"]


def engine_algorithms(plan: Plan) -> list[str]:
    """The config's algorithms whose estimator's module imports the stump engine."""
    found = []
    for name in plan.algorithms:
        module = estimator_module(plan.config["algorithms"][name]["estimator"])
        if str(ROOT / ENGINE) in source_files(module, ROOT):
            found.append(name)
    return found


def compare_paths(new: dict, old: dict) -> tuple[list[str], float]:
    """Trials whose shared path chose another stump in some round, and the largest relative
    difference of alpha and edge over the rounds of the others."""
    differ, worst = [], 0.0
    for trial, path in new.items():
        before = old[trial]
        same = len(path.feature) == len(before.feature) and all(
            np.array_equal(getattr(path, c), getattr(before, c))
            for c in ("feature", "threshold", "polarity")
        )
        if not same:
            rounds = min(len(path.feature), len(before.feature))
            first = int(np.argmax(path.feature[:rounds] != before.feature[:rounds]))
            differ.append(f"trial {trial} from round {first}")
            continue
        for c in ("alpha", "edge"):
            a, b = getattr(path, c), getattr(before, c)
            scale = np.maximum(np.abs(b), np.finfo(float).tiny)
            worst = max(worst, float(np.max(np.abs(a - b) / scale, initial=0.0)))
    return differ, worst


def differing_rows(new: pd.DataFrame, old: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Rows of ``new`` and ``old`` (keyed by ``keys``) that differ in some column."""
    merged = new.merge(old, on=keys, how="outer", suffixes=("", "_old"), indicator=True)
    columns = [c for c in new.columns if c not in keys and f"{c}_old" in merged]
    differs = merged["_merge"] != "both"
    for c in columns:
        a, b = merged[c], merged[f"{c}_old"]
        differs |= ~((a == b) | (a.isna() & b.isna()))
    return merged[differs]


def exact_edge(X, y, weights, feature, threshold, polarity) -> float:
    """``|sum_i D(i) y_i h(x_i)|`` summed exactly (one rounding at the end)."""
    h = polarity * np.where(X[:, feature] >= threshold, 1.0, -1.0)
    return abs(math.fsum((weights * y * h).tolist()))


def trace_trial(inputs, data, spec, budgets, trial, stumps_old, paths, context) -> str:
    """Why trial ``trial`` of a shard differs (see the module docstring)."""
    dataset, cost_model = context
    train, test = inputs.splits[trial]
    estimator = make_estimator(
        spec,
        dataset=dataset,
        cost_model=cost_model,
        trial=trial,
        feature_costs=inputs.costs[trial],
        feature_groups=data.groups if inputs.grouped else None,
        budget=None if spec.unbudgeted else max(budgets),
        adaboost_path=None if paths is None else paths[trial],
        **inputs.discount_params(trial),
    )
    X, y = data.X.astype(np.float64), data.y.astype(np.float64)
    estimator.fit(X[train], y[train])
    if not hasattr(estimator, "alpha_"):  # a tuned booster's refits, a tree, a peer
        return "no stump path of its own to trace (compare its refits or model by hand)"
    old = stumps_old[stumps_old["trial"] == trial].sort_values("round")
    new_feature = np.asarray(estimator.feature_)
    rounds = min(len(old), len(new_feature))
    old_feature = old["feature"].to_numpy()
    diverge = np.flatnonzero(
        (old_feature[:rounds] != new_feature[:rounds])
        | (old["threshold"].to_numpy()[:rounds] != estimator.threshold_[:rounds])
        | (old["polarity"].to_numpy()[:rounds] != estimator.polarity_[:rounds])
    )
    Xt, yt = X[train], y[train]
    if diverge.size or len(old) != len(new_feature):
        r = int(diverge[0]) if diverge.size else rounds
        h = estimator._outputs(Xt)[:, :r]
        margin = (h * estimator.alpha_[:r]).sum(axis=1) * yt
        weights = np.exp(-(margin - margin.max()))
        weights /= weights.sum()
        if r >= len(old) or r >= len(new_feature):
            return f"round {r}: one path stops ({len(old)} rounds before, {len(new_feature)} now)"
        row = old.iloc[r]
        costs = inputs.costs[trial]
        before = exact_edge(Xt, yt, weights, int(row.feature), row.threshold, row.polarity)
        now = exact_edge(
            Xt,
            yt,
            weights,
            int(new_feature[r]),
            estimator.threshold_[r],
            estimator.polarity_[r],
        )
        same_cost = costs[int(row.feature)] == costs[int(new_feature[r])]
        tie = before == now and same_cost
        return (
            f"round {r}: stump on column {int(row.feature)} before, {int(new_feature[r])} now; "
            f"exact |edges| {before!r} and {now!r}, costs {costs[int(row.feature)]:.6g} and "
            f"{costs[int(new_feature[r])]:.6g}: {'an exact tie' if tie else 'NOT A TIE'}"
        )
    votes = estimator.decision_function(X[test])
    scale = float(np.abs(estimator.alpha_).sum()) or 1.0
    closest = float(np.min(np.abs(votes))) / scale
    return (
        f"same stumps; smallest |vote| / sum(alpha) on the test rows {closest:.2e} "
        f"({'a vote at an exact tie' if closest < 1e-9 else 'no vote near a tie'})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", required=True, help="the earlier run's results folder")
    parser.add_argument("--config", default=str(ROOT / "config" / "config.yaml"))
    parser.add_argument("--datasets", default=None, help="comma-separated (default: all)")
    parser.add_argument(
        "--algorithms",
        default=None,
        help="comma-separated, any of the config's (default: those of the stump engine)",
    )
    parser.add_argument(
        "--kernel",
        choices=["float64", "float32", "sparse"],
        default=None,
        help="force this kernel on every sign block (default: what this machine picks)",
    )
    args = parser.parse_args()
    if args.kernel:  # a fit's results never depend on its kernel: this checks it
        from budgetboost.estimators.boosting import stumps

        stumps.fastest_kernel = lambda signs, repeats=5, kernel=args.kernel: kernel
        print(f"every sign block's kernel forced to {args.kernel}", flush=True)
    results = Path(args.results)
    config, registry = check_all(load_config_file(args.config), ROOT)
    plan = Plan(config, registry)
    algorithms = args.algorithms.split(",") if args.algorithms else engine_algorithms(plan)
    datasets = args.datasets.split(",") if args.datasets else plan.datasets
    print(f"algorithms: {', '.join(algorithms)}", flush=True)
    n_shards, differ = 0, []
    experiments = set(plan.experiments())
    for dataset in datasets:
        data = read_binarized(results / "data" / f"{dataset}.parquet")
        sizes = plan.split_sizes(dataset)
        paths_of: dict[int, dict] = {}
        for cost_model in config["datasets"][dataset]["cost_models"]:
            for algorithm in algorithms:
                if (dataset, cost_model, algorithm) not in experiments:
                    continue
                spec = plan.algorithm(algorithm, dataset)
                budgets = [float(b) for b in plan.block_budgets(dataset, cost_model, algorithm)]
                for block in range(plan.blocks(dataset, cost_model, algorithm)):
                    trials = plan.block_trials(block, dataset, cost_model, algorithm)
                    inputs = block_inputs(
                        data,
                        dataset=dataset,
                        cost_model=cost_model,
                        cost_spec=plan.cost_spec(cost_model),
                        trials=trials,
                        root=ROOT,
                        **sizes,
                    )
                    paths = None
                    if spec.adaboost_path:
                        if block not in paths_of:
                            start = time.perf_counter()
                            every = plan.block_trials(block, dataset)
                            splits = {
                                t: split_indices(dataset, t, len(data.y), **sizes) for t in every
                            }
                            new, _ = fit_adaboost_paths(
                                data.X, data.y, splits, every, plan.path_rounds(dataset)
                            )
                            old = read_adaboost_paths(
                                results / "paths" / dataset / f"block-{block}.parquet"
                            )
                            changed, worst = compare_paths(new, old)
                            print(
                                f"{dataset} paths block {block}: {len(every)} trials, "
                                f"{len(changed)} with another stump in some round "
                                f"{changed[:5]}; alpha and edge within {worst:.1e} "
                                f"(relative; {time.perf_counter() - start:.0f} s)",
                                flush=True,
                            )
                            paths_of[block] = new
                        paths = paths_of[block]
                    shard, _, stumps = run_block_on(
                        data,
                        inputs,
                        dataset=dataset,
                        cost_model=cost_model,
                        spec=spec,
                        budgets=budgets,
                        trials=trials,
                        paths=paths,
                    )
                    where = f"{dataset}/{cost_model}/{algorithm}/block-{block}.parquet"
                    old_shard = read_table(results / "shards" / where)
                    old_stumps = read_table(results / "stumps" / where)
                    rows = differing_rows(shard, old_shard, KEYS)
                    stump_rows = differing_rows(stumps, old_stumps, STUMP_KEYS)
                    n_shards += 1
                    if rows.empty and stump_rows.empty:
                        continue
                    differ.append(where)
                    trials_off = sorted(set(rows["trial"]) | set(stump_rows["trial"]))
                    print(
                        f"DIFFERS {where}: {len(rows)} shard rows, {len(stump_rows)} stump rows, "
                        f"trials {trials_off[:10]}",
                        flush=True,
                    )
                    for trial in trials_off[:10]:
                        why = trace_trial(
                            inputs,
                            data,
                            spec,
                            budgets,
                            int(trial),
                            old_stumps,
                            paths,
                            (dataset, cost_model),
                        )
                        print(f"    trial {int(trial)}: {why}", flush=True)
        print(f"{dataset}: {n_shards} shards compared so far, {len(differ)} differ", flush=True)
    print(f"\n{n_shards} shards compared, {len(differ)} differ")
    for where in differ:
        print(f"  {where}")


if __name__ == "__main__":
    main()
