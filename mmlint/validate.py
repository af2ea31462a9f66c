"""JSON Schema validation with one compiled validator per schema.

Schemas live in ``schemas/`` (installed as the package ``mmlint.schemas``),
draft 2020-12. jsonschema is imported on first use only. Each error comes back
as a :class:`SchemaError` naming the JSON pointer and the top-level key, so a
rule can place it at the key's line and column.

Fast path (issue 9 item 7): each schema is also compiled, at load, into a
plain-Python predicate (:func:`compile_predicate`) built from the schema's own
keywords. It answers "valid" only when jsonschema would; a ``False`` only
means "ask jsonschema", which then produces every error with its message and
path. A schema using a keyword the compiler does not know gets no predicate
and always goes through jsonschema. So a valid note costs a few microseconds
and never imports jsonschema; ``tests/test_validate_fast.py`` runs both on
every fixture, the corpus and generated frontmatter and requires the same
verdict.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Callable


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


class _Recursive(Exception):
    """A local ``$ref`` reached from inside its own definition (a recursive schema)."""


def _inline_refs(node: Any, defs: dict[str, Any], seen: tuple[str, ...] = ()) -> Any:
    """Replace local ``{"$ref": "#/$defs/x"}`` with the definition itself, so
    validation never goes through reference resolution (several times
    faster); the schema files keep their ``$defs`` for readability.

    Raises:
        _Recursive: a definition refers to itself (it cannot be inlined).
    """
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) <= 2:
            name = ref[len("#/$defs/"):]
            if name in seen:
                raise _Recursive(name)
            target = dict(_inline_refs(defs[name], defs, seen + (name,)))
            if "description" in node:
                target["description"] = node["description"]
            return target
        return {k: _inline_refs(v, defs, seen) for k, v in node.items() if k != "$defs"}
    if isinstance(node, list):
        return [_inline_refs(v, defs, seen) for v in node]
    return node


def _inlined(name: str) -> Any:
    """Schema ``name`` with its references inlined, or as written when it is recursive."""
    schema = load_schema(name)
    try:
        return _inline_refs(schema, schema.get("$defs", {}))
    except _Recursive:
        return schema


@lru_cache(maxsize=None)
def _validator(name: str) -> Any:
    from jsonschema import Draft202012Validator, FormatChecker

    return Draft202012Validator(_inlined(name), format_checker=FormatChecker())


#: Keywords that never change a verdict (annotations); the compiler skips them.
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description", "examples", "default",
                          "deprecated", "readOnly", "writeOnly"})
#: ``format`` values whose check the compiler reproduces: jsonschema's
#: FormatChecker ``date`` (``^\d{4}-\d{2}-\d{2}$`` in ASCII and a real date).
_RE_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$", re.ASCII)


class Unsupported(Exception):
    """A schema uses a keyword (or keyword value) the predicate compiler does not know."""


def _is_date(value: Any) -> bool:
    if not isinstance(value, str):
        return True
    if not _RE_DATE.fullmatch(value):
        return False
    from datetime import date

    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


def _type_test(name: str) -> Callable[[Any], bool]:
    """jsonschema's draft 2020-12 type checker, narrowed: a value it would
    accept by a wider rule (a ``Decimal`` for ``number``) gets ``False``,
    which only sends the instance to jsonschema."""
    if name == "string":
        return lambda v: isinstance(v, str)
    if name == "object":
        return lambda v: isinstance(v, dict)
    if name == "array":
        return lambda v: isinstance(v, list)
    if name == "boolean":
        return lambda v: isinstance(v, bool)
    if name == "null":
        return lambda v: v is None
    if name == "number":
        return lambda v: type(v) in (int, float)
    if name == "integer":
        return lambda v: type(v) is int or (type(v) is float and v.is_integer())
    raise Unsupported(f"type {name!r}")


def _equal(a: Any, b: Any) -> bool:
    """JSON equality as jsonschema's ``enum`` sees it (``True`` is not ``1``)."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    if isinstance(a, (list, dict)) or isinstance(b, (list, dict)):
        return False
    return a == b


def compile_predicate(node: Any) -> Callable[[Any], bool]:
    """A predicate for the schema ``node`` (references already inlined):
    ``pred(instance)`` is ``True`` only when the instance is valid under
    jsonschema's ``Draft202012Validator`` with a ``FormatChecker``.

    Knows ``type``, ``required``, ``properties``, ``additionalProperties``,
    ``enum``, ``const``, ``pattern``, ``format: date``, ``minLength``,
    ``maxLength``, ``minimum``, ``maximum``, ``exclusiveMinimum``,
    ``exclusiveMaximum``, ``uniqueItems``, ``items`` (without
    ``prefixItems``), ``anyOf``, ``allOf``, ``propertyNames``, and
    annotations (:data:`_ANNOTATIONS`).

    Raises:
        Unsupported: any other keyword or value (the caller then uses
            jsonschema alone).
    """
    if node is True:
        return lambda v: True
    if node is False:
        return lambda v: False
    if not isinstance(node, dict):
        raise Unsupported(f"schema node {node!r}")
    checks: list[Callable[[Any], bool]] = []
    props = node.get("properties", {})
    if not isinstance(props, dict):
        raise Unsupported("properties")
    for kw, val in node.items():
        if kw in _ANNOTATIONS:
            continue
        checks.append(_keyword(kw, val, props))
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(c(v) for c in checks)


