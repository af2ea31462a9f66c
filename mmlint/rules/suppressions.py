"""Inline suppressions: ``<!-- mmlint-... -->`` comments in notes and the index.

A suppression is an HTML comment, so it never renders and every markdown tool
ignores it. Forms (codes are rule codes or names, separated by commas or
spaces; a code prefix such as ``P1`` names every rule whose code starts with
it, as ``--select`` does; no codes means every rule)::

    <!-- mmlint-disable [CODES] -->            from this line to a matching enable
    <!-- mmlint-enable [CODES] -->             ends a disable from the next line on
    <!-- mmlint-disable-next-line [CODES] -->  the line after the comment
    <!-- mmlint-disable-line [CODES] -->       the comment's own line
    <!-- mmlint-disable-file [CODES] -->       the whole file, wherever it stands

Comments are found with markdown-it, so a comment inside a code span or a
fenced block is text, not a suppression. A note's frontmatter is not markdown
(YAML has no HTML comments): a comment there is a value, never a suppression;
``disable-file`` is the way to silence a frontmatter finding. A comment
suppresses findings in its own file only.

The rules below report suppressions that do nothing (``Q101``), name no rule
(``Q102``) or are misspelt (``Q103``). Their findings are never suppressed
inline; turn them off with ``ignore`` or ``per-path-ignores``.
"""

from __future__ import annotations

import re

from mmlint._record import Record
from mmlint.model import Span
from mmlint.rules import WARNING, Context, Diagnostic, lookup, reader_rule, runs_on, stamp
from mmlint.textutil import echo, lazy_re

FAMILY_PREFIX = "Q"
PREFIX = "mmlint-"
DIRECTIVES = ("disable", "enable", "disable-next-line", "disable-line", "disable-file")
#: Unknown codes named in one Q102 message; the rest are counted.
_SHOWN = 3
#: Code points of a comment kept for messages (the rest of a hostile comment is never echoed).
_ECHO = 40
_EOF = 1 << 62

reader_rule("Q101", "unused-suppression", WARNING, """
    An inline suppression hides nothing: no finding of the rules it names
    sits where it applies (or an ``mmlint-enable`` ends no disable).

    Why: stale suppressions pile up as notes change, and a later real
    finding on that line would be hidden without anyone noticing. Codes of
    rules that did not run (deselected, another dialect) are not judged.
    Bad: ``<!-- mmlint-disable-next-line P101 -->`` above a pointer that resolves
    Good: remove the comment once the finding is gone.
    """)
reader_rule("Q102", "unknown-suppression-code", WARNING, """
    An inline suppression names a code or name that is no mmlint rule.

    Why: a typo in a suppression hides nothing, and the finding it was meant
    for keeps firing, or the suppression was written for another tool.
    Bad: ``<!-- mmlint-disable-next-line P1O1 -->`` (a letter O)
    Good: ``<!-- mmlint-disable-next-line P101 -->`` or ``dangling-pointer``.
    """)
reader_rule("Q103", "malformed-suppression", WARNING, """
    A comment starts with ``mmlint-`` but is not one of the directives
    ``disable``, ``enable``, ``disable-next-line``, ``disable-line``,
    ``disable-file``.

    Why: a misspelt directive is silently ignored by the engine, so the
    finding it was meant to hide still fires, for a reason that is hard to see.
    Bad: ``<!-- mmlint-disabel P101 -->``
    Good: ``<!-- mmlint-disable P101 -->``
    """)


