"""How often Greedy and SpeedBoost choose the same stump (claim 4b).

The stump tables (``results/stumps/...``, one row per (trial, round)) of the algorithms in the
roles ``greedy`` and ``speedboost`` are compared round by round.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from budgetboost.analysis.roles import by_role
from budgetboost.catalogue import Catalogue

__all__ = ["AGREEMENT_COLUMNS", "identical_stump_share", "stump_agreement"]

#: Columns of :func:`identical_stump_share`.
AGREEMENT_COLUMNS = ["dataset", "cost_model", "rounds", "share", "first_share", "median_divergence"]


def identical_stump_share(stumps: pd.DataFrame) -> pd.DataFrame:
    """Share of rounds where SpeedBoost and Greedy choose the same stump.

    ``stumps`` has one row per (dataset, cost_model, algorithm, trial, round) with the chosen
    ``feature`` and ``threshold`` (and ``polarity`` if present). Rounds present for both are
    compared; returns one row per (dataset, cost_model) with ``rounds`` and ``share``.

    Rounds are compared by index, so once the two paths choose differently their weights
    differ and later rounds rarely agree. To tell "different rankings" from "paths that drift
    apart", two more columns: ``first_share``, the share of trials whose first shared round
    agrees, and ``median_divergence``, the median over trials of the first round index where
    they differ (a trial that never differs counts its number of shared rounds).
    """
    keys = ["dataset", "cost_model", "trial", "round"]
    what = ["feature", "threshold"] + (["polarity"] if "polarity" in stumps.columns else [])
    missing = [c for c in [*keys, "algorithm", *what] if c not in stumps.columns]
    if missing:
        raise ValueError(f"stump table: missing column(s) {missing}")
    greedy = stumps[stumps["algorithm"] == "greedy"][keys + what]
    speed = stumps[stumps["algorithm"] == "speedboost"][keys + what]
    both = greedy.merge(speed, on=keys, suffixes=("_g", "_s")).sort_values(keys)
    same = np.logical_and.reduce(
        [both[f"{w}_g"].to_numpy() == both[f"{w}_s"].to_numpy() for w in what]
    )
    both = both.assign(same=same, step=both.groupby(keys[:3]).cumcount())
    # First differing step per trial; the number of shared rounds if they never differ.
    diverge = np.where(both["same"], np.iinfo(np.int64).max, both["step"])
    trials = (
        both.assign(diverge=diverge)
        .groupby(keys[:3], as_index=False)
        .agg(first=("same", "first"), diverge=("diverge", "min"), n=("step", "size"))
    )
    trials["diverge"] = np.minimum(trials["diverge"], trials["n"])
    per_trial = trials.groupby(["dataset", "cost_model"], as_index=False).agg(
        first_share=("first", "mean"), median_divergence=("diverge", "median")
    )
    shares = both.groupby(["dataset", "cost_model"], as_index=False).agg(
        rounds=("same", "size"), share=("same", "mean")
    )
    return shares.merge(per_trial, on=["dataset", "cost_model"])


def stump_agreement(chunks: Iterable[pd.DataFrame], catalogue: Catalogue) -> pd.DataFrame:
    """:func:`identical_stump_share` of per-round stump tables read one part at a time.

    Each chunk holds the stump rows (algorithm names, not roles) of one or more whole
    (dataset, cost model) pairs, so the full run's millions of rounds never sit in memory
    together (the claims job stays well under its 1 GiB).
    """
    parts = [identical_stump_share(by_role(chunk, catalogue)) for chunk in chunks]
    parts = [p for p in parts if not p.empty]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=AGREEMENT_COLUMNS)
