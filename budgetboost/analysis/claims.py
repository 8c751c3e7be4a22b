"""The paper's claims, checked against this run's results.

Huang, Powers & Reyzin (2015), Sections 6-7, make six claims that the benchmark can test.
Each gets a verdict (reproduced / not reproduced / inconclusive) with its evidence. Every
threshold a verdict depends on is a module-level constant below and is printed at the top of
``claims.md`` by :func:`claims_markdown`, so a reader sees the rule, not only the outcome.

Directional claims ("X beats Y") are judged on *rows* of the comparisons every finding uses
(:func:`budgetboost.analysis.paired.compare`): one test per (X vs Y, dataset, cost model,
budget band) on each trial's error averaged over the band, the exact sign-flip test, Holm over
the rows of the comparison, and an outcome. A row *supports* the claim when its outcome is
``better`` (X significantly lower), *contradicts* it when ``worse``, and points the claimed way
when X's mean error is lower at all. Then:

* reproduced: supported share >= ``min_supported`` and contradicted share <= ``max_contradicted``;
* not reproduced: contradicted share > ``max_contradicted`` or direction share < ``min_direction``;
* inconclusive otherwise (the right direction without enough evidence, e.g. few trials) or
  when there are no rows.

Claim 4a ("almost identically") is an equivalence: the share of rows whose outcome is
``equivalent`` (two one-sided tests within :data:`EQUIVALENCE_MARGIN`).

The claims name the paper's algorithms by *role* (:data:`budgetboost.pipeline.catalogue.ROLES`:
``adaboost_bt``, ``greedy``, ``smoothed``, ``speedboost``, ``adaboost_rs``, ...), never by a
config name: :func:`check_claims` maps each algorithm of the results to its role through the
run's :class:`~budgetboost.pipeline.catalogue.Catalogue` and leaves out algorithms without one, so a
renamed or added algorithm changes nothing here.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from budgetboost.analysis.bands import BAND_SHARE, budget_band
from budgetboost.analysis.paired import ALL, EQUIVALENCE_MARGIN, Comparison
from budgetboost.analysis.significance import BETTER, EQUIVALENT, WORSE
from budgetboost.data.costs import read_costs
from budgetboost.pipeline.catalogue import Catalogue, paper_experiments

__all__ = [
    "ALPHA",
    "CHEAP_FEATURE_DATASETS",
    "DIRECTIONAL_RULES",
    "EQUIVALENCE_MARGIN",
    "MATCH_RATIO",
    "OVERFIT_DATASETS",
    "ClaimResult",
    "DirectionalRule",
    "check_claims",
    "claims_table",
    "evidence_table",
    "identical_stump_share",
    "stump_agreement",
    "read_cost_variation",
    "roles_table",
    "by_role",
]

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"

#: Family-wise significance level of a comparison's rows (Holm over its rows).
ALPHA = 0.05
#: Claim 3b: Greedy "leaves budget unspent" if it spends less than this fraction of B
#: (mean over trials and the larger budgets).
UNSPENT_FRACTION = 0.9
#: Claim 3b: datasets with many cheap features where the paper sees Greedy's trap.
CHEAP_FEATURE_DATASETS = ("sonar", "ionosphere")
#: Claim 4a: share of equivalent rows needed to reproduce / below which it fails.
EQUIVALENT_SHARE_REPRODUCED = 0.9
EQUIVALENT_SHARE_REFUTED = 0.5
#: Claim 4b: share of identical stump choices (same round) to reproduce / below which it fails.
STUMP_SHARE_REPRODUCED = 0.9
STUMP_SHARE_REFUTED = 0.5
#: Claim 6: datasets where the paper sees AdaBoost overfit (a name matches if it equals or
#: starts with one of these).
OVERFIT_DATASETS = ("breast_cancer", "ecoli", "heart")
#: Claim 6: "much smaller budget": Smoothed's budget to match the AdaBoost reference is at most
#: this fraction of AdaBoostBT's (never reaching it counts as an infinite budget).
MATCH_RATIO = 0.5
#: Cost models assumed to have equal feature costs when the cost tables are not given.
CONSTANT_COST_MODELS = ("constant",)
#: Claim 5: the budgeted boosters compared with the trees (roles).
BOOSTERS = ("adaboost_bt", "greedy", "smoothed")
TREES = ("tree", "tree_cs")
#: Claim 1: test-time sampling (roles).
RS_ALGORITHMS = ("adaboost_rs", "adaboost_rs_ac")
_ALGORITHM_COLUMNS = ("algorithm", "x", "y")


@dataclass(frozen=True)
class DirectionalRule:
    """Verdict thresholds for an "X beats Y" claim (shares of rows, see module docstring)."""

    min_supported: float
    max_contradicted: float
    min_direction: float

    def verdict(self, supported: float, contradicted: float, direction: float) -> str:
        """Reproduced, not reproduced or inconclusive, from the three shares."""
        if supported >= self.min_supported and contradicted <= self.max_contradicted:
            return REPRODUCED
        if contradicted > self.max_contradicted or direction < self.min_direction:
            return NOT_REPRODUCED
        return INCONCLUSIVE


#: Thresholds of the directional claims (claim 6 uses the same form on datasets, not budgets).
DIRECTIONAL_RULES = {
    "1": DirectionalRule(min_supported=0.8, max_contradicted=0.0, min_direction=0.9),
    "2": DirectionalRule(min_supported=0.5, max_contradicted=0.1, min_direction=0.5),
    "3a": DirectionalRule(min_supported=0.5, max_contradicted=0.1, min_direction=0.5),
    "5": DirectionalRule(min_supported=0.5, max_contradicted=0.1, min_direction=0.5),
    "6": DirectionalRule(min_supported=2 / 3, max_contradicted=1 / 3, min_direction=0.5),
}

STATEMENTS = {
    "1": "AdaBoostBT beats AdaBoostRS at every budget, on every dataset.",
    "2": "With varied costs, Greedy and Smoothed beat AdaBoostBT at small budgets.",
    "3a": "Smoothed beats Greedy at larger budgets (varied costs).",
    "3b": "Greedy leaves budget unspent on datasets with many cheap features (sonar, ionosphere).",
    "4a": "SpeedBoost performs almost identically to Greedy: test error difference.",
    "4b": "SpeedBoost performs almost identically to Greedy: share of identical stump choices.",
    "5": "Budgeted boosting beats budgeted decision trees at larger budgets.",
    "6": "Smoothed reaches AdaBoost's error at a much smaller budget where AdaBoost overfits "
    "(breast cancer, ecoli, heart).",
}


@dataclass
class ClaimResult:
    """Verdict and evidence for one claim; ``detail`` is the table behind the evidence."""

    claim: str
    verdict: str
    evidence: str
    n_rows: int = 0
    supported_share: float = float("nan")
    contradicted_share: float = float("nan")
    direction_share: float = float("nan")
    detail: pd.DataFrame = field(default_factory=pd.DataFrame)

    @property
    def statement(self) -> str:
        return STATEMENTS[self.claim]


def directional_verdict(
    rows: pd.DataFrame, rule: DirectionalRule
) -> tuple[str, float, float, float]:
    """Verdict of an "X beats Y" claim from comparison rows of X vs Y (outcomes, differences).

    Returns ``(verdict, supported_share, contradicted_share, direction_share)``.
    """
    if rows.empty:
        return INCONCLUSIVE, np.nan, np.nan, np.nan
    supported = float(np.mean(rows["outcome"] == BETTER))
    contradicted = float(np.mean(rows["outcome"] == WORSE))
    direction = float(np.mean(rows["mean_difference"] < 0))
    return rule.verdict(supported, contradicted, direction), supported, contradicted, direction


#: The comparisons behind the directional claims and claim 4a: (claim, x roles, y roles, band).
CLAIM_COMPARISONS = (
    ("1", ("adaboost_bt",), RS_ALGORITHMS, "all"),
    ("2", ("greedy", "smoothed"), ("adaboost_bt",), "small"),
    ("3a", ("smoothed",), ("greedy",), "large"),
    ("4a", ("speedboost",), ("greedy",), "all"),
    ("5", BOOSTERS, TREES, "large"),
)


def claim_comparisons(
    catalogue: Catalogue, pairs: tuple[tuple[str, str], ...] | None = None
) -> list[Comparison]:
    """The comparisons the claims read (questions ``claim 1`` ...), by the catalogue's roles,
    on the paper's experiments ``pairs``."""
    out = []
    for claim, xs, ys, band in CLAIM_COMPARISONS:
        for x in catalogue.with_roles(*xs):
            for y in catalogue.with_roles(*ys):
                out.append(Comparison(f"claim {claim}", x, y, pairs=pairs, bands=(band,)))
    return out


