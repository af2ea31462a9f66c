"""The plain-line fast path of :mod:`mmlint.markdown` reads exactly what
markdown-it reads, wherever it claims a text (hypothesis differential)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint import markdown

PLAIN_WORDS = st.sampled_from(["a", "note", "feedback_testing", "x.md", "—", "(x)", "a:b", "%20", "#s", "é", "文件名.md", "[[w]]", " ", "`.`",
                              "`a b`", "`<a>`", "`*x*`", "`_`"])
MARKUP_WORDS = st.sampled_from(["a", "note", "feedback_testing", "x.md", "—", "(x)", "a:b", "%20", "#s", "é", "文件名.md",
                         "_", "*", "`", "<", ">", "&", "!", "\\", "[", "]", "[[w]]", "[[a|b]]", " ", "  ", "\t", "~", "|",
                         "``", "`x`", "`[a](a.md)`", "`[[w]]`", "``x``", "`a``b`", "`[`", "`]`", "`](`", "`\\`", "`\x00`", "`\t`", "```"])
WORDS = st.one_of(PLAIN_WORDS, PLAIN_WORDS, PLAIN_WORDS, MARKUP_WORDS)
PLAIN_DEST = st.sampled_from(["a.md", "sub/b.md", "a.md#x", "https://e.com/x.md", "a%20b.md", "~n.md", "a:b.md", "x_y.md"])
MARKUP_DEST = st.sampled_from(["a.md", "sub/b.md", "a.md#x", "https://e.com/x.md", "a%20b.md", "~n.md", "a:b.md", "a.md/",
                        "../o.md", "<a b.md>", "a.md \"t\"", "", "a(b).md", "x_y.md"])
DEST = st.one_of(PLAIN_DEST, PLAIN_DEST, MARKUP_DEST)


@st.composite
def inline(draw, plain):
    words, dests = (PLAIN_WORDS, PLAIN_DEST) if plain else (WORDS, DEST)
    parts = []
    for _ in range(draw(st.integers(0, 4))):
        if draw(st.booleans()):
            parts.append(f"[{draw(words)}{draw(words)}]({draw(dests)})")
        else:
            parts.append(draw(words))
    return draw(st.sampled_from(["", " "])).join(parts)


@st.composite
def line(draw, plain=False):
    kind = draw(st.sampled_from(["item"] * 6 + ["head", "para", "quote", "blank", "blank"] + ([] if plain else ["raw"])))
    body = draw(inline(plain))
    if kind == "item":
        return draw(st.sampled_from(["- ", "- ", "- ", "+ ", "* ", "1. ", "  - "])) + body
    if kind == "head":
        return draw(st.sampled_from(["#", "##", "##", "###", "#######"])) + draw(st.sampled_from([" ", " ", ""])) + body
    if kind == "quote":
        return "> " + body
    if kind == "blank":
        return draw(st.sampled_from(["", "", "", " "]))
    if kind == "raw":
        return draw(st.sampled_from(["---", "===", "```", "<!-- c -->", "[r]: r.md", "    code [a](c.md)", "- - -"]))
    return body


@st.composite
def document(draw):
    plain = draw(st.integers(0, 3)) > 0
    return draw(st.lists(line(plain), max_size=8))


@settings(max_examples=400, deadline=None)
@given(document(), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_fast_path_agrees_with_markdown_it(lines, nl, final):
    """Wherever the fast path reads a text, markdown-it reads the same links
    (destination, text, line, column, end) and headings; CR, CRLF, LF."""
    text = nl.join(lines) + (nl if final else "")
    fast = markdown.plain_outline(text)
    if fast is None:
        return
    toks = markdown.tokens(text)
    assert fast.links == markdown.links(text, toks)
    assert fast.headings == markdown.headings(toks)


def test_fast_path_takes_a_generated_pointer_index():
    text = "# Memory Index\n\n## user\n- [Testing rules](feedback_testing.md) — run pytest first\n- [B](b.md) — see [[c]]\n"
    o = markdown.plain_outline(text)
    assert o is not None and o.fast
    assert [(k.dest, k.line, k.column, k.kind) for k in o.links] == [("feedback_testing.md", 4, 19, "link"), ("b.md", 5, 7, "link"),
                                                                     ("c", 5, 19, "wikilink")]


def test_fast_path_takes_the_workspace_projection():
    """The plugin's projection (header paths in code spans) reads without
    markdown-it."""
    text = ("# 记忆索引\n\n> 本文件由 dsh-bundle-memory 自动生成。\n\n- 工作区：`.`\n- 记忆根目录：`memory`\n- 共 2 条记忆\n\n"
            "## 未分类\n\n- [N1](./a.md) · 2026-01-02 · 370 B\n- [x](./b.md) · `c.md` · 1 B\n`w` and [[v]]\n")
    o = markdown.plain_outline(text)
    assert o is not None and o.fast
    toks = markdown.tokens(text)
    assert o.links == markdown.links(text, toks) and o.headings == markdown.headings(toks)
    assert [k.dest for k in o.links] == ["./a.md", "./b.md", "v"]


def test_markup_falls_back_to_markdown_it():
    for text in ("- ``[a](a.md)``\n", "- `[a](a.md)\n", "- a `b\nc` [d](d.md)\n", "- [`x`](x.md)\n", "- `[a](a.md)` [a](a.md)\n",
                 "```\n[a](a.md)\n```\n", "```\n- [a](a.md)\n```\n", "<!-- [a](a.md) -->\n", "- [a][r]\n\n[r]: a.md\n",
                 "- [a](<a b.md>)\n", "- [a](a.md \"t\")\n", "    [a](a.md)\n", "- *[a](a.md)*\n"):
        assert markdown.plain_outline(text) is None, text
        assert markdown.outline(text).fast is False
