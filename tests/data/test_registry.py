"""The dataset registry (budgetboost.data.registry): Table 1's entries and sizes, defaults,
vendored checksums, entries checked naming dataset and field, download targets."""

from __future__ import annotations

import copy
import hashlib

import pytest
import yaml
from helpers import REPO

from budgetboost.data.registry import (
    download_targets,
    load_registry,
    paper_datasets,
    source_files,
    validate_registry,
)


def test_registry_has_the_nine_datasets_with_table1_sizes(registry):
    table1 = (
        "ocr17",
        "ocr49",
        "splice",
        "census",
        "breast_cancer",
        "ecoli",
        "sonar",
        "heart",
        "ionosphere",
    )
    enabled = [name for name, e in registry.items() if e["enabled"]]
    assert enabled[: len(table1)] == list(table1)  # then the suite's (test_suite_datasets.py)
    assert paper_datasets(registry) == table1  # in Table 1's order
    assert registry["ocr17"]["adaboost_rounds"] == 400
    assert (registry["sonar"]["train_size"], registry["sonar"]["test_size"]) == (100, 108)
    assert registry["breast_cancer"]["trials"] == 400
    assert registry["webscope"]["source"]["type"] == "local"
    assert not registry["webscope"]["enabled"]


def test_registry_defaults_are_filled(registry):
    sonar = registry["sonar"]
    assert sonar["format"] == "parquet" and sonar["drop_constant"] is True
    assert sonar["exclude"] == [] and sonar["read_options"] == {} and sonar["cost_scale"] == 1


def test_default_run_touches_no_network(registry):
    for name, entry in registry.items():
        if entry["enabled"]:
            assert entry["source"]["type"] == "vendored", name
            assert download_targets(name, entry, REPO) == []


def test_vendored_checksums_match_the_shipped_files(registry):
    for name, entry in registry.items():
        if entry["source"]["type"] == "vendored":
            for file in source_files(name, entry, REPO):
                assert hashlib.sha256(file.path.read_bytes()).hexdigest() == file.sha256


@pytest.mark.parametrize(
    "mutate, message",
    [
        (lambda e: e.pop("train_size"), "'train_size' is a required property"),
        (lambda e: e["source"].update(type="ftp"), "source/type"),
        (lambda e: e["source"].pop("sha256"), "source"),
        (lambda e: e["binarize"].update(numeric={"method": "quantiles"}), "binarize/numeric"),
        (lambda e: e["label"].pop("negative"), "'negative' is a required property"),
        (lambda e: e.update(trials=0), "trials"),
        (lambda e: e.update(colour="red"), "sonar/colour: unknown key"),
    ],
)
def test_invalid_entries_are_rejected_naming_dataset_and_field(registry, mutate, message):
    entry = copy.deepcopy(registry["sonar"])
    mutate(entry)
    with pytest.raises(ValueError, match=message) as err:
        validate_registry({"sonar": entry})
    assert "sonar" in str(err.value)


def test_load_registry_names_the_file(tmp_path):
    path = tmp_path / "datasets.yaml"
    path.write_text(yaml.safe_dump({"x": {"source": {"type": "local"}}}))
    with pytest.raises(ValueError, match=str(path)):
        load_registry(path)


def test_url_sources_download_to_resources_downloads(registry):
    targets = download_targets("census_uci", registry["census_uci"], REPO)
    assert [t[2] for t in targets] == [
        REPO / "resources" / "downloads" / "census_uci" / "adult.data",
        REPO / "resources" / "downloads" / "census_uci" / "adult.test",
    ]
    assert all(len(t[1]) == 64 and t[0].startswith("https://") for t in targets)
