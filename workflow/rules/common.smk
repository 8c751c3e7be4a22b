# Configuration, dataset registry and the input/params functions of every rule: each reads
# budgetboost.pipeline.plan.Plan, where what a run holds (experiments, trial caps, blocks,
# budgets) is written and tested. Each rule gets as params only the part of the config its
# output depends on, so editing one entry re-runs only the jobs that entry feeds (Snakemake's
# params rerun trigger).
import functools
import os
import sys

from snakemake.exceptions import WorkflowError

from budgetboost.checks import ConfigError, check_all
from budgetboost.data.registry import download_targets, source_files
from budgetboost.estimators.contract.registry import estimator_module
from budgetboost.figures import registry as figures
from budgetboost.pipeline import folders, partitions, run_lock
from budgetboost.pipeline.code import package_version
from budgetboost.pipeline.specs import canonical, canonical_spec
from budgetboost.pipeline.code import source_files as module_files
from budgetboost.pipeline.code import untracked
from budgetboost.pipeline.identity import job_identity
from budgetboost.pipeline.plan import Plan

# the whole config is checked here, before any job is planned (budgetboost.checks): a bad
# value stops the run with one line naming its config path
try:
    _checked, REGISTRY = check_all(config, files=CONFIG_FILES)
except ConfigError as exc:
    raise WorkflowError(folders.run_elsewhere(str(exc), workflow.basedir)) from None
config.update(_checked)
PLAN = Plan(config, REGISTRY)
#: where this config's outputs go (config key `results`, else a folder named for its config
#: file: budgetboost.pipeline.folders), and its logs (mirrored under logs/)
RESULTS = PLAN.results
LOGS = PLAN.logs


# the SLURM partitions asked for, against those sinfo lists where it exists (a dry run
# submits nothing, so SLURM itself would only refuse one at the first submission)
_settings = getattr(workflow, "resource_settings", None)
if _settings is not None:
    _problem = partitions.planning_problem(
        [
            _settings.default_resources,
            *dict(_settings.overwrite_resources or {}).values(),
        ]
    )
    if _problem:
        raise WorkflowError(_problem)


# a run that writes locks its results folder for as long as it runs (a second run on it
# stops: budgetboost.pipeline.run_lock; --nolock skips it, as it skips Snakemake's own) and
# records its config as the folder's owner: another config planned into it stops
# (common.smk's check_all) instead of overwriting its outputs. Only the main process runs
# these hooks: a dry run, --report and the jobs a cluster runs skip them.
_RUN_LOCK = []


onstart:
    if workflow.execution_settings.lock:
        try:
            _RUN_LOCK.append(run_lock.take(RESULTS))
        except run_lock.RunLockError as _exc:
            raise WorkflowError(str(_exc)) from None
    try:
        folders.claim(RESULTS, folders.config_identity(CONFIG_FILES))
    except folders.FolderError as _exc:
        raise WorkflowError(str(_exc)) from None


onsuccess:
    for _lock in _RUN_LOCK:
        _lock.release()


onerror:
    for _lock in _RUN_LOCK:
        _lock.release()


def R(path):
    """``path`` under the run's results folder (wildcards left as they are)."""
    return f"{RESULTS}/{path}"


def L(path):
    """``path`` under the run's log folder."""
    return f"{LOGS}/{path}"


DATASETS, COST_MODELS, ALGORITHMS = PLAN.datasets, PLAN.cost_models, PLAN.algorithms
# an estimator's code is a train job's input (code_files, below) unless it is installed code:
# say so plainly
for _name in ALGORITHMS:
    _module = estimator_module(config["algorithms"][_name]["estimator"])
    if _why := untracked(_module, os.path.relpath(workflow.basedir)):
        print(
            f"note: algorithm {_name!r}: {_why} (a new version re-runs its shards only if "
            "its class lists its distribution in `libraries`)",
            file=sys.stderr,
        )
#: labels, families, roles and styles of the algorithms, for every results rule
CATALOGUE = PLAN.catalogue()
#: the registered figures (budgetboost.figures.registry)
FIGURE_MODULES = config["figure_modules"]
FIGURES = figures.load(FIGURE_MODULES)
#: the figure files the run makes, one plot job each: {file name: (figure, page)}, planned
#: from a stand-in of the summary table with every cell the plan runs, so a figure with
#: nothing to draw is not made and one too large for a screen is made in pages
FIGURE_PAGES = figures.plan_figures(FIGURES, PLAN, CATALOGUE)
#: the package version, for the report's first page
PACKAGE_VERSION = package_version()


