"""What every peer adapter (budgetboost.estimators.peers) keeps, one suite run on each of
BudgetedLightGBM and BudgetedCatBoost: free features, the validation part and the choice
made without test rows, determinism, parameter and input checks, scikit-learn's checks.

What each library's adapter does its own way (its models against the library's, its cost
accounting) is in test_lightgbm_peer.py and test_catboost_peer.py."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass, field

import numpy as np
import pytest

from budgetboost import InvalidParameterError

from .helpers import BUDGETS, problem


@dataclass(frozen=True)
class Peer:
    """An adapter and how its parameters are spelled."""

    library: str
    name: str  #: class name in budgetboost.estimators.peers
    size: str  #: the number of trees
    tradeoff: str  #: the grid of cost trade-offs
    small: dict = field(default_factory=dict)  #: what keeps a fit small

    def make(self, trees: int | None = None, **params):
        cls = getattr(pytest.importorskip("budgetboost.estimators.peers"), self.name)
        pytest.importorskip(self.library)
        if trees is not None:
            params[self.size] = trees
        return cls(**params)


PEERS = [
    Peer(
        "lightgbm",
        "BudgetedLightGBM",
        "n_estimators",
        "cegb_tradeoff",
        small={"max_depth": 2},
    ),
    Peer(
        "catboost",
        "BudgetedCatBoost",
        "iterations",
        "penalties_coefficient",
        small={"depth": 2},
    ),
]


@pytest.fixture(params=PEERS, ids=lambda p: p.library)
def peer(request) -> Peer:
    return request.param


# ---------------------------------------------------------------------- free features
def test_zero_costs_work(peer):
    X, y, _ = problem()
    est = peer.make(20, feature_costs=np.zeros(X.shape[1]), random_state=0, **peer.small)
    ev = est.fit(X, y).evaluate_at_budgets(X, y, [0.0, 1.0])
    np.testing.assert_array_equal(ev.spent, 0.0)
    assert ev.rounds[0] > 0 and ev.error[0] < 0.3  # everything is free at budget 0


# ---------------------------------------------------------------------- the choice
@pytest.mark.parametrize(("n", "fraction"), [(401, 0.25), (201, 0.3)])
def test_the_validation_part_is_a_stratified_part_of_the_training_rows(peer, n, fraction):
    X, y, costs = problem(n=n)
    est = peer.make(
        3, validation_fraction=fraction, feature_costs=costs, random_state=7, **peer.small
    ).fit(X, y)
    fit, val = est.fit_rows_, est.validation_rows_
    assert np.intersect1d(fit, val).size == 0
    np.testing.assert_array_equal(np.union1d(fit, val), np.arange(X.shape[0]))
    for label in (-1, 1):
        assert np.sum(y[val] == label) == np.floor(fraction * np.sum(y == label) + 0.5)
    other = peer.make(
        3, validation_fraction=fraction, feature_costs=costs, random_state=8, **peer.small
    ).fit(X, y)
    assert not np.array_equal(other.validation_rows_, val)


def test_test_rows_never_change_the_choice(peer):
    X, y, costs = problem(n=500)
    train, test = np.arange(300), np.arange(300, 500)

    def fitted():
        est = peer.make(20, feature_costs=costs, random_state=11, **peer.small)
        return est.fit(X[train], y[train])

    est = fitted()
    steps = (est.choice_.budgets.copy(), est.choice_.config.copy(), est.choice_.size.copy())
    first = est.evaluate_at_budgets(X[test], y[test], BUDGETS)
    permuted = np.random.default_rng(0).permutation(test)
    Xr, yr, _ = problem(n=150, seed=99)  # replaced test rows
    for ev in (
        est.evaluate_at_budgets(X[permuted], y[permuted], BUDGETS),
        est.evaluate_at_budgets(Xr, yr, BUDGETS),
    ):
        np.testing.assert_array_equal(ev.rounds, first.rounds)
        np.testing.assert_array_equal(ev.spent, first.spent)
    for before, after in zip(
        steps, (est.choice_.budgets, est.choice_.config, est.choice_.size), strict=True
    ):
        np.testing.assert_array_equal(before, after)
    # fitted again on the training rows alone: the same models and choice
    again = fitted()
    np.testing.assert_array_equal(again.choice_.size, est.choice_.size)
    np.testing.assert_array_equal(again.chosen_tradeoffs(BUDGETS), est.chosen_tradeoffs(BUDGETS))


# ---------------------------------------------------------------------- determinism
SCRIPT = textwrap.dedent("""
    import hashlib
    import numpy as np
    from budgetboost.estimators import peers
    X, y, costs = (np.load(f"{{name}}.npy") for name in ("X", "y", "costs"))
    est = peers.{name}({size}=20, feature_costs=costs, random_state=2**100 + 7, **{small!r})
    est.fit(X[:300], y[:300])
    ev = est.evaluate_at_budgets(X[300:], y[300:], {budgets!r})
    digest = hashlib.sha256()
    for array in (est.predict_at_budgets(X[300:], {budgets!r}), est.decision_function(X[300:]),
                  *ev.as_dict().values(), est.chosen_tradeoffs({budgets!r})):
        digest.update(np.ascontiguousarray(array).tobytes())
    print(digest.hexdigest())
