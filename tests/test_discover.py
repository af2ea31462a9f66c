"""Finding the store when no PATH is given (mm spec §2, Claude Code's layout)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from mmlint.discover import NoStore, claude_project_dirs, expand_env, expand_home, find_store, mm_root


def test_mm_root_precedence(tmp_path):
    home = str(tmp_path / "home")
    assert mm_root({}, home) == os.path.join(home, ".dsh", "memory")
    assert mm_root({"DSH_HOME": "/opt/dsh"}, home) == "/opt/dsh/memory"
    assert mm_root({"DSH_HOME": "/opt/dsh", "DSH_MEMORY_ROOT": "/srv/mem"}, home) == "/srv/mem"
    assert mm_root({"DSH_MEMORY_ROOT": "  "}, home) == os.path.join(home, ".dsh", "memory")


def test_mm_root_expands_tilde_and_variables(tmp_path):
    home = str(tmp_path / "home")
    env = {"DSH_MEMORY_ROOT": "~/m/$TEAM/${KIND}", "TEAM": "core", "KIND": "notes"}
    assert mm_root(env, home) == os.path.join(home, "m", "core", "notes")
    assert expand_env("$UNSET/x", {}) == "/x"
    assert expand_home("~user/x", home) == "~user/x"
    assert mm_root({"DSH_HOME": "~"}, home) == os.path.join(home, "memory")


def test_claude_project_folder_names():
    dirs = claude_project_dirs("/home/me/my.project", "/h")
    assert dirs[0] == "/h/.claude/projects/-home-me-my.project/memory"
    assert dirs[1] == "/h/.claude/projects/-home-me-my-project/memory"


def test_order_current_folder_then_workspace_then_claude_then_mm(tmp_path):
    home = tmp_path / "home"
    proj = tmp_path / "proj"
    proj.mkdir()
    env = {"DSH_MEMORY_ROOT": str(tmp_path / "mmroot")}
    (tmp_path / "mmroot").mkdir()
    (tmp_path / "mmroot" / "MEMORY.md").write_text("# MEMORY.md\n")
    assert find_store(str(proj), env, str(home)).path == str(tmp_path / "mmroot")
    cc = home / ".claude" / "projects" / str(proj).replace("/", "-") / "memory"
    cc.mkdir(parents=True)
    (cc / "MEMORY.md").write_text("- [a](a.md)\n")
    assert find_store(str(proj), env, str(home)).path == str(cc)
    (proj / "memory").mkdir()
    (proj / "memory" / "a.md").write_text("x")
    found = find_store(str(proj), env, str(home))
    assert found.path == str(proj / "memory") and "workspace" in found.how
    (proj / "MEMORY.md").write_text("# Memory Index\n")
    assert find_store(str(proj), env, str(home)).path == str(proj)


def test_nothing_found_lists_every_place(tmp_path):
    with pytest.raises(NoStore) as exc:
        find_store(str(tmp_path), {"DSH_MEMORY_ROOT": str(tmp_path / "none")}, str(tmp_path / "home"))
    places = [p for _, p in exc.value.looked]
    assert str(tmp_path) in places and str(tmp_path / "none") in places
    assert any(".claude/projects" in p for p in places)


def test_cli_without_path_says_which_store_it_took(tmp_path):
    (tmp_path / "memory").mkdir()
    (tmp_path / "memory" / "MEMORY.md").write_text("# 记忆索引\n\n- 共 0 条记忆\n", encoding="utf-8")
    env = dict(os.environ, HOME=str(tmp_path / "home"), DSH_MEMORY_ROOT=str(tmp_path / "none"))
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 0, proc.stderr
    assert f"using {tmp_path / 'memory'} (a workspace store at ./memory/)" in proc.stderr


def test_cli_without_store_exits_2_listing_places(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path / "home"), DSH_MEMORY_ROOT=str(tmp_path / "none"))
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check"], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert proc.returncode == 2
    assert "no memory store found; looked in:" in proc.stderr
    assert str(tmp_path / "none") in proc.stderr
