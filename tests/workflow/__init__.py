"""The workflow end to end: the real ``snakemake``, the checks made at planning
(``budgetboost.checks``), the shipped configs, the report, SLURM, the benchmarks' commands."""
