"""Select-then-train's ``exhaustive_keep`` chosen on validation rows carved from the training
rows only: no test row is read.

The protocol of :mod:`held_out` (as ``benchmarks/budget_prune_defaults.py``): for each
dataset, cost model and trial (its own splits and prices, as the train jobs draw them), a
stratified quarter of the trial's *training* rows is held out, seeded from the stable key
``("selection_defaults", dataset, cost_model, trial)``; :class:`SelectThenTrain` (``--model``:
LightGBM or the logistic model, as ``select_gbm`` and ``select_linear``) is fitted on the
other training rows with each value of ``exhaustive_keep`` (how many of the exhaustive
search's best sets at each price join the estimator's own validation choice) and evaluated
on the held-out rows at every budget of the cost model's grid. Per value: the mean held-out
error over the budgets, trials and datasets, the range and mean rank of the per-(dataset,
cost model) means, the CPU seconds of a fit, the sets the validation choice compared, and
the difference from the default paired over the (dataset, cost model, trial) units with its
95 % t-interval; the default stays unless another value errs less with an interval below 0.

The exhaustive search's cross-validated losses do not depend on ``exhaustive_keep`` (the
same rows, folds and seed): they are computed once a trial and reused by its other fits
(:class:`RememberedLosses`), so the CPU seconds of a fit after the first understate a fit of
its own by the search's scoring.

The cost models are the field's (per attribute, U[0, 2] and unit prices): the suite runs
select-then-train under them only.

Run from the repository root: ``python benchmarks/selection_defaults.py [--model gbm]
[--datasets heart pima] [--cost-models attribute_0_2 attribute_unit] [--trials 3]
[--keep 1 2 4 8]``.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd

from budgetboost.estimators.selection.select_then_train import SelectThenTrain

sys.path.insert(0, str(Path(__file__).resolve().parent))
from held_out import arguments, checked, measured, print_comparison, trials  # noqa: E402

DATASETS = ("heart", "pima", "ionosphere", "german", "sonar", "spambase")
COST_MODELS = ("attribute_0_2", "attribute_unit")
KEEP = (1, 2, 4, 8)


class RememberedLosses(SelectThenTrain):
    """:class:`SelectThenTrain` whose exhaustive search remembers each set's cross-validated
    loss by its inputs (columns, labels, folds, classifier value, trees, seed), so that the
    fits of one trial that differ only in ``exhaustive_keep`` score each set once."""

    losses: ClassVar[dict[tuple, float]] = {}

    def _cross_validated(
        self, X: np.ndarray, y: np.ndarray, folds: np.ndarray, value, trees: int
    ) -> float:
        key = (
            hashlib.sha1(np.ascontiguousarray(X).tobytes()).hexdigest(),
            X.shape,
            y.tobytes(),
            folds.tobytes(),
            repr(value),
            trees,
            self.seed_,
            self.model,
        )
        if key not in self.losses:
            self.losses[key] = super()._cross_validated(X, y, folds, value, trees)
        return self.losses[key]


def main() -> None:
    parser = arguments(__doc__.splitlines()[0], DATASETS, COST_MODELS, 3)
    parser.add_argument("--model", choices=("gbm", "linear"), default="gbm")
    parser.add_argument("--keep", nargs="+", type=int, default=list(KEEP))
    args = parser.parse_args()
    config, registry = checked(parser, args)
    if any(k < 1 for k in args.keep):
        parser.error(f"--keep: {args.keep} are not all 1 or more")
    default = SelectThenTrain().get_params()["exhaustive_keep"]
    if default not in args.keep:
        parser.error(f"--keep: {args.keep} leave out the default, {default}")
    rows = []
    parts = trials(
        "selection_defaults", config, registry, args.datasets, args.cost_models, args.trials
    )
    for part in parts:
        RememberedLosses.losses.clear()
        for keep in sorted(args.keep):
            row, model = measured(
                lambda keep=keep, part=part: RememberedLosses(
                    model=args.model,
                    exhaustive_keep=keep,
                    budget=float(part.budgets.max()),
                    random_state=part.seed(f"select_{args.model}"),
                    **part.prices,
                ),
                part,
                "exhaustive_keep",
                keep,
            )
            rows.append({**row, "sets": len(model.sets_)})
        print(f"{part.dataset} / {part.cost_model} / trial {part.trial} done", flush=True)
    table = pd.DataFrame(rows)
    print_comparison(table, "exhaustive_keep", default, f"SelectThenTrain(model={args.model!r})")
    sets = table.groupby("exhaustive_keep")["sets"].mean().round(1)
    print("\nsets the validation choice compared (mean a fit):", sets.to_dict())


if __name__ == "__main__":
    main()
