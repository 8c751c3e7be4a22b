"""Where each family leads, against known truths: a lead confined to some datasets.

The across-dataset verdict cannot see a lead that holds on a third of the datasets only (the
datasets where budgets bind). The first page also counts, per dataset, where each family
leads (:mod:`budgetboost.analysis.leads`). This benchmark checks those counts: it simulates
the suite's field (the methods and families of ``benchmarks/headlines.py``) on the suite's
datasets with 10 trials each, gives one method (AACO, family ``acquisition``) a true lead
``--lead`` on the first ``--confined`` datasets and none elsewhere, runs the pipeline's own
:func:`budgetboost.analysis.paired.compare` on the field's comparisons and
:func:`budgetboost.analysis.leads.dataset_standings`, and prints, with 95 % Clopper-Pearson
intervals:

- **power**: the share of the confined datasets on which ``acquisition`` is counted as
  leading (it truly leads there when ``--lead`` exceeds the margin);
- **false leads**: the share of (replicate, dataset, family) standings read ``leads`` where
  the family does not truly lead beyond the margin, and the share of replicates in which a
  count names at least one such dataset (the family-wise rate of the sentence "leads on k of
  n datasets");
- **across the datasets where the band binds** (here: the confined ones, the premise being
  that a lead lives where budgets bind): how often the field's verdict on that pool
  (:func:`budgetboost.analysis.field.family_verdicts`) says ``acquisition`` wins, and how
  often it names a win that is false (another family, or any win when ``--lead`` is at most
  the margin).

A trial's error on a dataset is the dataset's base error plus the method's true lead there
plus a noise shared by the methods (the trial's split) and one of the method's own, each of
sd ``--noise / sqrt(2)``; with ``--spread`` each method also has its own effect per dataset
(known, and part of the truth). Seeded: the same arguments print the same numbers.

Run from the repository root: ``python benchmarks/leads.py [--lead 0.05] [--confined 13]
[--replicates 40] [--noise 0.03] [--spread 0.0]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from headlines import METHODS, field_sizes  # noqa: E402

from budgetboost.analysis.field import family_verdicts  # noqa: E402
from budgetboost.analysis.findings import questions  # noqa: E402
from budgetboost.analysis.leads import dataset_standings  # noqa: E402
from budgetboost.analysis.paired import BINDING_POOL, compare  # noqa: E402
from budgetboost.analysis.vocabulary import EQUIVALENCE_MARGIN  # noqa: E402
from budgetboost.catalogue import Catalogue  # noqa: E402
from budgetboost.data.seeds import rng_from_key  # noqa: E402

LEADER = "aaco"
#: The margin of practical equivalence: a lead at or below it is no lead.
MARGIN = EQUIVALENCE_MARGIN
COST_MODEL = "attribute_unit"
TRIALS = 10


def simulate(
    rng: np.random.Generator,
    datasets: list[str],
    lead: float,
    confined: int,
    noise: float,
    spread: float,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Band means of one replicate (one band, ``small``) and the true errors' offsets
    ``(methods, datasets)`` (lead and own effects) that decide the truth."""
    methods = list(METHODS)
    k, n = len(methods), len(datasets)
    truth = rng.normal(0.0, spread, (k, n)) if spread > 0 else np.zeros((k, n))
    truth[methods.index(LEADER), :confined] -= lead
    base = rng.uniform(0.08, 0.35, n)
    shared = rng.normal(0.0, noise, (n, TRIALS))
    error = (
        base[None, :, None]
        + truth[:, :, None]
        + (shared[None] + rng.normal(0.0, noise, (k, n, TRIALS))) / math.sqrt(2)
    )
    index = pd.MultiIndex.from_product(
        [methods, datasets, range(TRIALS)], names=["algorithm", "dataset", "trial"]
    )
    means = pd.DataFrame({"error": error.ravel()}, index=index).reset_index()
    return means.assign(band="small", cost_model=COST_MODEL), truth


