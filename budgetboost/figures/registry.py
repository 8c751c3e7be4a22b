"""The figure registry: every figure the pipeline draws, by name, with its caption.

A figure is one function plus one entry of :data:`FIGURES` (a
:class:`~budgetboost.plugins.Registry`, the one mechanism of every kind of plug-in), written
together with :func:`figure`::

    @figure("figure1", title="1: uniform random costs", category="Reproduction",
            families=("reference", "boosting", "sampling"),
            caption="Test error against budget ...")
    def figure1(tables: Mapping[str, pd.DataFrame], context: FigureContext) -> Figure:
        ...

The workflow imports :data:`DEFAULT_MODULES` and the config's ``figure_modules`` (modules of
its own, e.g. a file beside the Snakefile), and makes one ``plot`` job per registered figure:
``results/figures/{name}.png`` and ``.pdf``, in the report under ``category`` with the
caption. ``tables`` names the results tables the function receives (any registered one,
:data:`TABLES`: ``results/summary/{table}.parquet``); ``families`` says which algorithm
families it draws
(``budgetboost.catalogue.FAMILIES``), so an algorithm added to the config appears in every
figure of its family.

Whether a figure has anything to draw for a run (Figure 2 without real costs does not) is
:meth:`FigureSpec.has_content`: the entry's ``content`` or ``pages`` function if it gives one
(cheap: which panels it would draw), else the figure drawn and its axes read (a placeholder
axes, which says "no results", is marked :data:`PLACEHOLDER_GID`). A figure too large for a
screen is drawn in pages (:mod:`budgetboost.figures.pages`): its ``pages`` function splits
what it draws, and the context's ``page`` says which one to draw.

The workflow plans the figures before any result exists (:func:`planned`): from a stand-in
of the summary table with a row for every (dataset, cost model, algorithm) the plan runs
(:func:`planned_summary`), each entry's ``content`` and ``pages`` functions say whether it
draws anything and on how many pages, so a figure with nothing to draw is not made. They
read only the ``summary`` table's keys and ``trials`` (the stand-in has no errors, and one
budget per cell).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from budgetboost.analysis import results as results_tables
from budgetboost.catalogue import FAMILIES, Catalogue
from budgetboost.figures.pages import page_name
from budgetboost.plugins import Registry

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "DEFAULT_MODULES",
    "FIGURES",
    "PLACEHOLDER_GID",
    "TABLES",
    "FigureContext",
    "FigureSpec",
    "check_modules",
    "figure",
    "load",
    "plan_figures",
    "planned",
    "planned_summary",
    "registry",
    "with_content",
]

#: Modules whose figures every run draws (the paper's figures first).
DEFAULT_MODULES = (
    "budgetboost.figures.curves",
    "budgetboost.figures.field",
    "budgetboost.figures.standings",
    "budgetboost.figures.ranks",
)
#: Results tables a figure may read, as ``results/summary/{table}.parquet``: every table of
#: the results registry (:data:`budgetboost.analysis.tables.TABLES`, a live view: a table
#: registered later is one too), by name in its order; :mod:`budgetboost.analysis.results`
#: registers the built-in ones.
TABLES = results_tables.TABLES
#: The ``gid`` of an axes that only says its figure has nothing to draw.
PLACEHOLDER_GID = "placeholder"


@dataclass(frozen=True)
class FigureContext:
    """What a figure function knows besides the tables.

    Attributes
    ----------
    catalogue : Catalogue
        Labels, families and styles of the run's algorithms.
    local_datasets : tuple of str
        Datasets read from a user's local file (the paper's Webscope set).
    families : tuple of str
        The families the figure's entry declares.
    datasets : tuple of str
        The run's datasets in the registry's order (Table 1's): the order of the panels;
        datasets not named follow alphabetically.
    cost_models : mapping
        Each cost model's kind, its spec's ``model`` (a kind of
        :mod:`budgetboost.data.cost_registry`): figures find cost models by what they are.
    baseline : str or None
        The cost model of the paper's U[0, 2]
        (:data:`budgetboost.pipeline.plan.BASELINE_SPEC`), against which the open questions'
        cost models are drawn.
    field : mapping
        The cost models of the field's regime and each one's pool
        (:meth:`budgetboost.pipeline.plan.Plan.field_pools`), in config order.
    page : int
        Which page of the figure to draw (0: the first; :mod:`budgetboost.figures.pages`).
    """

    catalogue: Catalogue
    local_datasets: tuple[str, ...] = ()
    families: tuple[str, ...] = FAMILIES
    datasets: tuple[str, ...] = ()
    cost_models: Mapping[str, str] = field(default_factory=dict)
    baseline: str | None = None
    field: Mapping[str, str] = field(default_factory=dict)
    page: int = 0

    @classmethod
    def of_run(
        cls,
        catalogue: Catalogue,
        local_datasets: Iterable[str],
        datasets: Iterable[str],
        roles: Mapping[str, object],
    ) -> FigureContext:
        """The context of a run as its jobs' params give it: ``roles`` is the workflow's
        ``cost_model_roles()`` (``baseline``, each cost model's ``kinds`` and the
        ``field``'s pools)."""
        return cls(
            catalogue=catalogue,
            local_datasets=tuple(local_datasets),
            datasets=tuple(datasets),
            cost_models=dict(roles["kinds"]),
            baseline=roles["baseline"],
            field=dict(roles.get("field", {})),
        )

    def algorithms(self, names: Iterable[str] | None = None) -> list[str]:
        """The catalogue's algorithms of the figure's families (among ``names`` if given)."""
        if names is None:
            return self.catalogue.of_family(*self.families)
        present = set(names)
        members = self.catalogue.including(present).of_family(*self.families)
        return [n for n in members if n in present]

    def of_kind(self, *kinds: str) -> list[str]:
        """The run's cost models of these kinds (spec ``model``), in config order."""
        return [name for name, kind in self.cost_models.items() if kind in kinds]

    def panel_order(self, pair: tuple[str, str]) -> tuple:
        """Sort key of a (dataset, cost model) panel: :attr:`datasets` first, in order."""
        order = list(self.datasets)
        return (order.index(pair[0]) if pair[0] in order else len(order), pair)


@dataclass(frozen=True)
class FigureSpec:
    """One registered figure."""

    name: str
    title: str
    caption: str
    category: str
    families: tuple[str, ...]
    tables: tuple[str, ...]
    draw: Callable[[Mapping[str, pd.DataFrame], FigureContext], Figure]
    content: Callable[[Mapping[str, pd.DataFrame], FigureContext], bool] | None = None
    pages: Callable[[Mapping[str, pd.DataFrame], FigureContext], list[list]] | None = None

    def has_content(self, tables: Mapping[str, pd.DataFrame], context: FigureContext) -> bool:
        """Whether the figure draws anything from ``tables`` (the run's results tables, those
        of ``tables`` at least) rather than only saying it has no results.

        The entry's ``content`` function answers if it has one, else its ``pages`` function
        (content: a page at least); otherwise the figure is drawn and has content if one of
        its axes is not a placeholder (:data:`PLACEHOLDER_GID`). A report lists only the
        figures that have content.
        """
        context = replace(context, families=self.families)
        mine = {table: tables[table] for table in self.tables if table in tables}
        if self.content is not None:
            return bool(self.content(mine, context))
        if self.pages is not None:
            return bool(self.pages(mine, context))
        fig = self.draw(mine, context)
        return any(ax.get_gid() != PLACEHOLDER_GID for ax in fig.axes)

    def page_count(self, tables: Mapping[str, pd.DataFrame], context: FigureContext) -> int:
        """On how many pages the figure draws ``tables`` (one without a ``pages`` function)."""
        if self.pages is None:
            return 1
        context = replace(context, families=self.families)
        mine = {table: tables[table] for table in self.tables if table in tables}
        return max(1, len(self.pages(mine, context)))

    @property
    def module(self) -> str:
        """The module that defines the figure (its source is the plot job's code input)."""
        return self.draw.__module__

    def input_tables(self, results: str = "results") -> dict[str, str]:
        """The results tables the figure reads: ``{table: <results>/summary/{table}.parquet}``."""
        return {table: f"{results}/summary/{table}.parquet" for table in self.tables}


#: Every figure registered so far in this process, by name (a
#: :class:`~budgetboost.plugins.Registry`, read as a mapping), in registration order;
#: :func:`figure` registers one.
FIGURES: Registry[FigureSpec] = Registry("figure", origin=lambda spec: spec.draw.__qualname__)
#: What may not appear in a figure's title, category or caption: Snakemake copies them raw
#: into a ``<script>`` element of the HTML report, which ``</`` ends and ``<!--`` upsets.
_UNSAFE_IN_SCRIPT = re.compile(r"</|<!--")


def figure(
    name: str,
    *,
    title: str,
    caption: str,
    category: str,
    families: Iterable[str],
    tables: Iterable[str] = ("summary",),
    content: Callable[[Mapping[str, pd.DataFrame], FigureContext], bool] | None = None,
    pages: Callable[[Mapping[str, pd.DataFrame], FigureContext], list[list]] | None = None,
):
    """Register the decorated function as figure ``name`` (see the module docstring);
    ``content(tables, context)`` says cheaply whether it has anything to draw (optional:
    :meth:`FigureSpec.has_content`); ``pages(tables, context)`` splits what it draws into
    pages (:func:`budgetboost.figures.pages.paginate`), of which the function draws the
    context's ``page``."""
    families, tables = tuple(families), tuple(tables)
    unknown = [f for f in families if f not in FAMILIES] + [t for t in tables if t not in TABLES]
    if unknown:
        raise ValueError(f"figure {name!r}: unknown families or tables {unknown}")
    if not name.isidentifier():
        raise ValueError(f"figure name {name!r} must be an identifier (it names files)")
    for field_name, text in (("title", title), ("category", category), ("caption", caption)):
        if _UNSAFE_IN_SCRIPT.search(text):
            raise ValueError(
                f"figure {name!r}: its {field_name} holds '</' or '<!--', which would end the "
                "HTML report's script that Snakemake copies it into"
            )

    def register(draw):
        spec = FigureSpec(
            name=name,
            title=title,
            caption=caption.strip(),
            category=category,
            families=families,
            tables=tables,
            draw=draw,
            content=content,
            pages=pages,
        )
        FIGURES.register(spec, name=name)
        return draw

    return register


def load(modules: Iterable[str] = ()) -> dict[str, FigureSpec]:
    """Import :data:`DEFAULT_MODULES` and ``modules``; return the figures they register.

    Only figures of the imported modules are returned: module by module in that order (the
    paper's figures first), each module's in definition order, whatever was imported before.
    """
    wanted = [*DEFAULT_MODULES, *[m for m in modules if m not in DEFAULT_MODULES]]
    for module in wanted:
        importlib.import_module(module)
    return {
        name: spec for module in wanted for name, spec in FIGURES.items() if spec.module == module
    }


def check_modules(modules: Iterable[str]) -> str | None:
    """Why the config's ``figure_modules`` cannot be loaded, as one line naming the config
    path (``None`` when every module imports and registers its figures)."""
    for module in modules:
        try:
            figures = load([module])
        except ImportError as exc:
            return f"config figure_modules: cannot import {module!r} ({exc})"
        except ValueError as exc:
            return f"config figure_modules: {module!r}: {exc}"
        if module not in DEFAULT_MODULES and not any(
            spec.module == module for spec in figures.values()
        ):
            return (
                f"config figure_modules: {module!r} registers no figure (a figure module "
                "defines functions decorated with budgetboost.figures.registry.figure)"
            )
    return None


def with_content(
    specs: Mapping[str, FigureSpec],
    tables: Mapping[str, pd.DataFrame],
    context: FigureContext,
) -> list[str]:
    """The names of ``specs`` that draw something from the run's ``tables`` (every table of
    :data:`TABLES`), in order: the figures a report's first page points to
    (:meth:`FigureSpec.has_content`; an empty panel says "no results" and is not listed)."""
    return [name for name, spec in specs.items() if spec.has_content(tables, context)]


def registry() -> dict[str, FigureSpec]:
    """Every figure registered so far in this process (a copy of :data:`FIGURES`)."""
    return dict(FIGURES)


#: The summary table's columns a figure's ``content`` and ``pages`` functions may read when
#: the workflow plans (:func:`planned_summary`).
PLANNED_COLUMNS = ("dataset", "cost_model", "algorithm", "budget", "trials", "nodes_mean")


def planned_summary(cells: Iterable[tuple[str, str, str, Iterable[float], int]]) -> pd.DataFrame:
    """A stand-in of the summary table of a run not yet made: one row per (dataset, cost
    model, algorithm) of ``cells`` (``(dataset, cost model, algorithm, budgets, trials)``,
    the plan's experiments) at its largest budget (``inf`` for the unbudgeted reference),
    with its trials, NaN errors and one node (a tree's panel is drawn where its nodes are
    positive). What a figure draws and on how many pages depends on which cells ran, not on
    their budgets: one row each keeps planning the suite's figures to a fraction of a
    second."""
    import numpy as np
    import pandas as pd

    rows = [
        (dataset, cost_model, algorithm, max(float(b) for b in budgets), int(trials))
        for dataset, cost_model, algorithm, budgets, trials in cells
    ]
    frame = pd.DataFrame(rows, columns=["dataset", "cost_model", "algorithm", "budget", "trials"])
    return frame.assign(nodes_mean=1.0, error_mean=np.nan, ci_half=np.nan)


def planned(
    specs: Mapping[str, FigureSpec], summary: pd.DataFrame, context: FigureContext
) -> dict[str, tuple[str, int]]:
    """The figure files a run makes, before it runs: ``{file name: (figure, page)}`` (the
    name without suffix, :func:`budgetboost.figures.pages.page_name`), in the registry's
    order, from ``summary`` (:func:`planned_summary`).

    A figure whose ``content`` or ``pages`` function finds nothing to draw in it is left
    out (Figure 2 in a run without real costs made a PNG saying "no results"); one too large
    for a screen gets a file per page. A figure without those functions, or whose functions
    read a table other than the summary, is planned on one page: only its results can say.
    """
    out: dict[str, tuple[str, int]] = {}
    for name, spec in specs.items():
        tables = {"summary": summary}
        try:
            if (spec.content or spec.pages) and not spec.has_content(tables, context):
                continue
        except KeyError:  # it reads another table: only its results can say
            pass
        try:
            count = spec.page_count(tables, context)
        except KeyError:
            count = 1
        out.update({page_name(name, k): (name, k) for k in range(count)})
    return out


def plan_figures(
    specs: Mapping[str, FigureSpec], plan, catalogue: Catalogue
) -> dict[str, tuple[str, int]]:
    """:func:`planned` for a :class:`budgetboost.pipeline.plan.Plan` (its experiments, their
    budgets and trials, datasets and cost models) and the run's ``catalogue``: the figure
    files the workflow makes."""
    cells = (
        (d, c, a, plan.block_budgets(d, c, a), plan.run_trials(d, c, a))
        for d, c, a in plan.experiments()
    )
    context = FigureContext.of_run(
        catalogue,
        plan.local_datasets(),
        plan.dataset_order(),
        {
            "baseline": plan.baseline_cost_model(),
            "kinds": plan.cost_model_kinds(),
            "field": plan.field_pools(),
        },
    )
    return planned(specs, planned_summary(cells), context)
