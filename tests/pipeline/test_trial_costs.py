"""What one trial is expected to cost (budgetboost.pipeline.trial_costs): the unit of a block."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetboost.pipeline.trial_costs import (
    CALIBRATION,
    DEFAULT_SECONDS,
    LogLinearModel,
    TrialCosts,
    algorithm_kind,
    block_size,
)

GREEDY = {"estimator": "BudgetedBoost", "params": {"criterion": "greedy", "max_rounds": 500}}


def _row(entry, dataset, train, test, columns, seconds):
    return {
        "kind": algorithm_kind(entry),
        "estimator": entry["estimator"],
        "dataset": dataset,
        "train_size": train,
        "test_size": test,
        "columns": columns,
        "seconds": seconds,
    }


def test_a_kind_is_what_the_entry_computes_not_how_it_is_shown():
    shown = {**GREEDY, "label": "Greedy", "family": "boosting", "trials": 20}
    assert algorithm_kind(shown) == algorithm_kind(GREEDY)
    reordered = {"params": {"max_rounds": 500, "criterion": "greedy"}, "estimator": "BudgetedBoost"}
    assert algorithm_kind(reordered) == algorithm_kind(GREEDY)
    assert algorithm_kind({**GREEDY, "params": {"criterion": "smoothed"}}) != algorithm_kind(GREEDY)
    assert algorithm_kind({**GREEDY, "adaboost_path": True}) != algorithm_kind(GREEDY)
    # the registry fills rounds_from_registry per dataset: one kind for every dataset
    reference = {"estimator": "BudgetedBoost", "rounds_from_registry": "max_rounds"}
    assert "registry" in algorithm_kind(reference)


@given(
    seconds=st.floats(1e-4, 1e5, allow_nan=False),
    target=st.floats(1e-2, 1e4, allow_nan=False),
    cap=st.one_of(st.none(), st.integers(1, 50)),
)
def test_a_block_is_the_largest_power_of_two_of_trials_within_the_target(seconds, target, cap):
    size = block_size(seconds, target, cap)
    assert size >= 1
    if cap is not None:
        assert size <= cap
    if cap is None or size < cap:
        assert size & (size - 1) == 0  # a power of two
        # within the target, unless one trial alone is over it; twice as many would not be
        assert size == 1 or size * seconds <= target * (1 + 1e-12)
        assert 2 * size * seconds > target * (1 - 1e-12)


def test_a_block_size_refuses_an_expected_time_that_is_not_a_positive_number():
    for bad in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="expected seconds"):
            block_size(bad, 120.0)


def test_estimates_come_from_the_row_then_the_kind_then_the_class_then_the_default():
    other = {"estimator": "BudgetedBoost", "params": {"criterion": "smoothed"}}
    rows = [
        _row(GREEDY, f"d{i}", train, test, columns, 1e-6 * train * columns)
        for i, (train, test, columns) in enumerate(
            [(100, 100, 50), (200, 400, 100), (400, 100, 1000), (800, 800, 200), (1000, 50, 20)]
        )
    ]
    costs = TrialCosts(rows)
    # the row itself
    assert costs.seconds(GREEDY, "d1", 200, 400) == pytest.approx(1e-6 * 200 * 100)
    # the kind's model: seconds proportional to train rows x columns is log-linear, exact
    assert costs.seconds(GREEDY, "d1", 600, 400) == pytest.approx(1e-6 * 600 * 100)
    # another kind of the same class: the class's model (here the same rows)
    assert costs.seconds(other, "d2", 400, 100) == pytest.approx(1e-6 * 400 * 1000)
    # an unknown dataset takes the table's median columns
    assert costs.columns("unknown") == 100
    # an unknown class: the default
    assert costs.seconds({"estimator": "mine:Cheap"}, "d1", 200, 400) == DEFAULT_SECONDS
    # too few shapes for a model: the default, not a wild fit
    assert LogLinearModel.of(rows[:3]) is None
    assert TrialCosts(rows[:3]).seconds(GREEDY, "d9", 10, 10) == DEFAULT_SECONDS


def test_the_shipped_calibration_covers_every_algorithm_of_the_shipped_configs():
    from helpers import REPO

    from budgetboost.checks import check_all, load_config_file
    from budgetboost.pipeline.plan import PATH_ENTRY, Plan

    costs = TrialCosts.load(CALIBRATION)
    measured = {(r["kind"], r["dataset"]) for r in costs.rows}
    assert all(r["seconds"] > 0 and r["columns"] >= 1 for r in costs.rows)
    for name in ("config.yaml", "suite.yaml"):
        config, registry = check_all(load_config_file(REPO / "config" / name), REPO)
        plan = Plan(config, registry)
        missing = {
            (a, d)
            for d, _, a in plan.experiments()
            if (algorithm_kind(config["algorithms"][a]), d) not in measured
        }
        missing |= {
            ("adaboost_path", d)
            for d in plan.datasets
            if (algorithm_kind(PATH_ENTRY), d) not in measured
        }
        assert not missing, (
            f"{name}: not calibrated (benchmarks/calibrate_blocks.py): {sorted(missing)[:5]}"
        )
    assert np.isfinite([r["seconds"] for r in costs.rows]).all()
