"""The ``mm`` dialect: Memory Standard v1 (``specs/mm-v1.md``).

``MEMORY.md`` holds ``> mm-*:`` header metadata and one ``## <topic>``
section per entry with ``- **key:** value`` lines (``summary``, ``tags``,
``file``, ``updated``, ``budget``); ``memories/<topic>.md`` holds a
``# <topic>`` title, ``> mm-*:`` header lines and the body.

The reader is exact where the reference is lossy (``research/mm-reference.md``
§9): CRLF files are read (and flagged by the linter, since the reference
reads zero entries from them), entry bodies and note bodies keep every line
and newline, and unknown ``- **key:** value`` lines become model ``extra``
keys (or carried fields, see :mod:`mmlint.carriers`).
"""

from __future__ import annotations

import os
import posixpath
import re

from mmlint._record import Record
from mmlint import carriers, resolve
from mmlint.dialects import Evidence, PathClaims, Unrepresentable, list_store_dir, open_store, read_head
from mmlint.dialects import add_aux as _add_aux
from mmlint.model import NOTE_FIELDS, Entry, Index, Note, Problem, Span, Store
from mmlint.textutil import apply_newline, count_lines, decode, encode, lazy_re, to_lf

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

NAME = "mm"
PROFILES: tuple[str, ...] = ()
DEFAULT_PROFILE = None

#: Defaults from the reference's ``src/types.ts`` (mm-reference §0).
INDEX_CAPS = {"lines": 200, "bytes": 25600}
DETAIL_MAX_BYTES = 65536
WRITE_BUDGET = 4000
TOPIC_MAX = 64
TOPIC_RE = lazy_re(r"^[A-Za-z0-9][A-Za-z0-9._-]*\Z")
DETAIL_DIR = "memories"

KNOWN_KEYS = ("summary", "tags", "file", "updated", "budget")
#: Model fields native to mm entries (``file`` is the note path).
NATIVE_FIELDS = ("summary", "tags", "updated", "budget", "entry_body")

_HEADING_RE = lazy_re(r"^##\s+\S")
_HEADER_META_RE = lazy_re(r"^>\s*(\S+?):\s*(.*)$")
_ENTRY_KEY_RE = lazy_re(r"^-\s*\*\*([A-Za-z0-9_.-]+):\*\*\s*(.*)$")
_NOTE_TITLE_RE = lazy_re(r"^#\s+(.+)$")
_NOTE_META_RE = lazy_re(r"^>\s*(mm-[A-Za-z0-9_-]+):\s*(.*)$")
_TAG_SPLIT_RE = lazy_re(r"[,，;；]")
_BOILERPLATE = (
    lazy_re(r"^Memory Standard Index — hand-load priority; managed by dsh-memory-standard\.$"),
    lazy_re(r"^Hard caps: \d+ lines / \d+ bytes\. Over budget => rewrite \(never truncate\)\.$"),
)


def valid_topic(topic: str) -> bool:
    """The mm topic grammar (spec §1): ``^[A-Za-z0-9][A-Za-z0-9._-]*$``, <= 64 chars."""
    return 0 < len(topic) <= TOPIC_MAX and TOPIC_RE.match(topic) is not None


def body_chars(body: str) -> int:
    """Body size in code points as the reference measures a stored note: the
    body it reads back, without the newlines that open and close it (it
    writes a final newline after every body)."""
    return len(body.strip("\n"))


def expected_aux(rel: str, profile: str | None = None) -> bool:
    """A file outside ``memories/`` is not the reference's concern: only
    files among the detail files may be memories it misses."""
    return not rel.startswith(DETAIL_DIR + "/")


def owns_path(rel: str, profile: str | None = None) -> bool:
    """True when the mm reader takes the file at store-relative ``rel`` for
    part of the store: the index, the index-lines carrier file, or a detail
    file under ``memories/``
    (an auxiliary file there is parked, see :data:`mmlint.carriers.AUX_DIR`)."""
    return rel in ("MEMORY.md", carriers.INDEX_LINES_FILE, carriers.ORIGIN_FILE) or (rel.startswith(DETAIL_DIR + "/") and rel.endswith(".md"))


def parse_tags(value: str) -> list[str]:
    """Tags as written, split on ``, ， ; ；`` and stripped (no case folding:
    the reference's normalisation is a lint finding, X109, not a reader change)."""
    return [p.strip() for p in _TAG_SPLIT_RE.split(value) if p.strip()]


def safe_rel_path(rel: str) -> str | None:
    """Why an index ``file:`` value is unsafe (mm spec §3), or ``None`` if safe.

    Checks, in the reference's order: empty; backslash; absolute or drive
    letter; a ``..`` segment.
    """
    if not rel:
        return "file path must be a non-empty relative path"
    if "\\" in rel:
        return "file path must use POSIX separators (no backslash)"
    if rel.startswith("/") or re.match(r"^[A-Za-z]:", rel):
        return "file path must be relative"
    if ".." in rel.split("/"):
        return "file path must not traverse directories"
    return None


