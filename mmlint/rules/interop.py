"""Interop hazards: what another tool of this ecosystem would misread.

Each rule here names a tool whose reading of the store differs from what the
file says: the mm reference (CRLF indexes, human titles, stale budget
records), Claude Code (YAML frontmatter, the index load window, frontmatter
found only within the first 30 lines) and line-based engramory readers
(YAML-only shapes).
"""

from __future__ import annotations

import re

from mmlint.model import Span
from mmlint.rules import ERROR, INFO, SAFE, WARNING, Context, Finding, Fix, reader_rule, rule, shared
from mmlint.textutil import echo, encode, lazy_re, to_lf

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

_FM = ("engramory", "workspace")

reader_rule("X112", "invalid-carrier", WARNING, """
An ``mmlint-*`` carrier (a frontmatter key or an mm entry line that a
conversion wrote to hold a field the dialect has no slot for) holds a value
of the wrong type: a list or mapping where the field is text, text where it
is a list (``tags``, ``aliases``), or a string with a lone surrogate escape.

Why: mmlint reads the carrier back when the store is converted again; a
value of the wrong type cannot be the field, so the reader keeps the line
as an unknown key and the field it carried is lost on the way back.
Bad: ``- **mmlint-slug:** ["a"]`` in an mm entry; ``mmlint-budget: {a: 1}`` in a note
Good: ``- **mmlint-slug:** a``; ``mmlint-budget: 145/4000``
""")


@rule("X101", "crlf-index", ERROR, dialects=("mm",), fix=SAFE)
def crlf_index(ctx: Context):
    """The mm index uses CRLF (or CR) line endings.

    Why: the reference reads **zero entries** from a CRLF index without an
    error, then rewrites ``MEMORY.md`` with only its next entry: every
    existing entry is lost (mm-reference §9 B1). mmlint reads the file
    correctly; the reference does not.
    Bad: ``MEMORY.md`` saved with Windows line endings
    Good: LF line endings (``git config core.autocrlf input``).
    Fix: safe: CRLF and lone CR become LF; no other byte changes.
    """
    idx = ctx.store.index
    if idx is not None and "\r" in idx.text:
        line = idx.text[: idx.text.index("\r")].count("\n") + 1
        yield Finding(Span(idx.path, line, 1), "index has CR line endings: the mm reference reads zero entries from it and then overwrites it",
                      hint="convert MEMORY.md to LF line endings",
                      fix=Fix("convert MEMORY.md to LF line endings", {idx.path: encode(to_lf(idx.text), idx.bom)}))


@rule("X102", "human-title", ERROR, dialects=("mm",))
def human_title(ctx: Context):
    """An mm detail file's ``# title`` (or ``> mm-topic:``) is not its
    entry's topic.

    Why: the reference validates the title as a slug: a human title such as
    ``# Project Notes`` makes the whole store fail to open (``E_INVALID``,
    mm-reference §9 B2); a different slug misfiles the note.
    Bad: ``# Deployment notes`` in ``memories/deployment.md``
    Good: ``# deployment``, with the human title in the body.
    """
    valid_topic = ctx.dialect.valid_topic
    for n in ctx.store.notes:
        if n.entry is None or not ctx.has_file(n) or not n.header:
            continue
        topic = n.entry.title or ""
        for label in ("title", "mm-topic"):
            value = n.header.get(label)
            if value is None:
                continue
            line = n.span("header:" + label).line
            if not valid_topic(value):
                yield Finding(Span(n.path, line, 1), f"{label} {echo(value)} is not a valid topic slug: the mm reference fails to load the whole store",
                              hint=f"use '# {topic}' and put the human title in the body")
            elif value != topic:
                yield Finding(Span(n.path, line, 1), f"{label} {echo(value)} differs from the entry topic {echo(topic)}")


