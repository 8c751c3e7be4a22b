"""Rule ``aggregate``: shards -> summary, comparisons, findings, ranks, budget to match,
summary.md."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.analysis.results import aggregate
from budgetboost.analysis.summary import CONFIDENCE, read_shards
from budgetboost.data.io import write_table, write_text
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.pipeline.job import run_job
from budgetboost.report.summary import summary_markdown


def aggregate_shards(sm, job):
    shards = read_shards(list(sm.input.shards))
    catalogue = Catalogue.from_param(sm.params.catalogue)
    results = aggregate(shards, catalogue, sm.params.baseline)
    meta = {
        "shards": len(sm.input.shards),
        "rows": len(shards),
        "confidence": CONFIDENCE,
        "baseline": sm.params.baseline,
    }
    for name in ("summary", "comparisons", "budget_to_match", "findings", "ranks"):
        write_table(getattr(results, name), getattr(sm.output, name), meta)
    write_text(summary_markdown(results, catalogue), sm.output.markdown)
    return (
        f"{len(shards)} shard rows -> {len(results.summary)} summary rows, "
        f"{len(results.comparisons)} comparison rows"
    )


run_job(snakemake, aggregate_shards)  # noqa: F821
