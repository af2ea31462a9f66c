"""The one in-memory model every reader fills and every writer consumes.

``files -> reader(dialect) -> Store -> rules -> diagnostics -> reporter`` and
``Store -> writer(target) -> plan -> write -> re-read and compare``.

A :class:`Store` holds :class:`Note` objects (one per memory), an
:class:`Index` (the ``MEMORY.md`` entries in file order) and auxiliary files
kept verbatim. Every value keeps where it came from (a :class:`Span`), so a
diagnostic can point at a line. Layout objects (``Note.layout``,
``Index.layout``) record how the reader found the text (line endings, BOM,
quoting, key order, raw lines) so that writing the same dialect reproduces the
input byte for byte; they are not part of the semantic model compared by
:func:`semantic`.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, MutableMapping
from functools import lru_cache
from struct import Struct

from mmlint._record import Record
from mmlint.span import Span  # noqa: F401 - re-exported: every value's place

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

#: Semantic note fields, in the order tables and JSON use. ``summary`` is the
#: engramory ``description`` and the mm ``summary``; ``title`` is the human
#: title (engramory index link text, workspace ``title:``); ``index_hook`` is the
#: text after an engramory pointer; ``entry_body`` the free lines of an mm entry.
NOTE_FIELDS: tuple[str, ...] = (
    "name",
    "title",
    "summary",
    "type",
    "tags",
    "created",
    "updated",
    "scope",
    "aliases",
    "confidence",
    "budget",
    "index_hook",
    "index_section",
    "entry_body",
)


_PLACE = Struct("<III")  # (path index, line, column) of one span
_OTHER = 0xFFFFFFFF  # path index of a span kept as it is (in ``Spans._more``)
_NARROW = Struct("<HHH")  # the same in 6 bytes, when every number of the note's spans fits
_NARROW_MAX = 0xFFFF  # the largest line or column a narrow place holds
_NARROW_OTHER = 0xFFFF  # _OTHER in a narrow place (so path indexes stay below it)
#: Key tuples of :class:`Spans`, shared between notes that have the same keys
#: in the same order (most notes of a store); at most :data:`_SHARED_MAX`.
_TUPLES: dict[tuple[str, ...], tuple[str, ...]] = {}
_SHARED_MAX = 4096


@lru_cache(maxsize=128)
def _packer(n: int, narrow: bool = False) -> Struct:
    """The :class:`struct.Struct` of ``n`` spans (``n`` times :data:`_PLACE`,
    or :data:`_NARROW`)."""
    return Struct("<" + ("HHH" if narrow else "III") * n)


#: Key tuples at least this long are searched through a position table
#: (:func:`_positions`), not ``tuple.index``: a note with thousands of
#: frontmatter keys made every lookup linear and a check quadratic.
_LONG_KEYS = 24
_POSITIONS: dict[int, tuple[tuple[str, ...], dict[str, int]]] = {}
_POSITIONS_MAX = 64


def _positions(keys: tuple[str, ...]) -> dict[str, int] | None:
    """``key -> index of its first place`` in ``keys`` (what
    ``keys.index`` answers), for a tuple of at least :data:`_LONG_KEYS`
    keys; ``None`` for a shorter one. Tables are kept for the last few
    tuples, by identity (tuples are shared between notes and a tuple's hash
    is not cached)."""
    if len(keys) < _LONG_KEYS:
        return None
    got = _POSITIONS.get(id(keys))
    if got is not None and got[0] is keys:
        return got[1]
    if len(_POSITIONS) >= _POSITIONS_MAX:
        _POSITIONS.clear()
    table: dict[str, int] = {}
    try:
        for i, k in enumerate(keys):
            table.setdefault(k, i)
    except TypeError:  # an unhashable key: the tuple is searched as it is
        return None
    _POSITIONS[id(keys)] = (keys, table)
    return table


def _shared(t: tuple[str, ...]) -> tuple[str, ...]:
    got = _TUPLES.get(t)
    if got is not None:
        return got
    if len(_TUPLES) < _SHARED_MAX:
        _TUPLES[t] = t
    return t


class _Refused:
    """Mixin of the shared empty containers: every method that would add
    something raises :class:`TypeError` (a value holding one is replaced,
    never filled); copies and pickles give the same object back."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"a shared empty {type(self).__mro__[2].__name__} of the model cannot be filled; "
                        "assign a new one instead")

    def __copy__(self) -> Any:
        return self

    def __deepcopy__(self, memo: Any) -> Any:
        return self


