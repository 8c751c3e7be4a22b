"""Speed of the boosting engine (the core engine's speed).

Prints, measured in the same run (medians of repeated timings, one thread everywhere):

1. On binarized sonar (trial 0's 100 training rows x 11,196 0/1 columns), 400 rounds of
   unbudgeted ``adaboost``:

   - the ratio to scikit-learn's ``AdaBoostClassifier(DecisionTreeClassifier(max_depth=1))``
     with 400 estimators on the same matrix (target: >= 100x faster);
   - the ratio to 400 bare ``X.T @ w`` products on that matrix (target: <= 1.5x).

2. Per Table 1 dataset (trial 0's training rows of the binarized data), 400 rounds of
   unbudgeted AdaBoost stumps, ``BudgetedBoost(criterion="adaboost", max_rounds=400)``,
   against ``lightgbm.train`` with depth-1 trees for 400 rounds on the same rows (target:
   >= 2x faster on every dataset). Both timings include their data preparation: our input
   checks and stump space, LightGBM's ``Dataset`` construction (binning). LightGBM runs in
   the faster of its two layouts on the dataset (``force_col_wise`` and ``force_row_wise``
   timed first, medians); then the two runs of a dataset alternate, and the ratio is the
   median of the paired ratios. Each row names the kernel the engine picks on this machine
   for the sign block (float64, float32 or sparse:
   :func:`budgetboost.estimators.boosting.stumps.fastest_kernel`, timed when the space is
   built; the results are the float64 product's whichever it picks).

3. With ``--blocks DATASET:ROWS ...``: 400-round fits on trial 0's split with ROWS training
   rows, the 0/1 columns outside chains summed by the product (in the kernel this machine
   picks) and by the sparse block (paired medians of the whole fit, blocks built once, and of
   a round's edges alone, their refinement included), and whether the block
   :func:`budgetboost.estimators.boosting.stumps.sparse_is_faster` picks is the faster one measured
   (re-tune its constants from these).

BLAS and OpenMP are limited to one thread, as LightGBM's ``num_threads=1`` and as the
pipeline's one-core jobs (``workflow/scripts/train.py``).

Run from the repository root: ``python benchmarks/engine.py [--repeats 5]``
(``--datasets sonar,heart`` for a subset, ``--skip-sklearn``, ``--skip-lightgbm``; ``--clock
cpu`` times CPU instead of wall time, for a machine other jobs share; ``--blocks census:1000
ocr17:2000`` part 3 alone).
"""

from __future__ import annotations

import os

# before numpy loads its BLAS: one thread, like the LightGBM runs and the pipeline's jobs
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import functools  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from budgetboost import BudgetedBoost  # noqa: E402
from budgetboost.data.datasets import BinarizedData, build_binarized  # noqa: E402
from budgetboost.data.registry import load_registry, paper_datasets  # noqa: E402
from budgetboost.data.splits import split_indices  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 400
#: The datasets of Table 1, in its order (the registry's).
TABLE1 = paper_datasets(load_registry(ROOT / "config" / "datasets.yaml"))
#: Depth-1 trees (stumps) in LightGBM, one thread, no minimum leaf size.
LIGHTGBM_PARAMS = {
    "objective": "binary",
    "num_leaves": 2,
    "max_depth": 1,
    "num_threads": 1,
    "deterministic": True,
    "min_data_in_leaf": 1,
    "min_sum_hessian_in_leaf": 0,
    "verbose": -1,
}


#: LightGBM's two histogram layouts; each dataset is timed in the faster one.
LIGHTGBM_LAYOUTS = ("force_col_wise", "force_row_wise")


def kernel_of(X: np.ndarray) -> str:
    """The kernel :meth:`StumpSpace.from_matrix` picks on this machine for ``X``'s sign
    block (a fit's own choice, timed again here), or '-' when it has none."""
    from budgetboost.estimators.boosting import stumps

    space = stumps.StumpSpace.from_matrix(X.astype(np.float64), ROUNDS)
    signs = [block for block in space.blocks if isinstance(block, stumps._SignBlock)]
    return signs[0].kernel if signs else "-"


def trial_data(
    name: str, trial: int = 0, train_size: int | None = None
) -> tuple[BinarizedData, np.ndarray, np.ndarray]:
    """A binarized Table 1 dataset and the (train, test) row indices of one trial (of
    ``train_size`` training rows instead of Table 1's, the test rows as many as are left)."""
    entry = load_registry(ROOT / "config" / "datasets.yaml")[name]
    data = build_binarized(name, entry, ROOT)
    n_train = entry["train_size"] if train_size is None else train_size
    n_test = min(entry["test_size"], len(data.y) - n_train)
    train, test = split_indices(name, trial, len(data.y), n_train, n_test)
    return data, train, test


#: The clock of every timing: wall time, or with ``--clock cpu`` the process's CPU time
#: (the same on an idle machine for one thread; on a shared one it leaves out the time the
#: process waits for a core).
CLOCK = {"wall": time.perf_counter, "cpu": time.process_time}
clock = CLOCK["wall"]


