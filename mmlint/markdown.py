"""Markdown structure of index and note text, read with markdown-it-py.

Links, wikilinks and headings are taken from the markdown-it token stream, not
from regexes over the raw text, so a link inside a code span, a fenced block
or an HTML comment is never a pointer, while angle-bracket destinations,
destinations with balanced parentheses and reference-style links are.

markdown-it normally percent-encodes link destinations and drops ``file:``
links; both are turned off here so that rules see the destination exactly as
written. Our own scanning is linear in the text; markdown-it's is not on
hostile bracket runs, so note bodies over :data:`MAX_PARSED_BODY` are not
handed to it (the index is bounded by the read limit and its caps).
"""

from __future__ import annotations

import re
from functools import lru_cache

from mmlint._record import Frozen
from mmlint.textutil import lazy_re

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, Iterator


class Link(Frozen):
    """A link found in markdown text.

    Attributes:
        line: 1-based line of the link.
        column: 1-based column (code points) of the destination, or of the
            link's start when the destination cannot be located.
        dest: the destination exactly as written (angle brackets removed).
        text: the link text (plain, markup removed).
        kind: ``"link"`` (inline or reference-style) or ``"wikilink"``.
        end_column: 1-based column just after the link's closing ``)`` or ``]]``
            on ``line`` (0 when unknown).
    """

    __slots__ = _fields = ("line", "column", "dest", "text", "kind", "end_column")

    def __init__(self, line: int, column: int, dest: str, text: str, kind: str = "link", end_column: int = 0) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "line", line)
        setattr_(self, "column", column)
        setattr_(self, "dest", dest)
        setattr_(self, "text", text)
        setattr_(self, "kind", kind)
        setattr_(self, "end_column", end_column)


@lru_cache(maxsize=1)
def _parser() -> Any:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    md.normalizeLink = lambda url: url  # type: ignore[method-assign]
    md.normalizeLinkText = lambda url: url  # type: ignore[method-assign]
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    from mmlint import mdspeed

    return mdspeed.install(md)  # linear link-label scans, token for token the same (issue 9 item 6)


def tokens(text: str) -> list[Any]:
    """The markdown-it block token stream for ``text``.

    Line numbers (``token.map``) are CommonMark's: CRLF, LF and a lone CR
    each end a line, the lines :func:`split_lines` gives (and
    :meth:`mmlint.model.Index.lines`); every span in an index uses them. Cap
    rules count ``\\n`` only (:func:`mmlint.textutil.count_lines`)."""
    return _parser().parse(text)


def headings(toks: list[Any]) -> list[tuple[int, int, str]]:
    """``(1-based line, level, text)`` for each ATX or setext heading."""
    out = []
    for i, t in enumerate(toks):
        if t.type == "heading_open" and t.map:
            level = int(t.tag[1:])
            content = toks[i + 1].content if i + 1 < len(toks) else ""
            out.append((t.map[0] + 1, level, content))
    return out


def links(text: str, toks: list[Any] | None = None) -> list[Link]:
    """Every link and wikilink outside code and HTML, in document order."""
    if toks is None:
        toks = tokens(text)
    lines = split_lines(text)
    out: list[Link] = []
    for t in toks:
        if t.type != "inline" or not t.map or not t.children:
            continue
        first = t.map[0]
        line_off = 0
        search_from: dict[int, int] = {}
        children = t.children
        i = 0
        while i < len(children):
            c = children[i]
            if c.type in ("softbreak", "hardbreak"):
                line_off += 1
            elif c.type == "link_open":
                dest = c.attrGet("href") or ""
                j = i + 1
                parts = []
                breaks = 0
                while j < len(children) and children[j].type != "link_close":
                    if children[j].type in ("text", "code_inline"):
                        parts.append(children[j].content)
                    elif children[j].type in ("softbreak", "hardbreak"):
                        parts.append(" ")
                        breaks += 1
                    j += 1
                lineno = first + line_off
                raw = lines[lineno] if lineno < len(lines) else ""
                col, end = _locate(raw, dest, search_from.get(lineno, 0))
                if end:
                    search_from[lineno] = end
                out.append(Link(lineno + 1, col + 1, dest, "".join(parts), "link", end + 1 if end else 0))
                line_off += breaks
                i = j
            elif c.type == "text" and "[[" in c.content:
                lineno = first + line_off
                raw = lines[lineno] if lineno < len(lines) else ""
                for _, inner in _wikilinks(c.content):
                    col = raw.find("[[" + inner + "]]", search_from.get(lineno, 0))
                    end = col + len(inner) + 4 if col >= 0 else 0
                    if col >= 0:
                        search_from[lineno] = end
                    out.append(Link(lineno + 1, (col if col >= 0 else 0) + 1, inner, inner, "wikilink", end + 1 if end else 0))
            i += 1
    return out


