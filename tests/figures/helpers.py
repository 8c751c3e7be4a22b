"""What the figure tests share besides their fixtures (conftest.py): Table 1's datasets, the
context a figure gets from the plot rule, and readers of what a figure drew."""

from __future__ import annotations

from helpers import REPO
from synthetic_results import sizes_for

from budgetboost.analysis.results import aggregate
from budgetboost.catalogue import Catalogue
from budgetboost.data.registry import load_registry, paper_datasets
from budgetboost.figures import panels as curve_panels
from budgetboost.figures import registry as figures

#: Table 1's datasets, in its order (the registry's)
PAPER_DATASETS = paper_datasets(load_registry(REPO / "config" / "datasets.yaml"))


def results_tables(shards, catalogue=None) -> dict:
    """Every results table a registered figure may read (figures.TABLES)."""
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    results = aggregate(shards, catalogue, BASELINE, sizes_for(shards))
    return {table: getattr(results, table) for table in figures.TABLES}


def texts(fig) -> set[str]:
    """Every piece of text a figure shows (titles, labels, ticks, legends, annotations)."""
    return {t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))}


#: what the cost models of the synthetic results are (their spec's model), as a run says it
KINDS = {
    "uniform_0_2": "uniform_random",
    "turney": "real",
    "webscope_costs": "uniform_random",
    "adversarial": "correlated",
    "few_cheap": "few_cheap",
}


BASELINE = "uniform_0_2"


def make_context(catalogue, families, local=()):
    """A figure's context as the plot rule gives it (Table 1's panel order, the kinds)."""
    return figures.FigureContext(
        catalogue,
        tuple(local),
        tuple(families),
        datasets=PAPER_DATASETS,
        cost_models=KINDS,
        baseline=BASELINE,
    )


CATALOGUE = Catalogue.default()


CONTEXT = make_context(CATALOGUE, curve_panels.CURVE_FAMILIES)


LOCAL = make_context(CATALOGUE, curve_panels.CURVE_FAMILIES, ["webscope"])


TREES = make_context(CATALOGUE, ("reference", "tree"))


def label(name: str) -> str:
    return CATALOGUE.label(name)


def main_axes(fig):
    """Panels (axes with a title), without the twin axes that carry AdaBoostRS."""
    return [ax for ax in fig.axes if ax.get_title()]


def curves(ax) -> dict[str, object]:
    """The curves of an axes by legend label, each with its ``lines`` (the line drawn, as an
    errorbar container holds them; the interval is a band of its own)."""
    from types import SimpleNamespace

    from budgetboost.figures.panels import CURVE_GID

    return {
        line.get_label(): SimpleNamespace(lines=[line])
        for line in ax.get_lines()
        if line.get_gid() == CURVE_GID
    }
