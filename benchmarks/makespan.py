"""How long a run takes on N cores: a finished run's measured job times replayed.

A run cannot be shorter than its longest job, nor than its work spread over its cores
(*ideal* = summed job seconds / N). Replaying measured times, as a cluster user would plan
a run, says how close the blocks let a run come to the ideal at 2, 8, 16 and 64 cores:

- each trial's seconds (fit + evaluation) come from the run's timing tables, the seconds a
  job spends outside its trials (start-up, imports, reading and writing) from Snakemake's
  records of its train jobs (their median), the binarize and results jobs as they were
  measured;
- **before**: the blocks of a fixed number of trials (``--old-block-size``, e.g. 400 for
  ``config/config.yaml``, 10 for ``config/suite.yaml`` until cost-sized blocks), each
  block's first trial fitted twice (the reproducibility check of every block then), jobs
  started in plan order (Snakemake's greedy scheduler without priorities takes ready jobs
  by input size, which says nothing of their length);
- **after**: the blocks of the current plan (:class:`budgetboost.pipeline.plan.Plan`: sized
  by each trial's *expected* cost), one reproducibility check per (cost model, algorithm)
  (the first trial of its cheapest dataset fitted once more by the train job of its block:
  ``Plan.checked_trial``), jobs started longest-expected first (the train rule's
  ``priority``), as Snakemake does;
- a job starts when its inputs exist (the dataset's binarization, the shared AdaBoost path
  of its trials) and a core is free; the results rules run after the last training job
  (aggregate, then the figures and claims side by side, then the first page).

Prints, per number of cores and for both: the makespan, the ideal, their ratio, and the
longest job; then the training stage alone (first binarization to last training job).

Run from the repository root: ``python benchmarks/makespan.py --run DIR [--configfile
config/suite.yaml] [--old-block-size 10] [--cores 2 8 16 64] [--cpu]``, ``DIR`` a copy of
the repository where ``snakemake --cores N [--configfile ...]`` ran to the end. ``--cpu``
replays each train job at its CPU seconds (its trials and its time outside them scaled by
its log's CPU seconds over its wall seconds): for a run made on cores shared with other
work, whose wall seconds say more of the other work than of the run.
"""

from __future__ import annotations

import argparse
import heapq
import math
import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from budgetboost.checks import check_all, load_config_file
from budgetboost.pipeline.plan import Plan, block_trials
from budgetboost.pipeline.resources import job_records

ROOT = Path(__file__).resolve().parents[1]
_TRAIN_LOG = re.compile(r"train/([^/]+)/([^/]+)/([^/]+)/block-(\d+)\.log$")
_CPU_LINE = re.compile(r"INFO cpu: ([\d.]+) s")


@dataclass
class Job:
    """One job of a replay."""

    name: str
    seconds: float
    priority: float = 0.0
    needs: list[str] = field(default_factory=list)


def trial_times(run: Path, results: str) -> tuple[dict, dict]:
    """``{(dataset, cost model, algorithm): {trial: (fit, fit + evaluate)}}`` of the run's
    train jobs, and ``{dataset: {trial: seconds}}`` of its shared AdaBoost paths."""
    cells: dict = {}
    paths: dict = {}
    for table in run.glob(f"{results}/timings/*/*/*/block-*.parquet"):
        dataset, cost_model, algorithm = table.parts[-4:-1]
        frame = pd.read_parquet(table)
        for row in frame.itertuples():
            seconds = float(row.fit_seconds + row.predict_seconds)
            if cost_model == "_shared":
                paths.setdefault(dataset, {})[int(row.trial)] = seconds
            else:
                cells.setdefault((dataset, cost_model, algorithm), {})[int(row.trial)] = (
                    float(row.fit_seconds),
                    seconds,
                )
    return cells, paths


def cpu_ratios(run: Path) -> dict[str, float]:
    """``{log: CPU / wall}`` of the run's train jobs: the CPU seconds its log ends with over
    Snakemake's record of its time (at most 1). On cores shared with other work a job's wall
    seconds grow and its CPU seconds hardly do: ``--cpu`` replays the run as on free cores."""
    jobs = job_records(run)
    ratios = {}
    for job in jobs[jobs.rule == "train"].itertuples():
        path = run / (job.log or "")
        if not _TRAIN_LOG.search(job.log or "") or not path.is_file() or job.seconds <= 0:
            continue
        cpu = _CPU_LINE.findall(path.read_text())
        if cpu:
            ratios[job.log] = min(1.0, float(cpu[-1]) / job.seconds)
    return ratios


