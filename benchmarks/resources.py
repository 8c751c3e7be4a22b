"""What a finished run's cluster jobs needed, and the ``resources:`` to ask for.

Reads the job logs of a config's run (the log files of the jobs its plan holds, under
``logs/`` for ``results: results``, ``logs/x`` for ``results: results/x``): per submitted
rule, how many jobs finished, the largest peak memory (MiB, the last line of its log) and the
longest job (Snakemake's record of its start and end); then prints the config's
``resources:`` block suggested from them (:func:`budgetboost.pipeline.resources.suggested`:
1.5x the peak, 3x the time) next to what the config asks for now.

Logs of another config are refused: the results folder must be recorded as this config's
(:mod:`budgetboost.pipeline.folders`; ``--assume-owner`` reads a folder that a run before
those records wrote, as this config's).

Run from the repository root after ``snakemake --cores N --configfile CONFIG``:
``python benchmarks/resources.py --configfile config/full_size.yaml [--root DIR]`` (``--root``:
the repository the run happened in, default this one).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import yaml

from budgetboost.checks import ConfigError, check_all, load_config_file
from budgetboost.pipeline import folders
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
    parser.add_argument(
        "--assume-owner",
        action="store_true",
        help="read a results folder that records no config (an older run's) as this one's",
    )
    args = parser.parse_args()
    try:
        config = load_config_file(args.configfile)
        plan = Plan(*check_all(config, ROOT, [args.configfile]))
    except ConfigError as exc:
        raise SystemExit(f"benchmarks/resources.py: {exc}") from None
    identity = folders.config_identity([args.configfile], ROOT)
    recorded = folders.owner(plan.results, args.root)
    if recorded != identity and not (recorded is None and args.assume_owner):
        whose = (
            f"holds the outputs of {recorded}"
            if recorded
            else "records no config (--assume-owner reads it as this config's)"
        )
        raise SystemExit(
            f"benchmarks/resources.py: {args.root / plan.results}/ {whose}, not of {identity}: "
            "its logs say nothing of what this config needs"
        )
    logs = [log for rule in DEFAULTS for log in plan.job_logs(rule)]
    table = measured(args.root, logs)
    if table.empty:
        raise SystemExit(f"no finished job logs of {identity} under {args.root / plan.logs}")
    suggestion = suggested(table)
    table["minutes"] = table.pop("seconds") / 60
    for key in ("mem_mb", "runtime"):
        table[f"asked_{key}"] = [plan.resources(rule)[key] for rule in table["rule"]]
    print(f"measured from {args.root / plan.logs} ({identity}):")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.2f}"))
    print(
        f"\nsuggested (mem_mb = {MEMORY_MARGIN}x peak in MB, rounded up to 100; runtime = "
        f"{RUNTIME_MARGIN}x the longest job, whole minutes, at least 5; defaults {DEFAULTS}):"
    )
    print(yaml.safe_dump({"resources": suggestion}, sort_keys=False))


if __name__ == "__main__":
    main()
