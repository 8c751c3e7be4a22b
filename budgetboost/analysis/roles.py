"""The paper's roles: which algorithm of a run plays Greedy, Smoothed, AdaBoostBT, ...

The claims name the paper's algorithms by *role*
(:data:`budgetboost.catalogue.ROLES`), never by a config name: a table of results is
read through :func:`by_role`, so a renamed or added algorithm changes nothing in the claims.

The paper's figures, claims and rank statistics read only the paper's experiments: the
(dataset, cost model) pairs the role ``reference`` ran on (:func:`paper_experiments`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetboost.catalogue import Catalogue

__all__ = ["by_role", "paper_experiments", "roles_table"]

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