def get_final_output():
    """Targets of the default target: shards, timings and the results rules' outputs."""
    return all_shards() + PLAN.shards("timings") + results_outputs()


# ------------------------------------------------ what the results rules read (results.smk)


def all_shards():
    """Every training shard of the config: the input of the results rules."""
    return PLAN.shards()


def split_tables():
    """Splits file of every dataset: the paired tests read the sizes and pool from them."""
    return expand(R("splits/{dataset}.parquet"), dataset=DATASETS)


def binarized_tables():
    """Binarized table of every dataset: the aggregate reads each indicator's attribute."""
    return expand(R("data/{dataset}.parquet"), dataset=DATASETS)


def cost_tables():
    """Cost table of every (dataset, cost model): claims tell varied from equal costs."""
    return PLAN.cost_tables()


def local_datasets():
    """Datasets read from a user-supplied local file (Webscope): shown in Figure 2."""
    return PLAN.local_datasets()


def dataset_order():
    """The run's datasets in Table 1's order: the figures' panel order."""
    return PLAN.dataset_order()


def cost_model_roles():
    """The baseline cost model (U[0, 2]), each cost model's kind (its spec's model) and the
    field's cost models with their pools."""
    return {
        "baseline": PLAN.baseline_cost_model(),
        "kinds": PLAN.cost_model_kinds(),
        "field": PLAN.field_pools(),
    }


def results_outputs():
    """Targets of the results rules, for the default target."""
    return [
        R("summary/summary.md"),
        R("summary/claims.md"),
        R("summary/summary.html"),
        R("summary/claims.html"),
        R("report/landing.rst"),
        R("explore.html"),
        *expand(R("figures/{figure}.{ext}"), figure=FIGURE_PAGES, ext=["png", "pdf"]),
    ]


def claim_algorithms():
    """The algorithms in the roles Greedy and SpeedBoost (claim 4b)."""
    return {CATALOGUE.with_role("greedy"), CATALOGUE.with_role("speedboost")} - {None}


def claim_stumps():
    """Stump choices of the algorithms in the roles Greedy and SpeedBoost (claim 4b)."""
    return PLAN.shards("stumps", claim_algorithms())


def figure_spec(wildcards):
    """The registry entry of a figure file (one page of a figure)."""
    return FIGURES[FIGURE_PAGES[wildcards.figure][0]]


def figure_inputs(wildcards):
    """The results tables a figure reads (by table name) and the code that draws it."""
    spec = figure_spec(wildcards)
    return {
        **spec.input_tables(RESULTS),
        "code": code_files("budgetboost.figures.registry", spec.module),
    }


def figure_modules():
    """The modules of every registered figure (the first page asks each what it draws)."""
    return sorted({spec.module for spec in FIGURES.values()})


def figure_page(wildcards):
    """``{"figure": name, "page": k}`` of a figure file (page 0 first)."""
    name, page = FIGURE_PAGES[wildcards.figure]
    return {"figure": name, "page": page}


def figure_report(attribute):
    """A report() argument read from the figure's registry entry (its label says the page
    of a figure made in pages)."""
    if attribute == "labels":
        return lambda wildcards: {"figure": page_label(wildcards)}
    return lambda wildcards: getattr(figure_spec(wildcards), attribute)


def page_label(wildcards):
    """The figure's title, with "page k of n" when it has more than one page."""
    name, page = FIGURE_PAGES[wildcards.figure]
    count = sum(1 for figure, _ in FIGURE_PAGES.values() if figure == name)
    title = FIGURES[name].title
    return title if count == 1 else f"{title} (page {page + 1} of {count})"


# --------------------------------------------------------------------- params functions


def split_sizes(wildcards):
    return PLAN.split_sizes(wildcards.dataset)


def split_params(wildcards):
    return {**split_sizes(wildcards), "trials": PLAN.trials(wildcards.dataset)}


def cost_spec(wildcards):
    return canonical_spec(PLAN.cost_spec(wildcards.cost_model))


def cost_file(wildcards):
    return PLAN.cost_file(wildcards.dataset, wildcards.cost_model)


def algorithm_params(wildcards):
    """The resolved algorithm of a train job (Table 1 rounds filled in where asked)."""
    spec = PLAN.algorithm(wildcards.algorithm, wildcards.dataset)
    return {
        "estimator": spec.estimator,
        "params": canonical(spec.params),  # the keys' order in the config is no change
        "unbudgeted": spec.unbudgeted,
        "refit_per_budget": spec.refit_per_budget,
        "adaboost_path": spec.adaboost_path,
    }


