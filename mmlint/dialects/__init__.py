"""The dialect registry: one name -> one module, imported on first use.

A dialect module exposes::

    NAME: str                      # "mm", "engramory", "workspace"
    PROFILES: tuple[str, ...]      # () when the dialect has no profiles
    DEFAULT_PROFILE: str | None
    INDEX_CAPS: dict               # {"lines": int, "bytes": int, ...}
    def detect(root: str) -> Evidence | None
    def read(root: str, profile: str | None) -> Store
    def render(store: Store, profile: str | None) -> dict[str, bytes]
    def note_budget(note, profile, caps) -> tuple[str, int] | None  # optional
    def owns_path(rel: str, profile: str | None) -> bool  # the reader takes rel for the store, not aux

``render`` performs no I/O: it returns the files to write (POSIX path ->
bytes) and raises :class:`Unrepresentable` for a value the dialect cannot
hold. ``note_budget`` gives ``(unit, limit)`` of a note's write or size
budget for ``mmlint budget`` (unit ``bodyChars``, ``bodyBytes`` or
``noteBytes``; ``caps`` are the configured overrides), ``None`` when the
dialect sets none.

Built-in dialects and third-party ones are found the same way: the
entry-point group ``mmlint.dialects`` (name -> module path); the built-in
table below is the fallback when the package metadata is not installed.
"""

from __future__ import annotations

import os
import sys
from contextvars import ContextVar
from functools import lru_cache
from types import ModuleType

from mmlint._record import Record
from mmlint.textutil import fold_key

BUILTIN: dict[str, str] = {
    "mm": "mmlint.dialects.mm",
    "engramory": "mmlint.dialects.engramory",
    "workspace": "mmlint.dialects.workspace",
}

ENTRY_POINT_GROUP = "mmlint.dialects"


class UnknownDialect(ValueError):
    """A dialect or profile name that no registered dialect provides."""


class Unrepresentable(Exception):
    """A value the target dialect cannot write without loss.

    Attributes:
        path: the note (or index) the value belongs to.
        field: the model field name.
        reason: why it cannot be written.
    """

    def __init__(self, path: str, field: str, reason: str):
        super().__init__(f"{path}: {field}: {reason}")
        self.path = path
        self.field = field
        self.reason = reason


class Evidence(Record):
    """Why a folder looks like a dialect.

    ``score`` orders candidates (higher wins; >= 10 is conclusive);
    ``reasons`` are human sentences naming the files that showed it.
    """

    _fields = ("dialect", "profile", "score", "reasons")

    def __init__(self, dialect: str, profile: str | None, score: int, reasons: list[str] | None = None) -> None:
        self.dialect = dialect
        self.profile = profile
        self.score = score
        self.reasons = [] if reasons is None else reasons


class PathClaims:
    """Target paths handed out by a writer, refusing collisions.

    Two notes may not land on one path, nor on paths that differ only by case
    or Unicode normalisation (they collide on macOS and Windows file systems).
    """

    def __init__(self) -> None:
        self._seen: dict[str, tuple[str, str]] = {}

    def claim(self, target: str, source: str) -> str:
        """Reserve ``target`` for the note read from ``source``.

        Raises:
            Unrepresentable: ``target`` collides with an earlier claim.
        """
        key = fold_key(target)
        if key in self._seen:
            other_target, other_source = self._seen[key]
            how = "the same path" if other_target == target else "paths that differ only in case or Unicode normalisation"
            raise Unrepresentable(source, "slug", f"{source!r} and {other_source!r} would be written to {how} "
                                                  f"({other_target!r}, {target!r})")
        self._seen[key] = (target, source)
        return target


