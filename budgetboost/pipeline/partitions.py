"""The SLURM partitions a run asks for, checked against the cluster's where it can be.

A dry run (``snakemake -n --profile workflow/profiles/slurm``) submits nothing, so SLURM never
sees the partition: a misspelt one would only stop the run at the first submission, after
planning. Where ``sinfo`` exists (a login node), :func:`partition_problem` compares the
partitions the run asks for (``slurm_partition`` in the default resources or a rule's
``--set-resources``) with those ``sinfo`` lists, when the workflow is planned; elsewhere (a
laptop) it cannot know, and ``docs/running.md`` says so. A run that names no partition never
asks ``sinfo`` (:func:`planning_problem`): where SLURM's client is installed but no
controller answers, ``sinfo`` takes about ten seconds to fail, on every planning.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["cluster_partitions", "partition_problem", "planning_problem", "requested_partitions"]


def _value(resource: Any) -> str:
    """A resource's value as given (Snakemake's ``Resource.raw``: what the profile or the
    command line wrote), unquoted; "" when it is computed per rule (no way to know)."""
    value = getattr(resource, "raw", resource)
    return value.strip().strip("'\"").strip() if isinstance(value, str) else ""


def requested_partitions(resource_sets: Iterable[Mapping[str, Any] | None]) -> set[str]:
    """The non-empty ``slurm_partition`` values of mappings of resources (Snakemake's default
    resources, and each rule's overwritten resources)."""
    found = set()
    for resources in resource_sets:
        if not resources:
            continue
        for name, value in resources.items():
            if name == "slurm_partition" and _value(value):
                found.add(_value(value))
    return found


def cluster_partitions() -> set[str] | None:
    """The partitions ``sinfo`` lists (None where there is no ``sinfo`` or it fails)."""
    sinfo = shutil.which("sinfo")
    if sinfo is None:
        return None
    try:
        proc = subprocess.run(
            [sinfo, "--noheader", "--format=%P"], capture_output=True, text=True, timeout=30
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if proc.returncode != 0:
        return None
    return {line.strip().rstrip("*") for line in proc.stdout.splitlines() if line.strip()}


def partition_problem(requested: set[str], known: set[str] | None) -> str | None:
    """Why the partitions asked for cannot be submitted to (one line), or None (all known,
    or no way to know)."""
    if known is None or not requested:
        return None
    unknown = sorted(requested - known)
    if not unknown:
        return None
    return (
        f"slurm_partition {unknown[0]!r} is not a partition of this cluster (sinfo lists "
        f"{', '.join(sorted(known)) or 'none'}): set slurm_partition in your profile's "
        "default-resources or --set-resources to one of them"
    )


def planning_problem(resource_sets: Iterable[Mapping[str, Any] | None]) -> str | None:
    """Why the partitions these resources ask for cannot be submitted to, or None: ``sinfo``
    is asked only when one is asked for (module docstring)."""
    requested = requested_partitions(resource_sets)
    if not requested:
        return None
    return partition_problem(requested, cluster_partitions())
