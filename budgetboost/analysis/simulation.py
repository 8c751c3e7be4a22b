"""Datasets whose truth is known, to check the inference of :mod:`budgetboost.analysis`.

A benchmark's trials are random train/test splits of one finite sample of ``n_pool`` rows,
so a test of the trials' paired differences is right only if it accounts for what the splits
share. These simulations draw such samples from a population where the answer is known, run
two learners on random splits of each, and return each dataset's per-trial differences (x's
test error minus y's), as the pipeline would:

* :func:`symmetric_differences`: two learners of *equal* population error by construction
  (each thresholds one of two exchangeable features): any ``better`` or ``worse`` is false.
* :func:`switching_differences`: *tie-heavy* differences with a known mean: y is x except on
  the trials whose training rows pass a coin-like test (an irrelevant feature's training mean
  above a cut reached with probability ``switch``), where it thresholds a feature whose
  error is higher by ``gap``. Most trials differ by exactly 0 (as Greedy and SpeedBoost
  choosing the same stumps), and the true mean difference y - x is ``switch * gap``.

Both use the Bayes threshold of a Gaussian feature shifted by ``shift`` between the classes,
fixed in advance, so the population errors are exact (``Phi(-shift / 2)``); the training
rows enter through the switch only. Every draw comes from the ``numpy.random.Generator`` the
caller passes (``tests/analysis/test_known_truth.py``, ``benchmarks/inference.py``).
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats as sps

__all__ = ["population_error", "switching_differences", "symmetric_differences"]


def population_error(shift: float) -> float:
    """Error of the Bayes threshold ``shift / 2`` on a unit Gaussian feature whose mean is
    ``shift`` higher in the positive class (balanced classes): ``Phi(-shift / 2)``."""
    return float(sps.norm.cdf(-shift / 2))


def _splits(
    rng: np.random.Generator, n_pool: int, n_train: int, n_test: int, trials: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each trial's training and test rows: ``(trials, n_train)`` and ``(trials, n_test)``."""
    rows = np.stack([rng.choice(n_pool, n_train + n_test, replace=False) for _ in range(trials)])
    return rows[:, :n_train], rows[:, n_train:]


def _sample(rng: np.random.Generator, n_pool: int, shifts: tuple[float, ...]):
    """Balanced labels and one unit Gaussian feature per shift, shifted in the positive class."""
    y = rng.random(n_pool) < 0.5
    x = rng.standard_normal((len(shifts), n_pool)) + np.asarray(shifts)[:, None] * y
    return y, x


def _errors(y: np.ndarray, x: np.ndarray, shift: float, rows: np.ndarray) -> np.ndarray:
    """Test error of the Bayes threshold on ``x`` over each trial's rows (trials,)."""
    return np.mean((x[rows] > shift / 2) != y[rows], axis=1)


def symmetric_differences(
    rng: np.random.Generator,
    n_train: int,
    n_test: int,
    n_pool: int,
    trials: int,
    *,
    shift: float = 1.0,
    learn: bool = True,
) -> np.ndarray:
    """One dataset's per-trial differences of two learners with equal population error.

    Each learner thresholds its own one of two exchangeable features; with ``learn`` the
    threshold is the midpoint of the trial's training class means (so training rows matter
    as in a real learner), else the Bayes threshold. The true mean difference is 0.
    """
    y, x = _sample(rng, n_pool, (shift, shift))
    train, test = _splits(rng, n_pool, n_train, n_test, trials)
    errors = []
    for k in range(2):
        if learn:
            xt, yt = x[k][train], y[train]
            positive = np.sum(xt * yt, axis=1) / np.maximum(yt.sum(axis=1), 1)
            negative = np.sum(xt * ~yt, axis=1) / np.maximum((~yt).sum(axis=1), 1)
            cut = (positive + negative) / 2
        else:
            cut = np.full(trials, shift / 2)
        errors.append(np.mean((x[k][test] > cut[:, None]) != y[test], axis=1))
    return errors[0] - errors[1]


def switching_differences(
    rng: np.random.Generator,
    n_train: int,
    n_test: int,
    n_pool: int,
    trials: int,
    *,
    switch: float = 0.1,
    gap: float = 0.1,
    shift: float = 1.0,
) -> np.ndarray:
    """One dataset's tie-heavy per-trial differences x - y with true mean ``-switch * gap``.

    x thresholds a feature of error ``Phi(-shift/2)``; y does the same, except on trials whose
    training mean of an irrelevant unit Gaussian feature exceeds the cut passed with
    probability ``switch`` by a training set drawn from the population, where it thresholds
    a weaker feature, of error ``gap`` higher. On other trials the two predict alike: their
    difference is exactly 0.
    """
    base = population_error(shift)
    weak = -2.0 * float(sps.norm.ppf(base + gap))
    y, x = _sample(rng, n_pool, (shift, weak, 0.0))
    train, test = _splits(rng, n_pool, n_train, n_test, trials)
    cut = float(sps.norm.isf(switch)) / math.sqrt(n_train)
    switched = x[2][train].mean(axis=1) > cut
    strong = _errors(y, x[0], shift, test)
    weaker = _errors(y, x[1], weak, test)
    return np.where(switched, strong - weaker, 0.0)