def open_store(root: str, dialect: str, profile: str | None = None, skip_top: frozenset[str] = frozenset(), owns=None,
               tree: dict[str, bytes] | None = None):
    """Walk ``root`` for a reader: ``(store, files)``.

    With ``tree`` (POSIX path -> bytes, a rendered store not yet written),
    the walk is :func:`mmlint.walk.walk_files` of it and nothing is read
    from disk.

    ``store`` is an empty :class:`~mmlint.model.Store` whose ``files`` list
    every file and whose ``problems`` already report what could not be read
    (S101 symlink escape, S102 unreadable, S104 folder not walked, S105
    unlistable folder); ``files`` are the ``(path, record)`` pairs left to
    classify, in path order. ``owns(rel, profile) -> bool`` (the dialect's
    :func:`owns_path`) tells the files the owning tool reads: an unreadable
    file it never reads (a dangling symlink ``link.txt``) is a warning, not
    an error.
    """
    from mmlint.model import Problem, Span, Store
    from mmlint.walk import walk_files, walk_store

    w = walk_store(root, skip_top) if tree is None else walk_files(os.path.abspath(root), tree, skip_top)
    store = Store(root=w.root, dialect=dialect, profile=profile)
    for rel, reason in w.skipped_dirs:
        store.problems.append(Problem("S104", f"folder {rel}/ not walked: {reason}", Span(rel, 1, 1),
                                      "info" if "tool" in reason else None))
    for rel, msg in w.errors:
        store.problems.append(Problem("S105", f"cannot list folder: {msg}", Span(rel, 1, 1)))
    readable = []
    for rel, rec in w.files.items():
        store.files[rel] = rec
        if rec.kind == "symlink-escape":
            store.problems.append(Problem("S101", f"{rec.reason}; not read", Span(rel, 1, 1)))
        elif rec.kind == "unreadable":
            ours = owns is None or owns(rel, profile)
            store.problems.append(Problem("S102", f"cannot read file: {rec.reason}" + ("" if ours else " (not a note: the owning tool never reads it)"),
                                          Span(rel, 1, 1), None if ours else "warning"))
        else:
            readable.append((rel, rec))
    return store, readable


#: Largest index (bytes) whose markdown is parsed: 40 times the biggest cap.
#: markdown-it is slow on hostile bracket runs, so a larger index is reported
#: (S117) and its entries are not read, as the engramory doctor does past 1 MiB.
MAX_INDEX_PARSE = 1024 * 1024


def read_markdown_index(rel: str, data: bytes, store, parse):
    """The index at ``rel`` read by ``parse(rel, data) -> Index``, unless it is
    over :data:`MAX_INDEX_PARSE`: then S117 is recorded on ``store`` and the
    index keeps its whole text, size and line count (cap rules measure it, a
    rewrite copies it) but no entries."""
    from mmlint.model import Problem, Span
    from mmlint.textutil import count_lines, decode

    if len(data) <= MAX_INDEX_PARSE:
        return parse(rel, data)
    store.problems.append(Problem("S117", f"index is {len(data)} bytes, over the {MAX_INDEX_PARSE}-byte parse limit; "
                                          "its entries were not read, so pointer and orphan checks did not run", Span(rel, 1, 1)))
    idx = parse(rel, b"")
    text = decode(data).text
    idx.size_bytes, idx.text, idx.line_count = len(data), text, count_lines(text)
    return idx


#: While :func:`detect` runs: what the dialects' ``detect`` functions read
#: and listed (each dialect looks at the same index and notes), else ``None``.
_seen: ContextVar[dict | None] = ContextVar("mmlint_detect_seen", default=None)


def read_head(root: str, path: str, limit: int = 65536) -> str:
    """The first ``limit`` bytes of the file ``path`` as text (``""`` when it
    is not a regular file inside ``root`` or cannot be read); used by
    ``detect`` functions, which must stay cheap and, like the readers, never
    open a FIFO or device nor anything outside the store
    (:func:`mmlint.walk.read_head`). Within one :func:`detect` a file is
    read once for all dialects."""
    from mmlint.walk import read_head as head

    seen = _seen.get()
    key = ("head", root, path)
    got = seen.get(key) if seen is not None else None
    if got is not None and (got[0] >= limit or len(got[1]) < got[0]):
        data = got[1][:limit]  # read before with at least this limit, or all of it
    else:
        data = head(root, path, limit)
        if seen is not None:
            seen[key] = (limit, data)
    return data.decode("utf-8", "replace").lstrip("\ufeff")


