"""The config checks made when the workflow is planned (budgetboost.checks, .pipeline.config).

Every message is one line that starts with the config path of the offending value; the
end-to-end counterparts (``snakemake -n`` stops before any job) are in test_workflow.py.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from budgetboost.checks import ConfigError, check_all, check_file, load_config_file, main
from budgetboost.data.registry import load_registry
from budgetboost.pipeline.config import check_config, validate_config

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def test_config() -> dict:
    return yaml.safe_load((REPO / "config/test.yaml").read_text())


@pytest.fixture(scope="module")
def registry() -> dict:
    return load_registry(REPO / "config/datasets.yaml")


def _edited(config: dict, edit) -> dict:
    config = copy.deepcopy(config)
    edit(config)
    return config


SHIPPED = sorted(str(p.relative_to(REPO)) for p in (REPO / "config").glob("*.yaml"))
SHIPPED.remove("config/datasets.yaml")  # the registry


@pytest.mark.parametrize("name", SHIPPED)
def test_the_shipped_configs_pass(name):
    config = check_file(REPO / name, REPO)
    assert config["block_size"] >= 1
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
    """config/full_size.yaml (#24): its datasets' training rows are every row of the vendored
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
    for name, entry in full["algorithms"].items():
        mine = {k: v for k, v in entry.items() if k not in ("trials", "params")}
        theirs = default["algorithms"][name]
        assert mine == {k: v for k, v in theirs.items() if k not in ("trials", "params")}
        if entry.get("family") != "peer":
            assert entry["params"] == theirs["params"], name


def test_a_yaml_error_names_file_line_and_column(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text(
        "registry: config/datasets.yaml\ndatasets:\n  heart: {cost_models: [u]\n  ecoli: 1\n"
    )
    with pytest.raises(ConfigError) as err:
        load_config_file(path)
    message = str(err.value)
    assert message.startswith(f"config file {path}, line 4, column ")
    assert "invalid YAML" in message and "\n" not in message


@pytest.mark.parametrize(
    "text, message",
    [
        ("- a\n- b\n", "expected a mapping of keys at the top level, got list"),
        ("", "got NoneType"),
    ],
)
def test_a_config_that_is_not_a_mapping(tmp_path, text, message):
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(ConfigError, match=message):
        load_config_file(path)


SCHEMA_ERRORS = [
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(trials=0),
        "config cost_models.uniform_0_2.trials: 0 is less than the minimum of 1",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(trials="all"),
        "config algorithms.greedy.trials: 'all' is not of type 'integer'",
    ),
    (
        lambda c: c.update(block_sise=2),
        "config block_sise: unknown key (allowed here: adaboost_path, algorithms, block_size, "
        "cost_models, datasets, figure_modules, registry, resources, results)",
    ),
    (lambda c: c.update(block_size=0), "config block_size: 0 is less than the minimum of 1"),
    (lambda c: c["datasets"]["heart"].update(trails=3), "config datasets.heart.trails: unknown"),
    (
        lambda c: c["algorithms"].update({"../../../../x": {"estimator": "BudgetedBoost"}}),
        "config algorithms: name '../../../../x' does not match "
        "^[A-Za-z](?:[A-Za-z0-9_]*[A-Za-z0-9])?$",
    ),
    (
        lambda c: c["cost_models"].update({"a/b": c["cost_models"]["uniform_0_2"]}),
        "config cost_models: name 'a/b' does not match",
    ),
    (
        lambda c: c["datasets"]["heart"].update(cost_models=["../x"]),
        "config datasets.heart.cost_models.0: '../x' does not match",
    ),
    (lambda c: c.pop("algorithms"), "config (top level): 'algorithms' is a required property"),
    (
        lambda c: c.update(resources={"plot": {"mem_mb": 500}}),
        "config resources.plot: unknown key (allowed here: adaboost_path, binarize, train)",
    ),
    (
        lambda c: c.update(resources={"train": {"mem_mb": 0}}),
        "config resources.train.mem_mb: 0 is less than the minimum of 100",
    ),
]


@pytest.mark.parametrize("edit, message", SCHEMA_ERRORS)
def test_schema_errors_are_one_line_naming_the_path(test_config, edit, message):
    with pytest.raises(ConfigError) as err:
        validate_config(_edited(test_config, edit))
    assert str(err.value).startswith(message)
    assert "\n" not in str(err.value)


def test_validation_fills_defaults_without_touching_the_input(test_config):
    config = _edited(test_config, lambda c: c.pop("block_size"))
    filled = validate_config(config)
    assert filled["block_size"] == 100 and "block_size" not in config
    assert filled["algorithms"]["adaboost"]["unbudgeted"] is True
    assert filled["algorithms"]["greedy"]["refit_per_budget"] is False


CHECK_ERRORS = [
    # estimator parameters, by the estimator's own declared constraints
    (
        lambda c: c["algorithms"]["greedy"]["params"].update(criterion="gredy"),
        "config algorithms.greedy.params.criterion: must be one of",
    ),
    (
        lambda c: c["algorithms"]["smoothed"]["params"].update(tau=2),
        "config algorithms.smoothed.params.tau: ",
    ),
    (
        lambda c: c["algorithms"]["greedy"]["params"].update(max_rounds=-1),
        "config algorithms.greedy.params.max_rounds: ",
    ),
    (
        lambda c: c["algorithms"]["adaboost_rs"]["params"].update(n_rounds=0),
        "config algorithms.adaboost_rs.params.n_rounds: ",
    ),
    (
        lambda c: c["algorithms"]["tree"]["params"].update(criterion="gni"),
        "config algorithms.tree.params.criterion: ",
    ),
    (
        lambda c: c["algorithms"]["greedy"]["params"].update(max_round=5),
        "config algorithms.greedy.params.max_round: unknown parameter of BudgetedBoost",
    ),
    (
        lambda c: c["algorithms"]["greedy"]["params"].update(feature_costs=[1]),
        "config algorithms.greedy.params.feature_costs: set per trial by the pipeline",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(estimator="Greedy"),
        "config algorithms.greedy.estimator: estimator 'Greedy' is neither",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(estimator="nowhere.module:Cls"),
        "config algorithms.greedy.estimator: estimator 'nowhere.module:Cls': cannot import",
    ),
    (
        lambda c: c["algorithms"]["adaboost"].update(rounds_from_registry="rounds"),
        "config algorithms.adaboost.rounds_from_registry: BudgetedBoost has no parameter 'rounds'",
    ),
    # the cost-sensitive tree's trade-off grid (#16)
    (
        lambda c: c["algorithms"]["tree"]["params"].update(tradeoffs=[0, 1]),
        "config algorithms.tree.params.tradeoffs: only used with cost_sensitive=True",
    ),
    (
        lambda c: c["algorithms"]["tree_cs"]["params"].update(tradeoffs=[0, -1]),
        "config algorithms.tree_cs.params.tradeoffs: must be ",
    ),
    (
        lambda c: c["algorithms"]["tree_cs"]["params"].update(validation_fraction=0.0),
        "config algorithms.tree_cs.params.validation_fraction: must be > 0 to choose",
    ),
    (
        lambda c: c["algorithms"]["tree_cs"]["params"].update(
            tradeoffs=[0, 0.01, 0.1], validation_fraction=0.3
        ),
        None,
    ),
    # cost-model specs
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(
            spec={"model": "few_cheap", "fraction": 2}
        ),
        "config cost_models.uniform_0_2.spec.fraction: must lie in [0, 1]; got 2",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(
            spec={"model": "few_cheap", "cheap": [0, 0.2], "expensive": [2.5, 1.5]}
        ),
        "config cost_models.uniform_0_2.spec.expensive: low 2.5 is larger than high 1.5",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(
            spec={"model": "correlated", "low": 0, "high": 2, "noise": 0.25}
        ),
        None,
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(model="uniform_randm"),
        "config cost_models.uniform_0_2.spec.model: must be one of ['uniform_random', ",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(hgh=2.0),
        "config cost_models.uniform_0_2.spec.hgh: unknown parameter of model 'uniform_random'",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(low=3),
        "config cost_models.uniform_0_2.spec.low: 3.0 is larger than high 2.0",
    ),
    (
        lambda c: c["cost_models"]["turney"]["spec"].update(file="resources/nowhere.csv"),
        None,
    ),  # not used by any dataset: not checked
    # references between entries
    (
        lambda c: c["datasets"].update(hearts={"cost_models": ["uniform_0_2"]}),
        "config datasets.hearts: no such dataset in the registry",
    ),
    (
        lambda c: c["datasets"]["heart"].update(cost_models=["uniform_2"]),
        "config datasets.heart.cost_models: 'uniform_2' is not defined under cost_models",
    ),
    (
        lambda c: c["datasets"]["heart"].update(algorithms=["gredy"]),
        "config datasets.heart.algorithms: 'gredy' is not defined under algorithms",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"].update(algorithms=["gredy"]),
        "config cost_models.uniform_0_2.algorithms: 'gredy' is not defined under algorithms",
    ),
    (
        lambda c: c["cost_models"]["turney"].update(algorithms=["gredy"]),
        "config cost_models.turney.algorithms: 'gredy' is not defined under algorithms",
    ),  # not used by any dataset, still checked (#25): a typo waits for the day it is used
    (
        lambda c: c["datasets"]["heart"].update(budgets={"turney": {"step": 1, "stop": 2}}),
        "config datasets.heart.budgets.turney: not one of this dataset's cost models",
    ),
    # budget grids
    (
        lambda c: c["cost_models"]["uniform_0_2"]["budgets"].update(start=20),
        "config cost_models.uniform_0_2.budgets: budget grid needs 0 < start <= stop",
    ),
    (
        lambda c: c["datasets"]["heart"].update(
            budgets={"uniform_0_2": {"step": 1, "stop": 2, "start": 3}}
        ),
        "config datasets.heart.budgets.uniform_0_2: budget grid needs",
    ),
    # source files and cost files
    (
        lambda c: c["datasets"].update(webscope={"cost_models": ["uniform_0_2"]}),
        "config datasets.webscope: its local file resources/local/webscope/set2.train.txt is "
        'not there (the registry marks it enabled: false). Request "Yahoo! Learning to Rank',
    ),
    (
        lambda c: (
            c["datasets"]["heart"]["cost_models"].append("turney"),
            c["cost_models"]["turney"]["spec"].update(file="resources/nowhere.csv"),
        ),
        "config cost_models.turney.spec.file: cost file resources/nowhere.csv (used by "
        "heart/turney) not found",
    ),
]


