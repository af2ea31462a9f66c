"""Index rules: presence, size caps and shape of ``MEMORY.md``.

Lines are counted as the specs do (``\\n`` count, plus one for an unterminated
last line); bytes are raw on-disk bytes (a BOM counts). Caps come from the
dialect and profile and can be overridden with ``Options.caps``.
"""

from __future__ import annotations

import re
from typing import Any

from mmlint.model import Span
from mmlint.rules import ERROR, INFO, SAFE, WARNING, Context, Finding, Fix, rule


def index_caps(ctx: Context) -> dict[str, int | None]:
    """Caps for the store's dialect and profile, with option overrides
    (see :func:`dialect_index_caps`)."""
    return dialect_index_caps(ctx.dialect, ctx.store.profile, ctx.options.caps)


def dialect_index_caps(dialect: Any, profile: str | None, overrides: dict[str, int]) -> dict[str, int | None]:
    """Index caps of a dialect module and profile, ``overrides`` (the
    ``caps`` option, keys ``index_lines`` ...) winning.

    Keys: ``lines``, ``bytes`` (hard), ``soft_lines``, ``soft_bytes``; a
    value is ``None`` when the dialect has no such cap (workspace).
    """
    caps = dialect.INDEX_CAPS
    if profile and profile in caps:
        caps = caps[profile]
    out = {k: caps.get(k) for k in ("lines", "bytes", "soft_lines", "soft_bytes")}
    for k in out:
        if f"index_{k}" in overrides:
            out[k] = overrides[f"index_{k}"]
    return out


@rule("I101", "missing-index", ERROR, dialects=("mm", "engramory"))
def missing_index(ctx: Context):
    """The store has notes but no ``MEMORY.md`` index.

    Why: agents load the index at session start; without it no note is
    reachable.
    Bad: a folder of notes with no ``MEMORY.md``
    Good: a ``MEMORY.md`` with one pointer per note.
    """
    store = ctx.store
    if store.index is None and store.notes:
        other = [p for p in store.files if p.lower() == "memory.md"]
        hint = f"rename {other[0]!r} to 'MEMORY.md' (the name is case-sensitive)" if other else "create MEMORY.md with a pointer to each note"
        yield Finding(Span("MEMORY.md", 1, 1), f"no MEMORY.md index, but {len(store.notes)} note(s)", hint=hint)


@rule("I102", "index-line-cap", ERROR, dialects=("mm", "engramory"))
def index_line_cap(ctx: Context):
    """The index has more lines than the dialect's hard cap (200).

    Why: agents load only the first 200 lines; every pointer past them is a
    memory that silently stops being recalled. Writers refuse to grow an index
    past the cap, so the next save fails too.
    Bad: a 249-line ``MEMORY.md``
    Good: consolidate entries, or move detail into notes, until it fits.
    """
    idx = ctx.store.index
    caps = index_caps(ctx)
    if idx is None or caps["lines"] is None:
        return
    if idx.line_count > caps["lines"]:
        over = idx.line_count - caps["lines"]
        yield Finding(Span(idx.path, caps["lines"] + 1, 1), f"index has {idx.line_count} lines, over the {caps['lines']}-line cap by {over}",
                      hint="consolidate or remove entries; never truncate", anchor="index-lines")


@rule("I103", "index-byte-cap", ERROR, dialects=("mm", "engramory"))
def index_byte_cap(ctx: Context):
    """The index is larger in bytes than the dialect's hard cap.

    Why: the caps are 25,600 bytes (mm, engramory) and 25,000 bytes for
    Claude Code's load window; content past the cap is never loaded.
    Bad: a 27,756-byte ``MEMORY.md``
    Good: shorten hooks (move detail into the notes) until it fits.
    """
    idx = ctx.store.index
    caps = index_caps(ctx)
    if idx is None or caps["bytes"] is None:
        return
    if idx.size_bytes > caps["bytes"]:
        line = _line_at_byte(idx.text, caps["bytes"], idx.bom)
        yield Finding(Span(idx.path, line, 1), f"index is {idx.size_bytes} bytes, over the {caps['bytes']}-byte cap by {idx.size_bytes - caps['bytes']}",
                      hint="shorten the longest entries first; never truncate", anchor="index-bytes")


def _line_at_byte(text: str, limit: int, bom: bool) -> int:
    used = 3 if bom else 0
    for i, line in enumerate(text.split("\n"), start=1):
        used += len(line.encode("utf-8", "surrogateescape")) + 1
        if used > limit:
            return i
    return max(1, text.count("\n"))


