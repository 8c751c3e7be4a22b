"""Forest pruning (BudgetPrune, Nan, Wang & Saligrama, NIPS 2016), a room of its own with a
module per job: the starting forest (:mod:`.forest`), the pruning program (:mod:`.program`),
serving under a per-example budget (:mod:`.serving`) and the estimator (:mod:`.budget_prune`).
"""

from .budget_prune import CHOICE_GRID, DEFAULT_TRADEOFFS, BudgetPrune
from .forest import (
    DEFAULT_COLUMN_SHARES,
    ColumnCostGrid,
    Forest,
    column_cost_grid,
    columns_within,
    grow_forest,
)
from .program import (
    INTEGRALITY_TOL,
    PrunedForest,
    PruningProblem,
    prune,
    pruning_problem,
    solve_pruning,
)
from .serving import Served, Walk, budgeted_walk, forest_scores, serve, walk_rows

__all__ = [
    "BudgetPrune",
    "CHOICE_GRID",
    "ColumnCostGrid",
    "DEFAULT_COLUMN_SHARES",
    "DEFAULT_TRADEOFFS",
    "Forest",
    "INTEGRALITY_TOL",
    "PrunedForest",
    "PruningProblem",
    "Served",
    "Walk",
    "budgeted_walk",
    "column_cost_grid",
    "columns_within",
    "forest_scores",
    "grow_forest",
    "prune",
    "pruning_problem",
    "serve",
    "solve_pruning",
    "walk_rows",
]
