"""How many trials a family needs: the corrected test's power against the trials.

The trials of a dataset split one finite sample, so the per-dataset test's standard error is
``S sqrt(1/J + rho/(1 - rho))`` (:mod:`budgetboost.analysis.per_dataset`): past some number of
trials ``J`` the shared-rows term dominates and more trials buy almost nothing. For every
per-dataset row of a finished run's findings (questions ``peers``, ``tuning``, ``trees``),
this recomputes ``min_detectable`` (80 % power at the comparison's strictest Holm level, the
noncentral t) from the spread ``S`` of its trials' differences as if it had run ``J`` trials,
and prints per family and ``J`` the median and largest ratio to what the run's own trials
detect, and the datasets' ``rho / (1 - rho)``. A family "gains nothing" past the ``J`` where
its median ratio is within a few per cent of the largest ``J``.

Run from the repository root after a run: ``python benchmarks/trials.py [--configfile
config/config.yaml] [--trials 5,10,15,20,25,30]``. It reads the config's results folder
(``results:``): shards, splits, the catalogue.
"""

from __future__ import annotations

import argparse
import glob
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from budgetboost.analysis.across_datasets import min_detectable as across_min_detectable
from budgetboost.analysis.bands import BANDS
from budgetboost.analysis.paired import band_means
from budgetboost.analysis.per_dataset import correlation, detectable_in_se
from budgetboost.analysis.summary import read_shards
from budgetboost.analysis.vocabulary import ALL, ALPHA, FINDING_BANDS
from budgetboost.checks import ConfigError, check_all, load_config_file
from budgetboost.data.io import read_table
from budgetboost.data.splits import read_sizes
from budgetboost.pipeline.plan import Plan

#: The findings' questions whose trials a config chooses (the families capped with trials:).
QUESTIONS = ("peers", "tuning", "trees")


def _rows(results: Path) -> pd.DataFrame:
    findings = read_table(results / "summary" / "findings.parquet")
    rows = findings[findings["question"].isin(QUESTIONS) & (findings["dataset"] != ALL)]
    return rows[["question", "x", "y", "dataset", "cost_model", "band", "trials"]]


def ratios(results: Path, counts: list[int]) -> pd.DataFrame:
    """One row per (question, x, y, dataset, cost model, band, J): ``min_detectable`` with
    ``J`` trials over that with the row's own trials, from the spread of its differences."""
    rows = _rows(results)
    shards = read_shards(sorted(glob.glob(str(results / "shards/*/*/*/*.parquet"))))
    sizes = read_sizes(sorted(glob.glob(str(results / "splits/*.parquet"))))
    means = band_means(shards, BANDS).set_index(["dataset", "cost_model", "band", "algorithm"])
    families = rows.groupby("question").size().to_dict()
    out = []
    for row in rows.itertuples(index=False):
        key = (row.dataset, row.cost_model, row.band)
        x = means.loc[(*key, row.x)].set_index("trial")["error"]
        y = means.loc[(*key, row.y)].set_index("trial")["error"]
        d = (x - y).dropna().to_numpy()
        size = sizes[row.dataset]
        rho = correlation(*size)  # as the rows take it, training rows counted
        shared = rho / (1 - rho)
        spread = float(np.std(d, ddof=1)) if d.size > 1 else math.nan
        level = ALPHA / families[row.question]
        own = detectable_in_se(d.size - 1, level) * spread * math.sqrt(1 / d.size + shared)
        for J in counts:
            mine = detectable_in_se(J - 1, level) * spread * math.sqrt(1 / J + shared)
            out.append((*row[:6], shared, J, mine / own if own > 0 else math.nan))
    columns = ["question", "x", "y", "dataset", "cost_model", "band", "shared", "J", "ratio"]
    return pd.DataFrame(out, columns=columns)


def across_ratios(results: Path, counts: list[int]) -> pd.DataFrame:
    """One row per (question, x, y, band, J): the across-dataset ``min_detectable`` of the
    signed-rank test on each dataset's mean difference over its *first* ``J`` trials (a
    dataset under several cost models: their mean), over that with all its trials."""
    rows = _rows(results)
    shards = read_shards(sorted(glob.glob(str(results / "shards/*/*/*/*.parquet"))))
    means = band_means(shards, BANDS).set_index(["dataset", "cost_model", "band", "algorithm"])
    level = ALPHA / len(FINDING_BANDS)  # Holm over a comparison's bands: the strictest
    out = []
    for (question, x, y, band), part in rows.groupby(["question", "x", "y", "band"]):
        per_count = {}
        for J in [*counts, None]:
            values = {}
            for r in part.itertuples(index=False):
                key = (r.dataset, r.cost_model, band)
                d = (
                    means.loc[(*key, x)].set_index("trial")["error"]
                    - means.loc[(*key, y)].set_index("trial")["error"]
                ).dropna()
                d = d.sort_index()
                values.setdefault(r.dataset, []).append(float(d.iloc[:J].mean()))
            per_count[J] = across_min_detectable(
                np.array([np.mean(v) for v in values.values()]), level
            )
        for J in counts:
            out.append((question, x, y, band, J, per_count[J] / per_count[None]))
    return pd.DataFrame(out, columns=["question", "x", "y", "band", "J", "ratio"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", default="config/config.yaml")
    parser.add_argument("--trials", default="5,10,15,20,25,30")
    args = parser.parse_args(argv)
    try:
        counts = sorted({int(t) for t in args.trials.split(",")})
    except ValueError:
        parser.error(f"--trials: comma-separated integers >= 2; got {args.trials!r}")
    try:
        config = load_config_file(args.configfile)
        checked, registry = check_all(config)
    except ConfigError as err:
        parser.error(str(err))
    if counts[0] < 2:
        parser.error("--trials: every count must be at least 2")
    results = Path(Plan({**config, **checked}, registry).results)
    if not (results / "summary" / "findings.parquet").exists():
        parser.error(f"{results}/summary/findings.parquet: no finished run of {args.configfile}")
    table = ratios(results, counts)
    print("rho / (1 - rho) per dataset:")
    shared = table.groupby("dataset")["shared"].first().sort_values()
    print("  " + ", ".join(f"{d} {v:.3f}" for d, v in shared.items()))
    print("\nmin_detectable with J trials / with the run's trials (median, largest over rows):")
    summary = table.groupby(["question", "J"])["ratio"].agg(["median", "max", "size"])
    print(summary.unstack("J").round(3).to_string())
    across = across_ratios(results, counts)
    print("\nacross datasets, min_detectable with each dataset's first J trials / all its trials:")
    summary = across.groupby(["question", "J"])["ratio"].agg(["median", "max", "size"])
    print(summary.unstack("J").round(3).to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