def store_names(root: str) -> list[str] | None:
    """The sorted names in the folder ``root``, ``None`` when it cannot be
    listed (``os.listdir`` fails); listed once within one :func:`detect`."""
    seen = _seen.get()
    key = ("names", root)
    if seen is not None and key in seen:
        got = seen[key]
    else:
        try:
            got = tuple(sorted(os.listdir(root)))
        except OSError:
            got = None
        if seen is not None:
            seen[key] = got
    return list(got) if got is not None else None


def is_store_file(root: str, path: str) -> bool:
    """True when ``path`` resolves inside ``root`` to a regular file
    (:func:`mmlint.walk.regular_inside`)."""
    from mmlint.walk import regular_inside

    return regular_inside(root, path)


def list_store_dir(root: str, folder: str) -> list[str]:
    """Sorted names in ``folder`` when it resolves to a folder inside
    ``root``, else ``[]`` (:func:`mmlint.walk.list_inside`)."""
    from mmlint.walk import list_inside

    return list_inside(root, folder)


def add_aux(store, out: dict[str, bytes], owns) -> None:
    """Add the store's auxiliary files to a writer's output ``out`` (POSIX
    path -> bytes), verbatim, each at :func:`mmlint.carriers.aux_home`
    (parked when ``owns(path)`` says the writer's reader would take the
    path for part of the store).

    Raises:
        Unrepresentable: an auxiliary file lands on a path already written.
    """
    from mmlint import carriers

    for path, data in store.aux_files().items():
        home = carriers.aux_home(path, owns)
        if home in out:
            raise Unrepresentable(path, "aux", f"an auxiliary file would be written at {home!r}, where the store already has a file")
        out[home] = data


_loaded: dict[str, ModuleType] = {}


@lru_cache(maxsize=1)
def _entry_points() -> dict[str, str]:
    """Third-party dialects (name -> module path); read once per process.

    :mod:`importlib.metadata` answers, but only when :func:`_declared_elsewhere`
    says some distribution may declare a dialect of its own: importing it and
    scanning every distribution costs ~50 ms, three times a whole check of a
    small store, and most installs hold no third-party dialect.
    """
    try:
        needed = _declared_elsewhere()
    except Exception:  # an odd sys.path entry or finder: importlib.metadata decides
        needed = True
    if not needed:
        return {}
    try:
        from importlib.metadata import entry_points

        eps = entry_points(group=ENTRY_POINT_GROUP)
    except Exception:  # broken metadata must not stop the built-ins
        return {}
    return {ep.name: ep.value for ep in eps}


def _declared_elsewhere() -> bool:
    """Whether a distribution on :data:`sys.path` may declare an entry point
    of :data:`ENTRY_POINT_GROUP` with a name outside :data:`BUILTIN` (what
    :func:`names` and :func:`get` would use); ``False`` only when none can.

    Reads the ``entry_points.txt`` of every ``*.dist-info`` and
    ``*.egg-info`` folder (names compared case-insensitively) directly in a
    :data:`sys.path` folder, where :mod:`importlib.metadata` finds them, and
    parses it as :mod:`importlib.metadata` does (:func:`_declares_other`).
    Says ``True`` (ask :mod:`importlib.metadata`) for what it does not read:
    a path entry that is not a ``str``, one that is a file (a zip) or an
    ``.egg`` folder, a meta-path finder other than
    :class:`importlib.machinery.PathFinder` that lists distributions, a file
    it cannot read.
    """
    from importlib.machinery import PathFinder

    for finder in sys.meta_path:
        if finder is not PathFinder and getattr(finder, "find_distributions", None) is not None:
            return True
    for entry in sys.path:
        if not isinstance(entry, str):
            return True
        folder = entry or "."
        if os.path.basename(folder).lower().endswith(".egg"):
            return True
        try:
            children = os.listdir(folder)
        except (OSError, ValueError):
            if os.path.isfile(folder):
                return True  # a zip: importlib.metadata lists its members
            continue  # missing or unreadable: importlib.metadata finds nothing there either
        for child in children:
            if child.lower().endswith((".dist-info", ".egg-info")) \
                    and _declares_other(os.path.join(folder, child, "entry_points.txt")):
                return True
    return False


