"""The field's headline against known truths: which family wins a band, and what its sentence says.

Simulates the suite's field (its nine methods in five families: the paper's four boosters, the
two library peers, STreeD, BudgetPrune, AACO) on its 38 datasets with 10 trials each, every
method's true error known, and runs the pipeline's own functions on the trials' errors:
:func:`budgetboost.analysis.paired.compare` on the field's and the peers' comparisons
(:func:`budgetboost.analysis.findings.questions`), then
:func:`budgetboost.analysis.field.family_verdicts` and
:func:`budgetboost.report.findings.family_sentences`. Each replicate draws every finding band.

A trial's error on a dataset is the dataset's base error, plus the method's true lead (the
scenario), plus the method's own effect on that dataset (Gaussian, sd ``--spread``, median 0:
methods differ from dataset to dataset around their lead), plus a shared and an own noise per
trial (sd ``--noise``). Across datasets the true difference of two methods (the centre of
their per-dataset differences) is the difference of their leads. The scenarios:

- ``all equal``: every lead 0;
- ``leader by 0.004`` / ``0.005`` / ``0.006`` / ``0.01`` / ``0.015`` / ``0.02`` / ``0.03``:
  AACO's error lower than every other method's by that much (0.01: on the margin of
  practical equivalence);
- ``ahead of some``: AACO and both library peers lower by 0.03 than the rest.

Printed per scenario, over its bands: how often the sentence says a family wins (rightly: the
winner's method is ahead of every other family's by more than the margin) or that none
does; how often it says the method it names is lower than a method it is not lower than by
more than the margin (``false lower``), and equivalent to a method whose true difference
is at least the margin (``false equiv.``); each outcome's share of the named method's rows;
each with its 95 % Clopper-Pearson interval. Then every row across datasets of the two
questions (not only the named method's), by its true difference: the share reading
*better*, *equivalent*, *worse* (with intervals), the false ones marked (``false``:
*better* / *worse* where the truth is not beyond the margin that way, *equivalent* where it
is not inside it); and a claim "AACO beats every method of the other families" (Smoothed's
under ``all equal``) read from its rows in a band as the claims are
(:func:`budgetboost.analysis.verdicts.directional_verdict`, after
``read_with_the_claim`` where the checkout has it): how often it reads *reproduced*, *not
reproduced*, *inconclusive*.

Run from the repository root: ``python benchmarks/headlines.py [--replicates 100]
[--bands small,large] [--spread 0.02] [--noise 0.03] [--scenarios "all equal,leader by
0.01"] [--quick]``.
Seeded: the same arguments print the same numbers; the lines it prints come from the
package on the path, so the same command on another checkout prints that checkout's
headlines (before and after a change of the rules). The rows of one band share its
datasets, so their intervals (taken as independent) are narrower than they should be.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pandas as pd
import yaml
from scipy import stats as sps

sys.path.insert(0, str(Path(__file__).resolve().parent))
from simulation import field_band_means  # noqa: E402

from budgetboost.analysis import verdicts as claim_verdicts  # noqa: E402
from budgetboost.analysis.field import family_verdicts  # noqa: E402
from budgetboost.analysis.findings import questions  # noqa: E402
from budgetboost.analysis.paired import compare  # noqa: E402
from budgetboost.analysis.vocabulary import FINDING_BANDS  # noqa: E402
from budgetboost.catalogue import Catalogue  # noqa: E402
from budgetboost.data.registry import load_registry  # noqa: E402
from budgetboost.data.seeds import rng_from_key  # noqa: E402
from budgetboost.data.splits import SplitSizes  # noqa: E402
from budgetboost.report.findings import family_sentences  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: The field of the suite: name, family, tuned variant of.
METHODS = {
    "smoothed": {},
    "greedy": {},
    "smoothed_tuned": {
        "family": "boosting",
        "variant_of": "smoothed",
        "tuned": True,
        "label": "Smoothed, tuned",
    },
    "greedy_tuned": {
        "family": "boosting",
        "variant_of": "greedy",
        "tuned": True,
        "label": "Greedy, tuned",
    },
    "lightgbm_stumps": {"family": "peer", "label": "LightGBM", "tuned": True},
    "catboost_stumps": {"family": "peer", "label": "CatBoost", "tuned": True},
    "streed": {"family": "optimal_tree", "label": "STreeD"},
    "budget_prune": {"family": "forest", "label": "BudgetPrune"},
    "aaco": {"family": "acquisition", "label": "AACO"},
}
#: Each scenario's true leads (x's error minus the rest's: negative is lower).
SCENARIOS = {
    "all equal": {},
    "leader by 0.004": {"aaco": -0.004},
    "leader by 0.005": {"aaco": -0.005},
    "leader by 0.006": {"aaco": -0.006},
    "leader by 0.01": {"aaco": -0.01},
    "leader by 0.015": {"aaco": -0.015},
    "leader by 0.02": {"aaco": -0.02},
    "leader by 0.03": {"aaco": -0.03},
    "ahead of some": {"aaco": -0.03, "lightgbm_stumps": -0.03, "catboost_stumps": -0.03},
}
MARGIN = 0.01
COST_MODEL = "uniform_0_2"


def field_sizes() -> dict[str, SplitSizes]:
    """The suite's datasets with their training and test rows (the pool taken as both)."""
    suite = yaml.safe_load((ROOT / "config/suite.yaml").read_text())
    registry = load_registry(ROOT / "config/datasets.yaml")
    return {
        name: SplitSizes(
            int(registry[name]["train_size"]),
            int(registry[name]["test_size"]),
            int(registry[name]["train_size"]) + int(registry[name]["test_size"]),
        )
        for name in suite["datasets"]
    }