def _locate(raw: str, dest: str, start: int) -> tuple[int, int]:
    """Find ``](dest`` or ``](<dest>`` in ``raw``: ``(0-based column, end)``."""
    for probe in ("](" + dest, "](<" + dest + ">", "]( " + dest, "](<" + dest):
        k = raw.find(probe, start)
        if k >= 0:
            col = k + len(probe) - len(dest) - (1 if probe.endswith(">") else 0)
            close = raw.find(")", col + len(dest))
            return col, (close + 1 if close >= 0 else col + len(dest))
    k = raw.find(dest, start) if dest else -1
    if k >= 0:
        return k, k + len(dest)
    return 0, 0


def _wikilinks(s: str) -> list[tuple[int, str]]:
    """``(offset, inner)`` of each ``[[inner]]`` in ``s``; linear time."""
    out = []
    pos = 0
    while True:
        a = s.find("[[", pos)
        if a < 0:
            break
        b = s.find("]]", a + 2)
        if b < 0:
            break
        inner = s[a + 2 : b]
        if inner and "[" not in inner and "\n" not in inner:
            out.append((a, inner))
            pos = b + 2
            continue
        # Jump to the last "[[" before this "]]" (the one at a + 1 too: "[[[a]]") so no text is scanned twice.
        last = s.rfind("[[", a + 1, b)
        pos = last if last > a else b + 2
    return out


#: Markers after which plain text may not be plain markdown text (code spans,
#: HTML, escapes, fences, indented code, link syntax): bodies holding none of
#: them can be scanned for wikilinks without a markdown parser.
_NEEDS_PARSER = ("`", "<", "\\", "~~~", "\n    ", "\n\t", "](", "]:", "][", "&")


#: Longest body (code points) handed to markdown-it. Its link-label scan is
#: slow on hostile bracket runs (about 14 µs a character); a longer body is
#: scanned for wikilinks only, in linear time.
MAX_PARSED_BODY = 256 * 1024


def body_links(text: str) -> list[Link]:
    """Links and wikilinks in a note body (see :func:`links`).

    A body with no ``[`` has none. A body whose only bracket syntax is
    ``[[wikilinks]]`` and that holds none of :data:`_NEEDS_PARSER` and no CR reads the
    same with or without markdown-it, so it is scanned directly (linear time),
    and so is a body over :data:`MAX_PARSED_BODY`; every other body goes
    through the parser.
    """
    if "[" not in text:
        return []
    if _needs_parser(text):
        return outline(text).links
    return [Link(line, col, inner, inner, "wikilink", col + len(inner) + 4) for line, col, inner in _plain_wikilinks(text)]


def body_link_rows(text: str) -> list[tuple[int, int, str, str]]:
    """``(line, column, dest, kind)`` of each link of :func:`body_links`,
    in the same order, without making a :class:`Link` where the body is
    scanned without markdown-it (what a caller that keeps few links needs)."""
    if "[" not in text:
        return []
    if _needs_parser(text):
        return [(k.line, k.column, k.dest, k.kind) for k in outline(text).links]
    return [(line, col, inner, "wikilink") for line, col, inner in _plain_wikilinks(text)]


