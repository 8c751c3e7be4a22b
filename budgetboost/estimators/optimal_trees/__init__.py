"""Optimal cost-sensitive decision trees (STreeD: Van der Linden, de Weerdt & Demirović,
NeurIPS 2023, through pystreed), a room of its own with a module per job: the candidate tests
and one solve (:mod:`.solver`), the tree pruned to a budget (:mod:`.tree`) and the estimator
(:mod:`.streed`, :class:`BudgetedSTreeD`)."""

from .solver import (
    CandidateTests,
    TimeLimitError,
    candidate_tests,
    cost_specifier,
    select_tests,
    solve,
)
from .streed import DEFAULT_COLUMNS, DEFAULT_DEPTHS, DEFAULT_TRADEOFFS, MAX_DEPTH, BudgetedSTreeD
from .tree import StreedTree

__all__ = [
    "DEFAULT_COLUMNS",
    "DEFAULT_DEPTHS",
    "DEFAULT_TRADEOFFS",
    "MAX_DEPTH",
    "BudgetedSTreeD",
    "CandidateTests",
    "StreedTree",
    "TimeLimitError",
    "candidate_tests",
    "cost_specifier",
    "select_tests",
    "solve",
]
