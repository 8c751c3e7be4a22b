"""The tree stays as ruff keeps it: lint-clean and formatted (issue 13)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, SNAKEMAKE, TEST_CONFIG, snakemake

RUFF = Path(sys.executable).with_name("ruff")


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    if not RUFF.exists():
        pytest.fail(f"ruff is not installed beside {sys.executable} (the [test] extra has it)")
    proc = subprocess.run([str(RUFF), *args], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.parametrize(
    "config", ["config/config.yaml", "config/peers_extended.yaml", TEST_CONFIG]
)
def test_lint_reports_nothing(fresh_repo, config):
    proc = snakemake(fresh_repo, "--lint", "--configfile", config, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Lints for" not in proc.stdout + proc.stderr


def test_snakefiles_are_formatted():
    files = [
        "Snakefile",
        *sorted(str(p.relative_to(REPO)) for p in (REPO / "workflow" / "rules").glob("*.smk")),
    ]
    snakefmt = str(Path(SNAKEMAKE).with_name("snakefmt"))
    proc = subprocess.run([snakefmt, "--check", *files], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr
