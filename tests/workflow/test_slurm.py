"""The SLURM profile against a real one-node SLURM (marker ``slurm``).

A session fixture installs Debian's SLURM and munge if needed (root and apt-get required),
starts a one-node cluster (``tests/slurm/localslurm.py``) and stops it afterwards, even when
a test fails. The runs use ``workflow/profiles/slurm`` unchanged, followed by
``tests/slurm/profile`` for what is specific to the test machine (2 CPUs, partition
``debug``, status from ``squeue`` because there is no accounting daemon).

What ran where is read from SLURM itself: ``squeue --states=all`` lists finished jobs for
``MinJobAge`` (an hour) after they end.
"""

from __future__ import annotations

import importlib.util
import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from helpers import REPO, bundled_components

pytestmark = pytest.mark.slurm

SLURM_TESTS = REPO / "tests" / "slurm"
PROFILE = REPO / "workflow" / "profiles" / "slurm"
TEST_PROFILE = SLURM_TESTS / "profile"
# Wall-clock bound of one snakemake run; snakemake waits for running jobs on SIGTERM,
# hence `timeout -k` (SIGKILL 10 s later).
RUN_TIMEOUT = 900


def _load_localslurm():
    name = "budgetboost_tests_localslurm"
    spec = importlib.util.spec_from_file_location(name, SLURM_TESTS / "localslurm.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


localslurm = _load_localslurm()


def _unavailable(reason: str) -> None:
    """Skip, except in CI (``CI=true``), where a missing SLURM is a failure."""
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but the SLURM test cannot run: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def slurm(tmp_path_factory):
    """A running one-node SLURM cluster; its daemons are stopped at the end of the session."""
    if importlib.util.find_spec("snakemake_executor_plugin_slurm") is None:
        _unavailable(
            "snakemake-executor-plugin-slurm is not installed (a dependency in "
            "pyproject.toml: pip install -e .)"
        )
    if os.geteuid() != 0:
        _unavailable("needs root to install and start slurmctld/slurmd/munged")
    if localslurm.missing_binaries() and shutil.which("apt-get") is None:
        _unavailable(
            f"SLURM is not installed ({', '.join(localslurm.missing_binaries())} missing) "
            "and apt-get is not available to install it"
        )
    cluster = localslurm.LocalSlurm(state_dir=tmp_path_factory.mktemp("slurm-state"))
    try:
        try:
            cluster.start()
        except localslurm.SlurmUnavailable as err:
            _unavailable(str(err))
        yield cluster
    finally:
        cluster.stop()


def slurm_jobs() -> dict[str, dict[str, str]]:
    """Every job slurmctld still knows about: id -> name, state, comment."""
    out = subprocess.run(
        ["squeue", "--states=all", "-h", "-o", "%i|%j|%T|%k"],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    ).stdout
    jobs = {}
    for line in out.splitlines():
        job_id, name, state, comment = line.strip().split("|", 3)
        jobs[job_id] = {"name": name, "state": state, "comment": comment}
    return jobs


def run_snakemake(workdir: Path, *args: str | Path) -> subprocess.CompletedProcess:
    """Run snakemake in ``workdir``, bounded by :data:`RUN_TIMEOUT`; fail with its log."""
    cmd = [
        "timeout",
        "-k",
        "10",
        str(RUN_TIMEOUT),
        sys.executable,
        "-m",
        "snakemake",
        *map(str, args),
    ]
    proc = subprocess.run(
        cmd, cwd=workdir, capture_output=True, text=True, timeout=RUN_TIMEOUT + 30
    )
    assert proc.returncode == 0, (
        f"{' '.join(cmd)} exited with {proc.returncode} in {workdir}\n"
        f"{proc.stdout[-3000:]}\n{proc.stderr[-8000:]}"
    )
    return proc


def slurm_run(cluster, workdir: Path, *args: str | Path) -> dict[str, dict[str, str]]:
    """Run snakemake through the SLURM profile as a user would (plus the test machine's
    overrides); return the SLURM jobs the run submitted."""
    before = set(slurm_jobs())
    run_snakemake(
        workdir,
        "--profile",
        PROFILE,
        "--profile",
        TEST_PROFILE,
        "--workflow-profile",
        "none",
        "--cores",
        str(min(2, cluster.cpus)),
        *args,
    )
    return {job_id: job for job_id, job in slurm_jobs().items() if job_id not in before}


def test_cluster_is_up(slurm):
    assert slurm.node_idle()
    assert localslurm.SLURM_CONF.read_text() == slurm.config_text()


TINY_SNAKEFILE = """\
localrules:
    all,


rule all:
    input:
        expand("out/{i}.txt", i=range(5)),


rule train:
    output:
        "out/{i}.txt",
    threads: 1
    resources:
        mem_mb=100,
        runtime=5,
    shell:
        "echo $SLURM_JOB_ID > {output}"
"""


def test_profile_bundles_train_jobs_into_slurm_jobs(slurm, tmp_path):
    """Five `train` jobs go out as two SLURM jobs (bundles of 4); `all` stays local."""
    (tmp_path / "Snakefile").write_text(TINY_SNAKEFILE)
    submitted = slurm_run(slurm, tmp_path)
    assert len(submitted) == 2, submitted
    assert {job["state"] for job in submitted.values()} == {"COMPLETED"}, submitted
    assert all(job["comment"].startswith("rule_train") for job in submitted.values())
    ran_in = {p.read_text().strip() for p in (tmp_path / "out").glob("*.txt")}
    assert ran_in == set(submitted), "every output must come from one of the run's jobs"


# -- the real pipeline -----------------------------------------------------------------
PIPELINE_FILES = ("Snakefile", "workflow", "config", "resources", "profiles")
SHARDS = Path("results/test/shards")  # the test config's own folder


def copy_pipeline(dest: Path) -> Path:
    """Copy what the workflow needs (no results, logs or .snakemake) to ``dest``."""
    dest.mkdir()
    for name in PIPELINE_FILES:
        src = REPO / name
        if src.is_symlink():
            (dest / name).symlink_to(os.readlink(src))
        elif src.is_dir():
            shutil.copytree(src, dest / name)
        elif src.exists():
            shutil.copy2(src, dest / name)
    return dest


SLURM_ALGORITHMS = (
    "adaboost",
    "adaboost_bt",
    "greedy",
    "smoothed",
    "adaboost_rs",
    "lightgbm_stumps",
)


def shrink_config(workdir: Path) -> dict:
    """Cut the copy's test config to one dataset and six algorithms, both regimes kept: the
    runs through SLURM and locally are the same pipeline, so a smaller config checks the same
    things (bundles, local rules, byte-identical shards, resume) in a fraction of the time."""
    path = workdir / "config" / "test.yaml"
    config = yaml.safe_load(path.read_text())
    config["datasets"] = {"heart": config["datasets"]["heart"]}
    config["cost_models"] = {
        k: config["cost_models"][k] for k in config["datasets"]["heart"]["cost_models"]
    }
    for model in config["cost_models"].values():
        if "algorithms" in model:
            model["algorithms"] = [a for a in model["algorithms"] if a in SLURM_ALGORITHMS]
    config["algorithms"] = {a: config["algorithms"][a] for a in SLURM_ALGORITHMS}
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return config


def shard_bytes(workdir: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(workdir)): p.read_bytes()
        for p in sorted((workdir / SHARDS).rglob("*.parquet"))
    }


