"""Size caps on notes: bytes per note, notes per store, code points per body."""

from __future__ import annotations

from mmlint.model import Span
from mmlint.rules import ERROR, WARNING, Context, Finding, rule


def _cap(ctx: Context, key: str, default: int) -> int:
    return int(ctx.options.caps.get(key, default))


@rule("C101", "note-too-large", ERROR, dialects=("engramory",), profiles=("recall-v1", "upstream"), scope="note")
def note_too_large(ctx: Context):
    """A note is larger than 4 MiB (4,194,304 bytes).

    Why: recall-v1 retrieval skips such notes entirely (seed spec §6), and
    the upstream doctor refuses to validate them.
    Bad: a 5 MB activity log as a note
    Good: split it, or archive the history into ``<slug>-history.md``.
    """
    limit = _cap(ctx, "note_bytes", ctx.fact("NOTE_MAX_BYTES"))
    for n in ctx.store.notes:
        rec = ctx.store.files.get(n.path)
        if rec is not None and rec.size > limit:
            yield Finding(Span(n.path, 1, 1), f"note is {rec.size} bytes, over the {limit}-byte cap by {rec.size - limit}")


@rule("C102", "too-many-notes", WARNING, dialects=("engramory",), profiles=("recall-v1",))
def too_many_notes(ctx: Context):
    """The store holds more than 2,000 notes (recall-v1 §6).

    Why: notes past the 2,000th take no part in retrieval.
    Bad: 2,400 notes
    Good: archive or merge notes until at most 2,000 remain.
    """
    limit = _cap(ctx, "notes", ctx.fact("MAX_NOTES"))
    notes = [n for n in ctx.store.notes if not ctx.is_history(n.path)]
    if len(notes) > limit:
        yield Finding(Span(ctx.store.index.path if ctx.store.index else "MEMORY.md", 1, 1),
                      f"store holds {len(notes)} notes, over the {limit}-note cap by {len(notes) - limit}", anchor="notes")


@rule("C103", "detail-file-cap", ERROR, dialects=("mm",))
def detail_file_cap(ctx: Context):
    """An mm detail file is larger than ``detailMaxBytes`` (65,536 bytes).

    Why: the mm writer refuses to save it (``E_FILE_BUDGET_EXCEEDED``), so
    the next update of this note fails.
    Bad: a 70 KB ``memories/log.md``
    Good: split the note or condense it.
    """
    limit = _cap(ctx, "detail_bytes", ctx.fact("DETAIL_MAX_BYTES"))
    for n in ctx.store.notes:
        rec = ctx.store.files.get(n.path)
        if rec is not None and rec.kind == "note" and rec.size > limit:
            yield Finding(Span(n.path, 1, 1), f"detail file is {rec.size} bytes, over the {limit}-byte cap by {rec.size - limit}")


@rule("C104", "write-budget", ERROR, dialects=("mm",))
def write_budget(ctx: Context):
    """An mm note body has more code points than its write budget (the
    entry's recorded ``writeBudget``, else 4,000).

    Why: ``mem_write`` refuses a body over budget (``E_WRITE_BUDGET_EXCEEDED``):
    the note as it stands could not be written again, the same refusal as
    C103 and C105, hence an error. The body is counted
    as the reference reads it back: without the newlines that open and close
    it (the reference writes a final newline after every body).
    Bad: a 5,000-character body with ``budget: 5000/4000``
    Good: a compressed body under the budget.
    """
    for n in ctx.store.notes:
        if not ctx.has_file(n):
            continue
        chars = ctx.dialect.body_chars(n.body)
        _, budget = ctx.dialect.note_budget(n, None, ctx.options.caps)
        if chars > budget:
            yield Finding(n.spans.get("budget") or Span(n.path, 1, 1),
                          f"body is {chars} code points, over its write budget of {budget} by {chars - budget}")


@rule("C105", "entry-too-large", ERROR, dialects=("workspace",))
def entry_too_large(ctx: Context):
    """A workspace note body is larger than ``maxEntryBytes`` (262,144 bytes).

    Why: ``memory_save`` refuses bodies over the limit, so the note cannot be
    saved again through the plugin.
    Bad: a 300 KB body
    Good: split it into several memories.
    """
    limit = _cap(ctx, "entry_bytes", ctx.fact("MAX_ENTRY_BYTES"))
    for n in ctx.store.notes:
        size = len(n.body.encode("utf-8", "surrogateescape"))
        if size > limit:
            yield Finding(Span(n.path, 1, 1), f"body is {size} bytes, over the {limit}-byte maxEntryBytes by {size - limit}")
