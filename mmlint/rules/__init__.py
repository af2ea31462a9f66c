"""The rule registry and the engine that runs rules over a store.

A rule is a function decorated with :func:`rule`; the decorator records its
metadata (stable code, kebab-case name, default severity, dialects, profiles)
and the function's docstring, which is the rule's documentation (first line:
what it finds; then ``Why:``, ``Bad:``, ``Good:`` and, for a rule that can
fix what it finds, ``Fix:`` sections). Rules yield :class:`Finding` objects;
the engine stamps code, name and configured severity on them, so rules never
decide severity.

After the rules ran, :func:`run` drops what the options ignore for a path
(``per-path-ignores``) and what inline ``<!-- mmlint-... -->`` comments
suppress (:mod:`mmlint.rules.suppressions`), which also reports unused and
unknown suppressions.

Reader problems (:class:`mmlint.model.Problem`) carry a rule code too: the
``reader`` family documents those codes and the engine turns problems into
diagnostics through the same path.

Rule families live in one module each (``mmlint/rules/<family>.py``) and are
imported only when rules are needed (never for ``--version``).
"""

from __future__ import annotations


from mmlint._record import Frozen, Record

from mmlint.diagnostic import Diagnostic, sort_diagnostics  # Diagnostic re-exported: rules build and return them
from mmlint.gcpause import gc_paused
from mmlint.model import Span, Store
from mmlint.options import Options  # noqa: F401 - re-exported: the engine's input

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable

ERROR = "error"
WARNING = "warning"
INFO = "info"
SEVERITIES = (ERROR, WARNING, INFO)

#: Fix safety a rule declares (ruff's applicability): a safe fix keeps every
#: byte of content and changes nothing an agent relies on; an unsafe one may
#: change what an agent loads and is applied only with ``--unsafe-fixes``.
SAFE = "safe"
UNSAFE = "unsafe"
NO_FIX = "none"

#: What a rule's findings depend on (:attr:`Rule.scope`). A ``note`` rule's
#: findings on a note depend only on that note (its file and its model) and
#: on what is not a note (dialect, profile, options, the index and other
#: non-note files), and they lie in the note's own file; the engine may then
#: run it on the changed notes alone and reuse its findings on the others
#: (:class:`Partial`). Every other rule (comparing notes, orphans, dangling
#: links, duplicates, caps over the index) is a ``store`` rule: always run
#: on the whole store. Unclassified rules are ``store`` rules.
NOTE = "note"
STORE = "store"
#: A ``file`` rule's findings on a file depend only on that file (its path,
#: kind and bytes) and on the dialect, profile and options, and lie in that
#: file (byte scans: encoding, NUL bytes, line endings, secrets, personal
#: data); the engine may run it on the changed files alone.
FILE = "file"
SCOPES = (NOTE, FILE, STORE)

#: The one principle every default severity follows (``docs/rules.md``
#: prints it; DESIGN "Rules and reports").
SEVERITY_PRINCIPLE = (
    "Severity follows the tool that owns the store. **error**: the owning tool refuses to load, write or save "
    "it under that dialect or profile (the upstream doctor fails the store, the mm reference throws, the "
    "workspace plugin refuses the save, Claude Code cannot parse the frontmatter), or a memory is lost (never "
    "loaded, cut off, unreachable). **warning**: the tool tolerates it, but it or a reader would misread it, "
    "or the next save silently changes it. **info**: advice; nothing is lost or misread. Where profiles of a "
    "dialect disagree, the rule's severity depends on the profile, shown as \"warning (error under upstream)\".")

#: Rule family modules, in documentation order.
FAMILIES = ("store", "index", "pointers", "naming", "frontmatter", "caps", "mm", "interop", "hygiene", "suppressions")


