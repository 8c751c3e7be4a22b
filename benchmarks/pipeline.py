"""Scale of the Snakemake pipeline (issue: the Snakemake pipeline, "Scale").

Prints, measured in a throw-away copy of the repository:

- DAG build time and job count of the full config (``snakemake -n``; target < 10 s);
- wall time, job count and per-stage time of a real run (``--cores``, default 2) of the full
  config with every dataset's trials, the trial caps of algorithms and cost models and the
  config's own ``block_size`` cap, if any, multiplied by ``--scale`` (default 0.01: 1 or 4
  trials, capped ones 1; blocks sized by cost, so at most the full config's jobs, with about
  1/100 of its training);
- the time of a second, no-op run (target < 5 s);
- with ``--paper``, the same for the paper's part of the config only: the algorithms the
  config does not mark as beyond the paper (no ``family`` or ``variant_of`` key: the peers,
  tuned and tree variants are left out) on the cost models without an ``algorithms`` list
  (U[0, 2] and heart's real costs: the open questions' cost models are left out);
- Snakemake's own CPU seconds in the timed run (its scheduler; ``--upstream-scheduler``: as
  Snakemake schedules unchanged, without :mod:`budgetboost.pipeline.scheduler`);
- Snakemake's overhead: the share of the wall time x cores not spent inside the estimators
  or the data and results scripts (target < 10 %), and the extrapolated wall time of the
  full run (``--scale 1`` measures it instead: 62 minutes on two cores, 2026-11-27).

``--existing DIR`` prints the same report (but Snakemake's own CPU) for a run already made in
``DIR``, a clone where ``snakemake --cores N`` ran to the end: its jobs' records in
``DIR/.snakemake/metadata``, the timing tables of its results.

Run from the repository root: ``python benchmarks/pipeline.py [--scale 0.01] [--cores 2]
[--scheduler ilp|greedy] [--upstream-scheduler] [--paper] [--configfile config/config.yaml]
[--existing DIR]``.
"""

from __future__ import annotations

import argparse
import collections
import copy
import math
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from budgetboost.checks import check_all
from budgetboost.data.yamlfile import load_yaml
from budgetboost.pipeline.folders import default_results
from budgetboost.pipeline.plan import Plan
from budgetboost.pipeline.resources import job_records

ROOT = Path(__file__).resolve().parents[1]
FILES = [
    "Snakefile",
    "profiles",
    "workflow",
    "config",
    "resources",
    "budgetboost",
    "pyproject.toml",
]


def copy_repo(dest: Path) -> Path:
    for name in FILES:
        source = ROOT / name
        if source.is_symlink():
            (dest / name).symlink_to(source.readlink())
        elif source.is_dir():
            shutil.copytree(
                source,
                dest / name,
                symlinks=True,
                ignore=shutil.ignore_patterns("__pycache__", "downloads", "local"),
            )
        else:
            shutil.copy2(source, dest / name)
    return dest


#: Runs the Snakemake CLI in a Python process that prints, as it exits, the CPU seconds of
#: that process alone (its scheduler, not its jobs: they are child processes).
CLI = """
import atexit, resource, sys
def own_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"SNAKEMAKE_OWN_CPU {usage.ru_utime + usage.ru_stime:.3f}", file=sys.stderr)
atexit.register(own_cpu)
from snakemake.cli import main
main(sys.argv[1:])
"""


def snakemake(repo: Path, *args: str) -> tuple[float, str]:
    """Run the CLI; return (wall seconds, combined output). Raises on failure."""
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", CLI, *args], cwd=repo, capture_output=True, text=True
    )
    seconds = time.perf_counter() - start
    if proc.returncode:
        raise SystemExit(f"snakemake {' '.join(args)} failed:\n{proc.stderr[-4000:]}")
    return seconds, proc.stdout + proc.stderr


def own_cpu(output: str) -> float:
    """CPU seconds of Snakemake's own process, from the output of :func:`snakemake`."""
    return float(re.findall(r"^SNAKEMAKE_OWN_CPU (\S+)$", output, re.MULTILINE)[-1])


