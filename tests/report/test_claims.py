"""claims.md (budgetboost.report.claims): every claim and the thresholds stated, the numbers
each verdict rests on, the deciding rows per dataset."""

from __future__ import annotations

import pandas as pd
from synthetic_results import claim_tables, const, curve_shards

from budgetboost.analysis import claims
from budgetboost.analysis.verdicts import NOT_TESTED
from budgetboost.report import claims as claims_text


def test_outputs_state_thresholds_and_every_claim():
    results = claims.check_claims(*_empty_tables())
    table = claims.claims_table(results)
    assert list(table["claim"]) == ["1", "2", "3a", "3b", "4a", "4b", "5", "6"]
    assert set(table["verdict"]) == {NOT_TESTED}  # nothing ran: nothing tested
    text = claims_text.claims_markdown(results)
    for name in (
        "ALPHA",
        "EQUIVALENCE_MARGIN",
        "MIN_DATASETS",
        "MIN_TRIALS",
        "TRAINING_SHARE",
        "MATCH_RATIO",
        "UNSPENT_FRACTION",
        "directional claims",
    ):
        assert name in text
    assert "| ALPHA " in text and "0.05" in text


def test_claims_md_says_a_run_without_the_paper_regime_tests_none():
    """A run of the field's regime alone (Turney's costs with the reference): claims.md says
    the run tests none of the claims and why, above the verdicts; a run of the paper's regime
    does not."""
    df = curve_shards({"adaboost_bt": const(0.2), "greedy": const(0.25)}, cost_model="turney")
    field = {"turney": "turney"}
    results = claims.check_claims(*claim_tables(df, field=field), field=field)
    text = claims_text.claims_markdown(results)
    verdicts = text.index("## Verdicts")
    said = text.index("**This run tests none of the claims**: no runs in the paper's regime")
    assert said < verdicts
    assert "## Claim 6: not tested" in text
    tested = claims.check_claims(*claim_tables(df))  # the same rows as the paper's: tested
    assert "This run tests none" not in claims_text.claims_markdown(tested)


def _empty_tables():
    return claim_tables(curve_shards({}, reference=None))


def test_claims_md_names_the_numbers_each_verdict_rests_on():
    df = curve_shards({"adaboost_bt": const(0.2), "adaboost_rs": const(0.4), "greedy": const(0.25)})
    results = claims.check_claims(*claim_tables(df))
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
            "p_beyond": 0.5,
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
