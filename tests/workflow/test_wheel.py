"""The package installed from its wheel, away from a checkout: planning's checks need the
schemas, which ship inside the package (they were read from ``workflow/schemas`` by path)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from helpers import REPO


@pytest.mark.slow
def test_planning_checks_run_from_an_installed_wheel(tmp_path):
    source = tmp_path / "source"  # pip builds in the source folder: a copy, not the checkout
    shutil.copytree(
        REPO / "budgetboost", source / "budgetboost", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (REPO / name).exists():
            shutil.copy(REPO / name, source / name)
    wheels = tmp_path / "wheels"  # built as pip install builds it (setuptools from PyPI)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
         "-w", str(wheels), str(source)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    (wheel,) = wheels.glob("budgetboost-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "budgetboost/schemas/config.schema.yaml" in names
    assert "budgetboost/schemas/datasets.schema.yaml" in names
    site = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site),
         str(wheel)],
        check=True, capture_output=True, timeout=600,
    )  # fmt: skip
    work = tmp_path / "work"  # a project folder without the package's sources
    work.mkdir()
    for folder in ("config", "resources"):
        (work / folder).symlink_to(REPO / folder)
    env = {**os.environ, "PYTHONPATH": str(site)}
    proc = subprocess.run(
        [sys.executable, "-c", "import budgetboost; print(budgetboost.__file__)"],
        cwd=work, env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert Path(proc.stdout.strip()).is_relative_to(site)
    proc = subprocess.run(
        [sys.executable, "-m", "budgetboost.checks", "config/test.yaml", "config/suite.yaml"],
        cwd=work, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "config/test.yaml: ok" in proc.stdout and "config/suite.yaml: ok" in proc.stdout
