"""Rule ``evidence_page``: summary.md or claims.md as an HTML page the report shows."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.io import write_text
from budgetboost.pipeline.job import run_job
from budgetboost.report.pages import markdown_page


def evidence_page(sm, job):
    text = Path(sm.input.markdown).read_text(encoding="utf-8")
    write_text(markdown_page(text, sm.params.title), sm.output[0])
    return f"{sm.output[0]} written from {sm.input.markdown}"


run_job(snakemake, evidence_page)  # noqa: F821
