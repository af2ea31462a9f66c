"""Store rules: files that cannot be read safely or are not what they claim.

Covers the walk (symlinks out of the root, unreadable files and folders,
folders not walked) and crash or encoding leftovers in notes.
"""

from __future__ import annotations

import re

from mmlint.model import Span
from mmlint.rules import ERROR, INFO, SAFE, WARNING, Context, Finding, Fix, reader_rule, rule, shared
from mmlint.textutil import count_lines, decode, echo, lazy_re, utf16_kind

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
reader_rule("S117", "index-too-large-to-parse", ERROR, """
    The index is over 1 MiB, 40 times the largest cap: its entries are not
    read, so the pointer and orphan checks do not run on this store.

    Why: no agent loads such an index, and parsing megabytes of hostile
    markdown could take minutes; the size is the problem to fix first.
    Bad: a 3 MB ``MEMORY.md`` written by a runaway agent
    Good: an index within its caps (200 lines, about 25 KB).
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


# Gates asked of many files' bytes joined by b"\n" (mmlint.rules.shared):
# each is true of the joined bytes exactly when it is of some file's, since
# none of them can match the newline between two files.


def _not_ascii(data: bytes) -> bool:
    return not data.isascii()


def _has_nul(data: bytes) -> bool:
    return b"\x00" in data


def _has_cr(data: bytes) -> bool:
    return b"\r" in data


def _has_conflict_start(data: bytes) -> bool:
    return b"<<<<<<<" in data


#: Substrings one of which every match of :data:`_SECRET_PREFIXES` other
#: than the GitHub forms holds (those hold ``_`` and ``gh`` or ``github``):
#: searched first, since finding a substring is much faster than trying the
#: pattern at every byte.
_SECRET_NEEDLES = (b"IA", b"sk-", b"xox", b"AIza", b"-----BEGIN ")


def _has_secret_prefix(data: bytes) -> bool:
    github = b"_" in data and (b"gh" in data or b"github" in data)
    if not github and not any(k in data for k in _SECRET_NEEDLES):
        return False
    return _SECRET_PREFIXES.search(data) is not None


@rule("S106", "invalid-utf8", WARNING, scope="file")
def invalid_utf8(ctx: Context):
    """A note or the index holds bytes that are not valid UTF-8.

    Why: tools replace such bytes with U+FFFD when they read the file, so what
    the agent sees differs from the file, and a rewrite destroys the bytes.
    Bad: a note saved in Latin-1 (``caf\\xe9``)
    Good: the file re-saved as UTF-8.
    """
    for rec in shared.gated(ctx, _not_ascii):  # the joined bytes are ASCII when every file's are
        if rec.kind not in ("note", "index") or rec.data is None or rec.data.isascii():
            continue  # ASCII is valid UTF-8
        dec = decode(rec.data)
        if dec.bad_bytes:
            wide = utf16_kind(rec.data)
            line, col = _first_bad(dec.text)
            what = f"the file is {wide}, not UTF-8: " if wide else ""
            yield Finding(Span(rec.path, line, col), f"{what}{dec.bad_bytes} byte(s) are not valid UTF-8 (first at line {line})",
                          hint="re-save the file as UTF-8")


@rule("S107", "nul-bytes", ERROR, scope="file")
def nul_bytes(ctx: Context):
    """A note or the index contains NUL bytes: the mark of an interrupted
    write, or of a file saved as UTF-16 (said so when it looks like one).

    Why: a note zeroed by a crash reads as garbage or as empty; the memory is
    lost unless restored from version control. A UTF-16 file reads as NUL
    bytes and garbage to every tool, which reads UTF-8.
    Bad: a file of 4,096 NUL bytes; ``MEMORY.md`` saved as "Unicode" by an
    editor on Windows
    Good: the note restored from history, or removed with its pointer; the
    file re-saved as UTF-8.
    """
    for rec in shared.gated(ctx, _has_nul):
        if rec.kind in ("note", "index") and rec.data and b"\x00" in rec.data:
            dec = decode(rec.data)
            line, col = _first_bad(dec.text)
            n = rec.data.count(b"\x00")
            wide = utf16_kind(rec.data)
            if wide is not None:
                yield Finding(Span(rec.path, line, col), f"the file is {wide}, not UTF-8: its {n} NUL byte(s) are halves of "
                                                         "its characters, and the tools, which read UTF-8, see NUL bytes "
                                                         "and garbage", hint="re-save the file as UTF-8")
                continue
            what = "entirely NUL bytes" if n == len(rec.data) else f"{n} NUL byte(s)"
            yield Finding(Span(rec.path, line, col), f"file holds {what} (an interrupted write?)",
                          hint="restore the file from version control or a backup")


@rule("S108", "empty-note", WARNING, scope="file")
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


#: Compiled for the first name that may match (:func:`_maybe_sync`, :func:`_maybe_temp`): ~0.55 ms.
_SYNC_RE = lazy_re(
    r"(\.sync-conflict-\d{8}-\d{6}-[A-Z0-9]{7})"        # Syncthing
    r"|( \([^()]*conflicted copy[^()]*\))"              # Dropbox
    r"|( \((?:Case|Encoding) Conflict\))"               # Dropbox case/encoding
    r"|( [2-9]\.md$)",                                   # iCloud "name 2.md"
    re.IGNORECASE)
_TEMP_RE = lazy_re(r"(\.(bak|tmp|swp|swo|orig|rej)$)|(~$)|(^\..*\.\d+\.\d+\.tmp$)|(^\.#)", re.IGNORECASE)
_TEMP_ENDS = (".bak", ".tmp", ".swp", ".swo", ".orig", ".rej", "~")


def _maybe_sync(name: str) -> bool:
    """False only when :data:`_SYNC_RE` cannot match ``name``: an ASCII name
    (case folding is plain there) with no space (three alternatives need
    one) and no ``.sync-conflict-`` in any case (the fourth needs it)."""
    return not name.isascii() or " " in name or ".sync-conflict-" in name.lower()


def _maybe_temp(name: str) -> bool:
    """False only when :data:`_TEMP_RE` cannot match ``name``: an ASCII name
    that does not start with ``.`` and does not end (before one final line
    break, where ``$`` also matches) with ``~`` or one of the extensions."""
    if not name.isascii() or name.startswith("."):
        return True
    return (name[:-1] if name.endswith("\n") else name).lower().endswith(_TEMP_ENDS)


@rule("S109", "leftover-file", INFO, scope="file")
def leftover_file(ctx: Context):
    """A temporary or backup file sits in the store (``x.md.bak``,
    ``.x.md.1234.1.tmp`` from an interrupted atomic write, ``x.md~``,
    ``.x.swp``).

    Why: crash and editor leftovers are clutter the agent may read and tools
    may index; a ``.bak`` often holds an older version of a memory.
    Bad: ``feedback_x.md.bak``
    Good: delete it once the note is known to be right.
    """
    for path in ctx.store.files:
        name = path.rsplit("/", 1)[-1]
        if _maybe_temp(name) and _TEMP_RE.search(name) and not (_maybe_sync(name) and _SYNC_RE.search(name)):
            yield Finding(Span(path, 1, 1), f"{echo(name)} looks like a temporary or backup file", hint="delete it once the note is known to be right")


@rule("S113", "sync-conflict-copy", WARNING, scope="file")
def sync_conflict_copy(ctx: Context):
    """A sync client's conflict copy of a note: Syncthing
    (``x.sync-conflict-20260101-120000-ABCDEFG.md``), Dropbox
    (``x (conflicted copy 2026-01-02).md``), iCloud (``x 2.md``).

    Why: the copy is a second memory with the same title; the agent may
    follow either version.
    Bad: ``feedback_git (conflicted copy 2026-01-02).md``
    Good: merge the copy into the note, then delete it.
    """
    for path in ctx.store.files:
        name = path.rsplit("/", 1)[-1]
        if _maybe_sync(name) and _SYNC_RE.search(name):
            yield Finding(Span(path, 1, 1), f"{echo(name)} looks like a sync-conflict copy of another note",
                          hint="merge it into the original note and delete it")


@rule("S110", "invalid-ledger", WARNING, dialects=("engramory",), profiles=("recall-v1",))
def invalid_ledger(ctx: Context):
    """A recall-v1 ledger (``.engramory-*.jsonl``) has a line that is not a
    JSON object.

    Why: the ledgers are append-only usage records (seed spec §4); a broken
    line (a crash mid-append, a merge) breaks the tools that replay them.
    Bad: a truncated last line ``{"ts":"2026-``
    Good: one JSON object per line.
    """
    for path, rec in ctx.store.files.items():
        name = path.rsplit("/", 1)[-1]
        if not ctx.dialect.is_ledger(name) or rec.data is None:
            continue
        import json  # a store with a ledger only: the json package costs ~1.5 ms of every recall-v1 check

        for i, line in enumerate(rec.data.split(b"\n"), start=1):
            if not line.strip():
                continue
            try:
                ok = isinstance(json.loads(line), dict)
            except ValueError:
                ok = False
            if not ok:
                yield Finding(Span(path, i, 1), "ledger line is not a JSON object")


@rule("S111", "cr-line-endings", WARNING, fix=SAFE, scope="file")
def cr_line_endings(ctx: Context):
    """A note or the index uses lone CR line endings (classic Mac OS).

    Why: the engramory doctor reads such a note as having no frontmatter, and
    most tools see the whole file as one line.
    Bad: ``---\\rname: a\\r---\\r``
    Good: LF line endings.
    Fix: safe: every CR becomes an LF; no other byte changes.
    """
    for rec in shared.gated(ctx, _has_cr):
        if rec.kind in ("note", "index") and rec.data and b"\r" in rec.data and b"\n" not in rec.data:
            yield Finding(Span(rec.path, 1, 1), "file uses CR-only line endings; most tools read it as a single line",
                          fix=Fix("convert CR line endings to LF", {rec.path: rec.data.replace(b"\r", b"\n")}))


@rule("S116", "missing-final-newline", INFO, fix=SAFE, scope="file")
def missing_final_newline(ctx: Context):
    """A note or the index does not end with a line break.

    Why: tools that append to the file (agents saving a memory, ``cat >>``)
    glue their first line onto the last one, and diffs flag the last line on
    every edit.
    Bad: a note whose last line is ``How to apply: rebase first`` with no newline
    Good: the file ends with a newline.
    Fix: safe: appends one line break in the file's own style (LF, CRLF or CR).
    """
    for rec in ctx.store.files.values():
        if rec.kind not in ("note", "index") or not rec.data or rec.data.endswith(b"\n") or b"\x00" in rec.data:
            continue  # a final LF byte is a final line break in every decoding
        dec = decode(rec.data)
        text = dec.text.replace("\r", "\n") if dec.newline == "\r" else dec.text
        if not text or text.endswith("\n"):
            continue  # an empty note is S108's
        nl = dec.newline if dec.newline in ("\r\n", "\r") else "\n"
        last = text.rsplit("\n", 1)[-1]
        yield Finding(Span(rec.path, count_lines(text), len(last) + 1), "file does not end with a line break",
                      fix=Fix("append a final newline", {rec.path: rec.data + nl.encode()}))


_CONFLICT = lazy_re(r"^(<{7}|={7}|>{7}|\|{7})(?: |$)")


@rule("S112", "conflict-markers", ERROR, scope="file")
def conflict_markers(ctx: Context):
    """A note or the index holds version-control conflict markers
    (``<<<<<<<``, ``=======``, ``>>>>>>>``).

    Why: an unresolved merge; both sides are loaded as one memory, and the mm
    reference keeps the markers silently as entry text.
    Bad: ``<<<<<<< HEAD`` in ``MEMORY.md``
    Good: resolve the merge.
    """
    for rec in shared.gated(ctx, _has_conflict_start):
        if rec.kind not in ("note", "index") or rec.data is None or b"<<<<<<<" not in rec.data:
            continue
        text = decode(rec.data).text
        for i, line in enumerate(text.split("\n"), start=1):
            if line.startswith("<<<<<<<") and _CONFLICT.match(line.rstrip("\r")):
                yield Finding(Span(rec.path, i, 1), "unresolved merge conflict (conflict markers start here)")
                break


#: Token shapes of common credentials. Each pattern is a fixed prefix and a
#: bounded character class: linear time, no backtracking.
_SECRETS = (
    ("a GitHub token", lazy_re(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{22,255}\b")),
    ("an AWS access key id", lazy_re(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("an OpenAI or Anthropic API key", lazy_re(r"\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,200}\b")),
    ("a Slack token", lazy_re(r"\bxox[abprs]-[A-Za-z0-9-]{10,200}\b")),
    ("a Google API key", lazy_re(r"\bAIza[0-9A-Za-z_-]{35}\b")),
    ("a private key", lazy_re(r"-----BEGIN (?:RSA |OPENSSH |EC |DSA |PGP )?PRIVATE KEY-----")),
)
#: The literal every pattern of :data:`_SECRETS` starts with, searched in the
#: raw bytes first (one linear scan, no decoding): a file holding none of
#: them holds no secret. UTF-8 keeps ASCII bytes ASCII, so the test is exact.
_SECRET_PREFIXES = re.compile(rb"gh[pousr]_|github_pat_|A[KS]IA|sk-|xox[abprs]-|AIza|-----BEGIN ")


@rule("S114", "secret-in-store", ERROR, scope="file")
def secret_in_store(ctx: Context):
    """A note or the index holds what looks like a credential (a GitHub,
    AWS, OpenAI/Anthropic, Slack or Google key, or a private key block).

    Why: memory is loaded into every session and often committed; a secret
    there leaks to every agent and every clone. Memory should say where a
    secret lives, never hold it (engramory SKILL, recall-v1 §5.4). The
    message shows only the first four characters.
    Bad: ``token: ghp_...`` in a note
    Good: "the deploy token is in 1Password, item 'ci-deploy'"
    """
    for rec in shared.gated(ctx, _has_secret_prefix):
        if rec.kind not in ("note", "index") or not rec.data or _SECRET_PREFIXES.search(rec.data) is None:
            continue
        text = decode(rec.data).text
        for label, pattern in _SECRETS:
            m = pattern.search(text)
            if m:
                line = text.count("\n", 0, m.start()) + 1
                col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
                yield Finding(Span(rec.path, line, col), f"looks like {label} ({m.group()[:4]}...)",
                              hint="revoke the credential, remove it, and record where it is kept instead")


def _symlinked_notes(ctx: Context) -> set[str]:
    """The notes (store-relative paths) that are symbolic links: one
    directory listing per folder holding notes (a listing knows each
    entry's type), instead of an ``lstat`` per note; a folder that cannot be
    listed falls back to ``os.path.islink`` per note."""
    import os

    by_dir: dict[str, list[str]] = {}
    for path, rec in ctx.store.files.items():
        if rec.kind == "note":
            by_dir.setdefault(path.rpartition("/")[0], []).append(path)
    out: set[str] = set()
    for folder, paths in by_dir.items():
        full = os.path.join(ctx.store.root, *folder.split("/")) if folder else ctx.store.root
        try:
            with os.scandir(full) as it:
                links = {e.name for e in it if e.is_symlink()}
        except OSError:
            out.update(p for p in paths if os.path.islink(os.path.join(ctx.store.root, *p.split("/"))))
            continue
        if links:
            out.update(p for p in paths if p.rpartition("/")[2] in links)
    return out


@rule("S115", "note-symlink", WARNING)
def note_symlink(ctx: Context):
    """A note is a symbolic link to another file inside the store.

    Why: the same content is read as two memories (the link and its
    target), and tools that rewrite files atomically turn the link into a
    diverging copy.
    Bad: ``alias.md -> real.md``
    Good: one file; point at it from the index instead.
    """
    import os

    linked = _symlinked_notes(ctx)
    for path, rec in ctx.store.files.items() if linked else ():
        if rec.kind == "note" and path in linked:
            target = os.path.relpath(os.path.realpath(os.path.join(ctx.store.root, *path.split("/"))), ctx.store.root)
            yield Finding(Span(path, 1, 1), f"note is a symlink to {echo(target)}; its content is read twice")