@rule("X103", "stale-budget-record", WARNING, dialects=("mm",), fix=SAFE)
def stale_budget_record(ctx: Context):
    """An entry's recorded ``budget:`` body size differs from the note's
    actual body (code points), or the field is malformed.

    Why: the reference's budget report uses the recorded value, not the
    file; a stale record misreports how close the note is to its write
    budget. ``10 / 4000`` (spaces) reads as 0/0.
    Bad: ``- **budget:** 145/4000`` for a 192-character body
    Good: ``- **budget:** 192/4000``
    Fix: safe: rewrites the recorded body size (the number before ``/``) to
    the body's; the write budget and the rest of the line stay. Malformed
    records are left for a person.
    """
    for n in ctx.store.notes:
        if n.budget is None or not ctx.has_file(n):
            continue
        m = re.match(r"^(\d+)/(\d+)", n.budget)
        span = n.spans.get("budget") or Span(n.path, 1, 1)
        if not m:
            yield Finding(span, f"budget {echo(n.budget)} is not <bodyChars>/<writeBudget>; the reference reads it as 0/0")
            continue
        actual = ctx.dialect.body_chars(n.body)
        if int(m.group(1)) != actual:
            yield Finding(span, f"budget records {m.group(1)} body characters; the body has {actual}",
                          fix=_budget_fix(ctx, span, m.group(1), actual))


_BUDGET_LINE = lazy_re(r"^(-\s*\*\*budget:\*\*\s*)(\d+)/")


def _budget_fix(ctx: Context, span: Span, recorded: str, actual: int) -> Fix | None:
    """Replace ``recorded`` at ``span`` in the index by ``actual``."""
    idx = ctx.store.index
    if idx is None or span.path != idx.path:
        return None
    lines = idx.text.split("\n")
    line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    m = _BUDGET_LINE.match(line)
    if m is None or m.group(2) != recorded:
        return None
    lines[span.line - 1] = m.group(1) + str(actual) + line[m.end(2):]
    return Fix(f"record {actual} body characters", {idx.path: encode("\n".join(lines), idx.bom)})


#: JavaScript's ``\s`` (mm-reference §1.12), which the mm reference's tag
#: normalisation uses.
_JS_SPACE = lazy_re("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")


def _reference_tags(tags: list[str]) -> list[str]:
    """Tags as the mm reference reads them (mm-reference §1.7): each item
    trimmed, inner whitespace runs turned into ``-``, lower-cased; empty items
    and repeats dropped (the first kept)."""
    out: list[str] = []
    for tag in tags:
        norm = "-".join(p for p in _JS_SPACE.split(tag) if p).lower()
        if norm and norm not in out:
            out.append(norm)
    return out


@rule("X109", "tags-rewritten", WARNING, dialects=("mm",))
def tags_rewritten(ctx: Context):
    """An mm entry's tags are not in the form the mm reference reads them
    (lower case, inner spaces as ``-``, each tag once).

    Why: the reference normalises tags as it reads the index and writes every
    entry back on its next write, so ``Deploy Notes`` silently becomes
    ``deploy-notes`` and a repeated tag disappears (mm-reference §1.7).
    mmlint reads the tags as written.
    Bad: ``- **tags:** Deploy Notes, ops, OPS``
    Good: ``- **tags:** deploy-notes, ops``
    """
    for n in ctx.store.notes:
        if not n.tags or n.entry is None:
            continue
        ref = _reference_tags(n.tags)
        if ref != n.tags:
            shown = ", ".join(echo(t, 40) for t in ref[:8]) + (" ..." if len(ref) > 8 else "")
            yield Finding(n.spans.get("tags") or Span(n.path, 1, 1),
                          f"the mm reference reads these tags as [{shown}] and writes them back so",
                          hint="write the tags in lower case, with '-' for spaces, each once")


# ------------------------------------------------------------ YAML vs key: value

_RISKY_START = set("[{&*!|>%@`'\"")


def _risky(raw: str) -> bool:
    """A line whose YAML reading may differ from the key: value reading."""
    line = raw.rstrip("\r")
    if "\t" in line[: len(line) - len(line.lstrip())]:
        return True
    _, sep, value = line.partition(":")
    if not sep:
        return False
    v = value.strip()
    return bool(v) and (v[0] in _RISKY_START or ": " in v or " #" in v or v.endswith(":") or "\t" in v)


