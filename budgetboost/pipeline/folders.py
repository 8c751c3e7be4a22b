"""Each config's own results folder: its default, and a record of which config owns it.

Two configs that wrote into one folder overwrote each other's shards, summaries and figures
(the tiny test config ran in the default run's ``results/``). So:

- a config that sets no ``results:`` writes to :func:`default_results`: ``results`` for the
  default config (``config/config.yaml``), ``results/<name>`` for a config file
  ``<name>.yaml`` (``config/test.yaml``: ``results/test``); its logs go to ``logs/<name>``;
- no part of a results folder below ``results/`` may be named like an output folder
  (:data:`RESERVED`), so one config's outputs never lie inside another's output folders;
- the first run of a config records its config file in its results folder
  (:data:`OWNER_FILE`, written by :func:`claim`), and planning a *different* config into
  that folder stops with one line naming both (:func:`check_owner`);
- ``snakemake --report <file>`` writes only inside the config's own results folder
  (:func:`check_report`): another config's report is never overwritten.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from budgetboost.data.io import write_text

__all__ = [
    "DEFAULT_CONFIG",
    "OWNER_FILE",
    "RESERVED",
    "FolderError",
    "check_owner",
    "check_report",
    "check_results_folder",
    "claim",
    "config_identity",
    "default_results",
    "logs_folder",
    "owner",
    "report_target",
    "shown_path",
]

#: The config Snakemake reads when no ``--configfile`` is given.
DEFAULT_CONFIG = "config/config.yaml"
#: The file in a results folder naming the config that writes there.
OWNER_FILE = ".budgetboost-config"
#: Folder names a config's outputs and logs use directly below its results (and logs)
#: folder, and ``benchmarks/scale.py``'s: no results folder may have a part so named.
RESERVED = frozenset(
    {
        "data",
        "splits",
        "costs",
        "paths",
        "shards",
        "timings",
        "stumps",
        "summary",
        "figures",
        "report",
        "benchmarks",
        "download",
        "binarize",
        "split",
        "assign_costs",
        "adaboost_path",
        "train",
        "results",
    }
)


class FolderError(ValueError):
    """A results folder that would mix two configs' outputs (one line)."""


def config_identity(files: Sequence[str | os.PathLike], root: str | os.PathLike = ".") -> str:
    """The config files of a run as one string: relative to ``root`` where they lie below
    it, ``config/config.yaml`` when none is given."""
    if not files:
        return DEFAULT_CONFIG
    return ", ".join(shown_path(file, root) for file in files)


def shown_path(file: str | os.PathLike, root: str | os.PathLike = ".") -> str:
    """``file`` (relative to ``root``, or absolute) relative to ``root`` where it lies below
    it, else absolute."""
    root = Path(os.path.abspath(root))  # not resolved: a symlinked config stays where it is
    path = Path(os.path.abspath(root / file))
    return str(path.relative_to(root)) if path.is_relative_to(root) else str(path)


def default_results(files: Sequence[str | os.PathLike], root: str | os.PathLike = ".") -> str:
    """The results folder of a config that sets no ``results:``: ``results`` for the
    default config, ``results/<name>`` for a config file ``<name>.yaml`` (the last one
    given), characters outside ``[A-Za-z0-9_-]`` as ``_``, ``config_<name>`` when the name
    is one of :data:`RESERVED`."""
    identity = config_identity(files[-1:], root)
    if identity == DEFAULT_CONFIG:
        return "results"
    name = re.sub(r"[^A-Za-z0-9_-]", "_", Path(identity).stem) or "config"
    if name in RESERVED or not re.match(r"[A-Za-z0-9_]", name):
        name = f"config_{name}"
    return f"results/{name}"


def logs_folder(results: str) -> str:
    """The log folder of a results folder: ``logs`` mirrors ``results`` below it."""
    relative = results.rstrip("/").removeprefix("results").strip("/")
    return f"logs/{relative}" if relative else "logs"


def check_results_folder(results: str) -> str | None:
    """Why ``results`` cannot hold a config's outputs (a part named like an output folder),
    else None."""
    parts = results.rstrip("/").split("/")[1:]
    clash = [p for p in parts if p in RESERVED]
    if clash:
        return (
            f"{clash[0]!r} names a folder of a run's outputs or logs, so this config's "
            f"outputs would lie among another config's: choose another name (not one of "
            f"{', '.join(sorted(RESERVED))})"
        )
    return None


