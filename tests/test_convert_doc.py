"""``docs/convert.md`` is the contract: each writer's table is parsed and
every row is checked against the code, so the page cannot drift.

For each writer and field, a store whose note has the field is converted to
that writer and back: a ``native`` or ``carrier`` row must come back unchanged
(a carrier's key or file must be in what was written, a native key must be
in the written files); an ``unrepresentable`` row must be refused, with
nothing written. The refusal-code table must list exactly the codes the
code raises.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT, make_store
from mmlint import convert, dialects
from mmlint.model import NOTE_FIELDS, FileRecord

DOC = ROOT / "docs" / "convert.md"
WRITERS = {"mm": ("mm", None), "engramory recall-v1": ("engramory", "recall-v1"),
           "engramory upstream": ("engramory", "upstream"), "engramory claude-code": ("engramory", "claude-code"),
           "workspace": ("workspace", None)}
FIELDS = list(NOTE_FIELDS) + ["category", "slug", "extra", "body", "index lines", "auxiliary files"]
DEFAULTS = {"type": "reference", "summary": "imported note", "created": "2026-01-01", "updated": "2026-01-01"}
SAMPLES = {"name": "deploy-notes", "title": "Deploy notes: how we ship", "summary": "one line: with a colon # and a hash",
           "type": "project", "tags": ["infra", "长"], "created": "2026-01-02", "updated": "2026-01-03", "scope": "repo",
           "aliases": ["别名", "alias"], "confidence": "高", "budget": "12/4000", "index_hook": "open before deploying",
           "index_section": "project", "entry_body": "line one\n  line two", "category": ("项目约定",),
           "extra": {"owner": "platform team"}, "body": "Body: first\n\n  第二段 #\n"}


def _tables() -> dict[str, list[tuple[str, str, str]]]:
    """Section title -> ``(field, how, where)`` rows of its table."""
    out: dict[str, list[tuple[str, str, str]]] = {}
    section = None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            section = line[3:].strip()
        elif section and line.startswith("| ") and not line.startswith("| field") and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) == 3 and cells[1] in ("native", "carrier", "unrepresentable"):
                out.setdefault(section, []).append((cells[0], cells[1], cells[2]))
    return out


TABLES = _tables()
ROWS = [(w, f, how, where) for w in WRITERS for f, how, where in TABLES.get(f"Writer: {w}", [])]


def test_every_writer_has_a_row_for_every_field():
    for writer in WRITERS:
        assert [r[0] for r in TABLES.get(f"Writer: {writer}", [])] == FIELDS, writer


def _source(writer: str, fname: str, tmp_path: Path):
    """A store (another dialect than the writer) whose first note has ``fname``."""
    if fname == "slug":
        if writer == "workspace":
            root = make_store(tmp_path / "src", {"MEMORY.md": "# Memory Index\n- [x](<Deploy Notes 长.md>)\n",
                                                 "Deploy Notes 长.md": "---\nname: x\ndescription: d\ntype: user\n---\nbody\n"})
            return dialects.get("engramory").read(str(root), "claude-code")
        root = make_store(tmp_path / "src", {"MEMORY.md": "# 记忆索引\n", "Deploy Notes 长.md": "body\n"})
        return dialects.get("workspace").read(str(root))
    if writer == "mm":
        src = dialects.get("workspace").read(str(FIXTURES / "workspace/basic/store"))
        if fname == "category":
            return src  # its notes in 项目约定/ and people/work/团队/ hold the field
    else:
        src = dialects.get("mm").read(str(FIXTURES / "mm/basic/store"))
    src = copy.deepcopy(src)
    note = next(n for n in src.notes if not n.category)
    if fname == "index lines":
        src.index.loose = [(0, "A preamble line: with a colon."), (0, ""), (0, "## A heading over no note")]
    elif fname == "auxiliary files":
        for path, data in (("ledger.jsonl", b'{"a":1}\n'), ("README.md", b"# read me\n")):
            if writer == "mm" and path.endswith(".md"):
                continue  # a workspace store reads every .md as a note
            src.files[path] = FileRecord(path, "aux", len(data), data)
    elif fname in SAMPLES:
        setattr(note, fname, copy.deepcopy(SAMPLES[fname]))
    return src


@pytest.mark.parametrize("writer,fname,how,where", ROWS, ids=[f"{r[0]}:{r[1]}" for r in ROWS])
def test_row_holds(writer, fname, how, where, tmp_path):
    dialect, profile = WRITERS[writer]
    src = _source(writer, fname, tmp_path)
    rt = convert.round_trip(src, str(tmp_path), dialect, profile, DEFAULTS)
    if how == "unrepresentable":
        assert not rt.there.written and not (tmp_path / "b").exists()
        assert any(r.code == "E_UNREPRESENTABLE" and r.field == fname and r.path for r in rt.there.refusals)
        return
    assert rt.there.written, [(r.code, r.path, r.field, r.message) for r in rt.there.refusals]
    assert rt.ok, (rt.changed, rt.same_paths, rt.back and [r.message for r in rt.back.refusals])
    token = (re.findall(r"`([^`]+)`", where) or [""])[0]
    written = {p: (tmp_path / "b" / p).read_bytes() for p in rt.there.files}
    if how == "carrier" and token.startswith("mmlint-"):
        stem = token.split("<", 1)[0]
        assert any(k == stem or (stem.endswith("-") and k.startswith(stem)) for _, k in rt.there.carriers), rt.there.carriers
    elif how == "carrier" or token.startswith(".mmlint-"):
        assert any(p.startswith(token.rstrip("/")) for p in written) or fname == "auxiliary files", (token, list(written))
    elif token.endswith(":") or token.endswith(":**"):
        assert any(token.encode() in data for data in written.values()), token
    if fname == "auxiliary files":
        assert any(rt.there.files[p].kind == "aux" for p in written)


@pytest.mark.parametrize("writer", [w for w in WRITERS if w != "mm"])
def test_mm_only_values_are_refused_as_documented(writer, store, tmp_path):
    rows = {f: (how, where) for f, how, where in TABLES["Values only an mm store has"]}
    assert rows["mm-id"][0] == rows["mm file"][0] == "unrepresentable"
    flag = {"mm-id": "memory_id", "mm file": "file"}
    root = store({"MEMORY.md": "# MEMORY.md\n\n> mm-id: team\n> mm-kind: index\n## a\n- **summary:** s\n- **file:** notes/a.md\n",
                  "notes/a.md": "# a\n\n> mm-topic: a\n\nbody\n"})
    src = dialects.get("mm").read(str(root))
    plan = convert.plan_conversion(src, tmp_path / "o", *WRITERS[writer], DEFAULTS)
    assert sorted(r.field for r in plan.refusals) == sorted(flag.values()) and not (tmp_path / "o").exists()
    for label, fname in flag.items():
        assert f"--allow-loss {fname}" in rows[label][1]


def test_refusal_codes_are_the_ones_the_code_raises():
    documented = {r[0] for r in _code_rows()}
    raised = set()
    for path in (ROOT / "mmlint").rglob("*.py"):
        raised |= set(re.findall(r'Refusal\("(E_[A-Z_]+)"', path.read_text(encoding="utf-8")))
    assert documented == raised


def _code_rows():
    rows, inside = [], False
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line == "## Refusal codes"
        elif inside and line.startswith("| E_"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows
