"""The per-dataset inference against known truths (issue 30, item 6): datasets simulated
from a population where the answer is known (budgetboost.analysis.simulation), at the
benchmark's sizes; ``python benchmarks/inference.py`` prints the same figures for more
datasets, shapes and trial counts."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from budgetboost.analysis import compare_paired
from budgetboost.analysis.simulation import (
    population_error,
    switching_differences,
    symmetric_differences,
)
from budgetboost.analysis.vocabulary import BETTER, EQUIVALENT, WORSE
from budgetboost.data.seeds import rng_from_key

#: Simulated datasets per shape: a 5 % rate is estimated within about +-2 %.
DATASETS = 400
SHAPES = {
    "heart/sonar": (100, 170, 270),
    "splice": (1000, 2175, 3175),
    "census": (1000, 5000, 48_842),
}


@pytest.fixture(scope="module", params=list(SHAPES))
def symmetric(request):
    """Per-dataset rows of two learners of equal population error, 30 trials each."""
    shape = SHAPES[request.param]
    rng = rng_from_key("known truth", "symmetric", request.param)
    rows = [
        compare_paired(symmetric_differences(rng, *shape, trials=30), *shape)
        for _ in range(DATASETS)
    ]
    return request.param, rows


def test_equal_learners_rarely_read_better_or_worse(symmetric):
    """At most 7 % of the simulated datasets read better or worse, and the simulation does not
    show the rate above 5 % (the one-sided 95 % lower bound of the share is at most 5 %;
    ``benchmarks/inference.py --datasets 2000`` pins it down: 4.4-4.8 % at census's pool)."""
    name, rows = symmetric
    hits = sum(r["outcome"] in (BETTER, WORSE) for r in rows)
    lower = sps.beta.ppf(0.05, hits, DATASETS - hits + 1) if hits else 0.0
    print(f"{name}: false better/worse on {hits / DATASETS:.1%} (>= {lower:.1%}) of {DATASETS}")
    assert hits / DATASETS <= 0.07 and lower <= 0.05


def test_the_interval_covers_the_true_difference(symmetric):
    name, rows = symmetric
    covered = np.mean([r["ci_low"] <= 0 <= r["ci_high"] for r in rows])
    print(f"{name}: 95 % interval covers 0 on {covered:.1%}")
    assert covered >= 0.93


def test_trials_taken_as_independent_would_have_failed():
    """The simulation can fail a test: the uncorrected t-test rejects on most datasets."""
    rng = rng_from_key("known truth", "naive")
    rejected = []
    for _ in range(100):
        d = symmetric_differences(rng, 100, 170, 270, trials=30)
        t = d.mean() / (d.std(ddof=1) / np.sqrt(d.size))
        rejected.append(abs(t) > 2.045)
    assert np.mean(rejected) > 0.5


@pytest.mark.parametrize(("trials", "shape"), [(10, "heart/sonar"), (10, "splice"), (30, "splice")])
def test_tie_heavy_differences_on_the_margin_are_rarely_equivalent(trials, shape):
    """Most trials differ by exactly 0 (the learners pick the same model) and the true mean
    difference is the margin itself: ``equivalent`` on at most 5 % of datasets."""
    sizes = SHAPES[shape]
    rng = rng_from_key("known truth", "ties", shape, trials)
    outcomes, zeros = [], []
    for _ in range(DATASETS):
        d = switching_differences(rng, *sizes, trials=trials)
        zeros.append(np.mean(d == 0))
        outcomes.append(compare_paired(d, *sizes)["outcome"])
    share = np.mean(np.array(outcomes) == EQUIVALENT)
    print(f"{shape}, {trials} trials: {np.mean(zeros):.0%} zeros, equivalent on {share:.1%}")
    assert np.mean(zeros) > 0.8
    assert share <= 0.05  # measured: 0-1.3 % (benchmarks/inference.py)


def test_the_switching_learner_has_the_stated_population_difference():
    """Fresh training rows every trial (a pool as large as the population): the mean
    difference is -switch * gap."""
    rng = rng_from_key("known truth", "population")
    d = switching_differences(rng, 50, 2000, 200_000, trials=1000, switch=0.2, gap=0.1)
    assert d.mean() == pytest.approx(-0.02, abs=0.004)
    assert population_error(1.0) == pytest.approx(0.3085, abs=1e-4)
