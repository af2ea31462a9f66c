"""``--force`` replaces only a memory store, lists what it removes, and keeps
the old one until the new one verifies (issue 8 item 5, docs/convert.md
"What DST may be")."""

from __future__ import annotations

import json
import os

import pytest

from conftest import FIXTURES, make_store, tree_bytes
from mmlint import cli, convert, dialects

OLD = {"MEMORY.md": "# Memory Index\n\n- [Old](old.md)\n", "old.md": "---\nname: old\n---\nold note\n",
       "sub/deep.md": "deep\n", ".engramory-recall.jsonl": "{}\n", ".mmlint-aux/README.md": "aux\n"}


def _src():
    return dialects.get("mm").read(str(FIXTURES / "mm/basic/store"))


def _refused(plan, code: str) -> str:
    assert not plan.ok and not plan.written, plan.refusals
    assert plan.refusals[0].code == code, plan.refusals
    return plan.refusals[0].message


@pytest.mark.parametrize("extra, why", [
    ({".git/HEAD": "ref: refs/heads/main\n"}, "another tool's folder, .git/"),
    ({".bashrc": "alias ll='ls -l'\n"}, ".bashrc, which is not a store file"),
    ({"src/main.py": "print(1)\n"}, "src/main.py, which is not a store file"),
    ({"notes/.obsidian/app.json": "{}"}, "another tool's folder, notes/.obsidian/"),
])
def test_force_refuses_a_folder_with_what_is_not_a_store(tmp_path, extra, why):
    dst = make_store(tmp_path / "dst", {**OLD, **extra})
    before = tree_bytes(dst)
    for dry in (True, False):
        message = _refused(convert.plan_conversion(_src(), dst, "workspace", force=True, dry_run=dry), "E_DEST_NOT_STORE")
        assert why in message
    assert tree_bytes(dst) == before and sorted(os.listdir(tmp_path)) == ["dst"]


def test_force_refuses_a_folder_without_an_index(tmp_path):
    dst = make_store(tmp_path / "dst", {"a.md": "just markdown\n"})
    assert "no MEMORY.md" in _refused(convert.plan_conversion(_src(), dst, "workspace", force=True), "E_DEST_NOT_STORE")
    assert tree_bytes(dst) == {"a.md": b"just markdown\n"}


def test_force_refuses_a_symlink_inside(tmp_path):
    outside = make_store(tmp_path / "outside", {"precious.txt": "keep"})
    dst = make_store(tmp_path / "dst", OLD)
    os.symlink(outside, dst / "link")
    assert "symlink" in _refused(convert.plan_conversion(_src(), dst, "workspace", force=True), "E_DEST_NOT_STORE")
    assert (outside / "precious.txt").read_text() == "keep" and (dst / "link").is_symlink()


@pytest.mark.parametrize("which", ["home", "cwd", "ancestor-of-cwd"])
def test_force_refuses_home_and_current_folder_even_when_they_look_like_stores(tmp_path, monkeypatch, which):
    dst = make_store(tmp_path / "dst", OLD)
    (dst / "inner").mkdir()
    if which == "home":
        monkeypatch.setenv("HOME", str(dst))
    elif which == "cwd":
        monkeypatch.chdir(dst)
    else:
        monkeypatch.chdir(dst / "inner")
    before = tree_bytes(dst)
    message = _refused(convert.plan_conversion(_src(), dst, "workspace", force=True), "E_DEST_NOT_STORE")
    assert ("home folder" if which == "home" else "current folder") in message
    assert tree_bytes(dst) == before


def test_force_refuses_an_ancestor_of_the_source(tmp_path):
    parent = make_store(tmp_path / "parent", OLD)
    src_root = make_store(parent / "src", {"MEMORY.md": "# Memory Index\n\n- [A](a.md)\n", "a.md": "---\nname: a\n---\nbody\n"})
    src = dialects.get("engramory").read(str(src_root), "claude-code")
    _refused(convert.plan_conversion(src, parent, "workspace", force=True), "E_DEST_NOT_EMPTY")
    assert (src_root / "a.md").exists()


def test_force_replaces_a_store_and_lists_every_file_it_removes(tmp_path, capsys):
    dst = make_store(tmp_path / "dst", OLD)
    src_dir = FIXTURES / "mm/basic/store"
    assert cli.main(["convert", str(src_dir), str(dst), "--to", "workspace", "--force", "--dry-run", "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["removes"] == sorted(OLD) and doc["backup"] is None
    assert tree_bytes(dst) == {k: v.encode() for k, v in OLD.items()}  # a dry run removes nothing
    assert cli.main(["convert", str(src_dir), str(dst), "--to", "workspace", "--force"]) == 0
    out = capsys.readouterr().out
    assert f"removes: {len(OLD)} file(s) of the old DST" in out
    assert all(f"  {p}\n" in out for p in OLD)
    assert "old.md" not in tree_bytes(dst) and "MEMORY.md" in tree_bytes(dst)
    assert sorted(os.listdir(tmp_path)) == ["dst"]  # the old store is gone once the new one verified


def test_backup_keeps_the_old_store_beside_dst(tmp_path, capsys):
    dst = make_store(tmp_path / "dst", OLD)
    assert cli.main(["convert", str(FIXTURES / "mm/basic/store"), str(dst), "--to", "workspace", "--force", "--backup"]) == 0
    kept = [p for p in os.listdir(tmp_path) if p != "dst"]
    assert len(kept) == 1 and kept[0].startswith("dst.mmlint-backup-")
    assert tree_bytes(tmp_path / kept[0]) == {k: v.encode() for k, v in OLD.items()}
    assert f"the old DST is kept at {tmp_path / kept[0]}" in capsys.readouterr().out


def test_a_failed_read_back_puts_the_old_store_back(tmp_path, monkeypatch):
    from mmlint.convert import transaction

    dst = make_store(tmp_path / "dst", OLD)
    before = tree_bytes(dst)
    real = transaction.differs
    seen = []

    def corrupt(root, files):
        seen.append(tree_bytes(root))  # what was installed at DST at that moment
        return real(root, {**files, "MEMORY.md": b"not what was written"})

    monkeypatch.setattr(transaction, "differs", corrupt)
    plan = convert.plan_conversion(_src(), dst, "workspace", force=True)
    assert _refused(plan, "E_VERIFY") and plan.refusals[0].path == "MEMORY.md"
    assert seen and seen[0] != before  # the new tree had been moved into place...
    assert tree_bytes(dst) == before and sorted(os.listdir(tmp_path)) == ["dst"]  # ...and the old one came back


def test_force_replaces_an_earlier_conversion_with_its_origin_record(tmp_path):
    """A converted store holds ``.mmlint-origin.json`` (the source layout for the
    way back): it is a store file, so ``--force`` may convert over it again."""
    dst = tmp_path / "dst"
    assert convert.plan_conversion(_src(), dst, "workspace").written
    assert (dst / ".mmlint-origin.json").is_file()
    again = convert.plan_conversion(_src(), dst, "workspace", force=True)
    assert again.written, again.refusals