""")


def test_byte_identical_across_processes(peer, tmp_path):
    """Two processes of other hash seeds give the same bytes, and write no file."""
    pytest.importorskip(peer.library)
    for name, array in zip(("X", "y", "costs"), problem(), strict=True):
        np.save(tmp_path / f"{name}.npy", array)
    budgets = [float(b) if np.isfinite(b) else "inf" for b in BUDGETS]
    script = tmp_path / "run.py"
    text = SCRIPT.format(name=peer.name, size=peer.size, small=peer.small, budgets=budgets)
    script.write_text(text.replace("'inf'", "np.inf"))
    before = sorted(tmp_path.iterdir())
    digests = {
        subprocess.run(
            [sys.executable, str(script)],
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    }
    assert len(digests) == 1 and len(digests.pop().strip()) == 64
    assert sorted(tmp_path.iterdir()) == before  # no files written (catboost_info, ...)


def test_same_seed_same_bytes_in_process(peer):
    X, y, costs = problem()
    digests = []
    for _ in range(2):
        est = peer.make(10, feature_costs=costs, random_state=4, **peer.small).fit(X, y)
        digests.append(hashlib.sha256(est.predict_at_budgets(X, BUDGETS).tobytes()).hexdigest())
    assert digests[0] == digests[1]


# ---------------------------------------------------------------------- parameters and input
@pytest.mark.parametrize("grid", ["learning_rate", "tradeoff", "learning_rates"])
def test_a_grid_needs_a_validation_part(peer, grid):
    X, y, costs = problem(n=60)
    grid = {
        "learning_rate": {"learning_rate": 0.1},
        "tradeoff": {peer.tradeoff: 2.0},
        "learning_rates": {"learning_rate": [0.1, 0.2]},
    }[grid]
    with pytest.raises(InvalidParameterError, match="^validation_fraction: "):
        peer.make(validation_fraction=0.0, feature_costs=costs, **grid).fit(X, y)
    one = {peer.tradeoff: [2.0], "learning_rate": [0.1]}
    peer.make(3, validation_fraction=0.0, feature_costs=costs, **one).fit(X, y)


def test_bad_input_as_the_other_estimators(peer):
    X, y, costs = problem(n=60)
    with pytest.raises(InvalidParameterError, match="^feature_costs: "):
        peer.make(feature_costs=costs[:-1]).fit(X, y)
    for label in (-1, 0, 1):
        with pytest.raises(ValueError, match="exactly two classes"):
            peer.make().fit(X, np.full(60, label))
    Xn = X.copy()
    Xn[3, 2] = np.nan
    with pytest.raises(ValueError, match="missing values"):
        peer.make().fit(Xn, y)
    est = peer.make(3, random_state=0, **peer.small).fit(X, y)
    with pytest.raises(ValueError, match="features"):
        est.predict(X[:, :-1])
    with pytest.raises(ValueError, match="budgets"):
        est.predict_at_budgets(X, [-1.0])
    with pytest.raises(ValueError, match="budgets"):
        est.evaluate_at_budgets(X, y, [np.nan])


# ---------------------------------------------------------------------- the base, not the library
def test_a_cost_blind_peer_needs_no_tradeoff(peer):
    """A peer without a cost trade-off (``_tradeoff_name = None``): its grid is the learning
    rates alone, every configuration's trade-off NaN, and the protocol runs as for the others."""
    cls = type(peer.make())
    blind = type("Blind", (cls,), {"_tradeoff_name": None})
    X, y, costs = problem(n=200)
    est = blind(**{peer.size: 5}, **peer.small, learning_rate=[0.1, 1.0])
    est.set_params(feature_costs=costs, random_state=0).fit(X, y)
    assert [c for c in est.configs_] == [{"learning_rate": 0.1}, {"learning_rate": 1.0}]
    assert np.isnan(est.tradeoffs_).all()
    assert np.isnan(est.chosen_tradeoffs(BUDGETS)).all()
    evaluation = est.evaluate_at_budgets(X, y, BUDGETS)
    assert np.all(evaluation.max_example_cost <= np.asarray(BUDGETS))
    with pytest.raises(InvalidParameterError, match="validation_fraction.*learning_rate"):
        blind(validation_fraction=0.0, learning_rate=[0.1, 1.0]).fit(X, y)


