"""The benchmark suite's datasets: every vendored entry binarizes, the suite's entries
follow the one size rule, their tasks have the documented class counts, and Turney's cost
files name the datasets' attributes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import REPO
from hypothesis import given
from hypothesis import strategies as st

from budgetboost.data.binarize import column_kind
from budgetboost.data.datasets import read_source
from budgetboost.data.registry import (
    SUITE_MAX_ROWS,
    SUITE_ROUNDS,
    SUITE_TRIALS,
    load_registry,
    paper_datasets,
    source_files,
    suite_sizes,
)
from budgetboost.data.seeds import rng_from_key
from budgetboost.data.splits import check_training_classes

REGISTRY = load_registry(REPO / "config" / "datasets.yaml")
VENDORED = [n for n, e in REGISTRY.items() if e["enabled"] and e["source"]["type"] == "vendored"]
SUITE = [n for n in VENDORED if "paper_features" not in REGISTRY[n]]

#: rows and positives of each suite task, as ../shared/datasets/suite/README.md counts them
#: (checked there against the UCI/KEEL documentation); letter's A-M is the sum of its
#: letters' counts there, magic's the 5,000-row subsample's; cube's are its generator's draw
#: (budgetboost.data.synthetic)
COUNTS = {
    "heart_cleveland": (303, 139),
    "pima": (768, 268),
    "hepatitis": (155, 32),
    "ann_thyroid": (7200, 93 + 191 + 73 + 177),
    "ilpd": (583, 416),
    "spectf": (267, 212),
    "biodeg": (1055, 356),
    "breast_ljubljana": (286, 85),
    "bupa": (345, 176),
    "crx": (690, 307),
    "german": (1000, 300),
    "haberman": (306, 81),
    "house_votes": (435, 168),
    "kr_vs_kp": (3196, 1669),
    "letter": (20000, 9940),
    "magic": (5000, 3246),  # 12,332 of 19,020 in the whole file
    "mammographic": (830, 403),
    "phoneme": (5404, 1586),
    "climate": (540, 46),
    "saheart": (462, 160),
    "satimage": (6435, 626),
    "segment": (2310, 330),
    "spambase": (4601, 1813),
    "tic_tac_toe": (958, 626),
    "transfusion": (748, 178),
    "vehicle": (846, 199),
    "wdbc": (569, 212),
    "wine_red": (1599, 217),
    "wine_white": (4898, 1060),
    "cube": (2000, 986),
}
COST_FILES = ["heart_cleveland", "ann_thyroid", "pima", "hepatitis"]


def test_thirty_datasets_or_more_run_offline():
    assert paper_datasets(REGISTRY) == tuple(VENDORED[:9])  # Table 1's first, in its order
    assert sorted(SUITE) == sorted(COUNTS) and len(VENDORED) >= 30


@pytest.mark.parametrize("name", VENDORED)
def test_every_vendored_entry_binarizes(built, name):
    """build_binarized checks the file's sha256; the table is 0/1 with no constant column,
    and the registry's sizes fit its rows."""
    data = built(name)
    entry = REGISTRY[name]
    assert data.X.dtype == np.uint8 and data.X.max() == 1 and set(np.unique(data.y)) == {-1, 1}
    assert (data.X.min(axis=0) == 0).all() and (data.X.max(axis=0) == 1).all()
    assert entry["train_size"] + entry["test_size"] <= len(data.y)


@pytest.mark.parametrize("name", SUITE)
def test_suite_tasks_have_the_documented_class_counts(built, name):
    data = built(name)
    assert (len(data.y), int((data.y == 1).sum())) == COUNTS[name]


@pytest.mark.parametrize("name", SUITE)
def test_suite_entries_follow_the_one_rule(built, name):
    """Sizes from the row count (registry.suite_sizes), the registry's trials and rounds,
    and every trial's training part holds both classes."""
    entry, data = REGISTRY[name], built(name)
    assert (entry["train_size"], entry["test_size"]) == suite_sizes(len(data.y))
    assert (entry["trials"], entry["adaboost_rounds"]) == (SUITE_TRIALS, SUITE_ROUNDS)
    check_training_classes(name, data.y, entry["train_size"], entry["test_size"], entry["trials"])