class EmptyDict(_Refused, dict):
    """The type of :data:`EMPTY_DICT`: an empty ``dict`` (equal to ``{}``,
    shown as ``{}``) that refuses ``__setitem__``, ``setdefault``,
    ``update`` and ``|=`` with :class:`TypeError`; removing from it works
    as on any empty dict (``pop(k, d)`` gives ``d``)."""

    __slots__ = ()
    __setitem__ = setdefault = update = __ior__ = _Refused._refuse

    def __reduce__(self) -> Any:
        return (_empty, ("EMPTY_DICT",))


class EmptyList(_Refused, list):
    """The type of :data:`EMPTY_LIST`: an empty ``list`` (equal to ``[]``)
    that refuses every method adding to it with :class:`TypeError`."""

    __slots__ = ()
    __setitem__ = append = extend = insert = __iadd__ = __imul__ = _Refused._refuse

    def __reduce__(self) -> Any:
        return (_empty, ("EMPTY_LIST",))


def _empty(name: str) -> Any:
    return globals()[name]


#: One empty ``dict`` shared by the values a reader leaves empty on most
#: notes and entries (``Note.extra``, ``Note.header``, ``Entry.data``): 64
#: bytes a value saved. Code that adds to such a value assigns a new dict.
EMPTY_DICT: dict[Any, Any] = EmptyDict()
#: One empty ``list`` likewise (an unloaded frontmatter block's ``problems``).
EMPTY_LIST: list[Any] = EmptyList()


