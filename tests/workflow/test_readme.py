"""The README's worked example, exactly as written: a method outside the repository, a CSV
dataset and a cost model, in a fresh copy of the repository (issue #36).

Every fenced block the README marks ``<!-- readme-example: NAME -->`` is taken in order: a
block named for a file is written to that file, a ``commands`` block is run line by line in
bash. The test then finds the new method in the findings and in the field's figure."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import matplotlib
import pytest
from conftest import REPO, copy_repo

from budgetboost.data.io import read_table

matplotlib.use("Agg")

pytestmark = pytest.mark.slow

_EXAMPLE = re.compile(r"<!-- readme-example: (\S+) -->\n```\w*\n(.*?)\n```", re.S)


def readme_examples() -> list[tuple[str, str]]:
    """``(name, text)`` of every marked block of the README, in order."""
    return _EXAMPLE.findall((REPO / "README.md").read_text(encoding="utf-8"))


def test_the_readme_marks_its_worked_example():
    names = [name for name, _ in readme_examples()]
    assert names == ["my_methods.py", "commands", "my_datasets.yaml", "my.yaml", "commands"]


def test_the_readme_example_runs_as_written(tmp_path):
    repo = copy_repo(tmp_path / "repo")
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")])
    env.pop("PYTHONPATH", None)
    for name, text in readme_examples():
        if name != "commands":
            (repo / name).write_text(text + "\n", encoding="utf-8")
            continue
        for line in filter(None, (line.strip() for line in text.splitlines())):
            proc = subprocess.run(
                ["bash", "-c", line],
                cwd=repo,
                env=env,
                capture_output=True,
                text=True,
                timeout=1800,
            )
            assert proc.returncode == 0, f"{line}\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}"
    results = repo / "results" / "my"
    findings = read_table(results / "summary" / "findings.parquet")
    mine = findings[(findings["x"] == "mine") | (findings["y"] == "mine")]
    assert set(mine["question"]) == {"field"}
    assert {"smoothed", "greedy"} <= set(mine["y"]), mine[["x", "y"]]
    assert set(mine["cost_model"]) >= {"uniform_0_2", "correlated_0_2"}
    assert (results / "report.html").stat().st_size > 0
    assert (results / "figures" / "field.png").stat().st_size > 0
    # the field's figure, drawn again from the run's tables: a curve of the new method
    from budgetboost.figures import registry
    from budgetboost.pipeline.catalogue import Catalogue

    summary = read_table(results / "summary" / "summary.parquet")
    catalogue = Catalogue(
        {
            "greedy": {},
            "smoothed": {},
            "mine": {"label": "Cheapest stump", "family": "other"},
        }
    )
    spec = registry.load()["field"]
    context = registry.FigureContext(catalogue, families=spec.families, baseline="uniform_0_2")
    fig = spec.draw({"summary": summary, "findings": findings}, context)
    labels = {line.get_label() for ax in fig.axes for line in ax.get_lines()}
    assert "Cheapest stump" in labels
