"""Pointer rules: index entries that lead nowhere, out of the store, or to
the wrong kind of file; notes no entry leads to; wikilinks between notes.

Pointers are read with markdown-it (code spans, fences and HTML comments
hold no pointers). Every check here is linear in the store's size: note
lookups go through dictionaries built once per run.
"""

from __future__ import annotations

import os
import unicodedata

from mmlint.model import Span
from mmlint.rules import ERROR, INFO, UNSAFE, WARNING, Context, Finding, Fix, body_line_offset, rule
from mmlint.textutil import echo
from mmlint.walk import inside

_SKIP_TOP = ("archive", "templates")
#: File-name prefixes that name a note's type (``feedback_x.md``, ``ref_x.md``).
_TYPE_PREFIXES = ("user", "feedback", "project", "reference", "ref", "knowledge")


def _entries(ctx: Context, kind: str = "link"):
    idx = ctx.store.index
    if idx is None:
        return []
    return [e for e in idx.entries if e.kind == kind]


def _file_kinds(ctx: Context) -> dict[str, str]:
    return {p: r.kind for p, r in ctx.store.files.items()}


def _folded(ctx: Context) -> dict[str, str]:
    cache = ctx.cache.get("folded_paths")
    if cache is None:
        cache = {}
        for p in ctx.store.files:
            cache.setdefault(unicodedata.normalize("NFC", p).casefold(), p)
        ctx.cache["folded_paths"] = cache
    return cache


@rule("P101", "dangling-pointer", ERROR, dialects=("mm", "engramory"))
def dangling_pointer(ctx: Context):
    """An index entry points at a file that is not in the store.

    Why: the agent follows the pointer and finds nothing; the memory the
    entry promises is lost.
    Bad: ``- [Deploy](project_deploy.md)`` with no ``project_deploy.md``
    Good: the note exists, or the entry is removed.
    Fix: none: removing the entry would delete its hook text, and a fix never
    removes content, not even as an unsafe fix; restore the note or delete the
    line yourself.
    """
    kinds = _file_kinds(ctx)
    root = ctx.store.root
    from mmlint.dialects.mm import valid_topic

    for e in _entries(ctx, "mm" if ctx.store.dialect == "mm" else "link"):
        if e.target is None or e.data.get("resolution", "local") != "local":
            continue
        if e.data.get("default_file") and not valid_topic(e.title or ""):
            continue  # M101 reports the heading; its default path means nothing
        if e.target in kinds and kinds[e.target] not in ("symlink-escape", "unreadable"):
            continue
        if e.target in kinds:
            continue  # reported by S101/S102
        full = os.path.join(root, e.target)
        if os.path.isdir(full):
            if ctx.store.dialect == "engramory":
                continue  # P108 reports links to folders
            msg = f"entry points at {echo(e.target)}, which is a folder, not a note"
        else:
            msg = f"no note at {echo(e.target)}"
        hint = "create the note or remove the entry"
        near = _folded(ctx).get(unicodedata.normalize("NFC", e.target).casefold())
        if near:
            hint = f"the file is {echo(near)}: names differ only in case or Unicode normalisation, which breaks on case-sensitive file systems"
        yield Finding(e.pointer_span or e.span, msg, hint=hint)


@rule("P102", "pointer-escapes-root", ERROR, dialects=("engramory",))
def pointer_escapes_root(ctx: Context):
    """An index pointer leads out of the store root (``../x.md``, or a path
    through a symlink that resolves outside).

    Why: the store stops being self-contained, and following the pointer
    reads a file the store does not own.
    Bad: ``- [Spec](../docs/spec.md)``
    Good: copy the fact into a note inside the store.
    """
    root = ctx.store.root
    for e in _entries(ctx):
        res = e.data.get("resolution")
        if res == "escape":
            yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} escapes the store root")
        elif res == "local" and e.target is not None:
            full = os.path.join(root, e.target)
            if os.path.lexists(full) and not inside(root, os.path.realpath(full)):
                yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} resolves outside the store root through a symlink")


@rule("P103", "non-remote-scheme", ERROR, dialects=("engramory",))
def non_remote_scheme(ctx: Context):
    """An index pointer uses a URL scheme that is not a remote one
    (``file://``, ``s3://``, ``sftp://`` ...).

    Why: only http(s), ftp(s), ssh, git+*:// and mailto: are treated as
    external; other schemes name local or private resources the store must
    not point into.
    Bad: ``- [Secret](file:///C:/outside/secret.md)``
    Good: ``- [Spec](https://example.com/spec.md)`` or a note in the store.
    """
    for e in _entries(ctx):
        if e.data.get("resolution") == "scheme":
            yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} uses a non-remote URL scheme")


