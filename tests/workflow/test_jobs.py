"""What a job guarantees whatever it runs and whatever happens to its outputs:
the real ``snakemake`` on one dataset and trial, with estimators that misbehave
(``tests/fixtures/misbehaving_estimators.py``), shards edited or cut short, estimator code
outside the repository, and two configs in one repository (marker ``slow``)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from helpers import (
    LOGS,
    REPO,
    RESULTS,
    SNAKEMAKE,
    TEST_CONFIG,
    copy_repo,
    edit_config,
    planned_jobs,
    planned_outputs,
    runtime_env,
    snakemake,
)

from budgetboost.data.io import read_table

pytestmark = pytest.mark.slow


def shard(algorithm: str) -> str:
    return f"{RESULTS}/shards/heart/uniform_0_2/{algorithm}/block-0.parquet"


def train_log(algorithm: str) -> str:
    return f"{LOGS}/train/heart/uniform_0_2/{algorithm}/block-0.log"


def own_estimators(repo: Path, algorithms: dict[str, str], **resources) -> None:
    """heart, U[0, 2], one trial, the algorithms ``{name: "module:Class"}``; the test's
    estimator modules beside the Snakefile."""
    shutil.copy(REPO / "tests/external_estimator.py", repo)
    shutil.copy(REPO / "tests/fixtures/misbehaving_estimators.py", repo)

    def edit(config):
        config["datasets"] = {"heart": {"cost_models": ["uniform_0_2"], "trials": 1}}
        config["cost_models"] = {"uniform_0_2": config["cost_models"]["uniform_0_2"]}
        config["algorithms"] = {name: {"estimator": cls} for name, cls in algorithms.items()}
        if resources:
            config["resources"] = {"train": resources}

    edit_config(repo, edit)


def run(repo: Path, *args: str, **kwargs):
    return snakemake(repo, *args, "--cores", "1", pythonpath=(str(repo),), **kwargs)


def one_line_error(proc, start: str) -> str:
    """The job's error line: there, and no traceback on the console."""
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "Traceback" not in output, output[-3000:]
    lines = [line for line in output.splitlines() if line.startswith(start)]
    assert len(lines) == 1, output[-3000:]
    return lines[0]