def _keyword(kw: str, val: Any, props: dict[str, Any]) -> Callable[[Any], bool]:
    if kw == "type":
        names = [val] if isinstance(val, str) else val
        if not isinstance(names, list) or not names:
            raise Unsupported("type")
        tests = [_type_test(n) for n in names]
        return tests[0] if len(tests) == 1 else (lambda v: any(t(v) for t in tests))
    if kw == "required":
        req = tuple(val)
        return lambda v: not isinstance(v, dict) or all(k in v for k in req)
    if kw == "properties":
        compiled = {k: compile_predicate(sub) for k, sub in val.items()}
        return lambda v: not isinstance(v, dict) or all(c(v[k]) for k, c in compiled.items() if k in v)
    if kw == "additionalProperties":
        known = frozenset(props)
        if val is False:
            return lambda v: not isinstance(v, dict) or all(k in known for k in v)
        extra = compile_predicate(val)
        return lambda v: not isinstance(v, dict) or all(extra(x) for k, x in v.items() if k not in known)
    if kw == "enum":
        options = list(val)
        return lambda v: any(_equal(v, o) for o in options)
    if kw == "const":
        return lambda v: _equal(v, val)
    if kw == "pattern":
        rx = re.compile(val)
        return lambda v: not isinstance(v, str) or rx.search(v) is not None
    if kw == "format":
        if val != "date":
            raise Unsupported(f"format {val!r}")
        return _is_date
    if kw in ("minLength", "maxLength"):
        if type(val) is not int:
            raise Unsupported(kw)
        if kw == "minLength":
            return lambda v: not isinstance(v, str) or len(v) >= val
        return lambda v: not isinstance(v, str) or len(v) <= val
    if kw == "uniqueItems":
        if val is False:
            return lambda v: True
        # lists of strings only; any other list is left to jsonschema's own equality
        return lambda v: not isinstance(v, list) or (all(type(x) is str for x in v) and len(set(v)) == len(v))
    if kw in ("exclusiveMinimum", "exclusiveMaximum"):
        if type(val) not in (int, float):
            raise Unsupported(kw)
        if kw == "exclusiveMinimum":
            return lambda v: v > val if type(v) in (int, float) else v is None or isinstance(v, (bool, str, list, dict))
        return lambda v: v < val if type(v) in (int, float) else v is None or isinstance(v, (bool, str, list, dict))
    if kw in ("minimum", "maximum"):
        if type(val) not in (int, float):
            raise Unsupported(kw)
        # jsonschema skips values that are not numbers (bools included); a
        # numeric type other than int and float is left to jsonschema.
        if kw == "minimum":
            return lambda v: v >= val if type(v) in (int, float) else v is None or isinstance(v, (bool, str, list, dict))
        return lambda v: v <= val if type(v) in (int, float) else v is None or isinstance(v, (bool, str, list, dict))
    if kw == "items":
        if "prefixItems" in props or val is not False and not isinstance(val, (dict, bool)):
            raise Unsupported("items")
        each = compile_predicate(val)
        return lambda v: not isinstance(v, list) or all(each(x) for x in v)
    if kw in ("anyOf", "allOf"):
        subs = [compile_predicate(sub) for sub in val]
        if kw == "anyOf":
            return lambda v: any(s(v) for s in subs)
        return lambda v: all(s(v) for s in subs)
    if kw == "propertyNames":
        names = compile_predicate(val)
        return lambda v: not isinstance(v, dict) or all(names(k) for k in v)
    raise Unsupported(kw)


@lru_cache(maxsize=None)
def predicate(name: str) -> Callable[[Any], bool] | None:
    """The compiled predicate of schema ``name`` (see
    :func:`compile_predicate`), or ``None`` when the schema uses a keyword
    the compiler does not know."""
    try:
        return compile_predicate(_inlined(name))  # a recursive schema keeps "$ref": Unsupported
    except (Unsupported, re.error, TypeError, RecursionError):
        return None


def fast_valid(name: str, instance: Any) -> bool:
    """``True`` when the compiled predicate proves ``instance`` valid under
    schema ``name`` (``False``: invalid, or not decidable without jsonschema)."""
    pred = predicate(name)
    if pred is None:
        return False
    try:
        return bool(pred(instance))
    except Exception:  # an unexpected value shape: let jsonschema decide
        return False


def validate(name: str, instance: dict[str, Any]) -> list[SchemaError]:
    """Validate ``instance`` against schema ``name``; errors sorted by pointer.

    A key that ``additionalProperties: false`` forbids gets its own error
    (keyword ``additionalProperties``, message ``unknown key 'x'``) whose
    pointer names the key. Messages name the innermost key of the pointer.
    An instance the compiled predicate proves valid returns ``[]`` without
    jsonschema (:func:`fast_valid`).
    """
    if fast_valid(name, instance):
        return []
    return validate_slow(name, instance)


def validate_slow(name: str, instance: dict[str, Any]) -> list[SchemaError]:
    """:func:`validate` through jsonschema alone (the reference the fast path
    is tested against)."""
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