def median_seconds(fn, repeats: int) -> float:
    """Median time of ``repeats`` calls of ``fn``."""
    times = []
    for _ in range(repeats):
        start = clock()
        fn()
        times.append(clock() - start)
    return statistics.median(times)


def paired_seconds(fn_a, fn_b, repeats: int) -> tuple[float, float, float]:
    """Medians of ``fn_a`` and ``fn_b`` timed in turn, and the median of ``b / a`` per pair."""
    a, b = [], []
    for _ in range(repeats):
        for fn, times in ((fn_a, a), (fn_b, b)):
            start = clock()
            fn()
            times.append(clock() - start)
    ratios = [tb / ta for ta, tb in zip(a, b, strict=True)]
    return statistics.median(a), statistics.median(b), statistics.median(ratios)


def sonar_against_sklearn(repeats: int, skip_sklearn: bool) -> None:
    """Part 1: sonar against 400 bare products and scikit-learn's AdaBoost."""
    data, train, _ = trial_data("sonar")
    X, y = data.X[train].astype(np.float64), data.y[train].astype(np.int64)
    print(f"binarized sonar training matrix: {X.shape[0]} x {X.shape[1]} (0/1)")

    ours = median_seconds(
        lambda: BudgetedBoost(criterion="adaboost", max_rounds=ROUNDS).fit(X, y), repeats
    )
    model = BudgetedBoost(criterion="adaboost", max_rounds=ROUNDS).fit(X, y)
    print(
        f"budgetboost adaboost, {len(model.alpha_)} rounds: median {ours * 1e3:.1f} ms "
        f"(stop: {model.stop_reason_})"
    )

    rng = np.random.default_rng(0)
    w = rng.random(X.shape[0])

    def bare_products():
        for _ in range(ROUNDS):
            X.T @ w

    bare = median_seconds(bare_products, repeats)
    print(f"{ROUNDS} bare X.T @ w products: median {bare * 1e3:.1f} ms")
    print(f"ratio engine / bare products: {ours / bare:.2f}x (target <= 1.5x)")

    if skip_sklearn:
        return
    try:
        from sklearn.ensemble import AdaBoostClassifier
        from sklearn.tree import DecisionTreeClassifier
    except ImportError:
        print("scikit-learn not installed: skipping the comparison")
        return

    def sklearn_fit():
        return AdaBoostClassifier(DecisionTreeClassifier(max_depth=1), n_estimators=ROUNDS).fit(
            X, y
        )

    sk = median_seconds(sklearn_fit, max(1, repeats // 2))
    sk_model = sklearn_fit()
    print(
        f"scikit-learn AdaBoostClassifier(stumps, {ROUNDS}): median {sk:.2f} s "
        f"({len(sk_model.estimators_)} estimators)"
    )
    print(f"speed-up over scikit-learn: {sk / ours:.0f}x (target >= 100x)")
    agree = np.mean(sk_model.predict(X) == model.predict(X))
    print(
        f"training predictions agreeing with scikit-learn: {agree:.3f}; training error "
        f"ours {np.mean(model.predict(X) != y):.3f}, scikit-learn "
        f"{np.mean(sk_model.predict(X) != y):.3f}"
    )


def table1_against_lightgbm(datasets: list[str], repeats: int) -> None:
    """Part 2: 400 rounds of stumps per dataset, ours against LightGBM's depth-1 trees."""
    try:
        import lightgbm
    except ImportError:
        print("lightgbm not installed: skipping the comparison (pip install lightgbm)")
        return
    print(
        f"\n{ROUNDS} rounds of stumps on trial 0's training rows, medians of {repeats} "
        f"(lightgbm {lightgbm.__version__}, one thread)"
    )
    print(
        f"{'dataset':<14}{'rows x cols':>13}{'ours ms':>10}{'lightgbm ms':>13}"
        f"{'ratio':>8}{'ours us/round':>15}{'kernel':>9}{'lightgbm':>10}"
    )
    ratios = {}
    for name in datasets:
        data, train, _ = trial_data(name)
        X, y = data.X[train], data.y[train]  # the binarized 0/1 rows (uint8), as stored
        label = (y > 0).astype(np.float64)

        def ours(X=X, y=y):
            return BudgetedBoost(criterion="adaboost", max_rounds=ROUNDS).fit(X, y)

        def lightgbm_fit(X=X, label=label, layout="force_col_wise"):
            params = {**LIGHTGBM_PARAMS, layout: True}
            dataset = lightgbm.Dataset(X, label=label, params=params)
            return lightgbm.train(params, dataset, num_boost_round=ROUNDS)

        ours()  # warm-up (first calls, page faults)
        layouts = {}
        for layout in LIGHTGBM_LAYOUTS:  # LightGBM in its faster histogram layout
            lightgbm_fit(layout=layout)
            fit = functools.partial(lightgbm_fit, layout=layout)
            layouts[layout] = median_seconds(fit, repeats)
        fastest = min(layouts, key=layouts.get)
        t_ours, t_lgb, ratio = paired_seconds(
            ours, functools.partial(lightgbm_fit, layout=fastest), repeats
        )
        ratios[name] = ratio
        rounds = len(ours().alpha_)
        kernel = kernel_of(X)
        print(
            f"{name:<14}{f'{X.shape[0]} x {X.shape[1]}':>13}{t_ours * 1e3:>10.1f}"
            f"{t_lgb * 1e3:>13.1f}{ratio:>7.1f}x{t_ours / rounds * 1e6:>15.0f}"
            f"{kernel:>9}{fastest.removeprefix('force_'):>10}",
            flush=True,
        )
    print("ratio: LightGBM time / ours, median of the paired runs (target >= 2x)")
    print(
        "kernel: what this machine's timing picks for the edges of the fit's 0/1 columns "
        "(float32, sparse: approximate edges, the deciding ones made exact; '-' no sign "
        "block); "
        "lightgbm: its faster layout here (col_wise or row_wise, medians)"
    )
    worst = min(ratios, key=ratios.get)
    print(f"lowest ratio: {ratios[worst]:.2f}x ({worst})")


def blocks_in_fits(items: list[str], repeats: int) -> None:
    """Part 3: the product against the sparse block inside fits (see the module docstring)."""
    from budgetboost.estimators.boosting import stumps

    spent = {"seconds": 0.0}

    def timed(method):
        def call(self, *args):
            start = clock()
            result = method(self, *args)
            spent["seconds"] += clock() - start
            return result

        return call

    for name in ("edges", "approximate_edges", "refine"):  # a round's edges, any kernel
        setattr(stumps.StumpSpace, name, timed(getattr(stumps.StumpSpace, name)))
    rule = stumps.sparse_is_faster
    print(
        f"\n{ROUNDS}-round fits, product against sparse block, us a round (medians of "
        f"{repeats}): the whole fit (its blocks built once) and the edges alone"
    )
    print(
        f"{'dataset':<14}{'rows':>7}{'columns':>8}{'rare':>8}{'fit: product':>14}{'sparse':>8}"
        f"{'ratio':>7}{'edges: ratio':>14}{'rule':>9}  faster?"
    )
    for item in items:
        name, rows = item.split(":")
        data, train, _ = trial_data(name, train_size=int(rows))
        X, y = data.X[train], data.y[train]
        space = stumps.StumpSpace.from_matrix(X.astype(np.float64))
        loose = [b for b in space.blocks if not isinstance(b, stumps._SortedBlock)]
        if not loose:
            print(f"{name:<14}{len(train):>7}  no 0/1 columns outside chains")
            continue
        B = X[:, space.column[loose[0].positions]] != 0
        count = np.count_nonzero(B, axis=0)
        shape = (B.shape[0], B.shape[1], int(np.minimum(count, B.shape[0] - count).sum()))
        fits: dict[bool, list[float]] = {True: [], False: []}
        edges: dict[bool, list[float]] = {True: [], False: []}
        for _ in range(repeats):
            for sparse in (False, True):
                stumps.sparse_is_faster = lambda *sizes, sparse=sparse: sparse
                spent["seconds"] = 0.0
                start = clock()
                model = BudgetedBoost(criterion="adaboost", max_rounds=ROUNDS).fit(X, y)
                rounds = max(len(model.alpha_), 1)
                fits[sparse].append((clock() - start) / rounds)
                edges[sparse].append(spent["seconds"] / rounds)
        stumps.sparse_is_faster = rule
        product, sparse = (statistics.median(fits[k]) * 1e6 for k in (False, True))
        edge_ratio = statistics.median(edges[False]) / statistics.median(edges[True])
        picked = rule(*shape, ROUNDS)
        right = "yes" if (sparse < product) == picked else "NO"
        if right == "NO" and abs(product / sparse - 1.0) < stumps.SPARSE_MARGIN:
            right = "a tie"  # within the margin the rule keeps the product
        print(
            f"{name:<14}{shape[0]:>7}{shape[1]:>8}{shape[2]:>8}{product:>14.1f}{sparse:>8.1f}"
            f"{product / sparse:>6.2f}x{edge_ratio:>13.2f}x{'sparse' if picked else 'product':>9}"
            f"  {right}",
            flush=True,
        )
    print(
        "ratio: product time / sparse time; rule: the block sparse_is_faster picks for "
        f"{ROUNDS} rounds; a tie: the other block faster by less than the rule's margin"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument(
        "--datasets",
        default=",".join(TABLE1),
        help="comma-separated Table 1 datasets for the LightGBM table",
    )
    parser.add_argument("--skip-sklearn", action="store_true")
    parser.add_argument("--skip-lightgbm", action="store_true")
    parser.add_argument("--clock", choices=sorted(CLOCK), default="wall")
    parser.add_argument(
        "--blocks", nargs="+", metavar="DATASET:ROWS", help="only part 3, at these sizes"
    )
    args = parser.parse_args()
    global clock
    clock = CLOCK[args.clock]
    if args.blocks:
        blocks_in_fits(args.blocks, args.repeats)
        return

    sonar_against_sklearn(args.repeats, args.skip_sklearn)
    if not args.skip_lightgbm:
        table1_against_lightgbm(args.datasets.split(","), args.repeats)


if __name__ == "__main__":
    main()
