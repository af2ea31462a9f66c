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

import os
import re
from functools import lru_cache

from mmlint._record import Frozen
from mmlint.dates import iso_ordinal

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Callable


class SchemaError(Frozen):
    """One violation: ``pointer`` (``/created``), ``key`` (first pointer
    segment, ``""`` for the whole document), ``keyword`` (``required``,
    ``enum``, ``pattern``, ``format``, ``type`` ...), human ``message``."""

    _fields = ("pointer", "key", "keyword", "message")

    def __init__(self, pointer: str, key: str, keyword: str, message: str) -> None:
        object.__setattr__(self, "pointer", pointer)
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "keyword", keyword)
        object.__setattr__(self, "message", message)


@lru_cache(maxsize=1)
def _schema_folder() -> str | None:
    """The folder that holds the schemas as plain files: the installed
    package ``mmlint.schemas`` (the top-level ``schemas/`` folder mapped into
    the package at install time), or that folder itself when mmlint runs from
    a source checkout; None when the package is not plain files."""
    try:
        import mmlint.schemas as package
    except ModuleNotFoundError:
        package = None
    folder = os.path.dirname(getattr(package, "__file__", None) or "") if package is not None else \
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "schemas")
    return folder if folder and os.path.isfile(os.path.join(folder, "config.json")) else None


def _schema_dir() -> Any:
    """Where the schemas are, as a :class:`pathlib.Path` (a plain folder) or
    an :mod:`importlib.resources` traversable."""
    # A folder on disk is read with pathlib directly: importlib.resources
    # costs ~5 ms of imports (zipfile, tempfile, threading) it needs only for
    # a package that is not plain files.
    folder = _schema_folder()
    if folder is not None:
        from pathlib import Path

        return Path(folder)
    from importlib import resources

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
    import json  # only here: a check takes its predicates ready-made (mmlint._schema_predicates)

    folder = _schema_folder()
    if folder is not None:  # plain files: read with os, no pathlib (~2.5 ms of imports on a check)
        path = os.path.join(folder, f"{name}.json")
        if os.path.isfile(path):
            with open(path, encoding="utf-8") as fh:
                return json.loads(fh.read())
    else:
        traversable = _schema_dir() / f"{name}.json"
        if traversable.is_file():
            return json.loads(traversable.read_text(encoding="utf-8"))
    from mmlint.suggest import did_you_mean

    raise KeyError(f"unknown schema {name!r}{did_you_mean(name, schema_names())}; known schemas: {', '.join(schema_names())}")


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
#: FormatChecker ``date`` (``^\d{4}-\d{2}-\d{2}$`` in ASCII and a real date,
#: :func:`_date_ok`).


class Unsupported(Exception):
    """A schema uses a keyword (or keyword value) the predicate compiler does not know."""


def _is_date(value: Any) -> bool:
    """jsonschema's ``format: date``: a non-string passes; a string must be
    ``YYYY-MM-DD`` in ASCII digits and a real calendar day."""
    if not isinstance(value, str):
        return True
    return _is_date_str(value) if type(value) is str else _date_ok(value)


@lru_cache(maxsize=4096)
def _is_date_str(value: str) -> bool:
    """:func:`_date_ok`, memoised (a store repeats its dates)."""
    return _date_ok(value)


def _date_ok(value: str) -> bool:
    r"""``re.fullmatch(r"^\d{4}-\d{2}-\d{2}$", value, re.ASCII)`` (no pattern
    to compile) and a real calendar day, as ``datetime.date.fromisoformat``
    takes it (:func:`mmlint.dates.iso_ordinal`: no :mod:`datetime` import)."""
    return iso_ordinal(value) is not None


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


#: jsonschema's draft 2020-12 type checker, narrowed, as expressions over
#: ``{v}``: a value it would accept by a wider rule (a ``Decimal`` for
#: ``number``) gets ``False``, which only sends the instance to jsonschema.
_TYPE_EXPR = {
    "string": "isinstance({v}, str)",
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
    "number": "type({v}) in (int, float)",
    "integer": "(type({v}) is int or (type({v}) is float and {v}.is_integer()))",
}
# jsonschema skips values that are not numbers (bools included) for the numeric
# bounds; a numeric type other than int and float is left to jsonschema.
_BOUND_EXPR = "({v} {op} {c} if type({v}) in (int, float) else {v} is None or isinstance({v}, (bool, str, list, dict)))"
_BOUND_OPS = {"minimum": ">=", "maximum": "<=", "exclusiveMinimum": ">", "exclusiveMaximum": "<"}


