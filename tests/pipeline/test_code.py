"""The code a job depends on (budgetboost.pipeline.code): the source files a module imports, in the
package or a user's module outside it, never installed libraries."""

from __future__ import annotations

from pathlib import Path

from budgetboost.pipeline import blocks, code


def test_source_files_follow_package_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("import os\nfrom . import b\nfrom pkg.sub import c\n")
    (pkg / "b.py").write_text("from .sub.c import thing\n")
    (pkg / "sub" / "__init__.py").write_text("from . import d\n")
    (pkg / "sub" / "c.py").write_text("thing = 1\n")
    (pkg / "sub" / "d.py").write_text("")
    (pkg / "unused.py").write_text("")
    files = code.source_files("pkg.a", tmp_path)
    assert sorted(Path(f).relative_to(tmp_path).as_posix() for f in files) == [
        "pkg/__init__.py",
        "pkg/a.py",
        "pkg/b.py",
        "pkg/sub/__init__.py",
        "pkg/sub/c.py",
        "pkg/sub/d.py",
    ]


def test_source_files_follow_imports_in_every_statement_but_type_checking_ones(tmp_path):
    """An import run at any point counts (in a function, a class, a try, a with, a loop, a
    match, an else branch); one under ``if TYPE_CHECKING:`` is never run, so it does not."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    names = ["func", "cls", "trying", "handler", "final", "within", "loop", "case", "other"]
    for name in [*names, "typed", "__init__"]:
        (pkg / f"{name}.py").write_text("")
    (pkg / "a.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "def f():\n    from . import func\n"
        "class C:\n    import pkg.cls\n"
        "try:\n    from . import trying\nexcept ImportError:\n    from . import handler\n"
        "finally:\n    from . import final\n"
        "with open(__file__):\n    from . import within\n"
        "for _ in ():\n    pass\nelse:\n    from . import loop\n"
        "match 1:\n    case 1:\n        from . import case\n"
        "if TYPE_CHECKING:\n    from . import typed\nelse:\n    from . import other\n"
        "g = lambda: 1\n"
    )
    files = code.source_files("pkg.a", tmp_path)
    found = sorted(Path(f).stem for f in files)
    assert found == sorted(["__init__", "a", *names])


def test_source_files_follow_a_users_module_outside_the_root(tmp_path, monkeypatch):
    """An estimator on PYTHONPATH and the helper modules it imports are
    its jobs' code; the libraries it imports (installed code) are not."""
    site = tmp_path / "site"
    (site / "my_helpers").mkdir(parents=True)
    (site / "my_est.py").write_text(
        "import numpy\nimport json\nfrom my_helpers import maths\nfrom budgetboost import io\n"
    )
    (site / "my_helpers" / "__init__.py").write_text("")
    (site / "my_helpers" / "maths.py").write_text("from .consts import K\n")
    (site / "my_helpers" / "consts.py").write_text("K = 1\n")
    monkeypatch.syspath_prepend(str(site))
    root = Path(blocks.__file__).resolve().parents[2]
    files = code.source_files("my_est", root)
    mine = sorted(Path(f).relative_to(site).as_posix() for f in files if f.startswith(str(site)))
    assert mine == [
        "my_est.py",
        "my_helpers/__init__.py",
        "my_helpers/consts.py",
        "my_helpers/maths.py",
    ]
    assert not [f for f in files if "site-packages" in f or "numpy" in f]
    assert code.untracked("my_est", root) is None
    assert code.untracked("budgetboost.estimators.boosting.booster", root) is None
    assert code.untracked("json", root).startswith("json is installed code (")
    assert "its code is not tracked" in code.untracked("lightgbm.sklearn", root)


def test_source_files_of_the_blocks_module():
    root = Path(blocks.__file__).resolve().parents[2]
    paths = [Path(f) for f in code.source_files("budgetboost.pipeline.blocks", root)]
    files = {path.name for path in paths}
    assert {"blocks.py", "specs.py", "seeds.py", "splits.py", "costs.py"} <= files
    assert "boosting.py" not in files  # an estimator's module is its own jobs' code
