"""Frontmatter rules: the ``key: value`` grammar, required keys and values
(validated against the JSON Schemas in ``schemas/``), and the Why / How to
apply body labels of engramory feedback and project notes."""

from __future__ import annotations

import re
from functools import lru_cache

from mmlint.dates import iso_ordinal, today_ordinal
from mmlint.model import Span
from mmlint.rules import Context, ERROR, Finding, INFO, WARNING, body_line_offset, reader_rule, rule, shared
from mmlint.textutil import lazy_re

_FM = ("engramory", "workspace")

reader_rule("F100", "unclosed-frontmatter", ERROR, """
    A note opens a ``---`` frontmatter block that never closes.

    Why: every reader then treats the whole note as frontmatter or as body;
    no field can be trusted. The closing fence must be ``---`` at column 0.
    Severity: the workspace plugin reads ``key: value`` lines without YAML and ignores a
    line it cannot read rather than failing (workspace spec, "a line you break by
    hand is ignored rather than fatal"), so in a workspace store this is a warning.
    Bad: ``---`` / ``name: x`` / ``----``
    Good: ``---`` / ``name: x`` / ``---``
    """, dialects=_FM, severity_by={"workspace": WARNING})
reader_rule("F101", "malformed-line", ERROR, """
    A frontmatter line is not ``key: value`` (a YAML list item, a block
    scalar continuation, or text without a colon).

    Why: the engramory grammar is one ``key: value`` per line; the reference
    doctor and recall tools reject the line, and values that span lines are
    read differently by YAML and by line-based readers.
    Severity: the workspace plugin reads ``key: value`` lines without YAML and ignores a
    line it cannot read rather than failing (workspace spec, "a line you break by
    hand is ignored rather than fatal"), so in a workspace store this is a warning.
    Bad: ``tags:`` / ``  - a`` (a list), ``description: >-`` + continuation
    Good: ``tags: a, b``; a one-line ``description``.
    (For the claude-code profile, where YAML shapes are Claude Code's own,
    X106 reports them as an interop warning instead.)
    """, dialects=_FM, profiles=("recall-v1", "upstream"), severity_by={"workspace": WARNING})
reader_rule("F102", "unclosed-quote", ERROR, """
    A frontmatter value opens a quote that does not close at the end of the
    line (or whose closing quote is escaped).

    Why: line-based readers keep the stray quote in the value, YAML rejects
    the whole block: Claude Code then sees no frontmatter at all.
    Severity: the workspace plugin reads ``key: value`` lines without YAML and ignores a
    line it cannot read rather than failing (workspace spec, "a line you break by
    hand is ignored rather than fatal"), so in a workspace store this is a warning.
    Bad: ``name: "통과" 한마디``, ``description: "oops``
    Good: ``name: '"통과" 한마디'`` or no leading quote.
    """, dialects=_FM, severity_by={"workspace": WARNING})
reader_rule("F103", "malformed-quoted-value", ERROR, """
    A quoted frontmatter value holds the same quote character unescaped.

    Why: ``"a""`` is neither valid YAML nor a value the restricted grammar
    can read unambiguously.
    Severity: the workspace plugin reads ``key: value`` lines without YAML and ignores a
    line it cannot read rather than failing (workspace spec, "a line you break by
    hand is ignored rather than fatal"), so in a workspace store this is a warning.
    Bad: ``name: "a-note""``
    Good: ``name: "a-note"``
    """, dialects=_FM, severity_by={"workspace": WARNING})
reader_rule("F104", "invalid-yaml-value", ERROR, """
    A frontmatter value that needs YAML (a list, a block scalar, a flow
    collection) is not valid YAML, or is a YAML bomb (too many aliases, too
    deeply nested).

    Why: readers disagree on what the note says, and Claude Code drops the
    frontmatter.
    Severity: the workspace plugin reads ``key: value`` lines without YAML and ignores a
    line it cannot read rather than failing (workspace spec, "a line you break by
    hand is ignored rather than fatal"), so in a workspace store this is a warning.
    Bad: ``tags: [a, b``
    Good: ``tags: [a, b]``
    """, dialects=_FM, severity_by={"workspace": WARNING})
