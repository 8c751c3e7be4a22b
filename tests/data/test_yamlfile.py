"""YAML read strictly (budgetboost.data.yamlfile): duplicate keys, alias bombs,
files that are not small text files; each refused in one line naming the file."""

from __future__ import annotations

import os

import pytest
from helpers import alias_bomb

from budgetboost.data.yamlfile import MAX_VALUES, YamlError, load_yaml, parse_yaml


def _error(path, what="config file") -> str:
    with pytest.raises(YamlError) as err:
        load_yaml(path, what)
    message = str(err.value)
    assert "\n" not in message and len(message) < 300, message
    return message


@pytest.mark.parametrize(
    "text, line, key, first",
    [
        ("datasets:\n  heart: {}\nblock_size: 3\ndatasets:\n  ecoli: {}\n", 4, "'datasets'", 1),
        ("algorithms:\n  greedy: {a: 1}\n  smoothed: {}\n  greedy: {a: 2}\n", 4, "'greedy'", 2),
        ("a: {x: 1, x: 2}\n", 1, "'x'", 1),
    ],
)
def test_a_key_given_twice_names_the_file_the_key_and_both_lines(tmp_path, text, line, key, first):
    """Two equal keys stop the read naming the file, the key and both lines (PyYAML alone keeps the
    last without a word)."""
    path = tmp_path / "my.yaml"
    path.write_text(text)
    assert _error(path) == (
        f"config file {path}, line {line}: duplicate key {key} (first at line {first}): YAML "
        "would keep only the last; remove or rename one"
    )


def test_merge_keys_may_still_be_overridden():
    assert parse_yaml("base: &b {x: 1, y: 2}\nother:\n  <<: *b\n  x: 3\n") == {
        "base": {"x": 1, "y": 2},
        "other": {"x": 3, "y": 2},
    }


def test_an_alias_bomb_ends_in_a_short_line(tmp_path):
    """A 3.4 kB alias bomb ends in a short one-line error, not its expansion."""
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb())
    message = _error(path)
    assert f"expands to more than {MAX_VALUES:,} values through its aliases" in message
    # aliases as people use them stay allowed
    assert parse_yaml("a: &a [1, 2]\nb: *a\nc: *a\n") == {"a": [1, 2], "b": [1, 2], "c": [1, 2]}


def test_a_recursive_document_is_refused(tmp_path):
    path = tmp_path / "loop.yaml"
    path.write_text("a: &a [1, *a]\n")
    assert "contains it" in _error(path)


@pytest.mark.parametrize(
    "target, reason",
    [
        ("/dev/zero", "is not a regular file"),
        ("/proc/self/environ", "is not a text file"),
        (".", "is not a regular file"),
    ],
)
def test_files_that_are_no_yaml_text_are_refused_without_their_content(target, reason):
    """A registry pointed at an endless device file is refused without being read to its end; the
    process environment is never printed."""
    if not os.path.exists(target):
        pytest.skip(f"{target} does not exist here")
    os.environ["BUDGETBOOST_SECRET_PROBE"] = "s3cr3t-value"
    try:
        message = _error(target, "dataset registry")
    finally:
        del os.environ["BUDGETBOOST_SECRET_PROBE"]
    assert message.startswith(f"dataset registry {target}: {reason}")
    assert "s3cr3t" not in message


def test_a_large_file_is_refused(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text("a: " + "x" * (2 << 20) + "\n")
    assert "is larger than 1,048,576 bytes" in _error(path)


def test_a_syntax_error_names_line_and_column(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("a: [1, 2\nb: 3\n")
    assert _error(path).startswith(f"config file {path}, line 2, column ")