def on_cpu(run: Path, cells: dict, ratios: dict[str, float]) -> dict:
    """``cells`` (:func:`trial_times`) with each train job's trials scaled by its
    :func:`cpu_ratios` entry."""
    scaled = {key: dict(times) for key, times in cells.items()}
    for log, ratio in ratios.items():
        cell = scaled.get(_TRAIN_LOG.search(log).groups()[:3], {})
        for trial in _block_of(run, log):
            if trial in cell:
                fit, total = cell[trial]
                cell[trial] = (fit * ratio, total * ratio)
    return scaled


def overheads(run: Path, cells: dict, ratios: dict[str, float] | None = None) -> dict:
    """The run's measured seconds per rule: ``train`` the median of its train jobs' time
    outside their trials (each job's scaled by its ``ratios`` entry where given: see
    :func:`cpu_ratios`); ``binarize`` per dataset; the results rules' (summed per rule)."""
    jobs = job_records(run)
    outside = []
    for job in jobs[jobs.rule == "train"].itertuples():
        match = _TRAIN_LOG.search(job.log or "")
        if not match:
            continue
        dataset, cost_model, algorithm, _ = match.groups()
        trials = cells.get((dataset, cost_model, algorithm), {})
        block = _block_of(run, job.log)
        inside = sum(trials[t][1] for t in block if t in trials)
        ratio = (ratios or {}).get(job.log, 1.0)
        outside.append(max(0.0, job.seconds * ratio - inside))
    binarize = {
        re.search(r"binarize/([^/]+)\.log$", job.log).group(1): job.seconds
        for job in jobs[jobs.rule == "binarize"].itertuples()
        if job.log and re.search(r"binarize/([^/]+)\.log$", job.log)
    }
    results = jobs[jobs.rule.isin(["aggregate", "plot", "claims", "landing"])]
    stages = results.groupby("rule")["seconds"].agg(["sum", "max"])
    return {
        "train": statistics.median(outside) if outside else 0.0,
        "binarize": binarize,
        "results": stages,
        "wall": float(jobs["end"].max() - jobs["start"].min()),
    }


def _block_of(run: Path, log: str) -> list[int]:
    """The trials of a train job, from its log's first line (``... trials [0, 1], ...``)."""
    text = (run / log).read_text().splitlines() if (run / log).is_file() else []
    for line in text[:3]:
        match = re.search(r"trials \[([\d, ]*)\]", line)
        if match:
            return [int(t) for t in match.group(1).split(",") if t.strip()]
    return []


def fixed_blocks(n: int, size: int) -> list[list[int]]:
    return [block_trials(k, size, n) for k in range(math.ceil(n / size))]


def replay_jobs(plan: Plan, cells: dict, paths: dict, measured: dict, old: int | None):
    """The jobs of a replay: ``old`` a fixed block size (before), None the plan's (after)."""
    overhead = measured["train"]
    jobs = [
        Job(f"binarize {d}", measured["binarize"].get(d, 1.0), priority=math.inf)
        for d in plan.datasets
    ]
    path_of: dict[tuple[str, int], str] = {}
    for dataset in plan.datasets:
        times = paths.get(dataset, {})
        if not times:
            continue
        n = plan.trials(dataset)
        size = old or plan.block_size(dataset)
        for k, trials in enumerate(fixed_blocks(n, size)):
            name = f"path {dataset} {k}"
            jobs.append(
                Job(
                    name,
                    overhead + sum(times.get(t, 0.0) for t in trials),
                    priority=1e6 if old is None else 0.0,
                    needs=[f"binarize {dataset}"],
                )
            )
            path_of.update({(dataset, t): name for t in trials})
    for dataset, cost_model, algorithm in plan.experiments():
        times = cells.get((dataset, cost_model, algorithm))
        if not times:
            continue
        reads_path = plan.config["algorithms"][algorithm].get("adaboost_path", False)
        n = plan.run_trials(dataset, cost_model, algorithm)
        size = old or plan.block_size(dataset, cost_model, algorithm)
        for k, trials in enumerate(fixed_blocks(n, size)):
            seconds = overhead + sum(times[t][1] for t in trials if t in times)
            if old is not None and trials[0] in times:  # the block's twin fit, before
                seconds += times[trials[0]][0]
            checked = (
                None if old is not None else plan.checked_trial(k, dataset, cost_model, algorithm)
            )
            if checked in times:  # the reproducibility check: the trial fitted once more
                seconds += times[checked][1]
            needs = [f"binarize {dataset}"]
            if reads_path:
                needs += sorted({path_of[(dataset, t)] for t in trials if (dataset, t) in path_of})
            expected = (
                0.0 if old is not None else plan.job_seconds(k, dataset, cost_model, algorithm)
            )
            jobs.append(
                Job(f"train {dataset} {cost_model} {algorithm} {k}", seconds, expected, needs)
            )
    return jobs