reader_rule("F105", "empty-key", ERROR, """
    A frontmatter line has nothing before its colon.

    Why: usually a typo that loses a field (``: feedback`` meant ``type: feedback``).
    Severity: the workspace plugin reads ``key: value`` lines without YAML and ignores a
    line it cannot read rather than failing (workspace spec, "a line you break by
    hand is ignored rather than fatal"), so in a workspace store this is a warning.
    Bad: ``: feedback``
    Good: ``type: feedback``
    """, dialects=_FM, severity_by={"workspace": WARNING})
reader_rule("F106", "stray-indent", WARNING, """
    An indented frontmatter line has no parent key above it.

    Why: YAML rejects it; line-based readers read it as a top-level key.
    Severity: Claude Code parses frontmatter as YAML, which refuses the block, so under
    the claude-code profile the note loses its frontmatter: an error there.
    Bad: ``name: x`` / ``  type: user``
    Good: ``type: user`` at column 0, or under ``metadata:``.
    """, dialects=_FM, severity_by={"claude-code": ERROR})
reader_rule("F107", "duplicate-key", ERROR, """
    A frontmatter key appears twice at the same level.

    Why: readers keep different copies (the reference keeps the last, YAML
    rejects the block), so the note's meaning depends on the tool.
    Severity: the workspace plugin reads ``key: value`` lines without YAML and ignores a
    line it cannot read rather than failing (workspace spec, "a line you break by
    hand is ignored rather than fatal"), so in a workspace store this is a warning.
    Bad: ``type: feedback`` ... ``type: reference``
    Good: one ``type:`` line.
    """, dialects=_FM, severity_by={"workspace": WARNING})
reader_rule("F108", "key-at-two-levels", ERROR, """
    A field is set both at top level and under ``metadata:``.

    Why: Claude Code nests fields under ``metadata:``, the engramory doctor
    reads both levels as one; with two values, tools disagree on the note's
    type or dates. mmlint uses the top-level value.
    Severity: the workspace plugin reads ``key: value`` lines without YAML and ignores a
    line it cannot read rather than failing (workspace spec, "a line you break by
    hand is ignored rather than fatal"), so in a workspace store this is a warning.
    Under claude-code, YAML reads both levels without complaint: a warning too.
    Bad: ``type: reference`` and ``metadata:`` / ``  type: feedback``
    Good: one ``type`` at one level.
    """, dialects=_FM, severity_by={"workspace": WARNING, "claude-code": WARNING})


def _schema_name(ctx: Context) -> str | None:
    return ctx.schema_name()


def _instance(ctx: Context, note) -> dict:
    fm = note.frontmatter
    carried = _carried(fm.top_keys()) if fm is not None else frozenset()
    workspace = ctx.store.dialect == "workspace"
    inst = {}
    for key, field in ctx.dialect.KEYMAP.items():
        value = getattr(note, field)
        if value is None:
            continue
        if key == "scope" and value == "":
            continue
        if field in carried:  # an mmlint-<field> carrier: the value as the dialect wrote it
            native = ctx.frontmatter_item(note, key)
            if native is not None and isinstance(native.value, str):
                value = native.value  # written in the dialect's form; the carrier keeps the original
        if key == "tags" and workspace:
            item = ctx.frontmatter_item(note, "tags")
            value = item.value if item is not None and isinstance(item.value, str) else ", ".join(value)
        inst[key] = value
    return inst


_CARRIED: dict[tuple[str, ...], frozenset[str]] = {}


def _carried(top_keys: tuple[str, ...]) -> frozenset[str]:
    """The fields ``f`` with an ``mmlint-f`` key among ``top_keys`` (a
    block's :meth:`~mmlint.frontmatter.Frontmatter.top_keys`); memoised, as
    the notes of a store share a few key tuples."""
    got = _CARRIED.get(top_keys)
    if got is None:
        got = frozenset(k[7:] for k in top_keys if k.startswith("mmlint-"))
        if len(_CARRIED) < 4096:
            _CARRIED[top_keys] = got
    return got


