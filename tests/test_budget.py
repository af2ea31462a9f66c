"""``mmlint budget``: the mm spec's budget() fields for every dialect."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import CORPUS, indexed_notes, make_store, modules_after, needs_corpus

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import CC, ENG, MM, MM_INDEX, WS, N, idx, with_  # noqa: E402


def run(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True, cwd=cwd,
                          env=dict(os.environ, NO_COLOR="1"))


def budget(root: Path, *extra: str) -> dict:
    proc = run("budget", str(root), "--format", "json", *extra)
    doc = json.loads(proc.stdout)
    assert doc["format"] == "mmlint.budget/1" and len(doc["stores"]) == 1
    s = doc["stores"][0]
    over = (s["index"] or {}).get("overBudget") or any(n["overBudget"] for n in s["notes"])
    assert proc.returncode == (1 if over else 0), proc.stderr  # exit 1 exactly when over a hard cap
    return s


def test_mm_fields_and_key_order(tmp_path):
    s = budget(make_store(tmp_path / "s", MM))
    assert list(s) == ["path", "dialect", "profile", "index", "notes", "anomalies", "tokens"]
    data = MM_INDEX.encode()
    assert s["index"] == {"entries": 1, "lines": MM_INDEX.count("\n"), "bytes": len(data), "lineCap": 200, "byteCap": 25600,
                          "overBudget": False, "overflowLines": 0, "overflowBytes": 0}
    assert list(s["index"]) == ["entries", "lines", "bytes", "lineCap", "byteCap", "overBudget", "overflowLines", "overflowBytes"]
    note = s["notes"][0]
    assert list(note) == ["path", "slug", "bodyChars", "noteBytes", "writeBudget", "budgetUnit", "budgetUsedPct", "overBudget", "indexTokens"]
    assert note["path"] == "memories/alpha.md" and note["slug"] == "alpha"
    assert note["bodyChars"] == 5 and note["writeBudget"] == 4000 and note["budgetUnit"] == "bodyChars"
    assert note["budgetUsedPct"] == 0
    assert s["anomalies"] == {"danglingEntries": 0, "orphanFiles": []}


@pytest.mark.parametrize("chars, budget_, pct", [(1, 200, 1), (1, 201, 0), (3, 8, 38), (2, 8, 25), (9, 8, 100), (0, 8, 0)])
def test_used_percent_rounds_half_up_and_clamps(tmp_path, chars, budget_, pct):
    index = MM_INDEX.replace("5/4000", f"{chars}/{budget_}")
    note = "# alpha\n\n> mm-id: local\n> mm-topic: alpha\n\n" + "x" * chars + "\n"
    s = budget(make_store(tmp_path / "s", with_(MM, MEMORY_DOT_md=index, **{"memories/alpha.md": note})))
    assert s["notes"][0]["budgetUsedPct"] == pct


def test_mm_default_write_budget_comes_from_caps(tmp_path):
    root = make_store(tmp_path / "s", with_(MM, MEMORY_DOT_md=MM_INDEX.replace("- **budget:** 5/4000\n", "")))
    assert budget(root)["notes"][0]["writeBudget"] == 4000
    (tmp_path / ".mmlint.toml").write_text("[caps]\nwrite_budget = 10\nindex_lines = 3\n", encoding="utf-8")
    s = budget(root)
    assert s["notes"][0]["writeBudget"] == 10 and s["notes"][0]["budgetUsedPct"] == 50
    assert s["notes"][0]["overBudget"] is False
    assert s["index"]["lineCap"] == 3 and s["index"]["overBudget"] is True
    assert s["index"]["overflowLines"] == s["index"]["lines"] - 3
    assert budget(root, "--isolated")["index"]["lineCap"] == 200


def test_engramory_profiles(tmp_path):
    s = budget(make_store(tmp_path / "up", ENG))
    note = s["notes"][0]
    assert (s["dialect"], s["profile"]) == ("engramory", "upstream")
    assert note["budgetUnit"] == "noteBytes" and note["writeBudget"] == 4 * 1024 * 1024
    assert note["noteBytes"] == len(ENG["a.md"].encode())
    assert s["index"]["lineCap"] == 200 and s["index"]["byteCap"] == 25600
    s = budget(make_store(tmp_path / "cc", CC))
    assert s["profile"] == "claude-code" and s["index"]["byteCap"] == 25000
    assert s["notes"][0]["writeBudget"] is None and s["notes"][0]["budgetUsedPct"] is None


def test_workspace_has_no_index_caps(tmp_path):
    s = budget(make_store(tmp_path / "s", WS))
    assert s["index"]["lineCap"] is None and s["index"]["overBudget"] is False and s["index"]["overflowBytes"] == 0
    note = s["notes"][0]
    assert note["budgetUnit"] == "bodyBytes" and note["writeBudget"] == 262144
    assert note["path"] == "甲.md" and note["bodyChars"] == 2


def test_anomalies(tmp_path):
    files = with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) — hook", "- [Gone](gone.md) — x", "- [W](https://example.com/w.md)"),
                  **{"b.md": N("b"), "sub/c.md": N("c")})
    s = budget(make_store(tmp_path / "s", files))
    assert s["anomalies"] == {"danglingEntries": 1, "orphanFiles": ["b.md", "sub/c.md"]}
    assert s["index"]["entries"] == 3


def test_store_without_index(tmp_path):
    s = budget(make_store(tmp_path / "s", with_(ENG, MEMORY_DOT_md=None)), "--dialect", "engramory")
    assert s["index"] is None and s["anomalies"]["orphanFiles"] == ["a.md"]


def test_plain_table(tmp_path):
    root = make_store(tmp_path / "s", MM)
    proc = run("budget", str(root), cwd=tmp_path)
    assert proc.returncode == 0 and "\x1b[" not in proc.stdout
    lines = proc.stdout.splitlines()
    assert lines[0] == "s: mm"
    assert any(line.startswith("index:") and "lines" in line and "/200" in line for line in lines)
    header = next(line for line in lines if line.startswith("note"))
    assert header.split() == ["note", "body", "chars", "note", "bytes", "budget", "used", "index", "tokens"]
    assert any(line.startswith("memories/alpha.md") and line.split()[-2] == "0%" for line in lines)


def test_bad_paths_and_config_exit_2(tmp_path):
    assert run("budget", str(tmp_path / "nope")).returncode == 2
    root = make_store(tmp_path / "s", MM)
    (tmp_path / ".mmlint.toml").write_text("caps = 3\n", encoding="utf-8")
    proc = run("budget", str(root))
    assert proc.returncode == 2 and ": caps:" in proc.stderr


@needs_corpus
def test_real_store_over_both_caps():
    s = budget(CORPUS / "real/a-claude/1000ssam-claude-config")
    assert s["index"]["lines"] == 249 and s["index"]["lineCap"] == 200
    assert s["index"]["overBudget"] is True and s["index"]["overflowLines"] == 49 and s["index"]["overflowBytes"] == 2756
    assert len(s["notes"]) == 110


@needs_corpus
def test_mm_reference_example():
    s = budget(CORPUS / "mm/reference-example")
    assert s["dialect"] == "mm" and s["anomalies"]["danglingEntries"] == 0
    assert all(n["budgetUnit"] == "bodyChars" for n in s["notes"])


def test_json_budget_imports_no_rich(tmp_path):
    root = make_store(tmp_path / "s", MM)
    assert "rich" not in modules_after(["budget", str(root), "--format", "json"])


def test_budget_exits_1_over_a_hard_cap_and_marks_the_note(tmp_path):
    root = make_store(tmp_path / "s", with_(MM, MEMORY_DOT_md=MM_INDEX.replace("- **budget:** 5/4000\n", "")))
    assert run("budget", str(root)).returncode == 0
    (tmp_path / ".mmlint.toml").write_text("[caps]\nwrite_budget = 3\n", encoding="utf-8")
    proc = run("budget", str(root))
    assert proc.returncode == 1 and "100% OVER" in proc.stdout
    assert budget(root)["notes"][0]["overBudget"] is True


#: A user note of ``indexed_notes`` stores.
_NOTE = "---\nname: n{0}\ndescription: d\ntype: user\n---\n\nFact {0}.\n"


def test_the_table_marks_notes_whose_pointers_lie_past_the_load_window(tmp_path):
    # found by a newcomer: the JSON said "loaded": false, the table showed them like the others
    root = indexed_notes(tmp_path / "s", 205, _NOTE.format)
    out = run("budget", str(root), "--profile", "claude-code", cwd=tmp_path).stdout
    marked = sorted(line.split()[0] for line in out.splitlines() if line.endswith(" not loaded"))
    assert marked == sorted(f"n{i}.md" for i in range(200, 205))
    assert "not loaded: the pointers of 5 notes lie past the load window" in out


def test_the_not_loaded_line_counts_notes_only(tmp_path):
    # found by review: dangling targets past the window were counted as notes
    root = indexed_notes(tmp_path / "s", 203, _NOTE.format)
    with open(root / "MEMORY.md", "a", encoding="utf-8") as fh:
        fh.write("- [Gone](gone.md) — x\n")
    out = run("budget", str(root), "--profile", "claude-code", cwd=tmp_path).stdout
    assert "not loaded: the pointers of 3 notes lie past the load window" in out