@rule("P104", "absolute-pointer", ERROR, dialects=("engramory",))
def absolute_pointer(ctx: Context):
    """An index pointer is an absolute path (``/…``, ``C:…``, ``~/…``).

    Why: the store stops being portable: the pointer breaks on every other
    machine and in every clone, even when it names a file inside the store.
    Bad: ``- [A](/home/user/.claude/memory/a.md)``
    Good: ``- [A](a.md)``
    """
    for e in _entries(ctx):
        if e.data.get("resolution") == "absolute":
            yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} is an absolute path",
                          hint="use a path relative to the store root")


@rule("P105", "backslash-pointer", ERROR, dialects=("engramory",))
def backslash_pointer(ctx: Context):
    """An index pointer uses backslashes as path separators.

    Why: markdown links use ``/``; a backslash is a separator only on
    Windows, so the pointer resolves differently per machine.
    Bad: ``- [A](sub\\a.md)``
    Good: ``- [A](sub/a.md)``
    """
    for e in _entries(ctx):
        if e.data.get("resolution") == "backslash":
            yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} contains a backslash")


def _links_between_notes(ctx: Context) -> tuple[dict[str, set[str]], list[tuple[object, object, str | None]]]:
    """Which notes are linked from other notes' bodies, and every wikilink
    with its resolution. Built once per run; linear in the store size."""
    cached = ctx.cache.get("note_links")
    if cached is not None:
        return cached
    from mmlint import markdown

    notes = ctx.store.notes
    by_stem: dict[str, str] = {}
    by_fold: dict[str, str] = {}
    by_name: dict[str, str] = {}
    by_prefixless: dict[str, str] = {}
    for n in notes:
        stem = n.path.rsplit("/", 1)[-1][:-3]
        by_stem.setdefault(stem, n.path)
        folded = stem.casefold().replace("_", "-")
        by_fold.setdefault(folded, n.path)
        prefix, _, rest = folded.partition("-")
        if rest and prefix in _TYPE_PREFIXES:
            by_prefixless.setdefault(rest, n.path)  # [[slug]] for feedback_slug.md, as Claude Code names notes
        if n.name:
            by_name.setdefault(n.name.strip().casefold().replace("_", "-").replace(" ", "-"), n.path)
    linked: dict[str, set[str]] = {}
    wikis = []
    for n in notes:
        body = n.body
        if "[" not in body:
            continue
        offset = body_line_offset(n)
        for link in markdown.body_links(body):
            if link.kind == "wikilink":
                target = link.dest.split("|", 1)[0].split("#", 1)[0].strip()
                if not target:
                    continue
                stem = target[:-3] if target.lower().endswith(".md") else target
                key = stem.casefold().replace("_", "-")
                hit = by_stem.get(stem) or by_fold.get(key) or by_name.get(key.replace(" ", "-")) or by_prefixless.get(key)
                if "/" in stem and hit is None and (stem + ".md") in ctx.store.files:
                    hit = stem + ".md"
                wikis.append((n, link, hit, offset))
                if hit and hit != n.path:
                    linked.setdefault(hit, set()).add(n.path)
            else:
                from mmlint.dialects.engramory import resolve_pointer

                target, kind = resolve_pointer(link.dest)
                if kind == "local" and target is not None:
                    base = n.path.rsplit("/", 1)[0] + "/" if "/" in n.path else ""
                    import posixpath

                    full = posixpath.normpath(base + target)
                    if full != n.path and full in ctx.store.files:
                        linked.setdefault(full, set()).add(n.path)
    ctx.cache["note_links"] = (linked, wikis)
    return linked, wikis


@rule("P106", "orphan-note", ERROR, dialects=("engramory",), fix=UNSAFE)
def orphan_note(ctx: Context):
    """A note that no index entry points at and no other note links to.

    Why: agents reach notes through the index; an orphan is never recalled.
    Bad: ``feedback_x.md`` with no ``- [..](feedback_x.md)`` line
    Good: add a pointer to ``MEMORY.md``, or delete the note.
    Fix: unsafe: adds ``- [name](path) — description`` to the index, under
    the ``## <type>`` section when there is one, else at the end. Unsafe
    because the agent then loads the note's description every session; not
    offered when the line would push the index past its caps, or would not
    read back as a pointer to the note (a line break in its file name).
    """
    if ctx.store.index is None or any(p.code == "S117" for p in ctx.store.problems):
        return  # no index, or one too large to read (S117): its entries are unknown
    pointed = {e.target for e in ctx.store.index.entries if e.target}
    linked, _ = _links_between_notes(ctx)
    for n in ctx.store.notes:
        if n.path in pointed:
            continue
        if n.path in linked:
            continue
        yield Finding(Span(n.path, 1, 1), "orphan note: not in the index and no other note links to it",
                      hint="add a pointer line to MEMORY.md or delete the note", fix=_pointer_fix(ctx, n), anchor="")