def _schema_errors(ctx: Context) -> dict[str, list]:
    """Note path -> its schema errors, for the notes with any among those
    F111 and F112 check (not :func:`_skip`): validated once per run, shared
    by the two rules, nothing kept for a valid note."""
    got = ctx.cache.get("schema-errors")
    if got is None:
        from mmlint.validate import validate

        name = _schema_name(ctx)
        got = {}
        for n in ctx.store.notes:
            if not _skip(ctx, n):
                errors = validate(name, _instance(ctx, n))
                if errors:
                    got[n.path] = errors
        ctx.cache["schema-errors"] = got
    return got


def _skip(ctx: Context, note) -> bool:
    """No frontmatter fields to check: none, one that never closes, or a history archive."""
    fm = note.frontmatter
    return fm is None or fm.close_raw is None or note.path in shared.history(ctx)


@rule("F109", "missing-frontmatter", ERROR, dialects=("engramory",), scope="note")
def missing_frontmatter(ctx: Context):
    """An engramory note has no ``---`` frontmatter block at its first line.

    Why: without ``name``, ``description`` and ``type`` the note cannot be
    typed, described in recall, or checked. A blank line before ``---`` also
    counts as no frontmatter.
    Bad: a note that starts with ``# Title``
    Good: ``---`` / ``name: x`` / ``description: ...`` / ``type: reference`` / ``---``
    """
    for n in ctx.store.notes:
        if "\x00" in n.body:
            continue  # S107 reports a NUL-filled (crashed) note
        if n.frontmatter is None and not ctx.is_history(n.path) and not ctx.outside_graph(n.path):
            if n.body.lstrip("\n").startswith("---"):
                hint = "remove the blank line(s) before '---': the fence must be the first line"
            elif n.body.lstrip().startswith("---"):
                hint = "the opening '---' must start at column 0 of the first line"
            else:
                hint = "add name, description and type"
            yield Finding(Span(n.path, 1, 1), "note has no frontmatter block", hint=hint)


def _key_span(note, key: str, field: str) -> Span:
    return note.spans.get(field) or Span(note.path, 1, 1)


@rule("F111", "missing-required-key", ERROR, dialects=_FM, scope="note")
def missing_required_key(ctx: Context):
    """A required frontmatter key is missing (schema ``required``).

    Why: engramory needs ``name``, ``description`` and ``type``; the
    upstream profile also ``created`` and ``updated``. Recall and typing
    depend on them.
    Bad: ``---`` / ``name: x`` / ``---``
    Good: ``name``, ``description`` and ``type`` all present.
    """
    if _schema_name(ctx) is None:
        return
    found = _schema_errors(ctx)
    for n in ctx.store.notes if found else ():
        for err in found.get(n.path, ()):
            if err.keyword == "required":
                yield Finding(Span(n.path, 1, 1), f"{err.message} (schema path {err.pointer})")


@rule("F112", "invalid-field-value", ERROR, dialects=_FM, severity_by={"workspace": WARNING}, scope="note")
def invalid_field_value(ctx: Context):
    """A frontmatter value breaks its schema: a ``type`` outside
    user/feedback/project/reference, a date that is not ``YYYY-MM-DD`` (ASCII
    digits, a real calendar day), a blank ``name``/``description``, a scope
    outside global/repo (upstream).

    Why: tools file, filter and age notes by these values; a wrong one
    silently misfiles the memory. The engramory doctor fails the store; the
    workspace plugin indexes the note with the value as written (a warning
    there).
    Bad: ``type: Reference``, ``created: 2026-02-30``, ``description: " "``
    Good: ``type: reference``, ``created: 2026-02-28``
    """
    if _schema_name(ctx) is None:
        return
    rev = dict(ctx.dialect.KEYMAP)
    found = _schema_errors(ctx)
    for n in ctx.store.notes if found else ():
        errors = [e for e in found.get(n.path, ()) if e.keyword != "required"]
        misshapen = {e.key for e in errors if e.keyword != "format"}
        for err in errors:
            if err.keyword == "format" and err.key in misshapen:
                continue  # the value's shape is wrong already; one finding per value
            yield Finding(_key_span(n, err.key, rev.get(err.key, err.key)), f"{err.message} (schema path {err.pointer})")


#: Keys Claude Code itself writes; not "unknown" in the claude-code profile.
CLAUDE_KEYS = {"metadata", "originSessionId", "node_type", "modified"}


