"""The ``workspace`` dialect: per-workspace ``./memory/`` stores
(``specs/workspace-memory.md``, the dsh-bundle-memory plugin).

Notes are ``<title>.md`` files (spaces become ``-``) in the root or in
category folders at most 3 deep, with ``key: value`` frontmatter (``title``,
``tags`` as ``a, b``, ``created``, ``updated``). ``MEMORY.md`` is a projection
regenerated from the notes (``# 记忆索引``): hand edits to it carry no
meaning, so the reader takes nothing from it but the workspace and root paths
in its header, and the writer regenerates it whenever a note changed.
"""

from __future__ import annotations

import bisect
import os
import re

from mmlint._record import Record
from mmlint import carriers, resolve
from mmlint.dialects import Evidence, PathClaims, Unrepresentable, open_store, read_head, read_markdown_index, store_names
from mmlint.dialects import add_aux as _add_aux
from mmlint.dialects import _fmnote
from mmlint.model import EMPTY_DICT, Entry, Index, Note, Store
from mmlint.textutil import count_lines, decode, encode, lazy_re

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

NAME = "workspace"
PROFILES: tuple[str, ...] = ()
DEFAULT_PROFILE = None

#: The plugin writes no caps for the index; these are the note limits.
INDEX_CAPS: dict[str, int] = {}
#: ``maxEntryBytes`` default (bytes of one note body), spec "Settings".
MAX_ENTRY_BYTES = 262144
MAX_CATEGORY_DEPTH = 3
MAX_SEGMENT = 64
INDEX_TITLE = "记忆索引"
UNCATEGORIZED = "未分类"
GENERATED_NOTE = "> 本文件由 dsh-bundle-memory 自动生成，手工改动会在下次保存记忆时被覆盖。"

KEYMAP = {"title": "title", "tags": "tags", "created": "created", "updated": "updated"}
#: The plugin writes dates as ISO date-times (spec "The shape of one memory").
FORMS = {"created": "datetime", "updated": "datetime"}
ORDER = ("title", "tags", "created", "updated")

_WINDOWS_ILLEGAL = set('\\/:*?"<>|')
_RESERVED = {"CON", "PRN", "AUX", "NUL"} | {f"COM{i}" for i in range(1, 10)} | {f"LPT{i}" for i in range(1, 10)}


def segment_problem(seg: str) -> str | None:
    """Why ``seg`` is not a safe path segment (spec "Path safety" layer 1),
    or ``None``. Length is counted in code points."""
    if seg in ("", ".", ".."):
        return "is empty, not a name" if not seg else "is a path step ('.' or '..'), not a name"
    bad = sorted({c for c in seg if c in _WINDOWS_ILLEGAL})
    if bad:
        return "contains " + " ".join(repr(c) for c in bad) + " (path separators or characters Windows forbids)"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in seg):
        return "contains a control character"
    if seg.split(".")[0].upper() in _RESERVED:
        return f"{seg.split('.')[0]!r} is a reserved Windows device name"
    if seg[-1] in ". ":
        return "ends with a dot or a space"
    if len(seg) > MAX_SEGMENT:
        return f"is {len(seg)} characters long (at most {MAX_SEGMENT})"
    return None


def schema_name(profile: str | None = None) -> str:
    """The JSON Schema a note's frontmatter is validated with (``schemas/``)."""
    return "workspace.note"


def owns_path(rel: str, profile: str | None = None) -> bool:
    """True when the workspace reader takes the file at store-relative
    ``rel`` for part of the store: every ``*.md`` (the index included) outside
    :data:`mmlint.carriers.AUX_DIR`, and the index-lines carrier file."""
    return (rel.endswith(".md") and not carriers.is_parked(rel)) or rel in (carriers.INDEX_LINES_FILE, carriers.ORIGIN_FILE)


def human_size(n: int) -> str:
    """Sizes as the projection shows them: ``420 B``, ``1.1 KB``, ``2.0 MB``."""
    if n < 1024:
        return f"{n} B"
    if n < 1024 * 1024:
        return f"{n / 1024:.1f} KB"
    return f"{n / (1024 * 1024):.1f} MB"


# ---------------------------------------------------------------- detection


_TITLE_RE = re.compile(r"^title:", re.M)