# ---------------------------------------------------------------- detection


#: Compiled for an index holding their literal parts (``mm-``, ``- **summary:**`` /
#: ``- **file:**``, see :func:`detect`): another dialect's index compiles neither.
_MM_HEADER_RE = lazy_re(r"^>[ \t]*mm-(?:kind|version|id):", re.M)
_MM_ENTRY_RE = lazy_re(r"^- \*\*(?:summary|file):\*\*", re.M)


def detect(root: str) -> Evidence | None:
    """Evidence that ``root`` is an mm store (``> mm-*:`` headers, ``memories/``).

    Only regular files inside the root are read, each for a bounded prefix
    (:func:`mmlint.dialects.read_head`): a FIFO, a device or a symlink out of
    the root under ``memories/`` is passed over, never opened."""
    reasons = []
    score = 0
    index = os.path.join(root, "MEMORY.md")
    head = read_head(root, index)
    if head:
        if "mm-" in head and _MM_HEADER_RE.search(head):
            score += 12
            reasons.append("MEMORY.md has '> mm-*:' header lines")
        if ("- **summary:**" in head or "- **file:**" in head) and _MM_ENTRY_RE.search(head):
            score += 4
            reasons.append("MEMORY.md has '- **summary:**' / '- **file:**' entry lines")
    detail = os.path.join(root, DETAIL_DIR)
    names = [n for n in list_store_dir(root, detail) if n.endswith(".md")][:50]
    hits = sum(1 for n in names if "> mm-" in read_head(root, os.path.join(detail, n), 2048))
    if hits:
        score += 5
        reasons.append(f"{DETAIL_DIR}/ holds {hits} note(s) with '> mm-*:' headers")
    return Evidence(NAME, None, score, reasons) if score else None


# ---------------------------------------------------------------- reading


class IndexLayout(Record):
    """What the reader saw in ``MEMORY.md`` (for byte-exact rewriting)."""

    _fields = ("bom", "text", "read", "prose", "header")

    def __init__(self, bom: bool, text: str, read: dict[str, Any], prose: list[tuple[int, str]], header: dict[str, str]) -> None:
        self.bom = bom
        self.text = text
        self.read = read
        self.prose = prose
        self.header = header


class NoteLayout(Record):
    """A detail file's header lines and body as read."""

    _fields = ("bom", "newline", "header_raw", "body", "meta", "title", "data")

    def __init__(self, bom: bool, newline: str, header_raw: str, body: str, meta: dict[str, str], title: str | None, data: bytes) -> None:
        self.bom = bom
        self.newline = newline
        self.header_raw = header_raw
        self.body = body
        self.meta = meta
        self.title = title
        self.data = data


def _strip_cr(line: str) -> str:
    return line[:-1] if line.endswith("\r") else line


def entry_topic(line: str) -> str | None:
    """The topic when ``line`` (no line end) opens an index entry (``## topic``), else ``None``."""
    return line[2:].strip() if _HEADING_RE.match(line) else None


def entry_starts(data: bytes) -> list[tuple[int, str]]:
    """``(1-based line, topic)`` of each entry of the index ``data``: where
    :func:`read_index` starts one, without reading the entries."""
    lines = decode(data).text.split("\n")
    return [(i, topic) for i, raw in enumerate(lines, start=1) if (topic := entry_topic(_strip_cr(raw))) is not None]


