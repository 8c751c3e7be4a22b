"""Verdict logic of budgetboost.analysis.claims on synthetic results made to reproduce or refute."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from synthetic_results import row, shard_frame

from budgetboost.analysis import claims
from budgetboost.analysis.results import aggregate
from budgetboost.data.costs import CostTable, write_costs
from budgetboost.data.seeds import rng_from_key
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.report import claims as claims_text

BUDGETS = (2.0, 4.0, 6.0, 8.0, 10.0, 12.0)
Curve = Callable[[float], float]


def build(
    curves: dict[str, Curve],
    datasets=("ecoli",),
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


def tables(df: pd.DataFrame):
    """Summary, comparison rows and budget to match, as the aggregate rule makes them."""
    results = aggregate(df, Catalogue.default(), baseline="uniform_0_2")
    return results.summary, results.comparisons, results.budget_to_match


def check(df: pd.DataFrame, **kwargs) -> dict[str, claims.ClaimResult]:
    results = claims.check_claims(*tables(df), **kwargs)
    return {r.claim: r for r in results}


def const(value: float) -> Curve:
    return lambda b: value


def rows(differences, outcomes) -> pd.DataFrame:
    return pd.DataFrame({"mean_difference": differences, "outcome": outcomes})


def test_directional_verdict_rules():
    rule = claims.DirectionalRule(min_supported=0.5, max_contradicted=0.1, min_direction=0.5)
    verdict = claims.directional_verdict
    assert verdict(rows([-1, -1], ["better"] * 2), rule)[0] == claims.REPRODUCED
    assert verdict(rows([-1, 1], ["better", "worse"]), rule)[0] == claims.NOT_REPRODUCED
    assert verdict(rows([1, 1], ["inconclusive"] * 2), rule)[0] == claims.NOT_REPRODUCED
    assert verdict(rows([-1, -1], ["inconclusive"] * 2), rule)[0] == claims.INCONCLUSIVE
    # equivalent rows support nothing: the right direction without evidence
    assert verdict(rows([-0.001, -0.001], ["equivalent"] * 2), rule)[0] == claims.INCONCLUSIVE
    result, sup, con, direc = verdict(rows([], []), rule)
    assert result == claims.INCONCLUSIVE and np.isnan(sup)


def test_claim1_reproduced_refuted_and_inconclusive():
    good = check(build({"adaboost_bt": const(0.2), "adaboost_rs": const(0.4)}))["1"]
    assert good.verdict == claims.REPRODUCED and good.n_rows == 1  # one dataset, all budgets
    assert good.supported_share == 1.0
    bad = check(build({"adaboost_bt": const(0.4), "adaboost_rs": const(0.2)}))["1"]
    assert bad.verdict == claims.NOT_REPRODUCED and bad.contradicted_share == 1.0
    # three trials: the smallest two-sided exact sign-flip p is 0.25, never significant
    few = check(build({"adaboost_bt": const(0.2), "adaboost_rs": const(0.4)}, trials=3))["1"]
    assert few.verdict == claims.INCONCLUSIVE and few.direction_share == 1.0
    none = check(build({"adaboost_bt": const(0.2)}))["1"]
    assert none.verdict == claims.INCONCLUSIVE and "no results" in none.evidence


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
    assert result.verdict == alone.verdict == claims.REPRODUCED
    assert result.n_rows == alone.n_rows == 2
    assert set(result.detail["cost_model"]) == {"uniform_0_2"}


def test_claim2_small_budgets_with_varied_costs_only():
    # Greedy/Smoothed better only at the small budgets (2, 4), worse at large ones
    curves = {
        "adaboost_bt": const(0.3),
        "greedy": lambda b: 0.2 if b <= 4 else 0.4,
        "smoothed": lambda b: 0.2 if b <= 4 else 0.4,
    }
    df = build(curves)
    assert check(df)["2"].verdict == claims.REPRODUCED
    assert check(df)["2"].n_rows == 2  # the small band x two algorithms
    flipped = build({k: (lambda b, f=f: 0.6 - f(b)) for k, f in curves.items()})
    assert check(flipped)["2"].verdict == claims.NOT_REPRODUCED
    # equal costs everywhere: the claim has no rows to judge
    assert check(df, varied=set())["2"].verdict == claims.INCONCLUSIVE
    assert check(df, varied={("ecoli", "uniform_0_2")})["2"].verdict == claims.REPRODUCED
    constant = build(curves, cost_model="constant")
    assert check(constant)["2"].verdict == claims.INCONCLUSIVE  # default: by name


def test_claim3a_smoothed_beats_greedy_at_large_budgets():
    good = build({"greedy": lambda b: 0.2 if b <= 4 else 0.3, "smoothed": const(0.25)})
    assert check(good)["3a"].verdict == claims.REPRODUCED
    bad = build({"greedy": const(0.2), "smoothed": const(0.3)})
    assert check(bad)["3a"].verdict == claims.NOT_REPRODUCED


def test_claim3b_spent_fraction():
    curves = {"greedy": const(0.2), "smoothed": const(0.2)}
    trap = check(
        build(curves, datasets=("sonar", "ecoli"), spent={"greedy": 0.5, "smoothed": 0.98})
    )["3b"]
    assert trap.verdict == claims.REPRODUCED
    assert "sonar/uniform_0_2 50%" in trap.evidence
    detail = trap.detail.set_index("dataset")
    assert detail.loc["sonar", "greedy_spent_fraction"] == pytest.approx(0.5)
    assert detail.loc["sonar", "smoothed_spent_fraction"] == pytest.approx(0.98)
    spends = check(build(curves, datasets=("sonar",), spent={"greedy": 0.98}))["3b"]
    assert spends.verdict == claims.NOT_REPRODUCED
    absent = check(build(curves, datasets=("ecoli",), spent={"greedy": 0.5}))["3b"]
    assert absent.verdict == claims.INCONCLUSIVE and "ecoli/uniform_0_2 50%" in absent.evidence


def test_claim4a_speedboost_tracks_greedy():
    same = check(build({"greedy": const(0.2), "speedboost": const(0.203)}))["4a"]
    assert same.verdict == claims.REPRODUCED and same.supported_share == 1.0
    apart = check(build({"greedy": const(0.2), "speedboost": const(0.3)}))["4a"]
    assert apart.verdict == claims.NOT_REPRODUCED


def test_claim4b_needs_stump_choices():
    r = check(build({"greedy": const(0.2)}))["4b"]
    assert r.verdict == claims.INCONCLUSIVE and "per-round stump choices" in r.evidence
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
    assert check(build({"greedy": const(0.2)}), stumps=same)["4b"].verdict == claims.REPRODUCED
    other = pd.concat([base.assign(algorithm="greedy", feature=base["feature"] + 1), speed])
    r = check(build({"greedy": const(0.2)}), stumps=other)["4b"]
    assert r.verdict == claims.NOT_REPRODUCED and r.supported_share == 0.0
    flipped = pd.concat(
        [
            base.assign(algorithm="greedy", polarity=1),
            speed.assign(polarity=np.where(base["round"] < 5, 1, -1)),
        ]
    )
    share = claims.identical_stump_share(flipped)
    assert share.loc[0, "share"] == 0.5 and share.loc[0, "rounds"] == 10
    # Paths agree up to round 5 and differ from then on; the first round agrees.
    assert share.loc[0, "median_divergence"] == 5 and share.loc[0, "first_share"] == 1.0
    never = claims.identical_stump_share(same)
    assert never.loc[0, "median_divergence"] == 10 and never.loc[0, "share"] == 1.0
    assert claims.identical_stump_share(other).loc[0, "first_share"] == 0.0
    # Two trials diverging at rounds 2 and 6: the median is 4, whatever the row order.
    two = pd.concat(
        [base.assign(algorithm="greedy", trial=t) for t in (0, 1)]
        + [
            speed.assign(trial=t, feature=np.where(base["round"] < d, base["feature"], -1))
            for t, d in ((0, 2), (1, 6))
        ]
    ).sample(frac=1.0, random_state=0)
    assert claims.identical_stump_share(two).loc[0, "median_divergence"] == 4
    with pytest.raises(ValueError, match="missing column"):
        claims.identical_stump_share(same.drop(columns="threshold"))


def test_claim5_trees():
    none = check(build({"adaboost_bt": const(0.2)}))["5"]
    assert none.verdict == claims.INCONCLUSIVE and none.evidence == "no tree results"
    boosting_wins = build(
        {
            "adaboost_bt": lambda b: 0.4 - b / 100,
            "smoothed": const(0.2),
            "tree": lambda b: 0.2 + b / 100,
        }
    )
    assert check(boosting_wins)["5"].verdict == claims.REPRODUCED
    trees_win = build({"adaboost_bt": const(0.3), "tree": const(0.1)})
    assert check(trees_win)["5"].verdict == claims.NOT_REPRODUCED


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
    assert r.verdict == claims.REPRODUCED and r.n_rows == 3
    assert "ecoli/uniform_0_2: Smoothed B=4 vs AdaBoostBT B=12" in r.evidence
    never = build(
        {"smoothed": const(0.3), "adaboost_bt": lambda b: 0.05 if b >= 6 else 0.3},
        datasets=("ecoli", "heart"),
    )
    assert check(never)["6"].verdict == claims.NOT_REPRODUCED
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
    assert check(both)["6"].n_rows == 2
    elsewhere = build({"smoothed": const(0.05), "adaboost_bt": const(0.3)}, datasets=("sonar",))
    assert check(elsewhere)["6"].verdict == claims.INCONCLUSIVE


def test_read_cost_variation(tmp_path):
    for name, costs in {"uniform": [[0.5, 1.5], [1.0, 1.0]], "constant": [[1.0, 1.0]]}.items():
        table = CostTable(trials=np.arange(len(costs)), costs=np.array(costs), grouped=False)
        write_costs(table, tmp_path / "ecoli" / f"{name}.parquet")
    paths = sorted((tmp_path / "ecoli").glob("*.parquet"))
    assert claims.read_cost_variation(paths) == {("ecoli", "uniform")}


def test_outputs_state_thresholds_and_every_claim():
    results = claims.check_claims(*_empty_tables())
    table = claims.claims_table(results)
    assert list(table["claim"]) == ["1", "2", "3a", "3b", "4a", "4b", "5", "6"]
    assert set(table["verdict"]) == {claims.INCONCLUSIVE}
    text = claims_text.claims_markdown(results)
    for name in (
        "ALPHA",
        "EQUIVALENCE_MARGIN",
        "MATCH_RATIO",
        "UNSPENT_FRACTION",
        "claim 1: min_supported",
    ):
        assert name in text
    assert "| ALPHA " in text and "0.050" in text


def _empty_tables():
    return tables(build({}, reference=None))


def test_claims_md_shows_the_deciding_evidence_and_counts_the_rest():
    """Issue 17: every contradicting row, the closest calls, a count of the rest; the
    verdicts come first and the full evidence is one table."""
    p_holm = [0.001] * 25 + [0.04, 0.07, 0.01, 0.02, 0.5]
    detail = pd.DataFrame(
        {
            "dataset": ["d"] * 30,
            "mean_difference": [-0.1] * 27 + [0.2, 0.2, -0.01],
            "p_holm": p_holm,
            "outcome": ["better"] * 25 + ["better", "inconclusive", "worse", "worse", "equivalent"],
        }
    )
    shown, note = claims_text.deciding_evidence(detail)
    assert list(shown["why"]).count("contradicts") == 2
    closest = shown[shown["why"] == "closest call"]
    assert len(closest) == claims_text.CLOSEST_CALLS
    assert set(closest["p_holm"].head(2)) == {0.04, 0.07}
    assert note.startswith(
        "2 contradicting rows and the 5 closest calls of 30 rows; the "
        "other 23: `claims_evidence.parquet`"
    )
    results = [claims.ClaimResult("1", claims.NOT_REPRODUCED, "e", detail=detail)]
    text = claims_text.claims_markdown(results)
    assert text.index("## Verdicts") < text.index("### Thresholds") < text.index("## Claim 1")
    assert len(claims.evidence_table(results)) == 30
