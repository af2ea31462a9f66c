"""Index rules: presence, size caps and shape of ``MEMORY.md``.

Lines are counted as the specs do (``\\n`` count, plus one for an unterminated
last line); bytes are raw on-disk bytes (a BOM counts). Caps come from the
dialect and profile and can be overridden with ``Options.caps``.
"""

from __future__ import annotations

import re

from mmlint.model import Span
from mmlint.rules import ERROR, INFO, SAFE, UNSAFE, WARNING, Context, Finding, Fix, rule
from mmlint.textutil import echo

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any


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
        msg = f"no MEMORY.md index, but {len(store.notes)} note(s)"
        if not other and _folder_named_index(store.root):
            msg = f"MEMORY.md is a folder, not an index file: no index for {len(store.notes)} note(s)"
            hint = "move the folder aside and create MEMORY.md with a pointer to each note"
        yield Finding(Span("MEMORY.md", 1, 1), msg, hint=hint)


def _folder_named_index(root: str) -> bool:
    """Whether ``root`` (a store read from disk) holds a folder, not a
    symlink, named ``MEMORY.md`` (one ``lstat``; ``False`` for a store held
    in memory)."""
    import os
    import stat

    try:
        return stat.S_ISDIR(os.lstat(os.path.join(root, "MEMORY.md")).st_mode)
    except (OSError, ValueError, TypeError):
        return False


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
    """The 1-based line (at ``\n``) holding byte ``limit + 1`` of the
    index's UTF-8 (after a BOM), else its last line; reads only the lines
    up to it."""
    used = 3 if bom else 0
    start, i = 0, 1
    while True:
        end = text.find("\n", start)
        line = text[start:] if end < 0 else text[start:end]
        used += len(line.encode("utf-8", "surrogateescape")) + 1
        if used > limit:
            return i
        if end < 0:
            return max(1, text.count("\n"))
        start, i = end + 1, i + 1


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
            first[e.credits] = e.line


@rule("I107", "stale-projection", WARNING, dialects=("workspace",), fix=SAFE)
def stale_projection(ctx: Context):
    """A line of the workspace ``MEMORY.md`` differs from the projection the
    plugin would generate from the notes on disk (a title, tags, a date, a
    size, a category, the count, a note listed or not), or a generated line
    is missing.

    Why: the plugin regenerates the whole index from the notes on every
    save; each difference is a change the next save makes silently, and
    until then ``memory_recall`` shows the agent a list that is not the
    store. One finding per differing line, naming what the plugin writes
    there (blank lines and line endings: one finding for the file). Lines
    that are not generated at all are I111's.
    Bad: ``- [甲](./甲.md) · 2026-10-08 · 1 B`` for a 180-byte note
    Good: the index the plugin generates from the notes on disk.
    Fix: safe: regenerates the projection from the notes, as the plugin does
    on its next save. Offered only while the index holds nothing but
    generated lines (headings, the header, entry lines); an index with
    hand-written lines gets I111's unsafe fix, which names the lines it drops.
    """
    store = ctx.store
    idx = store.index
    if idx is None:
        if store.notes:
            yield Finding(Span("MEMORY.md", 1, 1), f"no MEMORY.md projection for {len(store.notes)} note(s)",
                          hint="the next memory_save rebuilds it", fix=_projection_fix(ctx))
        return
    proj = _projection(ctx)
    fix = _projection_fix(ctx)
    actual = [(n, t) for n, t in proj["lines"] if n not in proj["hand"] and t.strip()]
    generated = [t for t in proj["generated"] if t.strip()]
    import difflib

    sm = difflib.SequenceMatcher(None, [t for _, t in actual], generated, autojunk=False)
    end = proj["lines"][-1][0] if proj["lines"] else 1
    differs = False
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            continue
        differs = True
        pairs = min(i2 - i1, j2 - j1) if op == "replace" else 0
        for k in range(pairs):
            n, now = actual[i1 + k]
            want = generated[j1 + k]
            yield Finding(Span(idx.path, n, 1), f"line differs from the generated projection, which reads "
                          f"{echo(want, _SHOWN)}", hint=f"the next memory_save rewrites it; now {echo(now, _SHOWN)}",
                          fix=fix, anchor=f"projection:{want}")
        for k in range(i1 + pairs, i2):
            n, now = actual[k]
            yield Finding(Span(idx.path, n, 1), f"line is not in the generated projection: {echo(now, _SHOWN)}",
                          hint="the next memory_save drops it (its note is not on disk, or is listed twice)", fix=fix)
        at = actual[i2][0] if i2 < len(actual) else end
        for k in range(j1 + pairs, j2):
            yield Finding(Span(idx.path, at, 1), f"the generated projection has a line missing here: "
                          f"{echo(generated[k], _SHOWN)}", hint="the next memory_save adds it", fix=fix,
                          anchor=f"projection-missing:{generated[k]}")
    if not differs and not proj["hand"] and proj["text"] != proj["generated_text"]:
        yield Finding(Span(idx.path, 1, 1), "blank lines or line endings differ from the generated projection",
                      hint="the next memory_save rewrites them", fix=fix, anchor="projection-spacing")


