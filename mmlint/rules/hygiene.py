"""Hygiene rules: what makes a memory store worse over time without breaking
any tool — near-duplicate notes, notes that cite files the project no longer
has or that declare themselves expired, index hooks that drifted away from
their note's description, and personal data.

Every rule here is advice or a misreading the owning tool tolerates, so the
defaults are ``info`` or ``warning``. Their settings live in the
``[tool.mmlint.hygiene]`` table (:data:`DEFAULTS`, ``schemas/config.json``)
and reach rules as ``Options.hygiene``. Each rule is linear in the store's
text (near-duplicates: linear plus the candidate pairs LSH proposes,
:mod:`mmlint.similarity`).
"""

from __future__ import annotations

import os
import re

from mmlint import outside, personal, similarity
from mmlint.model import Note, Span
from mmlint.rules import INFO, UNSAFE, WARNING, Context, Finding, Fix, body_line_offset, rule, shared
from mmlint.textutil import decode, echo, lazy_re

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    import datetime as _dt
    from typing import Any, Iterator

#: Settings of the ``hygiene`` configuration table and their defaults.
DEFAULTS: dict[str, Any] = {
    "duplicate-threshold": 0.7,   # H101: Jaccard similarity of 3-word shingles, 0..1
    "drift-threshold": 0.1,       # H105: share of the hook's character trigrams found in the description
    "stale-days": 0,              # H104: days without an update; 0 turns the rule off
    "personal-data": list(personal.KINDS),  # H106: kinds to look for
}
#: Notes with fewer shingles than this never count as near-duplicates (stubs).
MIN_SHINGLES = 3
#: Most changed notes a cached check compares with every other note (H101)
#: rather than joining all notes again.
INCREMENTAL_MAX = 32
#: Hooks with fewer character trigrams than this (under six characters: ``h``, ``hook``) are not compared.
MIN_HOOK_GRAMS = 4
#: Most H106 findings reported per file (the rest are counted in the last one).
MAX_PERSONAL_PER_FILE = 20


def setting(ctx: Context, key: str) -> Any:
    """The configured value of hygiene setting ``key`` (else its default)."""
    return (getattr(ctx.options, "hygiene", None) or {}).get(key, DEFAULTS[key])


# ---------------------------------------------------------------- H101


@rule("H101", "near-duplicate-note", INFO)
def near_duplicate_note(ctx: Context):
    """Two notes say nearly the same thing: the Jaccard similarity of their
    3-word shingles (description and body) is at least ``duplicate-threshold``
    (default 0.7; configurable in ``[tool.mmlint.hygiene]``).

    Why: duplicates pile up when an agent re-learns a fact instead of finding
    the note it wrote before; each copy costs index lines and they drift
    apart until they contradict each other.
    Bad: ``feedback_tests.md`` and ``feedback_testing.md`` both saying
    "run the integration tests before pushing; never mock the database"
    Good: one note, the other removed (or merged into it) with its pointer.
    """
    threshold = float(setting(ctx, "duplicate-threshold"))
    # one note's shingle set at a time; only its compact sorted array is kept
    notes = sorted(ctx.store.notes, key=lambda n: n.path)
    facts = ctx.facts  # a cached check: the shingles of unchanged notes, streamed from the facts file
    pairs = None
    fresh: dict[str, Any] = {}  # the changed notes' shingles, derived by _no_pairs_since
    if facts is not None and facts.get_store("H101") == [threshold]:
        pairs = _no_pairs_since(notes, facts, threshold, fresh)
    if pairs is None:
        pairs, proved = similarity.near_duplicates_proved(_all_shingles(notes, facts, fresh), threshold)
    else:
        proved = True
    if facts is not None and proved:
        facts.put_store("H101", [threshold])
    for a, b, s in pairs:
        yield Finding(Span(b, 1, 1), f"near-duplicate of {echo(a)}: similarity {s:.2f} (threshold {threshold:.2f})",
                      hint="merge the two notes into one and remove the other's index pointer", anchor=f"{a}|{b}")


def _shingle_array(n: Note) -> Any:
    """H101's fact of one note: the compact shingles of its description and
    body (:func:`mmlint.similarity.compact`), empty for a stub of fewer than
    :data:`MIN_SHINGLES`."""
    sh = similarity.shingles((n.summary or "") + "\n" + n.body)
    return similarity.compact(sh if len(sh) >= MIN_SHINGLES else ())


def _derived(n: Note, facts: Any) -> Any:
    """The note's H101 fact, derived now (and recorded when there are facts)."""
    arr = _shingle_array(n)
    if facts is not None:
        facts.put("H101", n.path, similarity.dump_compact(arr))
    return arr


