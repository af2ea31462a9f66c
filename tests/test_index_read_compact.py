"""The engramory index is read without holding every line twice (issue 9
item 4): the loose lines a conversion carries are found in one pass over
the text (:func:`mmlint.markdown.iter_lines`), which must give exactly what
the list-based version gave."""

from __future__ import annotations

import bisect

import pytest
from conftest import corpus_stores, fixture_stores, store_id
from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint import api, carriers, markdown
from mmlint.dialects import engramory


def _loose_reference(idx, credited):
    """The list-based version the one-pass reader replaced (kept as the reference)."""
    lines = markdown.split_lines(idx.text)
    sections = sorted(line for line, level, _ in idx.headings if level >= 2)
    skip = set(credited)
    for line in credited:
        k = bisect.bisect_left(sections, line) - 1
        if k >= 0:
            skip.add(sections[k])
            under = lines[sections[k]].strip() if sections[k] < len(lines) else ""
            if under and set(under) <= {"=", "-"}:
                skip.add(sections[k] + 1)
    h1 = next((h for h in idx.headings if h[1] == 1), None)
    if h1 is not None and h1[2] == engramory.INDEX_TITLE:
        skip.add(h1[0])
    keep = [(i, raw.rstrip("\r")) for i, raw in enumerate(lines, start=1) if raw.strip() and i not in skip]
    return carriers.with_inner_blanks(keep, lines)


_line = st.sampled_from(["", "  ", "\t", "# Memory Index", "Memory Index", "# Other", "## user", "## feedback", "### deep",
                         "===", "---", " - ", "=-=", "- [A](a.md) — h", "- [B](b.md)", "- [[c]]", "- [A](a.md) [B](b.md)",
                         "prose line", "- [R](https://example.com)", "<!-- c -->", "```", "    code", "- [X](x.md"])
_nl = st.sampled_from(["\n", "\r\n", "\r"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_line, _nl), max_size=30), st.data())
def test_loose_lines_in_one_pass_are_the_list_based_ones(lines, data):
    text = "".join(a + b for a, b in lines)
    assert list(markdown.iter_lines(text)) == markdown.split_lines(text)
    idx = engramory.read_index("MEMORY.md", text.encode("utf-8", "surrogateescape"), "upstream")
    n = len(markdown.split_lines(text))
    entry_lines = sorted({e.span.line for e in idx.entries})
    credited = set(data.draw(st.lists(st.sampled_from(entry_lines), unique=True)) if entry_lines else [])
    credited |= set(data.draw(st.lists(st.integers(1, max(n, 1)), max_size=3)))  # any line, even a blank one
    assert engramory._loose_lines(idx, credited) == _loose_reference(idx, credited)


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_loose_lines_of_every_store_are_the_list_based_ones(root):
    try:
        res = api.read_store(api.locate([str(root)])[0], "engramory")
    except Exception:  # noqa: BLE001 - a store engramory cannot read is not this test's subject
        return
    idx = res.store.index
    if idx is None:
        return
    credited = {e.span.line for e in idx.entries if e.credits is not None and e.kind == "link"}
    assert engramory._loose_lines(idx, credited) == _loose_reference(idx, credited)
