"""Dataset registry, readers, label rules and binarized tables (budgetboost.data.datasets)."""

from __future__ import annotations

import copy
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from helpers import REPO

from budgetboost.data.costs import make_costs
from budgetboost.data.datasets import (
    build_binarized,
    read_binarized,
    read_svmlight,
    write_binarized,
)
from budgetboost.data.io import read_metadata, write_table
from budgetboost.data.registry import (
    DatasetError,
    validate_registry,
)

REGISTRY = REPO / "config" / "datasets.yaml"
PAPER_COUNTS = {"sonar": 11196, "ionosphere": 8114, "heart": 371, "ecoli": 356, "splice": 240}


def _entry(**overrides) -> dict:
    """A minimal valid entry for a local CSV, with ``overrides``."""
    entry = {
        "source": {"type": "local", "path": "toy.csv"},
        "format": "csv",
        "label": {"column": "cls", "positive": ["yes"], "negative": ["no"]},
        "binarize": {"numeric": {"method": "distinct"}, "categorical": {"method": "onehot"}},
        "train_size": 2,
        "test_size": 1,
        "trials": 1,
        "adaboost_rounds": 1,
    }
    entry.update(overrides)
    return validate_registry({"toy": entry})["toy"]


# --------------------------------------------------------------------------- registry


# --------------------------------------------------------------------------- vendored data


@pytest.mark.parametrize("name", sorted(PAPER_COUNTS))
def test_paper_feature_counts(registry, built, name):
    data = built(name)
    assert data.X.shape[1] == PAPER_COUNTS[name] == registry[name]["paper_features"]


def test_breast_cancer_count_and_missing_bare_nuclei(built):
    data = built("breast_cancer")
    assert data.X.shape == (699, 80)  # the paper reports 82
    bare = data.attributes == "Bare.nuclei"
    assert bare.sum() == 9 and (data.X[:, bare].sum(axis=1) == 0).sum() == 16 + 402


@pytest.mark.parametrize(
    "name, rows, positives",
    [
        ("sonar", 208, 111),
        ("ionosphere", 351, 225),
        ("heart", 270, 120),
        ("breast_cancer", 699, 241),
        ("ecoli", 336, 143),
        ("splice", 3190, 1535),
        ("census", 48842, 11687),
        ("ocr17", 15170, 7293),
        ("ocr49", 13782, 6958),
    ],
)
def test_label_rules(built, name, rows, positives):
    data = built(name)
    assert data.y.dtype == np.int8 and set(np.unique(data.y)) == {-1, 1}
    assert (len(data.y), int((data.y == 1).sum())) == (rows, positives)


@pytest.mark.parametrize("name", ["census", "ocr17", "ocr49"])
def test_other_datasets_have_no_constant_or_duplicate_columns(built, name):
    data = built(name)
    assert (data.X.min(axis=0) == 0).all() and (data.X.max(axis=0) == 1).all()
    assert len(set(data.columns)) == len(data.columns)
    if name.startswith("ocr"):
        assert data.X.shape[1] < 784 and all(c.endswith(">=128") for c in data.columns)


def test_round_trip(built, tmp_path):
    data = built("heart")
    path = tmp_path / "heart.parquet"
    write_binarized(data, path)
    back = read_binarized(path)
    np.testing.assert_array_equal(back.X, data.X)
    np.testing.assert_array_equal(back.y, data.y)
    np.testing.assert_array_equal(back.groups, data.groups)
    np.testing.assert_array_equal(back.attributes, data.attributes)
    assert back.columns == data.columns and back.X.dtype == np.uint8
    assert back.y.dtype == np.int8 and back.meta == read_metadata(path)
    assert back.meta["source"][0]["sha256"] == data.meta["source"][0]["sha256"]


def test_columns_explain_a_stump(built):
    data = built("sonar")
    j = data.columns.index("V11>=0.197")
    assert data.describe(j) == "sonar V11 >= 0.197"
    assert data.attributes[j] == "V11" and data.meta["attributes"][data.groups[j]] == "V11"
    assert data.meta["columns"][j] == {
        "name": "V11>=0.197",
        "attribute": "V11",
        "kind": "threshold",
        "threshold": 0.197,
    }


