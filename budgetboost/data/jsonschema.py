"""JSON Schema validation with defaults and one readable error (config and registry)."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from budgetboost.estimators.contract.params import shown

__all__ = ["validate_with_defaults"]


def _validator_with_defaults(schema: Mapping[str, Any]):
    """A jsonschema validator class for ``schema`` that also fills ``default`` values."""
    import jsonschema

    base = jsonschema.validators.validator_for(schema)
    validate_properties = base.VALIDATORS["properties"]

    def properties_with_defaults(validator, properties, instance, subschema):
        if isinstance(instance, dict):
            for name, prop in properties.items():
                if "default" in prop:
                    instance.setdefault(name, copy.deepcopy(prop["default"]))
        yield from validate_properties(validator, properties, instance, subschema)

    return jsonschema.validators.extend(base, {"properties": properties_with_defaults})


def _describe(error: Any) -> tuple[list[str], str]:
    """The dotted path and a one-line reason of a jsonschema ``ValidationError``.

    jsonschema's own ``str(error)`` appends the whole schema (hundreds of lines); this keeps
    the message and the place, and rewrites the two messages that do not name their key.
    """
    path = [str(part) for part in error.absolute_path]
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        allowed = sorted(error.schema.get("properties", {}))
        extra = sorted(set(error.instance) - set(allowed))
        if extra and allowed:
            return [*path, extra[0]], f"unknown key (allowed here: {', '.join(allowed)})"
        if extra:
            return [*path, extra[0]], "unknown key"
    if "propertyNames" in error.schema_path:
        pattern = error.schema.get("pattern", "")
        return path, (
            f"name {error.instance!r} does not match {pattern} (a letter, then "
            "letters, digits or _)"
        )
    if error.validator == "type" and shown(error.instance) != repr(error.instance):
        return path, f"must be of type {error.validator_value!r}; got {shown(error.instance)}"
    if error.validator == "pattern" and error.schema.get("description"):
        return path, _pattern_reason(error.instance, error.schema["description"])
    return path, error.message


def _pattern_reason(value: Any, description: str) -> str:
    """A value outside a documented pattern, said in the words of its description (the
    regular expression means nothing to a reader); a dotted class path gets its colon."""
    reason = f"must be {description}; got {value!r}"
    if "module:Class" in description and isinstance(value, str) and ":" not in value:
        module, _, name = value.rpartition(".")
        if module:
            reason += f" (a colon between the module and the class: {module + ':' + name!r})"
    return reason


def validate_with_defaults(
    instance: Mapping[str, Any],
    schema: Mapping[str, Any],
) -> tuple[dict[str, Any], tuple[list[str], str] | None]:
    """Validate ``instance``; return a copy with the schema's defaults and the first error.

    Returns
    -------
    filled : dict
        A deep copy of ``instance`` with every ``default`` of the schema filled in.
    error : (path, reason) or None
        The first error in document order: ``path`` the keys leading to the offending value
        (empty at the top level), ``reason`` one line.
    """
    filled = copy.deepcopy(dict(instance))
    validator = _validator_with_defaults(schema)(schema)
    errors = sorted(validator.iter_errors(filled), key=lambda e: [str(p) for p in e.absolute_path])
    return filled, (_describe(errors[0]) if errors else None)