@pytest.mark.parametrize("edit, message", CHECK_ERRORS)
def test_check_config_names_the_config_path(test_config, registry, edit, message):
    config = validate_config(_edited(test_config, edit))
    if message is None:
        check_config(config, registry, REPO)
        return
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


#: Issue 33's poor cases found when the workflow is planned (check_all, which common.smk
#: calls): each passed planning before and failed a job, or was silently accepted.
PLANNING_ERRORS = [
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(high=1e308),
        "config cost_models.uniform_0_2.spec.high: 1e+308 is larger than 1e+100, the "
        "largest cost a feature may have",
    ),
    (
        lambda c: c.update(figure_modules=["os"]),
        "config figure_modules: 'os' registers no figure",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(variant_of="greedy_tree2"),
        "config algorithms: algorithm 'greedy': variant_of goes round in a circle "
        "(greedy -> greedy_tree2 -> greedy)",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(label="$\\bogus$"),
        "config algorithms.greedy.label: matplotlib cannot draw '$\\\\bogus$' as math "
        "(between two $: Unknown symbol: \\bogus",
    ),
    (
        lambda c: c.update(registry="/dev/zero"),
        "config registry: dataset registry /dev/zero: is not a regular file",
    ),
    (
        lambda c: c.update(results="results/summary"),
        "config results: 'results/summary': 'summary' names a folder of a run's outputs",
    ),
]