def test_failed_write_keeps_the_earlier_output(built, tmp_path):
    path = tmp_path / "heart.parquet"
    write_binarized(built("heart"), path)
    before = path.read_bytes()
    bad = copy.copy(built("heart"))
    bad.columns = bad.columns[:-1]
    with pytest.raises(ValueError, match="X has shape"):
        write_binarized(bad, path)
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == [
        "heart.parquet"
    ]


def test_read_binarized_rejects_other_tables(tmp_path):
    write_table(pd.DataFrame({"a": [1]}), tmp_path / "x.parquet")
    with pytest.raises(ValueError, match="not a binarized dataset"):
        read_binarized(tmp_path / "x.parquet")


def test_groups_index_raw_attributes(built):
    data = built("splice")
    assert data.groups.max() == 59 and np.bincount(data.groups).tolist() == [4] * 60
    assert data.describe(data.columns.index("pos7=A")) == "splice pos7 == A"


# --------------------------------------------------------------------------- bad input


def _vendored_copy(tmp_path: Path, registry: dict, name: str) -> tuple[dict, Path]:
    entry = copy.deepcopy(registry[name])
    (tmp_path / "resources").mkdir()
    target = tmp_path / entry["source"]["path"]
    shutil.copyfile(REPO / entry["source"]["path"], target)
    return entry, target


def test_checksum_mismatch_names_dataset_file_and_checksum(registry, tmp_path):
    entry, target = _vendored_copy(tmp_path, registry, "heart")
    target.write_bytes(target.read_bytes()[:-10])
    with pytest.raises(DatasetError, match="checksum mismatch") as err:
        build_binarized("heart", entry, tmp_path)
    assert "'heart'" in str(err.value) and str(target) in str(err.value)
    assert entry["source"]["sha256"] in str(err.value)


def test_missing_vendored_file(registry, tmp_path):
    with pytest.raises(FileNotFoundError, match=r"'sonar'.*resources/sonar\.parquet"):
        build_binarized("sonar", registry["sonar"], tmp_path)


def test_missing_download_says_to_run_the_download_rule(registry, tmp_path):
    with pytest.raises(FileNotFoundError, match="download"):
        build_binarized("census_uci", registry["census_uci"], tmp_path)


def test_truncated_local_parquet_is_a_dataset_error(registry, tmp_path):
    entry, target = _vendored_copy(tmp_path, registry, "ecoli")
    target.write_bytes(target.read_bytes()[:2000])
    entry["source"] = {"type": "local", "path": entry["source"]["path"]}
    with pytest.raises(DatasetError, match=r"'ecoli': cannot read .*ecoli\.parquet"):
        build_binarized("ecoli", entry, tmp_path)


def test_label_outside_the_rule(tmp_path):
    (tmp_path / "toy.csv").write_text("a,cls\n1,yes\n2,no\n3,maybe\n")
    with pytest.raises(DatasetError, match=r"'toy'.*toy\.csv.*'cls'.*'maybe'"):
        build_binarized("toy", _entry(), tmp_path)


def test_missing_label_is_outside_the_rule(tmp_path):
    (tmp_path / "toy.csv").write_text("a,cls\n1,yes\n2,no\n3,?\n")
    with pytest.raises(DatasetError, match="1 rows have a label outside the rule"):
        build_binarized("toy", _entry(), tmp_path)


def test_constant_features_and_constant_labels(tmp_path):
    (tmp_path / "toy.csv").write_text("a,cls\n1,yes\n1,no\n1,no\n")
    with pytest.raises(DatasetError, match="'toy': every attribute .* is constant"):
        build_binarized("toy", _entry(), tmp_path)
    (tmp_path / "toy.csv").write_text("a,cls\n1,no\n2,no\n3,no\n")
    with pytest.raises(DatasetError, match="'toy': constant label -1"):
        build_binarized("toy", _entry(), tmp_path)


def test_malformed_csv_is_a_dataset_error(tmp_path):
    (tmp_path / "toy.csv").write_text('a,cls\n1,yes\n"2,no\n')
    with pytest.raises(DatasetError, match=r"'toy': cannot read .*toy\.csv as csv"):
        build_binarized("toy", _entry(), tmp_path)


