"""The ``engramory`` dialect: a flat folder of notes with frontmatter and a
``MEMORY.md`` of one-line pointers.

Profiles (``../shared/DESIGN.md``):

* ``recall-v1``: the seed spec ``specs/engramory-recall-v1.zh.md``:
  ``<type>-<slug>.md`` names, optional dates, ``aliases``, ``confidence``,
  ``<slug>-history.md`` archives, ``.engramory-*.jsonl`` ledgers.
* ``upstream``: tinqiao-oss/engramory: ``<slug>.md``, ``created``/``updated``
  required, ``archive/`` and ``templates/`` outside the note graph.
* ``claude-code``: Claude Code's auto-memory: fields often under
  ``metadata:``, ``a_b.md`` files named ``a-b``, type-prefixed names.

Index pointers are read with markdown-it (:mod:`mmlint.markdown`).
"""

from __future__ import annotations

import bisect
import os
import posixpath
import re
from collections import Counter

from mmlint._record import Record
from mmlint import carriers, markdown, resolve
from mmlint.dialects import Evidence, PathClaims, Unrepresentable, is_store_file, open_store, read_head, read_markdown_index, store_names
from mmlint.dialects import add_aux as _add_aux
from mmlint.dialects import _fmnote
from mmlint.model import EMPTY_DICT, Entry, Index, Note, Store
from mmlint.textutil import count_lines, decode, encode, lazy_re

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

NAME = "engramory"
PROFILES = ("recall-v1", "upstream", "claude-code")
DEFAULT_PROFILE = "claude-code"
TYPES = ("user", "feedback", "project", "reference")
#: ASCII punctuation that markdown may read as markup in link text; the
#: writer escapes it with a backslash so the reader gets the text back.
_MD_PUNCT_RE = lazy_re(r"[\\`*_\[\]<>&!#~|]")
#: The title a written index gets (upstream template, seed spec §1).
INDEX_TITLE = "Memory Index"

#: Index caps per profile: hard lines/bytes, soft lines/bytes (``None``: no
#: soft tier), and Claude Code's load window for ``claude-code``.
INDEX_CAPS: dict[str, dict[str, int | None]] = {
    "recall-v1": {"lines": 200, "bytes": 25600, "soft_lines": None, "soft_bytes": None},
    "upstream": {"lines": 200, "bytes": 25600, "soft_lines": 150, "soft_bytes": 20480},
    "claude-code": {"lines": 200, "bytes": 25000, "soft_lines": None, "soft_bytes": None},
}
#: recall-v1 limits (spec §6): note bytes, note count.
NOTE_MAX_BYTES = 4 * 1024 * 1024
MAX_NOTES = 2000

KEYMAP = {
    "name": "name",
    "description": "summary",
    "type": "type",
    "scope": "scope",
    "created": "created",
    "updated": "updated",
    "aliases": "aliases",
    "confidence": "confidence",
    "tags": "tags",
}
#: Model fields a converted note must have, per profile (model field ->
#: frontmatter key): the seed spec §2 and Claude Code require name,
#: description and type (``name`` is filled, see :func:`fills`); upstream
#: also requires the dates (``research/engramory-reference.md`` §1.4).
REQUIRED: dict[str, dict[str, str]] = {
    "recall-v1": {"summary": "description", "type": "type"},
    "upstream": {"summary": "description", "type": "type", "created": "created", "updated": "updated"},
    "claude-code": {"summary": "description", "type": "type"},
}
#: recall-v1 file names (seed spec §2): ``[a-z0-9-]+\.md``, prefixed by the type.
_RECALL_NAME_RE = lazy_re(r"^[a-z0-9]+(?:-[a-z0-9]+)*\Z")
_RECALL_JUNK_RE = lazy_re(r"[^a-z0-9-]+")

#: The date form each profile's notes want (seed spec §2 and the upstream
#: doctor: ``YYYY-MM-DD``; Claude Code sets none): a converted ISO date-time
#: is written as its date, the original in its carrier.
FORMS: dict[str, dict[str, str]] = {"recall-v1": {"created": "date", "updated": "date"},
                                    "upstream": {"created": "date", "updated": "date"}, "claude-code": {}}

#: Model fields this dialect keeps in the index, not in note frontmatter.
INDEX_FIELDS = ("title", "index_hook", "index_section")
ORDER = ("name", "description", "type", "scope", "created", "updated", "tags", "aliases", "confidence")

#: Top-level folders outside the note graph (upstream §1.6), compared case-folded.
SKIP_TOP = frozenset({"archive", "templates"})
_LEDGER_RE = lazy_re(r"^\.engramory-[a-z0-9-]+\.jsonl$")  # compiled for a name with its prefix (is_ledger)


