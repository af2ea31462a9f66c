"""One pointer resolver for every dialect: what an index entry or a link
between notes reaches.

Readers call :func:`resolve_entries` once, after the notes are known; every
:class:`~mmlint.model.Entry` then carries a :class:`Resolution` in
``Entry.resolution`` and rules read that field instead of looking at the
file system or at a reader's layout. Links inside note bodies (markdown
links, ``[[wikilinks]]``, mm ``mm://`` / ``mm:`` URIs) are resolved by
:func:`iter_note_refs` (:func:`note_refs`, a list) into :class:`Ref` objects, once per run.

Link destinations follow CommonMark (markdown-it reads them, see
:mod:`mmlint.markdown`): angle brackets and titles are gone by the time a
destination arrives here, ``#fragment`` and ``?query`` are dropped and
percent-escapes decoded. mm index ``file:`` values are plain paths (mm spec
§3), never percent-decoded. Everything here is linear in the number of links;
the file system is asked (one ``realpath``) only for a path that names no
file the walk saw.
"""

from __future__ import annotations

import os
import posixpath
import re
from itertools import accumulate

from mmlint import outside
from mmlint._record import Frozen
from mmlint.walk import FOREIGN_DIRS as _UNWALKED  # the folders the walk does not enter

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Iterable, Iterator

#: Resolution kinds of a local path.
NOTE = "note"  #: a note of the store (``Resolution.note`` is its path)
FOLDER = "folder"  #: a folder (the root included)
MISSING = "missing"  #: nothing there
OUTSIDE = "outside"  #: out of the store root (``..``, or a symlink leading out)
NOT_OPENABLE = "not-openable"  #: a name nothing can open: ``a.md/``, a dangling symlink, an unreadable file
FILE = "file"  #: a file that is not a note (auxiliary, archived, in another tool's folder)
#: Kinds decided by the destination's syntax alone.
REMOTE = "remote"  #: an allow-listed remote URL (http(s), ftp(s), ssh, git+*://, mailto:)
SCHEME = "scheme"  #: another ``scheme://`` URL (``file://``, ``s3://`` ...)
ABSOLUTE = "absolute"  #: ``/x``, ``C:/x``, ``~/x``
BACKSLASH = "backslash"  #: a Windows separator
ANCHOR = "anchor"  #: ``#section`` only: this same file
URI = "uri"  #: an ``mm:`` URI (resolved by topic, see :func:`parse_mm_uri`)

LOCAL_KINDS = frozenset({NOTE, FOLDER, MISSING, OUTSIDE, NOT_OPENABLE, FILE})


class Resolution(Frozen):
    """What a pointer reaches.

    Attributes:
        kind: one of the kinds above (:data:`NOTE` ... :data:`URI`).
        path: store-relative POSIX path the destination names (lexically
            normalised), ``None`` for the syntax-only kinds.
        note: the path of the note it credits (kind :data:`NOTE` only); may
            differ from ``path`` when the pointer goes through an in-root
            symlink.
        reason: for :data:`FILE`, :data:`OUTSIDE` and :data:`NOT_OPENABLE`:
            why, one short phrase (``"in another tool's folder"``).
        file_kind: for :data:`FILE`: the walk's record kind (``"aux"``,
            ``"index"``, ...), or ``"unwalked"`` for a file in a folder the
            walk skipped.
    """

    __slots__ = _fields = ("kind", "path", "note", "reason", "file_kind")

    def __init__(self, kind: str, path: str | None = None, note: str | None = None, reason: str = "",
                 file_kind: str = "") -> None:
        setattr_ = object.__setattr__
        setattr_(self, "kind", kind)
        setattr_(self, "path", path)
        setattr_(self, "note", note)
        setattr_(self, "reason", reason)
        setattr_(self, "file_kind", file_kind)


def _is_drive(path: str) -> bool:
    return len(path) >= 2 and path[1] == ":" and path[0].isascii() and path[0].isalpha() and (len(path) == 2 or path[2] in "/\\")


