"""A dialect reading a rendered tree in memory (``read(root, profile, tree=files)``)
sees exactly what it sees once the tree is written: the in-memory
verification of ``convert`` (and its dry run) stands for the disk."""

from __future__ import annotations

import pytest

from conftest import fixture_stores, make_store, store_id
from mmlint import api, dialects
from mmlint.convert import transaction
from mmlint.model import semantic

TARGETS = [("mm", None), ("engramory", "recall-v1"), ("engramory", "upstream"), ("engramory", "claude-code"),
           ("workspace", None)]


def _same(a, b) -> None:
    assert semantic(a) == semantic(b)
    assert [(n.path, n.slug, n.spans) for n in a.notes] == [(n.path, n.slug, n.spans) for n in b.notes]
    assert {p: (r.kind, r.size, r.data) for p, r in a.files.items()} == {p: (r.kind, r.size, r.data) for p, r in b.files.items()}
    assert [(p.code, p.span) for p in a.problems] == [(p.code, p.span) for p in b.problems]


@pytest.mark.parametrize("root", fixture_stores(), ids=store_id)
@pytest.mark.parametrize("dialect, profile", TARGETS, ids=lambda v: v or "")
def test_tree_read_equals_disk_read(tmp_path, root, dialect, profile):
    name, prof, _ = api.choose(str(root))
    src = dialects.get(name).read(str(root), prof)
    target = dialects.get(dialect)
    try:
        files = target.render(src, profile)
    except dialects.Unrepresentable:
        pytest.skip("the store does not render to this target without options")
    out = tmp_path / "out"
    out.mkdir()
    transaction.write_tree(str(out), files, sync=False)
    _same(target.read(str(out), profile), target.read(str(out), profile, tree=files))


def test_tree_read_sees_foreign_folders_and_skipped_tops_as_the_walk_does(tmp_path):
    files = {"MEMORY.md": b"# Memory Index\n\n- [A](a.md)\n", "a.md": b"---\nname: a\n---\nbody\n",
             ".git/HEAD": b"ref\n", "archive/old.md": b"old\n", "templates/t.md": b"t\n", "sub/.obsidian/x.json": b"{}"}
    root = make_store(tmp_path / "s", files)
    mod = dialects.get("engramory")
    disk, memory = mod.read(str(root), "upstream"), mod.read(str(root), "upstream", tree=files)
    _same(disk, memory)
    assert {p.code for p in memory.problems} >= {"S104"} and memory.files["archive/old.md"].kind == "aux"
