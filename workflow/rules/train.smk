# Training: one job per block of trials of a (dataset, cost model, algorithm), blocks sized
# by the trials' expected cost (budgetboost.pipeline.plan: no job expected past the config's
# block_seconds; the longest ready jobs start first). Each (cost model, algorithm) is checked
# for reproducibility once, in the train job of the first block of its cheapest dataset
# (param `checked`): after the block's trials it fits the first one once more, in the same
# process, and a row that differs fails the job, so the run (budgetboost.pipeline.blocks.
# run_block's `refit`). That sees a fit that leaves something to the next one (global random
# state, caches, state on a class) or differs from fit to fit (threads), not what differs
# between processes only (hash seeds): the end-to-end tests compare the shards of separate
# runs byte for byte (tests/workflow/test_workflow.py: --cores 1, other blocks, a killed
# run). A dataset added may be cheaper and move the check: the two train jobs whose
# `checked` changes re-run (their shards the same bytes), one block each. A job draws
# its own trials' splits and costs from their stable seeds (budgetboost.pipeline.blocks.
# block_inputs), so its inputs are exactly what a shard depends on: the binarized data, the
# cost file of a `real` cost model, the package code, and (as params) the split sizes, the
# cost-model spec, the algorithm, the block's trials and the versions of numpy and of the
# libraries the estimator wraps (an upgrade re-runs its shards); param `identity`, a digest of
# all that and of its code files, goes into its outputs, and the jobs reading them check it
# (budgetboost.pipeline.identity: a shard copied from another run is never read). Raising the
# trial count changes the params of the last, partly filled block and adds new blocks;
# nothing else re-runs.
# Algorithms with `adaboost_path: true` (plain AdaBoost: the reference, AdaBoostBT,
# AdaBoostRS) read their trials' shared AdaBoost path, fitted once per (dataset, block) by
# `adaboost_path` whatever the cost model, instead of boosting again.


rule adaboost_path:
    input:
        data=R("data/{dataset}.parquet"),
        code=lambda wildcards: code_files(
            "budgetboost.pipeline.adaboost_path", "budgetboost.data.splits"
        ),
    output:
        paths=R("paths/{dataset}/block-{block}.parquet"),
        timings=R("timings/{dataset}/_shared/adaboost_path/block-{block}.parquet"),
    log:
        PLAN.log("adaboost_path"),
    # before the train jobs that read it
    priority: 1000000
    conda:
        "../envs/budgetboost.yaml"
    threads: 1
    resources:
        mem_mb=PLAN.resources("adaboost_path")["mem_mb"],
        runtime=PLAN.resources("adaboost_path")["runtime"],
    params:
        max_rounds=path_rounds,
        trials=block_trials,
        split=split_sizes,
        versions=PLAN.versions(),
    script:
        "../scripts/adaboost_path.py"


rule train:
    input:
        data=R("data/{dataset}.parquet"),
        cost_file=cost_file,
        paths=shared_path,
        code=train_code,
    output:
        shard=R("shards/{dataset}/{cost_model}/{algorithm}/block-{block}.parquet"),
        timings=R("timings/{dataset}/{cost_model}/{algorithm}/block-{block}.parquet"),
        stumps=R("stumps/{dataset}/{cost_model}/{algorithm}/block-{block}.parquet"),
    log:
        PLAN.log("train"),
    priority: train_priority
    conda:
        "../envs/budgetboost.yaml"
    threads: 1
    resources:
        mem_mb=PLAN.resources("train")["mem_mb"],
        runtime=PLAN.resources("train")["runtime"],
    params:
        algorithm=algorithm_params,
        budgets=block_budgets,
        trials=block_trials,
        split=split_sizes,
        cost_spec=cost_spec,
        versions=lambda wildcards: PLAN.versions(wildcards.algorithm),
        identity=train_identity,
        # the trial fitted once more to check it is reproducible (one job per (cost model,
        # algorithm)), or None; not in `identity`: it changes no output
        checked=checked_trial,
    script:
        "../scripts/train.py"
