"""Rule ``explore``: the run's interactive results page (budgetboost.report.explore)."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.catalogue import Catalogue
from budgetboost.data.io import read_table, write_text
from budgetboost.pipeline.job import run_job
from budgetboost.report.explore import TABLES, explore_data, explore_page


def explore(sm, job):
    tables = {table: read_table(sm.input[table]) for table in TABLES}
    data = explore_data(
        tables,
        Catalogue.from_param(sm.params.catalogue),
        datasets=sm.params.datasets,
        cost_models=sm.params.cost_models,
    )
    page = explore_page(data, sm.params.title)
    write_text(page, sm.output[0])
    return f"{sm.output[0]} written ({len(page.encode()) / 1e6:.1f} MB)"


run_job(snakemake, explore)  # noqa: F821