def _is_remote(dest: str) -> bool:
    low = dest[:16].lower()
    if low.startswith(("http://", "https://", "ftp://", "ftps://", "ssh://", "mailto:")):
        return True
    if low.startswith("git+"):
        k = 4
        while k < len(dest) and dest[k].isascii() and dest[k].isalpha():
            k += 1
        return k > 4 and dest.startswith("://", k)
    return False


#: A C0 control character or DEL (one character class: linear).
_CONTROL_RE = re.compile("[\x00-\x1f\x7f]")


#: A relative path that is its own normal form and names a file by any
#: reading of :func:`classify`: ASCII letters, digits, ``_``, ``-``, ``.``
#: in ``/``-separated parts that do not start with a dot (so no ``.`` or
#: ``..`` part, no empty part, no ``:``, ``#``, ``?``, ``%``, ``\\``, ``~``).
#: Deterministic classes: linear.
_SIMPLE_PATH_RE = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*")


def classify(dest: str, decode: bool = True, base: str = "") -> tuple[str | None, str, bool]:
    """Classify a destination by its syntax.

    Args:
        dest: a link destination as written (angle brackets removed) or,
            with ``decode=False``, a plain path (mm ``file:``).
        decode: percent-decode and drop ``#fragment`` / ``?query`` (URL syntax).
        base: the store-relative folder of the file holding the link
            (``""``: the root); a relative path is read from there.

    Returns:
        ``(path, kind, dir_form)``: ``kind`` is ``"local"`` or one of
        :data:`REMOTE`, :data:`SCHEME`, :data:`ABSOLUTE`, :data:`BACKSLASH`,
        :data:`ANCHOR`, :data:`OUTSIDE` (``..`` above the root) and
        :data:`NOT_OPENABLE` (a control character); ``path`` is the
        normalised POSIX path for ``"local"``; ``dir_form`` is True when the
        path names a folder by its form (``a.md/``, ``a.md/.``).

    ``~notes.md`` and ``a:b.md`` are ordinary relative names: only ``~``,
    ``~/…``, ``/…`` and a drive letter followed by a separator are absolute.

    A plain path at the root (most pointers: ``user-note-1.md``) is
    answered by one pattern match (:data:`_SIMPLE_PATH_RE`), as the general
    reading (:func:`_classify`) would answer it.
    """
    if not base and _SIMPLE_PATH_RE.fullmatch(dest) is not None:
        return dest, "local", False
    return _classify(dest, decode, base)


def _classify(dest: str, decode: bool, base: str) -> tuple[str | None, str, bool]:
    """:func:`classify`, the general way (every destination)."""
    if decode:
        if _is_remote(dest):
            return None, REMOTE, False
        if "://" in dest:
            return None, SCHEME, False
        path = dest.split("#", 1)[0].split("?", 1)[0]
        if not path:
            return None, ANCHOR, False
        if "%" in path:  # unquote leaves a path without one as it is; urllib.parse costs ~2 ms to import
            from urllib.parse import unquote

            path = unquote(path, errors="surrogateescape")
    else:
        path = dest
    if _CONTROL_RE.search(path):
        return None, NOT_OPENABLE, False
    if "\\" in path:
        return None, BACKSLASH, False
    if path.startswith("/") or path == "~" or path.startswith("~/") or _is_drive(path):
        return None, ABSOLUTE, False
    last = path.rstrip("/").rsplit("/", 1)[-1]
    dir_form = path.endswith("/") or last in (".", "..")
    norm = posixpath.normpath(base + "/" + path if base else path)
    if norm == path:
        norm = path  # the destination's own string (most pointers are normal already): one string, not two
    if norm == ".." or norm.startswith("../"):
        return None, OUTSIDE, dir_form
    return norm, "local", dir_form