class Rule(Frozen):
    """A registered rule.

    Attributes:
        code: stable code (``P101``); never reused for another meaning.
        name: kebab-case name (``dangling-pointer``).
        severity: default severity, one of :data:`SEVERITIES`.
        dialects: dialect names the rule applies to (``None``: all).
        profiles: engramory profiles it applies to (``None``: all).
        family: the module family that defines it.
        func: the check (``None`` for rules whose findings come from a
            reader problem or from the engine).
        doc: the docstring (the rule's documentation).
        fix: :data:`SAFE`, :data:`UNSAFE` or :data:`NO_FIX`; what the doc's
            ``Fix:`` section says, and the only applicability its fixes have.
        severity_by: ``(context, severity)`` pairs, context a profile name
            (``upstream``) or the name of a dialect without profiles
            (``workspace``): the default severity there when it differs from
            ``severity``, because the owning tool of that dialect or profile
            refuses what another tolerates (:data:`SEVERITY_PRINCIPLE`).
        scope: :data:`NOTE`, :data:`FILE` or :data:`STORE` (default): what
            its findings depend on (see :data:`NOTE` and :data:`FILE`).
    """

    __slots__ = _fields = ("code", "name", "severity", "dialects", "profiles", "family", "func", "doc", "fix",
                           "severity_by", "scope")

    def __init__(self, code: str, name: str, severity: str, dialects: frozenset[str] | None,
                 profiles: frozenset[str] | None, family: str, func: Callable[["Context"], Iterable["Finding"]] | None,
                 doc: str, fix: str = NO_FIX, severity_by: tuple[tuple[str, str], ...] = (),
                 scope: str = STORE) -> None:
        for k, v in (("code", code), ("name", name), ("severity", severity), ("dialects", dialects),
                     ("profiles", profiles), ("family", family), ("func", func), ("doc", doc), ("fix", fix),
                     ("severity_by", severity_by), ("scope", scope)):
            object.__setattr__(self, k, v)

    @property
    def summary(self) -> str:
        """The doc's first paragraph on one line: what the rule finds."""
        import inspect

        first = inspect.cleandoc(self.doc).split("\n\n", 1)[0]
        return " ".join(first.split())

    def severity_in(self, dialect: str | None, profile: str | None = None) -> str:
        """The default severity in a store of ``dialect`` and ``profile``:
        :attr:`severity_by` for the profile, else for the dialect, else
        :attr:`severity`."""
        if not self.severity_by:
            return self.severity  # most rules: no dict to build per finding
        by = dict(self.severity_by)
        if profile is not None and profile in by:
            return by[profile]
        return by.get(dialect or "", self.severity)

    def applies(self, dialect: str, profile: str | None) -> bool:
        """Whether the rule runs on a store of this dialect and profile."""
        if self.dialects is not None and dialect not in self.dialects:
            return False
        if self.profiles is not None and profile is not None and profile not in self.profiles:
            return False
        return True


class Fix(Frozen):
    """How to resolve a finding: whole-file replacements.

    Attributes:
        message: what the fix does, one line (``"append a final newline"``).
        edits: store-relative POSIX path -> the file's complete new content
            (bytes). A fix may create a file; it never deletes one, and its
            new content keeps every line of content the old one had.
    """

    __slots__ = _fields = ("message", "edits")

    def __init__(self, message: str, edits: dict[str, bytes]) -> None:
        object.__setattr__(self, "message", message)
        object.__setattr__(self, "edits", edits)


class Finding(Record):
    """What a rule yields: where, what, and optionally how to fix it.

    ``anchor`` names the finding for baselines when the text of its line
    does not (a cap finding sits on whichever line the cap falls on);
    ``None`` means the line's text identifies it.
    """

    _fields = ("span", "message", "hint", "fix", "anchor")

    def __init__(self, span: Span, message: str, hint: str | None = None, fix: Fix | None = None,
                 anchor: str | None = None) -> None:
        self.span = span
        self.message = message
        self.hint = hint
        self.fix = fix
        self.anchor = anchor


