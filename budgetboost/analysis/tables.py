"""The registry of a run's results tables: a new table is one function plus one registration.

Each table is a function of the run's validated shard rows and what they are read with (a
:class:`~budgetboost.analysis.results.RunRows`: the catalogue, the baseline cost model, the
split sizes, the pairs whose costs vary) and of the tables registered before it (the
findings read the comparisons), registered with :func:`table`::

    @table("trials", description="how many trials each algorithm ran, per dataset")
    def trials(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
        return run.shards.groupby(["dataset", "algorithm"])["trial"].nunique().reset_index()

The registrations live in :mod:`budgetboost.analysis.results` (the built-in tables are its
five: ``summary``, ``comparisons``, ``budget_to_match``, ``findings``, ``ranks``); everything
downstream reads :data:`TABLES` and names no table by hand: ``aggregate`` computes every
table in registration order, the ``aggregate`` rule declares one output
``results/summary/{name}.parquet`` per table and its script writes each, a figure may read
any (:mod:`budgetboost.figures.registry`), and the report's first page reads them all.
:func:`registered` adds a table for the length of a ``with`` block (a test's, say).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

import pandas as pd

if TYPE_CHECKING:
    from budgetboost.analysis.results import RunRows

__all__ = ["BUILT_IN", "RESERVED", "TABLES", "TableSpec", "compute_tables", "registered", "table"]

#: The signature of a table's function: the run's rows and the tables registered before it.
Compute = Callable[["RunRows", Mapping[str, pd.DataFrame]], pd.DataFrame]

#: Names a table may not take: the other files of ``results/summary/`` (rule ``claims``'s
#: tables), the other named outputs and inputs of the rules that list every table
#: (``aggregate``'s ``markdown``, ``landing``'s ``code``), and what a mapping of tables
#: already answers to as an attribute (:class:`~budgetboost.analysis.results.Results`).
RESERVED = frozenset(
    {"claims", "claims_evidence", "markdown", "code", "get", "items", "keys", "values"}
)


@dataclass(frozen=True)
class TableSpec:
    """One registered results table.

    Attributes
    ----------
    name : str
        The table's name: its file ``results/summary/{name}.parquet``, its key among the
        tables a figure receives and its attribute of ``Results``.
    description : str
        What a row of the table is, in one line.
    compute : callable
        ``compute(run, tables) -> DataFrame``: the table from the run's rows and the tables
        registered before it.
    """

    name: str
    description: str
    compute: Compute

    @property
    def module(self) -> str:
        """The module that defines the table's function."""
        return getattr(self.compute, "__module__", None) or ""

    @property
    def function(self) -> str:
        """The table's function as ``module.qualified name``: what an error message names."""
        return f"{self.module}.{getattr(self.compute, '__qualname__', repr(self.compute))}"


#: The module whose registrations are the built-in tables (they come first).
BUILT_IN = "budgetboost.analysis.results"
_REGISTRY: dict[str, TableSpec] = {}
#: Every registered table by name, in registration order: a read-only view of the registry,
#: so a table registered later (:func:`registered`) is seen by every reader.
TABLES: Mapping[str, TableSpec] = MappingProxyType(_REGISTRY)


def _checked(name: str, description: str) -> None:
    """Raise ``ValueError`` when ``name`` cannot name a table (see :data:`RESERVED`)."""
    if not name.isidentifier() or name.startswith("_"):
        raise ValueError(
            f"table name {name!r} must be an identifier not starting with '_' (it names a "
            "file, a rule's output and an attribute)"
        )
    if name in RESERVED:
        raise ValueError(f"table name {name!r} is taken by the workflow ({sorted(RESERVED)})")
    if not description.strip() or "\n" in description.strip():
        raise ValueError(f"table {name!r}: its description must be one non-empty line")


def _built_in_first(module: str) -> None:
    """Register the built-in tables before one of ``module``, whatever a program imported
    first: the registry's order is that of ``aggregate``'s tables and the rule's outputs."""
    if module != BUILT_IN:
        from budgetboost.analysis import results  # noqa: F401 -- registers the built-in tables


def _add(spec: TableSpec) -> None:
    _built_in_first(spec.module)
    previous = _REGISTRY.get(spec.name)
    if previous is not None and previous.function != spec.function:
        raise ValueError(
            f"table {spec.name!r} is registered twice ({previous.function} and {spec.function})"
        )
    _REGISTRY[spec.name] = spec


def table(name: str, *, description: str) -> Callable[[Compute], Compute]:
    """Register the decorated function as results table ``name`` (see the module
    docstring); the function is returned unchanged.

    Raises
    ------
    ValueError
        When ``name`` is not an identifier, is :data:`RESERVED`, or is already another
        function's table, or ``description`` is not one line.
    """
    _checked(name, description)

    def register(compute: Compute) -> Compute:
        _add(TableSpec(name=name, description=description.strip(), compute=compute))
        return compute

    return register


@contextlib.contextmanager
def registered(name: str, compute: Compute, *, description: str) -> Iterator[TableSpec]:
    """Register ``compute`` as table ``name`` for the length of the ``with`` block, then
    remove it: a table that only a test (or a notebook's experiment) computes, which leaves
    the registry as it found it."""
    _checked(name, description)
    spec = TableSpec(name=name, description=description.strip(), compute=compute)
    _built_in_first(spec.module)
    if name in _REGISTRY:
        raise ValueError(f"table {name!r} is already registered ({_REGISTRY[name].function})")
    _REGISTRY[name] = spec
    try:
        yield spec
    finally:
        _REGISTRY.pop(name, None)


def compute_tables(run: RunRows) -> dict[str, pd.DataFrame]:
    """Every registered table of ``run``, in registration order: each function receives the
    tables computed before it (read-only).

    Raises
    ------
    TypeError
        When a table's function does not return a DataFrame (naming the table).
    """
    done: dict[str, pd.DataFrame] = {}
    for name, spec in list(_REGISTRY.items()):
        result = spec.compute(run, MappingProxyType(done))
        if not isinstance(result, pd.DataFrame):
            raise TypeError(
                f"table {name!r} ({spec.function}) returned "
                f"{type(result).__name__}, not a pandas DataFrame"
            )
        done[name] = result
    return done
