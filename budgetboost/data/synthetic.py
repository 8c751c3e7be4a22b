"""``cube``: a synthetic dataset on which reading attributes per example provably pays.

The informative attributes of a row depend on the value of one attribute, the *selector*
(after the CUBE set of the active feature acquisition literature, whose informative features
depend on the class). Thirteen binary attributes, each 0 or 1 with probability 1/2,
independently:

- ``selector``: which pair decides the class;
- ``a1``, ``a2``: where ``selector = 0`` the class is ``a1 AND a2`` (``a1 + a2 >= 2``);
- ``b1``, ``b2``: where ``selector = 1`` the class is ``b1 OR b2`` (``b1 + b2 >= 1``);
- ``noise1`` .. ``noise8``: independent of everything else;

then the class is flipped on each row with probability ``LABEL_NOISE`` = 0.05
(independently), and stored in the column ``class`` (0 or 1; half the rows are 1 in
expectation). Every attribute gives one indicator (``x >= 1``) under the registry's
``distinct`` binarization, so a price per attribute and a price per indicator coincide.

Why AND under one branch and OR under the other: the two branches then differ in their
share of positives (1/4 and 3/4), so the selector alone is the best single split and a
greedy tree finds the adaptive structure (an XOR of the pair would hide the pair from
greedy learners, and test their search rather than adaptivity).

**What a budget of ``k`` attributes can reach** (each attribute costs 1 and is paid once
per example, whatever reads it). Label noise flips a prediction's correctness on 5 % of
the rows whatever the attributes, so a classifier that errs on a share ``e`` of the rows'
noiseless classes errs on ``0.05 + 0.9 e`` of the observed ones; the best classifier of a
set of attributes predicts each cell's majority, and the noise attributes never help. Over
the 32 equally likely values of the five relevant attributes (:func:`best_static_error`,
:func:`best_adaptive_error` enumerate them):

======================  ========  ========  ========  ========  ========
attributes ``k``        1         2         3         4         5
======================  ========  ========  ========  ========  ========
static (a fixed set)    0.275     0.275     0.1625    0.1625    0.05
per example (a tree)    0.275     0.21875   0.05      0.05      0.05
======================  ========  ========  ========  ========  ========

The Bayes error is 0.05 (the label noise). A per-example method reads the selector, then
the pair it names: three attributes reach the Bayes error. A fixed set must hold all five
relevant attributes to do so; the best fixed three (the selector and one pair, e.g.
``{selector, a1, a2}``) decide one branch exactly and predict the other's majority, wrong
on a quarter of its noiseless classes: ``0.05 + 0.9 / 8 = 0.1625``, as does the best fixed
four (``{selector, a1, a2, b1}`` can only guess on the rows ``selector = 1, b1 = 0``, half
of them positive).
One attribute: the selector (``0.05 + 0.9 / 4 = 0.275``); two fixed attributes do no
better, while a tree reading ``a1``, then the selector where ``a1 = 0`` and ``a2`` where
``a1 = 1``, errs on ``3/16`` of the noiseless classes (``0.21875``).

The rows are drawn from ``numpy.random.Generator(PCG64(seed_from_key("synthetic",
"cube")))`` (:mod:`budgetboost.data.seeds`): the same table on every machine.
``python -m budgetboost.data.synthetic resources/cube.parquet`` writes the vendored copy
(``config/datasets.yaml``'s entry ``cube``).

References
----------
H. Shim, S. J. Hwang, E. Yang. Why Pay More When You Can Pay Less: A Joint Learning Framework
for Active Feature Acquisition and Classification. AAAI 2018 (arXiv:1709.05964; the CUBE
synthetic set, whose informative features differ between examples).
"""

from __future__ import annotations

import argparse
import itertools
import os
from functools import cache

import numpy as np
import pandas as pd

from budgetboost.data.io import write_table
from budgetboost.data.seeds import rng_from_key

__all__ = [
    "COLUMNS",
    "KEY",
    "LABEL",
    "LABEL_NOISE",
    "RELEVANT",
    "ROWS",
    "best_adaptive_error",
    "best_static_error",
    "cube_frame",
    "noiseless_class",
    "write_cube",
]

#: Rows of the vendored table: the suite's sizes rule gives it 1,000 training and 500 test
#: rows.
ROWS = 2000
#: Probability that a row's class is flipped: the Bayes error.
LABEL_NOISE = 0.05
#: The seed key of the rows.
KEY = ("synthetic", "cube")
#: The attributes that decide the class, in the order :func:`noiseless_class` reads them.
RELEVANT = ("selector", "a1", "a2", "b1", "b2")
#: Every attribute, in the table's order: the relevant ones, then eight of noise.
COLUMNS = (*RELEVANT, *(f"noise{i}" for i in range(1, 9)))
#: The class column.
LABEL = "class"