def is_note_name(name: str) -> bool:
    """A note file: ``*.md`` (any case), not the index itself."""
    return name.lower().endswith(".md") and name != "MEMORY.md"


def owns_path(rel: str, profile: str | None = None) -> bool:
    """True when the engramory reader (``profile``) takes the file at
    store-relative ``rel`` for the index or a note: ``MEMORY.md``, and every
    ``*.md`` except a top-level ``README.md``, those under ``archive/``,
    ``templates/`` (top level, any case) and :data:`mmlint.carriers.AUX_DIR`,
    and recall-v1 ``-history.md`` archives."""
    if rel in ("MEMORY.md", carriers.ORIGIN_FILE):
        return True
    name = rel.rsplit("/", 1)[-1]
    top = rel.split("/", 1)[0].lower() if "/" in rel else ""
    if not is_note_name(name) or top in SKIP_TOP or carriers.is_parked(rel) or rel.lower() == "readme.md":
        return False
    return not ((profile or DEFAULT_PROFILE) == "recall-v1" and name.endswith("-history.md"))


def recall_file_name(name: str) -> bool:
    """A file name the recall-v1 seed spec §2 allows: ``[a-z0-9-]+\\.md``."""
    return name.endswith(".md") and len(name) > 3 and all(c in "abcdefghijklmnopqrstuvwxyz0123456789-" for c in name[:-3])


def is_ledger(name: str) -> bool:
    """A recall-v1 ledger file name (seed spec §4): ``.engramory-<name>.jsonl``."""
    return name.startswith(".engramory-") and _LEDGER_RE.match(name) is not None


def is_history(rel: str) -> bool:
    """A recall-v1 ``<slug>-history.md`` archive (seed spec §3): never
    checked as a note, whatever the profile (it holds a note's old sections)."""
    return rel.endswith("-history.md")


def history_main(rel: str) -> str | None:
    """The main note of a history archive (``a-history.md`` -> ``a.md``), else ``None``."""
    return rel[: -len("-history.md")] + ".md" if is_history(rel) else None


def outside_graph(rel: str) -> bool:
    """A path under a top-level folder outside the note graph
    (:data:`SKIP_TOP`, compared case-folded: upstream §1.6)."""
    return "/" in rel and rel.split("/", 1)[0].lower() in SKIP_TOP


def expected_aux(rel: str, profile: str | None = None) -> bool:
    """A file the engramory tools keep beside the notes that is not a note
    and holds no memory: ledgers and state files (``.engramory-*.jsonl``,
    ``.engramory-*.json``), a top-level ``README.md``, anything under
    ``archive/`` or ``templates/``."""
    name = rel.rsplit("/", 1)[-1]
    state = name.startswith(".engramory-") and name.endswith(".json") and _LEDGER_RE.match(name[:-5] + ".jsonl") is not None
    return outside_graph(rel) or is_ledger(name) or state or rel.lower() == "readme.md"


def schema_name(profile: str | None) -> str:
    """The JSON Schema a note's frontmatter is validated with (``schemas/``)."""
    return f"engramory-{profile or DEFAULT_PROFILE}.note"


def slug_of(path: str) -> str:
    """The file stem of a note path: ``sub/feedback_a_b.md`` -> ``feedback_a_b``."""
    base = path.rsplit("/", 1)[-1]
    return base[:-3] if base.lower().endswith(".md") else base


# ---------------------------------------------------------------- detection


#: Detection patterns: each is linear (no nested or overlapping repetition;
#: ``[ \t]*`` rather than ``\s*`` after ``^`` so that a match never spans lines).
_POINTER_DEST_RE = re.compile(r"\]\(([^)\s]*)")
_FM_FIELD_RE = re.compile(r"^[ \t]*(?:name|description|type):", re.M)
_FM_NESTED_RE = re.compile(r"^metadata:", re.M)
_FM_CREATED_RE = re.compile(r"^[ \t]*created:", re.M)
_FM_UPDATED_RE = re.compile(r"^[ \t]*updated:", re.M)


def _has_md_pointer(head: str) -> bool:
    """True when some ``](dest`` in ``head`` has ``.md`` after its first
    character (case-insensitive); one linear scan (each match ends where
    the next search starts)."""
    return any(".md" in m.group(1)[1:].lower() for m in _POINTER_DEST_RE.finditer(head))


