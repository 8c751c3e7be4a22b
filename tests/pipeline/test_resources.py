"""What cluster jobs ask for, and what a finished run says they need."""

from __future__ import annotations

import pytest
from helpers import ran_job

from budgetboost.pipeline.resources import DEFAULTS, measured, rule_resources, suggested


def test_measured_takes_each_rules_largest_peak_and_longest_job(tmp_path):
    ran_job(tmp_path, "train", "logs/x/train/a/block-0.log", 30.0, 600, 1)
    ran_job(tmp_path, "train", "logs/x/train/b/block-0.log", 90.0, 400, 2)
    ran_job(tmp_path, "train", "logs/x/train/c/block-0.log", 500.0, None, 3)  # unfinished
    ran_job(tmp_path, "train", "logs/train/a/block-0.log", 900.0, 9000, 4)  # another config's
    ran_job(tmp_path, "binarize", "logs/x/binarize/a.log", 2.0, 300, 5)
    ran_job(tmp_path, "plot", "logs/x/plot/a.log", 2.0, 3000, 6)  # a local rule: not read
    ran_job(tmp_path, "train", "logs/x/y/train/a/block-0.log", 900.0, 9000, 7)  # below: another's
    logs = [f"logs/x/train/{k}/block-0.log" for k in "abc"] + ["logs/x/binarize/a.log"]
    table = measured(tmp_path, logs)
    assert table.to_dict("records") == [
        {"rule": "binarize", "jobs": 1, "peak_mib": 300.0, "seconds": 2.0},
        {"rule": "train", "jobs": 2, "peak_mib": 600.0, "seconds": 90.0},
    ]


def test_suggested_adds_the_stated_margins_in_megabytes_and_minutes(tmp_path):
    ran_job(tmp_path, "train", "logs/train/a/block-0.log", 600.0, 1028, 1)
    ran_job(tmp_path, "binarize", "logs/binarize/a.log", 2.0, 409, 2)
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
