"""The decision stumps over a training matrix, and their edges for a weight vector.

A stump is ``h(x) = s * (1 if x[j] >= v else -1)`` with polarity ``s`` in {+1, -1}. The
candidate thresholds of column ``j`` are its distinct training values above the column's
minimum (a constant column has none): for a 0/1 column that is the single threshold 1, which
is exactly the paper's binarization of numeric attributes.

Edges ``gamma(h) = sum_i D(i) y_i h(x_i)`` of every candidate (polarity +1; -1 negates it)
are computed in one vectorised pass per round, by four blocks (each the cheapest for its
columns):

- *numeric* columns: cumulative sums of ``D*y`` over presorted columns,
  ``gamma(j, v) = sum(D*y) - 2 * sum_{x_ij < v} D(i) y_i``;
- *chains* of at least :data:`MIN_CHAIN` 0/1 columns, each nested in the one before (``x >=
  v1``, ``x >= v2``, ... of one binarized attribute): a row's *level* is how many columns of
  the chain it has, so the edges of a whole chain are ``sum(D*y) - 2 * (cumulative sums of
  D*y in level order)``: a chain is one numeric column (the level) in the block below, rows
  x chains instead of rows x columns;
- other 0/1 columns: a matrix-vector product with their +-1 outputs, ``gamma = S^T (D*y)``;
  or, where that is slower (:func:`sparse_is_faster`: many rows, rare values), sums of
  ``D*y`` over the rows of each column's rarer value only (a sparse matrix-vector product:
  fewer bytes a round than ``S``, which leaves the cache at such sizes), ``gamma = 2 *
  sum_{x_ij = 1} D(i) y_i - sum(D*y)``, or its negative when the rarer value is 0.

The last two keep distinct columns only: columns identical on the training rows (for the
sparse block: with the same rows of their rarer value, as a column and its complement) share
one row of their matrix.

The product's float64 sums define the edges (the *canonical* kernel). Where the machine the
fit runs on computes them clearly faster another way (:func:`fastest_kernel`, timed when the
space is built), a round may read :meth:`StumpSpace.approximate_edges` instead, each edge within
a stated bound of the canonical one, and then :meth:`StumpSpace.refine` the candidates that can
decide the round's choice (:meth:`~budgetboost.estimators.boosting.criteria.StumpChoice.deciding`)
to their canonical values, bit for bit. Two approximations: the *float32* product (a matrix
that leaves the cache costs half the bytes) and the *sparse* sums over each column's rarer
value (the sparse block's kernel; fewer bytes still where values are rare, but each entry a
gather). Refining relies on BLAS summing a row of the product the same way whenever the row
sits in the same aligned group of :func:`exact_row_group` rows, which is checked on the
machine (and on the fit's matrix) before an approximation is used. The choice, and every
result, is then the canonical kernel's whatever the machine picked.
"""

from __future__ import annotations

import bisect
import functools
import statistics
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import threadpoolctl

if TYPE_CHECKING:  # imported where a sparse block is built: ~0.1 s a train job otherwise
    import scipy.sparse

__all__ = [
    "MIN_CHAIN",
    "StumpSpace",
    "exact_row_group",
    "fastest_kernel",
    "sparse_is_faster",
    "stump_outputs",
]

#: Nested runs of at least this many 0/1 columns are handled as chains. A chain costs one
#: sequential cumulative sum over the rows (numpy's accumulate, ~3.5 ns a row) whatever its
#: length, sign columns a matrix-vector product (~0.1-0.2 ns a row per column): from 300
#: rows up, chains win from about 32 columns (breast cancer's 9-column and census's
#: 10-column chains are faster as sign columns, sonar's 100- to 200-column chains as chains).
MIN_CHAIN = 32

