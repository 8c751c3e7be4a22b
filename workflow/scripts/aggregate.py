"""Rule ``aggregate``: shards -> summary, paired comparisons, budget to match, summary.md."""

from budgetboost import stats
from budgetboost.io import atomic_path, job_log, write_table

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "aggregate")

try:
    shards = stats.read_shards(list(sm.input.shards))
    summary = stats.summarize(shards)
    comparisons = stats.paired_comparisons(shards)
    matches = stats.budget_to_match(summary)
    meta = {"shards": len(sm.input.shards), "rows": len(shards),
            "confidence": stats.CONFIDENCE}
    write_table(summary, sm.output.summary, meta)
    write_table(comparisons, sm.output.comparisons, meta)
    write_table(matches, sm.output.matches, meta)
    with atomic_path(sm.output.markdown, suffix=".md") as tmp:
        tmp.write_text(stats.summary_markdown(summary, matches, comparisons), encoding="utf-8")
except Exception:
    log.exception("aggregate failed")
    raise
log.info("%d shard rows -> %d summary rows, %d comparisons", len(shards), len(summary),
         len(comparisons))
