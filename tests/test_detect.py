"""Dialect and profile detection, and the detect command."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import CORPUS, FIXTURES, needs_corpus
from mmlint import api


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("case,dialect,profile", [
    ("mm/basic", "mm", None),
    ("engramory/recall-v1", "engramory", "recall-v1"),
    ("engramory/upstream", "engramory", "upstream"),
    ("engramory/claude-code", "engramory", "claude-code"),
    ("workspace/basic", "workspace", None),
    ("workspace/plain-notes", "workspace", None),
])
def test_fixtures_are_detected(case, dialect, profile):
    name, prof, ev = api.choose(str(FIXTURES / case / "store"))
    assert (name, prof) == (dialect, profile)
    assert ev is not None and ev.reasons


@needs_corpus
def test_real_stores_detect_as_their_format():
    for root in sorted(CORPUS.glob("real/a-claude/*")):
        if (root / "MEMORY.md").exists():
            assert api.choose(str(root))[0] == "engramory", root
    assert api.choose(str(CORPUS / "real/b-mm/memory-standard-example"))[0] == "mm"


def test_detect_prints_dialect_profile_and_evidence():
    proc = run("detect", str(FIXTURES / "engramory/recall-v1/store"))
    assert proc.returncode == 0
    assert "engramory (profile recall-v1)" in proc.stdout
    assert "ledger .engramory-recall.jsonl" in proc.stdout


def test_detect_json():
    proc = run("detect", str(FIXTURES / "mm/basic/store"), "--format", "json")
    doc = json.loads(proc.stdout)
    assert doc["dialect"] == "mm" and doc["profile"] is None and doc["evidence"]


def test_unknown_store_exits_2(store):
    root = store({"notes.txt": "hello"})
    proc = run("detect", str(root))
    assert proc.returncode == 2
    assert "not a recognisable memory store" in proc.stderr
    assert "--dialect" in proc.stderr


def test_ambiguous_store_exits_2(store):
    # Equal evidence for mm (header lines) and workspace (projection title).
    root = store({"MEMORY.md": "# 记忆索引\n\n> mm-kind: index\n"})
    proc = run("detect", str(root))
    assert proc.returncode == 2
    assert "ambiguous" in proc.stderr and "mm" in proc.stderr and "workspace" in proc.stderr


def test_dialect_and_profile_override_detection():
    proc = run("detect", str(FIXTURES / "engramory/claude-code/store"), "--dialect", "engramory", "--profile", "upstream")
    assert proc.returncode == 0 and "profile upstream" in proc.stdout
    proc = run("check", str(FIXTURES / "engramory/claude-code/store"), "--profile", "upstream", "--format", "json")
    ids = {d["rule"]["id"] for d in json.loads(proc.stdout)["diagnostics"]}
    assert "F111" in ids  # upstream requires created/updated, which claude-code notes lack


def test_unknown_dialect_or_profile_is_a_usage_error():
    proc = run("detect", str(FIXTURES / "mm/basic/store"), "--dialect", "nope")
    assert proc.returncode == 2 and "known dialects: mm, engramory, workspace" in proc.stderr
    proc = run("check", str(FIXTURES / "mm/basic/store"), "--dialect", "engramory", "--profile", "nope")
    assert proc.returncode == 2 and "recall-v1, upstream, claude-code" in proc.stderr
