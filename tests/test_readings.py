"""Tool readings (mmlint/dialects/*_reading.py): each tool's view of a store,
built from the specs and the research's numbered cases. The readings are
the reference a conversion is verified against, so each case here states
what the owning tool itself does, including where mmlint's lenient readers
differ."""

from __future__ import annotations

import pytest

from mmlint.dialects import engramory_reading as er
from mmlint.dialects import mm_reading as mr
from mmlint.dialects import workspace_reading as wr

NOTE = "---\nname: a\ndescription: {d}\ntype: reference\n---\n\nbody\n"


def _fm(lines: str) -> bytes:
    return ("---\n" + lines + "---\n\nbody\n").encode()


# ---------------------------------------------------------------- Claude Code (claude-code-notes.md)


def test_claude_code_unescapes_yaml_double_quotes():
    # issue 8: description: "... \"什么不能动\" ..." is YAML; Claude Code sees plain quotes
    v = er.claude_code_note("a.md", _fm('description: "keep \\"什么不能动\\" in mind"\n'))
    assert v.readable and v.fields["description"] == 'keep "什么不能动" in mind'


def test_claude_code_sees_no_fields_when_a_value_holds_colon_space():
    # rjmurillo/ai-agents #4918: an unquoted ': ' makes the block invalid YAML
    v = er.claude_code_note("a.md", _fm("name: a\ndescription: Release notes (API/CLI/docs): check them\n"))
    assert not v.readable and v.fields == {} and "YAML" in v.problem


def test_claude_code_cuts_a_value_at_space_hash():
    # anthropics/claude-code #61099: ' #' starts a YAML comment
    v = er.claude_code_note("a.md", _fm("description: use tabs #important\n"))
    assert v.fields["description"] == "use tabs"


def test_claude_code_reads_nested_metadata_where_the_top_level_lacks_it():
    v = er.claude_code_note("a.md", _fm("name: a\nmetadata:\n  type: feedback\n  originSessionId: x1\n"))
    assert v.fields["type"] == "feedback" and v.fields["originSessionId"] == "x1"
    assert v.nested == {"type", "originSessionId"}
    v = er.claude_code_note("a.md", _fm("type: user\nmetadata:\n  type: feedback\n"))
    assert v.fields["type"] == "user" and v.nested == set()


def test_claude_code_tab_indentation_is_invalid_yaml():
    v = er.claude_code_note("a.md", _fm("name: a\nmetadata:\n\ttype: feedback\n"))
    assert not v.readable


def test_claude_code_needs_the_closing_fence_within_30_lines():
    near = _fm("".join(f"k{i}: v\n" for i in range(28)))
    far = _fm("".join(f"k{i}: v\n" for i in range(29)))
    assert er.claude_code_note("a.md", near).readable and "k27" in er.claude_code_note("a.md", near).fields
    v = er.claude_code_note("a.md", far)
    assert not v.readable and v.fields == {}


def test_claude_code_dates_and_plain_scalars_read_as_text():
    v = er.claude_code_note("a.md", _fm("created: 2026-03-20\nconfidence: 0.5\nflag: true\ntags: [a, b]\n"))
    assert v.fields == {"created": "2026-03-20", "confidence": "0.5", "flag": "true", "tags": ["a", "b"]}


def test_claude_code_load_window_is_200_trimmed_lines_and_25000_bytes():
    index = "\n\n" + "".join(f"- [n{i}](n{i}.md) — hook\n" for i in range(250))
    files = {"MEMORY.md": index.encode()} | {f"n{i}.md": NOTE.format(d="x").encode() for i in range(250)}
    r = er.claude_code(files)
    assert r.pointers == [f"n{i}.md" for i in range(200)]  # leading blank lines do not count
    long = "".join(f"- [n{i}](n{i}.md) — " + "x" * 200 + "\n" for i in range(150))
    window = er.claude_code_window(long.encode())
    assert len(window.encode()) <= 25000 and long.startswith(window) and long[len(window)] == "\n"
    assert len(er.claude_code({"MEMORY.md": long.encode()}).pointers) == len(window.split("\n"))


# ---------------------------------------------------------------- upstream doctor (engramory-reference §1.2-1.3, §4)


@pytest.mark.parametrize("value, seen, complaint", [
    ('"a \\"quoted\\" phrase"', 'a \\"quoted\\" phrase', ""),      # case 60: accepted, backslashes kept
    ('"oops no close', "oops no close", "unclosed quote"),          # case 58
    ('"a-note""', 'a-note"', "malformed quoted value"),             # case 59
    ('"abc\\"', "abc\\", ""),                                        # case 153: accepted as closed
    ("'it''s'", "it''s", "malformed quoted value"),                  # case 154
    ('"안 나옴" 같은', '안 나옴" 같은', "unclosed quote"),              # issue 8: a value starting with a quoted part
    ("2026-01-01\"", '2026-01-01"', ""),                             # case 56: never de-quoted
])
def test_doctor_quoting(value, seen, complaint):
    v = er.upstream_note("a.md", _fm(f"description: {value}\n"))
    assert v.fields["description"] == seen
    assert complaint in v.problem if complaint else v.problem == ""


