"""Rule ``download``: fetch one file of a ``url`` source, checked against its sha256."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.download import fetch
from budgetboost.pipeline.job import run_job


def download(sm, job):
    fetch(sm.params.source["url"], sm.params.source["sha256"], sm.output[0])
    return f"downloaded {sm.params.source['url']} to {sm.output[0]}"


run_job(snakemake, download)  # noqa: F821
