# Results: aggregate every shard into summary tables, draw the paper's figures and check its
# claims. Statistics, plotting and claims live in the package (budgetboost.stats, .plots,
# .claims); each rule declares the package code it runs as input, so editing the plotting
# code re-runs only the plots. Input and target functions (all_shards, cost_tables,
# local_datasets, results_outputs) are in common.smk.


localrules:
    aggregate,
    plot,
    claims,


rule aggregate:
    input:
        shards=all_shards(),
        code=code_files("budgetboost.stats"),
    output:
        summary="results/summary/summary.parquet",
        comparisons="results/summary/comparisons.parquet",
        matches="results/summary/budget_to_match.parquet",
        markdown=report(
            "results/summary/summary.md",
            caption="../report/summary.rst",
            category="Tables",
            labels={"table": "summary"},
        ),
    log:
        "logs/results/aggregate.log",
    conda:
        "../envs/budgetboost.yaml"
    script:
        "../scripts/aggregate.py"


rule plot:
    input:
        summary="results/summary/summary.parquet",
        code=code_files("budgetboost.plots"),
    output:
        figure1=report(
            "results/figures/figure1.png",
            caption="../report/figure1.rst",
            category="Figures",
            labels={"figure": "1: uniform random costs"},
        ),
        figure2=report(
            "results/figures/figure2.png",
            caption="../report/figure2.rst",
            category="Figures",
            labels={"figure": "2: real costs"},
        ),
        figure3=report(
            "results/figures/figure3.png",
            caption="../report/figure3.rst",
            category="Figures",
            labels={"figure": "3: decision trees"},
        ),
        figure1_pdf="results/figures/figure1.pdf",
        figure2_pdf="results/figures/figure2.pdf",
        figure3_pdf="results/figures/figure3.pdf",
    log:
        "logs/results/plot.log",
    conda:
        "../envs/budgetboost.yaml"
    params:
        local_datasets=local_datasets(),
    script:
        "../scripts/plot.py"


rule claims:
    input:
        summary="results/summary/summary.parquet",
        comparisons="results/summary/comparisons.parquet",
        matches="results/summary/budget_to_match.parquet",
        costs=cost_tables(),
        stumps=claim_stumps(),
        code=code_files("budgetboost.claims"),
    output:
        table="results/summary/claims.parquet",
        markdown=report(
            "results/summary/claims.md",
            caption="../report/claims.rst",
            category="Tables",
            labels={"table": "claims"},
        ),
    log:
        "logs/results/claims.log",
    conda:
        "../envs/budgetboost.yaml"
    script:
        "../scripts/claims.py"
