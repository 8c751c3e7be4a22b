"""Unit tests of the pipeline layer: algorithm specs (specs), grids and trial blocks (plan),
run_block (blocks) and the code a job depends on (code)."""

from __future__ import annotations

import json
import math
import typing
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost import AdaBoostRS, BudgetedBoost
from budgetboost.data import schema
from budgetboost.data.seeds import rng_from_key, seed_from_key
from budgetboost.estimators import names
from budgetboost.pipeline import blocks, code, plan, shared_path, specs

N_ROWS, N_COLS, N_TRIALS = 80, 12, 4


@pytest.fixture(scope="module")
def problem():
    """A small binary problem with 4 trials of splits and costs, in the pipeline's shapes."""
    rng = rng_from_key("test_experiment", "data")
    X = (rng.random((N_ROWS, N_COLS)) < 0.5).astype(np.uint8)
    noise = rng.random(N_ROWS) < 0.15
    y = np.where((X[:, 0] ^ X[:, 3] ^ noise) > 0, 1, -1).astype(np.int8)
    splits, costs = {}, {}
    for t in range(N_TRIALS):
        order = rng_from_key("test_experiment", "split", t).permutation(N_ROWS)
        splits[t] = (np.sort(order[:50]), np.sort(order[50:]))
        costs[t] = rng_from_key("test_experiment", "costs", t).uniform(0, 2, N_COLS)
    groups = np.arange(N_COLS) // 2
    return SimpleNamespace(X=X, y=y, splits=splits, costs=costs, groups=groups)


def spec(name="smoothed", **entry):
    entry.setdefault("estimator", "BudgetedBoost")
    entry.setdefault("params", {"criterion": "smoothed", "max_rounds": 30})
    return specs.algorithm_spec(name, entry, registry_rounds=7)


def run(
    problem,
    algorithm,
    trials=range(N_TRIALS),
    budgets=(1.0, 2.0, 4.0, 8.0),
    grouped=False,
    costs=None,
):
    return blocks.run_block(
        X=problem.X,
        y=problem.y,
        groups=problem.groups,
        splits=problem.splits,
        costs=problem.costs if costs is None else costs,
        grouped=grouped,
        dataset="toy",
        cost_model="u02",
        spec=algorithm,
        budgets=list(budgets),
        trials=list(trials),
    )


# ------------------------------------------------------------------ grids and blocks


def test_budget_grid_every_two_units():
    assert plan.budget_grid(2, 10) == [2.0, 4.0, 6.0, 8.0, 10.0]
    assert plan.budget_grid(10, 35, start=5) == [5.0, 15.0, 25.0, 35.0]


def test_budget_grid_has_no_float_drift():
    grid = plan.budget_grid(0.1, 1.0)
    assert grid[-1] == 1.0 and len(grid) == 10 and grid[2] == 0.3


@pytest.mark.parametrize("args", [(0, 10), (-1, 10), (2, 1), (2, 10, 20)])
def test_budget_grid_rejects_bad_values(args):
    with pytest.raises(ValueError, match="budget"):
        plan.budget_grid(*args)


def test_block_trials_cover_every_trial_once():
    blocks = [plan.block_trials(k, 3, 10) for k in range(4)]
    assert blocks == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]


@pytest.mark.parametrize("block,size,trials", [(4, 3, 10), (-1, 3, 10), (0, 0, 10)])
def test_block_trials_out_of_range(block, size, trials):
    with pytest.raises(ValueError, match="block"):
        plan.block_trials(block, size, trials)


# ------------------------------------------------------------------ algorithm entries


def test_algorithm_spec_copies_registry_rounds_into_the_named_parameter():
    entry = {
        "estimator": "BudgetedBoost",
        "params": {"criterion": "adaboost"},
        "rounds_from_registry": "max_rounds",
        "unbudgeted": True,
    }
    resolved = specs.algorithm_spec("adaboost", entry, registry_rounds=15)
    assert resolved.params == {"criterion": "adaboost", "max_rounds": 15}
    assert resolved.unbudgeted and not resolved.refit_per_budget
    assert entry["params"] == {"criterion": "adaboost"}  # the config entry is not modified


