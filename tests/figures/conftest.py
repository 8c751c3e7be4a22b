"""The figure tests' fixtures: synthetic results of Table 1's datasets and their summary (the
context a figure gets and readers of what it drew are in ``helpers.py``)."""

from __future__ import annotations

import pytest
from synthetic_results import synthetic_shards

from budgetboost.analysis import summary as summaries

from .helpers import PAPER_DATASETS


@pytest.fixture(scope="module")
def shards():
    return synthetic_shards(
        datasets=PAPER_DATASETS,
        trials=4,
        budgets=(2, 10, 20, 30),
        extra=(("heart", "turney"), ("webscope", "webscope_costs")),
    )


@pytest.fixture(scope="module")
def summary(shards):
    return summaries.summarize(shards)
