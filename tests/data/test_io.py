"""Atomic, byte-reproducible Parquet output."""

from __future__ import annotations

import os
import stat

import pandas as pd
import pytest

from budgetboost.data.io import atomic_path, read_metadata, read_table, write_table


def test_write_table_is_byte_identical_and_self_describing(tmp_path):
    df = pd.DataFrame({"a": [1, 2, 3], "b": [0.5, 1.5, 2.5]})
    write_table(df, tmp_path / "x.parquet", metadata={"seed": 7, "name": "sonar"})
    write_table(df, tmp_path / "y.parquet", metadata={"name": "sonar", "seed": 7})
    assert (tmp_path / "x.parquet").read_bytes() == (tmp_path / "y.parquet").read_bytes()
    pd.testing.assert_frame_equal(read_table(tmp_path / "x.parquet"), df)
    assert read_metadata(tmp_path / "x.parquet") == {"name": "sonar", "seed": 7}
    mode = stat.S_IMODE(os.stat(tmp_path / "x.parquet").st_mode)
    assert mode & stat.S_IRGRP  # not the 0600 of a temporary file


def test_failed_write_leaves_the_previous_file_and_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("earlier result")
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("half written")
        raise RuntimeError("killed")
    assert target.read_text() == "earlier result"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.txt"]


def test_one_sha256_helper_for_the_registry_and_downloads(tmp_path):
    import hashlib

    from budgetboost.data import download, registry
    from budgetboost.data.io import sha256_file

    content = os.urandom((1 << 20) + 123)  # more than one read block
    (tmp_path / "f.bin").write_bytes(content)
    assert sha256_file(tmp_path / "f.bin") == hashlib.sha256(content).hexdigest()
    assert registry.sha256_file is download.sha256_file is sha256_file


def _shard_like(tmp_path):
    df = pd.DataFrame(
        {
            "algorithm": pd.Series(["greedy", "greedy", "smoothed"], dtype="string"),
            "trial": pd.Series([0, 1, 0], dtype="int32"),
            "test_error": [0.25, 0.5, float("nan")],
        }
    )
    path = tmp_path / "block-0.parquet"
    write_table(df, path, metadata={"dataset": "heart"})
    return df, path


def test_a_table_edited_after_it_was_written_is_refused_naming_it(tmp_path):
    """A shard edited by hand (test_error 0, metadata kept) is refused when read, naming it, never
    read as a result."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from budgetboost.data.io import CorruptTableError

    df, path = _shard_like(tmp_path)
    assert read_table(path)["test_error"].tolist()[:2] == [0.25, 0.5]
    table = pq.read_table(path)
    edited = table.set_column(2, "test_error", pa.array([0.0, 0.0, 0.0]))
    pq.write_table(edited.replace_schema_metadata(table.schema.metadata), path)
    assert read_metadata(path) == {"dataset": "heart"}  # the metadata was kept
    with pytest.raises(CorruptTableError) as err:
        read_table(path)
    assert str(err.value) == (
        f"{path}: its values are not those it was written with (content checksum mismatch: "
        "edited after its job wrote it); it is not read as a result. Rebuild it: run the "
        f"same snakemake command with --forcerun {path} (or delete it and run again)"
    )


def test_a_table_cut_short_is_refused_naming_it(tmp_path):
    from budgetboost.data.io import CorruptTableError

    _, path = _shard_like(tmp_path)
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])
    for read in (read_table, read_metadata):
        with pytest.raises(CorruptTableError, match=rf"^{path}: not a readable Parquet file "):
            read(path)


def test_the_checksum_is_a_function_of_the_values_only(tmp_path):
    """The same values give the same checksum whatever the chunks (a shard's bytes stay a
    pure function of its inputs), other values another one."""
    import pyarrow as pa

    from budgetboost.data.io import content_digest

    df, path = _shard_like(tmp_path)
    whole = pa.Table.from_pandas(df, preserve_index=False)
    chunked = pa.concat_tables([whole.slice(0, 1), whole.slice(1)])
    assert chunked.column(0).num_chunks == 2
    assert content_digest(whole) == content_digest(chunked)
    assert content_digest(whole) != content_digest(whole.slice(1))
    lists = pa.table({"x": pa.array([[1, 2], [3]], pa.list_(pa.int32()))})
    renamed = pa.table({"x": pa.array([[1, 2], [3]], pa.list_(pa.field("element", pa.int32())))})
    assert content_digest(lists) == content_digest(renamed)