def test_algorithm_spec_errors_name_the_algorithm():
    with pytest.raises(ValueError, match="'broken'.*estimator"):
        specs.algorithm_spec("broken", {"params": {}})
    with pytest.raises(ValueError, match="'ref'.*adaboost_rounds"):
        specs.algorithm_spec(
            "ref", {"estimator": "BudgetedBoost", "rounds_from_registry": "max_rounds"}
        )


def test_estimator_class_short_name_and_module_path():
    assert names.estimator_class("BudgetedBoost") is BudgetedBoost
    assert names.estimator_class("budgetboost.estimators.sampling:AdaBoostRS") is AdaBoostRS


@pytest.mark.parametrize(
    "name,message",
    [
        ("Boost", "neither"),
        ("budgetboost.nowhere:X", "cannot import"),
        ("budgetboost.estimators.boosting:Nothing", "has no 'Nothing'"),
    ],
)
def test_estimator_class_errors(name, message):
    with pytest.raises(ValueError, match=message):
        names.estimator_class(name)


def test_make_estimator_sets_costs_groups_and_a_stable_seed(problem):
    rs = spec("adaboost_rs", estimator="AdaBoostRS", params={"n_rounds": 10})
    est = specs.make_estimator(
        rs,
        dataset="toy",
        cost_model="u02",
        trial=3,
        feature_costs=problem.costs[3],
        feature_groups=problem.groups,
    )
    assert est.random_state == seed_from_key("sampling", "toy", "u02", "adaboost_rs", 3)
    np.testing.assert_array_equal(est.feature_costs, problem.costs[3])
    np.testing.assert_array_equal(est.feature_groups, problem.groups)
    assert est.n_rounds == 10


def test_make_estimator_rejects_a_parameter_the_class_lacks(problem):
    bad = spec(params={"criterion": "smoothed", "not_a_param": 1})
    with pytest.raises(ValueError, match="smoothed.*not_a_param"):
        specs.make_estimator(
            bad,
            dataset="toy",
            cost_model="u02",
            trial=0,
            feature_costs=problem.costs[0],
            feature_groups=None,
        )


# ------------------------------------------------------------------ run_block


def test_run_block_rows_columns_and_dtypes(problem):
    shard, timings, stumps = run(problem, spec())
    assert list(shard.columns) == list(schema.SHARD_COLUMNS)
    assert {
        c: str(t)
        for c, t in shard.dtypes.items()
        if c not in ("dataset", "cost_model", "algorithm")
    } == {c: t for c, t in schema.SHARD_COLUMNS.items() if t != "string"}
    assert len(shard) == N_TRIALS * 4
    assert shard["trial"].tolist() == [t for t in range(N_TRIALS) for _ in range(4)]
    assert set(shard["dataset"]) == {"toy"} and set(shard["algorithm"]) == {"smoothed"}
    assert (shard["spent"] <= shard["budget"]).all()
    assert list(timings.columns) == list(schema.TIMING_COLUMNS)
    assert timings["trial"].tolist() == list(range(N_TRIALS))
    assert (timings[["fit_seconds", "predict_seconds"]] >= 0).all().all()
    # the stumps of each trial's path, up to the rounds the largest budget affords
    last = shard[shard["budget"] == shard["budget"].max()].set_index("trial")["rounds"]
    assert (
        stumps.groupby("trial").size().reindex(last.index, fill_value=0).tolist()
        == last.astype(int).tolist()
    )
    assert (stumps.groupby("trial")["round"].min() == 0).all()