def detect(root: str) -> Evidence | None:
    """Evidence that ``root`` is a workspace store (``# 记忆索引``, categories).

    Only regular files inside the root are read, each for a bounded prefix
    (:func:`mmlint.dialects.read_head`)."""
    reasons = []
    score = 0
    index = os.path.join(root, "MEMORY.md")
    head = read_head(root, index, 4096)
    if head:
        if head.startswith("# " + INDEX_TITLE):
            score += 12
            reasons.append(f"MEMORY.md starts with '# {INDEX_TITLE}'")
        if "dsh-bundle-memory" in head:
            score += 3
            reasons.append("MEMORY.md names dsh-bundle-memory")
    titled = 0
    sampled = 0
    for n in store_names(root) or ():
        if sampled == 40:  # the first 40 .md names decide (mostly the notes engramory's sample read: read once)
            break
        if n.endswith(".md") and n != "MEMORY.md":
            sampled += 1
            text = read_head(root, os.path.join(root, n), 2048)
            if text.startswith("---") and _TITLE_RE.search(text):
                titled += 1
    if titled:
        score += min(4, titled)
        reasons.append(f"{titled} note(s) carry 'title:' frontmatter")
    if os.path.basename(os.path.normpath(root)) == "memory" and score:
        score += 1
        reasons.append("the folder is named memory/")
    return Evidence(NAME, None, score, reasons) if score else None


# ---------------------------------------------------------------- reading


class IndexLayout(Record):
    """The projection as read, with the note state it was compared against."""

    _fields = ("bom", "text", "read")

    def __init__(self, bom: bool, text: str, read: dict[str, tuple]) -> None:
        self.bom = bom
        self.text = text
        self.read = read


#: The generated header's count line (``- 共 12 条记忆``).
_COUNT_LINE = lazy_re(r"^- 共 (\d+) 条记忆$")


def read_index(path: str, data: bytes) -> Index:
    """Parse the projection: header paths and one entry per listed note."""
    from mmlint import markdown

    dec = decode(data)
    text = dec.text
    idx = Index(path=path, text=text, size_bytes=len(data), line_count=count_lines(text), bom=dec.bom,
                newline=dec.newline or "\n")
    parsed = markdown.outline(text)
    idx.headings = list(parsed.headings)
    for _, level, heading in idx.headings:
        if level == 1:
            idx.header.setdefault("title", heading)
    for raw in text.split("\n"):
        line = raw.rstrip("\r")
        for label, key in (("- 工作区：", "workspace"), ("- 记忆根目录：", "root")):
            if line.startswith(label):
                idx.header[key] = line[len(label):].strip().strip("`")
        m = _COUNT_LINE.match(line)
        if m:
            idx.header["count"] = m.group(1)
    sections = sorted((h[0], h[2]) for h in idx.headings if h[1] == 2)
    starts = [line_no for line_no, _ in sections]
    for link in parsed.links:
        if link.kind != "link":
            continue
        # the last level-2 heading above the link's line (bisect: linear in links + sections)
        at = bisect.bisect_left(starts, link.line)
        section = sections[at - 1][1] if at else None
        dest = link.dest
        target = dest[2:] if dest.startswith("./") else dest
        idx.entries.append(Entry.on_line(path, link.line, dest, target, link.text, None, section, "projection",
                                         link.column, link.column + len(dest), EMPTY_DICT))
    return idx


def read(root: str, profile: str | None = None, tree: dict[str, bytes] | None = None) -> Store:
    """Read the workspace store at ``root`` (the ``memory/`` folder); with
    ``tree`` (path -> bytes), read those files instead of the disk
    (:func:`mmlint.dialects.open_store`)."""
    store, files = open_store(root, NAME, owns=owns_path, tree=tree)
    for rel, rec in files:
        if rel == "MEMORY.md":
            rec.kind = "index"
            store.index = read_markdown_index(rel, rec.data or b"", store, read_index)
            continue
        if rel == carriers.INDEX_LINES_FILE:
            rec.kind = "carrier"
            continue
        if rel == carriers.ORIGIN_FILE:
            store.origin = carriers.read_origin(rec.data)
            rec.kind = "carrier" if store.origin is not None else "aux"
            continue
        if not owns_path(rel):
            rec.kind = "aux"
            continue
        rec.kind = "note"
        parts = rel.split("/")
        note, problems = _fmnote.read_note(rel, rec.data or b"", KEYMAP, NAME, parts[-1][:-3], tuple(parts[:-1]), raw=True)
        if note.title is not None and note.title == note.derived_title():
            note.title = None  # the title the plugin would show anyway (Note.derived_title)
            note.layout.set_read("title", None)
        store.notes.append(note)
        store.problems.extend(problems)
    carrier = store.files.get(carriers.INDEX_LINES_FILE)
    if carrier is not None and carrier.kind == "carrier" and carrier.data is not None:
        if store.index is None:
            store.index = Index(path="MEMORY.md")
        store.index.loose = [(0, line) for line in carriers.read_lines_file(carrier.data)]
    resolve.resolve_entries(store)
    if store.index is not None:
        for e in store.index.entries:
            note = store.note_at(e.credits) if e.credits else None
            if note is not None and note.entry is None:
                note.entry = e
        store.index.layout = IndexLayout(store.index.bom, store.index.text, _state(store))
    return store


