"""The estimators by the short names a config may give them, found in their files.

A config entry's ``estimator`` is a short name (:data:`ESTIMATORS`) or a
``"package.module:Class"`` path (an estimator of the user's own, a
:class:`~budgetboost.BudgetedEstimator`). The short names are not a hand-kept list: every
public class of a public module in a room of :mod:`budgetboost.estimators` (a folder beside
``contract``) that derives from :class:`~budgetboost.BudgetedEstimator`, directly or through
other classes of those rooms, is one, named as its class. A new estimator of the package is
therefore one file (and a config entry naming it). The rooms' sources are read as text, not
imported (:func:`_discover`, about 8 ms), so the peers' libraries (LightGBM, CatBoost, pystreed)
load only where a peer runs.
"""

from __future__ import annotations

import functools
import importlib
import re
from pathlib import Path

__all__ = ["ESTIMATORS", "estimator_class", "estimator_module"]

#: The rooms' root: budgetboost/estimators.
_ROOT = Path(__file__).resolve().parents[1]
#: The bases every estimator derives from (the contract's).
_CONTRACT_BASES = frozenset({"BudgetedEstimator", "TunedEstimator"})
#: A class statement: its name and the text between its parentheses.
_CLASS = re.compile(r"^class\s+(\w+)\s*\(([^)]*)\)\s*:", re.MULTILINE)


def _bases(text: str) -> list[str]:
    """The names of the bases in a class statement's parentheses (``a.B`` -> ``B``;
    keywords such as ``metaclass=`` left out)."""
    names = []
    for part in text.split(","):
        part = part.strip()
        if part and "=" not in part:
            names.append(part.split("[")[0].rsplit(".", 1)[-1])
    return names


@functools.cache
def _discover() -> dict[str, str]:
    """``{class name: "module:Class"}`` of the rooms' estimators (see the module's docstring).

    Raises
    ------
    ValueError
        If two rooms' modules define an estimator of the same name (a short name must say
        which).
    """
    package = _ROOT.parent.name
    classes: dict[str, tuple[str, list[str], bool]] = {}  # name -> (module, bases, public)
    for path in sorted(_ROOT.glob("*/*.py")):
        room = path.parent.name
        if room == "contract" or room.startswith((".", "_")):
            continue
        module = f"{package}.{_ROOT.name}.{room}.{path.stem}"
        public_module = not path.stem.startswith("_")
        for match in _CLASS.finditer(path.read_text(encoding="utf-8")):
            name, bases = match[1], _bases(match[2])
            public = public_module and not name.startswith("_")
            if public and name in classes and classes[name][2]:
                raise ValueError(
                    f"two estimators are named {name!r} ({classes[name][0]} and {module}): "
                    "rename one, a short name must say which"
                )
            if public or name not in classes:
                classes[name] = (module, bases, public)

    @functools.cache
    def derives(name: str) -> bool:
        if name not in classes:
            return False
        return any(b in _CONTRACT_BASES or derives(b) for b in classes[name][1])

    return {
        name: f"{module}:{name}"
        for name, (module, _, public) in sorted(classes.items())
        if public and derives(name)
    }


#: The package's estimators: short name -> ``"module:Class"`` (found in their files).
ESTIMATORS: dict[str, str] = dict(_discover())


def estimator_module(estimator: str) -> str:
    """The module that defines ``estimator`` (a key of :data:`ESTIMATORS` or ``module:Class``)."""
    return _discover().get(estimator, estimator).partition(":")[0]


def estimator_class(estimator: str) -> type:
    """Import the class named by ``estimator`` (a key of :data:`ESTIMATORS` or ``module:Class``).

    Raises
    ------
    ValueError
        Naming ``estimator`` when it is neither, or its module or class cannot be imported.
    """
    target = _discover().get(estimator, estimator)
    module_name, sep, class_name = target.partition(":")
    if not sep or not module_name or not class_name:
        raise ValueError(
            f"estimator {estimator!r} is neither one of {sorted(_discover())} "
            "nor a 'module:Class' path"
        )
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # noqa: BLE001 - a user's module may fail in any way on import
        detail = f"{type(exc).__name__}: {exc}".splitlines()[0]
        raise ValueError(
            f"estimator {estimator!r}: cannot import module {module_name!r} ({detail})"
        ) from exc
    try:
        return getattr(module, class_name)
    except AttributeError:
        raise ValueError(
            f"estimator {estimator!r}: module {module_name!r} has no {class_name!r}"
        ) from None
