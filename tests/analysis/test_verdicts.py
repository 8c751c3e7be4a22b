"""How evidence becomes a verdict (budgetboost.analysis.verdicts): the rows across datasets
decide."""

from __future__ import annotations

import pandas as pd

from budgetboost.analysis.verdicts import (
    NOT_REPRODUCED,
    NOT_TESTED,
    REPRODUCED,
    UNDECIDED,
    directional_verdict,
    equivalence_verdict,
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