@pytest.mark.parametrize("edit, message", PLANNING_ERRORS)
def test_what_failed_late_stops_at_planning_in_one_line(test_config, edit, message):
    with pytest.raises(ConfigError) as err:
        check_all(_edited(test_config, edit), REPO, ["config/test.yaml"])
    assert str(err.value).startswith(message), str(err.value)
    assert "\n" not in str(err.value)


def test_an_unreadable_registry_is_named(test_config):
    with pytest.raises(ConfigError, match="config registry: .*no/such.yaml"):
        check_all(_edited(test_config, lambda c: c.update(registry="no/such.yaml")), REPO)


@pytest.mark.parametrize(
    "registry, reason",
    [
        ("/dev/zero", "dataset registry /dev/zero: is not a regular file"),
        ("{root}/bad.yaml", "dataset registry {root}/bad.yaml, line 2, column 1: invalid YAML"),
        ("{root}/twice.yaml", "dataset registry {root}/twice.yaml, line 3: duplicate key 'heart'"),
    ],
)
def test_a_registry_that_cannot_be_read_stops_in_one_line(
    tmp_path, capsys, test_config, registry, reason
):
    """Poor cases: an endless device file and malformed YAML were raw tracebacks, also of
    ``python -m budgetboost.checks``."""
    (tmp_path / "bad.yaml").write_text("heart: {source: [1\n")
    (tmp_path / "twice.yaml").write_text("heart: {}\necoli: {}\nheart: {}\n")
    edited = _edited(test_config, lambda c: c.update(registry=registry.format(root=tmp_path)))
    with pytest.raises(ConfigError) as err:
        check_all(edited, REPO)
    assert str(err.value).startswith("config registry: " + reason.format(root=tmp_path))
    assert "\n" not in str(err.value)
    config_file = tmp_path / "c.yaml"
    config_file.write_text(yaml.safe_dump(edited))
    assert main([str(config_file), "--root", str(REPO)]) == 1
    assert capsys.readouterr().out.splitlines() == [str(err.value)]