def truth(x: str, y: str, leads: dict[str, float]) -> float:
    return leads.get(x, 0.0) - leads.get(y, 0.0)


def classify(verdict, leads: dict[str, float], catalogue: Catalogue) -> dict:
    """What a band's verdict says, against the truth."""
    rows = verdict.rows
    if verdict.method is None or rows.empty:
        return {"kind": "none"}
    method = verdict.method
    others = [m for m in METHODS if catalogue[m].family != catalogue[method].family]
    ahead_of_all = all(truth(method, y, leads) < -MARGIN - 1e-12 for y in others)
    lower = rows[rows["outcome"] == "better"]
    equivalent = rows[rows["outcome"] == "equivalent"]
    return {
        "kind": "wins" if verdict.family is not None else "no winner",
        "right": verdict.family is not None and ahead_of_all,
        "false_lower": any(truth(method, y, leads) > -MARGIN - 1e-12 for y in lower["y"]),
        "false_equivalent": any(
            abs(truth(method, y, leads)) >= MARGIN - 1e-12 for y in equivalent["y"]
        ),
        "outcomes": Counter(rows["outcome"]),
        "method": method,
    }


def _share(hits: int, n: int) -> str:
    low = sps.beta.ppf(0.025, hits, n - hits + 1) if hits else 0.0
    high = sps.beta.ppf(0.975, hits + 1, n - hits) if hits < n else 1.0
    return f"{hits / n:5.1%} [{low:.1%}, {high:.1%}]"


def _row_truths(findings, leads: dict[str, float]) -> list[tuple[float, str]]:
    """(true difference, outcome) of every row across datasets of the field's questions."""
    across = findings[findings["dataset"] == "all"]
    return [
        (round(truth(x, y, leads), 6), outcome)
        for x, y, outcome in across[["x", "y", "outcome"]].itertuples(index=False)
    ]


def _claim(findings, leader: str, catalogue: Catalogue) -> list[str]:
    """A claim "``leader`` beats every method of the other families", per band, read from its
    rows across datasets as the claims read theirs."""
    read = getattr(claim_verdicts, "read_with_the_claim", lambda rows: rows)
    family = catalogue[leader].family
    others = {m for m in METHODS if catalogue[m].family != family}
    across = findings[(findings["dataset"] == "all")]
    flip = {"better": "worse", "worse": "better"}
    out = []
    for _, band in across.groupby("band", sort=True):
        mine = band[(band["x"] == leader) & band["y"].isin(others)]
        turned = band[(band["y"] == leader) & band["x"].isin(others)]
        turned = turned.assign(
            x=turned["y"],
            y=turned["x"],
            outcome=turned["outcome"].map(lambda o: flip.get(o, o)),
            hodges_lehmann=-turned["hodges_lehmann"],
        )
        rows = pd.concat([mine, turned], ignore_index=True)
        out.append(claim_verdicts.directional_verdict(read(rows)))
    return out


def run(
    scenario: str,
    replicates: int,
    spread: float,
    noise: float,
    bands: tuple[str, ...] = FINDING_BANDS,
) -> dict:
    """Every band's classification and sentence of one scenario, every row's truth and
    outcome, and the claim's verdicts; each replicate draws ``bands`` (Holm corrects each
    comparison over them, as over the findings' bands in a run)."""
    catalogue = Catalogue(METHODS)
    sizes = field_sizes()
    datasets = list(sizes)
    paper = tuple((d, COST_MODEL) for d in datasets)
    asked = questions(catalogue, paper, (), None)
    asked = [replace(c, bands=bands) for c in asked if c.question in ("field", "peers")]
    leads = SCENARIOS[scenario]
    leader = "aaco" if leads else "smoothed"
    rng = rng_from_key("headlines", scenario, spread, noise)
    out = {"bands": [], "sentences": [], "rows": [], "claims": []}
    for _ in range(replicates):
        means = field_band_means(
            rng,
            {m: leads.get(m, 0.0) for m in METHODS},
            datasets,
            spread=spread,
            noise=noise,
            bands=bands,
        )
        findings = compare(means, asked, sizes)
        for verdict in family_verdicts(findings, catalogue, bands=bands):
            out["bands"].append(classify(verdict, leads, catalogue))
        out["sentences"] += family_sentences(findings, catalogue)
        out["rows"] += _row_truths(findings, leads)
        out["claims"] += _claim(findings, leader, catalogue)
    return out


