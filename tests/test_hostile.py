"""Untrusted input: readers never crash, YAML bombs end in a diagnostic in
bounded time, echoes are bounded, and every check is linear in store size."""

from __future__ import annotations

import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mmlint import dialects, frontmatter, rules
from mmlint.textutil import decode, encode

DIALECTS = [("engramory", "claude-code"), ("engramory", "recall-v1"), ("engramory", "upstream"), ("mm", None), ("workspace", None)]

# Bytes that exercise the grammars: fences, keys, quotes, links, headings, CR, NUL, bad UTF-8.
PIECES = st.sampled_from([b"---\n", b"name: a\n", b"type: feedback\n", b'description: "x\n', b"metadata:\n", b"  type: user\n",
                          b"- [A](a.md)\n", b"## topic\n", b"- **file:** memories/a.md\n", b"> mm-id: local\n", b"[[b]]\n",
                          b"\r\n", b"\r", b"\x00", b"\xff\xfe", b"\xe4\xb8\xad", b"tags:\n  - x\n", b"&a [1]\n", b"*a\n",
                          b"<!-- c -->\n", b"```\n", b"](", b"[[", b"]]", b"\t", b"#", b": ", b"'", b'"', b"\\"])
CONTENT = st.lists(st.one_of(PIECES, st.binary(max_size=12)), max_size=25).map(b"".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(index=CONTENT, note=CONTENT, detail=CONTENT)
def test_readers_and_rules_never_crash(tmp_path_factory, index, note, detail):
    root = tmp_path_factory.mktemp("fuzz")
    (root / "MEMORY.md").write_bytes(index)
    (root / "a.md").write_bytes(note)
    (root / "memories").mkdir()
    (root / "memories" / "a.md").write_bytes(detail)
    for name, profile in DIALECTS:
        mod = dialects.get(name)
        store = mod.read(str(root), profile)
        for d in rules.run(store, mod):
            assert d.span.line >= 1 and d.span.column >= 1
            assert "\n" not in d.message
        # same-dialect rewriting is byte exact whatever the input
        out = mod.render(store, profile)
        for rel, data in out.items():
            assert (root / rel).read_bytes() == data, (name, rel)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_decode_encode_is_lossless(data):
    dec = decode(data)
    assert encode(dec.text, dec.bom) == data


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=200))
def test_frontmatter_parser_never_raises(text):
    fm = frontmatter.parse("---\n" + text + "\n---\nbody")
    assert fm is not None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40))
def test_quote_value_round_trips_through_both_grammars(value):
    q = frontmatter.quote_value(value)
    if q is None:
        return
    fm = frontmatter.parse(f"---\nk: {q}\n---\n")
    assert fm.get("k").value == value and not fm.problems
    data, err = frontmatter.yaml_load(f"k: {q}")
    assert err is None and str(data["k"]) == value or value == "" and data["k"] is None


def _timed(text: str) -> tuple[float, object]:
    t0 = time.perf_counter()
    result = frontmatter.parse(text)
    return time.perf_counter() - t0, result


def test_alias_bomb_is_refused_quickly(tmp_path):
    """A billion-laughs style block: the key: value reading keeps the text;
    the YAML reading (Claude Code's) is refused before any expansion."""
    lines = ["a: &a [x, x, x, x, x, x, x, x, x]"]
    for i in range(9):
        prev, cur = chr(97 + i), chr(98 + i)
        lines.append(f"{cur}: &{cur} [" + ", ".join(f"*{prev}" for _ in range(9)) + "]")
    block = "\n".join(lines)
    t0 = time.perf_counter()
    data, err = frontmatter.yaml_load(block)
    assert time.perf_counter() - t0 < 2.0
    assert data is None and "aliases" in err
    (tmp_path / "MEMORY.md").write_text("- [A](a.md)\n")
    (tmp_path / "a.md").write_text("---\nname: a\ndescription: d\ntype: user\n" + block + "\n---\n")
    mod = dialects.get("engramory")
    t0 = time.perf_counter()
    found = rules.run(mod.read(str(tmp_path), "claude-code"), mod)
    assert time.perf_counter() - t0 < 2.0
    assert any(d.code == "X104" and "aliases" in d.message for d in found)


def test_deep_nesting_is_refused_quickly():
    deep = "---\ntags: " + "[" * 5000 + "]" * 5000 + "\n---\n"
    took, fm = _timed(deep)
    assert took < 2.0
    assert any(p.code == "F104" and "nested" in p.message for p in fm.problems)


def _store_with_dangling_wikilinks(root, n):
    lines = ["# Memory Index", ""]
    for i in range(n):
        (root / f"n{i}.md").write_text(f"---\nname: n{i}\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\nsee [[missing-{i}]]\n")
        lines.append(f"- [N{i}](n{i}.md) — h")
    (root / "MEMORY.md").write_text("\n".join(lines) + "\n")


