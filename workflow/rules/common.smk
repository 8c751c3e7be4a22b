# Configuration, dataset registry and the input/params functions of every rule.
# Each rule gets as params only the part of the config its output depends on, so editing
# one entry re-runs only the jobs that entry feeds (Snakemake's params rerun trigger).
import functools
import math
import os

from snakemake.exceptions import WorkflowError

from budgetboost.pipeline import experiment

from budgetboost.figures import registry as figures
from budgetboost.pipeline.catalogue import Catalogue
from budgetboost.pipeline.config import ConfigError, check_all
from budgetboost.data.datasets import download_targets, source_files

# the whole config is checked here, before any job is planned (budgetboost.pipeline.config): a bad
# value stops the run with one line naming its config path
try:
    _checked, REGISTRY = check_all(config)
except ConfigError as exc:
    raise WorkflowError(str(exc)) from None
config.update(_checked)
DATASETS = list(config["datasets"])
COST_MODELS = list(config["cost_models"])
ALGORITHMS = list(config["algorithms"])
BLOCK_SIZE = config["block_size"]
#: labels, families, roles and styles of the algorithms, for every results rule
CATALOGUE = Catalogue.from_config(config["algorithms"])
#: the registered figures (budgetboost.figures.registry): one plot job each
FIGURE_MODULES = config["figure_modules"]
FIGURES = figures.load(FIGURE_MODULES)


def registry_entry(dataset):
    """The registry entry of ``dataset`` as a plain dict."""
    return REGISTRY[dataset]


def n_trials(dataset):
    """Trials of ``dataset``: the config's override, else the registry's (Table 1)."""
    return int(
        config["datasets"][dataset].get("trials", registry_entry(dataset)["trials"])
    )


def n_blocks(dataset, cost_model=None, algorithm=None):
    """Blocks of ``dataset`` (of the trials of ``algorithm`` under ``cost_model``)."""
    return math.ceil(run_trials(dataset, cost_model, algorithm) / BLOCK_SIZE)


def run_trials(dataset, cost_model=None, algorithm=None):
    """Trials ``algorithm`` runs on ``dataset`` under ``cost_model``: the dataset's, capped
    at the ``trials`` of the algorithm's and of the cost model's entries where set (the
    first trials, so a capped run pairs with the others)."""
    caps = [n_trials(dataset)]
    if cost_model is not None:
        caps.append(config["cost_models"][cost_model].get("trials"))
    if algorithm is not None:
        caps.append(config["algorithms"][algorithm].get("trials"))
    return min(int(c) for c in caps if c is not None)


def dataset_algorithms(dataset):
    return config["datasets"][dataset].get("algorithms", ALGORITHMS)


def budgets(dataset, cost_model):
    """The budget grid of (dataset, cost model): the dataset's override or the model's."""
    grid = (
        config["datasets"][dataset]
        .get("budgets", {})
        .get(cost_model, config["cost_models"][cost_model]["budgets"])
    )
    return experiment.budget_grid(grid["step"], grid["stop"], grid.get("start"))


def experiments():
    """Every (dataset, cost model, algorithm) the config asks for."""
    for dataset in DATASETS:
        for cost_model in config["datasets"][dataset]["cost_models"]:
            only = config["cost_models"][cost_model].get("algorithms")
            for algorithm in dataset_algorithms(dataset):
                if only is None or algorithm in only:
                    yield dataset, cost_model, algorithm


def all_shards():
    """Every training shard of the config: the input of the results rules."""
    return [
        f"results/shards/{d}/{c}/{a}/block-{k}.parquet"
        for d, c, a in experiments()
        for k in range(n_blocks(d, c, a))
    ]


def claim_stumps():
    """Stump choices of the algorithms in the roles Greedy and SpeedBoost (claim 4b)."""
    chosen = {CATALOGUE.with_role("greedy"), CATALOGUE.with_role("speedboost")} - {None}
    return [
        f"results/stumps/{d}/{c}/{a}/block-{k}.parquet"
        for d, c, a in experiments()
        if a in chosen
        for k in range(n_blocks(d, c, a))
    ]


def all_timings():
    """The timing table beside every shard (wall-clock, kept out of the shards)."""
    return [
        path.replace("results/shards/", "results/timings/", 1) for path in all_shards()
    ]


def get_final_output():
    """Targets of the default target: shards, timings and the results rules' outputs."""
    return all_shards() + all_timings() + results_outputs()


# ------------------------------------------------------- inputs and targets of the results


def cost_tables():
    """Cost table of every (dataset, cost model): claims tell varied from equal costs."""
    return sorted({f"results/costs/{d}/{c}.parquet" for d, c, _ in experiments()})


def local_datasets():
    """Datasets read from a user-supplied local file (Webscope): shown in Figure 2."""
    return [d for d in DATASETS if registry_entry(d)["source"]["type"] == "local"]


#: the package version, for the report's first page
PACKAGE_VERSION = experiment.package_version()


def results_outputs():
    """Targets of the results rules, for the default target."""
    return [
        "results/summary/summary.md",
        "results/summary/claims.md",
        "results/report/landing.rst",
        *expand("results/figures/{figure}.{ext}", figure=FIGURES, ext=["png", "pdf"]),
    ]


def figure_inputs(wildcards):
    """The results tables a figure reads (by table name) and the code that draws it."""
    spec = FIGURES[wildcards.figure]
    return {
        **spec.input_tables(),
        "code": code_files("budgetboost.figures.registry", spec.module),
    }