class Context(Record):
    """What a rule sees: the store, its dialect module and the options.

    Attributes:
        store: the store read by its dialect.
        dialect: the dialect module.
        options: :class:`Options` in force.
        cache: per-run memo shared by rules (e.g. parsed bodies).
        facts: the per-note facts of a cached check
            (:class:`mmlint.cache.Facts`), else ``None``: a store rule
            may take what it derives from one note alone from there (for
            the notes whose bytes are unchanged) and record what it derives
            now (``each``/``put``), so that a check after one note changed
            derives it for that note only.
    """

    _fields = ("store", "dialect", "options", "cache", "facts")

    def __init__(self, store: Store, dialect: Any, options: "Options", cache: dict[str, Any] | None = None,
                 facts: Any = None) -> None:
        self.store = store
        self.dialect = dialect
        self.options = options
        self.cache = {} if cache is None else cache
        self.facts = facts

    @property
    def profile(self) -> str | None:
        """The store's engramory profile (``None`` for other dialects)."""
        return self.store.profile

    # The dialect-neutral view (DESIGN "Rules and reports"): rules ask these,
    # never a reader's layout, and never repeat a dialect's facts.

    def fact(self, name: str, default: Any = None) -> Any:
        """A fact the dialect module exposes (``TYPE_PREFIXES``,
        ``SKIP_TOP``, ``valid_topic`` ...), else ``default``."""
        return getattr(self.dialect, name, default)

    def has_file(self, note: Any) -> bool:
        """Whether the note's file was read (an mm entry may name a detail
        file that is missing or unreadable)."""
        rec = self.store.files.get(note.path)
        return rec is not None and rec.kind == "note"

    def is_history(self, path: str) -> bool:
        """A history archive of a note (recall-v1 ``-history.md``), per the dialect."""
        f = getattr(self.dialect, "is_history", None)
        return bool(f(path)) if f is not None else False

    def outside_graph(self, path: str) -> bool:
        """A path in a folder the dialect keeps outside the note graph
        (engramory ``archive/``, ``templates/``)."""
        f = getattr(self.dialect, "outside_graph", None)
        return bool(f(path)) if f is not None else False

    def expected_aux(self, path: str) -> bool:
        """An auxiliary file the dialect's tools keep beside the notes (a
        ledger, a README, an archive): not a memory anyone misses."""
        f = getattr(self.dialect, "expected_aux", None)
        return bool(f(path, self.store.profile)) if f is not None else False

    def schema_name(self) -> str | None:
        """The JSON Schema for the notes' frontmatter, ``None`` when the
        dialect has none."""
        f = getattr(self.dialect, "schema_name", None)
        return f(self.store.profile) if f is not None else None

    @staticmethod
    def frontmatter_item(note: Any, key: str) -> Any:
        """The top-level frontmatter item ``key`` of ``note``
        (:class:`mmlint.frontmatter.Item`), else ``None``."""
        fm = note.frontmatter
        if fm is None:
            return None
        return fm.top(key)


REGISTRY: dict[str, Rule] = {}
_BY_NAME: dict[str, str] = {}
_loaded = False


def rule(code: str, name: str, severity: str, dialects: Iterable[str] | None = None,
         profiles: Iterable[str] | None = None, fix: str = NO_FIX,
         severity_by: dict[str, str] | None = None, scope: str = STORE) -> Callable[[Callable], Callable]:
    """Register a rule function (see module docs); ``fix`` is its fix safety;
    ``severity_by`` maps an engramory profile to the default severity there
    when it differs from ``severity``; ``scope`` is :data:`NOTE` for a rule
    whose findings on a note depend on that note alone, :data:`FILE` for one
    whose findings on a file depend on that file's bytes alone (see there;
    ``tests/test_scope.py`` holds every such rule to it), else :data:`STORE`.

    Raises:
        ValueError: a code or name registered twice, a bad severity, fix safety or scope.
    """

    def deco(func: Callable) -> Callable:
        _register(code, name, severity, dialects, profiles, func, func.__doc__ or "", func.__module__, fix, severity_by,
                  scope)
        return func

    return deco


