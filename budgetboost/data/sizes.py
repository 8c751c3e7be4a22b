"""Each dataset's binarized size, its sizes' rule and build time, printed (a check, not a test).

``python -m budgetboost.data.sizes [--registry config/datasets.yaml] [--root .] [names]``
builds every enabled entry of the registry (:func:`budgetboost.data.datasets.build_binarized`)
and prints one line each: rows, indicator features (and the paper's count, for Table 1's
datasets), positive rate, train and test sizes, which rule gave those sizes
(:func:`sizes_rule`) and the seconds the build took.
"""

from __future__ import annotations

from collections.abc import Mapping

from budgetboost.data.datasets import build_binarized
from budgetboost.data.registry import load_registry, suite_sizes

__all__ = ["main", "sizes_rule"]


def main(argv: list[str] | None = None) -> None:
    """Print each enabled dataset's binarized size and build time (a check, not a test).

    ``python -m budgetboost.data.sizes [--registry config/datasets.yaml] [--root .] [names]``
    """
    import argparse
    import time

    parser = argparse.ArgumentParser(description=main.__doc__.splitlines()[0])
    parser.add_argument("--registry", default="config/datasets.yaml")
    parser.add_argument("--root", default=".")
    parser.add_argument("names", nargs="*", help="datasets (default: the enabled ones)")
    args = parser.parse_args(argv)
    registry = load_registry(args.registry)
    names = args.names or [n for n, e in registry.items() if e["enabled"]]
    print(
        f"{'dataset':17s} {'rows':>6s} {'features':>8s} {'paper':>6s} {'positive':>8s} "
        f"{'train':>5s} {'test':>5s} {'sizes':>13s} {'seconds':>7s}"
    )
    for name in names:
        entry = registry[name]
        start = time.perf_counter()
        data = build_binarized(name, entry, args.root)
        seconds = time.perf_counter() - start
        print(
            f"{name:17s} {data.X.shape[0]:6d} {data.X.shape[1]:8d} "
            f"{entry.get('paper_features', ''):>6} {data.meta['positive_rate']:8.3f} "
            f"{entry['train_size']:5d} {entry['test_size']:5d} "
            f"{sizes_rule(entry, data.X.shape[0]):>13s} {seconds:7.2f}"
        )


def sizes_rule(entry: Mapping[str, object], n_rows: int) -> str:
    """Which rule gave an entry's sizes: Table 1's, the suite's rule, or neither."""
    if "paper_features" in entry:
        return "Table 1"
    expected = suite_sizes(n_rows)
    if (entry["train_size"], entry["test_size"]) == expected:
        return "suite rule"
    return f"rule: {expected[0]}/{expected[1]}"


if __name__ == "__main__":
    main()