def test_csv_missing_values_and_excluded_columns(tmp_path):
    (tmp_path / "toy.csv").write_text("id,a,b,cls\n7,1,x,yes\n8,?,y,no\n9,3,,no\n10,2,x,yes\n")
    data = build_binarized("toy", _entry(exclude=["id"]), tmp_path)
    assert data.columns == ["a>=2", "a>=3", "b=x", "b=y"]
    np.testing.assert_array_equal(data.X, [[0, 0, 1, 0], [0, 0, 0, 1], [1, 1, 0, 0], [1, 0, 1, 0]])
    np.testing.assert_array_equal(data.y, [1, -1, -1, 1])


ADULT_TRAIN = "39, State-gov, 77516, Bachelors, <=50K\n50, ?, 83311, Bachelors, >50K\n\n"
ADULT_TEST = (
    "|1x3 Cross validator\n"
    "25, Private, 226802, 11th, <=50K.\n"
    "44, Private, 160323, Some-college, >50K.\n"
)


def test_adult_format_pools_parts_and_strips_the_trailing_dot(tmp_path):
    (tmp_path / "adult.data").write_text(ADULT_TRAIN)
    (tmp_path / "adult.test").write_text(ADULT_TEST)
    entry = _entry(
        source={"type": "local", "parts": [{"path": "adult.data"}, {"path": "adult.test"}]},
        read_options={
            "names": ["age", "workclass", "fnlwgt", "education", "income"],
            "comment": "|",
            "skipinitialspace": True,
        },
        label={"column": "income", "positive": [">50K", ">50K."], "negative": ["<=50K", "<=50K."]},
    )
    data = build_binarized("adult", entry, tmp_path)
    np.testing.assert_array_equal(data.y, [-1, 1, -1, 1])
    workclass = data.attributes == "workclass"
    assert data.X[1, workclass].sum() == 0  # '?' -> all indicators 0
    assert "workclass=Private" in data.columns and "education=11th" in data.columns


# --------------------------------------------------------------------------- webscope


SVMLIGHT = """# synthetic Webscope-style file
0 qid:1 1:0.5 3:1.25 # a comment
3 qid:1 2:0.75 3:0.5
5 qid:2 1:0.25 4:2
1 qid:2 4:1
0 qid:3 2:0.1
"""


def _webscope(registry: dict, tmp_path: Path) -> dict:
    entry = copy.deepcopy(registry["webscope"])
    entry["read_options"] = {"n_features": 4}
    entry["binarize"] = {"numeric": {"method": "distinct"}}
    entry["cost_file"] = "costs.txt"
    return entry


def test_webscope_local_reader_on_a_synthetic_file(registry, tmp_path):
    entry = _webscope(registry, tmp_path)
    target = tmp_path / entry["source"]["path"]
    target.parent.mkdir(parents=True)
    target.write_text(SVMLIGHT)
    frame = read_svmlight(target, n_features=4)
    assert list(frame.columns) == ["relevance", "qid", "f1", "f2", "f3", "f4"]
    np.testing.assert_array_equal(frame["f3"], [1.25, 0.5, 0, 0, 0])
    np.testing.assert_array_equal(frame["qid"], [1, 1, 2, 2, 3])
    data = build_binarized("webscope", entry, tmp_path)
    np.testing.assert_array_equal(data.y, [-1, 1, 1, 1, -1])  # relevance 1-5 -> +1
    assert "qid" not in set(data.attributes)
    assert data.meta["cost_file"] == "costs.txt" and data.meta["cost_scale"] == 0.1
    (tmp_path / "costs.txt").write_text("10\n50\n200\n100\n")  # one cost per feature
    table = make_costs("webscope", "real", {"model": "real"}, data, None, [0], tmp_path)
    expected = {"f1": 1.0, "f2": 5.0, "f3": 20.0, "f4": 10.0}  # rescaled by 0.1
    np.testing.assert_allclose(table.costs[0], [expected[a] for a in data.attributes])


def test_missing_webscope_file_says_where_to_put_it(registry, tmp_path):
    with pytest.raises(FileNotFoundError) as err:
        build_binarized("webscope", registry["webscope"], tmp_path)
    message = str(err.value)
    expected = (tmp_path / "resources/local/webscope/set2.train.txt").resolve()
    assert str(expected) in message and "webscope.sandbox.yahoo.com" in message


