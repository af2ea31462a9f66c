"""Pointer rules: index entries that lead nowhere, out of the store, or to
the wrong kind of file; notes no entry leads to; links between notes
(markdown links, ``[[wikilinks]]``, mm URIs) that lead nowhere.

Rules read what the reader resolved (``Entry.resolution``, see
:mod:`mmlint.resolve`) and the note links :func:`mmlint.resolve.iter_note_refs`
resolves once per run; none of them looks at the file system. Every check
here is linear in the store's size.
"""

from __future__ import annotations

from mmlint import resolve
from mmlint.model import Span
from mmlint.rules import ERROR, INFO, UNSAFE, WARNING, Context, Finding, Fix, rule
from mmlint.textutil import echo, fold_key

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Iterator


def _entries(ctx: Context, kinds: tuple[str, ...] = ("link", "bare")):
    idx = ctx.store.index
    if idx is None:
        return []
    return [e for e in idx.entries if e.kind in kinds and e.resolution is not None]


def _folded(ctx: Context) -> dict[str, str]:
    cache = ctx.cache.get("folded_paths")
    if cache is None:
        cache = {}
        for p in ctx.store.files:
            cache.setdefault(fold_key(p), p)
        ctx.cache["folded_paths"] = cache
    return cache


def _claims_note(e) -> bool:
    """The pointer is written as a note (``*.md``, any case): a folder or
    nothing there is an error, not a pointer to another kind of resource."""
    path = (e.resolution.path or e.pointer or "").rstrip("/.")
    return e.kind in ("mm", "bare") or path.lower().endswith(".md")


@rule("P101", "dangling-pointer", ERROR, dialects=("mm", "engramory"))
def dangling_pointer(ctx: Context):
    """An index entry points at a note that is not there: nothing at the
    path, a folder where a ``.md`` note should be, or a name nothing can open
    (``a.md/``, ``a.md/.``, a symlink that leads nowhere).

    Why: the agent follows the pointer and finds nothing; the memory the
    entry promises is lost.
    Bad: ``- [Deploy](project_deploy.md)`` with no ``project_deploy.md``
    Good: the note exists, or the entry is removed.
    Fix: none: removing the entry would delete its hook text, and a fix never
    removes content, not even as an unsafe fix; restore the note or delete the
    line yourself.
    """
    valid_topic = getattr(ctx.dialect, "valid_topic", None)
    for e in _entries(ctx, ("mm",) if ctx.store.dialect == "mm" else ("link", "bare")):
        r = e.resolution
        if e.data.get("unsafe"):
            continue  # the mm reader reports an unsafe file: value
        if e.data.get("default_file") and valid_topic is not None and not valid_topic(e.title or ""):
            continue  # M101 reports the heading; its default path means nothing
        if r.kind == resolve.MISSING:
            msg, hint = f"no note at {echo(r.path or e.pointer or '')}", "create the note or remove the entry"
            near = _folded(ctx).get(fold_key(r.path or ""))
            if near:
                hint = f"the file is {echo(near)}: names differ only in case or Unicode normalisation, which breaks on case-sensitive file systems"
        elif r.kind == resolve.FOLDER and _claims_note(e):
            msg, hint = f"entry points at {echo(r.path or e.pointer or '')}, which is a folder, not a note", "point at the note file"
        elif r.kind == resolve.NOT_OPENABLE and not (r.path in ctx.store.files and ctx.store.files[r.path].kind == "unreadable"):
            msg, hint = f"entry points at {echo(e.pointer or '')}, which nothing can open: {r.reason}", "point at the note's file name itself"
        else:
            continue  # unreadable targets: S102 reports the file
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
    for e in _entries(ctx):
        if e.resolution.kind == resolve.OUTSIDE:
            how = " resolves outside the store root through a symlink" if e.resolution.reason else " escapes the store root"
            yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')}{how}")


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
        if e.resolution.kind == resolve.SCHEME:
            yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} uses a non-remote URL scheme")


