"""The benchmarks' command lines refuse bad arguments in one line naming the argument and
its value (poor cases: ``--datasets nosuch`` gave a KeyError, ``--sizes abc`` a bare
ValueError, ``--repeats -1`` a StatisticsError, a bad config a traceback)."""

from __future__ import annotations

import re
import runpy
import sys

import pytest
from helpers import REPO, ran_job


@pytest.mark.parametrize(
    "args, line",
    [
        (
            ["--datasets", "nosuch"],
            "benchmarks/scale.py: --datasets: 'nosuch' is not in the registry "
            "config/datasets.yaml (known: ",
        ),
        (
            ["--sizes", "1000", "abc"],
            "benchmarks/scale.py: --sizes: 'abc' is neither a number of training rows nor 'all'",
        ),
        (
            ["--repeats", "-1"],
            "benchmarks/scale.py: --repeats: -1 is not a number of paired runs (1 or more)",
        ),
        (
            ["--algorithms", "gredy"],
            "benchmarks/scale.py: --algorithms: 'gredy' is not an algorithm of ",
        ),
        (
            ["--configfile", "/dev/zero"],
            "benchmarks/scale.py: config file /dev/zero: is not a regular file",
        ),
    ],
)
def test_scale_refuses_a_bad_argument_in_one_line(args, line, monkeypatch, capsys):
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "1")  # what the script sets, restored afterwards
    script = REPO / "benchmarks/scale.py"
    monkeypatch.setattr(sys, "argv", [str(script), *args])
    with pytest.raises(SystemExit) as exc:
        runpy.run_path(str(script), run_name="__main__")
    assert str(exc.value.code).startswith(line), exc.value.code
    assert len(str(exc.value.code).splitlines()) == 1 and capsys.readouterr().out == ""


def _resources(root, *args: str) -> tuple[int, str, str]:
    """``python benchmarks/resources.py ARGS --root REPO`` in this process: its exit status,
    what it printed and its error line."""
    import contextlib
    import io
    import runpy
    import sys

    script = REPO / "benchmarks/resources.py"
    out, argv = io.StringIO(), sys.argv
    sys.argv = [str(script), *args, "--root", str(root)]
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        return 1, out.getvalue(), str(exc.code)
    finally:
        sys.argv = argv
    return 0, out.getvalue(), ""


def test_resources_refuses_the_logs_of_another_config(tmp_path):
    """Asked about config/config.yaml where only the tiny config ran, ``benchmarks/resources.py``
    refuses the other config's logs rather than suggest the tiny run's train resources for it."""
    from budgetboost.pipeline import folders

    ran_job(tmp_path, "train", "logs/test/train/heart/uniform_0_2/greedy/block-0.log", 30, 400, 1)
    ran_job(tmp_path, "train", "logs/train/heart/uniform_0_2/greedy/block-0.log", 30, 500, 2)
    folders.claim("results/test", "config/test.yaml", tmp_path)
    status, printed, error = _resources(tmp_path, "--configfile", "config/config.yaml")
    assert status != 0 and printed == ""
    assert error == (
        f"benchmarks/resources.py: {tmp_path}/results/ records no config (--assume-owner "
        "reads it as this config's), not of config/config.yaml: its logs say nothing of what "
        "this config needs"
    )
    folders.claim("results", "config/test.yaml", tmp_path)  # the tiny config, into results/
    _, _, error = _resources(tmp_path, "--configfile", "config/config.yaml")
    assert "results/ holds the outputs of config/test.yaml, not of config/config.yaml" in error
    # the tiny config's own logs: exactly its jobs' (heart's block 0 of greedy)
    status, printed, error = _resources(tmp_path, "--configfile", "config/test.yaml")
    assert status == 0, error
    assert re.search(r"^ *train +1 +400.00 ", printed, flags=re.M), printed


def test_resources_with_a_bad_config_says_so_in_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("block_sise: 3\n")
    status, _, error = _resources(tmp_path, "--configfile", str(bad))
    assert status != 0
    assert error.splitlines() == [
        "benchmarks/resources.py: config block_sise: unknown key (allowed here: adaboost_path, "
        "algorithms, block_seconds, block_size, cost_models, datasets, figure_modules, registry, "
        "resources, results)"
    ]


# ------------------------------------------------------------------ blocks sized by cost


