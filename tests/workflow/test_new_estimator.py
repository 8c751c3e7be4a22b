"""A new estimator is one file plus a config entry: with no other edit it is planned, checked
by the conformance tests (parametrised over every registered estimator), run, compared in the
findings and drawn in the field's figure."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest
from helpers import REPO, RESULTS, TEST_CONFIG, edit_config, planned_jobs, snakemake

from budgetboost.checks import check_all
from budgetboost.data.io import read_table
from budgetboost.data.yamlfile import load_yaml
from budgetboost.figures import registry as figures
from budgetboost.figures.panels import CURVE_GID
from budgetboost.pipeline.plan import Plan

#: The one file: a budgeted estimator of a user's own (the contract docstring's example, with
#: a name of its own, its conformance case, and scikit-learn's tag for a weak learner).
MODULE = (
    (REPO / "tests" / "external_estimator.py")
    .read_text()
    .replace("CheapestStump", "CheapestFirst")
    .replace(
        "class CheapestFirst(BudgetedEstimator):",
        "class CheapestFirst(BudgetedEstimator):\n"
        '    conformance_cases = {"cheapest": {}}  # noqa: RUF012\n\n'
        "    def __sklearn_tags__(self):  # one stump: scikit-learn's accuracy bar is not for it\n"
        "        tags = super().__sklearn_tags__()\n"
        "        tags.classifier_tags.poor_score = True\n"
        "        return tags\n",
    )
)
#: The config entry.
ENTRY = {"estimator": "my_method:CheapestFirst", "label": "Cheapest first", "family": "other"}


@pytest.mark.slow
def test_a_new_estimator_is_one_file_and_a_config_entry(run_copy, monkeypatch):
    (run_copy / "my_method.py").write_text(MODULE)

    def add(config):
        config["algorithms"].update(cheapest=ENTRY)
        # the field's question is asked in the field's regime: the method runs there too
        config["cost_models"]["attribute_unit"]["algorithms"].append("cheapest")

    edit_config(run_copy, add)

    # planned: one train job per dataset, cost model and block, besides the results
    trained = [outs for rule, outs in planned_jobs(run_copy) if rule == "train"]
    assert trained and all("/cheapest/" in out for outs in trained for out in outs)

    # checked by the conformance tests, which find it through the config that names it
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(run_copy), *sys.path])}
    conformance = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/estimators/test_conformance.py",
            "--all",  # scikit-learn's estimator checks among them
            "--conformance-config",
            str(run_copy / TEST_CONFIG),
            "-k",
            "CheapestFirst",
        ],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
    )
    summary = (conformance.stdout.strip().splitlines() or [conformance.stderr])[-1]
    assert conformance.returncode == 0 and " passed" in summary and "failed" not in summary, (
        conformance.stdout[-3000:]
    )
    # every check that applies: 11 (it takes no discount groups and does not say what it
    # reads, so those 6 are skipped; the train job probes what it reads)
    assert summary.startswith("11 passed, 6 skipped"), summary

    # run, compared in the findings
    snakemake(run_copy, "--cores", "2")
    findings = read_table(run_copy / RESULTS / "summary" / "findings.parquet")
    mine = findings[(findings["question"] == "field") & (findings["x"] == "cheapest")]
    assert not mine.empty and {"smoothed", "greedy"} <= set(mine["y"])

    # and drawn: the field's curves as the plot job draws them from the run's tables
    monkeypatch.syspath_prepend(str(run_copy))
    config, registry = check_all(load_yaml(run_copy / TEST_CONFIG), root=run_copy)
    plan = Plan(config, registry)
    spec = figures.load()["field_curves"]
    tables = {t: read_table(run_copy / RESULTS / "summary" / f"{t}.parquet") for t in spec.tables}
    catalogue = plan.catalogue()
    roles = {"baseline": plan.baseline_cost_model(), "kinds": plan.cost_model_kinds()}
    context = figures.FigureContext.of_run(catalogue, (), plan.dataset_order(), roles)
    context = replace(context, families=spec.families)
    fig = spec.draw(tables, context)
    lines = [line for ax in fig.axes for line in ax.get_lines()]
    drawn = {line.get_label() for line in lines if line.get_gid() == CURVE_GID}
    assert "Cheapest first" in drawn