def true_leaders(truth: np.ndarray, catalogue: Catalogue) -> dict[tuple[int, str], bool]:
    """Per (dataset, family): whether one of its methods is ahead of every method of every
    other family by more than the margin."""
    methods = list(METHODS)
    families = [catalogue[m].family for m in methods]
    out = {}
    for d in range(truth.shape[1]):
        for family in set(families):
            mine = [i for i, f in enumerate(families) if f == family]
            others = [i for i, f in enumerate(families) if f != family]
            out[(d, family)] = any(
                all(truth[i, d] - truth[j, d] < -EQUIVALENCE_MARGIN - 1e-12 for j in others)
                for i in mine
            )
    return out


def _share(hits: int, n: int) -> str:
    low = sps.beta.ppf(0.025, hits, n - hits + 1) if hits else 0.0
    high = sps.beta.ppf(0.975, hits + 1, n - hits) if hits < n else 1.0
    return f"{hits / max(n, 1):5.1%} [{low:.1%}, {high:.1%}] ({hits} of {n})"


def run(args: argparse.Namespace) -> list[str]:
    catalogue = Catalogue(METHODS)
    sizes = field_sizes()
    datasets = list(sizes)
    pairs = tuple((d, COST_MODEL) for d in datasets)
    asked = [
        c
        for c in questions(
            catalogue, (), (), None, field_regime=pairs, pools={COST_MODEL: COST_MODEL}
        )
        if c.question == "field"
    ]
    binding = frozenset((d, COST_MODEL, "small") for d in datasets[: args.confined])
    asked = [replace(c, bands=("small",), binding=binding) for c in asked]
    rng = rng_from_key("leads benchmark", args.lead, args.confined, args.noise, args.spread)
    position = {d: i for i, d in enumerate(datasets)}
    led = confined_total = subset_wins = subset_false = 0
    false_leads = standings_total = replicates_with_false = 0
    start = time.process_time()
    for _ in range(args.replicates):
        means, truth = simulate(rng, datasets, args.lead, args.confined, args.noise, args.spread)
        found = compare(means, asked, sizes)
        bound = found[found["pool"] == COST_MODEL + BINDING_POOL]
        verdicts = family_verdicts(bound, catalogue, bands=("small",)) if not bound.empty else []
        wins = [v.family for v in verdicts if v.family is not None]
        subset_wins += wins == ["acquisition"]
        subset_false += bool(wins) and (wins != ["acquisition"] or args.lead <= MARGIN)
        rows = found[found["dataset"] != "all"]
        standings = dataset_standings(rows, catalogue)
        truly = true_leaders(truth, catalogue)
        said = standings["standing"] == "leads"
        is_true = [
            truly[(position[d], f)]
            for d, f in zip(standings["dataset"], standings["family"], strict=True)
        ]
        false_here = int((said & ~np.array(is_true, dtype=bool)).sum())
        false_leads += false_here
        standings_total += len(standings)
        replicates_with_false += false_here > 0
        mine = standings[
            (standings["family"] == "acquisition")
            & standings["dataset"].map(position).lt(args.confined)
        ]
        led += int((mine["standing"] == "leads").sum())
        confined_total += len(mine)
    seconds = time.process_time() - start
    return [
        f"lead {args.lead:g} on {args.confined} of {len(datasets)} datasets, noise "
        f"{args.noise:g}, spread {args.spread:g}, {args.replicates} replicates "
        f"({seconds:.0f} CPU-s)",
        f"  power (acquisition counted as leading where it truly leads by {args.lead:g}): "
        f"{_share(led, confined_total)}",
        f"  false leads among all standings: {_share(false_leads, standings_total)}",
        f"  replicates naming a false lead: {_share(replicates_with_false, args.replicates)}",
        f"  across the {args.confined} datasets where the band binds: acquisition wins "
        f"{_share(subset_wins, args.replicates)}, a false win "
        f"{_share(subset_false, args.replicates)}",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lead", type=float, default=0.05, help="the true lead")
    parser.add_argument("--confined", type=int, default=13, help="datasets with the lead")
    parser.add_argument("--replicates", type=int, default=40)
    parser.add_argument("--noise", type=float, default=0.03, help="sd of a trial's noise")
    parser.add_argument("--spread", type=float, default=0.0, help="sd of a method's own effect")
    args = parser.parse_args(argv)
    if args.replicates < 1 or args.confined < 0 or args.lead < 0:
        parser.error("--replicates >= 1, --confined >= 0, --lead >= 0")
    print("\n".join(run(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