def _check_seconds(root) -> float:
    mod = dialects.get("engramory")
    store = mod.read(str(root), "upstream")
    t0 = time.process_time()  # CPU time: other processes on a shared machine do not count
    found = rules.run(store, mod)
    took = time.process_time() - t0
    assert sum(1 for d in found if d.code == "P109") == len(store.notes)
    return took


def test_checks_are_linear_in_store_size(tmp_path):
    """4x the notes (each with a dangling wikilink) must cost well under 16x
    the time: the reference doctor is quadratic here (W3)."""
    small, big = tmp_path / "small", tmp_path / "big"
    small.mkdir()
    big.mkdir()
    _store_with_dangling_wikilinks(small, 750)
    _store_with_dangling_wikilinks(big, 3000)
    _check_seconds(small)  # warm caches and imports
    t_small = min(_check_seconds(small) for _ in range(3))
    t_big = min(_check_seconds(big) for _ in range(3))
    assert t_big / t_small < 8, (t_small, t_big)


def test_pathological_brackets_are_linear():
    from mmlint.markdown import body_links, links

    for text in ("[" * 40000, "](" * 20000, "[[x[" * 10000 + "]]"):
        t0 = time.perf_counter()
        links(text)
        body_links(text)
        assert time.perf_counter() - t0 < 3.0


def test_fifo_in_store_is_reported_not_opened(tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "MEMORY.md").write_text("# Memory Index\n- [A](user_a.md)\n")
    os.mkfifo(tmp_path / "user_a.md")
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check", str(tmp_path), "--profile", "upstream"],
                          capture_output=True, text=True, timeout=20)
    assert "S102" in proc.stdout and "not a regular file" in proc.stdout


def test_hostile_bracket_body_is_bounded():
    from mmlint.markdown import MAX_PARSED_BODY, body_links

    body = "[[" * 100_000 + "\n" + "[x](" * (MAX_PARSED_BODY // 4)
    t0 = time.perf_counter()
    body_links(body)
    assert time.perf_counter() - t0 < 3.0


def test_convert_force_never_replaces_a_folder_holding_the_source(tmp_path):
    import shutil

    from mmlint import convert
    from conftest import FIXTURES

    parent = tmp_path / "parent"
    shutil.copytree(FIXTURES / "engramory/claude-code/store", parent / "store")
    (parent / "other.txt").write_text("keep")
    src = dialects.get("engramory").read(str(parent / "store"), "claude-code")
    plan = convert.plan_conversion(src, parent, "engramory", "claude-code", force=True)
    assert not plan.ok and "overlaps" in plan.refusals[0].message
    assert (parent / "store" / "MEMORY.md").exists() and (parent / "other.txt").read_text() == "keep"


def test_dry_run_creates_no_parent_folders(tmp_path):
    from mmlint import convert
    from conftest import FIXTURES

    src = dialects.get("mm").read(str(FIXTURES / "mm/basic/store"))
    plan = convert.plan_conversion(src, tmp_path / "a" / "b" / "out", "workspace", dry_run=True)
    assert plan.ok and not (tmp_path / "a").exists()


def test_broken_pipe_keeps_the_exit_status(tmp_path):
    import subprocess
    import sys

    (tmp_path / "MEMORY.md").write_text("# Memory Index\n" + "".join(f"- [N](n{i}.md)\n" for i in range(3000)))
    proc = subprocess.run(f"{sys.executable} -m mmlint check {tmp_path} --profile upstream | head -1; exit ${{PIPESTATUS[0]}}",
                          shell=True, executable="/bin/bash", capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


def test_baseline_with_a_name_that_is_not_utf8(tmp_path):
    import os
    import subprocess
    import sys

    (tmp_path / "MEMORY.md").write_text("# Memory Index\n")
    (tmp_path / os.fsdecode(b"bad\xffname.md")).write_bytes(b"---\nname: x\n---\n")
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check", str(tmp_path), "--profile", "upstream",
                           "--write-baseline", str(tmp_path.parent / "bl.json")], capture_output=True, text=True)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    proc = subprocess.run([sys.executable, "-m", "mmlint", "check", str(tmp_path), "--profile", "upstream",
                           "--baseline", str(tmp_path.parent / "bl.json"), "--format", "json"], capture_output=True, text=True)
    assert proc.returncode == 0


def test_fix_that_cannot_write_exits_2(tmp_path, monkeypatch, capsys):
    from mmlint import cli, fixes

    (tmp_path / "MEMORY.md").write_text("# Memory Index\n- [A](a.md)\n")
    (tmp_path / "a.md").write_text("---\nname: a\ndescription: d\ntype: user\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\nno final newline")

    def refuse(path, old, new):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(fixes, "_swap", refuse)
    assert cli.main(["check", str(tmp_path), "--profile", "upstream", "--fix"]) == 2
    assert "cannot write" in capsys.readouterr().err


