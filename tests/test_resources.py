"""What cluster jobs ask for, and what a finished run says they need (#24)."""

from __future__ import annotations

import json
import re

import pytest

from budgetboost.pipeline.resources import DEFAULTS, measured, rule_resources, suggested


def _job(root, rule: str, log: str, seconds: float, peak: float | None, job_hash: int) -> None:
    """One finished job as Snakemake and the rule script leave it: a metadata record (start,
    end, log path) and a log ending with the peak memory (none: the job did not finish)."""
    (root / log).parent.mkdir(parents=True, exist_ok=True)
    lines = ["2026-11-25 03:47:27,980 INFO census trials [0]"]
    if peak is not None:
        lines.append(f"2026-11-25 03:49:11,976 INFO peak memory: {peak:.0f} MiB")
    (root / log).write_text("\n".join(lines) + "\n")
    record = {"rule": rule, "log": [log], "job_hash": job_hash, "starttime": 100.0}
    record["endtime"] = 100.0 + seconds
    meta = root / ".snakemake" / "metadata"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / f"{job_hash}-{rule}").write_text(json.dumps(record))


def test_measured_takes_each_rules_largest_peak_and_longest_job(tmp_path):
    _job(tmp_path, "train", "logs/x/train/a/block-0.log", 30.0, 600, 1)
    _job(tmp_path, "train", "logs/x/train/b/block-0.log", 90.0, 400, 2)
    _job(tmp_path, "train", "logs/x/train/c/block-0.log", 500.0, None, 3)  # unfinished
    _job(tmp_path, "train", "logs/train/a/block-0.log", 900.0, 9000, 4)  # another config's
    _job(tmp_path, "binarize", "logs/x/binarize/a.log", 2.0, 300, 5)
    _job(tmp_path, "plot", "logs/x/plot/a.log", 2.0, 3000, 6)  # a local rule: not read
    _job(tmp_path, "train", "logs/x/y/train/a/block-0.log", 900.0, 9000, 7)  # below: another's
    logs = [f"logs/x/train/{k}/block-0.log" for k in "abc"] + ["logs/x/binarize/a.log"]
    table = measured(tmp_path, logs)
    assert table.to_dict("records") == [
        {"rule": "binarize", "jobs": 1, "peak_mib": 300.0, "seconds": 2.0},
        {"rule": "train", "jobs": 2, "peak_mib": 600.0, "seconds": 90.0},
    ]


def test_suggested_adds_the_stated_margins_in_megabytes_and_minutes(tmp_path):
    _job(tmp_path, "train", "logs/train/a/block-0.log", 600.0, 1028, 1)
    _job(tmp_path, "binarize", "logs/binarize/a.log", 2.0, 409, 2)
    suggestion = suggested(measured(tmp_path, ["logs/train/a/block-0.log", "logs/binarize/a.log"]))
    # 1.5 x 1028 MiB = 1616.9 MB -> 1700; 3 x 10 min = 30 min; 1.5 x 409 MiB = 643 MB -> 700
    assert suggestion == {
        "binarize": {"mem_mb": 700, "runtime": 5},
        "train": {"mem_mb": 1700, "runtime": 30},
    }


@pytest.mark.parametrize("rule", sorted(DEFAULTS))
def test_a_config_sets_a_rules_resources_over_the_defaults(rule):
    assert rule_resources({}, rule) == DEFAULTS[rule]
    config = {"resources": {rule: {"runtime": 7}}}
    assert rule_resources(config, rule) == {"mem_mb": DEFAULTS[rule]["mem_mb"], "runtime": 7}


def test_the_dry_run_asks_for_the_configs_resources():
    """A real ``snakemake -n`` through the SLURM profile (tests/slurm/count_submissions.py):
    each job of the full-size config asks for what config/full_size.yaml measured."""
    import subprocess
    import sys
    from pathlib import Path

    import yaml

    repo = Path(__file__).resolve().parents[1]
    asked = yaml.safe_load((repo / "config/full_size.yaml").read_text())["resources"]
    out = subprocess.run(
        [
            sys.executable,
            "tests/slurm/count_submissions.py",
            "--configfile",
            "config/full_size.yaml",
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = {line.split()[0]: line.split() for line in out.splitlines()[1:]}
    for rule, values in asked.items():
        assert rows[rule][2:4] == [str(values["mem_mb"]), str(values["runtime"])], rule
    assert "SLURM jobs submitted: 5 bundles + 3 single = 8" in out


def _resources(root, *args: str) -> tuple[int, str, str]:
    """``python benchmarks/resources.py ARGS --root ROOT`` in this process: its exit status,
    what it printed and its error line."""
    import contextlib
    import io
    import runpy
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "benchmarks/resources.py"
    out, argv = io.StringIO(), sys.argv
    sys.argv = [str(script), *args, "--root", str(root)]
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(str(script), run_name="__main__")
    except SystemExit as exc:
        return 1, out.getvalue(), str(exc.code)
    finally:
        sys.argv = argv
    return 0, out.getvalue(), ""


def test_resources_refuses_the_logs_of_another_config(tmp_path):
    """Bad case 10: asked about config/config.yaml where only the tiny config ran, it
    suggested the tiny run's train mem_mb 500 and runtime 5 (documented: 1,700 and 90)."""
    from budgetboost.pipeline import folders

    _job(tmp_path, "train", "logs/test/train/heart/uniform_0_2/greedy/block-0.log", 30, 400, 1)
    _job(tmp_path, "train", "logs/train/heart/uniform_0_2/greedy/block-0.log", 30, 500, 2)
    folders.claim("results/test", "config/test.yaml", tmp_path)
    status, printed, error = _resources(tmp_path, "--configfile", "config/config.yaml")
    assert status != 0 and printed == ""
    assert error == (
        f"benchmarks/resources.py: {tmp_path}/results/ records no config (--assume-owner "
        "reads it as this config's), not of config/config.yaml: its logs say nothing of what "
        "this config needs"
    )
    folders.claim("results", "config/test.yaml", tmp_path)  # the tiny config, into results/
    _, _, error = _resources(tmp_path, "--configfile", "config/config.yaml")
    assert "results/ holds the outputs of config/test.yaml, not of config/config.yaml" in error
    # the tiny config's own logs: exactly its jobs' (heart's block 0 of greedy)
    status, printed, error = _resources(tmp_path, "--configfile", "config/test.yaml")
    assert status == 0, error
    assert re.search(r"^ *train +1 +400.00 ", printed, flags=re.M), printed


def test_resources_with_a_bad_config_says_so_in_one_line(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("block_sise: 3\n")
    status, _, error = _resources(tmp_path, "--configfile", str(bad))
    assert status != 0
    assert error.splitlines() == [
        "benchmarks/resources.py: config block_sise: unknown key (allowed here: adaboost_path, "
        "algorithms, block_size, cost_models, datasets, figure_modules, registry, resources, "
        "results)"
    ]