def test_every_threshold_of_a_long_attribute_stays_apart(peer):
    """An attribute of 420 threshold indicators under a grouped cost model reaches the library
    as one ordinal column of 421 values: the libraries' default bins (255 / 254 borders) merge
    neighbouring thresholds (the one at 305 among them, for both); the peers give a bin per
    value, so a label that changes there is learnt exactly."""
    rng = np.random.default_rng(0)
    n, thresholds = 1000, 420
    value = np.concatenate([np.arange(thresholds + 1), rng.integers(0, thresholds + 1, n)])
    X = (value[:, None] >= np.arange(1, thresholds + 1)[None, :]).astype(float)
    y = np.where(value >= 305, 1, -1)
    default_bins = {"lightgbm": {"max_bin": 255}, "catboost": {"border_count": 254}}

    def fit(**params):
        return peer.make(
            trees=20,
            learning_rate=1.0,
            validation_fraction=0.0,
            **{peer.tradeoff: 0.0},
            feature_costs=np.ones(thresholds),
            feature_groups=np.zeros(thresholds, dtype=int),
            random_state=0,
            **params,
        ).fit(X, y)

    est = fit()
    assert est.encoding_.n_columns == 1 and est.n_bins_ == thresholds + 1
    assert est.score(X, y) == 1.0
    assert fit(params=default_bins[peer.library]).score(X, y) < 1.0


def test_threads_are_the_jobs(peer, monkeypatch):
    """The wrapper gives the library the process's thread limit, never its own count."""
    from budgetboost.estimators.contract.threads import THREADS_VARIABLE

    X, y, costs = problem(n=120)
    est = peer.make(trees=3, **peer.small, feature_costs=costs, random_state=0).fit(X, y)
    key = "num_threads" if peer.library == "lightgbm" else "thread_count"
    est.n_bins_ = 2
    assert est._library_params(0)[key] == 1
    monkeypatch.setenv(THREADS_VARIABLE, "2")
    assert est._library_params(0)[key] == 2


# ---------------------------------------------------------------------- the trees' depth
DEPTH = {"lightgbm": "max_depth", "catboost": "depth"}


def tree_depths(peer, model) -> int:
    """The deepest tree of a trained library model, read from the library itself."""
    if peer.library == "lightgbm":
        frame = model.booster.trees_to_dataframe()
        return int(frame["node_depth"].max()) - 1
    return int(model.model.get_all_params()["depth"])


def test_a_depth_grid_joins_the_configurations(peer):
    """Several depths are a grid parameter: every trade-off, learning rate and depth is a
    configuration, trained at its depth; one depth keeps the configurations as before."""
    X, y, costs = problem(n=300)
    name = DEPTH[peer.library]
    est = peer.make(15, feature_costs=costs, random_state=0, learning_rate=[0.3, 1.0])
    est.set_params(**{peer.tradeoff: [0.0, 2.0], name: [1, 3]}).fit(X, y)
    assert [(c["tradeoff"], c["learning_rate"], c[name]) for c in est.configs_] == [
        (t, r, d) for t in (0.0, 2.0) for r in (0.3, 1.0) for d in (1, 3)
    ]
    for config, model in zip(est.configs_, est.models_, strict=True):
        assert tree_depths(peer, model) <= config[name]
    assert max(tree_depths(peer, m) for m in est.models_) == 3
    budgets = np.asarray(BUDGETS)
    depth = est.chosen_depths(budgets)
    config, _ = est.choice_.at(budgets)
    expected = [est.configs_[c][name] if c >= 0 else np.nan for c in config]
    np.testing.assert_array_equal(depth, expected)
    rate = [est.configs_[c]["learning_rate"] if c >= 0 else np.nan for c in config]
    np.testing.assert_array_equal(est.chosen_values("learning_rate", budgets), rate)
    one = peer.make(5, feature_costs=costs, random_state=0, **{name: 2}).fit(X, y)
    assert all(name not in c for c in one.configs_)
    np.testing.assert_array_equal(
        np.unique(one.chosen_depths(budgets)[~np.isnan(one.chosen_depths(budgets))]), [2]
    )