def test_doctor_ignores_indentation_and_comments_and_last_duplicate_wins():
    # case 127 (nested keys read as top-level), 61/128 (duplicates: the last value is kept)
    v = er.upstream_note("a.md", _fm("# a comment\ntype: reference\nmetadata:\n  type: feedback\n  originSessionId: s\n"))
    assert v.fields == {"metadata": "", "type": "feedback", "originSessionId": "s"} and "duplicate" in v.problem


@pytest.mark.parametrize("text, has_fm", [
    ("---  \nname: a\n---\t\nbody", True),            # case 63: fences with trailing blanks
    ("---\r\nname: a\r\n---\r\nbody", True),            # case 64: CRLF
    ("\ufeff---\nname: a\n---\nbody", True),            # case 65: BOM
    ("   ---\nname: a\n---\nbody", True),               # case 123: an indented opening fence is accepted
    ("\n---\nname: a\n---\nbody", False),               # case 124: a blank line before the fence
    ("---\rname: a\r---\rbody", False),                 # CR-only: no frontmatter (§1.3)
])
def test_doctor_fences(text, has_fm):
    v = er.upstream_note("a.md", text.encode())
    assert (v.fields.get("name") == "a") is has_fm


def test_doctor_closing_fence_must_be_exact():
    v = er.upstream_note("a.md", b"---\nname: a\n----\nbody\n")  # case 62
    assert not v.readable and "no closing" in v.problem


def test_doctor_splits_a_value_at_u2028():
    v = er.upstream_note("a.md", "---\ndescription: one\u2028two\n---\n".encode())  # case 152
    assert v.fields["description"] == "one" and "malformed" in v.problem


def test_doctor_pointer_scan():
    index = ("- [A](a-note.md#section) — x\n- [B](b.MD)\n- [C](<my note.md>)\n- [D](d.md.bak)\n"
             "- [E](<e.md>) [F](./f.md \"T\") [G](sub\\g.md) [H](https://x/h.md) [I](i.md?x)\n")
    assert er.doctor_pointers(index) == ["a-note.md", "e.md", "f.md", "sub/g.md", "i.md"]  # cases 19, 109, 105, 36


def test_doctor_pointer_scan_is_linear_on_hostile_text():
    import time

    t = time.perf_counter()
    er.doctor_pointers("](" * 100_000)  # W2: the doctor is quadratic here
    assert time.perf_counter() - t < 2


# ---------------------------------------------------------------- recall-v1 plugin (seed spec §1-2)


def test_recall_v1_is_lenient_about_encodings():
    for text in ("\ufeff---\nname: a\n---\nb", "---\r\nname: a\r\n---\r\nb", "---\rname: a\r---\rb"):
        assert er.recall_v1_note("a.md", text.encode()).fields == {"name": "a"}, text
    assert er.recall_v1_note("a.md", b"just a body\n").fields == {}  # no frontmatter: no metadata, no error


def test_recall_v1_arrays_and_archives_and_bare_pointers():
    files = {"MEMORY.md": "# Memory Index\n## user\n- [P](user-p.md) — hook\n- 一句话摘录 — project-q.md\n".encode(),
             "user-p.md": _fm("aliases: [别名, 'b c']\nconfidence: 高\n"), "project-q.md": _fm("name: q\n"),
             "project-q-history.md": b"old\n"}
    r = er.recall_v1(files)
    assert sorted(r.notes) == ["project-q.md", "user-p.md"] and r.pointers == ["user-p.md", "project-q.md"]
    assert r.notes["user-p.md"].fields == {"aliases": ["别名", "b c"], "confidence": "高"}


# ---------------------------------------------------------------- workspace plugin (specs/workspace-memory.md)


def test_workspace_plugin_reads_the_spec_example():
    text = "---\ntitle: 用户偏好用 pnpm\ntags: 工具链, 偏好\ncreated: 2026-10-08T08:31:24.000Z\n---\n\n不要在文档里写 npm。\n"
    v = wr.plugin_note("用户偏好用-pnpm.md", text.encode())
    assert v.fields == {"title": "用户偏好用 pnpm", "tags": ["工具链", "偏好"], "created": "2026-10-08T08:31:24.000Z", "category": ""}
    assert v.body == "\n不要在文档里写 npm。\n"


def test_workspace_plugin_has_no_yaml():
    # issue 8: tags: [部署, 约定] is not a list to the plugin; quotes are kept; a broken line is ignored
    v = wr.plugin_note("项目约定/a.md", _fm("tags: [部署, 约定]\ntitle: \"Quoted\"\nbroken line\n  nested: x\n"))
    assert v.fields == {"tags": ["[部署", "约定]"], "title": '"Quoted"', "nested": "x", "category": "项目约定"}


def test_workspace_plugin_title_falls_back_to_the_file_name():
    r = wr.plugin({"MEMORY.md": b"# x\n", "部署注意事项.md": "没有元数据\n".encode(), ".mmlint-aux/README.md": b"x"})
    assert list(r.notes) == ["部署注意事项.md"] and r.notes["部署注意事项.md"].fields["title"] == "部署注意事项"


