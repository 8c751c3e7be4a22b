"""The cost-model registry: every kind of cost model, by the name a spec's ``model`` gives.

A config's cost model is ``{"model": kind, ...parameters}``; a kind is one function plus one
entry of :data:`COST_KINDS` (a :class:`~budgetboost.plugins.Registry`, the one mechanism of
every kind of plug-in), written together with :func:`cost_kind`::

    @cost_kind("uniform_random", keys=("low", "high"), read=interval, grouped=None)
    def uniform_random(trial: Trial, bounds: tuple[float, float]) -> ColumnCosts:
        low, high = bounds
        return trial.per_unit(lambda n: trial.rng.uniform(low, high, size=n))

The entry says everything the rest of the package asks of a kind: the spec keys it takes and
how they are checked (``read`` parses and checks them, raising :class:`SpecError`, with no
data: the config is checked at planning), whether its columns are paid per raw attribute
(``grouped``: always, never, or as the spec's ``grouped`` key says), the file it reads, if
any (``read_file``: ``spec.file``, else the dataset's ``cost_file``; the config checks the
file at planning, the train job declares it as an input), and each trial's costs (the
function). Adding a kind is adding one entry (the built-in kinds:
:mod:`budgetboost.data.cost_kinds`); :mod:`budgetboost.data.costs` draws the table of a
(dataset, cost model) from it.

**What a kind returns.** A kind prices the binarized columns of one trial as a
:class:`ColumnCosts`: one full price per column, plus, where a kind needs to tell the
estimators more than one number per column, further per-column arrays by name (``extra``),
which the cost table stores beside the prices. Real test costs with discount groups (Turney
1995: a test costs nothing more once its attribute is paid, its discount price once another
test of its group is paid, its full price otherwise) are such a kind (``real`` reading a
file with ``group`` and ``discount_cost`` columns): its full prices are ``cost``, its
discount prices and discount groups the ``extra`` arrays ``discount_cost`` and
``discount_group``, which the train job hands every estimator as ``discount_costs`` and
``discount_groups``. A price of ``inf`` marks a test that is not offered: the train job
drops its columns.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from budgetboost.estimators.contract.params import shown
from budgetboost.plugins import Registry

if TYPE_CHECKING:  # no runtime import: the registry stays independent of the dataset readers
    from budgetboost.data.datasets import BinarizedData

__all__ = [
    "COMMON_KEYS",
    "COST_KINDS",
    "MAX_COST",
    "ColumnCosts",
    "CostKind",
    "SpecError",
    "Trial",
    "check_spec",
    "cost_kind",
    "interval",
    "kind_of",
    "kinds",
    "number",
    "pair",
    "real_kinds",
    "too_large",
]

#: Keys every spec may hold besides its kind's.
COMMON_KEYS = frozenset({"model", "description"})
#: The largest cost a model may give a feature: costs are summed over every feature a model
#: pays for and compared with budgets, and a cost near the largest float (``high: 1e308``)
#: overflows to ``inf`` there, which the contract would blame on the estimator. At 1e100 the
#: sum (and square) of the costs of a million features stays finite.
MAX_COST = 1e100


def too_large(value: float) -> str:
    """Why a cost above :data:`MAX_COST` is refused."""
    return (
        f"{value:g} is larger than {MAX_COST:g}, the largest cost a feature may have (sums "
        "of such costs overflow to inf)"
    )


class SpecError(ValueError):
    """A bad cost-model spec: ``key`` is the offending spec key (``""``: the spec itself).

    ``str()`` reads ``"<where>: <key>: <reason>"``; the pipeline's planner prefixes the
    config path instead (``config cost_models.<name>.spec.<key>: <reason>``).
    """

    def __init__(self, where: str, key: str, reason: str):
        self.where, self.key, self.reason = where, key, reason
        super().__init__(f"{where}: {key + ': ' if key else ''}{reason}")


# --------------------------------------------------------------------------- spec values
def number(where: str, spec: Mapping[str, object], key: str, default: float | None = None) -> float:
    """``spec[key]``, a finite number >= 0 (``default`` when absent; no default: required)."""
    if key not in spec:
        if default is None:
            raise SpecError(where, key, "missing")
        return default
    value = spec[key]
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
        or value < 0
    ):
        raise SpecError(where, key, f"must be a finite number >= 0; got {shown(value)}")
    if value > MAX_COST:
        raise SpecError(where, key, too_large(value))
    return float(value)


def interval(where: str, spec: Mapping[str, object]) -> tuple[float, float]:
    """``(low, high)`` from the keys ``low`` and ``high``, ``low <= high``."""
    low, high = number(where, spec, "low"), number(where, spec, "high")
    if low > high:
        raise SpecError(where, "low", f"{low} is larger than high {high}")
    return low, high


def pair(where: str, spec: Mapping[str, object], key: str, default: Any) -> tuple[float, float]:
    """An interval ``[low, high]`` given as a two-element list under ``key``."""
    value = spec.get(key, default)
    ok = isinstance(value, (list, tuple)) and len(value) == 2
    ok = ok and all(
        not isinstance(v, bool) and isinstance(v, (int, float)) and math.isfinite(v) and v >= 0
        for v in value
    )
    if not ok:
        raise SpecError(
            where, key, f"must be a list [low, high] of two finite numbers >= 0; got {shown(value)}"
        )
    low, high = float(value[0]), float(value[1])
    if low > high:
        raise SpecError(where, key, f"low {low} is larger than high {high}")
    if high > MAX_COST:
        raise SpecError(where, key, too_large(high))
    return low, high


# --------------------------------------------------------------------------- a kind's inputs
@dataclass(frozen=True)
class ColumnCosts:
    """What one trial's binarized columns cost under a cost model.

    Attributes
    ----------
    cost : ndarray of shape (n_columns,)
        The full price of each column (paid once per example; with its raw attribute's
        other indicators, once for all, where the kind is grouped).
    extra : mapping of str to ndarray of shape (n_columns,)
        Further per-column numbers a kind hands on (``real`` with Turney's groups: the
        discount price ``discount_cost`` and the discount group ``discount_group``, -1 for
        none), stored by name in the cost table beside ``cost``.
    """

    cost: np.ndarray
    extra: Mapping[str, np.ndarray] = field(default_factory=dict)


@dataclass(frozen=True)
class Trial:
    """What a kind may read to price the columns of one trial.

    Attributes
    ----------
    where : str
        ``"dataset 'x', cost model 'y'"``, to begin every error message.
    spec : mapping
        The cost model's spec.
    data : BinarizedData
        The binarized dataset (columns, ``groups``: each column's raw attribute,
        ``meta["attributes"]``, ``meta["cost_file"]``).
    trial : int
    rng : numpy.random.Generator
        The trial's stream, ``rng_from_key("costs", dataset, cost_model, trial)``.
    train : ndarray of int or None
        The trial's training rows (None where no split was given); test rows are never given.
    root : Path
        Repository root for relative file paths.
    grouped : bool
        Whether the columns are paid per raw attribute.
    """

    where: str
    spec: Mapping[str, object]
    data: BinarizedData
    trial: int
    rng: np.random.Generator
    train: np.ndarray | None
    root: Path
    grouped: bool

    @property
    def n_columns(self) -> int:
        return int(self.data.X.shape[1])

    def per_unit(self, draw: Callable[[int], np.ndarray]) -> ColumnCosts:
        """Costs drawn by ``draw(n)`` per column, or per raw attribute (shared by its
        indicators) where the model is grouped."""
        if not self.grouped:
            return ColumnCosts(np.asarray(draw(self.n_columns), dtype=np.float64))
        groups = self.data.groups
        n_groups = int(np.max(groups)) + 1 if len(groups) else 0
        return ColumnCosts(np.asarray(draw(n_groups), dtype=np.float64)[groups])

    def training_rows(self) -> np.ndarray:
        """The trial's training rows, or a ValueError naming the cost model."""
        if self.train is None:
            raise ValueError(
                f"{self.where}: no split for trial {self.trial} ({self.spec['model']} costs "
                "use the training rows)"
            )
        return self.train