def owner(results: str | os.PathLike, root: str | os.PathLike = ".") -> str | None:
    """The config recorded as the owner of a results folder (None: none recorded).

    Raises
    ------
    FolderError
        When the results path is a file, or its record is not a text file naming a config.
    """
    folder = Path(root, results)
    if folder.exists() and not folder.is_dir():
        raise FolderError(
            f"config results: {results} is a file, not a folder: a config's outputs go into "
            "a folder of that name (move the file, or choose another results folder)"
        )
    path = folder / OWNER_FILE
    if path.exists() and not path.is_file():
        raise FolderError(
            f"config results: {results}/{OWNER_FILE} is not a file (it records the config "
            f"that owns {results}/): remove it"
        )
    try:
        text = path.read_bytes()[:4096].decode("utf-8")
    except FileNotFoundError:
        return None
    except UnicodeDecodeError:
        raise FolderError(
            f"config results: {results}/{OWNER_FILE} is not text naming a config (it records "
            f"the config that owns {results}/): remove it if no config owns the folder"
        ) from None
    lines = text.splitlines()
    return lines[0].strip() if lines and lines[0].strip() else None


def check_owner(results: str, identity: str, root: str | os.PathLike = ".") -> None:
    """Stop when ``results`` belongs to another config than ``identity``.

    Raises
    ------
    FolderError
        Naming the folder, the config that owns it and the one that would overwrite it.
    """
    recorded = owner(results, root)
    if recorded is not None and recorded != identity:
        raise FolderError(
            f"config results: {results}/ holds the outputs of {recorded} "
            f"({results}/{OWNER_FILE}); running {identity} there would overwrite them: give "
            f"{identity} a results folder of its own (results: results/<name>), or delete "
            f"{results}/{OWNER_FILE} if {identity} is to replace them"
        )


def report_target(argv: Sequence[str]) -> str | None:
    """The file ``snakemake --report`` is asked to write (its default ``report.html`` when
    no file follows), or None when ``argv`` asks for no report."""
    words = list(argv)
    for i, word in enumerate(words):
        if word.startswith("--report="):
            return word.partition("=")[2]
        if word == "--report":
            following = words[i + 1] if i + 1 < len(words) else ""
            return following if following and not following.startswith("-") else "report.html"
    return None


def check_report(
    argv: Sequence[str], results: str, identity: str, root: str | os.PathLike = "."
) -> None:
    """Stop a report written outside the config's own results folder, or into a folder of it
    that another config owns (``snakemake --report results/report.html --configfile
    config/test.yaml`` overwrote the default config's report).

    Raises
    ------
    FolderError
        Naming the file, the config and where its report belongs.
    """
    target = report_target(argv)
    if target is None:
        return
    base = Path(root).resolve()
    folder = (base / results).resolve()
    path = (base / target).resolve()
    suggestion = f"{results.rstrip('/')}/report.html"
    if folder not in path.parents:
        raise FolderError(
            f"snakemake --report {target}: the report of {identity} goes inside its results "
            f"folder {results}/ (another config's, or no project output folder, otherwise): "
            f"--report {suggestion}"
        )
    for parent in path.parents:
        if parent == folder:
            break
        recorded = owner(parent.relative_to(base), base)
        if recorded is not None and recorded != identity:
            raise FolderError(
                f"snakemake --report {target}: {parent.relative_to(base)}/ holds the outputs "
                f"of {recorded}, not of {identity}: --report {suggestion}"
            )


def claim(results: str, identity: str, root: str | os.PathLike = ".") -> None:
    """Record ``identity`` as the owner of ``results`` (at the start of a run that writes);
    a folder that cannot be written raises :class:`FolderError` in one line (it was a
    traceback)."""
    check_owner(results, identity, root)
    if owner(results, root) is None:
        try:
            write_text(
                f"{identity}\n# the config whose outputs this folder holds (budgetboost."
                "pipeline.folders): another config planned into it stops\n",
                Path(root, results, OWNER_FILE),
            )
        except OSError as exc:  # read-only, or a file where a folder should be
            raise FolderError(
                f"results folder {results} cannot be written ({exc.strerror or exc}): make it "
                "writable, or have the config write elsewhere (its key `results`)"
            ) from None


def run_elsewhere(message: str, basedir: str | os.PathLike, cwd: str | os.PathLike = ".") -> str:
    """``message`` about a file not found, with the likely cause where Snakemake runs in
    another folder than the workflow's (``snakemake -s path/Snakefile``: relative paths of
    a config are read from the working directory)."""
    here, there = Path(os.path.abspath(cwd)), Path(os.path.abspath(basedir))
    missing = "No such file" in message or "not found" in message
    if not missing or here == there:
        return message
    return (
        f"{message} (snakemake runs in {here}, the workflow lies in {there}: run it from "
        f"there, or add -d {there})"
    )
