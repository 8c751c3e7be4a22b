"""Forest pruning (BudgetPrune, Nan, Wang & Saligrama, NIPS 2016), a room of its own with a
module per job: the starting forest (:mod:`.forest`; BudgetRF's cost-weighted one,
:mod:`.cost_weighted`), the pruning program (:mod:`.program`),
serving under a per-example budget (:mod:`.serving`) and the estimator (:mod:`.budget_prune`).
"""

from .budget_prune import (
    CHOICE_GRID,
    DEFAULT_TRADEOFFS,
    FOREST_KINDS,
    MEAN_COST_TRADEOFFS,
    BudgetPrune,
)
from .cost_weighted import best_split, grow_cost_weighted_forest, n_candidates
from .forest import Forest, grow_forest
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
    "DEFAULT_TRADEOFFS",
    "FOREST_KINDS",
    "Forest",
    "INTEGRALITY_TOL",
    "MEAN_COST_TRADEOFFS",
    "PrunedForest",
    "PruningProblem",
    "Served",
    "Walk",
    "best_split",
    "budgeted_walk",
    "forest_scores",
    "grow_cost_weighted_forest",
    "grow_forest",
    "n_candidates",
    "prune",
    "pruning_problem",
    "serve",
    "solve_pruning",
    "walk_rows",
]
