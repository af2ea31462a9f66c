"""The walk lists what ``os.walk`` lists, with fewer system calls, and
detection reads each file once for all dialects (issue 9 item 2)."""

from __future__ import annotations

import os

import pytest
from conftest import LINK, corpus_stores, fixture_stores, make_store, store_id

from mmlint import dialects, walk


def _tree(tmp_path):
    outside = make_store(tmp_path / "outside", {"x.md": "x\n"})
    root = make_store(tmp_path / "store", {
        "MEMORY.md": "# Memory Index\n", "a.md": "a\n", "b/c.md": "c\n", "b/d/e.md": "e\n", "b/d/f.txt": b"\xff\x00",
        "z/y.md": "y\n", ".git/config": "[core]\n", "node_modules/m.md": "m\n", "archive/old.md": "o\n",
        "in-link.md": LINK("a.md"), "out-link.md": LINK(str(outside / "x.md")), "broken.md": LINK("missing.md"),
        "b/dir-link": LINK("../z"), "out-dir": LINK(str(outside)), "big.md": "x" * (1 << 21),
    })
    os.mkfifo(root / "fifo.md")
    return root


def _reference(root: str):
    """What os.walk(followlinks=False) shows: files and folders, top-down."""
    files, dirs = [], []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        rel_dir = os.path.relpath(dirpath, root).replace(os.sep, "/")
        for d in sorted(dirnames):
            rel = d if rel_dir == "." else f"{rel_dir}/{d}"
            dirs.append(rel)
        dirnames[:] = sorted(d for d in dirnames if d not in walk.FOREIGN_DIRS and not os.path.islink(os.path.join(dirpath, d)))
        files += [n if rel_dir == "." else f"{rel_dir}/{n}" for n in filenames]
    return sorted(files), dirs


def test_the_walk_lists_what_os_walk_lists(tmp_path):
    root = _tree(tmp_path)
    w = walk.walk_store(str(root), frozenset({"archive"}))
    files, dirs = _reference(w.root)
    assert list(w.files) == files
    assert [d for d, _ in w.skipped_dirs] == [d for d in dirs if d.rsplit("/", 1)[-1] in walk.FOREIGN_DIRS
                                              or os.path.islink(os.path.join(w.root, d))]
    kinds = {p: r.kind for p, r in w.files.items()}
    assert kinds["a.md"] == kinds["in-link.md"] == kinds["b/d/f.txt"] == "file" and kinds["archive/old.md"] == "skipped"
    assert kinds["out-link.md"] == "symlink-escape" and kinds["broken.md"] == kinds["fifo.md"] == "unreadable"
    assert w.files["in-link.md"].data == b"a\n" and w.files["b/d/f.txt"].data == b"\xff\x00"
    assert w.files["big.md"].data == b"x" * (1 << 21) and w.files["big.md"].size == 1 << 21
    assert "regular" in w.files["fifo.md"].reason
    sizes = walk.walk_store(str(root), frozenset({"archive"}), read=False)
    assert list(sizes.files) == files and sizes.files["a.md"].data is None and sizes.files["a.md"].size == 2


def test_read_bounded_reads_a_file_that_grew_past_its_size(tmp_path):
    p = tmp_path / "f"
    p.write_bytes(b"abc")
    assert walk.read_bounded(str(p), regular=True) == (b"abc", 3, "")
    assert walk.read_bounded(str(p), limit=2, regular=True)[0] is None
    assert walk.read_bounded(str(tmp_path), regular=True)[0] is None  # a folder is no regular file


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_detection_reads_once_and_finds_the_same(root):
    alone = []
    for name in dialects.BUILTIN:
        ev = dialects.get(name).detect(str(root))  # no shared reads outside dialects.detect
        if ev is not None and ev.score > 0:
            alone.append(ev)
    alone.sort(key=lambda e: -e.score)
    together = [e for e in dialects.detect(str(root)) if e.dialect in dialects.BUILTIN]
    assert together == alone