def _state(store: Store) -> dict[str, tuple]:
    return {n.path: (n.title, tuple(n.tags or ()), n.updated, n.created, n.body) for n in store.notes}


# ---------------------------------------------------------------- writing


def note_path(note: Note) -> str:
    """``<category>/<slug>.md`` (the note's own path when read as workspace)."""
    lay = note.layout
    if isinstance(lay, _fmnote.NoteLayout) and lay.dialect == NAME:
        return note.path
    return "/".join(note.category + (note.slug + ".md",))


def note_paths(store: Store, profile: str | None = None) -> dict[str, str]:
    """Source note path -> the path :func:`render` writes it at (:func:`note_path`).

    Raises:
        Unrepresentable: two notes on one path, or on paths that differ only
            by case or Unicode normalisation.
    """
    claims = PathClaims()
    origin = carriers.origin_for(store, NAME, None)
    out = {}
    for n in store.notes:
        rec = carriers.origin_note(origin, n)
        out[n.path] = claims.claim(rec["path"] if rec is not None else note_path(n), n.path)
    return out


def render(store: Store, profile: str | None = None) -> dict[str, bytes]:
    """The files of ``store`` written as workspace (no I/O).

    Raises:
        Unrepresentable: a file or category name that breaks the segment
            rules, a category deeper than 3, or a value the frontmatter
            grammar cannot hold.
    """
    out: dict[str, bytes] = {}
    paths = note_paths(store)
    origin = carriers.origin_for(store, NAME, None)
    for note in store.notes:
        path = paths[note.path]
        rec = carriers.origin_note(origin, note)
        if rec is not None:  # back where it came from, with the same values: its own bytes
            carriers.unfill(note, rec)
            out[path] = carriers.rebuild(rec, note.body)
            continue
        if store.dialect != NAME:
            if len(note.category) > MAX_CATEGORY_DEPTH:
                raise Unrepresentable(note.path, "category", f"{len(note.category)} folders deep (at most {MAX_CATEGORY_DEPTH})")
            for seg in note.category + (note.slug,):
                why = segment_problem(seg)
                if why:
                    raise Unrepresentable(note.path, "slug" if seg == note.slug else "category", f"name {seg!r} {why}")
        out[path] = _fmnote.render_note(note, KEYMAP, NAME, ORDER, carry=_fmnote.path_carry(note, path), raw=True,
                                        forms=FORMS if store.dialect != NAME else None)
    orphan_lines = store.files.get(carriers.INDEX_LINES_FILE) if store.dialect == NAME and "MEMORY.md" not in store.files else None
    if orphan_lines is not None and orphan_lines.data is not None:
        out[carriers.INDEX_LINES_FILE] = orphan_lines.data  # a carrier file without its index: kept, no index invented
    elif store.index is not None or store.dialect != NAME:
        out["MEMORY.md"] = carriers.origin_index(origin, store) or render_index(store, out)
        loose = [text for _, text in store.index.loose] if store.index is not None else []
        kept = store.files.get(carriers.INDEX_LINES_FILE)
        if store.dialect == NAME and kept is not None and kept.data is not None and carriers.read_lines_file(kept.data) == loose:
            out[carriers.INDEX_LINES_FILE] = kept.data  # the index lines did not change: the file stays as read
        elif loose:
            out[carriers.INDEX_LINES_FILE] = carriers.lines_file(loose)
    if store.origin is not None and origin is None:
        out[carriers.ORIGIN_FILE] = carriers.origin_file(store.origin)
    _add_aux(store, out, owns_path)
    return out


def origin_layouts(store: Store) -> tuple[dict[str, tuple[str, bool, str, bool]], bool]:
    """The layout of each unchanged note for :func:`mmlint.carriers.make_origin`
    (:func:`mmlint.dialects._fmnote.origin_layouts`), and whether the
    projection was made from the notes as they are."""
    idx = store.index
    lay = idx.layout if idx is not None and isinstance(idx.layout, IndexLayout) else None
    return _fmnote.origin_layouts(store), lay is not None and _state(store) == lay.read


def render_index(store: Store, files: dict[str, bytes]) -> bytes:
    """The projection: the original text while no note changed, else the
    index the plugin would generate from ``files`` (:func:`project_index`)."""
    idx = store.index
    lay = idx.layout if idx is not None and isinstance(idx.layout, IndexLayout) else None
    if lay is not None and store.dialect == NAME and _state(store) == lay.read:
        return encode(lay.text, lay.bom)
    return project_index(store, files)


_GENERATED_HEADER = lazy_re(r"^- (工作区：.*|记忆根目录：.*|共 \d+ 条记忆)$")