#: What the edges of the 0/1 columns outside chains cost inside a fit, by block (``python
#: benchmarks/engine.py --blocks``: paired medians, one thread, AMD EPYC). A
#: round: the product reads 8 bytes a cell of its +-1 matrix, ~0.145 ns a cell (0.13-0.156)
#: while the matrix takes at most :data:`PRODUCT_CACHE_MIB`, then more as it spills out of
#: the caches, ~0.014 ns a cell per MiB beyond (0.18-0.21 ns at 7.75 MB, 0.36 at 16.5 MB), at
#: most ~0.4 (0.32 on census at 43,842 rows); the sparse product reads 12 bytes (a 4-byte row
#: index and an 8-byte 1.0) and gathers one ``D*y`` per row of a column's rarer value, ~0.9
#: ns each, and ~8 us of calls whatever its size (scipy's product and the edges from the
#: sums). Once a fit: building the sparse block costs ~4 ns a cell more than the product's
#: matrix (2.9-4.4, from whole fits of 100 and 400 rounds: its distinct columns, the rows of
#: each one's rarer value).
#: :func:`sparse_is_faster` compares the two over a fit's rounds, and takes the sparse block
#: only where it saves at least :data:`SPARSE_MARGIN` of the time: the estimates are good to
#: about 10 %, and a near tie is not worth sums that differ in their last bits.
PRODUCT_NS = 0.145
PRODUCT_CACHE_MIB = 4.0
PRODUCT_SPILL_NS = 0.014
PRODUCT_MAX_NS = 0.4
SPARSE_NS = 0.9
SPARSE_ROUND_NS = 8000.0
SPARSE_BUILD_NS = 4.0
SPARSE_MARGIN = 0.1


def sparse_is_faster(n_rows: int, n_columns: int, n_rare: int, rounds: int) -> bool:
    """Whether the sparse block, built once and read ``rounds`` times, sums the edges of
    ``n_columns`` 0/1 columns of ``n_rows`` rows whose rarer values fill ``n_rare`` cells
    clearly faster than the product, by the costs above.

    Measured over whole 400-round fits (paired CPU time): the product is faster at Table
    1's sizes (MNIST 1 vs 7 at 1,000 rows by 5 %: the sparse edges' 4-14 % a round do not
    pay for building the block; census, splice, the small blocks of breast cancer and heart
    by more); the sparse block by 3-8 % from 2,000-4,000 rows on census and MNIST, never on
    splice's 25 % dense columns; over 100 rounds the product up to 4,000 rows of census. At
    full size (census's 43,842 rows) the sparse edges take a quarter of the time.
    """
    cells = n_rows * n_columns
    spill = max(8.0 * cells / 2**20 - PRODUCT_CACHE_MIB, 0.0)
    per_cell = min(PRODUCT_NS + PRODUCT_SPILL_NS * spill, PRODUCT_MAX_NS)
    sparse = SPARSE_BUILD_NS * cells + rounds * (SPARSE_ROUND_NS + SPARSE_NS * n_rare)
    return sparse <= (1.0 - SPARSE_MARGIN) * rounds * per_cell * cells


#: The approximations are timed only for sign blocks of at least this many cells: below it
#: a round's product takes a few microseconds, less than what re-checking the contenders costs.
FLOAT32_MIN_CELLS = 50_000
#: What a round on an approximation costs beyond its sums (the deciding candidates' bounds,
#: their products over a few aligned row groups, the float32 copy of ``D*y``), in seconds:
#: ~25 us inside 400-round fits on a 2.5 GHz Xeon (census at 1,000 rows, whose float32
#: product saves ~10 us a round, was 14 % slower with it at 10 us here; ``python
#: benchmarks/engine.py --blocks census:1000`` times a round's edges, refinement included).
#: An approximation is used only where it saves more.
REFINE_SECONDS = 25e-6
#: Aligned row groups tried by :func:`exact_row_group`, smallest first.
ROW_GROUPS = (4, 8, 16, 32)


