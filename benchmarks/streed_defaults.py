"""STreeD's test budget per solve (``max_columns``, ``max_thresholds``) chosen on validation
rows carved from the training rows only: no test row is read.

The protocol of :mod:`held_out` (as ``benchmarks/budget_prune_defaults.py``): for each
dataset, cost model and trial (its own splits and prices, as the train jobs draw them), a
stratified quarter of the trial's *training* rows is held out, seeded from the stable key
``("streed_defaults", dataset, cost_model, trial)``; :class:`BudgetedSTreeD` is fitted on the
other training rows with each setting and evaluated on the held-out rows at every budget of
the cost model's grid. The settings vary one default at a time: ``max_columns`` (the tests
of a solve by depth, :data:`DEFAULT_COLUMNS` for depths 1-4) halved and doubled, and
``max_thresholds`` (the tests of one feature group, 4) at 2 and 8. Per setting: the mean
held-out error over the budgets, trials and datasets, the range and mean rank of the
per-(dataset, cost model) means, the CPU seconds of a fit, and the difference from the
defaults paired over the (dataset, cost model, trial) units with its 95 % t-interval; a
default stays unless another setting errs less with an interval below 0.

The cost models are the field's (per attribute, U[0, 2] and unit prices): the suite runs
STreeD under them only.

Run from the repository root: ``python benchmarks/streed_defaults.py [--datasets heart pima]
[--cost-models attribute_0_2 attribute_unit] [--trials 3] [--column-scales 0.5 1 2]
[--max-thresholds 2 4 8]``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd

from budgetboost.estimators.optimal_trees import DEFAULT_COLUMNS, DEFAULT_DEPTHS, BudgetedSTreeD

sys.path.insert(0, str(Path(__file__).resolve().parent))
from held_out import arguments, checked, measured, print_comparison, trials  # noqa: E402

DATASETS = ("heart", "pima", "ionosphere", "spambase", "german", "sonar")
COST_MODELS = ("attribute_0_2", "attribute_unit")
COLUMN_SCALES = (0.5, 1.0, 2.0)
MAX_THRESHOLDS = (2, 4, 8)
DEFAULT = "defaults"


def settings(column_scales: list[float], max_thresholds: list[int]) -> dict[str, dict]:
    """The settings compared, by name: the defaults, then one default changed at a time
    (``max_columns`` as :data:`DEFAULT_COLUMNS` of the default depths times a scale,
    ``max_thresholds`` another value)."""
    own = BudgetedSTreeD().get_params()
    by_depth = np.asarray(DEFAULT_COLUMNS)[np.asarray(DEFAULT_DEPTHS) - 1]
    out = {DEFAULT: {}}
    for scale in column_scales:
        if scale != 1:
            columns = np.maximum(np.rint(by_depth * scale), 1).astype(int).tolist()
            out[f"max_columns {'/'.join(map(str, columns))}"] = {"max_columns": columns}
    for value in max_thresholds:
        if value != own["max_thresholds"]:
            out[f"max_thresholds {value}"] = {"max_thresholds": value}
    return out


def main() -> None:
    parser = arguments(__doc__.splitlines()[0], DATASETS, COST_MODELS, 3)
    parser.add_argument("--column-scales", nargs="+", type=float, default=list(COLUMN_SCALES))
    parser.add_argument("--max-thresholds", nargs="+", type=int, default=list(MAX_THRESHOLDS))
    args = parser.parse_args()
    config, registry = checked(parser, args)
    if any(s <= 0 for s in args.column_scales):
        parser.error(f"--column-scales: {args.column_scales} are not all > 0")
    if any(v < 1 for v in args.max_thresholds):
        parser.error(f"--max-thresholds: {args.max_thresholds} are not all 1 or more")
    grid = settings(args.column_scales, args.max_thresholds)
    rows = []
    parts = trials(
        "streed_defaults", config, registry, args.datasets, args.cost_models, args.trials
    )
    for part in parts:
        for name, params in grid.items():
            row, _ = measured(
                lambda params=params, part=part: BudgetedSTreeD(
                    budget=float(part.budgets.max()),
                    random_state=part.seed("streed"),
                    **params,
                    **part.prices,
                ),
                part,
                "setting",
                name,
            )
            rows.append(row)
        print(f"{part.dataset} / {part.cost_model} / trial {part.trial} done", flush=True)
    table = pd.DataFrame(rows)
    print_comparison(table, "setting", DEFAULT, "BudgetedSTreeD")


if __name__ == "__main__":
    main()
