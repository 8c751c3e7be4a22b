"""The approximate kernels of a sign block (budgetboost.estimators.boosting.stumps: the float32
product, the sparse sums): approximate edges within their bound, whose deciding candidates are
made exact, give the float64 product's fits, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest
import threadpoolctl
from helpers import CRITERIA, examples
from helpers import fit_engine as _engine
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetboost.estimators.boosting import criteria, stumps
from budgetboost.estimators.boosting.criteria import StumpChoice
from budgetboost.estimators.boosting.stumps import StumpSpace

FITTED = ("feature_", "threshold_", "polarity_", "alpha_", "edge_", "spent_")


@pytest.fixture
def one_blas_thread():
    """The BLAS on one thread, as in the pipeline's jobs (the approximations' condition)."""
    with threadpoolctl.threadpool_limits(1, user_api="blas"):
        if stumps.exact_row_group() is None:
            pytest.skip("this machine's BLAS sums no aligned row group alike: never approximate")
        yield


@pytest.mark.parametrize("n", [1, 2, 5, 17, 37, 64, 129, 1001])
@pytest.mark.parametrize("m", [3, 500, 4097])
def test_exact_rows_are_the_whole_products_bits(one_blas_thread, n, m):
    """A row's sum over its aligned group is the whole product's, bit for bit (rows in any
    order, repeated, in the short last group or not)."""
    rng = np.random.default_rng(n * 10_000 + m)
    signs = np.where(rng.random((n, m)) < 0.4, 1.0, -1.0)
    wy = rng.normal(size=m)
    wy /= np.abs(wy).sum()
    full = signs @ wy
    for size in (1, 2, 3, 7, 40):
        rows = rng.choice(n, size)
        exact = stumps._exact_rows(signs, wy, rows, stumps.exact_row_group())
        np.testing.assert_array_equal(exact, full[rows])
    tail = np.array([n - 1])
    np.testing.assert_array_equal(
        stumps._exact_rows(signs, wy, tail, stumps.exact_row_group()), full[tail]
    )


def test_small_sign_blocks_keep_the_float64_product():
    signs = np.ones((10, 100))
    assert stumps.fastest_kernel(signs) == "float64"


def test_the_kernel_picked_is_a_known_one_and_built(one_blas_thread):
    """Whatever the machine's timing picks for a large block, the block carries it."""
    rng = np.random.default_rng(7)
    B = rng.random((1000, 300)) < 0.05
    kernel = stumps.fastest_kernel(np.ascontiguousarray(2.0 * B.T - 1.0))
    assert kernel in {"float64", "float32", "sparse"}
    with pytest.MonkeyPatch.context() as patch:
        for forced in ("float32", "sparse"):
            patch.setattr(stumps, "fastest_kernel", lambda signs, forced=forced: forced)
            block = stumps._SignBlock.build(B, slice(0, 300))
            assert block.kernel == forced
            assert (block.signs32 is not None) == (forced == "float32")
            assert (block.sparse is not None) == (forced == "sparse")


@settings(max_examples=examples(60), derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    m=st.sampled_from([2, 33, 700, 5000]),
    density=st.sampled_from([0.01, 0.3, 0.5, 0.9]),
    kernel=st.sampled_from(["float32", "sparse"]),
)
def test_approximate_edges_are_within_their_bound(seed, m, density, kernel):
    """Each approximate edge is within the bound returned of the float64 product's (weights
    of any sign and spread, duplicated and complementary columns)."""
    rng = np.random.default_rng(seed)
    B = rng.random((m, 40)) < density
    B = np.concatenate([B, B[:, :5], ~B[:, 5:10]], axis=1)
    wy = rng.normal(size=m) * np.exp(rng.normal(scale=4.0, size=m))
    wy /= np.abs(wy).sum()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stumps, "exact_row_group", lambda: 4)
        patch.setattr(stumps, "_reproduces", lambda *args: True)
        patch.setattr(stumps, "blas_threads", lambda: 1)
        patch.setattr(stumps, "fastest_kernel", lambda signs: kernel)
        block = stumps._SignBlock.build(B, slice(0, B.shape[1]))
    assert block.kernel == kernel
    canonical = np.empty(B.shape[1])
    block.edges(wy, float(wy.sum()), canonical)
    approximate = np.empty(B.shape[1])
    bound = block.approximate_edges(wy, approximate)
    assert np.all(np.abs(approximate - canonical) <= bound)
    assert bound < (1e-3 if kernel == "float32" else 1e-11)


