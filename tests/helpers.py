"""What the tests share besides fixtures, whatever their folder: throw-away copies of the
repository and the real ``snakemake`` CLI, the hypothesis strategies and example counts of
several layers' tests, reference tables, and the bad configs checked at planning.

``tests/`` is on ``sys.path`` (``pythonpath`` in pyproject.toml), so this module,
``reference.py``, ``synthetic_results.py`` and ``external_estimator.py`` import by name from
any folder (``from helpers import REPO``); the fixtures stay in ``conftest.py``.
"""

from __future__ import annotations

import atexit
import collections
import functools
import os
import re
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

import numpy as np
import yaml
from hypothesis import strategies as st
from packaging.utils import canonicalize_name

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
#: files the tests hand to the code under test (a figure module, estimators, a server)
FIXTURES = TESTS / "fixtures"
#: markers of the tests a plain ``pytest`` leaves out (``--all`` or ``-m`` runs them)


def edited(config: dict, edit) -> dict:
    """A deep copy of ``config`` changed by ``edit(copy)``; ``config`` is left as it was."""
    import copy

    config = copy.deepcopy(config)
    edit(config)
    return config


#: what a run needs; results, logs and .snakemake are left behind
WORKFLOW_FILES = [
    "Snakefile",
    "profiles",
    "workflow",
    "config",
    "resources",
    "budgetboost",
    "pyproject.toml",
]
SNAKEMAKE = str(Path(sys.executable).with_name("snakemake"))
TEST_CONFIG = "config/test.yaml"
#: where a run of the test config writes (a folder of its own: budgetboost.pipeline.folders)
RESULTS, LOGS = "results/test", "logs/test"


def _copy_workflow(source: Path, dest: Path) -> Path:
    dest.mkdir(parents=True, exist_ok=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "downloads", "local")
    for name in WORKFLOW_FILES:
        path = source / name
        if path.is_symlink():
            (dest / name).symlink_to(path.readlink())
        elif path.is_dir():
            shutil.copytree(path, dest / name, symlinks=True, ignore=ignore)
        elif path.exists():
            shutil.copy2(path, dest / name)
    return dest


@functools.cache
def _snapshot() -> Path:
    """One copy of the repository per test session, so that every run of the session uses
    the same code even while the working tree is being edited."""
    root = Path(tempfile.mkdtemp(prefix="budgetboost-snapshot-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    return _copy_workflow(REPO, root / "repo")


def copy_repo(dest: Path) -> Path:
    """A copy of the workflow's files under ``dest`` (mtimes kept, symlinks kept)."""
    return _copy_workflow(_snapshot(), dest)


def clone_run(source: Path, dest: Path) -> Path:
    """A copy of a repository copy including its results and Snakemake metadata."""
    shutil.copytree(source, dest, symlinks=True)
    return dest


def _declared(dist: str) -> list[str]:
    """The requirements ``dist`` declares: budgetboost's from this tree's pyproject.toml (an
    installed copy's metadata lags behind a dependency added here until it is reinstalled),
    any other's from its installed metadata."""
    if canonicalize_name(dist) == "budgetboost":
        try:
            import tomllib
        except ModuleNotFoundError:  # Python 3.10: the installed metadata
            pass
        else:
            return tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]
    return metadata.requires(dist) or []


def _requirements(dist: str) -> list[str]:
    """Names of the distributions ``dist`` needs at run time (no extras, markers evaluated)."""
    from packaging.requirements import Requirement

    names = []
    for text in _declared(dist):
        req = Requirement(text)
        if req.marker is None or req.marker.evaluate({"extra": ""}):
            names.append(req.name)
    return names


@functools.cache
def runtime_modules() -> frozenset[str]:
    """Top-level modules of budgetboost's declared runtime dependencies, transitively."""
    seen, pending = set(), ["budgetboost"]
    while pending:
        name = canonicalize_name(pending.pop())
        if name in seen:
            continue
        seen.add(name)
        try:
            pending += _requirements(name)
        except metadata.PackageNotFoundError:
            continue
    return frozenset(
        module
        for module, dists in metadata.packages_distributions().items()
        if any(canonicalize_name(d) in seen for d in dists)
    )


def runtime_env() -> dict[str, str]:
    """The environment of a process that may import only the declared runtime dependencies
    (``tests/runtime_only/sitecustomize.py``): what ``pip install -e .`` alone gives."""
    env = dict(os.environ)
    guard = str(TESTS / "runtime_only")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [guard, env.get("PYTHONPATH")]))
    env["BUDGETBOOST_RUNTIME_MODULES"] = ",".join(sorted(runtime_modules()))
    return env


