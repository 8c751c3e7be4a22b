"""Shared helpers: throw-away copies of the repository and the real ``snakemake`` CLI."""

from __future__ import annotations

import atexit
import collections
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

import pytest
import yaml
from hypothesis import settings
from packaging.utils import canonicalize_name

# no test here is a timing test: hypothesis's 200 ms deadline per example would only make the
# property tests fail on a loaded machine (CI's two cores run the end-to-end tests too)
settings.register_profile("budgetboost", deadline=None)
settings.load_profile("budgetboost")

REPO = Path(__file__).resolve().parent.parent
#: markers of the tests a plain ``pytest`` leaves out (``--all`` or ``-m`` runs them)
OPT_IN = ("slow", "slurm")


def pytest_addoption(parser):
    parser.addoption(
        "--all",
        action="store_true",
        help="also run the slow end-to-end and the SLURM tests (what .ci/run runs)",
    )


def pytest_collection_modifyitems(config, items):
    """A plain ``pytest`` is the fast loop: tests marked slow or slurm run only with
    ``--all``, or when ``-m`` selects by marker."""
    if config.getoption("--all") or config.getoption("markexpr"):
        return
    kept = [item for item in items if not any(m in item.keywords for m in OPT_IN)]
    deselected = [item for item in items if item not in kept]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


@pytest.fixture(scope="session")
def built():
    """``built(name)``: the repository's dataset ``name`` binarized (registry entry, vendored
    file), once per test session; tests read it and never change it."""
    from budgetboost.data.datasets import build_binarized
    from budgetboost.data.registry import load_registry

    registry = load_registry(REPO / "config" / "datasets.yaml")
    return functools.cache(lambda name: build_binarized(name, registry[name], REPO))


#: what a run needs; results, logs and .snakemake are left behind
WORKFLOW_FILES = [
    "Snakefile",
    "profiles",
    "workflow",
    "config",
    "resources",
    "budgetboost",
    "pyproject.toml",
]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
TEST_CONFIG = "config/test.yaml"


def _copy_workflow(source: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "downloads", "local")
    for name in WORKFLOW_FILES:
        path = source / name
        if path.is_symlink():
            (dest / name).symlink_to(path.readlink())
        elif path.is_dir():
            shutil.copytree(path, dest / name, symlinks=True, ignore=ignore)
        elif path.exists():
            shutil.copy2(path, dest / name)
    return dest


@functools.cache
def _snapshot() -> Path:
    """One copy of the repository per test session, so that every run of the session uses
    the same code even while the working tree is being edited."""
    root = Path(tempfile.mkdtemp(prefix="budgetboost-snapshot-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return _copy_workflow(REPO, root / "repo")


def copy_repo(dest: Path) -> Path:
    """A copy of the workflow's files under ``dest`` (mtimes kept, symlinks kept)."""
    return _copy_workflow(_snapshot(), dest)


def clone_run(source: Path, dest: Path) -> Path:
    """A copy of a repository copy including its results and Snakemake metadata."""
    shutil.copytree(source, dest, symlinks=True)
    return dest


def _requirements(dist: str) -> list[str]:
    """Names of the distributions ``dist`` needs at run time (no extras, markers evaluated)."""
    from packaging.requirements import Requirement

    names = []
    for text in metadata.requires(dist) or []:
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            names.append(req.name)
    return names


@functools.cache
def runtime_modules() -> frozenset[str]:
    """Top-level modules of budgetboost's declared runtime dependencies, transitively."""
    seen, pending = set(), ["budgetboost"]
    while pending:
        name = canonicalize_name(pending.pop())
        if name in seen:
            continue
        seen.add(name)
        try:
            pending += _requirements(name)
        except metadata.PackageNotFoundError:
            continue
    return frozenset(
        module
        for module, dists in metadata.packages_distributions().items()
        if any(canonicalize_name(d) in seen for d in dists)
    )


def runtime_env() -> dict[str, str]:
    """The environment of a process that may import only the declared runtime dependencies
    (``tests/runtime_only/sitecustomize.py``): what ``pip install -e .`` alone gives."""
    env = dict(os.environ)
    guard = str(Path(__file__).resolve().parent / "runtime_only")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [guard, env.get("PYTHONPATH")]))
    env["BUDGETBOOST_RUNTIME_MODULES"] = ",".join(sorted(runtime_modules()))
    return env