def detect(root: str) -> Evidence | None:
    """Evidence that ``root`` is an engramory store, with a profile guess.

    Only regular files inside the root are read, each for a bounded prefix
    (:func:`mmlint.dialects.read_head`)."""
    index = os.path.join(root, "MEMORY.md")
    names = store_names(root)
    if names is None:
        return None
    notes = []  # the first 40 notes decide (see the sample below)
    for n in names:
        if len(notes) == 40:
            break
        if is_note_name(n) and is_store_file(root, os.path.join(root, n)):
            notes.append(n)
    reasons: list[str] = []
    score = 0
    if is_store_file(root, index):
        head = read_head(root, index)
        if _has_md_pointer(head):
            score += 5
            reasons.append("MEMORY.md holds markdown pointers to .md notes")
        else:
            score += 1
            reasons.append("MEMORY.md exists")
        if head.startswith("# Memory Index"):
            score += 3
            reasons.append("MEMORY.md starts with '# Memory Index'")
    fm_notes = 0
    nested = 0
    snake = 0
    typed_prefix = 0
    dated = 0
    for n in notes[:40]:  # a sample decides the profile; reading every note would cost more than checking it
        text = read_head(root, os.path.join(root, n), 4096)
        if text.startswith("---"):
            block = text.split("\n---", 1)[0]
            if _FM_FIELD_RE.search(block):
                fm_notes += 1
            if _FM_NESTED_RE.search(block) or "originSessionId:" in block:
                nested += 1
            if _FM_CREATED_RE.search(block) and _FM_UPDATED_RE.search(block):
                dated += 1
        if "_" in n:
            snake += 1
        if n.startswith(("user-", "feedback-", "project-", "reference-")):
            typed_prefix += 1
    if fm_notes:
        score += min(5, fm_notes)
        reasons.append(f"{fm_notes} note(s) carry name/description/type frontmatter")
    if score == 0:
        return None
    ledgers = [n for n in names if is_ledger(n)]
    history = [n for n in names if n.endswith("-history.md")]
    sampled = min(len(notes), 40)
    written = _written_as(root, names)
    if written is not None:
        profile = written
        reasons.append(f"{profile}: mmlint convert wrote it as {profile} ({carriers.ORIGIN_FILE})")
    elif ledgers or history or (typed_prefix and typed_prefix == sampled):
        profile = "recall-v1"
        if ledgers:
            reasons.append(f"recall-v1: ledger {ledgers[0]}")
        if history:
            reasons.append(f"recall-v1: archive {history[0]}")
        if typed_prefix and typed_prefix == sampled:
            reasons.append("recall-v1: every note sampled is named <type>-<slug>.md")
    elif nested or (snake and not dated):
        profile = "claude-code"
        if nested:
            reasons.append(f"claude-code: {nested} note(s) use metadata:/originSessionId")
        else:
            reasons.append("claude-code: snake_case note names without created/updated dates")
    elif dated and fm_notes and dated == fm_notes or any(d.lower() in ("archive", "templates") for d in names):
        profile = "upstream"
        reasons.append("upstream: notes carry created/updated" if dated else "upstream: archive/ or templates/ folder")
    else:
        profile = DEFAULT_PROFILE
        reasons.append(f"no profile-specific evidence; defaulting to {DEFAULT_PROFILE}")
    return Evidence(NAME, profile, score, reasons)


def _written_as(root: str, names: list[str]) -> str | None:
    """The engramory profile ``mmlint convert`` wrote the store at ``root``
    in, from the ``"as"`` item its :data:`mmlint.carriers.ORIGIN_FILE` opens
    with (:func:`mmlint.carriers.origin_written_as`), else ``None``. What the
    notes show can read as another profile: a Claude Code store converted to
    ``upstream`` keeps its ``metadata:`` blocks beside the ``created`` and
    ``updated`` it gained, and one converted the other way keeps its dates."""
    if carriers.ORIGIN_FILE not in names:
        return None
    path = os.path.join(root, carriers.ORIGIN_FILE)
    if not is_store_file(root, path):
        return None
    got = carriers.origin_written_as(read_head(root, path, 256))
    if got is None or got[0] != NAME or got[1] not in PROFILES:
        return None
    return got[1]


# ---------------------------------------------------------------- reading


#: Type prefixes of note file names (``feedback_x.md``, ``ref-x.md``): a
#: wikilink ``[[x]]`` reaches such a note (Claude Code names notes so).
TYPE_PREFIXES = TYPES + ("ref", "knowledge")
#: Wikilinks name a note by its flat slug; ``[[dir/slug]]`` resolves to
#: nothing (the upstream doctor reports it, ``research/engramory-reference.md`` §1.5).
WIKILINK_PATHS = False


def bare_pointer(line: str, profile: str | None) -> tuple[int, str] | None:
    """recall-v1's linkless pointer form (seed spec §1: ``- 一句话摘录 — 文件名.md``,
    "identified by the file name"): ``(0-based column, file name)`` when
    ``line`` is a ``- `` list item ending in `` — <name>.md`` (em or en dash)
    with a name holding no space or markup; else ``None``. Other profiles'
    tools do not read this form."""
    if (profile or DEFAULT_PROFILE) != "recall-v1" or not line.startswith(("- ", "* ", "+ ")):
        return None
    for sep in (" — ", " – "):
        k = line.rfind(sep)
        if k > 2:
            name = line[k + len(sep):].rstrip()
            if name.lower().endswith(".md") and len(name) > 3 and not any(c in name for c in " \t[]()<>`*|"):
                return k + len(sep), name
    return None


