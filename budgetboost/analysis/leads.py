"""Where each family leads: per dataset, which family of methods is ahead beyond the margin.

The across-dataset verdict (:mod:`budgetboost.analysis.field`) asks whether a family wins
on datasets in general; a lead confined to the datasets where budgets bind averages away
there. This module reads the field's per-dataset rows instead (each a paired test over the
dataset's trials, Holm-adjusted over its comparison's rows) and says, per (reading, pool,
band), on how many datasets each family

* **leads**: one of its methods reads ``better`` than every method of every other family
  on that dataset (all their rows present);
* is **on par**: not leading, and one of its methods reads ``better`` or ``equivalent``
  against every method of every other family (no row of that method reads otherwise);
* **trails**: every one of its methods reads ``worse`` than some method of another family;
* is **undecided**: none of these.

The four are exclusive. Each count is also given on the datasets where the band binds
(:mod:`budgetboost.analysis.binding`), and the datasets a family leads on are named.

A family leads on a dataset only if each row of one method reads ``better``: an
intersection-union test at the level of each row, so one falsely leading dataset needs a
false ``better`` in the comparison against the method that is truly as good; the rate at
which a count names such a dataset is measured by ``benchmarks/headlines.py --confined``.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from budgetboost.analysis.binding import band_binds
from budgetboost.analysis.vocabulary import ALL, BETTER, EQUIVALENT, WORSE
from budgetboost.catalogue import Catalogue

__all__ = ["LEAD_COLUMNS", "STANDINGS", "dataset_standings", "leads", "standings_of_run"]

#: A family's standing on one dataset, in the order they are counted.
STANDINGS = ("leads", "on_par", "trails", "undecided")
#: Columns of :func:`leads`.
LEAD_COLUMNS = [
    "reading",
    "pool",
    "band",
    "family",
    "datasets",
    *STANDINGS,
    "binding_datasets",
    *(f"{s}_binding" for s in STANDINGS),
    "leads_on",
]
_FLIP = {BETTER: WORSE, WORSE: BETTER}


def _both_ways(rows: pd.DataFrame) -> pd.DataFrame:
    """Each row and its mirror (y against x, the outcome turned round)."""
    turned = rows.assign(
        x=rows["y"], y=rows["x"], outcome=rows["outcome"].map(lambda o: _FLIP.get(o, o))
    )
    return pd.concat([rows, turned], ignore_index=True)


def dataset_standings(rows: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """Each family's standing (:data:`STANDINGS`) per (dataset, cost model, band) from the
    field's per-dataset rows (columns ``x, y, dataset, cost_model, band, outcome``).

    Returns
    -------
    DataFrame
        ``dataset, cost_model, band, family, standing``.
    """
    columns = ["dataset", "cost_model", "band", "family", "standing"]
    if rows.empty:
        return pd.DataFrame(columns=columns)
    both = _both_ways(rows[["x", "y", "dataset", "cost_model", "band", "outcome"]])
    catalogue = catalogue.including(pd.concat([both["x"], both["y"]]))
    both["family_x"] = both["x"].map(lambda n: catalogue[n].family)
    both["family_y"] = both["y"].map(lambda n: catalogue[n].family)
    both = both[both["family_x"] != both["family_y"]].drop_duplicates(
        ["x", "y", "dataset", "cost_model", "band"]
    )
    out = []
    for (dataset, cost_model, band), part in both.groupby(
        ["dataset", "cost_model", "band"], sort=False
    ):
        family = dict(zip(part["x"], part["family_x"], strict=False))
        methods = set(family)
        per_method = {}
        for method, mine in part.groupby("x", sort=False):
            others = {m for m in methods if family[m] != family[method]}
            complete = set(mine["y"]) == others
            outcome = mine["outcome"]
            per_method[method] = (
                complete and bool((outcome == BETTER).all()),
                complete and bool(outcome.isin([BETTER, EQUIVALENT]).all()),
                bool((outcome == WORSE).any()),
            )
        for fam in sorted(set(family.values())):
            mine = [per_method[m] for m in methods if family[m] == fam]
            if any(m[0] for m in mine):
                standing = "leads"
            elif any(m[1] for m in mine):
                standing = "on_par"
            elif all(m[2] for m in mine):
                standing = "trails"
            else:
                standing = "undecided"
            out.append((dataset, cost_model, band, fam, standing))
    return pd.DataFrame(out, columns=columns)


def leads(
    readings: Mapping[str, pd.DataFrame], catalogue: Catalogue, binding: pd.DataFrame
) -> pd.DataFrame:
    """The counts of the module docstring, columns :data:`LEAD_COLUMNS`.

    Parameters
    ----------
    readings : mapping of str to DataFrame
        Per reading (``cap``, ``mean``: :data:`budgetboost.analysis.average_cost.READINGS`),
        the findings' rows (question ``field``; the per-dataset rows are read, each counted
        in its ``pool``).
    catalogue : Catalogue
    binding : DataFrame
        :func:`budgetboost.analysis.binding.binding` of the run.
    """
    out = []
    for reading, findings in readings.items():
        rows = findings[(findings["question"] == "field") & (findings["dataset"] != ALL)]
        if rows.empty:
            continue
        standings = dataset_standings(rows, catalogue)
        if standings.empty:  # no row faces two families
            continue
        pools = rows.drop_duplicates("cost_model").set_index("cost_model")["pool"]
        standings["pool"] = standings["cost_model"].map(pools).fillna(ALL)
        binds = pd.concat(
            [band_binds(binding, band) for band in standings["band"].unique()],
            ignore_index=True,
        )
        if binds.empty:
            standings["binds"] = False
        else:
            standings = standings.merge(
                binds[["dataset", "cost_model", "band", "binds"]],
                on=["dataset", "cost_model", "band"],
                how="left",
            )
            standings["binds"] = standings["binds"].fillna(False).astype(bool)
        for (pool, band, family), part in standings.groupby(["pool", "band", "family"], sort=False):
            counts = part["standing"].value_counts()
            bound = part[part["binds"]]
            counts_bound = bound["standing"].value_counts()
            led = part[part["standing"] == "leads"]
            out.append(
                (
                    reading,
                    pool,
                    band,
                    family,
                    len(part),
                    *(int(counts.get(s, 0)) for s in STANDINGS),
                    len(bound),
                    *(int(counts_bound.get(s, 0)) for s in STANDINGS),
                    ", ".join(sorted(_where(led))),
                )
            )
    table = pd.DataFrame(out, columns=LEAD_COLUMNS)
    integers = {
        c: "int64"
        for c in LEAD_COLUMNS
        if c not in ("reading", "pool", "band", "family", "leads_on")
    }
    return table.astype(integers)


def _where(part: pd.DataFrame) -> list[str]:
    """Datasets named as ``dataset`` (``dataset (cost model)`` where a pool has several)."""
    several = part["cost_model"].nunique() > 1
    return [
        f"{d} ({c})" if several else str(d)
        for d, c in zip(part["dataset"], part["cost_model"], strict=True)
    ]


def standings_of_run(tables: Mapping[str, pd.DataFrame], catalogue: Catalogue) -> pd.DataFrame:
    """Every family's standing per (reading, pool, dataset, cost model, band):
    :func:`dataset_standings` of the findings (hard cap) and of
    ``field_mean_cost`` (mean cost), with the pool of each row and whether the band binds."""
    parts = []
    for reading, name in (("cap", "findings"), ("mean", "field_mean_cost")):
        rows = tables[name]
        rows = rows[(rows["question"] == "field") & (rows["dataset"] != ALL)]
        if rows.empty:
            continue
        found = dataset_standings(rows, catalogue)
        pools = rows.drop_duplicates("cost_model").set_index("cost_model")["pool"]
        parts.append(found.assign(reading=reading, pool=found["cost_model"].map(pools)))
    if not parts:
        return pd.DataFrame(
            columns=["reading", "pool", "dataset", "cost_model", "band", "family", "standing"]
        )
    out = pd.concat(parts, ignore_index=True)
    binding = tables["binding"]
    binds = pd.concat([band_binds(binding, b) for b in out["band"].unique()], ignore_index=True)
    if binds.empty:
        return out.assign(binds=False)
    out = out.merge(
        binds[["dataset", "cost_model", "band", "binds"]],
        on=["dataset", "cost_model", "band"],
        how="left",
    )
    return out.assign(binds=out["binds"].fillna(False).astype(bool))