def snakemake(
    repo: Path,
    *args: str,
    check: bool = True,
    timeout: float = 600,
    pythonpath: tuple[str, ...] = (),
) -> subprocess.CompletedProcess:
    """Run the real ``snakemake`` CLI in ``repo`` (the test config unless told otherwise),
    with only the declared runtime dependencies importable (:func:`runtime_env`), and
    ``pythonpath`` before the rest of ``PYTHONPATH``."""
    cmd = [SNAKEMAKE, *args]
    if "--configfile" not in args:
        cmd += ["--configfile", TEST_CONFIG]
    env = runtime_env()
    env["PYTHONPATH"] = os.pathsep.join([*pythonpath, env["PYTHONPATH"]])
    proc = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=timeout, env=env)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(cmd)} failed ({proc.returncode}) in {repo}:\n"
            f"{proc.stdout[-4000:]}\n{proc.stderr[-8000:]}"
        )
    return proc


_RULE = re.compile(r"^(?:local)?(?:checkpoint|rule) (\w+):$")
_OUTPUT = re.compile(r"^\s+output: (.*)$")


def planned_jobs(
    repo: Path, *args: str, pythonpath: tuple[str, ...] = ()
) -> list[tuple[str, tuple[str, ...]]]:
    """``(rule, outputs)`` of every job a dry run would execute (``[]``: nothing to do)."""
    proc = snakemake(repo, "-n", *args, pythonpath=pythonpath)
    text = proc.stdout + proc.stderr
    jobs, rule = [], None
    for line in text.splitlines():
        if match := _RULE.match(line):
            rule = match.group(1)
            jobs.append((rule, ()))
        elif rule and (match := _OUTPUT.match(line)):
            jobs[-1] = (rule, tuple(match.group(1).split(", ")))
    if not jobs and "Nothing to be done" not in text:
        raise AssertionError(f"could not parse the dry run:\n{text[-4000:]}")
    return jobs


def planned_rules(repo: Path, *args: str, pythonpath: tuple[str, ...] = ()) -> collections.Counter:
    """Jobs per rule of a dry run, without the target pseudo-rule ``all``."""
    jobs = planned_jobs(repo, *args, pythonpath=pythonpath)
    return collections.Counter(rule for rule, _ in jobs if rule != "all")


def planned_outputs(
    repo: Path, rule: str, *args: str, pythonpath: tuple[str, ...] = ()
) -> set[str]:
    """Outputs of the planned jobs of one rule."""
    jobs = planned_jobs(repo, *args, pythonpath=pythonpath)
    return {out for r, outputs in jobs if r == rule for out in outputs}


def edit_config(repo: Path, edit, name: str = TEST_CONFIG) -> dict:
    """Apply ``edit(config_dict)`` to a YAML config of ``repo``; return the new dict."""
    path = repo / name
    config = yaml.safe_load(path.read_text())
    edit(config)
    path.write_text(yaml.safe_dump(config, sort_keys=False))
    return config


def ran_job(root, rule: str, log: str, seconds: float, peak: float | None, job_hash: int) -> None:
    """One finished job as Snakemake and the rule script leave it: a metadata record (start,
    end, log path) and a log ending with the peak memory (none: the job did not finish)."""
    import json

    (root / log).parent.mkdir(parents=True, exist_ok=True)
    lines = ["2026-11-25 03:47:27,980 INFO census trials [0]"]
    if peak is not None:
        lines.append(f"2026-11-25 03:49:11,976 INFO peak memory: {peak:.0f} MiB")
    (root / log).write_text("\n".join(lines) + "\n")
    record = {"rule": rule, "log": [log], "job_hash": job_hash, "starttime": 100.0}
    record["endtime"] = 100.0 + seconds
    meta = root / ".snakemake" / "metadata"
    meta.mkdir(parents=True, exist_ok=True)
    (meta / f"{job_hash}-{rule}").write_text(json.dumps(record))


