"""What the findings can and cannot tell on a real run: the real pipeline on
ionosphere, 10 trials.

Two config-only peers of Smoothed: an exact copy (every paired difference 0) and Smoothed
stopped after 3 rounds (clearly worse at larger budgets). Equal differences alone never
make ``equivalent`` (the test rows are still a sample: a trial unlike the ten may yet
occur), so the copy's rows support no outcome. Ionosphere splits all its 351 rows, 300 to
train and 51 to test, so two trials share most of their training rows: with their share
counted (the correction's ``TRAINING_SHARE``) rho = 0.5 and rho / (1 - rho) = 1, where the
test rows' share alone gave 51 / 300. Against 3 rounds, Smoothed's trials are lower by 0.11
at larger budgets, yet its interval reaches across the margin: ``inconclusive``, where the
test rows' share alone read ``better``. A trial's split leaves ionosphere too few test rows
to tell a difference of 0.11 on its own, whatever the trials (the standard error cannot fall
below the trials' sd); the across-dataset tests answer it.

On splice (1,000 to train, 2,175 to test: rho / (1 - rho) = 2.175) the same comparison reads
``inconclusive`` at 10 trials, although all ten differences are negative (mean -0.14, sd
0.10): the corrected standard error cannot fall below 1.47 sd there, whatever the trials.
Datasets whose test part outweighs their training part answer only large differences; the
across-dataset tests answer the rest.
"""

from __future__ import annotations

import math

import pytest
import yaml
from helpers import copy_repo, snakemake
from scipy import stats as sps

from budgetboost.analysis.per_dataset import TRAINING_SHARE
from budgetboost.analysis.vocabulary import (
    ALPHA,
    DECISION_CONFIDENCE,
    EQUIVALENCE_MARGIN,
    FINDING_BANDS,
)
from budgetboost.data.io import read_table

TRIALS = 10
DATASET = "ionosphere"


@pytest.fixture(scope="module")
def power_run(tmp_path_factory):
    repo = copy_repo(tmp_path_factory.mktemp("power") / "repo")
    smoothed = {"criterion": "smoothed", "max_rounds": 500, "tau": 1.0}
    config = {
        "registry": "config/datasets.yaml",
        "block_size": TRIALS,
        "datasets": {DATASET: {"cost_models": ["uniform_0_2"], "trials": TRIALS}},
        "cost_models": {
            "uniform_0_2": {
                "spec": {"model": "uniform_random", "low": 0.0, "high": 2.0},
                "budgets": {"step": 2, "stop": 24},
            }
        },
        "adaboost_path": {"max_rounds": 10},
        "algorithms": {
            "smoothed": {"estimator": "BudgetedBoost", "params": smoothed},
            "smoothed_copy": {
                "estimator": "BudgetedBoost",
                "params": smoothed,
                "label": "Smoothed, a copy",
                "family": "peer",
            },
            "smoothed_3": {
                "estimator": "BudgetedBoost",
                "params": {**smoothed, "max_rounds": 3},
                "label": "Smoothed, 3 rounds",
                "family": "peer",
            },
        },
    }
    (repo / "config/power.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    snakemake(repo, "--cores", "2", "--configfile", "config/power.yaml")
    findings = read_table(repo / "results/power/summary/findings.parquet")
    return findings[(findings.question == "peers") & (findings.x == "smoothed")]


@pytest.mark.slow
def test_against_a_copy_of_itself_equality_alone_is_not_equivalence(power_run):
    rows = power_run[power_run.y == "smoothed_copy"]
    assert set(rows.band) == set(FINDING_BANDS) and set(rows.dataset) == {DATASET}
    assert (rows.trials == TRIALS).all()
    # the test rows' share of the pool and half the way to the training rows' (300 of 351)
    assert rows.correlation.to_numpy() == pytest.approx((51 + TRAINING_SHARE * 249) / 351)
    assert (rows.mean_difference == 0).all()
    assert not (rows.outcome == "equivalent").any(), rows[["band", "ci_high", "outcome"]]
    assert (rows.ci_high > 0.01).all()  # the interval is wider than the margin


@pytest.mark.slow
def test_against_three_rounds_of_itself_the_shared_training_rows_leave_it_undecided(power_run):
    """Lower by 0.11 at larger budgets, but undecided: beyond the margin only by less than
    its Holm-adjusted test can tell (``p_beyond`` above the level, ``min_detectable`` above
    the difference); the test rows' share alone would have read ``better`` on the same
    trials."""
    rows = power_run[power_run.y == "smoothed_3"].set_index("band")
    larger = rows.loc["large"]
    mean = larger["mean_difference"]
    assert mean < -0.05 and larger["outcome"] == "inconclusive", rows
    assert larger["ci_low"] < mean < -EQUIVALENCE_MARGIN and larger["p_beyond"] > ALPHA
    assert larger["min_detectable"] > -mean
    rho = larger["correlation"]
    t = sps.t.ppf(DECISION_CONFIDENCE + (1 - DECISION_CONFIDENCE) / 2, TRIALS - 1)
    se = (larger["ci_high"] - mean) / t
    before = se * math.sqrt((1 / TRIALS + 51 / 300) / (1 / TRIALS + rho / (1 - rho)))
    assert mean + t * before < -EQUIVALENCE_MARGIN  # wholly beyond the margin, before