def read_index(path: str, data: bytes) -> tuple[Index, list[dict[str, Any]], list[Problem]]:
    """Parse ``MEMORY.md``: ``(index, entries, problems)``.

    Each entry is a dict with ``topic``, ``line``, ``fields`` (model field ->
    value), ``extra``, ``spans``, ``file`` (as written, or ``None``).
    """
    dec = decode(data)
    text = dec.text
    idx = Index(path=path, text=text, size_bytes=len(data), line_count=count_lines(text), bom=dec.bom,
                newline=dec.newline or "\n")
    problems: list[Problem] = []
    lines = text.split("\n")
    entries: list[dict[str, Any]] = []
    cur: dict[str, Any] | None = None
    for i, raw in enumerate(lines, start=1):
        line = _strip_cr(raw)
        topic = entry_topic(line)
        if topic is not None:
            cur = {"topic": topic, "line": i, "fields": {}, "extra": {}, "spans": {}, "file": None,
                   "body": [], "seen": set()}
            entries.append(cur)
            idx.headings.append((i, 2, topic))
            e = Entry(Span(path, i, 1, i, len(line) + 1), title=topic, kind="mm")
            idx.entries.append(e)
            cur["entry"] = e
            continue
        if cur is None:
            m = _HEADER_META_RE.match(line)
            if m:
                idx.header[m.group(1)] = m.group(2).strip()
            elif line.startswith("# ") and "title" not in idx.header:
                idx.header["title"] = line[2:].strip()
                idx.headings.append((i, 1, line[2:].strip()))
            elif line.strip() and not any(b.match(line) for b in _BOILERPLATE):
                idx.prose.append((i, line))
            continue
        m = _ENTRY_KEY_RE.match(line)
        if m:
            key, value = m.group(1), m.group(2).strip()
            col = line.index("**") + len(key) + 5
            span = Span(path, i, col)
            if key in cur["seen"]:
                problems.append(Problem("M104", f"duplicate '- **{key}:**' line in entry {cur['topic']!r}; the last one wins", span))
            cur["seen"].add(key)
            if key == "file":
                cur["file"] = value
                cur["spans"]["file"] = span
            elif key in KNOWN_KEYS:
                cur["fields"][key] = parse_tags(value) if key == "tags" else value
                cur["spans"][key] = span
            elif (back := carriers.restore(key, value)) is not None and (why := carriers.invalid(*back)) is not None:
                problems.append(Problem("X112", f"carrier '- **{key}:**' {why}; read as an unknown key", span))
                cur["extra"][key] = value
                cur["spans"]["extra:" + key] = span
            elif back is not None and back[:2] == ("field", "slug"):
                cur["slug"] = back[2]
                cur["spans"]["slug"] = span
            elif back is not None:
                target = cur.setdefault("carried", {}) if back[0] == "field" else cur["extra"]
                target[back[1]] = back[2]
                cur["spans"][back[1] if back[0] == "field" else "extra:" + back[1]] = span
            else:
                cur["extra"][key] = value
                cur["spans"]["extra:" + key] = span
            continue
        cur["body"].append(line)
    idx.loose = carriers.with_inner_blanks(list(idx.prose), lines)
    for ent in entries:
        for f, orig in ent.get("carried", {}).items():
            # a native value in mm's form (updated as an ISO date-time) with its original in the
            # carrier: the original, unless the native value was edited since
            nat = ent["fields"].get(f)
            if nat is None or nat == orig or nat in (carriers.to_form(orig, "date"), carriers.to_form(orig, "datetime")):
                ent["fields"][f] = orig
                if nat is not None and nat != orig:
                    ent["entry"].data.setdefault("native", {})[f] = nat  # what the line holds (M109 checks it)
        body = "\n".join(ent["body"]).strip("\n")
        if body.strip():
            ent["fields"]["entry_body"] = body
        e = ent["entry"]
        e.hook = ent["fields"].get("summary")
        e.pointer = ent["file"] if ent["file"] is not None else f"{DETAIL_DIR}/{ent['topic']}.md"
        e.data["default_file"] = ent["file"] is None
        reason = safe_rel_path(e.pointer)
        e.data["unsafe"] = reason
        e.target = posixpath.normpath(e.pointer) if reason is None else None
        if "file" in ent["spans"]:
            fs = ent["spans"]["file"]
            e.pointer_span = Span(path, fs.line, fs.column, fs.line, fs.column + len(e.pointer))
        else:
            e.pointer_span = e.span
    return idx, entries, problems


def read_note_text(data: bytes) -> NoteLayout:
    """Split a detail file into header lines and body (mm spec §4).

    The header is an optional ``# <topic>`` title and ``> mm-*:`` lines with
    blank lines between; one blank line after the last header line ends it.
    A file whose first non-blank line is neither is all body.
    """
    dec = decode(data)
    text = dec.text
    lines = text.split("\n")
    title = None
    meta: dict[str, str] = {}
    i = 0
    n = len(lines)
    saw_header = False
    while i < n:
        line = _strip_cr(lines[i])
        if not line.strip():
            if saw_header and meta:
                i += 1  # the blank line that closes the header
                break
            i += 1
            continue
        m_title = _NOTE_TITLE_RE.match(line)
        m_meta = _NOTE_META_RE.match(line)
        if m_title and not saw_header:
            title = m_title.group(1).strip()
            saw_header = True
            i += 1
            continue
        if m_meta:
            meta[m_meta.group(1)] = m_meta.group(2).strip()
            saw_header = True
            i += 1
            continue
        break
    if not saw_header:
        i = 0
    header_raw = "\n".join(lines[:i]) + ("\n" if i else "")
    if i >= n:
        header_raw = text
        body = ""
    else:
        body = "\n".join(lines[i:])
    return NoteLayout(dec.bom, dec.newline or "\n", header_raw, body, meta, title, data)