@pytest.mark.parametrize(
    "text, message",
    [
        ("1 qid:1 1:0.5\n0 5:1\n", "feature index 5 outside 1..4"),
        ("1 1:abc\n", "feature value 'abc' is not a number"),
        ("1:0.5 2:1\n", "must start with a label"),
    ],
)
def test_malformed_svmlight(registry, tmp_path, text, message):
    entry = _webscope(registry, tmp_path)
    target = tmp_path / entry["source"]["path"]
    target.parent.mkdir(parents=True)
    target.write_text(text)
    with pytest.raises(DatasetError, match=message):
        build_binarized("webscope", entry, tmp_path)


@pytest.mark.parametrize(
    "text, attribute, value, row",
    [
        ("a,b,cls\n1,5,yes\n2,NA,no\n3,7,no\n4,8,yes\n", "b", "NA", 1),
        ("a,b,cls\n1,5,yes\n2,6,no\n3,7,no\nnan,8,yes\n", "a", "nan", 3),
    ],
)
def test_missing_value_text_in_a_csv_is_named_with_how_to_declare_it(
    tmp_path, text, attribute, value, row
):
    (tmp_path / "toy.csv").write_text(text)
    numeric_only = _entry(binarize={"numeric": {"method": "distinct"}})
    with pytest.raises(DatasetError) as err:
        build_binarized("toy", numeric_only, tmp_path)
    message = str(err.value)
    assert f"attribute '{attribute}' is categorical, as its value '{value}' at row {row}" in message
    assert f"read_options: {{na_values: ['?', '', '{value}']}}" in message
    # a column forced to a numeric method says the same
    forced = _entry(
        binarize={"numeric": {"method": "distinct"}, "columns": {attribute: {"method": "distinct"}}}
    )
    with pytest.raises(
        DatasetError, match=f"method 'distinct' needs numbers, but its value '{value}' at row {row}"
    ):
        build_binarized("toy", forced, tmp_path)
    # and the declaration it suggests works: the value is then missing (0 in every indicator)
    declared = _entry(
        binarize={"numeric": {"method": "distinct"}}, read_options={"na_values": ["?", "", value]}
    )
    data = build_binarized("toy", declared, tmp_path)
    assert data.X[row, data.attributes == attribute].sum() == 0


def test_text_in_a_parquet_column_names_the_value_and_the_way_out(tmp_path):
    frame = pd.DataFrame({"a": ["1", "2", "n/a", "4"], "cls": ["yes", "no", "no", "yes"]})
    write_table(frame, tmp_path / "toy.parquet")
    entry = _entry(
        format="parquet",
        source={"type": "local", "path": "toy.parquet"},
        binarize={"numeric": {"method": "distinct"}},
    )
    with pytest.raises(
        DatasetError,
        match=r"value 'n/a' at row 2 .*store it as a null in the "
        r"source file",
    ):
        build_binarized("toy", entry, tmp_path)


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "cannot read {path} as csv: No columns to parse from file"),
        ("a,b\n1,2\n3,4\n", "label column 'y' not in {path} (none of its 2 columns)"),
        ("a,y\n1,0\n2,1\n3,2\n", "1 rows have a label outside the rule (positive [1], negative"),
        (  # a short row was reported as a label outside the rule, e.g. nan, with no row
            "a,y\n1,0\n2\n3,1\n",
            "negative [0]), e.g. an empty label (a row with fewer fields than the header?) at "
            "row 1 (0-based, header not counted)",
        ),
        ("a,y\n1,0\n", None),
    ],
)
def test_the_label_rule_is_checked_against_a_present_file(tmp_path, text, message):
    """An empty user CSV, a missing label column and a label outside the rule each stop in
    ``check_labels`` (which planning calls), before binarize runs."""
    from budgetboost.data.datasets import check_labels

    path = tmp_path / "mine.csv"
    path.write_text(text)
    entry = {
        "source": {"type": "local", "path": str(path)},
        "format": "csv",
        "label": {"column": "y", "positive": [1], "negative": [0]},
    }
    if message is None:
        check_labels("mine", entry, tmp_path)
        return
    with pytest.raises(DatasetError) as err:
        check_labels("mine", entry, tmp_path)
    assert str(err.value).startswith("dataset 'mine'")
    assert message.format(path=path) in str(err.value)
    check_labels("mine", {**entry, "source": {"type": "local", "path": "absent.csv"}}, tmp_path)