def read_cost_variation(paths: Sequence[str | os.PathLike]) -> set[tuple[str, str]]:
    """(dataset, cost_model) pairs whose feature costs vary, from the cost tables.

    Paths follow ``results/costs/{dataset}/{cost_model}.parquet`` (docs/design.md), read
    with :func:`budgetboost.data.costs.read_costs`; a pair has varied costs if any trial has two
    different costs.
    """
    varied = set()
    for path in map(Path, paths):
        costs = read_costs(path).costs
        if costs.size and bool((np.ptp(costs, axis=1) > 0).any()):
            varied.add((path.parent.name, path.stem))
    return varied


def _varied_mask(df: pd.DataFrame, varied: Collection[tuple[str, str]] | None) -> pd.Series:
    if varied is None:
        return ~df["cost_model"].isin(CONSTANT_COST_MODELS)
    pairs = set(varied)
    return pd.Series(
        [(d, c) in pairs for d, c in zip(df["dataset"], df["cost_model"], strict=True)],
        index=df.index,
        dtype=bool,
    )


def _matches_any(names: pd.Series, prefixes: Sequence[str]) -> pd.Series:
    return names.map(lambda n: any(n == p or n.startswith(p) for p in prefixes)).astype(bool)


def _claim_rows(comparisons: pd.DataFrame, claim: str) -> pd.DataFrame:
    """The per-dataset rows of one claim's comparisons (roles for names)."""
    rows = comparisons[
        (comparisons["question"] == f"claim {claim}") & (comparisons["dataset"] != ALL)
    ]
    return rows.reset_index(drop=True)


