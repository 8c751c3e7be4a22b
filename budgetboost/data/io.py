"""Atomic file output and self-describing Parquet tables.

Every output of the pipeline is written to a temporary file in the destination folder and
then renamed over the target (``os.replace`` is atomic on POSIX), so a killed job never
leaves a half-written file that a later run would trust.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = [
    "atomic_path",
    "write_table",
    "write_text",
    "read_arrow",
    "read_table",
    "read_metadata",
    "table_metadata",
    "CorruptTableError",
    "content_digest",
    "sha256_file",
    "SmallFileError",
    "read_small_text",
]

METADATA_KEY = b"budgetboost"
#: The metadata key of a table's content checksum (:func:`content_digest`).
CHECKSUM_KEY = "content_sha256"
#: How to rebuild a damaged output, in every message about one.
_REBUILD = (
    "it is not read as a result. Rebuild it: run the same snakemake command with "
    "--forcerun {path} (or delete it and run again)"
)


@contextlib.contextmanager
def atomic_path(path: str | os.PathLike, suffix: str = "") -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success rename it to ``path``.

    On any exception the temporary file is removed and ``path`` is left untouched.
    """
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=suffix or ".tmp", dir=target.parent
    )
    os.close(fd)
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        os.chmod(tmp_path, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
        os.replace(tmp_path, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp_path.unlink()
        raise


def write_table(
    df: pd.DataFrame, path: str | os.PathLike, metadata: Mapping[str, object] | None = None
) -> None:
    """Write ``df`` to Parquet atomically, with ``metadata`` (JSON) in the schema metadata.

    The file is byte-identical for identical inputs: no timestamps, a fixed writer
    version, no pandas index. The metadata also holds ``content_sha256``, the checksum of
    the table's values (:func:`content_digest`), which :func:`read_table` verifies: a table
    edited or cut short after it was written is never read as a result.
    """
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta.pop(b"pandas", None)  # holds library versions, not needed to read the table back
    about = {**dict(metadata or {}), CHECKSUM_KEY: content_digest(table)}
    meta[METADATA_KEY] = json.dumps(
        about, sort_keys=True, default=_json_default, allow_nan=False
    ).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(path, suffix=".parquet.tmp") as tmp:
        pq.write_table(table, tmp, compression="zstd", write_statistics=True)


def write_text(text: str, path: str | os.PathLike) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically, e.g. a Markdown table."""
    with atomic_path(path, suffix=Path(path).suffix) as tmp:
        tmp.write_text(text, encoding="utf-8")


class CorruptTableError(ValueError):
    """A table of the pipeline that is not what its job wrote (edited, cut short): the
    message names the file and how to rebuild it."""


def read_arrow(path: str | os.PathLike, columns: list[str] | None = None) -> pa.Table:
    """Read a Parquet table written by :func:`write_table`, checked against its checksum.

    ``columns`` reads only those columns, unchecked (a checksum covers the whole table).

    Raises
    ------
    CorruptTableError
        The file is not a readable Parquet file (cut short), holds no checksum, or its
        values are not those its ``content_sha256`` was computed from (edited after it was
        written).
    """
    try:
        table = pq.read_table(path, columns=columns)
    except (pa.ArrowException, OSError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise CorruptTableError(
            f"{path}: not a readable Parquet file ({_first_line(exc)}): cut short or "
            f"overwritten; {_REBUILD.format(path=path)}"
        ) from None
    if columns is not None:  # a part of the table: its checksum cannot be verified
        return table
    raw = (table.schema.metadata or {}).get(METADATA_KEY)
    expected = json.loads(raw).get(CHECKSUM_KEY) if raw else None
    if expected is None:
        raise CorruptTableError(
            f"{path}: holds no content checksum (not written by a budgetboost job, or "
            f"before they had one); {_REBUILD.format(path=path)}"
        )
    if content_digest(table) != expected:
        raise CorruptTableError(
            f"{path}: its values are not those it was written with (content checksum "
            f"mismatch: edited after its job wrote it); {_REBUILD.format(path=path)}"
        )
    return table


def read_table(path: str | os.PathLike) -> pd.DataFrame:
    """Read a Parquet table written by :func:`write_table` into a DataFrame (checked:
    :func:`read_arrow`)."""
    return read_arrow(path).to_pandas()


def read_metadata(path: str | os.PathLike) -> dict:
    """Return the JSON metadata stored by :func:`write_table` (``{}`` if none), without the
    content checksum (:func:`read_arrow` checks it)."""
    try:
        schema = pq.read_schema(path)
    except (pa.ArrowException, OSError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise CorruptTableError(
            f"{path}: not a readable Parquet file ({_first_line(exc)}); "
            f"{_REBUILD.format(path=path)}"
        ) from None
    return table_metadata(schema)


def table_metadata(schema: pa.Schema) -> dict:
    """The JSON metadata :func:`write_table` stored in a table's schema (``{}`` if none),
    without the content checksum: :func:`read_metadata` of a table already read."""
    raw = (schema.metadata or {}).get(METADATA_KEY)
    about = json.loads(raw) if raw else {}
    about.pop(CHECKSUM_KEY, None)
    return about


def content_digest(table: pa.Table) -> str:
    """sha256 of a table's column names, types and values, whatever its chunks or buffers.

    A pure function of the values: the same table read back, or made again from the same
    inputs, gives the same digest.
    """
    digest = hashlib.sha256()
    digest.update(f"{table.num_rows}\n".encode())
    for name, column in zip(table.column_names, table.columns, strict=True):
        digest.update(f"{name}\n{_type_name(column.type)}\n".encode())
        array = column.combine_chunks() if column.num_chunks else pa.array([], type=column.type)
        _digest_array(digest, array)
    return digest.hexdigest()


def _type_name(kind: pa.DataType) -> str:
    """A type's name without the names of list items (Parquet calls them "element")."""
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        return f"list<{_type_name(kind.value_type)}>"
    if pa.types.is_dictionary(kind):
        return _type_name(kind.value_type)
    return {"large_string": "string", "large_binary": "binary"}.get(str(kind), str(kind))


def _digest_array(digest, array: pa.Array) -> None:
    kind = array.type
    if array.null_count:
        digest.update(b"nulls")
        digest.update(array.is_null().to_numpy(zero_copy_only=False).tobytes())
    if pa.types.is_dictionary(kind):
        _digest_array(digest, array.dictionary_decode())
    elif pa.types.is_list(kind) or pa.types.is_large_list(kind):
        lengths = array.value_lengths().fill_null(0).to_numpy(zero_copy_only=False)
        digest.update(lengths.astype(np.int64).tobytes())
        _digest_array(digest, array.flatten())
    elif pa.types.is_primitive(kind):
        zero = pa.scalar(False if pa.types.is_boolean(kind) else 0, kind)
        filled = array.fill_null(zero) if array.null_count else array
        digest.update(np.ascontiguousarray(filled.to_numpy(zero_copy_only=False)).tobytes())
    else:  # strings and anything else: their Python values, unambiguously separated
        for value in array.to_pylist():
            item = repr(value).encode("utf-8", "surrogatepass")
            digest.update(len(item).to_bytes(8, "little") + item)


def _first_line(exc: BaseException) -> str:
    """The gist of a reader's error: its first sentence, without the path it repeats."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    text = re.sub(r"^Could not open Parquet input source '[^']*': ", "", text)
    return text.split(". ")[0].rstrip(".")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _json_default(obj: object) -> object:
    if hasattr(obj, "tolist"):
        return obj.tolist()
    if isinstance(obj, os.PathLike):
        return os.fspath(obj)
    raise TypeError(f"metadata value of type {type(obj).__name__} is not JSON serialisable")


def sha256_file(path: str | os.PathLike) -> str:
    """Hex sha256 (lower case) of a file, read in 1 MiB blocks.

    The one checksum of the package: vendored and downloaded sources are checked with it.
    """
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class SmallFileError(ValueError):
    """A small input file (config, registry, cost file) that cannot be read as text: the
    message names its path and why, never its content."""


def read_small_text(path: str | os.PathLike, max_bytes: int) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` bytes.

    A device, a folder or a pipe (``/dev/zero`` never ends), a larger file or bytes that are
    not UTF-8 text (NUL included) raise :class:`SmallFileError` naming the path and what is
    wrong (``"<path>: is not a regular file"``), without quoting the file: an error message
    must not print a file that was never meant to be read (``/proc/self/environ``).
    """
    path = Path(path)
    try:  # stat first: opening a pipe would wait for a writer
        if not stat.S_ISREG(path.stat().st_mode):
            raise SmallFileError(f"{path}: is not a regular file (a device, folder or pipe)")
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise SmallFileError(f"{path}: cannot be read ({exc.strerror})") from None
    if len(data) > max_bytes:
        raise SmallFileError(f"{path}: is larger than {max_bytes:,} bytes")
    if b"\0" in data:
        raise SmallFileError(f"{path}: is not a text file (it holds NUL bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SmallFileError(
            f"{path}: is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})"
        ) from None
