"""What a job's output depends on in the package's code, and the package's version.

A rule declares the package modules it runs as inputs (``workflow/rules/common.smk``'s
``code_files``), so editing a module re-runs exactly the jobs that import it:
:func:`source_files` follows the imports without importing anything.
"""

from __future__ import annotations

import ast
import functools
from importlib import metadata
from pathlib import Path

__all__ = ["package_version", "source_files"]


def source_files(module: str, root: str | Path = ".") -> list[str]:
    """Package source files ``module`` depends on, as paths relative to ``root``.

    Follows ``import budgetboost.x`` / ``from budgetboost.x import`` / ``from .x import``
    statements transitively, except those under ``if TYPE_CHECKING:`` (read with :mod:`ast`,
    nothing is imported), so a rule can declare the code its output depends on as inputs:
    editing that code re-runs the rule, editing unrelated modules does not.
    """
    root = Path(root)
    package = module.split(".")[0]
    seen: dict[str, Path] = {}
    pending = [module]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = root / Path(*name.split(".")).with_suffix(".py")
        if not path.is_file():
            init = root / Path(*name.split(".")) / "__init__.py"
            if not init.is_file():
                continue
            path = init
        seen[name] = path
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _runtime_nodes(tree):
            if isinstance(node, ast.Import):
                pending += [a.name for a in node.names if a.name.split(".")[0] == package]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute_from(node, name, package, path.name == "__init__.py")
                if base is None:
                    continue
                pending.append(base)
                pending += [f"{base}.{a.name}" for a in node.names]
    return sorted(str(path) for path in seen.values())


def library_versions(libraries: tuple[str, ...] = ()) -> dict[str, str]:
    """Installed versions of numpy and of ``libraries`` (distribution names), for a shard's
    metadata and a train job's params: a result records, and depends on, the libraries that
    computed it (an upgrade re-runs exactly the jobs whose libraries changed).

    Raises
    ------
    importlib.metadata.PackageNotFoundError
        When one of them is not installed.
    """
    return dict(_versions(("numpy", *libraries)))


@functools.cache
def _versions(names: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """Looked up once per process: a plan asks for every train job's."""
    return tuple((name, metadata.version(name)) for name in names)


def package_version() -> str:
    """The installed budgetboost version ("unknown" when not installed)."""
    try:
        return metadata.version("budgetboost")
    except metadata.PackageNotFoundError:
        return "unknown"


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` except those under ``if TYPE_CHECKING:`` (type-only imports
    are not run, so the code they name is not a dependency)."""
    pending = [tree]
    while pending:
        node = pending.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                pending += child.orelse
                continue
            pending.append(child)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute_from(node: ast.ImportFrom, current: str, package: str, is_init: bool) -> str | None:
    """The absolute module named by a ``from ... import`` inside the package, else None."""
    if node.level == 0:
        return node.module if node.module and node.module.split(".")[0] == package else None
    parts = current.split(".")
    base = parts[: len(parts) - node.level + (1 if is_init else 0)]
    if node.module:
        base += node.module.split(".")
    return ".".join(base) if base else None