def _directional(claim: str, rows: pd.DataFrame, what: str) -> ClaimResult:
    if rows.empty:
        return ClaimResult(claim, INCONCLUSIVE, f"no results for {what}")
    verdict, sup, con, direc = directional_verdict(rows, DIRECTIONAL_RULES[claim])
    counts = rows["outcome"].value_counts()
    evidence = (
        f"{len(rows)} rows ({rows['dataset'].nunique()} datasets, "
        f"{int(rows['trials'].min())}-{int(rows['trials'].max())} trials): x better by mean in "
        f"{direc:.0%}, significantly better in {sup:.0%}, significantly worse in {con:.0%}, "
        f"equivalent in {counts.get(EQUIVALENT, 0) / len(rows):.0%}; median difference x−y "
        f"{rows['mean_difference'].median():+.3f}, smallest Holm p {rows['p_holm'].min():.3g}"
    )
    return ClaimResult(claim, verdict, evidence, len(rows), sup, con, direc, rows)


def claim1(comparisons: pd.DataFrame) -> ClaimResult:
    """AdaBoostBT vs AdaBoostRS (and RS_AC) over every budget of every dataset."""
    return _directional("1", _claim_rows(comparisons, "1"), "AdaBoostBT and AdaBoostRS")


def claim2(comparisons: pd.DataFrame, varied: Collection[tuple[str, str]] | None) -> ClaimResult:
    """Greedy and Smoothed vs AdaBoostBT at small budgets, varied-cost experiments only."""
    rows = _claim_rows(comparisons, "2")
    rows = rows[_varied_mask(rows, varied)]
    return _directional("2", rows, "Greedy/Smoothed and AdaBoostBT with varied costs")


def claim3a(comparisons: pd.DataFrame, varied: Collection[tuple[str, str]] | None) -> ClaimResult:
    """Smoothed vs Greedy at the larger budgets, varied-cost experiments only."""
    rows = _claim_rows(comparisons, "3a")
    rows = rows[_varied_mask(rows, varied)]
    return _directional("3a", rows, "Smoothed and Greedy with varied costs")