def _benchmark(name: str):
    """A module of benchmarks/ (its folder on the path, as when it runs)."""
    import importlib

    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(REPO / "benchmarks"))


def test_list_scheduling_starts_the_highest_priority_ready_job_first():
    makespan = _benchmark("makespan")
    Job = makespan.Job
    jobs = [Job("a", 1.0), Job("b", 5.0, priority=5.0), Job("c", 1.0), Job("d", 1.0)]
    # one core: the sum whatever the order
    assert makespan.schedule(jobs, 1) == (8.0, 5.0)
    # two cores, longest first: b on one core, a, c, d on the other
    assert makespan.schedule(jobs, 2) == (5.0, 5.0)
    # in plan order (no priorities) b starts with a, and waits for nothing: still 5; but a
    # long job started last stretches the run
    late = [Job("a", 1.0), Job("c", 1.0), Job("d", 1.0), Job("b", 5.0)]
    assert makespan.schedule(late, 2) == (6.0, 5.0)
    # a job waits for what it needs, however many cores
    chain = [Job("x", 2.0), Job("y", 3.0, needs=["x"]), Job("z", 1.0)]
    assert makespan.schedule(chain, 64) == (5.0, 3.0)


@pytest.mark.slow
def test_calibration_measures_a_trial_as_a_train_job_and_merges_its_rows(tmp_path):
    """``benchmarks/calibrate_blocks.py`` on one dataset and algorithm: a row per kind (the
    shared path's too), CPU seconds > 0, the binarized columns; a second run replaces its
    rows instead of adding them."""
    import subprocess

    from budgetboost.pipeline.trial_costs import TrialCosts

    out = tmp_path / "calibration.csv"
    command = [
        sys.executable,
        "benchmarks/calibrate_blocks.py",
        "--configfile",
        "config/test.yaml",
        "--datasets",
        "heart",
        "--algorithms",
        "greedy",
        "adaboost_bt",
        "--output",
        str(out),
    ]
    for _ in range(2):
        subprocess.run(command, cwd=REPO, check=True, capture_output=True, timeout=600)
        rows = TrialCosts.read(out).rows
        assert sorted(r["estimator"] for r in rows) == [
            "BudgetedBoost",
            "BudgetedBoost",
            "adaboost_path",
        ]
        assert all(r["dataset"] == "heart" and r["columns"] == 371 for r in rows)
        assert all(r["seconds"] > 0 for r in rows)


@pytest.mark.slow
@pytest.mark.parametrize("seconds", [[], ["--cpu"]], ids=["wall", "cpu"])
def test_makespan_replays_a_finished_run(base_run, seconds):
    """``benchmarks/makespan.py`` on the test config's run: before and after, every core
    count, a makespan never below the ideal nor below the longest job; with ``--cpu`` the
    train jobs at their logs' CPU seconds (every one of them read)."""
    import subprocess

    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks/makespan.py"),
            "--run",
            str(base_run),
            "--configfile",
            "config/test.yaml",
            "--old-block-size",
            "3",
            *seconds,
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )
    rows = re.findall(r"^\s+(\d+)\s+([\d,]+)\s+([\d,]+)\s+([\d.]+)\s+([\d,]+)$", proc.stdout, re.M)
    if seconds:
        read = re.search(r"train jobs at their CPU seconds \((\d+) jobs", proc.stdout)
        assert read, proc.stdout
        assert int(read.group(1)) == len(list(base_run.glob("logs/**/train/**/block-*.log")))
    assert len(rows) == 8, proc.stdout  # 4 core counts, before and after
    for _cores, makespan, ideal, ratio, longest in rows:
        makespan, ideal, longest = (float(v.replace(",", "")) for v in (makespan, ideal, longest))
        assert makespan >= ideal - 1 and makespan >= longest - 1 and float(ratio) >= 0.99


def _printed(script: str, *args: str) -> str:
    """What ``python benchmarks/SCRIPT ARGS`` prints, run in this process."""
    import contextlib
    import io

    out, argv = io.StringIO(), sys.argv
    sys.argv = [str(REPO / "benchmarks" / script), *args]
    try:
        with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as exc:
            runpy.run_path(sys.argv[0], run_name="__main__")
    finally:
        sys.argv = argv
    assert exc.value.code == 0
    return out.getvalue()