def _declares_other(path: str) -> bool:
    """Whether the ``entry_points.txt`` at ``path`` names an entry point of
    :data:`ENTRY_POINT_GROUP` outside :data:`BUILTIN` (``True`` when the
    file exists but cannot be read or decoded; ``False`` when it is absent).

    Read line by line as :mod:`importlib.metadata` reads it (its
    ``Sectioned`` parser): each line stripped, blank lines and lines
    starting with ``#`` skipped, a line that starts with ``[`` and ends with
    ``]`` opens the section named by it without its brackets, any other line
    is an entry ``name = value`` of the open section. A line of the group
    without ``=`` counts as another name (:mod:`importlib.metadata` then
    decides)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        return False
    except OSError:
        return os.path.lexists(path)
    if ENTRY_POINT_GROUP.encode() not in data:
        return False
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            inside = line.strip("[]") == ENTRY_POINT_GROUP
        elif inside and line.partition("=")[0].strip() not in BUILTIN:
            return True
    return False


def names() -> list[str]:
    """All dialect names: built-ins first, then third-party ones, sorted."""
    extra = sorted(n for n in _entry_points() if n not in BUILTIN)
    return list(BUILTIN) + extra


def get(name: str) -> ModuleType:
    """The module of dialect ``name``.

    Raises:
        UnknownDialect: no such dialect; the message lists the known names.
    """
    if name in _loaded:
        return _loaded[name]
    target = BUILTIN.get(name) or _entry_points().get(name)
    if target is None:
        from mmlint.suggest import did_you_mean

        raise UnknownDialect(f"unknown dialect {name!r}{did_you_mean(name, names())}; known dialects: {', '.join(names())}")
    name_of_module = target.split(":")[0]
    __import__(name_of_module)  # importlib.import_module for an absolute name, without importing importlib
    module = sys.modules[name_of_module]
    _loaded[name] = module
    return module


def check_profile(dialect: str, profile: str | None) -> str | None:
    """Validate ``profile`` for ``dialect``; return the profile to use.

    Raises:
        UnknownDialect: the dialect has no such profile.
    """
    mod = get(dialect)
    if profile is None:
        return None
    if profile not in mod.PROFILES:
        known = ", ".join(mod.PROFILES) or "none"
        from mmlint.suggest import did_you_mean

        raise UnknownDialect(f"dialect {dialect!r} has no profile {profile!r}{did_you_mean(profile, mod.PROFILES)}; its profiles: {known}")
    return profile


CONCLUSIVE = 10


def detect(root: str) -> list[Evidence]:
    """Every dialect's evidence for ``root``, best first (may be empty).

    Built-in dialects are asked first; third-party dialects (entry points)
    are asked too unless a built-in one is conclusive (score >=
    :data:`CONCLUSIVE`) and unrivalled, which spares the package-metadata
    scan on the common path.
    """
    token = _seen.set({})
    try:
        found = []
        for name in BUILTIN:
            ev = get(name).detect(root)
            if ev is not None and ev.score > 0:
                found.append(ev)
        found.sort(key=lambda e: -e.score)
        settled = found and found[0].score >= CONCLUSIVE and (len(found) == 1 or found[1].score < found[0].score)
        if not settled:
            for name in names():
                if name in BUILTIN:
                    continue
                ev = get(name).detect(root)
                if ev is not None and ev.score > 0:
                    found.append(ev)
            found.sort(key=lambda e: -e.score)
        return found
    finally:
        _seen.reset(token)
