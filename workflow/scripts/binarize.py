"""Rule ``binarize``: raw table -> ``results/data/{dataset}.parquet`` (the paper's features)."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.datasets import build_binarized, write_binarized
from budgetboost.pipeline.job import run_job


def binarize(sm, job):
    data = build_binarized(sm.wildcards.dataset, dict(sm.params.entry), ".")
    write_binarized(data, sm.output[0])
    return f"{sm.wildcards.dataset}: {data.X.shape[0]} rows, {data.X.shape[1]} indicators"


run_job(snakemake, binarize)  # noqa: F821
