# Results: aggregate every shard into summary tables, draw every registered figure (one job
# each, budgetboost.figures.registry) and check the paper's claims. Statistics and verdicts
# live in budgetboost.analysis, figures in budgetboost.figures, the text in budgetboost.report;
# each rule declares the package code it runs as input, so editing one figure's code re-runs
# only that figure. Algorithms' labels, families and styles come from the catalogue (a param).
# Input and target functions are in common.smk.


localrules:
    aggregate,
    plot,
    claims,
    landing,


rule aggregate:
    input:
        shards=all_shards(),
        code=code_files(
            "budgetboost.analysis.summary",
            "budgetboost.analysis.paired",
            "budgetboost.report.summary",
        ),
    output:
        summary="results/summary/summary.parquet",
        comparisons="results/summary/comparisons.parquet",
        matches="results/summary/budget_to_match.parquet",
        rises="results/summary/cost_model_rise.parquet",
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
    params:
        catalogue=CATALOGUE.records(),
        baseline=cost_model_roles()["baseline"],
    script:
        "../scripts/aggregate.py"


rule plot:
    input:
        unpack(figure_inputs),
    output:
        png=report(
            "results/figures/{figure}.png",
            caption="../report/figure.rst",
            category=figure_report("category"),
            labels=figure_report("labels"),
        ),
        pdf="results/figures/{figure}.pdf",
    log:
        "logs/results/plot/{figure}.log",
    conda:
        "../envs/budgetboost.yaml"
    params:
        caption=lambda wildcards: FIGURES[wildcards.figure].caption,
        catalogue=CATALOGUE.records(),
        local_datasets=local_datasets(),
        datasets=dataset_order(),
        cost_models=cost_model_roles(),
        modules=FIGURE_MODULES,
    script:
        "../scripts/plot.py"


rule claims:
    input:
        summary="results/summary/summary.parquet",
        comparisons="results/summary/comparisons.parquet",
        matches="results/summary/budget_to_match.parquet",
        rises="results/summary/cost_model_rise.parquet",
        costs=cost_tables(),
        stumps=claim_stumps(),
        code=code_files(
            "budgetboost.analysis.claims",
            "budgetboost.analysis.findings",
            "budgetboost.report.claims",
            "budgetboost.report.findings",
        ),
    output:
        table="results/summary/claims.parquet",
        evidence="results/summary/claims_evidence.parquet",
        findings="results/summary/findings.parquet",
        rises="results/summary/findings_costs.parquet",
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
    params:
        catalogue=CATALOGUE.records(),
    script:
        "../scripts/claims.py"


rule landing:
    input:
        claims="results/summary/claims.parquet",
        summary="results/summary/summary.parquet",
        findings="results/summary/findings.parquet",
        rises="results/summary/findings_costs.parquet",
        code=code_files("budgetboost.report.landing", "budgetboost.report.findings"),
    output:
        "results/report/landing.rst",
    log:
        "logs/results/landing.log",
    conda:
        "../envs/budgetboost.yaml"
    params:
        catalogue=CATALOGUE.records(),
        figures=[(name, spec.title, spec.category) for name, spec in FIGURES.items()],
        version=PACKAGE_VERSION,
    script:
        "../scripts/landing.py"
