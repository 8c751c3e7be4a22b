"""AACO: the approximate acquisition conditioned oracle (Valancius, Lennon & Oliva, ICML 2024).

A per-example (adaptive, nongreedy) feature-acquisition method. Each test example starts with
nothing observed and, step by step, asks what subset ``v`` of the feature groups it has not
observed would minimise the *acquisition conditioned oracle* (ACO) objective

    E_{x_u, y | x_o} [ loss(y, f(x_o, x_v)) ] + alpha * c(v | o),

the expected loss of the classifier ``f`` once ``v`` is observed too, plus ``alpha`` times
what ``v`` costs given what the example has paid; it acquires one group of the best subset
and plans again, until nothing affordable is worth acquiring. The expectation is over the
``k`` training rows nearest to the example on what it has observed (the AACO approximation:
no generative model), the minimum over a random sample of subsets. :class:`AACO` is the
estimator (the budgets, the choice of ``alpha``, the departures from the paper); the pool of
acquirable groups is :mod:`~.pool`, the classifier :mod:`~.masked_logistic` and the
acquisition itself :mod:`~.rollout`.
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
from ..contract.params import Interval, Options
from ..contract.tuning import (
    EMPTY_SCORE,
    GRID,
    TRADEOFF,
    Choice,
    TunedEstimator,
    UnitGrid,
    check_validation_part,
    choose_by_budget,
    grid_size,
)
from .boosted import SubsetBoosted, fit_masked_boosted, reachable_subsets
from .masked_logistic import fit_masked_logistic, softplus
from .masked_network import MaskedNetwork, choose_masked_network, fit_masked_network
from .pool import select_pool
from .rollout import Oracle, Trajectories, mean_absolute_difference, predicted, rollout

__all__ = [
    "AACO",
    "BUDGET_HORIZONS",
    "DEFAULT_ALPHAS",
    "DEFAULT_HORIZONS",
    "DEFAULT_NETWORK_REGULARIZATION",
]

#: Default grid of ``alpha``, in units of (label entropy / mean price of the pool's groups).
DEFAULT_ALPHAS = (0.0, 1 / 64, 1 / 16, 1 / 4, 1.0)
#: Default horizons, as fractions of ``budget``: the fitted budget alone.
DEFAULT_HORIZONS = (1.0,)
#: Default L2 strengths (per training row) the network's is chosen from on held-out rows.
DEFAULT_NETWORK_REGULARIZATION = (3.0, 10.0, 30.0)
#: With ``horizons="budget"``, the most horizons of the choice on validation: ``budget``
#: halved until the cheapest group of the pool no longer fits.
BUDGET_HORIZONS = 8
#: A validation log loss this small a weight only breaks ties of the validation error.
_LOSS_TIE_WEIGHT = 1e-6


def _entropy(y: np.ndarray) -> float:
    """Label entropy in nats: the log loss of the best constant score."""
    p = float(np.mean(y > 0))
    return float(-sum(q * np.log(q) for q in (p, 1 - p) if q > 0))


def _by_budget(
    paid: np.ndarray, values: Sequence[np.ndarray], n_configs: int
) -> tuple[np.ndarray, list[np.ndarray]]:
    """Means over examples of per-prefix values at every budget where a prefix changes.

    ``paid`` (n_configs * m, T) holds each row's cumulative prices (``inf`` after it
    stopped), row ``c * m + i`` example ``i`` under configuration ``c``; each value array
    (n_configs * m, T + 1) holds a value per prefix length. The prefix of length ``t`` is
    in force from budget ``paid[t - 1]`` (0 for ``t = 0``) up to ``paid[t]``; a difference
    array over the sorted budgets adds every row's values at once.

    Returns
    -------
    budgets : ndarray of shape (G,)
        0 and every finite cumulative price, increasing.
    means : list of ndarray of shape (n_configs, G)
        Each value's mean over the examples at each budget, per configuration.
    """
    budgets = np.unique(np.concatenate([[0.0], paid[np.isfinite(paid)]]))
    G = budgets.size
    m = paid.shape[0] // max(n_configs, 1)
    start = np.concatenate([np.zeros((paid.shape[0], 1)), paid], axis=1)
    end = np.concatenate([paid, np.full((paid.shape[0], 1), np.inf)], axis=1)
    finite = np.isfinite(start)
    offset = (np.arange(paid.shape[0]) // max(m, 1) * (G + 1))[:, None]
    lo = (np.searchsorted(budgets, start) + offset)[finite]
    hi = (np.searchsorted(budgets, end) + offset)[finite]
    means = []
    for value in values:
        diff = np.zeros(n_configs * (G + 1))
        np.add.at(diff, lo, value[finite])
        np.add.at(diff, hi, -value[finite])
        means.append(np.cumsum(diff.reshape(n_configs, G + 1), axis=1)[:, :G] / max(m, 1))
    return budgets, means


def _rescored(
    oracle: Oracle,
    X: np.ndarray,
    trajectories: Trajectories,
    boosted: np.ndarray,
    groups: np.ndarray,
) -> Trajectories:
    """``trajectories`` (a rollout per group of budgets) with the predictor's scores for the
    rollouts whose budgets' configuration predicts with it (``boosted``, per budget;
    ``groups``, each budget's rollout)."""
    m = X.shape[0]
    score = trajectories.score.copy()
    for position in np.unique(groups[boosted]).tolist():
        rows = slice(position * m, (position + 1) * m)
        own = Trajectories(trajectories.group[rows], trajectories.paid[rows], score[rows])
        score[rows] = predicted(oracle, X, own).score
    return Trajectories(trajectories.group, trajectories.paid, score)