class Spans(MutableMapping):
    """A note's spans: field name (or ``extra:<key>``, ``header:<key>``) ->
    :class:`Span`; a mapping in insertion order like the ``dict`` it
    replaces, kept compactly: a span with no end is 6 bytes (which path,
    line, column, each below 65,536; 12 bytes for every span of a note with
    a larger one), others are kept as they are. Reading a key makes its
    :class:`Span` (equal to the one stored, not the same object).

    Why: a store of 20,000 notes holds ~150,000 spans; as ``Span`` objects
    in a ``dict`` they took ~1 KB a note."""

    __slots__ = ("_path", "_others", "_keys", "_pos", "_more")

    def __init__(self, items: Any = ()) -> None:
        self._path: str | None = None  # the first path seen (path index 0: the note's own file)
        self._others: tuple[str, ...] = ()  # the others (index 1, 2 ...): a tuple shared between notes
        self._keys: tuple[str, ...] = ()
        self._pos = b""  # 6 (or 12) bytes a key: path index, line, column
        self._more: dict[str, Span] | None = None
        for k, v in (items.items() if hasattr(items, "items") else items):
            self[k] = v

    @classmethod
    def packed(cls, path: str, keys: list[str], flat: list[int]) -> Spans:
        """Spans in ``path`` of distinct ``keys``: ``flat`` holds ``0, line,
        column`` for each key in turn (0 <= line, column < 2**32); as
        setting each ``Span(path, line, column)`` in turn would."""
        new = cls.__new__(cls)
        new._path, new._others, new._more = path, (), None
        if keys:
            t = tuple(keys)
            got = _TUPLES.get(t)
            new._keys = got if got is not None else _shared(tuple([sys.intern(k) for k in t]))
            new._pos = (_packer(len(t), True) if max(flat) <= _NARROW_MAX else _packer(len(t))).pack(*flat)
        else:
            new._path, new._keys, new._pos = None, (), b""
        return new

    def place(self, key: str, path: str, line: int, column: int) -> None:
        """``self[key] = Span(path, line, column)``, without making the :class:`Span`."""
        if type(line) is int and type(column) is int and 0 <= line < 1 << 32 and 0 <= column < 1 << 32 \
                and isinstance(path, str):
            if self._more is not None:
                self._more.pop(key, None)
            if self._path is None:
                self._path = path
            if path == self._path:
                where = 0
            elif path in self._others:
                where = self._others.index(path) + 1
            else:
                self._others = _shared(self._others + (path,))
                where = len(self._others)
            self._put(key, where, line, column)
        else:
            self[key] = Span(path, line, column)

    def _width(self) -> int:
        """Bytes a key in ``_pos``: 6, or 12 once a number is too large for 6."""
        n = len(self._keys)
        return len(self._pos) // n if n else 6

    def _place_at(self, i: int) -> tuple[int, int, int]:
        """``(path index or _OTHER, line, column)`` of the ``i``-th key."""
        if self._width() == 6:
            where, line, col = _NARROW.unpack_from(self._pos, 6 * i)
            return (_OTHER if where == _NARROW_OTHER else where), line, col
        return _PLACE.unpack_from(self._pos, 12 * i)

    def _put(self, key: str, where: int, line: int, column: int) -> None:
        """Store the place of ``key`` (new keys go last); ``where`` is a
        path index or :data:`_OTHER`."""
        w = self._width()
        if w == 6 and (line > _NARROW_MAX or column > _NARROW_MAX or (where >= _NARROW_OTHER and where != _OTHER)):
            n = len(self._keys)
            flat = [x for i in range(n) for x in self._place_at(i)]
            self._pos, w = _packer(n).pack(*flat), 12  # every place gets 12 bytes
        if w == 6:
            pos = _NARROW.pack(_NARROW_OTHER if where == _OTHER else where, line, column)
        else:
            pos = _PLACE.pack(where, line, column)
        if key in self:
            i = self._index(key)
            self._pos = self._pos[: w * i] + pos + self._pos[w * i + w:]
        else:  # a new key (no exception raised for it: most keys set are new)
            self._keys = _shared(self._keys + (sys.intern(key) if type(key) is str else key,))
            self._pos += pos

    def _index(self, key: str) -> int:
        table = _positions(self._keys)
        if table is not None:
            try:
                return table[key]
            except (KeyError, TypeError):
                raise KeyError(key) from None
        try:
            return self._keys.index(key)
        except ValueError:
            raise KeyError(key) from None

    def __getitem__(self, key: str) -> Span:
        where, line, col = self._place_at(self._index(key))
        if where == 0:
            return Span(self._path, line, col)  # type: ignore[arg-type]
        if where == _OTHER:
            assert self._more is not None
            return self._more[key]
        return Span(self._others[where - 1], line, col)

    def __setitem__(self, key: str, span: Span) -> None:
        if (span.end_line is None and span.end_column is None and type(span.line) is int and type(span.column) is int
                and 0 <= span.line < 1 << 32 and 0 <= span.column < 1 << 32 and isinstance(span.path, str)):
            self.place(key, span.path, span.line, span.column)
            return
        if self._more is None:
            self._more = {}
        self._more[key] = span
        self._put(key, _OTHER, 0, 0)

    def __delitem__(self, key: str) -> None:
        i = self._index(key)
        w = self._width()
        self._keys = _shared(self._keys[:i] + self._keys[i + 1:])
        self._pos = self._pos[: w * i] + self._pos[w * i + w:]
        if self._more is not None:
            self._more.pop(key, None)

    def __contains__(self, key: object) -> bool:
        table = _positions(self._keys)
        if table is not None:
            try:
                return key in table
            except TypeError:  # an unhashable key is in no table
                return False
        return key in self._keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)

    def get(self, key: str, default: Any = None) -> Any:
        """The span of ``key``, else ``default``."""
        return self[key] if key in self else default

    def __repr__(self) -> str:
        return f"Spans({dict(self.items())!r})"

    def __copy__(self) -> Spans:
        new = Spans()
        new._path, new._others, new._keys, new._pos = self._path, self._others, self._keys, self._pos
        new._more = dict(self._more) if self._more is not None else None
        return new

    copy = __copy__