# ---------------------------------------------------------------- mm reference (mm-reference §1, §8)


def _mm(index: str, **notes: str) -> dict[str, bytes]:
    return {"MEMORY.md": index.encode()} | {f"memories/{k}.md": v.encode() for k, v in notes.items()}


HEAD = "# MEMORY.md\n\n> mm-id: local\n> mm-version: 1\n> mm-kind: index\n"


def test_mm_reference_hand_written_index():
    # case 2 and 4: an entry with a blank line and a body line; a detail file with no mm-topic
    r = mr.reference(_mm(HEAD + "\n## alpha\n- **summary:** External summary.\n\nA short body note.\n## beta\n",
                         alpha="# alpha\n\n> mm-version: 1\n> mm-kind: note\n\nexternal body"))
    a = r.notes["memories/alpha.md"]
    assert a.fields["summary"] == "External summary." and a.fields["entryBody"] == "A short body note."
    assert a.body == "external body" and r.pointers == ["memories/alpha.md", "memories/beta.md"]
    assert r.notes["memories/beta.md"].body == ""  # case 28: a dangling entry reads as an empty body


def test_mm_reference_normalises_tags_and_budget():
    r = mr.reference(_mm(HEAD + "## t\n- **tags:** A, b ,a；Foo Bar,,;  x\n- **budget:** 10 / 4000\n    indented\n"))
    v = r.notes["memories/t.md"]
    assert v.fields["tags"] == ["a", "b", "foo-bar", "x"]  # case 74
    assert v.fields["budget"] == "0/0"                    # case 73
    assert v.fields["entryBody"] == "indented"             # case 75: the first body line loses its indentation


def test_mm_reference_reads_no_entry_from_a_crlf_index():
    r = mr.reference(_mm((HEAD + "## a\n- **summary:** s\n").replace("\n", "\r\n")))  # case 76 / B1
    assert r.refused == "" and r.notes == {}


@pytest.mark.parametrize("files, code", [
    (_mm(HEAD + "## Project Notes\n"), "E_PARSE"),                                   # case 70
    (_mm(HEAD + "## a\n- **file:**\n"), "E_PARSE"),                                  # case 72
    (_mm(HEAD + "## a\n- **file:** memories\\..\\evil.md\n"), "E_PARSE"),            # case 12
    (_mm(HEAD + "## a\n", a="# Project Notes\n\nbody\n"), "E_INVALID"),               # case 71
])
def test_mm_reference_refuses_to_load(files, code):
    r = mr.reference(files)
    assert r.refused.startswith(code) and r.notes == {}


@pytest.mark.parametrize("text, body", [
    ("# alpha\n\n> mm-id: local\n> mm-version: 1\n> mm-kind: note\n\nlead\n\n# A section in the body\n\nstuff\n",
     "lead\n\n# A section in the body\n\nstuff"),                                                  # case 10
    ("# alpha\n\n> mm-x: y\nbody", "body"),                                                         # case 84
    ("# alpha\n\n> mm-id: local\n> mm-topic: alpha\n\n> mm-not-really-meta: this is body text\n\nand more body",
     "> mm-not-really-meta: this is body text\n\nand more body"),                                  # case 31
    ("# alpha\r\n\r\n> mm-id: local\r\n\r\nbody\r\n", "# alpha\r\n\r\n> mm-id: local\r\n\r\nbody\r"),  # B1: all body
])
def test_mm_reference_detail_file_bodies(text, body):
    assert mr.parse_note(text)[1] == body


@pytest.mark.parametrize("hostile", ["](" * 100_000, "](<" * 100_000])
def test_claude_code_link_scan_is_linear_on_hostile_text(hostile):
    import time

    t = time.perf_counter()
    er._link_targets(hostile)
    assert time.perf_counter() - t < 2


@pytest.mark.parametrize("block", [
    "name: a\ndescription: plain text, with commas\ntype: feedback\n",
    "name: a\nmetadata:\n  type: feedback\n  originSessionId: 4fdd3d22-4481\n",
    "# c\ndescription: 'single: quoted'\ntitle: \"double # quoted\"\ncreated: 2026-03-20\n\n",
    "description: yes\nn: 012\nv: 1.5\nt: ~\nu: null\n",                  # YAML decides these
    "a: b\na: c\n", "m:\n\tx: 1\n", "m:\n  x: 1\n   y: 2\n", "m:\nz: 1\n", "d: a: b\n", "k: [a, b]\n",
    "d: 'it''s'\n", "d: \"a \\\" b\"\n", "d: text #c\n", "m:\n  # c\n  x: 1\n",
])
def test_claude_code_fast_path_agrees_with_yaml(block):
    from mmlint.frontmatter import yaml_load

    fast = er._simple_yaml(block.split("\n"))
    data, err = yaml_load(block)
    simple = block.startswith(("name: a\n", "# c\n"))
    assert (fast is not None) is simple, block  # the rest need YAML (or are not YAML)
    if fast is not None:
        assert err is None and {k: v for k, v in data.items()} == {k: (v if not isinstance(v, dict) else dict(v)) for k, v in fast[0].items()}