def _exact_rows(signs: np.ndarray, wy: np.ndarray, rows: np.ndarray, group: int) -> np.ndarray:
    """``(signs @ wy)[rows]`` with the bits of the whole product, from products over the
    aligned groups of ``group`` rows that hold ``rows``.

    The last group, past the last whole one, is as short as in the whole product (BLAS sums
    it by its remainder path) and is taken with the group before it (numpy computes a
    one-row product as a dot product). ``rows`` are a round's few deciding rows: a product
    over a view of each group's rows costs less than gathering them.
    """
    n = signs.shape[0]
    values: dict[int, tuple[int, np.ndarray]] = {}
    out = np.empty(rows.size)
    for i, row in enumerate(rows.tolist()):
        g = row // group
        if g not in values:
            start = g * group
            stop = start + group
            if stop > n and g > 0:  # the short last group, with the one before it
                start -= group
            values[g] = (start, signs[start : min(stop, n)] @ wy)
        start, sums = values[g]
        out[i] = sums[row - start]
    return out


def _reproduces(signs: np.ndarray, wy: np.ndarray, group: int, rng: np.random.Generator) -> bool:
    """Whether ``_exact_rows`` gives the whole product's bits on some subsets of rows."""
    full = signs @ wy
    n = signs.shape[0]
    for size in (1, 2, 3, 5, 9, 33):  # in any order, repeated (as a block's ``row_of``)
        rows = rng.choice(n, size)
        if not np.array_equal(_exact_rows(signs, wy, rows, group), full[rows]):
            return False
    return np.array_equal(_exact_rows(signs, wy, np.arange(n), group), full)


@functools.cache
def _blas() -> threadpoolctl.ThreadpoolController:
    """The BLAS libraries loaded (numpy's), whose thread counts :func:`blas_threads` reads."""
    return threadpoolctl.ThreadpoolController().select(user_api="blas")


def blas_threads() -> int:
    """How many threads the BLAS runs a product on now (read each time: a job's limit,
    :func:`~budgetboost.estimators.contract.threads.limit_threads`, may change it)."""
    return max((lib.num_threads for lib in _blas().lib_controllers), default=1)


@functools.cache
def exact_row_group() -> int | None:
    """The row group whose aligned products give the bits of a whole float64 product on this
    machine's BLAS, or None (then the float32 product is never used).

    OpenBLAS's matrix-vector kernels sum a row the same way whatever the rows around it as
    long as it sits in the same aligned group of rows (4 on Haswell's kernel: a row's sum in
    a product over a subset of rows differs in the last bits for ~60 % of rows otherwise).
    Checked once per process on random sign matrices of a range of shapes (seeded), trying
    :data:`ROW_GROUPS` in turn; :meth:`StumpSpace.from_matrix` checks the fit's matrix too.
    Only for a BLAS on one thread (the pipeline's jobs, the benchmarks): on more, it splits a
    product's rows among its threads by the product's size, and the float32 product is
    never used.
    """
    rng = np.random.default_rng(20261127)
    shapes = [(1, 7), (3, 300), (6, 2500), (37, 9000), (130, 301), (515, 2500), (1001, 999)]
    samples = []
    for n, m in shapes:
        signs = np.where(rng.random((n, m)) < rng.random(), 1.0, -1.0)
        wy = rng.random(m) * np.where(rng.random(m) < 0.5, 1.0, -1.0)
        samples.append((signs, wy / np.abs(wy).sum()))
    for group in ROW_GROUPS:
        if all(_reproduces(signs, wy, group, rng) for signs, wy in samples):
            return group
    return None


