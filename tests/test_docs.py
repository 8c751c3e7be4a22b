"""The documentation builds: Sphinx over docs/ (the Markdown pages and the API reference of
every public module), every cross-reference resolved, no warning (``docs/conf.py``)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from helpers import REPO


@pytest.mark.slow
def test_the_docs_build_without_a_warning(tmp_path):
    """``sphinx-build -W -n -b html docs``: a warning (a cross-reference to a name that does
    not exist, a malformed docstring, a page outside the toctree) fails the build."""
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-n", "-q", "-b", "html", "docs", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-5000:]
    assert not done.stderr.strip(), done.stderr[-5000:]
    api = (tmp_path / "api" / "data.html").read_text(encoding="utf-8")
    assert 'id="budgetboost.data.io.write_table"' in api  # autodoc documented the modules


def test_every_docs_page_is_in_the_toctree():
    """Each Markdown page of docs/ is reachable from the index (Sphinx would warn of an orphan
    only in the slow build)."""
    index = (REPO / "docs" / "index.md").read_text(encoding="utf-8")
    pages = sorted(
        p.relative_to(REPO / "docs").with_suffix("").as_posix()
        for p in (REPO / "docs").rglob("*.md")
        if p.name != "index.md"
    )
    assert pages and all(f"\n{page}\n" in index for page in pages), pages