class IndexLayout(Record):
    """What the reader saw in an engramory index (for byte-exact rewriting)."""

    _fields = ("bom", "text", "read", "prose")

    def __init__(self, bom: bool, text: str, read: dict[str, tuple[Any, Any, Any]] | None = None, prose: list[tuple[int, str]] | None = None) -> None:
        self.bom = bom
        self.text = text
        self.read = {} if read is None else read
        self.prose = [] if prose is None else prose


def read_index(path: str, data: bytes, profile: str | None = None) -> Index:
    """Parse an engramory ``MEMORY.md``.

    Pointers come from markdown links and wikilinks outside code
    (:func:`mmlint.markdown.outline`: a plain pointer list is read without
    markdown-it); each link is an :class:`Entry`, and under ``recall-v1`` so
    is a linkless ``- hook — file.md`` line (:func:`bare_pointer`). Headings
    give each entry its section. Lines with no link that are not headings or
    blank are recorded as ``prose``. Lines are split at CRLF, LF and lone CR
    alike. Entries are resolved by the reader (:func:`read`), not here.
    """
    from mmlint import markdown

    dec = decode(data)
    text = dec.text
    idx = Index(path=path, text=text, size_bytes=len(data), line_count=count_lines(text),
                bom=dec.bom, newline=dec.newline or "\n")
    parsed = markdown.outline(text)
    idx.headings = list(parsed.headings)
    heads = {h[0]: h for h in idx.headings}
    lines = markdown.split_lines(text)
    links = parsed.links
    by_line: dict[int, list[markdown.Link]] = {}
    for link in links:
        by_line.setdefault(link.line, []).append(link)
    section = None
    h_iter = iter(idx.headings)
    h_next = next(h_iter, None)
    html_lines = parsed.html_lines
    entries = idx.entries
    on_line = Entry.on_line
    for lineno, line in enumerate(lines, start=1):
        while h_next is not None and h_next[0] <= lineno:
            if h_next[1] >= 2:
                section = h_next[2]
            elif h_next[1] == 1 and "title" not in idx.header:
                idx.header["title"] = h_next[2]
            h_next = next(h_iter, None)
        line_links = by_line.get(lineno)
        if line_links is not None:
            alone = len(line_links) == 1
            for link in line_links:
                if link.kind == "link":
                    norm, kind, _ = resolve.classify(link.dest)
                    target = norm if kind == "local" else None
                else:
                    target = _wiki_target(link.dest)
                hook = _hook(line[link.end_column - 1 :]) if alone and link.end_column else None
                entries.append(on_line(path, lineno, link.dest, target, link.text, hook, section, link.kind,
                                       link.column, link.column + len(link.dest), EMPTY_DICT))
            continue
        if line.strip() and lineno not in heads and lineno not in html_lines:
            bare = bare_pointer(line, profile)
            if bare is not None:
                col, name = bare
                hook = _hook(line[2:col].rstrip(" —–"))
                entries.append(on_line(path, lineno, name, posixpath.normpath(name), None, hook, section, "bare",
                                       col + 1, col + 1 + len(name), EMPTY_DICT))
                continue
            idx.prose.append((lineno, line))
    return idx


def _wiki_target(inner: str) -> str | None:
    target = inner.split("|", 1)[0].split("#", 1)[0].strip()
    if not target:
        return None
    return target if target.lower().endswith(".md") else target + ".md"


_SEPARATORS = ("—", "–", " - ", "-", ":", "：", "·")
_SEPARATORS_STRIPPED = tuple(sep.strip() for sep in _SEPARATORS if sep.strip())  # as a stripped hook starts


def _hook(rest: str) -> str | None:
    text = rest.strip()
    if text.startswith(_SEPARATORS_STRIPPED):
        for sep in _SEPARATORS_STRIPPED:
            if text.startswith(sep):
                text = text[len(sep):].strip()
                break
    return text or None


