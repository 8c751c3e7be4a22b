"""The shipped configs (config/*.yaml): each passes the checks, and the runs meant to pair with the
default run's trials do."""

from __future__ import annotations

import pytest
from helpers import REPO

from budgetboost.checks import check_file, load_config_file
from budgetboost.data.registry import load_registry
from budgetboost.pipeline.plan import algorithm_catalogue

SHIPPED = sorted(str(p.relative_to(REPO)) for p in (REPO / "config").glob("*.yaml"))
SHIPPED.remove("config/datasets.yaml")  # the registry


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_configs_pass(name):
    config = check_file(REPO / name, REPO)
    assert config["block_seconds"] > 0 and config.get("block_size", 1) >= 1
    assert all("params" in entry for entry in config["algorithms"].values())  # defaults


def test_the_extended_peers_run_the_default_runs_experiments():
    """config/peers_extended.yaml adds peers to the default run's experiments: the same
    datasets, trials, cost models and budgets, so that its trials pair with the default's
    (same splits, same costs), and the same entries for the algorithms both run."""
    default = load_config_file(REPO / "config/config.yaml")
    extended = load_config_file(REPO / "config/peers_extended.yaml")
    assert extended["registry"] == default["registry"]
    assert extended["results"] != default.get("results", "results")
    assert extended["datasets"] == default["datasets"]
    for name, model in extended["cost_models"].items():
        shared = {k: v for k, v in model.items() if k != "algorithms"}
        assert shared == {
            k: v for k, v in default["cost_models"][name].items() if k != "algorithms"
        }
    for name, entry in extended["algorithms"].items():
        if name in default["algorithms"]:
            mine = {k: v for k, v in entry.items() if k != "trials"}
            assert mine == {k: v for k, v in default["algorithms"][name].items() if k != "trials"}


def test_the_full_size_run_trains_on_every_row_not_held_out_for_test():
    """config/full_size.yaml: its datasets' training rows are every row of the vendored
    data but Table 1's test rows, and its algorithms are the default's (the peers with the
    libraries' leaf and bin minimums for data of this size)."""
    from budgetboost.data.datasets import build_binarized

    default = check_file(REPO / "config/config.yaml", REPO)
    full = check_file(REPO / "config/full_size.yaml", REPO)
    registry = load_registry(REPO / full["registry"])
    assert full["results"] != default.get("results", "results")
    for dataset, spec in full["datasets"].items():
        rows = len(build_binarized(dataset, registry[dataset], REPO).y)
        assert spec["train_size"] + registry[dataset]["test_size"] == rows, dataset
        assert spec["train_size"] >= 8 * registry[dataset]["train_size"], dataset
    catalogue = algorithm_catalogue(full["algorithms"])
    for name, entry in full["algorithms"].items():
        mine = {k: v for k, v in entry.items() if k not in ("trials", "params")}
        theirs = default["algorithms"][name]
        assert mine == {k: v for k, v in theirs.items() if k not in ("trials", "params")}
        if catalogue[name].family != "peer":
            assert entry["params"] == theirs["params"], name


def test_the_default_peers_are_set_for_small_data_and_run_20_trials():
    """No LightGBM peer of the default config has leaves of more than 5 rows, and
    every peer runs at least 20 trials of every dataset under U[0, 2] (under the
    corrected variance a per-dataset row detects at 20 trials within 1.13 of what it detects
    at 30, benchmarks/trials.py)."""
    from budgetboost.estimators.contract.registry import estimator_class

    config = check_file(REPO / "config/config.yaml", REPO)
    registry = load_registry(REPO / config["registry"])
    catalogue = algorithm_catalogue(config["algorithms"])
    peers = {n: e for n, e in config["algorithms"].items() if catalogue[n].family == "peer"}
    assert peers
    for name, entry in peers.items():
        estimator = estimator_class(entry["estimator"])(**entry["params"])
        if entry["estimator"] == "BudgetedLightGBM":  # its params may not set the alias
            assert estimator.min_child_samples <= 5, name
        for dataset, spec in config["datasets"].items():
            if "uniform_0_2" not in spec["cost_models"]:
                continue
            trials = spec.get("trials", registry[dataset]["trials"])
            assert min(trials, entry.get("trials", trials)) >= 20, (name, dataset)


def test_the_draft_suite_config_runs_every_vendored_dataset(registry):
    """config/suite.yaml plans Table 1's datasets and the suite's, each in the paper's regime
    (U[0, 2] per indicator) and the field's two (U[0, 2] and unit prices per attribute), and
    the synthetic cube in a field pool of its own."""
    from budgetboost.checks import load_config_file

    config = load_config_file(REPO / "config" / "suite.yaml")
    vendored = [
        n for n, e in registry.items() if e["enabled"] and e["source"]["type"] == "vendored"
    ]
    assert list(config["datasets"]) == vendored
    real = {n: e for n, e in config["datasets"].items() if n != "cube"}
    for models in (e["cost_models"] for e in real.values()):
        assert {"uniform_0_2", "attribute_0_2", "attribute_unit"} <= set(models)
    assert config["datasets"]["cube"]["cost_models"] == ["synthetic_unit"]
    pools = {c: e.get("field") for c, e in config["cost_models"].items()}
    assert pools["synthetic_unit"] == "synthetic"
    assert pools["uniform_0_2"] is None