def read(root: str, profile: str | None = None, tree: dict[str, bytes] | None = None) -> Store:
    """Read the mm store at ``root`` (never raises for bad input); with
    ``tree`` (path -> bytes), read those files instead of the disk
    (:func:`mmlint.dialects.open_store`)."""
    store, files = open_store(root, NAME, owns=owns_path, tree=tree)
    entries: list[dict[str, Any]] = []
    for rel, rec in files:
        if rel == "MEMORY.md":
            rec.kind = "index"
            store.index, entries, problems = read_index(rel, rec.data or b"")
            store.problems.extend(problems)
        elif rel == carriers.INDEX_LINES_FILE:
            rec.kind = "carrier"
        elif rel == carriers.ORIGIN_FILE:
            store.origin = carriers.read_origin(rec.data)
            rec.kind = "carrier" if store.origin is not None else "aux"
        else:
            rec.kind = "aux"
    claimed: set[str] = set()
    for ent in entries:
        e: Entry = ent["entry"]
        path = e.target if e.target is not None else (e.pointer or "")
        note = Note(path=path, slug=ent.get("slug") or ent["topic"])
        for k, v in ent["fields"].items():
            if k == "category":
                note.category = tuple(p for p in str(v).split("/") if p)
            elif k in NOTE_FIELDS:
                setattr(note, k, v)
        note.extra = dict(ent["extra"])
        for k, s in ent["spans"].items():
            note.spans[k] = s
        note.spans.setdefault("slug", e.span)
        rec = store.files.get(path) if e.target is not None else None
        missing = rec is None or rec.kind not in ("aux", "note")
        lay = None
        shared = not missing and path in claimed  # a second entry naming a file an earlier one read (M105)
        if not missing and not shared:
            rec.kind = "note"
            claimed.add(path)
            lay = read_note_text(rec.data or b"")
            note.body = to_lf(lay.body)
            _note_header(note, lay)
        note.entry = e
        note.layout = {"entry": ent, "note": lay, "missing": missing, "shared": shared, "read": _entry_fields(note)}
        store.notes.append(note)
    for rel, rec in store.files.items():
        if rec.kind == "aux" and owns_path(rel) and rel not in claimed:
            rec.kind = "note"
            lay = read_note_text(rec.data or b"")
            slug = rel[len(DETAIL_DIR) + 1 : -3]
            note = Note(path=rel, slug=slug, body=to_lf(lay.body))
            _note_header(note, lay)
            note.layout = {"entry": None, "note": lay, "missing": False, "read": _entry_fields(note)}
            store.notes.append(note)
    carrier = store.files.get(carriers.INDEX_LINES_FILE)
    if carrier is not None and carrier.kind == "carrier" and carrier.data is not None:
        if store.index is None:
            store.index = Index(path="MEMORY.md")
        store.index.loose += [(0, line) for line in carriers.read_lines_file(carrier.data)]
    resolve.resolve_entries(store)
    if store.index is not None:
        store.index.layout = IndexLayout(store.index.bom, store.index.text,
                                         {n.slug: n.layout["read"] for n in store.notes if n.layout["entry"] is not None},
                                         list(store.index.loose), dict(store.index.header))
    return store


def _note_header(note: Note, lay: NoteLayout) -> None:
    """Fill the neutral view of a detail file's header: ``body_line``,
    ``header`` (``title`` and each ``mm-*`` value) and their spans."""
    note.body_line = 1 + lay.header_raw.count("\n")
    if lay.title is not None:
        note.header["title"] = lay.title
    note.header.update(lay.meta)
    for i, raw in enumerate(lay.header_raw.split("\n"), start=1):
        line = _strip_cr(raw)
        m = _NOTE_META_RE.match(line)
        key = m.group(1) if m else ("title" if _NOTE_TITLE_RE.match(line) else None)
        if key is not None and "header:" + key not in note.spans:
            note.spans["header:" + key] = Span(note.path, i, 1)


def _entry_fields(note: Note) -> dict[str, Any]:
    d = note.fields()
    d["extra"] = dict(note.extra)
    d["path"] = note.path
    d["category"] = note.category
    d["slug"] = note.slug
    return d


# ---------------------------------------------------------------- writing


_TOPIC_JUNK_RE = lazy_re(r"[^A-Za-z0-9._-]+")


def _hyphenate(text: str) -> str:
    """Each run of characters outside ``[A-Za-z0-9._-]``, with the hyphens
    right around it, as one ``-`` (what ``re.sub(r"-*[^A-Za-z0-9._-]+-*",
    "-", text)`` gives, in one linear pass: that pattern rescans a run of
    hyphens from each of its positions)."""
    out: list[str] = []
    pos, n = 0, len(text)
    for m in _TOPIC_JUNK_RE.finditer(text):
        if m.start() < pos:
            continue
        out.append(text[pos:m.start()].rstrip("-") if m.start() > pos else "")
        out.append("-")
        pos = m.end()
        while pos < n and text[pos] == "-":
            pos += 1
    out.append(text[pos:])
    return "".join(out)
