"""The estimator contract against scikit-learn's ``BaseEstimator``: where it behaves as
scikit-learn does and where it differs, as ``docs/design.md`` ("Why not scikit-learn's
BaseEstimator") says.

The package does not derive from ``sklearn.base.BaseEstimator`` (importing scikit-learn
costs every train job and every planning about a CPU-second); these tests hold its own
parameters, repr, clone and parameter checks to scikit-learn's, called on the same objects.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import pytest
from sklearn.base import BaseEstimator, clone
from sklearn.utils._param_validation import Interval as SklearnInterval
from sklearn.utils._param_validation import StrOptions, validate_parameter_constraints

from budgetboost import AdaBoostRS, BudgetedBoost, BudgetedTree, InvalidParameterError, TunedBoost
from budgetboost.estimators.contract.params import validate_params

#: Estimators with a few parameters changed from their defaults (lists and arrays among them).
ESTIMATORS = [
    BudgetedBoost(),
    BudgetedBoost(max_rounds=50, criterion="greedy", budget=3.0),
    BudgetedBoost(feature_costs=np.array([1.0, 2.0, 0.5])),
    BudgetedTree(),
    AdaBoostRS(n_rounds=20, random_state=3, feature_groups=[0, 0, 1], cost_weighted=True),
    TunedBoost(),
]


def _equal(a, b) -> bool:
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return np.array_equal(a, b)
    return a == b


def _same_params(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_get_params_are_scikit_learns(estimator):
    for deep in (True, False):
        assert _same_params(
            estimator.get_params(deep=deep), BaseEstimator.get_params(estimator, deep)
        )


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_set_params_sets_what_scikit_learns_sets(estimator):
    ours, theirs = clone(estimator), clone(estimator)
    change = {"budget": 2.5, "feature_costs": [1.0, 1.0, 4.0]}
    assert ours.set_params(**change) is ours
    BaseEstimator.set_params(theirs, **change)
    assert _same_params(ours.get_params(), theirs.get_params())


@pytest.mark.parametrize("name", ["no_such_parameter", "no_such__nested"])
def test_an_unknown_or_nested_name_is_a_value_error_in_both(name):
    """scikit-learn routes ``a__b`` to a nested estimator; the package's estimators hold
    none, so both refuse it as an unknown parameter, with a ValueError."""
    with pytest.raises(InvalidParameterError) as ours:
        BudgetedBoost().set_params(**{name: 1})
    assert isinstance(ours.value, ValueError)
    with pytest.raises(ValueError):
        BaseEstimator.set_params(BudgetedBoost(), **{name: 1})


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_scikit_learns_clone_copies_the_parameters_and_nothing_fitted(estimator):
    copy = clone(estimator)
    assert type(copy) is type(estimator) and copy is not estimator
    assert _same_params(copy.get_params(), estimator.get_params())


def test_a_clone_of_a_fitted_estimator_is_unfitted():
    rng = np.random.default_rng(0)
    X = rng.integers(0, 2, (40, 3)).astype(float)
    y = np.where(X[:, 0] > 0, 1, -1)
    fitted = BudgetedBoost(max_rounds=5).fit(X, y)
    copy = clone(fitted)
    assert hasattr(fitted, "classes_") and not hasattr(copy, "classes_")
    assert copy.get_params() == fitted.get_params()


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=repr)
def test_repr_is_scikit_learns_changed_parameters(estimator):
    assert repr(estimator) == BaseEstimator.__repr__(estimator)


def test_a_long_repr_is_shown_whole_where_scikit_learn_elides_it():
    """The documented difference: scikit-learn cuts a repr beyond 700 characters with
    ``...``; the package shows every changed parameter (an estimator's repr in a log or an
    error names the costs it was given)."""
    estimator = BudgetedBoost(feature_costs=np.arange(400.0))
    ours, theirs = repr(estimator), BaseEstimator.__repr__(estimator)
    assert "..." in theirs and len(theirs) < len(ours)
    assert ours == f"BudgetedBoost(feature_costs={estimator.feature_costs!r})"


def _accepts_ours(constraints: list, value) -> bool:
    try:
        validate_params("Mine", {"p": constraints}, {"p": value}, ["p"])
    except InvalidParameterError:
        return False
    return True


def _accepts_scikit_learns(constraints: list, value) -> bool:
    try:
        validate_parameter_constraints({"p": constraints}, {"p": value}, "Mine")
    except ValueError:
        return False
    return True


VALUES = [3, 0, True, np.int64(3), 3.0, 2.5, "3", "a", None, [1, 2]]
CONSTRAINTS = {
    "[int]": [int],
    "[int, None]": [int, None],
    "[float, str]": [float, str],
    "[Integral]": [Integral],
    "[list]": [list],
    "[sklearn Interval]": [SklearnInterval(Integral, 1, None, closed="left")],
    "[sklearn StrOptions, None]": [StrOptions({"a", "b"}), None],
}


@pytest.mark.parametrize("constraints", CONSTRAINTS.values(), ids=CONSTRAINTS.keys())
def test_plain_types_and_scikit_learns_constraints_accept_what_scikit_learn_accepts(constraints):
    """A constraint written the scikit-learn way (a plain type, ``[int]``, or one of its
    constraint objects) admits exactly the values scikit-learn's own check admits."""
    for value in VALUES:
        assert _accepts_ours(constraints, value) == _accepts_scikit_learns(constraints, value), (
            value
        )


def test_a_refused_value_names_the_constraint_in_scikit_learns_words():
    with pytest.raises(InvalidParameterError) as err:
        validate_params(
            "Mine", {"p": [SklearnInterval(Integral, 1, None, closed="left")]}, {"p": 0}, ["p"]
        )
    assert str(err.value) == "p: must be an int in the range [1, inf); got 0"
    with pytest.raises(InvalidParameterError) as err:
        validate_params("Mine", {"p": [int]}, {"p": 2.5}, ["p"])
    assert str(err.value) == "p: must be an instance of int; got 2.5"


def test_scikit_learns_constraint_names_are_not_read():
    """The documented difference: scikit-learn also reads names (``"boolean"``,
    ``"array-like"``, ``"random_state"``, ...); the package reads none, and says which entry
    to write with its own constraints instead."""
    validate_parameter_constraints({"p": ["boolean"]}, {"p": True}, "Mine")
    with pytest.raises(TypeError, match=r"Mine._parameter_constraints\['p'\] holds 'boolean'"):
        validate_params("Mine", {"p": ["boolean"]}, {"p": True}, ["p"])
