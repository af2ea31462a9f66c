"""``mmlint stores``: Claude Code stores under a home folder, their decoded
projects, stranded stores and split worktree stores, with merge commands."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, make_store, needs_corpus
from mmlint import projects, stores

ENV = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
       "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_NOSYSTEM": "1"}


def claude_store(home: Path, project: Path, src: Path | None = None) -> Path:
    folder = home / ".claude" / "projects" / projects.encode(str(project)) / "memory"
    if src is not None:
        shutil.copytree(src, folder)
    else:
        make_store(folder, {"MEMORY.md": "- [A](a.md) — a\n", "a.md": "---\nname: a\ndescription: a\ntype: user\n---\n\nx\n"})
    return folder


@pytest.fixture()
def home(tmp_path):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    work = tmp_path / "work"
    (work / "app").mkdir(parents=True)
    subprocess.run(["git", "init", "-q", "-b", "main", str(work / "app")], check=True, env=ENV)
    subprocess.run(["git", "-C", str(work / "app"), "commit", "-q", "--allow-empty", "-m", "x"], check=True, env=ENV)
    subprocess.run(["git", "-C", str(work / "app"), "worktree", "add", "-q", str(work / "app-feature")], check=True, env=ENV,
                   capture_output=True)
    (work / "other").mkdir()
    h = tmp_path / "home"
    return h, work


@needs_corpus
def test_lists_every_store_with_project_notes_load_and_flags(home):
    h, work = home
    main = claude_store(h, work / "app", CORPUS / "real" / "a-claude" / "1000ssam-claude-config")
    feat = claude_store(h, work / "app-feature")
    claude_store(h, work / "other")
    gone = claude_store(h, work / "deleted-project")
    nested_gone = claude_store(h, work / "app" / ".claude" / "worktrees" / "fix")
    doc = stores.document(str(h))
    by = {s["name"]: s for s in doc["stores"]}
    assert doc["format"] == "mmlint.stores/1" and len(by) == 5
    m = by[projects.encode(str(work / "app"))]
    assert m["project"] == str(work / "app") and m["exists"] and m["notes"] == 110
    assert m["index"]["lines"] == 249 and m["index"]["loadUsedPct"] == 125   # past the 200-line window
    assert m["lastChange"].endswith("Z")
    flags = {(s["name"], f["flag"]): f for s in doc["stores"] for f in s["flags"]}
    # the worktree's store and the main checkout's: one repository, merge the worktree's into the main one
    same = flags[(projects.encode(str(work / "app-feature")), "same-repository")]
    assert same["command"] == f"mmlint merge {feat} {main}"
    assert (projects.encode(str(work / "other")), "same-repository") not in flags
    # a gone project: flagged, with the naive guess, and a command to fill in
    g = by[projects.encode(str(work / "deleted-project"))]
    assert not g["exists"] and g["project"] is None and g["guess"].endswith("/deleted/project")
    assert flags[(g["name"], "project-gone")]["command"] == f"mmlint merge {gone} NEW_STORE"
    # a gone worktree inside a live project: merge it into that project's store
    ng = flags[(projects.encode(str(work / "app" / ".claude" / "worktrees" / "fix")), "project-gone")]
    assert ng["command"] == f"mmlint merge {nested_gone} {main}"


def test_cli_text_and_json(home):
    h, work = home
    claude_store(h, work / "app")
    claude_store(h, work / "vanished")
    p = subprocess.run([sys.executable, "-m", "mmlint", "stores", "--home", str(h)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "2 Claude Code stores" in p.stdout and "(decoded guess)" in p.stdout and "lossy" in p.stdout
    assert "project-gone" in p.stdout and "NEW_STORE" in p.stdout
    j = subprocess.run([sys.executable, "-m", "mmlint", "stores", "--home", str(h), "--format", "json"], capture_output=True, text=True)
    assert [s["exists"] for s in json.loads(j.stdout)["stores"]] == [True, False]


def test_no_projects_folder_is_an_empty_list(tmp_path):
    assert stores.document(str(tmp_path))["stores"] == []


def test_hostile_folder_names_are_escaped(tmp_path):
    bad = tmp_path / "home" / ".claude" / "projects" / "-x\x1b[31mred\nline" / "memory"
    make_store(bad, {"MEMORY.md": ""})
    p = subprocess.run([sys.executable, "-m", "mmlint", "stores", "--home", str(tmp_path / "home")], capture_output=True, text=True)
    assert p.returncode == 0 and "\x1b" not in p.stdout and "red\nline" not in p.stdout


def test_both_folder_name_spellings_decode(tmp_path):
    """Older Claude Code versions replace only separators (``-home-u-my.app``),
    newer ones every non-alphanumeric character (``-home-u-my-app``)."""
    proj = tmp_path / "my.app"
    proj.mkdir()
    seps_only = str(proj).replace("/", "-")
    assert "." in seps_only
    assert projects.decode_project(seps_only) == [str(proj)]
    assert projects.decode_project(projects.encode(str(proj))) == [str(proj)]
    assert projects.naive_decode("-home-u--claude-x") == "/home/u/.claude/x"


def test_a_home_that_is_not_a_folder_and_a_schema_export_that_cannot_be_written_exit_2(tmp_path):
    # found by a newcomer run: `stores --home /missing` said "0 Claude Code stores" with exit 0, and
    # `schema --export FILE` ended in a FileExistsError traceback
    import subprocess
    import sys

    (tmp_path / "file").write_text("x")
    for argv in (["stores", "--home", str(tmp_path / "missing")], ["schema", "--export", str(tmp_path / "file")]):
        proc = subprocess.run([sys.executable, "-m", "mmlint", *argv], capture_output=True, text=True)
        assert proc.returncode == 2 and proc.stderr.startswith("mmlint: ") and "Traceback" not in proc.stderr, proc.stderr
