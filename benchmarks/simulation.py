"""Datasets whose truth is known, to check the inference of :mod:`budgetboost.analysis`.

Verification tooling, not pipeline code: ``benchmarks/inference.py`` and
``benchmarks/headlines.py`` print what the simulations give at many sizes, and
``tests/analysis/test_known_truth.py`` checks the inference against them at the benchmark's
sizes; no rule of the workflow imports them (hence here, beside the benchmarks, and not in the
package, which would then import scikit-learn's neighbours and trees for nothing).

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
rows enter through the switch only.

* :func:`learner_differences`: real learners whose error depends on their training rows, two
  copies of one learner each on its own one of two exchangeable blocks of attributes, so
  their population errors are equal by construction: AdaBoost on stumps or on depth-4 trees
  (the pipeline's :class:`~budgetboost.BudgetedBoost`, reading binarized attributes as the
  pipeline's datasets are), one nearest neighbour (scikit-learn's, on the attributes
  themselves: every prediction is a training row), or the stress learner ``grown_tree``, a
  decision tree grown until its leaves are pure (scikit-learn's, on the attributes
  themselves): it fits every training row, label noise included, so its test errors move
  with its training rows. A known ``difference`` is added exactly: on the rows an irrelevant
  uniform marks (a share ``difference`` of the population), x is right and y wrong, so the
  true mean difference x - y is ``-difference``.

* :func:`field_band_means`: a field of methods on many datasets, each method's true error
  known, as the band means the pipeline's comparisons read
  (:func:`budgetboost.analysis.paired.band_means`): for the field's verdict and sentences
  (``benchmarks/headlines.py``).

Every draw comes from the ``numpy.random.Generator`` the caller passes
(``tests/analysis/test_known_truth.py``, ``benchmarks/inference.py``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import stats as sps
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from budgetboost.analysis.vocabulary import FINDING_BANDS
from budgetboost.estimators.boosting.booster import BudgetedBoost

__all__ = [
    "BLOCK_ATTRIBUTES",
    "LEARNERS",
    "field_band_means",
    "learner_differences",
    "learner_rows",
    "population_error",
    "switching_differences",
    "symmetric_differences",
]


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


#: Attributes in each learner's block (:func:`learner_differences`).
BLOCK_ATTRIBUTES = 4
#: Where each attribute is cut into 0/1 indicators ``z >= cut`` for the boosters (the
#: pipeline binarizes numeric attributes so).
_CUTS = np.array([-0.8, 0.0, 0.8])
#: The learners of :func:`learner_differences`: ``stumps`` (AdaBoost, 100 rounds), ``trees``
#: (AdaBoost on depth-4 trees, 30 rounds), ``nearest`` (one nearest neighbour).
LEARNERS = ("stumps", "trees", "nearest", "grown_tree")
#: The learners that read the attributes themselves (the others their 0/1 indicators).
_RAW_LEARNERS = ("nearest", "grown_tree")


def _fit_predict(
    learner: str, X: np.ndarray, y: np.ndarray, train: np.ndarray, test: np.ndarray
) -> np.ndarray:
    """Predictions on ``test`` of ``learner`` fitted on ``train`` (rows of ``X``)."""
    if learner == "nearest":
        model = KNeighborsClassifier(n_neighbors=1).fit(X[train], y[train])
        return model.predict(X[test])
    if learner == "grown_tree":  # random_state fixes the order features are tried in
        model = DecisionTreeClassifier(random_state=0).fit(X[train], y[train])
        return model.predict(X[test])
    kind = {"stumps": {}, "trees": {"weak_learner": "tree", "max_depth": 4}}[learner]
    rounds = 100 if learner == "stumps" else 30
    model = BudgetedBoost(criterion="adaboost", max_rounds=rounds, **kind)
    return model.fit(X[train], y[train]).predict(X[test])


def learner_differences(
    rng: np.random.Generator,
    n_train: int,
    n_test: int,
    n_pool: int,
    trials: int,
    *,
    learner: str = "stumps",
    difference: float = 0.0,
    shift: float = 1.0,
) -> np.ndarray:
    """One dataset's per-trial differences x - y of two copies of ``learner`` (module
    docstring), true mean ``-difference``.

    The population: balanced labels; :data:`BLOCK_ATTRIBUTES` unit Gaussian attributes per
    learner, each ``shift`` higher in the positive class (x reads the first block, y the
    second: exchangeable, so equal population errors); an independent uniform per row marks
    the rows (a share ``difference``) where x is right and y wrong whatever they predict.
    ``n_pool`` rows are drawn from it, and each of ``trials`` splits draws ``n_train`` and
    ``n_test`` of them.
    """
    return learner_rows(
        rng,
        n_train,
        n_test,
        n_pool,
        trials,
        learner=learner,
        difference=difference,
        shift=shift,
    )[0]


def learner_rows(
    rng: np.random.Generator,
    n_train: int,
    n_test: int,
    n_pool: int,
    trials: int,
    *,
    learner: str = "stumps",
    difference: float = 0.0,
    shift: float = 1.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`learner_differences` with each trial's test rows and their losses.

    Returns
    -------
    differences : ndarray, shape (trials,)
        What :func:`learner_differences` returns (the same draws).
    test : ndarray of int, shape (trials, n_test)
        Each trial's test rows (their places in the pool).
    row_differences : ndarray of float, shape (trials, n_test)
        Each test row's loss difference, x's 0/1 loss minus y's: ``differences`` is their
        mean over each trial's row.
    """
    if learner not in LEARNERS:
        raise ValueError(f"learner must be one of {LEARNERS}; got {learner!r}")
    labels = rng.random(n_pool) < 0.5
    z = rng.standard_normal((n_pool, 2 * BLOCK_ATTRIBUTES)) + shift * labels[:, None]
    marked = rng.random(n_pool) < difference
    y = np.where(labels, 1, -1).astype(np.int8)
    if learner in _RAW_LEARNERS:
        blocks = np.split(z, 2, axis=1)
    else:
        indicators = (z[:, :, None] >= _CUTS).astype(np.uint8)
        blocks = [b.reshape(n_pool, -1) for b in np.split(indicators, 2, axis=1)]
    train, test = _splits(rng, n_pool, n_train, n_test, trials)
    out = np.empty(trials)
    rows = np.empty((trials, n_test))
    for j in range(trials):
        wrong_x, wrong_y = (
            _fit_predict(learner, b, y, train[j], test[j]) != y[test[j]] for b in blocks
        )
        hit = marked[test[j]]
        out[j] = np.mean(wrong_x & ~hit) - np.mean(wrong_y | hit)
        rows[j] = (wrong_x & ~hit).astype(np.float64) - (wrong_y | hit)
    return out, test, rows