def reader_rule(code: str, name: str, severity: str, doc: str, dialects: Iterable[str] | None = None,
                profiles: Iterable[str] | None = None, severity_by: dict[str, str] | None = None) -> None:
    """Register a rule with no check function: its findings come from a
    reader :class:`Problem` or from the engine itself (suppressions).
    ``doc`` is kept as written, as a function rule's ``__doc__`` is (its
    readers clean it with ``inspect.cleandoc``; registering imports no
    :mod:`inspect`)."""
    _register(code, name, severity, dialects, profiles, None, doc, _caller_module(), NO_FIX, severity_by)


def _caller_module() -> str:
    import sys

    return sys._getframe(2).f_globals.get("__name__", "")


def _register(code, name, severity, dialects, profiles, func, doc, module, fix, severity_by=None, scope=STORE) -> None:
    if scope not in SCOPES:
        raise ValueError(f"rule {code}: bad scope {scope!r}")
    if severity not in SEVERITIES or any(v not in SEVERITIES for v in (severity_by or {}).values()):
        raise ValueError(f"rule {code}: bad severity {severity!r} / {severity_by!r}")
    if fix not in (SAFE, UNSAFE, NO_FIX):
        raise ValueError(f"rule {code}: bad fix safety {fix!r}")
    if code in REGISTRY or name in _BY_NAME:
        raise ValueError(f"rule {code} {name}: code or name registered twice")
    family = module.rsplit(".", 1)[-1]
    REGISTRY[code] = Rule(code, name, severity, frozenset(dialects) if dialects else None,
                          frozenset(profiles) if profiles else None, family, func, doc, fix,
                          tuple(sorted((severity_by or {}).items())), scope)
    _BY_NAME[name] = code


def load() -> dict[str, Rule]:
    """Import every family module once; return the registry sorted by code
    (a new dict each call; sorted once for each size the registry has)."""
    global _loaded, _sorted
    if not _loaded:
        for fam in FAMILIES:
            __import__(f"mmlint.rules.{fam}")  # not importlib.import_module: no importlib (and warnings) to import
        _loaded = True
    if len(_sorted) != len(REGISTRY):
        _sorted = dict(sorted(REGISTRY.items()))
    return dict(_sorted)


_sorted: dict[str, Rule] = {}


def lookup(code_or_name: str) -> Rule | None:
    """A rule by code (case-insensitive) or name."""
    if not _loaded:
        load()
    key = code_or_name.strip()
    if key.upper() in REGISTRY:
        return REGISTRY[key.upper()]
    code = _BY_NAME.get(key.lower())
    return REGISTRY.get(code) if code else None


def matches(r: Rule, selectors: Iterable[str]) -> bool:
    """Whether any selector names ``r``: its code (any case), its name, or a
    code prefix of at most three characters (``F``, ``F1``)."""
    return any(r.code == n.upper() or r.name == n.lower() or (len(n) < 4 and r.code.startswith(n.upper())) for n in selectors)


def unknown_selectors(selectors: Iterable[str]) -> list[str]:
    """The selectors (see :func:`matches`) that name no registered rule, sorted."""
    selectors = list(selectors)
    if not selectors:
        return []  # no need to import every rule family
    rules = load().values()
    return sorted(s for s in selectors if not any(matches(r, [s]) for r in rules))


def _selected(r: Rule, options: Options) -> bool:
    if options.select and not matches(r, options.select):
        return False
    return not matches(r, options.ignore)


def runs_on(r: Rule, store: Store, options: Options, path: str | None = None) -> bool:
    """Whether rule ``r`` runs on ``store`` under ``options`` (and, given a
    store-relative ``path``, is not ignored there by ``per-path-ignores``)."""
    if not r.applies(store.dialect, store.profile) or not _selected(r, options):
        return False
    return path is None or not _path_ignored(r, store, options, path)


def _path_ignored(r: Rule, store: Store, options: Options, path: str) -> bool:
    if not options.per_path_ignores:
        return False
    import os

    full = os.path.join(store.root, *path.split("/"))
    return any(pi.matches(full) and matches(r, pi.codes) for pi in options.per_path_ignores)