# ------------------------------------------------------------------ small problems (hypothesis)

#: every criterion of BudgetedBoost (``budgetboost.estimators.boosting.criteria``), in the paper's
# order
CRITERIA = ("adaboost", "greedy", "smoothed", "speedboost", "hybrid")


#: the feature costs of :func:`problems` unless told otherwise: zeros and repeats
COSTS = st.sampled_from([0.0, 0.05, 0.3, 1.0, 1.7])


@st.composite
def problems(
    draw,
    rows: tuple[int, int] = (4, 12),
    columns: int = 4,
    levels: tuple[int, ...] = (2, 3, 5),
    labels: tuple = (-1, 1),
    costs: st.SearchStrategy = COSTS,
    grouped: bool = True,
):
    """Small random problems ``(X, y, costs, groups)`` for the engines against their
    references: integer-valued or 0/1 columns (few ``levels``: many exact ties), both
    ``labels``, costs with zeros; with ``grouped``, half of them pair up columns in groups
    sharing one cost (``groups`` None otherwise)."""
    m = draw(st.integers(*rows))
    n = draw(st.integers(1, columns))
    k = draw(st.sampled_from(levels))
    X = np.array(
        draw(
            st.lists(
                st.lists(st.integers(0, k - 1), min_size=n, max_size=n), min_size=m, max_size=m
            )
        ),
        dtype=float,
    )
    y = np.array(draw(st.lists(st.sampled_from(labels), min_size=m, max_size=m)))
    if y.min() == y.max():  # one class only: the other for the first row
        y[0] = labels[1] if y[0] == labels[0] else labels[0]
    cost = np.array(draw(st.lists(costs, min_size=n, max_size=n)))
    if grouped and draw(st.booleans()) and n > 1:
        groups = np.arange(n) // 2
        cost = cost[groups * 2]
    else:
        groups = None
    return X, y, cost, groups


def fit_engine(X, y, costs, groups, criterion, max_rounds, budget=None, tau=1.0):
    """BudgetedBoost with stumps fitted on all rows (what the references are checked against)."""
    from budgetboost import BudgetedBoost

    return BudgetedBoost(
        criterion=criterion,
        max_rounds=max_rounds,
        budget=budget,
        tau=tau,
        feature_costs=costs,
        feature_groups=groups,
    ).fit(X, y)


# ------------------------------------------------------------------ bad configs

