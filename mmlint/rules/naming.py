"""Naming rules: slugs, file names, categories and collisions between names."""

from __future__ import annotations


from mmlint import carriers
from mmlint.model import Span
from mmlint.rules import ERROR, INFO, WARNING, Context, Finding, rule, shared
from mmlint.textutil import echo, fold_key

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Iterable

#: mmlint's own files (configuration, baselines, carriers) that may sit in a store.
_OWN_FILES = frozenset({".mmlint.toml", "mmlint.toml", "pyproject.toml", ".mmlint-baseline.json",
                        ".mmlint-index-lines.txt", ".pre-commit-config.yaml"})
_TYPES = ("feedback", "project", "reference", "user")


@rule("N101", "invalid-slug", ERROR, dialects=("engramory",), profiles=("recall-v1",), scope="note")
def invalid_slug(ctx: Context):
    """A recall-v1 note file name is not lower-case letters, digits and
    hyphens (``[a-z0-9-]+\\.md``, seed spec §2).

    Why: recall-v1 tools derive the note's type and slug from the name.
    Bad: ``Feedback_Use_PNPM.md``
    Good: ``feedback-use-pnpm.md``
    """
    for n in ctx.store.notes:
        name = n.path.rsplit("/", 1)[-1]
        if ctx.is_history(n.path):
            continue
        if not ctx.dialect.recall_file_name(name):
            yield Finding(Span(n.path, 1, 1), f"file name {echo(name)} is not [a-z0-9-]+.md")


@rule("N102", "type-prefix-mismatch", ERROR, dialects=("engramory",), profiles=("recall-v1",), scope="note")
def type_prefix_mismatch(ctx: Context):
    """A recall-v1 note's file-name prefix differs from its ``type``
    (``<type>-<slug>.md``, seed spec "与上游规范的差异").

    Why: tools file the note under the type its name claims.
    Bad: ``project-x.md`` with ``type: feedback``
    Good: ``feedback-x.md`` with ``type: feedback``
    """
    history = shared.history(ctx)
    for n in ctx.store.notes:
        name = n.path.rsplit("/", 1)[-1]
        if n.path in history or n.type is None:
            continue
        prefix = name.split("-", 1)[0]
        if prefix != n.type:
            span = n.spans.get("type") or Span(n.path, 1, 1)
            yield Finding(span, f"file name starts with {echo(prefix)} but type is {echo(n.type)}",
                          hint=f"rename to {echo(n.type + '-' + (name.split('-', 1)[-1] if '-' in name else name))}")


def _norm_slug(s: str) -> str:
    return s.lower().replace("_", "-").replace(" ", "-")


@rule("N103", "name-slug-mismatch", INFO, dialects=("engramory",), scope="note")
def name_slug_mismatch(ctx: Context):
    """A note's ``name:`` differs from its file name beyond the tolerated
    differences (case, ``_`` vs ``-``, a type prefix matching ``type``).

    Why: wikilinks and tools that key notes by name will not find the file.
    In the claude-code profile a name with spaces is a title written by an
    older Claude Code release, not a slug, and is not compared.
    Bad: ``name: deploy-rules`` in ``project_release_train.md``
    Good: ``name: release-train`` in ``project_release_train.md``
    """
    history = shared.history(ctx)
    for n in ctx.store.notes:
        if not n.name or not n.name.strip() or n.name[0] in "'\"" or n.path in history:
            continue  # blank (F112) or quote-broken (F102) names are reported there
        if ctx.store.profile == "claude-code" and any(c.isspace() for c in n.name.strip()):
            continue  # older Claude Code releases wrote a human title as the name
        slug = _norm_slug(n.slug)
        name = _norm_slug(n.name.strip())
        if slug == name:
            continue
        prefix = (n.type or "") + "-"
        if n.type in _TYPES and slug.startswith(prefix) and slug[len(prefix):] == name:
            continue
        yield Finding(n.spans.get("name") or Span(n.path, 1, 1), f"name {echo(n.name)} does not match the file name {echo(n.slug)}")


