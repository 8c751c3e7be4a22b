"""The tree stays as ruff keeps it: lint-clean and formatted."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from helpers import REPO, SNAKEMAKE, TEST_CONFIG, snakemake

RUFF = Path(sys.executable).with_name("ruff")


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]])
def test_ruff(args):
    if not RUFF.exists():
        pytest.fail(f"ruff is not installed beside {sys.executable} (the [test] extra has it)")
    proc = subprocess.run([str(RUFF), *args], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]


@pytest.mark.slow
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


#: A reference to one of the project's issues ("issue 33", or a hash and its number): no
#: reader can follow one.
ISSUE_REFERENCE = r"(?<![\w/&])(?:[Ii]ssues? #?\d{2}\b|#\d{2}\b)"


def test_no_text_cites_the_projects_issue_numbers():
    """Code, docs and configs say in words what a thing is for, never the number of one of
    the project's issues, which no reader could follow. (Upstream references, e.g.
    Snakemake's "issue #2782", name their project and stay.)"""
    import re

    tracked = subprocess.run(
        ["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout.split()
    suffixes = (".py", ".md", ".yaml", ".smk", ".rst", "Snakefile")
    found = []
    for name in tracked:
        path = REPO / name
        if not name.endswith(suffixes) or not path.is_file() or path == Path(__file__):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(ISSUE_REFERENCE, line) and "Snakemake issue" not in line:
                found.append(f"{name}:{number}: {line.strip()[:80]}")
    assert found == [], "\n".join(found[:20])
