"""How every algorithm's time and memory grow with the training rows.

For each dataset (default: census and ocr17) and each number of training rows ``n`` (default
1,000, 4,000, 16,000 and ``all``: every row not held out for test), every algorithm of a
config (default ``config/config.yaml``) is fitted and evaluated on trial 0 exactly as a train
job does it (:func:`budgetboost.pipeline.blocks.run_block`: the trial's split with
``train_size = n`` and the registry's ``test_size``, U[0, 2] costs, the cost model's budget
grid), each in a fresh Python process with one thread, so that its peak memory is its own.
An algorithm that reads the shared AdaBoost path gets it computed first in its process (its
time is the row ``adaboost_path``, not the algorithm's). Prints:

- per (dataset, algorithm), the CPU seconds of fit + evaluation and the peak resident memory
  of the process (MiB; the data and the imports included, i.e. what a train job of one trial
  needs) at each ``n``, and the log-log slope of the time in ``n`` (least squares over the
  sizes; 1 = linear);
- per (dataset, n), the engine's time per round, unbudgeted AdaBoost stumps
  (``BudgetedBoost(criterion="adaboost")``), against LightGBM's depth-1 boosting with the same
  rounds on the same rows (``benchmarks/engine.py``'s settings; medians of paired runs), and
  their ratio (LightGBM / ours: above 1, the engine is faster).

The table is also written to ``results/benchmarks/scale.csv`` and drawn in
``results/benchmarks/scale.png``.

Run from the repository root: ``python benchmarks/scale.py [--datasets census ocr17]
[--sizes 1000 4000 16000 all] [--algorithms smoothed greedy] [--configfile
config/config.yaml] [--repeats 3] [--engine-only]``. ``--engine-only`` times only the
engine against LightGBM (a minute instead of ten; no table, CSV or figure written).
"""

from __future__ import annotations

import os

# before numpy loads its BLAS: one thread, as in the pipeline's jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
COST_MODEL = "uniform_0_2"
PATH = "adaboost_path"
OUT = ROOT / "results" / "benchmarks"


def _load(configfile: Path, dataset: str):
    """The checked config (defaults filled in), the dataset's registry entry and its data."""
    from budgetboost.checks import check_all, load_config_file
    from budgetboost.data.datasets import build_binarized

    config, registry = check_all(load_config_file(configfile), ROOT, [configfile])
    entry = registry[dataset]
    return config, entry, build_binarized(dataset, entry, ROOT)


def rows_for(size: str, n_rows: int, test_size: int) -> int:
    """Training rows of ``size`` (a number, or ``all``: every row not held out for test)."""
    return n_rows - test_size if size == "all" else int(size)


def child(configfile: Path, dataset: str, n: int, algorithm: str) -> dict:
    """Fit and evaluate one algorithm on trial 0 with ``n`` training rows, in this process."""
    config, entry, data = _load(configfile, dataset)
    result = trial_seconds(config, entry, data, dataset, n, algorithm)
    return {"cpu_s": result["cpu_s"], "error": result["error"], "peak_mib": _peak_mib()}