def test_run_block_matches_a_direct_fit(problem):
    shard, *_ = run(problem, spec(), trials=[2])
    train, test = problem.splits[2]
    est = BudgetedBoost(criterion="smoothed", max_rounds=30, feature_costs=problem.costs[2])
    est.fit(problem.X[train], problem.y[train])
    expected = est.evaluate_at_budgets(problem.X[test], problem.y[test], [1, 2, 4, 8])
    np.testing.assert_allclose(shard["test_error"], expected.error)
    np.testing.assert_allclose(shard["spent"], expected.spent)
    np.testing.assert_array_equal(shard["rounds"], expected.rounds)
    train_err = est.evaluate_at_budgets(problem.X[train], problem.y[train], [1, 2, 4, 8])
    np.testing.assert_allclose(shard["train_error"], train_err.error)


@pytest.mark.parametrize("criterion", ["adaboost", "greedy", "smoothed", "speedboost", "hybrid"])
def test_one_anytime_fit_equals_one_fit_per_budget(problem, criterion):
    params = {"criterion": criterion, "max_rounds": 30}
    once, *_ = run(problem, spec(criterion, params=params))
    refit, *_ = run(problem, spec(criterion, params=params, refit_per_budget=True))
    pd.testing.assert_frame_equal(once, refit)


@pytest.mark.parametrize(
    "estimator,params",
    [
        ("BudgetedBoost", {"criterion": "greedy", "max_rounds": 30}),
        ("AdaBoostRS", {"n_rounds": 20, "cost_weighted": True}),
        ("BudgetedTree", {"cost_sensitive": False}),
        ("BudgetedTree", {"cost_sensitive": True}),
    ],
)
def test_fitting_to_the_largest_budget_changes_no_result(problem, estimator, params):
    """run_block fits with budget = max(grid); an unlimited fit gives the same grid values."""
    budgets = [1.0, 2.0, 4.0, 8.0]
    entry = spec("algo", estimator=estimator, params=params)
    shard, *_ = run(problem, entry, trials=[1], budgets=budgets)
    est = specs.make_estimator(
        entry,
        dataset="toy",
        cost_model="u02",
        trial=1,
        feature_costs=problem.costs[1],
        feature_groups=None,
    )
    assert est.get_params()["budget"] is None
    train, test = problem.splits[1]
    est.fit(problem.X[train], problem.y[train])
    expected = est.evaluate_at_budgets(problem.X[test], problem.y[test], budgets)
    np.testing.assert_allclose(shard["test_error"], expected.error)
    for key in ("spent", "n_features", "mean_example_cost", "max_example_cost"):
        np.testing.assert_allclose(shard[key], getattr(expected, key), err_msg=key)


def test_unbudgeted_reference_has_one_row_per_trial_at_inf(problem):
    ref = spec(
        "adaboost",
        params={"criterion": "adaboost"},
        rounds_from_registry="max_rounds",
        unbudgeted=True,
    )
    shard, *_ = run(problem, ref)
    assert len(shard) == N_TRIALS and np.isinf(shard["budget"]).all()
    assert (shard["rounds"] <= 7).all()  # the registry's rounds (7 in `spec`)


def test_grouped_costs_pay_an_attribute_once(problem):
    # a grouped cost model gives every column of a group (2 columns here) the group's cost
    grouped_costs = {t: np.repeat(c[::2], 2) for t, c in problem.costs.items()}
    shard, *_ = run(problem, spec(), grouped=True, costs=grouped_costs, budgets=[100.0])
    ungrouped, *_ = run(problem, spec(), grouped=False, costs=grouped_costs, budgets=[100.0])
    assert shard["n_features"].max() <= N_COLS // 2  # counts groups, not columns
    assert ungrouped["n_features"].max() > N_COLS // 2


