"""Statistics and verdicts: tables in, tables out.

:func:`compare_paired` tests one dataset's paired per-trial differences about the dataset's
population (the corrected resampled t-test, :mod:`budgetboost.analysis.per_dataset`);
:func:`compare_datasets` tests one value per dataset across datasets (Wilcoxon signed-rank and
the Bayesian signed-rank test, :mod:`budgetboost.analysis.across_datasets`).
"""

from budgetboost.analysis.per_dataset import compare_paired

__all__ = ["compare_paired"]
