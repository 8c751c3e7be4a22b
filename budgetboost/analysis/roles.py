"""The paper's roles: which algorithm of a run plays Greedy, Smoothed, AdaBoostBT, ...

The claims name the paper's algorithms by *role*
(:data:`budgetboost.catalogue.ROLES`), never by a config name: a table of results is
read through :func:`by_role`, so a renamed or added algorithm changes nothing in the claims.

The paper's figures, claims and rank statistics read only the paper's experiments: the
(dataset, cost model) pairs the role ``reference`` ran on (:func:`paper_experiments`). The
claims read only those of the *paper's regime* (:func:`paper_regime`): the paper's experiments
outside the field's regime, whose cost models price a raw attribute once (per attribute,
Turney's real costs with a ``field`` key, the synthetic cube) and which a config may run the
reference under too.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from budgetboost.catalogue import Catalogue

__all__ = ["PAPER_REGIME", "by_role", "paper_experiments", "paper_regime", "roles_table"]

#: The paper's regime in words (what a claim's evidence says when a run has none of it).
PAPER_REGIME = "the paper's regime (per-indicator U[0, 2] costs)"

_ALGORITHM_COLUMNS = ("algorithm", "x", "y")


def by_role(table: pd.DataFrame, catalogue: Catalogue) -> pd.DataFrame:
    """``table`` with algorithm names replaced by their roles; rows of algorithms without a
    role (in any algorithm column) are left out."""
    roles = {name: a.role for name, a in catalogue.items() if a.role is not None}
    columns = [c for c in _ALGORITHM_COLUMNS if c in table.columns]
    if not columns:
        return table
    keep = np.logical_and.reduce([table[c].isin(list(roles)).to_numpy() for c in columns])
    out = table[keep].copy()
    for column in columns:
        out[column] = out[column].map(roles)
    return out.reset_index(drop=True)


def roles_table(catalogue: Catalogue) -> pd.DataFrame:
    """Which algorithm of this run plays each of the paper's roles the claims name."""
    rows = [(a.role, name, a.label) for name, a in catalogue.items() if a.role is not None]
    return pd.DataFrame(rows, columns=["role", "algorithm", "label"])


def paper_experiments(
    table: pd.DataFrame, summary: pd.DataFrame, catalogue: Catalogue | None = None
) -> pd.DataFrame:
    """Rows of ``table`` from the paper's experiments: the (dataset, cost model) pairs on
    which the unbudgeted reference (role ``reference``) ran.

    Cost models added for the paper's open questions (adversarial costs, few cheap features)
    leave the reference out (their ``algorithms`` key), so the paper's figures, claims and
    rank statistics stay those of the paper's experiments while those cost models get
    figures of their own (:mod:`budgetboost.figures.curves`). Without any reference result in
    ``summary``, every row is kept.
    """
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    reference = catalogue.with_role("reference")
    ran = summary[summary["algorithm"] == reference]
    if ran.empty or table.empty:
        return table
    pairs = pd.MultiIndex.from_frame(ran[["dataset", "cost_model"]].drop_duplicates())
    keep = pd.MultiIndex.from_frame(table[["dataset", "cost_model"]]).isin(pairs)
    return table[keep]


def paper_regime(
    table: pd.DataFrame,
    summary: pd.DataFrame,
    catalogue: Catalogue | None = None,
    field: Iterable[str] = (),
) -> pd.DataFrame:
    """Rows of ``table`` in the paper's regime: the paper's experiments
    (:func:`paper_experiments` of ``summary``) whose cost model is not one of the field's
    regime (``field``: the cost models with a ``field`` key,
    :meth:`budgetboost.pipeline.plan.Plan.field_pools`).

    This is what the paper's claims read: every indicator priced on its own with one absolute
    budget grid (the paper's U[0, 2], and the paper's own real-cost experiment where a config
    runs it outside the field's regime, as ``config/config.yaml``'s heart). A cost model of
    the field's regime may run the unbudgeted reference as well (``config/suite.yaml``'s
    Turney costs), which makes it one of the paper's experiments, not evidence about the
    paper's claims. The paper's experiments are found first and the field's cost models left
    out after, so that a run whose reference ran only in the field's regime has no row here
    (rather than every row, as a run without any reference would).
    """
    rows = paper_experiments(table, summary, catalogue)
    field = list(field)
    if not field or rows.empty:
        return rows
    return rows[~rows["cost_model"].isin(field)]
