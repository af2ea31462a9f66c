"""Conversions verified by the owning tools, and the source layout carried
for the way back (issue 8 items 2 and 4): the failures the issue lists,
reproduced on real input as regression tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import FIXTURES, needs_corpus, tree_bytes
from mmlint import convert, dialects
from mmlint.dialects import engramory_reading as er
from mmlint.dialects import mm_reading as mr
from mmlint.dialects import workspace_reading as wr

REAL = Path(__file__).resolve().parent.parent.parent / "shared" / "corpus" / "real" / "a-claude"
CC = {"type": "reference", "summary": "imported note"}


def _round(src, tmp_path, *target, defaults=None):
    rt = convert.round_trip(src, str(tmp_path), *target, defaults)
    assert rt.there.written and rt.back is not None and rt.back.written, [r.message for r in (rt.back or rt.there).refusals]
    return rt


def _claude(store, fm: str, body: str = "body\n"):
    root = store({"MEMORY.md": "# Memory Index\n\n- [A](a_note.md) — hook\n", "a_note.md": "---\n" + fm + "---\n\n" + body})
    return root, dialects.get("engramory").read(str(root), "claude-code")


def test_escaped_quotes_reach_mm_and_workspace_as_claude_code_reads_them(store, tmp_path):
    fm = 'name: a-note\ndescription: "keep \\"什么不能动\\" in mind"\nmetadata:\n  type: feedback\n  originSessionId: s-1\n'
    root, src = _claude(store, fm)
    for target, read, key in ((("mm", None), mr.reference, "summary"), (("workspace", None), wr.plugin, "mmlint-summary")):
        work = tmp_path / target[0]
        work.mkdir()
        rt = _round(src, work, *target)
        view = read(tree_bytes(work / "b"))
        seen = next(iter(view.notes.values()))
        value = seen.fields.get(key) if key in seen.fields else seen.fields.get("entryBody")
        assert value == 'keep "什么不能动" in mind', value  # no literal backslashes
        assert rt.same_bytes  # and back: the escapes, the nesting, originSessionId, no blank line added


def test_a_value_starting_with_a_quoted_part_keeps_its_opening_quote(store, tmp_path):
    root, src = _claude(store, 'name: a-note\ndescription: "안 나옴" 같은 관측\ntype: feedback\n')
    assert src.notes[0].summary == '"안 나옴" 같은 관측'
    for target in (("mm", None), ("workspace", None), ("engramory", "upstream")):
        work = tmp_path / (target[1] or target[0])
        work.mkdir()
        rt = _round(src, work, *target, defaults={"created": "2026-01-01", "updated": "2026-01-01"})
        assert rt.same_bytes
    # the upstream doctor strips one quote pair: the writer quotes the whole value for it
    up = er.upstream(tree_bytes(tmp_path / "upstream" / "b"))
    assert up.notes["a_note.md"].fields["description"] == '"안 나옴" 같은 관측'


@needs_corpus
@pytest.mark.parametrize("store_name, target", [
    ("gen5w-navi", ("workspace", None)),        # originSessionId renamed, blank line inserted after the frontmatter
    ("1000ssam-claude-config", ("engramory", "claude-code")),
    ("hess-leasing", ("mm", None)),             # metadata nesting flattened, index pointers re-sorted
    ("koenvue", ("engramory", "recall-v1")),
    ("krovlya-kit", ("workspace", None)),       # escaped quotes
])
def test_real_claude_code_stores_come_back_byte_for_byte(store_name, target, tmp_path):
    src = dialects.get("engramory").read(str(REAL / store_name), "claude-code")
    rt = convert.round_trip(src, str(tmp_path), *target, CC)
    if target == ("engramory", "claude-code"):
        assert rt.there.written
        return
    assert rt.back is not None and rt.back.written and rt.same_bytes
    back = dialects.get("engramory").read(str(tmp_path / "a"), "claude-code")
    assert back.index.text == src.index.text  # pointer order and line text: Claude Code's load window is unchanged


def test_upstream_to_claude_code_quotes_a_colon_space_value(store, tmp_path):
    root = store({"MEMORY.md": "# Memory Index\n\n- [R](release.md)\n",
                  "release.md": "---\nname: release\ndescription: Release notes (API/CLI/docs): check them\ntype: reference\n"
                                "created: 2026-01-01\nupdated: 2026-01-02\n---\n\nbody\n"})
    src = dialects.get("engramory").read(str(root), "upstream")
    rt = _round(src, tmp_path, "engramory", "claude-code")
    view = er.claude_code(tree_bytes(tmp_path / "b")).notes["release.md"]
    assert view.readable and view.fields["description"] == "Release notes (API/CLI/docs): check them"
    assert rt.same_bytes  # and the upstream note is back as it was, unquoted


def test_a_comment_in_frontmatter_survives_mm_and_workspace(store, tmp_path):
    root, src = _claude(store, "# written by hand\nname: a-note\ndescription: d\ntype: user\n")
    for target in (("mm", None), ("workspace", None)):
        work = tmp_path / target[0]
        work.mkdir()
        rt = _round(src, work, *target)
        assert rt.same_bytes and b"# written by hand" in (work / "a" / "a_note.md").read_bytes()


def test_workspace_title_and_comma_tags_survive_mm(tmp_path):
    src = dialects.get("workspace").read(str(FIXTURES / "workspace/basic/store"))
    rt = _round(src, tmp_path, "mm")
    assert rt.same_bytes
    # and a tag list written for the plugin is a comma list, never [a, b]
    mm = dialects.get("mm").read(str(FIXTURES / "mm/basic/store"))
    out = tmp_path / "ws"
    assert convert.plan_conversion(mm, out, "workspace").written
    text = (out / "Deploy.Notes_v2.md").read_text(encoding="utf-8")
    assert "tags: infra, deploy\n" in text and "[" not in text.split("---")[1]
    assert wr.plugin(tree_bytes(out)).notes["Deploy.Notes_v2.md"].fields["tags"] == ["infra", "deploy"]


def test_a_writer_bug_the_reader_mirrors_is_refused_naming_note_field_values_and_tool(monkeypatch, tmp_path):
    """The old check compared mmlint's model with itself: a writer that quotes
    values for the workspace plugin passed, because mmlint's reader unquotes.
    The plugin keeps the quotes, and its reading says so."""
    from mmlint.dialects import _fmnote

    plain = _fmnote.raw_item

    def quoting(key, value, indent="", newline="\n"):
        return [f"{indent}{key}: '{value}'"] if isinstance(value, str) and value else plain(key, value, indent, newline)

    monkeypatch.setattr(_fmnote, "raw_item", quoting)
    src = dialects.get("mm").read(str(FIXTURES / "mm/basic/store"))
    plan = convert.plan_conversion(src, tmp_path / "o", "workspace")
    assert not plan.written and not (tmp_path / "o").exists()
    r = next(r for r in plan.refusals if r.code == "E_LOSS")
    assert r.path.startswith("memories/") and r.field and "the workspace plugin would see" in r.message
    assert "'" in r.message.split(" as ", 1)[1]
    plan = convert.plan_conversion(src, tmp_path / "o", "workspace", allow_loss={"summary", "updated", "budget", "type",
                                                                                  "extra", "name", "entry_body", "tags"})
    assert plan.written and plan.losses and all(len(loss) == 3 for loss in plan.losses)


def test_an_edit_made_in_between_is_kept_not_undone(tmp_path):
    """The carried layout is used only while a note has the values it was
    recorded with: a note edited in B is written by the writer's own rules."""
    src = dialects.get("engramory").read(str(FIXTURES / "engramory/claude-code/store"), "claude-code")
    assert convert.plan_conversion(src, tmp_path / "b", "mm").written
    mid = dialects.get("mm").read(str(tmp_path / "b"))
    note = mid.notes[0]
    note.summary = "edited in mm"
    assert convert.plan_conversion(mid, tmp_path / "a", "engramory", "claude-code").written
    back = dialects.get("engramory").read(str(tmp_path / "a"), "claude-code")
    assert back.note_at(note.path if back.note_at(note.path) else src.notes[0].path) is not None
    assert "edited in mm" in {n.summary for n in back.notes}
    others = [n for n in src.notes if n.slug != note.slug]
    for n in others:  # the notes not edited are back byte for byte
        assert (tmp_path / "a" / n.path).read_bytes() == src.files[n.path].data