def _median_seconds(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _rare_cells(signs: np.ndarray) -> int:
    """Cells of the rarer value of each row of a +-1 matrix (what the sparse sums read)."""
    ones = np.count_nonzero(signs > 0, axis=1)
    return int(np.minimum(ones, signs.shape[1] - ones).sum())


def fastest_kernel(signs: np.ndarray, repeats: int = 5) -> str:
    """The kernel a round's edges of the sign block ``signs`` (n_distinct x m) take least
    time with on this machine: ``"float64"`` (the canonical product), ``"float32"`` or
    ``"sparse"`` (approximations, each with a round's refinement, :data:`REFINE_SECONDS`).

    Timed here, medians of ``repeats``: which is fastest depends on the caches (a matrix past
    the L2 reads memory at half the speed in float64, and float32 halves its bytes) and on how
    fast the machine gathers (the sparse sums read a row index and a value per rare cell).
    The sparse sums are taken only where they save :data:`SPARSE_MARGIN` of the faster
    product's time, and built and timed only where two estimates say they may (so that a
    fit pays nothing for them where they cannot win): the fixed one (:data:`SPARSE_NS` a rare
    cell, :data:`SPARSE_ROUND_NS` a round), then this machine's rate
    (``_sparse_seconds_per_cell``). The answer never changes a result (module
    docstring), only how fast the rounds run.
    """
    if signs.size < FLOAT32_MIN_CELLS:
        return "float64"
    wy = np.full(signs.shape[1], 1.0 / signs.shape[1])
    signs32 = signs.astype(np.float32)
    wy32 = wy.astype(np.float32)
    products = {"float64": lambda: signs @ wy, "float32": lambda: signs32 @ wy32}
    times: dict[str, list[float]] = {kernel: [] for kernel in products}
    for _ in range(repeats):  # in turn: a drift of the machine hits both alike
        for kernel, product in products.items():
            start = time.perf_counter()
            product()
            times[kernel].append(time.perf_counter() - start)
    seconds = {kernel: statistics.median(taken) for kernel, taken in times.items()}
    seconds["float32"] += REFINE_SECONDS
    best = min(seconds, key=seconds.get)
    rare = _rare_cells(signs)
    target = (1.0 - SPARSE_MARGIN) * seconds[best] - REFINE_SECONDS
    # the fixed estimate first (no scipy import), then this machine's rate, then the block
    if (SPARSE_ROUND_NS + SPARSE_NS * rare) * 1e-9 < target:
        if SPARSE_ROUND_NS * 1e-9 + _sparse_seconds_per_cell() * rare < target:
            sparse = _SparseBlock.build(signs.T > 0, slice(0, signs.shape[0]))
            out = np.empty(signs.shape[0])
            if _median_seconds(lambda: sparse.edges(wy, 1.0, out), repeats) < target:
                return "sparse"
    return best


#: The sparse matrix ``_sparse_seconds_per_cell`` times: rows x columns, density.
SPARSE_PROBE = (500, 1000, 0.1)


@functools.cache
def _sparse_seconds_per_cell() -> float:
    """Seconds a stored entry of a sparse matrix-vector product takes on this machine (a
    seeded random probe, :data:`SPARSE_PROBE`, timed once per process: medians of 7)."""
    import scipy.sparse

    n, m, density = SPARSE_PROBE
    rng = np.random.default_rng(20261127)
    probe = scipy.sparse.csr_array((rng.random((n, m)) < density).astype(np.float64))
    wy = rng.random(m)
    return _median_seconds(lambda: probe @ wy, 7) / probe.nnz


def _distinct(B: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """The distinct columns of a 0/1 matrix ``B``, or None when all are distinct.

    Columns identical on the training rows have the same edges: a block sums each once.
    Returns ``(first, inverse)``: the first column of each distinct pattern (in the order of
    the patterns) and, per column, the index of its pattern in ``first``.
    """
    packed = np.ascontiguousarray(np.packbits(B, axis=0).T)
    keys = packed.view(np.dtype((np.void, packed.shape[1]))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if first.size == B.shape[1]:
        return None
    return first, inverse.ravel()


#: Unit roundoff of float32 and float64.
_U32, _U64 = 2.0**-24, 2.0**-53


def _gamma(n: int, u: float) -> float:
    """Higham's ``gamma_n = n u / (1 - n u)``: the relative error bound of a sum of ``n + 1``
    terms in any order, with respect to the sum of their absolute values."""
    return n * u / (1.0 - n * u)


@dataclass(frozen=True, eq=False)
class _SignBlock:
    """0/1 columns by a matrix-vector product over their distinct +-1 columns."""

    positions: slice  # the candidates this block fills: a contiguous range
    signs: np.ndarray  # (n_distinct, m) float64 +-1, C order
    row_of: np.ndarray | None  # (n_candidates,) row of ``signs`` per column, or None
    kernel: str = "float64"  # :func:`fastest_kernel`: "float32" and "sparse" approximate
    signs32: np.ndarray | None = None  # the float32 copy, where ``kernel`` is "float32"
    sparse: _SparseBlock | None = None  # the distinct rows as sparse sums, for "sparse"
    group: int = 0  # :func:`exact_row_group`, where ``kernel`` approximates

    @classmethod
    def build(cls, B: np.ndarray, positions: slice) -> _SignBlock:
        if B.shape[1] == 0:
            return cls(positions, np.empty((0, B.shape[0])), None)
        distinct = _distinct(B)
        if distinct is None:  # all distinct: keep the columns in their own order
            signs, row_of = np.ascontiguousarray(2.0 * B.T - 1.0), None
        else:
            first, row_of = distinct
            signs = np.ascontiguousarray(2.0 * B[:, first].T - 1.0)
        group = exact_row_group() if blas_threads() == 1 else None
        kernel = "float64" if group is None else fastest_kernel(signs)
        if kernel != "float64":
            rng = np.random.default_rng(signs.shape[0])
            wy = rng.random(signs.shape[1])
            if _reproduces(signs, wy / wy.sum(), group, rng):
                if kernel == "float32":
                    return cls(
                        positions, signs, row_of, kernel, signs.astype(np.float32), None, group
                    )
                sparse = _SparseBlock.build(signs.T > 0, slice(0, signs.shape[0]))
                return cls(positions, signs, row_of, kernel, None, sparse, group)
        return cls(positions, signs, row_of)

    def edges(self, wy: np.ndarray, total: float, out: np.ndarray) -> None:
        """Write the block's edges into ``out`` (its slice of the candidates)."""
        if self.row_of is None:
            np.matmul(self.signs, wy, out=out)
        else:
            np.take(self.signs @ wy, self.row_of, out=out)

    def approximate_edges(self, wy: np.ndarray, out: np.ndarray) -> float:
        """Write the approximation's edges into ``out``; return their error bound, for ``sum
        |wy| = 1`` (then ``|edge| <= 1``).

        The canonical float64 sum is within ``gamma_m`` of the exact edge (Higham's
        ``gamma_n = n u / (1 - n u)``, ``_gamma``). The float32 product sums ``m`` terms
        ``+-wy_i`` rounded to float32 in float32 (any order): within ``gamma_(m-1)`` (1 plus a
        rounding ``u`` a term) plus ``u``, ``u = 2^-24``. The sparse sums, ``2 r - sum(wy)``
        (``_SparseBlock``) with ``r`` and the total each within ``gamma_m`` and one
        rounding of a value at most 3, are within ``3 gamma_m + 3 u (1 + gamma_m)``, ``u =
        2^-53``. The bound returned is twice the sum of the two.
        """
        m = self.signs.shape[1]
        canonical = _gamma(m, _U64)
        if self.kernel == "float32":
            edge = self.signs32 @ wy.astype(np.float32)
            error = _U32 + _gamma(m - 1, _U32) * (1.0 + _U32)
        else:
            edge = np.empty(self.signs.shape[0])
            self.sparse.edges(wy, np.add.reduce(wy), edge)
            error = 3.0 * _gamma(m, _U64) + 3.0 * _U64 * (1.0 + _gamma(m, _U64))
        if self.row_of is None:
            out[:] = edge
        else:
            out[:] = edge.take(self.row_of)
        return 2.0 * (error + canonical)

    def exact(self, wy: np.ndarray, local: np.ndarray) -> np.ndarray:
        """The canonical edges of the block's candidates ``local`` (sorted, distinct)."""
        rows = local if self.row_of is None else self.row_of[local]
        return _exact_rows(self.signs, wy, rows, self.group)


@dataclass(frozen=True, eq=False)
class _SparseBlock:
    """0/1 columns by sums of ``D*y`` over the rows of each column's rarer value.

    With ``r`` the sum over the rows where a column has its rarer value, its edge is ``2 r -
    sum(D*y)`` when that value is 1 and ``sum(D*y) - 2 r`` when it is 0: a sparse
    matrix-vector product reads a stored entry per such row instead of a dense cell per
    row, and a column and its complement share their row of the matrix.
    """

    positions: slice
    rare: scipy.sparse.csr_array  # (n_distinct, m): 1.0 at the rows of the rarer value
    sign: np.ndarray  # (n_candidates,) +1 where the rarer value is 1, -1 where it is 0
    row_of: np.ndarray | None  # (n_candidates,) row of ``rare`` per column, or None

    @classmethod
    def build(cls, B: np.ndarray, positions: slice) -> _SparseBlock:
        """From the 0/1 columns ``B`` (m x n_columns, bool) of the candidates ``positions``.

        Indices are 32-bit while they fit (the product reads 4 bytes per entry, not 8).
        """
        import scipy.sparse

        m = B.shape[0]
        zero_rarer = 2 * np.count_nonzero(B, axis=0) > m
        R = B ^ zero_rarer  # (m, n_columns): True at the rows of each column's rarer value
        sign = np.where(zero_rarer, -1.0, 1.0)
        distinct = _distinct(R)
        row_of = None
        if distinct is not None:
            first, row_of = distinct
            R = R[:, first]
        rows_of_column = np.ascontiguousarray(R.T)
        counts = np.count_nonzero(rows_of_column, axis=1)
        index = np.int32 if max(m, int(counts.sum())) < np.iinfo(np.int32).max else np.int64
        indptr = np.concatenate([[0], np.cumsum(counts)]).astype(index)
        indices = np.nonzero(rows_of_column)[1].astype(index)  # row order within a column
        rare = scipy.sparse.csr_array(
            (np.ones(indices.size), indices, indptr), shape=(R.shape[1], m)
        )
        return cls(positions, rare, sign, row_of)

    def edges(self, wy: np.ndarray, total: float, out: np.ndarray) -> None:
        """Write ``sign * (2 * (sum over the rarer rows) - sum(D*y))`` into ``out``."""
        edge = self.rare @ wy
        edge += edge  # doubling is exact
        edge -= total
        if self.row_of is None:
            np.multiply(edge, self.sign, out=out)
        else:
            np.take(edge, self.row_of, out=out)
            out *= self.sign


@dataclass(frozen=True, eq=False)
class _SortedBlock:
    """Columns by cumulative sums of ``D*y`` over rows presorted by each column's value.

    ``below[c, k]`` is the sum over the first ``k + 1`` rows in column ``c``'s order (one
    C-ordered row per column, so each sum runs over contiguous memory); the candidate
    ``(c, v)`` reads it at ``k`` = its last sorted position below ``v``, through one flat
    index into ``below`` (``flat = c * m + k``).
    """

    positions: slice
    order: np.ndarray  # (n_columns, m) argsort of each column, C order
    flat: np.ndarray  # (n_candidates,) flat index into the (n_columns, m) cumulative sums

    @classmethod
    def build(
        cls, order: np.ndarray, row: np.ndarray, col: np.ndarray, positions: slice
    ) -> _SortedBlock:
        """From ``order`` (m, n_columns) and each candidate's sorted position and column."""
        return cls(positions, np.ascontiguousarray(order.T), col * order.shape[0] + row)

    def edges(self, wy: np.ndarray, total: float, out: np.ndarray) -> None:
        """Write ``sum(D*y) - 2 * (sum below the threshold)`` into ``out``.

        The sums run over ``2 D*y`` (doubling is exact, so they are exactly twice the sums
        of ``D*y``): one pass over the rows instead of one over the candidates.
        """
        twice_below = np.add.accumulate((wy + wy).take(self.order), axis=1)
        twice_below.take(self.flat, out=out)
        np.subtract(total, out, out=out)


def _chain_block(
    B: np.ndarray, starts: np.ndarray, lengths: np.ndarray, positions: slice
) -> _SortedBlock:
    """Chains of nested 0/1 columns as one sorted block over their rows' *levels*.

    A row's level in a chain is how many of the chain's columns it has; column ``t`` of the
    chain is 1 exactly for rows of level > ``t``, so the rows below its threshold are the
    ``count(level <= t)`` first rows in level order (at least one, since a chain's columns are
    not constant). One cumulative sum over rows x chains then serves every column of a chain.
    """
    levels = np.add.reduceat(B.view(np.uint8), starts, axis=1, dtype=np.int32)  # (m, chains)
    order = np.argsort(levels, axis=0, kind="stable")
    chain = np.repeat(np.arange(starts.size), lengths)
    step = np.arange(lengths.sum()) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    # rows of level <= t in chain c, from one histogram of (chain, level) pairs
    offsets = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]])
    hist = np.bincount((levels + offsets).ravel(), minlength=int((lengths + 1).sum()))
    cumulative = np.concatenate([[0], np.cumsum(hist)])
    row = cumulative[offsets[chain] + step + 1] - cumulative[offsets[chain]] - 1
    return _SortedBlock.build(order, row, chain, positions)


