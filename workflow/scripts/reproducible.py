"""Rule ``reproducible``: fit an algorithm's cheapest trial twice more under each of its cost
models, in a process of its own: the two fits must score the test rows alike
(budgetboost.pipeline.verify.check_reproducible) and their shard rows equal the train job's
(check_same_rows). A method that is not reproducible fails the run. One job per algorithm:
its library is imported once for all its cost models."""

import json
import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.io import read_table, write_text
from budgetboost.pipeline.blocks import fit_block
from budgetboost.pipeline.identity import check_identities
from budgetboost.pipeline.job import run_job
from budgetboost.pipeline.specs import algorithm_spec
from budgetboost.pipeline.verify import check_same_rows


def check_one(algorithm, check, job):
    """Fit the check's trial again (twice: the twin in this process) and compare its rows
    with the train job's shard; the record written for it."""
    dataset, cost_model, trial = check["dataset"], check["cost_model"], int(check["trial"])
    check_identities([check["shard"]], {check["shard"]: check["identity"]})
    again, _, _ = fit_block(
        check["data"],
        list(check["paths"]),
        dataset=dataset,
        cost_model=cost_model,
        spec=algorithm_spec(algorithm, check["algorithm"]),
        cost_spec=check["cost_spec"],
        split=check["split"],
        budgets=[float(b) for b in check["budgets"]],
        trials=[trial],
        isolated=job.isolated,
        progress=job.doing,
        twin=True,  # in this process too: the same scores from a second fit
    )
    stored = read_table(check["shard"])
    where = f"algorithm {algorithm!r}, dataset {dataset!r}, cost model {cost_model!r}, "
    rows = check_same_rows(again, stored[stored["trial"] == trial], f"{where}trial {trial}")
    job.log.info("%strial %s: %s rows the same when fitted again", where, trial, rows)
    record = {"dataset": dataset, "trial": trial, "rows": rows, "shard": check["shard"]}
    return cost_model, record


def reproducible(sm, job):
    algorithm = sm.wildcards.algorithm
    records = dict(check_one(algorithm, check, job) for check in sm.params.checks)
    write_text(json.dumps(records, indent=1, sort_keys=True) + "\n", sm.output[0])
    return f"algorithm {algorithm!r}: the trials of {len(records)} cost models fitted again alike"


run_job(snakemake, reproducible)  # noqa: F821
