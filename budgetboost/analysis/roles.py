"""The paper's roles: which algorithm of a run plays Greedy, Smoothed, AdaBoostBT, ...

The claims name the paper's algorithms by *role*
(:data:`budgetboost.catalogue.ROLES`), never by a config name: a table of results is
read through :func:`by_role`, so a renamed or added algorithm changes nothing in the claims.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetboost.catalogue import Catalogue

__all__ = ["by_role", "roles_table"]

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
