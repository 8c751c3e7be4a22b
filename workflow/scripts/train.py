"""Rule ``train``: fit and evaluate one block of trials, write its shard and timings.

The estimators run isolated (:meth:`budgetboost.pipeline.job.Job.isolated`: a scratch
working directory, restored afterwards) on inputs read beforehand; the job writes its
outputs itself afterwards, from memory, once every result passed the contract.
"""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.datasets import read_binarized
from budgetboost.data.io import write_table
from budgetboost.estimators.contract.names import estimator_class
from budgetboost.pipeline.blocks import block_inputs, run_block, shard_metadata
from budgetboost.pipeline.identity import IDENTITY_KEY
from budgetboost.pipeline.job import run_job
from budgetboost.pipeline.specs import algorithm_spec


def train(sm, job):
    dataset, cost_model = sm.wildcards.dataset, sm.wildcards.cost_model
    algorithm = sm.wildcards.algorithm
    spec = algorithm_spec(algorithm, sm.params.algorithm)
    budgets = [float(b) for b in sm.params.budgets]
    trials = [int(t) for t in sm.params.trials]
    job.log.info(
        "%s/%s/%s trials %s, %d budgets", dataset, cost_model, algorithm, trials, len(budgets)
    )
    data = read_binarized(sm.input.data)
    inputs = block_inputs(
        data,
        dataset=dataset,
        cost_model=cost_model,
        cost_spec=dict(sm.params.cost_spec),
        train_size=sm.params.split["train_size"],
        test_size=sm.params.split["test_size"],
        trials=trials,
    )
    paths = None
    if sm.input.paths:  # imported only here: other shards do not depend on the boosting code
        from budgetboost.pipeline.shared_path import read_adaboost_paths

        paths = {}
        for path in sm.input.paths:  # the path's blocks that hold this block's trials
            paths.update(read_adaboost_paths(path))
    estimator_class(spec.estimator)  # imported here, before the working directory changes
    with job.isolated():
        shard, timings, stumps = run_block(
            X=data.X,
            y=data.y,
            groups=data.groups,
            splits=inputs.splits,
            costs=inputs.costs,
            grouped=inputs.grouped,
            dataset=dataset,
            cost_model=cost_model,
            spec=spec,
            budgets=budgets,
            trials=trials,
            paths=paths,
            discounts=inputs.discounts,
            progress=job.doing,
            twin=bool(sm.params.twin),
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
