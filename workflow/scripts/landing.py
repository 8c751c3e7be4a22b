"""Rule ``landing``: the report's first page (what ran, the verdicts, where to look)."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.catalogue import Catalogue
from budgetboost.data.io import read_table, write_text
from budgetboost.figures import registry as figures
from budgetboost.pipeline.job import run_job
from budgetboost.report.escape import for_rst
from budgetboost.report.findings import field_lines, landing_lines
from budgetboost.report.landing import decided_findings, landing_page


def landing(sm, job):
    catalogue = Catalogue.from_param(sm.params.catalogue)
    tables = {table: read_table(sm.input[table]) for table in figures.TABLES}
    findings = tables["findings"]
    specs = figures.load(list(sm.params.modules))
    context = figures.FigureContext.of_run(
        catalogue, sm.params.local_datasets, sm.params.datasets, sm.params.cost_models
    )
    drawn = figures.with_content(specs, tables, context)
    decided, undecided = decided_findings(findings)
    page = landing_page(
        read_table(sm.input.claims),
        read_table(sm.input.summary),
        catalogue=catalogue,
        figures=[(name, specs[name].title, specs[name].category) for name in drawn],
        version=sm.params.version,
        findings=landing_lines(decided, catalogue) if not decided.empty else [],
        undecided=undecided,
        field=field_lines(
            {"cap": findings, "mean": tables["field_mean_cost"]},
            tables["leads"],
            tables["binding"],
            for_rst(catalogue),
        ),
        explore=sm.params.explore,
    )
    write_text(page, sm.output[0])
    return "landing page written"


run_job(snakemake, landing)  # noqa: F821
