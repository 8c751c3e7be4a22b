"""Select, then train: choose the feature groups a budget affords, then train a model on them.

The simplest strong baseline of budgeted learning: a fixed set of attributes, paid for by
every example, and the best off-the-shelf model on them. :class:`SelectThenTrain` builds a
few *selection paths* on the fit part of the training rows (each a sequence of sets of
feature groups, of growing price), trains the classifier on every set, and chooses per budget
the (set, classifier size) of lowest validation error among those the budget affords (the
protocol of :mod:`~budgetboost.estimators.contract.tuning`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from numbers import Integral, Real
from typing import Any

import numpy as np

from ..contract.base import (
    BUDGET,
    PRICES,
    RANDOM_STATE,
    BudgetCosts,
    TrainingData,
)
from ..contract.params import Constraint, Interval, InvalidParameterError, Options
from ..contract.pricing import Pricing
from ..contract.tuning import EMPTY_SCORE, GRID, TRADEOFF, Choice, IntegerGrid, TunedEstimator
from ..peers.columns import ColumnEncoding, most_distinct
from .classifiers import fit_gbm, fit_linear, gbm_params
from .design import Design, stratified_folds
from .exhaustive import enumerate_sets, pareto_sets
from .forward import forward_path
from .group_lasso import lasso_path

__all__ = [
    "DEFAULT_TRADEOFFS",
    "MAX_EXHAUSTIVE_SETS",
    "PATHS",
    "SCORING_TREES",
    "SelectThenTrain",
]

#: The selection paths: cost-aware forward selection by cross-validation (:mod:`~.forward`),
#: the cost-weighted group-lasso logistic path (:mod:`~.group_lasso`) and the exhaustive
#: search over small sets (:mod:`~.exhaustive`).
PATHS = ("forward", "lasso", "exhaustive")
#: The most sets the exhaustive search scores (``max_exhaustive_sets``' default): every set
#: of at most 2 of Spambase's 57 attributes (1,653), of at most 3 of 21 (1,561).
MAX_EXHAUSTIVE_SETS = 1700
#: LightGBM's trees when it scores a set of the exhaustive search (at the grid's largest
#: learning rate and fewest leaves): 3 folds of 25 trees on 500 rows and 1-3 columns take
#: about 9 ms (3 ms a fit, median of 5), so the 1,653 pairs of Spambase about 15 CPU-s.
SCORING_TREES = 25
#: Default trade-offs of the forward selection, in units of (label entropy / mean price of
#: the eligible groups): 0 is price-blind; at 1/4 a group of mean price must lower the
#: cross-validated loss by a quarter of the labels' entropy more than a free one would.
DEFAULT_TRADEOFFS = (0.0, 1 / 16, 1 / 4)
#: A set within this relative margin of the budget still fits it (sums in another order).
_FITS = 1e-12


class PathNames(Constraint):
    """A non-empty list of distinct names of :data:`PATHS` (or one name)."""

    def _names(self, value: Any) -> list | None:
        if isinstance(value, str):
            return [value]
        if isinstance(value, list | tuple):
            return list(value)
        return None

    def is_satisfied_by(self, value: Any) -> bool:
        names = self._names(value)
        return (
            names is not None
            and len(names) > 0
            and all(isinstance(n, str) and n in PATHS for n in names)
            and len(set(names)) == len(names)
        )

    def explain(self, value: Any) -> str | None:
        names = self._names(value)
        if names is None:
            return None
        if not names:
            return "got no path"
        unknown = [n for n in names if not (isinstance(n, str) and n in PATHS)]
        if unknown:
            return f"got {unknown[0]!r}"
        return f"got a path twice: {sorted(n for n in set(names) if names.count(n) > 1)}"

    def __str__(self) -> str:
        return f"a non-empty list of distinct names of {list(PATHS)}"


def _entropy(y: np.ndarray) -> float:
    """Label entropy in nats: the log loss of the best constant score."""
    p = float(np.mean(y > 0))
    return float(-sum(q * np.log(q) for q in (p, 1 - p) if q > 0))


def _values(value: Any) -> list[float]:
    """One value or a grid, as a list of floats."""
    return np.atleast_1d(np.asarray(value, dtype=np.float64)).tolist()


class SelectThenTrain(TunedEstimator):
    """Select the feature groups a budget affords, then train LightGBM or a logistic model.

    **Selection paths** (on the *fit part* of the training rows; a feature group is the
    contract's unit of payment, every 0/1 column under per-column costs, a raw attribute's
    indicators under grouped ones). Each gives a sequence of sets of groups:

    - ``"forward"``, cost-aware forward selection by ``cv_folds``-fold cross-validation
      (:mod:`~.forward`): one group at a time, the group of least cross-validated logistic
      loss plus ``tradeoff`` times its marginal price, the cheaply screened ``shortlist``
      cross-validated at each step; one path per value of ``forward_tradeoffs``, every prefix
      a set;
    - ``"lasso"``, the cost-weighted group-lasso logistic path (:mod:`~.group_lasso`): the
      penalty ``lambda sum_g price_g sqrt(p_g) ||beta_g||`` over ``n_lambdas`` decreasing
      values of ``lambda`` (down to ``lambda_min_ratio`` of the least ``lambda`` selecting
      nothing), each solution's non-zero groups a set;
    - ``"exhaustive"``, every affordable set of 1 to ``max_exhaustive_groups`` groups, as
      many groups a set as keep the sets at most ``max_exhaustive_sets``
      (:mod:`~.exhaustive`), each scored by the ``cv_folds``-fold cross-validated log loss
      of the classifier then trained (``model``: LightGBM with :data:`SCORING_TREES` trees
      at the grid's largest learning rate and fewest leaves, at its best number of trees
      over the folds; the logistic model at the middle ``C``), the ``exhaustive_keep`` best
      of every set costing no more kept.

    A path stops before a set costing more than ``budget`` (the horizon) or holding more than
    ``max_groups`` groups. The paths weigh a group by at most ``max_group_columns`` of its
    columns (:mod:`~.design`); the classifier reads all of them.

    **The classifier** on a set (``model``, :mod:`~.classifiers`), trained on the fit part:
    ``"gbm"``, LightGBM (binary log loss, ``n_estimators`` trees of ``num_leaves`` leaves at
    ``learning_rate``: LightGBM's defaults, with the library peer's small-data settings
    ``min_child_samples=2`` and ``min_data_in_bin=1``; a grouped attribute's indicators given
    as one ordinal column, as the peer gives them), every prefix of its trees a candidate; or
    ``"linear"``, scikit-learn's L2 logistic regression on the set's standardised columns,
    one model per value of ``C``.

    **The choice** (:class:`~budgetboost.estimators.contract.tuning.TunedEstimator`): a
    candidate is a (set, classifier value, size) with the set's price (``Pricing``: Turney's
    discount groups included) and its error and log loss on the *validation part*; at each
    budget the candidate of lowest validation error among those costing at most the budget
    (ties: lower log loss, lower price, smaller size, earlier set), or the empty model (the
    training majority, price 0). Each chosen (set, value) is then trained again on all
    training rows and serves its budgets. Test rows never inform a choice.

    **What an example pays**: the logistic model reads every group of its set; a LightGBM
    example the groups its own decision paths test, each once (the library peer's
    ``example_costs``). ``spent`` is the most any example paid: at most the set's price, at
    most the budget.

    Parameters
    ----------
    model : {"gbm", "linear"}, default="gbm"
        The classifier trained on each set.
    paths : list of {"forward", "lasso"}, default=("forward", "lasso")
        The selection paths to build.
    forward_tradeoffs : float or array-like of float >= 0, default=(0, 1/16, 1/4)
        The forward selection's trade-offs, in units of ``H(y) / c``: the labels' entropy
        (nats) over the mean price of the eligible groups (on the fit part), so that the grid
        does not depend on the cost unit. One path per value (sorted, duplicates dropped).
    cv_folds : int >= 2, default=3
        Folds of the forward selection's cross-validation (stratified, on the fit part).
    shortlist : int >= 1, default=8
        Groups cross-validated at each forward step (the best of the score-test screen).
    max_groups : int >= 1, default=48
        The most groups of a set: enough for a price-blind path to spend the benchmark's
        horizon (budget 40 under U[0, 2], a mean price of 1 a column), so that a large
        budget is not served by a set a smaller one already afforded. Each group a path adds
        costs a forward step (24 groups took 2.2 CPU-s a trial on spambase with LightGBM,
        48 groups 5.8).
    max_group_columns : int >= 1, default=8
        The most columns of one group the selection paths read.
    n_lambdas : int >= 2, default=100
        Values of the group-lasso path's ``lambda``, log-spaced (glmnet's default: a coarser
        grid adds several groups a step and skips the sets in between).
    lambda_min_ratio : float in (0, 1) or None, default=None
        The path's smallest ``lambda`` over its largest; ``None``: glmnet's default, 0.01
        when the fit part has fewer rows than the paths have columns, else 1e-4.
    n_estimators : int >= 1, default=100
        LightGBM's trees (its ``num_iterations``; its default); the prefix used is chosen on
        validation.
    learning_rate : float > 0 or array-like of them, default=(0.1, 0.3)
        LightGBM's (0.1 its default); several values are a grid to choose from per set and
        budget on validation (the LightGBM Parameters-Tuning guide's advice: the rate and the
        number of trees tuned together on held-out rows).
    num_leaves : int >= 2 or array-like of them, default=(4, 31)
        LightGBM's (31 its default); several values are a grid chosen on validation with the
        rate (few leaves: the small trees that small sets and 75-1,000 rows afford).
    max_exhaustive_groups : int >= 1, default=3
        The most groups of a set of the exhaustive search.
    max_exhaustive_sets : int >= 1, default=1700
        The most sets the exhaustive search scores: the sets of 1, 2 and 3 groups are
        searched while their number, ``sum_k C(n_groups, k)``, is at most this (every set
        of at most 2 of Spambase's 57 attributes: 1,653; of at most 3 of 21 groups: 1,561;
        the single groups only from 58 to 1,700 groups; nothing above). Each set costs
        ``cv_folds`` fits of the classifier (LightGBM: about 3 ms each, measured on 500
        rows, so the cap costs about 15 CPU-s a trial).
    exhaustive_keep : int >= 1, default=1
        How many of the exhaustive search's best sets at each price (of every set costing
        no more) join the validation choice. 1: the front of cross-validated loss against
        price (under equal prices the best single group, pair and triple). Each further
        set is one more candidate for a validation part of a few dozen to 250 rows to
        choose among: on six-attribute problems of 160 training rows, keeping 8 raised the
        test error at the larger budgets on two of four seeds (0.26 to 0.36, 0.28 to 0.43),
        the validation part choosing sets that held up there by chance.
    min_child_samples : int >= 0, default=2
        LightGBM's ``min_data_in_leaf``, as the library peer sets it for 75-1,000 rows.
    min_data_in_bin : int >= 1, default=1
        LightGBM's, as the library peer sets it.
    C : float > 0 or array-like of them, default=(0.1, 1.0, 10.0)
        The logistic model's inverse L2 penalty (scikit-learn's ``C``; 1 is its default),
        chosen per set and budget on validation.
    budget : float or None, default=None
        The horizon: no set costs more (the pipeline sets the budget grid's largest); it
        also caps the budgets served. ``None``: unlimited.
    validation_fraction : float in (0, 1), default=0.25
        Share of each class held out to choose on; it must be > 0 (the set is always chosen).
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None
        Seeds the validation split, the folds and LightGBM's ``seed``.
    feature_costs, feature_groups, discount_groups, discount_costs : array-like, optional
        The prices (:class:`~budgetboost.BudgetedEstimator`).

    Attributes
    ----------
    sets_ : list of ndarray of int
        The distinct sets of the paths (groups, sorted), in the order found.
    set_paths_ : list of (str, float)
        The path and trade-off of each set's first occurrence: ``("forward", t)`` with ``t``
        of ``forward_tradeoffs``, ``("lasso", lambda / lambda_max)``.
    configs_ : list of (int, value)
        Each configuration: a set (index into ``sets_``) and a classifier value (LightGBM's
        (learning rate, leaves), or ``C``).
    config_cost_ : ndarray
        The price of each configuration's set.
    tradeoffs_ : ndarray
        The trade-off of each configuration's path (:meth:`chosen_tradeoffs` reads it):
        a forward path's ``forward_tradeoffs`` value, a lasso set's ``lambda / lambda_max``.
    models_, refits_, choice_, fit_rows_, validation_rows_
        As every :class:`~budgetboost.estimators.contract.tuning.TunedEstimator`.
    encoding_ : ColumnEncoding or None
        LightGBM's columns (a threshold attribute's indicators as one ordinal column);
        ``None`` for the logistic model (it reads the indicators).
    seed_ : int
        LightGBM's seed.
    exhaustive_sets_ : int
        How many sets the exhaustive search scored (where it ran).

    Notes
    -----
    The forward and lasso paths select with the logistic model, whichever ``model`` is
    trained on the sets (a wrapper around LightGBM would cross-validate hundreds of boosters
    a path); the exhaustive search scores its sets with the classifier itself; the
    classifier's validation error then chooses among the sets of every path. ``rounds`` is
    the number of trees (1 for the logistic model), ``n_features`` the mean number of groups
    an example read, ``nodes`` 0.

    References
    ----------
    R. Kohavi, G. H. John. Wrappers for feature subset selection. Artificial Intelligence 97,
    1997. M. Yuan, Y. Lin. Model selection and estimation in regression with grouped
    variables. JRSS B 68, 2006. L. Meier, S. van de Geer, P. Buehlmann. The group lasso for
    logistic regression. JRSS B 70, 2008. A. Beck, M. Teboulle. A fast iterative
    shrinkage-thresholding algorithm for linear inverse problems. SIAM J. Imaging Sciences 2,
    2009. R. Tibshirani et al. Strong rules for discarding predictors in lasso-type problems.
    JRSS B 74, 2012.
    """

    label = "Select then train, LightGBM"
    family = "selection"

    #: LightGBM and scikit-learn train the classifiers; scipy gives the paths' sigmoid.
    libraries = ("lightgbm", "scikit-learn", "scipy")

    #: The exhaustive search capped at the sets of one or two groups (78 of the conformance
    #: tests' 12 priced columns, not the 298 of up to three): each set costs ``cv_folds``
    #: classifier fits, and a case fits in about a second.
    conformance_cases = {
        "gbm": {
            "n_estimators": 10,
            "forward_tradeoffs": 0.0,
            "max_groups": 4,
            "max_exhaustive_sets": 80,
        },
        "linear": {
            "model": "linear",
            "C": 1.0,
            "forward_tradeoffs": 0.0,
            "max_groups": 4,
            "n_lambdas": 10,
            "max_exhaustive_sets": 80,
        },
    }
    _parameter_constraints = {
        "model": [Options(("gbm", "linear"))],
        "paths": [PathNames()],
        "forward_tradeoffs": TRADEOFF[:2],
        "cv_folds": [Interval(Integral, 2, None, closed="left")],
        "shortlist": [Interval(Integral, 1, None, closed="left")],
        "max_groups": [Interval(Integral, 1, None, closed="left")],
        "max_group_columns": [Interval(Integral, 1, None, closed="left")],
        "n_lambdas": [Interval(Integral, 2, None, closed="left")],
        "lambda_min_ratio": [Interval(Real, 0, 1, closed="neither"), None],
        "n_estimators": [Interval(Integral, 1, None, closed="left")],
        "learning_rate": [Interval(Real, 0, None, closed="neither"), GRID],
        "num_leaves": [
            Interval(Integral, 2, 131072, closed="both"),
            IntegerGrid(2, 131072, "the leaves to choose from", distinct=True),
        ],
        "max_exhaustive_groups": [Interval(Integral, 1, None, closed="left")],
        "max_exhaustive_sets": [Interval(Integral, 1, None, closed="left")],
        "exhaustive_keep": [Interval(Integral, 1, None, closed="left")],
        "min_child_samples": [Interval(Integral, 0, None, closed="left")],
        "min_data_in_bin": [Interval(Integral, 1, None, closed="left")],
        "C": [Interval(Real, 0, None, closed="neither"), GRID],
        "budget": BUDGET,
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        **PRICES,
    }

    def __init__(
        self,
        model: str = "gbm",
        paths=PATHS,
        forward_tradeoffs=DEFAULT_TRADEOFFS,
        cv_folds: int = 3,
        shortlist: int = 8,
        max_groups: int = 48,
        max_group_columns: int = 8,
        n_lambdas: int = 100,
        lambda_min_ratio: float | None = None,
        n_estimators: int = 100,
        learning_rate=(0.1, 0.3),
        num_leaves=(4, 31),
        min_child_samples: int = 2,
        min_data_in_bin: int = 1,
        C=(0.1, 1.0, 10.0),
        budget: float | None = None,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
        max_exhaustive_groups: int = 3,
        max_exhaustive_sets: int = MAX_EXHAUSTIVE_SETS,
        exhaustive_keep: int = 1,
    ):
        self.model = model
        self.paths = paths
        self.forward_tradeoffs = forward_tradeoffs
        self.cv_folds = cv_folds
        self.shortlist = shortlist
        self.max_groups = max_groups
        self.max_group_columns = max_group_columns
        self.n_lambdas = n_lambdas
        self.lambda_min_ratio = lambda_min_ratio
        self.n_estimators = n_estimators
        self.learning_rate = learning_rate
        self.num_leaves = num_leaves
        self.min_child_samples = min_child_samples
        self.min_data_in_bin = min_data_in_bin
        self.C = C
        self.budget = budget
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs
        self.max_exhaustive_groups = max_exhaustive_groups
        self.max_exhaustive_sets = max_exhaustive_sets
        self.exhaustive_keep = exhaustive_keep

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does.

        Besides each parameter's own constraints, ``validation_fraction`` must be > 0: the
        set of each budget is always chosen among several, on held-out rows.

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        if float(params.get("validation_fraction", 0.25)) == 0:
            raise InvalidParameterError(
                "validation_fraction",
                "must be > 0: the set (and the classifier's size) of each budget is chosen "
                "among the selection paths' on a validation part",
            )

    # ------------------------------------------------------------------ the paths
    def _path_sets(
        self, data: TrainingData, rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[list[np.ndarray], list[tuple[str, float]]]:
        """Every distinct set of the selection paths on ``rows``, with its path and
        trade-off (first occurrence)."""
        X, y = data.X[rows], data.y[rows]
        pricing = data.pricing
        horizon = self._fitted_budget()
        design = Design.build(
            X, data.group_of_column, data.group_cost.size, int(self.max_group_columns)
        )
        alone = pricing.prices()
        eligible = design.has_columns() & (alone <= horizon + _FITS * max(1.0, horizon))
        names = [self.paths] if isinstance(self.paths, str) else list(self.paths)
        found: list[tuple[np.ndarray, str, float]] = []
        if "forward" in names:
            folds = stratified_folds(y, int(self.cv_folds), rng)
            positive = alone[eligible & (alone > 0)]
            unit = _entropy(y) / (positive.mean() if positive.size else 1.0)
            for tradeoff in np.unique(_values(self.forward_tradeoffs)).tolist():
                path = forward_path(
                    design,
                    y,
                    folds,
                    pricing,
                    eligible,
                    tradeoff=tradeoff * unit,
                    budget=horizon,
                    max_groups=int(self.max_groups),
                    shortlist=int(self.shortlist),
                )
                found += [
                    (np.sort(path.groups[:k]), "forward", tradeoff)
                    for k in range(1, path.groups.size + 1)
                ]
        if "lasso" in names:
            path = lasso_path(
                design,
                y,
                pricing,
                eligible,
                budget=horizon,
                max_groups=int(self.max_groups),
                n_lambdas=int(self.n_lambdas),
                min_ratio=self._lambda_min_ratio(design),
            )
            found += [
                (groups, "lasso", ratio)
                for groups, ratio in zip(path.sets, path.relative_lambda.tolist(), strict=True)
            ]
        if "exhaustive" in names:
            found += self._exhaustive(data, rows, eligible, rng)
        sets, origins, seen = [], [], set()
        for groups, name, tradeoff in found:
            key = tuple(groups.tolist())
            if key in seen or pricing.set_cost(groups) > horizon:
                continue
            seen.add(key)
            sets.append(groups.astype(np.intp))
            origins.append((name, float(tradeoff)))
        return sets, origins

    def _exhaustive(
        self, data: TrainingData, rows: np.ndarray, eligible: np.ndarray, rng: np.random.Generator
    ) -> list[tuple[np.ndarray, str, float]]:
        """The exhaustive search's kept sets (:mod:`~.exhaustive`), each with its size as its
        trade-off: scored by the classifier's cross-validated log loss on ``rows``."""
        sets = enumerate_sets(
            eligible,
            data.pricing,
            self._fitted_budget(),
            int(self.max_exhaustive_groups),
            int(self.max_exhaustive_sets),
        )
        if not sets:
            return []
        y = data.y[rows]
        folds = stratified_folds(y, int(self.cv_folds), rng)
        inputs, group = self._selection_inputs(data)
        X = inputs[rows]
        values = self._classifier_values()
        if self.model == "gbm":  # the fastest learner of the grid: its largest rate
            value = (max(v[0] for v in values), min(v[1] for v in values))
            trees = min(SCORING_TREES, int(self.n_estimators))
        else:
            value, trees = values[len(values) // 2], 1
        losses = np.empty(len(sets))
        for s, groups in enumerate(sets):
            columns = np.flatnonzero(np.isin(group, groups))
            losses[s] = self._cross_validated(X[:, columns], y, folds, value, trees)
        prices = np.array([data.pricing.set_cost(groups) for groups in sets])
        kept = pareto_sets(prices, losses, int(self.exhaustive_keep))
        self.exhaustive_sets_ = len(sets)
        return [(sets[s], "exhaustive", float(sets[s].size)) for s in np.flatnonzero(kept)]

    def _selection_inputs(self, data: TrainingData) -> tuple[np.ndarray, np.ndarray]:
        """The classifier's columns of the training rows and the group of each."""
        if self.model == "gbm":
            encoding = ColumnEncoding.fit(data.X, data.group_of_column)
            self.n_bins_ = most_distinct(encoding.transform(data.X))
            return encoding.transform(data.X), encoding.group
        return data.X, np.asarray(data.group_of_column, dtype=np.intp)

    def _cross_validated(
        self, X: np.ndarray, y: np.ndarray, folds: np.ndarray, value, trees: int
    ) -> float:
        """The classifier's out-of-fold log loss on ``(X, y)``: each fold scored by the model
        of the others (LightGBM: at the number of trees, of ``trees``, of least mean loss
        over the folds)."""
        losses = []
        for fold in range(int(folds.max()) + 1):
            held = folds == fold
            model = self._fit_classifier(
                X[~held], y[~held], value, trees, validation=(X[held], y[held])
            )
            curve = np.full(trees, model.validation_loss[-1])
            curve[: model.validation_loss.size] = model.validation_loss
            losses.append(curve * held.sum())
        return float(np.min(np.sum(losses, axis=0)) / y.size)

    def _lambda_min_ratio(self, design: Design) -> float:
        """``lambda_min_ratio``, or glmnet's default for the design's shape."""
        if self.lambda_min_ratio is not None:
            return float(self.lambda_min_ratio)
        return 1e-2 if design.Z.shape[0] < design.Z.shape[1] else 1e-4

    # ------------------------------------------------------------------ the classifiers
    def _classifier_values(self) -> list:
        """The classifier's grid: LightGBM's (learning rate, leaves) pairs, the rate varying
        slowest, or the logistic model's ``C`` values."""
        if self.model == "linear":
            return _values(self.C)
        leaves = np.atleast_1d(np.asarray(self.num_leaves)).tolist()
        return [(rate, int(n)) for rate in _values(self.learning_rate) for n in leaves]

    def _fit_classifier(self, X, y, value, n_trees: int, validation=None):
        if self.model == "linear":
            return fit_linear(X, y, value, validation)
        rate, leaves = value
        params = gbm_params(
            num_leaves=leaves,
            min_child_samples=self.min_child_samples,
            min_data_in_bin=self.min_data_in_bin,
            learning_rate=rate,
            max_bin=max(255, int(self.n_bins_)),
            seed=self.seed_,
        )
        return fit_gbm(X, y, params, n_trees, validation)

    def _inputs(self, X: np.ndarray) -> np.ndarray:
        """The classifier's columns of ``X``: LightGBM's encoding, or ``X`` itself."""
        return X if self.encoding_ is None else self.encoding_.transform(X)

    # ------------------------------------------------------------------ the protocol's steps
    def _fit(self, data: TrainingData) -> None:
        """The protocol; the classifier's columns of the training rows live during the fit."""
        try:
            super()._fit(data)
        finally:
            self.__dict__.pop("_train_inputs", None)

    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list]:
        """The paths' sets on the fit part, and the classifier of each (set, value) on it,
        with its error and log loss on the validation part."""
        self.seed_ = int(rng.integers(0, 2**31 - 1))
        self.pricing_ = data.pricing
        self.n_groups_ = int(data.group_cost.size)
        self.sets_, self.set_paths_ = self._path_sets(data, fit_rows, rng)
        if self.model == "gbm":  # the encoding of every training row, as the peer makes it
            self.encoding_ = ColumnEncoding.fit(data.X, data.group_of_column)
            self.input_group_ = self.encoding_.group
        else:
            self.encoding_ = None
            self.input_group_ = np.asarray(data.group_of_column, dtype=np.intp)
        inputs = self._inputs(data.X)
        self._train_inputs = inputs
        self.n_bins_ = most_distinct(inputs)
        rows = self.validation_rows_ if self.validation_rows_.size else fit_rows
        self._chosen_on = rows
        self.configs_, self.config_columns_, models = [], [], []
        costs = []
        for s, groups in enumerate(self.sets_):
            columns = np.flatnonzero(np.isin(self.input_group_, groups))
            for value in self._classifier_values():
                self.configs_.append((s, value))
                self.config_columns_.append(columns)
                costs.append(data.pricing.set_cost(groups))
                models.append(
                    self._fit_classifier(
                        inputs[np.ix_(fit_rows, columns)],
                        data.y[fit_rows],
                        value,
                        int(self.n_estimators),
                        validation=(inputs[np.ix_(rows, columns)], data.y[rows]),
                    )
                )
        self.config_cost_ = np.asarray(costs, dtype=np.float64)
        tradeoffs = [self.set_paths_[s][1] for s, _ in self.configs_]
        return np.asarray(tradeoffs, dtype=np.float64), models

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """:func:`~budgetboost.estimators.contract.tuning.choose` over every candidate; the
        empty model at every budget when the paths found no set (nothing affordable varies)."""
        if self.models_:
            return super()._choose(data, rows)
        self.prefix_cost_, self.validation_error_ = [], []
        return Choice(np.zeros(1), np.full(1, -1), np.zeros(1, dtype=np.intp))

    def _candidates(self, index: int, model, data: TrainingData, rows: np.ndarray):
        """The empty model, then every size of the classifier: the set's price and the
        validation error and log loss (recorded when it was fitted)."""
        if not np.array_equal(rows, self._chosen_on):
            raise RuntimeError("the candidates were evaluated on other rows than the choice's")
        empty = np.full(rows.size, self.majority_ * EMPTY_SCORE)
        yv = data.y[rows]
        error = np.concatenate([[np.mean((empty > 0) != (yv > 0))], model.validation_error])
        loss = np.concatenate([[np.logaddexp(0.0, -empty * yv).mean()], model.validation_loss])
        size = np.arange(error.size)
        cost = np.where(size > 0, self.config_cost_[index], 0.0)
        return size, cost, error, loss

    def _refit(self, data: TrainingData, chosen: Sequence[int], sizes: Sequence[int]) -> list:
        """The chosen (set, value) on all training rows, LightGBM with the most trees chosen."""
        inputs = self._train_inputs
        return [
            self._fit_classifier(
                inputs[:, self.config_columns_[index]], data.y, self.configs_[index][1], size
            )
            for index, size in zip(chosen, sizes, strict=True)
        ]

    # ------------------------------------------------------------------ serving
    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Each budget's refitted classifier on its set's columns (of the classifier's
        encoding), and what the examples paid."""
        return super()._scores_and_costs(self._inputs(X), budgets)

    def _serve(self, index, model, X, budgets, sizes):
        columns = self.config_columns_[index]
        Xs = X[:, columns]
        n = X.shape[0]
        sizes = np.minimum(sizes, model.n_trees)
        scores = model.scores(Xs, sizes)
        price = self.config_cost_[index]
        if self.model == "gbm":
            groups = self.input_group_[columns]
            paid = np.minimum(model.example_costs(Xs, sizes, groups, self.pricing_), price)
            counts = model.example_costs(Xs, sizes, groups, Pricing.plain(np.ones(self.n_groups_)))
            rounds = sizes
        else:
            paid = np.full((sizes.size, n), price)
            counts = np.full((sizes.size, n), float(self.sets_[self.configs_[index][0]].size))
            rounds = np.ones(sizes.size)
        costs = BudgetCosts(
            rounds=rounds,
            spent=paid.max(axis=1, initial=0.0),
            n_features=counts.mean(axis=1) if n else np.zeros(sizes.size),
            mean_example_cost=paid.mean(axis=1) if n else np.zeros(sizes.size),
            max_example_cost=paid.max(axis=1, initial=0.0),
            nodes=np.zeros(sizes.size),
        )
        return scores, costs

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray | None:
        """The groups each example reads where ``_scores_and_costs`` serves it."""
        return super()._groups_read(self._inputs(X), budgets)

    def _serve_reads(self, index, model, X, budgets, sizes):
        """The logistic regression reads every group of its set for every example; what a
        LightGBM example reads is not said (the job probes it)."""
        if self.model == "gbm":
            return None
        reads = np.zeros((sizes.size, 1, self.n_groups_), dtype=bool)
        reads[:, :, self.sets_[self.configs_[index][0]]] = True
        return reads