class _Gen:
    """Turns a schema into one Python expression (see :func:`compile_predicate`):
    constants (patterns, key sets, enum options) go into :attr:`env` under
    generated names, sub-values are bound to fresh names with ``:=``."""

    def __init__(self) -> None:
        self.env: dict[str, Any] = {"_is_date": _is_date, "_equal": _equal, "_MISSING": _MISSING}
        self.n = 0

    def const(self, value: Any) -> str:
        self.n += 1
        name = f"_c{self.n}"
        self.env[name] = value
        return name

    def var(self) -> str:
        self.n += 1
        return f"_v{self.n}"

    def node(self, node: Any, v: str) -> str:
        if node is True:
            return "True"
        if node is False:
            return "False"
        if not isinstance(node, dict):
            raise Unsupported(f"schema node {node!r}")
        props = node.get("properties", {})
        if not isinstance(props, dict):
            raise Unsupported("properties")
        parts = [self.keyword(kw, val, props, v) for kw, val in node.items() if kw not in _ANNOTATIONS]
        if not parts:
            return "True"
        return parts[0] if len(parts) == 1 else "(" + " and ".join(parts) + ")"

    def keyword(self, kw: str, val: Any, props: dict[str, Any], v: str) -> str:
        if kw == "type":
            names = [val] if isinstance(val, str) else val
            if not isinstance(names, list) or not names:
                raise Unsupported("type")
            tests = []
            for n in names:
                if not isinstance(n, str) or n not in _TYPE_EXPR:
                    raise Unsupported(f"type {n!r}")
                tests.append(_TYPE_EXPR[n].format(v=v))
            return tests[0] if len(tests) == 1 else "(" + " or ".join(tests) + ")"
        if kw == "required":
            req = tuple(val)
            if not all(isinstance(k, str) for k in req):
                return f"(not isinstance({v}, dict) or all(k in {v} for k in {self.const(req)}))"
            if not req:
                return "True"
            return f"(not isinstance({v}, dict) or (" + " and ".join(f"{k!r} in {v}" for k in req) + "))"
        if kw == "properties":
            checks = []
            for k, sub in val.items():
                x = self.var()
                body = self.node(sub, x)
                checks.append(f"(({x} := {v}.get({k!r}, _MISSING)) is _MISSING or {body})" if body != "True" else "True")
            checks = [c for c in checks if c != "True"]
            if not checks:
                return "True"
            return f"(not isinstance({v}, dict) or (" + " and ".join(checks) + "))"
        if kw == "additionalProperties":
            known = self.const(frozenset(props))
            if val is False:
                return f"(not isinstance({v}, dict) or {known}.issuperset({v}))"
            x = self.var()
            return f"(not isinstance({v}, dict) or all({self.node(val, x)} for k, {x} in {v}.items() if k not in {known}))"
        if kw == "enum":
            options = list(val)
            if options and all(type(o) is str for o in options):
                # _equal with a str option is ==; only a str equals a str (a subclass goes to jsonschema)
                return f"(type({v}) is str and {v} in {self.const(frozenset(options))})"
            return f"any(_equal({v}, o) for o in {self.const(options)})"
        if kw == "const":
            return f"_equal({v}, {self.const(val)})"
        if kw == "pattern":
            rx = self.const(re.compile(val))
            return f"(not isinstance({v}, str) or {rx}.search({v}) is not None)"
        if kw == "format":
            if val != "date":
                raise Unsupported(f"format {val!r}")
            return f"_is_date({v})"
        if kw in ("minLength", "maxLength"):
            if type(val) is not int:
                raise Unsupported(kw)
            op = ">=" if kw == "minLength" else "<="
            return f"(not isinstance({v}, str) or len({v}) {op} {val!r})"
        if kw == "uniqueItems":
            if val is False:
                return "True"
            # lists of strings only; any other list is left to jsonschema's own equality
            return f"(not isinstance({v}, list) or (all(type(x) is str for x in {v}) and len(set({v})) == len({v})))"
        if kw in _BOUND_OPS:
            if type(val) not in (int, float):
                raise Unsupported(kw)
            return _BOUND_EXPR.format(v=v, op=_BOUND_OPS[kw], c=self.const(val))
        if kw == "items":
            if "prefixItems" in props or val is not False and not isinstance(val, (dict, bool)):
                raise Unsupported("items")
            x = self.var()
            return f"(not isinstance({v}, list) or all({self.node(val, x)} for {x} in {v}))"
        if kw in ("anyOf", "allOf"):
            if not isinstance(val, list):
                raise Unsupported(kw)
            subs = [self.node(sub, v) for sub in val]
            if not subs:
                return "False" if kw == "anyOf" else "True"
            return "(" + (" or " if kw == "anyOf" else " and ").join(subs) + ")"
        if kw == "propertyNames":
            x = self.var()
            return f"(not isinstance({v}, dict) or all({self.node(val, x)} for {x} in {v}))"
        raise Unsupported(kw)