def schedule(jobs: list[Job], cores: int) -> tuple[float, float]:
    """List scheduling as Snakemake runs a DAG: whenever a core is free, the ready job of
    highest priority (ties: plan order) starts. Returns (end of the last job, longest job)."""
    index = {job.name: i for i, job in enumerate(jobs)}
    waiting = {job.name: len(job.needs) for job in jobs}
    users: dict[str, list[str]] = {}
    for job in jobs:
        for need in job.needs:
            users.setdefault(need, []).append(job.name)
    ready = [(-jobs[i].priority, i) for i, job in enumerate(jobs) if not job.needs]
    heapq.heapify(ready)
    running: list[tuple[float, str]] = []
    now, free = 0.0, cores
    while ready or running:
        while ready and free:
            _, i = heapq.heappop(ready)
            heapq.heappush(running, (now + jobs[i].seconds, jobs[i].name))
            free -= 1
        now, name = heapq.heappop(running)
        free += 1
        for user in users.get(name, []):
            waiting[user] -= 1
            if not waiting[user]:
                heapq.heappush(ready, (-jobs[index[user]].priority, index[user]))
    return now, max(job.seconds for job in jobs)


def results_stage(measured: dict) -> float:
    """The results rules after the last training job: aggregate, then the figures and the
    claims side by side (their longest), then the first page."""
    stages = measured["results"]
    get = lambda rule, col: float(stages.loc[rule, col]) if rule in stages.index else 0.0  # noqa: E731
    return (
        get("aggregate", "sum")
        + max(get("plot", "max"), get("claims", "max"))
        + get("landing", "sum")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", type=Path, required=True, help="a copy of the repository that ran")
    parser.add_argument("--configfile", default="config/config.yaml")
    parser.add_argument("--old-block-size", type=int, default=400)
    parser.add_argument("--cores", type=int, nargs="+", default=[2, 8, 16, 64])
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="train jobs at their CPU seconds (a run made on cores shared with other work)",
    )
    args = parser.parse_args()
    path = args.run / args.configfile
    config, registry = check_all(load_config_file(path), args.run, [path])
    plan = Plan(config, registry)
    results = plan.results
    cells, paths = trial_times(args.run, results)
    ratios = cpu_ratios(args.run) if args.cpu else None
    if ratios is not None:
        cells = on_cpu(args.run, cells, ratios)
    measured = overheads(args.run, cells, ratios)
    tail = results_stage(measured)
    print(
        f"{args.configfile} as run in {args.run}: {len(cells)} cells, measured wall "
        f"{measured['wall'] / 60:.1f} min; {measured['train']:.2f} s a train job outside "
        f"its trials (median); results stage {tail:.0f} s"
        + (
            f"; train jobs at their CPU seconds ({len(ratios)} jobs, CPU / wall median "
            f"{statistics.median(ratios.values()):.2f})"
            if ratios
            else ""
        )
    )
    for label, old in (("before", args.old_block_size), ("after", None)):
        jobs = replay_jobs(plan, cells, paths, measured, old)
        work = sum(job.seconds for job in jobs) + tail
        what = f"blocks of {old} trials" if old else "blocks sized by cost"
        print(f"\n{label}: {what}, {len(jobs)} jobs, {work:,.0f} s of work")
        print(f"  {'cores':>5} {'makespan s':>11} {'ideal s':>9} {'ratio':>6} {'longest s':>10}")
        for cores in args.cores:
            end, longest = schedule(jobs, cores)
            makespan = end + tail
            ideal = work / cores
            print(
                f"  {cores:>5} {makespan:>11,.0f} {ideal:>9,.0f} {makespan / ideal:>6.2f} "
                f"{longest:>10,.0f}"
            )


if __name__ == "__main__":
    main()