class Directive(Record):
    """One ``mmlint-`` comment.

    Attributes:
        path: store-relative file; line/end_line/column: where the comment
            starts (1-based, code points) and the line it ends on.
        kind: one of :data:`DIRECTIVES`.
        codes: rule codes named (``None``: no codes, meaning every rule).
        unknown: names given that are no rule, in order, deduplicated.
        used: codes it hid a finding of (``"*"`` for a code-less directive).
        groups: each known name as written (a code, a name or a code
            prefix) -> the codes it stands for; Q101 judges each name.
    """

    _fields = ("path", "line", "end_line", "column", "kind", "codes", "unknown", "used", "closed_something", "groups")

    def __init__(self, path: str, line: int, end_line: int, column: int, kind: str, codes: frozenset[str] | None,
                 unknown: list[str] | None = None, used: set[str] | None = None, closed_something: bool = False,
                 groups: dict[str, frozenset[str]] | None = None) -> None:
        self.path = path
        self.line = line
        self.end_line = end_line
        self.column = column
        self.kind = kind
        self.codes = codes
        self.unknown = [] if unknown is None else unknown
        self.used = set() if used is None else used
        self.closed_something = closed_something
        self.groups = {} if groups is None else groups


class Region(Record):
    """Lines ``start..end`` (inclusive) where ``codes`` (``None``: all but
    ``excluded``) are hidden on behalf of ``directive``."""

    _fields = ("directive", "codes", "excluded", "start", "end")

    def __init__(self, directive: Directive, codes: frozenset[str] | None, excluded: frozenset[str], start: int,
                 end: int) -> None:
        self.directive = directive
        self.codes = codes
        self.excluded = excluded
        self.start = start
        self.end = end

    def hides(self, code: str) -> bool:
        return code in self.codes if self.codes is not None else code not in self.excluded


def comments(text: str) -> list[tuple[int, int, int, str]]:
    """``(line, end_line, column, inner text)`` of every HTML comment that
    markdown-it sees as HTML (not code), in document order. Linear time."""
    from mmlint import markdown

    raw_lines = markdown.split_lines(text)
    found: list[tuple[int, int, str]] = []  # (line, end_line, inner)
    for tok in markdown.tokens(text):
        if tok.type == "html_block" and tok.map:
            _scan(tok.content, tok.map[0] + 1, found)
        elif tok.type == "inline" and tok.map and tok.children:
            line = tok.map[0] + 1
            for child in tok.children:
                if child.type in ("softbreak", "hardbreak"):
                    line += 1
                elif child.type == "html_inline":
                    _scan(child.content, line, found)
                    line += child.content.count("\n")
    out = []
    search_from: dict[int, int] = {}
    for line, end_line, inner in found:
        raw = raw_lines[line - 1] if line - 1 < len(raw_lines) else ""
        col = raw.find("<!--", search_from.get(line, 0))
        search_from[line] = col + 4 if col >= 0 else 0
        out.append((line, end_line, (col if col >= 0 else 0) + 1, inner))
    return out


def _scan(content: str, first_line: int, out: list[tuple[int, int, str]]) -> None:
    pos = 0
    line = first_line
    while True:
        start = content.find("<!--", pos)
        if start < 0:
            return
        end = content.find("-->", start + 4)
        if end < 0:
            return
        line += content.count("\n", pos, start)
        inner = content[start + 4 : end]
        out.append((line, line + inner.count("\n"), inner))
        line += inner.count("\n")
        pos = end + 3


_SPLIT = lazy_re(r"[\s,]+")


def parse(path: str, text: str) -> tuple[list[Directive], list[tuple[int, int, str]]]:
    """Directives in ``text`` and malformed ones as ``(line, column, word)``."""
    directives: list[Directive] = []
    malformed: list[tuple[int, int, str]] = []
    for line, end_line, column, inner in comments(text):
        body = inner.strip()
        if not body.startswith(PREFIX):
            continue
        word, *rest = _SPLIT.split(body, 1)
        kind = word[len(PREFIX):]
        if kind not in DIRECTIVES:
            malformed.append((line, column, word))
            continue
        names = [n for n in _SPLIT.split(rest[0]) if n] if rest else []
        if not names:
            directives.append(Directive(path, line, end_line, column, kind, None))
            continue
        known: set[str] = set()
        unknown: dict[str, None] = {}
        groups: dict[str, frozenset[str]] = {}
        for n in dict.fromkeys(names):
            r = lookup(n)
            codes = frozenset((r.code,)) if r is not None else _prefix_codes(n)
            if not codes:
                unknown[n] = None
            else:
                known |= codes
                groups[r.code if r is not None else n.upper()] = codes
        directives.append(Directive(path, line, end_line, column, kind, frozenset(known), list(unknown), groups=groups))
    return directives, malformed