def read(root: str, profile: str | None = None, tree: dict[str, bytes] | None = None) -> Store:
    """Read the engramory store at ``root``.

    Every ``*.md`` below the root (outside ``archive/``, ``templates/`` and
    other tools' folders) except ``MEMORY.md`` and a top-level ``README.md``
    is a note (recall-v1: ``<slug>-history.md`` archives are not notes either);
    every other file is auxiliary and kept verbatim. Never raises for bad input: problems are
    recorded on the store. With ``tree`` (path -> bytes), those files are
    read instead of the disk (:func:`mmlint.dialects.open_store`).
    """
    profile = profile or DEFAULT_PROFILE
    store, files = open_store(root, NAME, profile, SKIP_TOP, owns_path, tree=tree)
    for rel, rec in files:
        if rel == "MEMORY.md":
            rec.kind = "index"
            store.index = read_markdown_index(rel, rec.data or b"", store, lambda r, d: read_index(r, d, profile))
            continue
        if rel == carriers.ORIGIN_FILE:
            store.origin = carriers.read_origin(rec.data)
            rec.kind = "carrier" if store.origin is not None else "aux"
            continue
        if not owns_path(rel, profile):
            rec.kind = "aux"  # ledgers, recall-v1 archives, archive/ and templates/: verbatim
            continue
        rec.kind = "note"
        note, problems = _fmnote.read_note(rel, rec.data or b"", KEYMAP, NAME, slug_of(rel), tuple(rel.split("/")[:-1]))
        store.notes.append(note)
        store.problems.extend(problems)
    resolve.resolve_entries(store)
    _attach_index(store)
    return store


def _loose_lines(idx: Index, credited: set[int]) -> list[tuple[int, str]]:
    """The index lines a conversion must carry: every line except the
    credited pointer lines, the headings of the sections they sit in (with a
    setext underline), a first ``# Memory Index`` title (the writer's own),
    and blank lines other than those between two carried lines
    (:func:`mmlint.carriers.with_inner_blanks`). One pass over the lines,
    keeping only the carried ones and the blank lines after the last."""
    sections = sorted(line for line, level, _ in idx.headings if level >= 2)
    headed: set[int] = set()  # the section headings of credited lines
    for line in credited:
        k = bisect.bisect_left(sections, line) - 1
        if k >= 0:
            headed.add(sections[k])
    h1 = next((h for h in idx.headings if h[1] == 1), None)
    if h1 is not None and h1[2] == INDEX_TITLE:
        headed.add(h1[0])  # not a section, but skipped as one (its underline is not)
        title_line = h1[0]
    else:
        title_line = 0
    out: list[tuple[int, str]] = []
    blanks: list[tuple[int, str]] = []  # the blank lines since the last carried line, while only blanks came since
    clean = True
    for i, raw in enumerate(markdown.iter_lines(idx.text), start=1):
        if not raw.strip():
            if clean and out:
                blanks.append((i, raw.rstrip("\r")))
            continue
        if i in credited or i in headed or (i - 1 in headed and i - 1 != title_line and set(raw.strip()) <= {"=", "-"}):
            clean = False
            blanks = []
            continue
        if clean:
            out += blanks
        out.append((i, raw.rstrip("\r")))
        blanks, clean = [], True
    return out


def _attach_index(store: Store) -> None:
    """Give each note the title, hook and section of the first entry pointing at it."""
    idx = store.index
    if idx is None:
        return
    seen: set[str] = set()
    per_line = Counter([e.line for e in idx.entries])
    credited: set[int] = set()
    note_at = store.note_at
    for e in idx.entries:
        path = e.credits
        if path is None:
            continue
        note = note_at(path)
        if note is None:
            continue
        if note.entry is None:
            note.entry = e
        line = e.line
        if e.kind != "link" or path in seen or per_line[line] > 1:
            continue
        seen.add(path)
        credited.add(line)
        # Values the writer would fill in anyway are not stored (Note.derived_title).
        note.title = None if e.title == note.derived_title() else e.title
        note.index_hook = None if e.hook == note.summary else e.hook
        note.index_section = e.section
        note.spans["title"] = e.span
    del per_line, seen  # not held while the loose lines are found
    idx.loose = _loose_lines(idx, credited)
    same: dict[tuple, tuple] = {}  # one tuple for the notes that read the same (most: no title, no hook)
    idx.layout = IndexLayout(idx.bom, idx.text,
                             {n.path: same.setdefault(t, t) for n in store.notes
                              for t in ((n.title, n.index_hook, n.index_section),)},
                             list(idx.loose))


# ---------------------------------------------------------------- writing


def required(profile: str | None) -> dict[str, str]:
    """Model field -> frontmatter key of the fields a note converted into
    ``profile`` must have (:data:`REQUIRED`); a missing one is refused
    unless the user supplies ``--default KEY=VALUE``."""
    return REQUIRED[profile or DEFAULT_PROFILE]


