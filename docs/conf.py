"""Sphinx configuration of budgetboost's documentation (``tests/test_docs.py`` builds it).

``sphinx-build -W -n -b html docs docs/_build/html``: the Markdown pages (MyST) and the API
reference of the package's public modules (``docs/api/``, autodoc with numpydoc), every
cross-reference checked (``nitpicky``): a warning fails the build.
"""

from __future__ import annotations

import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # document this checkout's package, not an installed one

project = "budgetboost"
author = "budgetboost's authors"
extensions = ["myst_parser", "sphinx.ext.autodoc", "numpydoc"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build"]
root_doc = "index"
html_theme = "alabaster"
nitpicky = True

# signatures without their annotations: the parameters' types are in the docstrings
autodoc_typehints = "none"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True, "ignore-module-all": True}
# numpydoc: the docstrings' sections, without a table of every class member (autodoc lists them)
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
suppress_warnings = ["myst.header"]

# What no page of these documents (the standard library's and the libraries' objects: there is
# no intersphinx inventory offline), referred to by the docstrings.
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(numpy|np|pandas|pd|pyarrow|pa|scipy|sklearn|matplotlib|plt|scikit_posthocs|lightgbm"
        r"|catboost|pystreed|snakemake|threadpoolctl|plotly|jsonschema|yaml)(\..*)?",
    ),
    (
        r"py:.*",
        r"(os|sys|ast|fcntl|faulthandler|threading|collections|typing|pathlib|logging|"
        r"subprocess|resource|signal|mmap|json|re|functools|dataclasses|enum|abc)(\..*)?",
    ),
]


def _lookup(path: str) -> object | None:
    """The object a dotted path names: its longest importable module, then attributes."""
    import importlib

    parts = path.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name, None)
            if obj is None:
                return None
        return obj
    return None


def _canonical(obj: object) -> str | None:
    """Where an object is defined and documented: ``module.qualname``."""
    obj = getattr(obj, "fget", obj)  # a property: its getter
    module, qualname = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str) and "<locals>" not in qualname:
        return f"{module}.{qualname}"
    if isinstance(obj, type(sys)):
        return obj.__name__
    return None


def _imported_from(module: str, name: str) -> str | None:
    """Where ``module`` imports ``name`` from (``from x import name``), read from its source:
    a constant has no ``__module__`` to say where it is defined."""
    import ast

    path = ROOT.joinpath(*module.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    if not path.is_file():
        return None
    head = name.split(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                if (alias.asname or alias.name) == head:
                    base = module.split(".")
                    base = base[: len(base) - node.level + (path.name == "__init__.py")]
                    source = ".".join([*base, node.module] if node.level else [node.module])
                    return ".".join([source.strip("."), alias.name, *name.split(".")[1:]])
    return None


def _by_suffix(domain, target: str) -> list[str]:
    """The one documented object whose dotted name ends with ``target`` (a name a docstring
    gives without its module, such as a constant of another module): none if not one."""
    found = [name for name in domain.objects if name.endswith(f".{target}")]
    return found if len(found) == 1 else []


def _resolve_by_import(app, env, node, contnode):
    """Resolve a reference to a re-exported or inherited object (``budgetboost.BudgetedBoost``,
    a base class's method named from a subclass, a name a module imports) to where it is
    documented: its defining module and qualified name."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"].lstrip("~").lstrip(".")
    module, cls = node.get("py:module"), node.get("py:class")
    candidates = [target]
    if module:
        candidates[:0] = [f"{module}.{cls}.{target}"] if cls else []
        candidates.insert(len(candidates) - 1, f"{module}.{target}")
    domain = env.get_domain("py")
    imported = [_imported_from(module, target)] if module else []
    for path in [*candidates, *filter(None, imported), *_by_suffix(domain, target)]:
        obj = _lookup(path)
        names = [n for n in (_canonical(obj) if obj is not None else None, path) if n]
        for name in names:
            found = domain.resolve_xref(
                env, node["refdoc"], app.builder, "obj", name, node, contnode
            )
            if found is not None:
                return found
    if any(_lookup(path) is not None for path in candidates):
        return contnode  # exists, with no docs of its own (a private helper): shown as code
    return None


def _public_modules(package: str, recursive: bool) -> list[str]:
    """The public modules of ``package`` (its own first), found as files: no leading
    underscore in any part of the name; ``recursive``: its subpackages' too."""
    folder = ROOT.joinpath(*package.split("."))
    found = [package]
    paths = sorted(folder.rglob("*.py") if recursive else folder.glob("*.py"))
    for path in paths:
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(part.startswith("_") for part in parts) or ".".join(parts) == package:
            continue
        found.append(".".join(parts))
    return found


class AutoModules(SphinxDirective):
    """``automodules:: package``: every public module of ``package`` and its subpackages
    (``:top-level:``: its own modules only), each with a heading and autodoc's
    ``automodule`` (a package: its docstring only, its modules follow). Found as files, so a
    module added, moved or renamed needs no edit of these pages."""

    required_arguments = 1
    option_spec = {"top-level": directives.flag, "also": directives.unchanged}

    def run(self):
        package = self.arguments[0]
        names = _public_modules(package, "top-level" not in self.options)
        names += self.options.get("also", "").split()
        lines = ["```{eval-rst}"]  # the pages are Markdown; autodoc writes reStructuredText
        for name in sorted(names):
            is_package = ROOT.joinpath(*name.split("."), "__init__.py").is_file()
            whole = not is_package or "top-level" in self.options
            lines += [f".. rubric:: ``{name}``", "", f".. automodule:: {name}"]
            lines += [""] if whole else ["   :no-members:", ""]
        lines.append("```")
        node = nodes.section()
        node.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, source="automodules"), node)
        return node.children


def setup(app):
    app.connect("missing-reference", _resolve_by_import)
    app.add_directive("automodules", AutoModules)
