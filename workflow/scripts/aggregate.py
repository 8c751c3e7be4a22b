"""Rule ``aggregate``: shards -> summary, paired comparisons, budget to match, summary.md."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.analysis import stats
from budgetboost.data.io import job_log, write_table, write_text
from budgetboost.pipeline.catalogue import Catalogue

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "aggregate")

try:
    shards = stats.read_shards(list(sm.input.shards))
    catalogue = Catalogue(dict(sm.params.catalogue))
    summary = stats.summarize(shards, catalogue=catalogue)
    comparisons = stats.paired_comparisons(shards, catalogue)
    matches = stats.budget_to_match(summary, catalogue)
    meta = {"shards": len(sm.input.shards), "rows": len(shards), "confidence": stats.CONFIDENCE}
    write_table(summary, sm.output.summary, meta)
    write_table(comparisons, sm.output.comparisons, meta)
    write_table(matches, sm.output.matches, meta)
    rises = stats.cost_model_comparisons(shards, catalogue=catalogue)
    write_table(rises, sm.output.rises, {**meta, "baseline": stats.BASELINE_COST_MODEL})
    write_text(stats.summary_markdown(summary, matches, comparisons, catalogue), sm.output.markdown)
except Exception:
    log.exception("aggregate failed")
    raise
log.info(
    "%d shard rows -> %d summary rows, %d comparisons", len(shards), len(summary), len(comparisons)
)
