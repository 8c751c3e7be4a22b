"""The SLURM partitions a run asks for, against sinfo's."""

from __future__ import annotations

import os
import stat

import pytest
from helpers import copy_repo, snakemake

from budgetboost.pipeline.partitions import (
    cluster_partitions,
    partition_problem,
    planning_problem,
    requested_partitions,
)


def fake_sinfo(folder, *partitions: str):
    """A ``sinfo`` listing ``partitions`` (the default one starred; each call leaves a line in
    ``folder/calls``) and a silent ``squeue``."""
    folder.mkdir(exist_ok=True)
    listing = "\n".join(
        [f"echo called >> {folder / 'calls'}", *(f"echo '{p}'" for p in partitions)]
    )
    for name, body in (("sinfo", listing), ("squeue", "")):
        path = folder / name
        path.write_text(f"#!/bin/sh\n{body}\nexit 0\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(folder)


def test_the_requested_partitions_are_read_as_written():
    resources = pytest.importorskip("snakemake.resources")
    given = resources.Resources.from_mapping({"slurm_partition": "long", "mem_mb": 100})
    blank = resources.Resources.from_mapping({"slurm_partition": ""})
    assert requested_partitions([given, blank, None, {"slurm_partition": "'short'"}]) == {
        "long",
        "short",
    }


def test_an_unknown_partition_is_named_with_the_clusters(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", fake_sinfo(tmp_path / "bin", "debug*", "long"), prepend=os.pathsep)
    assert cluster_partitions() == {"debug", "long"}
    assert partition_problem({"long"}, {"debug", "long"}) is None
    assert partition_problem({"lnog"}, None) is None  # no sinfo: no way to know
    problem = partition_problem({"lnog", "long"}, {"debug", "long"})
    assert problem.startswith("slurm_partition 'lnog' is not a partition of this cluster")
    assert "(sinfo lists debug, long)" in problem


def test_sinfo_is_asked_only_when_a_partition_is(monkeypatch, tmp_path):
    """A run that names no partition never waits on sinfo (without a controller it takes about
    ten seconds to fail, on every planning)."""
    monkeypatch.setenv("PATH", fake_sinfo(tmp_path / "bin", "debug*"), prepend=os.pathsep)
    calls = tmp_path / "bin" / "calls"
    assert planning_problem([{"mem_mb": 100}, None, {"slurm_partition": ""}]) is None
    assert not calls.exists()
    problem = planning_problem([{"mem_mb": 100}, {"slurm_partition": "lnog"}])
    assert problem.startswith("slurm_partition 'lnog' is not a partition of this cluster")
    assert calls.read_text().splitlines() == ["called"]


@pytest.mark.slow
def test_planning_stops_on_a_partition_sinfo_does_not_list(tmp_path):
    repo = copy_repo(tmp_path / "repo")
    folder = fake_sinfo(tmp_path / "bin", "debug*", "long")
    env_path = os.environ["PATH"]
    os.environ["PATH"] = folder + os.pathsep + env_path
    try:
        proc = snakemake(repo, "-n", "--set-resources", "train:slurm_partition=lnog", check=False)
        ok = snakemake(repo, "-n", "--set-resources", "train:slurm_partition=long", check=False)
    finally:
        os.environ["PATH"] = env_path
    assert proc.returncode != 0
    assert "slurm_partition 'lnog' is not a partition of this cluster" in proc.stdout + proc.stderr
    assert ok.returncode == 0, (ok.stdout + ok.stderr)[-2000:]
