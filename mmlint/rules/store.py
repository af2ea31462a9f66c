"""Store rules: files that cannot be read safely or are not what they claim.

Covers the walk (symlinks out of the root, unreadable files and folders,
folders not walked) and crash or encoding leftovers in notes.
"""

from __future__ import annotations

from mmlint.model import Span
from mmlint.rules import ERROR, INFO, WARNING, Context, Finding, reader_rule, rule
from mmlint.textutil import decode

reader_rule("S101", "symlink-escape", ERROR, """
    A file in the store is a symlink whose target lies outside the store root.

    Why: reading it would leak a file the store does not own into the agent's
    context; mmlint never opens it.
    Bad: ``notes/evil.md -> /home/user/.ssh/config``
    Good: a regular file, or a link to a file inside the store.
    """)
reader_rule("S102", "unreadable-file", ERROR, """
    A file in the store could not be read (permissions, a dangling or looping
    symlink, or a size over the 16 MiB read limit).

    Why: a note that cannot be read is a memory the agent silently loses.
    Bad: ``chmod 000 feedback_x.md``
    Good: the file is readable by the user running the agent.
    """)
reader_rule("S104", "folder-not-walked", WARNING, """
    A folder below the root is not walked: a symlinked folder, or another
    tool's folder (``.git``, ``.obsidian``, ``.trash``, ``.claude``,
    ``node_modules``), reported at info level.

    Why: notes inside it are not part of the store; a symlinked folder that
    leaves the root would otherwise pull outside files in.
    Bad: ``shared -> ../../other-project/memory``
    Good: notes live in real folders below the root.
    """)
reader_rule("S105", "unlistable-folder", ERROR, """
    A folder below the root could not be listed.

    Why: its notes are invisible, so a "clean" verdict would be false.
    Bad: ``chmod 000 project/``
    Good: every folder of the store is readable.
    """)


def _first_bad(text: str) -> tuple[int, int]:
    line, col = 1, 1
    for ch in text:
        if "\udc80" <= ch <= "\udcff" or ch == "\x00":
            return line, col
        if ch == "\n":
            line, col = line + 1, 1
        else:
            col += 1
    return 1, 1


@rule("S106", "invalid-utf8", WARNING)
def invalid_utf8(ctx: Context):
    """A note or the index holds bytes that are not valid UTF-8.

    Why: tools replace such bytes with U+FFFD when they read the file, so what
    the agent sees differs from the file, and a rewrite destroys the bytes.
    Bad: a note saved in Latin-1 (``caf\\xe9``)
    Good: the file re-saved as UTF-8.
    """
    for rec in ctx.store.files.values():
        if rec.kind not in ("note", "index") or rec.data is None:
            continue
        dec = decode(rec.data)
        if dec.bad_bytes:
            line, col = _first_bad(dec.text)
            yield Finding(Span(rec.path, line, col), f"{dec.bad_bytes} byte(s) are not valid UTF-8 (first at line {line})",
                          hint="re-save the file as UTF-8")


@rule("S107", "nul-bytes", ERROR)
def nul_bytes(ctx: Context):
    """A note or the index contains NUL bytes: the mark of an interrupted write.

    Why: a note zeroed by a crash reads as garbage or as empty; the memory is
    lost unless restored from version control.
    Bad: a file of 4,096 NUL bytes
    Good: the note restored from history, or removed with its pointer.
    """
    for rec in ctx.store.files.values():
        if rec.kind in ("note", "index") and rec.data and b"\x00" in rec.data:
            dec = decode(rec.data)
            line, col = _first_bad(dec.text)
            n = rec.data.count(b"\x00")
            what = "entirely NUL bytes" if n == len(rec.data) else f"{n} NUL byte(s)"
            yield Finding(Span(rec.path, line, col), f"file holds {what} (an interrupted write?)",
                          hint="restore the file from version control or a backup")


@rule("S108", "empty-note", WARNING)
def empty_note(ctx: Context):
    """A note file is empty or holds only whitespace.

    Why: an empty note is a pointer to nothing; usually a crash leftover or
    a stub that was never written.
    Bad: ``project_x.md`` of 0 bytes
    Good: the note has content, or it and its pointer are removed.
    """
    for rec in ctx.store.files.values():
        if rec.kind == "note" and rec.data is not None and not rec.data.strip(b" \t\r\n\x00\xef\xbb\xbf") and b"\x00" not in rec.data:
            yield Finding(Span(rec.path, 1, 1), f"note is empty ({len(rec.data)} bytes)")


@rule("S109", "leftover-file", INFO)
def leftover_file(ctx: Context):
    """A temporary, backup or sync-conflict file sits in the store.

    Why: editors, crashed writers and sync clients leave copies such as
    ``x.md.bak``, ``.x.md.1234.tmp``, ``x (conflicted copy).md`` or
    ``x.sync-conflict-20260101.md``; a copy that is also a note duplicates a
    memory, and the rest is clutter the agent may read.
    Bad: ``feedback_x (conflicted copy 2026-01-02).md``
    Good: merge the copy into the note and delete it.
    """
    for path, rec in ctx.store.files.items():
        name = path.rsplit("/", 1)[-1]
        low = name.lower()
        kind = None
        if low.endswith((".bak", ".tmp", ".swp", ".orig", "~")) or (low.startswith(".") and ".tmp" in low):
            kind = "a temporary or backup file"
        elif "conflicted copy" in low or ".sync-conflict-" in low or "conflict" in low and "(" in low or \
                (low.endswith(".md") and low[:-3].rstrip().endswith((" 2", " 3"))):
            kind = "a sync-conflict copy"
        if kind:
            yield Finding(Span(path, 1, 1), f"{name!r} looks like {kind}", hint="merge what it holds and delete it")