def figure_report(attribute):
    """A report() argument read from the figure's registry entry."""
    if attribute == "labels":
        return lambda wildcards: {"figure": FIGURES[wildcards.figure].title}
    return lambda wildcards: getattr(FIGURES[wildcards.figure], attribute)


# --------------------------------------------------------------------- params functions


def split_sizes(wildcards):
    """Train/test sizes of the dataset's splits (Table 1)."""
    entry = registry_entry(wildcards.dataset)
    return {
        "train_size": int(entry["train_size"]),
        "test_size": int(entry["test_size"]),
    }


def split_params(wildcards):
    return {**split_sizes(wildcards), "trials": n_trials(wildcards.dataset)}


def cost_spec(wildcards):
    return config["cost_models"][wildcards.cost_model]["spec"]


def cost_file(wildcards):
    """The per-attribute cost file a ``real`` cost model reads (else nothing)."""
    spec = cost_spec(wildcards)
    if spec["model"] != "real":
        return []
    path = spec.get("file") or registry_entry(wildcards.dataset).get("cost_file")
    return [path] if path else []


def algorithm_params(wildcards):
    """The resolved algorithm of a train job (Table 1 rounds filled in where asked)."""
    spec = experiment.algorithm_spec(
        wildcards.algorithm,
        config["algorithms"][wildcards.algorithm],
        registry_entry(wildcards.dataset).get("adaboost_rounds"),
    )
    return {
        "estimator": spec.estimator,
        "params": spec.params,
        "unbudgeted": spec.unbudgeted,
        "refit_per_budget": spec.refit_per_budget,
        "adaboost_path": spec.adaboost_path,
    }


def block_budgets(wildcards):
    if config["algorithms"][wildcards.algorithm].get("unbudgeted", False):
        return ["inf"]
    return budgets(wildcards.dataset, wildcards.cost_model)


def block_trials(wildcards):
    """Trials of the block (of the algorithm's first trials, for a train job)."""
    return experiment.block_trials(
        int(wildcards.block),
        BLOCK_SIZE,
        run_trials(
            wildcards.dataset, wildcards.get("cost_model"), wildcards.get("algorithm")
        ),
    )


def train_code(wildcards):
    """Package modules a shard depends on: editing them re-runs the train jobs.

    ``budgetboost.pipeline.experiment`` imports the split and cost modules (a train job draws its own
    trials' splits and costs), so editing those, or ``seeds.py``, re-runs the shards too;
    ``budgetboost.data.datasets`` reads the data; ``budgetboost.pipeline.shared_path`` reads the shared
    AdaBoost path of the algorithms that fit from it.
    """
    entry = config["algorithms"][wildcards.algorithm]
    estimator_module = experiment.ESTIMATORS.get(entry["estimator"], entry["estimator"])
    modules = [
        "budgetboost.pipeline.experiment",
        "budgetboost.data.datasets",
        estimator_module.partition(":")[0],
    ]
    if entry.get("adaboost_path", False):
        modules.append("budgetboost.pipeline.shared_path")
    return code_files(*modules)


def shared_path(wildcards):
    """The block's shared AdaBoost paths, for an algorithm that fits from them."""
    if not config["algorithms"][wildcards.algorithm].get("adaboost_path", False):
        return []
    return [f"results/paths/{wildcards.dataset}/block-{wildcards.block}.parquet"]


def path_rounds(wildcards):
    """Rounds of the shared AdaBoost path: the config's, or the dataset's Table 1 rounds
    where those are more (census: 880), so the unbudgeted reference is one of its prefixes.
    """
    rounds = registry_entry(wildcards.dataset).get("adaboost_rounds") or 0
    return max(int(config["adaboost_path"]["max_rounds"]), int(rounds))


# package sources relative to the working directory (the repository root in normal use), so
# moving the repository does not change the recorded inputs
_SOURCE_ROOT = os.path.relpath(workflow.basedir)


@functools.cache
def code_files(*modules):
    """Source files of ``modules`` and the package modules they import (transitively)."""
    files = set()
    for name in modules:
        files.update(experiment.source_files(name, _SOURCE_ROOT))
    return sorted(files)


def download_source(wildcards):
    """URL and sha256 of one file of a ``url`` source."""
    entry = registry_entry(wildcards.dataset)
    for url, sha256, dest in download_targets(wildcards.dataset, entry):
        if dest.name == wildcards.filename:
            return {"url": url, "sha256": sha256}
    raise ValueError(
        f"no url source of dataset {wildcards.dataset!r} downloads {wildcards.filename!r}"
    )


def raw_files(wildcards):
    """Raw file(s) of a dataset; those of a ``url`` source are the download rule's outputs."""
    entry = registry_entry(wildcards.dataset)
    return [str(f.path) for f in source_files(wildcards.dataset, entry)]


# registry fields that do not affect the binarized table (sizes, trials, rounds, docs)
_NOT_BINARIZATION = {
    "description",
    "enabled",
    "train_size",
    "test_size",
    "trials",
    "adaboost_rounds",
    "paper_features",
}


def binarize_entry(wildcards):
    """The registry entry without the fields binarization does not read."""
    entry = registry_entry(wildcards.dataset)
    return {k: v for k, v in entry.items() if k not in _NOT_BINARIZATION}