# What a risky line (:func:`_risky`) needs somewhere: a tab, a risky first
# character of a value, " #", or a second colon on its line (": " or a final
# ":" in the value). All ASCII, so the raw bytes can be searched; linear (a
# colon's scan stops at its line's end).
_RISKY_BYTES = re.compile(rb"[\t\[{&*!|>%@`'\"]| #|:[^\n]*:")


def _maybe_risky(ctx: Context, note: Any) -> bool:
    """False when no line of the note's frontmatter can be risky: the file's
    bytes up to its closing fence's line (counted at ``\n``, so at least the
    whole block) hold none of :data:`_RISKY_BYTES`. Spares reading the
    block's lines for the plain blocks most notes have."""
    rec = ctx.store.files.get(note.path)
    data = rec.data if rec is not None else None
    if not data:
        return True
    return _risky_in_block(data, note.frontmatter.close_line)


#: Bytes :func:`_risky_in_block` searches before it counts lines.
_RISKY_WINDOW = 4096


def _risky_in_block(data: bytes, close_line: int) -> bool:
    """Whether :data:`_RISKY_BYTES` matches in ``data`` before its
    ``close_line - 1``-th ``\n`` (all of it when it has fewer).

    A match never holds a ``\n`` it does not end before, so a match
    starting before that newline lies before it: the leftmost match in the
    first :data:`_RISKY_WINDOW` bytes decides by the newlines before it,
    and only a block reaching past the window with none there is searched
    to its end."""
    m = _RISKY_BYTES.search(data, 0, _RISKY_WINDOW)
    if m is not None:
        return data.count(b"\n", 0, m.start()) < close_line - 1
    if len(data) <= _RISKY_WINDOW:
        return False
    end = -1
    for _ in range(close_line - 1):
        end = data.find(b"\n", end + 1)
        if end < 0:
            end = len(data)
            break
    return _RISKY_BYTES.search(data, 0, end) is not None


def _yaml_view(ctx: Context, note: Any) -> tuple[Any, str | None] | None:
    """The YAML reading of a note's frontmatter, computed only when some line
    is risky (plain ``key: value`` blocks read the same either way)."""
    fm = note.frontmatter
    if fm is None or fm.close_raw is None:
        return None
    if not _maybe_risky(ctx, note) or not any(_risky(r) for r in fm.raw_lines()):
        return None
    raws = [r for it in fm.items for r in it.raw]
    key = "yaml:" + note.path
    if key not in ctx.cache:
        from mmlint.frontmatter import yaml_load_block

        ctx.cache[key] = yaml_load_block([r.rstrip("\r") for r in raws], fm.known_yaml())
    return ctx.cache[key]


@rule("X104", "frontmatter-not-yaml", ERROR, dialects=("engramory",), profiles=("claude-code",), scope="note")
def frontmatter_not_yaml(ctx: Context):
    """A note's frontmatter is not valid YAML, so Claude Code (which parses
    frontmatter as YAML) sees none of its fields.

    Why: typical causes are an unquoted value holding ``: `` or starting with
    a quote, and tab indentation under ``metadata:``; one Claude Code release
    even replaced such frontmatter with an empty stub (claude-code-notes.md).
    Not reported on a note whose key: value grammar errors (F100, F102,
    F103, F104, F107) already explain the failure.

    Bad: ``description: rule: always rebase``
    Good: ``description: 'rule: always rebase'``
    """
    grammar = {p.span.path for p in ctx.store.problems if p.code in ("F100", "F102", "F103", "F104", "F107")}
    for n in ctx.store.notes:
        if n.path in grammar:
            continue  # the grammar error already explains why YAML fails
        view = _yaml_view(ctx, n)
        if view is None or view[1] is None:
            continue
        fm = n.frontmatter
        bad = next((it for it in fm.items for r in it.raw if _risky(r)), None)
        line, col, hint = _yaml_cause(bad)
        yield Finding(Span(n.path, line, col), f"frontmatter is not valid YAML ({echo(view[1], 100)[1:-1]}); Claude Code drops it",
                      hint=hint)


