"""Rule ``aggregate``: shards -> every registered results table
(``budgetboost.analysis.tables.TABLES``: ``results/summary/{table}.parquet``), summary.md.

The job's threads are processes that compute tables side by side, each with one thread of
the numerical libraries, so the tables are the same bytes whatever ``--cores`` gives it.
"""

import sys
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

from budgetboost.analysis.binding import Prices
from budgetboost.analysis.results import TABLES, aggregate
from budgetboost.analysis.summary import ROW_LOSSES, read_shards
from budgetboost.analysis.vocabulary import CONFIDENCE
from budgetboost.catalogue import Catalogue
from budgetboost.data.costs import read_costs, varied_pairs
from budgetboost.data.datasets import column_attributes
from budgetboost.data.io import write_table, write_text
from budgetboost.data.splits import read_sizes, read_splits
from budgetboost.estimators.contract.threads import limit_threads
from budgetboost.pipeline.identity import check_identities
from budgetboost.pipeline.job import run_job
from budgetboost.report.summary import summary_markdown


def read_prices(cost_paths, data_paths):
    """Each (dataset, cost model)'s prices per trial with the attribute of each indicator
    (from its binarized table's metadata): what the binding table reads."""
    attributes = {Path(p).stem: column_attributes(p) for p in data_paths}
    prices = {}
    for path in map(Path, cost_paths):
        dataset, cost_model = path.parent.name, path.stem
        table = read_costs(path)
        prices[(dataset, cost_model)] = Prices(table.costs, attributes[dataset], table.grouped)
    return prices


def read_tests(paths):
    """``{dataset: {trial: test rows}}`` of the splits files ``results/splits/{dataset}.
    parquet``: where the shards carry each test row's loss, in the split's order, the paired
    tests bound the trials' correlation from them."""
    return {
        Path(path).stem: {trial: test for trial, (_, test) in read_splits(path).items()}
        for path in paths
    }


def aggregate_shards(sm, job):
    declared = [name for name in sm.output.keys() if name != "markdown"]
    if declared != list(TABLES):
        raise ValueError(
            f"rule aggregate declares the tables {declared}, the results registry holds "
            f"{list(TABLES)} (a table registered where the rules are read is registered in "
            "budgetboost/analysis/results.py, which this job imports too)"
        )
    check_identities(list(sm.input.shards), sm.params.identities)
    shards = read_shards(list(sm.input.shards))
    catalogue = Catalogue.from_param(sm.params.catalogue)
    sizes = read_sizes(list(sm.input.splits))
    tests = read_tests(list(sm.input.splits)) if ROW_LOSSES in shards.columns else {}
    varied = varied_pairs(list(sm.input.costs))
    prices = read_prices(list(sm.input.costs), list(sm.input.data))
    limit_threads(1)  # in every process that computes a table
    results = aggregate(
        shards,
        catalogue,
        sm.params.baseline,
        sizes,
        varied,
        sm.params.field,
        prices,
        tests,
        workers=int(sm.threads),
    )
    meta = {
        "shards": len(sm.input.shards),
        "rows": len(shards),
        "confidence": CONFIDENCE,
        "baseline": sm.params.baseline,
        "field": sm.params.field,
        "sizes": {name: size._asdict() for name, size in sizes.items()},
        "varied_cost_models": sorted(map(list, varied)),
    }
    for name, table in results.items():
        write_table(table, sm.output[name], meta)
    write_text(summary_markdown(results, catalogue), sm.output.markdown)
    rows = ", ".join(f"{len(table)} {name}" for name, table in results.items())
    return f"{len(shards)} shard rows -> rows per table: {rows}"


run_job(snakemake, aggregate_shards)  # noqa: F821
