"""What a checked config asks for: the experiments of a run, their trials, blocks and budgets.

``workflow/rules/common.smk`` builds one :class:`Plan` from the validated config and the
dataset registry and reads every target, input and param from it, so what a run holds is
plain Python that unit tests reach:

- an *experiment* is a (dataset, cost model, algorithm) the config asks for: every dataset's
  cost models, every algorithm of the dataset (its ``algorithms``, else all), unless the cost
  model lists its own ``algorithms``;
- its *trials* are the dataset's (the config's ``trials``, else Table 1's), capped at the
  ``trials`` of the algorithm's and of the cost model's entries where set: the FIRST trials,
  so a capped run pairs with the others by trial;
- trials are grouped into *blocks* (one train job and one shard each), sized by cost: the
  largest power of two of trials whose expected CPU seconds
  (:mod:`~budgetboost.pipeline.trial_costs`) stay within the config's ``block_seconds``
  with headroom (:data:`~budgetboost.pipeline.trial_costs.HEADROOM`), at most its
  ``block_size`` where set; the shared AdaBoost path's blocks likewise, by the
  path's own cost;
- each (cost model, algorithm) is checked for reproducibility once, by the train job of the
  first block of the dataset where its trials are cheapest, which fits that block's first
  trial once more (:meth:`Plan.reproducibility_checks`, :meth:`Plan.checked_trial`);
- the *budgets* of a (dataset, cost model) are the dataset's grid for it, else the cost
  model's.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from budgetboost.catalogue import Catalogue
from budgetboost.data.costs import kind_of
from budgetboost.estimators.contract.registry import estimator_class, estimator_module
from budgetboost.pipeline.code import library_versions
from budgetboost.pipeline.folders import logs_folder
from budgetboost.pipeline.resources import rule_resources
from budgetboost.pipeline.specs import AlgorithmSpec, algorithm_spec
from budgetboost.pipeline.trial_costs import HEADROOM, TrialCosts, block_size

__all__ = [
    "BASELINE_SPEC",
    "PATH_ENTRY",
    "Plan",
    "algorithm_catalogue",
    "block_trials",
    "budget_grid",
    "class_defaults",
    "grid_budgets",
]


def class_defaults(algorithms: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, str]]:
    """``{algorithm: {"label": ..., "family": ...}}``: what each algorithm's estimator class
    declares (``BudgetedEstimator.label`` and ``.family``, a string each where given), the
    defaults of its catalogue entry. An estimator that cannot be imported declares nothing
    here (the config check names it)."""
    out: dict[str, dict[str, str]] = {}
    for name, entry in algorithms.items():
        try:
            cls = estimator_class(entry["estimator"])
        except (KeyError, TypeError, ValueError):
            continue
        declared = {key: getattr(cls, key, None) for key in ("label", "family")}
        out[name] = {key: value for key, value in declared.items() if isinstance(value, str)}
    return out


def algorithm_catalogue(
    algorithms: Mapping[str, Mapping[str, Any]], tuned: Iterable[str] = ()
) -> Catalogue:
    """The :class:`~budgetboost.catalogue.Catalogue` of a config's ``algorithms``: each
    entry's keys over the built-in names' and over what its estimator class declares
    (:func:`class_defaults`); ``tuned`` as :meth:`Catalogue.from_config`'s."""
    return Catalogue.from_config(algorithms, tuned=tuned, defaults=class_defaults(algorithms))


#: The paper's U[0, 2] (its Figure 1): the cost model of this spec is the *baseline* against
#: which the open questions' cost models are compared, whatever the config names it.
BASELINE_SPEC = {"model": "uniform_random", "low": 0.0, "high": 2.0}

#: The shared AdaBoost path as the calibration table knows it (an algorithm entry).
PATH_ENTRY = {"estimator": "adaboost_path"}

#: Registry fields that do not change the binarized table (sizes, trials, rounds, docs).
NOT_BINARIZATION = frozenset(
    {
        "description",
        "enabled",
        "train_size",
        "test_size",
        "trials",
        "adaboost_rounds",
        "paper_features",
    }
)