@rule("P104", "absolute-pointer", ERROR, dialects=("engramory",))
def absolute_pointer(ctx: Context):
    """An index pointer is an absolute path (``/…``, ``C:/…``, ``~/…``).
    A name that merely starts with ``~`` or holds a colon (``~notes.md``,
    ``a:b.md``) is relative.

    Why: the store stops being portable: the pointer breaks on every other
    machine and in every clone, even when it names a file inside the store.
    Bad: ``- [A](/home/user/.claude/memory/a.md)``
    Good: ``- [A](a.md)``
    """
    for e in _entries(ctx):
        if e.resolution.kind == resolve.ABSOLUTE:
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
        if e.resolution.kind == resolve.BACKSLASH:
            yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} contains a backslash")


def _refs(ctx: Context, kind: str) -> Iterator[resolve.Ref]:
    """Every link of ``kind`` (``"link"``, ``"wikilink"``, ``"uri"``)
    between notes that reaches no note (resolution kind other than
    :data:`~mmlint.resolve.NOTE`), in note order: the only ones the link
    rules report, each kind by one rule. The links that reach a note are
    kept only as :func:`_linked`'s map, filled in the same pass.

    The links of a kind are taken from the run's memo as they are given
    (a store with a dangling link per note holds a :class:`~mmlint.resolve.Ref`
    for each, and its rule makes a diagnostic for each: the memory of one
    is reused for the other). Asked again, the links are scanned again."""
    cached = ctx.cache.get("note_refs")
    if cached is None or kind not in cached:
        _scan_refs(ctx)
        cached = ctx.cache["note_refs"]
    refs = cached.pop(kind)
    refs.reverse()
    while refs:
        yield refs.pop()


def _linked(ctx: Context) -> dict[str, str | set[str]]:
    """Note path -> the other notes whose links reach it: the one path
    itself when there is one (most notes; a set of one takes 216 bytes),
    else the set of paths (:func:`_linkers` reads either as a sorted list)."""
    cached = ctx.cache.get("note_linked")
    if cached is None:
        _scan_refs(ctx)
        cached = ctx.cache["note_linked"]
    return cached


def _scan_refs(ctx: Context) -> None:
    """Fill ``note_refs`` (:func:`_refs`: link kind -> its links that reach
    no note) and ``note_linked`` (:func:`_linked`) from one pass of
    :func:`mmlint.resolve.note_ref_rows` (the links of
    :func:`~mmlint.resolve.iter_note_refs`; a :class:`~mmlint.resolve.Ref`
    is made only for the links kept)."""
    kept: dict[str, list] = {"link": [], "wikilink": [], "uri": []}
    linked: dict[str, str | set[str]] = {}
    note = resolve.NOTE
    for source, line, column, kind, dest, r in resolve.note_ref_rows(ctx.store, ctx.dialect):
        if r.__class__ is str:
            hit = r  # a note reached (no Resolution made)
        elif r.kind != note:
            kept[kind].append(resolve.Ref(source, line, column, kind, dest, r))
            continue
        else:
            hit = r.note
        if hit and hit != source:
            have = linked.get(hit)
            if have is None:
                linked[hit] = source
            elif have.__class__ is str:
                if have != source:
                    linked[hit] = {have, source}
            else:
                have.add(source)
    ctx.cache["note_refs"] = kept
    ctx.cache["note_linked"] = linked


def _linkers(linked: dict[str, str | set[str]], path: str) -> list[str]:
    """The sorted paths of the notes linking to ``path`` (:func:`_linked`)."""
    have = linked[path]
    return [have] if have.__class__ is str else sorted(have)


def _credited(ctx: Context) -> set[str]:
    idx = ctx.store.index
    return {e.credits for e in idx.entries if e.credits} if idx is not None else set()


