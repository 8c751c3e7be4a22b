"""Verdict logic of budgetboost.analysis.claims on synthetic results made to reproduce or
refute."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from synthetic_results import CURVE_DATASETS, claim_tables, const, curve_shards

from budgetboost.analysis import claims
from budgetboost.analysis.stump_agreement import identical_stump_share
from budgetboost.analysis.verdicts import (
    NOT_REPRODUCED,
    NOT_TESTED,
    REPRODUCED,
    ClaimResult,
)


def check(df: pd.DataFrame, varied=None, **kwargs) -> dict[str, ClaimResult]:
    results = claims.check_claims(*claim_tables(df, varied), **kwargs)
    return {r.claim: r for r in results}


def test_claim1_reproduced_refuted_and_inconclusive():
    good = check(curve_shards({"adaboost_bt": const(0.2), "adaboost_rs": const(0.4)}))["1"]
    assert good.verdict == REPRODUCED
    # "at every budget": one row across datasets per band, each must hold
    assert set(good.deciding["band"]) == {"small", "medium", "large"}
    assert (good.deciding["outcome"] == "better").all()
    assert "over 8 datasets" in good.evidence and "Wilcoxon p" in good.evidence
    bad = check(curve_shards({"adaboost_bt": const(0.4), "adaboost_rs": const(0.2)}))["1"]
    assert bad.verdict == NOT_REPRODUCED
    # AdaBoostRS ahead at the largest budgets only: the worst band decides
    late = check(
        curve_shards({"adaboost_bt": const(0.2), "adaboost_rs": lambda b: 0.4 if b < 10 else 0.1})
    )["1"]
    assert late.verdict == NOT_REPRODUCED
    assert late.deciding.set_index("band").loc["large", "outcome"] == "worse"
    # five datasets: the exact Wilcoxon test cannot reach 0.05
    few = check(
        curve_shards(
            {"adaboost_bt": const(0.2), "adaboost_rs": const(0.4)}, datasets=CURVE_DATASETS[:5]
        )
    )["1"]
    # the run cannot test it (a claim listed "inconclusive" read as if evidence were there)
    assert few.verdict == NOT_TESTED
    assert set(few.deciding["outcome"]) == {"too few datasets"}
    none = check(curve_shards({"adaboost_bt": const(0.2)}))["1"]
    assert none.verdict == NOT_TESTED and "no results" in none.evidence


def test_claims_judge_the_paper_experiments_only():
    """A cost model without the unbudgeted reference (an open question's) never enters a
    verdict, however strongly it points the other way."""
    curves = {
        "adaboost_bt": const(0.3),
        "greedy": lambda b: 0.2 if b <= 4 else 0.4,
        "smoothed": lambda b: 0.2 if b <= 4 else 0.4,
    }
    paper = curve_shards(curves)
    against = curve_shards(
        {k: (lambda b, f=f: 0.6 - f(b)) for k, f in curves.items()},
        cost_model="adversarial",
        reference=None,
    )
    both = pd.concat([paper, against], ignore_index=True)
    result, alone = check(both)["2"], check(paper)["2"]
    assert result.verdict == alone.verdict == REPRODUCED
    assert len(result.deciding) == len(alone.deciding) == 2
    assert set(result.detail["cost_model"]) == {"uniform_0_2", "all"}


#: Curves under which the claims read the paper's regime (U[0, 2]) and, pointing the other
#: way, curves under Turney's costs that contradict claims 1, 4a and 6 if they are read.
PAPER_CURVES = {
    "adaboost_bt": lambda b: 0.05 if b >= 12 else 0.3,
    "adaboost_rs": const(0.4),
    "greedy": lambda b: 0.05 if b >= 4 else 0.3,
    "smoothed": lambda b: 0.05 if b >= 4 else 0.3,
    "speedboost": lambda b: 0.053 if b >= 4 else 0.303,
    "tree": const(0.35),
}
TURNEY_CURVES = {
    "adaboost_bt": lambda b: 0.05 if b >= 6 else 0.3,
    "adaboost_rs": const(0.05),
    "greedy": const(0.2),
    "smoothed": const(0.3),
    "speedboost": const(0.4),
    "tree": const(0.01),
}
#: config/suite.yaml's field's regime: Turney's costs (which run the reference too) pool as
#: ``turney``, the unit price per attribute (without the reference) is its own pool
FIELD = {"turney": "turney", "attribute_unit": "attribute_unit"}
#: Trials per dataset: enough for a row per dataset (MIN_TRIALS), few for the test's time.
TRIALS = 6


def _stumps(cost_model: str, agree: bool) -> pd.DataFrame:
    """Greedy's and SpeedBoost's stump choices on ecoli under ``cost_model``: the same
    stumps in every round, or a different one in every round."""
    base = pd.DataFrame(
        {
            "dataset": "ecoli",
            "cost_model": cost_model,
            "trial": 0,
            "round": np.arange(10),
            "feature": np.arange(10),
            "threshold": 1.0,
        }
    )
    greedy = base.assign(algorithm="greedy", feature=base["feature"] + (0 if agree else 1))
    return pd.concat([greedy, base.assign(algorithm="speedboost")], ignore_index=True)


def _verdicts(tables, stumps: pd.DataFrame, field=None) -> pd.DataFrame:
    """claims_table of the claims checked on ``tables`` (:func:`claim_tables`'s) as the
    claims rule checks them (the field's regime ``field`` given to both rules alike)."""
    results = claims.check_claims(*tables, stumps=stumps, field=list(field or ()))
    return claims.claims_table(results)


def _field_rows() -> pd.DataFrame:
    """Turney's costs with the reference (every claim's algorithms refuting it) and the unit
    price per attribute without it."""
    turney = curve_shards(TURNEY_CURVES, cost_model="turney", trials=TRIALS)
    unit = curve_shards(TURNEY_CURVES, cost_model="attribute_unit", trials=TRIALS, reference=None)
    return pd.concat([turney, unit], ignore_index=True)


def test_a_run_without_the_paper_regime_tests_no_claim():
    """config/suite.yaml without U[0, 2] (the unit price per attribute, Turney's costs,
    which run the reference too, in the field's regime): every claim is not tested, saying
    so; read off Turney's rows, as it was, claims 4b and 6 read "not reproduced"."""
    field = _field_rows()
    stumps = _stumps("turney", agree=False)
    tables = claim_tables(field, field=FIELD)
    # the aggregate rule asks the claims' comparisons nowhere
    assert not tables[1]["question"].str.startswith("claim ").any()
    table = _verdicts(tables, stumps, FIELD)
    assert list(table["claim"]) == list(claims.STATEMENTS)
    assert (table["verdict"] == NOT_TESTED).all()
    assert (table["deciding_rows"] == 0).all()
    sentence = (
        "no runs in the paper's regime (per-indicator U[0, 2] costs) in this run; the claims "
        "are not read off this run's other cost models (attribute_unit, turney)"
    )
    assert (table["evidence"] == sentence).all()
    # without the field's regime named, Turney's rows are the paper's experiments (the
    # reference ran there): the verdicts the claims would read if they took them
    read_anyway = _verdicts(claim_tables(field), stumps).set_index("claim")["verdict"]
    assert read_anyway["4b"] == read_anyway["6"] == NOT_REPRODUCED
    assert read_anyway["1"] == read_anyway["4a"] == NOT_REPRODUCED


def test_the_paper_regime_decides_as_before_beside_the_field_regime():
    """Beside U[0, 2], the field's regime changes no verdict, no evidence and no deciding
    row: the claims read as on the U[0, 2] rows alone, as before; so does a field's cost
    model without the reference (config/test.yaml's attribute_unit)."""
    paper = curve_shards(PAPER_CURVES, trials=TRIALS)
    stumps = _stumps("uniform_0_2", agree=True)
    alone = _verdicts(claim_tables(paper), stumps)
    assert alone.set_index("claim").loc[["1", "4a", "4b", "6"], "verdict"].eq(REPRODUCED).all()
    both = pd.concat([paper, _field_rows()], ignore_index=True)
    all_stumps = pd.concat([stumps, _stumps("turney", agree=False)], ignore_index=True)
    pd.testing.assert_frame_equal(
        _verdicts(claim_tables(both, field=FIELD), all_stumps, FIELD), alone
    )
    unit = both[both["cost_model"] != "turney"]
    test_yaml = {"attribute_unit": "attribute_unit"}
    pd.testing.assert_frame_equal(
        _verdicts(claim_tables(unit, field=test_yaml), stumps, test_yaml), alone
    )


def test_a_dataset_under_two_cost_models_counts_once():
    curves = {"adaboost_bt": const(0.3), "greedy": const(0.2), "smoothed": const(0.2)}
    paper = curve_shards(curves)
    heart = curve_shards(curves, datasets=("heart",), cost_model="turney")
    rows = check(pd.concat([paper, heart], ignore_index=True))["2"].deciding
    assert (rows["datasets"] == len(CURVE_DATASETS)).all()


def test_claim2_small_budgets_with_varied_costs_only():
    # Greedy/Smoothed better only at the small budgets (2, 4), worse at large ones
    curves = {
        "adaboost_bt": const(0.3),
        "greedy": lambda b: 0.2 if b <= 4 else 0.4,
        "smoothed": lambda b: 0.2 if b <= 4 else 0.4,
    }
    df = curve_shards(curves)
    assert check(df)["2"].verdict == REPRODUCED
    assert len(check(df)["2"].deciding) == 2  # the small band x two algorithms
    flipped = curve_shards({k: (lambda b, f=f: 0.6 - f(b)) for k, f in curves.items()})
    assert check(flipped)["2"].verdict == NOT_REPRODUCED
    # equal costs everywhere: the claim has no rows to judge
    assert check(df, varied=set())["2"].verdict == NOT_TESTED
    some = {(d, "uniform_0_2") for d in CURVE_DATASETS[:6]}
    assert check(df, varied=some)["2"].deciding["datasets"].tolist() == [6, 6]


def test_claim3a_smoothed_beats_greedy_at_large_budgets():
    good = curve_shards({"greedy": lambda b: 0.2 if b <= 4 else 0.3, "smoothed": const(0.25)})
    assert check(good)["3a"].verdict == REPRODUCED
    bad = curve_shards({"greedy": const(0.2), "smoothed": const(0.3)})
    assert check(bad)["3a"].verdict == NOT_REPRODUCED
    same = curve_shards({"greedy": const(0.2), "smoothed": const(0.2)})
    assert check(same)["3a"].verdict == NOT_REPRODUCED  # practically equivalent: no "beats"


def test_claim3b_spent_fraction():
    curves = {"greedy": const(0.2), "smoothed": const(0.2)}
    trap = check(
        curve_shards(curves, datasets=("sonar", "ecoli"), spent={"greedy": 0.5, "smoothed": 0.98})
    )["3b"]
    assert trap.verdict == REPRODUCED
    assert "sonar/uniform_0_2 50%" in trap.evidence
    detail = trap.detail.set_index("dataset")
    assert detail.loc["sonar", "greedy_spent_fraction"] == pytest.approx(0.5)
    assert detail.loc["sonar", "smoothed_spent_fraction"] == pytest.approx(0.98)
    spends = check(curve_shards(curves, datasets=("sonar",), spent={"greedy": 0.98}))["3b"]
    assert spends.verdict == NOT_REPRODUCED
    absent = check(curve_shards(curves, datasets=("ecoli",), spent={"greedy": 0.5}))["3b"]
    assert absent.verdict == NOT_TESTED and "ecoli/uniform_0_2 50%" in absent.evidence


def test_claim4a_speedboost_tracks_greedy():
    same = check(curve_shards({"greedy": const(0.2), "speedboost": const(0.203)}))["4a"]
    assert same.verdict == REPRODUCED
    assert same.deciding["prob_equivalent"].iloc[0] >= 0.95
    apart = check(curve_shards({"greedy": const(0.2), "speedboost": const(0.3)}))["4a"]
    assert apart.verdict == NOT_REPRODUCED
    # every row inconclusive (3 trials per dataset, 5 datasets): the claim is too
    few = curve_shards(
        {"greedy": const(0.2), "speedboost": const(0.203)}, datasets=CURVE_DATASETS[:5]
    )
    assert check(few)["4a"].verdict == NOT_TESTED


def test_claim4b_needs_stump_choices():
    r = check(curve_shards({"greedy": const(0.2)}))["4b"]
    assert r.verdict == NOT_TESTED and "per-round stump choices" in r.evidence
    base = pd.DataFrame(
        {
            "dataset": "ecoli",
            "cost_model": "uniform_0_2",  # a paper experiment of curve_shards()'s results
            "trial": 0,
            "round": np.arange(10),
            "feature": np.arange(10),
            "threshold": 1.0,
        }
    )
    speed = base.assign(algorithm="speedboost")
    same = pd.concat([base.assign(algorithm="greedy"), speed])
    assert check(curve_shards({"greedy": const(0.2)}), stumps=same)["4b"].verdict == REPRODUCED
    other = pd.concat([base.assign(algorithm="greedy", feature=base["feature"] + 1), speed])
    r = check(curve_shards({"greedy": const(0.2)}), stumps=other)["4b"]
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
    none = check(curve_shards({"adaboost_bt": const(0.2)}))["5"]
    assert none.verdict == NOT_TESTED and "no results" in none.evidence
    boosting_wins = curve_shards(
        {
            "adaboost_bt": lambda b: 0.4 - b / 100,
            "smoothed": const(0.2),
            "tree": lambda b: 0.2 + b / 100,
        }
    )
    assert check(boosting_wins)["5"].verdict == REPRODUCED
    trees_win = curve_shards({"adaboost_bt": const(0.3), "tree": const(0.1)})
    assert check(trees_win)["5"].verdict == NOT_REPRODUCED


def test_claim6_budget_to_match_on_overfitting_datasets():
    # reference 0.1; Smoothed reaches it at B=4, AdaBoostBT only at B=12
    good = curve_shards(
        {
            "smoothed": lambda b: 0.05 if b >= 4 else 0.3,
            "adaboost_bt": lambda b: 0.05 if b >= 12 else 0.3,
        },
        datasets=("ecoli", "heart", "breast_cancer"),
    )
    r = check(good)["6"]
    assert r.verdict == REPRODUCED and len(r.detail) == 3
    assert "ecoli/uniform_0_2: Smoothed B=4 vs AdaBoostBT B=12" in r.evidence
    never = curve_shards(
        {"smoothed": const(0.3), "adaboost_bt": lambda b: 0.05 if b >= 6 else 0.3},
        datasets=("ecoli", "heart"),
    )
    assert check(never)["6"].verdict == NOT_REPRODUCED
    # only the (dataset, cost model) pairs that were run, never their cross product
    both = pd.concat(
        [
            curve_shards(
                {"smoothed": const(0.05), "adaboost_bt": const(0.3)},
                datasets=("ecoli",),
                cost_model="a",
            ),
            curve_shards(
                {"smoothed": const(0.05), "adaboost_bt": const(0.3)},
                datasets=("heart",),
                cost_model="b",
            ),
        ]
    )
    assert len(check(both)["6"].detail) == 2
    elsewhere = curve_shards(
        {"smoothed": const(0.05), "adaboost_bt": const(0.3)}, datasets=("sonar",)
    )
    assert check(elsewhere)["6"].verdict == NOT_TESTED
