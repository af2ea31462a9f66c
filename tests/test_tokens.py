"""Token cost in ``mmlint budget``: what is loaded each session, per entry,
the documented estimate, and the optional exact count."""

from __future__ import annotations

import json
import subprocess
import sys
import types

import pytest

from conftest import CORPUS, make_store, needs_corpus
from mmlint import dialects, tokens

NOTE = "---\nname: n{0}\ndescription: note {0}\ntype: reference\n---\n\nbody {0}\n"


def read(root, dialect="engramory", profile="claude-code"):
    return dialects.get(dialect).read(str(root), profile)


def test_estimate_by_character_class():
    assert tokens.estimate("") == 0
    assert tokens.estimate("abcd" * 10) == 10          # ASCII: 4 per token
    assert tokens.estimate("你好世界") == 4              # CJK: 1 each
    assert tokens.estimate("한국어") == 3               # Hangul syllables: 1 each
    assert tokens.estimate("привет") == 3              # other scripts: 2 per token
    assert tokens.estimate("a你") == 2                  # each class rounds up


def test_claude_code_costs_only_the_load_window(tmp_path):
    lines = "".join(f"- [N{i}](n{i}.md) — the hook of note number {i}\n" for i in range(250))
    make_store(tmp_path, {"MEMORY.md": lines, **{f"n{i}.md": NOTE.format(i) for i in range(250)}})
    rep = tokens.report(read(tmp_path), {}, tokens.estimate, "estimate")
    assert rep["loadedLines"] == 200 and rep["indexLines"] == 250
    assert rep["alwaysLoaded"] == tokens.estimate("".join(lines.splitlines(keepends=True)[:200]))
    assert rep["alwaysLoaded"] < rep["indexTokens"]
    assert [e["loaded"] for e in rep["entries"]].count(True) == 200
    assert rep["entries"][0] == {"line": 1, "target": "n0.md", "tokens": tokens.estimate(lines.splitlines()[0] + "\n"), "loaded": True}
    # the window is configurable like X107's
    assert tokens.report(read(tmp_path), {"load_lines": 10}, tokens.estimate, "estimate")["loadedLines"] == 10


def test_upstream_loads_the_whole_index_and_workspace_nothing(tmp_path):
    make_store(tmp_path / "e", {"MEMORY.md": "# Memory Index\n\n- [A](a.md) — a\n", "a.md": NOTE.format("a")})
    rep = tokens.report(read(tmp_path / "e", profile="upstream"), {}, tokens.estimate, "estimate")
    assert rep["loadedLines"] == 3 and rep["alwaysLoaded"] == tokens.estimate("# Memory Index\n\n- [A](a.md) — a\n")
    ws = "# 记忆索引\n\n- 共 1 条记忆\n\n## 未分类\n\n- [甲](./甲.md) · 2026-10-08 · 1 B\n"
    make_store(tmp_path / "w", {"MEMORY.md": ws, "甲.md": "---\ntitle: 甲\n---\n\n正文\n"})
    rep = tokens.report(read(tmp_path / "w", "workspace", None), {}, tokens.estimate, "estimate")
    assert rep["alwaysLoaded"] == 0 and rep["loadedLines"] == 0 and rep["indexTokens"] > 0


@needs_corpus
def test_budget_json_carries_tokens_per_store_and_entry():
    store = CORPUS / "real" / "b-mm" / "memory-standard-example"
    p = subprocess.run([sys.executable, "-m", "mmlint", "budget", str(store), "--format", "json"], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    rep = json.loads(p.stdout)["stores"][0]
    tk = rep["tokens"]
    assert tk["method"] == "estimate" and tk["alwaysLoaded"] == tk["indexTokens"] > 0
    # an mm entry costs its whole section
    assert [e["target"] for e in tk["entries"]] == ["memories/project-intro.md", "memories/deployment.md"]
    assert all(e["tokens"] > 20 for e in tk["entries"])
    assert {n["path"]: n["indexTokens"] for n in rep["notes"]} == {e["target"]: e["tokens"] for e in tk["entries"]}
    text = subprocess.run([sys.executable, "-m", "mmlint", "budget", str(store)], capture_output=True, text=True).stdout
    assert f"tokens each session: {tk['alwaysLoaded']:,} (index lines 1-23 of 23; estimated)" in text


def test_exact_count_when_tiktoken_is_installed(monkeypatch):
    fake = types.ModuleType("tiktoken")
    fake.get_encoding = lambda name: types.SimpleNamespace(encode=lambda text, disallowed_special=(): text.split())
    monkeypatch.setitem(sys.modules, "tiktoken", fake)
    method, count = tokens.counter("tiktoken")
    assert method == "tiktoken:o200k_base" and count("a b c") == 3
    assert tokens.counter("tiktoken:cl100k_base")[0] == "tiktoken:cl100k_base"


def test_a_missing_tokenizer_is_a_usage_error(monkeypatch, tmp_path, capsys):
    from mmlint import cli

    monkeypatch.setitem(sys.modules, "tiktoken", None)
    with pytest.raises(tokens.TokenizerUnavailable, match="not installed"):
        tokens.counter("tiktoken")
    with pytest.raises(tokens.TokenizerUnavailable, match="unknown tokenizer"):
        tokens.counter("sentencepiece")
    make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — a\n", "a.md": NOTE.format("a")})
    assert cli.main(["budget", str(tmp_path), "--tokenizer", "tiktoken"]) == 2
    assert "tiktoken is not installed" in capsys.readouterr().err
