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
from dataclasses import dataclass, field
from typing import Any

from mmlint import carriers
from mmlint.dialects import Evidence, PathClaims, Unrepresentable, open_store, read_head
from mmlint.model import NOTE_FIELDS, Entry, Index, Note, Problem, Span, Store
from mmlint.textutil import apply_newline, count_lines, decode, encode, to_lf

NAME = "mm"
PROFILES: tuple[str, ...] = ()
DEFAULT_PROFILE = None

#: Defaults from the reference's ``src/types.ts`` (mm-reference §0).
INDEX_CAPS = {"lines": 200, "bytes": 25600}
DETAIL_MAX_BYTES = 65536
WRITE_BUDGET = 4000
TOPIC_MAX = 64
TOPIC_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\Z")
DETAIL_DIR = "memories"

KNOWN_KEYS = ("summary", "tags", "file", "updated", "budget")
#: Model fields native to mm entries (``file`` is the note path).
NATIVE_FIELDS = ("summary", "tags", "updated", "budget", "entry_body")

_HEADING_RE = re.compile(r"^##\s+\S")
_HEADER_META_RE = re.compile(r"^>\s*(\S+?):\s*(.*)$")
_ENTRY_KEY_RE = re.compile(r"^-\s*\*\*([A-Za-z0-9_.-]+):\*\*\s*(.*)$")
_NOTE_TITLE_RE = re.compile(r"^#\s+(.+)$")
_NOTE_META_RE = re.compile(r"^>\s*(mm-[A-Za-z0-9_-]+):\s*(.*)$")
_TAG_SPLIT_RE = re.compile(r"[,，;；]")
_BOILERPLATE = (
    re.compile(r"^Memory Standard Index — hand-load priority; managed by dsh-memory-standard\.$"),
    re.compile(r"^Hard caps: \d+ lines / \d+ bytes\. Over budget => rewrite \(never truncate\)\.$"),
)


def valid_topic(topic: str) -> bool:
    """The mm topic grammar (spec §1): ``^[A-Za-z0-9][A-Za-z0-9._-]*$``, <= 64 chars."""
    return 0 < len(topic) <= TOPIC_MAX and TOPIC_RE.match(topic) is not None


def body_chars(body: str) -> int:
    """Body size in code points as the reference measures a stored note: the
    body it reads back, without the newlines that open and close it (it
    writes a final newline after every body)."""
    return len(body.strip("\n"))


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


def detect(root: str) -> Evidence | None:
    """Evidence that ``root`` is an mm store (``> mm-*:`` headers, ``memories/``)."""
    reasons = []
    score = 0
    index = os.path.join(root, "MEMORY.md")
    if os.path.isfile(index):
        head = read_head(index)
        if re.search(r"^>\s*mm-(kind|version|id):", head, re.M):
            score += 12
            reasons.append("MEMORY.md has '> mm-*:' header lines")
        if re.search(r"^- \*\*(summary|file):\*\*", head, re.M):
            score += 4
            reasons.append("MEMORY.md has '- **summary:**' / '- **file:**' entry lines")
    detail = os.path.join(root, DETAIL_DIR)
    if os.path.isdir(detail):
        try:
            names = sorted(n for n in os.listdir(detail) if n.endswith(".md"))[:50]
        except OSError:
            names = []
        hits = 0
        for n in names:
            try:
                with open(os.path.join(detail, n), "rb") as fh:
                    if b"> mm-" in fh.read(2048):
                        hits += 1
            except OSError:
                continue
        if hits:
            score += 5
            reasons.append(f"{DETAIL_DIR}/ holds {hits} note(s) with '> mm-*:' headers")
    return Evidence(NAME, None, score, reasons) if score else None


# ---------------------------------------------------------------- reading


@dataclass
class EntryLayout:
    """Raw lines of one ``## topic`` section and what was read from them."""

    heading: str
    lines: list[str]
    read: dict[str, Any] = field(default_factory=dict)