class AACO(TunedEstimator):
    """AACO (Valancius et al. 2024), adapted to test-time budgets and feature groups.

    **The acquisition** (per test example, vectorised over examples: :func:`~.rollout.rollout`).
    The example starts with nothing observed. At each step, with observed groups ``o``:

    1. its ``n_neighbors`` nearest training rows on ``o`` (standardised L1 distance, ties in
       a random order fixed at fit) stand for ``p(x_u, y | x_o)`` (the AACO approximation);
       with ``o`` empty, every training row (``p(x, y)`` itself);
    2. the candidate subsets are every singleton of the pool and ``n_subsets`` random subsets
       of it (drawn at fit, per step), less ``o``, whose price given what the example paid
       fits within the horizon (``budget``, or a chosen fraction of it: below);
    3. each candidate ``v`` scores the ACO objective ``mean over neighbours n of loss(y_n,
       f(x_o, x_{n,v})) + alpha * c(v | o)``, with ``f`` the classifier on masked inputs
       (``classifier``: a logistic model, or a network that sees how groups act together)
       and the logistic (cross-entropy) loss; stopping scores the mean loss of ``f(x_o)``;
    4. the example acquires the group of the best subset whose own objective as a singleton
       is lowest (the authors' rule, with the price term), pays its marginal price and goes
       to 1; or it stops: with ``stopping="aco"`` when stopping scores lowest (the paper's
       rule), with ``stopping="improvement"`` (default) only when no affordable subset
       lowers the expected loss (the candidates are then those that do).

    The prediction after any number of acquisitions is ``f(x_o)``, or, with
    ``predictor="boosted"``, a gradient-boosted model's (LightGBM, :mod:`~.boosted`), as the
    authors predict: one model per subset of the pool's groups where the subsets an example
    can reach within ``budget`` are at most ``max_subset_models``, otherwise one model on
    randomly masked inputs whose number of trees is chosen on the validation part (masked
    log loss). The acquisition is planned with ``f`` either way (its scores of every
    candidate of every neighbour need a model additive over groups). The examples'
    trajectories stop at ``max_acquisitions``.

    **Budgets.** One trajectory per (example, ``alpha``) serves every budget: at budget
    ``B`` an example keeps the longest prefix of its trajectory whose cumulative price is at
    most ``B`` (so it never buys a group whose marginal price exceeds what remains), and is
    predicted from it. ``alpha`` is chosen per budget on the validation part (below): a
    large ``alpha`` orders a trajectory cheap groups first (what a small budget can use), a
    small one informative groups first. The alternative, the paper's budget-constrained ACO
    (``min E[loss]`` over subsets with ``c(o ∪ v) <= B``) run anew for each of the ~20
    budgets, costs a rollout per budget where this costs one per chosen ``alpha`` (the
    trade-off form is the paper's main one, the budget form its constrained twin).
    ``budget`` (the pipeline sets the grid's largest) is the horizon: no trajectory plans or
    pays beyond it. With ``horizons``, the horizon is chosen too: each fraction of
    ``budget`` is a horizon, and every (``alpha``, horizon) pair a configuration with its
    own trajectories. With ``horizons="budget"`` every budget served is its own horizon:
    budget ``B`` is served by a rollout that plans and pays within ``B`` (the paper's
    budget-constrained ACO at ``B``), the ``alpha`` chosen for it on validation rollouts
    whose horizon is the largest of a grid (``budget``, halved up to
    :data:`BUDGET_HORIZONS` times while the cheapest pool group fits) at most ``B``; a
    served rollout per distinct budget, where the fractions need one per chosen
    configuration. A horizon near ``B`` plans what ``B`` can buy (the budget-constrained
    ACO at ``B``); a larger one may start with a group that only pays off with others a
    small budget cannot afford, or find a better order because it looks further. The
    configurations share the work of a step (their states are the examples' observed
    groups and values, whatever planned them). The default stopping rule is the
    budget-constrained ACO's: served by prefixes, stopping while the budget allows a useful
    acquisition only loses accuracy, and ``alpha`` is left to order the acquisitions (with
    the paper's rule a large ``alpha`` stops after a group or two and leaves a small budget
    unspent).

    **Choosing ``alpha`` and the horizon** (the protocol of every tuned estimator,
    :mod:`~budgetboost.estimators.contract.tuning`): the training rows are split into a fit
    part and a validation part (``validation_fraction``, stratified); the pool, classifier
    and oracle rows are fitted on the fit part, every validation row is rolled out under
    every configuration, and at each budget the configuration of lowest validation error
    (ties: lower validation log loss, then the larger horizon and the smaller ``alpha``) is
    chosen (:func:`~budgetboost.estimators.contract.tuning.choose_by_budget`). The model is
    then refitted on all training rows (its oracle rows are then all of them) and serves
    each budget ``B`` with the trajectories of its configuration, cut at ``B``. A validation
    row is never its own neighbour: the oracle rows of the choice are the fit part only.

    **Departures from the paper, and why** (the scale: up to 11,000 0/1 columns, 1,000
    training and 5,000 test rows, ~20 budgets, a few CPU seconds a trial):

    - *A pool of candidate groups* (:mod:`~.pool`): when more groups are eligible than
      ``pool_size``, only ``pool_size`` may be acquired, picked on the training rows by a
      forward stagewise logistic fit, alternately the group of most value and of most value
      per price. A group whose least price exceeds ``budget`` is never eligible.
    - *The classifier*, by default, is a logistic regression on ``[x * m, m]`` trained with
      random masks of every size the acquisition reaches (:mod:`~.masked_logistic`):
      additive over groups, so one matrix product scores every candidate of every neighbour,
      but blind to what groups say together (a subset is worth the sum of its groups), which
      is what a nongreedy acquisition exists to find. ``classifier="network"`` is a network
      of ``hidden_units`` rectified units on the same masked inputs
      (:mod:`~.masked_network`): its first layer is still additive over groups, so one
      product (``H`` times wider) still scores every candidate, then the rectifier and the
      output layer; its L2 strength is chosen on the validation part. The paper uses
      gradient boosting or a network on masked inputs (the authors' code: XGBoost, one model
      per mask where there are few features, else one on random masks); either model here
      is one fit on random masks. A group of many columns is read on at most
      ``max_group_columns`` of them.
    - *Random subsets are shared* by all examples at a step and have log-uniform sizes in
      ``[2, P]`` (the authors draw each example's own, sizes uniform): small subsets are the
      ones a budget affords, and shared draws keep a step one matrix product.
    - *The first step* uses every training row (the authors fix the first feature by hand).
    - *The objective reads the example's own observed values* ``x_o`` with the neighbour's
      ``x_v`` (as the ACO's expectation does; the authors' code feeds the neighbour's
      ``x_o``).
    - *The next group* of the best subset is the one of lowest objective as a singleton,
      loss plus ``alpha`` times its price (the authors' code: loss alone; equal at
      ``alpha = 0``).
    - *The stopping rule* (above), and *no policy network* imitates the oracle (the paper's
      behaviour cloning): the oracle itself acquires for every test example.

    Parameters
    ----------
    budget : float or None, default=None
        The horizon: no example pays more (the pipeline sets the budget grid's largest).
        ``None``: unlimited. It also caps the budgets of :meth:`predict_at_budgets`.
    alphas : float, array-like of float or None, default=None
        The cost trade-off(s) ``alpha`` of the ACO objective (numbers >= 0, sorted and
        deduplicated when fitted). ``None``: :data:`DEFAULT_ALPHAS` ``(0, 1/64, 1/16, 1/4,
        1)`` times ``H(y) / c``, the label entropy (nats) over the mean price of the pool's
        groups (on the fit part): at ``alpha = H(y) / c`` a group of mean price is worth its
        price only if it removes all the uncertainty of the labels; at 0 price is ignored
        (within the budget).
    n_neighbors : int, default=20
        ``k``: training rows standing for ``p(x_u, y | x_o)`` (the authors' default).
    n_subsets : int, default=32
        Random candidate subsets per step, besides the pool's singletons.
    pool_size : int, default=64
        Most groups that may be acquired (above).
    max_acquisitions : int, default=32
        Most groups an example acquires (and the largest mask the classifier trains on).
    n_masks : int, default=8
        Random masks per training row for the classifier.
    max_group_columns : int, default=16
        Most columns of one group the classifier reads: for a larger group, that many spread
        evenly over its columns ordered by their mean (thresholds of one attribute: spread
        over its range).
    regularization : float, default=1.0
        L2 strength of the logistic model (scikit-learn's ``1 / C``).
    stopping : {"improvement", "aco"}, default="improvement"
        When an example stops (step 4 above).
    classifier : {"logistic", "network"}, default="logistic"
        The classifier on masked inputs, in the oracle and for the prediction (above). The
        network costs ``hidden_units`` times the logistic model's arithmetic per candidate
        (with 16 units, the horizons ``(1/16, 1/4, 1)`` and its three strengths, a train
        job's trial took 3.4 times the default's CPU over 12 of the suite's datasets, 1.6 to
        5.6 times per dataset); an algorithm of the config asks for it where that is
        affordable: it is not chosen per dataset.
    hidden_units : int, default=16
        ``H``, the network's hidden units (unused by the logistic model).
    network_regularization : float, array-like of float > 0 or None, default=None
        The network's L2 strength per training row (as ``regularization``), or several to
        choose from: a network is fitted on the fit part at each, and the one of lowest
        masked log loss on the validation part (masks drawn as the training masks) is kept;
        the refit uses its strength. ``None``: :data:`DEFAULT_NETWORK_REGULARIZATION` ``(3,
        10, 30)`` (at the logistic model's 1 the network predicts held-out rows worse than
        the logistic model: :mod:`~.masked_network`). Unused by the logistic model.
    horizons : float, array-like of float in (0, 1], "budget" or None, default=None
        The horizons to choose from per budget, as fractions of ``budget`` (sorted and
        deduplicated when fitted; with ``budget=None`` all are unlimited, one horizon).
        ``None``: :data:`DEFAULT_HORIZONS`, ``budget`` alone. ``"budget"``: each budget
        served is its own horizon (above).
    predictor : {"classifier", "boosted"}, default="classifier"
        What predicts from the acquired groups: the oracle's classifier, or, with
        ``"boosted"``, LightGBM (above) or the classifier, whichever errs less on the
        validation part, chosen per budget with ``alpha`` and the horizon (both score the
        same trajectories: the configurations are doubled, the rollouts not).
    max_subset_models : int >= 1, default=256
        With ``predictor="boosted"``, the most subsets an example can reach (every subset
        of at most as many of the pool's groups as the cheapest fit in ``budget``,
        :func:`~.boosted.reachable_subsets`) for one LightGBM per subset; above it, one
        masked model. 256: every subset of 8 groups (pima, ecoli, bupa under any budget).
    validation_fraction : float in [0, 1), default=0.25
        Share of each class held out to choose ``alpha`` and the horizon per budget (and the
        network's strength). 0 needs a single value of each (then the model is fitted on all
        rows).
    random_state : int, numpy Generator (or BitGenerator, SeedSequence) or None, default=None
        Seed of the validation split, the classifier's masks (and the network's initial
        weights), the oracle rows' order (ties of distances) and the candidate subsets; the
        acquisition itself draws nothing.
    feature_costs, feature_groups : array-like of shape (n_features,), default=None
        As in :class:`~budgetboost.BudgetedEstimator`: an example pays each group it
        acquires once.
    discount_groups, discount_costs : array-like of shape (n_features,), default=None
        Turney's discount groups: an acquisition pays its marginal price given the discount
        groups the example has touched, and the candidates' prices are marginal the same way.

    Attributes
    ----------
    tradeoffs_ : ndarray of shape (n_configs,)
        The ``alpha`` of each configuration: the ``alpha`` grid, increasing, once per
        horizon (:meth:`chosen_tradeoffs` reads it).
    horizons_ : ndarray of shape (n_configs,)
        The horizon of each configuration (decreasing: the largest horizon's configurations
        first).
    models_ : list of Oracle
        The model fitted on the fit part (one object shared by every configuration).
    refits_ : dict of int to Oracle
        The model refitted on all training rows, by index of each chosen configuration (one
        object shared by them).
    choice_ : Choice
        The configuration of every budget, chosen on the validation part.
    validation_budgets_, validation_error_ : ndarray
        The budgets at which some validation trajectory changes, and the validation error of
        each configuration there: shape (n_configs, n_budgets).
    fit_rows_, validation_rows_ : ndarray of int
        The training rows of the fit and validation parts.
    network_regularization_ : float or None
        The network's L2 strength, chosen on the validation part (``classifier="network"``
        only; None where the fit part's pool was empty).
    network_losses_ : ndarray or None
        The validation masked log loss of the network at each strength, increasing.
    boosted_ : ndarray of bool, shape (n_configs,)
        Whether each configuration predicts with the boosted model (``predictor="boosted"``:
        the second half of the configurations, the same plans as the first).
    predictor_trees_, predictor_losses_ : int and ndarray, or None
        ``predictor="boosted"`` with one masked model: its number of trees chosen on the
        validation part, and the validation masked log loss of every number (0 first);
        None with a model per subset.

    Notes
    -----
    Reported costs per budget: ``mean_example_cost`` and ``max_example_cost`` are what the
    examples paid (their prefixes); ``spent`` is ``max_example_cost`` (every example is
    within it); ``rounds`` and ``n_features`` the mean number of groups acquired per example;
    ``nodes`` 0. Scores are the classifier's, plus ``1e-10`` towards the training majority
    (an exact 0 predicts it).

    The paper's text was read from its abstract and introduction only; its section and
    equation numbers are not cited here. The rules above follow the paper's description of
    the ACO and AACO and the authors' code (``src/aaco_rollout.py``: neighbours excluding the
    query, random masks joined with the observed mask, the current mask among the
    candidates, the next feature by its own expected loss).

    References
    ----------
    V. Valancius, M. Lennon, J. Oliva. Acquisition Conditioned Oracle for Nongreedy Active
    Feature Acquisition. ICML 2024 (arXiv:2302.13960); code: github.com/lupalab/aaco.
    """

    label = "AACO, feature acquisition"
    family = "acquisition"

    #: scipy fits the classifier (L-BFGS) and gives its sigmoid; scikit-learn the network;
    #: LightGBM the boosted predictor.
    libraries = ("scipy", "scikit-learn", "lightgbm")

    conformance_cases = {
        "logistic": {"n_subsets": 4, "max_acquisitions": 3},
        "network": {
            "n_subsets": 4,
            "max_acquisitions": 3,
            "classifier": "network",
            "hidden_units": 3,
            "horizons": [0.5, 1.0],
        },
        "boosted": {
            "n_subsets": 4,
            "max_acquisitions": 3,
            "predictor": "boosted",
            "horizons": "budget",
        },
    }
    _parameter_constraints = {
        "budget": BUDGET,
        "alphas": TRADEOFF,
        "n_neighbors": [Interval(Integral, 1, None, closed="left")],
        "n_subsets": [Interval(Integral, 0, None, closed="left")],
        "pool_size": [Interval(Integral, 1, None, closed="left")],
        "max_acquisitions": [Interval(Integral, 1, None, closed="left")],
        "n_masks": [Interval(Integral, 1, None, closed="left")],
        "max_group_columns": [Interval(Integral, 1, None, closed="left")],
        "regularization": [Interval(Real, 0, None, closed="neither")],
        "stopping": [Options(("improvement", "aco"))],
        "classifier": [Options(("logistic", "network"))],
        "hidden_units": [Interval(Integral, 1, None, closed="left")],
        "network_regularization": [Interval(Real, 0, None, closed="neither"), GRID, None],
        "horizons": [
            Interval(Real, 0, 1, closed="right"),
            UnitGrid(),
            Options(("budget",)),
            None,
        ],
        "predictor": [Options(("classifier", "boosted"))],
        "max_subset_models": [Interval(Integral, 1, None, closed="left")],
        "validation_fraction": [Interval(Real, 0, 1, closed="left")],
        "random_state": RANDOM_STATE,
        **PRICES,
    }

    def __init__(
        self,
        budget: float | None = None,
        alphas=None,
        n_neighbors: int = 20,
        n_subsets: int = 32,
        pool_size: int = 64,
        max_acquisitions: int = 32,
        n_masks: int = 8,
        max_group_columns: int = 16,
        regularization: float = 1.0,
        stopping: str = "improvement",
        classifier: str = "logistic",
        hidden_units: int = 16,
        network_regularization=None,
        horizons=None,
        validation_fraction: float = 0.25,
        random_state=None,
        feature_costs=None,
        feature_groups=None,
        discount_groups=None,
        discount_costs=None,
        predictor: str = "classifier",
        max_subset_models: int = 256,
    ):
        self.budget = budget
        self.alphas = alphas
        self.n_neighbors = n_neighbors
        self.n_subsets = n_subsets
        self.pool_size = pool_size
        self.max_acquisitions = max_acquisitions
        self.n_masks = n_masks
        self.max_group_columns = max_group_columns
        self.regularization = regularization
        self.stopping = stopping
        self.classifier = classifier
        self.hidden_units = hidden_units
        self.network_regularization = network_regularization
        self.horizons = horizons
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.feature_costs = feature_costs
        self.feature_groups = feature_groups
        self.discount_groups = discount_groups
        self.discount_costs = discount_costs
        self.predictor = predictor
        self.max_subset_models = max_subset_models

    @classmethod
    def check_params(cls, params: Mapping[str, Any]) -> None:
        """Check constructor parameters without data, as ``fit`` does.

        Besides each parameter's own constraints, ``validation_fraction=0`` needs a single
        ``alphas`` value, a single ``horizons`` value and, with the network, a single
        ``network_regularization`` (there is nothing to choose among otherwise).

        Raises
        ------
        InvalidParameterError
            ``str()`` is ``"<parameter>: <reason>"``.
        """
        super().check_params(params)
        counts = {
            "alphas": grid_size(params.get("alphas"), DEFAULT_ALPHAS),
            "horizons": 1
            if params.get("horizons") == "budget"
            else grid_size(params.get("horizons"), DEFAULT_HORIZONS),
        }
        if params.get("classifier") == "network":
            strengths = params.get("network_regularization")
            counts["network_regularization"] = grid_size(strengths, DEFAULT_NETWORK_REGULARIZATION)
        check_validation_part(params, counts)

    # ------------------------------------------------------------------ one model
    def _oracle(
        self,
        data: TrainingData,
        rows: np.ndarray,
        rng: np.random.Generator,
        held_out: np.ndarray | None = None,
    ) -> Oracle:
        """The pool, classifier, oracle rows and candidate subsets fitted on ``rows``; the
        network's L2 strength chosen on the rows ``held_out`` (``_network``)."""
        X, y = data.X[rows], data.y[rows]
        horizon = self._fitted_budget()
        pool = self._pool(X, y, data, horizon)
        position = np.full(data.group_cost.size, -1, dtype=np.intp)
        position[pool] = np.arange(pool.size)
        # the pool's columns, group by group
        in_pool = np.flatnonzero(position[data.group_of_column] >= 0)
        columns = in_pool[np.argsort(position[data.group_of_column[in_pool]], kind="stable")]
        group_of = position[data.group_of_column[columns]]
        classifier_columns = self._classifier_columns(X, columns, group_of)
        arguments = (
            X,
            y,
            columns[classifier_columns],
            group_of[classifier_columns],
            pool.size,
            rng,
            int(self.n_masks),
            float(self.regularization),
        )
        if self.classifier == "network" and pool.size:  # an empty pool: nothing to combine
            held = None if held_out is None else (data.X[held_out], data.y[held_out])
            classifier = self._network(arguments[:6], held)
        else:
            classifier = fit_masked_logistic(*arguments, int(self.max_acquisitions))
        order = rng.permutation(rows.size)  # the oracle rows' order: ties of distances
        oracle_X = X[order][:, columns]
        scale = np.bincount(group_of, mean_absolute_difference(oracle_X), minlength=pool.size)
        pricing = data.pricing
        candidates = self._candidates(pool.size, rng)
        predictor = None
        if self.predictor == "boosted":
            read = columns[classifier_columns], group_of[classifier_columns]
            predictor = self._boosted(X, y, *read, pricing.base[pool], rng, held_out, data)
        discount = pricing.discount_group[pool]
        used, compact = np.unique(discount[discount >= 0], return_inverse=True)
        discount_group = np.full(pool.size, -1, dtype=np.intp)
        discount_group[discount >= 0] = compact
        return Oracle(
            pool=pool,
            distance_columns=columns,
            distance_group=group_of,
            scale=np.where(scale > 0, scale, 1.0),
            oracle_X=oracle_X,
            oracle_y=y[order],
            oracle_rows=np.asarray(rows)[order],
            oracle_contributions=classifier.contributions(X[order]),
            classifier=classifier,
            base=pricing.base[pool],
            discount_group=discount_group,
            shared=pricing.shared[used],
            candidates=candidates,
            n_neighbors=int(self.n_neighbors),
            horizon=horizon,
            stopping=self.stopping,
            predictor=predictor,
        )

    def _boosted(
        self,
        X: np.ndarray,
        y: np.ndarray,
        columns: np.ndarray,
        column_group: np.ndarray,
        least_price: np.ndarray,
        rng: np.random.Generator,
        held_out: np.ndarray | None,
        data: TrainingData,
    ):
        """The boosted predictor on the rows ``X, y`` (:mod:`~.boosted`): a model per subset
        where the reachable subsets are at most ``max_subset_models``, else the masked model,
        its trees chosen on the rows ``held_out`` (a refit, ``held_out`` None, uses the
        number chosen)."""
        horizon = self._fitted_budget()
        seed = int(rng.integers(2**31 - 1))
        steps = int(self.max_acquisitions)
        if reachable_subsets(least_price, horizon, steps) <= int(self.max_subset_models):
            y01 = (y > 0).astype(np.int32)
            return SubsetBoosted(X[:, columns], y01, columns, column_group, seed)
        held = None if held_out is None else (data.X[held_out], data.y[held_out])
        model, losses = fit_masked_boosted(
            X,
            y,
            columns,
            column_group,
            least_price.size,
            np.random.default_rng(seed),
            int(self.n_masks),
            steps,
            held,
            self.predictor_trees_,
        )
        if held is not None:
            self.predictor_trees_, self.predictor_losses_ = model.n_trees, losses
        return model

    def _network(
        self, arguments: tuple, held_out: tuple[np.ndarray, np.ndarray] | None
    ) -> MaskedNetwork:
        """The network on masked inputs (``arguments``: those of
        :func:`~.masked_network.fit_masked_network` up to the generator). Fitted on the fit
        part (``held_out`` given), at each strength of ``network_regularization`` and the one
        of lowest masked log loss on ``held_out`` kept
        (:func:`~.masked_network.choose_masked_network`; ``network_regularization_`` and
        ``network_losses_`` record the choice); refitted (``held_out`` None) at the strength
        chosen.
        """
        n_masks, units = int(self.n_masks), int(self.hidden_units)
        masks = int(self.max_acquisitions)
        grid = self.network_regularization
        grid = DEFAULT_NETWORK_REGULARIZATION if grid is None else grid
        strengths = np.unique(np.asarray(grid, dtype=np.float64))
        if held_out is None:  # the fit part's pool may have been empty: no choice made
            strength = self.network_regularization_
            strength = strengths[0] if strength is None else strength
            return fit_masked_network(*arguments, n_masks, float(strength), units, masks)
        network, losses = choose_masked_network(
            *arguments[:2], *held_out, *arguments[2:], n_masks, strengths, units, masks
        )
        self.network_losses_ = losses
        self.network_regularization_ = float(strengths[np.argmin(losses)])
        return network

    def _pool(self, X: np.ndarray, y: np.ndarray, data: TrainingData, horizon: float) -> np.ndarray:
        """The groups that may be acquired (:func:`~.pool.select_pool`): those whose least
        price (their discount price, once their discount group is paid) fits the horizon."""
        eligible = data.pricing.base <= horizon
        return select_pool(
            X, y, data.group_of_column, data.pricing.prices(), eligible, int(self.pool_size)
        )

    def _classifier_columns(
        self, X: np.ndarray, columns: np.ndarray, group_of: np.ndarray
    ) -> np.ndarray:
        """Positions (in ``columns``) the classifier reads: the non-constant columns of each
        group, at most ``max_group_columns`` spread evenly by their means."""
        values = X[:, columns]
        mean = values.mean(axis=0)
        varies = values.max(axis=0) > values.min(axis=0)
        order = np.lexsort((np.arange(columns.size), mean, ~varies, group_of))
        grp = group_of[order]
        start = np.searchsorted(grp, grp)  # first position of each column's group
        rank = np.arange(order.size) - start
        count = np.bincount(grp, varies[order], minlength=int(group_of.max(initial=-1)) + 1)
        count = count.astype(np.intp)[grp]
        q = int(self.max_group_columns)
        # rank r of c columns is kept where it is the rounding of an evenly spread point
        if q > 1:
            nearest_point = np.rint(rank * (q - 1) / np.maximum(count - 1, 1))
            spread = np.rint(nearest_point * (count - 1) / (q - 1)) == rank
        else:
            spread = rank == (count - 1) // 2
        keep = varies[order] & ((count <= q) | spread)
        return np.sort(order[keep])

    def _candidates(self, size: int, rng: np.random.Generator) -> np.ndarray:
        """Candidate subsets of each step: the singletons, then ``n_subsets`` random subsets
        of log-uniform size in [2, size]."""
        steps, R = int(self.max_acquisitions), int(self.n_subsets)
        single = np.broadcast_to(np.eye(size, dtype=bool), (steps, size, size))
        if size < 2 or R == 0:
            return single.copy()
        sizes = np.exp(rng.uniform(np.log(2), np.log(size + 1), size=(steps, R)))
        sizes = np.clip(np.floor(sizes), 2, size)
        rank = np.argsort(np.argsort(rng.random((steps, R, size)), axis=2), axis=2)
        subsets = rank < sizes[:, :, None]
        return np.concatenate([single, subsets], axis=1)

    # ------------------------------------------------------------------ the protocol's steps
    def _fit_grid(
        self, data: TrainingData, fit_rows: np.ndarray, rng: np.random.Generator
    ) -> tuple[np.ndarray, list[Oracle]]:
        """The model on the fit part, shared by every configuration (``alpha``, horizon) of
        the grid: the ``alpha`` of each configuration, and ``horizons_`` their horizons
        (largest first, then ``alpha`` increasing: ties of the choice go to the larger
        horizon and the smaller ``alpha``)."""
        self._refit_seed = int(rng.integers(2**63 - 1))
        self.predictor_trees_, self.predictor_losses_ = None, None
        if self.classifier == "network":
            self.network_regularization_, self.network_losses_ = None, None
        held_out = self.validation_rows_ if self.validation_rows_.size else fit_rows
        seed = int(rng.integers(2**63 - 1))
        oracle = self._oracle(data, fit_rows, np.random.default_rng(seed), held_out)
        if self.alphas is not None:
            grid = np.unique(np.asarray(self.alphas, dtype=np.float64))
        else:  # the unit: label entropy over the mean price of the pool's groups, alone
            alone = np.zeros((oracle.size, oracle.shared.size), dtype=bool)
            price = oracle.price(np.arange(oracle.size), alone)
            positive = price[price > 0]
            unit = _entropy(data.y[fit_rows]) / (positive.mean() if positive.size else 1.0)
            grid = np.unique(np.asarray(DEFAULT_ALPHAS) * unit)
        if isinstance(self.horizons, str):  # "budget": a grid of horizons to choose on
            horizons = self._budget_horizons(oracle)
        else:
            fractions = DEFAULT_HORIZONS if self.horizons is None else self.horizons
            horizons = np.asarray(fractions, dtype=np.float64) * oracle.horizon
            horizons = np.unique(horizons)[::-1]
        self.horizons_ = np.repeat(horizons, grid.size)
        tradeoffs = np.tile(grid, horizons.size)
        self.boosted_ = np.zeros(tradeoffs.size, dtype=bool)
        if oracle.predictor is not None:  # each plan scored by the classifier, then boosted
            self.horizons_ = np.tile(self.horizons_, 2)
            self.boosted_ = np.repeat([False, True], tradeoffs.size)
            tradeoffs = np.tile(tradeoffs, 2)
        return tradeoffs, [oracle] * tradeoffs.size

    def _budget_horizons(self, oracle) -> np.ndarray:
        """``horizons="budget"``: the horizons of the validation rollouts, decreasing:
        ``budget`` halved while the cheapest group of the pool fits, at most
        :data:`BUDGET_HORIZONS` of them (``inf`` alone without a budget)."""
        top = oracle.horizon
        if not np.isfinite(top):
            return np.array([np.inf])
        positive = oracle.base[oracle.base > 0]
        least = float(positive.min()) if positive.size else top
        halvings = top * 0.5 ** np.arange(BUDGET_HORIZONS)
        return halvings[(halvings >= least) | (np.arange(BUDGET_HORIZONS) == 0)]

    def _choose(self, data: TrainingData, rows: np.ndarray) -> Choice:
        """The configuration (``alpha``, horizon) of lowest validation error at every budget
        (ties: lower log loss, then the earlier configuration: larger horizon, smaller
        ``alpha``), every validation row rolled out under every configuration."""
        oracle = self.models_[0]
        plans = ~self.boosted_  # the configurations that plan (the rest rescore them)
        trajectories = rollout(
            oracle,
            data.X[rows],
            self.tradeoffs_[plans],
            horizons=self.horizons_[plans],
            predict=False,
        )
        if self.boosted_.any():
            boosted = predicted(oracle, data.X[rows], trajectories)
            trajectories = Trajectories(
                np.concatenate([trajectories.group, boosted.group]),
                np.concatenate([trajectories.paid, boosted.paid]),
                np.concatenate([trajectories.score, boosted.score]),
            )
        y = np.tile(data.y[rows], self.tradeoffs_.size)
        score = trajectories.score + self.majority_ * EMPTY_SCORE
        wrong = ((score > 0) != (y[:, None] > 0)).astype(np.float64)
        budgets, (error, loss) = _by_budget(
            trajectories.paid, [wrong, softplus(-y[:, None] * score)], self.tradeoffs_.size
        )
        self.validation_budgets_ = budgets
        self.validation_error_ = error
        objective = error + _LOSS_TIE_WEIGHT * loss
        if isinstance(self.horizons, str):  # each budget: the rollouts of its own horizon
            objective = np.where(self._own_horizon(budgets), objective, np.inf)
        return choose_by_budget(budgets, objective)

    def _own_horizon(self, budgets: np.ndarray) -> np.ndarray:
        """``horizons="budget"``: whether each configuration's horizon is the one standing
        for each budget, the largest at most the budget (the smallest below them all):
        shape (n_configs, n_budgets)."""
        grid = np.unique(self.horizons_)  # increasing
        at = np.maximum(np.searchsorted(grid, budgets, side="right") - 1, 0)
        return self.horizons_[:, None] == grid[at][None, :]

    def _refit(self, data: TrainingData, chosen: Sequence[int], sizes: Sequence[int]) -> list:
        """The model on all training rows, shared by the chosen ``alpha`` values."""
        rows = np.arange(data.y.size)
        oracle = self._oracle(data, rows, np.random.default_rng(self._refit_seed))
        return [oracle] * len(chosen)

    # ------------------------------------------------------------------ serving
    def _served(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[Oracle, list[tuple[np.ndarray, Trajectories, np.ndarray]]]:
        """Each example's rollout under each budget's configuration (``alpha``, horizon): one
        rollout for every configuration chosen at these budgets (with ``horizons="budget"``,
        for every distinct budget, its own horizon). Returns the oracle and, per rollout,
        the positions of its budgets, its trajectories and those budgets (capped at
        ``budget``)."""
        capped = self._capped(budgets)
        config, _ = self.choice_.at(capped)
        if isinstance(self.horizons, str):  # "budget": a rollout per distinct budget
            limits, first, groups = np.unique(capped, return_index=True, return_inverse=True)
            groups = groups.reshape(-1)
            alphas, horizons = self.tradeoffs_[config[first]], limits
        else:
            used, groups = np.unique(config, return_inverse=True)
            groups = groups.reshape(-1)
            limits = np.array([capped[groups == g].max() for g in range(used.size)])
            alphas, horizons = self.tradeoffs_[used], self.horizons_[used]
        oracle = self.refits_[int(config[0])]
        trajectories = rollout(oracle, X, alphas, limits, horizons=horizons, predict=False)
        m = X.shape[0]
        boosted = self.boosted_[config]
        if boosted.any():
            trajectories = _rescored(oracle, X, trajectories, boosted, groups)
        served = []
        for position in range(limits.size):  # a rollout per configuration or budget
            at = np.flatnonzero(groups == position)
            rows = slice(position * m, (position + 1) * m)
            own = Trajectories(
                trajectories.group[rows], trajectories.paid[rows], trajectories.score[rows]
            )
            served.append((at, own, capped[at]))
        return oracle, served

    def _scores_and_costs(
        self, X: np.ndarray, budgets: np.ndarray
    ) -> tuple[np.ndarray, BudgetCosts]:
        """Each example's longest affordable prefix, under each budget's configuration
        (``alpha``, horizon): one rollout for every configuration chosen at these budgets."""
        scores = np.empty((budgets.size, X.shape[0]))
        fields = {f: np.zeros(budgets.size) for f in BudgetCosts.__dataclass_fields__}
        for at, own, limits in self._served(X, budgets)[1]:
            steps, score, cost = own.at_budgets(limits)
            scores[at] = score + self.majority_ * EMPTY_SCORE
            fields["rounds"][at] = steps.mean(axis=1)
            fields["n_features"][at] = steps.mean(axis=1)
            fields["mean_example_cost"][at] = cost.mean(axis=1)
            fields["max_example_cost"][at] = cost.max(axis=1, initial=0.0)
            fields["spent"][at] = cost.max(axis=1, initial=0.0)
        return scores, BudgetCosts(**fields)

    def _groups_read(self, X: np.ndarray, budgets: np.ndarray) -> np.ndarray:
        """The groups each example acquired in its longest affordable prefix at each budget
        (the rollouts of ``_scores_and_costs``)."""
        oracle, served = self._served(X, budgets)
        reads = np.zeros((budgets.size, X.shape[0], self._n_groups()), dtype=bool)
        for at, own, limits in served:
            steps, _, _ = own.at_budgets(limits)
            budget, row, step = np.nonzero(np.arange(own.group.shape[1]) < steps[:, :, None])
            reads[at[budget], row, oracle.pool[own.group[row, step]]] = True
        return reads