@rule("F113", "unknown-key", INFO, dialects=_FM, scope="note")
def unknown_key(ctx: Context):
    """A frontmatter key that the dialect does not define.

    Why: often a typo (``desciption:``) that leaves the real key missing;
    otherwise extra data that other tools ignore. Claude Code's own keys
    (``metadata``, ``originSessionId``, ``node_type``, ``modified``) and
    mmlint carriers (``mmlint-*``) are not reported.
    Bad: ``desciption: ...``
    Good: ``description: ...``
    """
    for n in ctx.store.notes:
        if _skip(ctx, n):
            continue
        for key in n.extra:
            if not key or key in CLAUDE_KEYS or key.startswith("mmlint-"):
                continue  # an empty key is reported by F105
            span = n.spans.get("extra:" + key) or Span(n.path, 1, 1)
            yield Finding(span, f"unknown frontmatter key {key!r}")


_FENCE = lazy_re(r"^\s{0,3}(```|~~~)")
#: A label: list/heading/quote prefix, optional ``1.``, optional bold, the
#: word(s), an optional parenthetical note (``How to apply (done 2026-04):``),
#: optional bold close, then ``:`` or the full-width ``：`` on the same line.
#: Linear by construction: the prefix (``[ \t#>*-]*``) is stripped before
#: matching (:class:`_Label`), and every run of blanks is followed by a token
#: it cannot match, so no two quantifiers compete for the same characters.
_PREFIX = " \t#>*-"
_BOLD = r"(?:(?:\*\*|__)[ \t]*)?"
_LEAD = r"(?:\d+[.)][ \t]*)?" + _BOLD
#: The note's characters are "not ``)``, ``）`` or a line break", written as a
#: look-ahead and ``[^\n]``: the class ``[^)）\n]`` says the same but costs
#: ~0.2 ms to compile in each of the four patterns (a 64K-entry bitmap for
#: three runs of characters, one beyond Latin-1); ``tests/test_ascii_fastpaths.py``
#: holds the patterns to that class.
_NOTE = r"[ \t]*(?:[(（](?:(?![)）])[^\n]){0,80}[)）][ \t]*)?"


class _Label:
    """A label pattern matched after the line's prefix is stripped (compiled
    on first use: most notes' labels are read by :func:`_plain_label`)."""

    def __init__(self, pattern: str) -> None:
        self.rx = lazy_re(pattern, re.IGNORECASE)

    def match(self, line: str) -> re.Match | None:
        """``re.match`` of the pattern on ``line`` without its prefix."""
        return self.rx.match(line.lstrip(_PREFIX))


_WHY = _Label(_LEAD + r"why" + _NOTE + _BOLD + r"[:：]")
_HOW = _Label(_LEAD + r"how[ \t]+to[ \t]+apply" + _NOTE + _BOLD + r"[:：]")
#: A heading that is the label itself (``## Why``, ``### How to apply``): its
#: section is the content, so no colon is needed.
_HEAD_END = _NOTE + r"(?:[:：][ \t]*)?(?:#+[ \t]*)?$"
_WHY_HEAD = lazy_re(r"^#{1,6}[ \t]+why" + _HEAD_END, re.IGNORECASE)
_HOW_HEAD = lazy_re(r"^#{1,6}[ \t]+how[ \t]+to[ \t]+apply" + _HEAD_END, re.IGNORECASE)
_WHY_NEAR = _Label(_BOLD + r"why\b")
_HOW_NEAR = _Label(_BOLD + r"how\b")


def strip_comments(text: str) -> str:
    """``text`` without its ``<!-- ... -->`` comments (an unclosed one is
    kept); one left-to-right pass."""
    out, pos = [], 0
    while True:
        a = text.find("<!--", pos)
        b = text.find("-->", a + 4) if a >= 0 else -1
        if b < 0:
            out.append(text[pos:])
            return "".join(out)
        out.append(text[pos:a])
        pos = b + 3


def _unfenced(lines: list[str]):
    """``(index, line)`` for each line outside fenced code blocks."""
    fence = None
    for i, line in enumerate(lines):
        m = _FENCE.match(line)
        if m:
            fence = None if fence == m.group(1) else (fence or m.group(1))
            continue
        if not fence:
            yield i, line