def noiseless_class(bits: np.ndarray) -> np.ndarray:
    """The class before label noise: ``a1 AND a2`` where ``selector = 0``, else ``b1 OR b2``.

    Parameters
    ----------
    bits : ndarray of shape (n, 5), values 0/1
        The relevant attributes, in the order of :data:`RELEVANT`.

    Returns
    -------
    ndarray of uint8, shape (n,)
    """
    selector, a1, a2, b1, b2 = np.asarray(bits, dtype=np.uint8).T
    return np.where(selector == 0, a1 & a2, b1 | b2).astype(np.uint8)


def cube_frame(rows: int = ROWS, label_noise: float = LABEL_NOISE) -> pd.DataFrame:
    """The ``cube`` table: :data:`COLUMNS` (uint8 0/1), then :data:`LABEL` (uint8 0/1).

    Drawn from the generator of :data:`KEY`: first every attribute of every row (row-major),
    then one uniform number per row that flips the class where it is below ``label_noise``.
    """
    if rows < 1 or not 0 <= label_noise < 0.5:
        raise ValueError(
            f"cube_frame: rows must be >= 1 and label_noise in [0, 0.5), got rows={rows}, "
            f"label_noise={label_noise}"
        )
    rng = rng_from_key(*KEY)
    bits = (rng.random((rows, len(COLUMNS))) < 0.5).astype(np.uint8)
    flip = (rng.random(rows) < label_noise).astype(np.uint8)
    frame = pd.DataFrame(bits, columns=list(COLUMNS))
    frame[LABEL] = noiseless_class(bits[:, : len(RELEVANT)]) ^ flip
    return frame


def write_cube(path: str | os.PathLike) -> int:
    """Write :func:`cube_frame` to ``path`` (Parquet, byte-identical for a given pyarrow),
    with how it was drawn in the file's metadata; return the row count."""
    frame = cube_frame()
    about = {
        "generator": "budgetboost.data.synthetic.cube_frame",
        "seed_key": list(KEY),
        "rows": ROWS,
        "label_noise": LABEL_NOISE,
    }
    write_table(frame, path, about)
    return len(frame)


# --------------------------------------------------------------------------- the analysis


@cache
def _cells() -> tuple[np.ndarray, np.ndarray]:
    """The 32 equally likely values of the relevant attributes and their noiseless class."""
    bits = np.array(list(itertools.product((0, 1), repeat=len(RELEVANT))), dtype=np.uint8)
    return bits, noiseless_class(bits)


def _leaf_error(rows: np.ndarray) -> float:
    """Share of all 32 cells that the majority class of ``rows`` (cells) gets wrong."""
    _, y = _cells()
    positives = int(y[rows].sum())
    return min(positives, rows.size - positives) / y.size


def _noisy(error: float, label_noise: float) -> float:
    """Error on the observed classes of a classifier with ``error`` on the noiseless ones."""
    return label_noise + (1 - 2 * label_noise) * error


def best_static_error(k: int, label_noise: float = LABEL_NOISE) -> float:
    """Least expected error of any classifier reading the same ``k`` attributes of every row.

    The best fixed set of ``k`` relevant attributes (the noise attributes never help), each
    cell of its values predicted by its majority.
    """
    bits, _ = _cells()
    k = min(int(k), len(RELEVANT))
    best = 0.5
    for chosen in itertools.combinations(range(len(RELEVANT)), k):
        _, cell = np.unique(bits[:, list(chosen)], axis=0, return_inverse=True)
        error = sum(_leaf_error(np.flatnonzero(cell == c)) for c in np.unique(cell))
        best = min(best, error)
    return _noisy(best, label_noise)


def best_adaptive_error(k: int, label_noise: float = LABEL_NOISE) -> float:
    """Least expected error of any classifier reading at most ``k`` attributes per row, each
    chosen after seeing the ones read before: the best decision tree of depth ``k``."""
    bits, _ = _cells()

    def tree(rows: np.ndarray, unread: tuple[int, ...], depth: int) -> float:
        leaf = _leaf_error(rows)
        if depth == 0 or leaf == 0:
            return leaf
        splits = (
            sum(
                tree(rows[bits[rows, j] == v], tuple(u for u in unread if u != j), depth - 1)
                for v in (0, 1)
            )
            for j in unread
        )
        return min([leaf, *splits])

    error = tree(np.arange(bits.shape[0]), tuple(range(len(RELEVANT))), int(k))
    return _noisy(error, label_noise)


def main(argv: list[str] | None = None) -> None:
    """``python -m budgetboost.data.synthetic PATH``: write the ``cube`` table to ``PATH``."""
    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("path", help="the Parquet file to write, e.g. resources/cube.parquet")
    args = parser.parse_args(argv)
    rows = write_cube(args.path)
    print(f"{args.path}: {rows} rows")


if __name__ == "__main__":
    main()
