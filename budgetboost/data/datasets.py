"""A registry entry read, labelled and binarized; the binarized tables on disk.

An entry of the registry (:mod:`budgetboost.data.registry`) says how to read its raw files,
the one-line label rule collapsing them to +/-1 as the paper did, and the binarization per
column kind (:mod:`budgetboost.data.binarize`).
:func:`build_binarized` turns an entry into a :class:`BinarizedData`; :func:`write_binarized` /
:func:`read_binarized` store it as ``results/data/{dataset}.parquet`` (column ``y`` then one uint8
column per indicator, indicator descriptions in the metadata).
"""

from __future__ import annotations

import difflib
import math
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from budgetboost.data.binarize import NotNumericError, binarize_frame, format_value
from budgetboost.data.io import read_arrow, read_metadata, table_metadata, write_table
from budgetboost.data.registry import (
    DatasetError,
    SourceFile,
    check_present,
    source_files,
    verify_sha256,
)

__all__ = [
    "BinarizedData",
    "build_binarized",
    "check_labels",
    "column_attributes",
    "label_vector",
    "read_binarized",
    "read_source",
    "read_svmlight",
    "write_binarized",
]

CSV_OPTIONS = {"sep", "header", "names", "comment", "skiprows", "skipinitialspace", "na_values"}
#: What a csv source's fields read as missing unless ``read_options.na_values`` says otherwise.
CSV_NA_VALUES = ["?", ""]


@dataclass
class BinarizedData:
    """A binarized dataset: the 0/1 indicator matrix and its labels.

    Attributes
    ----------
    X : numpy.ndarray of uint8, shape (rows, n)
    y : numpy.ndarray of int8, shape (rows,), values +1/-1
    columns : list of str
        Indicator names, e.g. ``V11>=0.1973`` or ``pos7=A``.
    attributes : numpy.ndarray of str, shape (n,)
        Raw attribute of each column.
    groups : numpy.ndarray of int, shape (n,)
        Index of each column's raw attribute in ``meta["attributes"]``; usable as
        ``feature_groups`` when the indicators of an attribute are paid for together.
    meta : dict
        Provenance and the indicator descriptions (``meta["columns"]``).
    """

    X: np.ndarray
    y: np.ndarray
    columns: list[str]
    attributes: np.ndarray
    groups: np.ndarray
    meta: dict = field(default_factory=dict)

    def describe(self, column: int) -> str:
        """Readable form of one indicator, e.g. ``"sonar V11 >= 0.1973"``."""
        info = self.meta["columns"][column]
        if info["kind"] == "threshold":
            text = f"{info['attribute']} >= {format_value(info['threshold'])}"
        else:
            text = f"{info['attribute']} == {info['category']}"
        return f"{self.meta.get('dataset', '')} {text}".strip()


# --------------------------------------------------------------------------- readers


def _read_parquet(path: Path, options: Mapping[str, object]) -> pd.DataFrame:
    table = pq.read_table(path)
    pixels = options.get("pixels")
    if pixels is None:
        return table.to_pandas()
    column = pixels["column"]
    shape = tuple(int(s) for s in pixels["shape"])
    width = int(np.prod(shape))
    images = table.column(column).combine_chunks()
    if (
        images.null_count
        or not pa.types.is_fixed_size_binary(images.type)
        or images.type.byte_width != width
    ):
        raise ValueError(
            f"column {column!r} must be non-null fixed_size_binary[{width}], "
            f"got {images.type} with {images.null_count} nulls"
        )
    data = np.frombuffer(images.buffers()[1], dtype=np.uint8)
    data = data[images.offset * width : (images.offset + len(images)) * width]
    grid = np.indices(shape).reshape(len(shape), -1).T
    names = ["px" + "_".join(f"{i:02d}" for i in idx) for idx in grid]
    frame = table.drop_columns([column]).to_pandas()
    pixel_frame = pd.DataFrame(data.reshape(len(images), width), columns=names)
    return pd.concat([frame, pixel_frame], axis=1)