@rule("I104", "index-soft-cap", WARNING, dialects=("engramory",), profiles=("upstream",))
def index_soft_cap(ctx: Context):
    """The index passed the soft cap (150 lines or 20,480 bytes, upstream).

    Why: upstream engramory warns here so that compaction starts before the
    hard cap blocks writes.
    Bad: a 162-line index
    Good: plan a compaction pass now.
    """
    idx = ctx.store.index
    caps = index_caps(ctx)
    if idx is None:
        return
    hard_l, hard_b = caps["lines"] or 0, caps["bytes"] or 0
    if caps["soft_lines"] and caps["soft_lines"] < idx.line_count <= hard_l:
        yield Finding(Span(idx.path, caps["soft_lines"] + 1, 1), f"index has {idx.line_count} lines, past the {caps['soft_lines']}-line soft cap (hard cap {hard_l})",
                      anchor="index-soft-lines")
    if caps["soft_bytes"] and caps["soft_bytes"] < idx.size_bytes <= hard_b:
        yield Finding(Span(idx.path, _line_at_byte(idx.text, caps["soft_bytes"], idx.bom), 1),
                      f"index is {idx.size_bytes} bytes, past the {caps['soft_bytes']}-byte soft cap (hard cap {hard_b})",
                      anchor="index-soft-bytes")


_REF_DEF = re.compile(r"^ {0,3}\[[^\]]+\]:[ \t]*\S")


@rule("I105", "index-prose", INFO, dialects=("engramory",))
def index_prose(ctx: Context):
    """Index lines that are neither pointers, headings nor blank (one finding
    per run of such lines; tables and code blocks count too).

    Why: the index is loaded whole every session; prose there is note content
    leaking into the always-loaded budget (engramory SKILL §3).
    Bad: ``- Always deploy from main, never from a branch`` in ``MEMORY.md``
    Good: put the fact in a note and point at it.
    """
    idx = ctx.store.index
    if idx is None:
        return
    block: list[int] = []
    for line, text in idx.prose + [(10**9, "")]:
        stripped = text.strip()
        # blockquote headers, comments, rules and link reference definitions are not content
        skip = stripped.startswith(">") or stripped.startswith("<!--") or stripped in ("---", "***") or bool(_REF_DEF.match(text))
        if block and (line != block[-1] + 1 or skip or not stripped):
            first, last = block[0], block[-1]
            where = f"line {first} holds" if first == last else f"lines {first}-{last} hold"
            yield Finding(Span(idx.path, first, 1, last, None), f"index {where} content, not pointers to notes",
                          hint="move the content into a note and point at it")
            block = []
        if stripped and not skip:
            block.append(line)


@rule("I106", "duplicate-pointer", INFO, dialects=("engramory",))
def duplicate_pointer(ctx: Context):
    """Several index entries point at the same note.

    Why: each note should have one pointer; duplicates spend index budget
    and drift apart when one is edited.
    Bad: ``- [A](a.md)`` twice
    Good: one entry per note.
    """
    idx = ctx.store.index
    if idx is None:
        return
    first: dict[str, int] = {}
    for e in idx.entries:
        if e.kind not in ("link", "bare") or e.credits is None:
            continue
        if e.credits in first:
            yield Finding(e.pointer_span or e.span, f"{e.credits!r} is already pointed at on line {first[e.credits]}")
        else:
            first[e.credits] = e.span.line


@rule("I107", "stale-projection", WARNING, dialects=("workspace",), fix=SAFE)
def stale_projection(ctx: Context):
    """The workspace ``MEMORY.md`` does not list exactly the notes on disk.

    Why: the plugin regenerates the index from the notes; a note missing from
    it (or an entry whose note is gone) means the index was edited by hand or
    is out of date, and ``memory_recall`` shows the agent a wrong list.
    Bad: a note ``项目约定/x.md`` absent from the index
    Good: the index the plugin generates from the notes on disk.
    Fix: safe: regenerates the projection from the notes, as the plugin does
    on its next save. Offered only while the index holds nothing but
    generated lines (headings, the header, entry lines); an index with
    hand-written lines is left for a person, since regenerating would drop them.
    """
    store = ctx.store
    idx = store.index
    if idx is None:
        if store.notes:
            yield Finding(Span("MEMORY.md", 1, 1), f"no MEMORY.md projection for {len(store.notes)} note(s)",
                          hint="the next memory_save rebuilds it", fix=_projection_fix(ctx))
        return
    listed = {e.target: e for e in idx.entries if e.target}
    paths = {n.path for n in store.notes}
    for n in store.notes:
        if n.path not in listed:
            yield Finding(Span(idx.path, 1, 1), f"note {n.path!r} is missing from the index", fix=_projection_fix(ctx),
                          anchor=n.path)
    for target, e in listed.items():
        if target not in paths:
            yield Finding(e.pointer_span or e.span, f"index lists {target!r}, which is not a note in the store",
                          fix=_projection_fix(ctx))


