"""``mmlint merge-driver``: real merges replayed with git on copies of real
stores, the driver configured as README "Merging memory" says."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, needs_corpus
from mmlint.merging.index import merge_index, units

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
DISPATCH = CORPUS / "real" / "a-claude" / "dispatch"
MM = CORPUS / "real" / "b-mm" / "memory-standard-example"
ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
       "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1", "HOME": "/nonexistent"}


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=ENV, check=check)


def repo_with(tmp_path: Path, store: Path, driver: bool = True) -> Path:
    repo = tmp_path / "repo"
    shutil.copytree(store, repo / "memory")
    git(repo.parent, "init", "-q", "-b", "main", str(repo))
    if driver:
        (repo / ".gitattributes").write_text("MEMORY.md merge=mmlint\n")
        git(repo, "config", "merge.mmlint.name", "mmlint memory index merge")
        git(repo, "config", "merge.mmlint.driver", f"{sys.executable} -m mmlint merge-driver %O %A %B -L %L")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "store")
    return repo


def edit(repo: Path, branch: str, changes: dict[str, str | None], index: callable) -> None:
    git(repo, "checkout", "-q", "-b", branch, "main")
    for name, text in changes.items():
        p = repo / "memory" / name
        if text is None:
            p.unlink()
        else:
            p.write_text(text, encoding="utf-8")
    idx = repo / "memory" / "MEMORY.md"
    idx.write_bytes(index(idx.read_text(encoding="utf-8")).encode("utf-8"))
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", branch)


NOTE = "---\nname: {0}\ndescription: {1}\ntype: feedback\n---\n\n{1}\n\n**Why:** w.\n\n**How to apply:** h.\n"
KLATCH = "- [project_klatch.md](project_klatch.md) — Klatch: local-first Claude conversation manager, TypeScript, mythological agent team\n"


@needs_corpus
def test_two_branches_adding_and_changing_different_pointers_merge_clean(tmp_path):
    repo = repo_with(tmp_path, DISPATCH)
    fb = "## Feedback\n"
    edit(repo, "a", {"feedback_tests.md": NOTE.format("feedback_tests", "Run the whole suite")},
         lambda t: t.replace(fb, fb + "- [feedback_tests.md](feedback_tests.md) — Run the whole suite\n")
                    .replace("Python/FastAPI, named agent team", "Python/FastAPI, named agents"))
    edit(repo, "b", {"feedback_docs.md": NOTE.format("feedback_docs", "Update the docs")},
         lambda t: t.replace(fb, fb + "- [feedback_docs.md](feedback_docs.md) — Update the docs\n").replace(KLATCH, ""))
    git(repo, "checkout", "-q", "a")
    merged = git(repo, "merge", "-q", "--no-edit", "b", check=False)
    assert merged.returncode == 0, merged.stdout + merged.stderr
    text = (repo / "memory" / "MEMORY.md").read_text(encoding="utf-8")
    assert "<<<<<<<" not in text
    assert text.count("(feedback_tests.md)") == 1 and text.count("(feedback_docs.md)") == 1
    assert "named agents\n" in text and "project_klatch" not in text
    # both additions sit under Feedback, in a stable order: ours, then theirs
    sec = text.split(fb, 1)[1].split("\n## ", 1)[0].splitlines()
    assert sec[:2] == ["- [feedback_tests.md](feedback_tests.md) — Run the whole suite",
                       "- [feedback_docs.md](feedback_docs.md) — Update the docs"]
    # every other line of the original is still there, in order
    orig = [line for line in (DISPATCH / "MEMORY.md").read_text(encoding="utf-8").splitlines()
            if "project_klatch" not in line and "named agent team" not in line]
    it = iter(text.splitlines())
    assert all(line in it for line in orig)
    check = subprocess.run([sys.executable, "-m", "mmlint", "check", str(repo / "memory"), "--select", "P101"],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stdout


@needs_corpus
def test_the_same_pointer_changed_differently_conflicts_on_that_entry_only(tmp_path):
    repo = repo_with(tmp_path, DISPATCH)
    edit(repo, "a", {}, lambda t: t.replace("legacy hosting migration", "hosting moved to Netlify"))
    edit(repo, "b", {}, lambda t: t.replace("legacy hosting migration", "hosting moved to Vercel")
                                 .replace("## User\n", "## User\n- [user_x.md](user_x.md) — x\n"))
    git(repo, "checkout", "-q", "a")
    merged = git(repo, "merge", "--no-edit", "b", check=False)
    assert merged.returncode != 0
    text = (repo / "memory" / "MEMORY.md").read_text(encoding="utf-8")
    assert text.count("<<<<<<< ours") == 1 and text.count(">>>>>>> theirs") == 1
    block = text.split("<<<<<<< ours\n", 1)[1].split(">>>>>>> theirs\n", 1)[0]
    ours, theirs = block.split("=======\n")
    assert "Netlify" in ours and "Vercel" in theirs and ours.count("\n") == theirs.count("\n") == 1
    assert "(user_x.md)" in text  # the clean addition beside the conflict is merged


@needs_corpus
def test_union_keeps_duplicates_the_driver_does_not(tmp_path):
    line = "- [feedback_tests.md](feedback_tests.md) — Run the whole suite\n"
    for driver in (False, True):
        repo = repo_with(tmp_path / str(driver), DISPATCH, driver=driver)
        if not driver:
            (repo / ".gitattributes").write_text("MEMORY.md merge=union\n")
            git(repo, "add", "-A")
            git(repo, "commit", "-qm", "union")
        other = {"a": "- [feedback_a.md](feedback_a.md) — a\n", "b": "- [feedback_b.md](feedback_b.md) — b\n"}
        for br in ("a", "b"):
            added = line + other[br] if br == "a" else other[br] + line
            edit(repo, br, {"feedback_tests.md": NOTE.format("feedback_tests", "Run the whole suite")},
                 lambda t: t.replace("## Feedback\n", "## Feedback\n" + added))
        git(repo, "checkout", "-q", "a")
        git(repo, "merge", "-q", "--no-edit", "b", check=False)
        text = (repo / "memory" / "MEMORY.md").read_text(encoding="utf-8")
        assert text.count(line) == (1 if driver else 2)
        assert all(o in text for o in other.values()) and "<<<<<<<" not in text


@needs_corpus
def test_mm_topics_added_on_both_sides(tmp_path):
    repo = repo_with(tmp_path, MM)
    entry = "\n## {0}\n- **summary:** {0} notes\n- **file:** memories/{0}.md\n"
    body = "# {0}\n\n> mm-id: local\n> mm-topic: {0}\n\n{0} body\n"
    edit(repo, "a", {"memories/alerts.md": body.format("alerts")}, lambda t: t + entry.format("alerts"))
    edit(repo, "b", {"memories/billing.md": body.format("billing")},
         lambda t: t.replace("- **budget:** 108/4000", "- **budget:** 110/4000") + entry.format("billing"))
    git(repo, "checkout", "-q", "a")
    merged = git(repo, "merge", "-q", "--no-edit", "b", check=False)
    assert merged.returncode == 0, merged.stderr
    text = (repo / "memory" / "MEMORY.md").read_text(encoding="utf-8")
    assert "## alerts" in text and "## billing" in text and "110/4000" in text and "108/4000" not in text
    assert [u.key[1] for u in units(text, "mm") if u.key[0] == "topic"] == ["project-intro", "deployment", "alerts", "billing"]


def test_workspace_projection_count_is_regenerated():
    head = "# 记忆索引\n\n> 本文件由 dsh-bundle-memory 自动生成。\n\n- 共 {0} 条记忆\n\n## 未分类\n\n"
    line = "- [{0}](./{0}.md) · 2026-10-08 · 1 B\n"
    base = head.format(1) + line.format("甲")
    ours = head.format(2) + line.format("甲") + line.format("乙")
    theirs = head.format(2) + line.format("甲") + line.format("丙")
    r = merge_index(base.encode(), ours.encode(), theirs.encode())
    assert r.dialect == "workspace" and r.clean
    text = r.data.decode()
    assert "- 共 3 条记忆" in text and all(line.format(x) in text for x in "甲乙丙")


def test_crlf_bom_and_deletions():
    base = "\ufeff# Memory Index\r\n- [A](a.md) — a\r\n- [B](b.md) — b\r\n".encode()
    ours = "\ufeff# Memory Index\r\n- [A](a.md) — a\r\n".encode()
    theirs = "# Memory Index\n- [A](a.md) — a\n- [B](b.md) — b\n- [C](c.md) — c\n".encode()
    r = merge_index(base, ours, theirs)
    assert r.clean
    assert r.data == "\ufeff# Memory Index\r\n- [A](a.md) — a\r\n- [C](c.md) — c\r\n".encode()


def test_driver_exit_status_and_result_in_ours(tmp_path):
    base, ours, theirs = (tmp_path / n for n in ("o", "a", "b"))
    base.write_text("- [A](a.md) — a\n")
    ours.write_text("- [A](a.md) — changed here\n")
    theirs.write_text("- [A](a.md) — changed there\n")
    p = subprocess.run([sys.executable, "-m", "mmlint", "merge-driver", str(base), str(ours), str(theirs), "-L", "9"],
                       capture_output=True, text=True)
    assert p.returncode == 1 and "a.md" in p.stderr
    assert ours.read_text().startswith("<" * 9 + " ours\n- [A](a.md) — changed here\n" + "=" * 9 + "\n")
    ours.write_text("- [A](a.md) — a\n- [B](b.md) — b\n")
    p = subprocess.run([sys.executable, "-m", "mmlint", "merge-driver", str(base), str(ours), str(theirs)], capture_output=True)
    assert p.returncode == 0 and ours.read_text() == "- [A](a.md) — changed there\n- [B](b.md) — b\n"