def upstream_scheduler(repo: Path) -> None:
    """Drop the Snakefile's call of ``one_pending_reevaluation`` in the copy ``repo``: the
    timed run then schedules as Snakemake does unchanged (``--upstream-scheduler``)."""
    snakefile = repo / "Snakefile"
    text = snakefile.read_text()
    call = "\none_pending_reevaluation()\n"
    if call not in text:
        raise SystemExit("the Snakefile no longer calls one_pending_reevaluation()")
    snakefile.write_text(text.replace(call, "\n", 1))


def job_count(dry_run_output: str) -> int:
    match = re.search(r"^total\s+(\d+)$", dry_run_output, re.MULTILINE)
    return int(match.group(1)) if match else 0


def paper_part(config: dict) -> dict:
    """The paper's part of a config: algorithms without ``family`` or ``variant_of``, cost
    models without an ``algorithms`` list (see the module docstring)."""
    config = copy.deepcopy(config)
    config["algorithms"] = {
        name: entry
        for name, entry in config["algorithms"].items()
        if "family" not in entry and "variant_of" not in entry
    }
    opened = {name for name, model in config["cost_models"].items() if "algorithms" in model}
    for name in opened:
        del config["cost_models"][name]
    for entry in config["datasets"].values():
        entry["cost_models"] = [c for c in entry["cost_models"] if c not in opened]
    return config


