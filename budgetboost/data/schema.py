"""The columns of the pipeline's result tables (docs/design.md), defined once.

:mod:`budgetboost.pipeline.blocks` writes shards with these dtypes and
:mod:`budgetboost.analysis.summary` validates what it reads against them, so a column added
here reaches both.
"""

from __future__ import annotations

__all__ = ["ROW_LOSSES", "SHARD_COLUMNS", "STUMP_COLUMNS", "TIMING_COLUMNS"]

#: One row per (dataset, cost model, algorithm, trial, budget); no wall-clock values, so a
#: shard is byte-identical whatever ``--cores``, block size or job order.
SHARD_COLUMNS: dict[str, str] = {
    "dataset": "string",
    "cost_model": "string",
    "algorithm": "string",
    "trial": "int32",
    "budget": "float64",
    "test_error": "float64",
    "train_error": "float64",
    "rounds": "float64",  # AdaBoostRS: mean draws per example
    "spent": "float64",
    "n_features": "float64",
    "mean_example_cost": "float64",
    "max_example_cost": "float64",
    "nodes": "int32",
    # the trade-off an estimator with ``chosen_tradeoffs(budgets)`` used at each budget (the
    # peers' CEGB / penalty coefficient chosen on a validation part); NaN for the others
    "tradeoff": "float64",
}

#: The shard column that holds, per (trial, budget) row, which test rows the stored labels
#: got wrong: ``np.packbits`` of the boolean vector over the test rows in the split's order
#: (the last byte's padding bits 0). Beside :data:`SHARD_COLUMNS`, not in it: a table from
#: elsewhere may leave it out. The paired tests bound each dataset's trial correlation from
#: it (:func:`budgetboost.analysis.per_dataset.row_covariance`).
ROW_LOSSES = "test_wrong"

#: Wall-clock times of one block, kept out of the shards.
TIMING_COLUMNS: dict[str, str] = {
    "trial": "int32",
    "fit_seconds": "float64",
    "predict_seconds": "float64",
}

#: The stumps a booster chose, round by round (claim 4: SpeedBoost vs Greedy choices).
STUMP_COLUMNS: dict[str, str] = {
    "dataset": "string",
    "cost_model": "string",
    "algorithm": "string",
    "trial": "int32",
    "round": "int32",
    "feature": "int32",
    "threshold": "float64",
    "polarity": "int8",
}