#: Length of the hash that ends a mapped topic too long to keep whole.
_HASH_CHARS = 10


def map_topic(slug: str) -> str:
    """The mm topic for a note of another dialect, deterministically.

    A valid topic (spec §1) is kept. Otherwise the NFC form is made ASCII
    with :func:`mmlint.carriers.ascii_slug` (``xn--`` Punycode), each run of
    characters outside ``[A-Za-z0-9._-]`` (with the hyphens around it)
    becomes one ``-``, and leading and trailing ``.``, ``_``, ``-`` go. A
    result over 64 code points (or empty) is cut to 53 and ends with ``-``
    and the first 10 hex digits of the SHA-256 of the NFC slug, so distinct
    long slugs stay distinct. The mapping loses information; the writer
    keeps the original slug in the ``mmlint-slug`` entry line, and two slugs
    mapping to one topic are refused (:class:`~mmlint.dialects.PathClaims`).
    """
    import unicodedata

    from mmlint.digest import sha256_hex

    if valid_topic(slug):
        return slug
    topic = _hyphenate(carriers.ascii_slug(slug)).strip("._-")
    if valid_topic(topic):
        return topic
    nfc = unicodedata.normalize("NFC", slug).encode("utf-8", "surrogateescape")
    digest = sha256_hex(nfc)[:_HASH_CHARS]
    head = topic[: TOPIC_MAX - _HASH_CHARS - 1].rstrip("._-")
    return f"{head}-{digest}" if head else digest


def topic_for(note: Note) -> str:
    """The topic a note is written under: its own when read as mm, else
    :func:`map_topic` of its slug."""
    lay = note.layout
    if isinstance(lay, dict) and lay.get("entry") is not None:
        return lay["entry"]["topic"]
    return map_topic(note.slug)


def note_path(note: Note) -> str:
    """Where the note is written: its own path when read as mm, else
    ``memories/<topic>.md``."""
    if isinstance(note.layout, dict) and "entry" in note.layout:
        return note.path
    return f"{DETAIL_DIR}/{topic_for(note)}.md"


def note_paths(store: Store, profile: str | None = None) -> dict[str, str]:
    """Source note path -> the detail file :func:`render` writes it at
    (:func:`note_path`).

    Raises:
        Unrepresentable: two notes on one path, or on paths that differ only
            by case or Unicode normalisation (topics are mapped first, see
            :func:`map_topic`).
    """
    claims = PathClaims()
    out: dict[str, str] = {}
    origin = carriers.origin_for(store, NAME, None)
    for n in store.notes:
        lay = n.layout if isinstance(n.layout, dict) else {}
        rec = carriers.origin_note(origin, n)
        if store.dialect == NAME and (lay.get("missing") or lay.get("shared")):
            out.setdefault(n.path, note_path(n))  # writes no file of its own (a dangling or repeated entry)
        else:
            out[n.path] = claims.claim(rec["path"] if rec is not None else note_path(n), n.path)
    return out


def native_only(store: Store) -> list[tuple[str, str, str]]:
    """``(path, field, value)`` an mm store holds that no other dialect's
    writer receives: a ``mm-id`` other than ``local`` (field ``memory_id``)
    and a ``- **file:**`` outside ``memories/<topic>.md`` (field ``file``).
    A conversion to another dialect refuses them unless the field is in
    ``--allow-loss``."""
    out = []
    if store.index is not None and store.index.header.get("mm-id", "local") not in ("local", ""):
        out.append(("MEMORY.md", "memory_id", store.index.header["mm-id"]))
    for note in store.notes:
        lay = note.layout if isinstance(note.layout, dict) else {}
        ent = lay.get("entry")
        if ent is not None and ent["file"] is not None and ent["file"] != f"{DETAIL_DIR}/{ent['topic']}.md":
            out.append((note.path, "file", ent["file"]))
    return out


