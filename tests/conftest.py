"""The fixtures the tests share, whatever their folder, the fast loop's opt-in markers and the
hypothesis profiles; the shared helpers (repository copies, the real ``snakemake`` CLI,
strategies, reference tables) are in ``helpers.py``.

The test folders mirror the package (``tests/estimators/``, ``tests/data/``, ...); each is a
package, so two folders may hold files of one name. ``tests/`` itself is on ``sys.path``
(``pythonpath`` in pyproject.toml), so ``helpers.py``, ``reference.py``,
``synthetic_results.py`` and ``external_estimator.py`` import by name from any folder.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

# The session runs as a train job does (budgetboost.estimators.contract.threads: one thread
# unless told otherwise): one thread a numerical runtime, set before numpy, scipy or LightGBM
# load theirs, and inherited by the processes the tests start. The BLAS's spare threads
# otherwise spin on the small products of the tests and burn CPU: the linear SelectThenTrain
# tests took 22 CPU-s with the BLAS's default threads on two busy cores, 4 with one. A
# variable already set (a run asking for more threads) is left as it is.
for _variable in (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
):
    os.environ.setdefault(_variable, "1")

import numpy as np  # noqa: E402  (the thread variables first)
import pytest  # noqa: E402
import yaml  # noqa: E402
from helpers import CI_EXAMPLES, REPO, TEST_CONFIG, clone_run, copy_repo, snakemake  # noqa: E402
from hypothesis import settings  # noqa: E402

# Two hypothesis profiles, the one dial of every property test's example count
# (``helpers.examples`` scales a test's own count by it): ``fast`` for a plain ``pytest``,
# ``ci`` for ``pytest --all``; ``--hypothesis-profile`` picks one by name. No test here is a
# timing test: hypothesis's 200 ms deadline per example would only make the property tests
# fail on a loaded machine (CI's two cores run the end-to-end tests too).
settings.register_profile("ci", max_examples=CI_EXAMPLES, deadline=None)
settings.register_profile("fast", max_examples=CI_EXAMPLES // 10, deadline=None)
settings.load_profile("fast")

#: markers of the tests a plain ``pytest`` leaves out (``--all`` or ``-m`` runs them)
OPT_IN = ("slow", "slurm")


def pytest_addoption(parser):
    parser.addoption(
        "--all",
        action="store_true",
        help="also run the slow end-to-end and the SLURM tests (what .ci/run runs)",
    )
    parser.addoption(
        "--conformance-config",
        action="append",
        default=[],
        metavar="FILE",
        help="also check the estimators this config names (tests/estimators/test_conformance.py)",
    )


def pytest_configure(config):
    """The ``ci`` hypothesis profile under ``--all``, ``fast`` otherwise, unless
    ``--hypothesis-profile`` names one."""
    if config.getoption("hypothesis_profile", None) is None:
        settings.load_profile("ci" if config.getoption("--all") else "fast")


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


@pytest.fixture(scope="module")
def registry() -> dict[str, dict]:
    """The repository's dataset registry (config/datasets.yaml), checked."""
    from budgetboost.data.registry import load_registry

    return load_registry(REPO / "config" / "datasets.yaml")


@pytest.fixture(scope="module")
def test_config() -> dict:
    """config/test.yaml as read (not validated: no defaults filled in)."""
    return yaml.safe_load((REPO / TEST_CONFIG).read_text())


@pytest.fixture(scope="module")
def data():
    """Toy data (60 rows, 4 features, labels -1/+1) of the estimator contract's tests."""
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