def _false(truth_: float, outcome: str) -> bool:
    if outcome == "better":
        return truth_ > -MARGIN - 1e-12
    if outcome == "worse":
        return truth_ < MARGIN + 1e-12
    return outcome == "equivalent" and abs(truth_) >= MARGIN - 1e-12


def report(scenario: str, result: dict, seconds: float) -> list[str]:
    bands = result["bands"]
    n = len(bands)
    kinds = Counter(b["kind"] for b in bands)
    wins = [b for b in bands if b["kind"] == "wins"]
    outcomes = sum((b.get("outcomes", Counter()) for b in bands), Counter())
    rows = sum(outcomes.values()) or 1
    named = Counter(b.get("method") for b in bands)
    false_wins = sum(not b["right"] for b in wins)
    lines = [
        f"{scenario} ({n} bands, {seconds:.0f} CPU-s)",
        f"  sentence: wins {_share(kinds['wins'], n)} (falsely {_share(false_wins, n)}),"
        f" no family wins {_share(kinds['no winner'], n)}",
        f"  false lower {_share(sum(b.get('false_lower', False) for b in bands), n)},"
        f" false equiv. {_share(sum(b.get('false_equivalent', False) for b in bands), n)}",
        "  outcomes of the named method's rows: "
        + ", ".join(f"{o} {c / rows:.1%}" for o, c in outcomes.most_common()),
        "  named: " + ", ".join(f"{m} {c}" for m, c in named.most_common()),
    ]
    flip = {"better": "worse", "worse": "better"}
    by_truth: dict[float, list[str]] = {}
    for truth_, outcome in result["rows"]:
        # each row turned so that x's true error is the lower (or equal): "better" is right
        # only beyond the margin, "worse" never
        by_truth.setdefault(abs(truth_), []).append(
            flip.get(outcome, outcome) if truth_ > 0 else outcome
        )
    for size in sorted(by_truth):
        cell = Counter(by_truth[size])
        k = sum(cell.values())
        parts = [
            f"{o}{' (false)' if _false(-size, o) else ''} {_share(cell[o], k)}"
            for o in ("better", "equivalent", "worse")
        ]
        lines.append(f"  rows at true |x - y| {size:.3f} ({k}): " + ", ".join(parts))
    claims = Counter(result["claims"])
    c = len(result["claims"])
    lines.append(
        "  claim 'leader beats every other family's method': "
        + ", ".join(f"{v} {_share(claims[v], c)}" for v in ("reproduced", "not reproduced"))
        + f", otherwise {_share(c - claims['reproduced'] - claims['not reproduced'], c)}"
    )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=None, help="replicates (of --bands)")
    parser.add_argument(
        "--bands",
        default=",".join(FINDING_BANDS),
        help="comma-separated budget bands each replicate draws (default: the findings')",
    )
    parser.add_argument("--spread", type=float, default=0.02, help="sd of a method's own effect")
    parser.add_argument("--noise", type=float, default=0.03, help="sd of a trial's noise")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS), help="comma-separated")
    parser.add_argument("--sentences", type=int, default=2, help="example sentences shown")
    parser.add_argument("--quick", action="store_true", help="one replicate (a smoke test)")
    args = parser.parse_args(argv)
    replicates = args.replicates or (1 if args.quick else 100)
    chosen = [s.strip() for s in args.scenarios.split(",")]
    unknown = [s for s in chosen if s not in SCENARIOS]
    bands = tuple(b.strip() for b in args.bands.split(","))
    if unknown or replicates < 1 or not set(bands) <= set(FINDING_BANDS):
        parser.error(
            f"--scenarios: one of {list(SCENARIOS)}; --replicates >= 1; --bands among "
            f"{list(FINDING_BANDS)}"
        )
    for scenario in chosen:
        start = time.process_time()
        result = run(scenario, replicates, args.spread, args.noise, bands)
        print("\n".join(report(scenario, result, time.process_time() - start)))
        for sentence in result["sentences"][: args.sentences]:
            print(f"    e.g. {sentence}")
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
