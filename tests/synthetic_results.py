"""Synthetic result shards with exactly the columns of docs/design.md, for the results tests.

The curves are shaped like the paper's: errors fall with budget, AdaBoostRS is much worse,
Smoothed overtakes Greedy at large budgets, SpeedBoost tracks Greedy, trees overfit.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetboost.data.seeds import rng_from_key
from budgetboost.data.splits import SplitSizes

COLUMNS = [
    "dataset",
    "cost_model",
    "algorithm",
    "trial",
    "budget",
    "test_error",
    "train_error",
    "rounds",
    "spent",
    "n_features",
    "mean_example_cost",
    "max_example_cost",
    "nodes",
]

BOOSTERS = ("adaboost_bt", "greedy", "smoothed", "speedboost", "adaboost_rs")


def shard_frame(rows: list[dict]) -> pd.DataFrame:
    """A shard DataFrame with the design's column order and dtypes."""
    df = pd.DataFrame(rows, columns=COLUMNS)
    return df.astype(
        {
            "dataset": str,
            "cost_model": str,
            "algorithm": str,
            "trial": "int32",
            "budget": "float64",
            "test_error": "float64",
            "train_error": "float64",
            "rounds": "int32",
            "spent": "float64",
            "n_features": "float64",
            "mean_example_cost": "float64",
            "max_example_cost": "float64",
            "nodes": "int32",
        }
    )


def row(
    dataset: str,
    cost_model: str,
    algorithm: str,
    trial: int,
    budget: float,
    error: float,
    spent: float | None = None,
    nodes: int = 0,
) -> dict:
    """One shard row; unspecified columns get plausible values."""
    spent = (budget if np.isfinite(budget) else 50.0) if spent is None else spent
    return {
        "dataset": dataset,
        "cost_model": cost_model,
        "algorithm": algorithm,
        "trial": trial,
        "budget": budget,
        "test_error": error,
        "train_error": error / 2,
        "rounds": int(min(spent, 1000) * 2) + 1,
        "spent": spent,
        "n_features": spent / 1.5,
        "mean_example_cost": spent,
        "max_example_cost": spent,
        "nodes": nodes,
    }


def synthetic_shards(
    datasets=(
        "breast_cancer",
        "ecoli",
        "heart",
        "sonar",
        "ionosphere",
        "ocr17",
        "ocr49",
        "splice",
        "census",
    ),
    cost_model: str = "uniform_0_2",
    trials: int = 12,
    budgets=tuple(range(2, 42, 4)),
    trees: bool = True,
    extra: tuple[tuple[str, str], ...] = (("heart", "turney"),),
) -> pd.DataFrame:
    """Paper-shaped synthetic shards for every dataset (plus ``extra`` experiments)."""
    rows = []
    experiments = [(d, cost_model) for d in datasets] + list(extra)
    for dataset, cm in experiments:
        rng = rng_from_key("synthetic", dataset, cm)
        base = rng.uniform(0.05, 0.2)
        for t in range(trials):
            noise = rng.normal(0, 0.015)
            rows.append(row(dataset, cm, "adaboost", t, np.inf, base + 0.01 + noise))
            for b in budgets:
                decay = np.exp(-b / 8)
                eps = rng.normal(0, 0.01, size=6)
                errs = {
                    "adaboost_bt": base + 0.25 * decay + 0.005,
                    "greedy": base + 0.18 * decay + 0.02 * (b / budgets[-1]),
                    "smoothed": base + 0.2 * decay - 0.01,
                    "adaboost_rs": 0.45 - 0.1 * (1 - decay),
                }
                errs["speedboost"] = errs["greedy"] + 0.002
                for k, (alg, e) in enumerate(errs.items()):
                    spent = b * (
                        0.6 if alg == "greedy" and dataset in ("sonar", "ionosphere") else 0.97
                    )
                    rows.append(
                        row(
                            dataset,
                            cm,
                            alg,
                            t,
                            float(b),
                            float(np.clip(e + noise + eps[k], 0, 1)),
                            spent,
                        )
                    )
                if trees:
                    nodes = int(2 ** min(1 + b // 4, 9)) - 1
                    err = base + 0.12 * decay + 0.004 * np.log2(nodes + 1) ** 1.3
                    rows.append(
                        row(
                            dataset,
                            cm,
                            "tree",
                            t,
                            float(b),
                            float(np.clip(err + noise + eps[5], 0, 1)),
                            b * 0.8,
                            nodes,
                        )
                    )
    return shard_frame(rows)


def sizes_for(
    shards: pd.DataFrame, n_train: int = 200, n_test: int = 1000, n_pool: int = 20_000
) -> dict[str, SplitSizes]:
    """Split sizes for every dataset of ``shards`` (what ``aggregate`` reads from the splits
    files): by default a pool much larger than a trial's rows, so that the trials share little
    (``n_test / (n_pool - n_test)`` = 0.053)."""
    return {str(d): SplitSizes(n_train, n_test, n_pool) for d in pd.unique(shards["dataset"])}