def _yaml_cause(item: Any) -> tuple[int, int, str]:
    """``(line, column, hint)`` for the first line YAML is likely to reject."""
    if item is None:
        return 1, 1, "quote values that hold ': ', ' #' or start with a quote or [ { & * ! | >"
    raw = item.raw[0].rstrip("\r")
    indent = raw[: len(raw) - len(raw.lstrip())]
    if "\t" in indent:
        return item.line, 1, "indent with spaces: YAML forbids tabs in indentation"
    value_start = item.value_col - 1
    rest = raw[value_start:]
    k = rest.find(": ")
    if k >= 0:
        return item.line, value_start + k + 1, "a ': ' inside an unquoted value starts a mapping in YAML: single-quote the whole value"
    if rest[:1] in ("'", '"'):
        return item.line, value_start + 1, "the value starts with a quote but goes on after it: single-quote the whole value (double any ' inside)"
    return item.line, value_start + 1, f"a value starting with {rest[:1]!r} means something else in YAML: single-quote it"


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@rule("X105", "yaml-reads-differently", WARNING, dialects=_FM, scope="note")
def yaml_reads_differently(ctx: Context):
    """A frontmatter value that YAML reads differently from the line-based
    ``key: value`` grammar: an unquoted `` #`` starts a YAML comment (YAML
    keeps less), a value that starts with ``[`` or ``{`` is a YAML list or
    mapping.

    Why: Claude Code reads YAML, the engramory tools and the workspace
    plugin read ``key: value`` lines; the note then means two things.
    Bad: ``description: use C# for the tools``
    Good: ``description: 'use C# for the tools'``
    """
    for n in ctx.store.notes:
        view = _yaml_view(ctx, n)
        if view is None or view[1] is not None or not isinstance(view[0], dict):
            continue
        data = view[0]
        for it in n.frontmatter.items:
            if it.kind != "scalar" or not it.key or it.quote:
                continue
            ydata = data.get(it.parent, {}) if it.parent else data
            if not isinstance(ydata, dict) or it.key not in ydata:
                continue
            yv = ydata[it.key]
            if isinstance(yv, (list, dict)) and not isinstance(it.value, (list, dict)):
                yield Finding(Span(n.path, it.line, it.value_col), f"YAML reads {it.key!r} as a {'list' if isinstance(yv, list) else 'mapping'}, the key: value grammar as the text {echo(str(it.value))}")
                continue
            ytext = _text(yv)
            if ytext is not None and ytext != it.value and isinstance(yv, str):
                yield Finding(Span(n.path, it.line, it.value_col), f"YAML reads {it.key!r} as {echo(ytext)}, the key: value grammar as {echo(str(it.value))}",
                              hint="quote the value so both readings agree")


@rule("X106", "yaml-only-frontmatter", WARNING, dialects=("engramory",), profiles=("claude-code",), scope="note")
def yaml_only_frontmatter(ctx: Context):
    """Frontmatter that is valid YAML but not the line-based ``key: value``
    grammar: block lists (``- item``), block scalars (``>-``, ``|``).

    Why: Claude Code reads it, but the engramory doctor and recall tools
    reject the lines ("malformed frontmatter line").
    Bad: ``tags:`` / ``  - a`` / ``  - b``
    Good: ``tags: a, b``
    """
    for n in ctx.store.notes:
        fm = n.frontmatter
        if fm is None or not fm.multiline:
            continue  # (multiline: known without parsing the block again)
        for it in fm.items:
            if it.kind == "yaml" and len(it.raw) > 1:
                yield Finding(Span(n.path, it.line, it.key_col), f"{it.key!r} spans {len(it.raw)} lines (a YAML list or block scalar); line-based readers reject it")


