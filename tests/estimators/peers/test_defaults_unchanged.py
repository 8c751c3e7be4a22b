"""Today's parameters give the bytes they gave before depth grids, per-example charging,
merged columns and leaf-size grids existed: digests of each peer's evaluation on the tests'
fixed problem, recorded with the package as it was before those parameters (commit 077c424),
under the library versions named (another version may change the libraries' own bytes)."""

from __future__ import annotations

import hashlib
from importlib.metadata import version

import numpy as np
import pytest

from .helpers import BUDGETS, priced, problem

#: The versions the digests were recorded under.
VERSIONS = {"lightgbm": "4.7.0", "catboost": "1.2.10", "pystreed": "1.4.0", "numpy": "2.4.6"}
#: name -> (class, parameters, cost model of :func:`priced`, digest before the change)
CASES = {
    "lightgbm stumps": (
        "BudgetedLightGBM",
        {"max_depth": 1},
        "columns",
        "dd4657cc24681aaf9a1f544c552c9418abeec405691c77aead1573409729c9d9",
    ),
    "lightgbm depth 3, groups": (
        "BudgetedLightGBM",
        {"max_depth": 3, "num_leaves": 8, "n_estimators": 60},
        "groups",
        "af39494b08bca15f8dcc9acacac047041d04d38af72c3399148da992df79da4a",
    ),
    "lightgbm depth 2, discounts": (
        "BudgetedLightGBM",
        {"max_depth": 2, "n_estimators": 60},
        "discounts",
        "7f3dcae545f26cc279ec678566cfab326cc2bf7c5322ad9bae227f55e643f8df",
    ),
    "catboost stumps": (
        "BudgetedCatBoost",
        {"depth": 1, "iterations": 60},
        "columns",
        "7000bb04ce3b0a3604f3afef45db03e667ce456f1191918bbb37a0075fb80169",
    ),
    "catboost depth 3, discounts": (
        "BudgetedCatBoost",
        {"depth": 3, "iterations": 40},
        "discounts",
        "35ea2641094cd6fb564ce47b9ee91a40479416a44e0711cebd8276d4a59a778c",
    ),
    "streed": (
        "BudgetedSTreeD",
        {"max_depth": (1, 2, 3)},
        "discounts",
        "f04f010e79e482daea42129d052b57b851548f590a68b475007e93bfcb5e57ba",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_todays_parameters_give_todays_bytes(name):
    for library, expected in VERSIONS.items():
        pytest.importorskip(library)
        if version(library) != expected:
            pytest.skip(f"digests recorded under {library} {expected}, not {version(library)}")
    cls_name, params, kind, digest = CASES[name]
    import budgetboost

    X, y, _ = problem(n=400)
    est = getattr(budgetboost, cls_name)(random_state=5, **params, **priced(kind))
    est.fit(X[:300], y[:300])
    h = hashlib.sha256()
    ev = est.evaluate_at_budgets(X[300:], y[300:], BUDGETS)
    for array in (*ev.as_dict().values(), est.decision_function(X[300:])):
        h.update(np.ascontiguousarray(array, dtype=np.float64).tobytes())
    h.update(np.ascontiguousarray(est.chosen_tradeoffs(BUDGETS), dtype=np.float64).tobytes())
    assert h.hexdigest() == digest
