"""The library entry points behind the CLI: detect, read and check stores.

Nothing here prints. Every function returns data or raises
:class:`CheckError`, whose message is meant for the user (the CLI turns it
into exit status 2).
"""

from __future__ import annotations

import os

from mmlint.discover import Found, NoStore, find_store, resolve_path
from mmlint.errors import CheckError
from mmlint.results import CheckResult, StoreResult, display_path

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from mmlint.dialects import Evidence
    from mmlint.model import Store

__all__ = ["CheckError", "CheckResult", "StoreResult", "cached", "check", "choose", "configured", "display_path",
           "forced_mismatch", "lint", "locate", "read_store"]


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
    from mmlint import dialects
    from mmlint.dialects import UnknownDialect

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
    from mmlint import dialects

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
    from mmlint import dialects

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


def lint(store: Store, options, partial=None) -> list:
    """The diagnostics of ``store`` under ``options`` (sorted, store-relative);
    ``partial``: see :func:`mmlint.rules.run`."""
    from mmlint import dialects, rules

    return rules.run(store, dialects.get(store.dialect), options, partial)


def check(paths: list[str], dialect: str | None = None, profile: str | None = None, options=None,
          cwd: str | None = None, config: str | None = None, isolated: bool = False,
          keep_going: bool = False, cache: bool = False, misses: dict | None = None) -> CheckResult:
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

    ``misses``: the looks :func:`cached` took at stores that missed, used
    (once) instead of looking again.

    Returns a :class:`CheckResult` whose diagnostics keep store-relative
    paths; use :func:`display_path` to show them.

    Raises:
        CheckError: see :func:`configured` (without ``keep_going``, or when
            no path is given and discovery finds nothing).
    """
    from mmlint.gcpause import gc_paused

    with gc_paused():
        if not keep_going or not paths:
            results = _checked(paths, dialect, profile, options, cwd, config, isolated, cache, misses)
            failures: list[tuple[str, str]] = []
        else:
            results, failures = [], []
            for p in paths:
                try:
                    results += _checked([p], dialect, profile, options, cwd, config, isolated, cache, misses)
                except CheckError as exc:
                    failures.append((p, exc.shown()))
    return CheckResult(results, failures=failures)


def cached(paths: list[str], dialect: str | None = None, profile: str | None = None, options=None,
           cwd: str | None = None, config: str | None = None, isolated: bool = False,
           misses: dict | None = None) -> CheckResult | None:
    """The result :func:`check` with ``cache=True`` would give, when the
    result cache answers for every store of ``paths`` (or the discovered
    one) without reading any of them; ``None`` when one is not cached, has
    changed, or a path cannot be located (then call :func:`check`).

    Nothing but the stores' trees (``stat``), the cache entries and the
    configuration files' ``stat`` is read; neither the configuration, the
    dialects nor the rules are loaded, so the command-line names
    (``dialect``, ``profile``, selectors in ``options``) are not checked
    either: a hit means a check with the same names succeeded on the same
    files with the same mmlint (:mod:`mmlint.cache`).

    ``misses`` (a dict) receives the look taken at the store that missed,
    by store path; passed on to :func:`check` right away, it spares that
    check a second look (the look was taken before the check reads the
    store, so its result can be recorded with it).
    """
    try:
        found = locate(paths, cwd)
    except CheckError:
        return None
    stores = []
    for f in found:
        res, pr = _cache_hit(f, dialect, profile, options, config, isolated, False)
        if res is None:
            if misses is not None:
                misses[f.path] = pr
            return None
        stores.append(res)
    return CheckResult(stores)


def _cache_hit(found: Found, dialect, profile, options, config, isolated, with_evidence: bool):
    """``(cached result or None, the probe)`` of one store. A probe is a
    snapshot: a full check needs one taken just before it reads the store."""
    from mmlint import cache as cache_mod

    pr = cache_mod.probe(found.path, dialect, profile, options, config, isolated)
    try:
        entry = pr.fresh()
        res = cache_mod.result(found, entry, with_evidence) if entry is not None else None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):  # a malformed entry is a miss
        res = None
    if res is not None:
        pr.refresh()
    else:
        pr.missed()
    return res, pr


def _checked(paths, dialect, profile, options, cwd, config, isolated, cache, misses=None) -> list[StoreResult]:
    """Read (or take from the cache) and lint each store of ``paths``, each
    under its configuration."""
    from mmlint import config as config_mod

    if cache:  # --no-cache: no cache module (~0.5 ms to import)
        from mmlint import cache as cache_mod

    out = []
    loaded: dict = {}
    for found in locate(paths, cwd):
        pr = (misses or {}).pop(found.path, None) if cache else None
        if cache and pr is None:
            res, pr = _cache_hit(found, dialect, profile, options, config, isolated, True)
            if res is not None:
                out.append(res)
                continue
        conf = config_mod.for_store(found.path, config, isolated, loaded)
        d, p = conf.store_choice(dialect, profile)
        name, prof, ev = choose(found.path, d, p)
        if pr is None:
            res = _read(found, d, name, prof, ev)
            res.options = conf.options(options)
            res.config = conf.path
            res.diagnostics = lint(res.store, res.options)
        else:
            # note and file rules run on changed notes and files only; the others' findings come from the entry
            from mmlint import outside
            from mmlint.rules import Partial

            with outside.noting() as looked:  # what reading and rules ask beyond the store's tree
                res = _read(found, d, name, prof, ev)
                res.options = conf.options(options)
                res.config = conf.path
                shas = cache_mod.file_hashes(res.store)
                pr.freeze(res.store)  # the tree's rows as text from here on: less to hold through the rules
                note_ctx = cache_mod.note_context(res, shas)
                from mmlint import dialects

                reuse, reuse_files, changed = cache_mod.reusable(pr, res, shas, note_ctx)
                facts = cache_mod.Facts(pr.text, cache_mod.facts_context(res, shas), shas,
                                        reuse=res.dialect in dialects.BUILTIN, changed=changed)
                partial = Partial(reuse, reuse_files, facts=facts)
                try:
                    res.diagnostics = lint(res.store, res.options, partial)
                except BaseException:
                    facts.close(keep=False)
                    raise
            facts.close()
            pr.record(res, config, isolated, shas, partial, note_ctx, conf.extended, outside.dump(looked))
        out.append(res)
    return out
