"""Reading then writing the same dialect reproduces every file byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from conftest import corpus_stores, fixture_stores, needs_corpus, store_id, tree_bytes
from mmlint import api, dialects

EXAMPLE = Path(__import__("mmlint.example", fromlist=["x"]).__file__).parent / "store"


def _render_same(root: Path) -> tuple[dict[str, bytes], dict[str, bytes]]:
    name, profile, _ = api.choose(str(root))
    mod = dialects.get(name)
    store = mod.read(str(root), profile)
    return tree_bytes(root), mod.render(store, profile)


@needs_corpus
@pytest.mark.parametrize("root", corpus_stores(), ids=store_id)
def test_corpus_store_round_trips_byte_for_byte(root):
    original, written = _render_same(root)
    assert written == original


@pytest.mark.parametrize("root", fixture_stores() + [EXAMPLE], ids=store_id)
def test_fixture_store_round_trips_byte_for_byte(root):
    original, written = _render_same(root)
    assert written == original


def _cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True, cwd=cwd)


@needs_corpus
@pytest.mark.parametrize("root", corpus_stores(), ids=store_id)
def test_cli_convert_to_own_dialect_is_byte_exact(root, tmp_path):
    name, profile, _ = api.choose(str(root))
    dst = tmp_path / "out"
    args = ["convert", str(root), str(dst), "--to", name]
    if profile:
        args += ["--profile", profile]
    proc = _cli(*args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert tree_bytes(dst) == tree_bytes(root)


@pytest.mark.parametrize("root", fixture_stores(), ids=store_id)
def test_cli_convert_fixture_to_own_dialect_is_byte_exact(root, tmp_path):
    name, profile, _ = api.choose(str(root))
    dst = tmp_path / "out"
    args = ["convert", str(root), str(dst), "--to", name] + (["--profile", profile] if profile else [])
    proc = _cli(*args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert tree_bytes(dst) == tree_bytes(root)


@pytest.mark.parametrize("dialect", ["engramory", "mm", "workspace"])
def test_crlf_bom_and_trailing_spaces_survive(dialect, store):
    if dialect == "engramory":
        files = {"MEMORY.md": "\ufeff# Memory Index\r\n\r\n- [A](a.md) — hook  \r\n",
                 "a.md": "\ufeff---\r\nname: a \r\ndescription: 'quoted: value'\r\ntype: reference\r\n---\r\nbody  \r\n"}
    elif dialect == "mm":
        files = {"MEMORY.md": "# MEMORY.md\r\n\r\n> mm-id: local\r\n> mm-kind: index\r\n## a\r\n- **summary:** s  \r\n- **file:** memories/a.md\r\n",
                 "memories/a.md": "# a\r\n\r\n> mm-topic: a\r\n\r\nbody  \r\n"}
    else:
        files = {"MEMORY.md": "# 记忆索引\r\n\r\n- [甲](./甲.md) · 1 B\r\n",
                 "甲.md": "\ufeff---\r\ntitle: 甲 \r\ntags: a,b\r\n---\r\n\r\n正文  \r\n"}
    root = store(files)
    mod = dialects.get(dialect)
    st = mod.read(str(root), None)
    assert mod.render(st, None) == tree_bytes(root)
