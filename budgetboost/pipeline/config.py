"""The pipeline's configuration, checked in full before any job is planned.

:func:`load_config_file` reads a config file (a YAML error names its line),
:func:`validate_config` checks it against the JSON Schema and fills in its defaults, and
:func:`check_config` checks what a schema cannot say: names that refer to other entries, the
estimators' parameter values, the cost models' specs, the budget grids and the datasets'
source files. Every problem is a :class:`ConfigError` of one line that starts with the config
path of the offending value, e.g.::

    config algorithms.greedy.params.criterion: must be one of [...]; got 'gredy'

What only the figures can check (styles, figure modules) is :mod:`budgetboost.figures`'s;
:func:`budgetboost.checks.check_all` runs both when the workflow is planned.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from importlib.metadata import PackageNotFoundError
from pathlib import Path
from typing import Any

from budgetboost.data.cost_kinds import check_attributes
from budgetboost.data.cost_registry import MAX_COST
from budgetboost.data.costs import SpecError, check_spec, kind_of
from budgetboost.data.datasets import check_labels, source_columns
from budgetboost.data.io import CorruptTableError, SmallFileError, read_arrow, read_small_text
from budgetboost.data.jsonschema import validate_with_defaults
from budgetboost.data.registry import DatasetError, load_registry, source_files
from budgetboost.data.splits import check_training_classes
from budgetboost.data.yamlfile import MAX_BYTES, YamlError, load_yaml
from budgetboost.estimators.contract.base import BudgetedEstimator
from budgetboost.estimators.contract.params import InvalidParameterError
from budgetboost.estimators.contract.registry import estimator_class
from budgetboost.pipeline import folders
from budgetboost.pipeline.code import library_versions
from budgetboost.pipeline.plan import grid_budgets
from budgetboost.pipeline.specs import PER_TRIAL_PARAMS
from budgetboost.pipeline.verify import never_called

__all__ = [
    "name_problem",
    "PIPELINE_PARAMS",
    "SCHEMA_PATH",
    "ConfigError",
    "check_pipeline",
    "check_config",
    "load_config_file",
    "validate_config",
]

#: The config's JSON Schema (its documentation, key by key), shipped inside the package:
#: planning works from a wheel.
SCHEMA_PATH = Path(__file__).resolve().parents[1] / "schemas" / "config.schema.yaml"

#: Estimator parameters the pipeline sets per trial; a config entry may not set them.
PIPELINE_PARAMS = PER_TRIAL_PARAMS
#: Parameters that set how many plain AdaBoost rounds an estimator boosts.
ROUNDS_PARAMS = ("max_rounds", "n_rounds")


class ConfigError(ValueError):
    """A bad configuration: the message names the config path (or file and line)."""


def _where(*path: object) -> str:
    return "config " + ".".join(str(p) for p in path if p != "")


def load_config_file(path: str | Path) -> dict[str, Any]:
    """Read a YAML config file strictly (:func:`budgetboost.data.yamlfile.load_yaml`).

    A syntax error names the file, line and column (Snakemake's own reader reports only
    "Config file is not valid JSON or YAML"); a key given twice names both lines (YAML, and
    Snakemake, would keep the last one silently); a file that is not a small text file, or
    whose aliases expand too far, stops with one line; a YAML tag that would build a Python
    object (``!!python/object/apply:os.system``) is named as written, with its line
    (``_tag_problem``), and never built.
    """
    try:
        loaded = load_yaml(path, "config file")
    except YamlError as exc:
        unknown_tag = "could not determine a constructor for the tag" in str(exc)
        raise ConfigError((unknown_tag and _tag_problem(path)) or str(exc)) from None
    if not isinstance(loaded, dict):
        raise ConfigError(
            f"config file {path}: expected a mapping of keys at the top level, "
            f"got {type(loaded).__name__}"
        )
    return loaded


#: The tags of YAML's core schema, which a config's values may carry (``!!str 1``).
_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "int", "float", "bool", "null", "map", "seq", "timestamp", "merge")
)


def _tag_problem(path: str | Path) -> str | None:
    """``config file <path>, line <n>: YAML tag <tag> ...`` for the first tag in the file
    that is not one of YAML's plain types (a tag asking for a Python object, a set, bytes),
    or None. Reads the file's tokens only: nothing is built."""
    import yaml

    try:
        text = read_small_text(path, MAX_BYTES)
    except SmallFileError:
        return None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if not isinstance(token, yaml.TagToken):
                continue
            handle, suffix = token.value
            written = f"{handle or ''}{suffix}"
            full = f"tag:yaml.org,2002:{suffix}" if handle == "!!" else written
            if full not in _PLAIN_TAGS:
                return (
                    f"config file {path}, line {token.start_mark.line + 1}: YAML tag "
                    f"{written} is not allowed (a config holds plain values: text, numbers, "
                    "true/false, lists and mappings); remove the tag, or quote the value if "
                    "it is text"
                )
    except yaml.YAMLError:
        return None
    return None


