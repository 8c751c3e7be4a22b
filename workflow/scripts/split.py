"""Rule ``split``: per-trial train/test splits of Table 1's sizes (every trial)."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.datasets import read_binarized
from budgetboost.data.splits import check_training_classes, make_splits, write_splits
from budgetboost.pipeline.job import run_job


def split(sm, job):
    params = sm.params.split
    y = read_binarized(sm.input.data).y
    sizes = (params["train_size"], params["test_size"], params["trials"])
    splits = make_splits(sm.wildcards.dataset, len(y), *sizes)
    check_training_classes(sm.wildcards.dataset, y, *sizes)
    write_splits(splits, sm.output[0])
    return f"{sm.wildcards.dataset}: {sizes[2]} trials of {sizes[0]}/{sizes[1]} rows"


run_job(snakemake, split)  # noqa: F821
