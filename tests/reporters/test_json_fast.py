"""The indenting JSON writer of the reporters held to :func:`json.dumps`."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint.reporters.json import _RAW_UNSAFE, dumps, indented

scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8), st.floats(allow_nan=True))
trees = st.recursive(scalars, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                                     st.dictionaries(st.text(max_size=4), kids, max_size=4)), max_leaves=15)


@settings(max_examples=120, deadline=None)
@given(trees, st.sampled_from([0, 1, 2, 4]))
def test_dumps_is_json_dumps(obj, indent):
    want = json.dumps(obj, ensure_ascii=False, indent=indent)
    assert dumps(obj, indent=indent) == _RAW_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", want)


def test_floats_and_odd_keys_go_to_json_dumps():
    for obj in ({"a": 1.5}, {1: "x"}, [float("nan")]):
        assert dumps(obj, indent=2) == json.dumps(obj, ensure_ascii=False, indent=2)
        try:
            indented(obj, 2)
        except Exception as exc:
            assert type(exc).__name__ == "_Unusual"
        else:
            raise AssertionError(obj)


def _report(result, cwd):
    import io

    from mmlint.reporters.json import JsonReporter

    buf = io.StringIO()
    JsonReporter().report(result, buf, cwd)
    return buf.getvalue()


def _whole(result, cwd):
    from mmlint.reporters.json import document

    return dumps(document(result, cwd), indent=2) + "\n"


def test_report_in_pieces_is_the_whole_document(tmp_path):
    """The reporter writes one piece per diagnostic; the text is the one
    document dumped at once: with many findings, odd characters in them
    (escaped per piece), fixes, several stores, and none at all."""
    import copy

    from conftest import make_store

    from mmlint import api

    note = "---\nname: n{i}\ndescription: d\u2028{i}\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\nsee [[gone-{i}\u0085]] [x](nothing-{i}.md)\n"
    roots = []
    for k in range(2):
        files = {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](n0.md) - h\n"}
        files.update({f"n{i}.md": note.format(i=i) for i in range(30)})
        roots.append(str(make_store(tmp_path / f"s{k}", files)))
    res = api.check(roots, profile="upstream")
    assert sum(len(s.diagnostics) for s in res.stores) > 60
    assert any(d.fix for s in res.stores for d in s.diagnostics)
    for cwd in (str(tmp_path), roots[0]):
        assert _report(res, cwd) == _whole(res, cwd)
    class Result:  # a CheckResult with other stores
        counts = type(res).counts

        def __init__(self, stores):
            self.stores = stores

    empty = Result([copy.copy(s) for s in res.stores])
    for s in empty.stores:
        s.diagnostics = []
    assert _report(empty, str(tmp_path)) == _whole(empty, str(tmp_path))
    d0 = res.stores[0].diagnostics[0]
    # characters escaped piece by piece (a line separator, NEL, a lone surrogate)
    raw = copy.copy(d0)
    raw.message = "a\u2028b\x85c\udce9"
    odd_text = Result([copy.copy(res.stores[0])])
    odd_text.stores[0].diagnostics = [raw, d0]
    assert _report(odd_text, str(tmp_path)) == _whole(odd_text, str(tmp_path))
    assert "a\\u2028b\\u0085c\\udce9" in _report(odd_text, str(tmp_path))
    # a value indented() leaves to json.dumps: that diagnostic's piece goes that way, among the others
    odd = copy.copy(d0)
    odd.fix = {"applicability": "safe", "message": 1.5}
    weird = Result([copy.copy(res.stores[0])])
    for diags in ([odd], [raw, odd, d0]):
        weird.stores[0].diagnostics = diags
        assert _report(weird, str(tmp_path)) == _whole(weird, str(tmp_path))
        assert '"message": 1.5' in _report(weird, str(tmp_path))


def test_report_holds_about_its_text_not_a_tree(tmp_path):
    """Writing 4,000 diagnostics allocates about the size of their text
    (one string each), not a dict tree and the indenter's fragments for all
    of them (~10x the text before)."""
    import io
    import tracemalloc

    from many import many_diagnostics

    from mmlint.reporters.json import JsonReporter

    big = many_diagnostics(tmp_path)
    sink = io.StringIO()
    JsonReporter().report(big, sink, str(tmp_path))  # warm: imports, caches
    size = sink.tell()
    tracemalloc.start()
    try:
        JsonReporter().report(big, io.StringIO(), str(tmp_path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    # the pieces and the (ASCII) text in the sink: ~1.3x the text; 10x before
    assert peak < 3 * size, (peak, size)


def test_report_is_written_as_it_is_made(tmp_path):
    """The pieces are written as they are made: writing 4,000 diagnostics to
    a stream that keeps nothing allocates less than half their text (it held
    every piece until the last, ~9 MB for 20,000 dangling wikilinks, the
    peak of such a check)."""
    import tracemalloc

    from many import Sink, many_diagnostics

    from mmlint.reporters.json import JsonReporter

    big = many_diagnostics(tmp_path)
    sink = Sink()
    JsonReporter().report(big, sink, str(tmp_path))  # warm: imports, caches
    tracemalloc.start()
    try:
        JsonReporter().report(big, Sink(), str(tmp_path))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < sink.size / 2, (peak, sink.size)