def test_a_key_given_twice_in_a_config_file_stops_naming_both_lines(tmp_path):
    """Bad case 4: a second ``datasets:`` block replaced the first, and this said "ok"."""
    text = (REPO / "config/test.yaml").read_text()
    path = tmp_path / "twice.yaml"
    path.write_text(text + "datasets:\n  heart: {cost_models: [uniform_0_2]}\n")
    first = text.splitlines().index("datasets:") + 1
    with pytest.raises(ConfigError) as err:
        load_config_file(path)
    assert str(err.value) == (
        f"config file {path}, line {len(text.splitlines()) + 1}: duplicate key 'datasets' "
        f"(first at line {first}): YAML would keep only the last; remove or rename one"
    )


def test_the_old_name_of_the_checks_module_says_where_they_went():
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "budgetboost.config", "config/test.yaml"],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stderr.strip() == (
        "budgetboost.config is now budgetboost.checks: run `python -m budgetboost.checks "
        "FILE...`, import check_all and load_config_file from budgetboost.checks"
    )
    with pytest.raises(ImportError, match="budgetboost.checks"):
        import budgetboost.config  # noqa: F401


def test_the_command_line_checks_files(tmp_path, capsys, test_config):
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        yaml.safe_dump(
            _edited(test_config, lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(hgh=2))
        )
    )
    assert main([str(REPO / "config/test.yaml"), str(bad), "--root", str(REPO)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("config/test.yaml: ok")
    assert out[1].startswith("config cost_models.uniform_0_2.spec.hgh: unknown parameter")


def test_the_default_peers_are_set_for_small_data_and_run_20_trials():
    """Issue 23: no LightGBM peer of the default config has leaves of more than 5 rows, and
    every peer runs at least 20 trials of every dataset under U[0, 2] (issue 30: under the
    corrected variance a per-dataset row detects at 20 trials within 1.13 of what it detects
    at 30, benchmarks/trials.py)."""
    from budgetboost.estimators.names import estimator_class

    config = check_file(REPO / "config/config.yaml", REPO)
    registry = load_registry(REPO / config["registry"])
    peers = {n: e for n, e in config["algorithms"].items() if e.get("family") == "peer"}
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


# ------------------------------------------------------------------ issue 25: planning checks


def test_a_class_that_is_not_a_budgeted_estimator_stops_at_planning(test_config, registry):
    """``sklearn.tree:DecisionTreeClassifier`` planned 54 jobs and failed in training."""
    pytest.importorskip("sklearn")
    config = validate_config(
        _edited(
            test_config,
            lambda c: c["algorithms"]["greedy"].update(
                estimator="sklearn.tree:DecisionTreeClassifier", params={}
            ),
        )
    )
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value).startswith(
        "config algorithms.greedy.estimator: sklearn.tree:DecisionTreeClassifier is not a "
        "budgetboost.BudgetedEstimator"
    )


@pytest.mark.parametrize(
    "source, detail",
    [
        ("def broken(:\n", "(SyntaxError: "),
        ("raise RuntimeError('no licence server')\n", "(RuntimeError: no licence server)"),
    ],
)
def test_an_estimator_module_that_fails_to_import_names_the_key(
    test_config, registry, tmp_path, monkeypatch, source, detail
):
    (tmp_path / "broken_estimators.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    config = validate_config(
        _edited(
            test_config,
            lambda c: c["algorithms"]["greedy"].update(estimator="broken_estimators:Mine"),
        )
    )
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    message = str(err.value)
    assert message.startswith(
        "config algorithms.greedy.estimator: estimator 'broken_estimators:Mine': cannot "
        "import module 'broken_estimators' "
    )
    assert detail in message and "\n" not in message


@pytest.mark.parametrize(
    "value, reason",
    [
        ("-5", "is -5.0 (costs must be finite and >= 0)"),
        ("inf", "is inf (costs must be finite and >= 0)"),
        ("nan", "is not a number: 'nan'"),
    ],
)
def test_real_cost_values_are_checked_at_planning(test_config, registry, tmp_path, value, reason):
    costs = (REPO / "resources/heart_cleveland_turney_costs.csv").read_text().splitlines()
    costs[1] = f"age,{value}"
    (tmp_path / "costs.csv").write_text("\n".join(costs) + "\n")

    def edit(c):
        c["datasets"]["heart"]["cost_models"].append("turney")
        c["cost_models"]["turney"]["spec"].update(file=str(tmp_path / "costs.csv"))

    config = validate_config(_edited(test_config, edit))
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, REPO)
    assert str(err.value) == (
        f"config cost_models.turney.spec.file: cost file {tmp_path / 'costs.csv'}: cost of "
        f"'age' {reason}"
    )


