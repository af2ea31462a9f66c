"""``reporters.located``: the report order every format prints, and the
display paths (``results.display_paths``) it shows.

A check's diagnostics are already sorted; for one store with many of them,
``located`` gives them as they are (``InOrder``) instead of a sorted list
of ``Located``. Both must be the same items in the same order."""

from __future__ import annotations

import copy
import os
import posixpath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import make_store
from mmlint import api, reporters
from mmlint.diagnostic import Diagnostic
from mmlint.results import display_path, display_paths
from mmlint.span import Span

NOTE = "---\nname: n{i}\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\nsee [[gone-{i}]] and [x](nothing-{i}.md)\n"


def _checked(tmp_path, notes: int = 30, name: str = "s"):
    files = {"MEMORY.md": "# Memory Index\n\n- [N0](n0.md) - h\n", "sub/deep.md": NOTE.format(i="d")}
    files.update({f"n{i}.md": NOTE.format(i=i) for i in range(notes)})
    return api.check([str(make_store(tmp_path / name, files))], profile="upstream")


def _as_list(result, cwd: str, monkeypatch) -> list:
    with monkeypatch.context() as m:
        m.setattr(reporters, "IN_ORDER_AT", 10**9)
        got = reporters.located(result, cwd)
    assert isinstance(got, list)
    return got


@pytest.mark.parametrize("where", ["outside", "root", "inside", "beside"])
def test_in_order_view_is_the_sorted_list(tmp_path, monkeypatch, where):
    result = _checked(tmp_path)
    root = result.stores[0].found.path
    os.makedirs(os.path.join(root, "sub"), exist_ok=True)
    os.makedirs(tmp_path / "other", exist_ok=True)
    cwd = {"outside": str(tmp_path), "root": root, "inside": os.path.join(root, "sub"),
           "beside": str(tmp_path / "other")}[where]
    monkeypatch.setattr(reporters, "IN_ORDER_AT", 1)
    view = reporters.located(result, cwd)
    assert isinstance(view, reporters.InOrder)
    want = _as_list(result, cwd, monkeypatch)
    assert len(view) == len(want) > 60
    assert list(view) == want
    assert list(view) == want  # iterable again (SARIF reads it twice)
    assert {x.path for x in want} >= {display_path(root, Span("n1.md"), cwd), display_path(root, Span("sub/deep.md"), cwd)}


def test_diagnostics_out_of_order_are_sorted(tmp_path, monkeypatch):
    result = _checked(tmp_path)
    want = _as_list(result, str(tmp_path), monkeypatch)
    store = copy.copy(result.stores[0])
    store.diagnostics = store.diagnostics[::-1]
    result.stores = [store]
    monkeypatch.setattr(reporters, "IN_ORDER_AT", 1)
    got = reporters.located(result, str(tmp_path))
    assert isinstance(got, list)
    assert [(x.path, x.diagnostic) for x in got] == [(x.path, x.diagnostic) for x in want]


def test_an_empty_store_is_in_order(tmp_path):
    store = copy.copy(_checked(tmp_path).stores[0])
    store.diagnostics = []
    assert reporters.InOrder(store, display_paths(store.found.path, str(tmp_path))).in_order()


def test_ties_broken_by_code_then_message(tmp_path, monkeypatch):
    base = _checked(tmp_path).stores[0]
    d = base.diagnostics[0]

    def diag(code: str, message: str) -> Diagnostic:
        return Diagnostic(code, d.name, d.severity, Span("n1.md", 3, 5), message)

    store = copy.copy(base)
    monkeypatch.setattr(reporters, "IN_ORDER_AT", 1)
    for order, in_order in ((["A", "B"], True), (["B", "A"], False)):
        for by in ("code", "message"):
            store.diagnostics = [diag(x, "m") if by == "code" else diag("P109", x) for x in order]
            got = reporters.located(api.CheckResult([store]), str(tmp_path))
            assert isinstance(got, reporters.InOrder) is in_order
            shown = [x.diagnostic.code if by == "code" else x.diagnostic.message for x in got]
            assert shown == ["A", "B"]


def test_two_stores_are_merged_in_path_order(tmp_path, monkeypatch):
    a, b = _checked(tmp_path, name="b"), _checked(tmp_path, name="a")
    result = api.CheckResult(a.stores + b.stores)
    monkeypatch.setattr(reporters, "IN_ORDER_AT", 1)
    got = reporters.located(result, str(tmp_path))
    assert isinstance(got, list)
    paths = [x.path for x in got]
    assert paths[0].startswith("a/") and paths[-1].startswith("b/")
    assert got == sorted(got, key=lambda x: (x.path,) + x.diagnostic.sort_key()[1:])


def test_located_holds_no_item_per_diagnostic(tmp_path):
    """20,000 diagnostics in 20,000 files: iterating the in-order view holds
    one item at a time (the sorted list held ~3.5 MiB at a check's peak)."""
    import tracemalloc

    base = _checked(tmp_path, notes=1).stores[0]
    d = base.diagnostics[0]
    store = copy.copy(base)
    store.diagnostics = [Diagnostic(d.code, d.name, d.severity, Span(f"n{i:05}.md", 1, 1), d.message) for i in range(20000)]
    result = api.CheckResult([store])
    tracemalloc.start()
    try:
        for _ in reporters.located(result, str(tmp_path)):
            pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 200_000, peak


PARTS = st.sampled_from(["a", "b", "c.md", ".", "..", "", "x y", "é"])


@settings(max_examples=300, deadline=None)
@given(root=st.lists(PARTS, min_size=0, max_size=4), cwd=st.lists(PARTS, min_size=0, max_size=4),
       paths=st.lists(st.lists(PARTS, min_size=1, max_size=4).map("/".join), min_size=1, max_size=6),
       absolute=st.booleans(), slash=st.booleans(), doubled=st.sampled_from(["", "root", "cwd"]))
def test_display_paths_are_display_path(root, cwd, paths, absolute, slash, doubled):
    base = "/tmp/mmlint-display"
    root_s = posixpath.join(base, *root) if absolute else posixpath.join(*root) if root else "."
    cwd_s = posixpath.join(base, *cwd) + ("/" if slash else "")
    if doubled == "root" and absolute:  # abspath keeps exactly two leading slashes: "//tmp" is not "/tmp" as text
        root_s = "/" + root_s
    elif doubled == "cwd":
        cwd_s = "/" + cwd_s
    show = display_paths(root_s, cwd_s)
    for p in paths + ["/" + paths[0], paths[0] + "/"]:
        assert show(p) == display_path(root_s, Span(p), cwd_s), (root_s, cwd_s, p)


@pytest.mark.parametrize("fmt", ["text", "junit"])
def test_a_root_given_with_two_leading_slashes_from_inside_it(tmp_path, monkeypatch, capsys, fmt):
    """``//tmp/s`` stays ``//tmp/s`` for abspath, while the working folder is
    ``/tmp/s/sub``: the paths shown are still relative to it (the fast path
    once took the folder for one outside the store: ``../sub/n1.md``)."""
    from mmlint.cli import main

    result = _checked(tmp_path)
    root = result.stores[0].found.path
    assert root.startswith("/") and not root.startswith("//")
    monkeypatch.chdir(os.path.join(root, "sub"))
    main(["check", "--no-cache", "--profile", "upstream", "--format", fmt, "/" + root])
    out = capsys.readouterr().out
    assert "../sub/" not in out
    assert ("deep.md:" if fmt == "text" else 'name="deep.md"') in out
    assert "../n1.md" in out