def fills(note: Note, profile: str | None) -> dict[str, str]:
    """Values a note converted into ``profile`` gets when it lacks them:
    ``name`` := the file name's slug, so that name and file name agree
    (recall-v1: the stem without its ``<type>-`` prefix, see :func:`recall_stem`;
    other profiles: the note's slug). Returns ``{}`` when nothing is filled."""
    if note.name is not None:
        return {}
    if (profile or DEFAULT_PROFILE) == "recall-v1" and note.type is not None and _RECALL_NAME_RE.match(note.type):
        stem = recall_stem(note.slug, note.type)
        return {"name": stem[len(note.type) + 1:] or stem}
    return {"name": note.slug}


def recall_stem(slug: str, type_: str) -> str:
    """The recall-v1 file stem (seed spec §2: ``<type>-<slug>``, ``[a-z0-9-]``)
    for a note's slug, deterministically: the ASCII form
    (:func:`mmlint.carriers.ascii_slug`) lower-cased, every run of other
    characters turned into ``-``, edge hyphens removed, then prefixed with
    ``<type>-`` unless it already starts so (``feedback_testing`` ->
    ``feedback-testing``; ``Deploy.Notes_v2`` -> ``reference-deploy-notes-v2``).
    Lossy; the writer keeps the slug in ``mmlint-slug``."""
    stem = _RECALL_JUNK_RE.sub("-", carriers.ascii_slug(slug).lower()).strip("-")
    if stem == type_ or stem.startswith(type_ + "-"):
        return stem
    return f"{type_}-{stem}" if stem else type_


def note_path(note: Note, keep: bool, profile: str | None) -> str:
    """Where ``note`` is written (POSIX, store-relative).

    ``keep`` (a note read from this dialect and profile): its own path.
    recall-v1: ``<type>-<slug>.md`` in the root (:func:`recall_stem`).
    Otherwise ``<category folders>/<slug>.md``.

    Raises:
        Unrepresentable: a slug that cannot be a file name; for recall-v1 a
            missing type or one that cannot prefix a file name, or a stem
            that the reader would take for a ``-history.md`` archive.
    """
    if keep:
        return note.path
    if (profile or DEFAULT_PROFILE) == "recall-v1":
        if note.type is None or not _RECALL_NAME_RE.match(note.type):
            raise Unrepresentable(note.path, "type", f"recall-v1 names files <type>-<slug>.md in [a-z0-9-]; "
                                                     f"type {note.type!r} cannot be that prefix")
        stem = recall_stem(note.slug, note.type)
        if stem.endswith("-history"):
            raise Unrepresentable(note.path, "slug", f"{stem + '.md'!r} would be read as a recall-v1 -history.md archive")
        return stem + ".md"
    for part, fname in [(c, "category") for c in note.category] + [(note.slug, "slug")]:
        if "/" in part or "\\" in part or part in ("", ".", ".."):
            raise Unrepresentable(note.path, fname, f"{part!r} cannot be a file or folder name")
    return "/".join(note.category + (note.slug + ".md",))


def note_paths(store: Store, profile: str | None) -> dict[str, str]:
    """Source note path -> the path :func:`render` writes it at (see
    :func:`note_path`).

    Raises:
        Unrepresentable: see :func:`note_path`; two notes on one path, or on
            paths that differ only by case or Unicode normalisation.
    """
    claims = PathClaims()
    same = store.dialect == NAME and store.profile == (profile or DEFAULT_PROFILE)
    origin = carriers.origin_for(store, NAME, profile or DEFAULT_PROFILE)
    out = {}
    for n in store.notes:
        rec = carriers.origin_note(origin, n)
        out[n.path] = claims.claim(rec["path"] if rec is not None else note_path(n, same and _same(n), profile), n.path)
    return out


def render(store: Store, profile: str | None = None) -> dict[str, bytes]:
    """The files of ``store`` written as engramory ``profile`` (no I/O).

    Notes keep their path when read from this dialect and profile; else see
    :func:`note_path`. The slug and category go into ``mmlint-slug`` /
    ``mmlint-category`` when the path does not hold them.

    Raises:
        Unrepresentable: see :func:`note_path`; two notes on one path (or on
            paths differing only by case or Unicode normalisation); values
            the frontmatter grammar cannot hold.
    """
    out: dict[str, bytes] = {}
    paths = note_paths(store, profile)
    origin = carriers.origin_for(store, NAME, profile or DEFAULT_PROFILE)
    for note in store.notes:
        path = paths[note.path]
        rec = carriers.origin_note(origin, note)
        if rec is not None:  # back where it came from, with the same values: its own bytes
            carriers.unfill(note, rec)
            out[path] = carriers.rebuild(rec, note.body)
            continue
        out[path] = _fmnote.render_note(note, KEYMAP, NAME, ORDER, INDEX_FIELDS, _fmnote.path_carry(note, path),
                                        carry_extras=(profile or DEFAULT_PROFILE) == "claude-code",
                                        requote=store.profile != (profile or DEFAULT_PROFILE),
                                        forms=FORMS[profile or DEFAULT_PROFILE] if store.dialect != NAME or store.profile != (profile or DEFAULT_PROFILE) else None)
    if store.index is not None or store.dialect != NAME:
        out["MEMORY.md"] = carriers.origin_index(origin, store) or render_index(store, paths)
    if store.origin is not None and origin is None:
        out[carriers.ORIGIN_FILE] = carriers.origin_file(store.origin)
    _add_aux(store, out, lambda rel: owns_path(rel, profile))
    return out


