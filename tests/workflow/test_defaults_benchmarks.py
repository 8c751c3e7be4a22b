"""The defaults benchmarks (``benchmarks/streed_defaults.py``, ``selection_defaults.py``)
compare settings on rows held out of each trial's training rows, never on its test rows,
and keep a default unless another setting errs less with an interval below 0."""

from __future__ import annotations

import ast
import contextlib
import io
import runpy
import sys

import numpy as np
import pandas as pd
import pytest
from helpers import REPO

from budgetboost.checks import load_config_file
from budgetboost.data.datasets import build_binarized
from budgetboost.data.registry import load_registry
from budgetboost.data.splits import split_indices


def _held_out():
    """benchmarks/held_out.py as a module (its folder on the path, as when it runs)."""
    import importlib

    sys.path.insert(0, str(REPO / "benchmarks"))
    try:
        return importlib.import_module("held_out")
    finally:
        sys.path.remove(str(REPO / "benchmarks"))


def _printed(script: str, *args: str) -> str:
    """What ``python benchmarks/SCRIPT ARGS`` prints, run in this process."""
    out, argv = io.StringIO(), sys.argv
    sys.argv = [str(REPO / "benchmarks" / script), *args]
    try:
        with contextlib.redirect_stdout(out):
            runpy.run_path(sys.argv[0], run_name="__main__")
    finally:
        sys.argv = argv
    return out.getvalue()


def test_the_held_out_rows_are_a_stratified_quarter_of_the_training_rows_only():
    """Each trial's fit and held-out rows partition its training rows (as the train jobs
    split them): no test row is among them; the held-out rows are a quarter of each class,
    drawn from the benchmark's own stable key (the same rows again, other rows under
    another benchmark's key)."""
    held_out = _held_out()
    config = load_config_file(REPO / "config" / "suite.yaml")
    registry = load_registry(REPO / config["registry"])
    entry = registry["heart"]
    n_rows = build_binarized("heart", entry, REPO).y.size

    def parts(benchmark):
        return list(held_out.trials(benchmark, config, registry, ["heart"], ["attribute_unit"], 2))

    first, again, other = parts("streed_defaults"), parts("streed_defaults"), parts("other")
    for part, same, elsewhere in zip(first, again, other, strict=True):
        train, test = split_indices(
            "heart", part.trial, n_rows, entry["train_size"], entry["test_size"]
        )
        assert part.fit_rows.size + part.held_rows.size == entry["train_size"]
        np.testing.assert_array_equal(np.sort(np.r_[part.fit_rows, part.held_rows]), train)
        assert not np.isin(part.held_rows, test).any() and not np.isin(part.fit_rows, test).any()
        for label in (-1, 1):
            n_class = int(np.sum(np.r_[part.y_fit, part.y_held] == label))
            assert np.sum(part.y_held == label) == int(np.floor(0.25 * n_class + 0.5))
        np.testing.assert_array_equal(same.held_rows, part.held_rows)
        assert not np.array_equal(elsewhere.held_rows, part.held_rows)
        np.testing.assert_array_equal(part.budgets, [1, 2, 3, 4, 5, 8])


def _table(gap: float, noise: float, seed: int) -> pd.DataFrame:
    """Two settings on 12 units: ``b`` errs ``gap`` less than ``a`` (plus noise)."""
    rng = np.random.default_rng(seed)
    units = [(d, c, t) for d in ("x", "y") for c in ("u", "v") for t in range(3)]
    base = rng.uniform(0.2, 0.3, len(units))
    rows = []
    for (d, c, t), e in zip(units, base, strict=True):
        rows.append({"dataset": d, "cost_model": c, "trial": t, "s": "a", "error": e})
        b = e - gap + rng.normal(0, noise)
        rows.append({"dataset": d, "cost_model": c, "trial": t, "s": "b", "error": b})
    return pd.DataFrame(rows).assign(seconds=1.0)


def test_a_default_stays_unless_another_setting_errs_less_with_its_interval_below_0():
    held_out = _held_out()
    clear = held_out.compare(_table(0.02, 0.002, 0), "s", "a")
    assert clear.loc["b", "minus default"] == pytest.approx(-0.02, abs=0.002)
    assert clear.loc["b", "95% high"] < 0 and clear.loc["a", "minus default"] == 0
    assert held_out.verdict(clear, "a").startswith("change the default 'a' to 'b'")
    assert held_out.verdict(clear, "b").startswith("the default 'b' stays")
    noisy = held_out.compare(_table(0.002, 0.05, 0), "s", "a")
    assert noisy.loc["b", "95% low"] < 0 < noisy.loc["b", "95% high"]
    assert held_out.verdict(noisy, "a").startswith("the default 'a' stays")


@pytest.mark.slow
def test_the_streed_benchmark_prints_each_setting_against_the_defaults():
    """``benchmarks/streed_defaults.py`` on heart's unit prices, 2 trials: a row per setting
    (the defaults, halved columns, 2 thresholds a group), the defaults' difference 0, and
    the verdict."""
    text = _printed(
        "streed_defaults.py",
        "--datasets",
        "heart",
        "--cost-models",
        "attribute_unit",
        "--trials",
        "2",
        "--column-scales",
        "0.5",
        "--max-thresholds",
        "2",
    )
    assert "2 trials and 1 (dataset, cost model) cells (2 paired units)" in text
    rows = {line.split("  ")[0].strip(): line for line in text.splitlines()}
    assert {"defaults", "max_columns 64/64/64/20", "max_thresholds 2"} <= set(rows)
    assert [float(v) for v in rows["defaults"].split()[-3:]] == [0.0, 0.0, 0.0]
    assert "no setting errs less" in text or "change the default" in text


@pytest.mark.slow
def test_the_selection_benchmark_prints_each_kept_number():
    """``benchmarks/selection_defaults.py`` with LightGBM on pima, 2 trials: a row per
    ``exhaustive_keep``, the sets compared growing with it."""
    text = _printed(
        "selection_defaults.py",
        "--datasets",
        "pima",
        "--cost-models",
        "attribute_unit",
        "--trials",
        "2",
        "--keep",
        "1",
        "4",
    )
    assert "SelectThenTrain(model='gbm')" in text
    assert "2 trials and 1 (dataset, cost model) cells (2 paired units)" in text
    sets = ast.literal_eval(text.split("(mean a fit): ")[1].strip())
    assert set(sets) == {1, 4} and sets[4] > sets[1]
