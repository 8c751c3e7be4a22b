"""Rule ``binarize``: raw table -> ``results/data/{dataset}.parquet`` (the paper's features)."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

import logging

from budgetboost.datasets import build_binarized, write_binarized

sm = snakemake  # noqa: F821
logging.basicConfig(filename=sm.log[0], filemode="w", level=logging.INFO,
                    format="%(asctime)s %(levelname)s %(message)s")
try:
    data = build_binarized(sm.wildcards.dataset, dict(sm.params.entry), ".")
    write_binarized(data, sm.output[0])
except Exception:
    logging.exception("binarize %s failed", sm.wildcards.dataset)
    raise
logging.info("%s: %d rows, %d indicators", sm.wildcards.dataset, *data.X.shape)