@settings(max_examples=15, deadline=None)
@given(
    cuts=st.sets(st.integers(1, N_TRIALS - 1)),
    algorithm=st.sampled_from(["smoothed", "adaboost_rs"]),
)
def test_any_blocking_of_the_trials_gives_the_same_rows(problem, cuts, algorithm):
    """Seeds come from (dataset, cost model, algorithm, trial): block size is irrelevant."""
    entry = (
        spec()
        if algorithm == "smoothed"
        else spec("adaboost_rs", estimator="AdaBoostRS", params={"n_rounds": 20})
    )
    whole, *_ = run(problem, entry)
    bounds = [0, *sorted(cuts), N_TRIALS]
    parts = [
        run(problem, entry, trials=range(a, b))[0]
        for a, b in zip(bounds[:-1], bounds[1:], strict=True)
    ]
    pd.testing.assert_frame_equal(pd.concat(parts, ignore_index=True), whole)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"trials": [9]}, "trial 9 is not in the splits"),
        ({"trials": []}, "no trials"),
        ({"budgets": [2.0, 1.0]}, "strictly increasing"),
        ({"budgets": [-1.0, 1.0]}, ">= 0"),
        ({"budgets": [1.0, float("nan")]}, ">= 0"),
        ({"budgets": []}, "empty"),
        ({"budgets": [1.0, math.inf, math.inf]}, "strictly increasing"),
    ],
)
def test_run_block_errors(problem, kwargs, message):
    with pytest.raises(ValueError, match=message):
        run(problem, spec(), **kwargs)


def test_a_zero_budget_is_a_grid_point_like_any_other(problem):
    shard, *_ = run(problem, spec(), budgets=[0.0, 1.0])
    at_zero = shard[shard["budget"] == 0.0]
    assert len(at_zero) == N_TRIALS and (at_zero["spent"] == 0).all()


def test_run_block_returns_three_tables_as_annotated(problem):
    hints = typing.get_type_hints(blocks.run_block)
    assert hints["return"] == tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]
    assert all(isinstance(t, pd.DataFrame) for t in run(problem, spec(), trials=[0]))


def test_run_block_grouped_without_groups(problem):
    with pytest.raises(ValueError, match="grouped"):
        blocks.run_block(
            X=problem.X,
            y=problem.y,
            groups=None,
            splits=problem.splits,
            costs=problem.costs,
            grouped=True,
            dataset="toy",
            cost_model="u02",
            spec=spec(),
            budgets=[1.0],
            trials=[0],
        )


# ------------------------------------------------------------------ metadata and costs


def test_shard_metadata_is_json_and_records_seeds():
    rs = spec("adaboost_rs", estimator="AdaBoostRS", params={"n_rounds": 20})
    meta = blocks.shard_metadata(
        dataset="toy",
        cost_model="u02",
        spec=rs,
        trials=[0, 1],
        budgets=[1.0, 2.0],
        extra={"split": {"train_size": 50}},
    )
    json.dumps(meta)
    assert meta["params"] == {"n_rounds": 20} and meta["trials"] == [0, 1]
    assert meta["seeds"]["random_state"]["1"] == str(
        seed_from_key("sampling", "toy", "u02", "adaboost_rs", 1)
    )
    assert meta["split"] == {"train_size": 50}
    assert (
        blocks.shard_metadata(
            dataset="toy", cost_model="u02", spec=spec(), trials=[0], budgets=[1.0]
        )["seeds"]["random_state"]
        is None
    )


def test_cost_rows_by_trial_and_shape_check():
    table = SimpleNamespace(trials=np.array([0, 1]), costs=np.arange(6.0).reshape(2, 3))
    rows = blocks.cost_rows(table)
    np.testing.assert_array_equal(rows[1], [3.0, 4.0, 5.0])
    with pytest.raises(ValueError, match="x.parquet.*one cost vector per trial"):
        blocks.cost_rows(
            SimpleNamespace(trials=np.array([0, 1, 2]), costs=np.zeros((2, 3))), "x.parquet"
        )


# ------------------------------------------------------------------ source files


