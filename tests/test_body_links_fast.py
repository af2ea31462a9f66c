"""The markdown-free wikilink path of :func:`mmlint.markdown.body_links`
held to markdown-it's reading of the same body."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint import markdown

PIECES = ["[[a]]", "[[b c]]", "[[x/y.md]]", "word", "more words", " ", "\n", "\n\n", "[", "]", "[[", "]]", "# h",
          "- item", "é", "[[é]]", "x]]", "[[ ]]"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30).map("".join))
def test_wikilink_only_bodies_read_as_markdown_it_reads_them(body):
    if any(m in body for m in markdown._NEEDS_PARSER) or body.startswith(("    ", "\t")):
        return
    assert markdown.body_links(body) == markdown.links(body, markdown.tokens(body))


def test_positions_on_later_lines():
    body = "intro\n\nsee [[a]] and [[b]]\nnext [[c]]\n"
    got = [(k.line, k.column, k.dest) for k in markdown.body_links(body)]
    assert got == [(3, 5, "a"), (3, 15, "b"), (4, 6, "c")]


def test_a_wikilink_right_after_a_bracket():
    """``[[[a]]``: the wikilink starts at the second ``[`` (markdown-it reads
    it there); the scan once jumped past it (found by the property above)."""
    for body in ("[[[a]]word[[a]]", "[[[a]]", "x [[[[b]] [[c]]"):
        assert markdown.body_links(body) == markdown.links(body, markdown.tokens(body)), body


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES + ["`x`", "<b>", "[l](d.md)", "\r", "    ", "&amp;", "\\["]), max_size=20).map("".join))
def test_link_rows_are_the_links(body):
    assert markdown.body_link_rows(body) == [(k.line, k.column, k.dest, k.kind) for k in markdown.body_links(body)]