class Resolver:
    """Resolves store-relative paths against a read store (see module docs).

    Built once per store; :meth:`path` asks the file system only for a path
    the walk did not see.
    """

    def __init__(self, store: Any):
        self.store = store
        self.files = store.files
        self.root = store.root

    def path(self, norm: str, dir_form: bool = False) -> Resolution:
        """Resolve the normalised store-relative ``norm`` (see :func:`classify`)."""
        if norm in (".", ""):
            return Resolution(FOLDER, ".")
        rec = self.files.get(norm)
        if rec is not None:
            if rec.path == norm:
                norm = rec.path  # the walk's string for the same path: the store holds it anyway
            return self._record(norm, norm, rec, dir_form)
        from mmlint.walk import inside, rel_posix

        full = os.path.join(self.root, *norm.split("/"))
        # Below a folder the walk does not enter, the answers are not in the
        # tree the result cache records: ask through mmlint.outside (noted).
        fs: Any = outside if _UNWALKED.intersection(norm.split("/")) else os.path
        try:
            real = fs.realpath(full)
        except (OSError, ValueError):
            return Resolution(NOT_OPENABLE, norm, reason="the path cannot be resolved")
        if not inside(self.root, real):
            return Resolution(OUTSIDE, norm, reason="through a symlink that leads out of the store")
        rel = rel_posix(self.root, real)
        if rel != norm and rel in self.files:
            return self._record(norm, rel, self.files[rel], dir_form)
        if fs is os.path and _UNWALKED.intersection(rel.split("/")):
            fs = outside
        if fs.isdir(real):
            return Resolution(FOLDER, norm)
        if fs.isfile(real):
            if dir_form:
                return Resolution(NOT_OPENABLE, norm, reason="a file named as a folder")
            return Resolution(FILE, norm, reason="in a folder mmlint does not read (another tool's, or a symlinked one)",
                              file_kind="unwalked")
        if fs.lexists(full):
            return Resolution(NOT_OPENABLE, norm, reason="a symlink that leads nowhere")
        return Resolution(MISSING, norm)

    def _record(self, norm: str, real: str, rec: Any, dir_form: bool) -> Resolution:
        if rec.kind == "symlink-escape":
            return Resolution(OUTSIDE, norm, reason="through a symlink that leads out of the store")
        if rec.kind == "unreadable":
            return Resolution(NOT_OPENABLE, norm, reason=rec.reason or "unreadable")
        if dir_form:
            return Resolution(NOT_OPENABLE, norm, reason="a file named as a folder")
        if rec.kind == "note":
            return Resolution(NOTE, norm, note=real)
        return Resolution(FILE, norm, reason="not a note", file_kind=rec.kind)

    def dest(self, dest: str, base: str = "", decode: bool = True) -> Resolution:
        """Resolve a destination written in the file at ``base`` (a
        store-relative folder, ``""`` for the root)."""
        if self.store.dialect == "mm" and dest.startswith("mm:"):
            return Resolution(URI, None, reason=dest)
        path, kind, dir_form = classify(dest, decode, base)
        if kind != "local":
            return Resolution(kind)
        return self.path(path, dir_form)


def resolve_entries(store: Any, entries: Iterable[Any] | None = None) -> None:
    """Set ``Entry.resolution`` on every entry of ``store.index`` (or on
    ``entries``). Link entries are destinations (URL syntax); mm entries
    (``kind == "mm"``) plain paths; wikilink entries go through
    :func:`wiki_resolver`. Called by each dialect's reader, once."""
    if store.index is None and entries is None:
        return
    res = Resolver(store)
    wiki = None
    for e in entries if entries is not None else store.index.entries:
        if e.pointer is None:
            continue
        if e.kind == "wikilink":
            wiki = wiki or wiki_resolver(store)
            e.resolution = wiki(e.pointer)
        else:
            r = e.resolution = res.dest(e.pointer, decode=e.kind != "mm")
            if r.path is not None and r.path == e.pointer:  # the walk's string for the same text (20,000 copies: 1.3 MiB)
                if e.target == e.pointer:
                    e.target = r.path
                e.pointer = r.path


# ---------------------------------------------------------------- wikilinks


def wiki_target(inner: str) -> str:
    """The target of ``[[inner]]``: before ``|`` (alias) and ``#`` (anchor), stripped."""
    return inner.split("|", 1)[0].split("#", 1)[0].strip()