def _outside_fences(body: str, lines: list[str]):
    """:func:`_unfenced` of ``lines`` (``body.split("\n")``); a body without
    a fence marker has no fenced lines to track."""
    return _unfenced(lines) if "```" in body or "~~~" in body else enumerate(lines)


# Lines without a w: each of _WHY, _HOW, the heads, the near misses and
# _LABEL_REST matches "why" or "how" ignoring case, so a line holding neither
# "w" nor "W" matches none of them and is not tried (tests/test_rule_fastpaths.py
# checks that no other character matches "w" ignoring case).


def _plain_label(line: str) -> tuple[str, str] | None:
    """``(label, rest)`` for a line whose label is written plainly, the way
    nearly every note writes it: after the prefix (:data:`_PREFIX`, which
    takes ``**`` too), ``why:`` or ``how to apply:`` in ASCII letters of any
    case, right after the prefix; ``label`` is ``"why"`` or ``"how"``,
    ``rest`` what :data:`_LABEL_REST` takes as its group 2. ``None`` for any
    other line, and for a heading (``#`` first), which the patterns decide.

    For such a line the patterns answer without being compiled: the label's
    own pattern (:data:`_WHY` / :data:`_HOW`) matches, the other label's,
    both heads (they need ``#`` first) and the other near miss do not (its
    word does not start the stripped line), and :data:`_LABEL_REST` matches
    with ``rest`` (blanks, then an optional ``**``/``__`` and blanks, are
    skipped: greedy, as the pattern's). ``tests/test_rule_fastpaths.py``
    holds the scan to the patterns."""
    if line[:1] == "#":
        return None
    s = line.lstrip(_PREFIX)
    head = s[:13]
    if not head.isascii():
        return None
    low = head.lower()
    if low[:4] == "why:":
        label, k = "why", 4
    elif low == "how to apply:":
        label, k = "how", 13
    else:
        return None
    rest = s[k:].lstrip(" \t")
    if rest[:2] in ("**", "__"):
        rest = rest[2:].lstrip(" \t")
    return label, rest


def _label_scan(body: str) -> tuple[tuple[bool, bool, bool, bool], list[tuple[int, str]]]:
    """``(_labels(body), _empty_labels(body))`` from one pass over the
    body's lines (F114's labels and near misses, F116's empty labels)."""
    why = how = near_why = near_how = False
    empty = []
    lines = body.split("\n")
    for i, line in _outside_fences(body, lines):
        if "w" not in line and "W" not in line:
            continue  # no label on a line without a w (see above)
        plain = _plain_label(line)
        if plain is not None:  # a plain label: what the patterns say, without them (see _plain_label)
            if plain[0] == "why":
                why = True
            else:
                how = True
            label, rest = "Why" if plain[0] == "why" else "How to apply", strip_comments(plain[1]).strip(" *_")
        else:
            if not (why and how):  # the near misses are only looked for while a label is missing
                if not why and (_WHY.match(line) or _WHY_HEAD.match(line)):
                    why = True
                elif not why and _WHY_NEAR.match(line):
                    near_why = True
                if not how and (_HOW.match(line) or _HOW_HEAD.match(line)):
                    how = True
                elif not how and _HOW_NEAR.match(line):
                    near_how = True
            lm = _LABEL_REST.match(line)
            if not lm:
                continue
            label, rest = "Why" if lm.group(1).lower() == "why" else "How to apply", strip_comments(lm.group(2)).strip(" *_")
        j = i + 1
        while not rest and j < len(lines):
            nxt = lines[j]
            j += 1
            if not nxt.strip():
                continue  # the content may follow a blank line (a list, a paragraph)
            if _plain_label(nxt) is not None or _LABEL_REST.match(nxt) or nxt.lstrip().startswith("#"):
                break
            rest = strip_comments(nxt).strip(" *_-")
        if not rest:
            empty.append((i, label))
    return (why, how, near_why, near_how), empty


def _labels(body: str) -> tuple[bool, bool, bool, bool]:
    """``(why, how, near_why, near_how)``: whether ``body`` has a Why label,
    a How-to-apply label, and a near miss of each (F114)."""
    return _label_scan(body)[0]


def _empty_labels(body: str) -> list[tuple[int, str]]:
    """``(line index in body, "Why" or "How to apply")`` of each label of
    ``body`` with nothing after it (F116)."""
    return _label_scan(body)[1]


