"""YAML read strictly: every YAML file the package reads (configs, the dataset registry, the
schemas) goes through :func:`load_yaml`.

PyYAML's ``safe_load`` keeps the last of two equal keys without a word (a second
``datasets:`` block silently replaced the first), follows aliases however far they expand
(3.4 kB of nested aliases stand for billions of values, which an error message or a
traversal then spells out) and reads whatever the path names (a device file never ends).
Here:

- a key given twice in one mapping is an error naming the file, the key and both lines
  (``<<`` merge keys may still be overridden: that is what they are for);
- the document may expand to at most :data:`MAX_VALUES` values once its aliases are
  followed, and may not contain itself;
- the file must be a regular file of at most :data:`MAX_BYTES` bytes of UTF-8 text.

Every problem is a :class:`YamlError` of one line starting with what the file is and its
path, e.g. ``config file my.yaml, line 40: duplicate key 'datasets' (first at line 3)``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import yaml

from budgetboost.data.io import SmallFileError, read_small_text

__all__ = ["MAX_BYTES", "MAX_VALUES", "YamlError", "load_yaml", "parse_yaml"]

#: The largest YAML file read (1 MiB: the default config and registry are about 20 kB).
MAX_BYTES = 1 << 20
#: The most values (scalars, lists and mappings) a document may stand for once its aliases
#: are followed: 50 times the default config's.
MAX_VALUES = 100_000
_MERGE = "tag:yaml.org,2002:merge"


class YamlError(ValueError):
    """A YAML file that cannot be read as written: one line naming the file (and line)."""


def load_yaml(path: str | os.PathLike, what: str = "YAML file") -> Any:
    """Read the YAML file ``path`` strictly (see the module docstring).

    Parameters
    ----------
    path : path-like
    what : str
        What the file is, for messages (``"config file"``, ``"dataset registry"``).

    Raises
    ------
    YamlError
        A file that is not a small regular UTF-8 file, invalid YAML, a duplicate key, an
        alias that expands too far or into itself.
    """
    try:
        text = read_small_text(path, MAX_BYTES)
    except SmallFileError as exc:
        raise YamlError(f"{what} {exc}") from None
    return parse_yaml(text, f"{what} {Path(path)}")


def parse_yaml(text: str, where: str = "YAML") -> Any:
    """:func:`load_yaml` on a string; ``where`` starts every message."""
    loader = _StrictLoader(text)
    try:
        return loader.get_single_data()
    except _Problem as exc:
        raise YamlError(f"{where}{exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        place = f", line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        context = getattr(exc, "context", None)
        detail = f"{problem} ({context})" if context else problem
        raise YamlError(f"{where}{place}: invalid YAML: {detail}") from None
    finally:
        loader.dispose()


class _Problem(Exception):
    """A strictness problem; its text follows the file's name."""


class _StrictLoader(yaml.SafeLoader):
    """``SafeLoader`` that refuses duplicate keys and documents that expand too far."""

    def get_single_data(self) -> Any:
        node = self.get_single_node()
        if node is None:
            return None
        _expanded_size(node)
        return self.construct_document(node)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if key_node.tag == _MERGE:
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.get(key)
            except TypeError:  # an unhashable key: SafeLoader's own error follows
                continue
            if first is not None:
                raise _Problem(
                    f", line {key_node.start_mark.line + 1}: duplicate key {_shown(key)} "
                    f"(first at line {first + 1}): YAML would keep only the last; remove "
                    "or rename one"
                )
            seen[key] = key_node.start_mark.line
        return super().construct_mapping(node, deep=deep)


def _shown(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _expanded_size(root: yaml.Node) -> int:
    """How many values ``root`` stands for with every alias followed (each shared node
    counted once per reference), without building them: refuses more than
    :data:`MAX_VALUES` and a node that contains itself."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: yaml.Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise _Problem(
                f", line {node.start_mark.line + 1}: an alias refers to a value that "
                "contains it (a recursive document)"
            )
        active.add(key)
        if isinstance(node, yaml.MappingNode):
            children = [n for pair in node.value for n in pair]
        elif isinstance(node, yaml.SequenceNode):
            children = node.value
        else:
            children = []
        total = 1
        for child in children:
            total += size(child)
            if total > MAX_VALUES:
                raise _Problem(
                    f", line {node.start_mark.line + 1}: expands to more than "
                    f"{MAX_VALUES:,} values through its aliases (*references to &anchors)"
                )
        active.discard(key)
        sizes[key] = total
        return total

    return size(root)
