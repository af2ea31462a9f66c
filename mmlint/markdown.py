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
from dataclasses import dataclass
from functools import lru_cache
from typing import Any


@dataclass(frozen=True)
class Link:
    """A link found in markdown text.

    Attributes:
        line: 1-based line of the link.
        column: 1-based column (code points) of the destination, or of the
            link's start when the destination cannot be located.
        dest: the destination exactly as written (angle brackets removed).
        text: the link text (plain, markup removed).
        kind: ``"link"`` (inline or reference-style) or ``"wikilink"``.
        block_line: 1-based first line of the block (list item, paragraph)
            holding the link.
        end_column: 1-based column just after the link's closing ``)`` or ``]]``
            on ``line`` (0 when unknown).
    """

    line: int
    column: int
    dest: str
    text: str
    kind: str = "link"
    block_line: int = 0
    end_column: int = 0


@lru_cache(maxsize=1)
def _parser() -> Any:
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark")
    md.normalizeLink = lambda url: url  # type: ignore[method-assign]
    md.normalizeLinkText = lambda url: url  # type: ignore[method-assign]
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    return md


def tokens(text: str) -> list[Any]:
    """The markdown-it block token stream for ``text``.

    Line numbers (``token.map``) count ``\\n`` only, as every other line
    count in mmlint does (:mod:`mmlint.textutil`): markdown-it reads a lone
    ``\\r`` as a line break, so each one is shown to it as a space (same
    length, so columns agree too). A CR-only file is one line here, and
    S111 offers its LF conversion."""
    if "\r" in text:
        text = _LONE_CR.sub(" ", text)
    return _parser().parse(text)


_LONE_CR = re.compile(r"\r(?!\n)")


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
    lines = text.split("\n")
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
                out.append(Link(lineno + 1, col + 1, dest, "".join(parts), "link", first + 1, end + 1 if end else 0))
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
                    out.append(Link(lineno + 1, (col if col >= 0 else 0) + 1, inner, inner, "wikilink", first + 1, end + 1 if end else 0))
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
        # Jump to the last "[[" before this "]]" so no text is scanned twice.
        last = s.rfind("[[", a + 2, b)
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
    ``[[wikilinks]]`` and that holds none of :data:`_NEEDS_PARSER` reads the
    same with or without markdown-it, so it is scanned directly (linear time),
    and so is a body over :data:`MAX_PARSED_BODY`; every other body goes
    through the parser.
    """
    if "[" not in text:
        return []
    if len(text) <= MAX_PARSED_BODY and (any(m in text for m in _NEEDS_PARSER) or text.startswith(("    ", "\t"))):
        return links(text)
    out = []
    line_starts = None
    for start, inner in _wikilinks(text):
        if line_starts is None:
            line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        import bisect

        line = bisect.bisect_right(line_starts, start)
        col = start - line_starts[line - 1] + 1
        out.append(Link(line, col, inner, inner, "wikilink", line, col + len(inner) + 4))
    return out