@pytest.mark.slow
def test_the_headlines_simulation_prints_each_sentences_share():
    """``benchmarks/headlines.py --quick --bands small,large``: one replicate of the suite's
    field, a lead of 0.03 beyond the margin: the acquisition family wins both bands, rightly."""
    text = _printed(
        "headlines.py",
        *("--quick", "--scenarios", "leader by 0.03", "--sentences", "1"),
        *("--bands", "small,large"),
    )
    assert text.startswith("leader by 0.03 (2 bands, ")
    assert "sentence: wins 100.0% [15.8%, 100.0%] (falsely  0.0% [0.0%, 84.2%])" in text
    assert "e.g. At small budgets, per-example feature acquisition wins: AACO" in text


@pytest.mark.slow
def test_the_learners_check_prints_both_corrections():
    """``benchmarks/inference.py --learners --quick``: each learner at the suite's most common
    size, under the former rule (the 95 % interval) and the current one (90 %: the one-sided
    tests at 5 %)."""
    lines = _printed("inference.py", "--learners", "--quick").splitlines()
    assert lines[0].split()[:3] == ["learner", "shape", "rows"]
    rules = [line.split()[7] for line in lines[1:]]
    assert rules == ["95%", "90%"] * 4
    assert [line.split()[0] for line in lines[1::2]] == ["stumps", "trees", "nearest", "grown_tree"]
    assert all(line.split()[8] == "0.500" for line in lines[2::2])  # 0.25 + 0.5 x 0.5


def test_the_pipeline_benchmark_sums_a_cells_blocks(tmp_path):
    """``train_compute`` adds the fit and evaluation seconds of every block of a cell (blocks
    sized by cost split a cell into many)."""
    import pandas as pd

    module = runpy.run_path(str(REPO / "benchmarks" / "pipeline.py"), run_name="not_main")
    cell = tmp_path / "results" / "timings" / "heart" / "uniform_0_2" / "greedy"
    cell.mkdir(parents=True)
    for block, fit in enumerate([[1.0, 2.0], [4.0]]):
        frame = pd.DataFrame(
            {"trial": range(len(fit)), "fit_seconds": fit, "predict_seconds": [0.5] * len(fit)}
        )
        frame.to_parquet(cell / f"block-{block}.parquet")
    computed = module["train_compute"](tmp_path, "results")
    assert computed == {("heart", "uniform_0_2", "greedy"): 8.5}


def test_the_first_run_benchmark_prints_its_median_and_the_runs_spread(monkeypatch):
    """A noisy machine moves the first run's wall by a fifth from run to run: the summary
    gives the median and the range of the runs it is the median of."""
    import importlib.util

    import pandas as pd

    # the benchmark imports its sibling ``pipeline``, a name the tests' own package also has
    spec = importlib.util.spec_from_file_location("pipeline", REPO / "benchmarks" / "pipeline.py")
    sibling = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(sibling)
    monkeypatch.setitem(sys.modules, "pipeline", sibling)
    module = runpy.run_path(str(REPO / "benchmarks" / "first_run.py"), run_name="not_main")
    jobs = pd.DataFrame({"rule": ["train", "train", "plot"], "seconds": [2.0, 3.0, 1.5]})
    runs = [
        {"run_wall": wall, "run_cpu": 2 * wall, "report_wall": 10.0, "report_cpu": 9.0}
        for wall in (91.5, 74.9, 81.7)
    ]
    text = module["summary"](runs, jobs, 2)
    assert "median of 3: **82 s wall** (runs of 75-92 s), 163 CPU-s" in text
    assert "| train | 2 | 5.0 |" in text and "| all | 3 | 6.5 |" in text
    one = module["summary"](runs[:1], jobs, 2)
    assert "median of 1: **92 s wall**, 183 CPU-s" in one and "runs of" not in one
    # --against: the other commit's runs, in turn with these, and the ratio pair by pair
    before = [dict(run, run_wall=wall) for run, wall in zip(runs, (100.0, 80.0, 95.0), strict=True)]
    line = module["paired"](runs, before, "abc1234")
    assert "Against `abc1234`, in turn with it: 95 s wall (runs of 80-100 s)" in line
    assert "pair by pair: median 0.92 (pairs of 0.86-0.94)" in line


