"""End-to-end tests of the Snakemake pipeline: the real CLI on config/test.yaml in temp copies.

One complete run (the session fixture ``base_run``) is shared; every incremental case works on
a private copy of it and checks, with a dry run, exactly which jobs Snakemake would execute.
"""

from __future__ import annotations

import copy
import functools
import http.server
import importlib.metadata
import math
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml
from helpers import (
    BAD_CONFIGS,
    LOGS,
    REPO,
    RESULTS,
    SNAKEMAKE,
    TEST_CONFIG,
    bundled_components,
    copy_repo,
    edit_config,
    planned_jobs,
    planned_outputs,
    planned_rules,
    runtime_env,
    snakemake,
)

from budgetboost.analysis import leads as analysis_leads
from budgetboost.analysis import vocabulary
from budgetboost.checks import check_all
from budgetboost.data import schema
from budgetboost.data.io import read_metadata, read_table
from budgetboost.pipeline import plan

# after every shard
RESULTS_RULES = {
    "aggregate",
    "plot",
    "claims",
    "evidence_page",
    "landing",
    "explore",
}
HAS_RESULTS = (REPO / "workflow" / "rules" / "results.smk").exists()


def load_config(name: str = TEST_CONFIG, repo: Path = REPO) -> dict:
    return yaml.safe_load((repo / name).read_text())


def shard_paths(
    repo: Path,
    dataset: str | None = None,
    algorithm: str | None = None,
    cost_model: str | None = None,
):
    pattern = (
        f"{RESULTS}/shards/{dataset or '*'}/{cost_model or '*'}/{algorithm or '*'}/block-*.parquet"
    )
    return sorted(repo.glob(pattern))


def all_rows(repo: Path, **filters) -> pd.DataFrame:
    frame = pd.concat([read_table(p) for p in shard_paths(repo, **filters)], ignore_index=True)
    return frame.sort_values(
        ["dataset", "cost_model", "algorithm", "trial", "budget"], ignore_index=True
    )


# --------------------------------------------------------------------- static checks