def wiki_resolver(store: Any, dialect: Any = None):
    """A function ``[[inner]]`` -> :class:`Resolution`, built once per store.

    Lookup order: the file stem; then case-folded with ``_`` read as ``-``;
    then the notes' ``name:`` values; then the stem without a type prefix
    (the dialect's ``TYPE_PREFIXES``). A target holding ``/`` or ``\\``
    resolves only where the dialect allows paths in wikilinks
    (``WIKILINK_PATHS``; engramory does not: its links are flat slugs), and
    then only to the note at exactly that path. Kind :data:`MISSING` when no
    note matches; ``reason`` says why for a path-carrying link.

    Meant for one pass over a store that does not change meanwhile: the
    tables past the stems are built from the notes as they are when a link
    first needs them. The function's attribute ``find`` answers the same
    lookup with the reached note's path in place of its :class:`Resolution`
    (kind :data:`NOTE`), and the :class:`Resolution` of a miss.
    """
    if dialect is None:
        from mmlint import dialects

        dialect = dialects.get(store.dialect)
    prefixes = tuple(getattr(dialect, "TYPE_PREFIXES", ()))
    allow_paths = bool(getattr(dialect, "WIKILINK_PATHS", True))
    # the note files, in note order; the lookup tables past the stems are
    # built from them on the first link that needs one (most links hit a
    # stem), each keeping the first note per key. A key equal to a string
    # the note already holds (its slug, its name) is that string, not a
    # copy: at 20,000 notes a table's copied keys took ~1.3 MiB, and a store
    # with dangling wikilinks builds four tables.
    notes = []
    stems: list[str] = []
    by_stem: dict[str, str] = {}
    for n in store.notes:
        rec = store.files.get(n.path)
        if rec is None or rec.kind != "note":
            continue
        stem = n.path.rsplit("/", 1)[-1]
        if stem.lower().endswith(".md"):
            stem = stem[:-3]
        if stem == n.slug:
            stem = n.slug
        notes.append(n)
        stems.append(stem)
        by_stem.setdefault(stem, n.path)
    tables: dict[str, dict[str, str]] = {}

    def table(kind: str) -> dict[str, str]:
        """The lookup table ``kind`` (``path``, ``fold``, ``name``, ``prefixless``)."""
        got = tables.get(kind)
        if got is not None:
            return got
        got = tables[kind] = {}
        for n, stem in zip(notes, stems):
            path = n.path
            if kind == "path":
                got[path[:-3] if path.lower().endswith(".md") else path] = path
            elif kind == "name":
                if n.name:
                    key = n.name.strip().casefold().replace("_", "-").replace(" ", "-")
                    got.setdefault(n.name if key == n.name else stem if key == stem else key, path)
            else:
                folded = stem.casefold().replace("_", "-")
                if folded == stem:
                    folded = stem
                if kind == "fold":
                    got.setdefault(folded, path)
                else:
                    prefix, _, rest = folded.partition("-")
                    if rest and prefix in prefixes:
                        got.setdefault(rest, path)
        return got

    def find(inner: str) -> str | Resolution:
        """The path of the note ``[[inner]]`` reaches, else the
        :class:`Resolution` of the miss."""
        hit = by_stem.get(inner)
        if (hit is not None and inner and "|" not in inner and "#" not in inner and "/" not in inner and "\\" not in inner
                and inner.strip() == inner and not inner.lower().endswith(".md")):
            return hit  # the link is a bare stem: what the lookup below finds first
        target = wiki_target(inner)
        if not target:
            return Resolution(ANCHOR)
        stem = target[:-3] if target.lower().endswith(".md") else target
        if "/" in stem or "\\" in stem:
            if not allow_paths:
                return Resolution(MISSING, stem, reason="not a bare slug: this dialect's wikilinks name a note by its slug, never by a path")
            hit = table("path").get(posixpath.normpath(stem.replace("\\", "/")))
            return hit if hit else Resolution(MISSING, stem)
        key = stem.casefold().replace("_", "-")
        hit = (by_stem.get(stem) or (tables.get("fold") or table("fold")).get(key)
               or (tables.get("name") or table("name")).get(key.replace(" ", "-"))
               or (tables.get("prefixless") or table("prefixless")).get(key))
        return hit if hit else Resolution(MISSING, stem)

    def resolve(inner: str) -> Resolution:
        got = find(inner)
        return Resolution(NOTE, got, note=got) if got.__class__ is str else got

    resolve.find = find  # type: ignore[attr-defined] - what note_ref_rows asks: no object for a hit
    return resolve


