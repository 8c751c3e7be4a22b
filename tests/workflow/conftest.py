"""What the workflow's tests share: a copy of the repository to plan in."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import copy_repo


@pytest.fixture(scope="module")
def fresh_repo(tmp_path_factory) -> Path:
    """A copy of the repository without results, for checks that only plan."""
    return copy_repo(tmp_path_factory.mktemp("fresh") / "repo")