def field_band_means(
    rng: np.random.Generator,
    leads: Mapping[str, float],
    datasets: Sequence[str],
    *,
    spread: float = 0.02,
    noise: float = 0.03,
    trials: int = 10,
    bands: Sequence[str] = FINDING_BANDS,
    cost_model: str = "uniform_0_2",
) -> pd.DataFrame:
    """Trial errors of a field of methods whose true differences are known, in the form of
    :func:`budgetboost.analysis.paired.band_means` (``dataset``, ``cost_model``, ``band``,
    ``algorithm``, ``trial``, ``error``).

    Each band draws anew: a dataset's base error (uniform in [0.08, 0.35]); each method's
    own effect on each dataset (Gaussian, sd ``spread``, median 0: methods differ from
    dataset to dataset around their lead); and per trial a noise shared by the methods (the
    trial's split) and one of each method's own, each of sd ``noise / sqrt(2)``. A method's
    error is the sum of these and its lead (``leads``, default 0), so across datasets the
    centre of two methods' differences is the difference of their leads.
    """
    methods = list(leads)
    lead = np.array([leads[m] for m in methods], dtype=np.float64)
    k, n = len(methods), len(datasets)
    index = pd.MultiIndex.from_product(
        [methods, list(datasets), range(trials)], names=["algorithm", "dataset", "trial"]
    )
    parts = []
    for band in bands:
        base = rng.uniform(0.08, 0.35, n)
        own = rng.normal(0.0, spread, (k, n))
        shared = rng.normal(0.0, noise, (n, trials))
        error = (
            base[None, :, None]
            + lead[:, None, None]
            + own[:, :, None]
            + (shared[None] + rng.normal(0.0, noise, (k, n, trials))) / math.sqrt(2)
        )
        part = pd.DataFrame({"error": error.ravel()}, index=index).reset_index()
        parts.append(part.assign(band=band, cost_model=cost_model))
    table = pd.concat(parts, ignore_index=True)
    return table[["dataset", "cost_model", "band", "algorithm", "trial", "error"]]