#: The log files of the submitted rules' jobs, below a config's log folder.
JOB_LOGS = {
    "binarize": "binarize/{dataset}.log",
    "adaboost_path": "adaboost_path/{dataset}/block-{block}.log",
    "train": "train/{dataset}/{cost_model}/{algorithm}/block-{block}.log",
}


#: The most budgets one grid may hold: enough for any curve (the paper's have 20), few enough
#: that a mistyped step stops at planning instead of building millions of jobs' params.
MAX_BUDGETS = 1000
#: Budgets are rounded to this many decimals (the same grid on every machine).
BUDGET_DECIMALS = 10


def grid_budgets(grid: Mapping[str, Any]) -> list[float]:
    """The budgets of a config's ``budgets`` entry: its listed ``values``, else
    :func:`budget_grid` of its ``step``, ``stop`` and ``start``.

    Listed values state budgets in a dataset's own units, e.g. ``[1, 2, 3, 4, 5, 8]``
    attributes' worth where an attribute costs 1 on average, so that a budget band means the
    same scarcity on every dataset.

    Raises
    ------
    ValueError
        When a listed value is not a finite positive number, the values are not increasing,
        there are more than :data:`MAX_BUDGETS`, or rounding merges two of them; see
        :func:`budget_grid` for a step grid.
    """
    stepped = sorted({"step", "stop", "start"} & set(grid))
    if "values" not in grid:
        missing = [key for key in ("step", "stop") if key not in grid]
        if missing:
            raise ValueError(
                f"a budget grid needs step and stop (or values); {', '.join(missing)} missing"
            )
        return budget_grid(grid["step"], grid["stop"], grid.get("start"))
    if stepped:
        raise ValueError(
            f"a budget grid is either values or step and stop, not both: {', '.join(stepped)} "
            "given with values"
        )
    values = list(grid["values"])
    if not values or len(values) > MAX_BUDGETS:
        raise ValueError(f"budget values must list 1 to {MAX_BUDGETS} budgets, got {len(values)}")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"budget values must be numbers, got {value!r}")
        if not math.isfinite(value) or value <= 0:
            raise ValueError(f"budget values must be finite and > 0, got {value}")
    rounded = [round(float(v), BUDGET_DECIMALS) for v in values]
    if any(b <= a for a, b in zip(rounded[:-1], rounded[1:], strict=True)) or rounded[0] <= 0:
        raise ValueError(
            f"budget values must increase (after rounding to {BUDGET_DECIMALS} decimals), "
            f"got {values}"
        )
    return rounded


def budget_grid(step: float, stop: float, start: float | None = None) -> list[float]:
    """The budgets ``start, start + step, ..., <= stop`` (the paper: every 2 units).

    ``start`` defaults to ``step``. Values are rounded to :data:`BUDGET_DECIMALS` decimals so
    that the grid is the same on every machine and can be written to config-derived params.

    Raises
    ------
    ValueError
        When a bound is not finite, the step not positive, ``0 < start <= stop`` does not
        hold, the grid would hold more than :data:`MAX_BUDGETS` budgets, or rounding turns a
        budget into 0 or two budgets into one.
    """
    for name, value in (("step", step), ("stop", stop), ("start", start)):
        if value is not None and not math.isfinite(value):
            raise ValueError(f"budget {name} must be a finite number, got {value}")
    if not step > 0:
        raise ValueError(f"budget step must be > 0, got {step}")
    first = step if start is None else start
    if not 0 < first <= stop:
        raise ValueError(f"budget grid needs 0 < start <= stop, got start={first}, stop={stop}")
    count = math.floor((stop - first) / step + 1e-9) + 1
    if count > MAX_BUDGETS:
        raise ValueError(
            f"{count} budgets from {first:g} to {stop:g} in steps of {step:g}, more than "
            f"{MAX_BUDGETS}: use a larger step"
        )
    grid = [round(first + i * step, BUDGET_DECIMALS) for i in range(count)]
    if grid[0] <= 0 or len(set(grid)) < count:
        raise ValueError(
            f"step {step:g} from {first:g} is finer than the grid's resolution "
            f"(budgets are rounded to {BUDGET_DECIMALS} decimals: "
            f"{'a budget of 0' if grid[0] <= 0 else 'equal budgets'}): use a larger step"
        )
    return grid