class Note(Record):
    """One memory.

    Attributes:
        path: the note's POSIX path relative to the store root (``memories/a.md``).
        slug: the dialect's key: mm topic, engramory file stem, workspace file
            stem (a Unicode title). Unique within a store.
        category: workspace category folders (``("项目约定",)``); empty elsewhere.
        name..entry_body: see :data:`NOTE_FIELDS`; ``None`` when absent. ``tags``
            and ``aliases`` are ``list[str]``; the rest are ``str`` exactly as
            written (dates are never converted).
        extra: unknown frontmatter keys or mm entry keys, in source order;
            values are ``str`` (or YAML data for keys that needed YAML).
        body: the note text after its header, with line endings normalised to LF.
        spans: field name (or ``extra:<key>``) -> where the value was read
            (a :class:`Spans` mapping).
        frontmatter: the note's ``---`` block as parsed
            (:class:`mmlint.frontmatter.Frontmatter`: items with key, value,
            line and columns, ``close_raw`` ``None`` when it never closes);
            ``None`` when the file has none (mm notes never have one).
        header: header values of a file with a line header (mm: ``title``
            from ``# <title>``, and each ``> mm-*:`` key); spans of them are
            ``spans["header:<key>"]``.
        entry: the index entry that lists the note (mm: the ``## topic``
            section it was read from; engramory: the first pointer crediting
            it; workspace: its projection line), ``None`` when none does.
        body_line: 1-based line of the note's file where ``body`` starts
            (after the frontmatter or mm header and the blank line after it).
        unclosed_head: the text after an opening ``---`` that never closes
            (the reader cannot tell header from body, so ``body`` is empty);
            links are still read from it. ``None`` otherwise.
        layout: reader-specific record used for byte-exact rewriting; rules
            never read it (they read the fields above and ask the dialect).
    """

    __slots__ = ("path", "slug", "category", "name", "title", "summary", "type", "tags", "created", "updated", "scope",
                 "aliases", "confidence", "budget", "index_hook", "index_section", "entry_body", "extra", "body", "spans",
                 "body_line", "unclosed_head", "frontmatter", "header", "entry", "layout")
    _fields = tuple(f for f in __slots__ if f != "entry")  # ``entry`` is neither shown nor compared

    def __init__(self, path: str, slug: str, category: tuple[str, ...] = (), name: str | None = None,
                 title: str | None = None, summary: str | None = None, type: str | None = None,
                 tags: list[str] | None = None, created: str | None = None, updated: str | None = None,
                 scope: str | None = None, aliases: list[str] | None = None, confidence: str | None = None,
                 budget: str | None = None, index_hook: str | None = None, index_section: str | None = None,
                 entry_body: str | None = None, extra: dict[str, Any] | None = None, body: str = "",
                 spans: Spans | None = None, body_line: int = 1, unclosed_head: str | None = None,
                 frontmatter: Any = None, header: dict[str, str] | None = None, entry: Any = None,
                 layout: Any = None) -> None:
        self.path = path
        self.slug = slug
        self.category = category
        self.name = name
        self.title = title
        self.summary = summary
        self.type = type
        self.tags = tags
        self.created = created
        self.updated = updated
        self.scope = scope
        self.aliases = aliases
        self.confidence = confidence
        self.budget = budget
        self.index_hook = index_hook
        self.index_section = index_section
        self.entry_body = entry_body
        self.extra = {} if extra is None else extra
        self.body = body
        self.spans = Spans() if spans is None else spans
        self.body_line = body_line
        self.unclosed_head = unclosed_head
        self.frontmatter = frontmatter
        self.header = {} if header is None else header
        self.entry = entry
        self.layout = layout

    def span(self, key: str = "") -> Span:
        """Where ``key`` was read, else the note's first line."""
        return self.spans.get(key) or Span(self.path, 1, 1)

    def derived_title(self) -> str:
        """The title every dialect shows when a note has none: ``name``, else
        the slug. Readers store ``title=None`` when the title equals it, so a
        title is only kept where it says something more."""
        return self.name or self.slug

    def fields(self) -> dict[str, Any]:
        """The present semantic fields (``None`` values left out)."""
        out = {k: getattr(self, k) for k in NOTE_FIELDS if getattr(self, k) is not None}
        return out