def generated_shape(line: str) -> bool:
    """Whether an index line (without its line break) has the shape of a line
    the plugin generates, besides an entry line: blank, the ``# 记忆索引``
    title, the generated notice, a header item (workspace, root, count) or a
    ``## `` section heading. Any other line that holds no entry was written by
    hand, and the plugin's next save discards it (spec, "The index is a
    projection")."""
    return (not line.strip() or line in (f"# {INDEX_TITLE}", GENERATED_NOTE) or line.startswith("## ")
            or _GENERATED_HEADER.match(line) is not None)


def project_index(store: Store, files: dict[str, bytes]) -> bytes:
    """``MEMORY.md`` as the plugin generates it: header, then one section
    per category (root notes first as ``未分类``), notes sorted by path, each
    line ``- [title](./path) — tags · date · size``; sizes come from
    ``files`` (path -> the note's bytes). Keeps the workspace and root paths
    of the current header."""
    idx = store.index
    header = idx.header if idx is not None else {}
    workspace = header.get("workspace", ".")
    root = header.get("root", "memory")
    lines = [f"# {INDEX_TITLE}", "", GENERATED_NOTE, "", f"- 工作区：`{workspace}`", f"- 记忆根目录：`{root}`",
             f"- 共 {len(store.notes)} 条记忆", ""]
    groups: dict[tuple[str, ...], list[Note]] = {}
    for note in store.notes:
        groups.setdefault(note.category, []).append(note)
    for cat in sorted(groups, key=lambda c: (len(c) > 0, c)):
        lines.append(f"## {'/'.join(cat) + '/' if cat else UNCATEGORIZED}")
        lines.append("")
        for note in sorted(groups[cat], key=lambda n: note_path(n)):
            path = note_path(note)
            title = note.title or note.slug
            parts = []
            if note.tags:
                parts.append(" — " + ", ".join(note.tags))
            date = (note.updated or note.created or "")[:10]
            meta = [m for m in (date, human_size(len(files.get(path, b"")))) if m]
            lines.append(f"- [{title}](./{path})" + (parts[0] if parts else "") + " · " + " · ".join(meta))
        lines.append("")
    return encode("\n".join(lines).rstrip("\n") + "\n")


def note_budget(note: Note, profile: str | None, caps: dict[str, int]) -> tuple[str, int] | None:
    """``(unit, limit)`` of a note's size limit: body bytes, ``maxEntryBytes``
    (262,144, or ``caps["entry_bytes"]``)."""
    return "bodyBytes", int(caps.get("entry_bytes", MAX_ENTRY_BYTES))


def budget_use(store: Store, files: dict[str, bytes], profile: str | None = None) -> dict[str, dict[str, Any]]:
    """Budget use of the files :func:`render` made: written path ->
    ``{"bodyBytes", "maxEntryBytes"}`` (UTF-8 bytes of the body against the
    plugin's ``maxEntryBytes``) for a note, ``{"lines", "bytes"}`` for the
    projection ``MEMORY.md`` (the plugin sets no index cap)."""
    out: dict[str, dict[str, Any]] = {}
    paths = note_paths(store)
    for note in store.notes:
        out[paths[note.path]] = {"bodyBytes": len(note.body.encode("utf-8", "surrogateescape")), "maxEntryBytes": MAX_ENTRY_BYTES}
    if "MEMORY.md" in files:
        data = files["MEMORY.md"]
        out["MEMORY.md"] = {"lines": count_lines(data.decode("utf-8", "surrogateescape")), "bytes": len(data)}
    return out


def budget_overflows(store: Store, files: dict[str, bytes], profile: str | None = None) -> list:
    """Refusals (:class:`mmlint.usage.Refusal`) for writing ``store`` as
    workspace: a note body over ``maxEntryBytes`` (262,144 bytes, spec
    "Settings") is ``E_FILE_BUDGET_EXCEEDED``."""
    from mmlint.usage import Refusal

    paths = note_paths(store)
    use = budget_use(store, files)
    out = []
    for note in store.notes:
        size = use[paths[note.path]]["bodyBytes"]
        if size > MAX_ENTRY_BYTES:
            out.append(Refusal("E_FILE_BUDGET_EXCEEDED", note.path,
                               f"body is {size} bytes, over maxEntryBytes {MAX_ENTRY_BYTES} by {size - MAX_ENTRY_BYTES}; split the note",
                               "body", {"bodyBytes": size, "maxEntryBytes": MAX_ENTRY_BYTES}))
    return out


def reading(files: dict[str, bytes], profile: str | None = None):
    """The store ``files`` (POSIX path -> bytes) as the workspace plugin sees
    it (:func:`mmlint.dialects.workspace_reading.plugin`)."""
    from mmlint.dialects.workspace_reading import plugin

    return plugin(files, profile)


def native_form(fieldname: str, value, profile: str | None = None):
    """``value`` in the form the plugin holds ``fieldname`` (:data:`FORMS`)."""
    return carriers.to_form(value, FORMS.get(fieldname))
