"""``mmlint merge SRC... DST``: whole stores of one dialect, collisions
refused unless resolved, caps respected, written atomically and verified."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from conftest import CORPUS, make_store, needs_corpus
from mmlint import dialects
from mmlint.merging.stores import merge_stores

REAL = CORPUS / "real" / "a-claude"
NOTE = "---\nname: {0}\ndescription: {1}\ntype: feedback\n---\n\n{1}\n"


def cli(*args):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True)


def read(root, profile="claude-code"):
    return dialects.get("engramory").read(str(root), profile)


def files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@needs_corpus
def test_two_real_stores_merge_into_a_new_one(tmp_path):
    a, b = REAL / "dispatch", REAL / "gonogo"
    p = cli("merge", str(a), str(b), str(tmp_path / "out"))
    assert p.returncode == 0, p.stdout + p.stderr
    out = files(tmp_path / "out")
    for src in (a, b):
        for rel, data in files(src).items():
            if rel != "MEMORY.md":
                assert out[rel] == data  # every note byte for byte
    index = out["MEMORY.md"].decode()
    for src in (a, b):
        for line in (src / "MEMORY.md").read_text(encoding="utf-8").splitlines():
            if line.startswith("- ["):
                assert index.count(line + "\n") == 1
    assert cli("check", str(tmp_path / "out"), "--select", "P101,X107").returncode == 0


@needs_corpus
def test_merge_into_an_existing_store_and_identical_notes_kept_once(tmp_path):
    shutil.copytree(REAL / "dispatch", tmp_path / "dst")
    src = tmp_path / "src"
    make_store(src, {"MEMORY.md": "- [user_role.md](user_role.md) — Alex's role as solo human PM/CEO orchestrating multi-agent AI teams\n"
                                  "- [New](feedback_new.md) — new\n",
                     "user_role.md": (REAL / "dispatch" / "user_role.md").read_bytes(), "feedback_new.md": NOTE.format("feedback_new", "new")})
    before = files(src)
    p = cli("merge", str(src), str(tmp_path / "dst"), "--format", "json")
    assert p.returncode == 0, p.stdout
    doc = json.loads(p.stdout)
    assert doc["written"] and [k["path"] for k in doc["keptOnce"]] == ["user_role.md"]
    text = (tmp_path / "dst" / "MEMORY.md").read_text(encoding="utf-8")
    assert text.count("(user_role.md)") == 1 and "(feedback_new.md)" in text
    assert files(src) == before  # sources are never touched
    assert not [p for p in tmp_path.iterdir() if "mmlint" in p.name]  # no leftovers


def test_slug_and_name_collisions_refused_unless_resolved(tmp_path):
    a = make_store(tmp_path / "a", {"MEMORY.md": "- [X](x.md) — x\n", "x.md": NOTE.format("x", "from a")})
    b = make_store(tmp_path / "b", {"MEMORY.md": "- [X](x.md) — x\n- [Y](y.md) — y\n", "x.md": NOTE.format("x", "from b"),
                                    "y.md": NOTE.format("y", "y")})
    plan = merge_stores([read(a), read(b)], str(tmp_path / "out"))
    assert [r.code for r in plan.refusals] == ["E_SLUG_COLLISION"] and not (tmp_path / "out").exists()
    assert "x.md" in plan.refusals[0].message and str(a) in plan.refusals[0].message
    # rename keeps both and points the later store's line at the new name
    plan = merge_stores([read(a), read(b)], str(tmp_path / "r"), resolve="rename")
    assert plan.written and plan.renamed == [(str(b), "x.md", "x-2.md")]
    assert (tmp_path / "r" / "x-2.md").read_text() == NOTE.format("x", "from b")
    idx = (tmp_path / "r" / "MEMORY.md").read_text()
    assert "- [X](x.md) — x\n" in idx and "- [X](x-2.md) — x\n" in idx
    # first / last keep one
    merge_stores([read(a), read(b)], str(tmp_path / "f"), resolve="first")
    assert (tmp_path / "f" / "x.md").read_text() == NOTE.format("x", "from a")
    merge_stores([read(a), read(b)], str(tmp_path / "l"), resolve="last")
    assert (tmp_path / "l" / "x.md").read_text() == NOTE.format("x", "from b")
    # a name collision: same name at different paths
    c = make_store(tmp_path / "c", {"MEMORY.md": "- [Z](z.md) — z\n", "z.md": NOTE.format("x", "other path, same name")})
    plan = merge_stores([read(a), read(c)], str(tmp_path / "n"))
    assert [r.code for r in plan.refusals] == ["E_NAME_COLLISION"]
    plan = merge_stores([read(a), read(c)], str(tmp_path / "n2"), resolve="last")
    assert plan.written and not (tmp_path / "n2" / "x.md").exists()
    assert "(x.md)" not in (tmp_path / "n2" / "MEMORY.md").read_text()  # its pointer went with it


def test_caps_are_respected_with_metrics(tmp_path):
    def big(root, prefix):
        return make_store(root, {"MEMORY.md": "".join(f"- [{prefix}{i}]({prefix}{i}.md) — hook {i}\n" for i in range(120)),
                                 **{f"{prefix}{i}.md": NOTE.format(f"{prefix}{i}", f"d{i}") for i in range(120)}})
    a, b = big(tmp_path / "a", "a"), big(tmp_path / "b", "b")
    plan = merge_stores([read(a), read(b)], str(tmp_path / "out"))
    assert not plan.written and not (tmp_path / "out").exists()
    assert [r.code for r in plan.refusals] == ["E_INDEX_BUDGET_EXCEEDED"]
    usage = plan.refusals[0].usage["index"]
    assert usage["lines"] == 240 and usage["lineCap"] == 200 and usage["overflowLines"] == 40
    assert usage["pastCap"][0] == "b80.md" and len(usage["pastCap"]) == 40


@needs_corpus
def test_mixed_dialects_are_a_usage_error(tmp_path):
    a = make_store(tmp_path / "a", {"MEMORY.md": "- [X](x.md) — x\n", "x.md": NOTE.format("x", "x")})
    mm = CORPUS / "mm" / "reference-example"
    p = cli("merge", str(a), str(mm), str(tmp_path / "out"))
    assert p.returncode == 2 and "different dialects" in p.stderr


@needs_corpus
def test_mm_stores_merge_by_topic(tmp_path):
    mm = CORPUS / "mm" / "reference-example"
    other = tmp_path / "o"
    shutil.copytree(mm, other)
    idx = (other / "MEMORY.md").read_text(encoding="utf-8")
    (other / "MEMORY.md").write_text(idx + "\n## alerts\n- **summary:** pager rules\n- **file:** memories/alerts.md\n", encoding="utf-8")
    (other / "memories" / "alerts.md").write_text("# alerts\n\n> mm-id: local\n> mm-topic: alerts\n\npage on 5xx\n", encoding="utf-8")
    p = cli("merge", str(mm), str(other), str(tmp_path / "out"))
    assert p.returncode == 0, p.stdout + p.stderr
    out = (tmp_path / "out" / "MEMORY.md").read_text(encoding="utf-8")
    assert out.count("## alerts") == 1 and out.startswith(idx.rstrip("\n"))
    assert cli("check", str(tmp_path / "out"), "--select", "P101,M105,M107").returncode == 0


def test_dst_named_among_the_sources_is_merged_into_once(tmp_path):
    a = make_store(tmp_path / "a", {"MEMORY.md": "- [X](x.md) — x\n", "x.md": NOTE.format("x", "x")})
    b = make_store(tmp_path / "b", {"MEMORY.md": "- [Y](y.md) — y\n", "y.md": NOTE.format("y", "y")})
    p = cli("merge", str(b), str(a), str(a))
    assert p.returncode == 0, p.stdout + p.stderr
    assert (a / "MEMORY.md").read_text() == "- [X](x.md) — x\n- [Y](y.md) — y\n"


def test_a_store_with_unread_data_is_refused_not_crashed(tmp_path):
    """A source whose files could not all be read (here a symlink out of the
    root) is refused as ``convert`` refuses it: E_UNREADABLE, nothing written."""
    import os

    outside = make_store(tmp_path / "outside", {"secret.md": "x\n"})
    a = make_store(tmp_path / "a", {"MEMORY.md": "# Memory Index\n\n- [A](a.md)\n", "a.md": NOTE.format("a", "one")})
    os.symlink(outside / "secret.md", a / "link.md")
    b = make_store(tmp_path / "b", {"MEMORY.md": "# Memory Index\n\n- [B](b.md)\n", "b.md": NOTE.format("b", "two")})
    plan = merge_stores([read(a), read(b)], str(tmp_path / "out"))
    assert not plan.written and any(r.code == "E_UNREADABLE" for r in plan.refusals), plan.refusals
    assert not (tmp_path / "out").exists()


def test_notes_whose_paths_differ_only_in_case_are_refused_not_a_traceback(tmp_path):
    """``a.md`` and ``A.md`` in one source: the target's path claims raise
    ``Unrepresentable`` while the caps are checked; that is a refusal
    (nothing written), not an uncaught exception (found by the review)."""
    note = "---\nname: {}\ndescription: d\ntype: user\n---\n\nx\n"
    a = make_store(tmp_path / "a", {"MEMORY.md": "# Memory Index\n\n- [a](a.md) — h\n- [A](A.md) — h\n",
                                    "a.md": note.format("a"), "A.md": note.format("A2")})
    b = make_store(tmp_path / "b", {"MEMORY.md": "# Memory Index\n\n- [b](b.md) — h\n", "b.md": note.format("b")})
    plan = merge_stores([read(a), read(b)], str(tmp_path / "out"), resolve="rename")
    assert not plan.written and not (tmp_path / "out").exists()
    assert [r.code for r in plan.refusals] == ["E_UNREPRESENTABLE"] and "differ only in case" in plan.refusals[0].message


def _two(tmp_path, n):
    out = []
    for side in "ab":
        fs = {"MEMORY.md": "".join(f"- [{side}{i}]({side}{i}.md) — hook\n" for i in range(n))}
        fs.update({f"{side}{i}.md": NOTE.format(f"{side}{i}", f"d {side}{i}") for i in range(n)})
        out.append(read(make_store(tmp_path / side, fs)))
    return out


def test_a_refused_or_dry_run_merge_writes_nothing_at_all(tmp_path, monkeypatch):
    """The merged store is read and checked in memory first: a merge over
    the index cap, or a dry run, writes no file (it wrote the whole tree
    beside DST and deleted it again: 1.3 s of 2.9 at 2,000 notes)."""
    from mmlint.convert import transaction

    def no_write(*args, **kwargs):
        raise AssertionError("a refused or dry-run merge wrote a tree")

    monkeypatch.setattr(transaction, "write_tree", no_write)
    plan = merge_stores(_two(tmp_path, 150), str(tmp_path / "over"))
    assert [r.code for r in plan.refusals] == ["E_INDEX_BUDGET_EXCEEDED"] and not plan.written
    plan = merge_stores(_two(tmp_path, 20), str(tmp_path / "dry"), dry_run=True)
    assert not plan.refusals and not plan.written
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "b"]


def test_a_merge_still_writes_checks_and_installs(tmp_path):
    plan = merge_stores(_two(tmp_path, 20), str(tmp_path / "out"))
    assert plan.written and not plan.refusals
    back = read(tmp_path / "out")
    assert len(back.notes) == 40 and len(back.index.entries) == 40


def test_a_merge_into_a_folder_refuses_to_replace_what_it_would_not_keep(tmp_path):
    # found by a newcomer run: merging into an existing store replaced the folder with the merged
    # store, so its .git/, .obsidian/, node_modules/, empty folders went, and a symlink became a copy
    import os

    from mmlint.merging.stores import unkept

    src = make_store(tmp_path / "s", {"MEMORY.md": "- [A](a.md) — a\n", "a.md": NOTE.format("a", "a")})
    dst = make_store(tmp_path / "d", {"MEMORY.md": "- [B](b.md) — b\n", "b.md": NOTE.format("b", "b"),
                                      ".git/HEAD": "ref", ".obsidian/app.json": "{}", "node_modules/x/i.js": "m", "t.txt": "t"})
    (dst / "empty").mkdir()
    os.symlink("t.txt", dst / "alias.txt")
    assert unkept(str(dst), read(dst)) == [".git/", ".obsidian/", "alias.txt", "empty/", "node_modules/"]
    before = sorted(str(p.relative_to(dst)) for p in dst.rglob("*"))
    for extra in ([], ["--dry-run"]):
        p = cli("merge", str(src), str(dst), *extra)
        assert p.returncode == 1 and "E_DEST_NOT_EMPTY" in p.stdout and ".git/, .obsidian/" in p.stdout, p.stdout + p.stderr
    assert sorted(str(p.relative_to(dst)) for p in dst.rglob("*")) == before and os.path.islink(dst / "alias.txt")
    for name in (".git", ".obsidian", "node_modules", "empty", "alias.txt"):
        shutil.rmtree(dst / name) if (dst / name).is_dir() and not (dst / name).is_symlink() else (dst / name).unlink()
    assert unkept(str(dst), read(dst)) == []
    p = cli("merge", str(src), str(dst))
    assert p.returncode == 0 and sorted(os.listdir(dst)) == ["MEMORY.md", "a.md", "b.md", "t.txt"], p.stdout


def test_a_renamed_note_is_named_where_it_is_written_and_dst_keeps_its_mode(tmp_path):
    # found by a newcomer run: "same name 'x' kept in x.md, x.md" (the second is written as x-2.md),
    # and the merged store replaced DST with a folder of the default mode
    import os

    a = make_store(tmp_path / "a", {"MEMORY.md": "- [X](x.md) — x\n", "x.md": NOTE.format("x", "one")})
    b = make_store(tmp_path / "b", {"MEMORY.md": "- [X](x.md) — x\n", "x.md": NOTE.format("x", "two")})
    os.chmod(a, 0o750)
    p = cli("merge", str(b), str(a), "--resolve", "rename", "--format", "json")
    assert p.returncode == 0, p.stdout + p.stderr
    (collision,) = json.loads(p.stdout)["nameCollisions"]
    assert sorted(n["path"] for n in collision["notes"]) == ["x-2.md", "x.md"]
    assert os.stat(a).st_mode & 0o777 == 0o750
