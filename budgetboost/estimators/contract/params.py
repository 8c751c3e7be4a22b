"""Declarative parameter checks, in the spirit of scikit-learn's ``_parameter_constraints``.

An estimator declares, for each constructor parameter, the list of what it may be::

    _parameter_constraints = {
        "criterion": [Options(("gini", "entropy"))],
        "tau": [Interval(Real, 0, 1, closed="right")],
        "max_nodes": [Interval(Integral, 1, None, closed="left"), None],
        "cost_sensitive": [Boolean()],
    }

and :func:`validate_params` checks a mapping of parameters against that table: a value is
valid when it satisfies at least one entry (``None`` in a list allows ``None``). The same
table serves ``fit`` and a pipeline config checked before any data is read. Errors are
:class:`InvalidParameterError`, whose ``reason`` reads well after the parameter's name and
a colon: ``tau: must be a number in (0, 1]; got 2``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = [
    "Boolean",
    "Constraint",
    "InstanceOf",
    "Interval",
    "InvalidParameterError",
    "NonNegativeVector",
    "OptionGrid",
    "Options",
    "Vector",
    "validate_params",
]


class InvalidParameterError(ValueError):
    """A constructor parameter has a value it may not take, or is not a parameter at all.

    Attributes
    ----------
    parameter : str
        The parameter's name.
    reason : str
        What is wrong, phrased to follow ``"<parameter>: "``, e.g.
        ``"must be one of ['gini', 'entropy']; got 'mse'"``.
    """

    def __init__(self, parameter: str, reason: str):
        self.parameter = parameter
        self.reason = reason
        super().__init__(f"{parameter}: {reason}")

    def __reduce__(self):  # keep both attributes through pickling (e.g. to a worker)
        return type(self), (self.parameter, self.reason)


class Constraint:
    """What a parameter may be: ``is_satisfied_by`` and a description (``str()``)."""

    def is_satisfied_by(self, value: Any) -> bool:
        """Whether ``value`` meets the constraint."""
        raise NotImplementedError

    def explain(self, value: Any) -> str | None:
        """Why ``value`` fails, when more can be said than its repr (``None`` otherwise)."""
        return None


class Interval(Constraint):
    """Numbers of one kind in an interval.

    Parameters
    ----------
    kind : {numbers.Integral, numbers.Real}
        ``Integral`` accepts integers only; ``Real`` accepts integers and floats. Booleans
        are rejected by both.
    left, right : float or None
        The bounds; ``None`` means unbounded (``right=None`` admits ``inf``, ``right=inf``
        with an open right end does not).
    closed : {"left", "right", "both", "neither"}
        Which bounds belong to the interval.
    """

    def __init__(self, kind: type, left: float | None, right: float | None, *, closed: str):
        if kind not in (numbers.Integral, numbers.Real):
            raise TypeError(f"kind must be numbers.Integral or numbers.Real; got {kind!r}")
        if closed not in ("left", "right", "both", "neither"):
            raise ValueError(f"closed must be 'left', 'right', 'both' or 'neither'; got {closed!r}")
        self.kind, self.left, self.right, self.closed = kind, left, right, closed

    def is_satisfied_by(self, value: Any) -> bool:
        if isinstance(value, bool | np.bool_) or not isinstance(value, self.kind):
            return False
        if isinstance(value, numbers.Real) and math.isnan(value):
            return False
        left_closed = self.closed in ("left", "both")
        right_closed = self.closed in ("right", "both")
        if self.left is not None and not (value >= self.left if left_closed else value > self.left):
            return False
        return self.right is None or (value <= self.right if right_closed else value < self.right)

    def __str__(self) -> str:
        kind = "an integer" if self.kind is numbers.Integral else "a number"
        left_closed = self.closed in ("left", "both")
        right_closed = self.closed in ("right", "both")
        low = None if self.left is None or self.left == -math.inf else self.left
        high = None if self.right is None or self.right == math.inf else self.right
        if low is not None and high is not None:
            return (
                f"{kind} in {'[' if left_closed else '('}{low}, "
                f"{high}{']' if right_closed else ')'}"
            )
        bounds = []
        if low is not None:
            bounds.append(f"{'>=' if left_closed else '>'} {low}")
        if high is not None:
            bounds.append(f"{'<=' if right_closed else '<'} {high}")
        finite = self.right == math.inf and not right_closed and self.kind is numbers.Real
        text = f"{'a finite number' if finite else kind} {' and '.join(bounds)}"
        return text.rstrip()


class Options(Constraint):
    """One of a fixed set of strings (listed in the given order in messages)."""

    def __init__(self, options: Sequence[str]):
        self.options = tuple(options)

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, str) and value in self.options

    def __str__(self) -> str:
        return f"one of {list(self.options)}"


class OptionGrid(Options):
    """One of a fixed set of strings, or a non-empty list or tuple of distinct ones (the
    values to choose from)."""

    def __init__(self, options: Sequence[str], what: str):
        super().__init__(options)
        self.what = what

    def is_satisfied_by(self, value: Any) -> bool:
        if isinstance(value, str):
            return super().is_satisfied_by(value)
        return (
            isinstance(value, list | tuple)
            and len(value) > 0
            and all(super(OptionGrid, self).is_satisfied_by(v) for v in value)
            and len(set(value)) == len(value)
        )

    def __str__(self) -> str:
        return f"one of {list(self.options)} or a non-empty list of distinct ones ({self.what})"


class Boolean(Constraint):
    """``True`` or ``False`` (a Python or numpy bool; not 0, 1 or a string)."""

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, bool | np.bool_)

    def __str__(self) -> str:
        return "True or False"


class InstanceOf(Constraint):
    """An instance of one of the given types, described by ``description``."""

    def __init__(self, types: tuple[type, ...], description: str):
        self.types, self.description = types, description

    def is_satisfied_by(self, value: Any) -> bool:
        return isinstance(value, self.types)

    def __str__(self) -> str:
        return self.description


class Vector(Constraint):
    """A 1-d array-like (one entry per column of ``X``; its length is checked in ``fit``)."""

    description = "a 1-d array-like (one entry per column of X)"

    @staticmethod
    def _array(value: Any) -> np.ndarray | None:
        if value is None or isinstance(value, str | bytes | Mapping):
            return None
        try:
            array = np.asarray(value)
        except (TypeError, ValueError):  # ragged nested sequences
            return None
        return array if array.ndim == 1 else None

    def is_satisfied_by(self, value: Any) -> bool:
        return self._array(value) is not None

    def __str__(self) -> str:
        return self.description


class NonNegativeVector(Vector):
    """A 1-d array-like of finite numbers >= 0 (e.g. one cost per column of ``X``)."""

    description = "a 1-d array-like of finite numbers >= 0 (one per column of X)"

    def _numbers(self, value: Any) -> np.ndarray | None:
        array = self._array(value)
        if array is None or array.dtype.kind not in "iufO":
            return None
        try:
            return array.astype(np.float64)
        except (TypeError, ValueError):
            return None

    def is_satisfied_by(self, value: Any) -> bool:
        array = self._numbers(value)
        return array is not None and bool(np.all(np.isfinite(array) & (array >= 0)))

    def explain(self, value: Any) -> str | None:
        array = self._numbers(value)
        bad = np.flatnonzero(~(np.isfinite(array) & (array >= 0))) if array is not None else []
        return f"got {array[bad[0]]} at index {bad[0]}" if len(bad) else None


def _constraint(owner: str, name: str, constraint: Any) -> Any:
    """A constraint of ``_parameter_constraints`` as :func:`validate_params` uses it: a plain
    type, as scikit-learn allows (``[int]``), is an :class:`InstanceOf` it; an object with an
    ``is_satisfied_by`` method (this module's constraints, or scikit-learn's own such as its
    ``Interval``) is used as it is.

    Raises
    ------
    TypeError
        Naming the class and parameter, for an entry that is neither None, a type nor a
        constraint.
    """
    if constraint is None or hasattr(constraint, "is_satisfied_by"):
        return constraint
    if isinstance(constraint, type):
        return InstanceOf((constraint,), f"an instance of {constraint.__name__}")
    raise TypeError(
        f"{owner}._parameter_constraints[{name!r}] holds {shown(constraint)}, which is not a "
        "constraint: use None, a type, or a constraint of "
        "budgetboost.estimators.contract.params (Interval, Options, InstanceOf, ...)"
    )


def _describe(constraints: Sequence[Any]) -> str:
    """``"a number >= 0 or None"``: the constraints joined as alternatives."""
    parts = ["None" if c is None else str(c) for c in constraints]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


def _short_repr(value: Any, limit: int = 60) -> str:
    return shown(value, limit)


def shown(value: Any, limit: int = 60) -> str:
    """A value as a message shows it: numpy's scalars as Python's (``inf``, not
    ``np.float64(inf)``), cut to ``limit`` characters, and text that reads as a number said
    to be text, with the number to write (a config's YAML reads ``2e0`` as text: a number
    with an exponent needs a dot and a signed exponent there, ``2.0e+0``)."""
    if isinstance(value, np.generic):
        value = value.item()
    text = repr(value)
    text = text if len(text) <= limit else f"{text[: limit - 3]}..."
    if isinstance(value, str):
        try:
            number = float(value)
        except ValueError:
            return text
        if not math.isfinite(number):
            return f"{text} (text, not a number: YAML writes infinity .inf, not-a-number .nan)"
        if number.is_integer() and abs(number) < 2**53:
            return f"{text} (text, not a number: write {int(number)!r})"
        return f"{text} (text, not a number: write {yaml_float(number)})"
    return text


def yaml_float(number: float) -> str:
    """``number`` written so that YAML (PyYAML's 1.1 rules) reads it as a number: an exponent
    needs a dot before it (``1.0e+308``; ``1e+308`` and ``1e308`` are text there)."""
    text = repr(float(number))
    mantissa, e, exponent = text.partition("e")
    if e and "." not in mantissa:
        return f"{mantissa}.0e{exponent}"
    return text


def validate_params(
    owner: str,
    constraints: Mapping[str, Sequence[Any]],
    params: Mapping[str, Any],
    valid: Collection[str],
) -> None:
    """Check ``params`` against a constraint table; raise on the first problem.

    Parameters
    ----------
    owner : str
        Name of the class, for the message on an unknown parameter.
    constraints : mapping
        ``{parameter: [constraint, ...]}``; a value must satisfy one of its list (``None``
        in the list admits ``None``). A parameter without an entry is not checked here.
    params : mapping
        The parameters to check (any subset of ``valid``).
    valid : collection of str
        The parameter names the class accepts.

    Raises
    ------
    InvalidParameterError
        For a name not in ``valid`` (the reason lists the valid names) or a value that
        satisfies none of its constraints (the reason says what it must be and what it is).
    """
    for name, value in params.items():
        if name not in valid:
            raise InvalidParameterError(
                name, f"unknown parameter of {owner}; valid parameters are {sorted(valid)}"
            )
        allowed = constraints.get(name)
        if allowed is None:
            continue
        allowed = [_constraint(owner, name, c) for c in allowed]
        if any(value is None if c is None else c.is_satisfied_by(value) for c in allowed):
            continue
        # a constraint of another library (scikit-learn's Interval, StrOptions) has no
        # explain: its description (str) is the message, as scikit-learn's own is
        details = [c.explain(value) for c in allowed if hasattr(c, "explain")]
        detail = next((d for d in details if d), f"got {_short_repr(value)}")
        raise InvalidParameterError(name, f"must be {_describe(allowed)}; {detail}")
