# Training: one job per block of trials of a (dataset, cost model, algorithm). The splits
# and costs hold every trial and are ancient() inputs; their relevant config (split sizes,
# cost-model spec, the block's trials) is in params, so raising the trial count adds only
# new blocks while changing a spec re-runs the blocks it feeds.


rule train:
    input:
        data="results/data/{dataset}.parquet",
        splits=ancient("results/splits/{dataset}.parquet"),
        costs=ancient("results/costs/{dataset}/{cost_model}.parquet"),
        code=train_code,
    output:
        shard="results/shards/{dataset}/{cost_model}/{algorithm}/block-{block}.parquet",
        timings="results/timings/{dataset}/{cost_model}/{algorithm}/block-{block}.parquet",
        stumps="results/stumps/{dataset}/{cost_model}/{algorithm}/block-{block}.parquet",
    log:
        "logs/train/{dataset}/{cost_model}/{algorithm}/block-{block}.log",
    conda:
        "../envs/budgetboost.yaml"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=60,
    params:
        algorithm=algorithm_params,
        budgets=block_budgets,
        trials=block_trials,
        split=split_sizes,
        cost_spec=cost_spec,
    script:
        "../scripts/train.py"