def test_a_depth_grid_needs_a_validation_part_and_distinct_integers(peer):
    X, y, costs = problem(n=60)
    name = DEPTH[peer.library]
    one = {peer.tradeoff: 1.0, "learning_rate": 0.3}
    with pytest.raises(InvalidParameterError, match=f"^validation_fraction: .*{name}"):
        peer.make(validation_fraction=0.0, feature_costs=costs, **one, **{name: [1, 2]}).fit(X, y)
    for bad in ([1, 1], [1.5, 2], []):
        with pytest.raises(InvalidParameterError, match=f"^{name}: "):
            type(peer.make()).check_params({name: bad})


def xor_problem(n: int = 800, seed: int = 0):
    """A label that is the XOR of two columns (5 % noise) and a cheap column that agrees with
    it 80 % of the time, plus four noise columns. Stumps can only use the cheap column (no
    sum of single-column votes is an XOR); trees of depth 2 learn the XOR, but each of their
    paths reads both costly columns."""
    rng = np.random.default_rng(seed)
    a, b = rng.integers(0, 2, (2, n))
    y = np.where(rng.random(n) < 0.05, 1 - (a ^ b), a ^ b)
    cheap = np.where(rng.random(n) < 0.8, y, 1 - y)
    X = np.column_stack([cheap, a, b, rng.integers(0, 2, (4, n)).T]).astype(np.float64)
    costs = np.array([0.1, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0])
    return X, np.where(y > 0, 1, -1), costs


@pytest.mark.parametrize("charging", ["model", "example"])
def test_the_depth_chosen_differs_between_a_small_and_a_large_budget(peer, charging):
    """At a budget that affords only the cheap column, stumps on it (20 % error) beat any
    tree that needs the XOR's columns; at a budget that affords those, depth-2 trees learn
    the XOR (5 % noise) that no stumps can: the depth chosen on validation is 1, then 2."""
    if charging == "example" and peer.library != "lightgbm":
        pytest.skip(
            "CatBoost's symmetric trees are charged per model: every example reads every split"
        )
    X, y, costs = xor_problem()
    extra = {"charging": charging} if charging == "example" else {}
    est = peer.make(
        40,
        feature_costs=costs,
        random_state=1,
        learning_rate=1.0,
        **{peer.tradeoff: 0.0, DEPTH[peer.library]: [1, 2]},
        **extra,
    ).fit(X[:600], y[:600])
    np.testing.assert_array_equal(est.chosen_depths([0.5, 10.0]), [1, 2])
    ev = est.evaluate_at_budgets(X[600:], y[600:], [0.5, 10.0])
    assert ev.error[0] > 0.1 and ev.error[1] < 0.1


def test_merged_columns_change_nothing_where_no_two_columns_are_equal(peer):
    X, y, costs = problem(n=300)
    runs = [
        peer.make(
            20, feature_costs=costs, random_state=3, merge_identical_columns=merge, **peer.small
        )
        .fit(X[:200], y[:200])
        .evaluate_at_budgets(X[200:], y[200:], BUDGETS)
        for merge in (False, True)
    ]
    for name, value in runs[0].as_dict().items():
        np.testing.assert_array_equal(value, getattr(runs[1], name))


def test_of_equal_columns_the_library_is_given_the_cheapest(peer):
    """Column 0's copy at column 12 is cheaper: merged, no model splits on column 0 (the
    dearer copy), and the budgets hold."""
    X, y, costs = problem(n=300)
    X = np.column_stack([X, X[:, 0]])
    costs = np.append(costs, costs[0] / 2)
    est = peer.make(
        20, feature_costs=costs, random_state=3, merge_identical_columns=True, **peer.small
    ).fit(X[:200], y[:200])
    used = set().union(*(set(c.tolist()) for m in est.models_ for c in m.tree_columns()))
    assert 12 in used and 0 not in used
    ev = est.evaluate_at_budgets(X[200:], y[200:], BUDGETS)
    assert np.all(ev.spent <= np.asarray(BUDGETS))
    assert np.all(ev.max_example_cost <= np.asarray(BUDGETS))