class Partial:
    """A run that reuses earlier findings of :data:`NOTE` and :data:`FILE`
    rules: what :func:`run` takes and gives back besides the diagnostics.

    Attributes:
        reuse: note path -> the raw diagnostics (stamped, before
            per-path ignores and suppressions) that the :data:`NOTE` rules
            gave on that note in an earlier run of the same store, options
            and non-note files; those notes are not run again (input).
        reuse_files: file path -> the raw diagnostics the :data:`FILE`
            rules gave on that file in an earlier run with the same bytes,
            kind, dialect, profile and options (input).
        fresh, fresh_files: the same for every note / file run now, the
            empty tuple ``()`` for one without any (output; inputs may use
            ``()`` too).
        stray: a :data:`NOTE` or :data:`FILE` rule gave a finding outside
            the notes or files it ran on, so its findings cannot be kept
            per note or file (output).
        facts: the per-note facts the store rules take and record
            (:class:`mmlint.cache.Facts`; :attr:`Context.facts`), or
            ``None`` (input).
    """

    def __init__(self, reuse: dict[str, Any] | None = None, reuse_files: dict[str, Any] | None = None,
                 facts: Any = None):
        self.reuse: dict[str, Any] = reuse or {}
        self.reuse_files: dict[str, Any] = reuse_files or {}
        self.facts = facts
        self.fresh: dict[str, Any] = {}
        self.fresh_files: dict[str, Any] = {}
        self.stray = False


def run(store: Store, dialect: Any, options: Options | None = None, partial: Partial | None = None) -> list[Diagnostic]:
    """Run every applicable rule on ``store``; diagnostics sorted by path,
    line, column, rule code (:meth:`Diagnostic.sort_key`). Paths stay
    store-relative.

    Findings in files that ``per-path-ignores`` exempt from their rule are
    dropped, then inline suppressions apply (and report themselves when
    unused or unknown, :mod:`mmlint.rules.suppressions`).

    With ``partial`` (:class:`Partial`), the :data:`NOTE` rules run only on
    the notes not in ``partial.reuse`` (a view of the store holding just
    those notes), the :data:`FILE` rules only on the files not in
    ``partial.reuse_files`` (a view holding just those files), and the
    reused diagnostics stand in for the others before ignores and
    suppressions apply, exactly as in a full run; the outputs of
    ``partial`` are filled in.
    """
    with gc_paused():
        return _run(store, dialect, options or Options(), partial)


def _view(store: Store, notes: list[Any] | None = None, files: dict[str, Any] | None = None) -> Store:
    """``store`` with ``notes`` and/or ``files`` in place of its own (the
    rest shared)."""
    return Store(root=store.root, dialect=store.dialect, profile=store.profile, index=store.index,
                 notes=store.notes if notes is None else notes, files=store.files if files is None else files,
                 problems=store.problems, origin=store.origin)


def _note_view(store: Store, skip: dict[str, Any]) -> Store:
    """``store`` with only the notes whose path is not in ``skip``."""
    return _view(store, notes=[n for n in store.notes if n.path not in skip])


def _file_view(store: Store, skip: dict[str, Any]) -> Store:
    """``store`` with only the files whose path is not in ``skip``."""
    return _view(store, files={p: r for p, r in store.files.items() if p not in skip})


def _keep(found: list[Diagnostic], paths: Any, partial: Partial) -> dict[str, list[Diagnostic]]:
    """``found`` by path, a list for each of ``paths`` with findings and
    the empty tuple ``()`` for the others; a finding elsewhere marks
    ``partial`` stray."""
    out: dict[str, Any] = dict.fromkeys(paths, ())  # one shared empty tuple, not a list per note
    for d in found:
        p = d.span.path
        got = out.get(p)
        if got is None:
            partial.stray = True
        elif got:
            got.append(d)
        else:
            out[p] = [d]
    return out