class Entry(Record):
    """One index item: a pointer line, an mm ``## topic`` section, or a
    workspace projection line.

    Attributes:
        span: where the entry starts in the index.
        pointer: the link destination exactly as written (``None`` for prose).
        target: the store-relative POSIX path the pointer resolves to, or
            ``None`` when it is remote, unsafe or not a local path.
        title: link text (engramory, workspace) or the mm topic.
        hook: text after the link (engramory), or the mm summary.
        section: the ``##`` heading the entry sits under, if any.
        kind: ``"link"``, ``"wikilink"``, ``"mm"``, ``"projection"``,
            ``"bare"`` (recall-v1's linkless ``- hook — file.md``).
        pointer_span: the span of the pointer text itself.
        resolution: what the pointer reaches
            (:class:`mmlint.resolve.Resolution`: note, folder, missing,
            outside, not-openable, file, or a syntax kind), set once by
            :func:`mmlint.resolve.resolve_entries`; ``None`` for an entry
            without a pointer. Rules read this, never the file system.

    ``span`` and ``pointer_span`` are kept as numbers when they have the
    usual shape (the entry at column 1 of a line, the pointer on that line
    of that file): reading one makes its :class:`Span` (equal to the one
    set, not the same object). A 20,000-note index held 40,000 ``Span``
    objects, 3.5 MB.
    """

    __slots__ = ("_path", "_at", "pointer", "target", "title", "hook", "section", "kind", "_pcol", "_pend", "data",
                 "resolution")
    _fields = ("span", "pointer", "target", "title", "hook", "section", "kind", "pointer_span", "data", "resolution")

    def __init__(self, span: Span, pointer: str | None = None, target: str | None = None, title: str | None = None,
                 hook: str | None = None, section: str | None = None, kind: str = "link",
                 pointer_span: Span | None = None, data: dict[str, Any] | None = None, resolution: Any = None) -> None:
        self._pcol = None
        self.span = span
        self.pointer = pointer
        self.target = target
        self.title = title
        self.hook = hook
        self.section = section
        self.kind = kind
        self.pointer_span = pointer_span
        self.data = {} if data is None else data
        self.resolution = resolution

    @classmethod
    def on_line(cls, path: str, line: int, pointer: str | None, target: str | None, title: str | None,
                hook: str | None, section: str | None, kind: str, column: int, end_column: int,
                data: dict[str, Any]) -> Entry:
        """The entry ``Entry(Span(path, line, 1), pointer, target, title,
        hook, section, kind, Span(path, line, column, line, end_column),
        data)``, made without either :class:`Span` (a reader's way: line,
        column and end column are ints, ``1 <= column``)."""
        e = cls.__new__(cls)
        e._path, e._at, e._pcol, e._pend = path, line, column, end_column
        e.pointer, e.target, e.title, e.hook, e.section, e.kind = pointer, target, title, hook, section, kind
        e.data, e.resolution = data, None
        return e

    @property
    def span(self) -> Span:
        """Where the entry starts in the index (a :class:`Span`)."""
        path = self._path
        return self._at if path is None else Span(path, self._at, 1)

    @property
    def line(self) -> int:
        """``span.line`` (the 1-based index line the entry starts on), read
        without making the :class:`Span`."""
        return self._at if self._path is not None else self._at.line

    @span.setter
    def span(self, span: Span) -> None:
        if type(self._pcol) is int:
            self._pcol, self._pend = self.pointer_span, None  # kept as it was: it no longer follows the entry's line
        if (type(span) is Span and type(span.line) is int and span.column == 1 and type(span.column) is int
                and span.end_line is None and span.end_column is None and type(span.path) is str):
            self._path, self._at = span.path, span.line
        else:
            self._path, self._at = None, span

    @property
    def pointer_span(self) -> Span | None:
        """The span of the pointer text itself (a :class:`Span`), or ``None``."""
        col = self._pcol
        if type(col) is int:
            line = self._at
            return Span(self._path, line, col, line, self._pend)
        return col

    @pointer_span.setter
    def pointer_span(self, span: Span | None) -> None:
        if (type(span) is Span and self._path is not None and span.path == self._path and span.line == self._at
                and span.end_line == span.line and type(span.column) is int and type(span.end_column) is int):
            self._pcol, self._pend = span.column, span.end_column
        else:
            self._pcol, self._pend = span, None

    @property
    def credits(self) -> str | None:
        """The path of the note this entry credits (its pointer resolves to
        a note), else ``None``."""
        r = self.resolution
        return r.note if r is not None and r.kind == "note" else None