def test_huge_hostile_index_is_reported_not_parsed(tmp_path):
    (tmp_path / "MEMORY.md").write_text("# Memory Index\n" + "[x](" * 600_000 + "\n")
    (tmp_path / "a.md").write_text("---\nname: a\ndescription: d\ntype: user\n---\nA\n")
    mod = dialects.get("engramory")
    t0 = time.perf_counter()
    found = {d.code for d in rules.run(mod.read(str(tmp_path), "claude-code"), mod)}
    assert time.perf_counter() - t0 < 3.0
    assert {"S117", "I103"} <= found and "P106" not in found


def test_huge_index_still_round_trips_byte_for_byte(tmp_path):
    data = ("# Memory Index\n" + "- [A](a.md) — hook\n" * 70_000).encode()
    (tmp_path / "MEMORY.md").write_bytes(data)
    (tmp_path / "a.md").write_text("---\nname: a\ndescription: d\ntype: user\n---\nA\n")
    mod = dialects.get("engramory")
    store = mod.read(str(tmp_path), "claude-code")
    assert store.index.line_count == 70_001 and store.index.size_bytes == len(data)
    assert mod.render(store, "claude-code")["MEMORY.md"] == data


def test_a_pointer_markdown_does_not_read_still_gets_a_finding_at_its_line(tmp_path):
    # found by a newcomer run: 21 nested brackets pass CommonMark's nesting limit in markdown-it
    # (20), so the line is text; its [[a]] is an index wikilink, which P109 now reports, as it
    # does a plain dangling [[wikilink]] pointer (both were silent)
    from conftest import make_store

    note = "---\nname: b\ndescription: d\ntype: user\n---\n\nx\n"
    for line in ("- " + "[" * 21 + "a" + "]" * 21 + "(a.md) — h", "- [[missing-note]] — h"):
        root = make_store(tmp_path / str(len(line)), {"MEMORY.md": f"# Memory Index\n\n{line}\n- [B](b.md) — b\n", "b.md": note})
        mod = dialects.get("engramory")
        found = rules.run(mod.read(str(root), "claude-code"), mod, rules.Options())
        assert [(d.code, d.span.path, d.span.line) for d in found if d.code in ("P101", "P109")] == [("P109", "MEMORY.md", 3)], line


@pytest.mark.parametrize("value", ['"통과" 한마디 = 확인', "'a' b", '"a" b \\ c', '"x" and \'y\''])
def test_the_f102_hint_is_a_line_yaml_reads_as_the_value_line_readers_keep(value):
    # found by a newcomer: the hint quoted its suggestion as a message quotes store text
    # (name: \'"통과"...\'), so it could not be copied; now it is the line itself
    from ruamel.yaml import YAML

    fm = frontmatter.parse(f"---\nname: {value}\n---\n")
    hints = [p.hint for p in fm.problems if p.code == "F102"]
    assert len(hints) == 1
    prefix = "quote the whole value with the other quote character: "
    if "'" in value and '"' in value:
        assert hints[0] == "rephrase so the value does not start with a quote"
        return
    assert hints[0].startswith(prefix)
    assert YAML(typ="safe").load(hints[0][len(prefix):]) == {"name": value}
    nested = frontmatter.parse(f"---\nmetadata:\n  owner: {value}\n---\n")  # keeps its indentation (found by review)
    (hint,) = [p.hint for p in nested.problems if p.code == "F102"]
    assert YAML(typ="safe").load("metadata:\n" + hint[len(prefix):]) == {"metadata": {"owner": value}}


def test_a_utf16_index_and_an_index_folder_are_named_for_what_they_are(tmp_path):
    # found by a newcomer run: a UTF-16 MEMORY.md read as "41 NUL byte(s) (an interrupted write?)"
    # plus invalid UTF-8, and a folder named MEMORY.md as "no MEMORY.md index"
    from conftest import make_store

    note = "---\nname: b\ndescription: d\ntype: user\n---\n\nx\n"
    mod = dialects.get("engramory")
    for encoding in ("utf-16", "utf-16-le", "utf-16-be"):
        root = make_store(tmp_path / encoding, {"MEMORY.md": "# Memory Index\n\n- [B](b.md) — x\n".encode(encoding), "b.md": note})
        found = {d.code: d.message for d in rules.run(mod.read(str(root), "claude-code"), mod, rules.Options())}
        assert found["S107"].startswith("the file is UTF-16"), (encoding, found)
        if encoding == "utf-16":  # its byte order mark is not UTF-8; S107 may be off (found by review)
            assert found["S106"].startswith("the file is UTF-16"), (encoding, found)
    crashed = make_store(tmp_path / "nul", {"MEMORY.md": b"\x00" * 64, "b.md": note})
    found = {d.code: d.message for d in rules.run(mod.read(str(crashed), "claude-code"), mod, rules.Options())}
    assert found["S107"] == "file holds entirely NUL bytes (an interrupted write?)"
    folder = make_store(tmp_path / "dir", {"MEMORY.md/x.txt": "", "b.md": note})
    found = {d.code: d.message for d in rules.run(mod.read(str(folder), "claude-code"), mod, rules.Options())}
    assert found["I101"] == "MEMORY.md is a folder, not an index file: no index for 1 note(s)"