def origin_layouts(store: Store) -> tuple[dict[str, tuple[str, bool, str, bool]], bool]:
    """The layout of each unchanged note for :func:`mmlint.carriers.make_origin`
    (:func:`mmlint.dialects._fmnote.origin_layouts`), and whether the index
    still shows what ``MEMORY.md`` holds (titles, hooks, sections, lines)."""
    idx = store.index
    lay = idx.layout if idx is not None and isinstance(idx.layout, IndexLayout) else None
    same = lay is not None and {n.path: (n.title, n.index_hook, n.index_section) for n in store.notes} == lay.read \
        and list(idx.loose) == lay.prose
    return _fmnote.origin_layouts(store, INDEX_FIELDS), same


def _same(note: Note) -> bool:
    lay = note.layout
    return isinstance(lay, _fmnote.NoteLayout) and lay.dialect == NAME


def render_index(store: Store, paths: dict[str, str]) -> bytes:
    """``MEMORY.md`` for ``store``: the original text when nothing the index
    shows changed, else a canonical pointer index grouped by section.
    ``paths`` maps each note's source path to the path it is written at."""
    idx = store.index
    lay = idx.layout if idx is not None and isinstance(idx.layout, IndexLayout) else None
    if lay is not None and store.dialect == NAME and all(paths[p] == p for p in paths):
        now = {n.path: (n.title, n.index_hook, n.index_section) for n in store.notes}
        if now == lay.read and list(idx.loose) == lay.prose:
            return encode(lay.text, lay.bom)
    loose = [text for _, text in idx.loose] if idx is not None else []
    groups: dict[str, list[Note]] = {}
    for note in store.notes:
        groups.setdefault(note.index_section or "", []).append(note)
    order = sorted(groups, key=lambda s: (s != "", TYPES.index(s) if s in TYPES else len(TYPES), s))
    # Carried lines go first, unless a heading among them would become the
    # section of the entries that have none, or a link among them (a second
    # pointer to a note) would be read as the note's entry: then they go last.
    headed = any(re.match(r"^ {0,3}#{2,6}(\s|$)", t) or re.match(r"^ {0,3}(?:=+|-+)[ \t]*$", t) for t in loose) and "" in groups
    first = not headed and not any("](" in t or "[[" in t for t in loose)
    # A store's own title (an H1 heading first among the carried lines) stands in for ours.
    lines = [] if loose and first and re.match(r"^# \S", loose[0]) else [f"# {INDEX_TITLE}", ""]
    if loose and first:
        lines += loose + [""]
    for sec in order:
        if sec:
            lines.append(f"## {sec}")
        for note in groups[sec]:
            lines.append(pointer_line(note, paths[note.path]))
        lines.append("")
    if loose and not first:
        lines += loose + [""]
    return encode("\n".join(lines).rstrip("\n") + "\n")


def pointer_line(note: Note, path: str) -> str:
    """The index line pointing at ``note`` stored at ``path``:
    ``- [title](path) — hook``. Markdown punctuation in the title is
    escaped and ``% # ? < > \\`` in the path percent-encoded, so
    :func:`read_index` reads back the same title and target; the hook is the
    note's index hook, else its summary (``description``), left out when empty
    or when it would not read back as the summary (edge spaces, a leading
    ``—``), since the reader takes a hook equal to the summary for none.

    Raises:
        Unrepresentable: a title with a line break or edge spaces, a hook on
            several lines.
    """
    title = note.title if note.title is not None else note.derived_title()
    if "\n" in title or "\r" in title or title != title.strip():
        raise Unrepresentable(note.path, "title", "a link title cannot hold a line break or edge spaces")
    dest = re.sub(r"[%#?<>\\]", lambda m: f"%{ord(m.group(0)):02X}", path)  # resolve.classify decodes these
    dest = f"<{dest}>" if (" " in dest or "(" in dest or ")" in dest) else dest
    hook = note.index_hook
    if hook is None:
        hook = note.summary or ""
        if _hook(" — " + hook) != (hook or None):
            hook = ""  # a summary that would read back as another hook (edge spaces, a leading separator): none shown
    if "\n" in hook:
        raise Unrepresentable(note.path, "index_hook", "an index hook cannot span lines")
    text = _MD_PUNCT_RE.sub(lambda m: "\\" + m.group(0), title)
    return f"- [{text}]({dest})" + (f" — {hook}" if hook else "")