def block_trials(block: int, block_size: int, n_trials: int) -> list[int]:
    """Trials of block ``block``: ``[block * block_size, ...)`` capped at ``n_trials``."""
    if block_size < 1:
        raise ValueError(f"block_size must be >= 1, got {block_size}")
    start = block * block_size
    if block < 0 or start >= n_trials:
        raise ValueError(
            f"block {block} is out of range for {n_trials} trials in blocks of {block_size}"
        )
    return list(range(start, min(start + block_size, n_trials)))


class Plan:
    """The experiments of a checked config (see the module docstring).

    Parameters
    ----------
    config : mapping
        The config after :func:`budgetboost.checks.check_all` (defaults filled in).
    registry : mapping
        The dataset registry it names.
    """

    def __init__(self, config: Mapping[str, Any], registry: Mapping[str, Mapping[str, Any]]):
        self.config = config
        self.registry = registry
        self.datasets = list(config["datasets"])
        self.cost_models = list(config["cost_models"])
        self.algorithms = list(config["algorithms"])
        #: the most CPU seconds one train job should take (blocks sized by cost, with headroom)
        self.block_seconds = float(config["block_seconds"])
        #: the most trials of one block, where the config sets it
        self.block_cap = None if config.get("block_size") is None else int(config["block_size"])
        self.costs = TrialCosts.load()
        #: the folder of this config's outputs, and of its logs (``logs/`` mirrors it)
        self.results = str(config.get("results", "results")).rstrip("/")
        self.logs = logs_folder(self.results)

    def log(self, rule: str) -> str:
        """The log file pattern of a submitted rule's jobs (wildcards in braces): the rule's
        ``log:`` and what ``benchmarks/resources.py`` reads."""
        return f"{self.logs}/{JOB_LOGS[rule]}"

    def job_logs(self, rule: str) -> list[str]:
        """The log file of every job of a submitted rule this config runs."""
        pattern = self.log(rule)
        if rule == "binarize":
            return [pattern.format(dataset=d) for d in self.datasets]
        if rule == "adaboost_path":
            return [
                pattern.format(dataset=d, block=k)
                for d in self.datasets
                for k in range(self.blocks(d))
            ]
        return [
            pattern.format(dataset=d, cost_model=c, algorithm=a, block=k)
            for d, c, a in self.experiments()
            for k in range(self.blocks(d, c, a))
        ]

    def resources(self, rule: str) -> dict[str, int]:
        """``mem_mb`` and ``runtime`` of a submitted rule's jobs (config over defaults)."""
        return rule_resources(self.config, rule)

    # ------------------------------------------------------------------ trials and blocks
    def trials(self, dataset: str) -> int:
        """Trials of ``dataset``: the config's ``trials``, else the registry's (Table 1)."""
        entry = self.config["datasets"][dataset]
        return int(entry.get("trials", self.registry[dataset]["trials"]))

    def run_trials(
        self, dataset: str, cost_model: str | None = None, algorithm: str | None = None
    ) -> int:
        """Trials ``algorithm`` runs on ``dataset`` under ``cost_model``: the dataset's, capped
        at the ``trials`` of the algorithm's and of the cost model's entries where set."""
        caps = [self.trials(dataset)]
        if cost_model is not None:
            caps.append(self.config["cost_models"][cost_model].get("trials"))
        if algorithm is not None:
            caps.append(self.config["algorithms"][algorithm].get("trials"))
        return min(int(c) for c in caps if c is not None)

    def trial_seconds(
        self, dataset: str, cost_model: str | None = None, algorithm: str | None = None
    ) -> float:
        """Expected CPU seconds of one trial of ``algorithm`` on ``dataset`` (of the shared
        AdaBoost path without an algorithm): :class:`~.trial_costs.TrialCosts`. The cost
        model does not enter the estimate (the calibration is made under U[0, 2])."""
        return self._trial_seconds(dataset, algorithm)

    @functools.cache  # noqa: B019 - one plan per workflow, asked once per job
    def _trial_seconds(self, dataset: str, algorithm: str | None) -> float:
        entry = PATH_ENTRY if algorithm is None else self.config["algorithms"][algorithm]
        sizes = self.split_sizes(dataset)
        return self.costs.seconds(entry, dataset, sizes["train_size"], sizes["test_size"])

    def block_size(
        self, dataset: str, cost_model: str | None = None, algorithm: str | None = None
    ) -> int:
        """Trials per block of a cell (of the shared AdaBoost path without an algorithm):
        the largest power of two of trials expected within ``block_seconds`` over
        :data:`~.trial_costs.HEADROOM` (a job may run that much slower than its estimate
        and still end within ``block_seconds``), at most ``block_size`` where the config
        sets it (:func:`~.trial_costs.block_size`)."""
        seconds = self.trial_seconds(dataset, cost_model, algorithm)
        return block_size(seconds, self.block_seconds / HEADROOM, self.block_cap)

    def blocks(
        self, dataset: str, cost_model: str | None = None, algorithm: str | None = None
    ) -> int:
        """Blocks of a cell (of the shared AdaBoost path of ``dataset`` without an algorithm)."""
        trials = self.run_trials(dataset, cost_model, algorithm)
        return math.ceil(trials / self.block_size(dataset, cost_model, algorithm))

    def block_trials(
        self,
        block: int,
        dataset: str,
        cost_model: str | None = None,
        algorithm: str | None = None,
    ) -> list[int]:
        """Trials of one block (of the first trials ``algorithm`` runs, for a train job)."""
        size = self.block_size(dataset, cost_model, algorithm)
        return block_trials(block, size, self.run_trials(dataset, cost_model, algorithm))

    def path_blocks(self, block: int, dataset: str, cost_model: str, algorithm: str) -> list[int]:
        """The blocks of the shared AdaBoost path that hold the trials of a train job's
        block (the path's blocks are sized by its own cost)."""
        trials = self.block_trials(block, dataset, cost_model, algorithm)
        size = self.block_size(dataset)
        return list(range(trials[0] // size, trials[-1] // size + 1))

    def job_seconds(self, block: int, dataset: str, cost_model: str, algorithm: str) -> float:
        """Expected CPU seconds of a train job: its trials', and the refit of its checked
        trial (:meth:`checked_trial`) (the scheduler starts the longest first)."""
        trials = len(self.block_trials(block, dataset, cost_model, algorithm))
        if self.checked_trial(block, dataset, cost_model, algorithm) is not None:
            trials += 1
        return trials * self.trial_seconds(dataset, cost_model, algorithm)

    @functools.cached_property
    def _checks(self) -> dict[tuple[str, str], str]:
        cheapest: dict[tuple[str, str], tuple[float, str]] = {}
        for dataset, cost_model, algorithm in self.experiments():
            seconds = self.trial_seconds(dataset, cost_model, algorithm)
            key = (cost_model, algorithm)
            if key not in cheapest or seconds < cheapest[key][0]:
                cheapest[key] = (seconds, dataset)
        return {key: dataset for key, (_, dataset) in cheapest.items()}

    def reproducibility_checks(self) -> dict[tuple[str, str], str]:
        """``{(cost model, algorithm): dataset}``: under each cost model each algorithm's
        first trial of the dataset where its trials are expected to be cheapest (ties:
        config order) is fitted twice, to check that the same ``random_state`` gives the
        same results (by the train job of that dataset's first block:
        :meth:`checked_trial`). The cheapest, so the check costs least; a dataset added may
        be cheaper and move it."""
        return dict(self._checks)

    def checked_trial(
        self, block: int, dataset: str, cost_model: str, algorithm: str
    ) -> int | None:
        """The trial a train job fits once more after its block's trials, to check that its
        rows are the same (:func:`budgetboost.pipeline.blocks.run_block`'s ``refit``): the
        first trial of the first block of the (cost model, algorithm)'s cheapest dataset
        (:meth:`reproducibility_checks`); None for every other block. That job's expected
        time grows by one trial (:meth:`job_seconds`), which its block's size leaves out:
        one block per (cost model, algorithm), of its cheapest dataset."""
        if block != 0 or self._checks.get((cost_model, algorithm)) != dataset:
            return None
        return self.block_trials(0, dataset, cost_model, algorithm)[0]

    # ------------------------------------------------------------------ experiments
    def dataset_algorithms(self, dataset: str) -> list[str]:
        """The algorithms of ``dataset`` (its ``algorithms``, else all)."""
        return list(self.config["datasets"][dataset].get("algorithms", self.algorithms))

    def experiments(self) -> Iterator[tuple[str, str, str]]:
        """Every (dataset, cost model, algorithm) the config asks for, in config order."""
        for dataset in self.datasets:
            for cost_model in self.config["datasets"][dataset]["cost_models"]:
                only = self.config["cost_models"][cost_model].get("algorithms")
                for algorithm in self.dataset_algorithms(dataset):
                    if only is None or algorithm in only:
                        yield dataset, cost_model, algorithm

    def shards(self, folder: str = "shards", algorithms: Any = None) -> list[str]:
        """``<results>/{folder}/{dataset}/{cost_model}/{algorithm}/block-{k}.parquet`` of every
        train job (of ``algorithms`` only, if given): shards, timings or stump tables."""
        return [
            f"{self.results}/{folder}/{d}/{c}/{a}/block-{k}.parquet"
            for d, c, a in self.experiments()
            if algorithms is None or a in algorithms
            for k in range(self.blocks(d, c, a))
        ]

    def cost_tables(self) -> list[str]:
        """The cost table of every (dataset, cost model) that runs."""
        return sorted({f"{self.results}/costs/{d}/{c}.parquet" for d, c, _ in self.experiments()})

    def budgets(self, dataset: str, cost_model: str) -> list[float]:
        """The budget grid of (dataset, cost model): the dataset's own, else the model's."""
        grid = (
            self.config["datasets"][dataset]
            .get("budgets", {})
            .get(cost_model, self.config["cost_models"][cost_model]["budgets"])
        )
        return grid_budgets(grid)

    def block_budgets(self, dataset: str, cost_model: str, algorithm: str) -> list[float | str]:
        """The budgets a train job evaluates: ``["inf"]`` for an unbudgeted algorithm."""
        if self.config["algorithms"][algorithm].get("unbudgeted", False):
            return ["inf"]
        return self.budgets(dataset, cost_model)

    # ------------------------------------------------------------------ what a job reads
    def algorithm(self, name: str, dataset: str) -> AlgorithmSpec:
        """The algorithm as a train job on ``dataset`` runs it (Table 1 rounds filled in)."""
        rounds = self.registry[dataset].get("adaboost_rounds")
        return algorithm_spec(name, self.config["algorithms"][name], rounds)

    def versions(self, algorithm: str | None = None) -> dict[str, str]:
        """numpy's version and those of the libraries ``algorithm``'s estimator wraps (its
        ``libraries``); numpy's alone without an algorithm (the shared AdaBoost path)."""
        if algorithm is None:
            return library_versions()
        cls = estimator_class(self.config["algorithms"][algorithm]["estimator"])
        return library_versions(tuple(getattr(cls, "libraries", ())))

    def train_modules(self, algorithm: str) -> list[str]:
        """Package modules a shard of ``algorithm`` depends on (besides what they import).

        ``blocks`` draws its trials' splits and costs and ``datasets`` reads the data; the
        estimator's own module; ``adaboost_path`` for an algorithm fitting from the shared
        AdaBoost path.
        """
        entry = self.config["algorithms"][algorithm]
        modules = [
            "budgetboost.pipeline.blocks",
            "budgetboost.data.datasets",
            estimator_module(entry["estimator"]),
        ]
        if entry.get("adaboost_path", False):
            modules.append("budgetboost.pipeline.adaboost_path")
        return modules

    def catalogue(self) -> Catalogue:
        """The run's :func:`algorithm_catalogue`, tuned algorithms marked (:meth:`tuned`)."""
        return algorithm_catalogue(self.config["algorithms"], tuned=self.tuned())

    def tuned(self) -> list[str]:
        """The algorithms whose estimator chooses something on a validation part of its
        training rows (``BudgetedEstimator.tunes``): the reports name their protocol."""
        names = []
        for name, entry in self.config["algorithms"].items():
            cls = estimator_class(entry["estimator"])
            tunes = getattr(cls, "tunes", None)
            if tunes is not None and tunes(dict(entry.get("params") or {})):
                names.append(name)
        return names

    def path_rounds(self, dataset: str) -> int:
        """Rounds of the shared AdaBoost path: the config's, or the dataset's Table 1 rounds
        where those are more (census: 880), so the unbudgeted reference is one of its
        prefixes."""
        rounds = self.registry[dataset].get("adaboost_rounds") or 0
        return max(int(self.config["adaboost_path"]["max_rounds"]), int(rounds))

    def split_sizes(self, dataset: str) -> dict[str, int]:
        """Train/test sizes of the dataset's splits: the config's, else the registry's (Table 1)."""
        entry = {**self.registry[dataset], **self.config["datasets"][dataset]}
        return {"train_size": int(entry["train_size"]), "test_size": int(entry["test_size"])}

    def cost_spec(self, cost_model: str) -> dict[str, Any]:
        return dict(self.config["cost_models"][cost_model]["spec"])

    def cost_file(self, dataset: str, cost_model: str) -> list[str]:
        """The cost file a cost model's kind reads for ``dataset`` (``real``: its prices per
        attribute), else nothing."""
        spec = self.cost_spec(cost_model)
        path = kind_of(spec).cost_file(spec, self.registry[dataset])
        return [path] if path else []

    def binarize_entry(self, dataset: str) -> dict[str, Any]:
        """The registry entry without the fields binarization does not read."""
        entry = self.registry[dataset]
        return {k: v for k, v in entry.items() if k not in NOT_BINARIZATION}

    def local_datasets(self) -> list[str]:
        """Datasets read from a user-supplied local file (Webscope): shown in Figure 2."""
        return [d for d in self.datasets if self.registry[d]["source"]["type"] == "local"]

    def dataset_order(self) -> list[str]:
        """The run's datasets in the registry's order (Table 1's): the figures' panel order."""
        return [d for d in self.registry if d in set(self.datasets)]

    def baseline_cost_model(self) -> str | None:
        """The first cost model whose spec is :data:`BASELINE_SPEC` (ungrouped), if any."""
        for name, entry in self.config["cost_models"].items():
            spec = entry["spec"]
            if not kind_of(spec).is_grouped(spec) and all(
                spec.get(key) == value for key, value in BASELINE_SPEC.items()
            ):
                return name
        return None

    def field_pools(self) -> dict[str, str]:
        """Each cost model the field's question is asked under (its ``field`` key), with the
        pool its rows across datasets enter; empty when the config names none."""
        return {
            name: str(entry["field"])
            for name, entry in self.config["cost_models"].items()
            if entry.get("field")
        }

    def cost_model_kinds(self) -> dict[str, str]:
        """Each cost model's kind, its ``spec.model`` (a kind of
        :mod:`budgetboost.data.cost_registry`): figures find cost models by what they are,
        never by the name a config gives them."""
        return {
            name: str(entry["spec"]["model"]) for name, entry in self.config["cost_models"].items()
        }
