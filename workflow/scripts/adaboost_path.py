"""Rule ``adaboost_path``: the shared plain AdaBoost path of each trial of a block."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.datasets import read_binarized
from budgetboost.data.io import write_table
from budgetboost.data.splits import split_indices
from budgetboost.pipeline.adaboost_path import fit_adaboost_paths, write_adaboost_paths
from budgetboost.pipeline.job import run_job


def adaboost_path(sm, job):
    dataset, trials = sm.wildcards.dataset, [int(t) for t in sm.params.trials]
    data = read_binarized(sm.input.data)
    sizes, rounds = sm.params.split, int(sm.params.max_rounds)
    splits = {
        t: split_indices(dataset, t, len(data.y), sizes["train_size"], sizes["test_size"])
        for t in trials
    }
    job.doing(f"the shared AdaBoost path of dataset {dataset!r}, trials {trials}")
    paths, timings = fit_adaboost_paths(data.X, data.y, splits, trials, rounds)
    about = {
        "dataset": dataset,
        "trials": trials,
        "max_rounds": rounds,
        "split": dict(sizes),
        "versions": dict(sm.params.versions),
    }
    write_adaboost_paths(paths, sm.output.paths, about)
    write_table(timings, sm.output.timings, about)
    return f"{dataset}: {len(trials)} trials, {timings['fit_seconds'].sum():.2f} s"


run_job(snakemake, adaboost_path)  # noqa: F821