@dataclass
class IndexLayout:
    """What the reader saw in ``MEMORY.md`` (for byte-exact rewriting)."""

    bom: bool
    text: str
    read: dict[str, Any]
    prose: list[tuple[int, str]]
    header: dict[str, str]


@dataclass
class NoteLayout:
    """A detail file's header lines and body as read."""

    bom: bool
    newline: str
    header_raw: str
    body: str
    meta: dict[str, str]
    title: str | None
    data: bytes


def _strip_cr(line: str) -> str:
    return line[:-1] if line.endswith("\r") else line


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
        if _HEADING_RE.match(line):
            topic = line[2:].strip()
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
                idx.loose.append((i, line))
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
            elif key == carriers.FIELD_KEYS["slug"]:
                cur["slug"] = value
                cur["spans"]["slug"] = span
            elif (back := carriers.restore(key, value)) is not None:
                target = cur["fields"] if back[0] == "field" else cur["extra"]
                target[back[1]] = back[2]
                cur["spans"][back[1] if back[0] == "field" else "extra:" + back[1]] = span
            else:
                cur["extra"][key] = value
                cur["spans"]["extra:" + key] = span
            continue
        cur["body"].append(line)
    for ent in entries:
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


def read(root: str, profile: str | None = None) -> Store:
    """Read the mm store at ``root`` (never raises for bad input)."""
    store, files = open_store(root, NAME)
    entries: list[dict[str, Any]] = []
    for rel, rec in files:
        if rel == "MEMORY.md":
            rec.kind = "index"
            store.index, entries, problems = read_index(rel, rec.data or b"")
            store.problems.extend(problems)
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
        if not missing and path not in claimed:
            rec.kind = "note"
            claimed.add(path)
            lay = read_note_text(rec.data or b"")
            note.body = to_lf(lay.body)
        note.layout = {"entry": ent, "note": lay, "missing": missing, "read": _entry_fields(note)}
        store.notes.append(note)
    for rel, rec in store.files.items():
        if rec.kind == "aux" and rel.startswith(DETAIL_DIR + "/") and rel.endswith(".md") and rel not in claimed:
            rec.kind = "note"
            lay = read_note_text(rec.data or b"")
            slug = rel[len(DETAIL_DIR) + 1 : -3]
            note = Note(path=rel, slug=slug, body=to_lf(lay.body))
            note.layout = {"entry": None, "note": lay, "missing": False, "read": _entry_fields(note)}
            store.notes.append(note)
    if store.index is not None:
        store.index.layout = IndexLayout(store.index.bom, store.index.text,
                                         {n.slug: n.layout["read"] for n in store.notes if n.layout["entry"] is not None},
                                         list(store.index.loose), dict(store.index.header))
    return store


def _entry_fields(note: Note) -> dict[str, Any]:
    d = note.fields()
    d["extra"] = dict(note.extra)
    d["path"] = note.path
    d["category"] = note.category
    d["slug"] = note.slug
    return d


# ---------------------------------------------------------------- writing


def topic_for(note: Note) -> str:
    """The topic a note is written under: its own when read as mm, its slug
    when that is a valid topic, else :func:`mmlint.carriers.ascii_slug`."""
    lay = note.layout
    if isinstance(lay, dict) and lay.get("entry") is not None:
        return lay["entry"]["topic"]
    return note.slug if note.slug.isascii() else carriers.ascii_slug(note.slug)


def note_path(note: Note) -> str:
    """Where the note is written: its own path when read as mm, else
    ``memories/<topic>.md``."""
    if isinstance(note.layout, dict) and "entry" in note.layout:
        return note.path
    return f"{DETAIL_DIR}/{topic_for(note)}.md"