@pytest.mark.slow
def test_full_config_dry_run_plans_every_shard(fresh_repo):
    jobs = planned_jobs(fresh_repo, "--configfile", "config/config.yaml")
    config = load_config("config/config.yaml")
    registry = yaml.safe_load((REPO / config["registry"]).read_text())
    pairs = sum(len(e["cost_models"]) for e in config["datasets"].values())
    planned = plan.Plan(*check_all(config, REPO))
    blocks = 0
    for dataset, entry in config["datasets"].items():
        for cost_model in entry["cost_models"]:
            model = config["cost_models"][cost_model]
            for name, algorithm in config["algorithms"].items():
                if name not in model.get("algorithms", [name]):
                    continue
                caps = [registry[dataset]["trials"], algorithm.get("trials"), model.get("trials")]
                trials = min(c for c in caps if c is not None)
                blocks += -(-trials // planned.block_size(dataset, cost_model, name))
    rules = [rule for rule, _ in jobs]
    assert rules.count("train") == blocks
    assert rules.count("binarize") == len(config["datasets"]) == 9
    # the paper's ten (dataset, cost model) pairs and the open questions' two cost models
    assert rules.count("assign_costs") == pairs == 10 + 2 * 9


def _normalise(spec: str) -> str:
    return spec.replace(" ", "").lower().replace("_", "-")


def _conda_listed(path) -> set[str]:
    """The packages of a conda environment file, conda's and pip's, as ``name>=version``."""
    env = yaml.safe_load(path.read_text())
    conda = [_normalise(s) for s in env["dependencies"] if isinstance(s, str)]
    pip = [
        _normalise(s) for d in env["dependencies"] if isinstance(d, dict) for s in d.get("pip", [])
    ]
    return {s for s in conda + pip if s.partition(">")[0] not in ("python", "pip", "-e.")}


def test_the_three_dependency_lists_agree():
    """pyproject.toml, environment.yml (the package and its [test] extra) and the rules'
    conda environment (the package's run-time dependencies but the SLURM and cluster
    executors, which the submitting snakemake loads, not a rule) list the same packages at
    the same versions."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    runtime = {_normalise(s) for s in project["dependencies"]}
    test = {_normalise(s) for s in project["optional-dependencies"]["test"]}
    env = yaml.safe_load((REPO / "environment.yml").read_text())
    assert set(env["channels"]) >= {"conda-forge", "bioconda"}
    assert _conda_listed(REPO / "environment.yml") == runtime | test, (
        "environment.yml and pyproject.toml disagree"
    )
    executors = {s for s in runtime if s.startswith("snakemake-executor-plugin")}
    assert _conda_listed(REPO / "workflow" / "envs" / "budgetboost.yaml") == runtime - executors, (
        "workflow/envs/budgetboost.yaml and pyproject.toml's dependencies disagree"
    )


# --------------------------------------------------------------------- bad config


@pytest.mark.slow
@pytest.mark.parametrize(
    "edit,message",
    [BAD_CONFIGS[i] for i in (0, 4, 9, 13, 21, 27, -2, -1)],
)
def test_bad_config_stops_with_a_message_naming_it(tmp_path, edit, message):
    repo = copy_repo(tmp_path / "repo")
    edit_config(repo, edit)
    _stops_at_planning(repo, message)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["repo"]  # nothing written outside


def _stops_at_planning(repo: Path, message: str, **kwargs) -> None:
    """``snakemake -n`` fails with ``message`` in a few lines (the message, not a schema
    dump) and writes no result."""
    proc = snakemake(repo, "-n", check=False, **kwargs)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert message in output, output[-2000:]
    assert len(output.splitlines()) < 10, output
    assert not (repo / "results").exists()


@pytest.mark.slow
def test_a_snakefile_run_from_another_folder_says_where_to_run_it(tmp_path):
    """``snakemake -s path/Snakefile`` from another folder says where to run it (``-d``), not that
    the config or registry cannot be read."""
    repo = copy_repo(tmp_path / "repo")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    proc = subprocess.run(
        [SNAKEMAKE, "-n", "-s", str(repo / "Snakefile")],
        cwd=elsewhere,
        capture_output=True,
        text=True,
        timeout=300,
        env=runtime_env(),
    )
    assert proc.returncode != 0
    assert (
        "config file config/config.yaml: cannot be read (No such file or directory) (snakemake "
        f"runs in {elsewhere}, the workflow lies in {repo}: run it from there, or add -d {repo})"
    ) in proc.stdout + proc.stderr


@pytest.mark.slow
def test_a_key_given_twice_in_the_configfile_stops_naming_both_lines(tmp_path):
    """A second ``datasets:`` block in the configfile stops the run naming both lines, never
    replacing the first."""
    repo = copy_repo(tmp_path / "repo")
    path = repo / TEST_CONFIG
    text = path.read_text()
    path.write_text(text + "datasets:\n  heart: {cost_models: [uniform_0_2], trials: 3}\n")
    first = text.splitlines().index("datasets:") + 1
    _stops_at_planning(
        repo,
        f"config file {TEST_CONFIG}, line {len(text.splitlines()) + 1}: duplicate key "
        f"'datasets' (first at line {first})",
    )


@pytest.mark.slow
def test_an_alias_bomb_in_the_configfile_ends_in_one_short_line(tmp_path):
    """3.4 kB of nested YAML aliases in the configfile end in one short line."""
    from helpers import alias_bomb

    repo = copy_repo(tmp_path / "repo")
    (repo / TEST_CONFIG).write_text((repo / TEST_CONFIG).read_text() + alias_bomb())
    proc = snakemake(repo, "-n", check=False, timeout=120)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0 and len(output) < 2000, output[:2000]
    assert "expands to more than 100,000 values through its aliases" in output


@pytest.mark.slow
def test_a_cost_file_that_is_no_cost_table_is_named_never_printed(tmp_path):
    """A ``real`` cost file pointed at the process environment is named, never printed (a text file
    of secrets likewise: test_costs.py)."""
    target, message = "/proc/self/environ", "cost file /proc/self/environ: is not a text file"
    repo = copy_repo(tmp_path / "repo")
    edit_config(
        repo,
        lambda c: (
            c["cost_models"]["turney"]["spec"].update(file=target),
            c["datasets"]["heart"].update(cost_models=["turney"]),
        ),
    )
    os.environ["BUDGETBOOST_PROBE"] = "s3cr3t-environment-value"
    try:
        proc = snakemake(repo, "-n", check=False)
    finally:
        del os.environ["BUDGETBOOST_PROBE"]
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert f"config cost_models.turney.spec.file: {message}" in output, output[-2000:]
    assert "s3cr3t" not in output and len(output.splitlines()) < 10


def _user_csv(repo: Path, text: str) -> None:
    """A dataset of the user's own: a CSV under resources/local with a label rule, run."""
    (repo / "resources/local").mkdir(parents=True, exist_ok=True)
    (repo / "resources/local/mine.csv").write_text(text)
    source = {"type": "local", "path": "resources/local/mine.csv"}
    _heart_as(repo, "mine", source)
    registry = yaml.safe_load((repo / "config/datasets_mine.yaml").read_text())
    registry["mine"].update(format="csv", label={"column": "y", "positive": [1], "negative": [0]})
    registry["mine"]["source"].pop("sha256")
    (repo / "config/datasets_mine.yaml").write_text(yaml.safe_dump(registry))


@pytest.mark.slow
def test_a_user_csv_the_label_rule_cannot_read_stops_at_planning(tmp_path):
    """An empty CSV, a missing label column and a label outside the rule stop at planning, before
    binarize (the other two: test_datasets.py)."""
    repo = copy_repo(tmp_path / "repo")
    _user_csv(repo, "a,y\n1,0\n2,1\n3,2\n")
    _stops_at_planning(
        repo,
        "config datasets.mine: dataset 'mine', file resources/local/mine.csv, label column "
        "'y': 1 rows have a label outside the rule (positive [1], negative [0]), e.g. 2 at "
        "row 2 (0-based, header not counted)",
    )


@pytest.mark.slow
def test_a_user_csv_with_fewer_rows_than_its_sizes_stops_at_planning(tmp_path):
    """A CSV of one data row stops at planning: the rows are counted where the label rule is read,
    not left to binarize."""
    repo = copy_repo(tmp_path / "repo")
    _user_csv(repo, "a,y\n1,0\n")
    _stops_at_planning(
        repo,
        "config datasets.mine (the registry's sizes): train_size 100 + test_size 170 = 270 "
        "rows, but mine has 1 (resources/local/mine.csv)",
    )


@pytest.mark.slow
@pytest.mark.parametrize("value, reason", [("-5", "is -5.0"), ("inf", "is inf")])
def test_a_real_cost_file_with_a_bad_value_stops_at_planning(tmp_path, value, reason):
    repo = copy_repo(tmp_path / "repo")
    path = repo / "resources/heart_cleveland_turney_costs.csv"
    lines = path.read_text().splitlines()
    lines[1] = f"age,{value}"
    path.write_text("\n".join(lines) + "\n")
    edit_config(repo, lambda c: c["datasets"]["heart"].update(cost_models=["turney"]))
    _stops_at_planning(
        repo,
        "config cost_models.turney.spec.file: cost file "
        f"resources/heart_cleveland_turney_costs.csv: cost of 'age' {reason} "
        "(costs must be finite and >= 0)",
    )


@pytest.mark.slow
def test_an_estimator_module_with_a_syntax_error_stops_at_planning(tmp_path):
    repo = copy_repo(tmp_path / "repo")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "my_estimators.py").write_text("class Mine(:\n")
    edit_config(repo, lambda c: c["algorithms"]["greedy"].update(estimator="my_estimators:Mine"))
    _stops_at_planning(
        repo,
        "config algorithms.greedy.estimator: estimator 'my_estimators:Mine': cannot import "
        "module 'my_estimators' (SyntaxError: ",
        pythonpath=(str(tmp_path / "site"),),
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "sizes, message",
    [
        (
            {"train_size": 200},
            "config datasets.heart.train_size: train_size 200 + test_size 170 = 370 rows, but "
            "heart has 270 (resources/heart.parquet)",
        ),
        ({"train_size": 2}, "config datasets.heart: dataset 'heart', trial "),
    ],
)
def test_sizes_the_data_cannot_hold_stop_at_planning_once_it_exists(run_copy, sizes, message):
    """Planning checks the sizes against the rows of the source file (read for its label rule) and,
    where the binarized data exists (any run after the first), every trial's training classes
    against it."""
    edit_config(run_copy, lambda c: c["datasets"]["heart"].update(sizes))
    proc = snakemake(run_copy, "-n", check=False)
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert message in output, output[-2000:]
    assert len(output.splitlines()) < 10, output


