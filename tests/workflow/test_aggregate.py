"""The ``aggregate`` rule's script (workflow/scripts/aggregate.py) writes every registered
results table (budgetboost.analysis.tables), a table registered by this test included, each
as its own checksummed file, plus summary.md."""

from __future__ import annotations

import logging
import runpy
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from helpers import REPO
from snakemake.iocontainers import Namedlist
from synthetic_results import sizes_for, synthetic_shards

from budgetboost.analysis.binding import Prices
from budgetboost.analysis.results import TABLES, aggregate
from budgetboost.analysis.tables import registered
from budgetboost.catalogue import Catalogue
from budgetboost.data.costs import CostTable, write_costs
from budgetboost.data.io import read_metadata, read_table, write_table
from budgetboost.data.splits import write_splits
from budgetboost.pipeline import job as job_wrapper
from budgetboost.pipeline.identity import IDENTITY_KEY

SCRIPT = REPO / "workflow/scripts/aggregate.py"
BUILT_IN = [
    "summary",
    "comparisons",
    "budget_to_match",
    "findings",
    "field_mean_cost",
    "binding",
    "leads",
    "ranks",
]
#: Each cost table's prices, 3 trials of 4 indicators, one attribute each.
COSTS = np.linspace(0.1, 2, 12).reshape(3, 4)
ATTRIBUTES = np.array(["a0", "a1", "a2", "a3"])


def trials_per_algorithm(run, tables) -> pd.DataFrame:
    """The test's table: how many trials each algorithm ran per dataset and cost model."""
    return (
        run.shards.groupby(["dataset", "cost_model", "algorithm"], sort=True)["trial"]
        .nunique()
        .rename("trials")
        .reset_index()
    )


def write_inputs(root, shards: pd.DataFrame) -> SimpleNamespace:
    """The rule's inputs as the pipeline writes them: shards carrying their identity, each
    dataset's splits file (its sizes as ``sizes_for`` gives them), cost tables and the
    binarized tables' metadata (each indicator's attribute)."""
    paths = SimpleNamespace(shards=[], splits=[], costs=[], data=[])
    for (d, c, a), part in shards.groupby(["dataset", "cost_model", "algorithm"]):
        path = root / f"shards/{d}/{c}/{a}/block-0.parquet"
        write_table(part.reset_index(drop=True), path, metadata={IDENTITY_KEY: "synthetic"})
        paths.shards.append(str(path))
    for d, size in sizes_for(shards).items():
        path = root / f"splits/{d}.parquet"
        meta = {"dataset": d, "train_size": size.n_train, "test_size": size.n_test}
        write_splits(
            pd.DataFrame({"trial": [], "train": [], "test": []}),
            path,
            metadata={**meta, "n_rows": size.n_pool},
        )
        paths.splits.append(str(path))
    for d, c in shards[["dataset", "cost_model"]].drop_duplicates().itertuples(index=False):
        path = root / f"costs/{d}/{c}.parquet"
        write_costs(CostTable(trials=np.arange(3), costs=COSTS, grouped=False), path)
        paths.costs.append(str(path))
    for d in shards["dataset"].unique():
        path = root / f"data/{d}.parquet"
        columns = [{"name": f"x{j}", "attribute": a} for j, a in enumerate(ATTRIBUTES)]
        write_table(pd.DataFrame({"y": pd.Series([], dtype="int8")}), path, {"columns": columns})
        paths.data.append(str(path))
    return paths


def prices_of(shards: pd.DataFrame) -> dict:
    """The prices :func:`write_inputs` writes, as the script reads them."""
    pairs = shards[["dataset", "cost_model"]].drop_duplicates().itertuples(index=False)
    return {(d, c): Prices(COSTS, ATTRIBUTES, False) for d, c in pairs}