def _all_shingles(notes: list[Note], facts: Any, fresh: dict[str, Any]) -> list[tuple[str, Any]]:
    """``(path, compact shingles)`` of every note of ``notes``, for the join:
    decoded from the facts of the unchanged notes as they stream in (the
    arrays only are kept, by position), taken from ``fresh`` (path ->
    shingles derived a moment ago, recorded again here) or derived for the
    others. A fact that does not decode, or a facts file found damaged,
    makes every other note's derived again, and each recorded once
    (:meth:`mmlint.cache.Facts.restart`)."""
    arrs: list[Any] = [None] * len(notes)
    if facts is not None:
        at = {n.path: k for k, n in enumerate(notes)}
        try:
            for chunk in facts.each("H101", dict(at)):
                for path, text in chunk.items():
                    arrs[at[path]] = similarity.load_compact(text)
        except (ValueError, TypeError):  # not what dump_compact wrote, or the file is damaged
            facts.restart()
            arrs = [None] * len(notes)
    out = []
    for n, arr in zip(notes, arrs):
        if arr is None:
            arr = fresh.get(n.path)
            if arr is None:
                arr = _derived(n, facts)
            elif facts is not None:
                facts.put("H101", n.path, similarity.dump_compact(arr))
        out.append((n.path, arr))
    return out


def _no_pairs_since(notes: list[Note], facts: Any, threshold: float, fresh: dict[str, Any]) -> list | None:
    """``[]`` when H101 finds no pair without joining all notes again: the
    last cached check proved that none of its notes reach ``threshold``
    with another (its store fact, which the caller checked), at most
    :data:`INCREMENTAL_MAX` notes changed since (``facts.changed``), and
    none of them reaches it with another note: the changed notes' shingles
    are derived (and recorded), every other note's are streamed from the
    facts (:func:`mmlint.similarity.any_pair_with_encoded`), and each
    unchanged note must have had one, from a file found sound. ``None``
    otherwise, with what was recorded forgotten (then the whole join
    decides and records every fact once). The changed notes' shingles go
    to ``fresh`` (path -> array) either way."""
    changed = facts.changed
    if changed is None or len(changed) > INCREMENTAL_MAX:
        return None
    left = {n.path: n for n in notes}  # each() removes the notes it gives a fact for
    for path in changed:
        if path in left:
            fresh[path] = _derived(left.pop(path), facts)
    try:
        if not similarity.any_pair_with_encoded(list(fresh.items()), facts.each("H101", left), threshold) and not left:
            return []
    except (ValueError, TypeError):  # a fact that does not decode, or a damaged file: the whole join
        pass
    facts.restart()
    return None


# ---------------------------------------------------------------- H102

_FENCE_RE = lazy_re(r"^ {0,3}(`{3,}|~{3,})")
_CODE_RE = lazy_re(r"`([^`\n]{1,200})`")
_LINK_RE = lazy_re(r"\]\(<?([^()<>\s]{1,300})>?(?:\s+\"[^\"\n]{0,200}\")?\)")
_PATH_RE = lazy_re(r"^(?:\./)?[\w@+.-]+(?:/[\w@+.-]+)*/?\Z")
_EXT_RE = lazy_re(r"\.[A-Za-z][A-Za-z0-9]{0,7}\Z")
_LINE_SUFFIX_RE = lazy_re(r":\d+(?::\d+)?(?:-\d+)?\Z")
#: File name endings that mark a cited path as a file even when its top folder is gone.
FILE_EXTENSIONS = frozenset(
    "py pyi js jsx ts tsx mjs cjs json toml yaml yml md mdx rst txt cfg ini sh bash zsh ps1 bat go rs java kt kts "
    "swift c h cc cpp hpp cs rb php lua sql html css scss vue svelte lock xml gradle csproj sln tf proto ipynb r jl "
    "dart ex exs erl hs ml scala clj env".split())


def cited_paths(note: Note) -> Iterator[tuple[int, int, str, str]]:
    """Repository paths a note's body cites: ``(file line, column, path, how)``
    with ``how`` ``"code"`` (a backticked span) or ``"link"`` (a markdown link
    destination). Fenced code blocks are skipped (commands, not citations);
    URLs, absolute paths, ``~`` paths and text with spaces or glob and shell
    characters are not paths. A ``:LINE`` suffix is removed."""
    off = body_line_offset(note)
    fence = None
    for i, line in enumerate(note.body.split("\n"), start=1):
        m = _FENCE_RE.match(line)
        if m:
            mark = m.group(1)[0]
            if fence is None:
                fence = mark
            elif fence == mark:
                fence = None
            continue
        if fence is not None or ("`" not in line and "](" not in line):
            continue
        for how, rx in (("code", _CODE_RE), ("link", _LINK_RE)):
            for m in rx.finditer(line):
                raw = m.group(1).strip()
                if how == "link":
                    raw = raw.split("#", 1)[0].split("?", 1)[0]
                raw = _LINE_SUFFIX_RE.sub("", raw)
                if raw in ("", ".", "./", "..") or raw.startswith("-") or not _PATH_RE.match(raw):
                    continue
                yield off + i, m.start(1) + 1, raw, how