def render(store: Store, profile: str | None = None) -> dict[str, bytes]:
    """The files of ``store`` written as mm (no I/O).

    Raises:
        Unrepresentable: a slug that is not a valid topic, an entry without a
            detail file in a store from another dialect, or a value that
            cannot sit on one index line.
    """
    out: dict[str, bytes] = {}
    memory_id = "local"
    if store.index is not None and store.dialect == NAME:
        memory_id = store.index.header.get("mm-id", "local") or "local"
    claims = PathClaims()
    for note in store.notes:
        topic = topic_for(note)
        if not valid_topic(topic) and store.dialect != NAME:
            raise Unrepresentable(note.path, "slug", f"{topic!r} is not a valid mm topic (letters, digits, '.', '_', '-'; at most 64)")
        lay = note.layout if isinstance(note.layout, dict) and "entry" in note.layout else None
        if lay is not None and lay["missing"]:
            continue
        path = claims.claim(note_path(note), note.path)
        nl: NoteLayout | None = lay["note"] if lay is not None else None
        if nl is not None and note.body == to_lf(nl.body):
            out[path] = nl.data
        elif nl is not None:
            out[path] = encode(nl.header_raw + apply_newline(note.body, nl.newline), nl.bom)
        else:
            out[path] = encode(render_note_text(topic, memory_id, path, note.body))
    if store.index is not None or store.dialect != NAME:
        out["MEMORY.md"] = render_index(store, memory_id)
    for path, data in store.aux_files().items():
        if path in out:
            raise Unrepresentable(path, "aux", "an auxiliary file has the same path as a note")
        out[path] = data
    return out


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
    for _, text in (idx.loose if idx is not None else []):
        if _HEADING_RE.match(text) or _HEADER_META_RE.match(text):
            raise Unrepresentable("MEMORY.md", "index_lines", f"index line {text[:60]!r} cannot sit in an mm index header")
        head.append(text)
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
        lines.append(f"- **updated:** {_line_value(note, 'updated', note.updated)}")
    if note.budget is not None:
        lines.append(f"- **budget:** {_line_value(note, 'budget', note.budget)}")
    for f in NOTE_FIELDS:
        value = getattr(note, f)
        if f in NATIVE_FIELDS or value is None:
            continue
        lines.append(f"- **{carriers.FIELD_KEYS[f]}:** {carriers.encode_value(value)}")
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


_BUDGET_RE = re.compile(r"^(\d+)/(\d+)")


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


def budget_overflows(store: Store, files: dict[str, bytes], profile: str | None = None) -> list:
    """Budget refusals for writing ``store`` as mm (mm spec §6), in the
    spec's priority: write budget (code points), detail file cap (bytes),
    index caps (lines, bytes)."""
    from mmlint.convert import Refusal, index_overflow

    out = []
    for note in store.notes:
        chars = body_chars(note.body)
        budget = recorded_write_budget(note) or WRITE_BUDGET
        if chars > budget:
            out.append(Refusal("E_WRITE_BUDGET_EXCEEDED", note.path,
                               f"body is {chars} code points, over the {budget} write budget by {chars - budget}; compress or split the note",
                               "body", {"bodyChars": chars, "writeBudget": budget, "overflow": chars - budget}))
        data = files.get(note_path(note))
        if data is not None and len(data) > DETAIL_MAX_BYTES:
            out.append(Refusal("E_FILE_BUDGET_EXCEEDED", note.path,
                               f"detail file would be {len(data)} bytes, over the {DETAIL_MAX_BYTES}-byte cap by {len(data) - DETAIL_MAX_BYTES}; split or condense it",
                               "body", {"bodyChars": chars, "writeBudget": budget, "overflow": 0,
                                        "noteBytes": len(data), "noteMaxBytes": DETAIL_MAX_BYTES}))
    if "MEMORY.md" in files:
        ov = index_overflow(files["MEMORY.md"], INDEX_CAPS["lines"], INDEX_CAPS["bytes"], len(store.notes))
        if ov is not None:
            out.append(ov)
    return out