class Index(Record):
    """The store's ``MEMORY.md``.

    Attributes:
        path: ``"MEMORY.md"`` (the spelling found on disk).
        text: decoded text (BOM removed, line endings as on disk).
        size_bytes: raw on-disk size in bytes (a BOM counts).
        line_count: lines by :func:`mmlint.textutil.count_lines`.
        entries: entries in file order.
        headings: ``(line, level, text)`` for every markdown heading.
        header: dialect header metadata (mm ``> mm-*:`` lines, workspace fields).
        prose: ``(line, text)`` of lines that are neither entries, headings nor
            blank: content an index should not hold.
        loose: ``(line, text)`` of every line a conversion must carry besides
            the notes' own entries: prose, and pointer lines that credit no
            note (remote links, dangling pointers, lines of several links).
        layout: reader-specific record for byte-exact rewriting.
    """

    _fields = ("path", "text", "size_bytes", "line_count", "entries", "headings", "header", "prose", "loose", "bom",
               "newline", "layout")

    def __init__(self, path: str, text: str = "", size_bytes: int = 0, line_count: int = 0,
                 entries: list[Entry] | None = None, headings: list[tuple[int, int, str]] | None = None,
                 header: dict[str, str] | None = None, prose: list[tuple[int, str]] | None = None,
                 loose: list[tuple[int, str]] | None = None, bom: bool = False, newline: str = "\n",
                 layout: Any = None) -> None:
        self.path = path
        self.text = text
        self.size_bytes = size_bytes
        self.line_count = line_count
        self.entries = [] if entries is None else entries
        self.headings = [] if headings is None else headings
        self.header = {} if header is None else header
        self.prose = [] if prose is None else prose
        self.loose = [] if loose is None else loose
        self.bom = bom
        self.newline = newline
        self.layout = layout

    def lines(self) -> list[str]:
        """The index text split at every line ending (CRLF, LF, lone CR),
        endings removed: ``lines()[k - 1]`` is line ``k`` of every span."""
        from mmlint.markdown import split_lines

        return split_lines(self.text)


class Problem(Record):
    """Something a reader could not read as the dialect says.

    Readers never raise on bad input; they record a problem with a rule code
    (see :mod:`mmlint.rules`) and carry on. ``code`` names the rule that
    reports it; ``span`` points at the offending text.
    """

    __slots__ = _fields = ("code", "message", "span", "severity", "hint")

    def __init__(self, code: str, message: str, span: Span, severity: str | None = None,
                 hint: str | None = None) -> None:
        self.code = code
        self.message = message
        self.span = span
        self.severity = severity
        self.hint = hint