# ---------------------------------------------------------------- mm URIs


def _slug_end(text: str, i: int) -> int:
    """End of the mm slug ``[A-Za-z0-9][A-Za-z0-9._-]*`` starting at ``i``
    (``i`` itself when there is none)."""
    n = len(text)
    if i >= n or not (text[i].isascii() and text[i].isalnum()):
        return i
    j = i + 1
    while j < n and text[j].isascii() and (text[j].isalnum() or text[j] in "._-"):
        j += 1
    return j


def parse_mm_uri(text: str, i: int = 0) -> tuple[str | None, str, int] | None:
    """Read an mm URI at ``text[i:]`` (mm spec §5; ``research/mm-reference.md`` §5):
    ``mm://<memoryId>/<topic>`` or ``mm:<topic>``, both parts of the slug
    class ``[A-Za-z0-9][A-Za-z0-9._-]*``. Returns ``(memory_id or None,
    topic, end offset)``, or ``None`` when the text there is no valid URI."""
    if not text.startswith("mm:", i):
        return None
    j = i + 3
    if text.startswith("//", j):
        a = j + 2
        b = _slug_end(text, a)
        if b == a or not text.startswith("/", b):
            return None
        c = _slug_end(text, b + 1)
        if c == b + 1:
            return None
        return text[a:b], text[b + 1 : c], c
    b = _slug_end(text, j)
    if b == j:
        return None
    return None, text[j:b], b


def find_mm_uris(text: str) -> list[tuple[int, str | None, str, int]]:
    """Every mm URI in ``text`` with the reference's ``\\bmm:`` boundary (the
    character before ``mm`` is not ``[A-Za-z0-9_]``): ``(start offset,
    memory id, topic, end offset)``. Linear: one ``str.find`` pass."""
    out = []
    pos = 0
    while True:
        k = text.find("mm:", pos)
        if k < 0:
            return out
        pos = k + 3
        if k > 0 and (text[k - 1] == "_" or (text[k - 1].isascii() and text[k - 1].isalnum())):
            continue
        got = parse_mm_uri(text, k)
        if got is not None:
            out.append((k, got[0], got[1], got[2]))
            pos = got[2]


# ---------------------------------------------------------------- note links


class Ref(Frozen):
    """A link from one note to something else.

    Attributes:
        source: path of the note holding the link.
        line: 1-based line in the note's file; column: 1-based (code points).
        kind: ``"link"`` (markdown), ``"wikilink"`` or ``"uri"`` (mm).
        dest: the destination as written (the wikilink's inner text; the URI).
        resolution: what it reaches; for a URI, kind :data:`NOTE` or
            :data:`MISSING`, or :data:`REMOTE` for another memory's URI.
    """

    __slots__ = _fields = ("source", "line", "column", "kind", "dest", "resolution")

    def __init__(self, source: str, line: int, column: int, kind: str, dest: str, resolution: Resolution) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "source", source)
        setattr_(self, "line", line)
        setattr_(self, "column", column)
        setattr_(self, "kind", kind)
        setattr_(self, "dest", dest)
        setattr_(self, "resolution", resolution)


def note_refs(store: Any, dialect: Any = None) -> list[Ref]:
    """The list of :func:`iter_note_refs`."""
    return list(iter_note_refs(store, dialect))


