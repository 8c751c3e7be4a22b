"""The dataset registry (``config/datasets.yaml``): entries checked, their raw files found.

A dataset is one entry of the registry (schema: ``budgetboost/schemas/datasets.schema.yaml``):
where its raw table comes from (a ``vendored`` file under ``resources/``, a ``url`` downloaded
beforehand by :func:`budgetboost.data.download.fetch`, or a user's ``local`` file), how to read
it, its label rule, its binarization, and Table 1's sizes, trials and AdaBoost rounds (for a
dataset outside Table 1: :func:`suite_sizes`, :data:`SUITE_TRIALS`, :data:`SUITE_ROUNDS`). The
registry's order is Table 1's (:func:`paper_datasets`), then the benchmark suite's. Reading and
binarizing an entry is :mod:`budgetboost.data.datasets`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

from budgetboost.data.io import sha256_file
from budgetboost.data.jsonschema import validate_with_defaults
from budgetboost.data.yamlfile import load_yaml

__all__ = [
    "DOWNLOADS",
    "SCHEMA_PATH",
    "SUITE_MAX_ROWS",
    "SUITE_ROUNDS",
    "SUITE_TEST_SHARE",
    "SUITE_TRIALS",
    "DatasetError",
    "SourceFile",
    "check_present",
    "download_targets",
    "load_registry",
    "paper_datasets",
    "source_files",
    "suite_sizes",
    "validate_registry",
    "verify_sha256",
]

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schemas" / "datasets.schema.yaml"
DOWNLOADS = Path("resources") / "downloads"


class DatasetError(ValueError):
    """A dataset's file or content is unusable; the message names dataset, file and value."""


@dataclass(frozen=True)
class SourceFile:
    """One raw file of a dataset: where it is on disk, and how to check or fetch it."""

    path: Path
    sha256: str | None = None
    url: str | None = None


# --------------------------------------------------------------------------- registry


def validate_registry(
    registry: Mapping[str, object], schema: str | os.PathLike | None = None
) -> dict[str, dict]:
    """Validate a registry mapping against the JSON Schema; return a copy with defaults.

    Raises
    ------
    ValueError
        Naming the dataset and the offending field and value.
    """
    schema_path = Path(schema) if schema is not None else SCHEMA_PATH
    schema_doc = load_yaml(schema_path, "schema")
    filled, error = validate_with_defaults(registry, schema_doc)
    if error:
        path, reason = error
        raise ValueError(f"dataset registry: {'/'.join(path) or '<top level>'}: {reason}")
    return filled


def load_registry(
    path: str | os.PathLike = "config/datasets.yaml", schema: str | os.PathLike | None = None
) -> dict[str, dict]:
    """Read ``config/datasets.yaml``, validate it and fill the schema defaults.

    Parameters
    ----------
    path : path-like
        The registry YAML (one entry per dataset).
    schema : path-like, optional
        JSON Schema (YAML); default ``budgetboost/schemas/datasets.schema.yaml`` of this
        repository.
    """
    registry = load_yaml(path, "dataset registry")
    if not isinstance(registry, dict):
        raise ValueError(
            f"dataset registry {path}: expected a mapping of dataset entries, "
            f"got {type(registry).__name__}"
        )
    try:
        return validate_registry(registry, schema)
    except ValueError as err:
        raise ValueError(f"{path}: {err}") from None


def paper_datasets(registry: Mapping[str, Mapping[str, object]]) -> tuple[str, ...]:
    """The paper's Table 1 datasets that run here, in its order.

    The registry's enabled entries that give ``paper_features`` (Table 1's column count), in
    the file's order (which is Table 1's): benchmarks iterate over them, so a dataset added
    to the registry with its Table 1 count joins them with no other edit.
    """
    return tuple(
        name for name, entry in registry.items() if entry["enabled"] and "paper_features" in entry
    )


#: :func:`suite_sizes`: the test part is ``1 / SUITE_TEST_SHARE`` of the rows, and neither part
#: exceeds ``SUITE_MAX_ROWS``
SUITE_TEST_SHARE = 4
SUITE_MAX_ROWS = 1000
#: the registry's trials of a dataset outside Table 1 (a config sets its own)
SUITE_TRIALS = 100
#: the AdaBoost rounds of a dataset outside Table 1: the shared AdaBoost path's and every
#: budgeted booster's ``max_rounds`` in config/config.yaml (not chosen on any rows)
SUITE_ROUNDS = 500