@rule("N104", "unsafe-segment", ERROR, dialects=("workspace",), scope="note")
def unsafe_segment(ctx: Context):
    """A folder or file name in a workspace store breaks the plugin's segment
    rules: ``..``/``.``, separators, ``\\ / : * ? " < > |``, control
    characters, reserved device names (``CON``, ``NUL``, ``COM1`` ...), a
    trailing dot or space, or more than 64 characters.

    Why: the store must open on every OS; such names fail on Windows or are
    refused by ``memory_save``/``memory_forget``.
    Bad: ``项目约定/CON.md``, ``notes./a.md``
    Good: ``项目约定/控制台.md``
    """
    segment_problem = ctx.dialect.segment_problem
    for n in ctx.store.notes:
        parts = n.path.split("/")
        for i, seg in enumerate(parts):
            check = seg[:-3] if i == len(parts) - 1 and seg.endswith(".md") else seg
            why = segment_problem(check)
            if why:
                what = "file name" if i == len(parts) - 1 else "folder name"
                yield Finding(Span(n.path, 1, 1), f"{what} {echo(check)}: {why}")


def _any_unsafe(paths: Iterable[str]) -> bool:
    """Whether some path holds an :data:`~mmlint.textutil.UNSAFE_CHARS`
    character other than an undecodable byte's escape (``\udc80``-``\udcff``),
    asked of the paths joined by ``/`` at once: a one-character class that
    ``/`` is not in finds in the joined text exactly what it finds in the
    names."""
    from mmlint.textutil import unsafe_chars

    return any(not "\udc80" <= c <= "\udcff" for c in unsafe_chars("/".join(paths)))


@rule("N112", "control-character-in-name", WARNING, dialects=("engramory", "mm"))
def control_character_in_name(ctx: Context):
    """A file or folder name in the store holds a control character (a line
    break, ESC, DEL, a C1 control), a Unicode line separator or a bidi
    control (workspace stores report these as N104).

    Why: a markdown pointer cannot name a file with a line break, so the
    note cannot be indexed; an escape sequence or a bidi control in a name
    rewrites the terminal of whoever lists the folder, and makes two names
    look alike.
    Bad: ``feedback_deploy\\n.md`` (a line break), ``x\\x1b[31m.md`` (ESC), ``notes\\u202ed.md`` (RLO)
    Good: ``feedback_deploy.md``
    """
    from mmlint.textutil import unsafe_chars

    if not _any_unsafe(ctx.store.files):
        return
    seen = set()
    for path in ctx.store.files:
        parts = path.split("/")
        for i in range(len(parts)):
            name, where = parts[i], "/".join(parts[: i + 1])
            bad = sorted({c for c in unsafe_chars(name) if not "\udc80" <= c <= "\udcff"})
            if bad and where not in seen:
                seen.add(where)
                what = "file name" if i == len(parts) - 1 else "folder name"
                yield Finding(Span(path, 1, 1), f"{what} {echo(name)} holds {', '.join(echo(c) for c in bad)}",
                              hint="rename it without control or bidi characters")


@rule("N105", "category-too-deep", ERROR, dialects=("workspace",))
def category_too_deep(ctx: Context):
    """A workspace note sits more than 3 category folders deep.

    Why: the plugin caps ``category`` at 3 levels; deeper notes cannot be
    saved or recalled by category.
    Bad: ``a/b/c/d/note.md``
    Good: ``a/b/c/note.md``
    """
    depth = ctx.fact("MAX_CATEGORY_DEPTH")
    for n in ctx.store.notes:
        if len(n.category) > depth:
            yield Finding(Span(n.path, 1, 1), f"note is {len(n.category)} folders deep (at most {depth})")


@rule("N106", "name-collision", ERROR)
def name_collision(ctx: Context):
    """Two files whose paths differ only in case or Unicode normalisation
    (NFC/NFD).

    Why: on macOS and Windows file systems they are the same file; a clone
    there silently keeps only one of the two memories.
    Bad: ``foo.md`` and ``FOO.md``; ``café.md`` (NFC) and ``café.md`` (NFD)
    Good: one file per memory, named once.
    """
    seen: dict[str, str] = {}
    for path in ctx.store.files:
        key = fold_key(path)
        if key in seen:
            import unicodedata  # a collision: rare, and the names may not be ASCII

            how = "case" if unicodedata.normalize("NFC", path) == unicodedata.normalize("NFC", seen[key]) or path.lower() == seen[key].lower() else "Unicode normalisation"
            if path.casefold() == seen[key].casefold() and path != seen[key]:
                how = "case"
            yield Finding(Span(path, 1, 1), f"{echo(path)} and {echo(seen[key])} differ only in {how}: they collide on case-insensitive file systems")
        else:
            seen[key] = path


