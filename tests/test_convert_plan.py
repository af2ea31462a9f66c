"""What ``mmlint convert`` shows and keeps: the plan (files, budget use,
carriers, fills, losses, refusals) as a table and as JSON, auxiliary files
travelling verbatim, values only one dialect holds, ``--allow-loss``, and
carriers surviving a note rewritten the Claude Code way."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

from conftest import FIXTURES, ROOT, tree_bytes
from mmlint import convert, dialects
from mmlint.model import semantic

CC = {"type": "reference", "summary": "imported"}


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True, **kw)


def _read(root, dialect, profile=None):
    return dialects.get(dialect).read(str(root), profile)


# ---------------------------------------------------------------- auxiliary files


def test_archives_and_ledgers_travel_verbatim_and_come_back(tmp_path):
    root = FIXTURES / "engramory/recall-v1/store"
    src = _read(root, "engramory", "recall-v1")
    rt = convert.round_trip(src, str(tmp_path), "engramory", "upstream")
    assert rt.ok, rt.changed
    files = rt.there.files
    assert files[".engramory-recall.jsonl"].kind == "aux"
    parked = files[".mmlint-aux/project-memory-system-choice-history.md"]
    assert (parked.kind, parked.source) == ("aux", "project-memory-system-choice-history.md")
    assert (".mmlint-aux/project-memory-system-choice-history.md", "file") in rt.there.carriers
    back = tree_bytes(tmp_path / "a")
    for name in (".engramory-recall.jsonl", "project-memory-system-choice-history.md"):
        assert back[name] == (root / name).read_bytes()


def test_readme_and_unknown_files_of_an_mm_store_travel(store, tmp_path):
    odd = b"\xff\xfe not utf-8 \x00"
    root = store({"MEMORY.md": "# MEMORY.md\n\n> mm-kind: index\n## a\n- **summary:** s\n- **file:** memories/a.md\n",
                  "memories/a.md": "# a\n\n> mm-topic: a\n\nbody\n", "README.md": "# About this store\n",
                  "data/blob.bin": odd})
    src = _read(root, "mm")
    for target, profile in (("engramory", "claude-code"), ("workspace", None)):
        out = tmp_path / target
        rt = convert.round_trip(src, str(out), target, profile, CC)
        assert rt.ok, (target, rt.changed)
        there = tree_bytes(out / "b")
        readme = "README.md" if target == "engramory" else ".mmlint-aux/README.md"  # workspace reads every .md as a note
        assert there[readme] == b"# About this store\n" and there["data/blob.bin"] == odd
        kinds = {p: (f.kind, f.source) for p, f in rt.there.files.items()}
        assert kinds[readme] == ("aux", "README.md")
        assert kinds["data/blob.bin"] == ("aux", "data/blob.bin")
        back = tree_bytes(out / "a")
        assert back["README.md"] == b"# About this store\n" and back["data/blob.bin"] == odd


def test_a_file_named_like_a_carrier_is_parked_not_mistaken(store, tmp_path):
    root = store({"MEMORY.md": "# Memory Index\n- [A](a.md)\n", "a.md": "---\nname: a\ndescription: d\ntype: user\n---\nA\n",
                  ".mmlint-index-lines.txt": "mine, not a carrier\n"})
    rt = convert.round_trip(_read(root, "engramory", "claude-code"), str(tmp_path), "workspace")
    assert rt.ok and rt.there.files[".mmlint-aux/.mmlint-index-lines.txt"].kind == "aux"
    assert tree_bytes(tmp_path / "a")[".mmlint-index-lines.txt"] == b"mine, not a carrier\n"


def test_other_tools_folders_are_listed_as_not_copied(store, tmp_path):
    root = store({"MEMORY.md": "# Memory Index\n- [A](a.md)\n", "a.md": "---\nname: a\ndescription: d\ntype: user\n---\nA\n",
                  ".git/HEAD": "ref: refs/heads/main\n"})
    plan = convert.plan_conversion(_read(root, "engramory", "claude-code"), tmp_path / "o", "workspace")
    assert plan.ok and plan.not_copied == [(".git", "folder .git/ not walked: another tool's folder")]
    assert not (tmp_path / "o" / ".git").exists()


# ---------------------------------------------------------------- refusals and losses


def test_mm_only_values_are_refused_unless_allowed(store, tmp_path):
    root = store({"MEMORY.md": "# MEMORY.md\n\n> mm-id: team\n> mm-kind: index\n## a\n- **file:** notes/a.md\n",
                  "notes/a.md": "# a\n\n> mm-topic: a\n\nbody\n"})
    src = _read(root, "mm")
    plan = convert.plan_conversion(src, tmp_path / "o", "workspace")
    got = sorted((r.code, r.path, r.field) for r in plan.refusals)
    assert got == [("E_UNREPRESENTABLE", "MEMORY.md", "memory_id"), ("E_UNREPRESENTABLE", "notes/a.md", "file")]
    assert "--allow-loss memory_id" in plan.refusals[0].message + plan.refusals[1].message
    assert not (tmp_path / "o").exists()
    plan = convert.plan_conversion(src, tmp_path / "o", "workspace", allow_loss={"memory_id", "file"})
    assert plan.written and sorted(plan.losses) == [("MEMORY.md", "memory_id", "team"), ("notes/a.md", "file", "notes/a.md")]


def test_cli_allow_loss_lists_every_dropped_value(store, tmp_path):
    # YAML (Claude Code) cannot hold a value with both quotes and a backslash
    root = store({"MEMORY.md": "# MEMORY.md\n\n> mm-kind: index\n" + "".join(
        f"## t{i}\n- **summary:** s{i}\n- **updated:** \"it's\" \\ {i}\n- **file:** memories/t{i}.md\n" for i in range(3)),
        **{f"memories/t{i}.md": f"# t{i}\n\n> mm-topic: t{i}\n\nbody {i}\n" for i in range(3)}})
    proc = _cli("convert", str(root), str(tmp_path / "o"), "--to", "engramory", "--profile", "claude-code", "--default", "type=reference", "--format", "json")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 1 and {(r["field"], r["code"]) for r in doc["refusals"]} == {("updated", "E_UNREPRESENTABLE")}
    proc = _cli("convert", str(root), str(tmp_path / "o"), "--to", "engramory", "--profile", "claude-code", "--default", "type=reference", "--allow-loss", "updated,scope", "--format", "json")
    doc = json.loads(proc.stdout)
    assert proc.returncode == 0 and doc["written"]
    assert doc["losses"] == [{"path": f"memories/t{i}.md", "field": "updated", "value": f"\"it's\" \\ {i}"} for i in range(3)]
    text = _cli("convert", str(root), str(tmp_path / "o2"), "--to", "engramory", "--profile", "claude-code", "--default", "type=reference", "--allow-loss", "updated").stdout
    assert text.count("loss (allowed): memories/t") == 3 and "t2.md: updated was '\"it\\'s\" \\\\ 2'" in text


def test_index_overflow_names_the_notes_past_the_cap(store, tmp_path):
    files = {"MEMORY.md": "# Memory Index\n" + "".join(f"- [N{i}](n{i:02d}.md)\n" for i in range(40))}
    for i in range(40):
        files[f"n{i:02d}.md"] = f"---\nname: n{i}\ndescription: d\ntype: reference\n---\n\nbody\n"
    plan = convert.plan_conversion(_read(store(files), "engramory", "claude-code"), tmp_path / "o", "mm")
    r = plan.refusals[-1]
    usage = r.usage["index"]
    # 8 header lines, then 7 lines an entry (## topic, summary, file, two carriers,
    # a blank); entry k ends on line 15 + 7k, so entries 27..39 end past line 200
    assert usage["lines"] == 8 + 40 * 7 and usage["overflowLines"] == usage["lines"] - 200
    assert usage["pastCap"] == [f"n{i:02d}.md" for i in range(27, 40)]
    assert "13 note(s) would fall past the cap: n27.md, n28.md, n29.md, n30.md, n31.md and 8 more" in r.message


def test_refusals_are_in_mm_priority_and_name_note_and_field(store, tmp_path):
    files = {"MEMORY.md": "# Memory Index\n" + "".join(f"- [N{i}](n{i:02d}.md)\n" for i in range(30))}
    for i in range(30):
        files[f"n{i:02d}.md"] = f"---\nname: n{i}\ndescription: d\ntype: reference\n---\n\n" + ("é" * 40000 if i == 3 else "b") + "\n"
    plan = convert.plan_conversion(_read(store(files), "engramory", "claude-code"), tmp_path / "o", "mm")
    assert [(r.code, r.path, r.field) for r in plan.refusals] == [
        ("E_WRITE_BUDGET_EXCEEDED", "n03.md", "body"), ("E_FILE_BUDGET_EXCEEDED", "n03.md", "body"),
        ("E_INDEX_BUDGET_EXCEEDED", "MEMORY.md", None)]
    assert plan.refusals[0].usage == {"bodyChars": 40000, "writeBudget": 4000, "overflow": 36000}  # the body as the reference reads it back
    big = plan.refusals[1].usage
    assert big["noteBytes"] > 65536 and big["noteMaxBytes"] == 65536
    assert not (tmp_path / "o").exists()


# ---------------------------------------------------------------- the plan as a table and as JSON


def test_dry_run_plan_shows_files_budget_use_and_carriers(tmp_path):
    root = FIXTURES / "workspace/basic/store"
    text = _cli("convert", str(root), str(tmp_path / "o"), "--to", "mm", "--dry-run")
    assert text.returncode == 0 and not (tmp_path / "o").exists()
    lines = text.stdout.splitlines()
    assert re.match(r"^files to write: \d+ \(\d+ bytes\):$", lines[1])
    assert re.match(r"^  kind +bytes +path +from +budget use$", lines[2])
    assert any(re.match(r"^  index +\d+ +MEMORY\.md +\d+/200 lines, \d+/25600 B$", ln) for ln in lines)
    assert any(re.match(r"^  note +\d+ +memories/xn--.*\.md +用户偏好用-pnpm\.md +\d+/4000 chars \(\d+%\), \d+/65536 B$", ln)
               for ln in lines)
    assert any(re.match(r"^  mmlint-slug +MEMORY\.md +[1-9]$", ln) for ln in lines)
    assert any(re.match(r"^  mmlint-category +MEMORY\.md +2$", ln) for ln in lines)
    doc = json.loads(_cli("convert", str(root), str(tmp_path / "o"), "--to", "mm", "--dry-run", "--format", "json").stdout)
    assert doc["dryRun"] and doc["ok"] and not doc["written"] and doc["source"]["notes"] == 5
    table = lines[3:lines.index("carriers (fields the target holds in mmlint-* keys or files):")]
    shown = [ln.split()[2] for ln in table]
    assert [f["path"] for f in doc["files"]] == shown
    alpha = next(f for f in doc["files"] if f["source"] == "部署注意事项.md")
    assert alpha["kind"] == "note" and set(alpha["usage"]) == {"bodyChars", "writeBudget", "budgetUsedPct", "noteBytes", "noteMaxBytes"}
    assert {"path": "MEMORY.md", "key": "mmlint-slug"} in doc["carriers"]


def test_plan_escapes_store_text(store, tmp_path):
    root = store({"MEMORY.md": "# 记忆索引\n", "evil\nrefused: E_FAKE.md": "x\n"})
    out = _cli("convert", str(root), str(tmp_path / "o"), "--to", "engramory", "--default", "type=user",
               "--default", "description=d", "--dry-run").stdout
    assert "\nrefused: E_FAKE" not in out and "evil\\nrefused: E_FAKE.md" in out


def test_progress_shows_on_a_terminal_for_large_stores_only(store, tmp_path):
    import pty

    files = {"MEMORY.md": "# Memory Index\n"}
    files.update({f"n{i}.md": f"---\nname: n{i}\ndescription: d\ntype: user\n---\nnote {i}\n" for i in range(201)})
    root = store(files)
    args = [sys.executable, "-m", "mmlint", "convert", str(root), str(tmp_path / "o"), "--to", "workspace"]
    plain = subprocess.run(args, capture_output=True, text=True)
    assert plain.returncode == 0 and plain.stderr == ""  # no terminal: no progress
    master, slave = pty.openpty()
    proc = subprocess.Popen(args[:5] + [str(tmp_path / "o2")] + args[6:], stdout=subprocess.DEVNULL, stderr=slave,
                            env={**os.environ, "TERM": "xterm", "COLUMNS": "100"})
    os.close(slave)
    seen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    assert proc.wait() == 0
    os.close(master)
    assert any(word in seen for word in (b"render", b"write", b"verify")), seen[:300]  # the bar, with its step


# ---------------------------------------------------------------- Claude Code rewrites a converted note


def _claude_code_rewrite(text: str) -> str:
    """What Claude Code does to a note it writes: keys other than ``name`` and
    ``description`` move under ``metadata:``, and it adds its own keys."""
    head, body = text.split("\n---\n", 1)
    lines = head.split("\n")[1:]
    top = [ln for ln in lines if ln.split(":", 1)[0] in ("name", "description")]
    moved = ["  " + ln for ln in lines if ln not in top]
    meta = ["metadata:", "  node_type: memory"] + moved + ["  originSessionId: 0f3c9a1e-0000-4000-8000-000000000009"]
    return "\n".join(["---"] + top + meta + ["---", body])


def test_carriers_survive_claude_code_moving_them_under_metadata(tmp_path):
    src = _read(FIXTURES / "mm/basic/store", "mm")
    there = convert.plan_conversion(src, tmp_path / "cc", "engramory", "claude-code", CC)
    assert there.written
    rewritten = 0
    for path in (tmp_path / "cc").rglob("*.md"):
        if path.name == "MEMORY.md":
            continue
        text = path.read_text()
        new = _claude_code_rewrite(text)
        assert "\n  mmlint-" in new or "mmlint-" not in text
        rewritten += "mmlint-" in text
        path.write_text(new)
    assert rewritten == 3
    mid = _read(tmp_path / "cc", "engramory", "claude-code")
    back = convert.plan_conversion(mid, tmp_path / "mm", "mm")
    assert back.written, [r.message for r in back.refusals]
    want, got = semantic(src), semantic(_read(tmp_path / "mm", "mm"))
    for slug, note in got["notes"].items():
        added = note["extra"].pop("metadata")
        assert added == {"node_type": "memory", "originSessionId": "0f3c9a1e-0000-4000-8000-000000000009"}
        for path, fname, value in there.fills:
            if src.note_at(path).slug == slug:
                want["notes"][slug][fname] = value
    assert got == want


def test_bad_bytes_convert_and_the_json_plan_stays_valid(tmp_path):
    root = tmp_path / "src"
    root.mkdir()
    (root / "MEMORY.md").write_bytes(b"# Memory Index\n- [A](a.md)\n")
    (root / "a.md").write_bytes(b"---\nname: a\ndescription: d \xff\xfe bad\ntype: user\n---\nbody \xc3\x28 bad\n")
    (root / os.fsdecode(b"b\xffz.md")).write_bytes(b"x\n")
    for target in ("mm", "workspace"):
        proc = subprocess.run([sys.executable, "-m", "mmlint", "convert", str(root), str(tmp_path / target), "--to", target,
                               "--format", "json", "--default", "description=d"], capture_output=True)
        assert proc.returncode == 0 and proc.stderr == b""
        doc = json.loads(proc.stdout.decode("utf-8"))  # strict UTF-8: valid JSON text
        assert doc["written"] and os.fsdecode(b"b\xffz.md") in [f["source"] for f in doc["files"]]
        rt = convert.round_trip(_read(root, "engramory", "claude-code"), str(tmp_path / f"rt-{target}"), target, None, CC)
        assert rt.ok, rt.changed


def test_index_cap_refusal_finds_the_entries_where_the_mm_reader_does():
    """The mm budget check takes entries' first lines from
    :func:`mmlint.dialects.mm.entry_starts` (it does not read the entries):
    the same lines and topics as :func:`mmlint.dialects.mm.read_index`, on
    every mm index of the fixtures and on odd line ends."""
    from mmlint.dialects import mm

    texts = [p.read_bytes() for p in FIXTURES.glob("mm/**/MEMORY.md")]
    texts += [p.read_bytes() for p in (ROOT.parent / "shared/corpus").glob("**/MEMORY.md")]
    for fixture, profile in (("workspace/basic/store", None), ("engramory/upstream/store", "upstream")):
        texts.append(mm.render(_read(FIXTURES / fixture, fixture.split("/")[0], profile))["MEMORY.md"])
    texts += [b"\xef\xbb\xbf## a\r\n- **summary:** s\r\n##b\n##  c d \n ## e\n## \n#### f\n## g\rx\n"]
    assert len(texts) > 3
    for data in texts:
        _, entries, _ = mm.read_index("MEMORY.md", data)
        assert mm.entry_starts(data) == [(e["line"], e["topic"]) for e in entries], data[:80]


def test_json_plan_is_written_as_json_dumps_writes_it(store, tmp_path):
    """``--format json`` writes the plan item by item: the same text as
    ``json.dumps(plan_json(...), indent=2)``, for plans with files,
    carriers, fills, losses, refusals with usage, empty lists and bytes
    that are not UTF-8."""
    import io

    from mmlint.reporters.plan import plan_json, write_plan_json

    odd = store({"MEMORY.md": "# Memory Index\n\n- [a](a.md) — h\n", "a.md": b"---\nname: a\ndescription: \xff\n---\n\nx\n"})
    plans = [convert.plan_conversion(_read(FIXTURES / "engramory/upstream/store", "engramory", "upstream"), str(tmp_path / "w"),
                                     "workspace", dry_run=True),
             convert.plan_conversion(_read(FIXTURES / "workspace/basic/store", "workspace"), str(tmp_path / "e"), "engramory",
                                     "upstream", dry_run=True),
             convert.plan_conversion(_read(FIXTURES / "mm/basic/store", "mm"), str(tmp_path / "c"), "engramory", "claude-code",
                                     {"type": "user"}, {"memory_id", "file"}, dry_run=True),
             convert.plan_conversion(_read(odd, "engramory", "upstream"), str(tmp_path / "o"), "workspace", dry_run=True)]
    assert any(p.refusals for p in plans) and any(p.fills for p in plans) and any(p.carriers for p in plans)
    for plan in plans:
        for dry in (True, False):
            out = io.StringIO()
            write_plan_json(plan, dry, out)
            want = json.dumps(plan_json(plan, dry), ensure_ascii=False, indent=2)
            assert out.getvalue() == want.encode("utf-8", "backslashreplace").decode("utf-8") + "\n"


def test_text_report_cuts_long_usage_lists_and_escapes_them(store, tmp_path):
    """The text report of an index over its cap named every note past it on
    one usage line (1,800 names for a 2,000-note merge), and printed a name's
    bidi control raw; it shows five and a count, escaped. JSON keeps all."""
    from mmlint.reporters.plan import usage_text

    files = {"MEMORY.md": "# Memory Index\n" + "".join(f"- [N{i}](n{i:02d}.md)\n" for i in range(40))}
    for i in range(40):
        files[f"n{i:02d}.md"] = f"---\nname: n{i}\ndescription: d\ntype: reference\n---\n\nbody\n"
    out = _cli("convert", str(store(files)), str(tmp_path / "o"), "--to", "mm", "--dry-run").stdout
    usage = next(line for line in out.splitlines() if line.startswith("  usage: "))
    assert '"pastCap": ["n27.md", "n28.md", "n29.md", "n30.md", "n31.md", "… 8 more"]' in usage
    assert usage_text({"pastCap": ["a\u202eb.md"]}) == '{"pastCap": ["a\\u202eb.md"]}'
    doc = json.loads(_cli("convert", str(store(files)), str(tmp_path / "p"), "--to", "mm", "--dry-run",
                          "--format", "json").stdout)
    assert len(next(r for r in doc["refusals"] if r.get("usage"))["usage"]["index"]["pastCap"]) == 13
