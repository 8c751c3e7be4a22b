"""Verdict logic of budgetboost.analysis.claims on synthetic results made to reproduce or refute."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from synthetic_results import row, shard_frame, sizes_for

from budgetboost.analysis import claims
from budgetboost.analysis.results import aggregate
from budgetboost.analysis.stump_agreement import identical_stump_share
from budgetboost.analysis.verdicts import (
    NOT_REPRODUCED,
    REPRODUCED,
    UNDECIDED,
    ClaimResult,
    directional_verdict,
    equivalence_verdict,
)
from budgetboost.data.costs import CostTable, varied_pairs, write_costs
from budgetboost.data.seeds import rng_from_key
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report import claims as claims_text

BUDGETS = (2.0, 4.0, 6.0, 8.0, 10.0, 12.0)
#: Eight datasets: the exact Wilcoxon test over them reaches 2 / 256, below Holm's levels.
DATASETS = (
    "ecoli",
    "heart",
    "breast_cancer",
    "sonar",
    "ionosphere",
    "splice",
    "census",
    "ocr17",
)
Curve = Callable[[float], float]


def build(
    curves: dict[str, Curve],
    datasets=DATASETS,
    cost_model="uniform_0_2",
    trials=12,
    spent: dict[str, float] | None = None,
    reference: float | None = 0.1,
) -> pd.DataFrame:
    """Shards where each algorithm's error at budget b is ``curves[alg](b)`` plus small
    independent noise per (algorithm, trial); ``spent`` gives a spent fraction per algorithm.
    """
    rows = []
    for dataset in datasets:
        for t in range(trials):
            if reference is not None:
                rows.append(row(dataset, cost_model, "adaboost", t, np.inf, reference))
            for alg, curve in curves.items():
                noise = rng_from_key("claims-test", dataset, alg, t).normal(0, 0.002, len(BUDGETS))
                for b, eps in zip(BUDGETS, noise, strict=True):
                    frac = (spent or {}).get(alg, 0.97)
                    rows.append(
                        row(
                            dataset,
                            cost_model,
                            alg,
                            t,
                            b,
                            float(np.clip(curve(b) + eps, 0, 1)),
                            b * frac,
                        )
                    )
    return shard_frame(rows)


def tables(df: pd.DataFrame, varied=None):
    """Summary, comparison rows and budget to match, as the aggregate rule makes them."""
    results = aggregate(df, Catalogue.default(), "uniform_0_2", sizes_for(df), varied)
    return results.summary, results.comparisons, results.budget_to_match


def check(df: pd.DataFrame, varied=None, **kwargs) -> dict[str, ClaimResult]:
    results = claims.check_claims(*tables(df, varied), **kwargs)
    return {r.claim: r for r in results}


def const(value: float) -> Curve:
    return lambda b: value


def across(*outcomes: str) -> pd.DataFrame:
    """Rows across datasets with these outcomes, and a row per dataset that says otherwise."""
    rows = pd.DataFrame({"dataset": "all", "outcome": list(outcomes)})
    return pd.concat([rows, pd.DataFrame({"dataset": ["d"], "outcome": ["worse"]})])


def test_verdicts_read_the_rows_across_datasets_only():
    assert directional_verdict(across("better", "better")) == REPRODUCED
    assert directional_verdict(across("better", "worse")) == NOT_REPRODUCED
    assert directional_verdict(across("better", "equivalent")) == NOT_REPRODUCED
    assert directional_verdict(across("better", "inconclusive")) == UNDECIDED
    assert directional_verdict(across("too few datasets")) == UNDECIDED
    assert directional_verdict(across()) == UNDECIDED  # per-dataset rows decide nothing
    assert equivalence_verdict(across("equivalent")) == REPRODUCED
    assert equivalence_verdict(across("equivalent", "better")) == NOT_REPRODUCED
    assert equivalence_verdict(across("inconclusive")) == UNDECIDED
    assert equivalence_verdict(across("too few datasets")) == UNDECIDED


def test_claim1_reproduced_refuted_and_inconclusive():
    good = check(build({"adaboost_bt": const(0.2), "adaboost_rs": const(0.4)}))["1"]
    assert good.verdict == REPRODUCED
    # "at every budget": one row across datasets per band, each must hold
    assert set(good.deciding["band"]) == {"small", "medium", "large"}
    assert (good.deciding["outcome"] == "better").all()
    assert "over 8 datasets" in good.evidence and "Wilcoxon p" in good.evidence
    bad = check(build({"adaboost_bt": const(0.4), "adaboost_rs": const(0.2)}))["1"]
    assert bad.verdict == NOT_REPRODUCED
    # AdaBoostRS ahead at the largest budgets only: the worst band decides
    late = check(
        build({"adaboost_bt": const(0.2), "adaboost_rs": lambda b: 0.4 if b < 10 else 0.1})
    )["1"]
    assert late.verdict == NOT_REPRODUCED
    assert late.deciding.set_index("band").loc["large", "outcome"] == "worse"
    # five datasets: the exact Wilcoxon test cannot reach 0.05
    few = check(
        build({"adaboost_bt": const(0.2), "adaboost_rs": const(0.4)}, datasets=DATASETS[:5])
    )["1"]
    assert few.verdict == UNDECIDED
    assert set(few.deciding["outcome"]) == {"too few datasets"}
    none = check(build({"adaboost_bt": const(0.2)}))["1"]
    assert none.verdict == UNDECIDED and "no results" in none.evidence


def test_claims_judge_the_paper_experiments_only():
    """A cost model without the unbudgeted reference (an open question's) never enters a
    verdict, however strongly it points the other way."""
    curves = {
        "adaboost_bt": const(0.3),
        "greedy": lambda b: 0.2 if b <= 4 else 0.4,
        "smoothed": lambda b: 0.2 if b <= 4 else 0.4,
    }
    paper = build(curves)
    against = build(
        {k: (lambda b, f=f: 0.6 - f(b)) for k, f in curves.items()},
        cost_model="adversarial",
        reference=None,
    )
    both = pd.concat([paper, against], ignore_index=True)
    result, alone = check(both)["2"], check(paper)["2"]
    assert result.verdict == alone.verdict == REPRODUCED
    assert len(result.deciding) == len(alone.deciding) == 2
    assert set(result.detail["cost_model"]) == {"uniform_0_2", "all"}


def test_a_dataset_under_two_cost_models_counts_once():
    curves = {"adaboost_bt": const(0.3), "greedy": const(0.2), "smoothed": const(0.2)}
    paper = build(curves)
    heart = build(curves, datasets=("heart",), cost_model="turney")
    rows = check(pd.concat([paper, heart], ignore_index=True))["2"].deciding
    assert (rows["datasets"] == len(DATASETS)).all()


def test_claim2_small_budgets_with_varied_costs_only():
    # Greedy/Smoothed better only at the small budgets (2, 4), worse at large ones
    curves = {
        "adaboost_bt": const(0.3),
        "greedy": lambda b: 0.2 if b <= 4 else 0.4,
        "smoothed": lambda b: 0.2 if b <= 4 else 0.4,
    }
    df = build(curves)
    assert check(df)["2"].verdict == REPRODUCED
    assert len(check(df)["2"].deciding) == 2  # the small band x two algorithms
    flipped = build({k: (lambda b, f=f: 0.6 - f(b)) for k, f in curves.items()})
    assert check(flipped)["2"].verdict == NOT_REPRODUCED
    # equal costs everywhere: the claim has no rows to judge
    assert check(df, varied=set())["2"].verdict == UNDECIDED
    some = {(d, "uniform_0_2") for d in DATASETS[:6]}
    assert check(df, varied=some)["2"].deciding["datasets"].tolist() == [6, 6]


def test_claim3a_smoothed_beats_greedy_at_large_budgets():
    good = build({"greedy": lambda b: 0.2 if b <= 4 else 0.3, "smoothed": const(0.25)})
    assert check(good)["3a"].verdict == REPRODUCED
    bad = build({"greedy": const(0.2), "smoothed": const(0.3)})
    assert check(bad)["3a"].verdict == NOT_REPRODUCED
    same = build({"greedy": const(0.2), "smoothed": const(0.2)})
    assert check(same)["3a"].verdict == NOT_REPRODUCED  # practically equivalent: no "beats"


def test_claim3b_spent_fraction():
    curves = {"greedy": const(0.2), "smoothed": const(0.2)}
    trap = check(
        build(curves, datasets=("sonar", "ecoli"), spent={"greedy": 0.5, "smoothed": 0.98})
    )["3b"]
    assert trap.verdict == REPRODUCED
    assert "sonar/uniform_0_2 50%" in trap.evidence
    detail = trap.detail.set_index("dataset")
    assert detail.loc["sonar", "greedy_spent_fraction"] == pytest.approx(0.5)
    assert detail.loc["sonar", "smoothed_spent_fraction"] == pytest.approx(0.98)
    spends = check(build(curves, datasets=("sonar",), spent={"greedy": 0.98}))["3b"]
    assert spends.verdict == NOT_REPRODUCED
    absent = check(build(curves, datasets=("ecoli",), spent={"greedy": 0.5}))["3b"]
    assert absent.verdict == UNDECIDED and "ecoli/uniform_0_2 50%" in absent.evidence


def test_claim4a_speedboost_tracks_greedy():
    same = check(build({"greedy": const(0.2), "speedboost": const(0.203)}))["4a"]
    assert same.verdict == REPRODUCED
    assert same.deciding["prob_equivalent"].iloc[0] >= 0.95
    apart = check(build({"greedy": const(0.2), "speedboost": const(0.3)}))["4a"]
    assert apart.verdict == NOT_REPRODUCED
    # every row inconclusive (3 trials per dataset, 5 datasets): the claim is too
    few = build({"greedy": const(0.2), "speedboost": const(0.203)}, datasets=DATASETS[:5])
    assert check(few)["4a"].verdict == UNDECIDED


def test_claim4b_needs_stump_choices():
    r = check(build({"greedy": const(0.2)}))["4b"]
    assert r.verdict == UNDECIDED and "per-round stump choices" in r.evidence
    base = pd.DataFrame(
        {
            "dataset": "ecoli",
            "cost_model": "uniform_0_2",  # a paper experiment of build()'s results
            "trial": 0,
            "round": np.arange(10),
            "feature": np.arange(10),
            "threshold": 1.0,
        }
    )
    speed = base.assign(algorithm="speedboost")
    same = pd.concat([base.assign(algorithm="greedy"), speed])
    assert check(build({"greedy": const(0.2)}), stumps=same)["4b"].verdict == REPRODUCED
    other = pd.concat([base.assign(algorithm="greedy", feature=base["feature"] + 1), speed])
    r = check(build({"greedy": const(0.2)}), stumps=other)["4b"]
    assert r.verdict == NOT_REPRODUCED and "0% of 10 rounds" in r.evidence
    flipped = pd.concat(
        [
            base.assign(algorithm="greedy", polarity=1),
            speed.assign(polarity=np.where(base["round"] < 5, 1, -1)),
        ]
    )
    share = identical_stump_share(flipped)
    assert share.loc[0, "share"] == 0.5 and share.loc[0, "rounds"] == 10
    # Paths agree up to round 5 and differ from then on; the first round agrees.
    assert share.loc[0, "median_divergence"] == 5 and share.loc[0, "first_share"] == 1.0
    never = identical_stump_share(same)
    assert never.loc[0, "median_divergence"] == 10 and never.loc[0, "share"] == 1.0
    assert identical_stump_share(other).loc[0, "first_share"] == 0.0
    # Two trials diverging at rounds 2 and 6: the median is 4, whatever the row order.
    two = pd.concat(
        [base.assign(algorithm="greedy", trial=t) for t in (0, 1)]
        + [
            speed.assign(trial=t, feature=np.where(base["round"] < d, base["feature"], -1))
            for t, d in ((0, 2), (1, 6))
        ]
    ).sample(frac=1.0, random_state=0)
    assert identical_stump_share(two).loc[0, "median_divergence"] == 4
    with pytest.raises(ValueError, match="missing column"):
        identical_stump_share(same.drop(columns="threshold"))


def test_claim5_trees():
    none = check(build({"adaboost_bt": const(0.2)}))["5"]
    assert none.verdict == UNDECIDED and "no results" in none.evidence
    boosting_wins = build(
        {
            "adaboost_bt": lambda b: 0.4 - b / 100,
            "smoothed": const(0.2),
            "tree": lambda b: 0.2 + b / 100,
        }
    )
    assert check(boosting_wins)["5"].verdict == REPRODUCED
    trees_win = build({"adaboost_bt": const(0.3), "tree": const(0.1)})
    assert check(trees_win)["5"].verdict == NOT_REPRODUCED


def test_claim6_budget_to_match_on_overfitting_datasets():
    # reference 0.1; Smoothed reaches it at B=4, AdaBoostBT only at B=12
    good = build(
        {
            "smoothed": lambda b: 0.05 if b >= 4 else 0.3,
            "adaboost_bt": lambda b: 0.05 if b >= 12 else 0.3,
        },
        datasets=("ecoli", "heart", "breast_cancer"),
    )
    r = check(good)["6"]
    assert r.verdict == REPRODUCED and len(r.detail) == 3
    assert "ecoli/uniform_0_2: Smoothed B=4 vs AdaBoostBT B=12" in r.evidence
    never = build(
        {"smoothed": const(0.3), "adaboost_bt": lambda b: 0.05 if b >= 6 else 0.3},
        datasets=("ecoli", "heart"),
    )
    assert check(never)["6"].verdict == NOT_REPRODUCED
    # only the (dataset, cost model) pairs that were run, never their cross product
    both = pd.concat(
        [
            build(
                {"smoothed": const(0.05), "adaboost_bt": const(0.3)},
                datasets=("ecoli",),
                cost_model="a",
            ),
            build(
                {"smoothed": const(0.05), "adaboost_bt": const(0.3)},
                datasets=("heart",),
                cost_model="b",
            ),
        ]
    )
    assert len(check(both)["6"].detail) == 2
    elsewhere = build({"smoothed": const(0.05), "adaboost_bt": const(0.3)}, datasets=("sonar",))
    assert check(elsewhere)["6"].verdict == UNDECIDED


def test_varied_pairs(tmp_path):
    for name, costs in {"uniform": [[0.5, 1.5], [1.0, 1.0]], "constant": [[1.0, 1.0]]}.items():
        table = CostTable(trials=np.arange(len(costs)), costs=np.array(costs), grouped=False)
        write_costs(table, tmp_path / "ecoli" / f"{name}.parquet")
    paths = sorted((tmp_path / "ecoli").glob("*.parquet"))
    assert varied_pairs(paths) == {("ecoli", "uniform")}


def test_outputs_state_thresholds_and_every_claim():
    results = claims.check_claims(*_empty_tables())
    table = claims.claims_table(results)
    assert list(table["claim"]) == ["1", "2", "3a", "3b", "4a", "4b", "5", "6"]
    assert set(table["verdict"]) == {UNDECIDED}
    text = claims_text.claims_markdown(results)
    for name in (
        "ALPHA",
        "EQUIVALENCE_MARGIN",
        "PROBABILITY",
        "MIN_DATASETS",
        "MIN_TRIALS",
        "MATCH_RATIO",
        "UNSPENT_FRACTION",
        "directional claims",
    ):
        assert name in text
    assert "| ALPHA " in text and "0.05" in text


def _empty_tables():
    return tables(build({}, reference=None))


def test_claims_md_names_the_numbers_each_verdict_rests_on():
    df = build({"adaboost_bt": const(0.2), "adaboost_rs": const(0.4), "greedy": const(0.25)})
    results = claims.check_claims(*tables(df))
    text = claims_text.claims_markdown(results)
    one = next(r for r in results if r.claim == "1")
    section = text[text.index("## Claim 1:") : text.index("## Claim 2:")]
    assert "Across datasets (the verdict rests on these rows)" in section
    for value in one.deciding["p_wilcoxon"]:
        assert f"{value:.3g}" in section
    assert text.index("## Verdicts") < text.index("### Thresholds") < text.index("## Claim 1")
    assert len(claims.evidence_table(results)) == sum(len(r.detail) for r in results)


def test_claims_md_shows_the_deciding_rows_per_dataset_and_counts_the_rest():
    """Every row per dataset where x is worse, the closest calls, a count of the rest."""
    p_holm = [0.001] * 25 + [0.04, 0.07, 0.01, 0.02, 0.5]
    detail = pd.DataFrame(
        {
            "x": "a",
            "y": "b",
            "dataset": ["d"] * 30,
            "cost_model": "c",
            "band": "small",
            "trials": 10,
            "mean_difference": [-0.1] * 27 + [0.2, 0.2, -0.01],
            "ci_low": -0.2,
            "ci_high": 0.0,
            "p_holm": p_holm,
            "p_equivalence": 0.5,
            "min_detectable": 0.01,
            "outcome": ["better"] * 25 + ["better", "inconclusive", "worse", "worse", "equivalent"],
        }
    )
    shown, note = claims_text.deciding_evidence(detail)
    assert list(shown["why"]).count("x worse") == 2
    closest = shown[shown["why"] == "closest call"]
    assert len(closest) == claims_text.CLOSEST_CALLS
    assert set(closest["p_holm"].head(2)) == {0.04, 0.07}
    assert note.startswith("Per dataset and cost model: 2 rows where x is worse and the 5")
