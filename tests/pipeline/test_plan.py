"""What a run holds (budgetboost.pipeline.plan.Plan): experiments, trial caps, blocks, budgets.

``workflow/rules/common.smk`` reads every target, input and param from the Plan; these tests
pin its answers on the test config and on variants of it, without Snakemake.
"""

from __future__ import annotations

import copy

import pytest
from helpers import REPO

from budgetboost.checks import check_all, load_config_file
from budgetboost.pipeline import plan
from budgetboost.pipeline.plan import BASELINE_SPEC, PATH_ENTRY, Plan
from budgetboost.pipeline.trial_costs import HEADROOM, TrialCosts, algorithm_kind


@pytest.fixture(scope="module")
def checked():
    return check_all(load_config_file(REPO / "config/test.yaml"), REPO)


def plan_of(checked, edit=None) -> Plan:
    config, registry = checked
    config = copy.deepcopy(config)
    if edit is not None:
        edit(config)
    return Plan(config, registry)


def test_experiments_follow_the_datasets_cost_models_and_their_algorithm_lists(checked):
    plan = plan_of(checked)
    experiments = list(plan.experiments())
    assert len(experiments) == len(set(experiments))
    # every algorithm on heart and ecoli under U[0, 2]; few_cheap lists its own algorithms
    assert {a for d, c, a in experiments if c == "uniform_0_2"} == set(plan.algorithms)
    few = [(d, a) for d, c, a in experiments if c == "few_cheap"]
    assert few == [("ecoli", a) for a in ("greedy", "smoothed", "lightgbm_stumps", "greedy_tree2")]
    assert ("heart", "few_cheap") not in {(d, c) for d, c, _ in experiments}
    # a dataset's own algorithm list restricts it
    only = plan_of(checked, lambda c: c["datasets"]["heart"].update(algorithms=["greedy"]))
    assert {a for d, _, a in only.experiments() if d == "heart"} == {"greedy"}


def test_trial_caps_take_the_first_trials(checked):
    plan = plan_of(checked)
    assert plan.trials("heart") == 3  # the config's, not Table 1's 100
    assert plan.run_trials("ecoli", "uniform_0_2", "greedy") == 3
    assert plan.run_trials("ecoli", "uniform_0_2", "lightgbm_stumps") == 2  # algorithm cap
    assert plan.run_trials("ecoli", "few_cheap", "greedy") == 2  # cost-model cap
    assert plan.block_trials(0, "ecoli", "few_cheap", "greedy") == [0, 1]
    # the smaller of the two caps; never more than the dataset's trials
    smaller = plan_of(checked, lambda c: c["algorithms"]["greedy"].update(trials=1))
    assert smaller.run_trials("ecoli", "few_cheap", "greedy") == 1
    larger = plan_of(checked, lambda c: c["algorithms"]["greedy"].update(trials=50))
    assert larger.run_trials("ecoli", "uniform_0_2", "greedy") == 3


def test_blocks_cut_the_trials_and_name_the_shards(checked):
    plan = plan_of(checked, lambda c: c.update(block_size=2))
    assert plan.blocks("heart", "uniform_0_2", "greedy") == 2
    assert plan.block_trials(1, "heart", "uniform_0_2", "greedy") == [2]
    with pytest.raises(ValueError, match="out of range"):
        plan.block_trials(2, "heart", "uniform_0_2", "greedy")
    shards = plan.shards()
    assert "results/shards/heart/uniform_0_2/greedy/block-1.parquet" in shards
    assert len(shards) == sum(plan.blocks(d, c, a) for d, c, a in plan.experiments())
    stumps = plan.shards("stumps", {"greedy"})
    assert stumps and all("/greedy/" in s and s.startswith("results/stumps/") for s in stumps)
    assert plan.cost_tables() == sorted(
        {
            "results/costs/heart/uniform_0_2.parquet",
            "results/costs/ecoli/uniform_0_2.parquet",
            "results/costs/ecoli/few_cheap.parquet",
            "results/costs/heart/attribute_unit.parquet",
            "results/costs/ecoli/attribute_unit.parquet",
        }
    )


def _calibrated(plan: Plan, seconds: dict) -> Plan:
    """``plan`` with a calibration table of one row per (dataset, algorithm): ``seconds``
    (``None``: the shared AdaBoost path)."""
    rows = []
    for (dataset, algorithm), value in seconds.items():
        entry = PATH_ENTRY if algorithm is None else plan.config["algorithms"][algorithm]
        sizes = plan.split_sizes(dataset)
        rows.append(
            {
                "kind": algorithm_kind(entry),
                "estimator": str(entry["estimator"]),
                "dataset": dataset,
                "train_size": sizes["train_size"],
                "test_size": sizes["test_size"],
                "columns": 100,
                "seconds": value,
            }
        )
    plan.costs = TrialCosts(rows)
    return plan


