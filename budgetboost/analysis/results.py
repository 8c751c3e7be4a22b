"""Every table of a run's results from its shards, in one call (the ``aggregate`` rule).

The tables are registered here (:func:`budgetboost.analysis.tables.table`), in this order:

- ``summary``: mean error with its interval per (dataset, cost model, algorithm, budget);
- ``comparisons``: every paired comparison row (:func:`budgetboost.analysis.paired.compare`):
  the claims' (questions ``claim 1`` ...), each algorithm against the control (``control``:
  Smoothed, for the outcome grid), and the findings';
- ``budget_to_match``: the budget at which each algorithm reaches the unbudgeted reference
  (a paired non-inferiority test, :mod:`budgetboost.analysis.matching`);
- ``findings``: the rows of the findings' questions (:mod:`budgetboost.analysis.findings`),
  which ``summary.md``, ``claims.md`` and the report's first page read;
- ``field_mean_cost``: the field's comparisons read at matched mean test cost
  (:mod:`budgetboost.analysis.average_cost`), beside the hard cap's in ``findings``;
- ``binding``: where each budget binds (:mod:`budgetboost.analysis.binding`);
- ``leads``: per reading, pool, band and family, on how many datasets it leads, is on par,
  trails or is undecided (:mod:`budgetboost.analysis.leads`);
- ``ranks``: average ranks, Friedman, Nemenyi CD and Holm against the control per band.

A new table is one more function registered with ``@table(...)`` below; :func:`aggregate`,
the ``aggregate`` rule and its script, the figures and the report's first page find it in
:data:`TABLES`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import numpy as np
import pandas as pd

from budgetboost.analysis import findings as findings_
from budgetboost.analysis.average_cost import at_mean_cost
from budgetboost.analysis.bands import BANDS
from budgetboost.analysis.binding import Prices
from budgetboost.analysis.claims import claim_comparisons
from budgetboost.analysis.leads import leads
from budgetboost.analysis.matching import budget_to_match
from budgetboost.analysis.paired import Comparison, band_errors, compare
from budgetboost.analysis.ranks import cd_analysis
from budgetboost.analysis.summary import summarize
from budgetboost.analysis.tables import TABLES, RunRows, compute_tables, table
from budgetboost.analysis.vocabulary import FINDING_BANDS
from budgetboost.catalogue import Catalogue
from budgetboost.data.splits import SplitSizes

__all__ = ["CONTROL_ROLE", "TABLES", "Results", "RunRows", "aggregate", "control_comparisons"]

#: The role of the control every algorithm is compared with (the paper's proposal).
CONTROL_ROLE = "smoothed"


class Results(Mapping[str, pd.DataFrame]):
    """The tables of :func:`aggregate` by name, in the registry's order (:data:`TABLES`);
    each is also an attribute (``results.summary``), as scikit-learn's ``Bunch`` gives a
    dictionary's keys."""

    __slots__ = ("_tables",)

    def __init__(self, tables: Mapping[str, pd.DataFrame]) -> None:
        self._tables = dict(tables)

    def __getitem__(self, name: str) -> pd.DataFrame:
        return self._tables[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def __getattr__(self, name: str) -> pd.DataFrame:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self._tables[name]
        except KeyError:
            raise AttributeError(
                f"no results table {name!r} (the tables: {', '.join(self._tables)})"
            ) from None

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *self._tables]

    def __repr__(self) -> str:
        rows = ", ".join(f"{name}: {len(df)} rows" for name, df in self._tables.items())
        return f"Results({rows})"


def control_comparisons(
    catalogue: Catalogue, algorithms: list[str], pairs: tuple[tuple[str, str], ...]
) -> list[Comparison]:
    """Each budgeted algorithm of the paper's experiments against the control, per band."""
    control = catalogue.with_role(CONTROL_ROLE)
    if control is None:
        return []
    return [
        Comparison("control", a, control, pairs=pairs, bands=BANDS)
        for a in algorithms
        if a != control
    ]


@table(
    "summary",
    description="mean test error and its interval per (dataset, cost model, algorithm, budget)",
)
def summary_table(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Mean error with its interval (:func:`budgetboost.analysis.summary.summarize`)."""
    return summarize(run.shards, catalogue=run.catalogue, sizes=run.sizes)


@table(
    "comparisons",
    description="every paired comparison row: the claims', against the control, the findings'",
)
def comparisons_table(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """Every paired comparison of the run (:func:`budgetboost.analysis.paired.compare`): the
    claims' (on the paper's regime alone, :attr:`RunRows.paper_regime`), each budgeted
    algorithm against the control, and the findings' questions."""
    paper, open_ = run.experiments
    means = run.means
    open_algorithms = (
        run.catalogue.sort(
            means.loc[
                pd.MultiIndex.from_frame(means[["dataset", "cost_model"]]).isin(list(open_)),
                "algorithm",
            ]
        )
        if open_
        else []
    )
    asked = [
        *claim_comparisons(run.catalogue, run.paper_regime, run.varied),
        *control_comparisons(run.catalogue, run.budgeted, paper),
        *findings_.questions(
            run.catalogue,
            paper,
            open_,
            run.baseline,
            open_algorithms,
            field_regime=run.field_regime,
            pools=run.field,
            binding=run.binds,
        ),
    ]
    return compare(means, asked, run.sizes, tests=run.tests)