def claim3b(summary: pd.DataFrame) -> ClaimResult:
    """Greedy's spent fraction at the larger budgets, with Smoothed's for contrast."""
    algos = summary[
        summary["algorithm"].isin(["greedy", "smoothed"]) & np.isfinite(summary["budget"])
    ]
    detail = (
        budget_band(algos, "large")
        .groupby(["dataset", "cost_model", "algorithm"], as_index=False)
        .agg(spent_fraction=("spent_fraction", "mean"), budgets=("budget", "nunique"))
        .pivot_table(index=["dataset", "cost_model"], columns="algorithm", values="spent_fraction")
        .reset_index()
    )
    detail.columns.name = None
    if "greedy" not in detail.columns:
        return ClaimResult("3b", INCONCLUSIVE, "no Greedy results", detail=detail)
    detail = detail.rename(
        columns={"greedy": "greedy_spent_fraction", "smoothed": "smoothed_spent_fraction"}
    )
    cheap = detail[_matches_any(detail["dataset"], CHEAP_FEATURE_DATASETS)]
    everywhere = ", ".join(
        f"{d}/{c} {f:.0%}"
        for d, c, f in detail[["dataset", "cost_model", "greedy_spent_fraction"]].itertuples(
            index=False
        )
    )
    if cheap.empty:
        return ClaimResult(
            "3b",
            INCONCLUSIVE,
            f"no sonar/ionosphere results; Greedy spent fraction at larger budgets: {everywhere}",
            detail=detail,
        )
    unspent = cheap["greedy_spent_fraction"] < UNSPENT_FRACTION
    verdict = REPRODUCED if unspent.all() else NOT_REPRODUCED
    evidence = (
        "Greedy spent fraction at larger budgets on cheap-feature datasets: "
        + ", ".join(
            f"{d}/{c} {f:.0%}"
            for d, c, f in cheap[["dataset", "cost_model", "greedy_spent_fraction"]].itertuples(
                index=False
            )
        )
        + f" (all datasets: {everywhere})"
    )
    return ClaimResult(
        "3b",
        verdict,
        evidence,
        len(cheap),
        float(unspent.mean()),
        float((~unspent).mean()),
        float(unspent.mean()),
        detail,
    )


def claim4a(comparisons: pd.DataFrame) -> ClaimResult:
    """SpeedBoost vs Greedy: the share of rows that are equivalent within the margin."""
    rows = _claim_rows(comparisons, "4a")
    if rows.empty:
        return ClaimResult("4a", INCONCLUSIVE, "no results for SpeedBoost and Greedy")
    within = float(np.mean(rows["outcome"] == EQUIVALENT))
    different = float(np.mean(rows["outcome"].isin([BETTER, WORSE])))
    if within >= EQUIVALENT_SHARE_REPRODUCED:
        verdict = REPRODUCED
    elif within < EQUIVALENT_SHARE_REFUTED:
        verdict = NOT_REPRODUCED
    else:
        verdict = INCONCLUSIVE
    evidence = (
        f"{len(rows)} rows: equivalent within ±{EQUIVALENCE_MARGIN} (two one-sided tests, "
        f"Holm) in {within:.0%}, significantly different in {different:.0%}; largest "
        f"|mean difference| {rows['mean_difference'].abs().max():.3f}"
    )
    return ClaimResult("4a", verdict, evidence, len(rows), within, different, within, rows)


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
    columns = ["dataset", "cost_model", "rounds", "share", "first_share", "median_divergence"]
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)


def claim4b(detail: pd.DataFrame | None) -> ClaimResult:
    """Share of identical stump choices, from :func:`identical_stump_share`'s table if the
    per-round stump choices are available."""
    if detail is None:
        return ClaimResult(
            "4b",
            INCONCLUSIVE,
            "needs the per-round stump choices of Greedy and SpeedBoost; the "
            "shards hold errors only",
        )
    if detail.empty:
        return ClaimResult("4b", INCONCLUSIVE, "no rounds shared by Greedy and SpeedBoost")
    share = float(np.average(detail["share"], weights=detail["rounds"]))
    verdict = (
        REPRODUCED
        if share >= STUMP_SHARE_REPRODUCED
        else NOT_REPRODUCED
        if share < STUMP_SHARE_REFUTED
        else INCONCLUSIVE
    )
    divergence = ", ".join(
        f"{r.dataset}/{r.cost_model} {r.median_divergence:g}" for r in detail.itertuples()
    )
    evidence = (
        f"{share:.0%} of {int(detail['rounds'].sum())} rounds choose the same stump "
        f"(rounds compared by index); the first round agrees in "
        f"{detail['first_share'].mean():.0%} of trials (mean over datasets); median "
        f"round at which the two paths first differ: {divergence}"
    )
    return ClaimResult("4b", verdict, evidence, len(detail), share, np.nan, share, detail)


def claim5(comparisons: pd.DataFrame) -> ClaimResult:
    """Budgeted boosters vs budgeted trees at the larger budgets."""
    rows = _claim_rows(comparisons, "5")
    if rows.empty:
        return ClaimResult("5", INCONCLUSIVE, "no tree results")
    return _directional("5", rows, "trees")