def test_blocks_are_sized_by_the_trials_expected_cost(checked):
    seconds = {("heart", "greedy"): 0.5, ("heart", "lightgbm_stumps"): 4.0, ("heart", "tree"): 30.0}
    plan = plan_of(checked, lambda c: (c.pop("block_size"), c.update(block_seconds=10)))
    # blocks leave HEADROOM: 10 s a job is 6.7 s expected, 13 Greedy trials, 8 a power of two
    assert _calibrated(plan, seconds).block_size("heart", "uniform_0_2", "greedy") == 8
    plan = plan_of(checked, lambda c: (c.pop("block_size"), c.update(block_seconds=10 * HEADROOM)))
    plan = _calibrated(plan, seconds)
    # 10 s expected: 20 Greedy trials fit, 16 a power of two, all 3 in one block; 2 of
    # LightGBM's; the tree's 30 s a trial is over the target: one trial a block, never none
    assert plan.block_size("heart", "uniform_0_2", "greedy") == 16
    assert plan.blocks("heart", "uniform_0_2", "greedy") == 1
    assert plan.block_size("heart", "uniform_0_2", "lightgbm_stumps") == 2
    assert plan.block_trials(0, "heart", "uniform_0_2", "lightgbm_stumps") == [0, 1]
    assert plan.block_size("heart", "uniform_0_2", "tree") == 1
    assert plan.blocks("heart", "uniform_0_2", "tree") == 3
    assert plan.job_seconds(1, "heart", "uniform_0_2", "tree") == 30.0
    # the config's block_size caps a block whatever its cost
    capped = _calibrated(plan_of(checked, lambda c: c.update(block_seconds=10, block_size=1)), {})
    assert capped.block_size("heart", "uniform_0_2", "greedy") == 1


def test_a_train_job_reads_the_path_blocks_that_hold_its_trials(checked):
    def eight_trials(config):
        config.pop("block_size")
        config["block_seconds"] = 120 * HEADROOM  # 120 s expected
        config["datasets"]["heart"]["trials"] = 8

    plan = _calibrated(
        plan_of(checked, eight_trials), {("heart", None): 30.0, ("heart", "adaboost_bt"): 10.0}
    )
    assert plan.block_size("heart") == 4  # the path: 4 trials of 30 s within 120 s
    assert plan.block_size("heart", "uniform_0_2", "adaboost_bt") == 8
    assert plan.path_blocks(0, "heart", "uniform_0_2", "adaboost_bt") == [0, 1]
    plan = _calibrated(
        plan_of(checked, eight_trials), {("heart", None): 1.0, ("heart", "adaboost_bt"): 60.0}
    )
    assert plan.block_size("heart", "uniform_0_2", "adaboost_bt") == 2
    assert plan.path_blocks(3, "heart", "uniform_0_2", "adaboost_bt") == [0]


def test_reproducibility_is_checked_once_on_the_cheapest_dataset(checked):
    plan = _calibrated(plan_of(checked), {("heart", "greedy"): 2.0, ("ecoli", "greedy"): 0.5})
    checks = plan.reproducibility_checks()
    assert checks[("uniform_0_2", "greedy")] == "ecoli"
    assert checks[("few_cheap", "greedy")] == "ecoli"  # the only dataset of few_cheap
    assert set(checks) == {(c, a) for _, c, a in plan.experiments()}
    # the train job of ecoli's first block fits its first trial once more, none other does
    assert plan.checked_trial(0, "ecoli", "uniform_0_2", "greedy") == 0
    assert plan.checked_trial(0, "heart", "uniform_0_2", "greedy") is None
    assert plan.checked_trial(1, "ecoli", "uniform_0_2", "greedy") is None
    checked = [
        (d, c, a, k)
        for d, c, a in plan.experiments()
        for k in range(plan.blocks(d, c, a))
        if plan.checked_trial(k, d, c, a) is not None
    ]
    assert sorted((c, a) for _, c, a, _ in checked) == sorted(checks)
    # its expected time counts the refit: one trial more than its block holds
    seconds = plan.trial_seconds("ecoli", "uniform_0_2", "greedy")
    trials = len(plan.block_trials(0, "ecoli", "uniform_0_2", "greedy"))
    assert plan.job_seconds(0, "ecoli", "uniform_0_2", "greedy") == (trials + 1) * seconds


def test_budgets_from_the_cost_model_or_the_dataset_and_inf_for_the_reference(checked):
    plan = plan_of(checked)
    assert plan.budgets("heart", "uniform_0_2") == [2.0, 4.0, 6.0, 8.0, 10.0]
    assert plan.block_budgets("heart", "uniform_0_2", "adaboost") == ["inf"]
    own = plan_of(
        checked,
        lambda c: c["datasets"]["heart"].update(budgets={"uniform_0_2": {"step": 5, "stop": 15}}),
    )
    assert own.budgets("heart", "uniform_0_2") == [5.0, 10.0, 15.0]
    assert own.budgets("ecoli", "uniform_0_2") == [2.0, 4.0, 6.0, 8.0, 10.0]