def test_an_estimator_cannot_move_or_write_the_jobs_outputs(tmp_path, monkeypatch):
    """An estimator's ``chdir`` does not send the shard to another folder, its writes into
    ``results/`` are never read as results, an edited shard is refused and a truncated one fails
    naming the way out."""
    repo = copy_repo(tmp_path / "repo")
    cheap, wanderer = "external_estimator:CheapestStump", "misbehaving_estimators:Wanderer"
    own_estimators(repo, {"cheap": cheap, "wanderer": wanderer})
    run(repo, shard("cheap"))
    honest = (repo / shard("cheap")).read_bytes()
    monkeypatch.setenv("MISBEHAVE_TARGET", str(repo / shard("cheap")))
    run(repo, shard("wanderer"))
    monkeypatch.delenv("MISBEHAVE_TARGET")
    # its working directory was a scratch folder, restored afterwards: the shard is where it
    # belongs, and what it wrote by relative paths went nowhere
    assert (repo / shard("wanderer")).is_file()
    assert not list(repo.rglob("evil.md")) and not (repo / "results/summary").exists()
    assert not list(repo.rglob("results-elsewhere.parquet"))
    assert "wrote files there (removed): results" in (repo / train_log("wanderer")).read_text()
    # by an absolute path it edited another job's shard, metadata kept: refused, named
    assert (repo / shard("cheap")).read_bytes() != honest
    summary = f"{RESULTS}/summary/summary.parquet"
    # the first job reading the shard names it: the aggregate
    line = one_line_error(run(repo, summary, check=False), "rule aggregate")
    assert line.startswith(
        "rule aggregate: CorruptTableError: "
        f"{shard('cheap')}: its values are not those it "
        "was written with (content checksum mismatch: edited after its job wrote it); it is "
        f"not read as a result. Rebuild it: run the same snakemake command with --forcerun "
        f"{shard('cheap')} (or delete it and run again)"
    )
    assert not (repo / summary).exists()
    run(repo, summary, "--forcerun", shard("cheap"))
    assert (repo / shard("cheap")).read_bytes() == honest  # rebuilt, byte for byte
    assert (read_table(repo / summary)["error_mean"] > 0).all()
    # cut short: named likewise, then rebuilt the same way
    (repo / shard("cheap")).write_bytes(honest[: len(honest) // 2])
    line = one_line_error(run(repo, summary, "--forcerun", "aggregate", check=False), "rule ")
    assert f"{shard('cheap')}: not a readable Parquet file (" in line
    assert f"--forcerun {shard('cheap')}" in line
    run(repo, summary, "--forcerun", shard("cheap"))
    assert (repo / shard("cheap")).read_bytes() == honest


def test_a_job_past_its_runtime_stops_naming_algorithm_dataset_and_trial(tmp_path):
    """An estimator that hangs in ``fit`` is stopped at its runtime on a local run, naming
    algorithm, dataset and trial."""
    repo = copy_repo(tmp_path / "repo")
    own_estimators(repo, {"sleeper": "misbehaving_estimators:Sleeper"}, runtime=1)
    proc = run(repo, shard("sleeper"), check=False, timeout=300)
    line = one_line_error(proc, "rule train ")
    assert line.startswith(
        "rule train (dataset=heart, cost_model=uniform_0_2, algorithm=sleeper, block=0): "
        "JobTimeout: still running after its 1 min while running algorithm 'sleeper', "
        "dataset 'heart', cost model 'uniform_0_2', trial 0: the runtime of rule train"
    )
    assert line.endswith(f"(traceback: {train_log('sleeper')})")
    assert not (repo / shard("sleeper")).exists()


@pytest.mark.parametrize(
    ("cls", "start"),
    [
        ("Quitter", "SystemExit: sys.exit(0) was called inside the job"),
        ("Exiter", "EstimatorExit: os._exit(0) was called inside the job"),
        ("Interrupter", "KeyboardInterrupt: interrupted inside the job"),
        ("Peeker", "ContractError: algorithm 'odd', dataset 'heart', cost model 'uniform_0_2'"),
        ("OneBudgetPeekerAt4", "ContractError: algorithm 'odd', dataset 'heart', cost model "),
        ("ThreeColumnVote", "ContractError: algorithm 'odd', dataset 'heart', cost model "),
        ("ThreeColumnVoteSaysAll", "ContractError: algorithm 'odd', dataset 'heart', cost "),
        (
            "SizePeeker",
            "ContractError: algorithm 'odd', dataset 'heart', cost model 'uniform_0_2', trial "
            "0, budget 2: the model reads columns it does not pay for: replacing the columns "
            "outside the feature groups each test example reads by other values changed ",
        ),
    ],
)
def test_an_exit_or_an_interrupt_in_fit_fails_the_job_in_one_line(tmp_path, cls, start):
    """``sys.exit(0)``, ``os._exit(0)`` or a KeyboardInterrupt in ``fit`` fails the job in one line;
    a model reading a column it reports not paying for (at every budget, at one budget
    only, voting with three columns and reporting one, or only when asked about more rows than the
    check samples) fails its job."""
    repo = copy_repo(tmp_path / "repo")
    own_estimators(repo, {"odd": f"misbehaving_estimators:{cls}"})
    line = one_line_error(run(repo, shard("odd"), check=False), "rule train ")
    assert f"algorithm=odd, block=0): {start}" in line
    assert "Traceback" in (repo / train_log("odd")).read_text()  # the log has it all
    assert not (repo / shard("odd")).exists()


def test_a_segfault_in_fit_fails_the_job_in_one_line(tmp_path):
    """Poor case: a segfault in ``fit`` ended the job with Snakemake's multi-line report and
    no line naming the algorithm, dataset, trial or signal; the threads' tracebacks
    (faulthandler) stay in the log."""
    repo = copy_repo(tmp_path / "repo")
    own_estimators(repo, {"odd": "misbehaving_estimators:Crasher"})
    line = one_line_error(run(repo, shard("odd"), check=False), "rule train ")
    assert line == (
        "rule train (dataset=heart, cost_model=uniform_0_2, algorithm=odd, block=0): "
        "the job's process died by SIGSEGV (Segmentation fault) while running algorithm "
        "'odd', dataset 'heart', cost model 'uniform_0_2', trial 0 (traceback: "
        f"{train_log('odd')})"
    )
    log = (repo / train_log("odd")).read_text()
    assert "Fatal Python error: Segmentation fault" in log and "_fit" in log
    assert not (repo / shard("odd")).exists()


def test_a_second_run_on_a_results_folder_stops_at_its_start(tmp_path):
    """Poor case: two runs on one results folder started 4 s apart both ran the same job.
    Snakemake's own lock is checked, then written, once a run has planned: a second run that
    planned faster than the first found none. Simulated here by removing the first run's
    Snakemake locks while its job runs; the second stops before any job, in one line, and a
    run killed outright (no hooks run) leaves nothing that blocks the next."""
    repo = copy_repo(tmp_path / "repo")
    own_estimators(repo, {"sleeper": "misbehaving_estimators:Sleeper"})
    env = runtime_env()
    env["PYTHONPATH"] = os.pathsep.join([str(repo), env["PYTHONPATH"]])
    first = subprocess.Popen(
        [SNAKEMAKE, shard("sleeper"), "--cores", "1", "--configfile", TEST_CONFIG],
        cwd=repo,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        log = repo / train_log("sleeper")
        deadline = time.monotonic() + 300
        while "trial 0" not in (log.read_text() if log.is_file() else ""):
            assert first.poll() is None and time.monotonic() < deadline
            time.sleep(1)
        for lock in (repo / ".snakemake/locks").iterdir():
            lock.unlink()
        second = run(repo, shard("sleeper"), check=False, timeout=300)
        start = f"results folder {RESULTS} is in use by another snakemake run (pid {first.pid} "
        line = one_line_error(second, start)
        assert line.endswith(
            "two runs on one folder would run the same jobs: wait for it to end, or stop it. "
            f"The lock ({RESULTS}/.budgetboost-run) ends with its process, so a run that has "
            "ended never holds it; runs whose jobs share no file may skip it with --nolock"
        )
        assert "rule train:" not in second.stdout + second.stderr  # no job started
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait()
    proc = run(repo, f"{RESULTS}/data/heart.parquet", "--forcerun", "binarize", check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_an_estimator_reporting_its_own_error_stops_at_planning(tmp_path):
    """A plug-in whose own evaluate_at_budgets reports half its error stops at planning in one line,
    no job run (a train job never calls it)."""
    repo = copy_repo(tmp_path / "repo")
    own_estimators(repo, {"odd": "misbehaving_estimators:HalfError"})
    proc = run(repo, f"{RESULTS}/summary/summary.parquet", check=False)
    line = one_line_error(proc, "config algorithms.odd.estimator: ")
    assert line == (
        "config algorithms.odd.estimator: misbehaving_estimators:HalfError overrides "
        "evaluate_at_budgets, which a train job never calls: it computes the errors from the "
        "labels of _scores_and_costs and the costs from the feature groups _groups_read says "
        "each example reads; remove the override and implement those hooks (see "
        "budgetboost.BudgetedEstimator, 'Writing an estimator')"
    )
    assert len((proc.stdout + proc.stderr).splitlines()) < 10
    assert not (repo / RESULTS).exists()


@pytest.mark.parametrize("cls", ["Moody", "Tally"])
def test_a_method_that_is_not_reproducible_fails_the_run(tmp_path, cls):
    """An estimator drawing from global random state (Moody) or depending on the fits before it
    in its process (Tally) reads only what it pays for; the train job that checks its
    reproducibility fits its first trial again after the block's others, and the difference
    fails that job, so the run, before the findings, in one line."""
    repo = copy_repo(tmp_path / "repo")
    own_estimators(repo, {"odd": f"misbehaving_estimators:{cls}"})
    summary = f"{RESULTS}/summary/summary.parquet"
    line = one_line_error(run(repo, summary, check=False), "rule train ")
    assert line.startswith(
        "rule train (dataset=heart, cost_model=uniform_0_2, algorithm=odd, block=0): "
        "ContractError: algorithm 'odd', dataset 'heart', cost model 'uniform_0_2', trial 0: "
        "not reproducible: fitted again with the same parameters and random_state on the same "
        "rows, tradeoff at budget "
    )
    assert not (repo / summary).exists() and not (repo / shard("odd")).exists()
    assert "trial 0: fitted again, to check that it is reproducible" in (
        (repo / train_log("odd")).read_text()
    )


def test_what_an_estimator_prints_goes_to_the_jobs_log(tmp_path):
    """What an estimator prints (8 MB here) goes to the job's log, not the console."""
    repo = copy_repo(tmp_path / "repo")
    own_estimators(repo, {"chatter": "misbehaving_estimators:Chatter"})
    proc = run(repo, shard("chatter"))
    assert len(proc.stdout) + len(proc.stderr) < 20_000
    assert "x" * 99 not in proc.stdout + proc.stderr
    log = (repo / train_log("chatter")).read_text()
    # 8 MB per fit: the trial's and its refit's, this block holding chatter's check
    assert "what the job printed (16,000,000 bytes):" in log
    assert "bytes of output left out ..." in log and 1 << 20 < len(log) < 1.2 * (1 << 20)
    assert log.rstrip().splitlines()[-1].endswith(" MiB")  # the peak memory, last


def test_an_estimator_module_outside_the_repository_is_part_of_its_jobs_code(tmp_path):
    """Editing an estimator on PYTHONPATH, or a helper it imports, re-runs its shards."""
    repo = copy_repo(tmp_path / "repo")
    site = tmp_path / "site"
    site.mkdir()
    shutil.copy(REPO / "tests/external_estimator.py", site / "my_estimators.py")
    (site / "my_helpers.py").write_text("SHIFT = 0.0\n")
    (site / "my_outside.py").write_text(
        "from my_estimators import CheapestStump\nimport my_helpers\n\n\n"
        "class Shifted(CheapestStump):\n    shift = my_helpers.SHIFT\n"
    )
    edit_config(
        repo,
        lambda c: (
            c.update(datasets={"heart": {"cost_models": ["uniform_0_2"], "trials": 1}}),
            c.update(cost_models={"uniform_0_2": c["cost_models"]["uniform_0_2"]}),
            c.update(algorithms={"mine": {"estimator": "my_outside:Shifted"}}),
        ),
    )
    env = (str(site),)
    snakemake(repo, "--cores", "1", shard("mine"), pythonpath=env)
    assert planned_jobs(repo, shard("mine"), pythonpath=env) == []
    for name in ("my_helpers.py", "my_outside.py", "my_estimators.py"):
        path = site / name
        path.write_text(path.read_text() + "\n# an edit\n")
        assert shard("mine") in planned_outputs(repo, "train", shard("mine"), pythonpath=env)
        snakemake(repo, "--cores", "1", shard("mine"), pythonpath=env)


def test_each_config_writes_to_a_folder_of_its_own(run_copy, tmp_path):
    """config/test.yaml writes to a results folder of its own, so a dry run of the default config
    plans its train jobs without counting the test run's shards."""
    assert (run_copy / RESULTS / ".budgetboost-config").read_text().startswith(TEST_CONFIG)
    assert not (run_copy / "results/shards").exists() and not (run_copy / "logs/train").exists()
    jobs = planned_jobs(run_copy, "--configfile", "config/config.yaml")
    outputs = [out for _, outs in jobs for out in outs]
    assert outputs and not [out for out in outputs if out.startswith(f"{RESULTS}/")]
    # another config pointed at the test config's folder stops before any job
    repo = copy_repo(tmp_path / "other")
    shutil.copytree(run_copy / RESULTS, repo / RESULTS)
    shutil.copy(repo / TEST_CONFIG, repo / "config/other.yaml")
    proc = snakemake(
        repo,
        "-n",
        "--configfile",
        "config/other.yaml",
        "--config",
        f"results={RESULTS}",
        check=False,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0 and len(output.splitlines()) < 10, output
    assert (
        f"config results: {RESULTS}/ holds the outputs of {TEST_CONFIG} "
        f"({RESULTS}/.budgetboost-config); running config/other.yaml there would overwrite them"
    ) in output


@pytest.mark.slow
def test_a_train_job_that_breaks_the_contract_fails_and_writes_no_shard(tmp_path):
    """Real ``snakemake``: the external estimators run as a user's would (a module beside the
    Snakefile, on PYTHONPATH); each breaker's train job fails naming algorithm, dataset, cost
    model, trial and budget, and leaves no shard; the honest one's shard is written."""
    repo = copy_repo(tmp_path / "repo")
    shutil.copy(REPO / "tests" / "external_estimator.py", repo / "my_estimators.py")
    names = ["CheapestStump", "Overspending", "NaNCosts", "NaNScores"]

    def edit(config):
        config["datasets"] = {"heart": {"cost_models": ["uniform_0_2"], "trials": 2}}
        config["cost_models"]["uniform_0_2"].pop("algorithms", None)
        for name in names:
            config["algorithms"][name.lower()] = {"estimator": f"my_estimators:{name}"}

    edit_config(repo, edit)
    shards = [f"{RESULTS}/shards/heart/uniform_0_2/{n.lower()}/block-0.parquet" for n in names]
    env = runtime_env()
    env["PYTHONPATH"] = os.pathsep.join([env["PYTHONPATH"], str(repo)])
    proc = subprocess.run(
        [SNAKEMAKE, *shards, "--cores", "2", "--keep-going", "--configfile", TEST_CONFIG],
        cwd=repo,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    output = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert (repo / shards[0]).exists(), output[-3000:]
    for name, detail in [
        ("overspending", "spent 25 exceeds the budget 2"),
        ("nancosts", "costs.rounds is nan at budget 2"),
        ("nanscores", "scores are not finite"),
    ]:
        assert not (repo / f"{RESULTS}/shards/heart/uniform_0_2/{name}/block-0.parquet").exists()
        expected = (
            f"ContractError: algorithm '{name}', dataset 'heart', cost model 'uniform_0_2', "
            "trial 0, budget 2: "
        )
        assert expected in output, output[-3000:]
        assert detail in output


def test_a_shard_made_by_another_config_is_never_read(tmp_path):
    """A shard copied from a run with ``max_rounds: 3`` over this run's (``max_rounds: 10``) is
    never read: it is newer than its inputs and Snakemake has no params of its own for it, but its
    identity is not the plan's, so the summary stops, naming the file and the command that rebuilds
    it, which gives back this config's shard."""
    runs = {}
    for rounds in (10, 3):
        repo = runs[rounds] = copy_repo(tmp_path / f"rounds-{rounds}")

        def edit(config, rounds=rounds):
            config["datasets"] = {"heart": {"cost_models": ["uniform_0_2"], "trials": 1}}
            config["cost_models"] = {"uniform_0_2": config["cost_models"]["uniform_0_2"]}
            config["algorithms"] = {
                "greedy": {
                    "estimator": "BudgetedBoost",
                    "params": {"criterion": "greedy", "max_rounds": rounds},
                }
            }

        edit_config(repo, edit)
    summary = f"{RESULTS}/summary/summary.parquet"
    ours, theirs = runs[10] / shard("greedy"), runs[3] / shard("greedy")
    run(runs[10], summary)
    run(runs[3], shard("greedy"))
    honest = ours.read_bytes()
    assert theirs.read_bytes() != honest
    shutil.copy(theirs, ours)  # newer than every input of its job
    assert summary in planned_outputs(runs[10], "aggregate", summary)
    assert not planned_outputs(runs[10], "train", summary)  # Snakemake takes it as current
    # the first job reading it names it (the aggregate): never summarised
    proc = run(runs[10], summary, check=False)
    error = f"IdentityError: {shard('greedy')}: not made by this config's plan "
    lines = [
        line
        for line in (proc.stdout + proc.stderr).splitlines()
        if line.startswith("rule ") and error in line
    ]
    assert proc.returncode != 0 and len(lines) == 1, proc.stderr[-3000:]
    line = lines[0]
    assert line.startswith("rule aggregate: "), line
    assert f"Rebuild it: run the same snakemake command with --forcerun {shard('greedy')}" in line
    run(runs[10], summary, "--forcerun", shard("greedy"))
    assert ours.read_bytes() == honest
    assert planned_jobs(runs[10], summary) == []