def validate_config(
    config: Mapping[str, Any],
    schema: str | Path = SCHEMA_PATH,
) -> dict[str, Any]:
    """Check ``config`` against the schema; return a copy with the schema's defaults.

    Raises
    ------
    ConfigError
        ``config <path>: <reason>`` for the first error in document order (one line, not
        jsonschema's dump of the schema).
    """
    schema_doc = with_vocabularies(load_yaml(schema, "schema"))
    filled, error = validate_with_defaults(config, schema_doc)
    if error:
        path, reason = error
        where = _where(*path) if path else "config (top level)"
        raise ConfigError(f"{where}: {reason}")
    return filled


def with_vocabularies(schema: dict[str, Any]) -> dict[str, Any]:
    """The config schema with the values an algorithm's ``family`` and ``role`` may take,
    from their one definition (:data:`~budgetboost.catalogue.FAMILIES`,
    :data:`~budgetboost.catalogue.ROLES`): a family added there is accepted here."""
    from budgetboost.catalogue import FAMILIES, ROLES

    properties = schema["$defs"]["algorithm"]["properties"]
    properties["family"] = {**properties["family"], "enum": list(FAMILIES)}
    properties["role"] = {**properties["role"], "enum": list(ROLES)}
    return schema


#: The longest suffix a name gets in a file name (``results/data/{dataset}.parquet``).
_LONGEST_SUFFIX = len(".parquet")
#: Snakemake refuses a wildcard value ending in a part repeated this many times or more
#: (``PeriodicWildcardError``: it takes it for a rule matching its own output).
_PERIODIC = re.compile(r"(.+)\1{19,}$")


def name_problem(name: str, root: str | Path = ".") -> str | None:
    """Why a dataset, cost-model or algorithm name cannot name files and wildcards, or None:
    longer in bytes than the file system's names allow (less the ``.parquet`` it may get),
    or ending in a part repeated 20 times (Snakemake would stop the run on it)."""
    try:
        limit = os.pathconf(root, "PC_NAME_MAX")
    except (OSError, ValueError):
        limit = 255
    size = len(name.encode("utf-8"))
    if size + _LONGEST_SUFFIX > limit:
        return (
            f"name of {size} bytes: names become file names (e.g. {name[:12]}....parquet), "
            f"and this file system allows {limit} bytes; at most {limit - _LONGEST_SUFFIX}"
        )
    periodic = _PERIODIC.search(name)
    if periodic:
        part = periodic.group(1)
        return (
            f"name ends in {part!r} repeated {len(periodic.group(0)) // len(part)} "
            "times, which Snakemake takes for a rule matching its own output "
            "(PeriodicWildcardError): choose another name"
        )
    return None