def _near_ties(rng: np.random.Generator, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """0/1 columns that are copies of a few base columns with a few rows flipped: many edges
    within the float32 error of each other, and exact duplicates (ties broken by index)."""
    base = rng.random((m, 12)) < 0.5
    copies = np.repeat(base, 25, axis=1)
    flips = rng.random(copies.shape) < rng.choice([0.0, 0.002, 0.01], size=copies.shape[1])
    X = (copies ^ flips).astype(float)
    logit = X[:, 0] - X[:, 40] + 0.7 * X[:, 90] - 0.5 * X[:, 160] + 0.3 * X[:, 250]
    y = np.where(logit + rng.normal(scale=0.9, size=m) > 0.2, 1, -1)
    costs = rng.choice([0.5, 1.0, 2.0, 3.0], size=X.shape[1])
    return X, y, costs


def _fits(X, y, costs, criterion, refine, kernel="float32"):
    """The fit with the float64 product and with the approximate ``kernel`` (refined by
    ``refine``)."""
    budget = None if criterion == "adaboost" else 40.0
    calls = {"refine": 0}

    def counted(self, wy, gamma, candidates):
        calls["refine"] += 1
        refine(self, wy, gamma, candidates)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(stumps, "fastest_kernel", lambda signs: "float64")
        canonical = _engine(X, y, costs, None, criterion, 150, budget=budget)
        patch.setattr(stumps, "fastest_kernel", lambda signs: kernel)
        patch.setattr(StumpSpace, "refine", counted)
        approximate = _engine(X, y, costs, None, criterion, 150, budget=budget)
    assert calls["refine"] > 0, f"the {kernel} kernel was not used"
    return canonical, approximate


@pytest.mark.parametrize("kernel", ["float32", "sparse"])
@pytest.mark.parametrize("criterion", CRITERIA)
def test_approximate_fits_are_the_float64_fits_bit_for_bit(one_blas_thread, criterion, kernel):
    """Near-tied and duplicated columns, costs and a budget: every fitted array is equal."""
    X, y, costs = _near_ties(np.random.default_rng(4), 1200)
    canonical, approximate = _fits(X, y, costs, criterion, StumpSpace.refine, kernel)
    for name in FITTED:
        np.testing.assert_array_equal(getattr(approximate, name), getattr(canonical, name))


@pytest.mark.parametrize("kernel", ["float32", "sparse"])
def test_without_refinement_the_fits_differ(one_blas_thread, kernel):
    """The check above can fail: the approximate edges alone give other alphas (float32:
    other stumps too; the sparse sums differ from the product in the last bits)."""
    X, y, costs = _near_ties(np.random.default_rng(4), 1200)
    canonical, approximate = _fits(X, y, costs, "greedy", lambda *args: None, kernel)
    assert not all(
        np.array_equal(getattr(approximate, name), getattr(canonical, name)) for name in FITTED
    )


@settings(max_examples=examples(150), derandomize=True)
@given(
    seed=st.integers(0, 2**32 - 1),
    criterion=st.sampled_from(["adaboost", "greedy", "smoothed", "speedboost", "hybrid"]),
    n=st.sampled_from([5, 40, 1500]),
    error=st.sampled_from([1e-13, 1e-6, 1e-4, 3e-3]),
)
def test_deciding_candidates_decide_the_choice(seed, criterion, n, error):
    """Edges within ``error`` of the exact ones, made exact at the deciding candidates only:
    the choice and the edge read are those of the exact edges (ties and near ties included,
    the hybrid's switch too)."""
    rng = np.random.default_rng(seed)
    levels = rng.choice([0.0, 1e-13, 0.02, 0.1, 0.3, 0.3 + error / 3], size=n)
    exact = levels * rng.choice([-1.0, 1.0], size=n) + rng.uniform(-1, 1, n) * error * 2
    approx = exact + rng.uniform(-1.0, 1.0, size=n) * error
    space = StumpSpace(np.arange(n) % 7, np.arange(n) // 7 + 1.0, ())
    cand_group = np.arange(n) % max(n // 3, 1)
    cost = rng.choice([0.5, 1.0, 2.0], size=n)
    paid = rng.random(cand_group.max() + 1) < 0.3
    spent = float(rng.choice([0.0, 3.0]))

    def choice():
        made = StumpChoice(space, criterion, cand_group, cost, 1.0, 0.5)
        made.choose(np.full(n, 0.5) * (np.arange(n) == 0), paid, 0.0)  # hybrid's round 1
        return made

    reference, refined = choice(), choice()
    k, abs_gamma = reference.choose(exact.copy(), paid, spent)
    deciding = refined.deciding(approx, paid, spent, error)
    patched = exact.copy() if deciding is None else approx.copy()
    if deciding is not None:
        patched[deciding] = exact[deciding]
    k2, abs_gamma2 = refined.choose(patched, paid, spent)
    assert (k2, refined.phase) == (k, reference.phase)
    if k >= 0:
        assert abs_gamma2[k2] == abs_gamma[k]


def test_deciding_keeps_every_near_top_candidate_under_adaboost():
    space = StumpSpace(np.arange(4), np.ones(4), ())
    choice = StumpChoice(space, "adaboost", np.arange(4), np.ones(4), 1.0, 0.5)
    gamma = np.array([0.3, -0.3 + 1e-5, 0.1, 0.29])
    kept = choice.deciding(gamma, np.zeros(4, bool), 0.0, 1e-5)
    np.testing.assert_array_equal(kept, [0, 1])
    assert criteria.TIE_TOL < 1e-5