def _prefix_codes(selector: str) -> frozenset[str]:
    """The codes a code prefix (``P``, ``P1``: at most three characters, as
    :func:`mmlint.rules.matches` takes them) names; empty for anything else.
    Suppression rules (``Q``) are never named by a prefix."""
    from mmlint.rules import load, matches

    if not 0 < len(selector) < 4:
        return frozenset()
    rules = load()
    key = (selector, len(rules))  # the rules of a run are the same for every directive of it
    got = _PREFIXES.get(key)
    if got is None:
        if len(_PREFIXES) >= 4096:
            _PREFIXES.clear()
        got = _PREFIXES[key] = frozenset(r.code for r in rules.values()
                                         if matches(r, [selector]) and not r.code.startswith(FAMILY_PREFIX))
    return got


#: :func:`_prefix_codes` by ``(selector, rules registered)``: a store writing
#: the same prefix in thousands of directives looked at every rule each time.
_PREFIXES: dict[tuple[str, int], frozenset[str]] = {}


def regions(directives: list[Directive]) -> list[Region]:
    """The line ranges each directive covers. A ``disable`` opens one range
    per code (or one for every rule) that stays open until an ``enable``
    names the code (or names none); disabling a code that is already
    disabled opens nothing. Work is linear in the number of codes written."""
    out: list[Region] = []
    open_codes: dict[str, Region] = {}
    open_all: Region | None = None
    nothing: frozenset[str] = frozenset()
    for d in directives:
        if d.codes is not None and not d.codes:
            continue  # only unknown codes: Q102 says so; it does nothing
        if d.kind in ("disable-file", "disable-line", "disable-next-line"):
            start, end = {"disable-file": (1, _EOF), "disable-line": (d.line, d.end_line),
                          "disable-next-line": (d.end_line + 1, d.end_line + 1)}[d.kind]
            out.append(Region(d, d.codes, nothing, start, end))
        elif d.kind == "disable" and d.codes is None:
            if open_all is None:
                open_all = Region(d, None, nothing, d.line, _EOF)
                out.append(open_all)
        elif d.kind == "disable":
            for code in sorted(d.codes - open_codes.keys()):
                open_codes[code] = Region(d, frozenset((code,)), nothing, d.line, _EOF)
                out.append(open_codes[code])
        elif d.codes is None:  # enable everything
            d.closed_something = bool(open_codes) or open_all is not None
            for r in list(open_codes.values()) + ([open_all] if open_all is not None else []):
                r.end = d.end_line
            open_codes.clear()
            open_all = None
        else:  # enable some codes
            for code in d.codes:
                r = open_codes.pop(code, None)
                if r is not None:
                    r.end = d.end_line
                    d.closed_something = True
            if open_all is not None and not d.codes <= open_all.excluded:
                open_all.end = d.end_line
                open_all = Region(open_all.directive, None, open_all.excluded | d.codes, d.end_line + 1, _EOF)
                out.append(open_all)
                d.closed_something = True
    return out


def _texts(ctx: Context) -> dict[str, str]:
    """Store-relative path -> markdown text with file line numbers, for the
    index and every note that mentions ``mmlint-`` (frontmatter blanked)."""
    from mmlint.rules import body_line_offset

    store = ctx.store
    out: dict[str, str] = {}
    idx = store.index
    if idx is not None and PREFIX in idx.text:
        rec = store.files.get(idx.path)
        if rec is not None and rec.kind == "index":
            out[idx.path] = idx.text
    for n in store.notes:
        rec = store.files.get(n.path)
        if rec is None or rec.kind != "note" or PREFIX not in n.body:
            continue
        out[n.path] = "\n" * body_line_offset(n) + n.body
    return out