def _run(store: Store, dialect: Any, options: Options, partial: Partial | None = None) -> list[Diagnostic]:
    rules = load()
    ctx = Context(store, dialect, options, facts=partial.facts if partial is not None else None)
    views = {NOTE: ctx, FILE: ctx, STORE: ctx}
    if partial is not None and partial.reuse:
        views[NOTE] = Context(_note_view(store, partial.reuse), dialect, options)
    if partial is not None and partial.reuse_files:
        views[FILE] = Context(_file_view(store, partial.reuse_files), dialect, options)
    active = [r for r in rules.values() if r.func is not None and runs_on(r, store, options)]
    found = _findings(active, views, store, options)
    out: list[Diagnostic] = []
    scoped: dict[str, list[Diagnostic]] = {NOTE: [], FILE: []}
    for r, ds in zip(active, found):
        out.extend(ds)
        keep = scoped.get(r.scope)
        if keep is not None:
            keep.extend(ds)
    if partial is not None:
        partial.fresh = _keep(scoped[NOTE], [n.path for n in views[NOTE].store.notes], partial)
        partial.fresh_files = _keep(scoped[FILE], views[FILE].store.files, partial)
        for reused in (partial.reuse, partial.reuse_files):
            for ds in reused.values():
                out.extend(ds)
    for p in store.problems:
        r = rules.get(p.code)
        if r is None:
            raise KeyError(f"reader problem with unregistered rule code {p.code}")
        if not runs_on(r, store, options):
            continue
        d = _stamp(r, p.span, p.message, p.hint, None, options, None, store)
        if p.severity and p.code not in options.severity and r.name not in options.severity:
            d.severity = p.severity
        out.append(d)
    out = [d for d in out if not _path_ignored(rules[d.code], store, options, d.span.path)]
    from mmlint.rules.suppressions import apply_suppressions

    out = apply_suppressions(ctx, out)
    sort_diagnostics(out)
    return out