def _heart_as(repo: Path, name: str, source: dict, sha256: str | None = None) -> None:
    """Register heart's entry under ``name`` with another ``source`` (heart's checksum unless
    given) in a registry of the copy's own, and run only that dataset, one trial."""
    registry = yaml.safe_load((repo / "config/datasets.yaml").read_text())
    entry = copy.deepcopy(registry["heart"])
    entry["source"] = {**source, "sha256": sha256 or entry["source"]["sha256"]}
    registry[name] = entry
    (repo / f"config/datasets_{name}.yaml").write_text(yaml.safe_dump(registry))
    edit_config(
        repo,
        lambda c: c.update(
            registry=f"config/datasets_{name}.yaml",
            datasets={name: {"cost_models": ["uniform_0_2"], "trials": 1}},
        ),
    )


@pytest.mark.slow
def test_an_infinite_feature_value_fails_binarize_naming_it(tmp_path):
    """An ``inf`` feature value fails binarize naming it: no indicator ``a1>=inf``, no metadata that
    is not valid JSON."""
    import hashlib

    repo = copy_repo(tmp_path / "repo")
    frame = pd.read_parquet(repo / "resources/heart.parquet")
    column = next(c for c in frame.columns if pd.api.types.is_float_dtype(frame[c]))
    frame.loc[3, column] = np.inf
    frame.to_parquet(repo / "resources/heart_inf.parquet")
    digest = hashlib.sha256((repo / "resources/heart_inf.parquet").read_bytes()).hexdigest()
    _heart_as(
        repo, "heart_inf", {"type": "vendored", "path": "resources/heart_inf.parquet"}, digest
    )
    proc = snakemake(repo, "--cores", "1", f"{RESULTS}/data/heart_inf.parquet", check=False)
    assert proc.returncode != 0
    log = (repo / f"{LOGS}/binarize/heart_inf.log").read_text()
    assert f"attribute {column!r}: its value inf at row 3" in log and "is not finite" in log
    assert not (repo / f"{RESULTS}/data/heart_inf.parquet").exists()


@pytest.mark.slow
def test_a_yaml_error_in_the_default_config_names_file_and_line(tmp_path):
    """A config file (``--configfile`` files are read by Snakemake itself, before the
    workflow: ``python -m budgetboost.checks FILE`` names their line; see test_config.py).
    """
    repo = copy_repo(tmp_path / "repo")
    path = repo / "config/config.yaml"
    lines = path.read_text().splitlines()
    number = next(i for i, line in enumerate(lines) if line.startswith("  heart:")) + 1
    lines[number - 1] = lines[number - 1].replace("}", "")  # an unclosed flow mapping
    path.write_text("\n".join(lines) + "\n")
    proc = subprocess.run(
        [SNAKEMAKE, "-n"], cwd=repo, capture_output=True, text=True, env=runtime_env(), timeout=120
    )
    assert proc.returncode != 0
    assert "config file config/config.yaml, line " in proc.stdout + proc.stderr
    assert "invalid YAML" in proc.stdout + proc.stderr


def test_the_runtime_guard_blocks_undeclared_modules():
    """The guard the end-to-end tests run under can fail: pytest is installed here but is not
    a runtime dependency; pygments is one (``snakemake --report`` needs it)."""
    code = (
        "import importlib, sys\n"
        "for name in sys.argv[1:]:\n"
        "    try:\n        importlib.import_module(name)\n        print(name, 'ok')\n"
        "    except ModuleNotFoundError as exc:\n        print(name, 'blocked', exc)\n"
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "pytest",
            "hypothesis",
            "pygments",
            "yaml",
            "snakemake.report",
            "json",
        ],
        capture_output=True,
        text=True,
        env=runtime_env(),
        timeout=120,
        check=True,
    )
    lines = dict(line.split(" ", 1) for line in proc.stdout.splitlines())
    assert lines["pytest"].startswith("blocked") and "not a runtime dependency" in lines["pytest"]
    assert lines["hypothesis"].startswith("blocked")
    assert lines["pygments"] == lines["yaml"] == lines["json"] == "ok"
    assert lines["snakemake.report"] == "ok"


