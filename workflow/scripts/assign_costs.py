"""Rule ``assign_costs``: one cost vector per trial over the binarized columns."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.costs import make_costs, write_costs
from budgetboost.data.datasets import read_binarized
from budgetboost.data.splits import read_splits
from budgetboost.pipeline.job import run_job


def assign_costs(sm, job):
    dataset, cost_model = sm.wildcards.dataset, sm.wildcards.cost_model
    spec, trials = dict(sm.params.spec), int(sm.params.trials)
    data = read_binarized(sm.input.data)
    splits = read_splits(sm.input.splits)
    table = make_costs(dataset, cost_model, spec, data, splits, range(trials), ".")
    write_costs(table, sm.output[0], {"dataset": dataset, "cost_model": cost_model, "spec": spec})
    return f"{dataset}/{cost_model}: {trials} trials"


run_job(snakemake, assign_costs)  # noqa: F821
