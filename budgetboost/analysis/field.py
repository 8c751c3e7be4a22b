"""Which family of methods to use at a test-time budget: the field's question, decided per band.

The findings compare, across datasets, every method of the field's question with every method
of another family it faces (:func:`budgetboost.analysis.findings.questions`: the ``field``
rows, and the ``peers`` rows of the paper's boosters against the library peers). A family
*wins* a budget band when one of its methods is ``better`` than every method of every other
family there: the across-dataset outcome rule of :mod:`budgetboost.analysis.vocabulary`,
an error lower by more than the margin of practical equivalence, so a win is practically
significant and a lead inside the margin never makes one. Otherwise no family wins, and
the method closest to winning (the most ``better`` outcomes, then the fewest ``worse``, then
the lowest median difference) is named with each of its rows, whatever they read. Nothing
is concluded from a method's absence: only families with a method in the rows take part,
and a pair of families never compared leaves the band without a winner.

**What each verdict controls.** A win is one statement, that every one of the method's rows
reads ``better``: an intersection-union test, at the level of each row (Berger 1982), so
its rows are read as they are. Without a winner, the sentence states each of the closest
method's rows apart (lower than this one, equivalent to that one), so those rows' outcomes
are read again with Holm over them (their ``p_beyond`` and ``p_equivalence``, each already
Holm-adjusted over its comparison's bands): at a true lead on the margin, where each row may
falsely read ``better`` with probability up to 2.5 %, the eight rows of the suite's field
would otherwise say something false in up to a fifth of the bands.

References
----------
R. L. Berger, "Multiparameter hypothesis testing and acceptance sampling", Technometrics
24:295-300, 1982. S. Holm, "A simple sequentially rejective multiple test procedure",
Scandinavian Journal of Statistics 6:65-70, 1979.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from budgetboost.analysis.significance import holm
from budgetboost.analysis.vocabulary import (
    ALL,
    BETTER,
    FINDING_BANDS,
    TOO_FEW_DATASETS,
    WORSE,
    decide,
)
from budgetboost.catalogue import Catalogue

__all__ = ["FIELD_QUESTIONS", "FamilyVerdict", "each_stated", "family_verdicts", "pairwise"]

#: The findings' questions whose rows face one family with another.
FIELD_QUESTIONS = ("field", "peers")
_FLIP = {BETTER: WORSE, WORSE: BETTER}


@dataclass(frozen=True)
class FamilyVerdict:
    """The verdict of one band.

    Attributes
    ----------
    band : str
        The budget band.
    family : str or None
        The winning family, None when no family wins.
    method : str or None
        The method that beats every other family's (or, without a winner, the closest).
    rows : DataFrame
        That method against each method of the other families (x's error minus y's, across
        datasets), in the columns of :func:`pairwise`; without a winner, ``outcome`` is the
        row's outcome with Holm over these rows (module docstring), ``p_beyond`` and
        ``p_equivalence`` so adjusted.
    """

    band: str
    family: str | None
    method: str | None
    rows: pd.DataFrame


def pairwise(findings: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """Every across-dataset row of the field's questions, in both directions, between
    methods of different families: ``x, y, band, outcome, hodges_lehmann, ci_low,
    ci_high, datasets, p_beyond, p_equivalence`` (the reversed rows with the difference,
    interval and outcome turned round; the two p-values hold either way), with each side's
    family."""
    columns = [
        "x",
        "y",
        "dataset",
        "band",
        "outcome",
        "hodges_lehmann",
        "ci_low",
        "ci_high",
        "datasets",
        "p_beyond",
        "p_equivalence",
    ]
    if findings.empty:
        return pd.DataFrame(columns=[*columns, "family_x", "family_y"])
    rows = findings[findings["question"].isin(FIELD_QUESTIONS) & (findings["dataset"] == ALL)]
    rows = rows[columns]
    turned = rows.assign(
        x=rows["y"],
        y=rows["x"],
        outcome=rows["outcome"].map(lambda o: _FLIP.get(o, o)),
        hodges_lehmann=-rows["hodges_lehmann"],
        ci_low=-rows["ci_high"],
        ci_high=-rows["ci_low"],
    )
    both = pd.concat([rows, turned], ignore_index=True)
    catalogue = catalogue.including(pd.concat([both["x"], both["y"]]))
    both["family_x"] = both["x"].map(lambda n: catalogue[n].family)
    both["family_y"] = both["y"].map(lambda n: catalogue[n].family)
    both = both[both["family_x"] != both["family_y"]]
    return both.drop_duplicates(["x", "y", "band"]).reset_index(drop=True)


def family_verdicts(
    findings: pd.DataFrame, catalogue: Catalogue, bands: tuple[str, ...] = FINDING_BANDS
) -> list[FamilyVerdict]:
    """The verdict of each band (see the module docstring)."""
    table = pairwise(findings, catalogue)
    verdicts = []
    for band in bands:
        part = table[table["band"] == band]
        if part.empty:
            verdicts.append(FamilyVerdict(band, None, None, part))
            continue
        methods = pd.concat([part["x"], part["y"]])
        family = dict(zip(part["x"], part["family_x"], strict=True))
        families = set(part["family_x"])
        candidates = []
        for method in catalogue.including(methods).sort(part["x"]):
            mine = part[part["x"] == method]
            others = {m for m in methods.unique() if family.get(m) != family[method]}
            faced = set(mine["y"])
            wins = int((mine["outcome"] == BETTER).sum())
            losses = int((mine["outcome"] == WORSE).sum())
            beats_all = faced == others and wins == len(others) and len(families) > 1
            median = float(np.nanmedian(mine["hodges_lehmann"])) if len(mine) else np.inf
            candidates.append((not beats_all, -wins, losses, median, method, mine))
        candidates.sort(key=lambda c: c[:4])
        first = candidates[0]
        winner = not first[0]
        rows = first[5] if winner else each_stated(first[5])
        verdicts.append(
            FamilyVerdict(
                band,
                family[first[4]] if winner else None,
                first[4],
                rows.sort_values("hodges_lehmann").reset_index(drop=True),
            )
        )
    return verdicts


def each_stated(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` (one method against others) with each outcome read again with Holm over
    them: every statement of a sentence that names them one by one holds together at the
    level (module docstring). ``too few datasets`` stays."""
    p_beyond, p_equivalence = holm(rows["p_beyond"]), holm(rows["p_equivalence"])
    outcome = [
        decide(
            short=TOO_FEW_DATASETS if was == TOO_FEW_DATASETS else None,
            p_beyond=pb,
            p_equivalence=pe,
            lower=hl < 0,
        )
        for was, pb, pe, hl in zip(
            rows["outcome"], p_beyond, p_equivalence, rows["hodges_lehmann"], strict=True
        )
    ]
    return rows.assign(outcome=outcome, p_beyond=p_beyond, p_equivalence=p_equivalence)