def _findings(active: list[Rule], views: dict[str, Context], store: Store, options: Options) -> list[list[Diagnostic]]:
    """The stamped findings of each rule of ``active`` (in that order), each
    rule run on the view of its scope: serially, or split into tasks run by
    more than one process (:mod:`mmlint.parallel`, ``options.jobs``).

    The tasks: the :data:`STORE` rules of one family together (rules share
    what they compute through ``Context.cache`` within their family: the
    pointer rules the note links, the index rules the index projection),
    then every :data:`NOTE` and :data:`FILE` rule together on one shard of
    the notes and files (a view holding a contiguous run of them), so what
    one note's rules share is computed once, and small tasks come last.
    A rule's findings are its shards' findings in shard order, which is the
    serial order of a rule that goes through the notes in order; for any rule, the findings on one
    note are its findings there in a serial run (a :data:`NOTE` rule's
    findings on a note depend on that note alone), so after sorting the
    report is the serial one.
    """
    jobs = options.jobs
    if jobs is None or (type(jobs) is int and jobs == 1):  # serial, the default: no mmlint.parallel to import
        jobs = 1
    else:
        from mmlint import parallel

        jobs = parallel.jobs_for(jobs, len(store.notes))
    if jobs < 2:
        return [[_stamp(r, f.span, f.message, f.hint, f.fix, options, f.anchor, store) for f in r.func(views[r.scope])]
                for r in active]
    families: dict[str, list[int]] = {}
    for k, r in enumerate(active):
        if r.scope == STORE:
            families.setdefault(r.family, []).append(k)
    whole = list(families.values())
    split = [k for k, r in enumerate(active) if r.scope != STORE]
    from itertools import islice

    nv, fv = views[NOTE].store, views[FILE].store
    notes, files = nv.notes, len(fv.files)
    shards = min(SHARDS_PER_JOB * jobs, max(len(notes), files, 1)) if split else 0
    shard_views: list[dict[str, Context]] = []
    items = iter(fv.files.items())
    for i in range(shards):
        note_part = notes[len(notes) * i // shards: len(notes) * (i + 1) // shards]
        file_part = dict(islice(items, files * (i + 1) // shards - files * i // shards))
        shard_views.append({NOTE: Context(_view(nv, notes=note_part), views[NOTE].dialect, options),
                            FILE: Context(_view(fv, files=file_part), views[FILE].dialect, options)})

    def run_one(t: int) -> list[list[Diagnostic]]:
        if t < len(whole):
            return [[_stamp(r, f.span, f.message, f.hint, f.fix, options, f.anchor, store) for f in r.func(views[STORE])]
                    for r in (active[k] for k in whole[t])]
        sv = shard_views[t - len(whole)]
        return [[_stamp(r, f.span, f.message, f.hint, f.fix, options, f.anchor, store) for f in r.func(sv[r.scope])]
                for r in (active[k] for k in split)]

    from mmlint import outside

    facts = views[STORE].facts  # a cached check: a store rule run in a worker sends its facts back
    extra, merge = outside.current, outside.merge
    if facts is not None:
        extra, merge = (lambda: (outside.current(), facts.worker_rows())), (lambda st: (outside.merge(st[0]), facts.merge(st[1])))
    got = parallel.run_tasks(len(whole) + shards, run_one, jobs, extra, merge, _pack, _unpack)
    found: list[list[Diagnostic]] = [[] for _ in active]
    for t, ks in enumerate(whole):
        for k, ds in zip(ks, got[t]):
            found[k] = ds
    for res in got[len(whole):]:
        for k, ds in zip(split, res):
            found[k].extend(ds)
    return found


def _pack(found: list[list[Diagnostic]]) -> list[list[tuple]]:
    """A task's diagnostics as plain tuples (a third of the time to pickle
    and unpickle that the objects take); :func:`_unpack` reverses it."""
    return [[(d.code, d.name, d.severity, tuple(d.span), d.message, d.hint, d.fix, d.edits, d.anchor) for d in ds]
            for ds in found]


def _unpack(rows: list[list[tuple]]) -> list[list[Diagnostic]]:
    return [[Diagnostic(c, n, s, Span(*sp), m, h, f, e, a) for c, n, s, sp, m, h, f, e, a in ds] for ds in rows]


#: Shards of the notes and files per process (parallel runs): more shards
#: balance the processes better, each costs a call of every note and file rule.
SHARDS_PER_JOB = 4


def stamp(r: Rule, span: Span, message: str, options: Options, store: Store | None = None) -> Diagnostic:
    """A diagnostic of rule ``r`` with the severity it has in ``store`` (for
    findings the engine makes itself)."""
    return _stamp(r, span, message, None, None, options, None, store)


def severity_for(r: Rule, store: Store | None, options: Options) -> str:
    """The severity rule ``r`` reports with in ``store``: the configured one
    (by code or name), else the rule's default for the store's dialect and
    profile (:meth:`Rule.severity_in`)."""
    configured = options.severity.get(r.code) or options.severity.get(r.name)
    if configured:
        return configured
    return r.severity_in(store.dialect, store.profile) if store is not None else r.severity


def _stamp(r: Rule, span: Span, message: str, hint: str | None, fix: Fix | None, options: Options,
           anchor: str | None = None, store: Store | None = None) -> Diagnostic:
    severity = severity_for(r, store, options)
    if fix is not None and r.fix == NO_FIX:
        raise ValueError(f"rule {r.code} yielded a fix but declares no fix safety")
    from mmlint.textutil import printable

    # Store text reaches messages through many rules; escaping here, once,
    # keeps every report free of raw control and bidi characters.
    shown = {"applicability": r.fix, "message": printable(fix.message)} if fix is not None else None
    return Diagnostic(r.code, r.name, severity, span, printable(message), printable(hint) if hint is not None else None,
                      shown, dict(fix.edits) if fix else None, anchor)


def body_line_offset(note: Any) -> int:
    """Lines before the body in the note's file: the frontmatter (or the mm
    header) and the blank line after it. ``note.body`` line 1 is file line
    ``1 + body_line_offset(note)`` (``Note.body_line``, set by the reader)."""
    return note.body_line - 1
