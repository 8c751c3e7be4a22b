"""Rule ``binarize``: raw table -> ``results/data/{dataset}.parquet`` (the paper's features)."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.datasets import build_binarized, write_binarized
from budgetboost.data.io import job_log

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "binarize")
try:
    data = build_binarized(sm.wildcards.dataset, dict(sm.params.entry), ".")
    write_binarized(data, sm.output[0])
except Exception:
    log.exception("binarize %s failed", sm.wildcards.dataset)
    raise
log.info("%s: %d rows, %d indicators", sm.wildcards.dataset, *data.X.shape)