def _looks_like_repo_path(path: str, how: str, project: str) -> bool:
    clean = path[2:] if path.startswith("./") else path
    segs = [s for s in clean.rstrip("/").split("/") if s]
    if not segs or any(s in ("..",) for s in segs):
        return False
    if how == "link":
        return True
    if len(segs) < 2:
        return False  # a bare name may live anywhere in the project
    ext = _EXT_RE.search(segs[-1])
    has_ext = ext is not None and ext.group()[1:].lower() in FILE_EXTENSIONS
    return has_ext or outside.isdir(os.path.join(project, segs[0]))


def _project(ctx: Context) -> str | None:
    if "hygiene:project" not in ctx.cache:
        ctx.cache["hygiene:project"] = outside.project_root(ctx.store.root)
    return ctx.cache["hygiene:project"]


@rule("H102", "stale-path", WARNING)
def stale_path(ctx: Context):
    """A note cites a repository path (in backticks, or as a link) that does
    not exist in the project the store belongs to.

    The project root is the decoded project folder of a Claude Code store
    (``~/.claude/projects/<project>/memory``) when it exists, else the nearest
    git checkout holding the store; a store with neither is not checked. A
    backticked path counts when it has a folder and either its top folder
    exists or it ends in a source file extension; a link counts when it is
    not a URL and resolves neither from the note's folder nor from the
    project root.

    Why: the agent trusts the note and goes looking for a file that was moved
    or deleted; a memory about code the project no longer has is stale.
    Bad: "the retry logic is in `src/net/retry.py`" after ``retry.py`` was
    renamed to ``backoff.py``
    Good: "the retry logic is in `src/net/backoff.py`"
    """
    project = _project(ctx)
    if project is None:
        return
    for n in ctx.store.notes:
        folder = os.path.dirname(os.path.join(ctx.store.root, *n.path.split("/")))
        for line, col, path, how in cited_paths(n):
            if not _looks_like_repo_path(path, how, project):
                continue
            rel = path[2:] if path.startswith("./") else path
            places = [os.path.join(project, *rel.rstrip("/").split("/"))]
            if how == "link":
                places.append(os.path.normpath(os.path.join(folder, *path.rstrip("/").split("/"))))
            if any(outside.lexists(p) for p in places):  # noted for the result cache
                continue
            yield Finding(Span(n.path, line, col), f"cites {echo(path)}, which does not exist in the project "
                          f"({echo(project, 60)})", hint="update the path or remove the stale statement", anchor=path)


# ---------------------------------------------------------------- H103 / H104

_DATE_RE = lazy_re(r"(\d{4})-(\d{2})-(\d{2})")


def parse_date(value: Any) -> _dt.date | None:
    """The calendar date a field value starts with (``YYYY-MM-DD``, also the
    date part of an ISO date-time), else ``None``."""
    import datetime as _dt  # not on a check's path unless a note has an expires: value or H104 is on (~1.5 ms)

    if isinstance(value, (_dt.date, _dt.datetime)):
        return value.date() if isinstance(value, _dt.datetime) else value
    if not isinstance(value, str):
        return None
    m = _DATE_RE.match(value.strip().strip("'\""))
    if m is None:
        return None
    try:
        return _dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _expires(n: Note) -> tuple[Any, str] | None:
    if "expires" in n.extra:
        return n.extra["expires"], "extra:expires"
    meta = n.extra.get("metadata")
    if isinstance(meta, dict) and "expires" in meta:
        return meta["expires"], "extra:metadata"
    return None


@rule("H103", "expired-note", WARNING, scope="note")
def expired_note(ctx: Context):
    """A note's ``expires:`` date (frontmatter, ``metadata:``, or an mm entry's
    ``- **expires:**`` line) is in the past.

    Why: the note said itself when it stops being true; an agent loading it
    after that date acts on a fact its writer already retired.
    Bad: ``expires: 2025-03-31`` on a note about a code freeze, read in 2026
    Good: the note removed (or archived) with its pointer, or its date moved.
    """
    today = None
    for n in ctx.store.notes:
        got = _expires(n)
        if got is None:
            continue
        when = parse_date(got[0])
        if when is None:
            continue
        if today is None:
            import datetime as _dt

            today = _dt.date.today()
        if when < today:
            yield Finding(n.span(got[1]), f"note expired on {when.isoformat()} ({(today - when).days} day(s) ago)",
                          hint="remove or archive the note and its index pointer, or extend the date")


