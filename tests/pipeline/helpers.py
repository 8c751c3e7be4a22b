"""What the pipeline layer's tests share besides the ``problem`` fixture (conftest.py): its
sizes, an algorithm entry and one training block."""

from __future__ import annotations

from budgetboost.pipeline import blocks, specs

N_ROWS, N_COLS, N_TRIALS = 80, 12, 4


def spec(name="smoothed", **entry):
    entry.setdefault("estimator", "BudgetedBoost")
    entry.setdefault("params", {"criterion": "smoothed", "max_rounds": 30})
    return specs.algorithm_spec(name, entry, registry_rounds=7)


def run(
    problem,
    algorithm,
    trials=range(N_TRIALS),
    budgets=(1.0, 2.0, 4.0, 8.0),
    grouped=False,
    costs=None,
    refit=None,
    progress=None,
):
    return blocks.run_block(
        X=problem.X,
        y=problem.y,
        groups=problem.groups,
        splits=problem.splits,
        costs=problem.costs if costs is None else costs,
        grouped=grouped,
        dataset="toy",
        cost_model="u02",
        spec=algorithm,
        budgets=list(budgets),
        trials=list(trials),
        refit=refit,
        progress=progress,
    )