def note_budget(note: Note, profile: str | None, caps: dict[str, int]) -> tuple[str, int] | None:
    """``(unit, limit)`` of a note's size limit: file bytes, 4 MiB (or
    ``caps["note_bytes"]``) for recall-v1 and upstream; ``None`` for
    claude-code, which sets none."""
    if profile not in ("recall-v1", "upstream"):
        return None
    return "noteBytes", int(caps.get("note_bytes", NOTE_MAX_BYTES))


def budget_use(store: Store, files: dict[str, bytes], profile: str | None = None) -> dict[str, dict[str, Any]]:
    """Budget use of the files :func:`render` made for ``profile``: written
    path -> ``{"noteBytes"}`` for a note (plus ``"noteMaxBytes"``, 4 MiB, for
    recall-v1 and upstream), and for ``MEMORY.md``
    :func:`mmlint.usage.index_usage` against the profile's hard caps."""
    from mmlint.usage import index_usage

    profile = profile or DEFAULT_PROFILE
    capped = profile in ("recall-v1", "upstream")
    out: dict[str, dict[str, Any]] = {}
    for path in note_paths(store, profile).values():
        out[path] = {"noteBytes": len(files[path])} | ({"noteMaxBytes": NOTE_MAX_BYTES} if capped else {})
    if "MEMORY.md" in files:
        caps = INDEX_CAPS[profile]
        out["MEMORY.md"] = index_usage(files["MEMORY.md"], int(caps["lines"] or 0), int(caps["bytes"] or 0), len(store.notes))
    return out


def budget_overflows(store: Store, files: dict[str, bytes], profile: str | None = None) -> list:
    """Refusals (:class:`mmlint.usage.Refusal`) for writing ``store`` as
    engramory ``profile`` into ``files`` (the output of :func:`render`), in
    the mm priority order: notes over 4 MiB (``E_NOTE_TOO_LARGE``, bytes;
    recall-v1 §6 and the upstream doctor's read cap), more than 2,000 notes
    (``E_TOO_MANY_NOTES``, recall-v1 §6), then the profile's index caps
    (:data:`INDEX_CAPS`, ``E_INDEX_BUDGET_EXCEEDED`` naming the notes past
    the cap)."""
    from mmlint.usage import Refusal, index_overflow

    profile = profile or DEFAULT_PROFILE
    caps = INDEX_CAPS[profile]
    paths = note_paths(store, profile)
    use = budget_use(store, files, profile)
    out = []
    if profile in ("recall-v1", "upstream"):
        for note in store.notes:
            size = use[paths[note.path]]["noteBytes"]
            if size > NOTE_MAX_BYTES:
                out.append(Refusal("E_NOTE_TOO_LARGE", note.path, f"note would be {size} bytes, over the {NOTE_MAX_BYTES}-byte cap "
                                   f"by {size - NOTE_MAX_BYTES}; split it", "body", {"noteBytes": size, "noteMaxBytes": NOTE_MAX_BYTES}))
    if profile == "recall-v1" and len(store.notes) > MAX_NOTES:
        out.append(Refusal("E_TOO_MANY_NOTES", "MEMORY.md", f"{len(store.notes)} notes, over the {MAX_NOTES}-note limit "
                           f"by {len(store.notes) - MAX_NOTES}; consolidate notes", None, {"notes": len(store.notes), "maxNotes": MAX_NOTES}))
    if "MEMORY.md" in files and use["MEMORY.md"]["overBudget"]:  # within the caps: no need to parse it here
        by_path = {written: source for source, written in paths.items()}
        spans = [(e.span.line, e.span.line, by_path[e.target]) for e in read_index("MEMORY.md", files["MEMORY.md"]).entries
                 if e.target in by_path]
        ov = index_overflow(files["MEMORY.md"], int(caps["lines"] or 0), int(caps["bytes"] or 0), spans)
        if ov is not None:
            out.append(ov)
    return out


def reading(files: dict[str, bytes], profile: str | None = None):
    """The store ``files`` (POSIX path -> bytes) as the tool owning
    ``profile`` sees it: Claude Code, the upstream doctor or the recall-v1
    plugin (:mod:`mmlint.dialects.engramory_reading`)."""
    from mmlint.dialects.engramory_reading import READINGS

    return READINGS[profile or DEFAULT_PROFILE](files, profile)


def native_form(fieldname: str, value, profile: str | None = None):
    """``value`` in the form ``profile``'s notes hold ``fieldname`` natively
    (:data:`FORMS`, :func:`mmlint.carriers.to_form`)."""
    return carriers.to_form(value, FORMS[profile or DEFAULT_PROFILE].get(fieldname))