def load_window(text: str, max_lines: int, max_bytes: int) -> int:
    """The last 1-based line of ``text`` that Claude Code loads.

    Claude Code cuts the index at ``max_bytes`` (UTF-8) at the last newline
    before the limit, then keeps ``max_lines`` lines after trimming
    surrounding whitespace (claude-code-notes.md). Returns 0 for an empty
    index.
    """
    data = text.encode("utf-8", "surrogateescape")
    if len(data) > max_bytes:
        cut = data[:max_bytes]
        nl = cut.rfind(b"\n")
        data = cut[: nl + 1] if nl >= 0 else b""
    window = data.decode("utf-8", "surrogateescape")
    stripped = window.lstrip()
    lead = window[: len(window) - len(stripped)].count("\n")
    kept = stripped.rstrip().split("\n")[:max_lines] if stripped.strip() else []
    return lead + len(kept)


@rule("X107", "outside-load-window", ERROR, dialects=("engramory",), profiles=("claude-code",))
def outside_load_window(ctx: Context):
    """An index pointer lies past Claude Code's load window: the first 200
    lines (after trimming surrounding whitespace) within the first 25,000
    bytes, cut at the last newline (configurable: caps ``load_lines``,
    ``load_bytes``).

    Why: Claude Code drops the rest of ``MEMORY.md`` silently and never names
    the lost pointers; each finding names one memory the agent cannot see.
    Bad: a pointer on line 230 of a 249-line index
    Good: consolidate the index until every pointer is inside the window.
    """
    idx = ctx.store.index
    if idx is None:
        return
    max_lines = int(ctx.options.caps.get("load_lines", 200))
    max_bytes = int(ctx.options.caps.get("load_bytes", 25000))
    last = load_window(idx.text, max_lines, max_bytes - (3 if idx.bom else 0))
    for e in idx.entries:
        if e.line > last and e.kind == "link" and e.target:
            yield Finding(e.pointer_span or e.span, f"pointer to {echo(e.target)} is past Claude Code's load window (it loads lines 1-{last}); the agent never sees it")


@rule("X108", "frontmatter-too-low", WARNING, dialects=("engramory",), profiles=("claude-code",), scope="note")
def frontmatter_too_low(ctx: Context):
    """A note's closing ``---`` lies beyond line 30.

    Why: Claude Code reportedly looks for the closing fence only within the
    first 30 lines; a longer block is read as no frontmatter at all.
    Bad: 35 lines of frontmatter
    Good: keep frontmatter short; move detail into the body.
    """
    for n in ctx.store.notes:
        fm = n.frontmatter
        if fm is not None and fm.close_line > 30:
            yield Finding(Span(n.path, fm.close_line, 1), f"frontmatter closes on line {fm.close_line}; Claude Code only looks within the first 30 lines")


@rule("X110", "mm-header-dropped", WARNING, dialects=("mm",))
def mm_header_dropped(ctx: Context):
    """The mm index header holds prose, unknown ``>`` lines or custom caps
    text that the reference discards on its next write or delete.

    Why: the reference rewrites the whole header from its own settings
    (mm-reference §9 D3): anything else written there is silently lost.
    Bad: a paragraph of instructions above the first ``## topic``
    Good: keep such text in a note; the header holds only ``> mm-*:`` lines.
    """
    idx = ctx.store.index
    if idx is None:
        return
    for line, _ in idx.prose:
        yield Finding(Span(idx.path, line, 1), "header line is discarded by the mm reference on its next write")
    for key in idx.header:
        if key not in ("title", "mm-id", "mm-version", "mm-kind", "mm-caps"):
            line = next((i for i, raw in enumerate(idx.text.split("\n"), 1) if raw.startswith(">") and key + ":" in raw), 1)
            yield Finding(Span(idx.path, line, 1), f"header line '> {key}:' is discarded by the mm reference on its next write")


