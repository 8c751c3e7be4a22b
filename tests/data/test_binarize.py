"""The paper's binarization (budgetboost.data.binarize)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost.data.binarize import (
    NotNumericError,
    binarize_frame,
    fit_attribute,
    format_value,
    normalise_missing,
    transform,
)

DISTINCT = {"numeric": {"method": "distinct"}}


def test_distinct_gives_one_indicator_per_value_above_the_minimum():
    frame = pd.DataFrame({"a": [0.5, 0.1, 0.3, 0.3, 0.9]})
    X, ind = binarize_frame(frame, DISTINCT)
    assert [i["name"] for i in ind] == ["a>=0.3", "a>=0.5", "a>=0.9"]
    np.testing.assert_array_equal(X, [[1, 1, 0], [0, 0, 0], [1, 0, 0], [1, 0, 0], [1, 1, 1]])
    assert X.dtype == np.uint8


@settings(max_examples=examples(60))
@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=2, max_size=40))
def test_distinct_indicators_encode_the_order_exactly(values):
    """Row sums are the rank among distinct values: x_a < x_b <=> sum_a < sum_b."""
    x = np.array(values)
    X, ind = binarize_frame(pd.DataFrame({"v": x}), DISTINCT)
    assert X.shape[1] == np.unique(x).size - 1
    rank = np.searchsorted(np.unique(x), x)
    np.testing.assert_array_equal(X.sum(axis=1), rank)
    # each indicator is x >= its threshold
    thresholds = np.array([i["threshold"] for i in ind])
    np.testing.assert_array_equal(X, (x[:, None] >= thresholds[None, :]).astype(np.uint8))


def test_missing_values_zero_every_indicator_of_their_attribute():
    frame = pd.DataFrame({"num": [1.0, np.nan, 3.0, 2.0], "cat": ["x", "?", "", "y"]})
    X, ind = binarize_frame(
        frame, {"numeric": {"method": "distinct"}, "categorical": {"method": "onehot"}}
    )
    assert [i["name"] for i in ind] == ["num>=2", "num>=3", "cat=x", "cat=y"]
    np.testing.assert_array_equal(X[1], [0, 0, 0, 0])  # num NaN, cat '?'
    np.testing.assert_array_equal(X[2], [1, 1, 0, 0])  # cat '' is missing too


def test_onehot_with_fixed_categories_skips_ambiguity_codes():
    frame = pd.DataFrame({"pos1": ["A", "C", "N", "G", "T", "D"]})
    X, ind = binarize_frame(
        frame, {"categorical": {"method": "onehot", "categories": ["A", "C", "G", "T"]}}
    )
    assert [i["name"] for i in ind] == ["pos1=A", "pos1=C", "pos1=G", "pos1=T"]
    np.testing.assert_array_equal(X.sum(axis=1), [1, 1, 0, 1, 1, 0])


def test_quantiles_give_at_most_k_thresholds_above_the_minimum():
    x = np.arange(1000.0)
    ind = fit_attribute("w", pd.Series(x), {"method": "quantiles", "k": 4})
    thresholds = [i["threshold"] for i in ind]
    assert len(thresholds) == 4 and min(thresholds) > 0
    assert thresholds == sorted(thresholds) and set(thresholds) <= set(x)
    skewed = pd.Series(np.r_[np.zeros(95), np.arange(1.0, 6.0)])
    assert fit_attribute("g", skewed, {"method": "quantiles", "k": 8}) == []


def test_fixed_threshold_and_constant_columns_dropped():
    frame = pd.DataFrame({"p0": [0, 0, 0, 0], "p1": [0, 200, 127, 128], "p2": [255] * 4})
    X, ind = binarize_frame(frame, {"numeric": {"method": "threshold", "value": 128}})
    assert [i["name"] for i in ind] == ["p1>=128"]
    np.testing.assert_array_equal(X[:, 0], [0, 1, 0, 1])
    _, kept = binarize_frame(
        frame, {"numeric": {"method": "threshold", "value": 128}}, drop_constant=False
    )
    assert len(kept) == 2  # p0 >= 128 (all 0) and p2 >= 128 (all 1): constant


def test_per_column_override_beats_the_kind_default():
    frame = pd.DataFrame({"a": [0, 1, 2, 3], "gain": [0, 0, 5, 900]})
    _, ind = binarize_frame(
        frame,
        {
            "numeric": {"method": "distinct"},
            "columns": {"gain": {"method": "threshold", "value": 1}},
        },
    )
    assert [i["name"] for i in ind] == ["a>=1", "a>=2", "a>=3", "gain>=1"]


def test_transform_applies_fitted_indicators_to_new_rows():
    train = pd.DataFrame({"a": [1.0, 2.0, 3.0], "c": ["u", "v", "u"]})
    spec = {"numeric": {"method": "distinct"}, "categorical": {"method": "onehot"}}
    _, ind = binarize_frame(train, spec)
    new = pd.DataFrame({"a": [2.5, 0.0], "c": ["v", "w"]})
    np.testing.assert_array_equal(transform(new, ind), [[1, 0, 0, 1], [0, 0, 0, 0]])


def test_numeric_onehot_categories_match_by_formatted_value():
    frame = pd.DataFrame({"k": [1.0, 2.0, 2.0, np.nan]})
    X, ind = binarize_frame(frame, {"numeric": {"method": "onehot", "categories": [1, 2]}})
    assert [i["name"] for i in ind] == ["k=1", "k=2"]
    np.testing.assert_array_equal(X, [[1, 0], [0, 1], [0, 1], [0, 0]])


@pytest.mark.parametrize(
    "spec, message",
    [
        ({"numeric": {"method": "median"}}, "unknown binarization method 'median'"),
        ({"categorical": {"method": "onehot"}}, "no 'numeric' method"),
    ],
)
def test_bad_specs_name_the_attribute(spec, message):
    with pytest.raises(ValueError, match=message):
        binarize_frame(pd.DataFrame({"a": [1, 2]}), spec)


def test_threshold_methods_refuse_text_columns():
    with pytest.raises(ValueError, match="attribute 'c': method 'distinct' needs numbers"):
        binarize_frame(pd.DataFrame({"c": ["x", "y"]}), {"categorical": {"method": "distinct"}})


def test_format_value_and_missing_normalisation():
    assert format_value(0.1973) == "0.1973"
    assert format_value(128.0) == "128"
    assert format_value(np.int64(7)) == "7"
    assert format_value("A") == "A"
    out = normalise_missing(pd.Series(["a", " ? ", "", None, "b"]))
    assert out.isna().tolist() == [False, True, True, True, False]


def test_the_first_non_numeric_value_is_named_with_its_row():
    frame = pd.DataFrame({"a": [1, 2, 3], "b": ["5", " ", "NA"]})  # ' ' is a missing value
    with pytest.raises(
        NotNumericError, match="'b' is categorical, as its value 'NA' at row 2"
    ) as err:
        binarize_frame(frame, {"numeric": {"method": "distinct"}})
    assert (err.value.attribute, err.value.value, err.value.row) == ("b", "NA", 2)


def test_an_infinite_feature_value_is_named_with_its_row():
    """An ``inf`` feature value stops binarization naming its row: no indicator ``a1>=inf``, no
    metadata that is not valid JSON."""
    frame = pd.DataFrame({"a1": [1.0, np.inf, 3.0]})
    with pytest.raises(NotNumericError, match="'a1': its value inf at row 1 .* is not finite"):
        binarize_frame(frame, {"numeric": {"method": "distinct"}})
