"""Digests of fitted paths and shards, to show that a speed-up changed no result.

For a few trials of some Table 1 datasets, runs every algorithm of the default config
(``config/config.yaml``) as a train job does (:func:`budgetboost.pipeline.blocks.run_block`) and
prints two SHA-256 per (dataset, cost model, algorithm):

- *results*: the block's shard and stump tables (every column's bytes: test and train
  errors, spending, the trade-off chosen at each budget, the stumps of every round;
  wall-clock timings excluded);
- *attributes*: the fitted attributes of each trial's estimator (``feature_``,
  ``threshold_``, ``polarity_``, ``alpha_``, ``spent_``, ... every ndarray attribute ending in
  ``_``, with its name), refitted exactly as the block fits it.

Run it before and after a change, from the same repository root, and compare the outputs
(``diff``): equal digests mean byte-identical results. A change that renames or drops a fitted
attribute changes the second digest only. To run it against an earlier commit's package,
``git archive OLD | tar -x -C /tmp/old`` then ``PYTHONPATH=/tmp/old python
benchmarks/fingerprint.py`` (this script, config and data from this repository).

Run from the repository root: ``python benchmarks/fingerprint.py [--trials 3] [--cases
sonar/uniform_0_2,census/uniform_0_2] [--algorithms adaboost,greedy] [--train-size N]
[--configfile config/suite.yaml]`` (``--configfile``: the field's methods, e.g. ``aaco``, are
the suite's).
``--train-size`` replaces the registry's training rows of every case (a number, or ``all``:
every row not held out for test, as ``config/full_size.yaml``), to check the engine's
large-data paths (census and ocr17 at 1,000 rows take the same paths as Table 1).
"""

from __future__ import annotations

import argparse
import hashlib
from pathlib import Path

import numpy as np
import pandas as pd

from budgetboost.checks import load_config_file
from budgetboost.data.datasets import build_binarized
from budgetboost.data.registry import load_registry
from budgetboost.pipeline.adaboost_path import fit_adaboost_paths
from budgetboost.pipeline.blocks import block_inputs, run_block_on
from budgetboost.pipeline.plan import grid_budgets
from budgetboost.pipeline.specs import algorithm_spec, make_estimator

ROOT = Path(__file__).resolve().parents[1]
#: (dataset, cost model) pairs of the default config checked by default.
CASES = (
    ("sonar", "uniform_0_2"),
    ("ionosphere", "uniform_0_2"),
    ("heart", "uniform_0_2"),
    ("heart", "turney"),
    ("ecoli", "uniform_0_2"),
)
#: Algorithms checked by default: the boosters and AdaBoostRS (``--algorithms all`` adds the
#: trees, the tuned boosters, the boosted trees and the peers: minutes more).
ALGORITHMS = (
    "adaboost",
    "adaboost_bt",
    "greedy",
    "smoothed",
    "speedboost",
    "hybrid",
    "adaboost_rs",
    "adaboost_rs_ac",
)


def _update(digest, value) -> None:
    """Feed an array (dtype, shape and bytes) or a string into ``digest``."""
    if isinstance(value, str):
        digest.update(value.encode())
        return
    array = np.asarray(value)
    if array.dtype == object:
        array = np.asarray([str(v) for v in array.ravel()])
    digest.update(f"{array.dtype.str}{array.shape}".encode())
    digest.update(np.ascontiguousarray(array).tobytes())


def _frame(digest, frame: pd.DataFrame) -> None:
    for column in frame.columns:
        _update(digest, column)
        _update(digest, frame[column].to_numpy())


def fingerprint(
    dataset: str,
    cost_model: str,
    algorithm: str,
    trials: list[int],
    config: dict,
    registry: dict,
    train_size: str | None = None,
) -> tuple[str, str]:
    """SHA-256 of the results and of the fitted attributes of one (dataset, cost model,
    algorithm) over ``trials``.

    ``train_size`` (a number or ``all``) replaces the registry's training rows.
    """
    entry = dict(registry[dataset])
    data = build_binarized(dataset, entry, ROOT)
    if train_size is not None:
        all_rows = len(data.y) - entry["test_size"]
        entry["train_size"] = all_rows if train_size == "all" else int(train_size)
    model = config["cost_models"][cost_model]
    inputs = block_inputs(
        data,
        dataset=dataset,
        cost_model=cost_model,
        cost_spec=model["spec"],
        train_size=entry["train_size"],
        test_size=entry["test_size"],
        trials=trials,
        root=ROOT,
    )
    splits, costs = inputs.splits, inputs.costs
    budgets = grid_budgets(model["budgets"])
    spec = algorithm_spec(algorithm, config["algorithms"][algorithm], entry.get("adaboost_rounds"))
    digest, results = hashlib.sha256(), hashlib.sha256()
    X = data.X.astype(np.float64)
    groups = data.groups if inputs.grouped else None
    paths = None
    if spec.adaboost_path:  # as the adaboost_path rule fits them
        rounds = max(config["adaboost_path"]["max_rounds"], entry.get("adaboost_rounds") or 0)
        paths, _ = fit_adaboost_paths(X, data.y, splits, trials, rounds)
    for t in trials:
        estimator = make_estimator(
            spec,
            dataset=dataset,
            cost_model=cost_model,
            trial=t,
            feature_costs=costs[t],
            feature_groups=groups,
            budget=None if spec.unbudgeted else budgets[-1],
            adaboost_path=None if paths is None else paths[t],
            **inputs.discount_params(t),
        )
        estimator.fit(X[splits[t][0]], data.y[splits[t][0]])
        for name in sorted(vars(estimator)):
            value = getattr(estimator, name)
            if name.endswith("_") and isinstance(value, np.ndarray | str):
                _update(digest, name)
                _update(digest, value)
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
    _frame(results, shard)
    _frame(results, stumps)
    return results.hexdigest(), digest.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument(
        "--cases",
        default=",".join("/".join(c) for c in CASES),
        help="comma-separated dataset/cost_model pairs",
    )
    parser.add_argument(
        "--algorithms",
        default=",".join(ALGORITHMS),
        help="comma-separated algorithms of the config, or 'all'",
    )
    parser.add_argument(
        "--train-size", default=None, help="training rows of every case (a number or 'all')"
    )
    parser.add_argument(
        "--configfile",
        type=Path,
        default=ROOT / "config" / "config.yaml",
        help="the config whose algorithms and cost models are read",
    )
    args = parser.parse_args()
    config = load_config_file(args.configfile)
    registry = load_registry(ROOT / "config" / "datasets.yaml")
    trials = list(range(args.trials))
    for case in args.cases.split(","):
        dataset, cost_model = case.split("/")
        algorithms = list(config["algorithms"]) if args.algorithms == "all" else None
        for algorithm in algorithms or args.algorithms.split(","):
            results, attributes = fingerprint(
                dataset, cost_model, algorithm, trials, config, registry, args.train_size
            )
            print(
                f"{dataset:<12}{cost_model:<13}{algorithm:<18}results {results[:24]}  "
                f"attributes {attributes[:24]}",
                flush=True,
            )


if __name__ == "__main__":
    main()