def render(store: Store, profile: str | None = None) -> dict[str, bytes]:
    """The files of ``store`` written as mm (no I/O): one detail file per note
    (see :func:`note_path`; a dangling entry of an mm store stays dangling),
    ``MEMORY.md``, the index-lines carrier file when the index holds lines an
    mm header cannot, and auxiliary files verbatim.

    Raises:
        Unrepresentable: two notes on one path (:func:`note_paths`), a
            value that cannot sit on one index line, a tag holding a
            separator, an extra key an entry line cannot hold.
    """
    out: dict[str, bytes] = {}
    memory_id = "local"
    if store.index is not None and store.dialect == NAME:
        memory_id = store.index.header.get("mm-id", "local") or "local"
    paths = note_paths(store)
    origin = carriers.origin_for(store, NAME, None)
    for note in store.notes:
        topic = topic_for(note)
        rec = carriers.origin_note(origin, note)
        if rec is not None:  # back where it came from, with the same values: its own bytes
            carriers.unfill(note, rec)
            out[paths[note.path]] = carriers.rebuild(rec, note.body)
            continue
        lay = note.layout if isinstance(note.layout, dict) and "entry" in note.layout else None
        if lay is not None and (lay["missing"] or (lay.get("shared") and store.dialect == NAME)):
            continue  # no file of its own: nothing to write (a conversion still refuses the clash)
        path = paths[note.path]
        nl: NoteLayout | None = lay["note"] if lay is not None else None
        if nl is not None and note.body == to_lf(nl.body):
            out[path] = nl.data
        elif nl is not None:
            out[path] = encode(nl.header_raw + apply_newline(note.body, nl.newline), nl.bom)
        else:
            out[path] = encode(render_note_text(topic, memory_id, path, note.body))
    orphan_lines = store.files.get(carriers.INDEX_LINES_FILE) if store.dialect == NAME and "MEMORY.md" not in store.files else None
    if orphan_lines is not None and orphan_lines.data is not None:
        out[carriers.INDEX_LINES_FILE] = orphan_lines.data  # a carrier file without its index: kept, no index invented
    elif store.index is not None or store.dialect != NAME:
        out["MEMORY.md"] = carriers.origin_index(origin, store) or render_index(store, memory_id)
        loose = [text for _, text in store.index.loose] if store.index is not None else []
        kept = store.files.get(carriers.INDEX_LINES_FILE)
        lay = store.index.layout if store.index is not None else None
        if store.dialect == NAME and kept is not None and kept.data is not None and isinstance(lay, IndexLayout) \
                and list(store.index.loose) == lay.prose:
            out[carriers.INDEX_LINES_FILE] = kept.data  # the index lines did not change: the file stays as read
        elif loose and not header_safe(loose):
            out[carriers.INDEX_LINES_FILE] = carriers.lines_file(loose)
    if store.origin is not None and origin is None:
        out[carriers.ORIGIN_FILE] = carriers.origin_file(store.origin)
    _add_aux(store, out, owns_path)
    return out


def origin_layouts(store: Store) -> tuple[dict[str, tuple[str, bool, str, bool]], bool]:
    """``note path -> (header, False, newline, bom)`` of every detail file
    read whose note still has the values read (entry and body), for
    :func:`mmlint.carriers.make_origin`: the ``# topic`` and ``> mm-*:``
    lines before the body as written; and whether ``MEMORY.md`` still holds
    every entry as it is."""
    out = {}
    for n in store.notes:
        nl = n.layout.get("note") if isinstance(n.layout, dict) else None
        if isinstance(nl, NoteLayout) and not n.layout.get("shared") and n.layout.get("read") == _entry_fields(n) \
                and n.body == to_lf(nl.body):
            out[n.path] = (nl.header_raw, False, nl.newline, nl.bom)
    idx = store.index
    lay = idx.layout if idx is not None and isinstance(idx.layout, IndexLayout) else None
    now = {n.slug: _entry_fields(n) for n in store.notes if isinstance(n.layout, dict) and n.layout.get("entry") is not None}
    return out, lay is not None and now == lay.read and list(idx.loose) == lay.prose


def header_safe(lines: list[str]) -> bool:
    """True when every one of ``lines`` reads back as header prose of an mm
    index: no ``## `` heading, no ``> key:`` meta line, no boilerplate line.
    Index lines that are not are carried in :data:`mmlint.carriers.INDEX_LINES_FILE`."""
    return not any(_HEADING_RE.match(t) or _HEADER_META_RE.match(t) or any(b.match(t) for b in _BOILERPLATE) for t in lines)


def render_note_text(topic: str, memory_id: str, file: str, body: str) -> str:
    """A canonical detail file (mm-reference §1.5), body kept exactly."""
    head = ["# " + topic, "", f"> mm-id: {memory_id}", "> mm-version: 1", "> mm-kind: note",
            f"> mm-topic: {topic}", f"> mm-file: {file}", ""]
    return "\n".join(head) + "\n" + body if body else "\n".join(head[:-1]) + "\n"


