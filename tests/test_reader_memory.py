"""The reader keeps little per note (issue 9 item 4): a note's rewrite
layout is computed from its bytes only when a writer asks for it, and is
then exactly what reading the note gave."""

from __future__ import annotations

import pytest
from conftest import corpus_stores, fixture_stores, make_store, store_id

from mmlint import api
from mmlint.dialects import _fmnote

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
