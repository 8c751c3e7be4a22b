"""Statistics and verdicts: tables in, tables out.

:func:`compare_paired` tests one dataset's paired per-trial differences about the dataset's
population (the corrected resampled t-test, :mod:`budgetboost.analysis.per_dataset`);
:func:`compare_datasets` tests one value per dataset across datasets (Wilcoxon signed-rank and
the Bayesian signed-rank test, :mod:`budgetboost.analysis.across_datasets`).
"""

__all__ = ["compare_paired"]


def __getattr__(name: str):
    """:func:`compare_paired`, imported when first asked for: a job reading one module of
    the package (the figures', the report's) does not load SciPy's statistics for it."""
    if name == "compare_paired":
        from budgetboost.analysis.per_dataset import compare_paired

        return compare_paired
    raise AttributeError(f"module 'budgetboost.analysis' has no attribute {name!r}")
