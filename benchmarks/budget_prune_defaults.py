"""BudgetPrune's defaults (``n_estimators``, ``max_features``, ``max_depth``, the forest's
vote) chosen on validation rows carved from the training rows only: no test row is read.

The protocol of :mod:`held_out`: for each dataset, cost model and trial of the suite (its
own splits and prices, the same seeds as its jobs), a stratified quarter of the trial's
*training* rows is held out
(:func:`~budgetboost.estimators.contract.tuning.validation_split`, seeded from the stable
key ``("budget_prune_defaults", dataset, cost_model, trial)``); BudgetPrune is fitted on the
other training rows with each setting of a grid and evaluated on the held-out rows at every
budget of the cost model's grid (the grid: ``--n-estimators`` x ``--max-features`` x
``--max-depths``). Per setting: the mean held-out error over the budgets, trials and
datasets, the range and the mean rank of the per-(dataset, cost model) means, the
difference from the setting of lowest mean error paired over the (dataset, cost model,
trial) units with its 95 % t-interval, and the CPU seconds of a fit. The vote is compared
on every fit of the default ``n_estimators``, paired the same way: the trees' mean
probability over the trees an example entered (the estimator's), a majority vote of their
classes over the same trees, and the mean probability over every tree (the trees it could
not enter counting their roots' bootstrap priors).

Run from the repository root: ``python benchmarks/budget_prune_defaults.py [--datasets heart
pima] [--cost-models uniform_0_2 attribute_unit] [--trials 3] [--n-estimators 5 10 20]
[--max-features sqrt 0.3 0.5 1.0] [--max-depths 8]``.
"""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from budgetboost.estimators.contract.tuning import EMPTY_SCORE
from budgetboost.estimators.pruning import BudgetPrune, budgeted_walk, forest_scores

sys.path.insert(0, str(Path(__file__).resolve().parent))
from held_out import arguments, checked, trials  # noqa: E402

DATASETS = ("heart", "pima", "ionosphere", "spambase")
COST_MODELS = ("uniform_0_2", "attribute_unit")
N_ESTIMATORS = (5, 10, 20)
MAX_FEATURES = ("sqrt", "0.3", "0.5", "1.0")
MAX_DEPTHS = (8,)


def votes(model: BudgetPrune, X: np.ndarray, budgets: np.ndarray) -> dict[str, np.ndarray]:
    """The three votes' scores at each budget (rows: budgets), from the walks the fitted
    model makes there (module docstring)."""
    config, _ = model.choice_.at(model._capped(budgets))
    out = {k: np.full((budgets.size, X.shape[0]), model.majority_ * EMPTY_SCORE) for k in VOTES}
    paths: dict[int, list[np.ndarray]] = {}
    for b, c in enumerate(config):
        if c < 0:
            continue
        pruned = model.refits_[int(c)]
        forest = pruned.forest
        if id(forest) not in paths:
            paths[id(forest)] = forest.paths(X)
        stop = budgeted_walk(pruned, paths[id(forest)], budgets[b : b + 1], model.pricing_).stop
        entered = stop != forest.roots[:, None]
        n_entered = np.maximum(entered.sum(axis=0), 1)
        out["mean of entered"][b] = forest_scores(pruned, stop, model.majority_)
        classes = np.where(entered, np.sign(forest.score[stop]), 0.0).sum(axis=0) / n_entered
        out["majority of entered"][b] = np.where(
            classes != 0, classes, model.majority_ * EMPTY_SCORE
        )
        every = forest.score[stop].mean(axis=0)
        out["mean of all"][b] = np.where(every != 0, every, model.majority_ * EMPTY_SCORE)
    return out


VOTES = ("mean of entered", "majority of entered", "mean of all")


