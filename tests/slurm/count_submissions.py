"""How many SLURM jobs a run through the cluster profile submits (a dry run, no SLURM needed).

    python tests/slurm/count_submissions.py                      # the full config/config.yaml
    python tests/slurm/count_submissions.py --configfile config/test.yaml

Runs ``snakemake -n --profile workflow/profiles/slurm --workflow-profile none`` from the
repository root (extra arguments are passed on) and prints, per rule, how many jobs the run
has and whether they are bundled (a group of the profile), run on the login node
(``localrules``) or submitted one by one; then the number of SLURM jobs: bundles (the dry
run's "Group job" headers) plus the ungrouped jobs of non-local rules; and what each job
asks for (``mem_mb``, ``runtime`` in minutes: the rule's, or the config's ``resources:``),
with what a full bundle asks for (its jobs run ``cores`` at a time, so ``cores`` x the
memory and ``ceil(components / cores)`` x the runtime).
"""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import yaml

from budgetboost.pipeline.staleness import job_stats

REPO = Path(__file__).resolve().parents[2]
PROFILE = REPO / "workflow" / "profiles" / "slurm"


def dry_run(extra: list[str]) -> str:
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "-n",
        "--profile",
        str(PROFILE),
        "--workflow-profile",
        "none",
        *extra,
    ]
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-4000:]}")
    return proc.stdout + proc.stderr


def job_resources(log: str) -> dict[str, dict[str, set[int]]]:
    """rule -> {"mem_mb": {...}, "runtime": {...}}: the values the dry run's jobs ask for."""
    asked: dict[str, dict[str, set[int]]] = {}
    rule = None
    for line in log.splitlines():
        if m := re.match(r"^\s*(?:local)?rule (\w+):", line):
            rule = m.group(1)
        elif rule and (m := re.match(r"^\s*resources: (.*)$", line)):
            values = dict(kv.split("=", 1) for kv in m.group(1).split(", ") if "=" in kv)
            for key in ("mem_mb", "runtime"):
                if values.get(key, "").isdigit():
                    asked.setdefault(rule, {}).setdefault(key, set()).add(int(values[key]))
    return asked


def _span(values: set[int]) -> str:
    return "-" if not values else "-".join(str(v) for v in sorted({min(values), max(values)}))


def local_rules() -> set[str]:
    """Rule names listed in the workflow's ``localrules:`` directives."""
    names: set[str] = set()
    for path in [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]:
        for block in re.findall(
            r"^localrules:\s*\n((?:[ \t]+\w+,?[ \t]*\n)+)", path.read_text(), flags=re.M
        ):
            names.update(re.findall(r"\w+", block))
        for line in re.findall(r"^localrules:[ \t]*(\w.*)$", path.read_text(), flags=re.M):
            names.update(re.findall(r"\w+", line))
    return names


def main(extra: list[str]) -> None:
    log = dry_run(extra)
    counts = job_stats(log)
    profile = yaml.safe_load((PROFILE / "config.yaml").read_text())
    grouped = set(profile.get("groups", {}))
    local = local_rules() | {"all"}
    bundles = len(re.findall(r"^\[.*\] Group job ", log, flags=re.M))
    asked = job_resources(log)
    single = 0
    print(f"{'rule':<14}{'jobs':>6}{'mem_mb':>8}{'runtime':>9}  where")
    for rule, n in counts.items():
        mem = _span(asked.get(rule, {}).get("mem_mb", set()))
        runtime = _span(asked.get(rule, {}).get("runtime", set()))
        if rule in grouped:
            where = f"bundled ({profile['group-components'][profile['groups'][rule]]} a job)"
        elif rule in local:
            where = "login node (localrules)"
        else:
            where = "one SLURM job each"
            single += n
        print(f"{rule:<14}{n:>6}{mem:>8}{runtime:>9}  {where}")
    print(
        f"total jobs {sum(counts.values())}; SLURM jobs submitted: {bundles} bundles + "
        f"{single} single = {bundles + single}"
    )
    cores, size = int(profile["cores"]), max(profile.get("group-components", {}).values())
    for rule in sorted(grouped & set(asked)):
        mem, runtime = max(asked[rule]["mem_mb"]), max(asked[rule]["runtime"])
        print(
            f"a full bundle of {size} {rule} jobs asks for {min(size, cores)} CPUs, "
            f"{min(size, cores) * mem} MB and {math.ceil(size / cores) * runtime} min"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
