"""One training block (budgetboost.pipeline.blocks): run_block's rows, seeds and budgets, the
same results whatever the block's cut of the trials, its checks before any fit."""

from __future__ import annotations

import json
import math
import typing
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost import BudgetedBoost
from budgetboost.data import schema
from budgetboost.data.seeds import seed_from_key
from budgetboost.estimators.contract.checks import ContractError
from budgetboost.pipeline import blocks, specs

from .helpers import N_COLS, N_TRIALS, run, spec

# ------------------------------------------------------------------ run_block


def test_run_block_rows_columns_and_dtypes(problem):
    shard, timings, stumps = run(problem, spec())
    assert list(shard.columns) == [*schema.SHARD_COLUMNS, schema.ROW_LOSSES]
    assert {
        c: str(t)
        for c, t in shard.dtypes.items()
        if c not in ("dataset", "cost_model", "algorithm", schema.ROW_LOSSES)
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


def test_each_row_stores_which_test_rows_its_labels_got_wrong(problem):
    """The packed bits of a row, cut to its trial's test rows, are the labels' mistakes
    against a direct fit, and their mean is the row's test error to the last bit."""
    shard, *_ = run(problem, spec(), trials=[1, 2])
    for trial in (1, 2):
        train, test = problem.splits[trial]
        est = BudgetedBoost(criterion="smoothed", max_rounds=30, feature_costs=problem.costs[trial])
        est.fit(problem.X[train], problem.y[train])
        wrong = est.predict_at_budgets(problem.X[test], [1, 2, 4, 8]) != problem.y[test]
        rows = shard[shard["trial"] == trial]
        packed = [np.frombuffer(b, dtype=np.uint8) for b in rows[schema.ROW_LOSSES]]
        assert all(p.size == math.ceil(len(test) / 8) for p in packed)
        bits = np.stack([np.unpackbits(p)[: len(test)] for p in packed]).astype(bool)
        np.testing.assert_array_equal(bits, wrong)
        assert bits.mean(axis=1).tolist() == rows["test_error"].tolist()
        assert not np.stack([np.unpackbits(p)[len(test) :] for p in packed]).any()


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


@settings(max_examples=examples(15))
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


def test_inf_budget_of_budgeted_estimators_is_the_whole_path(problem):
    shard, *_ = run(problem, spec(), budgets=[1.0, math.inf])
    assert shard["budget"].tolist()[-1] == math.inf


def test_the_pipeline_runs_an_external_estimator(data):
    X, y = data
    splits = {0: (np.arange(40), np.arange(40, 60))}
    spec = specs.algorithm_spec("cheap", {"estimator": "external_estimator:CheapestStump"})
    shard, _, stumps = blocks.run_block(
        X=X,
        y=y,
        groups=None,
        splits=splits,
        costs={0: np.array([2.0, 0.5, 1.0, 3.0])},
        grouped=False,
        dataset="toy",
        cost_model="c",
        spec=spec,
        budgets=[0.25, 1.0],
        trials=[0],
    )
    assert shard["spent"].tolist() == [0.0, 0.5] and stumps.empty


@pytest.mark.parametrize("name", ["DictEvaluation", "OverspendingRecord", "HalfError"])
def test_an_estimators_own_evaluation_never_enters_the_shard(data, name):
    """What an estimator's own evaluate_at_budgets returns (a dict, an overspent ``spent``, half the
    error) never enters the shard: the shard is computed from the labels and costs of its checked
    hook, the same as the honest model's (planning refuses such a class: test_config)."""
    X, y = data

    def shard_of(estimator):
        spec = specs.algorithm_spec("mine", {"estimator": estimator})
        return blocks.run_block(
            X=X,
            y=y,
            groups=None,
            splits={0: (np.arange(40), np.arange(40, 60))},
            costs={0: np.array([2.0, 0.5, 1.0, 3.0])},
            grouped=False,
            dataset="toy",
            cost_model="c",
            spec=spec,
            budgets=[0.25, 1.0],
            trials=[0],
        )[0]

    honest = shard_of("external_estimator:CheapestStump")
    module = "fixtures.misbehaving_estimators" if name == "HalfError" else "external_estimator"
    pd.testing.assert_frame_equal(shard_of(f"{module}:{name}"), honest)


@pytest.mark.parametrize(
    "name, budget, detail",
    [
        ("Overspending", "0.25", "spent 7.5 exceeds the budget 0.25"),
        ("NaNCosts", "0.25", "costs.rounds is nan"),
        ("NaNScores", "0.25", "60 of 60 scores are not finite"),
    ],
)
def test_a_block_names_algorithm_dataset_trial_and_budget(data, name, budget, detail):
    X, y = data
    spec = specs.algorithm_spec("cheat", {"estimator": f"external_estimator:{name}"})
    with pytest.raises(ContractError) as err:
        blocks.run_block(
            X=X,
            y=y,
            groups=None,
            splits={0: (np.arange(40), np.arange(40, 60)), 4: (np.arange(60), np.arange(60))},
            costs={0: np.array([2.0, 0.5, 1.0, 3.0]), 4: np.array([2.0, 0.5, 1.0, 3.0])},
            grouped=False,
            dataset="toy",
            cost_model="c",
            spec=spec,
            budgets=[0.25, 1.0],
            trials=[4],
        )
    text = str(err.value)
    assert text.startswith(
        f"algorithm 'cheat', dataset 'toy', cost model 'c', trial 4, budget {budget}: "
    )
    assert detail in text
    assert err.value.budget == float(budget)


# ------------------------------------------------------------------ verified, not trusted
def test_a_model_that_reads_unpaid_columns_fails(data):
    """An estimator reading the best column while reporting a spent of 0 fails the
    verification."""
    X, y = data
    spec = specs.algorithm_spec("odd", {"estimator": "fixtures.misbehaving_estimators:Peeker"})
    with pytest.raises(ContractError) as err:
        blocks.run_block(
            X=X,
            y=y,
            groups=None,
            splits={0: (np.arange(40), np.arange(40, 60))},
            costs={0: np.array([2.0, 0.5, 1.0, 3.0])},
            grouped=False,
            dataset="toy",
            cost_model="c",
            spec=spec,
            budgets=[0.25, 1.0, 4.0],
            trials=[0],
        )
    assert str(err.value).startswith(
        "algorithm 'odd', dataset 'toy', cost model 'c', trial 0, budget 0.25: the model "
        "reads columns it does not pay for: every test example paid at most 0, so none "
        "could read the 4 columns priced above it, yet replacing them by other values "
        "changed"
    )


@pytest.mark.parametrize("name", ["Moody", "Tally"])
def test_a_model_whose_second_fit_differs_fails_the_refit(data, name):
    """An estimator drawing from global random state (Moody) or depending on the fits before
    it in the process (Tally) passes its block, and fails the block asked to fit a trial
    again (``refit``, after the block's other trials), naming the trial and the value."""
    X, y = data
    spec = specs.algorithm_spec("odd", {"estimator": f"fixtures.misbehaving_estimators:{name}"})
    block = dict(
        X=X,
        y=y,
        groups=None,
        splits={t: (np.arange(40), np.arange(40, 60)) for t in (0, 1)},
        costs={t: np.array([2.0, 0.5, 1.0, 3.0]) for t in (0, 1)},
        grouped=False,
        dataset="toy",
        cost_model="c",
        spec=spec,
        budgets=[0.25, 1.0, 4.0],
        trials=[0, 1],
    )
    shard, _, _ = blocks.run_block(**block)
    assert len(shard) == 6
    told = []
    with pytest.raises(ContractError) as err:
        blocks.run_block(**block, refit=0, progress=told.append)
    assert str(err.value).startswith(
        "algorithm 'odd', dataset 'toy', cost model 'c', trial 0: not reproducible: fitted "
        "again with the same parameters and random_state on the same rows, tradeoff at "
        "budget 0.25 was "
    )
    assert "where its first fit gave" in str(err.value)
    assert told[-1].endswith("trial 0: fitted again, to check that it is reproducible")


def test_honest_estimators_pass_the_verification(problem):
    """The package's estimators at every budget: nothing read unpaid, and a trial fitted
    again after the block's others gives the same rows (the log told how many)."""
    for entry in (
        {"estimator": "BudgetedBoost", "params": {"criterion": "greedy", "max_rounds": 20}},
        {"estimator": "AdaBoostRS", "params": {"n_rounds": 20, "cost_weighted": True}},
        {"estimator": "BudgetedTree", "params": {"cost_sensitive": True}},
    ):
        told = []
        shard, timings, _ = run(problem, spec("honest", **entry), refit=1, progress=told.append)
        assert told[-1] == (
            "algorithm 'honest', dataset 'toy', cost model 'u02', trial 1: 4 rows the same "
            "when fitted again"
        )
        assert timings["trial"].tolist() == list(range(N_TRIALS))  # the refit is not timed
        pd.testing.assert_frame_equal(shard, run(problem, spec("honest", **entry))[0])


def test_a_refit_outside_the_block_is_refused(problem):
    with pytest.raises(ValueError, match=r"trial 7, to be fitted again, is not one of the "):
        run(problem, spec(), trials=[0, 1], refit=7)


def test_a_training_part_of_one_class_is_named_by_the_train_job():
    """``train_size: 2`` (a training part of one class) fails the train job, which may run before
    the split job, naming the trial, not with the estimator's ``y must contain exactly two classes``
    alone."""
    from types import SimpleNamespace

    data = SimpleNamespace(y=np.array([1] * 18 + [-1] * 2), X=np.zeros((20, 1)))
    with pytest.raises(ValueError) as err:
        blocks.block_inputs(
            data,
            dataset="toy",
            cost_model="c",
            cost_spec={"model": "constant"},
            train_size=2,
            test_size=5,
            trials=[0, 1, 2],
        )
    assert str(err.value).startswith("dataset 'toy', trial 0: its 2 training rows all have label 1")
    assert "raise train_size (datasets.toy.train_size in the config)" in str(err.value)
