"""The tree stays as ruff keeps it: lint-clean and formatted (issue 13)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
RUFF = Path(sys.executable).with_name("ruff")


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    if not RUFF.exists():
        pytest.fail(f"ruff is not installed beside {sys.executable} (the [test] extra has it)")
    proc = subprocess.run([str(RUFF), *args], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