#: Bad configs and the start of (or a part of) the one-line message naming the offending key
#: that stops them when the workflow is planned (``budgetboost.checks.check_all``, which
#: workflow/rules/common.smk calls): workflow/test_checks.py checks each through check_all,
#: workflow/test_workflow.py some through ``snakemake -n``.
BAD_CONFIGS = [
    (
        lambda c: c.update(block_sise=2),
        "config block_sise: unknown key (allowed here: adaboost_path, algorithms, block_seconds, "
        "block_size, cost_models, datasets, figure_modules, registry, resources, results)",
    ),
    (
        lambda c: c.update(block_seconds=0),
        "config block_seconds: 0 is less than or equal to the minimum of 0",
    ),
    (
        lambda c: c.update(block_size=0),
        "config block_size: 0 is less than the minimum of 1",
    ),
    (
        lambda c: c["datasets"]["heart"].update(trails=3),
        "config datasets.heart.trails: unknown",
    ),
    (
        lambda c: c["datasets"]["heart"].update(cost_models=["uniform_2"]),
        "config datasets.heart.cost_models: 'uniform_2' is not defined under cost_models",
    ),
    (
        lambda c: c["datasets"].update(hearts={"cost_models": ["uniform_0_2"]}),
        "config datasets.hearts: no such dataset in the registry",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(estimator="Greedy"),
        "config algorithms.greedy.estimator: estimator 'Greedy' is neither",
    ),
    (
        lambda c: c["algorithms"]["greedy"]["params"].update(max_round=5),
        "config algorithms.greedy.params.max_round: unknown parameter of BudgetedBoost",
    ),
    (
        lambda c: c["algorithms"]["greedy"]["params"].update(feature_costs=[1]),
        "config algorithms.greedy.params.feature_costs: set per trial by the pipeline",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["budgets"].update(step=-2),
        "config cost_models.uniform_0_2.budgets.step",
    ),
    (
        lambda c: c["algorithms"]["greedy"]["params"].update(criterion="gredy"),
        "config algorithms.greedy.params.criterion: must be one of",
    ),
    (
        lambda c: c["algorithms"]["smoothed"]["params"].update(tau=2),
        "config algorithms.smoothed.params.tau: ",
    ),
    (
        lambda c: c["algorithms"]["greedy"]["params"].update(max_rounds=-1),
        "config algorithms.greedy.params.max_rounds: ",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(model="uniform_randm"),
        "config cost_models.uniform_0_2.spec.model: must be one of ['uniform_random', ",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["spec"].update(hgh=2.0),
        "config cost_models.uniform_0_2.spec.hgh: unknown parameter of model 'uniform_random'",
    ),
    (
        lambda c: c["algorithms"].update({"../../../../x": c["algorithms"]["greedy"]}),
        "config algorithms: name '../../../../x' does not match",
    ),
    (
        lambda c: c["cost_models"].update({"../c": c["cost_models"]["uniform_0_2"]}),
        "config cost_models: name '../c' does not match",
    ),
    (
        lambda c: c["datasets"].update(webscope={"cost_models": ["uniform_0_2"]}),
        "config datasets.webscope: its local file resources/local/webscope/set2.train.txt is "
        'not there (the registry marks it enabled: false). Request "Yahoo! Learning to Rank',
    ),
    (
        lambda c: c["algorithms"]["smoothed"].update(label="AdaBoostBT_Greedy"),
        "config algorithms.smoothed.label: 'AdaBoostBT_Greedy' is also the label of "
        "algorithm 'greedy'",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(label="   "),
        "config algorithms.greedy.label: '   ' is blank",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(label="Mine | v2\nnew"),
        "config algorithms.greedy.label: 'Mine | v2\\nnew' holds a line break",
    ),
    (
        lambda c: (
            c["algorithms"]["greedy"].update(style={"colour": "#DE8F05"}),
            c["algorithms"]["smoothed"].update(style={"colour": "#de8f05"}),
        ),
        "config algorithms.smoothed.style.colour: '#de8f05' is the colour of algorithm "
        "'greedy' ('#DE8F05'): each algorithm needs a colour of its own",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(style={"colour": "red", "marker": "zz"}),
        "config algorithms.greedy.style.marker: not a matplotlib marker: 'zz'",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(style={"colour": "red", "linestyle": "wavy"}),
        "config algorithms.greedy.style.linestyle: not a matplotlib linestyle: 'wavy'",
    ),
    (
        lambda c: c["algorithms"]["greedy"].update(estimator="collections:OrderedDict"),
        "config algorithms.greedy.estimator: collections:OrderedDict is not a "
        "budgetboost.BudgetedEstimator",
    ),
    (
        lambda c: c["algorithms"]["lightgbm_stumps"].update(refit_per_budget=True),
        "config algorithms.lightgbm_stumps.refit_per_budget: BudgetedLightGBM has no "
        "budget parameter",
    ),
    (
        lambda c: c["algorithms"]["smoothed"].update(rounds_from_registry="tau"),
        "config algorithms.smoothed.rounds_from_registry: tau = ",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["budgets"].update(stop=float("inf")),
        "config cost_models.uniform_0_2.budgets: budget stop must be a finite number",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["budgets"].update(step=1e-12),
        "config cost_models.uniform_0_2.budgets: 10000000000000 budgets from 1e-12 to 10",
    ),
    (
        lambda c: c["cost_models"]["uniform_0_2"]["budgets"].update(step=1e-11, stop=5e-10),
        "config cost_models.uniform_0_2.budgets: step 1e-11 from 1e-11 is finer than the "
        "grid's resolution",
    ),
    (
        lambda c: c["datasets"]["heart"].update(trials=100000),
        "config datasets.heart.trials: 100000 is greater than the maximum of 1000",
    ),
    (
        lambda c: c["cost_models"]["turney"].update(algorithms=["gredy"]),
        "config cost_models.turney.algorithms: 'gredy' is not defined under algorithms",
    ),
    (  # names Snakemake or the file system would refuse late
        lambda c: c["algorithms"].update({"g" * 256: c["algorithms"]["greedy"]}),
        "config algorithms." + "g" * 256 + ": name of 256 bytes: names become file names",
    ),
    (
        lambda c: c["algorithms"].update({"greedy" + "ab" * 20: c["algorithms"]["greedy"]}),
        "config algorithms.greedy" + "ab" * 20 + ": name ends in 'ab' repeated 20 times, which "
        "Snakemake takes for a rule matching its own output (PeriodicWildcardError)",
    ),
]