_GENERATED_HEADER = re.compile(r"^- (工作区：.*|记忆根目录：.*|共 \d+ 条记忆)$")


def _projection_fix(ctx: Context) -> Fix | None:
    """The regenerated projection (computed once per run), or ``None`` when
    the index holds hand-written lines or the result would not list every
    note (a file name a markdown link cannot carry)."""
    if "projection_fix" in ctx.cache:
        return ctx.cache["projection_fix"]
    from mmlint.dialects.workspace import GENERATED_NOTE, INDEX_TITLE, project_index, read_index

    store, idx, fix = ctx.store, ctx.store.index, None
    generated = True
    if idx is not None:
        entry_lines = {e.span.line for e in idx.entries}
        for i, raw in enumerate(idx.text.split("\n"), start=1):
            line = raw.rstrip("\r")
            if line.strip() and i not in entry_lines and line not in (f"# {INDEX_TITLE}", GENERATED_NOTE) \
                    and not line.startswith("## ") and not _GENERATED_HEADER.match(line):
                generated = False
                break
    if generated:
        files = {n.path: store.files[n.path].data or b"" for n in store.notes if n.path in store.files}
        new = project_index(store, files)
        if {e.target for e in read_index("MEMORY.md", new).entries} == {n.path for n in store.notes}:
            fix = Fix("regenerate MEMORY.md from the notes", {idx.path if idx is not None else "MEMORY.md": new})
    ctx.cache["projection_fix"] = fix
    return fix


@rule("I108", "index-name-case", WARNING)
def index_name_case(ctx: Context):
    """The index is spelled with the wrong case (``memory.md``,
    ``Memory.md``), alone or next to ``MEMORY.md``.

    Why: the engramory doctor and Claude Code read exactly ``MEMORY.md``
    while the engramory guard gates any case; on a case-insensitive file
    system two spellings are one file.
    Bad: ``memory.md``
    Good: ``MEMORY.md``
    """
    for path in ctx.store.files:
        if path.lower() == "memory.md" and path != "MEMORY.md":
            yield Finding(Span(path, 1, 1), f"index file is named {path!r}; tools look for exactly 'MEMORY.md'")


@rule("I109", "index-symlink", WARNING)
def index_symlink(ctx: Context):
    """``MEMORY.md`` is a symbolic link (inside the store).

    Why: engramory's sync gate refuses any symlinked index, and editors that
    replace files atomically turn the link into a copy.
    Bad: ``MEMORY.md -> notes/index.md``
    Good: a regular ``MEMORY.md``.
    """
    import os

    full = os.path.join(ctx.store.root, "MEMORY.md")
    if os.path.islink(full) and ctx.store.files.get("MEMORY.md") is not None and ctx.store.files["MEMORY.md"].kind == "index":
        yield Finding(Span("MEMORY.md", 1, 1), "MEMORY.md is a symlink; engramory's sync gate refuses it")


@rule("I110", "long-entry", INFO, dialects=("engramory",))
def long_entry(ctx: Context):
    """An index pointer line is longer than 200 characters (code points;
    configurable: caps ``entry_chars``).

    Why: the index is loaded whole every session; a long hook spends the
    shared budget on one memory and reads as content rather than a pointer
    (engramory SKILL §3: one short hook per line).
    Bad: a 1,371-character hook after ``- [Spec](spec.md) —``
    Good: a one-line hook that says when to open the note; the rest in the note.
    """
    idx = ctx.store.index
    if idx is None:
        return
    limit = int(ctx.options.caps.get("entry_chars", 200))
    lines = idx.lines()
    seen = set()
    for e in idx.entries:
        if e.kind != "link" or e.span.line in seen:
            continue
        seen.add(e.span.line)
        n = len(lines[e.span.line - 1])
        if n > limit:
            yield Finding(Span(idx.path, e.span.line, limit + 1), f"pointer line is {n} characters long (over {limit})",
                          hint="shorten the hook; move the detail into the note")
