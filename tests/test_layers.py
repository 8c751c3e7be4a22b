"""The package's import layers (``[tool.importlinter]`` in pyproject.toml), checked by
import-linter's ``lint-imports``: the package keeps them, and a copy of it with an import that
runs back up, or with a folder given no layer, breaks them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO

LINT_IMPORTS = str(Path(sys.executable).with_name("lint-imports"))


def lint_imports(root: Path) -> subprocess.CompletedProcess:
    """``lint-imports`` on the package and contracts under ``root``, that package first on the
    path (no cache written)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH")]))
    return subprocess.run(
        [LINT_IMPORTS, "--no-cache"], cwd=root, capture_output=True, text=True, env=env
    )


@pytest.fixture
def package_copy(tmp_path) -> Path:
    """The package and pyproject.toml (its contracts) copied under ``tmp_path``."""
    shutil.copytree(
        REPO / "budgetboost", tmp_path / "budgetboost", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy2(REPO / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_the_package_keeps_its_import_layers():
    proc = lint_imports(REPO)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "0 broken" in proc.stdout


@pytest.mark.parametrize(
    ("module", "imported", "contract"),
    [
        ("data/seeds.py", "budgetboost.report.escape", "the package's layers"),
        ("analysis/roles.py", "budgetboost.pipeline.specs", "the package's layers"),
        (
            "estimators/boosting/criteria.py",
            "budgetboost.estimators.peers",
            "the estimators' rooms",
        ),
    ],
)
def test_an_import_that_runs_up_or_across_breaks_a_contract(
    package_copy, module, imported, contract
):
    path = package_copy / "budgetboost" / module
    path.write_text(path.read_text() + f"\nimport {imported}  # noqa\n")
    proc = lint_imports(package_copy)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    broken = [line for line in proc.stdout.splitlines() if line.endswith("BROKEN")]
    assert len(broken) == 1 and broken[0].startswith(contract), proc.stdout
    assert imported in proc.stdout


def test_a_folder_given_no_layer_breaks_the_contract(package_copy):
    (package_copy / "budgetboost" / "extras").mkdir()
    (package_copy / "budgetboost" / "extras" / "__init__.py").write_text("")
    proc = lint_imports(package_copy)
    assert proc.returncode != 0
    assert "budgetboost.extras" in proc.stdout + proc.stderr