@rule("X111", "past-recall-cut", INFO, dialects=("engramory",), profiles=("claude-code",), scope="note")
def past_recall_cut(ctx: Context):
    """A note longer than what Claude Code shows when it surfaces a memory
    by itself: 200 lines or 4,096 bytes (configurable: caps
    ``recall_lines``, ``recall_bytes``).

    Why: a note recalled automatically is reportedly cut there
    (claude-code-notes.md); what follows reaches the agent only when it
    opens the file on purpose. Put what matters first, or split the note.
    Bad: a 33 KB reference note whose key rule is at the end
    Good: the rule in the first lines; long detail in a separate note.
    """
    max_lines = int(ctx.options.caps.get("recall_lines", 200))
    max_bytes = int(ctx.options.caps.get("recall_bytes", 4096))
    for n in ctx.store.notes:
        rec = ctx.store.files.get(n.path)
        if rec is None or rec.data is None:
            continue
        lines = rec.data.count(b"\n") + (0 if rec.data.endswith(b"\n") else 1)
        if lines > max_lines or len(rec.data) > max_bytes:
            what = f"{lines} lines" if lines > max_lines else f"{len(rec.data)} bytes"
            yield Finding(Span(n.path, 1, 1), f"note is {what}; Claude Code cuts an automatically recalled note at "
                                              f"{max_lines} lines / {max_bytes} bytes")


# ---------------------------------------------------------------- byte-level hazards (issue 10 item 6)

#: Characters that look like a space or like nothing: the Unicode spaces other
#: than U+0020 (no-break, en/em, thin, hair, narrow no-break, medium
#: mathematical; not the ideographic space U+3000, ordinary in CJK text), the
#: soft hyphen, the combining grapheme joiner, the Mongolian vowel separator,
#: the zero-width and bidirectional format characters, the word joiner and
#: invisible operators, the line and paragraph separators and U+FEFF. A
#: one-character class: one linear pass per line. Every one is outside ASCII:
#: compiled for the first non-ASCII text that needs it (with BIDI, ~0.7 ms).
_INVISIBLE_RANGES = ((0x00A0, 0x00A0), (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x1680, 0x1680),
                     (0x180E, 0x180E), (0x2000, 0x200F), (0x2028, 0x202F), (0x205F, 0x2064), (0x2066, 0x206F),
                     (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB))
INVISIBLE = lazy_re("[" + "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in _INVISIBLE_RANGES) + "]")
#: The characters of :data:`INVISIBLE`, for a short text (:func:`_holds_invisible`).
_INVISIBLE_SET = frozenset(chr(c) for a, b in _INVISIBLE_RANGES for c in range(a, b + 1))
#: Up to this many characters, a text is looked through as a set of
#: characters rather than compiling :data:`INVISIBLE` (~0.4 ms): about as
#: long as the compile takes.
_SHORT_TEXT = 16384
#: The bidirectional controls: they reorder how the text around them is shown.
BIDI = lazy_re("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_BOM = b"\xef\xbb\xbf"


def _char_name(ch: str) -> str:
    import unicodedata

    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'FORMAT CHARACTER')}"


@rule("X113", "bom-before-header", WARNING, dialects=("mm", "workspace"), fix=SAFE)
def bom_before_header(ctx: Context):
    """A note or the index starts with a UTF-8 byte order mark, in a dialect
    whose owning tool keeps it and matches its header by position.

    Why: the mm reference reads files as UTF-8 and keeps a BOM as U+FEFF
    (mm-reference §1.10), so ``# topic`` or ``## topic`` on line 1 is no
    longer a title or heading; the workspace plugin (Node) looks for
    ``---`` at the first byte, so the note's frontmatter (title, tags,
    dates) is not read and its title falls back to the file name. (Engramory
    readers strip a BOM, recall-v1 spec §2; no finding there.)
    Bad: ``EF BB BF`` then ``---`` / ``title: 甲``
    Good: the same file without the three BOM bytes.
    Fix: safe: removes the three BOM bytes; nothing else changes.
    """
    for path, rec in sorted(ctx.store.files.items()):
        if rec.kind not in ("note", "index") or rec.data is None or not rec.data.startswith(_BOM):
            continue
        yield Finding(Span(path, 1, 1), "file starts with a UTF-8 byte order mark, which the owning tool reads as "
                      "part of the first line", hint="save the file as UTF-8 without a BOM",
                      fix=Fix("remove the byte order mark", {path: rec.data[len(_BOM):]}))