# ------------------------------------------------------------------ reference tables

# Demšar (2006), Table 6: AUC of C4.5 with m = 0 and cf = 0.25 (C4.5), with a tuned m
# (C4.5+m), a tuned cf (C4.5+cf) and both tuned (C4.5+m+cf), on 14 UCI data sets, one row per
# data set in the paper's order. The 13th row prints 0.975 for both C4.5+cf and C4.5+m+cf,
# but the published average ranks (2.893 and 1.964, not the 2.929 and 1.929 of a tie) are
# only reproduced with C4.5+cf ranked ahead there (the printed AUCs are rounded), so C4.5+cf
# gets 0.9751 in that row.
DEMSAR_NAMES = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_AUC = [
    [0.763, 0.768, 0.771, 0.798],
    [0.599, 0.591, 0.590, 0.569],
    [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657],
    [0.882, 0.888, 0.886, 0.898],
    [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685],
    [0.583, 0.583, 0.563, 0.625],
    [0.775, 0.838, 0.866, 0.875],
    [1.000, 1.000, 1.000, 1.000],
    [0.940, 0.962, 0.965, 0.962],
    [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.9751, 0.975],
    [0.957, 0.978, 0.946, 0.970],
]


def alias_bomb(levels: int = 9) -> str:
    """The 'billion laughs' document: 9 levels of 9 references, 342 bytes, 9^9 strings."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    names = "abcdefghijklmnopqrstuvwxyz"
    for i in range(1, levels):
        refs = ",".join([f"*{names[i - 1]}"] * 9)
        lines.append(f"{names[i]}: &{names[i]} [{refs}]")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ example counts (hypothesis)

#: ``max_examples`` of the ``ci`` hypothesis profile (conftest.py), the scale in which a test
#: states its own count to :func:`examples`
CI_EXAMPLES = 100


def examples(ci: int) -> int:
    """``max_examples`` of a property test that runs ``ci`` examples under the ``ci`` profile,
    scaled by the loaded profile's ``max_examples`` (the fast loop's runs a tenth), so one
    setting scales every test; at least ``min(ci, 5)``."""
    from hypothesis import settings

    scaled = ci * settings.default.max_examples // CI_EXAMPLES
    return max(min(ci, 5), scaled)


def bundled_components(config: dict) -> int:
    """Connected components of a config's bundled jobs (train, adaboost_path): a shared path
    block joins the train jobs that read it."""
    from budgetboost.checks import check_all
    from budgetboost.pipeline import plan

    planned = plan.Plan(*check_all(config, REPO))
    parent: dict = {}

    def root(node):
        while parent.setdefault(node, node) != node:
            node = parent[node]
        return node

    def join(job, others):
        for other in others:
            parent[root(other)] = root(job)

    reads = {name for name, entry in config["algorithms"].items() if entry.get("adaboost_path")}

    def paths(dataset, cost_model, algorithm, k):
        if algorithm not in reads:
            return []
        return [
            ("path", dataset, b) for b in planned.path_blocks(k, dataset, cost_model, algorithm)
        ]

    for dataset in planned.datasets:
        for k in range(planned.blocks(dataset)):
            root(("path", dataset, k))
    for dataset, cost_model, algorithm in planned.experiments():
        for k in range(planned.blocks(dataset, cost_model, algorithm)):
            job = ("train", dataset, cost_model, algorithm, k)
            root(job)  # a block that reads no shared path is a component of its own
            join(job, paths(dataset, cost_model, algorithm, k))
    return len({root(node) for node in list(parent)})
