"""Rule ``adaboost_path``: the shared plain AdaBoost path of each trial of a block."""

import os
import sys
from pathlib import Path

# one job = one core: keep BLAS/OpenMP pools from oversubscribing parallel jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, str(snakemake.threads))  # noqa: F821
# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.datasets import read_binarized  # noqa: E402
from budgetboost.data.io import job_log, write_table  # noqa: E402
from budgetboost.data.splits import split_indices  # noqa: E402
from budgetboost.pipeline.shared_path import fit_adaboost_paths, write_adaboost_paths  # noqa: E402

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "adaboost_path")
dataset, trials = sm.wildcards.dataset, [int(t) for t in sm.params.trials]
try:
    data = read_binarized(sm.input.data)
    sizes = sm.params.split
    splits = {
        t: split_indices(dataset, t, len(data.y), sizes["train_size"], sizes["test_size"])
        for t in trials
    }
    paths, timings = fit_adaboost_paths(data.X, data.y, splits, trials, int(sm.params.max_rounds))
    about = {
        "dataset": dataset,
        "trials": trials,
        "max_rounds": int(sm.params.max_rounds),
        "split": dict(sizes),
        "versions": dict(sm.params.versions),
    }
    write_adaboost_paths(paths, sm.output.paths, about)
    write_table(timings, sm.output.timings, about)
except Exception:
    log.exception("adaboost_path %s block %s failed", dataset, sm.wildcards.block)
    raise
log.info("%s: %d trials, %.2f s", dataset, len(trials), timings["fit_seconds"].sum())
