"""``mmlint convert``: same-dialect copies, refusals with metrics, safe writes, the CLI.
(A->B->A over every store is in ``test_convert_roundtrip.py``.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import FIXTURES, tree_bytes
from mmlint import api, convert, dialects


def _read(root):
    name, prof, _ = api.choose(str(root))
    return name, prof, dialects.get(name).read(str(root), prof)


def test_same_dialect_convert_keeps_bytes(tmp_path):
    root = FIXTURES / "engramory/claude-code/store"
    _, _, src = _read(root)
    plan = convert.plan_conversion(src, tmp_path / "out", "engramory", "claude-code")
    assert plan.ok and tree_bytes(tmp_path / "out") == tree_bytes(root)


def test_write_budget_overflow_refused_with_metrics(store, tmp_path):
    src = dialects.get("engramory").read(str(store({
        "MEMORY.md": "# Memory Index\n- [Big](big.md)\n",
        "big.md": "---\nname: big\ndescription: d\ntype: reference\n---\n\n" + "字" * 4100 + "\n",
    })), "claude-code")
    plan = convert.plan_conversion(src, tmp_path / "out", "mm")
    assert not plan.ok and not plan.written and not (tmp_path / "out").exists()
    r = plan.refusals[0]
    assert r.code == "E_WRITE_BUDGET_EXCEEDED" and r.path == "big.md"
    assert r.usage == {"bodyChars": 4100, "writeBudget": 4000, "overflow": 100}


def test_index_overflow_refused_with_metrics(store, tmp_path):
    files = {"MEMORY.md": "# Memory Index\n" + "".join(f"- [N{i}](n{i}.md)\n" for i in range(40))}
    for i in range(40):
        files[f"n{i}.md"] = f"---\nname: n{i}\ndescription: d\ntype: reference\n---\n\nbody\n"
    src = dialects.get("engramory").read(str(store(files)), "claude-code")
    plan = convert.plan_conversion(src, tmp_path / "out", "mm")
    assert not plan.ok and not (tmp_path / "out").exists()
    r = plan.refusals[-1]
    assert r.code == "E_INDEX_BUDGET_EXCEEDED"
    usage = r.usage["index"]
    assert usage["lineCap"] == 200 and usage["lines"] > 200
    assert usage["overflowLines"] == usage["lines"] - 200 and usage["overBudget"] is True
    assert "consolidate" in r.message


def test_budget_refusals_come_in_spec_priority(store, tmp_path):
    files = {"MEMORY.md": "# Memory Index\n" + "".join(f"- [N{i}](n{i}.md)\n" for i in range(40))}
    for i in range(40):
        files[f"n{i}.md"] = f"---\nname: n{i}\ndescription: d\ntype: reference\n---\n\n" + ("y" * 4001 if i == 7 else "b") + "\n"
    src = dialects.get("engramory").read(str(store(files)), "claude-code")
    codes = [r.code for r in convert.plan_conversion(src, tmp_path / "out", "mm").refusals]
    assert codes == ["E_WRITE_BUDGET_EXCEEDED", "E_INDEX_BUDGET_EXCEEDED"]


def test_missing_required_field_refused_then_supplied(tmp_path):
    _, _, src = _read(FIXTURES / "mm/basic/store")
    plan = convert.plan_conversion(src, tmp_path / "out", "engramory", "claude-code")
    assert not plan.ok and {r.code for r in plan.refusals} == {"E_REQUIRED"}
    assert "--default type=VALUE" in plan.refusals[0].message
    plan = convert.plan_conversion(src, tmp_path / "out", "engramory", "claude-code", {"type": "project"})
    assert plan.ok
    assert ("memories/alpha.md", "name", "alpha") in plan.fills


def test_colliding_slugs_refused_naming_both_notes(store, tmp_path):
    root = store({"a/x.md": "---\ntitle: x\n---\n\nA\n", "b/X.md": "---\ntitle: X\n---\n\nB\n"})
    src = dialects.get("workspace").read(str(root))
    plan = convert.plan_conversion(src, tmp_path / "out", "mm")
    assert not plan.ok and not (tmp_path / "out").exists()
    msg = plan.refusals[0].message
    assert "'a/x.md'" in msg and "'b/X.md'" in msg and "case" in msg


def test_unrepresentable_value_refused_or_dropped_with_allow_loss(store, tmp_path):
    root = store({
        "MEMORY.md": "# MEMORY.md\n\n> mm-kind: index\n## t\n- **summary:** \"it's\" \\ odd\n- **updated:** \"it's\" \\ odd\n- **file:** memories/t.md\n",
        "memories/t.md": "# t\n\n> mm-topic: t\n\nbody\n",
    })
    src = dialects.get("mm").read(str(root))
    # YAML and the doctor's quote rule cannot hold both quotes and a backslash
    plan = convert.plan_conversion(src, tmp_path / "out", "engramory", "claude-code", {"type": "reference", "summary": "s"})
    assert not plan.ok and plan.refusals[0].code == "E_UNREPRESENTABLE" and plan.refusals[0].field in ("summary", "updated")
    plan = convert.plan_conversion(src, tmp_path / "out", "engramory", "claude-code", {"type": "reference"},
                                   allow_loss={"updated", "summary"})
    assert plan.ok and plan.written
    assert sorted(plan.losses) == [("memories/t.md", "summary", "\"it's\" \\ odd"), ("memories/t.md", "updated", "\"it's\" \\ odd")]
    # the workspace plugin reads lines without YAML: the value is written as it is
    plan = convert.plan_conversion(src, tmp_path / "ws", "workspace")
    assert plan.written and b"\nupdated: \"it's\" \\ odd\n" in (tmp_path / "ws" / "t.md").read_bytes()
    back = dialects.get("workspace").read(str(tmp_path / "ws"))
    assert back.notes[0].summary == back.notes[0].updated == "\"it's\" \\ odd"  # a carried value survives too


def test_dest_not_empty_needs_force(tmp_path):
    _, _, src = _read(FIXTURES / "mm/basic/store")
    dst = tmp_path / "out"
    dst.mkdir()
    (dst / "keep.txt").write_text("mine")
    plan = convert.plan_conversion(src, dst, "workspace")
    assert not plan.ok and plan.refusals[0].code == "E_DEST_NOT_EMPTY"
    assert (dst / "keep.txt").read_text() == "mine"
    plan = convert.plan_conversion(src, dst, "workspace", force=True)  # keep.txt is not a store file
    assert not plan.ok and plan.refusals[0].code == "E_DEST_NOT_STORE" and (dst / "keep.txt").read_text() == "mine"
    (dst / "keep.txt").unlink()
    (dst / "MEMORY.md").write_text("# Memory Index\n\n- [Old](old.md)\n")
    (dst / "old.md").write_text("old\n")
    plan = convert.plan_conversion(src, dst, "workspace", force=True)
    assert plan.ok and plan.removes == ["MEMORY.md", "old.md"] and not (dst / "old.md").exists()
    leftovers = [p for p in os.listdir(tmp_path) if p != "out"]
    assert leftovers == []


def test_empty_dest_is_used(tmp_path):
    _, _, src = _read(FIXTURES / "mm/basic/store")
    (tmp_path / "out").mkdir()
    assert convert.plan_conversion(src, tmp_path / "out", "workspace").written


def test_dry_run_writes_nothing(tmp_path):
    _, _, src = _read(FIXTURES / "workspace/basic/store")
    plan = convert.plan_conversion(src, tmp_path / "out", "mm", dry_run=True)
    assert plan.ok and not plan.written and not (tmp_path / "out").exists()
    assert os.listdir(tmp_path) == []
    assert "MEMORY.md" in plan.files and all(f.size > 0 for f in plan.files.values())


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "mmlint", *args], capture_output=True, text=True)


def test_cli_json_plan_and_exit_codes(tmp_path):
    proc = _cli("convert", str(FIXTURES / "mm/basic/store"), str(tmp_path / "o"), "--to", "engramory", "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["format"] == "mmlint.convert/1" and doc["ok"] is False and doc["written"] is False
    assert {r["code"] for r in doc["refusals"]} == {"E_REQUIRED"}
    proc = _cli("convert", str(FIXTURES / "mm/basic/store"), str(tmp_path / "o"), "--to", "engramory",
                "--default", "type=reference", "--dry-run")
    assert proc.returncode == 0 and "dry run: nothing written" in proc.stdout
    assert "fill: memories/alpha.md: type := 'reference'" in proc.stdout
    assert not (tmp_path / "o").exists()


def test_cli_budget_refusal_text_shows_metrics(store, tmp_path):
    root = store({"MEMORY.md": "# Memory Index\n- [Big](big.md)\n",
                  "big.md": "---\nname: big\ndescription: d\ntype: reference\n---\n\n" + "z" * 4001 + "\n"})
    proc = _cli("convert", str(root), str(tmp_path / "o"), "--to", "mm")
    assert proc.returncode == 1
    assert "refused: E_WRITE_BUDGET_EXCEEDED big.md [body]" in proc.stdout
    assert '"bodyChars": 4001, "writeBudget": 4000, "overflow": 1' in proc.stdout
    assert "nothing written." in proc.stdout


def test_cli_usage_errors(tmp_path):
    assert _cli("convert", str(FIXTURES / "mm/basic/store"), str(tmp_path / "o"), "--to", "nope").returncode == 2
    proc = _cli("convert", str(FIXTURES / "mm/basic/store"), str(tmp_path / "o"), "--to", "engramory", "--default", "colour=red")
    assert proc.returncode == 2 and "unknown field 'colour'" in proc.stderr


def test_written_store_gets_the_usual_folder_mode(tmp_path):
    _, _, src = _read(FIXTURES / "mm/basic/store")
    old = os.umask(0o022)
    try:
        assert convert.plan_conversion(src, tmp_path / "out", "workspace").written
    finally:
        os.umask(old)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o755


def test_unknown_allow_loss_field_is_a_usage_error(tmp_path):
    proc = _cli("convert", str(FIXTURES / "mm/basic/store"), str(tmp_path / "o"), "--to", "workspace", "--allow-loss", "bogus")
    assert proc.returncode == 2 and "--allow-loss: unknown field 'bogus'" in proc.stderr


def test_a_conversion_to_another_dialect_keeps_no_source_layout_built(tmp_path):
    """The origin record reads each note's layout once and lets it go, and the
    owning tool's values are compared first (a layout is built only for a
    note the tool reads otherwise): a 20,000-note conversion does not hold a
    second copy of every note (issue 9 item 5)."""
    from mmlint.dialects import _fmnote

    for fixture, profile in (("engramory/upstream/store", "upstream"), ("workspace/basic/store", None)):
        dialect = fixture.split("/")[0]
        src = dialects.get(dialect).read(str(FIXTURES / fixture), profile)
        lays = [n.layout for n in src.notes if isinstance(n.layout, _fmnote.NoteLayout)]
        assert lays and not any(lay.built for lay in lays)
        for target, tprofile in (("mm", None), ("workspace", None) if dialect != "workspace" else ("engramory", "claude-code")):
            plan = convert.plan_conversion(src, str(tmp_path / f"{dialect}-{target}"), target, tprofile,
                                           {"type": "reference", "summary": "s"}, dry_run=True)
            assert plan.files, plan.refusals
            assert not any(lay.built for lay in lays), (fixture, target)


def test_a_conversion_within_a_dialect_keeps_no_source_layout_built(tmp_path):
    """The writer rewrites a note of its own dialect from a twin of its
    layout (NoteLayout.once): the same bytes, and the source keeps none
    built (issue 9 item 5)."""
    from mmlint.dialects import _fmnote

    src = dialects.get("engramory").read(str(FIXTURES / "engramory/upstream/store"), "upstream")
    lays = [n.layout for n in src.notes if isinstance(n.layout, _fmnote.NoteLayout)]
    for profile in ("upstream", "claude-code", "recall-v1"):
        plan = convert.plan_conversion(src, str(tmp_path / profile), "engramory", profile, {"type": "reference"}, dry_run=True)
        assert plan.files and not plan.refusals, plan.refusals
        assert lays and not any(lay.built for lay in lays), profile
    out = tmp_path / "same"
    assert convert.plan_conversion(src, str(out), "engramory", "upstream").written
    assert tree_bytes(out) == tree_bytes(FIXTURES / "engramory/upstream/store")