@rule("H104", "not-updated", INFO)
def not_updated(ctx: Context):
    """A note has not been updated for more than ``stale-days`` days (its
    ``updated`` date, else the file's modification time). Off by default:
    set ``stale-days`` in ``[tool.mmlint.hygiene]`` to turn it on.

    Why: project memories (status, blockers, next steps) go stale quickly; a
    periodic review keeps the store true.
    Bad: ``updated: 2024-01-10`` on a project status note, with ``stale-days = 180``
    Good: the note reviewed and its ``updated`` date refreshed, or removed.
    """
    days = int(setting(ctx, "stale-days"))
    if days <= 0:
        return
    import datetime as _dt

    today = _dt.date.today()
    for n in ctx.store.notes:
        when = parse_date(n.updated)
        span = n.span("updated")
        if when is None:
            try:
                st = os.stat(os.path.join(ctx.store.root, *n.path.split("/")))
            except OSError:
                continue
            when = _dt.date.fromtimestamp(st.st_mtime)
            span = Span(n.path, 1, 1)
        age = (today - when).days
        if age > days:
            yield Finding(span, f"not updated for {age} days (since {when.isoformat()}; stale-days is {days})",
                          hint="review the note: refresh its date, or remove it", anchor=n.path)


# ---------------------------------------------------------------- H105


def _drift_fix(ctx: Context, drifted: list[tuple[Any, Note]]) -> tuple[Fix | None, set[int]]:
    """``(fix, lines)``: one edit rewriting every drifted pointer line's hook
    to its note's description, every other byte kept, and the index lines it
    rewrites; ``(None, set())`` when no description can be put on a pointer
    line safely or the index would grow past a cap. A line whose description
    cannot go there (markup, a backslash, a line break) is left as it is."""
    from mmlint.rules.index import dialect_index_caps

    idx = ctx.store.index
    rec = ctx.store.files.get(idx.path) if idx is not None else None
    if rec is None or rec.data is None or idx.newline == "\r":
        return None, set()  # a CR-only index: line numbers and lines do not line up; S111 fixes it first
    lines = idx.text.split("\n")
    changed: set[int] = set()
    for e, n in drifted:
        desc = n.summary.strip()
        if not desc or any(c in desc for c in "[]<>`\\\r\n|") or "http" in desc.lower() or "  " in desc:
            continue
        if e.line > len(lines):
            continue
        raw = lines[e.line - 1]
        cr = "\r" if raw.endswith("\r") else ""
        body = raw[: len(raw) - len(cr)]
        core = body.rstrip()
        if not core.endswith(e.hook):
            continue
        lines[e.line - 1] = core[: len(core) - len(e.hook)] + desc + body[len(core):] + cr
        changed.add(e.line)
    if not changed:
        return None, set()
    new = "\n".join(lines).encode("utf-8", "surrogateescape")
    if idx.bom:
        new = b"\xef\xbb\xbf" + new
    caps = dialect_index_caps(ctx.dialect, ctx.store.profile, ctx.options.caps)
    limits = [c for c in (caps.get("bytes"), ctx.options.caps.get("load_bytes", 25_000) if ctx.store.profile == "claude-code" else None) if c]
    if any(len(new) > c >= len(rec.data) for c in limits):
        return None, set()
    return Fix(f"rewrite {len(changed)} drifted pointer hook(s) to the notes' descriptions", {idx.path: new}), changed


def _surely_placeholder(hook: str) -> bool:
    """Whether ``hook`` has fewer than :data:`MIN_HOOK_GRAMS` character
    grams, told without computing them for a short ASCII hook: NFKC and
    casefolding keep ASCII text's length, the rest of
    :func:`~mmlint.similarity.char_grams` only shortens it, and a text of
    ``k`` characters has at most ``max(k - 2, 1)`` grams."""
    return len(hook) < MIN_HOOK_GRAMS + 2 and hook.isascii()


