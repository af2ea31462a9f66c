"""mm rules: the parse and budget errors of the Memory Standard reference
(``research/mm-reference.md`` §2–§4) and its known interop traps."""

from __future__ import annotations

from mmlint.model import Span
from mmlint.rules import ERROR, WARNING, Context, Finding, reader_rule, rule
from mmlint.textutil import echo

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
    from mmlint.dialects.mm import valid_topic

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


@rule("M103", "crlf-index", ERROR, dialects=("mm",))
def crlf_index(ctx: Context):
    """The mm index uses CRLF (or CR) line endings.

    Why: the reference reads **zero entries** from a CRLF index without an
    error, then rewrites ``MEMORY.md`` with only its next entry: every
    existing entry is lost (mm-reference §9 B1).
    Bad: ``MEMORY.md`` saved with Windows line endings
    Good: LF line endings (``git config core.autocrlf input``).
    """
    idx = ctx.store.index
    if idx is not None and "\r" in idx.text:
        line = idx.text[: idx.text.index("\r")].count("\n") + 1
        yield Finding(Span(idx.path, line, 1), "index has CR line endings: the mm reference reads zero entries from it",
                      hint="convert MEMORY.md to LF line endings")


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
            seen[e.title or ""] = e.span.line


@rule("M106", "note-title-not-topic", ERROR, dialects=("mm",))
def note_title_not_topic(ctx: Context):
    """A detail file's ``# title`` (or ``> mm-topic:``) is not its entry's topic.

    Why: the reference validates the title as a slug: a human title such as
    ``# Project Notes`` makes the whole store fail to open (``E_INVALID``);
    a different slug misfiles the note.
    Bad: ``# Deployment notes`` in ``memories/deployment.md``
    Good: ``# deployment``
    """
    from mmlint.dialects.mm import valid_topic

    for n in ctx.store.notes:
        lay = n.layout if isinstance(n.layout, dict) else None
        nl = lay.get("note") if lay else None
        if nl is None or lay.get("entry") is None:
            continue
        for label, value, line in (("title", nl.title, 1), ("mm-topic", nl.meta.get("mm-topic"), None)):
            if value is None:
                continue
            if not valid_topic(value):
                yield Finding(Span(n.path, line or 1, 1), f"{label} {echo(value)} is not a valid topic slug: the reference fails to load the store",
                              hint=f"use '# {n.slug}' and put the human title in the body")
            elif value != n.slug:
                yield Finding(Span(n.path, line or 1, 1), f"{label} {echo(value)} differs from the entry topic {echo(n.slug)}")


@rule("M107", "orphan-detail-file", WARNING, dialects=("mm",))
def orphan_detail_file(ctx: Context):
    """A ``memories/*.md`` file that no index entry names (``orphanFiles``).

    Why: the reference never loads it; the memory is invisible.
    Bad: ``memories/old.md`` with no ``## old`` entry
    Good: add an entry for it, or delete it.
    """
    for n in ctx.store.notes:
        if isinstance(n.layout, dict) and n.layout.get("entry") is None:
            yield Finding(Span(n.path, 1, 1), "detail file is not named by any index entry")


@rule("M108", "budget-mismatch", WARNING, dialects=("mm",))
def budget_mismatch(ctx: Context):
    """An entry's recorded ``budget:`` body size differs from the note's
    actual body (code points), or the field is malformed.

    Why: budget reports use the recorded value; a stale one misreports how
    close the note is to its write budget. ``10 / 4000`` (spaces) reads as 0/0.
    Bad: ``- **budget:** 145/4000`` for a 192-character body
    Good: ``- **budget:** 192/4000``
    """
    import re

    for n in ctx.store.notes:
        if n.budget is None or not isinstance(n.layout, dict) or n.layout.get("missing"):
            continue
        m = re.match(r"^(\d+)/(\d+)", n.budget)
        span = n.spans.get("budget") or Span(n.path, 1, 1)
        if not m:
            yield Finding(span, f"budget {echo(n.budget)} is not <bodyChars>/<writeBudget>; the reference reads it as 0/0")
            continue
        actual = len(n.body.strip("\n"))
        if int(m.group(1)) != actual:
            yield Finding(span, f"budget records {m.group(1)} body characters; the body has {actual}")


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
        if not isinstance(n.layout, dict) or n.layout.get("entry") is None:
            continue
        inst = {"topic": n.slug, "file": n.path}
        for f in ("summary", "tags", "updated"):
            if getattr(n, f) is not None:
                inst[f] = getattr(n, f)
        for err in validate("mm.entry", inst):
            if err.key in ("topic", "file"):
                continue  # M101 / M102 say it better
            yield Finding(n.spans.get(err.key) or Span(n.path, 1, 1), f"{err.message} [{err.pointer}]")
