"""The markdown-free scan of link syntax (:func:`mmlint.markdown.plain_outline`
reading images, unlinked ``[labels]`` and ``<tag>`` HTML, issue 9 item 6)
held to stock markdown-it on link-heavy generated text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import stock_markdown
from mmlint import markdown


STOCK = stock_markdown()

LINK_SYNTAX = ("[a](b) [[c]] ![d](e) [f][g] <h> " * 10000)[:256 * 1000]

#: The hostile body's pieces, their near misses, and what would make them mean something else.
PIECES = ["[a](b)", "[[c]]", "![d](e)", "[f][g]", "<h>", "[f]", "![f]", "![f][g]", "[]", "![](x)", "[](x)", "[f] (x)",
          "[a b](c.md)", "[ a](b)", "[a](b c)", "[a](<b>)", "![d](e f)", "![d](e \"t\")", "![[d]](e)", "![d]](e)",
          "<h1>", "<h-1>", "<a>", "<A>", "<h x>", "<h/>", "</h>", "<1>", "<h", "<x:y>", "<a@b.c>", "< h>", "<h>>",
          "x_y", "_", "!", "[", "]", "(", ")", "](", "][", "]:", "[g]: /x", "\\[", "`x`", "`[f]`", "&amp;", "*",
          " ", " ", "  ", "word", "é", "\n", "\n", "\n\n", "- ", "> ", "# ", "    "]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=25).map("".join))
def test_link_heavy_text_reads_as_markdown_it_reads_it(text):
    fast = markdown.plain_outline(text)
    toks = STOCK.parse(text)
    if fast is not None:
        assert fast.links == markdown.links(text, toks)
        assert fast.headings == markdown.headings(toks)
    if "[" in text:  # body_links answers [] without a bracket (an autolink alone is not a body link)
        assert markdown.body_links(text) == markdown.links(text, toks)


def test_the_hostile_body_and_its_slices_take_the_fast_path():
    for text in (LINK_SYNTAX, LINK_SYNTAX[:992], LINK_SYNTAX[7:3008] + "\nnext [a](b) ![c](d) <e>\n\n[f] x "):
        fast = markdown.plain_outline(text)
        assert fast is not None and fast.fast
        assert fast.links == markdown.links(text, STOCK.parse(text))
    assert len(markdown.body_links(LINK_SYNTAX)) == 16000


def test_forms_it_cannot_decide_fall_back():
    """A reference definition anywhere, an image or label holding markup or a
    bracket, an unplain destination, ``<a>`` or a tag with attributes: the
    fast path declines and markdown-it reads the text."""
    for text in ("[f][g]\n\n[g]: /x\n", "[f] and [a]: b", "![a*b](c)", "![[a]](b)", "![a](b c)", "[f`x`]", "x <a> y",
                 "x <h k=v> y", "x <h/> y", "[a [b] c]", "![a](<b>)", "x <1> y"):
        assert markdown.plain_outline(text) is None, text
        assert markdown.body_links(text) == markdown.links(text, STOCK.parse(text)), text


def test_a_lone_cr_ends_a_line_in_a_wikilink_only_body():
    """The wikilink-only scan counted ``\\n`` only; markdown-it (and every span
    of an index) ends a line at a lone CR too (found by the property above)."""
    for text in ("\r[[c]]", "a\r\rb [[c]]", "x\r\n[[c]] y\r[[d]]"):
        assert markdown.body_links(text) == markdown.links(text, STOCK.parse(text)), repr(text)