# --------------------------------------------------------------------- end to end


@pytest.mark.slow
def test_full_run_writes_every_output(base_run):
    config = load_config(repo=base_run)
    frame = all_rows(base_run)
    for dataset, entry in config["datasets"].items():
        for cost_model in entry["cost_models"]:
            model = config["cost_models"][cost_model]
            budgets = plan.grid_budgets(model["budgets"])
            for algorithm, spec in config["algorithms"].items():
                rows = frame[
                    (frame.dataset == dataset)
                    & (frame.cost_model == cost_model)
                    & (frame.algorithm == algorithm)
                ]
                if algorithm not in model.get("algorithms", [algorithm]):
                    assert rows.empty
                    continue
                per_trial = 1 if spec.get("unbudgeted") else len(budgets)
                # capped algorithms and cost models run the first trials
                trials = min(entry["trials"], spec.get("trials", 999), model.get("trials", 999))
                assert sorted(rows.trial.unique()) == list(range(trials))
                assert len(rows) == trials * per_trial
    assert list(frame.columns) == [*schema.SHARD_COLUMNS, schema.ROW_LOSSES]
    assert frame.test_error.between(0, 1).all()
    meta = read_metadata(shard_paths(base_run, "heart", "adaboost_rs")[0])
    assert meta["params"] == config["algorithms"]["adaboost_rs"]["params"]
    assert meta["seeds"]["random_state"]
    timings = list(base_run.glob(f"{RESULTS}/timings/*/*/*/block-*.parquet"))
    shared = list(base_run.glob(f"{RESULTS}/timings/*/_shared/adaboost_path/block-*.parquet"))
    assert len(timings) == len(shard_paths(base_run)) + len(shared)
    assert len(shared) == len(list(base_run.glob(f"{RESULTS}/paths/*/block-*.parquet")))
    assert shared and len(shared) == len(config["datasets"])  # one block each
    assert list(read_table(timings[0]).columns) == list(schema.TIMING_COLUMNS)
    logs = list(base_run.glob(f"{LOGS}/train/*/*/*/block-*.log"))
    assert len(logs) == len(shard_paths(base_run))
    # each (cost model, algorithm)'s reproducibility check: one train job fitted its
    # cheapest dataset's first trial again and logged the rows found the same
    checks = plan.Plan(*check_all(config, base_run)).reproducibility_checks()
    refits = {
        str(log.relative_to(base_run)): re.findall(r"trial 0: (\d+) rows the same", log.read_text())
        for log in logs
    }
    assert {log for log, found in refits.items() if found} == {
        f"{LOGS}/train/{d}/{c}/{a}/block-0.log" for (c, a), d in checks.items()
    }
    assert all(int(n) >= 1 for found in refits.values() for n in found)
    assert not list(base_run.glob(f"{RESULTS}/**/.*.tmp")), "temporary files left behind"
    if HAS_RESULTS:
        assert (base_run / f"{RESULTS}/summary/summary.md").is_file()
        assert (base_run / f"{RESULTS}/figures/figure1.png").is_file()
        claims_md = (base_run / f"{RESULTS}/summary/claims.md").read_text()
        assert "## Beyond the paper" in claims_md and "## Future work" in claims_md
        assert ": few_cheap vs U[0, 2] " in claims_md  # the open cost model against U[0, 2]
        found = read_table(base_run / f"{RESULTS}/summary/findings.parquet")
        assert set(found.question) == {"peers", "tuning", "trees", "costs", "field"}
        costs = found[found.question == "costs"]  # each algorithm against itself under U[0, 2]
        assert set(costs.cost_model) == {"few_cheap"}
        assert set(costs.x) == set(config["cost_models"]["few_cheap"]["algorithms"])
        assert (costs.x == costs.y).all()
        per_dataset = found[found.dataset != "all"]
        assert set(per_dataset.outcome) <= set(vocabulary.OUTCOMES)
        assert set(found[found.dataset == "all"].outcome) <= set(vocabulary.DATASET_OUTCOMES)
        claims_table = read_table(base_run / f"{RESULTS}/summary/claims.parquet")
        assert len(claims_table) == 8  # the paper's claims on its own experiments
        # the field's question in the field's regime, at the hard cap and at mean cost
        field = found[found.question == "field"]
        # small budgets bind on both datasets, larger ones on neither: no binding row apart
        pools = {"attribute_unit"}
        assert set(field.pool) == set(field.cost_model) == pools
        mean = read_table(base_run / f"{RESULTS}/summary/field_mean_cost.parquet")
        assert set(mean.question) == {"field"} and set(mean.pool) == pools
        assert set(zip(mean.x, mean.y, strict=True)) == set(zip(field.x, field.y, strict=True))
        leads = read_table(base_run / f"{RESULTS}/summary/leads.parquet")
        assert set(leads.reading) == {"cap", "mean"} and set(leads.pool) == {"attribute_unit"}
        standings = leads[list(analysis_leads.STANDINGS)].sum(axis=1)
        assert (standings == leads.datasets).all()
        binding = read_table(base_run / f"{RESULTS}/summary/binding.parquet")
        unit = binding[binding.cost_model == "attribute_unit"]
        expected = np.minimum(unit.budget, unit.attributes) / unit.attributes
        np.testing.assert_allclose(unit.share, expected)  # a unit price buys one attribute
        landing = (base_run / f"{RESULTS}/report/landing.rst").read_text()
        assert "Pool ``attribute_unit``, read at the hard cap per example" in landing
        assert "read at matched mean cost per example" in landing


