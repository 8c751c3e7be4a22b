"""How evidence becomes a verdict (budgetboost.analysis.verdicts): the rows across datasets
decide."""

from __future__ import annotations

import pandas as pd

from budgetboost.analysis.verdicts import (
    CLAIM_OUTCOME,
    NOT_REPRODUCED,
    NOT_TESTED,
    REPRODUCED,
    UNDECIDED,
    directional_verdict,
    equivalence_verdict,
    read_with_the_claim,
)


def across(*outcomes: str) -> pd.DataFrame:
    """Rows across datasets with these outcomes, and a row per dataset that says otherwise."""
    rows = pd.DataFrame({"dataset": "all", "outcome": list(outcomes)})
    return pd.concat([rows, pd.DataFrame({"dataset": ["d"], "outcome": ["worse"]})])


def test_verdicts_read_the_rows_across_datasets_only():
    assert directional_verdict(across("better", "better")) == REPRODUCED
    assert directional_verdict(across("better", "worse")) == NOT_REPRODUCED
    assert directional_verdict(across("better", "equivalent")) == NOT_REPRODUCED
    assert directional_verdict(across("better", "inconclusive")) == UNDECIDED
    assert directional_verdict(across("too few datasets")) == NOT_TESTED
    assert directional_verdict(across()) == NOT_TESTED  # no row across datasets: untested
    assert equivalence_verdict(across("equivalent")) == REPRODUCED
    assert equivalence_verdict(across("equivalent", "better")) == NOT_REPRODUCED
    assert equivalence_verdict(across("inconclusive")) == UNDECIDED
    assert equivalence_verdict(across("too few datasets")) == NOT_TESTED


def claim_rows(*rows: tuple[str, float, float]) -> pd.DataFrame:
    """A claim's rows across datasets: (outcome, p_beyond, p_equivalence), each already
    Holm-adjusted over its comparison's bands, estimate on the outcome's side."""
    return pd.DataFrame(
        {
            "dataset": "all",
            "outcome": [o for o, _, _ in rows],
            "p_beyond": [b for _, b, _ in rows],
            "p_equivalence": [e for _, _, e in rows],
            "hodges_lehmann": [0.02 if o == "worse" else -0.02 for o, _, _ in rows],
        }
    )


def test_not_reproduced_needs_its_row_to_hold_with_holm_over_the_claims_rows():
    """Six rows that each just read *equivalent* (p 0.03) do not together make *not
    reproduced*: with Holm over the six, none holds; one clear row still does. Every row
    *better* reproduces the claim as each row reads (an intersection-union test)."""
    weak = claim_rows(*[("equivalent", 1.0, 0.03)] * 6)
    assert directional_verdict(weak) == NOT_REPRODUCED  # the rows as the table reads them
    assert directional_verdict(read_with_the_claim(weak)) == UNDECIDED
    assert set(read_with_the_claim(weak)[CLAIM_OUTCOME]) == {"inconclusive"}
    clear = claim_rows(*[("equivalent", 1.0, 0.03)] * 5, ("equivalent", 1.0, 0.001))
    assert directional_verdict(read_with_the_claim(clear)) == NOT_REPRODUCED
    worse = claim_rows(*[("better", 0.03, 1.0)] * 5, ("worse", 0.03, 1.0))
    assert directional_verdict(read_with_the_claim(worse)) == UNDECIDED
    each = claim_rows(*[("better", 0.03, 1.0)] * 6)
    assert directional_verdict(read_with_the_claim(each)) == REPRODUCED
    equal = claim_rows(("better", 0.03, 1.0), ("equivalent", 1.0, 0.03))
    assert equivalence_verdict(read_with_the_claim(equal)) == UNDECIDED
    per_dataset = pd.concat([weak, weak.assign(dataset="heart")], ignore_index=True)
    read = read_with_the_claim(per_dataset)
    assert read.loc[read["dataset"] == "heart", CLAIM_OUTCOME].isna().all()