def _needs_parser(text: str) -> bool:
    """Whether :func:`body_links` reads ``text`` (which holds a ``[``) with
    markdown-it: it holds one of :data:`_NEEDS_PARSER` or a CR (a lone CR
    ends a line too: split_lines knows it) or starts indented, and is at most
    :data:`MAX_PARSED_BODY` long."""
    return len(text) <= MAX_PARSED_BODY and (any(map(text.__contains__, _NEEDS_PARSER)) or text.startswith(("    ", "\t"))
                                             or "\r" in text)


def _plain_wikilinks(text: str) -> list[tuple[int, int, str]]:
    """``(line, column, inner)`` of each ``[[inner]]`` of ``text`` read
    without markdown-it (1-based, lines at ``\n``)."""
    out = []
    line, prev, line_start = 1, 0, 0  # offsets only grow: each character is counted once
    for start, inner in _wikilinks(text):
        breaks = text.count("\n", prev, start)
        if breaks:
            line += breaks
            line_start = text.rfind("\n", prev, start) + 1
        prev = start
        out.append((line, start - line_start + 1, inner))
    return out


def split_lines(text: str) -> list[str]:
    """``text`` split at every line ending CommonMark knows (CRLF, LF, lone
    CR), line endings removed: the lines markdown-it numbers. Linear time."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.split("\n")


def iter_lines(text: str) -> Iterator[str]:
    """The lines of :func:`split_lines`, one at a time: a pass over a long
    text that keeps few of its lines holds only those."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    find = text.find
    start = 0
    while True:
        end = find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


class Outline(Frozen):
    """What index readers need from a markdown text.

    Attributes:
        links: links and wikilinks outside code and HTML (see :func:`links`).
        headings: ``(1-based line, level, text)`` of each heading.
        html_lines: 1-based lines inside HTML blocks (comments).
        fast: True when the text was read by :func:`plain_outline` (no
            markdown-it import).
    """

    __slots__ = _fields = ("links", "headings", "html_lines", "fast")

    def __init__(self, links: list[Link], headings: list[tuple[int, int, str]], html_lines: frozenset[int],
                 fast: bool = False) -> None:
        setattr_ = object.__setattr__
        setattr_(self, "links", links)
        setattr_(self, "headings", headings)
        setattr_(self, "html_lines", html_lines)
        setattr_(self, "fast", fast)


def outline(text: str) -> Outline:
    """The :class:`Outline` of ``text``: by :func:`plain_outline` when every
    line is a plain form, else from markdown-it's tokens. Both give the same
    result on plain text (a hypothesis test holds them to it)."""
    fast = plain_outline(text)
    if fast is not None:
        return fast
    toks = tokens(text)
    html: set[int] = set()
    for t in toks:
        if t.type == "html_block" and t.map:
            html.update(range(t.map[0] + 1, t.map[1] + 1))
    return Outline(links(text, toks), headings(toks), frozenset(html), False)


#: Characters after which a line is not plain (code, HTML, entities,
#: escapes, emphasis, images, tables of other flavours): :func:`plain_outline`
#: leaves such text to markdown-it.
_NOT_PLAIN = frozenset("`<\\&*\t\x00")
#: First characters of a line that may open a block other than a paragraph.
_BLOCK_START = frozenset("#->+*=_~`<|0123456789 \t")


def _inert_underscore(line: str, i: int) -> bool:
    """An ``_`` with a letter or digit on each side can neither open nor
    close emphasis (CommonMark flanking rules)."""
    import unicodedata

    if i == 0 or i + 1 >= len(line):
        return False
    for ch in (line[i - 1], line[i + 1]):
        if ch.isspace() or unicodedata.category(ch)[0] in "PSC":
            return False
    return True