def _label_findings(ctx: Context) -> list[tuple]:
    """``(note, labels, empty labels)`` (:func:`_label_scan`) of the
    feedback and project notes F114 or F116 report on, in note order: one
    scan per note for both rules, once per run, nothing kept for the notes
    with both labels and no empty one."""
    got = ctx.cache.get("label-findings")
    if got is None:
        got = []
        for n in ctx.store.notes:
            if n.type not in ("feedback", "project") or _skip(ctx, n):
                continue
            flags, empty = _label_scan(n.body)
            if not (flags[0] and flags[1]) or empty:
                got.append((n, flags, empty))
        ctx.cache["label-findings"] = got
    return got


@rule("F114", "missing-why-how", INFO, dialects=("engramory",), profiles=("upstream", "claude-code"),
      severity_by={"upstream": ERROR}, scope="note")
def missing_why_how(ctx: Context):
    """A feedback or project note lacks a ``Why:`` or ``How to apply:`` line
    in its body.

    Why: engramory's protocol asks each rule to carry its reason and its
    application, so a later session can judge edge cases instead of
    following the rule blindly. Labels inside code fences do not count;
    ``**Why:**``, ``Why:``, ``## Why:``, ``1. Why:``, ``__Why:__``, a
    full-width ``：``, a parenthetical note before the colon
    (``**How to apply (since 2026-04):**``) and a heading that is the label
    (``## Why`` followed by its section) all do. (The reference doctor
    rejects ``## Why`` without a colon; a heading is a label in markdown.)
    Severity: the upstream doctor fails a store with such a note (an ISSUE in
    its missing-why-how bucket), so under upstream this is an error; Claude
    Code loads the note as it is, so under claude-code it is advice (info).
    Bad: a feedback note that only says "use pnpm"
    Good: ``**Why:** the lockfile is pnpm's`` / ``**How to apply:** run pnpm install``
    """
    for n, (why, how, near_why, near_how), _ in _label_findings(ctx):
        if why and how:
            continue  # F116's note only: no finding here, no span to make
        span = n.spans.get("type") or Span(n.path, 1, 1)
        if not why and not how and not near_why and not near_how:
            yield Finding(span, f"{n.type} note has no 'Why:' and no 'How to apply:' line",
                          hint="add '**Why:** ...' (the reason) and '**How to apply:** ...' (when and how to use it)")
            continue
        if not why:
            hint = "found a 'Why' label without the 'Why:' form: add a colon, e.g. **Why:**" if near_why else "add a '**Why:** ...' line"
            yield Finding(span, f"{n.type} note has no 'Why:' line", hint=hint)
        if not how:
            hint = "found 'How' but not the full 'How to apply:' label" if near_how else "add a '**How to apply:** ...' line"
            yield Finding(span, f"{n.type} note has no 'How to apply:' line", hint=hint)


@rule("F115", "missing-scope", INFO, dialects=("engramory",), profiles=("upstream",))
def missing_scope(ctx: Context):
    """Feedback and project notes without a ``scope`` (one finding for the
    whole store, naming the first three).

    Why: upstream engramory asks feedback and project notes to say whether
    they hold globally or for this repository, so agents in other
    repositories do not follow them by mistake.
    Bad: a feedback note with no ``scope:``
    Good: ``scope: repo`` or ``scope: global``
    """
    missing = [n for n in ctx.store.notes if n.type in ("feedback", "project") and not n.scope and not _skip(ctx, n)]
    if missing:
        names = ", ".join(n.path for n in missing[:3]) + (f" +{len(missing) - 3} more" if len(missing) > 3 else "")
        yield Finding(Span(missing[0].path, 1, 1), f"{len(missing)} feedback/project note(s) carry no 'scope': {names}")


_LABEL_REST = _Label(_LEAD + r"(why|how[ \t]+to[ \t]+apply)[ \t]*" + _BOLD + r"[:：][ \t]*" + _BOLD + r"(.*)$")


