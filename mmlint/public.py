"""The public library API, exported lazily from :mod:`mmlint` (``import
mmlint`` stays cheap; see ``docs/api.md`` for a worked example).

Every function takes paths as ``str`` or :class:`os.PathLike` and raises only
exceptions of :mod:`mmlint.errors` (plus ``OSError`` from the file system):
:class:`~mmlint.errors.CheckError` for a bad argument or an unreadable store,
:class:`~mmlint.errors.Refused` for a conversion or merge that wrote nothing.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Iterable, Union

from mmlint.errors import CheckError, Refused

if TYPE_CHECKING:
    from mmlint.convert import Plan
    from mmlint.merging.index import IndexMerge
    from mmlint.merging.stores import StoreMerge
    from mmlint.model import Store
    from mmlint.rules import Diagnostic

PathLike = Union[str, "os.PathLike[str]"]


def read_store(path: PathLike, dialect: str | None = None, profile: str | None = None) -> "Store":
    """Read the store at ``path`` (its folder, or its ``MEMORY.md``).

    ``dialect`` (``mm``, ``engramory``, ``workspace``) and ``profile``
    (engramory: ``recall-v1``, ``upstream``, ``claude-code``) override
    detection. Returns the :class:`mmlint.model.Store`.

    Raises:
        CheckError: no such folder, an unknown dialect or profile, a folder
            that is no recognisable store, or an ambiguous one.
    """
    from mmlint import api

    found = api.locate([os.fspath(path)])[0]
    return api.read_store(found, dialect, profile).store


def lint(store: "Store", select: Iterable[str] = (), ignore: Iterable[str] = (),
         severity: dict[str, str] | None = None, caps: dict[str, int] | None = None,
         hygiene: dict[str, Any] | None = None, jobs: int | None = None) -> list["Diagnostic"]:
    """The diagnostics of ``store``, sorted by path, line, rule code.

    ``select`` / ``ignore`` take rule codes, names or code prefixes (as
    ``--select`` / ``--ignore``); ``severity``, ``caps`` and ``hygiene`` are
    the configuration tables of the same names; ``jobs`` is ``--jobs``
    (``None``, the default, or 1: this process only; 0: automatic, a forked
    worker for a large store when a CPU is idle and no other thread runs;
    the result is the same). No configuration file is read. Each :class:`mmlint.rules.Diagnostic` has ``code``, ``name``,
    ``severity``, ``span`` (store-relative path, 1-based line and column),
    ``message``, ``hint`` and ``fix``.

    Raises:
        CheckError: a selector that names no rule, a bad severity, a
            negative ``jobs``.
    """
    from mmlint import dialects, rules

    select, ignore = set(select), set(ignore)
    unknown = rules.unknown_selectors(select | ignore | set(severity or {}))
    if unknown:
        raise CheckError(f"unknown rule {unknown[0]!r}; 'mmlint rules' lists them")
    bad = [v for v in (severity or {}).values() if v not in rules.SEVERITIES]
    if bad:
        raise CheckError(f"bad severity {bad[0]!r}; one of {', '.join(rules.SEVERITIES)}")
    sev = {}
    for key, value in (severity or {}).items():
        r = rules.lookup(key)
        if r is not None:
            sev[r.code] = value
    if jobs is not None and (type(jobs) is not int or jobs < 0):
        raise CheckError(f"jobs must be a whole number, 0 (automatic) or more, not {jobs!r}")
    opts = rules.Options(select=select, ignore=ignore, severity=sev, caps=dict(caps or {}), hygiene=dict(hygiene or {}),
                         jobs=jobs)
    return rules.run(store, dialects.get(store.dialect), opts)


def _store(src: "PathLike | Store", dialect: str | None, profile: str | None) -> "Store":
    from mmlint.model import Store

    return src if isinstance(src, Store) else read_store(src, dialect, profile)


def convert(src: "PathLike | Store", dst: PathLike, to: str, profile: str | None = None, dry_run: bool = False, *,
            source_dialect: str | None = None, source_profile: str | None = None,
            defaults: dict[str, str] | None = None, allow_loss: Iterable[str] = (), force: bool = False) -> "Plan":
    """Convert the store ``src`` (a path or a read :class:`~mmlint.model.Store`)
    into dialect ``to`` (``profile``) at ``dst``, as ``mmlint convert`` does:
    everything or nothing, verified by re-reading.

    Returns the :class:`mmlint.convert.Plan` (``plan.written``; a dry run
    writes nothing and returns the plan it verified).

    Raises:
        CheckError: an unknown dialect or profile, an unreadable source.
        Refused: the conversion was refused (``exc.plan.refusals``).
    """
    from mmlint import convert as conv
    from mmlint import dialects

    store = _store(src, source_dialect, source_profile)
    try:
        plan = conv.plan_conversion(store, os.fspath(dst), to, profile, defaults, set(allow_loss), force, dry_run)
    except dialects.UnknownDialect as exc:
        raise CheckError(str(exc)) from None
    if plan.refusals:
        raise Refused(plan)
    return plan


def merge(sources: Iterable["PathLike | Store"], dst: PathLike, resolve: str | None = None, dry_run: bool = False, *,
          dialect: str | None = None, profile: str | None = None) -> "StoreMerge":
    """Merge whole stores of one dialect into ``dst``, as ``mmlint merge``:
    an existing store at ``dst`` is merged into; ``resolve`` (``first``,
    ``last``, ``rename``) says how slug and name collisions are resolved
    (default: refused). See :mod:`mmlint.merging.stores`.

    Returns the :class:`mmlint.merging.stores.StoreMerge`.

    Raises:
        CheckError: an unreadable source, mixed dialects, a bad ``resolve``.
        Refused: a collision, a cap, or a failed verification (nothing written).
    """
    from mmlint.merging.stores import merge_stores

    stores = [_store(s, dialect, profile) for s in sources]
    if not stores:
        raise CheckError("merge needs at least one source store")
    target = os.path.abspath(os.fspath(dst))
    if os.path.isdir(target) and os.listdir(target) and all(s.root != target for s in stores):
        stores.insert(0, read_store(target, stores[0].dialect, stores[0].profile))
    try:
        plan = merge_stores(stores, target, resolve, dry_run)
    except ValueError as exc:
        raise CheckError(str(exc)) from None
    if plan.refusals:
        raise Refused(plan)
    return plan


def merge_index(base: bytes, ours: bytes, theirs: bytes, dialect: str | None = None) -> "IndexMerge":
    """Three-way merge of three versions of a ``MEMORY.md`` (bytes), as the
    git merge driver does; see :mod:`mmlint.merging.index`. Conflicts are not
    an exception: check ``result.clean`` and ``result.conflicts``.

    Raises:
        CheckError: an unknown dialect.
    """
    from mmlint.merging import index

    try:
        return index.merge_index(base, ours, theirs, dialect)
    except ValueError as exc:
        raise CheckError(str(exc)) from None


def dump(store: "Store") -> dict[str, Any]:
    """The ``mmlint.store/1`` JSON document of a read store (what ``mmlint
    dump`` prints; schema ``schemas/store.json``, see :mod:`mmlint.storejson`)."""
    from mmlint import storejson

    return storejson.document(store)