#: One character class each (a search is one linear pass, no backtracking):
#: what :func:`_plain_chars` rejects (``_`` then looked at), what a plain
#: link destination may not hold, and where :func:`_plain_inline` must look.
_MARKUP_RE = re.compile("[`<\\\\&*\x00-\x1f!_]")
_DEST_BAD_RE = re.compile("[ <>()\\\\\"'`&*\x00-\x1f]")
_INLINE_STOP_RE = re.compile("[`<\\\\&*\x00-\x1f_!\\[\\]]")
#: ``<name>``: a complete HTML open tag without attributes (CommonMark 6.6),
#: never an autolink (that needs ``:`` or ``@``): markdown-it makes it one
#: ``html_inline`` token, holding no link. Possessive: no backtracking.
#: ``<a>`` is left to markdown-it (it counts link levels).
_TAG_RE = lazy_re("<[A-Za-z][A-Za-z0-9-]*+>")


def _plain_chars(line: str, a: int, b: int) -> bool:
    """``line[a:b]`` holds no markup character (see :func:`_plain_inline`)."""
    for m in _MARKUP_RE.finditer(line, a, b):
        j = m.start()
        if line[j] != "_" or not _inert_underscore(line, j):
            return False
    return True


def _code_span_end(line: str, i: int) -> int:
    """The end (exclusive) of the code span ``line[i]`` opens, when it is a
    single backtick closed by the next backtick of the line, itself single,
    with one or more characters between, none a control character or a
    bracket; else -1.

    Inside a code span nothing is markup (CommonMark 6.1), and a backtick
    span binds before any link or emphasis that would start after it, so
    the scan may jump over it. Longer backtick runs, a span running on to
    the next line and a lone backtick are left to markdown-it, and so is a
    span holding ``[`` or ``]``: :func:`links` finds a link's column by
    searching the line for ``](dest`` (and a wikilink for ``[[inner]]``),
    which a bracket in an earlier code span could match."""
    close = line.find("`", i + 1)
    if close <= i + 1 or line.startswith("``", i) or line.startswith("``", close):
        return -1
    for j in range(i + 1, close):
        ch = line[j]
        if ch < " " or ch == "[" or ch == "]":
            return -1
    return close + 1