def claim6(matches: pd.DataFrame, summary: pd.DataFrame) -> ClaimResult:
    """Smoothed's budget to match AdaBoost vs AdaBoostBT's, on the overfitting datasets."""
    m = matches[_matches_any(matches["dataset"], OVERFIT_DATASETS)]
    wide = m.pivot(index=["dataset", "cost_model"], columns="algorithm", values="match_budget")
    if wide.empty or not {"smoothed", "adaboost_bt"} <= set(wide.columns):
        return ClaimResult(
            "6",
            INCONCLUSIVE,
            "needs Smoothed, AdaBoostBT and the AdaBoost reference on "
            f"{', '.join(OVERFIT_DATASETS)}",
        )
    detail = wide[["smoothed", "adaboost_bt"]].rename(
        columns={"smoothed": "smoothed_match_budget", "adaboost_bt": "bt_match_budget"}
    )
    detail = detail.reset_index()
    detail.columns.name = None
    s = detail["smoothed_match_budget"].fillna(np.inf).to_numpy()
    b = detail["bt_match_budget"].fillna(np.inf).to_numpy()
    with np.errstate(invalid="ignore"):
        ratio = np.where(
            np.isfinite(s) & np.isfinite(b), s / b, np.where(np.isfinite(s), 0.0, np.inf)
        )
    detail["ratio"] = ratio
    detail["bt_overfits"] = [
        _overfits(summary, d, c)
        for d, c in zip(detail["dataset"], detail["cost_model"], strict=True)
    ]
    supported = ratio <= MATCH_RATIO
    contradicted = ~np.isfinite(s) | (ratio > 1)
    direction = ratio < 1
    n = len(detail)
    rule = DIRECTIONAL_RULES["6"]
    sup, con, direc = supported.mean(), contradicted.mean(), direction.mean()
    verdict = rule.verdict(sup, con, direc)
    evidence = "; ".join(
        f"{d}/{c}: Smoothed {_budget(si)} vs AdaBoostBT {_budget(bi)}"
        for d, c, si, bi in zip(detail["dataset"], detail["cost_model"], s, b, strict=True)
    )
    return ClaimResult("6", verdict, evidence, n, float(sup), float(con), float(direc), detail)


def _overfits(summary: pd.DataFrame, dataset: str, cost_model: str) -> bool:
    """AdaBoostBT's mean error at its largest budget is above its minimum over the grid."""
    curve = summary[
        (summary["dataset"] == dataset)
        & (summary["cost_model"] == cost_model)
        & (summary["algorithm"] == "adaboost_bt")
        & np.isfinite(summary["budget"])
    ]
    if curve.empty:
        return False
    curve = curve.sort_values("budget")
    return bool(curve["error_mean"].iloc[-1] > curve["error_mean"].min())


def _budget(b: float) -> str:
    return "never" if not np.isfinite(b) else f"B={b:g}"


def check_claims(
    summary: pd.DataFrame,
    comparisons: pd.DataFrame,
    matches: pd.DataFrame,
    varied: Collection[tuple[str, str]] | None = None,
    stumps: pd.DataFrame | None = None,
    catalogue: Catalogue | None = None,
    agreement: pd.DataFrame | None = None,
) -> list[ClaimResult]:
    """Check the paper's six claims (eight verdicts: 3 and 4 have two parts).

    Parameters
    ----------
    summary, comparisons, matches
        Outputs of :func:`budgetboost.analysis.summary.summarize`,
        :func:`~budgetboost.analysis.paired.compare` (the rows of :func:`claim_comparisons`,
        among others) and :func:`~budgetboost.analysis.summary.budget_to_match`.
    varied
        (dataset, cost_model) pairs whose costs vary (:func:`read_cost_variation`); ``None``
        treats every cost model not named in :data:`CONSTANT_COST_MODELS` as varied.
    stumps
        Optional per-round stump choices for claim 4b (see :func:`identical_stump_share`).
    catalogue
        Which algorithm plays which of the paper's roles (default: the built-in names).
    agreement
        Claim 4b's table already computed by :func:`stump_agreement` (instead of
        ``stumps``).
    """
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    # the paper's experiments only: not the cost models of its open questions
    if agreement is None and stumps is not None:
        agreement = identical_stump_share(by_role(stumps, catalogue))
    if agreement is not None:
        agreement = paper_experiments(agreement, summary, catalogue)
    claims = comparisons["question"].str.startswith("claim ")
    comparisons = by_role(paper_experiments(comparisons[claims], summary, catalogue), catalogue)
    matches = by_role(paper_experiments(matches, summary, catalogue), catalogue)
    summary = by_role(paper_experiments(summary, summary, catalogue), catalogue)
    return [
        claim1(comparisons),
        claim2(comparisons, varied),
        claim3a(comparisons, varied),
        claim3b(summary),
        claim4a(comparisons),
        claim4b(agreement),
        claim5(comparisons),
        claim6(matches, summary),
    ]


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


