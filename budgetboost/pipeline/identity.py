"""What made a job's output, as a digest the output carries: so a reader tells a shard that
this config's plan made from one copied from another run.

Snakemake re-runs a job whose inputs are newer than its outputs or whose params changed
since *it* made them; a file copied over an output (another config's shard, ``max_rounds:
3`` where the config says 10) is newer than its inputs and carries no params Snakemake
knows, so it is taken as current and read: the summary changed (Greedy 0.271 -> 0.318 at
every budget) and ``-n`` had nothing to do. Each train job therefore records its
*identity* (:func:`job_identity`: a digest of its wildcards, its params, the block's trials,
seeds and code versions among them, and the contents of its code and cost files) in its
outputs' metadata, computed at planning by the same functions that give the job its params
(``common.smk``, param ``identity``); the jobs that read the outputs are given the identity
the plan expects for each (``train_identities`` of ``common.smk``) and stop at the first
that differs (:func:`check_identities`), naming the file and the command that rebuilds it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from budgetboost.data.io import read_metadata, sha256_file

__all__ = [
    "IDENTITY_KEY",
    "REBUILD",
    "IdentityError",
    "check_identities",
    "file_digest",
    "job_identity",
]

#: The metadata key of an output's identity.
IDENTITY_KEY = "identity"
#: How to rebuild an output, ``{path}`` its path.
REBUILD = "run the same snakemake command with --forcerun {path}"


class IdentityError(ValueError):
    """An output that this config's plan did not make: the message names the file and how
    to rebuild it."""


def _plain(value: Any) -> Any:
    """JSON for the values a param may hold (numpy scalars and arrays as Python's)."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    raise TypeError(f"a job identity cannot hold {type(value).__name__}")


@functools.cache
def _file_digest(path: str, mtime_ns: int, size: int) -> str:
    """sha256 of a file's contents (cached by path, modification time and size)."""
    return sha256_file(path)


def file_digest(path: str | os.PathLike) -> str:
    """sha256 of a file's contents, computed once per version of the file."""
    info = os.stat(path)
    return _file_digest(os.fspath(path), info.st_mtime_ns, info.st_size)


def job_identity(
    wildcards: Mapping[str, Any], params: Mapping[str, Any], files: Iterable[str | os.PathLike]
) -> str:
    """The identity of a job's outputs: sha256 of its wildcards, its params (JSON, keys
    sorted: the order of a config's keys is no change) and the contents of ``files`` (its
    code and other planned inputs; a moved repository is the same code)."""
    digest = hashlib.sha256()
    plan = {"wildcards": dict(wildcards), "params": dict(params)}
    digest.update(json.dumps(plan, sort_keys=True, default=_plain, allow_nan=False).encode())
    for content in sorted(file_digest(path) for path in files):
        digest.update(content.encode())
    return digest.hexdigest()


def check_identities(
    paths: Sequence[str | os.PathLike], expected: Mapping[str, str], rebuild: str = REBUILD
) -> None:
    """Every output of ``paths`` carries the identity the plan expects for it.

    Parameters
    ----------
    paths : sequence of path-like
        The outputs read.
    expected : mapping of str to str
        ``{path: identity}`` of the plan (``common.smk``).
    rebuild : str, default=:data:`REBUILD`
        How to rebuild a file, ``{path}`` in it replaced by the file's path.

    Raises
    ------
    IdentityError
        At the first output whose identity is not the expected one, or that has none.
    """
    for path in paths:
        name = os.fspath(path)
        found = read_metadata(name).get(IDENTITY_KEY)
        want = expected.get(name)
        if want is None:
            raise IdentityError(f"{name}: the plan expects no such output; it is not read")
        if found != want:
            what = "carries no identity" if found is None else f"was made as {found[:12]}"
            raise IdentityError(
                f"{name}: not made by this config's plan ({what}, the plan's is {want[:12]}: "
                "other params, trials, seeds or code, e.g. copied from another run); it is "
                f"not read. Rebuild it: {rebuild.format(path=name)}"
            )