def test_a_damaged_origin_file_costs_only_byte_exactness(tmp_path):
    src = dialects.get("engramory").read(str(FIXTURES / "engramory/claude-code/store"), "claude-code")
    assert convert.plan_conversion(src, tmp_path / "b", "workspace").written
    (tmp_path / "b" / ".mmlint-origin.json").write_text('{"format": "mmlint.origin/1", "notes": 3}')
    mid = dialects.get("workspace").read(str(tmp_path / "b"))
    assert mid.origin is None
    plan = convert.plan_conversion(mid, tmp_path / "a", "engramory", "claude-code")
    assert plan.written


def _errors(store, any_severity: bool = False) -> set[tuple[str, str]]:
    from mmlint import api, config as config_mod

    options = config_mod.for_store(store.root, None, True, {}).options(None)
    return {(d.code, d.span.path) for d in api.lint(store, options) if any_severity or d.severity == "error"}


LINT_STORES = sorted(FIXTURES.glob("*/*/store")) + [REAL / n for n in ("formoxus", "gonogo", "nofluxo-unb")]
TARGETS = [("mm", None), ("engramory", "recall-v1"), ("engramory", "upstream"), ("engramory", "claude-code"), ("workspace", None)]


@pytest.mark.parametrize("root", [r for r in LINT_STORES if r.is_dir()], ids=lambda r: r.parent.name + "/" + r.name)
def test_the_output_lints_clean(root, tmp_path):
    """``mmlint check`` on DST reports no error-level finding SRC did not
    already have (the same rule on the same note), for every target
    (issue 8 item 3): dates move into the target's own form."""
    from mmlint import api

    dialect, profile, _ = api.choose(str(root))
    src = dialects.get(dialect).read(str(root), profile)
    # a finding SRC already has at another severity (F114 is info under claude-code, an error
    # under upstream: the doctor wants Why/How labels no conversion can invent) is not new
    before = {rule for rule, _ in _errors(src, any_severity=True)}
    for target in TARGETS:
        if target == (dialect, profile):
            continue
        out = tmp_path / (target[1] or target[0])
        defaults = {"type": "reference", "summary": "imported note", "created": "2026-01-01", "updated": "2026-01-01"}
        if not convert.plan_conversion(src, out, *target, defaults).written:
            continue  # refused: nothing written (test_convert_roundtrip checks why)
        dst = dialects.get(target[0]).read(str(out), target[1])
        # note paths may change (recall-v1 names): a rule SRC has nowhere is a new finding
        new = sorted((rule, path) for rule, path in _errors(dst) if rule not in before)
        assert not new, (target, new)


def test_dates_move_into_the_targets_form_and_back(tmp_path):
    src = dialects.get("engramory").read(str(FIXTURES / "engramory/upstream/store"), "upstream")
    rt = _round(src, tmp_path, "workspace")
    note = next(p for p in (tmp_path / "b").glob("*.md") if p.name != "MEMORY.md").read_text(encoding="utf-8")
    assert "created: 2026-09-01T00:00:00.000Z\n" in note and "mmlint-created: 2026-09-01\n" in note
    assert wr.plugin(tree_bytes(tmp_path / "b")).notes  # the plugin reads the ISO form natively
    assert rt.same_bytes  # and upstream gets its YYYY-MM-DD back
    mm = dialects.get("mm").read(str(FIXTURES / "mm/basic/store"))
    out = tmp_path / "rv"
    assert convert.plan_conversion(mm, out, "engramory", "recall-v1", CC).written
    text = (out / "reference-alpha.md").read_text(encoding="utf-8")
    assert "\nupdated: 2026-01-02\n" in text and "mmlint-updated: 2026-01-02T03:04:05.000Z" in text
