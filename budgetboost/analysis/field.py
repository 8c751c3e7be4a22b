"""Which family of methods to use at a test-time budget: the field's question, decided per band.

The findings compare, across datasets, every method of the field's question with every method
of another family it faces (:func:`budgetboost.analysis.findings.questions`: the ``field``
rows, and the ``peers`` rows of the paper's boosters against the library peers). A family
*wins* a budget band when one of its methods is ``better`` (the across-dataset outcome rule
of :mod:`budgetboost.analysis.vocabulary`) than every method of every other family there;
otherwise no family wins, and the method closest to winning (the most ``better`` outcomes,
then the fewest ``worse``, then the lowest median difference) is named with what it did
not beat. Nothing is concluded from a method's absence: only families with a method in the
rows take part, and a pair of families never compared leaves the band without a winner.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from budgetboost.analysis.vocabulary import ALL, BETTER, WORSE
from budgetboost.pipeline.catalogue import Catalogue

__all__ = ["FIELD_QUESTIONS", "FamilyVerdict", "family_verdicts", "pairwise"]

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
        That method against each method of the other families: ``y``, ``family``,
        ``outcome``, ``hodges_lehmann``, ``ci_low``, ``ci_high``, ``datasets`` (x's error
        minus y's, across datasets).
    """

    band: str
    family: str | None
    method: str | None
    rows: pd.DataFrame


def pairwise(findings: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """Every across-dataset row of the field's questions, in both directions, between
    methods of different families: ``x, y, band, outcome, hodges_lehmann, ci_low,
    ci_high, datasets`` (the reversed rows with the difference, interval and outcome turned
    round), with each side's family."""
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
    findings: pd.DataFrame, catalogue: Catalogue, bands: tuple[str, ...] = ("small", "large")
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
        verdicts.append(
            FamilyVerdict(
                band,
                family[first[4]] if winner else None,
                first[4],
                first[5].sort_values("hodges_lehmann").reset_index(drop=True),
            )
        )
    return verdicts
