"""CPU seconds of a train job's check of what its estimator reads, against the whole trial.

For each dataset and algorithm, trial 0 (and the next ``--trials - 1``) is run exactly as a
train job runs it (``scale.trial_seconds``: the trial's split and costs, fit, evaluation on
the test and training rows at every budget of the grid, the checks), with one thread, and the
CPU seconds spent inside the checks of :mod:`budgetboost.pipeline.verify` that every trial
runs (the reproducibility check, once per (cost model, algorithm) and run, is not timed: it
is a second fit) are measured apart. Prints, per (dataset, algorithm), the trial's CPU seconds, the
check's, and its share of the trial (medians over the trials).

Run from the repository root: ``python benchmarks/contract_check.py [--datasets pima
spambase] [--algorithms greedy tree_cs] [--configfile config/suite.yaml] [--cost-model
uniform_0_2] [--trials 3]``.
"""

from __future__ import annotations

import os

# before numpy loads its BLAS: one thread, as in the pipeline's jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import scale  # noqa: E402

from budgetboost.checks import check_all, load_config_file  # noqa: E402
from budgetboost.data.datasets import build_binarized  # noqa: E402
from budgetboost.pipeline import blocks, verify  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DATASETS = ["pima", "spambase", "ocr17"]
ALGORITHMS = ["greedy", "greedy_tree2", "adaboost_rs", "tree_cs", "budget_prune", "aaco"]
#: the checks a train job runs on every trial (not the reproducibility check's comparison)
CHECKED = [n for n in verify.__all__ if n.startswith("check_") and n != "check_same_rows"]


class CheckClock:
    """The CPU seconds spent inside the per-trial checks ``blocks`` calls."""

    def __init__(self) -> None:
        self.seconds = 0.0
        for name in CHECKED:
            if hasattr(blocks, name):
                setattr(blocks, name, self._timed(getattr(verify, name)))

    def _timed(self, check):
        @functools.wraps(check)
        def timed(*args, **kwargs):
            start = time.process_time()
            try:
                return check(*args, **kwargs)
            finally:
                self.seconds += time.process_time() - start

        return timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "suite.yaml")
    parser.add_argument("--datasets", nargs="+", default=DATASETS)
    parser.add_argument("--algorithms", nargs="+", default=ALGORITHMS)
    parser.add_argument("--cost-model", default=scale.COST_MODEL)
    parser.add_argument("--trials", type=int, default=3, help="trials timed (median)")
    args = parser.parse_args()
    scale.COST_MODEL = args.cost_model
    config, registry = check_all(load_config_file(args.configfile), ROOT)
    clock = CheckClock()
    print(f"{'dataset':<14}{'algorithm':<18}{'trial s':>9}{'check s':>9}{'share':>8}")
    for dataset in args.datasets:
        entry = registry[dataset]
        data = build_binarized(dataset, entry, ROOT)
        n = entry["train_size"]
        for name in args.algorithms:
            trial_s, check_s = [], []
            for trial in range(args.trials):
                clock.seconds = 0.0
                result = scale.trial_seconds(config, entry, data, dataset, n, name, trial)
                trial_s.append(result["cpu_s"])
                check_s.append(clock.seconds)
            total, check = statistics.median(trial_s), statistics.median(check_s)
            share = check / total if total else 0.0
            print(f"{dataset:<14}{name:<18}{total:>9.3f}{check:>9.3f}{share:>8.1%}", flush=True)


if __name__ == "__main__":
    main()
