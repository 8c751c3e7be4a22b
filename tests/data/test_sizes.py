"""The sizes check's command line (budgetboost.data.sizes): one line per dataset, naming the
rule its train and test sizes follow."""

from __future__ import annotations

from pathlib import Path

from budgetboost.data.registry import suite_sizes
from budgetboost.data.sizes import main, sizes_rule

ROOT = Path(__file__).resolve().parents[2]


def test_sizes_rule_names_table_1_the_suite_rule_or_the_rule_an_entry_breaks():
    assert sizes_rule({"paper_features": 82, "train_size": 500, "test_size": 199}, 699) == "Table 1"
    train, test = suite_sizes(5000)
    assert sizes_rule({"train_size": train, "test_size": test}, 5000) == "suite rule"
    assert sizes_rule({"train_size": 10, "test_size": 10}, 5000) == f"rule: {train}/{test}"


def test_the_command_line_prints_a_named_dataset_with_its_rows_and_sizes_rule(capsys):
    main(["--registry", str(ROOT / "config/datasets.yaml"), "--root", str(ROOT), "breast_cancer"])
    header, line = capsys.readouterr().out.splitlines()
    assert header.split()[:3] == ["dataset", "rows", "features"]
    fields = line.split()
    assert fields[0] == "breast_cancer" and fields[1] == "699"
    assert "Table 1" in line