def render_index(store: Store, memory_id: str) -> bytes:
    """``MEMORY.md``: the original text when no entry changed, else the
    canonical serialization (entries sorted by topic, mm-reference §1.4) with
    carried fields as extra ``- **key:** value`` lines."""
    idx = store.index
    lay = idx.layout if idx is not None and isinstance(idx.layout, IndexLayout) else None
    if lay is not None and store.dialect == NAME:
        now = {n.slug: _entry_fields(n) for n in store.notes if isinstance(n.layout, dict) and n.layout.get("entry") is not None}
        if now == lay.read and list(idx.loose) == lay.prose:
            return encode(lay.text, lay.bom)
    lines_cap, bytes_cap = INDEX_CAPS["lines"], INDEX_CAPS["bytes"]
    head = ["# MEMORY.md", "", "Memory Standard Index — hand-load priority; managed by dsh-memory-standard.",
            f"Hard caps: {lines_cap} lines / {bytes_cap} bytes. Over budget => rewrite (never truncate)."]
    loose = [text for _, text in idx.loose] if idx is not None else []
    if header_safe(loose):
        head += loose
    head += ["", f"> mm-id: {memory_id}", "> mm-version: 1", "> mm-kind: index",
             f"> mm-caps: {lines_cap} lines / {bytes_cap} bytes", ""]
    body: list[str] = []
    for note in sorted(store.notes, key=topic_for):
        if store.dialect == NAME and isinstance(note.layout, dict) and note.layout.get("entry") is None:
            continue  # an orphan detail file stays an orphan
        body.extend(_entry_lines(note))
    text = "\n".join(head) + "\n".join(body)
    return encode(text if text.endswith("\n") else text + "\n")


def _line_value(note: Note, key: str, value: str) -> str:
    if "\n" in value or "\r" in value:
        raise Unrepresentable(note.path, key, "an mm index value must fit on one line")
    return value


def _entry_lines(note: Note) -> list[str]:
    topic = topic_for(note)
    lines = [f"## {topic}"]
    if note.summary is not None:
        lines.append(f"- **summary:** {_line_value(note, 'summary', note.summary)}".rstrip(" ") if note.summary == "" else f"- **summary:** {_line_value(note, 'summary', note.summary)}")
    if note.tags is not None:
        for t in note.tags:
            if _TAG_SPLIT_RE.search(t) or t != t.strip():
                raise Unrepresentable(note.path, "tags", f"tag {t!r} holds a separator (, ; ， ；) or edge spaces")
        lines.append(f"- **tags:** {', '.join(note.tags)}")
    lines.append(f"- **file:** {note_path(note)}")
    if note.updated is not None:
        lines.append(f"- **updated:** {_line_value(note, 'updated', _updated_form(note))}")
    if note.budget is not None:
        lines.append(f"- **budget:** {_line_value(note, 'budget', note.budget)}")
    for f in NOTE_FIELDS:
        value = getattr(note, f)
        if f in NATIVE_FIELDS or value is None:
            continue
        lines.append(f"- **{carriers.FIELD_KEYS[f]}:** {carriers.encode_value(value)}")
    if note.updated is not None and _updated_form(note) != note.updated:
        lines.append(f"- **{carriers.FIELD_KEYS['updated']}:** {carriers.encode_value(note.updated)}")
    if note.category:
        lines.append(f"- **{carriers.FIELD_KEYS['category']}:** {'/'.join(note.category)}")
    if topic != note.slug:
        lines.append(f"- **{carriers.FIELD_KEYS['slug']}:** {carriers.encode_value(note.slug)}")
    for key, value in note.extra.items():
        wkey, wvalue = carriers.extra_key(key, value, set(KNOWN_KEYS))
        if not re.match(r"^[A-Za-z0-9_.-]+$", wkey):
            raise Unrepresentable(note.path, "extra:" + key, "an mm entry key may hold only letters, digits, '.', '_' and '-'")
        lines.append(f"- **{wkey}:** {wvalue}")
    if note.entry_body is not None:
        lines.append("")
        lines.extend(note.entry_body.split("\n"))
    lines.append("")
    return lines


_BUDGET_RE = lazy_re(r"^(\d+)/(\d+)")


def recorded_write_budget(note: Note) -> int | None:
    """The write budget an entry's ``budget: <bodyChars>/<writeBudget>``
    records, read as the reference does (a ``^(\\d+)/(\\d+)`` prefix);
    ``None`` when absent, malformed or 0 (the configured default applies)."""
    m = _BUDGET_RE.match(note.budget or "")
    return int(m.group(2)) if m and int(m.group(2)) > 0 else None


def note_budget(note: Note, profile: str | None, caps: dict[str, int]) -> tuple[str, int] | None:
    """``(unit, limit)`` of a note's write budget: body code points, the
    entry's recorded budget else ``caps["write_budget"]`` else 4,000."""
    return "bodyChars", recorded_write_budget(note) or int(caps.get("write_budget", WRITE_BUDGET))