def block_budgets(wildcards):
    return PLAN.block_budgets(
        wildcards.dataset, wildcards.cost_model, wildcards.algorithm
    )


def block_trials(wildcards):
    """Trials of the block (of the algorithm's first trials, for a train job)."""
    return PLAN.block_trials(
        int(wildcards.block),
        wildcards.dataset,
        wildcards.get("cost_model"),
        wildcards.get("algorithm"),
    )


def train_code(wildcards):
    """Package modules a shard depends on: editing them re-runs the train jobs."""
    return code_files(*PLAN.train_modules(wildcards.algorithm))


def shared_path(wildcards):
    """The shared AdaBoost paths of the block's trials, for an algorithm that fits from
    them (the path's blocks are sized by its own cost: one or several of them)."""
    if not config["algorithms"][wildcards.algorithm].get("adaboost_path", False):
        return []
    blocks = PLAN.path_blocks(
        int(wildcards.block),
        wildcards.dataset,
        wildcards.cost_model,
        wildcards.algorithm,
    )
    return [R(f"paths/{wildcards.dataset}/block-{k}.parquet") for k in blocks]


def train_priority(wildcards):
    """The job's expected CPU seconds: Snakemake starts the longest ready jobs first, so
    the run does not wait on a long job started last."""
    return round(
        PLAN.job_seconds(
            int(wildcards.block),
            wildcards.dataset,
            wildcards.cost_model,
            wildcards.algorithm,
        )
    )


class _Wildcards(dict):
    """The wildcards of a job not (yet) planned by Snakemake, as its input functions read
    them."""

    __getattr__ = dict.__getitem__


def checked_trial(wildcards):
    """The trial the train job fits once more to check that it is reproducible, or None
    (budgetboost.pipeline.plan.Plan.checked_trial)."""
    return PLAN.checked_trial(
        int(wildcards.block),
        wildcards.dataset,
        wildcards.cost_model,
        wildcards.algorithm,
    )


def train_identity(wildcards):
    """What makes a train job's outputs (budgetboost.pipeline.identity): its wildcards, its
    other params and the contents of its code and cost file, recorded in its outputs and
    checked by the jobs that read them."""
    params = {
        "algorithm": algorithm_params(wildcards),
        "budgets": block_budgets(wildcards),
        "trials": block_trials(wildcards),
        "split": split_sizes(wildcards),
        "cost_spec": cost_spec(wildcards),
        "versions": PLAN.versions(wildcards.algorithm),
    }
    files = [*train_code(wildcards), *cost_file(wildcards)]
    return job_identity(dict(wildcards.items()), params, files)


def train_identities(folder, algorithms=None):
    """``{path: identity}`` of the train jobs' outputs of ``folder`` (shards, stumps): what
    the jobs reading them check (budgetboost.pipeline.identity.check_identities)."""
    out = {}
    for dataset, cost_model, algorithm in PLAN.experiments():
        if algorithms is not None and algorithm not in algorithms:
            continue
        for block in range(PLAN.blocks(dataset, cost_model, algorithm)):
            wildcards = _Wildcards(
                dataset=dataset,
                cost_model=cost_model,
                algorithm=algorithm,
                block=str(block),
            )
            path = R(
                f"{folder}/{dataset}/{cost_model}/{algorithm}/block-{block}.parquet"
            )
            out[path] = train_identity(wildcards)
    return out


def path_rounds(wildcards):
    return PLAN.path_rounds(wildcards.dataset)


# package sources relative to the working directory (the repository root in normal use), so
# moving the repository does not change the recorded inputs
_SOURCE_ROOT = os.path.relpath(workflow.basedir)


@functools.cache
def code_files(*modules):
    """Source files of ``modules`` and the package modules they import (transitively)."""
    files = set()
    for name in modules:
        files.update(module_files(name, _SOURCE_ROOT))
    return sorted(files)


def download_source(wildcards):
    """URL and sha256 of one file of a ``url`` source."""
    entry = REGISTRY[wildcards.dataset]
    for url, sha256, dest in download_targets(wildcards.dataset, entry):
        if dest.name == wildcards.filename:
            return {"url": url, "sha256": sha256}
    raise ValueError(
        f"no url source of dataset {wildcards.dataset!r} downloads {wildcards.filename!r}"
    )


def raw_files(wildcards):
    """Raw file(s) of a dataset; those of a ``url`` source are the download rule's outputs."""
    return [
        str(f.path)
        for f in source_files(wildcards.dataset, REGISTRY[wildcards.dataset])
    ]


def binarize_entry(wildcards):
    return PLAN.binarize_entry(wildcards.dataset)