# --------------------------------------------------------------------------- the label, twice
def test_a_header_naming_a_column_twice_stops_naming_the_file_and_the_columns(tmp_path):
    """Pandas would rename the label's copy ``cls.1`` and keep it as a
    feature that gives the answer away."""
    (tmp_path / "toy.csv").write_text("a,cls,b,cls,b\n1,yes,0,yes,1\n2,no,1,no,0\n3,no,0,no,1\n")
    with pytest.raises(DatasetError, match=r"'toy'.*toy\.csv.*named twice.*\['b', 'cls'\]"):
        build_binarized("toy", _entry(), tmp_path)
    entry = _entry(read_options={"names": ["a", "cls", "a"], "header": 0})
    with pytest.raises(DatasetError, match=r"named twice in the header: \['a'\]"):
        build_binarized("toy", entry, tmp_path)


def test_an_attribute_that_copies_the_label_stops_the_dataset(tmp_path):
    (tmp_path / "toy.csv").write_text("a,leak,cls\n1,p,yes\n2,n,no\n3,n,no\n1,p,yes\n")
    with pytest.raises(DatasetError, match=r"\['leak'\] are copies of the label column 'cls'"):
        build_binarized("toy", _entry(), tmp_path)
    # two values that do not follow the classes one to one are an attribute like any other
    (tmp_path / "toy.csv").write_text("a,b,cls\n1,p,yes\n2,n,no\n3,p,no\n1,p,yes\n")
    assert build_binarized("toy", _entry(), tmp_path).columns == ["a>=2", "a>=3", "b=n", "b=p"]


def test_exclude_naming_a_missing_column_stops_at_planning(tmp_path):
    """Found by check_labels (the plan), not by binarize."""
    from budgetboost.data.datasets import check_labels

    (tmp_path / "toy.csv").write_text("id,a,cls\n7,1,yes\n8,2,no\n9,3,no\n")
    with pytest.raises(DatasetError, match=r"exclude names columns \['ID'\] that are not in"):
        check_labels("toy", _entry(exclude=["ID"]), tmp_path)
    check_labels("toy", _entry(exclude=["id"]), tmp_path)


def test_the_missing_value_hint_of_an_infinite_value_is_the_text_a_file_holds():
    """The hint of an infinite value quotes the text a file holds, not numpy's repr
    (``np.float64(inf)``)."""
    from budgetboost.data.datasets import _missing_value_hint

    for fmt, expected in [
        (
            "csv",
            "If 'inf' marks a missing value, declare it in the dataset's registry entry: "
            "read_options: {na_values: [",
        ),
        ("parquet", "If 'inf' marks a missing value, store it as a null in the source file"),
    ]:
        hint = _missing_value_hint({"format": fmt}, np.float64(np.inf))
        assert hint.startswith(expected) and "np.float64" not in hint
    assert "'-inf'" in _missing_value_hint({"format": "csv"}, np.float64(-np.inf))


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        (
            "age; presence\n50;1\n60;-1\n",
            "; its header is one column, 'age; presence': a file separated by ';'? "
            "read_options: {sep: ';'} in the dataset's registry entry",
        ),
        (
            "age, presence\n50,1\n60,-1\n",
            "; its column ' presence' has spaces around the name: read_options: "
            "{skipinitialspace: true} in the dataset's registry entry (or name it exactly)",
        ),
        ("age,presense\n50,1\n60,-1\n", "; did you mean 'presense'?"),
        ("age,class\n50,1\n60,-1\n", " columns)"),
    ],
)
def test_a_label_column_not_found_gets_the_hint_its_header_gives(tmp_path, text, hint):
    """A ``;``-separated file, or a header `` presence``, gets the hint its header gives, beyond
    saying that the label column is not there."""
    import io

    from budgetboost.data.datasets import DatasetError, label_vector

    frame = pd.read_csv(io.StringIO(text))
    rule = {"column": "presence", "positive": [1], "negative": [-1]}
    with pytest.raises(DatasetError) as err:
        label_vector("mine", frame, rule, "mine.csv")
    assert str(err.value).endswith(hint)
