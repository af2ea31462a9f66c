"""Facts several rules share, computed once per :class:`~mmlint.rules.Context`.

Byte gates over many files at once. Most file rules look for something most
files never hold (a NUL byte, a CR, a conflict marker, a credential prefix,
a non-ASCII byte, personal data). Asking each file costs a Python call per
file and rule; asking the files' bytes joined by ``b"\\n"`` costs one call
per :data:`CHUNK` bytes. A rule asks each chunk first and runs its own
per-file check only on the files of a chunk where the gate found something,
so its findings (and their order) are those of the per-file loop.

The gate must be one that cannot see more in a joined chunk than in its
files together, and no less: a substring or a regular expression that never
matches ``\\n`` (a match in the joined bytes then lies in one file, and a
match in a file is one in the chunk), ``bytes.isascii``. Each use says why
its gate is such a one; ``tests/test_rule_fastpaths.py`` holds every gated
rule to its per-file loop on generated stores.
"""

from __future__ import annotations

from mmlint.rules import Context

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Iterator

#: Bytes of file content joined into one chunk (a chunk is built when a rule
#: asks for it and dropped after: peak memory is one chunk, not a copy of the store).
CHUNK = 1 << 18


def _groups(ctx: Context) -> list[list[Any]]:
    """The note and index records holding bytes, in store order, grouped
    into runs of notes of about :data:`CHUNK` bytes, each index record a
    group of its own; once per context."""
    got = ctx.cache.get("shared:file-groups")
    if got is None:
        got, group, size = [], [], 0
        for rec in ctx.store.files.values():
            if rec.kind not in ("note", "index") or not rec.data:
                continue
            if rec.kind == "index":  # alone: an index often holds what notes do not (an em dash)
                if group:
                    got.append(group)
                    group, size = [], 0
                got.append([rec])
                continue
            group.append(rec)
            size += len(rec.data)
            if size >= CHUNK:
                got.append(group)
                group, size = [], 0
        if group:
            got.append(group)
        ctx.cache["shared:file-groups"] = got
    return got


def byte_chunks(ctx: Context) -> Iterator[tuple[list[Any], bytes]]:
    """``(records, joined)`` for the note and index files with non-empty
    ``data``, in store order: groups of about :data:`CHUNK` bytes, ``joined``
    their bytes joined by ``b"\\n"`` (made on demand, one chunk at a time; a
    group of one file gives that file's bytes, not a copy).
    Every such file is in exactly one group; an index file is alone in its
    own. See the module docs for which
    gates may be asked of ``joined``."""
    for group in _groups(ctx):
        yield group, group[0].data if len(group) == 1 else b"\n".join(rec.data for rec in group)


def notes_ascii(ctx: Context) -> bool:
    """Whether the bytes of every note file (kind ``note``) are ASCII; once
    per context."""
    got = ctx.cache.get("shared:notes-ascii")
    if got is None:
        got = all(joined.isascii() for group, joined in byte_chunks(ctx) if group[0].kind == "note")
        ctx.cache["shared:notes-ascii"] = got
    return got


def gated(ctx: Context, gate: Any) -> Iterator[Any]:
    """The note and index records with non-empty ``data`` (store order)
    of each chunk whose joined bytes ``gate`` (``bytes -> bool``) is true for."""
    for group, joined in byte_chunks(ctx):
        if gate(joined):
            yield from group


def history(ctx: Context) -> frozenset[str]:
    """The paths of the notes that are history archives
    (:meth:`~mmlint.rules.Context.is_history`), found once per context: a
    rule asks ``path in history(ctx)`` per note instead of the dialect."""
    got = ctx.cache.get("shared:history")
    if got is None:
        got = ctx.cache["shared:history"] = frozenset(n.path for n in ctx.store.notes if ctx.is_history(n.path))
    return got
