"""The paper's claims, checked against this run's results.

Huang, Powers & Reyzin (2015), Sections 6-7, make six claims that the benchmark can test;
claims 3 and 4 have two parts, so there are eight verdicts (reproduced / not reproduced /
inconclusive), each with its evidence. Claims 1, 2, 3a, 4a and 5 compare algorithms and are
decided across datasets (:mod:`budgetboost.analysis.verdicts`): each reads the rows of its
comparisons (:data:`CLAIM_COMPARISONS`, made with every other comparison by
:func:`budgetboost.analysis.paired.compare`), the rows across datasets deciding and the rows
per dataset the detail. Claims 3b (Greedy's unspent budget), 4b (identical stump choices)
and 6 (the budget at which Smoothed matches AdaBoost) rest on descriptive evidence, each with
a threshold below; :func:`thresholds_table` prints them all in ``claims.md``.

The claims name the paper's algorithms by *role* (:mod:`budgetboost.analysis.roles`), never
by a config name, and speak of the *paper's regime* (every indicator priced on its own, one
absolute budget grid: :func:`budgetboost.analysis.roles.paper_regime`): every claim reads
only its rows, whatever else ran (the field's regime, Turney's costs with a ``field`` key, the
open questions' cost models). A run without it tests none of them
(:func:`no_paper_regime`): each claim is *not tested*, never *not reproduced* by evidence
from another regime.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

import numpy as np
import pandas as pd

from budgetboost.analysis.bands import BAND_SHARE, budget_band
from budgetboost.analysis.paired import Comparison
from budgetboost.analysis.per_dataset import TRAINING_SHARE
from budgetboost.analysis.roles import PAPER_REGIME, by_role, paper_regime
from budgetboost.analysis.stump_agreement import identical_stump_share
from budgetboost.analysis.verdicts import (
    CLAIM_OUTCOME,
    NOT_REPRODUCED,
    NOT_TESTED,
    REPRODUCED,
    RULES,
    UNDECIDED,
    ClaimResult,
    directional_verdict,
    equivalence_verdict,
    read_with_the_claim,
)
from budgetboost.analysis.vocabulary import (
    ALL,
    ALPHA,
    DECISION_CONFIDENCE,
    EQUIVALENCE_MARGIN,
    MIN_DATASETS,
    MIN_TRIALS,
    OUTCOMES,
    RULE,
    bound_text,
)
from budgetboost.catalogue import Catalogue

__all__ = [
    "CHEAP_FEATURE_DATASETS",
    "CLAIM_COMPARISONS",
    "MATCH_RATIO",
    "OVERFIT_DATASETS",
    "STATEMENTS",
    "ClaimComparison",
    "check_claims",
    "claim_comparisons",
    "claims_table",
    "evidence_table",
    "no_paper_regime",
    "thresholds_table",
]

#: Claim 3b: Greedy "leaves budget unspent" if it spends less than this fraction of B
#: (mean over trials and the larger budgets).
UNSPENT_FRACTION = 0.9
#: Claim 3b: datasets with many cheap features where the paper sees Greedy's trap.
CHEAP_FEATURE_DATASETS = ("sonar", "ionosphere")
#: Claim 4b: share of identical stump choices (same round) to reproduce / below which it fails.
STUMP_SHARE_REPRODUCED = 0.9
STUMP_SHARE_REFUTED = 0.5
#: Claim 6: datasets where the paper sees AdaBoost overfit (a name matches if it equals or
#: starts with one of these).
OVERFIT_DATASETS = ("breast_cancer", "ecoli", "heart")
#: Claim 6: "much smaller budget": Smoothed's budget to match the AdaBoost reference (a paired
#: non-inferiority test, :mod:`budgetboost.analysis.matching`) is at most this fraction of
#: AdaBoostBT's (never reaching it counts as an infinite budget).
MATCH_RATIO = 0.5
#: Claim 6: share of its datasets that must support it / may contradict it.
MATCH_SUPPORTED, MATCH_CONTRADICTED = 2 / 3, 1 / 3
#: Claim 5: the budgeted boosters compared with the trees (roles).
BOOSTERS = ("adaboost_bt", "greedy", "smoothed")
TREES = ("tree", "tree_cs")
#: Claim 1: test-time sampling (roles).
RS_ALGORITHMS = ("adaboost_rs", "adaboost_rs_ac")

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


class ClaimComparison(NamedTuple):
    """The comparisons of one claim: every x role against every y role, in ``bands``."""

    claim: str
    xs: tuple[str, ...]
    ys: tuple[str, ...]
    bands: tuple[str, ...]
    #: ``directional`` ("X beats Y") or ``equivalence`` ("almost identically").
    kind: str
    #: Only the experiments whose feature costs vary (the paper: "with varied costs").
    varied_only: bool = False


#: The comparisons behind claims 1, 2, 3a, 4a and 5. Claim 1 speaks of every budget: each
#: band is one row, and the worst decides.
CLAIM_COMPARISONS = (
    ClaimComparison(
        "1", ("adaboost_bt",), RS_ALGORITHMS, ("small", "medium", "large"), "directional"
    ),
    ClaimComparison("2", ("greedy", "smoothed"), ("adaboost_bt",), ("small",), "directional", True),
    ClaimComparison("3a", ("smoothed",), ("greedy",), ("large",), "directional", True),
    ClaimComparison("4a", ("speedboost",), ("greedy",), ("all",), "equivalence"),
    ClaimComparison("5", BOOSTERS, TREES, ("large",), "directional"),
)
#: The bands the claims' comparisons use, for the band means to compute.
CLAIM_BANDS = ("small", "medium", "large", "all")


def claim_comparisons(
    catalogue: Catalogue,
    pairs: tuple[tuple[str, str], ...] | None = None,
    varied: set[tuple[str, str]] | None = None,
) -> list[Comparison]:
    """The comparisons the claims read (questions ``claim 1`` ...), by the catalogue's roles,
    on the pairs of the paper's regime ``pairs`` (``None``: every pair; empty: none); claims
    about varied costs on those of ``varied`` only (every pair when ``varied`` is None)."""
    out = []
    for spec in CLAIM_COMPARISONS:
        chosen = pairs
        if spec.varied_only and varied is not None:
            chosen = tuple(varied) if pairs is None else tuple(p for p in pairs if p in varied)
        for x in catalogue.with_roles(*spec.xs):
            for y in catalogue.with_roles(*spec.ys):
                out.append(Comparison(f"claim {spec.claim}", x, y, pairs=chosen, bands=spec.bands))
    return out


def _matches_any(names: pd.Series, prefixes: Sequence[str]) -> pd.Series:
    return names.map(lambda n: any(n == p or n.startswith(p) for p in prefixes)).astype(bool)


def _tally(rows: pd.DataFrame) -> str:
    per_dataset = rows[rows["dataset"] != ALL]
    if per_dataset.empty:
        return "no row per dataset"
    counts = per_dataset["outcome"].value_counts()
    shown = " / ".join(f"{int(counts.get(o, 0))} {o}" for o in OUTCOMES if counts.get(o, 0))
    return (
        f"per dataset and cost model: {shown} of {len(per_dataset)} rows "
        f"({int(per_dataset['trials'].min())}-{int(per_dataset['trials'].max())} trials)"
    )


def _across_sentence(row: pd.Series) -> str:
    interval = (
        f" [{bound_text(row['ci_low'])}, {bound_text(row['ci_high'])}]"
        if np.isfinite(row["ci_low"]) and np.isfinite(row["ci_high"])
        else ""
    )
    claim = row.get(CLAIM_OUTCOME)
    together = (
        f" (*{claim}* with Holm over the claim's rows)"
        if isinstance(claim, str) and claim != row["outcome"]
        else ""
    )
    return (
        f"{row['x']} vs {row['y']}, {row['band']} budgets: x − y {row['hodges_lehmann']:+.3f}"
        f"{interval} (median over {int(row['datasets'])} datasets; mean "
        f"{row['mean_difference']:+.3f}), Wilcoxon p {row['p_wilcoxon']:.3g} "
        f"(Holm {row['p_holm']:.3g}), P(x better / equivalent / y better) "
        f"{row['prob_better']:.2f} / {row['prob_equivalent']:.2f} / {row['prob_worse']:.2f}: "
        f"**{row['outcome']}**{together}"
    )


def _compared(claim: str, comparisons: pd.DataFrame, kind: str) -> ClaimResult:
    """A claim decided across datasets from its comparison rows (roles for names)."""
    rows = comparisons[comparisons["question"] == f"claim {claim}"].reset_index(drop=True)
    if rows.empty:
        return ClaimResult(claim, NOT_TESTED, "no results for this comparison in this run")
    rows = read_with_the_claim(rows)
    across = rows[rows["dataset"] == ALL]
    verdict = (directional_verdict if kind == "directional" else equivalence_verdict)(rows)
    if across.empty:
        evidence = (
            "no row across datasets (the comparison ran on fewer than two datasets); "
            + _tally(rows)
        )
    else:
        evidence = "; ".join(_across_sentence(r) for _, r in across.iterrows())
        evidence += ". " + _tally(rows).capitalize() + "."
    return ClaimResult(claim, verdict, evidence, deciding=across, detail=rows)


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
        return ClaimResult("3b", NOT_TESTED, "no Greedy results", detail=detail)
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
            NOT_TESTED,
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
    return ClaimResult("3b", verdict, evidence, detail=detail)


def claim4b(detail: pd.DataFrame | None) -> ClaimResult:
    """Share of identical stump choices, from :func:`identical_stump_share`'s table if the
    per-round stump choices are available."""
    if detail is None:
        return ClaimResult(
            "4b",
            NOT_TESTED,
            "needs the per-round stump choices of Greedy and SpeedBoost; the "
            "shards hold errors only",
        )
    if detail.empty:
        return ClaimResult("4b", NOT_TESTED, "no rounds shared by Greedy and SpeedBoost")
    share = float(np.average(detail["share"], weights=detail["rounds"]))
    verdict = (
        REPRODUCED
        if share >= STUMP_SHARE_REPRODUCED
        else NOT_REPRODUCED
        if share < STUMP_SHARE_REFUTED
        else UNDECIDED
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
    return ClaimResult("4b", verdict, evidence, detail=detail)


def claim6(matches: pd.DataFrame, summary: pd.DataFrame) -> ClaimResult:
    """Smoothed's budget to match AdaBoost vs AdaBoostBT's, on the overfitting datasets (a
    dataset under several cost models counts once: its experiments share its weight)."""
    m = matches[_matches_any(matches["dataset"], OVERFIT_DATASETS)]
    wide = m.pivot(index=["dataset", "cost_model"], columns="algorithm", values="match_budget")
    if wide.empty or not {"smoothed", "adaboost_bt"} <= set(wide.columns):
        return ClaimResult(
            "6",
            NOT_TESTED,
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
    # Smoothed never reaches it where AdaBoostBT does, or needs more; neither reaching it
    # (the test cannot show either within the margin) is no evidence either way
    contradicted = (~np.isfinite(s) & np.isfinite(b)) | (np.isfinite(s) & (ratio > 1))
    detail["evidence"] = np.where(
        supported, "supports", np.where(contradicted, "contradicts", "none")
    )
    # each dataset counts once, its cost models sharing its weight
    weight = 1.0 / detail.groupby("dataset")["dataset"].transform("size").to_numpy()
    sup, con = (float(np.average(v, weights=weight)) for v in (supported, contradicted))
    if sup >= MATCH_SUPPORTED and con <= MATCH_CONTRADICTED:
        verdict = REPRODUCED
    elif con > MATCH_CONTRADICTED:
        verdict = NOT_REPRODUCED
    else:
        verdict = UNDECIDED
    evidence = "; ".join(
        f"{d}/{c}: Smoothed {_budget(si)} vs AdaBoostBT {_budget(bi)}"
        for d, c, si, bi in zip(detail["dataset"], detail["cost_model"], s, b, strict=True)
    )
    return ClaimResult("6", verdict, evidence, detail=detail)


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


def no_paper_regime(summary: pd.DataFrame) -> str:
    """The evidence of every claim on a run without the paper's regime: it says so, and
    which cost models ran instead (``summary``'s)."""
    ran = (
        sorted(summary["cost_model"].astype(str).unique())
        if "cost_model" in summary.columns
        else []
    )
    others = (
        f"; the claims are not read off this run's other cost models ({', '.join(ran)})"
        if ran
        else ""
    )
    return f"no runs in {PAPER_REGIME} in this run{others}"


def check_claims(
    summary: pd.DataFrame,
    comparisons: pd.DataFrame,
    matches: pd.DataFrame,
    stumps: pd.DataFrame | None = None,
    catalogue: Catalogue | None = None,
    agreement: pd.DataFrame | None = None,
    field: Iterable[str] = (),
) -> list[ClaimResult]:
    """Check the paper's six claims (eight verdicts: 3 and 4 have two parts) on the rows of
    the paper's regime (:func:`budgetboost.analysis.roles.paper_regime`); on a run without
    any, every claim is *not tested* (:func:`no_paper_regime` says why).

    Parameters
    ----------
    summary, comparisons, matches
        Outputs of :func:`budgetboost.analysis.summary.summarize`,
        :func:`~budgetboost.analysis.paired.compare` (the rows of :func:`claim_comparisons`,
        among others, which :func:`budgetboost.analysis.results.aggregate` asks on the
        paper's regime alone) and :func:`~budgetboost.analysis.matching.budget_to_match`.
    stumps
        Optional per-round stump choices for claim 4b (see :func:`identical_stump_share`).
    catalogue
        Which algorithm plays which of the paper's roles (default: the built-in names).
    agreement
        Claim 4b's table already computed by
        :func:`~budgetboost.analysis.stump_agreement.stump_agreement` (instead of ``stumps``).
    field
        The cost models of the field's regime
        (:meth:`budgetboost.pipeline.plan.Plan.field_pools`: its keys), which no claim reads.
    """
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    field = list(field)
    # the paper's regime only: not the open questions' cost models, not the field's regime
    regime = paper_regime(summary, summary, catalogue, field)
    if regime.empty:
        evidence = no_paper_regime(summary)
        results = {claim: ClaimResult(claim, NOT_TESTED, evidence) for claim in STATEMENTS}
    else:
        if agreement is None and stumps is not None:
            agreement = identical_stump_share(by_role(stumps, catalogue))
        if agreement is not None:
            agreement = paper_regime(agreement, summary, catalogue, field)
        claims = comparisons["question"].str.startswith("claim ")
        comparisons = by_role(comparisons[claims], catalogue)
        matches = by_role(paper_regime(matches, summary, catalogue, field), catalogue)
        summary = by_role(regime, catalogue)
        kinds = {spec.claim: spec.kind for spec in CLAIM_COMPARISONS}
        results = {claim: _compared(claim, comparisons, kind) for claim, kind in kinds.items()}
        results["3b"] = claim3b(summary)
        results["4b"] = claim4b(agreement)
        results["6"] = claim6(matches, summary)
    ordered = [results[claim] for claim in STATEMENTS]
    for result in ordered:
        result.statement = STATEMENTS[result.claim]
    return ordered


def claims_table(results: Sequence[ClaimResult]) -> pd.DataFrame:
    """One row per claim: id, statement, verdict, evidence, and how many rows across datasets
    decide it with the fewest datasets among them."""
    return pd.DataFrame(
        {
            "claim": [r.claim for r in results],
            "statement": [r.statement for r in results],
            "verdict": [r.verdict for r in results],
            "evidence": [r.evidence for r in results],
            "deciding_rows": np.array([len(r.deciding) for r in results], dtype="int64"),
            "datasets": np.array(
                [int(r.deciding["datasets"].min()) if not r.deciding.empty else 0 for r in results],
                dtype="int64",
            ),
        }
    )


def thresholds_table() -> pd.DataFrame:
    """Every threshold a verdict depends on, with its meaning (printed in claims.md)."""
    rows = [
        ("ALPHA", ALPHA, "level of every test (Holm over the rows of a comparison)"),
        (
            "EQUIVALENCE_MARGIN",
            EQUIVALENCE_MARGIN,
            "the margin of practical equivalence: every outcome is read off the row's "
            f"{DECISION_CONFIDENCE * 100:.0f} % interval against it ({RULE}); across "
            "datasets also the region of practical equivalence of the Bayesian signed-rank "
            "test, which describes a row",
        ),
        ("MIN_TRIALS", MIN_TRIALS, "per dataset: the fewest trials a row needs for an outcome"),
        (
            "TRAINING_SHARE",
            TRAINING_SHARE,
            "per dataset: the largest share of a trial's variance the corrected resampled "
            "t-test lets its training rows hold; two trials correlate by rho = (n_test + "
            "TRAINING_SHARE max(0, n_train - n_test)) / n_pool",
        ),
        (
            "MIN_DATASETS",
            MIN_DATASETS,
            "across datasets: the fewest datasets a row needs for an outcome (the exact "
            "Wilcoxon test cannot reach ALPHA with fewer)",
        ),
        (
            "SMALL / MEDIUM / LARGER BUDGETS",
            "1/3",
            "the lowest third / the middle / the highest third of each (dataset, cost model)'s "
            f"sorted budget grid (each third rounded up: {BAND_SHARE:.4g})",
        ),
        ("directional claims (1, 2, 3a, 5)", "", RULES["directional"]),
        ("claim 4a", "", RULES["equivalence"]),
        (
            "UNSPENT_FRACTION",
            UNSPENT_FRACTION,
            "3b: Greedy leaves budget unspent if mean spent/B at larger budgets is below this",
        ),
        ("CHEAP_FEATURE_DATASETS", ", ".join(CHEAP_FEATURE_DATASETS), "3b: datasets checked"),
        (
            "STUMP_SHARE_REPRODUCED / _REFUTED",
            f"{STUMP_SHARE_REPRODUCED} / {STUMP_SHARE_REFUTED}",
            "4b: reproduced if the share of identical stump choices is >= the first; not "
            "reproduced if below the second",
        ),
        ("OVERFIT_DATASETS", ", ".join(OVERFIT_DATASETS), "6: datasets checked"),
        (
            "MATCH_RATIO",
            MATCH_RATIO,
            "6: a dataset supports the claim if Smoothed's budget to match AdaBoost (its error "
            "paired with AdaBoost's at most EQUIVALENCE_MARGIN above it, one-sided 95 % bound) "
            "is at most this times AdaBoostBT's; it contradicts it if Smoothed needs more, or "
            "never matches where AdaBoostBT does",
        ),
        (
            "MATCH_SUPPORTED / _CONTRADICTED",
            f"{MATCH_SUPPORTED:.2f} / {MATCH_CONTRADICTED:.2f}",
            "6: reproduced if at least the first share of its datasets support it and at most "
            "the second contradict it; not reproduced if more contradict it; a dataset where "
            "neither reaches AdaBoost is no evidence either way",
        ),
    ]
    return pd.DataFrame(
        [(name, str(value), meaning) for name, value, meaning in rows],
        columns=["threshold", "value", "meaning"],
    )


def evidence_table(results: Sequence[ClaimResult]) -> pd.DataFrame:
    """Every claim's full evidence in one table (``claim`` first; the union of the columns):
    written beside ``claims.md`` as ``claims_evidence.parquet``."""
    parts = [r.detail.assign(claim=r.claim) for r in results if not r.detail.empty]
    if not parts:
        return pd.DataFrame({"claim": pd.Series(dtype="object")})
    table = pd.concat(parts, ignore_index=True)
    return table[["claim", *[c for c in table.columns if c != "claim"]]]
