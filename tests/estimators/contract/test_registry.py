"""The estimators' registry (budgetboost.estimators.contract.registry): a short name or a module
path gives the class, what cannot is named; every public estimator class of the package is
registered (or a declared part of another), found by importing every module of
budgetboost.estimators; a class registered from outside the package resolves by its name."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
import textwrap

import pytest

import budgetboost.estimators
from budgetboost import AdaBoostRS, BudgetedBoost, BudgetedEstimator
from budgetboost.estimators.contract import registry
from budgetboost.pipeline.plan import algorithm_catalogue
from budgetboost.plugins import DuplicateNameError


def test_estimator_class_short_name_and_module_path():
    assert registry.estimator_class("BudgetedBoost") is BudgetedBoost
    assert (
        registry.estimator_class("budgetboost.estimators.boosting.sampling:AdaBoostRS")
        is AdaBoostRS
    )


@pytest.mark.parametrize(
    "name,message",
    [
        ("Boost", "neither"),
        ("budgetboost.nowhere:X", "cannot import"),
        ("budgetboost.estimators.boosting.booster:Nothing", "has no 'Nothing'"),
    ],
)
def test_estimator_class_errors(name, message):
    with pytest.raises(ValueError, match=message):
        registry.estimator_class(name)


def package_estimators() -> dict[str, type]:
    """``{"module:Class": class}`` of every public subclass of BudgetedEstimator defined in a
    public module of budgetboost.estimators (each module imported: the walk sees what Python
    sees, a base imported under another name or a class made by a function included)."""
    found = {}
    for info in pkgutil.walk_packages(
        budgetboost.estimators.__path__, prefix="budgetboost.estimators."
    ):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        module = importlib.import_module(info.name)
        for name, cls in vars(module).items():
            if (
                isinstance(cls, type)
                and not name.startswith("_")
                and cls.__module__ == module.__name__
                and issubclass(cls, BudgetedEstimator)
                and not inspect.isabstract(cls)
                and not module.__name__.startswith("budgetboost.estimators.contract.")
            ):
                found[f"{module.__name__}:{cls.__qualname__}"] = cls
    return found


def unregistered(found, estimators, parts) -> list[str]:
    """The paths of ``found`` (``{"module:Class": class}``) that ``estimators`` (a registry of
    paths) does not register and ``parts`` does not declare."""
    registered = set(estimators.values())
    return sorted(path for path in found if path not in registered and path not in parts)


def test_every_estimator_of_the_package_is_registered():
    """An estimator class of the package that no registry line names fails here (so does a
    declared part that is gone, or a part that is also registered)."""
    found = package_estimators()
    assert "budgetboost.estimators.boosting.booster:BudgetedBoost" in found  # the walk works
    assert unregistered(found, registry.ESTIMATORS, registry.PARTS) == []
    assert set(registry.PARTS) <= set(found)
    assert not set(registry.PARTS) & set(registry.ESTIMATORS.values())


def test_every_registered_name_resolves_to_its_estimator():
    for name, path in registry.ESTIMATORS.items():
        cls = registry.estimator_class(name)
        assert issubclass(cls, BudgetedEstimator), name
        assert cls.__name__ == name and f"{cls.__module__}:{cls.__qualname__}" == path


def test_an_estimator_class_the_registry_does_not_name_is_reported():
    """The walk's comparison names a class of the package that is not registered: here a
    registry without one of the package's lines, and a class made for the test."""

    class Unlisted(BudgetedEstimator):
        pass

    found = {**package_estimators(), "budgetboost.estimators.trees.extra:Unlisted": Unlisted}
    smaller = {n: p for n, p in registry.ESTIMATORS.items() if n != "BudgetedTree"}
    assert unregistered(found, smaller, registry.PARTS) == [
        "budgetboost.estimators.trees.budgeted_tree:BudgetedTree",
        "budgetboost.estimators.trees.extra:Unlisted",
    ]


def test_an_estimator_outside_the_package_is_one_registration(tmp_path, monkeypatch):
    """A module of the user's own, written outside the package, registers its class with the
    decorator: its short name then resolves (the module is not imported again), and the
    name stays the class's, its label the class's; a second class under a taken name is refused."""
    (tmp_path / "my_estimators.py").write_text(
        textwrap.dedent(
            """
            from budgetboost import BudgetedEstimator
            from budgetboost.estimators.contract.registry import ESTIMATORS

            @ESTIMATORS.register
            class MyStump(BudgetedEstimator):
                label = "My stump"
                family = "other"
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    with registry.ESTIMATORS.restoring():
        module = importlib.import_module("my_estimators")
        assert registry.ESTIMATORS["MyStump"] == "my_estimators:MyStump"
        assert registry.estimator_class("MyStump") is module.MyStump
        assert registry.estimator_module("MyStump") == "my_estimators"
        mine = algorithm_catalogue({"mine": {"estimator": "MyStump"}})["mine"]
        assert (mine.label, mine.family) == ("My stump", "other")  # declared on the class
        with pytest.raises(DuplicateNameError, match="estimator 'MyStump' is registered twice"):
            registry.ESTIMATORS.register(AdaBoostRS, name="MyStump")
    assert "MyStump" not in registry.ESTIMATORS
    sys.modules.pop("my_estimators", None)


def test_a_helper_of_another_estimator_is_not_a_short_name():
    assert "PrunedTree" not in registry.ESTIMATORS
    with pytest.raises(ValueError, match="neither one of"):
        registry.estimator_class("PrunedTree")