def trial_seconds(
    config: dict,
    entry: dict,
    data,
    dataset: str,
    n: int,
    algorithm: str,
    trial: int = 0,
    paths: dict | None = None,
) -> dict:
    """CPU seconds of one trial of ``algorithm`` (``adaboost_path``: the shared AdaBoost path)
    as a train job runs it under U[0, 2] (:func:`budgetboost.pipeline.blocks.run_block_on`: fit,
    evaluation on the test and training rows at every budget), with ``n`` training rows and
    the registry's test size, and its test error at the grid's top. ``paths``: the trial's
    shared AdaBoost path when already fitted (its time is not the algorithm's); the result
    of ``adaboost_path`` holds it (``paths``)."""
    from budgetboost.pipeline.adaboost_path import fit_adaboost_paths
    from budgetboost.pipeline.blocks import block_inputs, run_block_on
    from budgetboost.pipeline.plan import Plan, budget_grid
    from budgetboost.pipeline.specs import algorithm_spec

    model = config["cost_models"][COST_MODEL]
    inputs = block_inputs(
        data,
        dataset=dataset,
        cost_model=COST_MODEL,
        cost_spec=model["spec"],
        train_size=n,
        test_size=entry["test_size"],
        trials=[trial],
        root=ROOT,
    )
    rounds = Plan(config, {dataset: entry}).path_rounds(dataset)
    clock = time.process_time()
    if algorithm == PATH:
        fitted = fit_adaboost_paths(data.X, data.y, inputs.splits, [trial], rounds)[0]
        return {"cpu_s": time.process_time() - clock, "error": np.nan, "paths": fitted}
    spec = algorithm_spec(algorithm, config["algorithms"][algorithm], entry["adaboost_rounds"])
    if spec.adaboost_path and paths is None:
        paths = fit_adaboost_paths(data.X, data.y, inputs.splits, [trial], rounds)[0]
    clock = time.process_time()
    shard, _, _ = run_block_on(
        data,
        inputs,
        dataset=dataset,
        cost_model=COST_MODEL,
        spec=spec,
        budgets=budget_grid(**model["budgets"]),
        trials=[trial],
        paths=paths if spec.adaboost_path else None,
    )
    return {"cpu_s": time.process_time() - clock, "error": float(shard["test_error"].iloc[-1])}


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def measure(configfile: Path, dataset: str, n: int, algorithm: str) -> dict:
    """:func:`child` in a fresh interpreter (its own peak memory, one thread)."""
    command = [sys.executable, __file__, "--child", str(configfile), dataset, str(n), algorithm]
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
    if done.returncode:
        raise RuntimeError(f"{dataset} n={n} {algorithm} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def slope(sizes: list[int], seconds: list[float]) -> float:
    """Least-squares slope of log(time) against log(n)."""
    if len(sizes) < 2:
        return float("nan")
    return float(np.polyfit(np.log(sizes), np.log(seconds), 1)[0])


def engine_against_lightgbm(data, train: np.ndarray, repeats: int) -> tuple[float, float, int]:
    """Seconds per round of unbudgeted AdaBoost stumps, ours and LightGBM depth-1 (paired)."""
    import lightgbm
    from engine import LIGHTGBM_PARAMS, ROUNDS, paired_seconds

    from budgetboost import BudgetedBoost

    X, y = data.X[train], data.y[train]
    label = (y > 0).astype(np.float64)

    def ours():
        return BudgetedBoost(criterion="adaboost", max_rounds=ROUNDS).fit(X, y)

    def lightgbm_fit():
        dataset = lightgbm.Dataset(X, label=label, params=LIGHTGBM_PARAMS)
        return lightgbm.train(LIGHTGBM_PARAMS, dataset, num_boost_round=rounds)

    rounds = len(ours().alpha_)  # the rounds ours runs (it may stop at a zero edge)
    lightgbm_fit()
    t_ours, t_lgb, _ = paired_seconds(ours, lightgbm_fit, repeats)
    return t_ours / rounds, t_lgb / rounds, rounds


def draw(table: pd.DataFrame, engine: pd.DataFrame, path: Path) -> None:
    """Time against n per algorithm (one panel per dataset), and the engine's per-round ratio."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from budgetboost.data.io import atomic_path

    datasets = list(dict.fromkeys(table["dataset"]))
    fig, axes = plt.subplots(1, len(datasets) + 1, figsize=(5 * (len(datasets) + 1), 4.5))
    for ax, dataset in zip(axes, datasets, strict=False):
        for algorithm, rows in table[table["dataset"] == dataset].groupby("algorithm", sort=False):
            ax.loglog(rows["n"], rows["cpu_s"], marker="o", label=algorithm)
        ax.set(title=dataset, xlabel="training rows n", ylabel="fit + evaluation, CPU s")
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7, ncol=2)
    for dataset, rows in engine.groupby("dataset", sort=False):
        axes[-1].semilogx(rows["n"], rows["lightgbm_over_ours"], marker="o", label=dataset)
    axes[-1].axhline(1.0, color="grey", lw=0.8)
    axes[-1].set(
        title="per round: LightGBM depth-1 / ours", xlabel="training rows n", ylabel="ratio"
    )
    axes[-1].legend()
    fig.tight_layout()
    with atomic_path(path, suffix=".png") as tmp:
        fig.savefig(tmp, dpi=120)
    plt.close(fig)


def checked_arguments(args: argparse.Namespace) -> list[str]:
    """The algorithms to measure, once every argument is known good; else exit with one line
    naming the argument and its value."""
    from budgetboost.checks import ConfigError, check_all, load_config_file

    def stop(message: str) -> None:
        raise SystemExit(f"benchmarks/scale.py: {message}")

    if args.repeats < 1:
        stop(f"--repeats: {args.repeats} is not a number of paired runs (1 or more)")
    for size in args.sizes:
        if size != "all" and not (size.isdigit() and int(size) > 0):
            stop(f"--sizes: {size!r} is neither a number of training rows nor 'all'")
    try:
        config, registry = check_all(load_config_file(args.configfile), ROOT, [args.configfile])
    except ConfigError as exc:
        stop(str(exc))
    for dataset in args.datasets:
        if dataset not in registry:
            stop(
                f"--datasets: {dataset!r} is not in the registry {config['registry']} "
                f"(known: {', '.join(sorted(registry))})"
            )
    for name in args.algorithms or []:
        if name not in config["algorithms"]:
            stop(
                f"--algorithms: {name!r} is not an algorithm of {args.configfile} "
                f"(defined: {', '.join(config['algorithms'])})"
            )
    return list(args.algorithms or config["algorithms"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "config.yaml")
    parser.add_argument("--datasets", nargs="+", default=["census", "ocr17"])
    parser.add_argument("--sizes", nargs="+", default=["1000", "4000", "16000", "all"])
    parser.add_argument("--algorithms", nargs="+", default=None)
    parser.add_argument("--repeats", type=int, default=3, help="paired engine/LightGBM runs")
    parser.add_argument(
        "--engine-only", action="store_true", help="only the engine against LightGBM"
    )
    parser.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        configfile, dataset, n, algorithm = args.child
        print(json.dumps(child(Path(configfile), dataset, int(n), algorithm)))
        return

    from budgetboost.data.io import atomic_path
    from budgetboost.data.splits import split_indices

    names = checked_arguments(args)
    algorithms = [] if args.engine_only else [PATH, *names]
    rows, engine_rows = [], []
    for dataset in args.datasets:
        _, entry, data = _load(args.configfile, dataset)
        n_all = rows_for("all", len(data.y), entry["test_size"])
        sizes = sorted(
            {min(rows_for(size, len(data.y), entry["test_size"]), n_all) for size in args.sizes}
        )
        print(f"\n{dataset}: {len(data.y)} rows x {data.X.shape[1]} columns, sizes {sizes}")
        for n in sizes:
            train, _ = split_indices(dataset, 0, len(data.y), n, entry["test_size"])
            ours, lgb, rounds = engine_against_lightgbm(data, train, args.repeats)
            engine_rows.append((dataset, n, rounds, ours * 1e6, lgb * 1e6, lgb / ours))
            print(
                f"  n={n:>6}: engine {ours * 1e6:8.0f} us/round, LightGBM depth-1 "
                f"{lgb * 1e6:8.0f} us/round over {rounds} rounds, ratio {lgb / ours:5.2f}",
                flush=True,
            )
            for algorithm in algorithms:
                start = time.perf_counter()
                result = measure(args.configfile, dataset, n, algorithm)
                rows.append({"dataset": dataset, "algorithm": algorithm, "n": n, **result})
                print(
                    f"    {algorithm:<18}{result['cpu_s']:9.2f} cpu s{result['peak_mib']:8.0f} MiB"
                    f"  (wall {time.perf_counter() - start:.1f} s with start-up)",
                    flush=True,
                )
    engine = pd.DataFrame(
        engine_rows,
        columns=["dataset", "n", "rounds", "ours_us", "lightgbm_us", "lightgbm_over_ours"],
    )
    if args.engine_only:
        print("\nengine per round against LightGBM depth-1 (ratio LightGBM / ours):")
        print(engine.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
        return
    table = pd.DataFrame(rows)
    print_tables(table, engine)
    OUT.mkdir(parents=True, exist_ok=True)
    with atomic_path(OUT / "scale.csv", suffix=".csv") as tmp:
        table.to_csv(tmp, index=False)
    with atomic_path(OUT / "engine_scale.csv", suffix=".csv") as tmp:
        engine.to_csv(tmp, index=False)
    draw(table, engine, OUT / "scale.png")
    print(f"\nwrote {OUT / 'scale.csv'}, {OUT / 'engine_scale.csv'} and {OUT / 'scale.png'}")


def print_tables(table: pd.DataFrame, engine: pd.DataFrame) -> None:
    """CPU seconds and peak MiB per (dataset, algorithm) at each n, and the slope in n."""
    for dataset, part in table.groupby("dataset", sort=False):
        sizes = sorted(int(v) for v in part["n"].unique())
        print(f"\n{dataset}: CPU s (fit + evaluation) | peak MiB, at n = {sizes}; slope of time")
        for algorithm, rows in part.groupby("algorithm", sort=False):
            rows = rows.sort_values("n")
            times = " ".join(f"{t:8.2f}" for t in rows["cpu_s"])
            peaks = " ".join(f"{m:6.0f}" for m in rows["peak_mib"])
            fit = slope(rows["n"].tolist(), rows["cpu_s"].tolist())
            print(f"  {algorithm:<18}{times} |{peaks} | slope {fit:5.2f}")
    print("\nengine per round against LightGBM depth-1 (ratio LightGBM / ours):")
    print(engine.to_string(index=False, float_format=lambda v: f"{v:.2f}"))


if __name__ == "__main__":
    main()