@pytest.mark.slow
def test_second_run_does_nothing(run_copy):
    assert planned_jobs(run_copy) == []


@pytest.mark.slow
def test_changing_one_algorithm_reruns_only_its_shards(run_copy):
    edit_config(run_copy, lambda c: c["algorithms"]["smoothed"]["params"].update(tau=0.5))
    rules = planned_rules(run_copy)
    trains = planned_outputs(run_copy, "train")
    assert {p for p in trains if "/shards/" in p} == {
        str(p.relative_to(run_copy)) for p in shard_paths(run_copy, algorithm="smoothed")
    }
    assert set(rules) <= {"train"} | RESULTS_RULES
    if HAS_RESULTS:
        assert set(rules) == {"train"} | RESULTS_RULES


@pytest.mark.slow
def test_writing_an_algorithms_params_in_another_order_reruns_nothing(run_copy):
    """The same entry with its keys in another order is no change."""

    def reverse(config):
        for entry in config["algorithms"].values():
            if isinstance(entry.get("params"), dict):
                entry["params"] = dict(reversed(list(entry["params"].items())))
        config["cost_models"] = {
            name: {**model, "spec": dict(reversed(list(model["spec"].items())))}
            for name, model in config["cost_models"].items()
        }

    edit_config(run_copy, reverse)
    assert planned_jobs(run_copy) == []


@pytest.mark.slow
def test_writing_a_cost_as_an_integer_reruns_nothing(run_copy):
    """``high: 2.0`` written ``high: 2`` (the same number) re-runs nothing."""

    def integers(config):
        for model in config["cost_models"].values():
            for key, value in model["spec"].items():
                if isinstance(value, float) and value.is_integer():
                    model["spec"][key] = int(value)

    assert edit_config(run_copy, integers)["cost_models"]["uniform_0_2"]["spec"]["high"] == 2
    assert planned_jobs(run_copy) == []


SHARED = ("adaboost", "adaboost_bt", "adaboost_rs", "adaboost_rs_ac")


@pytest.mark.slow
def test_the_shared_adaboost_path_reruns_exactly_its_users(run_copy):
    """RS's parameters re-run RS only; the shared path's rounds re-run all four."""
    edit_config(run_copy, lambda c: c["algorithms"]["adaboost_rs"]["params"].update(max_draws=1000))
    trains = {p for p in planned_outputs(run_copy, "train") if "/shards/" in p}
    assert trains == {
        str(p.relative_to(run_copy)) for p in shard_paths(run_copy, algorithm="adaboost_rs")
    }
    assert "adaboost_path" not in planned_rules(run_copy)
    edit_config(run_copy, lambda c: c["adaboost_path"].update(max_rounds=60))
    trains = {p for p in planned_outputs(run_copy, "train") if "/shards/" in p}
    assert trains == {
        str(p.relative_to(run_copy)) for a in SHARED for p in shard_paths(run_copy, algorithm=a)
    }
    assert planned_rules(run_copy)["adaboost_path"] == len(load_config(repo=run_copy)["datasets"])


@pytest.mark.slow
def test_raising_the_trials_adds_only_new_blocks(run_copy):
    config = load_config(repo=run_copy)
    size, trials = config["block_size"], config["datasets"]["heart"]["trials"]
    assert trials % size == 0, "the test config should end on a whole block"
    before = {p: p.read_bytes() for p in shard_paths(run_copy)}
    edit_config(run_copy, lambda c: c["datasets"]["heart"].update(trials=trials + size))
    new_block = trials // size
    trains = {p for p in planned_outputs(run_copy, "train") if "/shards/" in p}
    assert trains == {
        f"{RESULTS}/shards/heart/uniform_0_2/{a}/block-{new_block}.parquet"
        for a, spec in config["algorithms"].items()
        if spec.get("trials", np.inf) > trials  # capped algorithms keep their first trials
    }
    rules = planned_rules(run_copy)
    assert set(rules) <= {"split", "assign_costs", "adaboost_path", "train"} | RESULTS_RULES
    # the split gains the new trials, so every cost model of heart is assigned again
    cost_models = len(config["datasets"]["heart"]["cost_models"])
    assert rules["split"] == 1 and rules["assign_costs"] == cost_models
    assert rules["adaboost_path"] == 1
    snakemake(run_copy, "--cores", "2")
    assert {p: p.read_bytes() for p in before} == before  # old blocks untouched
    rows = all_rows(run_copy, dataset="heart")
    assert sorted(rows.trial.unique()) == list(range(trials + size))
    assert planned_jobs(run_copy) == []