def _plain_inline(line: str, start: int, lineno: int, out: list[Link], no_refs: bool = False) -> bool:
    """Scan ``line[start:]`` as plain inline text holding only
    ``[text](dest)`` links and ``[[wikilinks]]``; append them to ``out``.
    False when anything else appears (then markdown-it decides).

    ``<name>`` is read as HTML (see :data:`_TAG_RE`). With
    ``no_refs`` (the text holds no ``]:``, so no reference definition:
    markdown-it's link and image rules then fail on every ``[label]`` not
    followed by ``(``), two more forms are read: ``![alt](dest)`` (an image,
    which holds no link :func:`links` reports) and ``[label]`` or
    ``![label]`` not followed by ``(`` (text); labels hold plain characters
    only, so each ends at its first ``]`` in markdown-it's reading too. After an image a
    link's column is found as :func:`links` finds it (the first ``](dest``
    after the previous link), so both report the same column."""
    i, n = start, len(line)
    image_before = False
    last_end = 0  # where links() would search for the next link's "](dest" (see _locate)
    search = _INLINE_STOP_RE.search
    while i < n:
        m = search(line, i)
        if m is None:
            return True  # the rest is text
        i = m.start()
        ch = line[i]
        if ch == "[" or (ch == "!" and line.startswith("[", i + 1)):
            j = i if ch == "[" else i + 1  # the label's "["
            if line.startswith("[[", j):
                close = line.find("]]", j + 2)
                if j > i or close < 0:
                    return False
                inner = line[i + 2 : close]
                if not inner or "[" in inner or not _plain_chars(line, i + 2, close):
                    return False
                if close + 2 < n and line[close + 2] in "([":
                    return False
                out.append(Link(lineno, i + 1, inner, inner, "wikilink", close + 3))
                i = last_end = close + 2
                continue
            if j > i and not no_refs:
                return False
            close = line.find("]", j + 1)
            if close < 0 or line.find("[", j + 1, close) >= 0:
                return False
            bad = _MARKUP_RE.search(line, j + 1, close)
            if bad is not None and not _plain_chars(line, bad.start(), close):
                return False
            if close + 1 < n and line[close + 1] == "(":
                end = line.find(")", close + 2)  # a plain destination holds no parenthesis
                if end <= close + 2 or _DEST_BAD_RE.search(line, close + 2, end):
                    return False
                if close > j + 1 and (line[j + 1].isspace() or line[close - 1].isspace()):
                    return False  # edge whitespace in the text: left to markdown-it
                if j > i:
                    image_before = True  # an image: no link for links()
                else:
                    dest = line[close + 2 : end]
                    if image_before:  # links() searches for "](dest": an image's may come first
                        col, last_end = _locate(line, dest, last_end)
                    else:
                        col, last_end = close + 2, end + 1
                    out.append(Link(lineno, col + 1, dest, line[j + 1 : close], "link", last_end + 1))
                i = end + 1
                continue
            if not no_refs:
                return False
            i = close + 1  # "[label]" or "![label]" with no "(" after it and no definition: text
            continue
        if ch == "`":
            end = _code_span_end(line, i)
            if end < 0:
                return False
            i = end
            continue
        if ch == "<":
            tag = _TAG_RE.match(line, i)
            if tag is None or tag.end() - i == 3 and line[i + 1] in "aA":
                return False
            i = tag.end()
            continue
        if ch in _NOT_PLAIN or (ch < " " and ch != "\t") or ch == "]":
            return False
        if ch == "_" and not _inert_underscore(line, i):
            return False
        i += 1
    return True


def _code_start(line: str, i: int) -> bool:
    """A single backtick at ``line[i]`` opens a code span, never a fence
    (which takes three)."""
    return line[i] == "`" and not line.startswith("``", i)


def plain_outline(text: str) -> Outline | None:
    """The :class:`Outline` of ``text`` when every line is plain, else ``None``.

    Plain lines, each starting at column 1: blank lines; ATX headings
    (``## words``, no ``#`` inside); list items (``- ``, ``+ ``) and
    blockquote lines (``> ``) and paragraph lines whose inline text holds
    only plain characters, ``[text](dest)`` links with a plain destination
    and no title, ``[[wikilinks]]`` and single-backtick code spans within
    the line, ``<tag>`` HTML and, when the text holds no ``]:``, images
    and unlinked ``[labels]`` (see :func:`_plain_inline`). This is the shape of a generated
    pointer index (``- [Title](file.md) — hook``) and of the workspace
    plugin's projection (``- 工作区：`.```).
    One pass, linear in the text; imports nothing.
    """
    found: list[Link] = []
    heads: list[tuple[int, int, str]] = []
    no_refs = "]:" not in text  # a reference definition needs "]:" (its label, then a colon)
    for k, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            if line:
                return None  # whitespace-only lines: leave to markdown-it
            continue
        first = line[0]
        if first == "#":
            level = len(line) - len(line.lstrip("#"))
            rest = line[level:]
            if level > 6 or (rest and rest[0] != " ") or "#" in rest or "[" in rest or "]" in rest:
                return None
            if not _plain_inline(rest, 0, k, []):
                return None
            heads.append((k, level, rest.strip()))
            continue
        start = 0
        if line.startswith(("- ", "+ ", "> ")):
            start = 2
            if start >= len(line) or (line[start] in _BLOCK_START and not _code_start(line, start)):
                return None
        elif first in _BLOCK_START and not _code_start(line, 0):
            return None
        if not _plain_inline(line, start, k, found, no_refs):
            return None
    return Outline(found, heads, frozenset(), True)
