"""The rule registry and the engine that runs rules over a store.

A rule is a function decorated with :func:`rule`; the decorator records its
metadata (stable code, kebab-case name, default severity, dialects, profiles)
and the function's docstring, which is the rule's documentation (first line:
what it finds; then ``Why:``, ``Bad:``, ``Good:`` sections). Rules yield
:class:`Finding` objects; the engine stamps code, name and configured
severity on them, so rules never decide severity.

Reader problems (:class:`mmlint.model.Problem`) carry a rule code too: the
``reader`` family documents those codes and the engine turns problems into
diagnostics through the same path.

Rule families live in one module each (``mmlint/rules/<family>.py``) and are
imported only when rules are needed (never for ``--version``).
"""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from mmlint.model import Span, Store

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)

#: Rule family modules, in documentation order.
FAMILIES = ("store", "index", "pointers", "naming", "frontmatter", "caps", "mm", "interop")


@dataclass(frozen=True)
class Rule:
    """A registered rule.

    Attributes:
        code: stable code (``P101``); never reused for another meaning.
        name: kebab-case name (``dangling-pointer``).
        severity: default severity, one of :data:`SEVERITIES`.
        dialects: dialect names the rule applies to (``None``: all).
        profiles: engramory profiles it applies to (``None``: all).
        family: the module family that defines it.
        func: the check (``None`` for reader-problem rules).
        doc: the docstring (the rule's documentation).
    """

    code: str
    name: str
    severity: str
    dialects: frozenset[str] | None
    profiles: frozenset[str] | None
    family: str
    func: Callable[["Context"], Iterable["Finding"]] | None
    doc: str

    @property
    def summary(self) -> str:
        """The doc's first paragraph on one line: what the rule finds."""
        first = inspect.cleandoc(self.doc).split("\n\n", 1)[0]
        return " ".join(first.split())

    def applies(self, dialect: str, profile: str | None) -> bool:
        """Whether the rule runs on a store of this dialect and profile."""
        if self.dialects is not None and dialect not in self.dialects:
            return False
        if self.profiles is not None and profile is not None and profile not in self.profiles:
            return False
        return True


@dataclass
class Finding:
    """What a rule yields: where, what, and optionally how to fix it."""

    span: Span
    message: str
    hint: str | None = None
    fix: dict[str, Any] | None = None


@dataclass
class Diagnostic:
    """A finding stamped with its rule: the unit every reporter prints.

    ``span.path`` is relative to the store root; reporters show it relative
    to the current folder (:func:`mmlint.api.display_path`).
    """

    code: str
    name: str
    severity: str
    span: Span
    message: str
    hint: str | None = None
    fix: dict[str, Any] | None = None

    def sort_key(self) -> tuple:
        """The report order (DESIGN "Rules and reports"): path, line, rule
        code, then column and message to make it total."""
        return (self.span.path, self.span.line, self.code, self.span.column, self.message)


@dataclass
class Context:
    """What a rule sees: the store, its dialect module and the options.

    Attributes:
        store: the store read by its dialect.
        dialect: the dialect module.
        options: :class:`Options` in force.
        cache: per-run memo shared by rules (e.g. parsed bodies).
    """

    store: Store
    dialect: Any
    options: "Options"
    cache: dict[str, Any] = field(default_factory=dict)

    @property
    def profile(self) -> str | None:
        return self.store.profile


@dataclass
class Options:
    """Check options (command-line flags; configuration files later).

    Attributes:
        select: rule codes or names to run (empty: all that apply).
        ignore: rule codes or names to skip.
        severity: code -> severity override.
        caps: cap overrides, e.g. ``{"index_lines": 150}``.
    """

    select: set[str] = field(default_factory=set)
    ignore: set[str] = field(default_factory=set)
    severity: dict[str, str] = field(default_factory=dict)
    caps: dict[str, int] = field(default_factory=dict)


REGISTRY: dict[str, Rule] = {}
_BY_NAME: dict[str, str] = {}
_loaded = False


def rule(code: str, name: str, severity: str, dialects: Iterable[str] | None = None,
         profiles: Iterable[str] | None = None) -> Callable[[Callable], Callable]:
    """Register a rule function (see module docs).

    Raises:
        ValueError: a code or name registered twice, or a bad severity.
    """

    def deco(func: Callable) -> Callable:
        _register(code, name, severity, dialects, profiles, func, func.__doc__ or "", func.__module__)
        return func

    return deco


def reader_rule(code: str, name: str, severity: str, doc: str, dialects: Iterable[str] | None = None,
                profiles: Iterable[str] | None = None) -> None:
    """Register a rule whose findings come from a reader :class:`Problem`."""
    _register(code, name, severity, dialects, profiles, None, inspect.cleandoc(doc), _caller_module())


def _caller_module() -> str:
    import sys

    return sys._getframe(2).f_globals.get("__name__", "")


def _register(code, name, severity, dialects, profiles, func, doc, module) -> None:
    if severity not in SEVERITIES:
        raise ValueError(f"rule {code}: bad severity {severity!r}")
    if code in REGISTRY or name in _BY_NAME:
        raise ValueError(f"rule {code} {name}: code or name registered twice")
    family = module.rsplit(".", 1)[-1]
    REGISTRY[code] = Rule(code, name, severity, frozenset(dialects) if dialects else None,
                          frozenset(profiles) if profiles else None, family, func, doc)
    _BY_NAME[name] = code


def load() -> dict[str, Rule]:
    """Import every family module once; return the registry sorted by code."""
    global _loaded
    if not _loaded:
        for fam in FAMILIES:
            importlib.import_module(f"mmlint.rules.{fam}")
        _loaded = True
    return dict(sorted(REGISTRY.items()))


def lookup(code_or_name: str) -> Rule | None:
    """A rule by code (case-insensitive) or name."""
    load()
    key = code_or_name.strip()
    if key.upper() in REGISTRY:
        return REGISTRY[key.upper()]
    code = _BY_NAME.get(key.lower())
    return REGISTRY.get(code) if code else None


def _selected(r: Rule, options: Options) -> bool:
    def hit(names: set[str]) -> bool:
        return any(r.code == n.upper() or r.name == n.lower() or (len(n) < 4 and r.code.startswith(n.upper())) for n in names)

    if options.select and not hit(options.select):
        return False
    return not hit(options.ignore)


def run(store: Store, dialect: Any, options: Options | None = None) -> list[Diagnostic]:
    """Run every applicable rule on ``store``; diagnostics sorted by path,
    line, column, code. Paths stay store-relative."""
    options = options or Options()
    rules = load()
    ctx = Context(store, dialect, options)
    out: list[Diagnostic] = []
    for r in rules.values():
        if not r.applies(store.dialect, store.profile) or not _selected(r, options) or r.func is None:
            continue
        for f in r.func(ctx):
            out.append(_stamp(r, f.span, f.message, f.hint, f.fix, options))
    for p in store.problems:
        r = rules.get(p.code)
        if r is None:
            raise KeyError(f"reader problem with unregistered rule code {p.code}")
        if not r.applies(store.dialect, store.profile) or not _selected(r, options):
            continue
        d = _stamp(r, p.span, p.message, None, None, options)
        if p.severity and p.code not in options.severity:
            d.severity = p.severity
        out.append(d)
    out.sort(key=Diagnostic.sort_key)
    return out


def _stamp(r: Rule, span: Span, message: str, hint: str | None, fix: dict | None, options: Options) -> Diagnostic:
    severity = options.severity.get(r.code) or options.severity.get(r.name) or r.severity
    return Diagnostic(r.code, r.name, severity, span, message, hint, fix)