@pytest.mark.slow
def test_a_capped_algorithm_runs_its_first_trials_and_pairs_with_the_others(run_copy):
    """`trials` on an algorithm runs its first trials only; raising it re-runs
    that algorithm's shards alone, and its comparisons pair on the trials both ran."""
    config = load_config(repo=run_copy)
    cap = config["algorithms"]["lightgbm_stumps"]["trials"]
    trials = config["datasets"]["heart"]["trials"]
    assert cap < trials, "the test config should cap a peer below the datasets' trials"
    rows = all_rows(run_copy, algorithm="lightgbm_stumps")
    assert sorted(rows.trial.unique()) == list(range(cap))
    assert rows["tradeoff"].notna().all()  # the chosen trade-off per budget is recorded
    assert all_rows(run_copy, algorithm="smoothed")["tradeoff"].isna().all()
    found = read_table(run_copy / f"{RESULTS}/summary/findings.parquet")
    pair = found[
        (found.x == "smoothed") & (found.y == "lightgbm_stumps") & (found.dataset != "all")
    ]
    assert not pair.empty and (pair.trials == cap).all()
    before = {p: p.read_bytes() for p in shard_paths(run_copy)}
    edit_config(run_copy, lambda c: c["algorithms"]["lightgbm_stumps"].update(trials=cap + 1))
    # ... except under a cost model whose own cap is lower (few_cheap: 2 trials)
    capped = {c for c, m in config["cost_models"].items() if m.get("trials", cap + 1) <= cap}
    rerun = {
        p for p in shard_paths(run_copy, algorithm="lightgbm_stumps") if p.parts[-3] not in capped
    }
    assert capped and len(rerun) < len(shard_paths(run_copy, algorithm="lightgbm_stumps"))
    trains = {p for p in planned_outputs(run_copy, "train") if "/shards/" in p}
    assert trains == {str(p.relative_to(run_copy)) for p in rerun}
    snakemake(run_copy, "--cores", "2")
    after = all_rows(run_copy, algorithm="lightgbm_stumps")
    assert sorted(after.trial.unique()) == list(range(cap + 1))
    changed = {p for p in before if p.read_bytes() != before[p]}
    assert changed == rerun
    # the first trials are the same fits as before: their rows are unchanged
    old = rows.sort_values(["dataset", "trial", "budget"]).reset_index(drop=True)
    new = after[after.trial < cap].sort_values(["dataset", "trial", "budget"])
    pd.testing.assert_frame_equal(old, new.reset_index(drop=True))


def _checked_blocks(repo: Path) -> set[str]:
    """The shards of the train jobs that fit a trial again (the reproducibility checks)."""
    planned = plan.Plan(*check_all(load_config(repo=repo), repo))
    return {
        f"{RESULTS}/shards/{d}/{c}/{a}/block-0.parquet"
        for (c, a), d in planned.reproducibility_checks().items()
    }


@pytest.mark.slow
def test_adding_a_dataset_runs_only_its_jobs(run_copy):
    """Only the new dataset's jobs, and the train jobs whose reproducibility check it moves
    (where it is cheaper): the block that held the check and the new one that holds it."""
    before = _checked_blocks(run_copy)
    edit_config(
        run_copy,
        lambda c: c["datasets"].update(breast_cancer={"cost_models": ["uniform_0_2"], "trials": 2}),
    )
    moved = before - _checked_blocks(run_copy)
    jobs = [(rule, outs) for rule, outs in planned_jobs(run_copy) if rule != "all"]
    for rule, outputs in jobs:
        if rule not in RESULTS_RULES and not moved & set(outputs):
            assert all("breast_cancer" in out for out in outputs), (rule, outputs)
    rules = planned_rules(run_copy)
    assert rules["binarize"] == rules["split"] == rules["assign_costs"] == 1
    assert rules["train"] == len(load_config(repo=run_copy)["algorithms"]) + len(moved)


@pytest.mark.slow
def test_adding_a_cost_model_runs_only_its_jobs(run_copy):
    before = _checked_blocks(run_copy)
    edit_config(run_copy, lambda c: c["datasets"]["heart"]["cost_models"].append("turney"))
    moved = before - _checked_blocks(run_copy)  # turney's own checks move nothing planned
    jobs = [(rule, outs) for rule, outs in planned_jobs(run_copy) if rule != "all"]
    for rule, outputs in jobs:
        if rule not in RESULTS_RULES and not moved & set(outputs):
            assert all("/heart/turney" in out for out in outputs), (rule, outputs)
    rules = planned_rules(run_copy)
    assert set(rules) <= {"assign_costs", "train"} | RESULTS_RULES
    assert rules["assign_costs"] == 1


@pytest.mark.slow
@pytest.mark.skipif(not HAS_RESULTS, reason="the results rules are not there yet")
def test_editing_plotting_code_reruns_only_the_plots(run_copy):
    plots = run_copy / "budgetboost" / "figures" / "panels.py"
    plots.write_text(plots.read_text() + "\n# an edit\n")
    # and the first page, which lists the figures that draw something, and the interactive
    # page, whose standings the figures' code computes (figures.standings.standings_of_run)
    assert set(planned_rules(run_copy)) == {"plot", "landing", "explore"}


@pytest.mark.slow
def test_editing_training_code_reruns_the_shards_not_the_data(run_copy):
    code = run_copy / "budgetboost" / "pipeline" / "blocks.py"
    code.write_text(code.read_text() + "\n# an edit\n")
    rules = planned_rules(run_copy)
    assert rules["train"] == len(shard_paths(run_copy))
    assert set(rules) <= {"train"} | RESULTS_RULES


def _fake_install(folder: Path, name: str, version: str) -> str:
    """A folder that makes ``importlib.metadata`` report ``name`` at ``version`` when it
    comes first on ``PYTHONPATH`` (as an upgrade would; the code itself is not touched)."""
    info = folder / f"{name}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
    return str(folder)


@pytest.mark.slow
@pytest.mark.parametrize("library", ["lightgbm", "numpy"])
def test_a_library_upgrade_reruns_the_shards_of_its_users(run_copy, tmp_path, library):
    """The train jobs' params hold numpy's version and those of the libraries
    their estimator wraps, and the shards record them: LightGBM's upgrade re-runs only the
    shards of the estimators wrapping LightGBM, numpy's every shard and the shared AdaBoost
    paths."""
    shard = read_metadata(shard_paths(run_copy, algorithm="lightgbm_stumps")[0])
    installed = {lib: importlib.metadata.version(lib) for lib in ("numpy", "lightgbm")}
    assert shard["versions"] == installed
    fake = _fake_install(tmp_path / "site", library, "999.0")
    rules = planned_rules(run_copy, pythonpath=(fake,))
    lightgbm = [  # the shards of every estimator wrapping LightGBM (SelectThenTrain's GBM too)
        path for path in shard_paths(run_copy) if "lightgbm" in read_metadata(path)["versions"]
    ]
    assert len(lightgbm) > len(shard_paths(run_copy, algorithm="lightgbm_stumps"))
    if library == "lightgbm":
        assert rules["train"] == len(lightgbm) and "adaboost_path" not in rules
        assert planned_outputs(run_copy, "train", pythonpath=(fake,)) >= {
            str(p.relative_to(run_copy)) for p in lightgbm
        }
    else:
        assert rules["train"] == len(shard_paths(run_copy)) and rules["adaboost_path"] > 0
    assert set(rules) <= {"train", "adaboost_path"} | RESULTS_RULES
    assert planned_rules(run_copy) == {}  # the installed versions: nothing to do