def claims_table(results: Sequence[ClaimResult]) -> pd.DataFrame:
    """One row per claim: id, statement, verdict, evidence and the shares behind it."""
    return pd.DataFrame(
        {
            "claim": [r.claim for r in results],
            "statement": [r.statement for r in results],
            "verdict": [r.verdict for r in results],
            "evidence": [r.evidence for r in results],
            "n_rows": np.array([r.n_rows for r in results], dtype="int64"),
            "supported_share": np.array([r.supported_share for r in results], dtype=float),
            "contradicted_share": np.array([r.contradicted_share for r in results], dtype=float),
            "direction_share": np.array([r.direction_share for r in results], dtype=float),
        }
    )


def thresholds_table() -> pd.DataFrame:
    """Every threshold a verdict depends on, with its meaning (printed in claims.md)."""
    rows = [
        (
            "ALPHA",
            ALPHA,
            "family-wise level of a comparison's rows (exact sign-flip test and two one-sided "
            "tests, Holm over the rows)",
        ),
        (
            "SMALL_BUDGET_SHARE",
            BAND_SHARE,
            "small budgets = this lowest share of each finite budget grid (claim 2)",
        ),
        (
            "LARGE_BUDGET_SHARE",
            BAND_SHARE,
            "larger budgets = this highest share of each finite budget grid (claims 3, 5)",
        ),
        (
            "UNSPENT_FRACTION",
            UNSPENT_FRACTION,
            "3b: Greedy leaves budget unspent if mean spent/B at larger budgets is below this",
        ),
        ("CHEAP_FEATURE_DATASETS", ", ".join(CHEAP_FEATURE_DATASETS), "3b: datasets checked"),
        (
            "EQUIVALENCE_MARGIN",
            EQUIVALENCE_MARGIN,
            "equivalent: the difference in mean error lies within ± this (two one-sided tests); "
            "4a counts the equivalent rows",
        ),
        (
            "EQUIVALENT_SHARE_REPRODUCED / _REFUTED",
            f"{EQUIVALENT_SHARE_REPRODUCED} / {EQUIVALENT_SHARE_REFUTED}",
            "4a: reproduced if the share of equivalent rows is >= the first; "
            "not reproduced if below the second",
        ),
        (
            "STUMP_SHARE_REPRODUCED / _REFUTED",
            f"{STUMP_SHARE_REPRODUCED} / {STUMP_SHARE_REFUTED}",
            "4b: the same for the share of identical stump choices",
        ),
        ("OVERFIT_DATASETS", ", ".join(OVERFIT_DATASETS), "6: datasets checked"),
        (
            "MATCH_RATIO",
            MATCH_RATIO,
            "6: a dataset supports the claim if Smoothed's budget to match AdaBoost is at most "
            "this times AdaBoostBT's; it contradicts it if Smoothed never matches or needs more",
        ),
    ]
    for claim, rule in DIRECTIONAL_RULES.items():
        rows.append(
            (
                f"claim {claim}: min_supported / max_contradicted / min_direction",
                f"{rule.min_supported:.2f} / {rule.max_contradicted:.2f} / "
                f"{rule.min_direction:.2f}",
                "shares of rows (claim 6: of datasets) for reproduced / not reproduced",
            )
        )
    return pd.DataFrame(rows, columns=["threshold", "value", "meaning"])


def evidence_table(results: Sequence[ClaimResult]) -> pd.DataFrame:
    """Every claim's full evidence in one table (``claim`` first; the union of the columns):
    written beside ``claims.md`` as ``claims_evidence.parquet``."""
    parts = [r.detail.assign(claim=r.claim) for r in results if not r.detail.empty]
    if not parts:
        return pd.DataFrame({"claim": pd.Series(dtype="object")})
    table = pd.concat(parts, ignore_index=True)
    return table[["claim", *[c for c in table.columns if c != "claim"]]]
