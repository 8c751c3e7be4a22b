"""Rule ``claims``: the paper's claims checked on this run -> claims.parquet, claims.md."""

import sys
from collections import defaultdict
from pathlib import Path

# run the workflow's own copy of the package (the code its rules declare as input)
sys.path.insert(0, str(Path(snakemake.scriptdir).resolve().parents[1]))  # noqa: F821

import pandas as pd

from budgetboost.analysis import claims
from budgetboost.analysis.stump_agreement import stump_agreement
from budgetboost.data.io import job_log, read_table, write_table, write_text
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report.claims import claims_markdown
from budgetboost.report.findings import findings_sections

sm = snakemake  # noqa: F821
log = job_log(sm.log[0], "claims")
catalogue = Catalogue(dict(sm.params.catalogue))  # who plays which of the paper's roles

try:
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
    )
    table = claims.claims_table(results)
    write_table(
        table,
        sm.output.table,
        {"thresholds": claims.thresholds_table().astype(str).to_dict("records")},
    )
    write_table(
        claims.evidence_table(results),
        sm.output.evidence,
        {"thresholds": claims.thresholds_table().astype(str).to_dict("records")},
    )
    sections = findings_sections(read_table(sm.input.findings), catalogue)
    write_text(claims_markdown(results, catalogue, sections), sm.output.markdown)
except Exception:
    log.exception("claims failed")
    raise
for row in table.itertuples():
    log.info("claim %s: %s", row.claim, row.verdict)