def _chains(B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and lengths of maximal runs of columns each nested in the previous one."""
    nested = np.all(B[:, 1:] <= B[:, :-1], axis=0)
    breaks = np.flatnonzero(~nested) + 1
    starts = np.concatenate([[0], breaks])
    lengths = np.diff(np.concatenate([starts, [B.shape[1]]]))
    return starts, lengths


@dataclass(frozen=True, eq=False)
class StumpSpace:
    """Candidate thresholds over the columns of a training matrix.

    Attributes
    ----------
    column, threshold : ndarray of shape (n_candidates,)
        Column index and threshold of every candidate, grouped by the block that computes
        their edges (chains of 0/1 columns, other 0/1 columns, then the others). Selection
        never depends on this order: ties are broken by column and threshold.
    """

    column: np.ndarray
    threshold: np.ndarray
    blocks: tuple
    #: whether a block reads ``sum(D*y)`` (the product alone does not)
    needs_total: bool = True

    @classmethod
    def from_matrix(cls, X: np.ndarray, rounds: int = 500) -> StumpSpace:
        """Build the stump space of a finite 2-d float matrix ``X`` (m x n) for a fit of at
        most ``rounds`` rounds (which weighs the blocks' build against their rounds)."""
        is_binary = np.logical_or(X == 0, X == 1).all(axis=0)
        has_both = X.max(axis=0) > X.min(axis=0)  # constant columns give no stump
        binary = np.flatnonzero(is_binary & has_both)
        numeric = np.flatnonzero(~is_binary & has_both)
        blocks, columns, thresholds = [], [], []

        def add(build, column: np.ndarray, threshold: np.ndarray, *args) -> None:
            start = sum(c.size for c in columns)
            blocks.append(build(*args, slice(start, start + column.size)))
            columns.append(column)
            thresholds.append(threshold)

        # chains need B in C order (their levels are sums along rows: compress keeps C
        # order), the sign block in F order (its columns are packed: a fancy index gives F)
        B = X.compress(is_binary & has_both, axis=1) != 0
        starts, lengths = _chains(B) if binary.size else (np.empty(0, int), np.empty(0, int))
        long = lengths >= MIN_CHAIN
        in_chain = np.repeat(long, lengths)
        if long.any():
            chain_starts = np.cumsum(np.concatenate([[0], lengths[long]]))[:-1]
            add(
                _chain_block,
                binary[in_chain],
                np.ones(in_chain.sum()),
                B.compress(in_chain, axis=1),
                chain_starts,
                lengths[long],
            )
        if (~in_chain).any():
            loose = B[:, ~in_chain]
            count = np.count_nonzero(loose, axis=0)
            n_rare = int(np.minimum(count, loose.shape[0] - count).sum())
            faster = sparse_is_faster(loose.shape[0], loose.shape[1], n_rare, rounds)
            block = _SparseBlock if faster else _SignBlock
            add(block.build, binary[~in_chain], np.ones(loose.shape[1]), loose)

        order = np.argsort(X[:, numeric], axis=0, kind="stable")
        sorted_vals = np.take_along_axis(X[:, numeric], order, axis=0)
        # a threshold sits at every sorted position k >= 1 whose value differs from k-1
        col, pos = np.nonzero((sorted_vals[1:] > sorted_vals[:-1]).T)  # column by column
        if col.size:
            add(_SortedBlock.build, numeric[col], sorted_vals[pos + 1, col], order, pos, col)

        column = np.concatenate([np.empty(0, np.intp), *columns]).astype(np.intp)
        threshold = np.concatenate([np.empty(0), *thresholds]).astype(np.float64)
        needs_total = any(not isinstance(block, _SignBlock) for block in blocks)
        return cls(column, threshold, tuple(blocks), needs_total)

    @property
    def n_candidates(self) -> int:
        return int(self.column.size)

    def edges(self, wy: np.ndarray) -> np.ndarray:
        """Edges of every candidate with polarity +1, for ``wy = D * y`` (length m)."""
        total = np.add.reduce(wy) if self.needs_total else 0.0
        out = np.empty(self.column.size)
        for block in self.blocks:
            block.edges(wy, total, out[block.positions])
        return out

    @functools.cached_property
    def _approximate_blocks(self) -> tuple[_SignBlock, ...]:
        return tuple(b for b in self.blocks if getattr(b, "kernel", "float64") != "float64")

    @property
    def approximate(self) -> bool:
        """Whether :meth:`approximate_edges` is faster than :meth:`edges` here (a sign block
        with a float32 product or sparse sums, module docstring)."""
        return bool(self._approximate_blocks)

    def approximate_edges(self, wy: np.ndarray) -> tuple[np.ndarray, float]:
        """Edges as :meth:`edges`, the approximate blocks' within the bound returned of
        theirs, for ``wy = D * y`` with ``sum |wy| = 1`` (the other blocks' are canonical)."""
        total = np.add.reduce(wy) if self.needs_total else 0.0
        out = np.empty(self.column.size)
        error = 0.0
        approximate = self._approximate_blocks
        for block in self.blocks:
            if block in approximate:
                error = max(error, block.approximate_edges(wy, out[block.positions]))
            else:
                block.edges(wy, total, out[block.positions])
        return out, error

    def refine(self, wy: np.ndarray, gamma: np.ndarray, candidates: np.ndarray) -> None:
        """Set ``gamma`` at ``candidates`` (sorted, distinct) to their canonical edges, bit
        for bit those of :meth:`edges`."""
        listed = candidates.tolist()
        for block in self._approximate_blocks:
            start = block.positions.start
            lo = bisect.bisect_left(listed, start)
            hi = bisect.bisect_left(listed, block.positions.stop, lo)
            if hi > lo:
                inside = candidates[lo:hi]
                gamma[inside] = block.exact(wy, inside - start)


def stump_outputs(
    X: np.ndarray, feature: np.ndarray, threshold: np.ndarray, polarity: np.ndarray
) -> np.ndarray:
    """Outputs ``h_t(x_i)`` in {-1, +1} of stumps ``t`` on rows ``i``: shape (m, T).

    ``above * 2 p - p`` is ``p`` or ``-p`` exactly (a power-of-two scaling and Sterbenz's
    lemma) in two passes over the (m, T) cells, where ``where(above, 1, -1) * p`` takes
    three and its broadcast choice is several times slower (evaluation's hot spot).
    """
    above = X[:, feature] >= threshold
    polarity = np.asarray(polarity, dtype=np.float64)
    out = np.multiply(above, 2.0 * polarity)
    out -= polarity
    return out
