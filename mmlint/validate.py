"""JSON Schema validation with one compiled validator per schema.

Schemas live in ``schemas/`` (installed as the package ``mmlint.schemas``),
draft 2020-12. jsonschema is imported on first use only. Each error comes back
as a :class:`SchemaError` naming the JSON pointer and the top-level key, so a
rule can place it at the key's line and column.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class SchemaError:
    """One violation: ``pointer`` (``/created``), ``key`` (first pointer
    segment, ``""`` for the whole document), ``keyword`` (``required``,
    ``enum``, ``pattern``, ``format``, ``type`` ...), human ``message``."""

    pointer: str
    key: str
    keyword: str
    message: str


@lru_cache(maxsize=1)
def _schema_dir() -> Any:
    """Where the schemas are: the installed package ``mmlint.schemas`` (the
    top-level ``schemas/`` folder mapped into the package at install time),
    or that folder itself when mmlint runs from a source checkout."""
    try:
        return resources.files("mmlint.schemas")
    except ModuleNotFoundError:
        return resources.files("mmlint").joinpath("..", "schemas")


def schema_names() -> list[str]:
    """Names of the bundled schemas (file names without ``.json``)."""
    return sorted(p.name[:-5] for p in _schema_dir().iterdir() if p.name.endswith(".json"))


@lru_cache(maxsize=None)
def load_schema(name: str) -> dict[str, Any]:
    """The schema document ``name`` (e.g. ``engramory-upstream.note``).

    Raises:
        KeyError: no such schema (the message lists the known names).
    """
    path = _schema_dir() / f"{name}.json"
    if not path.is_file():
        from mmlint.suggest import did_you_mean

        raise KeyError(f"unknown schema {name!r}{did_you_mean(name, schema_names())}; known schemas: {', '.join(schema_names())}")
    return json.loads(path.read_text(encoding="utf-8"))


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """Replace local ``{"$ref": "#/$defs/x"}`` with the definition itself, so
    validation never goes through reference resolution (several times
    faster); the schema files keep their ``$defs`` for readability."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) <= 2:
            target = dict(_inline_refs(defs[ref[len("#/$defs/"):]], defs))
            if "description" in node:
                target["description"] = node["description"]
            return target
        return {k: _inline_refs(v, defs) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


@lru_cache(maxsize=None)
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator, FormatChecker

    schema = load_schema(name)
    return Draft202012Validator(_inline_refs(schema, schema.get("$defs", {})), format_checker=FormatChecker())


def validate(name: str, instance: dict[str, Any]) -> list[SchemaError]:
    """Validate ``instance`` against schema ``name``; errors sorted by pointer.

    A key that ``additionalProperties: false`` forbids gets its own error
    (keyword ``additionalProperties``, message ``unknown key 'x'``) whose
    pointer names the key. Messages name the innermost key of the pointer.
    """
    out = []
    for err in _validator(name).iter_errors(instance):
        path = list(err.absolute_path)
        if err.validator == "required":
            missing = err.message.split("'")[1] if "'" in err.message else ""
            out.append(SchemaError("/" + missing, missing, "required", f"frontmatter lacks required key {missing!r}"))
            continue
        if err.validator == "additionalProperties" and err.validator_value is False and isinstance(err.instance, dict):
            allowed = err.schema.get("properties", {})
            for extra in sorted(str(k) for k in err.instance if k not in allowed):
                full = path + [extra]
                out.append(SchemaError(_pointer(full), str(full[0]), "additionalProperties", f"unknown key {extra!r}"))
            continue
        key = str(path[0]) if path else ""
        leaf = next((str(p) for p in reversed(path) if isinstance(p, str)), key)
        out.append(SchemaError(_pointer(path), key, str(err.validator), _message(leaf, err)))
    out.sort(key=lambda e: (e.pointer, e.keyword))
    return out


def _pointer(path: list[Any]) -> str:
    return "/" + "/".join(str(p) for p in path)


def _message(key: str, err: Any) -> str:
    from mmlint.textutil import echo

    value = err.instance
    shown = echo(value) if isinstance(value, str) else repr(value)[:80]
    kw = err.validator
    if kw == "enum":
        opts = ", ".join(str(v) for v in err.validator_value)
        return f"{key!r} must be one of {opts}; got {shown}"
    if kw == "pattern":
        if err.validator_value == "\\S":
            return f"{key!r} is blank"
        if "T[0-9]{2}" in str(err.validator_value) and "([T ]" not in str(err.validator_value):
            return f"{key!r} is not an ISO-8601 date-time (YYYY-MM-DDTHH:MM:SS.sssZ): {shown}"
        if str(err.validator_value).startswith("^[0-9]{4}-[0-9]{2}-[0-9]{2}"):
            return f"{key!r} is not a valid YYYY-MM-DD date: {shown}"
        return f"{key!r} does not match {err.validator_value}: {shown}"
    if kw == "format":
        return f"{key!r} is not a real calendar date: {shown}"
    if kw == "type":
        want = err.validator_value
        article = "an" if str(want)[:1] in "aeiou" else "a"
        return f"{key!r} must be {article} {want}, got {type(value).__name__}"
    if kw == "minimum":
        return f"{key!r} is {value!r}, under the minimum {err.validator_value}"
    if kw == "maxLength":
        return f"{key!r} is {len(value)} characters long (at most {err.validator_value})"
    if kw == "minLength":
        return f"{key!r} is empty"
    return f"{key!r}: {err.message[:160]}"