def _pointer_fix(ctx: Context, note) -> Fix | None:
    """An index with a pointer line for ``note`` added (see P106)."""
    from mmlint.dialects import Unrepresentable
    from mmlint.dialects.engramory import pointer_line
    from mmlint.rules.index import index_caps
    from mmlint.textutil import count_lines, encode

    idx = ctx.store.index
    try:
        line = pointer_line(note, note.path)
    except Unrepresentable:
        return None
    lines = idx.text.split("\n")
    ends_nl = idx.text.endswith("\n")
    if ends_nl:
        lines.pop()
    cr = "\r" if idx.newline == "\r\n" else ""
    at = len(lines)
    heads = [(ln, text) for ln, level, text in idx.headings if level <= 2]
    for k, (ln, text) in enumerate(heads):
        if text.strip().lower() == (note.type or "").strip().lower() and note.type:
            at = heads[k + 1][0] - 1 if k + 1 < len(heads) else len(lines)
            while at > ln and not lines[at - 1].strip():
                at -= 1
            break
    lines.insert(at, line + cr)
    text = "\n".join(lines) + "\n"
    data = encode(text, idx.bom)
    caps = index_caps(ctx)
    if (caps["lines"] and count_lines(text) > caps["lines"]) or (caps["bytes"] and len(data) > caps["bytes"]):
        return None
    from mmlint.dialects.engramory import read_index

    if note.path not in {e.target for e in read_index(idx.path, data).entries}:
        return None  # the line would not read back as a pointer to the note (a newline in its name): no fix
    return Fix(f"add a pointer to {note.path} to the index", {idx.path: data})


@rule("P107", "pointer-into-archive", INFO, dialects=("engramory",))
def pointer_into_archive(ctx: Context):
    """An index pointer leads into ``archive/`` or ``templates/``.

    Why: those folders are outside the note graph (upstream engramory); the
    pointer is fine for a folded-archive index but credits no live note.
    Bad: ``- [Old](archive/old.md)`` standing for a live note
    Good: point at the live note; keep archive pointers for archive indexes.
    """
    kinds = _file_kinds(ctx)
    for e in _entries(ctx):
        if e.target and e.target.split("/", 1)[0].lower() in _SKIP_TOP and "/" in e.target and e.target in kinds:
            yield Finding(e.pointer_span or e.span, f"pointer leads into {e.target.split('/', 1)[0]}/ (outside the note graph)")


@rule("P108", "pointer-not-note", WARNING, dialects=("engramory",))
def pointer_not_note(ctx: Context):
    """A local index pointer leads to something that is not a markdown note
    (a folder, a ``.json`` or ``.txt`` file, a file with no extension).

    Why: the index should point at notes; other targets are not loaded as
    memories and are not schema-checked.
    Bad: ``- [agents](agents/)`` or ``- [state](state.json)``
    Good: point at a ``.md`` note that describes the resource.
    """
    root = ctx.store.root
    for e in _entries(ctx):
        if e.data.get("resolution") != "local" or e.target is None:
            continue
        if e.target.lower().endswith(".md"):
            continue
        full = os.path.join(root, e.target)
        if not os.path.exists(full):
            continue  # P101 reports the missing target
        what = "a folder" if os.path.isdir(full) else "a non-markdown file"
        yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} leads to {what}, not a note")


@rule("P109", "dangling-wikilink", INFO, dialects=("engramory",))
def dangling_wikilink(ctx: Context):
    """A ``[[wikilink]]`` in a note names no note in the store.

    Why: forward references are allowed, but a typo looks the same; this
    lists them. Wikilinks resolve by file stem, then ignoring case and
    ``-``/``_``, then by the notes' ``name:`` values, then by the stem without
    a type prefix (``[[testing]]`` reaches ``feedback_testing.md``).
    Bad: ``[[deploy-notes]]`` with no such note
    Good: ``[[deploy_notes]]`` naming ``deploy_notes.md``.
    """
    _, wikis = _links_between_notes(ctx)
    for n, link, hit, offset in wikis:
        if hit is None:
            yield Finding(Span(n.path, link.line + offset, link.column), f"[[{echo(link.dest)[1:-1]}]] names no note in the store")


@rule("P110", "linked-only-note", INFO, dialects=("engramory",))
def linked_only_note(ctx: Context):
    """A note is reached only through links from other notes, not from the
    index.

    Why: the agent finds it only after opening a note that links to it.
    Bad: ``b.md`` linked as ``[[b]]`` from ``a.md`` but absent from the index
    Good: add ``b.md`` to the index if it should be recalled directly.
    """
    if ctx.store.index is None:
        return
    pointed = {e.target for e in ctx.store.index.entries if e.target}
    linked, _ = _links_between_notes(ctx)
    for n in ctx.store.notes:
        if n.path not in pointed and n.path in linked:
            src = sorted(linked[n.path])
            yield Finding(Span(n.path, 1, 1), f"reached only from other notes ({', '.join(src[:3])}{' ...' if len(src) > 3 else ''}), not from the index")
