# Data: raw files -> binarized table, per-trial splits and per-trial feature costs.


localrules:
    download,
    split,
    assign_costs,


rule download:
    output:
        "resources/downloads/{dataset}/{filename}",
    log:
        "logs/download/{dataset}/{filename}.log",
    retries: 2
    conda:
        "../envs/budgetboost.yaml"
    params:
        source=download_source,
    script:
        "../scripts/download.py"


rule binarize:
    input:
        raw=raw_files,
        code=lambda wildcards: code_files("budgetboost.data.datasets"),
    output:
        "results/data/{dataset}.parquet",
    log:
        "logs/binarize/{dataset}.log",
    conda:
        "../envs/budgetboost.yaml"
    resources:
        mem_mb=4000,
    params:
        entry=binarize_entry,
    script:
        "../scripts/binarize.py"


rule split:
    input:
        data="results/data/{dataset}.parquet",
        code=lambda wildcards: code_files("budgetboost.data.splits"),
    output:
        "results/splits/{dataset}.parquet",
    log:
        "logs/split/{dataset}.log",
    conda:
        "../envs/budgetboost.yaml"
    params:
        split=split_params,
    script:
        "../scripts/split.py"


rule assign_costs:
    input:
        data="results/data/{dataset}.parquet",
        splits="results/splits/{dataset}.parquet",
        cost_file=cost_file,
        code=lambda wildcards: code_files("budgetboost.data.costs"),
    output:
        "results/costs/{dataset}/{cost_model}.parquet",
    log:
        "logs/assign_costs/{dataset}/{cost_model}.log",
    conda:
        "../envs/budgetboost.yaml"
    params:
        spec=cost_spec,
        trials=lambda wildcards: PLAN.trials(wildcards.dataset),
    script:
        "../scripts/assign_costs.py"
