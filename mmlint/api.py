"""The library entry points behind the CLI: detect, read and check stores.

Nothing here prints. Every function returns data or raises
:class:`CheckError`, whose message is meant for the user (the CLI turns it
into exit status 2).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from mmlint import dialects
from mmlint.dialects import Evidence, UnknownDialect
from mmlint.discover import Found, NoStore, find_store, resolve_path
from mmlint.errors import CheckError
from mmlint.model import Span, Store


@dataclass
class StoreResult:
    """One checked store.

    Attributes:
        found: where the store is and how it was found.
        dialect, profile: what it was read as.
        evidence: detection evidence (``None`` when forced by options).
        store: the model read.
        diagnostics: sorted, with store-relative paths.
        options: the :class:`mmlint.rules.Options` the store was checked with
            (its configuration with the command line on top).
        config: the configuration file that applied, or ``None``.
    """

    found: Found
    dialect: str
    profile: str | None
    evidence: Evidence | None
    store: Store
    diagnostics: list = field(default_factory=list)
    options: Any = None
    config: str | None = None

    @property
    def files(self) -> int:
        """Every file of the store (notes, index, auxiliary files, and files
        that could not be read)."""
        return len(self.store.files)


@dataclass
class CheckResult:
    """All stores of one ``check`` run.

    ``unsafe_fixes`` tells reporters whether unsafe fixes count as
    applicable (``--unsafe-fixes``); ``fixed`` is how many findings
    ``--fix`` resolved before the stores were checked again.
    """

    stores: list[StoreResult]
    unsafe_fixes: bool = False
    fixed: int = 0

    def counts(self) -> dict[str, int]:
        """``{"files", "errors", "warnings", "infos"}``."""
        out = {"files": 0, "errors": 0, "warnings": 0, "infos": 0}
        for s in self.stores:
            out["files"] += s.files
            for d in s.diagnostics:
                out[{"error": "errors", "warning": "warnings", "info": "infos"}[d.severity]] += 1
        return out


def locate(paths: list[str], cwd: str | None = None) -> list[Found]:
    """Store locations for the given paths, or the discovered one.

    Raises:
        CheckError: a path that is not a store folder, or nothing found.
    """
    try:
        if not paths:
            return [find_store(cwd)]
        return [resolve_path(p) for p in paths]
    except NoStore as exc:
        if not paths:
            where = "\n".join(f"  - {how}: {path}" for how, path in exc.looked)
            raise CheckError(f"no memory store found; looked in:\n{where}\npass the store folder as PATH") from None
        raise CheckError(f"{exc.looked[0][1]}: not a folder (or a MEMORY.md file)") from None


def choose(root: str, dialect: str | None = None, profile: str | None = None) -> tuple[str, str | None, Evidence | None]:
    """Decide ``(dialect, profile, evidence)`` for the store at ``root``.

    ``dialect``/``profile`` override detection. Raises :class:`CheckError`
    when the dialect is unknown or the store is unrecognised or ambiguous.
    """
    try:
        if dialect is not None:
            mod = dialects.get(dialect)
            if profile is not None:
                dialects.check_profile(dialect, profile)
                return dialect, profile, None
            ev = mod.detect(root)
            return dialect, (ev.profile if ev is not None and ev.profile else mod.DEFAULT_PROFILE), ev
        found = dialects.detect(root)
    except UnknownDialect as exc:
        raise CheckError(str(exc)) from None
    if not found:
        nested = _nested_stores(root)
        if nested:
            listed = "\n".join(f"  - {p}" for p in nested[:10]) + ("\n  ..." if len(nested) > 10 else "")
            raise CheckError(f"{root}: not a memory store itself, but these folders below it are:\n{listed}\n"
                             "pass them as PATHs")
        raise CheckError(f"{root}: not a recognisable memory store (no MEMORY.md with pointers, no mm headers, "
                         "no notes with frontmatter); pass --dialect to read it anyway")
    best = found[0]
    if len(found) > 1 and found[1].score == best.score:
        names = " and ".join(f"{e.dialect} ({'; '.join(e.reasons)})" for e in found[:2])
        raise CheckError(f"{root}: ambiguous store, equally like {names}; pass --dialect")
    if profile is not None:
        try:
            dialects.check_profile(best.dialect, profile)
        except UnknownDialect as exc:
            raise CheckError(str(exc)) from None
        return best.dialect, profile, best
    return best.dialect, best.profile, best


def _nested_stores(root: str, depth: int = 3) -> list[str]:
    """Folders below ``root`` (at most ``depth`` levels) that hold a MEMORY.md."""
    out = []
    base = root.rstrip(os.sep).count(os.sep)
    for dirpath, dirnames, files in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        if dirpath.count(os.sep) - base >= depth:
            dirnames[:] = []
        if "MEMORY.md" in files and dirpath != root:
            out.append(dirpath)
    return out


def read_store(found: Found, dialect: str | None = None, profile: str | None = None) -> StoreResult:
    """Detect and read one store."""
    name, prof, ev = choose(found.path, dialect, profile)
    mod = dialects.get(name)
    store = mod.read(found.path, prof)
    return StoreResult(found, name, prof, ev, store)


def configured(paths: list[str], dialect: str | None = None, profile: str | None = None, options=None,
               cwd: str | None = None, config: str | None = None, isolated: bool = False) -> list[StoreResult]:
    """Locate, configure and read every store named by ``paths`` (or the
    discovered one), without linting: each result carries its options and
    configuration file. ``dialect``, ``profile`` and ``options`` are the
    command line's and win over the configuration (:mod:`mmlint.config`).

    Raises:
        CheckError: see :func:`locate` and :func:`choose`;
            :class:`mmlint.config.ConfigError` for a bad configuration.
    """
    from mmlint import config as config_mod

    cache: dict = {}
    out = []
    for found in locate(paths, cwd):
        conf = config_mod.for_store(found.path, config, isolated, cache)
        res = read_store(found, *conf.store_choice(dialect, profile))
        res.options = conf.options(options)
        res.config = conf.path
        out.append(res)
    return out


def lint(store: Store, options) -> list:
    """The diagnostics of ``store`` under ``options`` (sorted, store-relative)."""
    from mmlint import rules

    return rules.run(store, dialects.get(store.dialect), options)


def check(paths: list[str], dialect: str | None = None, profile: str | None = None, options=None,
          cwd: str | None = None, config: str | None = None, isolated: bool = False) -> CheckResult:
    """Read and lint every store named by ``paths`` (or the discovered one),
    each under its configuration (see :func:`configured`).

    Returns a :class:`CheckResult` whose diagnostics keep store-relative
    paths; use :func:`display_path` to show them.

    Raises:
        CheckError: see :func:`configured`.
    """
    results = configured(paths, dialect, profile, options, cwd, config, isolated)
    for res in results:
        res.diagnostics = lint(res.store, res.options)
    return CheckResult(results)


def display_path(root: str, span: Span, cwd: str | None = None) -> str:
    """A diagnostic's path relative to ``cwd``, with ``/`` separators."""
    cwd = cwd or os.getcwd()
    full = os.path.join(root, span.path)
    try:
        rel = os.path.relpath(full, cwd)
    except ValueError:  # another drive on Windows
        rel = full
    return rel.replace(os.sep, "/")
