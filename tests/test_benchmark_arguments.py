"""The benchmarks' command lines refuse bad arguments in one line naming the argument and
its value (issue 33, poor cases: ``--datasets nosuch`` gave a KeyError, ``--sizes abc`` a bare
ValueError, ``--repeats -1`` a StatisticsError, a bad config a traceback)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "args, line",
    [
        (
            ["--datasets", "nosuch"],
            "benchmarks/scale.py: --datasets: 'nosuch' is not in the registry "
            "config/datasets.yaml (known: ",
        ),
        (
            ["--sizes", "1000", "abc"],
            "benchmarks/scale.py: --sizes: 'abc' is neither a number of training rows nor 'all'",
        ),
        (
            ["--repeats", "-1"],
            "benchmarks/scale.py: --repeats: -1 is not a number of paired runs (1 or more)",
        ),
        (
            ["--algorithms", "gredy"],
            "benchmarks/scale.py: --algorithms: 'gredy' is not an algorithm of ",
        ),
        (
            ["--configfile", "/dev/zero"],
            "benchmarks/scale.py: config file /dev/zero: is not a regular file",
        ),
    ],
)
def test_scale_refuses_a_bad_argument_in_one_line(args, line, monkeypatch, capsys):
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(var, "1")  # what the script sets, restored afterwards
    script = REPO / "benchmarks/scale.py"
    monkeypatch.setattr(sys, "argv", [str(script), *args])
    with pytest.raises(SystemExit) as exc:
        runpy.run_path(str(script), run_name="__main__")
    assert str(exc.value.code).startswith(line), exc.value.code
    assert len(str(exc.value.code).splitlines()) == 1 and capsys.readouterr().out == ""
