"""Rule ``assign_costs``: one cost vector per trial over the binarized columns."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.costs import make_costs, write_costs
from budgetboost.data.datasets import read_binarized
from budgetboost.data.io import job_log
from budgetboost.data.splits import read_splits

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "assign_costs")
dataset, cost_model = sm.wildcards.dataset, sm.wildcards.cost_model
spec = dict(sm.params.spec)
try:
    data = read_binarized(sm.input.data)
    splits = read_splits(sm.input.splits)
    table = make_costs(dataset, cost_model, spec, data, splits, range(int(sm.params.trials)), ".")
    write_costs(table, sm.output[0], {"dataset": dataset, "cost_model": cost_model, "spec": spec})
except Exception:
    log.exception("assign_costs %s/%s failed", dataset, cost_model)
    raise
log.info("%s/%s: %d trials", dataset, cost_model, int(sm.params.trials))