class FileRecord(Record):
    """A file seen while walking the store.

    ``kind`` is ``"index"``, ``"note"``, ``"aux"`` (kept verbatim: ledgers,
    archives, READMEs, unknown files), ``"skipped"`` (in a folder that is not
    walked), ``"symlink-escape"`` or ``"unreadable"``.
    """

    __slots__ = _fields = ("path", "kind", "size", "data", "reason")

    def __init__(self, path: str, kind: str, size: int = 0, data: bytes | None = None, reason: str = "") -> None:
        self.path = path
        self.kind = kind
        self.size = size
        self.data = data
        self.reason = reason


class Store(Record):
    """A memory store read by one dialect.

    Attributes:
        root: absolute path of the store root (as given, symlinks resolved).
        dialect: ``"mm"``, ``"engramory"`` or ``"workspace"``.
        profile: the engramory profile, else ``None``.
        index: the index, or ``None`` when ``MEMORY.md`` is absent.
        notes: notes in path order.
        files: every file seen, keyed by POSIX relative path.
        problems: reader findings (bad bytes, unparsable lines, unsafe paths).
        origin: the layout of the store a conversion came from
            (:func:`mmlint.carriers.make_origin`, read from
            :data:`mmlint.carriers.ORIGIN_FILE`), or ``None``; not a value.
    """

    # no __slots__: note_at keeps its path map in the instance dict
    _fields = ("root", "dialect", "profile", "index", "notes", "files", "problems", "origin")

    def __init__(self, root: str, dialect: str, profile: str | None = None, index: Index | None = None,
                 notes: list[Note] | None = None, files: dict[str, FileRecord] | None = None,
                 problems: list[Problem] | None = None, origin: dict[str, Any] | None = None) -> None:
        self.root = root
        self.dialect = dialect
        self.profile = profile
        self.index = index
        self.notes = [] if notes is None else notes
        self.files = {} if files is None else files
        self.problems = [] if problems is None else problems
        self.origin = origin

    def replace(self, **changes: Any) -> Store:
        """A new store with the same fields but ``changes`` (what
        ``dataclasses.replace`` made of the dataclass this was: a fresh
        instance, no cached path map)."""
        return Store(**{**{name: getattr(self, name) for name in self._fields}, **changes})

    def note_at(self, path: str) -> Note | None:
        """The note stored at ``path`` (POSIX, store-relative), or ``None``."""
        cache = self.__dict__.get("_by_path")
        if cache is None or len(cache) != len(self.notes):
            cache = {n.path: n for n in self.notes}
            self.__dict__["_by_path"] = cache
        return cache.get(path)

    def aux_files(self) -> dict[str, bytes]:
        """Auxiliary files (kept verbatim), path -> bytes."""
        return {p: r.data for p, r in sorted(self.files.items()) if r.kind == "aux" and r.data is not None}


def semantic(store: Store, key: str = "slug") -> dict[str, Any]:
    """The comparable content of a store: what a conversion must keep.

    Returns ``{"notes": {<key>: {field: value, "extra": {...}, "body": str,
    "category": [...]}}, "aux": {path: bytes}, "index_lines": [str]}`` where
    ``<key>`` is the note's slug and ``index_lines`` are the index's loose
    lines. Layout (quoting, key order, line endings) is not included.
    """
    notes: dict[str, Any] = {}
    for n in store.notes:
        d = n.fields()
        d["extra"] = dict(n.extra)
        d["body"] = n.body
        d["category"] = list(n.category)
        notes[getattr(n, key)] = d
    loose = [text for _, text in store.index.loose] if store.index is not None else []
    return {"notes": notes, "aux": store.aux_files(), "index_lines": loose}
