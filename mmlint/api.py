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
        warnings: sentences for the user about how the store was read (a
            forced dialect the store does not look like); the CLI prints
            them on stderr.
        cached: the diagnostics came from the result cache (:func:`check`).
    """

    found: Found
    dialect: str
    profile: str | None
    evidence: Evidence | None
    store: Store
    diagnostics: list = field(default_factory=list)
    options: Any = None
    config: str | None = None
    warnings: list[str] = field(default_factory=list)
    cached: bool = False

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
    ``--fix`` resolved before the stores were checked again. ``failures``
    lists ``(path, message)`` for each PATH that could not be checked
    (``check(..., keep_going=True)``); the message names the path and is
    escaped for a terminal (:meth:`mmlint.errors.CheckError.shown`).
    """

    stores: list[StoreResult]
    unsafe_fixes: bool = False
    fixed: int = 0
    failures: list[tuple[str, str]] = field(default_factory=list)

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
        how, full = exc.looked[0]
        if how == "no such file or folder":
            raise CheckError(f"{full}: no such file or folder") from None
        raise CheckError(f"{full}: a file, not a store folder; pass the folder (or its MEMORY.md)") from None


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
    """Detect and read one store. A forced ``dialect`` the store does not
    look like is read as asked, with a sentence in
    :attr:`StoreResult.warnings` (see :func:`forced_mismatch`)."""
    name, prof, ev = choose(found.path, dialect, profile)
    return _read(found, dialect, name, prof, ev)


def _read(found: Found, dialect: str | None, name: str, prof: str | None, ev: Evidence | None) -> StoreResult:
    """Read the store as the chosen ``name``/``prof`` (``dialect``: the forced one, if any)."""
    res = StoreResult(found, name, prof, ev, dialects.get(name).read(found.path, prof))
    _forced_warning(res, dialect)
    return res


def _forced_warning(res: StoreResult, dialect: str | None) -> None:
    if dialect is not None:
        why = forced_mismatch(res.found.path, dialect)
        if why:
            res.warnings.append(why)


def forced_mismatch(root: str, dialect: str) -> str | None:
    """A warning when the store at ``root`` looks like another dialect than
    the forced ``dialect``: detection's best candidate is another dialect and
    scores higher than ``dialect``'s own evidence (``None`` otherwise)."""
    found = dialects.detect(root)
    if not found or found[0].dialect == dialect:
        return None
    own = next((e.score for e in found if e.dialect == dialect), 0)
    best = found[0]
    if best.score <= own:
        return None
    from mmlint.textutil import safe_path_text

    return (f"{safe_path_text(root)}: read as {dialect} (forced), but it looks like {best.dialect} "
            f"({'; '.join(best.reasons[:2])}); findings may be about the wrong dialect")


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
    out = []
    for found, conf, choice in _configure(paths, dialect, profile, cwd, config, isolated):
        res = read_store(found, *choice)
        res.options = conf.options(options)
        res.config = conf.path
        out.append(res)
    return out


def _configure(paths, dialect, profile, cwd, config, isolated):
    """``(found, config, (dialect, profile))`` for each store of ``paths``."""
    from mmlint import config as config_mod

    cache: dict = {}
    for found in locate(paths, cwd):
        conf = config_mod.for_store(found.path, config, isolated, cache)
        yield found, conf, conf.store_choice(dialect, profile)


def lint(store: Store, options) -> list:
    """The diagnostics of ``store`` under ``options`` (sorted, store-relative)."""
    from mmlint import rules

    return rules.run(store, dialects.get(store.dialect), options)


def check(paths: list[str], dialect: str | None = None, profile: str | None = None, options=None,
          cwd: str | None = None, config: str | None = None, isolated: bool = False,
          keep_going: bool = False, cache: bool = False) -> CheckResult:
    """Read and lint every store named by ``paths`` (or the discovered one),
    each under its configuration (see :func:`configured`).

    With ``keep_going`` each path is checked on its own, as ruff and
    markdownlint-cli2 do: a path that cannot be checked (missing, not a
    store, ambiguous, a bad configuration) goes to
    :attr:`CheckResult.failures` and the other paths are still checked.

    With ``cache``, a store whose files, configuration and options (and
    mmlint itself) are unchanged since a previous cached check gets that
    check's diagnostics back without being read or linted
    (:mod:`mmlint.cache`); its result then has ``cached`` set and a summary
    :attr:`StoreResult.store` (all files with their bytes, notes and index as
    paths only).

    Returns a :class:`CheckResult` whose diagnostics keep store-relative
    paths; use :func:`display_path` to show them.

    Raises:
        CheckError: see :func:`configured` (without ``keep_going``, or when
            no path is given and discovery finds nothing).
    """
    from mmlint.gcpause import gc_paused

    with gc_paused():
        if not keep_going or not paths:
            results = _checked(paths, dialect, profile, options, cwd, config, isolated, cache)
            failures: list[tuple[str, str]] = []
        else:
            results, failures = [], []
            for p in paths:
                try:
                    results += _checked([p], dialect, profile, options, cwd, config, isolated, cache)
                except CheckError as exc:
                    failures.append((p, exc.shown()))
    return CheckResult(results, failures=failures)


def _checked(paths, dialect, profile, options, cwd, config, isolated, cache) -> list[StoreResult]:
    """Configure, read (or take from the cache) and lint each store of ``paths``."""
    out = []
    for found, conf, (d, p) in _configure(paths, dialect, profile, cwd, config, isolated):
        name, prof, ev = choose(found.path, d, p)
        opts = conf.options(options)
        key = None
        if cache:
            res, key, entry = _from_cache(found, name, prof, ev, opts, conf.path)
            if res is not None:
                _forced_warning(res, d)
                out.append(res)
                continue
        try:
            res = _read(found, d, name, prof, ev)
        finally:
            if key is not None:
                from mmlint import walk

                walk._kept.pop(os.path.realpath(found.path), None)
        res.options = opts
        res.config = conf.path
        res.diagnostics = lint(res.store, opts)
        if key is not None:
            from mmlint import cache as cache_mod

            cache_mod.save(entry, key, res.store, res.diagnostics)
        out.append(res)
    return out


def _from_cache(found: Found, name: str, prof: str | None, ev: Evidence | None, opts, config: str | None):
    """``(result or None, key, entry name)``: the cached result of this
    check, if any; on a miss the walk made for the key is kept for the reader."""
    from mmlint import cache as cache_mod
    from mmlint import walk
    from mmlint.model import Index, Note

    w = walk.walk_store(found.path)
    key = cache_mod.fingerprint(w, name, prof, opts, config)
    entry = cache_mod.slot(w.root, name, prof, opts, config)
    hit = cache_mod.load(entry, key)
    if hit is None:
        walk.keep(w)
        return None, key, entry
    store = Store(root=w.root, dialect=name, profile=prof, files=w.files,
                  notes=[Note(path=p, slug=p) for p in hit["notes"]],
                  index=Index(path=hit["index"]) if hit["index"] is not None else None)
    return StoreResult(found, name, prof, ev, store, hit["diagnostics"], opts, config, cached=True), key, entry


def display_path(root: str, span: Span, cwd: str | None = None) -> str:
    """A diagnostic's path relative to ``cwd``, with ``/`` separators."""
    cwd = cwd or os.getcwd()
    full = os.path.join(root, span.path)
    try:
        rel = os.path.relpath(full, cwd)
    except ValueError:  # another drive on Windows
        rel = full
    return rel.replace(os.sep, "/")