def snakemake(
    repo: Path,
    *args: str,
    check: bool = True,
    timeout: float = 600,
    pythonpath: tuple[str, ...] = (),
) -> subprocess.CompletedProcess:
    """Run the real ``snakemake`` CLI in ``repo`` (the test config unless told otherwise),
    with only the declared runtime dependencies importable (:func:`runtime_env`), and
    ``pythonpath`` before the rest of ``PYTHONPATH``."""
    cmd = [SNAKEMAKE, *args]
    if "--configfile" not in args:
        cmd += ["--configfile", TEST_CONFIG]
    env = runtime_env()
    env["PYTHONPATH"] = os.pathsep.join([*pythonpath, env["PYTHONPATH"]])
    proc = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=timeout, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(cmd)} failed ({proc.returncode}) in {repo}:\n"
            f"{proc.stdout[-4000:]}\n{proc.stderr[-8000:]}"
        )
    return proc


_RULE = re.compile(r"^(?:local)?(?:checkpoint|rule) (\w+):$")
_OUTPUT = re.compile(r"^\s+output: (.*)$")


def planned_jobs(
    repo: Path, *args: str, pythonpath: tuple[str, ...] = ()
) -> list[tuple[str, tuple[str, ...]]]:
    """``(rule, outputs)`` of every job a dry run would execute (``[]``: nothing to do)."""
    proc = snakemake(repo, "-n", *args, pythonpath=pythonpath)
    text = proc.stdout + proc.stderr
    jobs, rule = [], None
    for line in text.splitlines():
        if match := _RULE.match(line):
            rule = match.group(1)
            jobs.append((rule, ()))
        elif rule and (match := _OUTPUT.match(line)):
            jobs[-1] = (rule, tuple(match.group(1).split(", ")))
    if not jobs and "Nothing to be done" not in text:
        raise AssertionError(f"could not parse the dry run:\n{text[-4000:]}")
    return jobs


def planned_rules(repo: Path, *args: str, pythonpath: tuple[str, ...] = ()) -> collections.Counter:
    """Jobs per rule of a dry run, without the target pseudo-rule ``all``."""
    jobs = planned_jobs(repo, *args, pythonpath=pythonpath)
    return collections.Counter(rule for rule, _ in jobs if rule != "all")


def planned_outputs(
    repo: Path, rule: str, *args: str, pythonpath: tuple[str, ...] = ()
) -> set[str]:
    """Outputs of the planned jobs of one rule."""
    jobs = planned_jobs(repo, *args, pythonpath=pythonpath)
    return {out for r, outputs in jobs if r == rule for out in outputs}


def edit_config(repo: Path, edit, name: str = TEST_CONFIG) -> dict:
    """Apply ``edit(config_dict)`` to a YAML config of ``repo``; return the new dict."""
    path = repo / name
    config = yaml.safe_load(path.read_text())
    edit(config)
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return config


@pytest.fixture(scope="module")
def data():
    """Toy data (60 rows, 4 features, labels -1/+1) of the estimator contract's tests."""
    import numpy as np

    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 4))
    y = np.where(X[:, 0] + 0.5 * rng.normal(size=60) > 0, 1, -1)
    return X, y


@pytest.fixture(scope="session")
def base_run(tmp_path_factory) -> Path:
    """One complete run of config/test.yaml at --cores 2, shared (read-only) by the tests."""
    repo = copy_repo(tmp_path_factory.mktemp("base") / "repo")
    snakemake(repo, "--cores", "2")
    return repo


@pytest.fixture
def run_copy(base_run, tmp_path) -> Path:
    """A private copy of the base run (results and metadata included) to modify."""
    return clone_run(base_run, tmp_path / "repo")
