"""An algorithm of the config: what to construct, and how the pipeline fits and evaluates it.

An *algorithm* is a config entry, so adding one to the benchmark touches ``config/config.yaml``
only::

    smoothed:
      estimator: BudgetedBoost          # a class of budgetboost, or "package.module:Class"
      params: {criterion: smoothed, max_rounds: 500}

Its keys fall under four concerns, each read in one place: construction (``estimator``,
``params``) and protocol (``unbudgeted``, ``rounds_from_registry``, ``refit_per_budget``,
``adaboost_path``) here, in :class:`AlgorithmSpec`; scheduling (``trials``) in
:class:`~budgetboost.pipeline.plan.Plan`; display and roles (``label``, ``family``, ``role``,
``variant_of``, ``style``) in :class:`~budgetboost.catalogue.Catalogue`. The protocol
keys:

``unbudgeted`` (bool)
    Evaluate once per trial with budget ``inf`` (the whole fitted path) instead of the grid:
    the paper's AdaBoost reference, "run for a number of rounds that gave lowest test error,
    irrespective of budget" (Section 6).
``rounds_from_registry`` (str)
    Name of an estimator parameter set to the dataset's Table 1 AdaBoost rounds (registry
    field ``adaboost_rounds``), e.g. ``max_rounds`` for the reference.
``refit_per_budget`` (bool)
    Fit one estimator per budget, passing ``budget=B``, for an estimator whose training
    depends on the budget and cannot serve the grid from one anytime path.
``adaboost_path`` (bool)
    Fit from the trial's shared plain AdaBoost path (:mod:`budgetboost.pipeline.adaboost_path`).

Otherwise one fit per trial serves the whole grid: an estimator with a ``budget`` parameter
(unless the entry sets it) is fitted with ``budget`` = the grid's largest budget, which only
cuts its path where no budget of the grid can reach (BudgetedBoost's criteria do not depend
on ``B``, so the path is a prefix of the unbudgeted one), then evaluated at every budget.

Seeds never depend on job order: an estimator with a ``random_state`` parameter gets
``seed_from_key("sampling", dataset, cost_model, algorithm, trial)`` (docs/design.md).
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from budgetboost.data.seeds import seed_from_key
from budgetboost.estimators.contract.registry import estimator_class

__all__ = [
    "AlgorithmSpec",
    "canonical",
    "canonical_spec",
    "algorithm_spec",
    "constructor_params",
    "make_estimator",
    "PER_TRIAL_PARAMS",
]

#: The estimator parameters :func:`make_estimator` sets for each trial (a config entry may not
#: set them; ``budget`` it sets only where the entry does not): the one list of them.
PER_TRIAL_PARAMS = (
    "feature_costs",
    "feature_groups",
    "discount_groups",
    "discount_costs",
    "random_state",
    "adaboost_path",
)


@dataclass(frozen=True)
class AlgorithmSpec:
    """A resolved algorithm entry: what to construct and how to evaluate it.

    Attributes
    ----------
    name : str
        The algorithm's name in config and in the shards.
    estimator : str
        A key of :data:`budgetboost.estimators.contract.registry.ESTIMATORS` or a ``"module:Class"``
        path.
    params : dict
        Constructor parameters (``feature_costs``, ``feature_groups``, the discount groups
        and ``random_state`` are set per trial by :func:`make_estimator`).
    unbudgeted : bool
        Evaluate at budget ``inf`` only.
    refit_per_budget : bool
        One fit per budget with ``budget=B`` instead of one anytime fit per trial.
    adaboost_path : bool
        Fit from the trial's shared plain AdaBoost path (``budgetboost.pipeline.adaboost_path``,
        passed as the estimator's ``adaboost_path``) instead of boosting again.
    """

    name: str
    estimator: str
    params: dict[str, Any] = field(default_factory=dict)
    unbudgeted: bool = False
    refit_per_budget: bool = False
    adaboost_path: bool = False


def algorithm_spec(
    name: str, entry: Mapping[str, Any], registry_rounds: int | None = None
) -> AlgorithmSpec:
    """Resolve a config entry into an :class:`AlgorithmSpec`.

    ``rounds_from_registry: <param>`` copies the dataset's Table 1 rounds into that parameter,
    so the reference's parameters (and hence its jobs) depend on the dataset's rounds only.
    """
    if "estimator" not in entry:
        raise ValueError(f"algorithm {name!r}: entry has no 'estimator' key")
    params = dict(entry.get("params") or {})
    rounds_param = entry.get("rounds_from_registry")
    if rounds_param:
        if registry_rounds is None:
            raise ValueError(
                f"algorithm {name!r}: rounds_from_registry={rounds_param!r} "
                "but the dataset's registry entry has no 'adaboost_rounds'"
            )
        params[str(rounds_param)] = int(registry_rounds)
    return AlgorithmSpec(
        name=name,
        estimator=str(entry["estimator"]),
        params=params,
        unbudgeted=bool(entry.get("unbudgeted", False)),
        refit_per_budget=bool(entry.get("refit_per_budget", False)),
        adaboost_path=bool(entry.get("adaboost_path", False)),
    )


def make_estimator(
    spec: AlgorithmSpec,
    *,
    dataset: str,
    cost_model: str,
    trial: int,
    feature_costs: np.ndarray,
    feature_groups: np.ndarray | None,
    budget: float | None = None,
    adaboost_path: Any = None,
    discount_groups: np.ndarray | None = None,
    discount_costs: np.ndarray | None = None,
) -> Any:
    """Construct the estimator of one trial.

    ``feature_costs`` (and ``feature_groups`` when the cost model pays a raw attribute's
    indicators together; ``discount_groups`` and ``discount_costs`` when its tests share
    parts, Turney's discount groups) come from the trial's cost table; ``random_state``,
    when the class has one, from the stable key ``("sampling", dataset, cost_model,
    algorithm, trial)``;
    ``adaboost_path``, for a spec that asks for it, is the trial's shared AdaBoost path.
    """
    cls = estimator_class(spec.estimator)
    try:
        estimator = cls(**spec.params)
    except TypeError as exc:  # an unknown keyword: name the algorithm and the parameter
        raise ValueError(
            f"algorithm {spec.name!r}: bad params for {spec.estimator!r}: {exc}"
        ) from None
    accepted = estimator.get_params(deep=False)
    extra: dict[str, Any] = {"feature_costs": np.asarray(feature_costs, dtype=np.float64)}
    if feature_groups is not None:
        extra["feature_groups"] = np.asarray(feature_groups)
    if discount_groups is not None or discount_costs is not None:
        extra["discount_groups"] = np.asarray(discount_groups)
        extra["discount_costs"] = np.asarray(discount_costs, dtype=np.float64)
    if "random_state" in accepted:
        extra["random_state"] = seed_from_key("sampling", dataset, cost_model, spec.name, trial)
    if spec.adaboost_path:
        if adaboost_path is None:
            raise ValueError(
                f"algorithm {spec.name!r} fits from the shared AdaBoost path, "
                f"but trial {trial} has none"
            )
        extra["adaboost_path"] = adaboost_path
    if budget is not None and "budget" not in spec.params:
        if "budget" not in accepted and spec.refit_per_budget:
            raise ValueError(
                f"algorithm {spec.name!r}: refit_per_budget needs a 'budget' "
                f"parameter, which {spec.estimator!r} does not have"
            )
        if "budget" in accepted:
            extra["budget"] = float(budget)
    missing = sorted(key for key in extra if key not in accepted)
    if missing:
        raise ValueError(
            f"algorithm {spec.name!r}: estimator {spec.estimator!r} has no parameter(s) {missing}"
        )
    return estimator.set_params(**extra)


def canonical(value: Any) -> Any:
    """``value`` with every mapping's keys sorted, recursively: the form in which a job's
    params are given to Snakemake, so that writing a config entry's keys in another order
    is not a change (Snakemake compares params as they are written)."""
    if isinstance(value, Mapping):
        return {str(k): canonical(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [canonical(v) for v in value]
    return value


def canonical_spec(value: Any) -> Any:
    """A cost model's spec in :func:`canonical` form with every number a float: its numbers
    are prices, fractions and noise levels, read as floats by every kind
    (:func:`budgetboost.data.cost_registry.number`), so ``high: 2`` and ``high: 2.0`` are one
    spec and editing one into the other re-runs nothing (it re-ran the cost tables and every
    shard)."""
    value = canonical(value)
    if isinstance(value, dict):
        return {k: canonical_spec(v) for k, v in value.items()}
    if isinstance(value, list):
        return [canonical_spec(v) for v in value]
    if isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def constructor_params(estimator: str) -> set[str]:
    """The constructor parameters of ``estimator`` (none when it cannot be imported)."""
    try:
        cls = estimator_class(estimator)
    except ValueError:
        return set()
    return set(inspect.signature(cls.__init__).parameters) - {"self"}