def test_the_baseline_is_found_by_its_spec_and_cost_models_by_their_kind(checked):
    plan = plan_of(checked)
    assert plan.baseline_cost_model() == "uniform_0_2"
    assert plan.cost_model_kinds()["few_cheap"] == "few_cheap"
    assert plan.cost_model_kinds()["turney"] == "real"

    def rename(config):
        config["cost_models"]["u02"] = config["cost_models"].pop("uniform_0_2")
        for entry in config["datasets"].values():
            entry["cost_models"] = [
                "u02" if c == "uniform_0_2" else c for c in entry["cost_models"]
            ]

    assert plan_of(checked, rename).baseline_cost_model() == "u02"

    def other_range(config):
        config["cost_models"]["uniform_0_2"]["spec"]["high"] = 3.0

    assert plan_of(checked, other_range).baseline_cost_model() is None
    assert BASELINE_SPEC["model"] == "uniform_random"


def test_what_a_train_job_reads(checked):
    plan = plan_of(checked)
    reference = plan.algorithm("adaboost", "heart")
    assert reference.params["max_rounds"] == 15  # Table 1's rounds of heart
    assert reference.unbudgeted and reference.adaboost_path
    assert plan.train_modules("adaboost") == [
        "budgetboost.pipeline.blocks",
        "budgetboost.data.datasets",
        "budgetboost.estimators.boosting.booster",
        "budgetboost.pipeline.adaboost_path",
    ]
    assert plan.train_modules("lightgbm_stumps")[2] == "budgetboost.estimators.peers.lightgbm_peer"
    assert plan.train_modules("tree_cs")[2] == "budgetboost.estimators.trees.budgeted_tree"
    assert plan.train_modules("smoothed_tuned")[2] == "budgetboost.estimators.boosting.tuned_boost"
    assert plan.path_rounds("heart") == 40  # the config's, more than heart's 15
    assert plan.split_sizes("heart") == {"train_size": 100, "test_size": 170}
    assert plan.cost_file("heart", "turney") == ["resources/heart_cleveland_turney_costs.csv"]
    assert plan.cost_file("heart", "uniform_0_2") == []
    assert "train_size" not in plan.binarize_entry("heart")
    assert plan.dataset_order() == ["ecoli", "heart"]  # the registry's (Table 1's) order
    assert plan.local_datasets() == []


def test_a_config_sets_a_datasets_sizes_over_the_registrys(checked):
    def bigger(config):
        config["datasets"]["heart"]["train_size"] = 150

    plan = plan_of(checked, bigger)
    assert plan.split_sizes("heart") == {"train_size": 150, "test_size": 170}
    assert plan.split_sizes("ecoli") == plan_of(checked).split_sizes("ecoli")


def test_a_train_job_depends_on_the_versions_of_the_libraries_it_runs(checked):
    """Numpy's version for every job, LightGBM's and CatBoost's for their peers."""
    import importlib.metadata

    plan = Plan(*checked)
    numpy = importlib.metadata.version("numpy")
    assert plan.versions() == {"numpy": numpy}
    assert plan.versions("greedy") == {"numpy": numpy}
    assert plan.versions("lightgbm_stumps") == {
        "numpy": numpy,
        "lightgbm": importlib.metadata.version("lightgbm"),
    }
    assert plan.versions("catboost_stumps") == {
        "numpy": numpy,
        "catboost": importlib.metadata.version("catboost"),
    }


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


def test_listed_budgets_are_the_grid():
    assert plan.grid_budgets({"values": [1, 2, 3, 5, 8]}) == [1.0, 2.0, 3.0, 5.0, 8.0]
    assert plan.grid_budgets({"step": 2, "stop": 6}) == [2.0, 4.0, 6.0]


@pytest.mark.parametrize(
    "values", [[2, 1], [1, 1], [0, 1], [1, float("inf")], [1, "2"], [True, 2], []]
)
def test_listed_budgets_reject_what_is_not_an_increasing_list_of_positive_numbers(values):
    with pytest.raises(ValueError, match="budget values"):
        plan.grid_budgets({"values": values})


def test_block_trials_cover_every_trial_once():
    blocks = [plan.block_trials(k, 3, 10) for k in range(4)]
    assert blocks == [[0, 1, 2], [3, 4, 5], [6, 7, 8], [9]]


@pytest.mark.parametrize("block,size,trials", [(4, 3, 10), (-1, 3, 10), (0, 0, 10)])
def test_block_trials_out_of_range(block, size, trials):
    with pytest.raises(ValueError, match="block"):
        plan.block_trials(block, size, trials)