def _read_csv(path: Path, options: Mapping[str, object]) -> pd.DataFrame:
    unknown = set(options) - CSV_OPTIONS
    if unknown:
        raise ValueError(
            f"unknown csv read_options {sorted(unknown)}; allowed: {sorted(CSV_OPTIONS)}"
        )
    kwargs = dict(options)
    kwargs.setdefault("na_values", CSV_NA_VALUES)
    if "names" in kwargs:
        kwargs.setdefault("header", None)
    twice = _named_twice(path, kwargs)
    if twice:  # pandas would rename the copy (``x.1``) and keep it as one more attribute
        raise ValueError(f"columns named twice in the header: {twice}")
    return pd.read_csv(path, keep_default_na=False, **kwargs)


def _named_twice(path: Path, kwargs: Mapping[str, object]) -> list[str]:
    """The column names a csv source's header (or its ``names`` option) gives twice."""
    if "names" in kwargs:
        names = [str(n) for n in kwargs["names"]]  # type: ignore[union-attr]
    else:
        header = kwargs.get("header", "infer")
        if header is None:
            return []
        row = 0 if header == "infer" else int(header)  # type: ignore[arg-type]
        options = {k: v for k, v in kwargs.items() if k not in ("header", "na_values")}
        first = pd.read_csv(
            path, header=None, nrows=row + 1, dtype=str, keep_default_na=False, **options
        )
        if len(first) <= row:
            return []
        names = [str(n).strip() for n in first.iloc[row]]
    counts = pd.Series(names).value_counts()
    return sorted(counts.index[counts > 1])


def read_svmlight(
    path: str | os.PathLike, n_features: int | None = None, label_column: str = "relevance"
) -> pd.DataFrame:
    """Read an SVMlight / LETOR file (``label [qid:q] index:value ... [# comment]``).

    Vectorised over the whole file's tokens (no per-line Python loop). Features absent from
    a line are 0, as the format defines. Columns: ``label_column`` (float), ``qid`` (when
    present) and ``f1 .. f{n_features}``.
    """
    text = re.sub(r"#[^\n]*", "", Path(path).read_text())
    tokens = np.array(text.split())
    if tokens.size == 0:
        raise ValueError("empty SVMlight file")
    is_label = np.char.find(tokens, ":") < 0
    if not is_label[0]:
        raise ValueError(f"a line must start with a label, got {tokens[0]!r}")
    row = np.cumsum(is_label) - 1
    labels = _as_float(tokens[is_label], "label")
    pairs = np.char.partition(tokens[~is_label], ":")
    keys, values, rows = pairs[:, 0], pairs[:, 2], row[~is_label]
    is_qid = keys == "qid"
    index = _as_int(keys[~is_qid], "feature index")
    n = int(n_features) if n_features is not None else int(index.max(initial=0))
    if index.size and (index.min() < 1 or index.max() > n):
        bad = index[(index < 1) | (index > n)][0]
        raise ValueError(f"feature index {bad} outside 1..{n}")
    X = np.zeros((labels.size, n))
    X[rows[~is_qid], index - 1] = _as_float(values[~is_qid], "feature value")
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(1, n + 1)])
    if is_qid.any():
        qid = np.full(labels.size, -1, dtype=np.int64)
        qid[rows[is_qid]] = _as_int(values[is_qid], "qid")
        frame.insert(0, "qid", qid)
    frame.insert(0, label_column, labels)
    return frame


def _as_float(tokens: np.ndarray, what: str) -> np.ndarray:
    try:
        return tokens.astype(float)
    except ValueError:
        bad = str(next(t for t in tokens if not _is_number(t)))
        raise ValueError(f"{what} {bad!r} is not a number") from None


