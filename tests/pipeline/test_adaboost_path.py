"""The shared AdaBoost path (budgetboost.pipeline.adaboost_path): written and read back, it serves a
block as fitting anew does."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetboost.pipeline import adaboost_path, blocks, specs


def test_shared_adaboost_paths_round_trip_and_serve_run_block(tmp_path):
    """A block's shared AdaBoost paths, written and read back, give the shards of fitting
    anew, for the reference, AdaBoostBT and AdaBoostRS alike."""
    rng = np.random.default_rng(3)
    X = (rng.random((60, 12)) < 0.4).astype(np.uint8)
    y = np.where(rng.random(60) < 0.5, 1, -1).astype(np.int8)
    splits = {t: (np.sort(rng.permutation(60)[:40]), np.arange(40, 60)) for t in (0, 1)}
    costs = {t: rng.uniform(0, 2, 12) for t in (0, 1)}
    paths, timings = adaboost_path.fit_adaboost_paths(X, y, splits, [0, 1], max_rounds=30)
    assert list(timings["trial"]) == [0, 1]
    adaboost_path.write_adaboost_paths(paths, tmp_path / "paths.parquet", {"dataset": "toy"})
    back = adaboost_path.read_adaboost_paths(tmp_path / "paths.parquet")
    for t in (0, 1):
        for name in ("feature", "threshold", "polarity", "alpha", "edge", "new_groups"):
            np.testing.assert_array_equal(getattr(back[t], name), getattr(paths[t], name))
        assert (back[t].stop_reason, back[t].fingerprint) == (
            paths[t].stop_reason,
            paths[t].fingerprint,
        )
    entries = {
        "reference": {
            "estimator": "BudgetedBoost",
            "params": {"criterion": "adaboost", "max_rounds": 20},
            "unbudgeted": True,
        },
        "bt": {"estimator": "BudgetedBoost", "params": {"criterion": "adaboost", "max_rounds": 30}},
        "rs_ac": {"estimator": "AdaBoostRS", "params": {"n_rounds": 30, "cost_weighted": True}},
    }
    for name, entry in entries.items():
        common = dict(
            X=X,
            y=y,
            groups=None,
            splits=splits,
            costs=costs,
            grouped=False,
            dataset="toy",
            cost_model="u",
            budgets=[1.0, 3.0, 6.0],
            trials=[0, 1],
        )
        anew = blocks.run_block(spec=specs.algorithm_spec(name, entry), **common)
        shared = blocks.run_block(
            spec=specs.algorithm_spec(name, {**entry, "adaboost_path": True}),
            paths=back,
            **common,
        )
        for a, b in zip(anew, shared, strict=True):
            if "fit_seconds" not in a:
                pd.testing.assert_frame_equal(a, b)
    with pytest.raises(ValueError, match="fits from the shared AdaBoost path"):
        blocks.run_block(
            spec=specs.algorithm_spec("bt", {**entries["bt"], "adaboost_path": True}), **common
        )
