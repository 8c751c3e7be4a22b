"""Per-trial train/test splits (budgetboost.data.splits)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost.data.io import read_metadata, write_table
from budgetboost.data.splits import (
    check_training_classes,
    make_splits,
    read_splits,
    split_indices,
    write_splits,
)


@settings(max_examples=examples(50))
@given(n_rows=st.integers(2, 400), data=st.data())
def test_splits_are_disjoint_sorted_and_of_the_asked_sizes(n_rows, data):
    train_size = data.draw(st.integers(1, n_rows - 1))
    test_size = data.draw(st.integers(1, n_rows - train_size))
    train, test = split_indices("toy", 3, n_rows, train_size, test_size)
    assert (train.size, test.size) == (train_size, test_size)
    assert np.intersect1d(train, test).size == 0
    assert (np.diff(train) > 0).all() and (np.diff(test) > 0).all()
    assert train.min() >= 0 and max(train.max(), test.max()) < n_rows


def test_raising_the_trial_count_keeps_earlier_trials():
    few = make_splits("sonar", 208, 100, 108, 3)
    many = make_splits("sonar", 208, 100, 108, 10)
    for t in range(3):
        np.testing.assert_array_equal(few.train[t], many.train[t])
        np.testing.assert_array_equal(few.test[t], many.test[t])


def test_trials_and_datasets_get_different_splits():
    a = make_splits("sonar", 208, 100, 108, 2)
    b = make_splits("heart", 208, 100, 108, 2)
    assert not np.array_equal(a.train[0], a.train[1])
    assert not np.array_equal(a.train[0], b.train[0])
    np.testing.assert_array_equal(a.train[1], split_indices("sonar", 1, 208, 100, 108)[0])


def test_sizes_larger_than_the_data_name_dataset_and_values():
    with pytest.raises(
        ValueError,
        match=r"'ionosphere': train_size 300 \+ test_size 60 = 360 "
        r"is larger than its 351 rows",
    ):
        make_splits("ionosphere", 351, 300, 60, 5)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"trials": 0}, "trials"),
        ({"train_size": 0}, "train_size"),
        ({"test_size": 2.5}, "test_size"),
    ],
)
def test_non_positive_sizes_are_rejected(kwargs, field):
    args = {"dataset": "toy", "n_rows": 10, "train_size": 3, "test_size": 3, "trials": 2}
    args.update(kwargs)
    with pytest.raises(ValueError, match=f"'toy': {field} must be a positive integer"):
        make_splits(**args)


def test_write_read_round_trip(tmp_path):
    frame = make_splits("census", 48842, 1000, 5000, 4)
    path = tmp_path / "splits" / "census.parquet"
    write_splits(frame, path)
    back = read_splits(path)
    assert sorted(back) == [0, 1, 2, 3]
    for t in range(4):
        np.testing.assert_array_equal(back[t][0], frame.train[t])
        np.testing.assert_array_equal(back[t][1], frame.test[t])
    meta = read_metadata(path)
    assert meta["dataset"] == "census" and meta["trials"] == 4 and meta["train_size"] == 1000
    first = path.read_bytes()
    write_splits(make_splits("census", 48842, 1000, 5000, 4), path)
    assert path.read_bytes() == first  # byte-reproducible


def test_read_splits_rejects_other_tables(tmp_path):
    write_table(pd.DataFrame({"trial": [0]}), tmp_path / "x.parquet")
    with pytest.raises(ValueError, match="not a splits file"):
        read_splits(tmp_path / "x.parquet")


def test_a_training_part_of_one_class_names_the_trial_and_the_remedy():
    """Found before in a train job, without the trial."""
    y = np.array([1] * 95 + [-1] * 5)
    check_training_classes("skewed", y, 60, 20, 5)  # 60 of 100 rows: both classes
    with pytest.raises(ValueError) as err:
        check_training_classes("skewed", y, 2, 20, 50)
    trial = next(
        t for t in range(50) if np.unique(y[split_indices("skewed", t, 100, 2, 20)[0]]).size < 2
    )
    assert str(err.value) == (
        f"dataset 'skewed', trial {trial}: its 2 training rows all have label 1; raise "
        "train_size (datasets.skewed.train_size in the config) so that every trial's training "
        "part holds both classes"
    )