def main() -> None:
    parser = arguments(__doc__.splitlines()[0], DATASETS, COST_MODELS, 3)
    parser.add_argument("--n-estimators", nargs="+", type=int, default=list(N_ESTIMATORS))
    parser.add_argument("--max-features", nargs="+", default=list(MAX_FEATURES))
    parser.add_argument("--max-depths", nargs="+", type=int, default=list(MAX_DEPTHS))
    args = parser.parse_args()
    config, registry = checked(parser, args)
    default = BudgetPrune().get_params()
    rows = []
    parts = trials(
        "budget_prune_defaults", config, registry, args.datasets, args.cost_models, args.trials
    )
    for part in parts:
        budgets = part.budgets
        settings = itertools.product(args.n_estimators, args.max_features, args.max_depths)
        for n_estimators, max_features, max_depth in settings:
            clock = time.process_time()
            model = BudgetPrune(
                n_estimators=n_estimators,
                max_features=max_features if max_features == "sqrt" else float(max_features),
                max_depth=max_depth,
                random_state=part.seed("budget_prune"),
                budget=float(budgets.max()),
                **part.prices,
            ).fit(part.X_fit, part.y_fit)
            seconds = time.process_time() - clock
            scores = votes(model, part.X_held, budgets)
            truth = part.y_held == model.classes_[1]
            for vote, score in scores.items():
                rows.append(
                    {
                        "dataset": part.dataset,
                        "cost_model": part.cost_model,
                        "trial": part.trial,
                        "n_estimators": n_estimators,
                        "max_features": str(max_features),
                        "max_depth": max_depth,
                        "vote": vote,
                        "error": float(((score > 0) != truth[None, :]).mean()),
                        "seconds": seconds,
                    }
                )
        print(f"{part.dataset} / {part.cost_model} / trial {part.trial} done", flush=True)
    table = pd.DataFrame(rows)
    report(table, default)


def report(table: pd.DataFrame, default: dict) -> None:
    """Print the settings' held-out errors (the estimator's vote) and the votes'."""
    own = table[table["vote"] == VOTES[0]]
    setting = ["n_estimators", "max_features", "max_depth"]
    cell = own.groupby([*setting, "dataset", "cost_model"])["error"].mean()
    per = cell.groupby(setting)
    summary = pd.DataFrame(
        {
            "mean error": own.groupby(setting)["error"].mean(),
            "lowest cell": per.min(),
            "highest cell": per.max(),
            "mean rank": cell.groupby(["dataset", "cost_model"]).rank().groupby(setting).mean(),
            "cpu s per fit": own.groupby(setting)["seconds"].mean(),
        }
    )
    unit = own.groupby([*setting, "dataset", "cost_model", "trial"])["error"].mean()
    wide = unit.unstack(setting)  # rows: units, columns: settings
    best = summary["mean error"].idxmin()
    gap = wide.sub(wide[best], axis=0)
    half = stats.t.ppf(0.975, len(gap) - 1) * gap.std(ddof=1) / np.sqrt(len(gap))
    summary["minus best"] = gap.mean()
    summary["95% low"] = gap.mean() - half
    summary["95% high"] = gap.mean() + half
    cells = own.groupby(["dataset", "cost_model"]).ngroups
    n_trials = own["trial"].nunique()
    print(
        f"\nHeld-out error (a quarter of the training rows), mean over the budgets, "
        f"{n_trials} trials and {cells} (dataset, cost model) cells; the cells' means' range "
        "and mean rank:"
    )
    print(summary.sort_values("mean error").round(4).to_string())
    print(f"\nThe votes, at n_estimators={default['n_estimators']}, every other setting:")
    at = table[table["n_estimators"] == default["n_estimators"]]
    per_unit = at.groupby(["vote", *setting, "dataset", "cost_model", "trial"])["error"].mean()
    wide = per_unit.unstack("vote")
    gap = wide.sub(wide[VOTES[0]], axis=0)
    half = stats.t.ppf(0.975, len(gap) - 1) * gap.std(ddof=1) / np.sqrt(len(gap))
    votes_table = pd.DataFrame(
        {
            "mean error": wide.mean(),
            f"minus '{VOTES[0]}'": gap.mean(),
            "95% low": gap.mean() - half,
            "95% high": gap.mean() + half,
        }
    )
    print(votes_table.round(4).to_string())


if __name__ == "__main__":
    main()
