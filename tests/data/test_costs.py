"""Cost models (budgetboost.data.costs)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import yaml
from helpers import REPO, examples
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import spearmanr

from budgetboost.data.cost_kinds import QUALITIES
from budgetboost.data.costs import (
    CostTable,
    SpecError,
    check_spec,
    make_costs,
    read_attribute_costs,
    read_costs,
    varied_pairs,
    write_costs,
)
from budgetboost.data.datasets import BinarizedData, build_binarized
from budgetboost.data.io import read_metadata, write_table
from budgetboost.data.registry import load_registry
from budgetboost.data.splits import split_indices

from .helpers import toy_data

UNIFORM = {"model": "uniform_random", "low": 0, "high": 2}


def _splits(data: BinarizedData, trials: range) -> dict:
    n = len(data.y)
    return {t: split_indices("toy", t, n, n // 2, n - n // 2) for t in trials}


@pytest.fixture(scope="module")
def heart() -> BinarizedData:
    return build_binarized("heart", load_registry(REPO / "config/datasets.yaml")["heart"], REPO)


def test_uniform_random_is_seeded_per_trial_and_cost_model():
    data = toy_data()
    table = make_costs("toy", "uniform_0_2", UNIFORM, data, None, range(5))
    assert table.costs.shape == (5, 6) and not table.grouped
    assert table.costs.min() >= 0 and table.costs.max() <= 2
    alone = make_costs("toy", "uniform_0_2", UNIFORM, data, None, [3])
    np.testing.assert_array_equal(alone.costs[0], table.costs[3])  # independent of others
    other = make_costs("toy", "uniform_again", UNIFORM, data, None, [3])
    assert not np.array_equal(other.costs[0], table.costs[3])
    assert not np.array_equal(table.costs[0], table.costs[1])


@settings(max_examples=examples(30))
@given(low=st.floats(0, 5), width=st.floats(0, 5), trial=st.integers(0, 10_000))
def test_uniform_costs_stay_in_their_interval(low, width, trial):
    spec = {"model": "uniform_random", "low": low, "high": low + width}
    costs = make_costs("toy", "u", spec, toy_data(), None, [trial]).costs
    assert (costs >= low).all() and (costs <= low + width).all()


def test_constant_and_discrete():
    data = toy_data()
    const = make_costs("toy", "unit", {"model": "constant", "value": 1}, data, None, range(2))
    np.testing.assert_array_equal(const.costs, np.ones((2, 6)))
    spec = {"model": "discrete", "values": [0.1, 5, 20], "probabilities": [0.5, 0.5, 0.0]}
    drawn = make_costs("toy", "d", spec, toy_data(groups=(400,)), None, range(3)).costs
    assert set(np.unique(drawn)) == {0.1, 5.0}


def test_per_attribute_costs_are_shared_and_grouped():
    data = toy_data()
    spec = {"model": "per_attribute", "low": 0, "high": 2}
    table = make_costs("toy", "attr", spec, data, None, range(4))
    assert table.grouped
    for row in table.costs:
        assert np.unique(row[:3]).size == 1 and np.unique(row[3:4]).size == 1
        assert np.unique(row[4:]).size == 1 and np.unique(row).size == 3


def test_grouped_flag_on_plain_models():
    table = make_costs("toy", "g", {**UNIFORM, "grouped": True}, toy_data(), None, [0])
    assert table.grouped and np.unique(table.costs[0][:3]).size == 1


def test_real_heart_costs_follow_turney(heart):
    table = make_costs("heart", "real", {"model": "real"}, heart, None, range(3), REPO)
    assert table.grouped
    turney = pd.read_csv(REPO / "resources/heart_cleveland_turney_costs.csv").set_index("feature")[
        "cost"
    ]
    expected = turney.loc[list(heart.attributes)].to_numpy()
    for row in table.costs:
        np.testing.assert_array_equal(row, expected)
    assert table.costs[0][heart.attributes == "thalach"][0] == 102.9


def test_real_costs_scale_and_plain_format(tmp_path):
    (tmp_path / "costs.txt").write_text("10\n50\n200\n")
    data = toy_data()
    data.meta["attributes"] = ["f1", "f2", "f3"]
    spec = {"model": "real", "file": "costs.txt", "scale": 0.1}
    table = make_costs("toy", "real", spec, data, None, [0], tmp_path)
    np.testing.assert_allclose(table.costs[0], [1, 1, 1, 5, 20, 20])


def test_missing_attribute_in_real_cost_file(tmp_path):
    (tmp_path / "c.csv").write_text("feature,cost\na0,1\na1,2\n")
    with pytest.raises(ValueError, match=r"'toy'.*c\.csv has no cost for attribute.*'a2'"):
        make_costs(
            "toy", "real", {"model": "real", "file": "c.csv"}, toy_data(), None, [0], tmp_path
        )


@pytest.mark.parametrize("value", ["-3", "nan"])
def test_negative_or_nan_real_costs(tmp_path, value):
    (tmp_path / "c.csv").write_text(f"feature,cost\na0,1\na1,{value}\na2,2\n")
    with pytest.raises(ValueError, match=rf"'toy'.*c\.csv.*{value}"):
        make_costs(
            "toy", "real", {"model": "real", "file": "c.csv"}, toy_data(), None, [0], tmp_path
        )


def test_missing_cost_file_names_dataset_and_path(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"'toy'.*nowhere\.csv not found"):
        make_costs(
            "toy", "real", {"model": "real", "file": "nowhere.csv"}, toy_data(), None, [0], tmp_path
        )


def test_non_numeric_cost_in_file(tmp_path):
    (tmp_path / "c.csv").write_text("feature,cost\na0,cheap\n")
    with pytest.raises(ValueError, match=r"c\.csv: cost of 'a0' is not a number: 'cheap'"):
        read_attribute_costs(tmp_path / "c.csv")


BAD_SPECS = [
    ({"model": "lognormal"}, "model", "must be one of"),
    ({"model": "uniform_randm", "low": 0, "high": 2}, "model", "got 'uniform_randm'"),
    ({"model": "uniform_random", "low": 0, "hgh": 2}, "hgh", "unknown parameter"),
    ({"model": "uniform_random", "low": 0}, "high", "missing"),
    ({"model": "uniform_random", "low": 3, "high": 2}, "low", "3.0 is larger than high 2.0"),
    ({"model": "uniform_random", "low": -1, "high": 2}, "low", "must be a finite number >= 0"),
    (
        {"model": "uniform_random", "low": 0, "high": 2, "grouped": "yes"},
        "grouped",
        "true or false",
    ),
    ({"model": "constant", "value": float("nan")}, "value", "must be a finite number"),
    (
        {"model": "discrete", "values": [1, 2], "probabilities": [0.3, 0.3]},
        "probabilities",
        "sum to 1",
    ),
    ({"model": "discrete", "values": [-1, 2], "probabilities": [0.5, 0.5]}, "values", ">= 0"),
    ({"model": "discrete", "values": ["a"], "probabilities": [1]}, "values", "numbers"),
    ({"model": "correlated", "low": 0, "high": 2, "noise": 1.5}, "noise", r"must lie in \[0, 1\]"),
    (
        {"model": "correlated", "low": 0, "high": 2, "noise": 0, "quality": "gain"},
        "quality",
        "must be one of",
    ),
    ({"model": "real", "file": 3}, "file", "must be a file path"),
    ({"model": "few_cheap", "fraction": 1.5}, "fraction", r"must lie in \[0, 1\]"),
    ({"model": "few_cheap", "fraction": -0.1}, "fraction", "must be a finite number >= 0"),
    ({"model": "few_cheap", "fraction": True}, "fraction", "must be a finite number >= 0"),
    ({"model": "few_cheap", "cheap": [0.5, 0.1]}, "cheap", "low 0.5 is larger than high 0.1"),
    ({"model": "few_cheap", "cheap": 0.2}, "cheap", r"must be a list \[low, high\]"),
    ({"model": "few_cheap", "expensive": [1, 2, 3]}, "expensive", "two finite numbers"),
    ({"model": "few_cheap", "expensive": [-1, 2]}, "expensive", ">= 0"),
    ({"model": "few_cheap", "expensive": [1, "2"]}, "expensive", "two finite numbers"),
    ({"model": "few_cheap", "grouped": 1}, "grouped", "true or false"),
    ({"model": "few_cheap", "low": 0}, "low", "unknown parameter"),
]


@pytest.mark.parametrize("spec, key, message", BAD_SPECS)
def test_check_spec_names_the_key_without_any_data(spec, key, message):
    with pytest.raises(SpecError, match=message) as err:
        check_spec(spec)
    assert err.value.key == key


@pytest.mark.parametrize("spec, key, message", BAD_SPECS)
def test_bad_specs_name_dataset_and_cost_model(spec, key, message):
    data = toy_data()
    with pytest.raises(ValueError, match=message) as err:
        make_costs("toy", "m1", spec, data, _splits(data, range(1)), [0])
    assert "'toy'" in str(err.value) and "'m1'" in str(err.value)
    assert f"{key}: " in str(err.value)


def test_real_costs_without_a_file_name_the_dataset_and_cost_model():
    with pytest.raises(ValueError, match="needs a cost `file`") as err:
        make_costs("toy", "m1", {"model": "real"}, toy_data(), None, [0])
    assert "'toy'" in str(err.value) and "'m1'" in str(err.value)


@pytest.mark.parametrize(
    "spec",
    [
        {"model": "uniform_random", "low": 0, "high": 2, "description": "U[0, 2]"},
        {"model": "discrete", "values": [0.1, 1], "probabilities": [0.5, 0.5], "grouped": True},
        {"model": "correlated", "low": 0, "high": 2, "noise": 0.2},
        {"model": "few_cheap"},
        {"model": "few_cheap", "fraction": 0.2, "cheap": [0, 0.1], "expensive": [2, 2]},
        {"model": "few_cheap", "fraction": 1, "grouped": True},
        {"model": "real", "file": "resources/heart_cleveland_turney_costs.csv", "scale": 2},
        {"model": "real"},
    ],
)
def test_check_spec_accepts_good_specs(spec):
    assert check_spec(spec) == spec["model"]


def test_correlated_costs_rank_columns_by_their_edge():
    data = toy_data(n_rows=200, groups=(8,))
    data.X[:, 0] = data.y == 1  # a perfect column
    data.X[:, 1] = (data.y == 1) ^ (np.arange(200) % 4 == 0)  # a good one
    splits = _splits(data, range(3))
    spec = {"model": "correlated", "low": 0, "high": 2, "noise": 0.0}
    table = make_costs("toy", "corr", spec, data, splits, range(3))
    for t, row in zip(range(3), table.costs, strict=True):
        train = splits[t][0]
        edge = np.abs(((2.0 * data.X[train] - 1) * data.y[train, None]).mean(axis=0))
        assert spearmanr(edge, row).statistic == pytest.approx(1.0)
        assert row[0] == 2.0 and row.argmax() == 0
    noisy = make_costs("toy", "corr", {**spec, "noise": 0.5}, data, splits, range(3))
    assert noisy.costs.min() >= 0 and noisy.costs.max() <= 2
    assert not np.array_equal(noisy.costs, table.costs)


def test_correlated_costs_by_correlation_ignore_rare_columns():
    """`quality: correlation` ranks by |corr(x, y)| on the training rows: on imbalanced data
    a constant or rare indicator has a large edge |mean y (2x - 1)| but no correlation."""
    data = toy_data(n_rows=400, groups=(6,))
    data.y[:] = np.where(np.arange(400) % 5 == 0, 1.0, -1.0)  # 80 % negative
    data.X[:] = 0.0
    data.X[:, 0] = data.y == 1  # perfect
    data.X[:, 1] = (data.y == 1) ^ (np.arange(400) % 7 == 0)  # good
    data.X[3::50, 2] = 1  # rare, nearly unrelated to y
    splits = _splits(data, range(2))
    spec = {"model": "correlated", "low": 0, "high": 2, "noise": 0.0, "quality": "correlation"}
    table = make_costs("toy", "corr", spec, data, splits, range(2))
    edge = make_costs("toy", "corr", {**spec, "quality": "edge"}, data, splits, range(2))
    for t, row in enumerate(table.costs):
        train = splits[t][0]
        corr = np.nan_to_num(
            [abs(np.corrcoef(data.X[train, j], data.y[train])[0, 1]) for j in range(6)]
        )
        assert spearmanr(corr, row).statistic == pytest.approx(1.0)
        assert row[0] == 2.0 and row[1] > row[2]  # the rare column is cheap by correlation
        # by edge, a constant column looks as good as |mean y| = 0.6 and costs more
        assert row[3] == row.min() and edge.costs[t][3] > row[3]


@pytest.mark.parametrize("quality", ["edge", "correlation"])
def test_correlated_costs_give_tied_columns_their_average_rank(quality):
    """Duplicate and constant columns tie: each gets the average of the tied ranks (scipy's
    ``rankdata(method="average")``, the definition), so equal columns cost the same."""
    from scipy.stats import rankdata

    data = toy_data(n_rows=120, groups=(9,))
    data.X[:, 3] = data.X[:, 1]  # a duplicate
    data.X[:, 5] = data.X[:, 1]  # and another: three tied columns
    data.X[:, 6] = 0  # two constant columns: quality 0 both
    data.X[:, 7] = 1
    splits = _splits(data, range(3))
    spec = {"model": "correlated", "low": 0.5, "high": 2.5, "noise": 0.0, "quality": quality}
    table = make_costs("toy", "corr", spec, data, splits, range(3))
    for t, row in enumerate(table.costs):
        train = splits[t][0]
        X, y = data.X[train].astype(float), data.y[train].astype(float)
        score = QUALITIES[quality](X, y)
        expected = 0.5 + 2.0 * (rankdata(score, method="average") - 1) / (score.size - 1)
        np.testing.assert_array_equal(row, expected)
        assert row[1] == row[3] == row[5] and row[6] == row[7]


def test_correlated_needs_the_trial_split():
    data = toy_data()
    spec = {"model": "correlated", "low": 0, "high": 2, "noise": 0.1}
    with pytest.raises(ValueError, match="no split for trial 7"):
        make_costs("toy", "corr", spec, data, _splits(data, range(2)), [7])


def test_correlated_costs_read_only_the_training_rows():
    """The test rows' values and labels never change the costs; the training rows' do."""
    data = toy_data(n_rows=200, groups=(10,))
    splits = _splits(data, range(3))
    spec = {"model": "correlated", "low": 0, "high": 2, "noise": 0.25}
    base = make_costs("toy", "adversarial", spec, data, splits, range(3)).costs
    for t in range(3):
        train, test = splits[t]
        other = BinarizedData(**{**data.__dict__, "X": data.X.copy(), "y": data.y.copy()})
        other.X[test] = 1 - other.X[test]
        other.y[test] = -other.y[test]
        np.testing.assert_array_equal(
            make_costs("toy", "adversarial", spec, other, splits, [t]).costs[0], base[t]
        )
        changed = BinarizedData(**{**data.__dict__, "y": data.y.copy()})
        changed.y[train[: len(train) // 2]] *= -1
        assert not np.array_equal(
            make_costs("toy", "adversarial", spec, changed, splits, [t]).costs[0], base[t]
        )


def test_correlated_costs_have_the_mean_of_their_interval():
    """Ranks scaled to [0, 1] average 1/2 exactly and the noise averages 1/2: with low = 0,
    high = 2 the mean cost is 1 (exactly without noise), as for U[0, 2]."""
    data = toy_data(n_rows=100, groups=(400,))
    splits = _splits(data, range(20))
    exact = make_costs(
        "toy",
        "c",
        {"model": "correlated", "low": 0, "high": 2, "noise": 0.0},
        data,
        splits,
        range(20),
    ).costs
    np.testing.assert_allclose(exact.mean(axis=1), 1.0, rtol=1e-12)
    noisy = make_costs(
        "toy",
        "c",
        {"model": "correlated", "low": 0, "high": 2, "noise": 0.25},
        data,
        splits,
        range(20),
    ).costs
    assert abs(noisy.mean() - 1.0) < 0.01
    assert noisy.min() >= 0 and noisy.max() <= 2
    # per trial: a trial's costs do not depend on the other trials computed
    alone = make_costs(
        "toy", "c", {"model": "correlated", "low": 0, "high": 2, "noise": 0.25}, data, splits, [7]
    ).costs[0]
    np.testing.assert_array_equal(alone, noisy[7])


def _cheap(costs: np.ndarray) -> np.ndarray:
    return costs <= 0.2  # the default cheap range [0, 0.2]; expensive is [1.5, 2.5]


@pytest.mark.parametrize(
    "n_columns, fraction", [(40, 0.1), (41, 0.1), (7, 0.5), (30, 0.0), (9, 1.0)]
)
def test_few_cheap_makes_exactly_round_fraction_n_cheap(n_columns, fraction):
    spec = {"model": "few_cheap", "fraction": fraction}
    table = make_costs("toy", "few", spec, toy_data(groups=(n_columns,)), None, range(6))
    expected = int(np.floor(fraction * n_columns + 0.5))
    assert (_cheap(table.costs).sum(axis=1) == expected).all()
    cheap, expensive = table.costs[_cheap(table.costs)], table.costs[~_cheap(table.costs)]
    assert ((cheap >= 0) & (cheap <= 0.2)).all()
    assert ((expensive >= 1.5) & (expensive <= 2.5)).all()
    assert not table.grouped


def test_few_cheap_is_drawn_per_trial():
    data = toy_data(groups=(50,))
    spec = {"model": "few_cheap", "fraction": 0.2, "cheap": [0, 0.1], "expensive": [1, 3]}
    table = make_costs("toy", "few", spec, data, None, range(5))
    alone = make_costs("toy", "few", spec, data, None, [3])
    np.testing.assert_array_equal(alone.costs[0], table.costs[3])
    other = make_costs("toy", "few_again", spec, data, None, [3])
    assert not np.array_equal(other.costs[0], table.costs[3])
    cheap_sets = {tuple(np.flatnonzero(row <= 0.1)) for row in table.costs}
    assert len(cheap_sets) == 5  # the cheap columns change from trial to trial
    assert ((table.costs <= 0.1) | (table.costs >= 1)).all()


def test_few_cheap_grouped_makes_attributes_cheap():
    data = toy_data(groups=(3, 1, 2, 4, 2, 3, 1, 2, 2, 5))  # 10 raw attributes
    spec = {"model": "few_cheap", "fraction": 0.3, "grouped": True}
    table = make_costs("toy", "few", spec, data, None, range(4))
    assert table.grouped
    for row in table.costs:
        per_group = [np.unique(row[data.groups == g]) for g in range(10)]
        assert all(values.size == 1 for values in per_group)  # one cost per attribute
        assert _cheap(np.concatenate(per_group)).sum() == 3


def test_write_read_round_trip(tmp_path):
    table = make_costs(
        "toy",
        "attr",
        {"model": "per_attribute", "low": 0, "high": 2},
        toy_data(),
        None,
        range(3, 7),
    )
    path = tmp_path / "costs" / "toy" / "attr.parquet"
    write_costs(table, path, {"dataset": "toy", "cost_model": "attr"})
    back = read_costs(path)
    np.testing.assert_array_equal(back.trials, [3, 4, 5, 6])
    np.testing.assert_array_equal(back.costs, table.costs)
    assert back.grouped and back.costs.dtype == np.float64
    assert read_metadata(path)["cost_model"] == "attr"
    assert back.of_trial(5).tolist() == table.costs[2].tolist()
    with pytest.raises(KeyError):
        back.of_trial(0)


def test_read_costs_rejects_other_tables(tmp_path):
    write_table(pd.DataFrame({"trial": [0]}), tmp_path / "x.parquet")
    with pytest.raises(ValueError, match="not a cost table"):
        read_costs(tmp_path / "x.parquet")


def test_cost_table_dataclass_fields():
    table = CostTable(trials=np.array([0]), costs=np.zeros((1, 2)), grouped=False)
    assert table.of_trial(0).shape == (2,)


def test_an_attribute_listed_twice_in_a_cost_file_is_rejected(tmp_path, heart):
    path = tmp_path / "heart_turney_costs.csv"
    path.write_text((REPO / "resources/heart_cleveland_turney_costs.csv").read_text() + "age,500\n")
    with pytest.raises(
        ValueError,
        match=r"heart_turney_costs\.csv: attribute 'age' is listed "
        r"twice \(costs 1\.00, 500\); keep one row",
    ):
        read_attribute_costs(path)
    with pytest.raises(ValueError, match=r"'heart', cost model 'real'.*attribute 'age' is listed"):
        make_costs("heart", "real", {"model": "real", "file": str(path)}, heart, None, [0])


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "API_TOKEN=s3cr3t-token-value,OTHER=1\nX=2\n",
            "needs a header line with the columns 'feature' and 'cost' (its first line has 2 "
            "comma-separated fields, neither named so): not a cost table?",
        ),
        (
            "feature;cost\nage;1.0\n",
            "(its first line has 1 comma-separated fields, neither named so): its header is "
            "one field, 'feature;cost': a file separated by ';'? A cost file is read with "
            "commas: write 'feature,cost' rows",
        ),
        ("1.0\ns3cr3t-token-value\n", "cost 's3cr3t-token-value' of attribute f2"),
        (
            "feature,cost\nage,s3cr3t-token-value-long-enough-to-be-cut-short\n",
            "cost of 'age' is not a number: 's3cr3t-token-value-long-enough-to-b...'",
        ),
    ],
)
def test_a_cost_file_error_quotes_the_value_never_the_file(tmp_path, text, message):
    """An error about a cost file (here the process environment, /proc/self/environ) names the path
    and the offending value, cut, never the file's content."""
    path = tmp_path / "secrets.env"
    path.write_text(text)
    with pytest.raises(ValueError) as err:
        read_attribute_costs(path)
    assert str(err.value).startswith(f"cost file {path}: ")
    assert message in str(err.value)
    assert "API_TOKEN" not in str(err.value) and "cut-short" not in str(err.value)


