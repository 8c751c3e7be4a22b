# Data: raw files -> binarized table, per-trial splits and per-trial feature costs.


localrules:
    download,
    split,
    assign_costs,


rule download:
    output:
        "resources/downloads/{dataset}/{filename}",
    log:
        L("download/{dataset}/{filename}.log"),
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
        R("data/{dataset}.parquet"),
    log:
        PLAN.log("binarize"),
    conda:
        "../envs/budgetboost.yaml"
    resources:
        mem_mb=PLAN.resources("binarize")["mem_mb"],
        runtime=PLAN.resources("binarize")["runtime"],
    params:
        entry=binarize_entry,
    script:
        "../scripts/binarize.py"


rule split:
    input:
        data=R("data/{dataset}.parquet"),
        code=lambda wildcards: code_files("budgetboost.data.splits"),
    output:
        R("splits/{dataset}.parquet"),
    log:
        L("split/{dataset}.log"),
    conda:
        "../envs/budgetboost.yaml"
    params:
        split=split_params,
    script:
        "../scripts/split.py"


rule assign_costs:
    input:
        data=R("data/{dataset}.parquet"),
        splits=R("splits/{dataset}.parquet"),
        cost_file=cost_file,
        code=lambda wildcards: code_files("budgetboost.data.costs"),
    output:
        R("costs/{dataset}/{cost_model}.parquet"),
    log:
        L("assign_costs/{dataset}/{cost_model}.log"),
    conda:
        "../envs/budgetboost.yaml"
    params:
        spec=cost_spec,
        trials=lambda wildcards: PLAN.trials(wildcards.dataset),
    script:
        "../scripts/assign_costs.py"