# --------------------------------------------------------------------------- the registry
@dataclass(frozen=True)
class CostKind:
    """One registered kind of cost model (see the module docstring).

    Attributes
    ----------
    name : str
        The spec's ``model``.
    keys : frozenset of str
        The spec keys it takes (``grouped`` included where the spec decides it).
    read : callable
        ``read(where, spec) -> parameters``: the spec's values, checked (:class:`SpecError`).
    costs : callable
        ``costs(trial, parameters) -> ColumnCosts``: one trial's prices.
    grouped : bool or None
        True: always paid per raw attribute; False: never; None: as the spec's ``grouped``.
    read_file : callable or None
        ``read_file(path)``: reads and checks the kind's cost file (``spec.file``, else the
        dataset's ``cost_file``); None where the kind reads no file.
    """

    name: str
    keys: frozenset[str]
    read: Callable[[str, Mapping[str, object]], Any]
    costs: Callable[[Trial, Any], ColumnCosts]
    grouped: bool | None = False
    read_file: Callable[[Path], Any] | None = None

    def is_grouped(self, spec: Mapping[str, object]) -> bool:
        """Whether the columns of ``spec`` are paid per raw attribute."""
        return bool(spec.get("grouped", False)) if self.grouped is None else self.grouped

    def cost_file(
        self, spec: Mapping[str, object], dataset: Mapping[str, object] | None = None
    ) -> str | None:
        """The file this kind reads for a dataset (its registry entry ``dataset``):
        ``spec.file``, else the dataset's ``cost_file``; None where it reads no file."""
        if self.read_file is None:
            return None
        file = spec.get("file") or (dataset or {}).get("cost_file")
        return str(file) if file else None


