"""Budget bands (budgetboost.analysis.bands): thirds of a budget grid, the same by position and
in a table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetboost.analysis import bands


@pytest.mark.parametrize(
    ("size", "small", "medium", "large"),
    [
        (1, [0], [], [0]),
        (2, [0], [], [1]),
        (3, [0], [1], [2]),
        (4, [0, 1], [], [2, 3]),
        (5, [0, 1], [2], [3, 4]),
        (6, [0, 1], [2, 3], [4, 5]),
        (7, [0, 1, 2], [3], [4, 5, 6]),
        (10, [0, 1, 2, 3], [4, 5], [6, 7, 8, 9]),
    ],
)
def test_in_budget_band_thirds(size, small, medium, large):
    position = np.arange(size)
    for band, expected in (("small", small), ("medium", medium), ("large", large)):
        assert list(np.flatnonzero(bands.in_budget_band(position, size, band))) == expected


@pytest.mark.parametrize("size", range(1, 13))
def test_in_budget_band_matches_budget_band_of_a_table(size):
    budgets = np.arange(1.0, size + 1) * 3
    cells = pd.DataFrame({"dataset": "d", "cost_model": "c", "budget": budgets})
    for band in ("small", "large"):
        theirs = sorted(bands.budget_band(cells, band)["budget"])
        ours = list(budgets[bands.in_budget_band(np.arange(size), size, band)])
        assert ours == theirs


def test_in_budget_band_rejects_unknown_band():
    with pytest.raises(ValueError, match="band must be one of"):
        bands.in_budget_band([0], 3, "tiny")