def _as_int(tokens: np.ndarray, what: str) -> np.ndarray:
    try:
        return tokens.astype(np.int64)
    except ValueError:
        bad = str(next(t for t in tokens if not t.lstrip("-").isdigit()))
        raise ValueError(f"{what} {bad!r} is not an integer") from None


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def read_source(name: str, entry: Mapping[str, object], file: SourceFile) -> pd.DataFrame:
    """Read one raw file with the entry's ``format`` and ``read_options``.

    A malformed file raises :class:`DatasetError` naming the dataset and the file.
    """
    fmt, options = entry.get("format", "parquet"), entry.get("read_options") or {}
    try:
        if fmt == "parquet":
            return _read_parquet(file.path, options)
        if fmt == "csv":
            return _read_csv(file.path, options)
        if fmt == "svmlight":
            return read_svmlight(file.path, options.get("n_features"))
    except (
        ValueError,
        KeyError,
        pa.ArrowException,
        pd.errors.ParserError,
        UnicodeDecodeError,
    ) as err:
        raise DatasetError(f"dataset {name!r}: cannot read {file.path} as {fmt}: {err}") from err
    raise DatasetError(f"dataset {name!r}: unknown format {fmt!r}")


# --------------------------------------------------------------------------- labels


def _matches(values: pd.Series, wanted: list, what: str) -> np.ndarray:
    if pd.api.types.is_numeric_dtype(values):
        try:
            targets = np.array(wanted, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(
                f"{what} values {wanted} are not numbers but the column is numeric"
            ) from None
        return np.isin(values.to_numpy(dtype=float, na_value=np.nan), targets)
    return values.astype(object).isin([str(v) for v in wanted]).to_numpy()


#: Separators a CSV file read with the wrong one shows in its one-column header.
_SEPARATORS = (";", "\t", "|")


def _column_hint(column: str, columns: Iterable[object]) -> str:
    """What a missing column's name suggests: the same name with spaces around it, a
    header that is one column of another separator's fields, or a near match."""
    names = [str(c) for c in columns]
    padded = [n for n in names if n.strip() == str(column)]
    if padded:
        return (
            f"; its column {padded[0]!r} has spaces around the name: read_options: "
            "{skipinitialspace: true} in the dataset's registry entry (or name it exactly)"
        )
    if len(names) == 1:
        for sep in _SEPARATORS:
            if sep in names[0]:
                return (
                    f"; its header is one column, {names[0][:40]!r}: a file separated by "
                    f"{sep!r}? read_options: {{sep: {sep!r}}} in the dataset's registry entry"
                )
    near = difflib.get_close_matches(str(column), names, n=1)
    return f"; did you mean {near[0]!r}?" if near else ""


def label_vector(
    dataset: str, frame: pd.DataFrame, rule: Mapping[str, object], file: object = ""
) -> np.ndarray:
    """Collapse the label column to int8 +1/-1 with a one-line rule.

    ``rule = {"column": c, "positive": [...], "negative": [...]}``; a value in neither list
    (or a missing label) raises :class:`DatasetError` naming dataset, file and value.
    """
    column = rule["column"]
    if column not in frame.columns:
        raise DatasetError(
            f"dataset {dataset!r}: label column {column!r} not in {file} "
            f"(none of its {len(frame.columns)} columns){_column_hint(column, frame.columns)}"
        )
    values = frame[column]
    where = f"dataset {dataset!r}, file {file}, label column {column!r}"
    try:
        pos = _matches(values, list(rule["positive"]), "positive")
        neg = _matches(values, list(rule["negative"]), "negative")
    except ValueError as err:
        raise DatasetError(f"{where}: {err}") from None
    if (pos & neg).any():
        raise DatasetError(f"{where}: a value is both positive and negative in the rule")
    other = ~(pos | neg)
    if other.any():
        row = int(np.flatnonzero(np.asarray(other))[0])
        value = values.iloc[row]
        if pd.isna(value):
            example = "an empty label (a row with fewer fields than the header?)"
        else:
            example = repr(value.item() if hasattr(value, "item") else value)
            example = example if len(example) <= 40 else example[:36] + "...'"
        raise DatasetError(
            f"{where}: {int(other.sum())} rows have a label outside the rule "
            f"(positive {list(rule['positive'])}, negative "
            f"{list(rule['negative'])}), e.g. {example} at row {row} (0-based, header not "
            "counted)"
        )
    return np.where(pos, 1, -1).astype(np.int8)


def _select_rows(
    dataset: str, frame: pd.DataFrame, select: Mapping[str, object] | None, file: object
) -> pd.DataFrame:
    if not select:
        return frame
    column = select["column"]
    if column not in frame.columns:
        raise DatasetError(f"dataset {dataset!r}: select column {column!r} not in {file}")
    keep = _matches(frame[column], list(select["values"]), "select")
    return frame.loc[keep].reset_index(drop=True)


def check_labels(
    name: str, entry: Mapping[str, object], root: str | os.PathLike = "."
) -> int | None:
    """The entry's label rule (and row selection) against its source files where they are
    present, reading only what the rule reads: what ``binarize`` would otherwise stop on
    after the workflow started (an empty file, a missing label column, a label outside the
    rule), found when it is planned. Parquet and CSV sources (SVMlight files are read whole
    by ``binarize`` only).

    Returns
    -------
    int or None
        The rows the source files hold (after the entry's ``select``), which the dataset's
        sizes must fit; None where nothing was read.

    Raises
    ------
    DatasetError
        Naming the dataset, the file, the column and the value.
    """
    fmt = entry.get("format", "parquet")
    files = [f for f in source_files(name, entry, root) if f.path.is_file()]
    if fmt not in ("csv", "parquet") or not files:
        return None
    wanted = [entry["label"]["column"]]
    if entry.get("select") and entry["select"]["column"] not in wanted:
        wanted.append(entry["select"]["column"])
    parts = []
    for file in files:
        if fmt == "csv":
            parts.append(read_source(name, entry, file))
            _check_excluded(name, entry, list(parts[-1].columns), file.path)
            continue
        try:
            present = pq.read_schema(file.path).names
            if not (entry.get("read_options") or {}).get("pixels"):
                _check_excluded(name, entry, present, file.path)
            columns = [c for c in wanted if c in present]
            parts.append(pq.read_table(file.path, columns=columns).to_pandas())
        except (pa.ArrowException, OSError) as err:
            raise DatasetError(
                f"dataset {name!r}: cannot read {file.path} as parquet: {err}"
            ) from None
        if wanted[0] not in present:
            raise DatasetError(
                f"dataset {name!r}: label column {wanted[0]!r} not in {file.path} "
                f"(none of its {len(present)} columns)"
            )
    frame = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    where = ", ".join(str(f.path) for f in files)
    frame = _select_rows(name, frame, entry.get("select"), where)
    if frame.empty:
        raise DatasetError(f"dataset {name!r}: no rows in {where}")
    label_vector(name, frame, entry["label"], where)
    return len(frame)


def source_columns(
    name: str, entry: Mapping[str, object], root: str | os.PathLike = "."
) -> list[str] | None:
    """The columns of a dataset's source files where they are present, read from their
    headers only: CSV (with the entry's ``read_options``) and Parquet sources; None for
    the others (SVMlight, images) and while a file is missing."""
    fmt, options = entry.get("format", "parquet"), dict(entry.get("read_options") or {})
    files = source_files(name, entry, root)
    if not files or not all(f.path.is_file() for f in files) or options.get("pixels"):
        return None
    columns: list[str] = []
    for file in files:
        try:
            if fmt == "csv":
                options.pop("na_values", None)
                if "names" in options:
                    options.setdefault("header", None)
                found = pd.read_csv(file.path, nrows=0, **options).columns
            elif fmt == "parquet":
                found = pq.read_schema(file.path).names
            else:
                return None
        except (ValueError, pa.ArrowException, OSError, pd.errors.ParserError):
            return None  # named by the label check, or by binarize
        columns += [str(c) for c in found if str(c) not in columns]
    return columns


def _check_excluded(
    name: str, entry: Mapping[str, object], present: list[str], path: object
) -> None:
    """``exclude`` names only columns of the file (a typo would otherwise stop ``binarize``,
    the first job, instead of the plan)."""
    missing = sorted(set(entry.get("exclude") or []) - set(map(str, present)))
    if missing:
        raise DatasetError(
            f"dataset {name!r}: exclude names columns {missing} that are not in {path} "
            f"(its columns: {', '.join(map(str, present[:12]))}"
            f"{', ...' if len(present) > 12 else ''})"
        )


# --------------------------------------------------------------------------- build


def build_binarized(
    name: str, entry: Mapping[str, object], root: str | os.PathLike = "."
) -> BinarizedData:
    """Read a dataset's raw table(s), collapse its labels and binarize its attributes.

    Parameters
    ----------
    name : str
        Dataset name (registry key).
    entry : mapping
        Its validated registry entry (see :func:`load_registry`).
    root : path-like
        Repository root: relative source paths and ``resources/downloads`` live under it.

    Raises
    ------
    FileNotFoundError
        A source file is absent (the message says where it belongs).
    DatasetError
        Checksum mismatch, malformed file, a label outside the rule, a constant dataset.
    """
    files = source_files(name, entry, root)
    parts = []
    for file in files:
        check_present(name, entry, file)
        verify_sha256(name, file.path, file.sha256)
        parts.append(read_source(name, entry, file))
    frame = pd.concat(parts, ignore_index=True) if len(parts) > 1 else parts[0]
    where = ", ".join(str(f.path) for f in files)
    frame = _select_rows(name, frame, entry.get("select"), where)
    if frame.empty:
        raise DatasetError(f"dataset {name!r}: no rows in {where}")
    y = label_vector(name, frame, entry["label"], where)
    exclude = set(entry.get("exclude") or []) | {entry["label"]["column"]}
    missing = sorted(exclude - set(frame.columns) - {entry["label"]["column"]})
    if missing:
        raise DatasetError(f"dataset {name!r}: excluded columns {missing} not in {where}")
    features = frame[[c for c in frame.columns if c not in exclude]]
    copies = label_copies(features, y)
    if copies:
        raise DatasetError(
            f"dataset {name!r}: {where}: attribute(s) {copies} are copies of the label "
            f"column {entry['label']['column']!r} (each value in one class only, and each "
            "class one value): a method reading one would be told the answer; exclude them"
        )
    try:
        X, indicators = binarize_frame(
            features, entry["binarize"], drop_constant=entry.get("drop_constant", True)
        )
    except NotNumericError as err:
        raise DatasetError(
            f"dataset {name!r} ({where}): {err}. {_missing_value_hint(entry, err.value)}"
        ) from err
    except ValueError as err:
        raise DatasetError(f"dataset {name!r} ({where}): {err}") from err
    if X.shape[1] == 0:
        raise DatasetError(
            f"dataset {name!r}: every attribute of {where} is constant; no indicator is left"
        )
    if np.unique(y).size < 2:
        raise DatasetError(f"dataset {name!r}: constant label {int(y[0])} in {where}")
    return _assemble(name, entry, files, X, y, indicators, list(features.columns))


def label_copies(features: pd.DataFrame, y: np.ndarray) -> list[str]:
    """The attributes of ``features`` that copy the label ``y`` (-1/+1): two values, no
    missing one, each value in one class only. A column renamed by a reader (a header giving
    the label twice) or a label recoded into another attribute would let any method read
    the answer (a test error of 0 at every budget)."""
    copies = []
    two = features.nunique(dropna=False) == 2  # a copy has two values (and no missing one)
    for column in features.columns[two.to_numpy()]:
        values = features[column]
        if values.isna().any():
            continue
        codes, _ = pd.factorize(values)
        positive = codes[y > 0]
        if (
            positive.size
            and np.all(positive == positive[0])
            and np.all(codes[y < 0] != positive[0])
        ):
            copies.append(str(column))
    return copies


def _missing_value_hint(entry: Mapping[str, object], value: object) -> str:
    """How a registry entry declares ``value`` a missing value, should it be one (an infinite
    number as the text a CSV holds, ``'inf'``)."""
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isinf(value):
        value = "inf" if value > 0 else "-inf"
    if entry.get("format", "parquet") == "csv":
        declared = (entry.get("read_options") or {}).get("na_values", CSV_NA_VALUES)
        declared = [declared] if isinstance(declared, str) else list(declared)
        return (
            f"If {value!r} marks a missing value, declare it in the dataset's registry "
            f"entry: read_options: {{na_values: {declared + [value]}}} (missing values "
            "give 0 in every indicator of their attribute)"
        )
    return (
        f"If {value!r} marks a missing value, store it as a null in the source file: the "
        "registry declares missing values (read_options.na_values) for csv sources only"
    )


def _assemble(
    name: str,
    entry: Mapping[str, object],
    files: list[SourceFile],
    X: np.ndarray,
    y: np.ndarray,
    indicators: list[dict],
    raw_attributes: list[str],
) -> BinarizedData:
    attributes = np.array([ind["attribute"] for ind in indicators], dtype=str)
    used = list(pd.unique(attributes))
    position = {a: i for i, a in enumerate(used)}
    groups = np.array([position[a] for a in attributes], dtype=np.int64)
    meta = {
        "dataset": name,
        "n_rows": int(X.shape[0]),
        "n_columns": int(X.shape[1]),
        "positive_rate": float(np.mean(y == 1)),
        "columns": indicators,
        "attributes": used,
        "raw_attributes": [str(a) for a in raw_attributes],
        "label": dict(entry["label"]),
        "binarize": dict(entry["binarize"]),
        "source": [{"file": f.path.name, "sha256": f.sha256, "url": f.url} for f in files],
        "cost_file": entry.get("cost_file"),
        "cost_scale": entry.get("cost_scale", 1),
    }
    return BinarizedData(
        X=X,
        y=y,
        columns=[ind["name"] for ind in indicators],
        attributes=attributes,
        groups=groups,
        meta=meta,
    )


# --------------------------------------------------------------------------- on disk


def write_binarized(data: BinarizedData, path: str | os.PathLike) -> None:
    """Write ``results/data/{dataset}.parquet`` atomically: ``y`` then the indicators."""
    if "y" in data.columns:
        raise ValueError("an indicator may not be named 'y' (reserved for the label)")
    if data.X.shape != (len(data.y), len(data.columns)):
        raise ValueError(
            f"X has shape {data.X.shape}, expected ({len(data.y)}, {len(data.columns)})"
        )
    frame = pd.DataFrame(np.asarray(data.X, dtype=np.uint8), columns=data.columns, copy=False)
    frame.insert(0, "y", np.asarray(data.y, dtype=np.int8))
    write_table(frame, path, metadata=data.meta)


def read_binarized(path: str | os.PathLike) -> BinarizedData:
    """Read a table written by :func:`write_binarized` back into a :class:`BinarizedData`."""
    table = read_arrow(path)
    meta = table_metadata(table.schema)  # not read_metadata: its footer is read already
    names = table.column_names
    if not names or names[0] != "y" or "columns" not in meta:
        raise ValueError(
            f"{path} is not a binarized dataset (column y and metadata 'columns' expected)"
        )
    columns = names[1:]
    if [c["name"] for c in meta["columns"]] != columns:
        raise ValueError(f"{path}: column names disagree with the stored indicator metadata")
    X = np.empty((table.num_rows, len(columns)), dtype=np.uint8)
    for j, name in enumerate(columns):
        X[:, j] = table.column(name).to_numpy()
    y = table.column("y").to_numpy().astype(np.int8)
    attributes = np.array([c["attribute"] for c in meta["columns"]], dtype=str)
    position = {a: i for i, a in enumerate(meta["attributes"])}
    groups = np.array([position[a] for a in attributes], dtype=np.int64)
    return BinarizedData(X=X, y=y, columns=columns, attributes=attributes, groups=groups, meta=meta)


def column_attributes(path: str | os.PathLike) -> np.ndarray:
    """The raw attribute of each indicator of a table written by :func:`write_binarized`,
    from its metadata alone (the columns are not read)."""
    meta = read_metadata(path)
    if "columns" not in meta:
        raise ValueError(f"{path} is not a binarized dataset (metadata 'columns' expected)")
    return np.array([c["attribute"] for c in meta["columns"]], dtype=str)