@pytest.fixture(scope="module")
def heart_data(tmp_path_factory, registry) -> Path:
    """A repository root whose results/data holds heart's binarized table, as after a run."""
    from budgetboost.data.datasets import build_binarized, write_binarized

    root = tmp_path_factory.mktemp("root")
    (root / "results" / "data").mkdir(parents=True)
    data = build_binarized("heart", registry["heart"], REPO)
    write_binarized(data, root / "results" / "data" / "heart.parquet")
    for folder in ("resources",):
        (root / folder).symlink_to(REPO / folder)
    return root


@pytest.mark.parametrize(
    "sizes, message",
    [
        (
            {"train_size": 250},
            "config datasets.heart.train_size: train_size 250 + test_size 170 = 420 rows, but "
            "heart has 270 (results/data/heart.parquet)",
        ),
        (
            {"train_size": 2, "test_size": 10},
            "config datasets.heart: dataset 'heart', trial ",
        ),
        ({"train_size": 100}, None),
    ],
)
def test_sizes_are_checked_against_the_data_where_it_exists(
    test_config, registry, heart_data, sizes, message
):
    config = validate_config(_edited(test_config, lambda c: c["datasets"]["heart"].update(sizes)))
    if message is None:
        check_config(config, registry, heart_data)
        return
    with pytest.raises(ConfigError) as err:
        check_config(config, registry, heart_data)
    assert str(err.value).startswith(message), str(err.value)
    if "trial" in message:
        assert "training rows all have label" in str(err.value)
        assert "raise train_size (datasets.heart.train_size in the config)" in str(err.value)