@rule("P106", "orphan-note", ERROR, dialects=("engramory",), fix=UNSAFE)
def orphan_note(ctx: Context):
    """A note that no index entry points at and no other note links to.

    Why: agents reach notes through the index; an orphan is never recalled.
    Bad: ``feedback_x.md`` with no ``- [..](feedback_x.md)`` line
    Good: add a pointer to ``MEMORY.md``, or delete the note.
    Fix: unsafe: adds ``- [name](path) — description`` to the index, under
    the ``## <type>`` section when there is one, else at the end. Unsafe
    because the agent then loads the note's description every session; not
    offered when the line, with those of the orphans before it, would push
    the index past its caps (``--fix`` adds them all in one round), or
    would not read back as a pointer to the note (a line break in its file
    name).
    """
    if ctx.store.index is None or any(p.code == "S117" for p in ctx.store.problems):
        return  # no index, or one too large to read (S117): its entries are unknown
    pointed = _credited(ctx)
    linked = _linked(ctx)
    fixes = _PointerFixes(ctx)
    for n in ctx.store.notes:
        if n.path in pointed:
            continue
        if n.path in linked:
            continue
        yield Finding(Span(n.path, 1, 1), "orphan note: not in the index and no other note links to it",
                      hint="add a pointer line to MEMORY.md or delete the note", fix=fixes.add(n), anchor="")


class _PointerFixes:
    """The P106 fixes of one run: for a note, the index with a pointer line
    for it added. What is the same for every orphan (the index's lines,
    its sections, caps and size) is worked out once, and a line that would
    push the index past a cap is refused by arithmetic before any text is
    built: 8,000 orphans of an 8,000-line index took 10 s, the whole index
    joined and encoded for each. The fixes offered fit under the caps all
    together, not only one by one (``--fix`` applies them in one round:
    :func:`mmlint.fixes.fix_store` composes the lines one rule inserts into
    one file), in note order. A fix holds a whole index, so at most
    :data:`MAX_FIXES` are offered in a run (the others next run, after
    ``--fix`` has added these)."""

    #: Fixes one run offers at most: each holds a copy of the index (up to
    #: the 25 KB cap, or any size where no cap applies).
    MAX_FIXES = 1000

    def __init__(self, ctx: Context) -> None:
        from mmlint.rules.index import index_caps

        self.ctx, self.offered = ctx, 0
        self.more_lines = self.more_bytes = 0  # what the fixes offered so far add together
        idx = ctx.store.index
        self.lines = idx.lines()
        if idx.text.endswith(("\n", "\r")):
            self.lines.pop()
        self.nl = idx.newline if idx.newline in ("\r\n", "\r") else "\n"
        self.heads = [(ln, text) for ln, level, text in idx.headings if level <= 2]
        self.caps = index_caps(ctx)
        #: bytes of the index rewritten without the new line: BOM, lines, their line ends
        self.size = (3 if idx.bom else 0) + sum(len(x.encode("utf-8", "surrogateescape")) + len(self.nl) for x in self.lines)

    def add(self, note) -> Fix | None:
        """The fix for ``note`` (see P106), or ``None``."""
        from mmlint.dialects import Unrepresentable
        from mmlint.textutil import encode

        ctx, idx, lines, nl = self.ctx, self.ctx.store.index, self.lines, self.nl
        if self.offered >= self.MAX_FIXES:
            return None
        try:
            line = ctx.dialect.pointer_line(note, note.path)
        except Unrepresentable:
            return None
        # textutil.count_lines of the new text: its "\n"s, plus one when it ends otherwise (CR-only)
        grow = (1 if nl != "\r" else 0) + line.count("\n")
        count = (len(lines) if nl != "\r" else 1) + self.more_lines + grow
        wide = len(line.encode("utf-8", "surrogateescape")) + len(nl)
        size = self.size + self.more_bytes + wide
        if (self.caps["lines"] and count > self.caps["lines"]) or (self.caps["bytes"] and size > self.caps["bytes"]):
            return None
        at = insert_at(lines, self.heads, note.type)
        data = encode(nl.join(lines[:at] + [line] + lines[at:]) + nl, idx.bom)
        if [e.target for e in ctx.dialect.read_index(idx.path, (line + "\n").encode("utf-8", "surrogateescape")).entries] != [note.path]:
            return None  # the line would not read back as a pointer to the note (a newline in its name): no fix
        self.offered += 1
        self.more_lines += grow
        self.more_bytes += wide
        return Fix(f"add a pointer to {note.path} to the index", {idx.path: data})