#: Every kind registered so far, by name (a :class:`~budgetboost.plugins.Registry`, read as
#: a mapping), in registration order; :func:`cost_kind` registers one.
COST_KINDS: Registry[CostKind] = Registry("cost kind", origin=lambda kind: kind.costs.__qualname__)


def cost_kind(
    name: str,
    *,
    keys: Iterable[str],
    read: Callable[[str, Mapping[str, object]], Any],
    grouped: bool | None = False,
    read_file: Callable[[Path], Any] | None = None,
):
    """Register the decorated ``costs(trial, parameters)`` as kind ``name`` (see the module
    docstring); ``keys`` are its spec keys besides ``model``, ``description`` and, with
    ``grouped=None``, ``grouped``."""
    keys = frozenset(keys) | ({"grouped"} if grouped is None else set())
    if read_file is not None and "file" not in keys:
        raise ValueError(f"cost kind {name!r} reads a file: it needs the spec key 'file'")

    def register(costs: Callable[[Trial, Any], ColumnCosts]):
        COST_KINDS.register(CostKind(name, keys, read, costs, grouped, read_file), name=name)
        return costs

    return register


def kinds() -> dict[str, CostKind]:
    """Every kind registered so far, in registration order (a copy of :data:`COST_KINDS`)."""
    return dict(COST_KINDS)


def real_kinds() -> list[str]:
    """The kinds of real prices: read from a file (measured test costs), not drawn. The
    paper's Figure 2 draws them."""
    return [name for name, kind in COST_KINDS.items() if kind.read_file is not None]


def kind_of(spec: Mapping[str, object], where: str = "cost model") -> CostKind:
    """The kind of a spec (its ``model``), or a :class:`SpecError` naming the kinds."""
    if not isinstance(spec, Mapping):
        raise SpecError(where, "", f"must be a mapping with a 'model' key; got {spec!r}")
    model = spec.get("model")
    if not isinstance(model, str) or model not in COST_KINDS:
        raise SpecError(where, "model", f"must be one of {list(COST_KINDS)}; got {model!r}")
    return COST_KINDS[model]


def check_spec(spec: Mapping[str, object], where: str = "cost model") -> str:
    """Check a cost-model spec without any data and return its kind's name.

    Every key and value the kind reads is checked (an unknown kind, unknown or missing keys,
    each value by the kind's ``read``, ``grouped`` a bool), so a bad spec is caught when the
    workflow is planned rather than when its first job runs. Files are not opened here.

    Raises
    ------
    SpecError
        Naming the offending key and value.
    """
    kind = kind_of(spec, where)
    unknown = sorted(set(spec) - COMMON_KEYS - kind.keys)
    if unknown:
        raise SpecError(
            where,
            unknown[0],
            f"unknown parameter of model {kind.name!r} (allowed: {sorted(kind.keys)})",
        )
    if "grouped" in spec and not isinstance(spec["grouped"], bool):
        raise SpecError(where, "grouped", f"must be true or false; got {spec['grouped']!r}")
    kind.read(where, spec)
    return kind.name
