"""How the evidence of a claim becomes its verdict: reproduced, not reproduced, inconclusive.

A claim about the paper's algorithms is a claim about datasets in general, so its verdict
reads the rows *across datasets* of its comparisons
(:mod:`budgetboost.analysis.across_datasets`: one value per dataset, the outcome read off the
interval of the Wilcoxon signed-rank test against the margin,
:data:`~budgetboost.analysis.vocabulary.RULE`); the rows per dataset are the detail under it.

* **"X beats Y"** (claims 1, 2, 3a, 5; :func:`directional_verdict`): reproduced when every
  one of its rows across datasets reads ``better`` (X's error lower by more than the
  margin, Holm over the comparison's bands); not reproduced when any reads ``worse`` or
  ``equivalent`` (practically the same: the interval inside the margin) once its outcome
  is read again with Holm over every row across datasets of the claim (column
  :data:`CLAIM_OUTCOME`); inconclusive otherwise, and when the evidence is
  (``inconclusive`` or ``too few datasets`` rows, or none).
* **"X performs almost identically to Y"** (claim 4a; :func:`equivalence_verdict`):
  reproduced when every row reads ``equivalent``; not reproduced when any reads ``better``
  or ``worse`` (a difference beyond the margin), read with Holm over the claim's rows;
  inconclusive otherwise.

**What each verdict controls.** *Reproduced* says every row holds: an intersection-union
test, at the level of each row (Berger 1982), so the rows are read as they are. *Not
reproduced* says some row holds against the claim, any of several: without a correction
over them, each row's chance of a false *equivalent* adds up (six rows of claim 5 all truly
on the margin read *not reproduced* in about one claim in nine), so those rows' outcomes
are read again with Holm over all of the claim's rows across datasets
(:func:`~budgetboost.analysis.field.each_stated`: their ``p_beyond`` and ``p_equivalence``,
each already Holm-adjusted over its comparison's bands, which makes the two corrections
together conservative where a comparison has several bands, as claim 1's).

Claims 3b, 4b and 6 rest on other evidence (spent budget, stump choices, budgets to match);
their rules are in :mod:`budgetboost.analysis.claims`, their thresholds in
:func:`thresholds_table`.

References
----------
R. L. Berger, "Multiparameter hypothesis testing and acceptance sampling", Technometrics
24:295-300, 1982. S. Holm, "A simple sequentially rejective multiple test procedure",
Scandinavian Journal of Statistics 6:65-70, 1979.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from budgetboost.analysis.field import each_stated
from budgetboost.analysis.vocabulary import (
    ALL,
    BETTER,
    EQUIVALENT,
    INCONCLUSIVE,
    TOO_FEW_DATASETS,
    WORSE,
)

__all__ = [
    "CLAIM_OUTCOME",
    "NOT_REPRODUCED",
    "NOT_TESTED",
    "REPRODUCED",
    "UNDECIDED",
    "VERDICTS",
    "ClaimResult",
    "directional_verdict",
    "equivalence_verdict",
    "read_with_the_claim",
]

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
#: The verdict when the evidence does not decide (the same word as the outcome).
UNDECIDED = INCONCLUSIVE
#: The verdict of a claim the run cannot test: what it needs did not run (its datasets, its
#: algorithms, varied costs), or too few datasets for any outcome across them. Not
#: "inconclusive", which says the evidence was there and did not decide.
NOT_TESTED = "not tested"
#: The verdicts, in reading order.
VERDICTS = (REPRODUCED, NOT_REPRODUCED, UNDECIDED, NOT_TESTED)
#: The column of a claim's rows across datasets holding each row's outcome read with Holm
#: over all of them (:func:`read_with_the_claim`); ``outcome`` keeps the table's.
CLAIM_OUTCOME = "claim_outcome"


@dataclass
class ClaimResult:
    """Verdict and evidence of one claim.

    ``evidence`` is the sentence ``claims.md`` prints; ``deciding`` the rows across datasets
    the verdict rests on (empty for claims decided otherwise); ``detail`` every row behind
    the evidence (``claims_evidence.parquet``).
    """

    claim: str
    verdict: str
    evidence: str
    statement: str = ""
    deciding: pd.DataFrame = field(default_factory=pd.DataFrame)
    detail: pd.DataFrame = field(default_factory=pd.DataFrame)


def _across(rows: pd.DataFrame) -> pd.DataFrame:
    return rows[rows["dataset"] == ALL] if not rows.empty else rows


def read_with_the_claim(rows: pd.DataFrame) -> pd.DataFrame:
    """A claim's comparison rows with :data:`CLAIM_OUTCOME` on its rows across datasets:
    each outcome read again with Holm over all of them (module docstring); NaN on the rows
    per dataset."""
    out = rows.assign(**{CLAIM_OUTCOME: pd.Series(pd.NA, index=rows.index, dtype=object)})
    across = _across(rows)
    if not across.empty:
        out.loc[across.index, CLAIM_OUTCOME] = each_stated(across)["outcome"].to_numpy()
    return out


def _verdict(rows: pd.DataFrame, claimed: str, against: set[str]) -> str:
    """Reproduced when every row across datasets reads ``claimed``, not reproduced when any
    reads one of ``against`` with Holm over them (:data:`CLAIM_OUTCOME`, when given); not
    tested when there is no such row or none has enough datasets for an outcome; else
    undecided."""
    across = _across(rows)
    if across.empty:
        return NOT_TESTED
    outcomes = set(across["outcome"])
    if outcomes == {TOO_FEW_DATASETS}:
        return NOT_TESTED
    if outcomes == {claimed}:
        return REPRODUCED
    together = set(across[CLAIM_OUTCOME]) if CLAIM_OUTCOME in across else outcomes
    return NOT_REPRODUCED if together & against else UNDECIDED


def directional_verdict(rows: pd.DataFrame) -> str:
    """The verdict of an "X beats Y" claim from its comparison rows (module docstring)."""
    return _verdict(rows, BETTER, {WORSE, EQUIVALENT})


def equivalence_verdict(rows: pd.DataFrame) -> str:
    """The verdict of an "X performs almost identically to Y" claim (module docstring)."""
    return _verdict(rows, EQUIVALENT, {BETTER, WORSE})


#: What each outcome across datasets does to a verdict, for ``claims.md``.
RULES = {
    "directional": (
        f"reproduced if every row across datasets is *{BETTER}*; not reproduced if any is "
        f"*{WORSE}* or *{EQUIVALENT}* read with Holm over all the claim's rows across "
        f"datasets; not tested if there is no row or every row is *{TOO_FEW_DATASETS}*; "
        "otherwise inconclusive"
    ),
    "equivalence": (
        f"reproduced if every row across datasets is *{EQUIVALENT}*; not reproduced if any "
        f"is *{BETTER}* or *{WORSE}* read with Holm over all the claim's rows across "
        f"datasets; not tested if there is no row or every row is *{TOO_FEW_DATASETS}*; "
        "otherwise inconclusive"
    ),
}