@rule("N107", "duplicate-slug", ERROR, dialects=("engramory",))
def duplicate_slug(ctx: Context):
    """Two notes in different folders have the same file name (also up to
    case and Unicode normalisation, ``MEMORY.md`` included).

    Why: engramory keys notes by file name; wikilinks and tools reach only
    one of them.
    Bad: ``sub1/dup.md`` and ``sub2/dup.md``; ``sub/memory.md`` next to the index
    Good: one of them renamed.
    """
    if "/" not in "".join(n.path for n in ctx.store.notes):
        return  # every note at the root: each clash is between two root files, N106's (below)
    seen: dict[str, str] = {"memory.md": "MEMORY.md"} if ctx.store.index is not None else {}
    for n in ctx.store.notes:
        base = n.path.rsplit("/", 1)[-1]
        key = fold_key(base)
        if key in seen and "/" not in seen[key] and "/" not in n.path:
            continue  # two files at the root: N106 reports the collision
        if key in seen:
            other = seen[key]
            how = "" if other.rsplit("/", 1)[-1] == base else " (up to case or Unicode normalisation)"
            yield Finding(Span(n.path, 1, 1), f"file name {echo(base)} is also the file name{how} of {echo(other)}, in another folder")
        else:
            seen[key] = n.path


@rule("N108", "nested-note", WARNING, dialects=("engramory",))
def nested_note(ctx: Context):
    """An engramory note sits in a sub-folder.

    Why: the active engramory store is flat (types are a frontmatter field,
    not folders); tools that list the root miss nested notes.
    Bad: ``feedback/use-pnpm.md``
    Good: ``feedback_use-pnpm.md`` at the root, ``type: feedback``.
    """
    for n in ctx.store.notes:
        if "/" in n.path:
            yield Finding(Span(n.path, 1, 1), f"note is in the sub-folder {echo(n.path.rsplit('/', 1)[0] + '/')}; the store is flat")


@rule("N109", "non-note-file", INFO, dialects=("engramory", "mm"))
def non_note_file(ctx: Context):
    """A file in the store is not a note (``.txt``, ``.json``, ``.markdown``...).

    Why: it is invisible to the memory tools: if it holds a memory, that
    memory is never recalled. Ledgers (``.engramory-*.jsonl``), a top-level
    ``README.md``, the index of a nested store (``agents/x/MEMORY.md``, a
    Claude Code subagent store), mmlint's own files (configuration,
    baselines, the files ``convert`` parks under ``.mmlint-aux/``) and
    ``archive/`` / ``templates/`` are expected and not reported.
    Bad: ``notes.txt`` with a fact in it
    Good: move the fact into a note.
    """
    for path, rec in ctx.store.files.items():
        if rec.kind != "aux":
            continue
        name = path.rsplit("/", 1)[-1]
        if ctx.expected_aux(path) or name in _OWN_FILES or name == "MEMORY.md" or carriers.is_parked(path):
            continue
        yield Finding(Span(path, 1, 1), f"{echo(name)} is not a note; memory tools do not read it")


@rule("N110", "duplicate-name", WARNING, dialects=("engramory",))
def duplicate_name(ctx: Context):
    """Two notes carry the same ``name:`` value.

    Why: tools and wikilinks that resolve by name reach only one of them;
    usually one note is a stale copy of the other.
    Bad: ``name: deploy`` in ``a.md`` and in ``b.md``
    Good: distinct names (or one merged note).
    """
    seen: dict[str, str] = {}
    for n in ctx.store.notes:
        if not n.name or not n.name.strip():
            continue
        key = fold_key(n.name.strip())
        if key in seen:
            yield Finding(n.spans.get("name") or Span(n.path, 1, 1), f"name {echo(n.name)} is also the name of {echo(seen[key])}")
        else:
            seen[key] = n.path


@rule("N111", "orphan-history-archive", WARNING, dialects=("engramory",), profiles=("recall-v1",))
def orphan_history_archive(ctx: Context):
    """A ``<slug>-history.md`` archive whose main note ``<slug>.md`` does not
    exist.

    Why: archives hold the older sections of a live note (seed spec §3);
    without the note the history is unreachable.
    Bad: ``project-x-history.md`` with no ``project-x.md``
    Good: restore the main note, or move the archive out of the store.
    """
    for path in ctx.store.files:
        main = ctx.dialect.history_main(path)
        if main is not None:
            if main not in ctx.store.files:
                yield Finding(Span(path, 1, 1), f"archive has no main note {echo(main)}")
