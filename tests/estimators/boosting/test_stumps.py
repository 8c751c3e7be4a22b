"""The stump space (budgetboost.estimators.boosting.stumps): every block of edges against the
direct sum,
and the block each kind of column takes."""

from __future__ import annotations

import numpy as np
import pytest
from helpers import CRITERIA, examples
from helpers import fit_engine as _engine
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import reference_fit

from budgetboost.estimators.boosting import stumps
from budgetboost.estimators.boosting.stumps import StumpSpace


def test_binary_matrix_is_recognised_cheaply():
    """A 100 x 11,000 0/1 matrix goes down the matrix-vector path (one threshold per column)."""
    rng = np.random.default_rng(0)
    X = (rng.random((100, 11000)) < 0.3).astype(np.uint8).astype(float)
    space = StumpSpace.from_matrix(X)
    assert space.n_candidates == 11000
    assert [type(b).__name__ for b in space.blocks] == ["_SignBlock"]


def _binarized(rng, m, n_attributes, levels):
    """Indicators x_a >= v for every value v above each attribute's minimum: nested chains."""
    raw = rng.integers(0, levels, size=(m, n_attributes))
    cols = [raw[:, a] >= v for a in range(n_attributes) for v in range(1, levels)]
    return np.column_stack(cols).astype(float)


@settings(max_examples=examples(60), derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(2, 40), levels=st.integers(9, 15))
def test_every_edge_block_gives_the_direct_edges(seed, m, levels):
    """Chains, sign products and sorted cumulative sums agree with sum_i D(i) y_i h(x_i)."""
    rng = np.random.default_rng(seed)
    chained = _binarized(rng, m, 3, levels)
    loose = (rng.random((m, 5)) < 0.5).astype(float)
    numeric = rng.normal(size=(m, 2)).round(1)
    X = np.column_stack([chained, loose, numeric])
    with pytest.MonkeyPatch.context() as patch:  # chains from 8 columns: small ones count
        patch.setattr(stumps, "MIN_CHAIN", 8)
        space = StumpSpace.from_matrix(X)
    wy = rng.normal(size=m)
    h = np.where(X[:, space.column] >= space.threshold, 1.0, -1.0)
    np.testing.assert_allclose(space.edges(wy), wy @ h, rtol=1e-10, atol=1e-12)


def test_long_chains_are_summed_short_ones_multiplied():
    """A chain costs one cumulative sum over the rows, sign columns one product each: chains
    of MIN_CHAIN columns or more go to the sorted block, shorter ones to the sign block."""
    rng = np.random.default_rng(3)
    for levels, kind in [(stumps.MIN_CHAIN + 9, "_SortedBlock"), (11, "_SignBlock")]:
        X = _binarized(rng, 300, 2, levels)
        assert [type(b).__name__ for b in StumpSpace.from_matrix(X).blocks] == [kind]


def _zero_one_columns(rng, m):
    """0/1 columns of every kind the sign and sparse blocks meet: a one-hot group (one 1 a
    row), one with a "none" level, a short chain, rare and common random columns (the
    rarer value 1 or 0), a duplicate and a complement."""
    onehot = np.eye(4)[rng.integers(0, 4, m)]
    with_none = np.eye(4)[rng.integers(0, 4, m)][:, :3]
    levels = rng.integers(0, 6, m)
    chain = np.column_stack([levels >= v for v in range(1, 6)])
    loose = rng.random((m, 5)) < np.array([0.03, 0.2, 0.5, 0.8, 0.97])
    X = np.column_stack([onehot, with_none, chain, loose]).astype(float)
    return np.column_stack([X, X[:, 4], 1.0 - X[:, 9]])


@settings(max_examples=examples(80), derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), m=st.integers(2, 60), exact=st.booleans())
def test_sparse_block_gives_the_direct_edges(seed, m, exact):
    """The sparse block's edges are ``S^T (D*y)`` over the +-1 outputs: to the last bits for
    real weights, and exactly when every partial sum is exact (small integers)."""
    rng = np.random.default_rng(seed)
    X = _zero_one_columns(rng, m)
    with pytest.MonkeyPatch.context() as patch:  # the sparse block at any number of rows
        patch.setattr(stumps, "sparse_is_faster", lambda *sizes: True)
        space = StumpSpace.from_matrix(X)
    assert {type(b).__name__ for b in space.blocks} <= {"_SparseBlock"}
    wy = rng.integers(-8, 9, m).astype(float) if exact else rng.normal(size=m)
    direct = wy @ np.where(X[:, space.column] >= space.threshold, 1.0, -1.0)
    if exact:
        np.testing.assert_array_equal(space.edges(wy), direct)
    else:
        np.testing.assert_allclose(space.edges(wy), direct, rtol=0, atol=1e-14 * m)