@rule("F116", "empty-why-how", INFO, dialects=("engramory",), profiles=("upstream", "claude-code"), scope="note")
def empty_why_how(ctx: Context):
    """A ``Why:`` or ``How to apply:`` label with nothing after it (on its
    line or below it, blank lines allowed, before the next label or
    heading), or only an HTML comment.

    Why: the label satisfies the reference doctor but tells the next session
    nothing; scaffolds left unfilled look complete. Every tool accepts it:
    advice (info).
    Bad: ``**Why:** <!-- fill in -->``
    Good: ``**Why:** the lockfile is pnpm's``
    """
    for n, _, empty in _label_findings(ctx):
        offset = body_line_offset(n)
        for i, label in empty:
            yield Finding(Span(n.path, offset + i + 1, 1), f"'{label}:' label has no content")


def _date(value):
    """The day number (:func:`mmlint.dates.ordinal`) of the calendar date a
    ``YYYY-MM-DD...`` value starts with (ASCII digits, a real day), else
    ``None``."""
    return _date_of(value) if type(value) is str else _parse_date(value)


@lru_cache(maxsize=4096)
def _date_of(value: str):
    """:func:`_parse_date`, memoised: a store repeats its dates."""
    return _parse_date(value)


def _parse_date(value):
    return iso_ordinal(value[:10]) if isinstance(value, str) else None


@rule("F117", "dates-out-of-order", WARNING, dialects=_FM, scope="note")
def dates_out_of_order(ctx: Context):
    """``updated`` is earlier than ``created``.

    Why: one of the two dates is wrong; tools that age or sort notes by date
    misplace the note.
    Bad: ``created: 2026-05-01`` / ``updated: 2026-04-01``
    Good: ``updated`` on or after ``created``.
    """
    for n in ctx.store.notes:
        c, u = _date(n.created), _date(n.updated)
        if c and u and u < c:
            yield Finding(n.spans.get("updated") or Span(n.path, 1, 1), f"updated {n.updated} is earlier than created {n.created}")


@rule("F118", "future-date", WARNING, dialects=_FM, scope="note")
def future_date(ctx: Context):
    """``created`` or ``updated`` lies in the future (more than a day ahead
    of today, to allow for time zones).

    Why: usually a typo in the year; notes sorted by date then float to the
    top forever.
    Bad: ``updated: 2062-01-01``
    Good: the real date.
    """
    limit = today_ordinal() + 1
    for n in ctx.store.notes:
        for f in ("created", "updated"):
            d = _date(getattr(n, f))
            if d and d > limit:
                yield Finding(n.spans.get(f) or Span(n.path, 1, 1), f"{f} {getattr(n, f)} is in the future")


_RELATIVE = lazy_re(r"\b(?:yesterday|today|tomorrow|last (?:week|month|year|night)|next (?:week|month|year)|this (?:week|month)"
                    r"|a few days ago|recently)\b|昨天|今天|明天|上周|下周|上个月|下个月|最近", re.IGNORECASE)
#: A word every English match of :data:`_RELATIVE` holds (the other
#: alternatives are not ASCII): an ASCII text without any of them, in lower
#: case, has no match (in ASCII, ignoring case is ASCII case).
_RELATIVE_WORDS = ("yesterday", "today", "tomorrow", "last ", "next ", "this ", "a few days ago", "recently")


def _relative_date(body: str) -> re.Match | None:
    """``_RELATIVE.search(body)``; an ASCII body holding none of
    :data:`_RELATIVE_WORDS` is answered without compiling the pattern."""
    if body.isascii():
        low = body.lower()
        if not any(w in low for w in _RELATIVE_WORDS):
            return None
    return _RELATIVE.search(body)


@rule("F119", "relative-date", WARNING, dialects=("engramory",), profiles=("upstream", "recall-v1"), scope="note")
def relative_date(ctx: Context):
    """A project note uses a relative date ("last week", "tomorrow", "上周").

    Why: a note outlives the day it was written; "last week" is wrong a week
    later. The engramory protocol asks project notes for absolute dates.
    Bad: ``Release slipped to next week.``
    Good: ``Release slipped to 2026-03-12.``
    """
    for n in ctx.store.notes:
        if n.type != "project":
            continue
        m = _relative_date(n.body)
        if m:
            line = n.body.count("\n", 0, m.start()) + 1 + body_line_offset(n)
            yield Finding(Span(n.path, line, 1), f"relative date {m.group()!r} in a project note; write the absolute date")
