"""Rule ``claims``: the paper's claims checked on this run -> claims.parquet, claims.md."""

import sys
from collections import defaultdict
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

import pandas as pd

from budgetboost.analysis import claims
from budgetboost.analysis.stump_agreement import stump_agreement
from budgetboost.catalogue import Catalogue
from budgetboost.data.io import read_table, write_table, write_text
from budgetboost.pipeline.identity import check_identities
from budgetboost.pipeline.job import run_job
from budgetboost.report.claims import claims_markdown
from budgetboost.report.findings import findings_sections


def check_claims(sm, job):
    catalogue = Catalogue.from_param(sm.params.catalogue)  # who plays which of the paper's roles
    check_identities(list(sm.input.stumps), sm.params.identities)
    # stump tables one (dataset, cost model) at a time: results/stumps/{d}/{c}/{a}/block-k
    pairs = defaultdict(list)
    for path in sm.input.stumps:
        pairs[Path(path).parts[-4:-2]].append(path)
    agreement = (
        stump_agreement(
            (
                pd.concat([read_table(p) for p in paths], ignore_index=True)
                for paths in pairs.values()
            ),
            catalogue,
        )
        if pairs
        else None
    )
    results = claims.check_claims(
        read_table(sm.input.summary),
        read_table(sm.input.comparisons),
        read_table(sm.input.matches),
        agreement=agreement,
        catalogue=catalogue,
        field=sm.params.field,  # the field's regime: no claim reads it
    )
    table = claims.claims_table(results)
    thresholds = claims.thresholds_table().astype(str).to_dict("records")
    write_table(
        table,
        sm.output.table,
        {"thresholds": thresholds},
    )
    write_table(claims.evidence_table(results), sm.output.evidence, {"thresholds": thresholds})
    sections = findings_sections(read_table(sm.input.findings), catalogue)
    write_text(claims_markdown(results, catalogue, sections), sm.output.markdown)
    return "; ".join(f"claim {row.claim}: {row.verdict}" for row in table.itertuples())


run_job(snakemake, check_claims)  # noqa: F821