_MISSING = object()


def compile_predicate(node: Any) -> Callable[[Any], bool]:
    """A predicate for the schema ``node`` (references already inlined):
    ``pred(instance)`` is ``True`` only when the instance is valid under
    jsonschema's ``Draft202012Validator`` with a ``FormatChecker``.

    The schema becomes the source of one Python function, one boolean
    expression over the instance (no closure or call per keyword), compiled
    once: :func:`predicate` caches it per schema.

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
    gen = _Gen()
    expr = gen.node(node, "v")
    src = f"def _pred(v):\n    return bool({expr})\n"
    ns = dict(gen.env)
    exec(compile(src, "<schema predicate>", "exec"), ns)
    pred = ns["_pred"]
    pred.source = src  # type: ignore[attr-defined]  # for debugging: what the schema became
    return pred


@lru_cache(maxsize=None)
def predicate(name: str) -> Callable[[Any], bool] | None:
    """The compiled predicate of schema ``name`` (see
    :func:`compile_predicate`), or ``None`` when the schema uses a keyword
    the compiler does not know.

    A bundled schema's predicate comes ready-made from
    :mod:`mmlint._schema_predicates` (generated by :func:`predicates_module`
    from the same schemas, held to it by a test): a check then neither
    reads nor parses the schema nor compiles Python source (~2 ms with
    :mod:`json`'s import)."""
    from mmlint._schema_predicates import BUILDERS

    if name in BUILDERS:
        build = BUILDERS[name]
        return build(_is_date, _equal, _MISSING) if build is not None else None
    return _compiled(name)


def _compiled(name: str) -> Callable[[Any], bool] | None:
    """:func:`predicate` compiled from the schema file itself."""
    try:
        return compile_predicate(_inlined(name))  # a recursive schema keeps "$ref": Unsupported
    except (Unsupported, re.error, TypeError, RecursionError, SyntaxError, MemoryError):
        return None


def _literal(value: Any) -> str:
    """Python source that builds ``value``, one of a predicate's constants
    (see :class:`_Gen`), the same on every run (a frozenset's items sorted).

    Raises:
        Unsupported: a value without such source.
    """
    t = type(value)
    if value is None or t in (bool, int, float, str):
        return repr(value)
    if t is frozenset and all(type(x) is str for x in value):
        return f"frozenset({sorted(value)!r})"
    if t in (list, tuple):
        items = ", ".join(_literal(x) for x in value)
        return f"[{items}]" if t is list else f"({items}{',' if len(value) == 1 else ''})"
    if t is dict and all(type(k) is str for k in value):
        return "{" + ", ".join(f"{k!r}: {_literal(x)}" for k, x in value.items()) + "}"
    if isinstance(value, re.Pattern) and type(value.pattern) is str and value.flags == re.UNICODE:
        return f"re.compile({value.pattern!r})"
    raise Unsupported(f"constant {value!r}")


def predicates_module() -> str:
    """The source of :mod:`mmlint._schema_predicates`: for every bundled
    schema, a function that builds its predicate (the expression
    :func:`compile_predicate` compiles, its constants built on the first
    call), or ``None`` for a schema without one. Regenerate the module with
    ``python -c "from mmlint import validate; print(validate.predicates_module(), end='')" > mmlint/_schema_predicates.py``.
    """
    out = ['"""The compiled predicate of each bundled schema (:func:`mmlint.validate.predicate`).',
           "",
           "Generated from ``schemas/*.json`` by :func:`mmlint.validate.predicates_module`: do not",
           "edit; ``tests/test_validate_fast.py`` regenerates it and requires the same text.",
           '"""',
           "",
           "import re",
           ""]
    table = []
    for name in schema_names():
        try:
            gen = _Gen()
            expr = gen.node(_inlined(name), "v")
            consts = [f"    {k} = {_literal(v)}\n" for k, v in gen.env.items() if k not in ("_is_date", "_equal", "_MISSING")]
        except (Unsupported, re.error, TypeError, RecursionError):
            table.append(f"    {name!r}: None,")
            continue
        func = "_" + re.sub(r"\W", "_", name)
        out.append("")
        out.append(f"def {func}(_is_date, _equal, _MISSING):")
        out.append(f"    \"\"\"The predicate of schema ``{name}``.\"\"\"")
        out.append("".join(consts) + f"    def _pred(v):\n        return bool({expr})\n\n    return _pred")
        out.append("")
        table.append(f"    {name!r}: {func},")
    out += ["", "#: Schema name -> its predicate's builder (None: the schema has no predicate).", "BUILDERS = {"]
    return "\n".join(out + table + ["}", ""])


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