@pytest.mark.parametrize(
    ("rows", "columns", "rare", "rounds", "sparse"),
    [
        (1000, 117, 13363, 500, False),  # census at Table 1's size: its matrix stays in cache
        (1000, 498, 69037, 500, False),  # MNIST 1 vs 7 at 1,000 rows: the build does not pay
        (1000, 240, 59838, 500, False),  # splice: a quarter of the cells are rare values
        (100, 15, 433, 500, False),  # heart: the sparse product's calls cost more than sums
        (2000, 124, 26888, 400, False),  # census at 2,000 rows: a near tie keeps the product
        (4000, 128, 53823, 400, True),  # census at 4,000 rows over 400 rounds
        (4000, 128, 53823, 100, False),  # ... but not over 100
        (2000, 519, 137384, 400, True),  # MNIST 1 vs 7 at 2,000 rows
        (3000, 240, 179531, 500, False),  # splice at its full size
        (43842, 132, 588049, 500, True),  # census at full size
        (43842, 132, 588049, 10, False),  # ... for a refit of 10 rounds
    ],
)
def test_the_sparse_block_is_used_where_it_is_faster(rows, columns, rare, rounds, sparse):
    """The block of the 0/1 columns outside chains is the faster one over a fit's rounds by
    the measured costs (``stumps.sparse_is_faster``; the shapes are the binarized datasets'
    on trial 0)."""
    assert stumps.sparse_is_faster(rows, columns, rare, rounds) is sparse


def test_the_stump_space_takes_the_block_the_rule_picks():
    """Short 0/1 columns go to the sparse block where ``sparse_is_faster`` says so, to the
    product otherwise; long chains stay chains. The candidates are the same and their edges
    agree to the last bits."""
    rng = np.random.default_rng(5)
    m = 500
    X = np.column_stack([_zero_one_columns(rng, m), _binarized(rng, m, 1, stumps.MIN_CHAIN + 3)])
    asked = []
    spaces = {}
    for faster in (True, False):

        def rule(*sizes, faster=faster):
            asked.append(sizes)
            return faster

        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(stumps, "sparse_is_faster", rule)
            spaces[faster] = StumpSpace.from_matrix(X)
    loose = X[:, : X.shape[1] - stumps.MIN_CHAIN - 2]
    count = loose.sum(axis=0)
    assert asked[0] == (m, loose.shape[1], int(np.minimum(count, m - count).sum()), 500)
    sparse, product = spaces[True], spaces[False]
    assert [type(b).__name__ for b in product.blocks] == ["_SortedBlock", "_SignBlock"]
    assert [type(b).__name__ for b in sparse.blocks] == ["_SortedBlock", "_SparseBlock"]
    np.testing.assert_array_equal(sparse.column, product.column)
    np.testing.assert_array_equal(sparse.threshold, product.threshold)
    wy = rng.normal(size=m) / m
    np.testing.assert_allclose(sparse.edges(wy), product.edges(wy), rtol=0, atol=1e-15)


@pytest.mark.parametrize("criterion", CRITERIA)
def test_sparse_block_chooses_the_stumps_of_the_product(criterion):
    """On 3,000 rows the fits with the sparse block choose the stumps the product chose
    (the edges differ in the last bits only: the alphas too)."""
    rng = np.random.default_rng(8)
    m = 3000
    X = np.column_stack([_zero_one_columns(rng, m) for _ in range(3)])
    logit = X[:, 1] - X[:, 6] + 0.8 * X[:, 9] - X[:, 16] + 0.5 * X[:, 25]
    y = np.where(logit + rng.normal(scale=0.8, size=m) > 0.4, 1, -1)
    costs = rng.choice([0.1, 0.4, 1.0, 1.9], size=X.shape[1])
    budget = None if criterion == "adaboost" else 12.0
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stumps, "sparse_is_faster", lambda *sizes: True)
        sparse = _engine(X, y, costs, None, criterion, 60, budget=budget)
        patch.setattr(stumps, "sparse_is_faster", lambda *sizes: False)
        product = _engine(X, y, costs, None, criterion, 60, budget=budget)
    for name in ("feature_", "threshold_", "polarity_", "spent_"):
        np.testing.assert_array_equal(getattr(sparse, name), getattr(product, name))
    np.testing.assert_allclose(sparse.alpha_, product.alpha_, rtol=1e-12)


def test_engine_matches_reference_on_binarized_chains():
    rng = np.random.default_rng(21)
    X = _binarized(rng, 24, 2, 10)  # two chains of 9 columns
    y = np.where(X[:, 4] + X[:, 12] + rng.random(24) > 1.5, 1, -1)
    costs = rng.choice([0.0, 0.4, 1.0, 1.9], size=X.shape[1])
    with pytest.MonkeyPatch.context() as patch:  # chains from 8 columns: small ones count
        patch.setattr(stumps, "MIN_CHAIN", 8)
        blocks = [type(b).__name__ for b in StumpSpace.from_matrix(X).blocks]
        models = {c: _engine(X, y, costs, None, c, 12) for c in CRITERIA}
    assert blocks == ["_SortedBlock"]  # all-0/1 X: only chains make a sorted block
    for criterion in CRITERIA:
        model = models[criterion]
        ref = reference_fit(
            X.tolist(), y.tolist(), costs.tolist(), list(range(X.shape[1])), criterion, 12
        )
        j, v, s, a = (np.array(c) for c in zip(*ref, strict=True))
        np.testing.assert_array_equal(model.feature_, j)
        np.testing.assert_allclose(model.alpha_, a, rtol=1e-12, atol=1e-12)