#: the widest binarization a suite dataset gets from the paper's `distinct`
MAX_DISTINCT_WIDTH = 2000


@pytest.mark.parametrize("name", SUITE)
def test_suite_entries_use_distinct_up_to_2000_indicators(name):
    """The registry's binarization rule: `distinct` where it gives at most 2,000 indicators
    (one per distinct value above an attribute's minimum, one per category), else 32
    quantiles; counted from the raw table, without building the wide matrix."""
    entry = REGISTRY[name]
    frame = pd.concat([read_source(name, entry, f) for f in source_files(name, entry, REPO)])
    features = frame.drop(columns=[*entry["exclude"], entry["label"]["column"]])
    width = sum(
        features[c].nunique() - (column_kind(features[c]) == "numeric") for c in features.columns
    )
    numeric = entry["binarize"].get("numeric")
    if numeric is None:
        assert all(column_kind(features[c]) == "categorical" for c in features.columns)
    elif width <= MAX_DISTINCT_WIDTH:
        assert numeric == {"method": "distinct"}, width
    else:
        assert numeric == {"method": "quantiles", "k": 32}, width


@pytest.mark.parametrize(
    "rows, sizes",
    [(155, (117, 38)), (1333, (1000, 333)), (4000, (1000, 1000)), (20000, (1000, 1000))],
)
def test_suite_sizes(rows, sizes):
    assert suite_sizes(rows) == sizes


@given(st.integers(4, 10**6))
def test_suite_sizes_bound_the_tests_variance_inflation(rows):
    """A quarter of the rows at most for test, and never more test than training rows (the
    test rows' part of the correction, test / (rows - test), is at most 1/3)."""
    train, test = suite_sizes(rows)
    assert 1 <= test <= train <= SUITE_MAX_ROWS and train + test <= rows
    assert 3 * test <= rows - test


def test_magic_is_the_stated_seeded_subsample():
    rows = pd.read_parquet(REPO / "resources" / "magic.parquet", columns=["row"])["row"]
    expected = np.sort(rng_from_key("subsample", "magic").choice(19020, size=5000, replace=False))
    np.testing.assert_array_equal(rows.to_numpy(), expected)


def _costs(name: str) -> pd.DataFrame:
    return pd.read_csv(REPO / REGISTRY[name]["cost_file"], dtype={"group": str})


@pytest.mark.parametrize("name", COST_FILES)
def test_turney_cost_files_name_the_datasets_attributes(built, name):
    costs = _costs(name)
    assert list(costs.columns) == ["feature", "cost", "group", "discount_cost"]
    attributes = built(name).meta["raw_attributes"]
    assert costs["feature"].tolist() == [a for a in attributes if a in set(costs["feature"])]
    unlisted = sorted(set(attributes) - set(costs["feature"]))
    assert unlisted == (["FTI"] if name == "ann_thyroid" else [])  # computed from TT4, T4U
    unpriced = sorted(costs.loc[costs["cost"].isna(), "feature"])
    assert unpriced == (["age", "alk_phosphate", "sgot"] if name == "hepatitis" else [])
    priced = costs.dropna(subset=["cost"])
    alone = priced["group"].isna()
    assert (priced.loc[alone, "cost"] == priced.loc[alone, "discount_cost"]).all()
    shared = (priced["cost"] - priced["discount_cost"]).round(2)[~alone]
    assert (shared.groupby(priced.loc[~alone, "group"]).nunique() == 1).all()


def test_cleveland_groups_share_turneys_parts():
    """Blood draw, thallium scan and exercise ECG (Turney 1995): all 13 tests 323.97 with the
    groups, 600.57 without."""
    costs = _costs("heart_cleveland")
    grouped = costs.dropna(subset=["group"])
    shared = (grouped["cost"] - grouped["discount_cost"]).groupby(grouped["group"]).first()
    assert shared.round(2).to_dict() == {"A": 2.10, "B": 101.90, "C": 86.30}
    assert round(costs["cost"].sum(), 2) == 600.57
    assert round(costs["discount_cost"].sum() + shared.sum(), 2) == 323.97
