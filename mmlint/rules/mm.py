"""mm rules: the parse and budget errors of the Memory Standard reference
(``research/mm-reference.md`` §2–§4) and its known interop traps."""

from __future__ import annotations

from mmlint.model import Span
from mmlint.rules import ERROR, INFO, SAFE, WARNING, Context, Finding, Fix, reader_rule, rule
from mmlint.textutil import echo, encode

reader_rule("M104", "duplicate-entry-key", WARNING, """
    An mm entry repeats a ``- **key:**`` line.

    Why: the reference keeps the last one and drops the rest on its next
    write; the first value is silently lost.
    Bad: two ``- **summary:**`` lines in one entry
    Good: one line per key.
    """, dialects=("mm",))


def _entries(ctx: Context):
    idx = ctx.store.index
    return [e for e in idx.entries if e.kind == "mm"] if idx is not None else []


@rule("M101", "invalid-topic", ERROR, dialects=("mm",))
def invalid_topic(ctx: Context):
    """An index heading ``## <topic>`` is not a valid topic slug
    (``^[A-Za-z0-9][A-Za-z0-9._-]*$``, at most 64 characters, spec §1).

    Why: the reference refuses to open the whole store (``E_PARSE``): one bad
    heading makes every memory unreadable. An entry body must not contain a
    ``## `` line either, for the same reason.
    Bad: ``## Project Notes``
    Good: ``## project-notes``
    """
    valid_topic = ctx.dialect.valid_topic

    for e in _entries(ctx):
        topic = e.title or ""
        if not valid_topic(topic):
            why = "longer than 64 characters" if len(topic) > 64 else "not a valid topic slug (letters, digits, '.', '_', '-'; no leading separator)"
            yield Finding(e.span, f"heading {echo(topic)} is {why}",
                          hint="the reference fails to load the whole store on this line")


@rule("M102", "unsafe-file-path", ERROR, dialects=("mm",))
def unsafe_file_path(ctx: Context):
    """An entry's ``- **file:**`` value is not a safe relative path
    (empty, a backslash, absolute or a drive letter, or a ``..`` segment).

    Why: the reference refuses to load the store (``E_PARSE``), and a path
    out of the root would let a store read files it does not own.
    Bad: ``- **file:** memories\\..\\evil.md``
    Good: ``- **file:** memories/evil.md``
    """
    for e in _entries(ctx):
        why = e.data.get("unsafe")
        if why:
            yield Finding(e.pointer_span or e.span, f"{why}: {echo(e.pointer or '')}")


@rule("M105", "duplicate-topic", ERROR, dialects=("mm",))
def duplicate_topic(ctx: Context):
    """Two index sections have the same ``## <topic>``.

    Why: the reference reads the first and silently merges them away on its
    next write.
    Bad: ``## alpha`` twice
    Good: one section per topic.
    """
    seen: dict[str, int] = {}
    for e in _entries(ctx):
        if e.title in seen:
            yield Finding(e.span, f"topic {echo(e.title or '')} already has a section on line {seen[e.title]}")
        else:
            seen[e.title or ""] = e.line


@rule("M107", "orphan-detail-file", WARNING, dialects=("mm",))
def orphan_detail_file(ctx: Context):
    """A ``memories/*.md`` file that no index entry names (``orphanFiles``).

    Why: the reference never loads it; the memory is invisible.
    Bad: ``memories/old.md`` with no ``## old`` entry
    Good: add an entry for it, or delete it.
    """
    for n in ctx.store.notes:
        if n.entry is None:
            yield Finding(Span(n.path, 1, 1), "detail file is not named by any index entry")


@rule("M109", "invalid-entry-field", WARNING, dialects=("mm",))
def invalid_entry_field(ctx: Context):
    """An entry value breaks the mm entry schema (``schemas/mm.entry.json``):
    ``updated`` not an ISO-8601 date-time, a malformed ``budget``.

    Why: the reference accepts anything, but other readers (and the mm JSON
    Schema itself) reject such values.
    Bad: ``- **updated:** last week``
    Good: ``- **updated:** 2026-01-02T03:04:05.000Z``
    """
    from mmlint.validate import validate

    for n in ctx.store.notes:
        if n.entry is None:
            continue
        inst = {"topic": n.slug, "file": n.path}
        native = n.entry.data.get("native", {})  # written in mm's form, the original in a carrier
        for f in ("summary", "tags", "updated"):
            if getattr(n, f) is not None:
                inst[f] = native.get(f, getattr(n, f))
        for err in validate("mm.entry", inst):
            if err.key in ("topic", "file"):
                continue  # M101 / M102 say it better
            yield Finding(n.spans.get(err.key) or Span(n.path, 1, 1), f"{err.message} (schema path {err.pointer})")