def scaled_config(
    repo: Path, source: str, scale: float, paper: bool
) -> tuple[str, dict, dict[tuple[str, str, str], float]]:
    """Write config/bench.yaml: ``source`` (its paper's part with ``paper``) with trials (the
    datasets' and the caps of algorithms and cost models) and block size scaled.

    Returns its path, the scaled config and, per (dataset, cost model, algorithm), how many
    times more trials the unscaled config runs (not ``1 / scale``: the counts round up to
    one trial, so a capped algorithm's factor is its cap)."""
    config = load_yaml(repo / source, "config file")
    if paper:
        config = paper_part(config)
    registry = load_yaml(repo / config["registry"], "dataset registry")
    full = Plan(*check_all(copy.deepcopy(config), repo))
    for name, entry in config["datasets"].items():
        trials = entry.get("trials", registry[name]["trials"])
        entry["trials"] = max(1, math.ceil(trials * scale))
    for section in ("algorithms", "cost_models"):
        for entry in config.get(section, {}).values():
            if "trials" in entry:
                entry["trials"] = max(1, math.ceil(entry["trials"] * scale))
    if "block_size" in config:  # a cap of the config's own; blocks are sized by cost
        config["block_size"] = max(1, round(config["block_size"] * scale))
    (repo / "config/bench.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    scaled = Plan(*check_all(copy.deepcopy(config), repo))
    factors = {
        (d, c, a): full.run_trials(d, c, a) / scaled.run_trials(d, c, a)
        for d in config["datasets"]
        for c in config["cost_models"]
        for a in config["algorithms"]
    }
    return "config/bench.yaml", config, factors


def estimator_seconds(repo: Path, results: str = "results") -> pd.DataFrame:
    """Fit and predict seconds per (dataset, cost model, algorithm), from the timing tables
    of the config's ``results`` folder (the shared AdaBoost paths under cost model
    ``_shared``, algorithm ``adaboost_path``)."""
    rows = []
    for f in repo.glob(f"{results}/timings/*/*/*/block-*.parquet"):
        dataset, cost_model, algorithm = f.parts[-4:-1]
        t = pd.read_parquet(f)
        rows.append(
            (dataset, cost_model, algorithm, t["fit_seconds"].sum(), t["predict_seconds"].sum())
        )
    return pd.DataFrame(rows, columns=["dataset", "cost_model", "algorithm", "fit", "predict"])


def report_estimators(times: pd.DataFrame) -> None:
    """Print estimator seconds by algorithm and by dataset (fit + predict)."""
    times = times.assign(total=times["fit"] + times["predict"])
    for key in ("algorithm", "dataset"):
        table = times.groupby(key)[["total", "fit", "predict"]].sum()
        print(f"estimator seconds by {key}:")
        print(table.sort_values("total", ascending=False).round(1).to_string())


def train_compute(repo: Path, results: str = "results") -> dict[tuple[str, str, str], float]:
    """Seconds spent inside fit and evaluate of the train jobs, per (dataset, cost model,
    algorithm), summed over their timings."""
    times = estimator_seconds(repo, results)
    times = times[times["cost_model"] != "_shared"]
    total = (
        times.assign(total=times["fit"] + times["predict"])
        .groupby(["dataset", "cost_model", "algorithm"])["total"]
        .sum()
    )  # a cell's blocks summed: a cell runs in one block or in many
    return {key: float(t) for key, t in total.items()}


def report_overhead(
    jobs: pd.DataFrame,
    computed: dict[tuple[str, str, str], float],
    wall: float,
    cores: int,
    factors: dict[tuple[str, str, str], float],
) -> None:
    """Print where the core time went, and the same for the full run when scaled down
    (each experiment's training times its ``factors``: the unscaled run's trials over these)."""
    compute = sum(computed.values())
    other = float(jobs.loc[jobs.rule != "train", "seconds"].sum())
    trains = jobs[jobs.rule == "train"]
    per_job = (trains["seconds"].sum() - compute) / max(len(trains), 1)
    idle = wall * cores - float(jobs["seconds"].sum())
    print(
        f"inside the estimators (fit + evaluate): {compute:.1f} s; data and results jobs: "
        f"{other:.1f} s; per train job outside fit/evaluate (Python start-up, imports, "
        f"reading inputs, writing the shard): {per_job:.2f} s; cores idle: {idle:.1f} s"
    )
    overhead = 1 - (compute + other) / (wall * cores)
    print(f"overhead of this run: {100 * overhead:.1f} % of {cores} cores x wall")
    if any(factor != 1 for factor in factors.values()):
        train_full = sum(t * factors[key] for key, t in computed.items())
        overhead_s = per_job * len(trains) + max(idle, 0.0)
        full = (other + train_full + overhead_s) / cores
        print(
            f"extrapolated full run: {full / 60:.0f} min on {cores} cores, Snakemake "
            f"overhead {100 * overhead_s / (full * cores):.1f} % (target < 10 %): each "
            f"experiment's training x its unscaled trials over these ({train_full:.0f} s), "
            "same jobs and data stages"
        )


_CPU = re.compile(r" INFO cpu: (\d+(?:\.\d+)?) s$", re.MULTILINE)
_STAGE = re.compile(r" INFO cpu ([a-z' ]+): (\d+(?:\.\d+)?) s$", re.MULTILINE)
_TRAIN = re.compile(r"train/([^/]+)/([^/]+)/([^/]+)/block-(\d+)\.log$")
#: A train job's CPU outside its estimators, by stage (the CPU its log records at each,
#: ``budgetboost.pipeline.job``): what each job pays once, and what grows with its trials.
STAGES = {
    "start-up": "Python, Snakemake's preamble, the script's imports",
    "import": "the estimator's module and its library (LightGBM, scikit-learn, ...)",
    "inputs": "reading the data and the shared path, drawing the splits and costs",
    "trials": "each trial's work outside fit and evaluation, summed",
    "writing": "the shard, timings and stumps, and the exit",
}


def job_stages(log_text: str, inside: float) -> dict[str, float] | None:
    """A train job's CPU seconds outside its estimators by :data:`STAGES`, from its log and
    the fit and evaluation seconds of its trials (``inside``); None for a log without the
    stages (a run made before they were logged) or of a job that did not finish."""
    marks = {name: float(value) for name, value in _STAGE.findall(log_text)}
    total = _CPU.findall(log_text)
    needed = ("before the work", "after the estimator's import", "before the trials")
    if not total or any(name not in marks for name in (*needed, "after the trials")):
        return None
    return {
        "start-up": marks["before the work"],
        "import": marks["after the estimator's import"] - marks["before the work"],
        "inputs": marks["before the trials"] - marks["after the estimator's import"],
        "trials": marks["after the trials"] - marks["before the trials"] - inside,
        "writing": float(total[-1]) - marks["after the trials"],
    }


def report_job_cpu(repo: Path, results: str, jobs: pd.DataFrame) -> None:
    """Print the CPU seconds of a train job's process outside its estimators (the CPU its
    log ends with, less its trials' fit and evaluation seconds), by the library it imports,
    and where the logs record them, by stage (:data:`STAGES`): a job's fixed cost is its
    start-up, inputs and writing, paid once whatever its trials."""
    outside: dict[str, list[float]] = {}
    stages: list[dict] = []
    for job in jobs[jobs.rule == "train"].itertuples():
        match = _TRAIN.search(job.log or "")
        log = repo / job.log if job.log else None
        if not match or log is None or not log.is_file():
            continue
        text = log.read_text()
        cpu = _CPU.findall(text)
        timings = (
            repo
            / results
            / "timings"
            / Path(*match.groups()[:3])
            / (f"block-{match.group(4)}.parquet")
        )
        if not cpu or not timings.is_file():
            continue
        t = pd.read_parquet(timings)
        inside = float(t["fit_seconds"].sum() + t["predict_seconds"].sum())
        outside.setdefault(match.group(3), []).append(float(cpu[-1]) - inside)
        if (split := job_stages(text, inside)) is not None:
            stages.append({"algorithm": match.group(3), "n_trials": len(t), **split})
    if not outside:
        return
    every = [v for values in outside.values() for v in values]
    print(
        f"CPU of a train job's process outside its estimators: median {np.median(every):.2f} s,"
        f" mean {np.mean(every):.2f} s over {len(every)} jobs; by algorithm (median):"
    )
    for name, values in sorted(outside.items(), key=lambda item: -np.median(item[1])):
        print(f"  {name:<24} {np.median(values):6.2f} s  ({len(values)} jobs)")
    if stages:
        report_stages(pd.DataFrame(stages))


def report_stages(stages: pd.DataFrame) -> None:
    """Print the medians of a train job's CPU outside its estimators by stage, the
    pipeline's fixed cost of a job (start-up + inputs + writing: not the estimator's import,
    which is its library's) overall and by algorithm, and the trials' share per trial."""
    stages = stages.assign(fixed=stages["start-up"] + stages["inputs"] + stages["writing"])
    print(f"by stage (median CPU-s over {len(stages)} train jobs):")
    for name, what in STAGES.items():
        print(f"  {name:<9} {stages[name].median():6.3f} s  ({what})")
    per_trial = stages["trials"] / stages["n_trials"]
    print(
        f"a train job's fixed CPU in the pipeline (start-up + inputs + writing): median "
        f"{stages['fixed'].median():.3f} s, quartiles {stages['fixed'].quantile(0.25):.3f}-"
        f"{stages['fixed'].quantile(0.75):.3f} s, mean {stages['fixed'].mean():.3f} s; "
        f"its estimator's import: median {stages['import'].median():.3f} s, largest "
        f"{stages['import'].max():.3f} s; outside the estimators per trial: median "
        f"{per_trial.median():.4f} s"
    )
    by = stages.groupby("algorithm")[["fixed", *STAGES]].median().sort_values("fixed")
    print("by algorithm (median CPU-s):")
    print(by.round(3).to_string())


def results_folder(repo: Path, configfile: str, config: dict) -> str:
    """The config's results folder (its ``results`` key, else the default for it)."""
    return str(config.get("results") or default_results([configfile], repo)).rstrip("/")


def report_run(
    repo: Path,
    results: str,
    jobs: pd.DataFrame,
    wall: float,
    cores: int,
    factors: dict[tuple[str, str, str], float],
) -> None:
    """Print the stages, the overhead, the estimator seconds and the five longest jobs (of
    any rule) of a finished run."""
    print("per stage: jobs, summed job seconds, mean seconds per job")
    stages = jobs.groupby("rule", sort=False)["seconds"].agg(["count", "sum", "mean"])
    for rule, row in stages.iterrows():
        print(f"  {rule:<13} {int(row['count']):>5} {row['sum']:>10.1f} {row['mean']:>8.2f}")
    report_overhead(jobs, train_compute(repo, results), wall, cores, factors)
    report_job_cpu(repo, results, jobs)
    report_estimators(estimator_seconds(repo, results))
    print("longest jobs (s):")
    for job in jobs.sort_values("seconds", ascending=False).head(5).itertuples():
        print(f"  {job.seconds:8.0f}  {job.log or job.rule}")
    print("jobs per rule:", dict(collections.Counter(jobs.rule)))


def report_existing(repo: Path, configfile: str, cores: int) -> None:
    """Part of ``--existing``: the report of a run already made in ``repo`` (a clone where
    ``snakemake --cores N`` ran to the end), from Snakemake's job records and the timing
    tables, without running anything. Its wall time is the span of its jobs' records."""
    jobs = job_records(repo)
    wall = float(jobs["end"].max() - jobs["start"].min())
    config = load_yaml(repo / configfile, "config file")
    results = results_folder(repo, configfile, config)
    print(f"run in {repo}: {len(jobs)} jobs, {wall / 60:.1f} min from first start to last end")
    report_run(repo, results, jobs, wall, cores, {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scale",
        type=float,
        default=0.01,
        help="multiply trials and block size (1: the full experiment)",
    )
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="run here and keep the results")
    parser.add_argument(
        "--paper", action="store_true", help="time the paper's part of the config only"
    )
    parser.add_argument(
        "--configfile", default="config/config.yaml", help="the config (relative to the root)"
    )
    parser.add_argument(
        "--scheduler",
        choices=("ilp", "greedy"),
        help="Snakemake's job scheduler for the timed run (default: the profile's)",
    )
    parser.add_argument(
        "--upstream-scheduler",
        action="store_true",
        help="time Snakemake's scheduler unchanged (without one_pending_reevaluation)",
    )
    parser.add_argument(
        "--existing",
        type=Path,
        help="report on a finished run in this copy of the repository instead of running one",
    )
    args = parser.parse_args()
    if args.existing:
        report_existing(args.existing.resolve(), args.configfile, args.cores)
        return
    scheduler = ("--scheduler", args.scheduler) if args.scheduler else ()

    workdir = args.keep or Path(tempfile.mkdtemp(prefix="budgetboost-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    repo = copy_repo(workdir)
    if args.upstream_scheduler:
        upstream_scheduler(repo)
    try:
        dag_seconds, out = snakemake(repo, "-n", "--configfile", args.configfile)
        print(
            f"{args.configfile}: DAG of {job_count(out)} jobs built in {dag_seconds:.1f} s "
            "(snakemake -n; target < 10 s)"
        )

        configfile, config, factors = scaled_config(repo, args.configfile, args.scale, args.paper)
        planned = job_count(snakemake(repo, "-n", "--configfile", configfile)[1])
        wall, out = snakemake(
            repo, "--cores", str(args.cores), "--configfile", configfile, *scheduler
        )
        noop, _ = snakemake(repo, "--cores", str(args.cores), "--configfile", configfile)
        jobs = job_records(repo)
        print(
            f"run{' of the paper part' if args.paper else ''} at scale {args.scale} "
            f"(blocks sized by cost, at most {config.get('block_seconds', 120)} s): {len(jobs)} "
            f"jobs ({planned} planned incl. `all`) in {wall:.1f} s wall on {args.cores} "
            f"cores, scheduler {args.scheduler or 'of the profile'}"
        )
        print(f"no-op second run: {noop:.1f} s (target < 5 s)")
        print(
            f"Snakemake's own process: {own_cpu(out):.1f} CPU s, "
            f"{own_cpu(out) / wall:.2f} of a core over the run, "
            f"{own_cpu(out) / max(len(jobs), 1):.3f} CPU s per job "
            f"({'upstream scheduler' if args.upstream_scheduler else 'one pending timer'})"
        )

        results = results_folder(repo, configfile, config)
        report_run(repo, results, jobs, wall, args.cores, factors)
    finally:
        if args.keep is None:
            shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
