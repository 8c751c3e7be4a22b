"""Every check made when the workflow is planned, and ``python -m budgetboost.checks FILE``.

A bad config never starts a job: ``workflow/rules/common.smk`` calls :func:`check_all`, which
runs the pipeline layer's checks (:mod:`budgetboost.pipeline.config`: the schema, references
between entries, estimator parameters, cost-model specs, budget grids, files) and then what
only the figures know (:mod:`budgetboost.figures`: styles and labels that matplotlib can draw,
figure modules that import and register figures). Each problem is one line naming its config path.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from budgetboost.figures.registry import check_modules
from budgetboost.figures.style import check_labels, check_styles
from budgetboost.pipeline.config import ConfigError, check_pipeline, load_config_file

__all__ = ["ConfigError", "check_all", "check_file", "load_config_file", "main"]


def check_all(
    config: Mapping[str, Any], root: str | Path = ".", files: Sequence[str | Path] = ()
) -> tuple[dict[str, Any], dict[str, dict]]:
    """Every check the pipeline makes when it is planned, in order.

    ``files``: the config files ``config`` was read from (none: the default config), which
    name its default results folder and its owner
    (:mod:`budgetboost.pipeline.folders`). Returns the config with its defaults filled in
    and the dataset registry it names.

    Raises
    ------
    ConfigError
        The first problem, as ``config <path>: <reason>``.
    """
    config, registry = check_pipeline(config, root, files)
    for problem in (
        check_styles(config["algorithms"]),
        check_labels(config["algorithms"]),
        check_modules(config["figure_modules"]),
    ):
        if problem is not None:
            raise ConfigError(problem)
    return config, registry


def check_file(path: str | Path, root: str | Path = ".") -> dict[str, Any]:
    """:func:`check_all` on one config file; return the validated config."""
    return check_all(load_config_file(path), root, [path])[0]


def main(argv: list[str] | None = None) -> int:
    """Check config files as the pipeline does: ``python -m budgetboost.checks FILE...``."""
    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="config files (YAML)")
    parser.add_argument("--root", default=".", help="repository root (default: .)")
    args = parser.parse_args(argv)
    status = 0
    for file in args.files:
        try:
            check_file(file, args.root)
        except ConfigError as exc:
            print(exc)
            status = 1
        else:
            print(f"{file}: ok")
    return status


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
