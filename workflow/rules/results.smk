# Results: aggregate every shard into summary tables, draw every registered figure (one job
# each, budgetboost.figures.registry), check the paper's claims and write the interactive page
# (explore.html, budgetboost.report.explore); summary.md and claims.md go into the report as
# HTML pages (budgetboost.report.pages: a browser downloads Markdown).
# Statistics and verdicts live in budgetboost.analysis, figures in budgetboost.figures, the
# text in budgetboost.report; each rule declares the package code it runs as input, so editing
# one figure's code re-runs only that figure. Algorithms' labels, families and styles come
# from the catalogue (a param). Input and target functions are in common.smk.

import os

from budgetboost.analysis import results as results_tables
from budgetboost.report import explore as explore_page
from budgetboost.report import pages


localrules:
    aggregate,
    plot,
    claims,
    evidence_page,
    landing,
    explore,


rule aggregate:
    input:
        shards=all_shards(),
        splits=split_tables(),
        costs=cost_tables(),
        # the attribute of each indicator (metadata only): where budgets bind
        data=binarized_tables(),
        code=code_files("budgetboost.analysis.results", "budgetboost.report.summary"),
    output:
        # every registered results table (budgetboost.analysis.tables), then the text
        **{table: R(f"summary/{table}.parquet") for table in results_tables.TABLES},
        markdown=R("summary/summary.md"),
    log:
        L("results/aggregate.log"),
    conda:
        "../envs/budgetboost.yaml"
    # processes computing tables side by side (nothing else runs beside it: every job
    # after it reads its tables)
    threads: 2
    params:
        catalogue=CATALOGUE.param(),
        baseline=cost_model_roles()["baseline"],
        field=cost_model_roles()["field"],
        # what made each shard, as the plan sees it: a shard made otherwise is not read
        identities=lambda wildcards: train_identities("shards"),
    script:
        "../scripts/aggregate.py"


rule plot:
    input:
        unpack(figure_inputs),
    output:
        png=report(
            R("figures/{figure}.png"),
            caption="../report/figure.rst",
            category=figure_report("category"),
            labels=figure_report("labels"),
        ),
        pdf=R("figures/{figure}.pdf"),
    log:
        L("results/plot/{figure}.log"),
    conda:
        "../envs/budgetboost.yaml"
    params:
        caption=lambda wildcards: figure_spec(wildcards).caption,
        page=figure_page,
        catalogue=CATALOGUE.param(),
        local_datasets=local_datasets(),
        datasets=dataset_order(),
        cost_models=cost_model_roles(),
        modules=FIGURE_MODULES,
    script:
        "../scripts/plot.py"


rule claims:
    input:
        summary=R("summary/summary.parquet"),
        comparisons=R("summary/comparisons.parquet"),
        matches=R("summary/budget_to_match.parquet"),
        findings=R("summary/findings.parquet"),
        stumps=claim_stumps(),
        code=code_files(
            "budgetboost.analysis.claims",
            "budgetboost.report.claims",
            "budgetboost.report.findings",
        ),
    output:
        table=R("summary/claims.parquet"),
        evidence=R("summary/claims_evidence.parquet"),
        markdown=R("summary/claims.md"),
    log:
        L("results/claims.log"),
    # before the figures: the first page and the claims' page wait on it, and then run
    # beside the figures instead of after them
    priority: 1
    conda:
        "../envs/budgetboost.yaml"
    params:
        catalogue=CATALOGUE.param(),
        # the cost models of the field's regime: the claims read the paper's regime alone
        field=cost_model_roles()["field"],
        # what made each stump table, as the plan sees it: one made otherwise is not read
        identities=lambda wildcards: train_identities("stumps", claim_algorithms()),
    script:
        "../scripts/claims.py"


rule evidence_page:
    input:
        markdown=R("summary/{page}.md"),
        code=code_files("budgetboost.report.pages"),
    output:
        report(
            R("summary/{page}.html"),
            caption="../report/evidence.rst",
            category="Tables",
            labels=lambda wildcards: {"table": wildcards.page},
        ),
    log:
        L("results/evidence_page/{page}.log"),
    wildcard_constraints:
        page="summary|claims",
    conda:
        "../envs/budgetboost.yaml"
    params:
        title=lambda wildcards: f"{wildcards.page}.md",
        caption=lambda wildcards: pages.CAPTIONS[wildcards.page],
    script:
        "../scripts/evidence_page.py"


rule landing:
    input:
        # every results table (the first page lists the figures that draw something)
        **{table: R(f"summary/{table}.parquet") for table in results_tables.TABLES},
        claims=R("summary/claims.parquet"),
        code=code_files(
            "budgetboost.report.landing",
            "budgetboost.report.findings",
            *figure_modules(),
        ),
    output:
        R("report/landing.rst"),
    log:
        L("results/landing.log"),
    priority: 1
    conda:
        "../envs/budgetboost.yaml"
    params:
        catalogue=CATALOGUE.param(),
        version=PACKAGE_VERSION,
        explore=R("explore.html"),
        local_datasets=local_datasets(),
        datasets=dataset_order(),
        cost_models=cost_model_roles(),
        modules=FIGURE_MODULES,
    script:
        "../scripts/landing.py"


rule explore:
    input:
        # the curves read the summary; the standings of each family per dataset the rest
        **{table: R(f"summary/{table}.parquet") for table in explore_page.TABLES},
        code=code_files("budgetboost.report.explore"),
    output:
        R("explore.html"),
    log:
        L("results/explore.log"),
    conda:
        "../envs/budgetboost.yaml"
    params:
        catalogue=CATALOGUE.param(),
        datasets=dataset_order(),
        cost_models=lambda wildcards: list(cost_model_roles()["kinds"]),
        title=f"budgetboost results: {os.path.basename(RESULTS)}",
    script:
        "../scripts/explore.py"
