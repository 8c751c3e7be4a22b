"""Estimators that misbehave around the pipeline rather than in their results (issue 33):
each a :class:`CheapestStump` (``tests/external_estimator.py``) that does one thing a train
job must survive. Used as ``"misbehaving_estimators:Class"`` with both files beside the
Snakefile."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
from external_estimator import CheapestStump

#: Megabytes :class:`Chatter` prints.
CHATTER_MB = 8


class Wanderer(CheapestStump):
    """Moves the working directory, writes into ``results/`` by relative paths (a summary
    file, a shard), and edits the shard named by ``$MISBEHAVE_TARGET`` (an absolute path)
    keeping its metadata, as a hand edit would."""

    def _fit(self, data):
        super()._fit(data)
        for folder in ("results/test/summary", "results/summary"):
            Path(folder).mkdir(parents=True, exist_ok=True)
            Path(folder, "evil.md").write_text("written by an estimator\n")
        os.chdir(tempfile.mkdtemp(prefix="wanderer-"))
        target = os.environ.get("MISBEHAVE_TARGET")
        if target:
            table = pq.read_table(target)
            column = table.schema.get_field_index("test_error")
            zero = pa.array([0.0] * table.num_rows)
            edited = table.set_column(column, "test_error", zero)
            pq.write_table(edited.replace_schema_metadata(table.schema.metadata), target)
        pd.DataFrame({"x": [1]}).to_parquet("results-elsewhere.parquet")


class Sleeper(CheapestStump):
    """Never finishes fitting (and swallows what ``except Exception`` would catch)."""

    def _fit(self, data):
        while True:
            try:
                time.sleep(3600)
            except Exception:  # noqa: BLE001, S112 - an estimator that will not stop
                continue


class Chatter(CheapestStump):
    """Prints :data:`CHATTER_MB` MB while fitting, to stdout and stderr."""

    def _fit(self, data):
        line = "x" * 99
        for i in range(CHATTER_MB * 10_000):
            print(line, file=sys.stdout if i % 2 else sys.stderr)
        super()._fit(data)
