"""What a finished run's cluster jobs needed, and the ``resources:`` to ask for (#24).

Reads the job logs of a config's run (``logs/`` for ``results: results``, ``logs/x`` for
``results: results/x``): per submitted rule, how many jobs finished, the largest peak memory
(MiB, the last line of its log) and the longest job (Snakemake's record of its start and
end); then prints the config's
``resources:`` block suggested from them (:func:`budgetboost.pipeline.resources.suggested`:
1.5x the peak, 3x the time) next to what the config asks for now.

Run from the repository root after ``snakemake --cores N --configfile CONFIG``:
``python benchmarks/resources.py --configfile config/full_size.yaml [--root DIR]`` (``--root``:
the repository the run happened in, default this one).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from budgetboost.config import check_all, load_config_file
from budgetboost.pipeline.plan import Plan
from budgetboost.pipeline.resources import (
    DEFAULTS,
    MEMORY_MARGIN,
    RUNTIME_MARGIN,
    measured,
    suggested,
)

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", type=Path, default=ROOT / "config" / "config.yaml")
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    plan = Plan(*check_all(load_config_file(args.configfile), ROOT))
    logs = args.root / plan.logs
    table = measured(args.root, plan.logs)
    if table.empty:
        raise SystemExit(f"no finished job logs under {logs}: run the config first")
    suggestion = suggested(table)
    table["minutes"] = table.pop("seconds") / 60
    for key in ("mem_mb", "runtime"):
        table[f"asked_{key}"] = [plan.resources(rule)[key] for rule in table["rule"]]
    print(f"measured from {logs}:")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print(
        f"\nsuggested (mem_mb = {MEMORY_MARGIN}x peak in MB, rounded up to 100; runtime = "
        f"{RUNTIME_MARGIN}x the longest job, whole minutes, at least 5; defaults {DEFAULTS}):"
    )
    print(yaml.safe_dump({"resources": suggestion}, sort_keys=False))


if __name__ == "__main__":
    main()