def run_script(root, inputs: SimpleNamespace, tables=None, threads: int = 1) -> Namedlist:
    """Run workflow/scripts/aggregate.py as its job would, with outputs named as the rule
    names them (one per registered table, or per name of ``tables``, then ``markdown``);
    returns the outputs.

    The script's work runs in this process through :class:`budgetboost.pipeline.job.Job`;
    only the wrapper's console and file-descriptor handling, tested on its own
    (tests/pipeline/test_job.py), is left out."""
    output = Namedlist(
        fromdict={
            **{name: str(root / f"summary/{name}.parquet") for name in tables or TABLES},
            "markdown": str(root / "summary/summary.md"),
        }
    )
    snakemake = SimpleNamespace(
        rule="aggregate",
        scriptdir=str(SCRIPT.parent),
        input=Namedlist(fromdict=vars(inputs)),
        output=output,
        params=SimpleNamespace(
            catalogue=Catalogue.default().param(),
            baseline="uniform_0_2",
            field={},
            identities=dict.fromkeys(inputs.shards, "synthetic"),
        ),
        log=[str(root / "aggregate.log")],
        wildcards={},
        resources={},
        threads=threads,
    )

    def run_job(sm, work):
        done = work(sm, job_wrapper.Job(logging.getLogger("test_aggregate")))
        assert done

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(job_wrapper, "run_job", run_job)
        runpy.run_path(str(SCRIPT), init_globals={"snakemake": snakemake})
    return output


@pytest.fixture(scope="module")
def shards() -> pd.DataFrame:
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=3, budgets=(2, 10), extra=())
    return shards[~((shards["algorithm"] == "greedy") & (shards["trial"] == 2))]


def test_the_script_writes_a_table_registered_in_a_test(tmp_path, shards):
    inputs = write_inputs(tmp_path, shards)
    with registered("trials", trials_per_algorithm, description="trials per algorithm"):
        output = run_script(tmp_path, inputs)
        expected = aggregate(
            shards,
            Catalogue.default(),
            "uniform_0_2",
            sizes_for(shards),
            prices=prices_of(shards),
        )
    assert list(output.keys()) == [*expected, "markdown"]
    trials = read_table(output.trials).set_index(["dataset", "cost_model", "algorithm"])
    assert trials.loc[("ecoli", "uniform_0_2", "greedy"), "trials"] == 2
    assert trials.loc[("heart", "uniform_0_2", "smoothed"), "trials"] == 3
    for name, table in expected.items():  # each file is the table, byte for byte
        meta = read_metadata(output[name])
        assert meta["rows"] == len(shards) and meta["baseline"] == "uniform_0_2"
        write_table(table, tmp_path / "expected.parquet", meta)
        assert (tmp_path / "expected.parquet").read_bytes() == Path(output[name]).read_bytes()
    assert "## ecoli · uniform_0_2 (2–3 trials)" in (tmp_path / "summary/summary.md").read_text()


def test_the_tables_of_two_threads_are_those_of_one_byte_for_byte(tmp_path, shards):
    """The job's threads compute tables side by side (budgetboost.analysis.tables): the
    files are the same bytes as those of a job given one thread (``--cores 1``)."""
    one = run_script(tmp_path / "one", write_inputs(tmp_path / "one", shards))
    two = run_script(tmp_path / "two", write_inputs(tmp_path / "two", shards), threads=2)
    assert list(one.keys()) == list(two.keys())
    for name in one.keys():
        assert Path(two[name]).read_bytes() == Path(one[name]).read_bytes(), name


def test_without_the_registration_the_script_writes_the_built_in_tables(tmp_path, shards):
    output = run_script(tmp_path, write_inputs(tmp_path, shards))
    written = sorted(p.name for p in (tmp_path / "summary").iterdir())
    assert list(output.keys())[:-1] == list(TABLES)
    assert written == sorted([*(f"{name}.parquet" for name in TABLES), "summary.md"])
    assert "trials.parquet" not in written


def test_a_table_the_rule_does_not_declare_stops_the_job(tmp_path, shards):
    """The rule's outputs and the job's registry disagree (a table registered only where the
    rules were read, or only in the job): the job says so before it computes anything."""
    inputs = write_inputs(tmp_path, shards)
    with registered("trials", trials_per_algorithm, description="trials per algorithm"):
        with pytest.raises(ValueError, match=r"declares the tables \[.*'ranks'\], .*'trials'\]"):
            run_script(tmp_path, inputs, tables=BUILT_IN)
    assert not (tmp_path / "summary").exists()