@table(
    "budget_to_match",
    description="the budget at which each algorithm matches the unbudgeted reference",
)
def budget_to_match_table(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """A paired non-inferiority test per budget (:mod:`budgetboost.analysis.matching`)."""
    return budget_to_match(run.shards, run.sizes, run.catalogue)


@table(
    "findings", description="the comparison rows of the findings' questions", reads=("comparisons",)
)
def findings_table(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The rows of :data:`budgetboost.analysis.findings.QUESTIONS` among the comparisons."""
    comparisons = tables["comparisons"]
    return comparisons[comparisons["question"].isin(findings_.QUESTIONS)].reset_index(drop=True)


@table(
    "field_mean_cost",
    description="the field's comparisons read at matched mean test cost (the error-cost front)",
)
def field_mean_cost_table(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The field's question (:func:`budgetboost.analysis.findings.questions`; with the
    peers' where the field's question is asked on the paper's experiments) with each
    method read at mean test cost equal to each budget of the grid
    (:func:`budgetboost.analysis.average_cost.at_mean_cost`) instead of at the hard cap;
    with the shards' rows' losses and the splits' test rows, the trials' correlation is
    bounded from each test row's loss at the level, as at the hard cap, but for the part
    of the test rows their losses do not show (the mixture's weight, read off the test rows'
    costs: ``unseen_test_part``)."""
    paper, _ = run.experiments
    asked = [
        c
        for c in findings_.questions(
            run.catalogue,
            paper,
            (),
            None,
            field_regime=run.field_regime,
            pools=run.field,
            binding=run.binds,
        )
        if c.question == "field" or (c.question == "peers" and not run.field_regime)
    ]
    if not asked:
        return compare(run.means.iloc[:0], [], run.sizes)
    means = band_errors(at_mean_cost(run.shards), FINDING_BANDS)
    return compare(means, asked, run.sizes, tests=run.tests, unseen_test_part=True)


@table(
    "binding",
    description="per (dataset, cost model, budget): the share of attributes a cheapest-first "
    "buyer reads, and whether the budget binds",
)
def binding_table(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`budgetboost.analysis.binding.binding` of every (dataset, cost model) with
    prices, at the budgets of its grid (:attr:`RunRows.binding`)."""
    return run.binding


@table(
    "leads",
    description="per (reading, pool, band, family): on how many datasets it leads, is on par, "
    "trails or is undecided, also where the band binds",
    reads=("findings", "field_mean_cost", "binding"),
)
def leads_table(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """:func:`budgetboost.analysis.leads.leads` of the field's per-dataset rows, at the hard
    cap (``findings``) and at mean cost (``field_mean_cost``)."""
    readings = {"cap": tables["findings"], "mean": tables["field_mean_cost"]}
    return leads(readings, run.catalogue, tables["binding"])


@table(
    "ranks",
    description="average ranks, Friedman, Nemenyi CD and Holm against the control per band",
)
def ranks_table(run: RunRows, tables: Mapping[str, pd.DataFrame]) -> pd.DataFrame:
    """The budgeted algorithms ranked over the paper's experiments per band
    (:func:`budgetboost.analysis.ranks.cd_analysis`)."""
    means = run.means
    ranked = means[run.in_paper & means["algorithm"].isin(run.budgeted)]
    return cd_analysis(
        ranked, catalogue=run.catalogue, control=run.catalogue.with_role(CONTROL_ROLE)
    )


def aggregate(
    shards: pd.DataFrame,
    catalogue: Catalogue,
    baseline: str | None,
    sizes: Mapping[str, SplitSizes],
    varied: set[tuple[str, str]] | None = None,
    field: Mapping[str, str] | None = None,
    prices: Mapping[tuple[str, str], Prices] | None = None,
    tests: Mapping[str, Mapping[int, np.ndarray]] | None = None,
    workers: int = 1,
) -> Results:
    """Every registered results table of validated shards (:data:`TABLES`, in order).

    ``baseline`` is the cost model of the paper's U[0, 2]
    (:meth:`budgetboost.pipeline.plan.Plan.baseline_cost_model`), or ``None``; ``sizes``
    each dataset's training, test and pool rows
    (:func:`budgetboost.data.splits.read_sizes`), which the paired tests account for; ``varied`` the
    (dataset, cost model) pairs whose costs vary (:func:`budgetboost.data.costs.varied_pairs`;
    ``None``: all), to which the claims about varied costs are restricted; ``field`` the cost models
    of the field's regime and their pools (:meth:`budgetboost.pipeline.plan.Plan.field_pools`);
    ``prices`` each (dataset, cost model)'s :class:`~budgetboost.analysis.binding.Prices`;
    ``tests`` each dataset's test rows per trial (``RunRows.tests``); ``workers`` the
    processes that compute the tables side by side
    (:func:`~budgetboost.analysis.tables.compute_tables`; the tables do not depend on it).
    """
    run = RunRows(
        shards,
        catalogue.including(shards["algorithm"]),
        baseline,
        sizes,
        varied,
        field=dict(field or {}),
        prices=dict(prices or {}),
        tests=dict(tests or {}),
    )
    return Results(compute_tables(run, workers))
