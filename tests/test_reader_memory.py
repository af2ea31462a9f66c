"""The reader keeps little per note (issue 9 item 4): a note's rewrite
layout is computed from its bytes only when a writer asks for it, and is
then exactly what reading the note gave."""

from __future__ import annotations

import copy
import gc
import pickle
import sys
import tracemalloc
from pathlib import Path

import pytest
from conftest import corpus_stores, fixture_stores, make_store, store_id

from mmlint import api
from mmlint.dialects import _fmnote
from mmlint.model import EMPTY_DICT, EMPTY_LIST

NOTE = "---\nname: a\ndescription: d\ntype: reference\ntags: x, y\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\nBody.\n"


def _read(root):
    return api.read_store(api.locate([str(root)])[0])


def _fm_stores():
    out = []
    for p in corpus_stores() + fixture_stores():
        try:
            res = _read(p)
        except Exception:  # noqa: BLE001 - a store that is not checkable is not this test's subject
            continue
        if any(isinstance(n.layout, _fmnote.NoteLayout) for n in res.store.notes):
            out.append(p)
    return out


def test_a_check_builds_no_layout(tmp_path):
    root = make_store(tmp_path / "s", {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n", "a.md": NOTE})
    res = api.check([str(root)], profile="upstream")
    notes = res.stores[0].store.notes
    assert notes and all(isinstance(n.layout, _fmnote.NoteLayout) and not n.layout.built for n in notes)
    assert res.stores[0].diagnostics is not None


@pytest.mark.parametrize("root", _fm_stores(), ids=store_id)
def test_lazy_layout_is_what_reading_gave(root):
    res = _read(root)
    for n in res.store.notes:
        lay = n.layout
        if not isinstance(lay, _fmnote.NoteLayout):
            continue
        path, keymap, slug, category, raw = lay._args
        eager = _fmnote._read(path, lay.data, keymap, slug, category, raw)[2]
        assert eager is not None
        # a value changed in memory before the layout is built: the layout
        # still holds what the file holds
        if n.tags is not None:
            n.tags.append("changed-in-memory")
        n.summary = "changed in memory"
        assert not lay.built
        for name in ("bom", "newline", "head", "body_raw", "body_lf", "lead_blank", "fm"):
            assert getattr(lay, name) == eager[name], (path, name)
        want_read = dict(eager["read"])
        if res.store.dialect == "workspace" and eager["read"].get("title") is not None \
                and eager["read"]["title"] == (eager["read"].get("name") or slug):
            want_read["title"] = None  # the workspace reader's own adjustment (set_read)
        assert lay.read == want_read, path
        assert {k: (it.line, it.key) for k, it in lay.field_items.items()} == \
            {k: (it.line, it.key) for k, it in eager["field_items"].items()}
        assert all(any(it is o for o in lay.fm.items) for it in lay.field_items.values())
        assert lay.built


def test_set_read_before_and_after_the_layout_is_built():
    note, _ = _fmnote.read_note("a.md", NOTE.encode(), {"name": "name", "description": "summary"}, "workspace", "a")
    note.layout.set_read("name", None)
    assert note.layout.read["name"] is None and note.layout.read["summary"] == "d"
    note.layout.set_read("summary", "x")
    assert note.layout.read["summary"] == "x"


def test_a_plain_check_loads_no_frontmatter_items(tmp_path):
    root = make_store(tmp_path / "s", {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n", "a.md": NOTE,
                                       "b.md": NOTE.replace("name: a", "name: b\nmmlint-tags: 'x, y'")})
    res = api.check([str(root)], profile="upstream")
    by_path = {n.path: n for n in res.stores[0].store.notes}
    assert not by_path["a.md"].frontmatter.loaded  # no carrier: F111 needs no item
    assert by_path["b.md"].frontmatter.loaded  # a carrier: F111 reads the native item


@pytest.mark.parametrize("root", _fm_stores(), ids=store_id)
def test_unloaded_items_come_back_as_read(root):
    res = _read(root)
    for n in res.store.notes:
        fm = n.frontmatter
        if fm is None or not isinstance(n.layout, _fmnote.NoteLayout):
            continue
        assert not fm.loaded
        assert fm.multiline == any(it.kind == "yaml" and len(it.raw) > 1 for it in n.layout.fm.items)
        unloaded_lines = fm.raw_lines()
        assert not fm.loaded
        assert sorted(unloaded_lines) == sorted(r for it in n.layout.fm.items for r in it.raw)
        keys = [it.key for it in n.layout.fm.items if it.parent is None and it.key]
        for key in set(keys) | {"absent-key", "mmlint-tags"}:
            assert fm.top(key) == next((it for it in n.layout.fm.items if it.key == key and it.parent is None), None)
        assert fm.items == n.layout.fm.items and fm.loaded and fm == n.layout.fm
        assert fm.raw_lines() == [r for it in fm.items for r in it.raw]


def _bench_store(tmp_path, n):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import bench

    root = tmp_path / "bench"
    bench.make_store(str(root), n, "plain")
    return root


def _held_per_note(root, n):
    """Bytes still allocated after one read of ``root`` (tracemalloc), per note."""
    found = api.locate([str(root)])[0]
    name, prof, ev = api.choose(found.path, None, "upstream")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        res = api._read(found, None, name, prof, ev)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(res.store.notes) == n
    return held / n


def test_a_read_keeps_little_per_note(tmp_path):
    """The bench's plain note (about 220 bytes on disk) and its index entry:
    6,200 bytes kept a note this morning of the day before, 2,570 this
    morning (CPython 3.11, 64-bit); shared empty containers, one string per
    path and the note's layout as its frontmatter's reload took it to
    2,120; entries without Span objects, spans in 6 bytes, a name that is
    its slug, one tuple for how the notes were read to ~1,790."""
    n = 2000
    per_note = _held_per_note(_bench_store(tmp_path, n), n)
    assert per_note < 1950, per_note


def test_read_values_left_empty_share_one_container(tmp_path):
    root = make_store(tmp_path / "s", {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n- [B](b.md) - h\n",
                                       "a.md": NOTE, "b.md": NOTE.replace("name: a", "name: b")})
    store = _read(root).store
    a, b = store.notes
    assert a.extra is b.extra is a.header is store.index.entries[0].data is store.index.entries[1].data is EMPTY_DICT
    assert a.frontmatter.problems is b.frontmatter.problems is EMPTY_LIST
    assert a.span("title").path == "MEMORY.md" and a.spans._others is b.spans._others  # the index's path: one tuple
    assert a.name == a.slug and a.name is a.slug  # a name that is its file's stem: one string
    assert a.layout._how is b.layout._how and a.layout.dialect == "engramory"  # how both were read: one tuple
    # the general reader's notes share them too; a note with extra keys has its own dict
    other = make_store(tmp_path / "t", {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n",
                                       "a.md": NOTE.replace("tags: x, y\n", "tags: [x,\n  y]\nmood: calm\n")})
    note = _read(other).store.notes[0]
    assert note.extra == {"mood": "calm"} and note.extra is not EMPTY_DICT and note.header is EMPTY_DICT
    # a path and its pointer share one string: the walk's
    e = store.index.entries[0]
    assert e.target is e.pointer is e.resolution.note is e.resolution.path is store.files["a.md"].path


@pytest.mark.parametrize("shared", [EMPTY_DICT, EMPTY_LIST], ids=["dict", "list"])
def test_a_shared_empty_container_refuses_to_be_filled(shared):
    kind = type(shared).__mro__[2]
    assert shared == kind() and repr(shared) == repr(kind()) and not shared
    assert copy.copy(shared) is shared and copy.deepcopy(shared) is shared
    assert pickle.loads(pickle.dumps(shared)) is shared
    fills = ([lambda: shared.__setitem__("k", 1), lambda: shared.setdefault("k", 1), lambda: shared.update(k=1)]
             if kind is dict else [lambda: shared.append(1), lambda: shared.extend([1]), lambda: shared.insert(0, 1)])
    for fill in fills:
        with pytest.raises(TypeError, match="cannot be filled"):
            fill()
    assert shared == kind()
    if kind is dict:
        assert shared.pop("k", None) is None  # removing from it is what removing from {} is