def shards_by_job(workdir: Path, job_ids) -> dict[str, list[str]]:
    """Shard path -> SLURM jobs whose log says they produced it (logs are kept by the
    test profile)."""
    logs = workdir / ".snakemake" / "slurm_logs"
    produced: dict[str, list[str]] = {}
    for job_id in job_ids:
        for log in logs.rglob(f"{job_id}.log"):
            for shard in set(re.findall(r"results/test/shards/\S+?\.parquet", log.read_text())):
                produced.setdefault(shard, []).append(job_id)
    return produced


def test_pipeline_through_slurm_equals_local_run(slurm, tmp_path):
    if not (REPO / "Snakefile").exists() or not (REPO / "config" / "test.yaml").exists():
        _unavailable("the pipeline (Snakefile, config/test.yaml) is not there yet")
    config = ("--configfile", "config/test.yaml")

    local = copy_pipeline(tmp_path / "local")
    config_doc = shrink_config(local)
    run_snakemake(local, "--cores", "2", "--workflow-profile", "none", *config)
    expected = shard_bytes(local)
    assert expected, "the local run wrote no shards"

    cluster = copy_pipeline(tmp_path / "cluster")
    shrink_config(cluster)
    submitted = slurm_run(slurm, cluster, *config)

    assert submitted, "nothing was submitted to SLURM"
    states = {job_id: job["state"] for job_id, job in submitted.items()}
    assert set(states.values()) == {"COMPLETED"}, states
    train_jobs = {i for i, job in submitted.items() if job["comment"].startswith("rule_train")}
    # Bundled 4 connected components per SLURM job by tests/slurm/profile: a block's
    # shared-path job joins the train jobs that read it
    components = bundled_components(config_doc)
    assert len(train_jobs) == math.ceil(components / 4), (components, submitted)
    local_rules = ("rule_aggregate", "rule_plot", "rule_claims", "rule_all")
    assert not [job for job in submitted.values() if job["comment"].startswith(local_rules)]
    produced = shards_by_job(cluster, train_jobs)
    assert set(produced) == set(expected), "every shard must come from a SLURM train job"
    assert all(len(jobs) == 1 for jobs in produced.values()), produced

    assert shard_bytes(cluster) == expected

    # Resume: a lost shard is redone by one SLURM job; nothing else is resubmitted.
    lost = sorted(expected)[0]
    (cluster / lost).unlink()
    resubmitted = slurm_run(slurm, cluster, *config)
    assert [job["comment"][:10] for job in resubmitted.values()] == ["rule_train"], resubmitted
    assert {job["state"] for job in resubmitted.values()} == {"COMPLETED"}
    assert shard_bytes(cluster) == expected
