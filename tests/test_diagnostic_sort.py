"""``mmlint.diagnostic.sort_diagnostics``: the report order made by one
stable sort per part of the key (no tuple per diagnostic at a check's peak)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint.diagnostic import Diagnostic, sort_diagnostics
from mmlint.span import Span

_DIAG = st.builds(lambda code, path, line, col, msg: Diagnostic(code, "n", "info", Span(path, line, col), msg),
                  st.sampled_from(("F101", "P109", "I102", "H101")), st.sampled_from(("a.md", "b.md", "A.md", "é.md")),
                  st.integers(1, 4), st.integers(1, 4), st.sampled_from(("", "x", "y", "é")))


@settings(max_examples=200, deadline=None)
@given(diags=st.lists(_DIAG, max_size=40))
def test_the_order_of_one_sort_by_the_whole_key(diags):
    want = sorted(diags, key=Diagnostic.sort_key)
    got = list(diags)
    sort_diagnostics(got)
    assert all(a is b for a, b in zip(got, want)) and len(got) == len(want)


@settings(max_examples=100, deadline=None)
@given(diags=st.lists(_DIAG, max_size=30), shown=st.lists(st.sampled_from(("s/a.md", "t/a.md", "a.md")), min_size=30,
                                                          max_size=30))
def test_with_another_path_and_an_item_around_each(diags, shown):
    items = [(p, d) for p, d in zip(shown, diags)]
    want = sorted(items, key=lambda x: (x[0], x[1].span.line, x[1].span.column, x[1].code, x[1].message))
    got = list(items)
    sort_diagnostics(got, of=lambda x: x[1], path=lambda x: x[0])
    assert all(a is b for a, b in zip(got, want)) and len(got) == len(want)
