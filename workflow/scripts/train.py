"""Rule ``train``: fit and evaluate one block of trials, write its shard and timings."""

import os
import sys
from pathlib import Path

# one job = one core: keep BLAS/OpenMP pools from oversubscribing parallel jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, str(snakemake.threads))  # noqa: F821
# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.datasets import read_binarized  # noqa: E402
from budgetboost.data.io import job_log, write_table  # noqa: E402
from budgetboost.pipeline.blocks import block_inputs, run_block, shard_metadata  # noqa: E402
from budgetboost.pipeline.specs import algorithm_spec  # noqa: E402

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "train")

dataset, cost_model, algorithm = (
    sm.wildcards.dataset,
    sm.wildcards.cost_model,
    sm.wildcards.algorithm,
)
spec = algorithm_spec(algorithm, sm.params.algorithm)
budgets = [float(b) for b in sm.params.budgets]
trials = [int(t) for t in sm.params.trials]
log.info("%s/%s/%s trials %s, %d budgets", dataset, cost_model, algorithm, trials, len(budgets))

try:
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

        paths = read_adaboost_paths(sm.input.paths[0])
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
        },
    )
    write_table(shard, sm.output.shard, metadata)
    about = {"dataset": dataset, "cost_model": cost_model, "algorithm": algorithm, "trials": trials}
    write_table(timings, sm.output.timings, about)
    write_table(stumps, sm.output.stumps, about)
except Exception:
    log.exception(
        "train %s/%s/%s block %s failed", dataset, cost_model, algorithm, sm.wildcards.block
    )
    raise
log.info("wrote %d rows; fit %.2f s", len(shard), timings["fit_seconds"].sum())
