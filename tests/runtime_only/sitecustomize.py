"""Import guard: a process started with this folder on ``PYTHONPATH`` sees only budgetboost's
declared runtime dependencies (and what they declare in turn).

The README promises that ``pip install -e .`` alone is enough for every command it shows; the
test environment has more (pytest, scikit-learn, ... and what they pull in, e.g. pygments). The
end-to-end tests run the real ``snakemake`` with this guard, so a module that the workflow, a
rule script or the report imports but that no declared dependency provides fails the tests
with ``ModuleNotFoundError`` instead of passing only because the test extra installed it.

``BUDGETBOOST_RUNTIME_MODULES`` (set by ``tests/helpers.py``) lists the allowed top-level
modules of installed distributions; modules of the standard library and modules that belong
to no installed distribution (the working tree's own) are not affected.
"""

import os
import sys
from importlib import metadata
from importlib.abc import MetaPathFinder

_ALLOWED = set(filter(None, os.environ.get("BUDGETBOOST_RUNTIME_MODULES", "").split(",")))


class _DeclaredOnly(MetaPathFinder):
    def __init__(self) -> None:
        self._owned = None

    def find_spec(self, fullname, path=None, target=None):
        top = fullname.partition(".")[0]
        if top in _ALLOWED or top in sys.stdlib_module_names or top in sys.modules:
            return None
        if self._owned is None:
            self._owned = metadata.packages_distributions()
        if top in self._owned:
            raise ModuleNotFoundError(
                f"No module named {top!r}: it is installed ({', '.join(self._owned[top])}) but "
                "is not a runtime dependency of budgetboost (pyproject.toml [project] "
                "dependencies)",
                name=top,
            )
        return None


if _ALLOWED:
    sys.meta_path.insert(0, _DeclaredOnly())