@rule("X114", "invisible-character", WARNING)
def invisible_character(ctx: Context):
    """A key or value holds an invisible or look-alike character: a
    no-break or other non-ASCII space, a zero-width character, a soft
    hyphen, a bidirectional control, a BOM inside the text (in the index, or
    in a note's frontmatter or header; bodies are prose and are not judged).

    Why: the file seems to say ``type: feedback`` but the bytes say
    ``type\u00a0: feedback`` or ``feedback\u200b``; each tool then reads
    another key or value (JS ``trim`` strips U+FEFF and no-break spaces,
    Python's ``strip`` strips no U+FEFF, YAML and line readers keep a
    zero-width space), so the field is missing or wrong for some of them
    and nobody sees why. One finding per line, at the first such character.
    Bad: ``type: feedback`` with a U+200B after ``feedback``
    Good: the same line typed with plain ASCII spaces and nothing invisible.
    """
    store = ctx.store
    targets: list[tuple[str, str, int]] = []
    if store.index is not None and store.index.text and not store.index.text.isascii():
        targets.append((store.index.path, store.index.text, 0))
    for n in store.notes if not shared.notes_ascii(ctx) else ():  # ASCII notes only: none to look at
        rec = store.files.get(n.path)
        if rec is None or rec.kind != "note" or rec.data is None or not n.body_line or n.body_line <= 1:
            continue
        if rec.data.isascii():
            continue  # every INVISIBLE character is outside ASCII
        head = rec.data.decode("utf-8", "surrogateescape").split("\n", n.body_line - 1)[: n.body_line - 1]
        targets.append((n.path, "\n".join(head), 0))
    for path, text, _ in targets:
        for i, col, char, more in _invisible_hits(text):
            extra = f" (and {more} more on this line)" if more > 0 else ""
            yield Finding(Span(path, i, col), f"invisible character {_char_name(char)}{extra}: the "
                          "line does not say what it shows", hint="retype the key and value with plain spaces")


def _invisible_hits(text: str) -> list[tuple[int, int, str, int]]:
    """``(line, column, character, how many more on the line)`` of the first
    :data:`INVISIBLE` character of each line of ``text`` (split at ``\n``;
    1-based), a leading BOM left out (X113's)."""
    start = 1 if text.startswith("\ufeff") else 0
    if not _holds_invisible(text, start):
        return []  # a one-character class: no line holds one when the text does not
    out = []
    for i, line in enumerate(text.split("\n"), start=1):
        m = INVISIBLE.search(line, start if i == 1 else 0)
        if m is not None:
            out.append((i, m.start() + 1, m.group(), len(INVISIBLE.findall(line)) - 1))
    return out


def _holds_invisible(text: str, start: int = 0) -> bool:
    """Whether ``text[start:]`` holds an :data:`INVISIBLE` character
    (``INVISIBLE.search(text, start) is not None``); a short text is looked
    through without compiling the pattern."""
    if len(text) - start <= _SHORT_TEXT:
        return not _INVISIBLE_SET.isdisjoint(text[start:] if start else text)
    return INVISIBLE.search(text, start) is not None


@rule("X115", "invisible-name", WARNING)
def invisible_name(ctx: Context):
    """A file or folder name in the store holds a bidirectional control or an
    invisible character (zero-width, no-break space, BOM).

    Why: a bidi control reorders how the name is shown (``a\u202egpj.md``
    displays as ``amd.jpg``), a zero-width or no-break space makes two names
    look alike; a pointer typed from what the screen shows then misses the
    file. mmlint escapes such names in every output (text, github, junit).
    Bad: a note named ``deploy\u200b.md`` beside ``deploy.md``
    Good: names of visible characters only.
    """
    if "".join(ctx.store.files).isascii():
        return  # every BIDI and INVISIBLE character is outside ASCII
    for path in sorted(ctx.store.files):
        if path.isascii():
            continue  # every BIDI and INVISIBLE character is outside ASCII
        m = BIDI.search(path) or INVISIBLE.search(path)
        if m is None:
            continue
        kind = "bidirectional control" if BIDI.match(m.group()) else "invisible character"
        yield Finding(Span(path, 1, 1), f"name holds a {kind} {_char_name(m.group())}: it shows as another name",
                      hint="rename it with visible characters only (and update the pointers)")
