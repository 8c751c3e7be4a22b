"""Findings beyond the paper's claims: which comparisons are asked, and their outcomes.

The paper's claims (:mod:`budgetboost.analysis.claims`) get a verdict; the questions the paper
leaves open, and the comparison with the libraries everyone uses, get *findings*: rows of
:func:`budgetboost.analysis.paired.compare`, one per (x, y, dataset, cost model, band) with
the mean paired difference, its interval, the exact test, the smallest difference it could
detect and an outcome (``better``, ``worse``, ``equivalent``, ``inconclusive``), plus one
row across datasets per (x, y, band). The questions, from the run's catalogue:

* ``field`` (which approach to use at a test-time budget): each algorithm of the field's
  families (:data:`~budgetboost.catalogue.FIELD_FAMILIES`: optimal cost-sensitive
  trees, forest pruning, per-example feature acquisition, and a method of a user's of family
  ``other``) against the paper's boosters that
  face the peers, each library peer and each other such algorithm (each pair once);
* ``peers`` (beyond the paper): each booster that faces the peers
  (:meth:`~budgetboost.catalogue.Catalogue.peer_opponents`: Smoothed and Greedy as
  published, and their tuned variants) against each algorithm of family ``peer``;
* ``tuning``: each tuned variant against its base as published (what tuning is worth);
* ``trees`` (Section 8, first question): boosting depth-2 trees against stumps, same
  criterion (the ``boosted_trees`` variants);
* ``costs`` (Section 8, second and third questions): each algorithm under each open cost
  model against itself under the baseline U[0, 2], paired by trial (same split, other
  costs); ``worse`` means its error rises.

``summary.md``, ``claims.md`` and the report's first page read this one table
(``results/summary/findings.parquet``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd

from budgetboost.analysis.paired import Comparison
from budgetboost.analysis.roles import paper_regime
from budgetboost.analysis.vocabulary import ALL, FINDING_BANDS, OUTCOMES
from budgetboost.catalogue import FIELD_FAMILIES, Catalogue

__all__ = [
    "QUESTIONS",
    "TALLY_COLUMNS",
    "experiment_pairs",
    "field_pairs",
    "pool",
    "protocol",
    "questions",
    "tally",
]

#: The questions, in the order they are reported.
QUESTIONS = ("field", "peers", "tuning", "trees", "costs")
#: Columns of :func:`tally`.
TALLY_COLUMNS = ["question", "x", "y", "pool", "band", *OUTCOMES, "n", "trials"]


def experiment_pairs(
    shards: pd.DataFrame,
    catalogue: Catalogue,
    baseline: str | None,
    field: Iterable[str] = (),
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
    """The paper's experiments and the open questions' (dataset, cost model) pairs.

    The paper's are the pairs of the paper's regime
    (:func:`budgetboost.analysis.roles.paper_regime`, the one definition the claims read too:
    where the unbudgeted reference ran, or every pair in a run without it, but for the
    ``field`` cost models); the open questions' are the others whose dataset also ran under
    the ``baseline`` cost model, the field's again aside.
    """
    field = set(field)
    ran = shards[["dataset", "cost_model"]].drop_duplicates()
    pairs = set(zip(ran["dataset"], ran["cost_model"], strict=True))
    kept = paper_regime(ran, shards, catalogue, field)
    paper = set(zip(kept["dataset"], kept["cost_model"], strict=True))
    open_ = {
        (d, c)
        for d, c in pairs - paper
        if baseline is not None and c != baseline and c not in field and (d, baseline) in pairs
    }
    return tuple(sorted(paper)), tuple(sorted(open_))


def field_pairs(shards: pd.DataFrame, pools: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    """The (dataset, cost model) pairs that ran under a cost model of the field's regime
    (one of ``pools``, :meth:`budgetboost.pipeline.plan.Plan.field_pools`)."""
    ran = shards[["dataset", "cost_model"]].drop_duplicates()
    ran = ran[ran["cost_model"].isin(list(pools))]
    return tuple(sorted(zip(ran["dataset"], ran["cost_model"], strict=True)))


def questions(
    catalogue: Catalogue,
    paper: tuple[tuple[str, str], ...],
    open_: tuple[tuple[str, str], ...],
    baseline: str | None,
    algorithms: Iterable[str] = (),
    field_regime: tuple[tuple[str, str], ...] = (),
    pools: Mapping[str, str] | None = None,
    binding: frozenset[tuple[str, str, str]] | None = None,
) -> list[Comparison]:
    """The comparisons of every question (see the module docstring); ``algorithms`` are
    those that ran under an open cost model.

    With pairs of the field's regime (``field_regime``: :func:`field_pairs`, ``pools`` each
    cost model's pool), the field's question is asked there, every family against every
    other (the paper's boosters against the peers too), its rows across datasets one per
    pool, and one more per pool on the datasets where the band binds (``binding``: the
    (dataset, cost model, band) triples, :mod:`budgetboost.analysis.binding`); else on the
    paper's experiments.
    """
    peers = catalogue.of_family("peer")
    field = catalogue.of_family(*FIELD_FAMILIES)
    contenders = catalogue.field_contenders()
    where = field_regime or paper
    pooled = tuple(sorted((pools or {}).items())) if field_regime else None
    binds = binding if field_regime else None
    out = [
        Comparison("field", x, y, pairs=where, bands=FINDING_BANDS, pools=pooled, binding=binds)
        for i, x in enumerate(field)
        for y in contenders
        if y != x and y not in field[:i]  # a pair of the field's algorithms once
    ]
    if field_regime:
        out += [
            Comparison("field", x, y, pairs=where, bands=FINDING_BANDS, pools=pooled, binding=binds)
            for x in catalogue.peer_opponents()
            for y in peers
        ]
    out += [
        Comparison("peers", x, y, pairs=paper, bands=FINDING_BANDS)
        for x in catalogue.peer_opponents()
        for y in peers
    ]
    out += [
        Comparison("tuning", v, b, pairs=paper, bands=FINDING_BANDS)
        for v, b in catalogue.tuned_variants()
    ]
    out += [
        Comparison("trees", v, b, pairs=paper, bands=FINDING_BANDS)
        for v, b in catalogue.tree_variants()
    ]
    if baseline is not None and open_:
        out += [
            Comparison("costs", a, a, baseline=baseline, pairs=open_, bands=FINDING_BANDS)
            for a in catalogue.including(algorithms).sort(algorithms)
        ]
    return out


def pool(rows: pd.DataFrame) -> pd.Series:
    """The pool each row enters across datasets: its ``pool`` column
    (:data:`budgetboost.analysis.paired.COMPARISON_COLUMNS`); for rows without one, the
    cost model of the open questions' rows (each compared with the baseline on its own),
    else ``"all"``."""
    if "pool" in rows:
        return rows["pool"]
    return rows["cost_model"].where(rows["question"] == "costs", ALL)


def tally(rows: pd.DataFrame, catalogue: Catalogue | None = None) -> pd.DataFrame:
    """Per (question, x, y, pool, band): how many (dataset, cost model) rows end in each
    outcome (the rows across datasets left out), and the fewest paired trials behind them;
    ``pool`` as in :func:`pool`, so that each open question's cost model is counted apart."""
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    per_dataset = rows[rows["dataset"] != ALL]
    per_dataset = per_dataset.assign(pool=pool(per_dataset))
    out = []
    for (question, x, y, pooled, band), part in per_dataset.groupby(
        ["question", "x", "y", "pool", "band"], sort=False
    ):
        counts = part["outcome"].value_counts()
        out.append(
            (
                question,
                x,
                y,
                pooled,
                band,
                *(int(counts.get(o, 0)) for o in OUTCOMES),
                len(part),
                int(part["trials"].min()),
            )
        )
    table = pd.DataFrame(out, columns=TALLY_COLUMNS)
    order = {band: i for i, band in enumerate(("small", "medium", "large", "all"))}
    question_order = {q: i for i, q in enumerate(QUESTIONS)}
    return table.sort_values(
        ["question", "x", "y", "band"],
        key=lambda c: (
            c.map(question_order)
            if c.name == "question"
            else c.map(order)
            if c.name == "band"
            else c.map(catalogue.including(c).rank)
        ),
        kind="stable",
    ).reset_index(drop=True)


def protocol(catalogue: Catalogue, name: str) -> str:
    """How ``name`` chose what it used: ``tuned`` (on a validation part of its training
    rows), ``as published`` (one of the paper's algorithms, by its role, with the paper's
    settings: tau = 1 for its boosters) or ``fixed settings`` (any other algorithm that
    chooses nothing, e.g. a user's method or the depth-2 trees of the paper's future work)."""
    algorithm = catalogue.including([name])[name]
    if algorithm.tuned:
        return "tuned"
    return "as published" if algorithm.role is not None else "fixed settings"