def apply_suppressions(ctx: Context, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Drop the diagnostics inline comments suppress; add Q101-Q103 findings.

    Returns a new list (unsorted). Time: O((D + R) log R) for D diagnostics
    and R directives (the diagnostics are grouped by file once: a scan of
    all of them for each file with a directive was O(F × D)).
    """
    texts = _texts(ctx)
    if not texts:
        return diagnostics
    by_path: dict[str, list[Directive]] = {}
    malformed: list[tuple[str, int, int, str]] = []
    for path, text in texts.items():
        ds, bad = parse(path, text)
        by_path[path] = ds
        malformed.extend((path, line, col, word) for line, col, word in bad)
    hidden: set[int] = set()
    on_path: dict[str, list[tuple[int, Diagnostic]]] = {}  # one pass over the diagnostics, not one a file
    for i, d in enumerate(diagnostics):
        if d.span.path in by_path and not d.code.startswith(FAMILY_PREFIX):
            on_path.setdefault(d.span.path, []).append((i, d))
    for path, ds in by_path.items():
        _hide(regions(ds), on_path.get(path, []), hidden)
    out = [d for i, d in enumerate(diagnostics) if i not in hidden]
    out.extend(_findings(ctx, by_path, malformed))
    return out


def _hide(regs: list[Region], diags: list[tuple[int, Diagnostic]], hidden: set[int]) -> None:
    """Sweep lines in order, keeping the regions that cover the current line."""
    import heapq  # here: a store without suppression comments never sweeps

    regs.sort(key=lambda r: r.start)
    diags.sort(key=lambda t: t[1].span.line)
    active: list[tuple[int, int, Region]] = []  # heap by end
    k = 0
    for i, d in diags:
        line = d.span.line
        while k < len(regs) and regs[k].start <= line:
            heapq.heappush(active, (regs[k].end, k, regs[k]))
            k += 1
        while active and active[0][0] < line:
            heapq.heappop(active)
        for _, _, r in active:
            if r.hides(d.code):
                hidden.add(i)
                r.directive.used.add(d.code if r.codes is not None else "*")


def _findings(ctx: Context, by_path: dict[str, list[Directive]], malformed: list[tuple[str, int, int, str]]) -> list[Diagnostic]:
    from mmlint.rules import load

    rules = load()
    store, options = ctx.store, ctx.options
    out: list[Diagnostic] = []

    def emit(code: str, path: str, line: int, col: int, message: str) -> None:
        r = rules[code]
        if runs_on(r, store, options, path):
            out.append(stamp(r, Span(path, line, col), message, options, store))

    for path, line, col, word in malformed:
        emit("Q103", path, line, col, f"{echo(word, _ECHO)} is not an mmlint directive; use one of {', '.join(DIRECTIVES)}")
    for path, ds in by_path.items():
        for d in ds:
            if d.unknown:
                shown = ", ".join(echo(u, _ECHO) for u in d.unknown[:_SHOWN])
                more = f" and {len(d.unknown) - _SHOWN} more" if len(d.unknown) > _SHOWN else ""
                from mmlint.suggest import did_you_mean, rule_names

                hint = did_you_mean(d.unknown[0], rule_names()) if len(d.unknown) == 1 else ""
                emit("Q102", path, d.line, d.column, f"suppression names no rule: {shown}{more}{hint}")
            unused = _unused(ctx, d)
            if unused:
                emit("Q101", path, d.line, d.column, unused)
    return out


def _unused(ctx: Context, d: Directive) -> str | None:
    from mmlint.rules import load

    what = f"mmlint-{d.kind}"
    if d.codes is not None and not d.codes:
        return None  # only unknown codes: reported by Q102
    if d.kind == "enable":
        return None if d.closed_something else f"{what} ends no disable"
    if d.codes is None:
        return None if d.used else f"{what} hides nothing here"
    rules = load()
    idle = sorted(name for name, codes in d.groups.items()
                  if not codes & d.used and any(runs_on(rules[c], ctx.store, ctx.options, d.path) for c in codes))
    if not idle:
        return None
    return f"{what} hides no {', '.join(idle)} finding here"