def test_source_files_follow_package_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("import os\nfrom . import b\nfrom pkg.sub import c\n")
    (pkg / "b.py").write_text("from .sub.c import thing\n")
    (pkg / "sub" / "__init__.py").write_text("from . import d\n")
    (pkg / "sub" / "c.py").write_text("thing = 1\n")
    (pkg / "sub" / "d.py").write_text("")
    (pkg / "unused.py").write_text("")
    files = code.source_files("pkg.a", tmp_path)
    assert sorted(Path(f).relative_to(tmp_path).as_posix() for f in files) == [
        "pkg/__init__.py",
        "pkg/a.py",
        "pkg/b.py",
        "pkg/sub/__init__.py",
        "pkg/sub/c.py",
        "pkg/sub/d.py",
    ]


def test_source_files_follow_a_users_module_outside_the_root(tmp_path, monkeypatch):
    """Issue 33, bad case 6: an estimator on PYTHONPATH and the helper modules it imports are
    its jobs' code; the libraries it imports (installed code) are not."""
    site = tmp_path / "site"
    (site / "helpers").mkdir(parents=True)
    (site / "my_est.py").write_text(
        "import numpy\nimport json\nfrom helpers import maths\nfrom budgetboost import io\n"
    )
    (site / "helpers" / "__init__.py").write_text("")
    (site / "helpers" / "maths.py").write_text("from .consts import K\n")
    (site / "helpers" / "consts.py").write_text("K = 1\n")
    monkeypatch.syspath_prepend(str(site))
    root = Path(blocks.__file__).resolve().parents[2]
    files = code.source_files("my_est", root)
    mine = sorted(Path(f).relative_to(site).as_posix() for f in files if f.startswith(str(site)))
    assert mine == ["helpers/__init__.py", "helpers/consts.py", "helpers/maths.py", "my_est.py"]
    assert not [f for f in files if "site-packages" in f or "numpy" in f]
    assert code.untracked("my_est", root) is None
    assert code.untracked("budgetboost.estimators.boosting", root) is None
    assert code.untracked("json", root).startswith("json is installed code (")
    assert "its code is not tracked" in code.untracked("lightgbm.sklearn", root)


def test_source_files_of_the_blocks_module():
    root = Path(blocks.__file__).resolve().parents[2]
    files = {Path(f).name for f in code.source_files("budgetboost.pipeline.blocks", root)}
    assert {"blocks.py", "specs.py", "seeds.py", "splits.py", "costs.py"} <= files
    assert "plots.py" not in files and "boosting.py" not in files


def test_inf_budget_of_budgeted_estimators_is_the_whole_path(problem):
    shard, *_ = run(problem, spec(), budgets=[1.0, math.inf])
    assert shard["budget"].tolist()[-1] == math.inf


def test_check_algorithm_catches_an_unknown_parameter_before_any_fit():
    specs.check_algorithm(spec())
    with pytest.raises(ValueError, match="'smoothed'.*max_round"):
        specs.check_algorithm(spec(params={"criterion": "smoothed", "max_round": 5}))


def test_shared_adaboost_paths_round_trip_and_serve_run_block(tmp_path):
    """A block's shared AdaBoost paths, written and read back, give the shards of fitting
    anew, for the reference, AdaBoostBT and AdaBoostRS alike (issue 14)."""
    rng = np.random.default_rng(3)
    X = (rng.random((60, 12)) < 0.4).astype(np.uint8)
    y = np.where(rng.random(60) < 0.5, 1, -1).astype(np.int8)
    splits = {t: (np.sort(rng.permutation(60)[:40]), np.arange(40, 60)) for t in (0, 1)}
    costs = {t: rng.uniform(0, 2, 12) for t in (0, 1)}
    paths, timings = shared_path.fit_adaboost_paths(X, y, splits, [0, 1], max_rounds=30)
    assert list(timings["trial"]) == [0, 1]
    shared_path.write_adaboost_paths(paths, tmp_path / "paths.parquet", {"dataset": "toy"})
    back = shared_path.read_adaboost_paths(tmp_path / "paths.parquet")
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
