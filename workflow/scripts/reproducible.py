"""Rule ``reproducible``: fit an algorithm's cheapest trial twice more, in a process of its
own: the two fits must score the test rows alike (budgetboost.pipeline.verify.
check_reproducible) and their shard rows equal the train job's (check_same_rows). A method
that is not reproducible fails the run."""

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


def reproducible(sm, job):
    dataset, cost_model = sm.params.dataset, sm.wildcards.cost_model
    algorithm = sm.wildcards.algorithm
    trial = int(sm.params.trial)
    check_identities([sm.input.shard], {sm.input.shard: sm.params.identity})
    spec = algorithm_spec(algorithm, sm.params.algorithm)
    again, _, _ = fit_block(
        sm.input.data,
        list(sm.input.paths),
        dataset=dataset,
        cost_model=cost_model,
        spec=spec,
        cost_spec=sm.params.cost_spec,
        split=sm.params.split,
        budgets=[float(b) for b in sm.params.budgets],
        trials=[trial],
        isolated=job.isolated,
        progress=job.doing,
        twin=True,  # in this process too: the same scores from a second fit
    )
    stored = read_table(sm.input.shard)
    where = f"algorithm {algorithm!r}, dataset {dataset!r}, cost model {cost_model!r}, "
    rows = check_same_rows(again, stored[stored["trial"] == trial], f"{where}trial {trial}")
    record = {"dataset": dataset, "trial": trial, "rows": rows, "shard": sm.input.shard}
    write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", sm.output[0])
    return f"{where}trial {trial}: {rows} rows the same when fitted again"


run_job(snakemake, reproducible)  # noqa: F821