def insert_at(lines: list[str], heads: list[tuple[int, str]], kind: str | None) -> int:
    """Where P106 inserts a pointer line for a note of type ``kind`` into
    the index ``lines`` (0-based, before that line): after the last
    non-blank line of the ``## <kind>`` section (``heads``: ``(line, text)``
    of each heading of level 1 or 2, 1-based lines), else at the end."""
    at = len(lines)
    for k, (ln, text) in enumerate(heads):
        if kind and text.strip().lower() == kind.strip().lower():
            at = heads[k + 1][0] - 1 if k + 1 < len(heads) else len(lines)
            while at > ln and not lines[at - 1].strip():
                at -= 1
            break
    return at


@rule("P107", "pointer-into-archive", INFO, dialects=("engramory",))
def pointer_into_archive(ctx: Context):
    """An index pointer leads into ``archive/`` or ``templates/``.

    Why: those folders are outside the note graph (upstream engramory); the
    pointer is fine for a folded-archive index but credits no live note.
    Bad: ``- [Old](archive/old.md)`` standing for a live note
    Good: point at the live note; keep archive pointers for archive indexes.
    """
    skip = getattr(ctx.dialect, "SKIP_TOP", frozenset())
    for e in _entries(ctx):
        r = e.resolution
        if r.kind == resolve.FILE and r.path and "/" in r.path and r.path.split("/", 1)[0].lower() in skip:
            yield Finding(e.pointer_span or e.span, f"pointer leads into {r.path.split('/', 1)[0]}/ (outside the note graph)")


@rule("P108", "pointer-not-note", WARNING, dialects=("engramory",))
def pointer_not_note(ctx: Context):
    """A local index pointer leads to something that is not a note: a
    folder, a ``.json`` or ``.txt`` file, a file with no extension, a file in
    another tool's folder (``node_modules/``, ``.git/``).

    Why: the index should point at notes; other targets are not loaded as
    memories and are not schema-checked.
    Bad: ``- [agents](agents/)`` or ``- [state](state.json)``
    Good: point at a ``.md`` note that describes the resource.
    """
    skip = getattr(ctx.dialect, "SKIP_TOP", frozenset())
    for e in _entries(ctx):
        r = e.resolution
        if r.kind == resolve.FOLDER and not _claims_note(e):
            what = "a folder"
        elif r.kind == resolve.FILE and r.file_kind == "unwalked":
            what = "a file in a folder mmlint does not read (another tool's, or a symlinked one)"
        elif r.kind == resolve.FILE and not (r.path or "").lower().endswith(".md"):
            what = "a non-markdown file"
        else:
            continue
        if r.path and "/" in r.path and r.path.split("/", 1)[0].lower() in skip:
            continue  # P107
        yield Finding(e.pointer_span or e.span, f"pointer {echo(e.pointer or '')} leads to {what}, not a note")