@pytest.mark.parametrize(
    "spec, key",
    [
        ({"model": "uniform_random", "low": 0.0, "high": 1e308}, "high"),
        ({"model": "constant", "value": 1e200}, "value"),
        ({"model": "discrete", "values": [1.0, 1e300], "probabilities": [0.5, 0.5]}, "values"),
        ({"model": "few_cheap", "expensive": [1.0, 1e150]}, "expensive"),
    ],
)
def test_costs_that_would_overflow_are_the_configs_error(spec, key):
    """``uniform_random`` with ``high: 1e308``, whose sums would overflow, is the config's error,
    not blamed on the estimator by the contract."""
    with pytest.raises(SpecError) as err:
        check_spec(spec)
    assert err.value.key == key and "larger than 1e+100" in err.value.reason


def test_the_cost_table_keeps_the_discount_groups(built, tmp_path):
    data = built("heart_cleveland")
    suite = yaml.safe_load((REPO / "config" / "suite.yaml").read_text())
    spec = suite["cost_models"]["turney"]["spec"]
    table = make_costs("heart_cleveland", "turney", spec, data, None, [0, 1], REPO)
    assert sorted(table.extra) == ["discount_cost", "discount_group"]
    write_costs(table, tmp_path / "c.parquet")
    back = read_costs(tmp_path / "c.parquet")
    for name in table.extra:
        np.testing.assert_array_equal(back.extra[name], table.extra[name])
    attribute = np.asarray(data.attributes)
    group = table.extra["discount_group"][0]
    assert {tuple(sorted(set(attribute[group == g]))) for g in np.unique(group[group >= 0])} == {
        ("chol", "fbs"),
        ("thal", "thalach"),
        ("exang", "oldpeak", "slope"),
    }