def test_the_leads_benchmark_draws_each_test_rows_loss_from_a_shared_pool():
    """``benchmarks/leads.py``'s rows: a trial's error is the mean of its test rows' losses,
    its test rows are distinct rows of the pool, and where every method reads the same
    latent (hardness 1, no training effect) a method of lower true error is wrong on a
    subset of the rows another is wrong on, the same rows where they tie (here the leader is
    0.1 ahead on the first dataset only)."""
    import numpy as np

    from budgetboost.data.splits import SplitSizes

    module = runpy.run_path(str(REPO / "benchmarks" / "leads.py"), run_name="not_main")
    sizes = {"a": SplitSizes(60, 40, 100), "b": SplitSizes(30, 50, 80)}
    means, truth, tests = module["simulate_rows"](
        np.random.default_rng(0), sizes, 0.1, 1, 0.0, 1.0, 0.0
    )
    assert len(means) == len(module["METHODS"]) * 2 * module["TRIALS"]
    losses = np.stack(means["losses"].map(lambda v: v.mean()).to_numpy())
    assert np.allclose(losses, means["error"])
    for name, size in sizes.items():
        for rows in tests[name].values():
            assert len(set(rows.tolist())) == size.n_test and rows.max() < size.n_pool
    leader = means[means["algorithm"] == module["LEADER"]].set_index(["dataset", "trial"])
    other = means[means["algorithm"] == "greedy"].set_index(["dataset", "trial"])
    for key in leader.index:
        mine, theirs = leader.at[key, "losses"], other.at[key, "losses"]
        assert np.all(mine <= theirs)
        if key[0] == "b":  # no lead there: the same rows wrong
            assert np.array_equal(mine, theirs)
    ahead = leader.loc["a", "error"].sum() < other.loc["a", "error"].sum()
    assert ahead
    assert truth[list(module["METHODS"]).index(module["LEADER"])].tolist() == [-0.1, 0.0]


@pytest.mark.slow
def test_every_train_job_logs_where_its_cpu_outside_the_estimators_goes(base_run):
    """Each train job of a real run logs its CPU at the start of its work, after its
    estimator's import, before and after its trials; ``job_stages`` splits the CPU its log
    ends with into start-up, import, inputs, trials (less fit and evaluation) and writing,
    which add up to it."""
    import pandas as pd

    module = runpy.run_path(str(REPO / "benchmarks" / "pipeline.py"), run_name="not_main")
    logs = sorted(base_run.glob("logs/**/train/**/block-*.log"))
    assert logs
    for log in logs:
        text = log.read_text()
        cell = log.relative_to(base_run / "logs").parts[-4:-1]
        timings = next(base_run.glob(f"results/**/timings/{'/'.join(cell)}/{log.stem}.parquet"))
        t = pd.read_parquet(timings)
        inside = float(t["fit_seconds"].sum() + t["predict_seconds"].sum())
        stages = module["job_stages"](text, inside)
        assert stages is not None, log
        assert set(stages) == set(module["STAGES"])
        total = float(re.findall(r"INFO cpu: ([\d.]+) s", text)[-1])
        assert sum(stages.values()) + inside == pytest.approx(total, abs=1e-6)
        assert stages["start-up"] > 0 and stages["import"] >= 0 and stages["writing"] >= 0


def test_a_recorded_section_replaces_its_last_figures_and_keeps_the_rest(tmp_path):
    """``benchmarks/record.py`` writes a benchmark's figures into the measurements page: a
    new section is appended with its machine line, a second record replaces it whole, and the
    page's other text and sections stay as they were."""
    record = _benchmark("record")
    page = tmp_path / "performance.md"
    page.write_text("# page\n\nwhy the engines are built so\n")
    record.record("first_run", "The first run", "wall 90 s\n", 0.5, page=page)
    record.record("scale", "Scale", "slope 1.0\n", 0.5, page=page)
    record.record("first_run", "The first run", "wall 70 s\n", 1.25, page=page)
    text = page.read_text()
    assert text.startswith("# page\n\nwhy the engines are built so\n")
    assert "wall 90 s" not in text and text.count("wall 70 s") == 1
    assert text.count("<!-- measured: first_run -->") == 1 and "slope 1.0" in text
    assert text.index("wall 70 s") < text.index("slope 1.0")  # replaced where it stood
    assert "load 1.25 at the start" in text and "cores" in text
    with pytest.raises(ValueError, match="lowercase word"):
        record.record("first run", "x", "y", 0.0, page=page)