@rule("P109", "dangling-wikilink", INFO)
def dangling_wikilink(ctx: Context):
    """A ``[[wikilink]]`` in a note, or a wikilink pointer in an engramory
    index, names no note in the store.

    Why: forward references are allowed, but a typo looks the same; this
    lists them. In an engramory index a wikilink is a pointer the agent
    reads, but no validator follows it (P101 takes markdown links), so this
    is the only finding that says it leads nowhere. Wikilinks resolve by file stem, then ignoring case and
    ``-``/``_``, then by the notes' ``name:`` values, then by the stem without
    a type prefix (``[[testing]]`` reaches ``feedback_testing.md``). In
    engramory a link is a flat slug: ``[[dir/slug]]`` reaches nothing.
    Bad: ``[[deploy-notes]]`` with no such note
    Good: ``[[deploy_notes]]`` naming ``deploy_notes.md``.
    """
    for e in _entries(ctx, ("wikilink",)):
        if e.resolution.kind == resolve.MISSING:
            why = f": {e.resolution.reason}" if e.resolution.reason else ""
            yield Finding(e.pointer_span or e.span, f"[[{echo(e.pointer or '')[1:-1]}]] names no note in the store{why}")
    for ref in _refs(ctx, "wikilink"):
        if ref.resolution.kind == resolve.MISSING:
            why = f": {ref.resolution.reason}" if ref.resolution.reason else ""
            yield Finding(Span(ref.source, ref.line, ref.column), f"[[{echo(ref.dest)[1:-1]}]] names no note in the store{why}")


@rule("P110", "linked-only-note", INFO)
def linked_only_note(ctx: Context):
    """A note is reached only through links from other notes, not from the
    index.

    Why: the agent finds it only after opening a note that links to it.
    Bad: ``b.md`` linked as ``[[b]]`` from ``a.md`` but absent from the index
    Good: add ``b.md`` to the index if it should be recalled directly.
    """
    if ctx.store.index is None:
        return
    pointed = _credited(ctx)
    linked = _linked(ctx)
    for n in ctx.store.notes:
        if n.path not in pointed and n.path in linked:
            src = _linkers(linked, n.path)
            yield Finding(Span(n.path, 1, 1), f"reached only from other notes ({', '.join(src[:3])}{' ...' if len(src) > 3 else ''}), not from the index")


@rule("P111", "dangling-note-link", WARNING)
def dangling_note_link(ctx: Context):
    """A markdown link in a note body leads to no note: a ``.md`` name with
    nothing there, a folder or a name nothing can open where a ``.md`` note
    should be, or any path out of the store root. Paths are relative to the
    linking note's folder; remote URLs, ``#anchors`` and missing targets that
    are not ``.md`` names (``[x](wee-linked.com)``) are not checked.

    Why: a reader (or agent) following the link finds nothing, or reads a
    file the store does not own.
    Bad: ``see [deploy](deploy-notes.md)`` with no ``deploy-notes.md``
    Good: ``see [deploy](deploy_notes.md)`` naming a note of the store.
    """
    for ref in _refs(ctx, "link"):
        r = ref.resolution
        if r.kind == resolve.FILE:
            continue
        if r.kind != resolve.OUTSIDE and not (r.path or "").rstrip("/.").lower().endswith(".md"):
            continue  # not written as a note: an image, a bare domain, a word
        what = {resolve.MISSING: "nothing is there", resolve.FOLDER: "it is a folder",
                resolve.OUTSIDE: "it leads out of the store root", resolve.NOT_OPENABLE: r.reason}.get(r.kind, r.kind)
        yield Finding(Span(ref.source, ref.line, ref.column), f"link to {echo(ref.dest)} leads to no note: {what}")


@rule("P112", "dangling-mm-uri", WARNING, dialects=("mm",))
def dangling_mm_uri(ctx: Context):
    """An ``mm:<topic>`` or ``mm://<memoryId>/<topic>`` URI in a note (mm
    spec §5) names a topic this store does not hold, while its memoryId is
    this store's ``mm-id`` (``local`` by default). A URI naming another
    memory is not checked.

    Why: the URI is how mm notes cite each other; one naming no topic
    leads nowhere.
    Bad: ``see mm:deploy-regoin`` with no ``## deploy-regoin`` entry
    Good: ``see mm:deploy-region`` naming an entry of the store.
    """
    for ref in _refs(ctx, "uri"):
        if ref.resolution.kind == resolve.MISSING:
            yield Finding(Span(ref.source, ref.line, ref.column), f"{echo(ref.dest)} names no topic of this store")