def suite_sizes(n_rows: int) -> tuple[int, int]:
    """``(train_size, test_size)`` of a dataset outside Table 1, from its row count.

    One rule for every such dataset, as Table 1 gives the paper's own: a quarter of the rows
    for test and the rest for training, each at most 1,000::

        test_size = min(1000, n_rows // 4),  train_size = min(1000, n_rows - test_size)

    Why: a fit's time grows with the training rows and an evaluation's with the test
    rows, so at most 1,000 of each (the paper's largest training size; it tests on up to
    5,000) bounds a trial's time whatever the dataset's size; and a dataset under 1,334 rows
    trains on every row not held out for test (117 of hepatitis's 155). The price is in
    the per-dataset tests: the corrected resampled t-test (Nadeau & Bengio 2003) inflates
    the variance of a mean over trials by ``rho / (1 - rho)``, with ``rho`` of
    :func:`budgetboost.analysis.per_dataset.correlation` (the training rows counted up to
    half): 1 up to 1,333 rows (750/250 of 1,000), 0.6 at 2,000, 1/3 at 4,000 and 1/9 at
    10,000. At 1 the mean of 10 trials is known no better than one trial's difference (its
    variance ``S^2 (1/10 + 1)``): more trials do not narrow it.
    """
    n_rows = int(n_rows)
    if n_rows < 4:
        raise ValueError(f"suite_sizes: {n_rows} rows cannot be split into training and test")
    test = min(SUITE_MAX_ROWS, n_rows // SUITE_TEST_SHARE)
    return min(SUITE_MAX_ROWS, n_rows - test), test


# --------------------------------------------------------------------------- sources


def _resolve(root: Path, path: str) -> Path:
    candidate = Path(path).expanduser()
    return candidate if candidate.is_absolute() else Path(root) / candidate


#: a downloaded file's name: one plain path component, so it stays in its download folder
_FILENAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]*$")


def _url_filename(url: str, filename: str | None) -> str:
    name = filename or Path(urlparse(url).path).name
    if not name:
        raise ValueError(f"url {url!r} has no file name; set `filename` in its source")
    if not _FILENAME.match(name):
        raise ValueError(
            f"url {url!r}: file name {name!r} is not a plain file name (letters, "
            "digits, '_', '.', '-'); set `filename` in its source"
        )
    return name


def source_files(
    name: str, entry: Mapping[str, object], root: str | os.PathLike = "."
) -> list[SourceFile]:
    """The raw file(s) of a dataset, in pooling order, resolved against ``root``.

    ``url`` sources resolve to their download location
    ``resources/downloads/<dataset>/<filename>``.
    """
    source = entry["source"]
    parts = source.get("parts") or [source]
    files = []
    for part in parts:
        if source["type"] == "url":
            dest = Path(root) / DOWNLOADS / name / _url_filename(part["url"], part.get("filename"))
            files.append(SourceFile(dest, part.get("sha256"), part["url"]))
        else:
            files.append(SourceFile(_resolve(Path(root), part["path"]), part.get("sha256")))
    return files


def download_targets(
    name: str, entry: Mapping[str, object], root: str | os.PathLike = "."
) -> list[tuple[str, str, Path]]:
    """``(url, sha256, destination)`` of every file a ``url`` source needs (else empty)."""
    if entry["source"]["type"] != "url":
        return []
    return [(f.url, f.sha256, f.path) for f in source_files(name, entry, root)]


def verify_sha256(dataset: str, path: Path, expected: str | None) -> None:
    """Raise :class:`DatasetError` when ``path``'s sha256 is not ``expected``."""
    if expected is None:
        return
    actual = sha256_file(path)
    if actual != expected.lower():
        raise DatasetError(
            f"dataset {dataset!r}: checksum mismatch for {path}: expected "
            f"sha256 {expected}, got {actual} (truncated, modified or a "
            f"different version of the file)"
        )


def check_present(dataset: str, entry: Mapping[str, object], file: SourceFile) -> None:
    if file.path.is_file():
        return
    kind = entry["source"]["type"]
    if kind == "vendored":
        hint = (
            "the vendored copy is missing from the repository; restore it (it is "
            "rebuilt by resources/make_resources.py)"
        )
    elif kind == "url":
        hint = (
            f"it is downloaded from {file.url} by the `download` rule "
            "(budgetboost.data.download.fetch); run that first"
        )
    else:
        extra = entry["source"].get("instructions", "")
        hint = (
            f"this is a user-supplied local file: put it at {file.path.resolve()} or "
            f"change source.path in the registry. {extra}"
        ).strip()
    raise FileNotFoundError(f"dataset {dataset!r}: file {file.path} not found; {hint}")
