"""Rule ``aggregate``: shards -> summary, paired comparisons, budget to match, summary.md."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.analysis.paired import cost_model_comparisons, paired_comparisons
from budgetboost.analysis.summary import CONFIDENCE, budget_to_match, read_shards, summarize
from budgetboost.data.io import job_log, write_table, write_text
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report.summary import summary_markdown

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "aggregate")

try:
    shards = read_shards(list(sm.input.shards))
    catalogue = Catalogue(dict(sm.params.catalogue))
    summary = summarize(shards, catalogue=catalogue)
    comparisons = paired_comparisons(shards, catalogue)
    matches = budget_to_match(summary, catalogue)
    meta = {"shards": len(sm.input.shards), "rows": len(shards), "confidence": CONFIDENCE}
    write_table(summary, sm.output.summary, meta)
    write_table(comparisons, sm.output.comparisons, meta)
    write_table(matches, sm.output.matches, meta)
    baseline = sm.params.baseline
    rises = cost_model_comparisons(shards, baseline=baseline, catalogue=catalogue)
    write_table(rises, sm.output.rises, {**meta, "baseline": baseline})
    write_text(summary_markdown(summary, matches, comparisons, catalogue), sm.output.markdown)
except Exception:
    log.exception("aggregate failed")
    raise
log.info(
    "%d shard rows -> %d summary rows, %d comparisons", len(shards), len(summary), len(comparisons)
)
