"""One registry mechanism for every kind of plug-in: estimators, results tables, figures and
cost kinds.

A plug-in is an object registered under a name in the :class:`Registry` of its kind; every
reader of that kind (the config checks, the workflow's rules and scripts, the report) asks
the registry and names no plug-in by hand. Registering is explicit, one statement per
plug-in, at the plug-in or in a literal table::

    TABLES = Registry("results table")

    @TABLES.register                    # under its own name (``__name__``)
    def trials(run, tables): ...

    @TABLES.register(name="per_trial")  # under another name
    def trials_per_trial(run, tables): ...

The registries of the package:

- :data:`budgetboost.estimators.contract.registry.ESTIMATORS`: the estimators a config may
  name by a short name (a literal table of ``"module:Class"`` paths, so that resolving a
  name does not import LightGBM, CatBoost or pystreed; a user's class registers with the
  decorator);
- :data:`budgetboost.analysis.tables.TABLES`: the results tables
  (:func:`~budgetboost.analysis.tables.table` registers one with its description);
- :data:`budgetboost.figures.registry.FIGURES`: the figures
  (:func:`~budgetboost.figures.registry.figure` registers one with its caption);
- :data:`budgetboost.data.cost_registry.COST_KINDS`: the kinds of cost model
  (:func:`~budgetboost.data.cost_registry.cost_kind` registers one with its spec keys).

Datasets are data, not code: they are entries of a YAML file (``config/datasets.yaml``, read
by :mod:`budgetboost.data.registry`), which a config may extend with files of its own.

This module imports nothing of the package, so every layer may import it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType
from typing import Any, Generic, TypeVar, overload

__all__ = ["DuplicateNameError", "Registry", "UnknownNameError", "origin"]

T = TypeVar("T")


class UnknownNameError(KeyError):
    """A name that no plug-in of a kind is registered under; its message lists the known
    names. A :class:`KeyError`, so ``name in registry`` and ``registry.get(name)`` work as on
    a mapping."""

    def __str__(self) -> str:
        # KeyError quotes its argument as a key; this is a sentence
        return str(self.args[0]) if self.args else ""


class DuplicateNameError(ValueError):
    """A second, different plug-in registered under a name that is taken."""


def origin(obj: object) -> object:
    """Where ``obj`` was defined, ``"module.QualifiedName"`` (the object itself when it has
    no such name): registering the same definition again (its module imported twice, say)
    is no duplicate."""
    qualname = getattr(obj, "__qualname__", None)
    if qualname is None:
        return obj
    return f"{getattr(obj, '__module__', '')}.{qualname}"


class Registry(Mapping[str, T], Generic[T]):
    """The plug-ins of one kind by name, in registration order; read as a mapping.

    Parameters
    ----------
    kind : str
        What a plug-in of this registry is ("estimator", "results table"): every error
        message names it.
    entries : mapping of str to object, optional
        Plug-ins registered at once, in order (a literal table).
    origin : callable, optional
        ``origin(plug_in)``: what tells two registrations apart. Registering a name again
        with a plug-in of the same origin replaces the entry (a module imported again);
        one of another origin is a :class:`DuplicateNameError`. Default: :func:`origin`.
    check : callable, optional
        ``check(name, plug_in)``: raises ``ValueError`` when the pair may not be registered
        (a name that is not an identifier, a missing description); called on every
        registration.
    order : callable, optional
        ``order(name, plug_in)``: a sort key applied (stably) after every registration,
        so that a part of the registry comes first whatever was imported first (the
        package's results tables before a user's). Default: registration order.

    Notes
    -----
    The registry is read-only as a mapping (``registry[name]``, ``in``, iteration, ``len``);
    :meth:`register`, :meth:`registered` and :meth:`restoring` change it. ``view`` is a
    live read-only :class:`~types.MappingProxyType` of it.
    """

    def __init__(
        self,
        kind: str,
        entries: Mapping[str, T] | None = None,
        *,
        origin: Callable[[T], object] = origin,
        check: Callable[[str, T], None] | None = None,
        order: Callable[[str, T], Any] | None = None,
    ):
        self.kind = kind
        self._origin = origin
        self._check = check
        self._order = order
        self._entries: dict[str, T] = {}
        self.view: Mapping[str, T] = MappingProxyType(self._entries)
        for name, plug_in in (entries or {}).items():
            self.register(plug_in, name=name)

    # ----------------------------------------------------------------- reading
    def __getitem__(self, name: str) -> T:
        try:
            return self._entries[name]
        except (KeyError, TypeError):
            raise UnknownNameError(
                f"unknown {self.kind} {name!r}; the registered ones are {sorted(self._entries)}"
            ) from None

    def __contains__(self, name: object) -> bool:
        try:
            return name in self._entries
        except TypeError:  # an unhashable name is no name of the registry
            return False

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"Registry({self.kind!r}, {list(self._entries)})"

    # ----------------------------------------------------------------- registering
    @overload
    def register(self, plug_in: None = None, *, name: str | None = None) -> Callable[[T], T]: ...

    @overload
    def register(self, plug_in: T, *, name: str | None = None) -> T: ...

    def register(self, plug_in=None, *, name=None):
        """Register ``plug_in`` under ``name`` (default: its ``__name__``) and return it
        unchanged; without ``plug_in``, a decorator that does so (``@registry.register``
        and ``@registry.register(name=...)`` both work).

        Raises
        ------
        DuplicateNameError
            When ``name`` is taken by a plug-in of another origin (naming both).
        ValueError
            When ``plug_in`` has no ``__name__`` and no ``name`` is given, or the
            registry's ``check`` refuses the pair.
        """
        if plug_in is None:
            return lambda obj: self.register(obj, name=name)
        self._add(self._name_of(plug_in, name), plug_in, replace=True)
        return plug_in

    @contextlib.contextmanager
    def registered(self, plug_in: T, *, name: str | None = None) -> Iterator[T]:
        """Register ``plug_in`` for the length of a ``with`` block, then remove it (a
        plug-in only a test or a notebook's experiment uses); the name must be free."""
        key = self._name_of(plug_in, name)
        self._add(key, plug_in, replace=False)
        try:
            yield plug_in
        finally:
            self._entries.pop(key, None)

    @contextlib.contextmanager
    def restoring(self) -> Iterator[Registry[T]]:
        """Leave the registry as it is now when the ``with`` block ends, whatever the block
        registered (a test's plug-ins)."""
        saved = dict(self._entries)
        try:
            yield self
        finally:
            self._entries.clear()
            self._entries.update(saved)

    def _name_of(self, plug_in: T, name: str | None) -> str:
        if name is None:
            name = getattr(plug_in, "__name__", None)
            if name is None:
                raise ValueError(
                    f"a {self.kind} needs a name: {plug_in!r} has no __name__ (register it "
                    "with name=...)"
                )
        if not isinstance(name, str) or not name:
            raise ValueError(f"a {self.kind}'s name must be a non-empty string; got {name!r}")
        return name

    def _add(self, name: str, plug_in: T, *, replace: bool) -> None:
        if self._check is not None:
            self._check(name, plug_in)
        if name in self._entries:
            previous = self._entries[name]
            if not replace:
                raise DuplicateNameError(
                    f"{self.kind} {name!r} is already registered ({self._origin(previous)})"
                )
            if self._origin(previous) != self._origin(plug_in):
                raise DuplicateNameError(
                    f"{self.kind} {name!r} is registered twice "
                    f"({self._origin(previous)} and {self._origin(plug_in)})"
                )
        self._entries[name] = plug_in
        if self._order is not None:
            ordered = sorted(self._entries.items(), key=lambda item: self._order(*item))
            self._entries.clear()
            self._entries.update(ordered)