def iter_note_refs(store: Any, dialect: Any = None) -> Iterator[Ref]:
    """Every link in every note body of ``store``, resolved, in note order.

    Markdown links resolve relative to the note's folder; links that are
    not local (remote, anchors) are left out. Wikilinks resolve with
    :func:`wiki_resolver`. mm URIs (mm dialect only) resolve by topic
    against the notes' slugs; ``mm://<id>/…`` with an id other than the
    index's ``mm-id`` (default ``local``) names another memory
    (kind :data:`REMOTE`). A note whose header never closes (its body is
    unknown) is scanned in its header text (``Note.unclosed_head``), as the
    engramory doctor scans the whole file. Linear in the bodies' size; a
    generator, so a caller that keeps only some links never holds them all.
    """
    for source, line, column, kind, dest, r in note_ref_rows(store, dialect):
        yield Ref(source, line, column, kind, dest, Resolution(NOTE, r, note=r) if r.__class__ is str else r)


def note_ref_rows(store: Any, dialect: Any = None) -> Iterator[tuple[str, int, int, str, str, str | Resolution]]:
    """The links of :func:`iter_note_refs`, in the same order, as tuples
    ``(source, line, column, kind, dest, resolution)``, where a link that
    reaches a note by its wikilink or mm topic has the note's path (a
    ``str``) in place of its :class:`Resolution` of kind :data:`NOTE`: no
    object is made for the links most stores are made of."""
    from mmlint import markdown

    if dialect is None:
        from mmlint import dialects

        dialect = dialects.get(store.dialect)
    res = Resolver(store)
    wiki = wiki_resolver(store, dialect)
    is_mm = store.dialect == "mm"
    topics: dict[str, str] = {}
    memory_id = "local"
    if is_mm:
        topics = {n.slug: n.path for n in store.notes if store.files.get(n.path) is not None and store.files[n.path].kind == "note"}
        if store.index is not None:
            memory_id = store.index.header.get("mm-id") or "local"
    # Resolutions are frozen and the store does not change during the scan:
    # each distinct destination is resolved once per folder (a realpath
    # each) and each wikilink once per note (dict lookups only)
    seen_dest: dict[tuple[str, str], Resolution] = {}
    find = wiki.find
    for n in store.notes:
        seen_wiki: dict[str, str | Resolution] = {}
        text, first = n.body, n.body_line
        if n.unclosed_head is not None:
            text, first = n.unclosed_head, 2
        if not text:
            continue
        base = n.path.rsplit("/", 1)[0] if "/" in n.path else ""
        if "[" in text:
            for line, column, dest, kind in markdown.body_link_rows(text):
                line += first - 1
                if kind == "wikilink":
                    r = seen_wiki.get(dest)
                    if r is None:
                        r = seen_wiki[dest] = find(dest)
                    yield n.path, line, column, "wikilink", dest, r
                    continue
                if dest.startswith("mm:"):
                    continue  # found by the URI scan below
                r = seen_dest.get((dest, base))
                if r is None:
                    r = seen_dest[(dest, base)] = res.dest(dest, base)
                if r.kind in LOCAL_KINDS:
                    yield n.path, line, column, "link", dest, r
        if is_mm and "mm:" in text:
            starts = None
            for start, mid, topic, _ in find_mm_uris(text):
                if starts is None:  # offsets of line starts, from the lines' lengths (no loop per character)
                    starts = list(accumulate((len(ln) + 1 for ln in text.split("\n")[:-1]), initial=0))
                import bisect

                ln = bisect.bisect_right(starts, start)
                col = start - starts[ln - 1] + 1
                uri = f"mm://{mid}/{topic}" if mid is not None else f"mm:{topic}"
                if mid is not None and mid != memory_id:
                    r = Resolution(REMOTE, None, reason=f"memory {mid!r}, not this store's {memory_id!r}")
                else:
                    hit = topics.get(topic) or (topics.get(topic.rstrip(".")) if topic.endswith(".") else None)
                    r = hit if hit else Resolution(MISSING, topic)
                yield n.path, ln + first - 1, col, "uri", uri, r
