"""How the evidence of a claim becomes its verdict: reproduced, not reproduced, inconclusive.

A claim about the paper's algorithms is a claim about datasets in general, so its verdict
reads the rows *across datasets* of its comparisons (:mod:`budgetboost.analysis.
across_datasets`: one value per dataset, the outcome read off the interval of the Wilcoxon
signed-rank test against the margin, :data:`~budgetboost.analysis.vocabulary.RULE`); the
rows per dataset are the detail under it.

* **"X beats Y"** (claims 1, 2, 3a, 5; :func:`directional_verdict`): reproduced when every
  one of its rows across datasets reads ``better`` (X's error lower by more than the
  margin, Holm over the comparison's bands); not reproduced when any reads ``worse`` or
  ``equivalent`` (practically the same: the interval inside the margin); inconclusive
  otherwise, and when the evidence is (``inconclusive`` or ``too few datasets`` rows, or
  none).
* **"X performs almost identically to Y"** (claim 4a; :func:`equivalence_verdict`):
  reproduced when every row reads ``equivalent``; not reproduced when any reads ``better``
  or ``worse`` (a difference beyond the margin); inconclusive otherwise.

Claims 3b, 4b and 6 rest on other evidence (spent budget, stump choices, budgets to match);
their rules are in :mod:`budgetboost.analysis.claims`, their thresholds in
:func:`thresholds_table`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from budgetboost.analysis.vocabulary import (
    ALL,
    BETTER,
    EQUIVALENT,
    INCONCLUSIVE,
    TOO_FEW_DATASETS,
    WORSE,
)

__all__ = [
    "NOT_REPRODUCED",
    "NOT_TESTED",
    "REPRODUCED",
    "UNDECIDED",
    "VERDICTS",
    "ClaimResult",
    "directional_verdict",
    "equivalence_verdict",
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


def _verdict(rows: pd.DataFrame, claimed: str, against: set[str]) -> str:
    """Reproduced when every row across datasets reads ``claimed``, not reproduced when any
    reads one of ``against``; not tested when there is no such row or none has enough
    datasets for an outcome; else undecided."""
    across = _across(rows)
    if across.empty:
        return NOT_TESTED
    outcomes = set(across["outcome"])
    if outcomes == {TOO_FEW_DATASETS}:
        return NOT_TESTED
    if outcomes & against:
        return NOT_REPRODUCED
    return REPRODUCED if outcomes == {claimed} else UNDECIDED


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
        f"*{WORSE}* or *{EQUIVALENT}*; not tested if there is no row or every row is "
        f"*{TOO_FEW_DATASETS}*; otherwise inconclusive"
    ),
    "equivalence": (
        f"reproduced if every row across datasets is *{EQUIVALENT}*; not reproduced if any "
        f"is *{BETTER}* or *{WORSE}*; not tested if there is no row or every row is "
        f"*{TOO_FEW_DATASETS}*; otherwise inconclusive"
    ),
}