def _heart_turney(config: dict) -> None:
    config["datasets"] = {"heart": {"cost_models": ["turney"], "trials": 2}}
    config["cost_models"] = {"turney": config["cost_models"]["turney"]}
    config["algorithms"] = {"greedy": config["algorithms"]["greedy"]}


@pytest.mark.slow
def test_editing_a_real_cost_file_retrains_in_one_run(tmp_path):
    """The shards follow the cost file after ONE run, as a fresh run's."""
    repo = copy_repo(tmp_path / "repo")
    edit_config(repo, _heart_turney)
    snakemake(repo, "--cores", "2")
    costs = repo / "resources/heart_cleveland_turney_costs.csv"
    before = {p: p.read_bytes() for p in shard_paths(repo)}
    costs.write_text(costs.read_text().replace("ca,100.90,,100.90", "ca,1.00,,1.00"))
    assert {p for p in planned_outputs(repo, "train") if "/shards/" in p} == {
        str(p.relative_to(repo)) for p in before
    }
    snakemake(repo, "--cores", "2")
    assert planned_jobs(repo) == []
    fresh = copy_repo(tmp_path / "fresh")
    edit_config(fresh, _heart_turney)
    (fresh / "resources/heart_cleveland_turney_costs.csv").write_bytes(costs.read_bytes())
    snakemake(fresh, "--cores", "2", *(str(p.relative_to(repo)) for p in before))
    for path in before:
        assert path.read_bytes() != before[path]
        assert path.read_bytes() == (fresh / path.relative_to(repo)).read_bytes(), path


@pytest.mark.slow
@pytest.mark.parametrize("module", ["seeds", "splits", "costs"])
def test_editing_split_or_cost_code_retrains_in_one_run(run_copy, module):
    """The first run after the edit retrains every shard."""
    code = run_copy / "budgetboost" / "data" / f"{module}.py"
    code.write_text(code.read_text() + "\n# an edit\n")
    rules = planned_rules(run_copy)
    assert rules["train"] == len(shard_paths(run_copy))
    assert rules["binarize"] == 0
    if module == "seeds":  # then a single run leaves nothing stale behind
        snakemake(run_copy, "--cores", "2")
        assert planned_jobs(run_copy) == []


@pytest.mark.slow
def test_a_partly_filled_last_block_is_recomputed(run_copy):
    """Raising the trials within the last block re-runs that block only; earlier blocks keep
    their bytes and the new rows equal a run made with the final count from the start."""
    config = load_config(repo=run_copy)
    size, trials = config["block_size"], config["datasets"]["heart"]["trials"]
    before = {p: p.read_bytes() for p in shard_paths(run_copy)}
    last = trials // size
    for total in (trials + 1, trials + 2):
        edit_config(run_copy, lambda c, n=total: c["datasets"]["heart"].update(trials=n))
        trains = {p for p in planned_outputs(run_copy, "train") if "/shards/" in p}
        assert trains == {
            f"{RESULTS}/shards/heart/uniform_0_2/{a}/block-{last}.parquet"
            for a, spec in config["algorithms"].items()
            if spec.get("trials", np.inf) > trials  # capped ones keep their first trials
        }
        snakemake(run_copy, "--cores", "2", *sorted(trains))  # the shards: no results rules
    assert {p: p.read_bytes() for p in before} == before
    rows = all_rows(run_copy, dataset="heart")
    assert sorted(rows.trial.unique()) == list(range(trials + 2))


@pytest.mark.slow
def test_a_url_source_is_downloaded_then_binarized(tmp_path):
    """The download rule fetches a `url` source (served here from 127.0.0.1) by checksum."""
    repo = copy_repo(tmp_path / "repo")
    handler = functools.partial(
        http.server.SimpleHTTPRequestHandler, directory=str(repo / "resources")
    )
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/heart.parquet"
        _heart_as(repo, "heart_url", {"type": "url", "url": url})
        assert planned_rules(repo, f"{RESULTS}/data/heart_url.parquet") == {
            "download": 1,
            "binarize": 1,
        }
        snakemake(repo, "--cores", "1", f"{RESULTS}/data/heart_url.parquet")
    finally:
        server.shutdown()
        thread.join()
    fetched = repo / "resources/downloads/heart_url/heart.parquet"
    assert fetched.read_bytes() == (repo / "resources/heart.parquet").read_bytes()
    assert (repo / f"{LOGS}/download/heart_url/heart.parquet.log").is_file()
    frame = read_table(repo / f"{RESULTS}/data/heart_url.parquet")
    assert frame.shape == (270, 1 + 371)


# --------------------------------------------------------------------- determinism


