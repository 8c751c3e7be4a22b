"""Rule ``train``: fit and evaluate one block of trials, write its shard and timings.

The estimators run isolated (:meth:`budgetboost.pipeline.job.Job.isolated`: a scratch
working directory, restored afterwards) on inputs read beforehand; the job writes its
outputs itself afterwards, from memory, once every result passed the contract. The job
given a ``checked`` trial fits it once more after the block's trials and fails if its rows
differ (:func:`budgetboost.pipeline.blocks.run_block`'s ``refit``: the reproducibility
check; its log says how many rows were the same).
"""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.io import write_table
from budgetboost.estimators.contract.registry import estimator_class
from budgetboost.pipeline.blocks import fit_block, shard_metadata
from budgetboost.pipeline.identity import IDENTITY_KEY
from budgetboost.pipeline.job import run_job
from budgetboost.pipeline.job_log import log_cpu
from budgetboost.pipeline.specs import algorithm_spec


def train(sm, job):
    dataset, cost_model = sm.wildcards.dataset, sm.wildcards.cost_model
    algorithm = sm.wildcards.algorithm
    spec = algorithm_spec(algorithm, sm.params.algorithm)
    budgets = [float(b) for b in sm.params.budgets]
    trials = [int(t) for t in sm.params.trials]
    checked = None if sm.params.checked is None else int(sm.params.checked)
    job.log.info(
        "%s/%s/%s trials %s, %d budgets", dataset, cost_model, algorithm, trials, len(budgets)
    )
    estimator_class(spec.estimator)  # its library's import, logged apart from the inputs
    log_cpu(job.log, "after the estimator's import")
    shard, timings, stumps = fit_block(
        sm.input.data,
        list(sm.input.paths),
        dataset=dataset,
        cost_model=cost_model,
        spec=spec,
        cost_spec=sm.params.cost_spec,
        split=sm.params.split,
        budgets=budgets,
        trials=trials,
        isolated=job.isolated,
        progress=job.doing,
        refit=checked,
    )
    metadata = shard_metadata(
        dataset=dataset,
        cost_model=cost_model,
        spec=spec,
        trials=trials,
        budgets=budgets,
        extra={
            "split": dict(sm.params.split),
            "cost_spec": dict(sm.params.cost_spec),
            "versions": dict(sm.params.versions),
            IDENTITY_KEY: sm.params.identity,
        },
    )
    write_table(shard, sm.output.shard, metadata)
    about = {
        "dataset": dataset,
        "cost_model": cost_model,
        "algorithm": algorithm,
        "trials": trials,
        IDENTITY_KEY: sm.params.identity,
    }
    write_table(timings, sm.output.timings, about)
    write_table(stumps, sm.output.stumps, about)
    return f"wrote {len(shard)} rows; fit {timings['fit_seconds'].sum():.2f} s"


run_job(snakemake, train)  # noqa: F821