@rule("I111", "hand-written-index-line", WARNING, dialects=("workspace",), fix=UNSAFE)
def hand_written_index_line(ctx: Context):
    """A line of the workspace ``MEMORY.md`` that the plugin does not
    generate: no entry, not the title, notice, header or a section heading
    (one finding per run of such lines).

    Why: the index is a projection the plugin regenerates on every save;
    a line written by hand is content, and the next ``memory_save`` or
    ``memory_forget`` throws it away without a word (spec, "The index is a
    projection").
    Bad: ``别忘了周五备份`` typed into ``MEMORY.md``
    Good: the fact as a note (``memory_save``), which the index then lists.
    Fix: unsafe: regenerates the projection as the plugin would, which
    discards the hand-written lines; the fix names them. Move their content
    into a note first.
    """
    store = ctx.store
    if store.index is None:
        return
    proj = _projection(ctx)
    hand = sorted(proj["hand"])
    if not hand:
        return
    fix = None
    new = _regenerated(ctx)
    if new is not None:
        fix = Fix(f"regenerate MEMORY.md from the notes, discarding hand-written line{'s' if len(hand) > 1 else ''} "
                  f"{_ranges(hand)}", {store.index.path: new})
    text = dict(proj["lines"])
    for first, last in _runs(hand):
        where = f"line {first} is" if first == last else f"lines {first}-{last} are"
        yield Finding(Span(store.index.path, first, 1, last, None),
                      f"{where} written by hand: {echo(text[first], _SHOWN)}; the plugin's next save discards "
                      f"{'it' if first == last else 'them'}",
                      hint="move the content into a note (memory_save); the index lists notes only", fix=fix)


#: Code points of an index line quoted in a projection message.
_SHOWN = 120


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted line numbers as ``(first, last)``."""
    out: list[tuple[int, int]] = []
    for n in lines:
        if out and n == out[-1][1] + 1:
            out[-1] = (out[-1][0], n)
        else:
            out.append((n, n))
    return out


def _ranges(lines: list[int]) -> str:
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in _runs(lines))


def _projection(ctx: Context) -> dict[str, Any]:
    """The index as read and as the plugin would generate it, computed once
    per run: ``lines`` (``(line number, text)`` of the index, line breaks
    removed), ``hand`` (numbers of hand-written lines: no entry and not a
    generated shape, ``dialect.generated_shape``), ``generated`` (the lines
    of the projection), ``text`` / ``generated_text`` (both whole, LF)."""
    if "projection" in ctx.cache:
        return ctx.cache["projection"]
    idx = ctx.store.index
    text = idx.text.replace("\r\n", "\n").replace("\r", "\n") if idx is not None else ""
    raw = text[:-1] if text.endswith("\n") else text
    lines = list(enumerate(raw.split("\n"), start=1)) if raw else []
    entry_lines = {e.line for e in idx.entries} if idx is not None else set()
    hand = {n for n, t in lines if n not in entry_lines and not ctx.dialect.generated_shape(t)}
    new = _render(ctx).decode("utf-8", "surrogateescape")
    gen = new[:-1] if new.endswith("\n") else new
    proj = {"lines": lines, "hand": hand, "generated": gen.split("\n"), "text": text, "generated_text": new}
    ctx.cache["projection"] = proj
    return proj


def _render(ctx: Context) -> bytes:
    """The projection of the notes on disk (``dialect.project_index``)."""
    if "projection_bytes" not in ctx.cache:
        store = ctx.store
        files = {n.path: store.files[n.path].data or b"" for n in store.notes if n.path in store.files}
        ctx.cache["projection_bytes"] = ctx.dialect.project_index(store, files)
    return ctx.cache["projection_bytes"]


def _regenerated(ctx: Context) -> bytes | None:
    """The regenerated projection, or ``None`` when it would not list every
    note (a file name a markdown link cannot carry)."""
    new = _render(ctx)
    listed = {e.target for e in ctx.dialect.read_index("MEMORY.md", new).entries}
    return new if listed == {n.path for n in ctx.store.notes} else None


def _projection_fix(ctx: Context) -> Fix | None:
    """I107's safe fix: the regenerated projection, or ``None`` when the
    index holds hand-written lines (I111's unsafe fix then) or the result
    would not list every note."""
    if "projection_fix" in ctx.cache:
        return ctx.cache["projection_fix"]
    idx, fix = ctx.store.index, None
    if idx is None or not _projection(ctx)["hand"]:
        new = _regenerated(ctx)
        if new is not None:
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


def _long_lines(text: str, limit: int) -> dict[int, int]:
    """1-based line number -> length (code points) of each line of ``text``
    (as :meth:`~mmlint.model.Index.lines` splits it) longer than ``limit``;
    read one line at a time, so no list of every line is made."""
    from mmlint.markdown import iter_lines

    return {k: len(line) for k, line in enumerate(iter_lines(text), start=1) if len(line) > limit}


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
    long = _long_lines(idx.text, limit)
    if not long:
        return
    seen = set()
    for e in idx.entries:
        if e.kind != "link":
            continue
        n = long.get(e.line)
        if n is not None and e.line not in seen:  # one finding a line
            seen.add(e.line)
            yield Finding(Span(idx.path, e.line, limit + 1), f"pointer line is {n} characters long (over {limit})",
                          hint="shorten the hook; move the detail into the note")
