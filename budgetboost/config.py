"""The old name of :mod:`budgetboost.checks` (the checks made when a workflow is planned).

It shared its name with :mod:`budgetboost.pipeline.config`; importing it or running
``python -m budgetboost.config`` says where the checks went.
"""

MESSAGE = (
    "budgetboost.config is now budgetboost.checks: run `python -m budgetboost.checks "
    "FILE...`, import check_all and load_config_file from budgetboost.checks"
)

if __name__ == "__main__":
    raise SystemExit(MESSAGE)
raise ImportError(MESSAGE)
