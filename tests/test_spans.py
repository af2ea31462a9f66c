"""``Note.spans`` is a compact :class:`mmlint.model.Spans`: it must behave
exactly as the ``dict`` of :class:`Span` it replaces."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint.model import Entry, Note, Span, Spans

_paths = st.sampled_from(["a.md", "MEMORY.md", "dir/b.md", "é.md"])
_ints = st.one_of(st.integers(0, 5), st.integers(0, (1 << 32) + 5))
_spans = st.builds(Span, _paths, _ints, _ints, st.one_of(st.none(), _ints), st.one_of(st.none(), _ints))
_keys = st.sampled_from(["name", "summary", "type", "extra:scope", "header:title", "title", "x" * 40])
_ops = st.lists(st.one_of(st.tuples(st.just("set"), _keys, _spans), st.tuples(st.just("del"), _keys, st.none()),
                          st.tuples(st.just("setdefault"), _keys, _spans), st.tuples(st.just("place"), _keys, _spans)),
                max_size=30)


@settings(max_examples=120, deadline=None)
@given(_ops)
def test_spans_behave_as_a_dict(ops):
    want: dict[str, Span] = {}
    got = Spans()
    for op, key, span in ops:
        if op == "set":
            want[key] = span
            got[key] = span
        elif op == "setdefault":
            assert got.setdefault(key, span) == want.setdefault(key, span)
        elif op == "place":  # a span with no end, set without making it
            want[key] = Span(span.path, span.line, span.column)
            got.place(key, span.path, span.line, span.column)
        elif key in want:
            del want[key]
            del got[key]
        else:
            assert key not in got
        assert list(got) == list(want) and len(got) == len(want)
        assert dict(got.items()) == want and got == want
        for k in ("name", "title", "absent"):
            assert got.get(k) == want.get(k) and (k in got) == (k in want)
            if k in want:
                assert got[k] == want[k] and type(got[k]) is Span
    clone = copy.copy(got)
    clone["new"] = Span("a.md", 1, 1)
    assert "new" not in got and dict(copy.deepcopy(got).items()) == want


def test_a_note_starts_with_its_own_empty_spans():
    a, b = Note("a.md", "a"), Note("b.md", "b")
    a.spans["name"] = Span("a.md", 2, 7)
    assert a.spans == {"name": Span("a.md", 2, 7)} and b.spans == {} and a.span("name") == Span("a.md", 2, 7)
    assert a.span("absent") == Span("a.md", 1, 1)


_entry_ops = st.lists(st.one_of(st.tuples(st.just("span"), _spans), st.tuples(st.just("pointer_span"), st.one_of(st.none(), _spans)),
                                st.tuples(st.just("pointer"), st.sampled_from([None, "a.md", "dir/b.md"]))), max_size=12)


@settings(max_examples=150, deadline=None)
@given(_spans, st.one_of(st.none(), _spans), _entry_ops)
def test_an_entry_gives_back_the_spans_it_was_given(span, pointer_span, ops):
    """``Entry.span`` / ``pointer_span`` are kept as numbers when they have
    the usual shape; whatever is assigned, in any order, reads back equal."""
    e = Entry(span, "a.md", pointer_span=pointer_span)
    want = {"span": span, "pointer_span": pointer_span, "pointer": "a.md"}
    for name, value in ops:
        setattr(e, name, value)
        want[name] = value
        assert (e.span, e.pointer_span, e.pointer) == (want["span"], want["pointer_span"], want["pointer"])
        assert type(e.span) is Span and (e.pointer_span is None or type(e.pointer_span) is Span)
    assert copy.copy(e) == e == copy.deepcopy(e)


def test_a_reader_entry_holds_no_span_object():
    e = Entry.on_line("MEMORY.md", 300, "a.md", "a.md", "A", "h", "s", "link", 4, 8, {})
    assert e == Entry(Span("MEMORY.md", 300, 1), "a.md", "a.md", "A", "h", "s", "link", Span("MEMORY.md", 300, 4, 300, 8), {})
    assert not any(isinstance(getattr(e, slot), Span) for slot in type(e).__slots__)
    general = Entry(Span("MEMORY.md", 3, 1, 3, 9), "a.md", pointer_span=Span("other.md", 3, 2, 3, 6))
    assert general.span == Span("MEMORY.md", 3, 1, 3, 9) and general.pointer_span == Span("other.md", 3, 2, 3, 6)


_long_keys = st.sampled_from([f"k{i}" for i in range(0, 40, 3)] + ["name", "absent"])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.tuples(st.just("set"), _long_keys, _spans), st.tuples(st.just("del"), _long_keys, st.none()),
                          st.tuples(st.just("place"), _long_keys, _spans)), max_size=20))
def test_spans_of_many_keys_behave_as_a_dict(ops):
    """Past ``model._LONG_KEYS`` keys a lookup goes through a position
    table instead of ``tuple.index``; it answers as a dict does, through
    sets, deletes and places that change the key tuple."""
    want = {f"k{i}": Span("a.md", i + 1, 1) for i in range(30)}
    got = Spans.packed("a.md", list(want), [x for i in range(30) for x in (0, i + 1, 1)])
    for op, key, span in ops:
        if op == "set":
            want[key] = span
            got[key] = span
        elif op == "place":
            want[key] = Span(span.path, span.line, span.column)
            got.place(key, span.path, span.line, span.column)
        elif key in want:
            del want[key]
            del got[key]
        assert list(got) == list(want) and dict(got.items()) == want
        for k in ("k0", "k3", "k39", "name", "absent"):
            assert got.get(k) == want.get(k) and (k in got) == (k in want)


def test_looking_up_every_key_of_a_note_is_linear_in_its_keys():
    """A note with 20,000 frontmatter keys took 4 s to check (every span
    lookup searched the key tuple); 4x the keys must cost about 4x, not 16x."""
    import time

    def cost(n: int) -> float:
        keys = [f"key{i}" for i in range(n)]
        spans = Spans.packed("a.md", keys, [x for i in range(n) for x in (0, i + 1, 1)])
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            for k in keys:
                spans.get(k)
            best = min(best, time.perf_counter() - t0)
        return best

    small, large = cost(2000), cost(8000)
    assert large < 8 * small + 0.02, (small, large)