def budget_use(store: Store, files: dict[str, bytes], profile: str | None = None) -> dict[str, dict[str, Any]]:
    """Budget use of the files :func:`render` made (mm spec §6 names).

    Returns written path -> usage: a detail file ``{"bodyChars"`` (code
    points of the body), ``"writeBudget"``, ``"budgetUsedPct"`` (clamped to
    0..100 as the reference does), ``"noteBytes"``, ``"noteMaxBytes"}``;
    ``MEMORY.md`` :func:`mmlint.usage.index_usage` (lines, bytes, caps).
    """
    from mmlint.usage import index_usage

    paths = note_paths(store)
    out: dict[str, dict[str, Any]] = {}
    for note in store.notes:
        data = files.get(paths[note.path])
        if data is None:
            continue
        chars, budget = body_chars(note.body), recorded_write_budget(note) or WRITE_BUDGET
        out[paths[note.path]] = {"bodyChars": chars, "writeBudget": budget,
                                 "budgetUsedPct": max(0, min(100, int(chars * 100 / budget + 0.5))),
                                 "noteBytes": len(data), "noteMaxBytes": DETAIL_MAX_BYTES}
    if "MEMORY.md" in files:
        out["MEMORY.md"] = index_usage(files["MEMORY.md"], INDEX_CAPS["lines"], INDEX_CAPS["bytes"], len(store.notes))
    return out


def budget_overflows(store: Store, files: dict[str, bytes], profile: str | None = None) -> list:
    """Budget refusals (:class:`mmlint.usage.Refusal`) for writing
    ``store`` as mm into ``files``, in the spec's priority (§6, mm-reference
    §2.3): write budget (``E_WRITE_BUDGET_EXCEEDED``, code points), detail
    file cap (``E_FILE_BUDGET_EXCEEDED``, bytes), index caps
    (``E_INDEX_BUDGET_EXCEEDED``, lines and bytes, naming the notes past
    the cap). Usage carries the spec's metric names."""
    from mmlint.usage import Refusal, index_overflow

    use = budget_use(store, files)
    paths = note_paths(store)
    out = []
    for note in store.notes:
        u = use.get(paths[note.path])
        if u is None:
            continue
        chars, budget, size = u["bodyChars"], u["writeBudget"], u["noteBytes"]
        if chars > budget:
            out.append(Refusal("E_WRITE_BUDGET_EXCEEDED", note.path,
                               f"body is {chars} code points, over the {budget} write budget by {chars - budget}; compress or split the note",
                               "body", {"bodyChars": chars, "writeBudget": budget, "overflow": chars - budget}))
        if size > DETAIL_MAX_BYTES:
            out.append(Refusal("E_FILE_BUDGET_EXCEEDED", note.path,
                               f"detail file would be {size} bytes, over the {DETAIL_MAX_BYTES}-byte cap by {size - DETAIL_MAX_BYTES}; split or condense it",
                               "body", {"bodyChars": chars, "writeBudget": budget, "overflow": 0,
                                        "noteBytes": size, "noteMaxBytes": DETAIL_MAX_BYTES}))
    if "MEMORY.md" in files and use["MEMORY.md"]["overBudget"]:  # within the caps: no need to parse it here
        parsed = entry_starts(files["MEMORY.md"])  # entries' lines only: reading 20,000 entries would hold each one's fields
        by_topic = {topic_for(n): n.path for n in store.notes}
        starts = [line for line, _ in parsed] + [use["MEMORY.md"]["lines"] + 1]
        spans = [(line, nxt - 1, by_topic.get(topic, topic)) for (line, topic), nxt in zip(parsed, starts[1:])]
        # the lines a store from another dialect needs for values an mm entry has no field for
        carried = files["MEMORY.md"].count(b"\n- **" + carriers.PREFIX.encode())
        ov = index_overflow(files["MEMORY.md"], INDEX_CAPS["lines"], INDEX_CAPS["bytes"], spans, carried)
        if ov is not None:
            out.append(ov)
    return out


def reading(files: dict[str, bytes], profile: str | None = None):
    """The store ``files`` (POSIX path -> bytes) as the mm reference sees it
    (:func:`mmlint.dialects.mm_reading.reference`)."""
    from mmlint.dialects.mm_reading import reference

    return reference(files, profile)


def _updated_form(note: Note) -> str | None:
    """The ``updated`` an entry line holds: a converted note's in mm's form
    (:func:`native_form`), an mm note's as it is."""
    own = isinstance(note.layout, dict) and note.layout.get("entry") is not None
    return note.updated if own else native_form("updated", note.updated)

def native_form(fieldname: str, value, profile: str | None = None):
    """``value`` in the form an mm entry holds ``fieldname``: ``updated`` is an
    ISO date-time (mm-reference §1.9, :func:`mmlint.carriers.to_form`)."""
    return carriers.to_form(value, "datetime") if fieldname == "updated" else value
