"""Rule ``aggregate``: shards -> summary, comparisons, findings, ranks, budget to match,
summary.md."""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.analysis.results import aggregate
from budgetboost.analysis.summary import read_shards
from budgetboost.analysis.vocabulary import CONFIDENCE
from budgetboost.data.costs import varied_pairs
from budgetboost.data.io import job_log, write_table, write_text
from budgetboost.data.splits import read_sizes
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report.summary import summary_markdown

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "aggregate")

try:
    shards = read_shards(list(sm.input.shards))
    catalogue = Catalogue(dict(sm.params.catalogue))
    sizes = read_sizes(list(sm.input.splits))
    varied = varied_pairs(list(sm.input.costs))
    results = aggregate(shards, catalogue, sm.params.baseline, sizes, varied)
    meta = {
        "shards": len(sm.input.shards),
        "rows": len(shards),
        "confidence": CONFIDENCE,
        "baseline": sm.params.baseline,
        "sizes": {name: size._asdict() for name, size in sizes.items()},
        "varied_cost_models": sorted(map(list, varied)),
    }
    for name in ("summary", "comparisons", "budget_to_match", "findings", "ranks"):
        write_table(getattr(results, name), getattr(sm.output, name), meta)
    write_text(summary_markdown(results, catalogue), sm.output.markdown)
except Exception:
    log.exception("aggregate failed")
    raise
log.info(
    "%d shard rows -> %d summary rows, %d comparison rows",
    len(shards),
    len(results.summary),
    len(results.comparisons),
)
