"""The registry of a run's results tables: a new table is one function plus one registration.

Each table is a function of the run's validated shard rows and what they are read with (a
:class:`RunRows`: the catalogue, the baseline cost model, the split sizes, the pairs whose
costs vary) and of the tables registered before it that it names in ``reads`` (the findings
read the comparisons), registered with :func:`table` in :data:`TABLES` (a
:class:`~budgetboost.plugins.Registry`, the one mechanism of every kind of plug-in)::

    @table("trials", description="how many trials each algorithm ran", reads=("summary",))
    def trials(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
        rows = tables["summary"].groupby("algorithm").size().rename("summary_rows")
        trials = run.shards.groupby("algorithm")["trial"].nunique()
        return pd.concat([trials, rows], axis=1).reset_index()

A table receives the tables it reads and no other, so :func:`compute_tables` can compute
tables side by side, each as soon as those it reads are done (the ``aggregate`` job: one
process per thread).

The registrations live in :mod:`budgetboost.analysis.results` (its docstring lists the
package's tables); everything downstream reads :data:`TABLES` and names no table by hand:
``aggregate`` computes every table, the ``aggregate`` rule declares one output
``results/summary/{name}.parquet`` per table and its script writes each, a figure may read
any (:mod:`budgetboost.figures.registry`), and the report's first page reads them all.
:func:`registered` adds a table for the length of a ``with`` block (a test's, say). Readers
take :data:`TABLES` from :mod:`~budgetboost.analysis.results`, whose import registers the
package's tables; they come first, whatever was imported first, and the others follow in
the order they were registered.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from functools import cached_property
from multiprocessing.connection import Connection, wait
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd

from budgetboost.analysis import findings as findings_
from budgetboost.analysis.binding import Prices, band_binds, binding
from budgetboost.analysis.claims import CLAIM_BANDS
from budgetboost.analysis.paired import band_means
from budgetboost.analysis.vocabulary import FINDING_BANDS
from budgetboost.catalogue import Catalogue
from budgetboost.data.splits import SplitSizes
from budgetboost.plugins import Registry
from budgetboost.processes import end_with

__all__ = [
    "BUILT_IN",
    "RESERVED",
    "TABLES",
    "RunRows",
    "TableSpec",
    "compute_tables",
    "registered",
    "table",
]

#: The signature of a table's function: the run's rows and the tables it reads.
Compute = Callable[["RunRows", Mapping[str, pd.DataFrame]], pd.DataFrame]

#: Names a table may not take: the other files of ``results/summary/`` (rule ``claims``'s
#: tables), the other named outputs and inputs of the rules that list every table
#: (``aggregate``'s ``markdown``, ``landing``'s ``code``), and what a mapping of tables
#: already answers to as an attribute (:class:`~budgetboost.analysis.results.Results`).
RESERVED = frozenset(
    {"claims", "claims_evidence", "markdown", "code", "get", "items", "keys", "values"}
)


@dataclass(frozen=True, eq=False)
class RunRows:
    """What every results table is computed from: a run's validated shard rows and what they
    are read with, plus the views of them that several tables share (computed once).

    Attributes
    ----------
    shards : DataFrame
        The validated shard rows (:func:`budgetboost.analysis.summary.read_shards`).
    catalogue : Catalogue
        Labels, families and roles of the run's algorithms (every algorithm of ``shards``).
    baseline : str or None
        The cost model of the paper's U[0, 2]
        (:meth:`budgetboost.pipeline.plan.Plan.baseline_cost_model`), or ``None``.
    sizes : mapping of str to SplitSizes
        Each dataset's training, test and pool rows
        (:func:`budgetboost.data.splits.read_sizes`), which the paired tests account for.
    varied : set of (str, str) or None
        The (dataset, cost model) pairs whose costs vary
        (:func:`budgetboost.data.costs.varied_pairs`; ``None``: all), to which the claims
        about varied costs are restricted.
    field : mapping of str to str
        The cost models of the field's regime and each one's pool
        (:meth:`budgetboost.pipeline.plan.Plan.field_pools`); empty: the field's question is
        asked on the paper's experiments.
    prices : mapping of (str, str) to Prices
        Each (dataset, cost model)'s prices per trial
        (:class:`budgetboost.analysis.binding.Prices`), from which the binding table says where
        budgets bind; empty: no such table rows.
    tests : mapping of str to mapping of int to ndarray
        Each dataset's test rows per trial (``{dataset: {trial: rows}}``): with the shards'
        rows' losses, the paired tests bound the trials' correlation from them
        (:func:`budgetboost.analysis.paired.compare`); empty: from the sizes.
    """

    shards: pd.DataFrame
    catalogue: Catalogue
    baseline: str | None
    sizes: Mapping[str, SplitSizes]
    varied: set[tuple[str, str]] | None = None
    field: Mapping[str, str] = dataclass_field(default_factory=dict)
    prices: Mapping[tuple[str, str], Prices] = dataclass_field(default_factory=dict)
    tests: Mapping[str, Mapping[int, np.ndarray]] = dataclass_field(default_factory=dict)

    @cached_property
    def experiments(self) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...]]:
        """The paper's experiments and the open questions' (dataset, cost model) pairs
        (:func:`budgetboost.analysis.findings.experiment_pairs`)."""
        return findings_.experiment_pairs(
            self.shards, self.catalogue, self.baseline, field=self.field
        )

    @cached_property
    def paper_regime(self) -> tuple[tuple[str, str], ...]:
        """The (dataset, cost model) pairs of the paper's regime, which the claims read: the
        paper's experiments outside the field's regime (the first of :attr:`experiments`)."""
        return self.experiments[0]

    @cached_property
    def binding(self) -> pd.DataFrame:
        """Where each budget binds (:func:`budgetboost.analysis.binding.binding` of
        :attr:`prices` at each (dataset, cost model)'s grid)."""
        finite = self.shards[np.isfinite(self.shards["budget"])]
        grids = {
            (d, c): np.unique(part["budget"].to_numpy())
            for (d, c), part in finite.groupby(["dataset", "cost_model"], sort=True)
        }
        return binding(self.prices, grids)

    @cached_property
    def binds(self) -> frozenset[tuple[str, str, str]]:
        """The (dataset, cost model, band) triples where the band binds (its largest budget
        does: :func:`budgetboost.analysis.binding.band_binds`), for the findings' bands."""
        if self.binding.empty:
            return frozenset()
        found = pd.concat([band_binds(self.binding, b) for b in FINDING_BANDS])
        found = found[found["binds"]]
        return frozenset(zip(found["dataset"], found["cost_model"], found["band"], strict=True))

    @cached_property
    def field_regime(self) -> tuple[tuple[str, str], ...]:
        """The (dataset, cost model) pairs of the field's regime
        (:func:`budgetboost.analysis.findings.field_pairs`)."""
        return findings_.field_pairs(self.shards, self.field)

    @cached_property
    def means(self) -> pd.DataFrame:
        """Each trial's error averaged over each claim band
        (:func:`~budgetboost.analysis.paired.band_means`): what the comparisons and the ranks
        read."""
        return band_means(self.shards, CLAIM_BANDS)

    @cached_property
    def in_paper(self) -> np.ndarray:
        """Which rows of :attr:`means` belong to the paper's experiments."""
        paper = self.experiments[0]
        if not paper:
            return pd.Series(False, index=self.means.index).to_numpy()
        pairs = pd.MultiIndex.from_frame(self.means[["dataset", "cost_model"]])
        return pairs.isin(pd.MultiIndex.from_tuples(paper))

    @cached_property
    def budgeted(self) -> list[str]:
        """The budgeted algorithms of the paper's experiments, in catalogue order (all that
        ran there but the unbudgeted reference)."""
        reference = self.catalogue.with_role("reference")
        ran = self.catalogue.sort(self.means.loc[self.in_paper, "algorithm"])
        return [a for a in ran if a != reference]


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
        it reads.
    reads : tuple of str
        The tables, registered before it, that ``compute`` reads (``tables`` holds these
        and no other).
    """

    name: str
    description: str
    compute: Compute
    reads: tuple[str, ...] = ()

    @property
    def module(self) -> str:
        """The module that defines the table's function."""
        return getattr(self.compute, "__module__", None) or ""

    @property
    def function(self) -> str:
        """The table's function as ``module.qualified name``: what an error message names."""
        return f"{self.module}.{getattr(self.compute, '__qualname__', repr(self.compute))}"


#: The module whose registrations are the package's tables: they come first.
BUILT_IN = "budgetboost.analysis.results"


def _checked(name: str, description: str, reads: tuple[str, ...] = ()) -> None:
    """Raise ``ValueError`` when ``name`` cannot name a table (see :data:`RESERVED`) or it
    reads a table not registered (before it)."""
    if not name.isidentifier() or name.startswith("_"):
        raise ValueError(
            f"table name {name!r} must be an identifier not starting with '_' (it names a "
            "file, a rule's output and an attribute)"
        )
    if name in RESERVED:
        raise ValueError(f"table name {name!r} is taken by the workflow ({sorted(RESERVED)})")
    if not description.strip() or "\n" in description.strip():
        raise ValueError(f"table {name!r}: its description must be one non-empty line")
    unknown = reads if isinstance(reads, str) else [r for r in reads if r not in TABLES]
    if unknown:
        raise ValueError(
            f"table {name!r} reads {unknown or reads!r}: reads= names tables registered "
            f"before it, as a tuple (registered: {list(TABLES)})"
        )


#: Every registered table by name (a :class:`~budgetboost.plugins.Registry`, read as a
#: mapping): the package's tables (:data:`BUILT_IN`) first, each part in registration order,
#: whatever a program imported first (the order of ``aggregate``'s tables and of the rule's
#: outputs). A live view: a table registered later (:func:`registered`) is seen by every
#: reader.
TABLES: Registry[TableSpec] = Registry(
    "results table",
    origin=lambda spec: spec.function,
    check=lambda name, spec: _checked(name, spec.description),
    order=lambda name, spec: spec.module != BUILT_IN,
)


def table(
    name: str, *, description: str, reads: tuple[str, ...] = ()
) -> Callable[[Compute], Compute]:
    """Register the decorated function as results table ``name`` (see the module
    docstring), reading the tables ``reads``; the function is returned unchanged.

    Raises
    ------
    ValueError
        When ``name`` is not an identifier, is :data:`RESERVED`, or is already another
        function's table, ``description`` is not one line, or a table of ``reads`` is not
        registered.
    """
    _checked(name, description, reads)

    def register(compute: Compute) -> Compute:
        spec = TableSpec(name, description.strip(), compute, tuple(reads))
        TABLES.register(spec, name=name)
        return compute

    return register


@contextlib.contextmanager
def registered(
    name: str, compute: Compute, *, description: str, reads: tuple[str, ...] = ()
) -> Iterator[TableSpec]:
    """Register ``compute`` as table ``name`` (reading ``reads``) for the length of the
    ``with`` block, then remove it: a table that only a test (or a notebook's experiment)
    computes, which leaves the registry as it found it."""
    _checked(name, description, reads)
    spec = TableSpec(name, description.strip(), compute, tuple(reads))
    with TABLES.registered(spec, name=name):
        yield spec


def compute_tables(run: RunRows, workers: int = 1) -> dict[str, pd.DataFrame]:
    """Every registered table of ``run``, in registration order: each function receives the
    tables it reads (read-only).

    With ``workers`` > 1 (and ``fork``: the workers inherit ``run`` and the registry), the
    tables are computed in that many processes, each as soon as the tables it reads are
    done. Each table is the same function of the same inputs wherever it runs, so the
    tables do not depend on ``workers``.

    Raises
    ------
    TypeError
        When a table's function does not return a DataFrame (naming the table).
    """
    specs = dict(TABLES.items())
    if workers <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        done: dict[str, pd.DataFrame] = {}
        for name in specs:
            done[name] = _computed(run, name, _read(done, specs[name]))
        return done
    return _in_processes(run, specs, workers)


def _in_processes(run: RunRows, specs: Mapping[str, TableSpec], workers: int) -> dict:
    """:func:`compute_tables` in ``workers`` forked processes (:func:`_serve`), each given a
    table whose reads are done as soon as it is free. The processes end with this function,
    whatever ends it (an error, a job's time limit), or with this process (:func:`_serve`);
    one that dies (killed, out of memory) fails the computation, naming its table."""
    context = multiprocessing.get_context("fork")
    _HELD[:] = [run]  # inherited by the forks
    idle: list[tuple[Any, Connection]] = []
    busy: dict[Connection, tuple[Any, str]] = {}
    done: dict[str, pd.DataFrame] = {}
    try:
        for _ in range(workers):
            here, there = context.Pipe()
            process = context.Process(target=_serve, args=(there,), daemon=True)
            process.start()
            there.close()
            idle.append((process, here))
        while len(done) < len(specs):
            started = {name for _, name in busy.values()}
            for name, spec in specs.items():
                ready = all(read in done for read in spec.reads)
                if idle and name not in done and name not in started and ready:
                    process, connection = idle.pop()
                    connection.send((name, _read(done, spec)))
                    busy[connection] = (process, name)
                    started.add(name)
            for ready in wait(list(busy)):  # a result, or the end of a process that died
                process, name = busy.pop(ready)
                idle.append((process, ready))
                try:
                    failed, result = ready.recv()
                except EOFError:
                    process.join()
                    raise RuntimeError(
                        f"the process computing table {name!r} died (exit code "
                        f"{process.exitcode}: killed, or out of memory)"
                    ) from None
                if failed:
                    raise result
                done[name] = result
    finally:
        for process, _ in [*idle, *busy.values()]:
            process.terminate()
            process.join()
        _HELD.clear()
    return {name: done[name] for name in specs}


def _read(done: Mapping[str, pd.DataFrame], spec: TableSpec) -> dict[str, pd.DataFrame]:
    """The tables ``spec`` reads, of those done."""
    return {read: done[read] for read in spec.reads}


def _computed(run: RunRows, name: str, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Table ``name`` of ``run`` from the tables it reads, checked to be a DataFrame."""
    spec = TABLES[name]
    result = spec.compute(run, _Reads(name, tables))
    if not isinstance(result, pd.DataFrame):
        raise TypeError(
            f"table {name!r} ({spec.function}) returned "
            f"{type(result).__name__}, not a pandas DataFrame"
        )
    return result


class _Reads(Mapping[str, pd.DataFrame]):
    """The tables a table's function receives (read-only): those it declares it reads; any
    other is refused with the registration to mend."""

    def __init__(self, name: str, tables: Mapping[str, pd.DataFrame]) -> None:
        self._name, self._tables = name, MappingProxyType(dict(tables))

    def __getitem__(self, key: str) -> pd.DataFrame:
        if key not in self._tables:
            raise KeyError(
                f"table {self._name!r} reads table {key!r} but does not declare it: register "
                f"it with reads=(..., {key!r}) (it declares {tuple(self._tables)})"
            )
        return self._tables[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)


#: The run the workers of :func:`_in_processes` compute tables of (inherited by ``fork``).
_HELD: list[RunRows] = []


def _serve(connection: Connection) -> None:
    """A worker: compute the tables it is sent (``(name, tables read)``), send back
    ``(failed, table or exception)``; end when the connection closes or the process that
    started it ends (killed, say)."""
    end_with(os.getppid())
    while True:
        try:
            name, tables = connection.recv()
        except EOFError:
            return
        try:
            connection.send((False, _computed(_HELD[0], name, tables)))
        except Exception as exc:  # noqa: BLE001 - sent to the caller, who raises it
            try:
                connection.send((True, exc))
            except Exception:  # noqa: BLE001 - an exception that does not pickle
                connection.send((True, RuntimeError(f"{type(exc).__name__}: {exc}")))