@rule("H105", "index-drift", INFO, dialects={"engramory"}, profiles={"claude-code", "upstream"}, fix=UNSAFE)
def index_drift(ctx: Context):
    """A pointer's hook (the text after the link) no longer matches its note's
    ``description``: less than ``drift-threshold`` (default 0.1) of the hook's
    character trigrams occur in the description. Hooks of fewer than six
    characters (``h``, ``hook``) are placeholders and are not compared.

    Why: the agent decides from the hook whether to open a note; a hook left
    behind when the description changed sends it to the wrong note or keeps
    it from the right one.
    Bad: ``- [Deploy](project_deploy.md) — Jenkins nightly job`` while the
    note's description says "Deploys run on GitHub Actions since March"
    Good: the hook restates the description.
    Fix: unsafe (``--unsafe-fixes``): the hook is text someone wrote, and
    the comparison is a heuristic (a hook that says the description in other
    words, common in Chinese, Japanese or Korean, may share no trigram with
    it), so the fix replaces words a person chose. Rewrites only the drifted
    pointer lines, replacing each hook by its note's description; every other
    line, the link and the separator are kept byte for byte. No fix when a
    description holds markdown that could make a new link, or the index would
    pass a cap it is within.
    """
    idx = ctx.store.index
    if idx is None:
        return
    threshold = float(setting(ctx, "drift-threshold"))
    per_line: dict[int, int] = {}
    for e in idx.entries:
        per_line[e.line] = per_line.get(e.line, 0) + 1
    drifted = []
    for e in idx.entries:
        if e.kind != "link" or e.target is None or not e.hook or per_line[e.line] > 1:
            continue
        if _surely_placeholder(e.hook):
            continue
        n = ctx.store.note_at(e.target)
        if n is None or not isinstance(n.summary, str) or not n.summary.strip():
            continue
        hook_g = similarity.char_grams(e.hook)
        if len(hook_g) < MIN_HOOK_GRAMS:
            continue  # a placeholder of a character or two says nothing to compare
        s = similarity.containment(hook_g, similarity.char_grams(n.summary))
        if s < threshold:
            drifted.append((e, n, s))
    fix, rewritten = _drift_fix(ctx, [(e, n) for e, n, _ in drifted]) if drifted else (None, set())
    for e, n, s in drifted:
        # the fix goes with the findings whose line it rewrites: --fix counts what it fixed by them
        yield Finding(e.span, f"hook {echo(e.hook, 50)} no longer matches the description of {echo(n.path)} "
                      f"(similarity {s:.2f} < {threshold:.2f})", hint="restate the description in the hook",
                      fix=fix if e.line in rewritten else None, anchor=e.target)


# ---------------------------------------------------------------- H106


def _line_col(text: str, offset: int, starts: list[int]) -> tuple[int, int]:
    import bisect

    k = bisect.bisect_right(starts, offset) - 1
    return k + 1, offset - starts[k] + 1


@rule("H106", "personal-data", INFO, scope="file")
def personal_data(ctx: Context):
    """A note or the index holds personal data beyond credentials: an e-mail
    address, a phone number or a national identity number (US social security,
    Korean resident registration, Chinese resident identity, UK National
    Insurance). The value is never echoed in full. Kinds are configurable
    (``personal-data`` in ``[tool.mmlint.hygiene]``); addresses at reserved
    documentation domains (``example.com``, ``.test``) are not reported.

    Why: a memory store is plain text that agents load into every session and
    that is often committed or synced; personal data there leaks with it.
    Bad: "Alicia's mobile is +33 6 12 34 56 78, write to alicia@hess-auto.fr"
    Good: "Alicia's contact details are in the CRM (record HESS-114)"
    """
    kinds = frozenset(setting(ctx, "personal-data"))
    if not kinds:
        return
    # may_hold asked of many files' bytes joined by b"\n" first (mmlint.rules.shared): no
    # newline is ASCII-breaking, an "@" or part of a digit run, so it holds of the joined
    # bytes exactly when it holds of some file's
    maybe = shared.gated(ctx, lambda data: personal.may_hold(data, kinds))
    for rec in sorted(maybe, key=lambda r: r.path):
        if rec.kind not in ("note", "index") or not rec.data or not personal.may_hold(rec.data, kinds):
            continue
        text = decode(rec.data).text
        hits = sorted(personal.find(text, kinds), key=lambda h: h.offset)
        if not hits:
            continue
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        for k, h in enumerate(hits[:MAX_PERSONAL_PER_FILE]):
            line, col = _line_col(text, h.offset, starts)
            more = ""
            if k == MAX_PERSONAL_PER_FILE - 1 and len(hits) > MAX_PERSONAL_PER_FILE:
                more = f" ({len(hits) - MAX_PERSONAL_PER_FILE} more in this file)"
            yield Finding(Span(rec.path, line, col), f"{h.label} {personal.mask(h.value)}{more}",
                          hint="keep personal data out of memory; say where it lives instead", anchor=f"{h.kind}:{personal.mask(h.value)}")