def _heart_only(config: dict, block_size: int) -> None:
    config["block_size"] = block_size
    config["datasets"] = {"heart": {**config["datasets"]["heart"], "cost_models": ["uniform_0_2"]}}
    config["cost_models"] = {k: config["cost_models"][k] for k in ("uniform_0_2",)}
    config["algorithms"] = {k: config["algorithms"][k] for k in ("smoothed", "adaboost_rs")}


@pytest.mark.slow
def test_shards_are_byte_identical_with_one_core(base_run, tmp_path):
    """The base run used --cores 2; the same shards made one at a time are the same bytes."""
    repo = copy_repo(tmp_path / "repo")
    size = load_config(repo=repo)["block_size"]
    edit_config(repo, lambda c: _heart_only(c, size))
    snakemake(repo, "--cores", "1")
    made = shard_paths(repo)
    assert made
    for path in made:
        assert path.read_bytes() == (base_run / path.relative_to(repo)).read_bytes(), path


def _one_trial_blocks_by_cost(config: dict) -> None:
    """Blocks of one trial, by their expected cost: no block cap, a tiny time target."""
    _heart_only(config, 1)
    del config["block_size"]
    config["block_seconds"] = 1e-6


@pytest.mark.slow
@pytest.mark.parametrize("blocking", [_one_trial_blocks_by_cost, lambda c: _heart_only(c, 1)])
def test_results_do_not_depend_on_the_blocks(base_run, tmp_path, blocking):
    """The same rows whatever the blocks: cut by their expected cost or by a cap, against
    the base run's blocks of three (the paths' blocks change with them)."""
    repo = copy_repo(tmp_path / "repo")
    edit_config(repo, blocking)
    snakemake(repo, "--cores", "2")
    trials = load_config(repo=repo)["datasets"]["heart"]["trials"]
    assert len(shard_paths(repo, algorithm="smoothed")) == trials
    for algorithm in ("smoothed", "adaboost_rs"):  # the copies run heart's U[0, 2] alone
        pd.testing.assert_frame_equal(
            all_rows(repo, dataset="heart", algorithm=algorithm),
            all_rows(base_run, dataset="heart", algorithm=algorithm, cost_model="uniform_0_2"),
        )
    if HAS_RESULTS:
        # aggregates of the same rows: compare the heart rows of both summaries
        ours = read_table(repo / f"{RESULTS}/summary/summary.parquet")
        theirs = read_table(base_run / f"{RESULTS}/summary/summary.parquet")
        keys = [c for c in ("dataset", "cost_model", "algorithm", "budget") if c in ours]
        theirs = theirs[
            (theirs.dataset == "heart")
            & (theirs.cost_model == "uniform_0_2")
            & theirs.algorithm.isin(["smoothed", "adaboost_rs"])
        ]
        pd.testing.assert_frame_equal(
            ours.sort_values(keys, ignore_index=True), theirs.sort_values(keys, ignore_index=True)
        )


# --------------------------------------------------------------------- a killed run


@pytest.mark.slow
def test_a_killed_run_completes_identically(base_run, tmp_path):
    repo = copy_repo(tmp_path / "repo")
    edit_config(repo, lambda c: _heart_only(c, 1))
    cmd = [SNAKEMAKE, "--cores", "2", "--configfile", TEST_CONFIG]
    proc = subprocess.Popen(
        cmd, cwd=repo, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    incomplete = repo / ".snakemake" / "incomplete"
    deadline = time.monotonic() + 120
    try:  # wait until a train job is under way, then kill everything with SIGKILL
        while time.monotonic() < deadline and proc.poll() is None:
            if (
                list(repo.glob(f"{LOGS}/train/*/*/*/*.log"))
                and incomplete.is_dir()
                and any(incomplete.iterdir())
            ):
                break
            time.sleep(0.05)
        assert proc.poll() is None, "the run finished before it could be killed"
        os.killpg(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    shards_after_kill = len(shard_paths(repo))
    assert shards_after_kill < 2 * load_config(repo=repo)["datasets"]["heart"]["trials"]
    snakemake(repo, "--unlock")
    snakemake(repo, "--cores", "2", "--rerun-incomplete")
    for algorithm in ("smoothed", "adaboost_rs"):
        pd.testing.assert_frame_equal(
            all_rows(repo, algorithm=algorithm),
            all_rows(base_run, dataset="heart", algorithm=algorithm, cost_model="uniform_0_2"),
        )
    assert not list(repo.glob(f"{RESULTS}/**/.*.tmp"))
    assert planned_jobs(repo) == []


@pytest.mark.slow
def test_the_dry_run_asks_for_the_configs_resources():
    """A real ``snakemake -n`` through the SLURM profile (tests/slurm/count_submissions.py):
    each job of the full-size config asks for what config/full_size.yaml measured."""
    import subprocess
    import sys

    import yaml

    repo = REPO
    asked = yaml.safe_load((repo / "config/full_size.yaml").read_text())["resources"]
    out = subprocess.run(
        [
            sys.executable,
            "tests/slurm/count_submissions.py",
            "--configfile",
            "config/full_size.yaml",
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:]}
    for rule, values in asked.items():
        assert rows[rule][2:4] == [str(values["mem_mb"]), str(values["runtime"])], rule
    # train and path jobs go out in bundles of 16 components (a path block with the
    # jobs reading it is one component), the three binarize jobs one each
    jobs = {rule: int(row[1]) for rule, row in rows.items() if len(row) > 1 and row[1].isdigit()}
    bundles, single = map(int, re.search(r"submitted: (\d+) bundles \+ (\d+) single", out).groups())
    assert single == jobs["binarize"] == 3
    components = bundled_components(load_config("config/full_size.yaml"))
    assert jobs["train"] + jobs["adaboost_path"] >= components
    assert math.ceil(components / 16) <= bundles <= components