def check_config(
    config: Mapping[str, Any], registry: Mapping[str, Mapping[str, Any]], root: str | Path = "."
) -> None:
    """Check what the schema cannot, on a config that passed :func:`validate_config`.

    Parameters
    ----------
    config : mapping
        The validated config (defaults filled in).
    registry : mapping
        The dataset registry (``registry.load_registry``).
    root : path-like
        The repository root, against which relative files are resolved.

    Raises
    ------
    ConfigError
        The first problem, as ``config <path>: <reason>``.
    """
    root = Path(root)
    for section in ("datasets", "cost_models", "algorithms"):
        for name in config[section]:
            problem = name_problem(name, root)
            if problem:
                raise ConfigError(f"{_where(section, name)}: {problem}")
    for name, entry in config["datasets"].items():
        _check_dataset(config, registry, name, entry, root)
    for name, entry in config["cost_models"].items():
        try:
            check_spec(entry["spec"])
        except SpecError as exc:
            raise ConfigError(
                f"{_where('cost_models', name, 'spec', exc.key)}: {exc.reason}"
            ) from None
        for item in entry.get("algorithms", []):
            if item not in config["algorithms"]:
                raise ConfigError(
                    f"{_where('cost_models', name, 'algorithms')}: {item!r} is not defined "
                    f"under algorithms (defined: {', '.join(config['algorithms'])})"
                )
    for name, entry in config["algorithms"].items():
        datasets = [
            d
            for d, e in config["datasets"].items()
            if name in e.get("algorithms", config["algorithms"])
        ]
        rounds = [registry[d].get("adaboost_rounds") for d in datasets]
        _check_algorithm(name, entry, rounds)
        if entry.get("adaboost_path"):
            _check_shared_path(name, entry, rounds, config["adaboost_path"]["max_rounds"])
    for name in config["datasets"]:
        _check_sizes_against_data(config, registry, name, root)
    for dataset, cost_model in _dataset_cost_models(config):
        _check_grid(config, dataset, cost_model)
        discounted = _check_cost_file(config, registry, dataset, cost_model, root)
        _check_prices_taken(config, dataset, cost_model, discounted)
    _check_catalogue(config)


def check_pipeline(
    config: Mapping[str, Any],
    root: str | Path = ".",
    files: Sequence[str | Path] = (),
) -> tuple[dict[str, Any], dict[str, dict]]:
    """The schema, then :func:`check_config`: everything the pipeline layer can check.

    ``files`` are the config files the config was read from (none: the default config):
    a config without ``results:`` writes to their own folder
    (:func:`budgetboost.pipeline.folders.default_results`), and a folder another config owns
    stops here. Returns the config with its defaults filled in and the dataset registry it
    names.
    """
    if "results" not in config:
        config = {**config, "results": folders.default_results(files, root)}
    config = validate_config(config)
    problem = folders.check_results_folder(config["results"])
    if problem:
        raise ConfigError(f"{_where('results')}: {config['results']!r}: {problem}")
    try:
        folders.check_owner(config["results"], folders.config_identity(files, root), root)
    except folders.FolderError as exc:
        raise ConfigError(str(exc)) from None
    try:
        registry = load_registry(Path(root) / config["registry"])
    except (OSError, ValueError) as exc:
        raise ConfigError(f"{_where('registry')}: {exc}") from None
    check_config(config, registry, root)
    return config, registry


# --------------------------------------------------------------------------- helpers


