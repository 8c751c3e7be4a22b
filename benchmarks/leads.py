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

Each method's true error on a dataset is the dataset's base error (uniform in [0.08, 0.35])
plus its true lead there; with ``--spread`` each method also has its own effect per dataset
(known, and part of the truth). Two ways to draw the trials:

- **rows** (the default; the suite's shards carry each test row's loss): each dataset is a
  pool of its suite sizes' rows (``benchmarks/headlines.py``'s ``field_sizes``), each trial
  a random split of it. A method is wrong on a pool row when the row's latent uniform falls
  below its true error plus the trial's training effect: the uniform is ``Phi`` of a part
  every method shares (the row's hardness, a share ``--hardness`` of its variance) and one
  of its own; the training effect is a mean over the trial's training rows of each row's own
  effect, of sd ``--training`` (trials that share training rows share it). The comparisons
  then read each trial's test rows and their losses, as they do the suite's
  (:func:`budgetboost.analysis.per_dataset.row_covariance`).
- ``--no-rows``: a trial's error is the method's true error plus a noise shared by the
  methods (the trial's split) and one of the method's own, each of sd ``--noise / sqrt(2)``;
  without rows the comparisons bound the trials' correlation by the sizes alone.

Seeded: the same arguments print the same numbers.

Run from the repository root: ``python benchmarks/leads.py [--lead 0.05] [--confined 13]
[--replicates 40] [--hardness 0.5] [--training 0.02] [--no-rows --noise 0.03]
[--spread 0.0]``.
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
from budgetboost.data.splits import SplitSizes  # noqa: E402

LEADER = "aaco"
#: The margin of practical equivalence: a lead at or below it is no lead.
MARGIN = EQUIVALENCE_MARGIN
COST_MODEL = "attribute_unit"
TRIALS = 10


def _truth(
    rng: np.random.Generator, n: int, lead: float, confined: int, spread: float
) -> np.ndarray:
    """The true errors' offsets ``(methods, datasets)``: the leader's lead on the first
    ``confined`` datasets, and with ``spread`` each method's own effect per dataset."""
    k = len(METHODS)
    truth = rng.normal(0.0, spread, (k, n)) if spread > 0 else np.zeros((k, n))
    truth[list(METHODS).index(LEADER), :confined] -= lead
    return truth


def _frame(error: np.ndarray, datasets: list[str], losses: list | None = None) -> pd.DataFrame:
    """Band means (one band, ``small``) of ``error`` ``(methods, datasets, trials)``, with each
    trial's test rows' losses when given (``(methods, datasets, trials)`` order)."""
    index = pd.MultiIndex.from_product(
        [list(METHODS), datasets, range(TRIALS)], names=["algorithm", "dataset", "trial"]
    )
    columns = {"error": error.ravel()}
    if losses is not None:
        columns["losses"] = losses
    means = pd.DataFrame(columns, index=index).reset_index()
    return means.assign(band="small", cost_model=COST_MODEL)


def simulate(
    rng: np.random.Generator,
    datasets: list[str],
    lead: float,
    confined: int,
    noise: float,
    spread: float,
) -> tuple[pd.DataFrame, np.ndarray]:
    """Band means of one replicate without rows (``--no-rows``) and the true errors'
    offsets ``(methods, datasets)`` (lead and own effects) that decide the truth."""
    k, n = len(METHODS), len(datasets)
    truth = _truth(rng, n, lead, confined, spread)
    base = rng.uniform(0.08, 0.35, n)
    shared = rng.normal(0.0, noise, (n, TRIALS))
    error = (
        base[None, :, None]
        + truth[:, :, None]
        + (shared[None] + rng.normal(0.0, noise, (k, n, TRIALS))) / math.sqrt(2)
    )
    return _frame(error, datasets), truth


def simulate_rows(
    rng: np.random.Generator,
    sizes: dict[str, SplitSizes],
    lead: float,
    confined: int,
    spread: float,
    hardness: float,
    training: float,
) -> tuple[pd.DataFrame, np.ndarray, dict[str, dict[int, np.ndarray]]]:
    """Band means of one replicate with each trial's test rows' losses (module docstring),
    the true offsets, and each dataset's test rows per trial (``{dataset: {trial: rows}}``,
    as :func:`budgetboost.data.splits.read_splits` gives the pipeline)."""
    datasets = list(sizes)
    k, n = len(METHODS), len(datasets)
    truth = _truth(rng, n, lead, confined, spread)
    base = rng.uniform(0.08, 0.35, n)
    error = np.empty((k, n, TRIALS))
    losses = np.empty((k, n, TRIALS), dtype=object)
    tests = {}
    for d, name in enumerate(datasets):
        n_train, n_test, n_pool = sizes[name]
        latent = math.sqrt(hardness) * rng.standard_normal(n_pool) + math.sqrt(
            1.0 - hardness
        ) * rng.standard_normal((k, n_pool))
        uniform = sps.norm.cdf(latent)
        own = rng.standard_normal((k, n_pool))
        order = np.argsort(rng.random((TRIALS, n_pool)), axis=1)
        train, test = order[:, :n_train], order[:, n_train : n_train + n_test]
        effect = training * own[:, train].mean(axis=2) * math.sqrt(n_train)
        cut = (base[d] + truth[:, d])[:, None] + effect
        wrong = uniform[:, test] < cut[:, :, None]
        error[:, d] = wrong.mean(axis=2)
        for m in range(k):
            for j in range(TRIALS):
                losses[m, d, j] = wrong[m, j].astype(np.float64)
        tests[name] = {j: test[j] for j in range(TRIALS)}
    return _frame(error, datasets, list(losses.ravel())), truth, tests


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
    drawn = ("rows", args.hardness, args.training) if args.rows else ("means", args.noise)
    rng = rng_from_key("leads benchmark", args.lead, args.confined, args.spread, *drawn)
    position = {d: i for i, d in enumerate(datasets)}
    led = confined_total = subset_wins = subset_false = 0
    false_leads = standings_total = replicates_with_false = 0
    start = time.process_time()
    for _ in range(args.replicates):
        if args.rows:
            means, truth, tests = simulate_rows(
                rng, sizes, args.lead, args.confined, args.spread, args.hardness, args.training
            )
        else:
            means, truth = simulate(
                rng, datasets, args.lead, args.confined, args.noise, args.spread
            )
            tests = None
        found = compare(means, asked, sizes, tests=tests)
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
    trials = (
        f"rows (hardness {args.hardness:g}, training {args.training:g})"
        if args.rows
        else f"no rows (noise {args.noise:g})"
    )
    return [
        f"lead {args.lead:g} on {args.confined} of {len(datasets)} datasets, {trials}, "
        f"spread {args.spread:g}, {args.replicates} replicates ({seconds:.0f} CPU-s)",
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
    parser.add_argument(
        "--rows",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="draw each test row's loss (default) or only each trial's error (--no-rows)",
    )
    parser.add_argument(
        "--hardness", type=float, default=0.5, help="share of a row's latent all methods share"
    )
    parser.add_argument(
        "--training", type=float, default=0.02, help="sd of a trial's training effect"
    )
    parser.add_argument(
        "--noise", type=float, default=0.03, help="sd of a trial's noise (--no-rows)"
    )
    parser.add_argument("--spread", type=float, default=0.0, help="sd of a method's own effect")
    args = parser.parse_args(argv)
    if args.replicates < 1 or args.confined < 0 or args.lead < 0:
        parser.error("--replicates >= 1, --confined >= 0, --lead >= 0")
    if not 0.0 <= args.hardness <= 1.0 or args.training < 0:
        parser.error(f"--hardness {args.hardness:g} in [0, 1], --training {args.training:g} >= 0")
    print("\n".join(run(args)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
