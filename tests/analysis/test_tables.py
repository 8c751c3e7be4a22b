"""The registry of the results tables (budgetboost.analysis.tables): five of the built-in
tables are the hand-written aggregate's, a table registered in a test is computed by
``aggregate`` after the others, with the tables it reads at hand, and is gone once its block
ends, and the tables computed in two processes are those computed in one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pandas as pd
import pytest
from synthetic_results import PEER, PEER_CATALOGUE, sizes_for, synthetic_shards, with_open_questions

from budgetboost.analysis import findings as findings_
from budgetboost.analysis.bands import BANDS
from budgetboost.analysis.claims import CLAIM_BANDS, claim_comparisons
from budgetboost.analysis.matching import budget_to_match
from budgetboost.analysis.paired import Comparison, band_means, compare
from budgetboost.analysis.ranks import cd_analysis
from budgetboost.analysis.results import TABLES, Results, aggregate
from budgetboost.analysis.summary import summarize
from budgetboost.analysis.tables import RESERVED, registered, table
from budgetboost.catalogue import Catalogue

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
#: The tables the hand-written aggregate below computes (the field's regime's are tested in
#: tests/analysis/test_field_regime.py).
HAND_WRITTEN = ["summary", "comparisons", "budget_to_match", "findings", "ranks"]


def hand_written_aggregate(shards, catalogue, baseline, sizes, varied=None) -> dict:
    """The five tables as ``aggregate`` computed them before the registry: one function body,
    written out in full (the reference the registrations must reproduce)."""
    catalogue = catalogue.including(shards["algorithm"])
    summary = summarize(shards, catalogue=catalogue, sizes=sizes)
    matches = budget_to_match(shards, sizes, catalogue)
    paper, open_ = findings_.experiment_pairs(shards, catalogue, baseline)
    means = band_means(shards, CLAIM_BANDS)
    reference = catalogue.with_role("reference")
    pairs = list(zip(means["dataset"], means["cost_model"], strict=True))
    in_paper = pd.Series([p in set(paper) for p in pairs], index=means.index, dtype=bool)
    in_paper = in_paper.to_numpy()
    budgeted = [a for a in catalogue.sort(means.loc[in_paper, "algorithm"]) if a != reference]
    in_open = [p in set(open_) for p in pairs]
    open_algorithms = catalogue.sort(means.loc[in_open, "algorithm"]) if open_ else []
    control = catalogue.with_role("smoothed")
    against_control = [
        Comparison("control", a, control, pairs=paper, bands=BANDS)
        for a in budgeted
        if control is not None and a != control
    ]
    asked = [
        *claim_comparisons(catalogue, paper, varied),
        *against_control,
        *findings_.questions(catalogue, paper, open_, baseline, open_algorithms),
    ]
    comparisons = compare(means, asked, sizes)
    findings = comparisons[comparisons["question"].isin(findings_.QUESTIONS)]
    ranked = means[in_paper & means["algorithm"].isin(budgeted)]
    ranks = cd_analysis(ranked, catalogue=catalogue, control=control)
    return {
        "summary": summary,
        "comparisons": comparisons,
        "budget_to_match": matches,
        "findings": findings.reset_index(drop=True),
        "ranks": ranks,
    }


def runs():
    """Runs with the paper's experiments only, with open questions and a tree variant, with
    a peer, and without a baseline cost model (with every cost model's costs varied)."""
    paper = synthetic_shards(
        datasets=("breast_cancer", "ecoli", "heart"), trials=5, budgets=(2, 10, 18, 26)
    )
    open_, open_catalogue = with_open_questions()
    peer = open_.replace({"algorithm": {"greedy_tree2": PEER}})
    return {
        "paper": (paper, Catalogue.default(), "uniform_0_2", sizes_for(paper), None),
        "open questions": (open_, open_catalogue, "uniform_0_2", sizes_for(open_), None),
        "peer": (peer, PEER_CATALOGUE, "uniform_0_2", sizes_for(peer), None),
        "no baseline": (paper, Catalogue.default(), None, sizes_for(paper), set()),
    }


@pytest.fixture(scope="module")
def computed():
    return {
        name: (aggregate(*args), hand_written_aggregate(*args)) for name, args in runs().items()
    }


def test_the_registry_holds_the_built_in_tables_in_order():
    assert list(TABLES) == BUILT_IN
    for spec in TABLES.values():
        assert spec.module == "budgetboost.analysis.results"
        assert spec.description and "\n" not in spec.description


@pytest.mark.parametrize("run", ["paper", "open questions", "peer", "no baseline"])
def test_the_registered_tables_are_the_hand_written_aggregates(computed, run):
    results, expected = computed[run]
    assert list(results) == BUILT_IN
    for name in HAND_WRITTEN:
        pd.testing.assert_frame_equal(results[name], expected[name], check_exact=True)
        assert results[name] is getattr(results, name)
    assert not results["comparisons"].empty and not results["summary"].empty


@pytest.mark.parametrize("run", ["paper", "open questions", "peer", "no baseline"])
def test_the_tables_computed_in_two_processes_are_those_computed_in_one(computed, run):
    results, _ = computed[run]
    apart = aggregate(*runs()[run], workers=2)
    assert list(apart) == BUILT_IN
    for name in BUILT_IN:
        pd.testing.assert_frame_equal(apart[name], results[name], check_exact=True)


def _ended(pid: int) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie nobody has reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in "ZX"
    except (FileNotFoundError, ProcessLookupError):
        return True


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_workers_end_with_the_process_that_started_them(tmp_path):
    """A job killed (``kill -9``) while its tables are computed leaves no worker behind."""
    script = tmp_path / "slow.py"
    script.write_text(
        textwrap.dedent(
            """
            import os, time
            from synthetic_results import sizes_for, synthetic_shards
            from budgetboost.analysis.results import aggregate
            from budgetboost.analysis.tables import registered
            from budgetboost.catalogue import Catalogue

            def slow(run, tables):
                print(os.getpid(), flush=True)
                time.sleep(120)

            shards = synthetic_shards(datasets=("ecoli",), trials=3, budgets=(2,))
            args = (shards, Catalogue.default(), "uniform_0_2", sizes_for(shards))
            with registered("slow", slow, description="a table that takes two minutes"):
                aggregate(*args, workers=2)
            """
        )
    )
    tests = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([tests, os.environ.get("PYTHONPATH", "")])}
    command = [sys.executable, str(script)]
    job = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env)
    try:
        worker = int(job.stdout.readline())
        assert not _ended(worker)
        job.send_signal(signal.SIGKILL)
        job.wait(timeout=10)
        deadline = time.monotonic() + 10
        while not _ended(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _ended(worker)
    finally:
        job.kill()
        job.wait()


def test_a_worker_that_dies_fails_the_tables_naming_its_table():
    """A process killed while it computes a table (out of memory, say) stops the job with
    its table's name; it does not wait for an answer that never comes."""
    shards = synthetic_shards(datasets=("ecoli",), trials=3, budgets=(2,))
    parent = os.getpid()

    def dies(run, tables):
        assert os.getpid() != parent  # in a worker
        os.kill(os.getpid(), signal.SIGKILL)

    with registered("dies", dies, description="a table whose process is killed"):
        with pytest.raises(RuntimeError, match=r"computing table 'dies' died \(exit code -9"):
            aggregate(shards, Catalogue.default(), "uniform_0_2", sizes_for(shards), workers=2)


def test_the_runs_exercise_every_table(computed):
    """The reference comparison above means something: between them the runs have rows in
    every table the hand-written aggregate has, findings and ranks included."""
    for name in HAND_WRITTEN:
        assert any(not results[name].empty for results, _ in computed.values()), name


def trials_per_algorithm(run, tables) -> pd.DataFrame:
    """A new table: how many trials each algorithm ran per dataset and cost model, beside
    the number of summary rows (it reads a table registered before it)."""
    trials = (
        run.shards.groupby(["dataset", "cost_model", "algorithm"], sort=True)["trial"]
        .nunique()
        .rename("trials")
        .reset_index()
    )
    rows = tables["summary"].groupby(["dataset", "cost_model", "algorithm"]).size()
    keys = pd.MultiIndex.from_frame(trials[["dataset", "cost_model", "algorithm"]])
    return trials.assign(summary_rows=rows.reindex(keys).to_numpy())


def test_a_registered_table_is_computed_after_the_others_and_then_removed():
    shards = synthetic_shards(datasets=("ecoli", "heart"), trials=3, budgets=(2, 10))
    shards = shards[~((shards["algorithm"] == "greedy") & (shards["trial"] == 2))]
    args = (shards, Catalogue.default(), "uniform_0_2", sizes_for(shards))
    seen = {}

    def spy(run, tables):
        seen.update(tables)
        return trials_per_algorithm(run, tables)

    with registered("trials", spy, description="trials", reads=("summary",)) as spec:
        assert list(TABLES) == [*BUILT_IN, "trials"] and TABLES["trials"] is spec
        results = aggregate(*args)
        assert list(aggregate(*args, workers=2)) == [*BUILT_IN, "trials"]
    assert list(results) == [*BUILT_IN, "trials"]
    assert list(seen) == ["summary"]  # the table it reads, computed already
    trials = results.trials.set_index(["dataset", "cost_model", "algorithm"])
    assert trials.loc[("ecoli", "uniform_0_2", "greedy"), "trials"] == 2
    assert trials.loc[("ecoli", "uniform_0_2", "smoothed"), "trials"] == 3
    # one summary row per budget and the unbudgeted reference's one row
    assert trials.loc[("heart", "uniform_0_2", "smoothed"), "summary_rows"] == 2
    assert trials.loc[("heart", "uniform_0_2", "adaboost"), "summary_rows"] == 1
    assert list(TABLES) == BUILT_IN
    assert list(aggregate(*args)) == BUILT_IN


def test_a_registration_is_undone_when_its_block_fails():
    with pytest.raises(RuntimeError, match="inside"):
        with registered("trials", trials_per_algorithm, description="trials"):
            raise RuntimeError("inside")
    assert list(TABLES) == BUILT_IN


@pytest.mark.parametrize("workers", [1, 2])
def test_a_table_read_but_not_declared_is_named(workers):
    shards = synthetic_shards(datasets=("ecoli",), trials=3, budgets=(2,))
    with registered("trials", trials_per_algorithm, description="trials"):
        with pytest.raises(KeyError, match=r"table 'trials' reads table 'summary' but does not"):
            args = (shards, Catalogue.default(), "uniform_0_2", sizes_for(shards))
            aggregate(*args, workers=workers)


def test_a_table_that_is_not_a_frame_is_named():
    shards = synthetic_shards(datasets=("ecoli",), trials=3, budgets=(2,))
    with registered("counts", lambda run, tables: len(run.shards), description="rows"):
        with pytest.raises(TypeError, match=r"table 'counts' .* returned int, not a pandas"):
            aggregate(shards, Catalogue.default(), "uniform_0_2", sizes_for(shards))


@pytest.mark.parametrize(
    ("name", "description", "message"),
    [
        ("two words", "x", "must be an identifier"),
        ("_hidden", "x", "must be an identifier"),
        ("markdown", "x", "taken by the workflow"),
        ("claims", "x", "taken by the workflow"),
        ("trials", "", "one non-empty line"),
        ("trials", "one\ntwo", "one non-empty line"),
        ("summary", "x", "already registered"),
    ],
)
def test_a_bad_registration_is_refused(name, description, message):
    with pytest.raises(ValueError, match=message):
        with registered(name, trials_per_algorithm, description=description):
            pass
    assert list(TABLES) == BUILT_IN


@pytest.mark.parametrize(
    ("reads", "message"),
    [
        (("sumary",), r"reads \['sumary'\]: reads= names tables registered before it"),
        ("summary", r"reads 'summary': reads= names tables registered before it, as a tuple"),
    ],
)
def test_a_table_reading_what_is_not_registered_is_refused(reads, message):
    with pytest.raises(ValueError, match=message):
        table("trials", description="trials", reads=reads)(trials_per_algorithm)
    assert list(TABLES) == BUILT_IN


def test_a_second_function_under_a_registered_name_is_refused():
    with pytest.raises(ValueError, match="registered twice"):
        table("ranks", description="another ranks")(trials_per_algorithm)
    assert TABLES["ranks"].compute.__name__ == "ranks_table"
    assert "claims_evidence" in RESERVED  # rule claims's other table


def test_results_name_their_tables():
    results = Results({"summary": pd.DataFrame({"a": [1]}), "ranks": pd.DataFrame()})
    assert list(results) == ["summary", "ranks"] and len(results) == 2
    assert results.summary is results["summary"] and "ranks" in dir(results)
    with pytest.raises(AttributeError, match="no results table 'findings'.*summary, ranks"):
        _ = results.findings
    assert repr(results) == "Results(summary: 1 rows, ranks: 0 rows)"
