"""The README's worked example, exactly as written: a method outside the repository, a CSV
dataset and a cost model, in a fresh copy of the repository.

Every fenced block the README marks ``<!-- readme-example: NAME -->`` is taken in order: a
block named for a file is written to that file, a ``commands`` block is run line by line in
bash. The test then finds the new method in the findings, below the majority class's error at
its largest budget, and, from the data of the figure its registered function draws from the
run's tables, as a curve at every budget of each cost model it ran."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import matplotlib
import numpy as np
import pandas as pd
import pytest
from helpers import REPO, copy_repo

from budgetboost.data.datasets import read_binarized
from budgetboost.data.io import read_table
from budgetboost.data.splits import read_splits

matplotlib.use("Agg")

pytestmark = pytest.mark.slow

_EXAMPLE = re.compile(r"<!-- readme-example: (\S+) -->\n```\w*\n(.*?)\n```", re.S)


def readme_examples() -> list[tuple[str, str]]:
    """``(name, text)`` of every marked block of the README, in order."""
    return _EXAMPLE.findall((REPO / "README.md").read_text(encoding="utf-8"))


def majority_errors(results, dataset: str) -> dict[int, float]:
    """Per trial, the test error of predicting the class most frequent among its training
    rows (a tie: the first class), from the run's binarized data and splits."""
    y = read_binarized(results / "data" / f"{dataset}.parquet").y
    errors = {}
    for trial, (train, test) in read_splits(results / "splits" / f"{dataset}.parquet").items():
        values, counts = np.unique(y[train], return_counts=True)
        errors[trial] = float(np.mean(y[test] != values[np.argmax(counts)]))
    return errors


def beats_the_majority(results, dataset: str, algorithm: str) -> bool:
    """Whether ``algorithm``'s mean test error at its largest budget is below the majority
    class's over the same trials, under each cost model it ran."""
    shards = [
        read_table(path)
        for path in sorted((results / "shards" / dataset).glob(f"*/{algorithm}/block-*.parquet"))
    ]
    rows = pd.concat(shards, ignore_index=True)
    majority = majority_errors(results, dataset)
    verdicts = []
    for cost_model, part in rows.groupby("cost_model"):
        top = part[part["budget"] == part["budget"].max()]
        mine, guess = top["test_error"].mean(), np.mean([majority[t] for t in top["trial"]])
        print(f"{algorithm} on {dataset} · {cost_model}: {mine:.3f}, majority {guess:.3f}")
        verdicts.append(mine < guess)
    return bool(verdicts) and all(verdicts)


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
    # the example method beats guessing the training majority at its largest budget, on the
    # test rows of the same trials, under every cost model it ran
    assert beats_the_majority(results, "mydata", "mine")
    findings = read_table(results / "summary" / "findings.parquet")
    mine = findings[(findings["x"] == "mine") | (findings["y"] == "mine")]
    assert set(mine["question"]) == {"field"}
    assert {"smoothed", "greedy"} <= set(mine["y"]), mine[["x", "y"]]
    assert set(mine["cost_model"]) >= {"uniform_0_2", "correlated_0_2"}
    assert (results / "report.html").stat().st_size > 0
    assert (results / "figures" / "field_curves.png").stat().st_size > 0
    # the README says which figure draws the method at every budget
    assert (
        "`results/my/figures/field_curves.png` then draws `mine`"
        in (REPO / "README.md").read_text()
    )
    # that figure, drawn again by its registered function from the run's tables with the
    # run's catalogue and cost models, as the plot rule draws it: the method's curve in a
    # panel of each cost model it ran, at every budget, beside Smoothed and Greedy
    import yaml

    from budgetboost.catalogue import Catalogue
    from budgetboost.figures import registry

    config = yaml.safe_load((repo / "my.yaml").read_text())
    catalogue = Catalogue.from_config(config["algorithms"])
    summary = read_table(results / "summary" / "summary.parquet")
    spec = registry.load()["field_curves"]
    context = registry.FigureContext(
        catalogue,
        families=spec.families,
        datasets=("mydata",),
        cost_models={name: c["spec"]["model"] for name, c in config["cost_models"].items()},
        baseline="uniform_0_2",
    )
    assert spec.has_content({"summary": summary}, context)
    fig = spec.draw({"summary": summary}, context)
    panels = {ax.get_title(): ax for ax in fig.axes if ax.get_title()}
    assert set(panels) == {"mydata · uniform_0_2", "mydata · correlated_0_2"}, set(panels)
    for cost_model in ("uniform_0_2", "correlated_0_2"):
        lines = {line.get_label(): line for line in panels[f"mydata · {cost_model}"].get_lines()}
        assert {"Affordable stump", "AdaBoostBT_Greedy", "AdaBoostBT_Smoothed"} <= set(lines)
        ran = summary[(summary["algorithm"] == "mine") & (summary["cost_model"] == cost_model)]
        ran = ran.sort_values("budget")
        assert len(ran) == 10  # budgets 2, 4, ..., 20
        np.testing.assert_array_equal(lines["Affordable stump"].get_xdata(), ran["budget"])
        np.testing.assert_allclose(lines["Affordable stump"].get_ydata(), ran["error_mean"])