def _dataset_cost_models(config: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for dataset, entry in config["datasets"].items():
        for cost_model in entry["cost_models"]:
            yield dataset, cost_model


def _check_dataset(config, registry, name, entry, root: Path) -> None:
    if name not in registry:
        raise ConfigError(
            f"{_where('datasets', name)}: no such dataset in the registry "
            f"{config['registry']} (known: {', '.join(sorted(registry))})"
        )
    for key, defined in (
        ("cost_models", config["cost_models"]),
        ("algorithms", config["algorithms"]),
    ):
        for item in entry.get(key, []):
            if item not in defined:
                raise ConfigError(
                    f"{_where('datasets', name, key)}: {item!r} is not defined "
                    f"under {key} (defined: {', '.join(defined)})"
                )
    for cost_model in entry.get("budgets", {}):
        if cost_model not in entry["cost_models"]:
            raise ConfigError(
                f"{_where('datasets', name, 'budgets', cost_model)}: not one "
                f"of this dataset's cost models {entry['cost_models']}"
            )
    registry_entry = registry[name]
    try:  # the label rule against the raw files already there (binarize would stop on it)
        rows = check_labels(name, registry_entry, root)
    except DatasetError as exc:
        raise ConfigError(f"{_where('datasets', name)}: {exc}") from None
    if rows is not None:  # binarize keeps at most the source's rows
        where = ", ".join(
            str(_shown(f.path, root)) for f in source_files(name, registry_entry, root)
        )
        _check_sizes(config, registry, name, rows, where)
    if registry_entry["source"]["type"] != "local":
        return
    missing = [
        _shown(f.path, root)
        for f in source_files(name, registry_entry, root)
        if not f.path.exists()
    ]
    if missing:
        disabled = (
            " (the registry marks it enabled: false)"
            if not registry_entry.get("enabled", True)
            else ""
        )
        instructions = registry_entry["source"].get("instructions", "").strip()
        raise ConfigError(
            f"{_where('datasets', name)}: its local file {missing[0]} is not "
            f"there{disabled}. {instructions}".rstrip()
        )


def _check_sizes_against_data(config, registry, name: str, root: Path) -> None:
    """Where the binarized data already exists (a second run, or a config beside another),
    its row count and labels against the sizes and trials: the split job would fail on
    them, and every job after it."""
    path = root / str(config.get("results", "results")) / "data" / f"{name}.parquet"
    if not path.is_file():
        return
    try:  # a damaged table is named by the first job that reads it (with how to rebuild it)
        y = read_arrow(path, columns=["y"]).column("y").to_numpy()
    except CorruptTableError:
        return
    sizes = _check_sizes(config, registry, name, len(y), _shown(path, root))
    trials = int(config["datasets"][name].get("trials", registry[name]["trials"]))
    try:
        check_training_classes(name, y, sizes["train_size"], sizes["test_size"], trials)
    except ValueError as exc:
        raise ConfigError(f"{_where('datasets', name)}: {exc}") from None


def _check_sizes(config, registry, name: str, n_rows: int, source: object) -> dict[str, int]:
    """The dataset's sizes (the config's, else the registry's) fit its ``n_rows`` rows (read
    from ``source``); returns them."""
    entry, defaults = config["datasets"][name], registry[name]
    sizes = {key: int(entry.get(key, defaults[key])) for key in ("train_size", "test_size")}
    key = "train_size" if "train_size" in entry else "test_size" if "test_size" in entry else None
    where = (
        _where("datasets", name, key)
        if key
        else f"{_where('datasets', name)} (the registry's sizes)"
    )
    if sum(sizes.values()) > n_rows:
        raise ConfigError(
            f"{where}: train_size {sizes['train_size']} + test_size {sizes['test_size']} = "
            f"{sum(sizes.values())} rows, but {name} has {n_rows} ({source})"
        )
    return sizes


def _shown(path: Path, root: Path) -> Path:
    """``path`` as the user wrote it: relative to the repository root where it lies below."""
    try:
        return path.relative_to(root)
    except ValueError:
        return path


def _check_algorithm(name: str, entry: Mapping[str, Any], rounds: list[Any]) -> None:

    params = dict(entry.get("params") or {})
    for key in PIPELINE_PARAMS:
        if key in params:
            raise ConfigError(
                f"{_where('algorithms', name, 'params', key)}: set per trial by "
                "the pipeline; remove it from the config"
            )
    try:
        cls = estimator_class(entry["estimator"])
    except ValueError as exc:
        raise ConfigError(f"{_where('algorithms', name, 'estimator')}: {exc}") from None
    accepted = _constructor_params(cls)
    if not (isinstance(cls, type) and issubclass(cls, BudgetedEstimator)):
        raise ConfigError(
            f"{_where('algorithms', name, 'estimator')}: {entry['estimator']} is not a "
            "budgetboost.BudgetedEstimator (subclass it: see its docstring, 'Writing an "
            "estimator')"
        )
    if overridden := never_called(cls):
        raise ConfigError(
            f"{_where('algorithms', name, 'estimator')}: {entry['estimator']} overrides "
            f"{', '.join(overridden)}, which a train job never calls: it computes the errors "
            "from the labels of _scores_and_costs and the costs from the feature groups "
            "_groups_read says each example reads; remove the override and implement those "
            "hooks (see budgetboost.BudgetedEstimator, 'Writing an estimator')"
        )
    for library in getattr(cls, "libraries", ()):
        try:
            library_versions((library,))
        except PackageNotFoundError:
            raise ConfigError(
                f"{_where('algorithms', name, 'estimator')}: {entry['estimator']} wraps "
                f"{library}, which is not installed (pip install {library})"
            ) from None
    if "feature_costs" not in accepted:
        raise ConfigError(
            f"{_where('algorithms', name, 'estimator')}: {entry['estimator']} takes no "
            "feature_costs parameter (the pipeline passes each trial's costs through it)"
        )
    if entry.get("refit_per_budget") and "budget" not in accepted:
        raise ConfigError(
            f"{_where('algorithms', name, 'refit_per_budget')}: {entry['estimator']} has no "
            "budget parameter to refit at each budget (it is fitted once and evaluated at "
            "every budget: remove refit_per_budget)"
        )
    rounds_param = entry.get("rounds_from_registry")
    given = {*params, rounds_param, *PIPELINE_PARAMS}
    _check_required(name, entry, cls, given if entry.get("unbudgeted") else {*given, "budget"})
    if rounds_param and rounds_param not in accepted:
        raise ConfigError(
            f"{_where('algorithms', name, 'rounds_from_registry')}: "
            f"{entry['estimator']} has no parameter {rounds_param!r}"
        )
    for value in sorted({r for r in rounds if r is not None}) or [None]:
        resolved = {**params, rounds_param: value} if rounds_param and value else params
        try:
            _check_params(name, cls, resolved, accepted)
        except ConfigError as exc:
            if not rounds_param or value is None:
                raise
            if not str(exc).startswith(_where("algorithms", name, "params", rounds_param)):
                raise
            reason = str(exc).split(": ", 1)[1]
            raise ConfigError(
                f"{_where('algorithms', name, 'rounds_from_registry')}: {rounds_param} = "
                f"{value} (a dataset's adaboost_rounds in the registry) is not valid: {reason}"
            ) from None


def _check_shared_path(
    name: str, entry: Mapping[str, Any], rounds: list[Any], path_rounds: int
) -> None:
    """An algorithm fitting from the shared AdaBoost path boosts plainly, and no longer."""
    import inspect

    cls = estimator_class(entry["estimator"])
    signature = inspect.signature(cls.__init__).parameters
    if "adaboost_path" not in signature:
        raise ConfigError(
            f"{_where('algorithms', name, 'adaboost_path')}: "
            f"{entry['estimator']} cannot fit from a shared AdaBoost path"
        )
    params = dict(entry.get("params") or {})
    criterion = params.get("criterion", getattr(signature.get("criterion"), "default", None))
    if "criterion" in signature and criterion != "adaboost":
        raise ConfigError(
            f"{_where('algorithms', name, 'adaboost_path')}: serves criterion "
            f"'adaboost' only; this entry boosts with {criterion!r}"
        )
    for key in ROUNDS_PARAMS:
        if key not in signature or key == entry.get("rounds_from_registry"):
            continue  # the path has at least the registry's rounds
        wanted = params.get(key, signature[key].default)
        shortest = min([max(path_rounds, int(r or 0)) for r in rounds] or [path_rounds])
        if wanted > shortest:
            raise ConfigError(
                f"{_where('algorithms', name, 'params', key)}: {wanted} rounds, "
                f"more than the shared AdaBoost path's {shortest} "
                "(adaboost_path.max_rounds)"
            )


def _check_required(name: str, entry: Mapping[str, Any], cls: type, given: set[str]) -> None:
    """Every constructor parameter without a default is given: by the entry's ``params``
    or by the pipeline (a train job would fail constructing the estimator)."""
    import inspect

    required = [
        parameter
        for parameter, spec in inspect.signature(cls.__init__).parameters.items()
        if parameter != "self"
        and spec.default is inspect.Parameter.empty
        and spec.kind not in (spec.VAR_POSITIONAL, spec.VAR_KEYWORD)
        and parameter not in given
    ]
    if required:
        raise ConfigError(
            f"{_where('algorithms', name, 'params')}: {entry['estimator']} needs "
            f"{', '.join(map(repr, required))} (a constructor parameter without a default): "
            "give it here"
        )


def _constructor_params(cls: type) -> set[str]:
    import inspect

    return set(inspect.signature(cls.__init__).parameters) - {"self"}


def _check_params(name: str, cls: type, params: Mapping[str, Any], accepted: set[str]) -> None:
    """The estimator's own declarative check, else at least the parameter names."""
    unknown = sorted(set(params) - accepted)
    if unknown:
        raise ConfigError(
            f"{_where('algorithms', name, 'params', unknown[0])}: unknown "
            f"parameter of {cls.__name__} (valid: {sorted(accepted)})"
        )
    checker = getattr(cls, "check_params", None)  # BudgetedEstimator's declared checks
    if checker is None:
        return
    try:
        checker(params)
    except InvalidParameterError as exc:
        raise ConfigError(
            f"{_where('algorithms', name, 'params', exc.parameter)}: {exc.reason}"
        ) from None
    except TypeError as exc:  # a constraint table that is not one
        raise ConfigError(f"{_where('algorithms', name, 'estimator')}: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - a plug-in's own check, whatever it raises
        raise ConfigError(_check_failed(name, cls, params, exc)) from None


def _check_failed(name: str, cls: type, params: Mapping[str, Any], exc: Exception) -> str:
    """One line for an estimator's parameter check that raised instead of refusing a value:
    the exception, and the entries of ``_parameter_constraints`` (of the parameters given)
    that are constraint objects of another library, such as scikit-learn's own ``Interval``,
    which have no ``explain`` for the check to say why a value fails them."""
    table = getattr(cls, "_parameter_constraints", None)
    table = table if isinstance(table, Mapping) else {}
    foreign = [
        f"{cls.__name__}._parameter_constraints[{parameter!r}] holds "
        f"{type(c).__module__}.{type(c).__qualname__}"
        for parameter in params
        for c in _entries(table.get(parameter))
        if c is not None and not isinstance(c, type) and not hasattr(c, "explain")
    ]
    way_out = (
        f" ({'; '.join(foreign)}: use the constraints of budgetboost.estimators.contract."
        "params instead, Interval, Options, InstanceOf, ...)"
        if foreign
        else ""
    )
    said = (str(exc).splitlines() or [""])[0]
    return (
        f"{_where('algorithms', name, 'estimator')}: checking its params raised "
        f"{type(exc).__name__}: {said}{way_out}"
    )


def _entries(entry: Any) -> Sequence[Any]:
    """The constraints of one ``_parameter_constraints`` entry (none if it is no list)."""
    return entry if isinstance(entry, list | tuple) else ()


def _check_grid(config: Mapping[str, Any], dataset: str, cost_model: str) -> None:
    override = config["datasets"][dataset].get("budgets", {})
    if cost_model in override:
        grid, path = override[cost_model], ("datasets", dataset, "budgets", cost_model)
    else:
        grid, path = (
            config["cost_models"][cost_model]["budgets"],
            ("cost_models", cost_model, "budgets"),
        )
    try:
        grid_budgets(grid)
    except ValueError as exc:
        raise ConfigError(f"{_where(*path)}: {exc}") from None


def _check_cost_file(config, registry, dataset: str, cost_model: str, root: Path) -> bool:
    """The cost file of a kind that reads one (``spec.file``, else the dataset's
    ``cost_file``): present, and its values readable by the kind. Returns whether it holds
    discount groups (Turney's: then every estimator is passed ``discount_groups``)."""
    spec = config["cost_models"][cost_model]["spec"]
    kind = kind_of(spec)
    if kind.read_file is None:
        return False
    file = kind.cost_file(spec, registry[dataset])
    if not file:
        raise ConfigError(
            f"{_where('cost_models', cost_model, 'spec', 'file')}: model {kind.name!r} "
            f"needs a cost file, and dataset {dataset!r} has no cost_file in the "
            "registry"
        )
    path = Path(file) if Path(file).is_absolute() else root / file
    where = (
        _where("cost_models", cost_model, "spec", "file")
        if spec.get("file")
        else _where("datasets", dataset, "cost_models")
    )
    if not path.is_file():
        raise ConfigError(f"{where}: cost file {file} (used by {dataset}/{cost_model}) not found")
    try:
        tests = kind.read_file(path)  # the values too (real: finite, >= 0)
    except ValueError as exc:
        raise ConfigError(f"{where}: {exc}") from None
    entry = registry[dataset]
    columns = source_columns(dataset, entry, root) if kind.name == "real" else None
    if columns is not None:  # the tests against the attributes, once the source is there
        label = str(entry["label"]["column"])
        excluded = {str(c) for c in entry.get("exclude") or []} | {label}
        attributes = [c for c in columns if c not in excluded]
        try:
            check_attributes(file, tests, columns, attributes, label, spec.get("prices") or {})
        except ValueError as exc:
            raise ConfigError(f"{where}: {exc} (dataset {dataset!r})") from None
    prices = tests["cost"].dropna() if "cost" in getattr(tests, "columns", ()) else []
    scale = float(spec.get("scale", registry[dataset].get("cost_scale") or 1))
    if len(prices) and scale * float(prices.max()) > MAX_COST:
        raise ConfigError(
            f"{where}: cost file {file} times scale {scale:g} gives a cost of "
            f"{scale * float(prices.max()):g}, larger than {MAX_COST:g} (sums of such costs "
            "overflow to inf)"
        )
    groups = tests["group"] if "group" in getattr(tests, "columns", ()) else []
    return bool(len(groups) and (groups.fillna("").astype(str) != "").any())


def _check_prices_taken(config, dataset: str, cost_model: str, discounted: bool) -> None:
    """Every algorithm run under ``cost_model`` takes the prices it is passed per trial
    (:func:`budgetboost.pipeline.specs.make_estimator`): ``feature_groups`` where the cost
    model pays a raw attribute's indicators together, ``discount_groups`` and
    ``discount_costs`` where its tests share parts; else the train job would stop on a
    ``TypeError``, after the data and the other jobs had run."""
    spec = config["cost_models"][cost_model]["spec"]
    needed = [("feature_groups",)] if kind_of(spec).is_grouped(spec) else []
    if discounted:
        needed.append(("discount_groups", "discount_costs"))
    if not needed:
        return
    only = config["cost_models"][cost_model].get("algorithms")
    for name in config["datasets"][dataset].get("algorithms", config["algorithms"]):
        if only is not None and name not in only:
            continue
        estimator = config["algorithms"][name]["estimator"]
        accepted = _constructor_params(estimator_class(estimator))
        for params in needed:
            missing = [p for p in params if p not in accepted]
            if missing:
                why = (
                    "pays a raw attribute's indicators together"
                    if params[0] == "feature_groups"
                    else "has tests that share a part (discount groups in its cost file)"
                )
                raise ConfigError(
                    f"{_where('algorithms', name, 'estimator')}: {estimator} takes no "
                    f"{' or '.join(missing)}, which cost model {cost_model!r} passes (it {why}; "
                    f"dataset {dataset!r}): add the parameter (see BudgetedEstimator, "
                    f"'Parameters the pipeline sets per trial'), or leave {name!r} out of "
                    f"cost_models.{cost_model}.algorithms"
                )


def _check_catalogue(config: Mapping[str, Any]) -> None:
    from budgetboost.pipeline.plan import algorithm_catalogue

    try:
        catalogue = algorithm_catalogue(config["algorithms"])
    except ValueError as exc:
        raise ConfigError(f"{_where('algorithms')}: {exc}") from None
    seen: dict[str, str] = {}
    for name in config["algorithms"]:  # in config order: the second of two is named
        label = catalogue.label(name)
        where = _where("algorithms", name, "label")
        if not label.strip():
            raise ConfigError(f"{where}: {label!r} is blank (it heads tables and legends)")
        if not label.isprintable():
            raise ConfigError(
                f"{where}: {label!r} holds a line break or another unprintable character "
                "(a label is one line of a table header and a legend)"
            )
        key = " ".join(label.split()).casefold()
        if key in seen:
            raise ConfigError(
                f"{where}: {label!r} is also the label of algorithm {seen[key]!r} (tables "
                "and legends could not tell them apart)"
            )
        seen[key] = name