def test_an_unpriced_test_must_be_named(built, tmp_path):
    data = built("hepatitis")
    spec = {"model": "real", "file": "resources/hepatitis_turney_costs.csv"}
    with pytest.raises(ValueError, match=r"gives no price for \['age', 'alk_phosphate', 'sgot'\]"):
        make_costs("hepatitis", "real", spec, data, None, [0], REPO)
    with pytest.raises(ValueError, match=r"spec.prices names \['agee'\]"):
        make_costs("hepatitis", "real", {**spec, "prices": {"agee": 1.0}}, data, None, [0], REPO)


@pytest.mark.parametrize(
    "prices, key",
    [({"age": -1}, "prices.age"), ({"age": "cheap"}, "prices.age"), (["age"], "prices")],
)
def test_bad_prices_stop_at_planning(prices, key):
    from budgetboost.data.costs import SpecError, check_spec

    with pytest.raises(SpecError) as err:
        check_spec({"model": "real", "prices": prices})
    assert err.value.key == key


@pytest.mark.parametrize(
    "text, message",
    [
        (
            "feature,cost,group,discount_cost\na0,5,A,1\na1,3,A,3\na2,1,,1\n",
            "share different parts",
        ),
        ("feature,cost,group,discount_cost\na0,5,A,6\na1,5,A,6\na2,1,,1\n", "exceeds its cost"),
        (
            "feature,cost,group,discount_cost\na0,,A,\na1,5,A,1\na2,1,,1\n",
            "is in group 'A' but has no cost",
        ),
        (
            "feature,cost,group,discount_cost\na0,5,A,x\na1,5,A,1\na2,1,,1\n",
            "discount cost of 'a0' is not a number",
        ),
    ],
)
def test_bad_groups_in_a_cost_file_are_named(tmp_path, text, message):
    from budgetboost.data.cost_kinds import read_test_costs

    (tmp_path / "c.csv").write_text(text)
    with pytest.raises(ValueError, match=message):
        read_test_costs(tmp_path / "c.csv")


def test_varied_pairs(tmp_path):
    for name, costs in {"uniform": [[0.5, 1.5], [1.0, 1.0]], "constant": [[1.0, 1.0]]}.items():
        table = CostTable(trials=np.arange(len(costs)), costs=np.array(costs), grouped=False)
        write_costs(table, tmp_path / "ecoli" / f"{name}.parquet")
    paths = sorted((tmp_path / "ecoli").glob("*.parquet"))
    assert varied_pairs(paths) == {("ecoli", "uniform")}


def test_a_cost_file_name_with_spaces_around_it_is_named_at_once(tmp_path):
    """``" age ",1`` would match no attribute and fail late."""
    from budgetboost.data.cost_kinds import read_test_costs

    (tmp_path / "c.csv").write_text('feature,cost\nsex,1\n" age ",1\n')
    with pytest.raises(ValueError, match=r"c\.csv: attribute name ' age ' has spaces.*'age'"):
        read_test_costs(tmp_path / "c.csv")
