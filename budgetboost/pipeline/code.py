"""What a job's output depends on in the code, and the package's version.

A rule declares the code it runs as inputs (``workflow/rules/common.smk``'s ``code_files``), so
editing a module re-runs exactly the jobs that import it: :func:`source_files` follows the
imports without importing anything of the package. It follows the package's modules and any
module of the user's own, such as an estimator ``"my_estimators:Mine"`` on ``PYTHONPATH`` and
the helpers it imports (an edit there left the old shards standing); code installed
in site-packages or the standard library is the libraries' (their versions are the train jobs'
params, :func:`library_versions`), and :func:`untracked` says when an estimator's own module
is such code.
"""

from __future__ import annotations

import ast
import functools
import importlib.util
import site
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

__all__ = ["library_versions", "package_version", "source_files", "untracked"]

#: The package whose modules live under the repository root.
PACKAGE = "budgetboost"


def source_files(module: str, root: str | Path = ".") -> list[str]:
    """Source files ``module`` depends on: the package's relative to ``root``, the user's
    own (outside site-packages and the standard library) as absolute paths.

    Follows ``import x`` / ``from x import y`` / ``from .x import y`` statements
    transitively, except those under ``if TYPE_CHECKING:`` (read with :mod:`ast`; nothing of
    the package is imported, a user's top-level package is, to find its submodules), so a
    rule can declare the code its output depends on as inputs: editing that code re-runs the
    rule, editing unrelated modules does not.
    """
    root = Path(root)
    seen: dict[str, Path | None] = {}
    pending = [module]
    while pending:
        name = pending.pop()
        if name in seen:
            continue
        path = seen[name] = _module_file(name, root)
        if path is None:
            continue
        stat = path.stat()
        for node in _import_nodes(str(path), stat.st_mtime_ns, stat.st_size):
            if isinstance(node, ast.Import):
                pending += [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _absolute_from(node, name, path.name == "__init__.py")
                if base is None:
                    continue
                pending.append(base)
                pending += [f"{base}.{alias.name}" for alias in node.names]
    return sorted(str(path) for path in seen.values() if path is not None)


def untracked(module: str, root: str | Path = ".") -> str | None:
    """Why the code of ``module`` (an estimator's) is not among a job's inputs, or None
    when it is: installed code (site-packages) or a module whose source is not a file."""
    if _module_file(module, root) is not None:
        return None
    spec = _find_spec(module)
    where = getattr(spec, "origin", None) or "no source file"
    return f"{module} is installed code ({where}): its code is not tracked"


def _module_file(name: str, root: Path) -> Path | None:
    """The source file of ``name``: the package's below ``root``, a user's module below
    ``root`` or outside the installed code, else None."""
    relative = Path(*name.split("."))
    for path in (relative.with_suffix(".py"), relative / "__init__.py"):
        if (Path(root) / path).is_file():
            return Path(root) / path
    top = name.split(".")[0]
    if top == PACKAGE or not _users_top(top):
        return None  # the standard library, site-packages, built-in: a library's code
    spec = _find_spec(name)
    origin = getattr(spec, "origin", None)
    return Path(origin) if origin and origin.endswith(".py") and Path(origin).is_file() else None


#: Each top-level module found so far: whether it is a user's own source (:func:`_users_top`).
_TOPS: dict[str, bool] = {}


def _users_top(top: str) -> bool:
    """Whether the top-level module ``top`` is a user's own source, not installed code.

    Remembered once found: a plan asks for every module each rule imports, and the rules
    share most of them. A module not found is asked again, since a user may add it later in
    the same process."""
    if top not in _TOPS:
        spec = _find_spec(top)
        if spec is None:
            return False
        _TOPS[top] = _is_users(spec.origin, spec.submodule_search_locations)
    return _TOPS[top]


def _find_spec(name: str):
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError, AttributeError):
        return None
    except Exception:  # noqa: BLE001 - importing a user's parent package may fail anyhow
        return None


@functools.cache
def _installed_roots() -> tuple[Path, ...]:
    paths = sysconfig.get_paths()
    roots = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    roots.update(getattr(site, "getsitepackages", list)())
    roots.add(getattr(site, "getusersitepackages", str)())
    roots.update({sys.base_prefix, sys.prefix} - {""})
    return tuple(Path(r).resolve() for r in roots if r)


def _is_users(origin: str | None, locations) -> bool:
    """Whether a module found at ``origin`` (or a package at ``locations``) is a user's own
    source, not installed code."""
    places = [origin] if origin and origin not in ("built-in", "frozen") else []
    places += list(locations or [])
    if not places:
        return False
    path = Path(places[0]).resolve()
    return not any(path.is_relative_to(root) for root in _installed_roots())


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


@functools.lru_cache(maxsize=4096)
def _import_nodes(path: str, mtime_ns: int, size: int) -> tuple[ast.stmt, ...]:
    """The import statements of the file at ``path`` run at import time, parsed once per
    version of the file (its modification time and size are the cache's key): planning
    asks for the code of every rule, and the rules share most of their modules."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=path)
    return tuple(n for n in _runtime_nodes(tree) if isinstance(n, (ast.Import, ast.ImportFrom)))


#: The fields of a node that hold statements (an import is a statement, so it sits in one).
_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")


def _runtime_nodes(tree: ast.AST):
    """Every statement of ``tree`` (with the except handlers and match cases that hold
    statements) except those under ``if TYPE_CHECKING:`` (type-only imports are not run, so
    the code they name is not a dependency). Expressions are not visited: they hold no
    import, and they are most of a module's nodes."""
    pending = [tree]
    while pending:
        node = pending.pop()
        yield node
        for field in _STATEMENT_FIELDS:
            children = getattr(node, field, None)
            if not isinstance(children, list):  # absent, or a lambda's expression
                continue
            if field == "body" and isinstance(node, ast.If) and _is_type_checking(node.test):
                continue
            pending += children


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute_from(node: ast.ImportFrom, current: str, is_init: bool) -> str | None:
    """The absolute module named by a ``from ... import`` statement."""
    if node.level == 0:
        return node.module
    parts = current.split(".")
    base = parts[: len(parts) - node.level + (1 if is_init else 0)]
    if node.module:
        base += node.module.split(".")
    return ".".join(base) if base else None
