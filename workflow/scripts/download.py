"""Rule ``download``: fetch one file of a ``url`` source, checked against its sha256."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.data.download import fetch
from budgetboost.data.io import job_log

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "download")
try:
    fetch(sm.params.source["url"], sm.params.source["sha256"], sm.output[0])
except Exception:
    log.exception("download of %s failed", sm.params.source["url"])
    raise
log.info("downloaded %s to %s", sm.params.source["url"], sm.output[0])
