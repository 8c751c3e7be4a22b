"""Rule ``plot``: one page of a registered figure (PNG and PDF) from the results tables it
reads (its file name: budgetboost.figures.pages.page_name)."""

import sys
from dataclasses import replace
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.catalogue import Catalogue
from budgetboost.data.io import read_table
from budgetboost.figures import registry as figures
from budgetboost.figures.style import save_figure
from budgetboost.pipeline.job import run_job


def plot(sm, job):
    name, page = sm.params.page["figure"], int(sm.params.page["page"])
    spec = figures.load(list(sm.params.modules))[name]
    tables = {table: read_table(sm.input[table]) for table in spec.tables}
    context = figures.FigureContext.of_run(
        Catalogue.from_param(sm.params.catalogue),
        sm.params.local_datasets,
        sm.params.datasets,
        sm.params.cost_models,
    )
    context = replace(context, families=spec.families, page=page)
    save_figure(spec.draw(tables, context), sm.output.png, sm.output.pdf)
    return f"figure {name} (page {page + 1}) written: {', '.join(map(str, sm.output))}"


run_job(snakemake, plot)  # noqa: F821