@rule("M110", "invalid-memory-id", ERROR, dialects=("mm",))
def invalid_memory_id(ctx: Context):
    """The index header's ``> mm-id:`` is not a valid memory id (the topic
    slug grammar).

    Why: ``mm://<memoryId>/<topic>`` URIs are built from it; the reference
    refuses an invalid configured id (``E_INVALID``) and other agents cannot
    address the store's notes.
    Bad: ``> mm-id: my memory``
    Good: ``> mm-id: my-memory``
    """
    idx = ctx.store.index
    if idx is None or "mm-id" not in idx.header:
        return
    value = idx.header["mm-id"]
    if not ctx.dialect.TOPIC_RE.match(value):
        line = next((i for i, raw in enumerate(idx.text.split("\n"), 1) if raw.lstrip(">").strip().startswith("mm-id:")), 1)
        yield Finding(Span(idx.path, line, 1), f"mm-id {echo(value)} is not a valid memory id (letters, digits, '.', '_', '-')")


@rule("M111", "unsupported-version", WARNING, dialects=("mm",))
def unsupported_version(ctx: Context):
    """The index header declares an ``mm-version`` other than 1.

    Why: this linter and the reference implement version 1; a newer format
    may mean something the checks do not know.
    Bad: ``> mm-version: 2``
    Good: ``> mm-version: 1``
    """
    idx = ctx.store.index
    if idx is None or "mm-version" not in idx.header:
        return
    value = idx.header["mm-version"]
    if value.strip() != "1":
        line = next((i for i, raw in enumerate(idx.text.split("\n"), 1) if "mm-version:" in raw), 1)
        yield Finding(Span(idx.path, line, 1), f"mm-version {echo(value)} is not 1 (the version mmlint checks)")


@rule("M112", "nonstandard-file-path", WARNING, dialects=("mm",))
def nonstandard_file_path(ctx: Context):
    """An entry's ``file:`` is not ``memories/<topic>.md``.

    Why: the reference writes every update to ``memories/<topic>.md`` and
    rewrites ``file:`` to match, leaving the old file behind as an orphan
    (mm-reference §9 B3); a ``file:`` may even name ``MEMORY.md`` or a
    non-markdown file, which ``delete`` would then remove (B14).
    Bad: ``- **file:** notes/custom-alpha.md`` in ``## alpha``
    Good: ``- **file:** memories/alpha.md``
    """
    for e in _entries(ctx):
        if e.target is None or e.data.get("unsafe"):
            continue
        want = f"{ctx.fact('DETAIL_DIR')}/{e.title}.md"
        if e.target != want:
            yield Finding(e.pointer_span or e.span, f"file is {echo(e.target)}, not {echo(want)}: the reference moves the note there on its next write")


@rule("M113", "unsorted-entries", INFO, dialects=("mm",), fix=SAFE)
def unsorted_entries(ctx: Context):
    """The index's ``## <topic>`` sections are not in the order the reference
    writes them: sorted by topic, ordinal (code-point) comparison, uppercase
    before lowercase (mm-reference §1.4).

    Why: the reference rewrites the whole index in that order on its next
    write or delete, so a hand-ordered index produces a large, noisy diff at an
    unrelated moment.
    Bad: ``## deployment`` after ``## project-intro``
    Good: ``## deployment`` before ``## project-intro``
    Fix: safe: moves whole sections (heading, key lines, body) into topic
    order, one blank line between sections; every line is kept, the header
    above the first section is not touched.
    """
    entries = _entries(ctx)
    topics = [e.title or "" for e in entries]
    first = next((i for i in range(1, len(topics)) if topics[i] < topics[i - 1]), None)
    if first is None:
        return
    e, idx = entries[first], ctx.store.index
    fix = Fix("sort the index sections by topic", {idx.path: sorted_index(idx, entries)}) if idx.newline in ("\n", "\r\n") else None
    yield Finding(e.span, f"entry {echo(topics[first])} comes after {echo(topics[first - 1])}; the reference sorts entries by topic",
                  fix=fix)


def sorted_index(idx, entries) -> bytes:
    """The index text with its entry sections in topic order (see M113).

    Each section runs from its heading to the next heading; trailing blank
    lines of a section are dropped and one blank line separates sections.
    The file's line ending (LF or CRLF, not mixed), its final newline (or
    lack of one) and its BOM are kept.
    """
    nl = idx.newline
    lines = idx.text.replace("\r\n", "\n").split("\n")
    ends_nl = idx.text.endswith("\n")
    if ends_nl:
        lines = lines[:-1]
    starts = [e.line - 1 for e in entries]
    blocks = []
    for k, start in enumerate(starts):
        block = lines[start : starts[k + 1] if k + 1 < len(starts) else len(lines)]
        while block and not block[-1].strip():
            block.pop()
        blocks.append((entries[k].title or "", block))
    blocks.sort(key=lambda b: b[0])
    out = lines[: starts[0]]
    for k, (_, block) in enumerate(blocks):
        if k:
            out.append("")
        out.extend(block)
    return encode(nl.join(out) + (nl if ends_nl else ""), idx.bom)
