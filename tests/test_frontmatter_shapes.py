"""Frontmatter shapes with thousands of keys are read in time linear in
their size, and the YAML loader the reader keeps gives what a fresh one
gives (found by timing hostile shapes at 20,000 lines: 20,000 empty-valued
keys took 38 s to check, 20,000 one-line YAML values 24 s)."""

from __future__ import annotations

import json
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint import frontmatter
from mmlint.dialects import _fmnote, engramory


def _best(fn, *args) -> float:
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        fn(*args)
        best = min(best, time.perf_counter() - t0)
    return best


def _read(data: bytes) -> None:
    _fmnote.read_note("a.md", data, engramory.KEYMAP, "engramory", "a")


def _block(lines: list[str]) -> bytes:
    return ("---\n" + "".join(lines) + "---\nbody\n").encode()


def test_empty_valued_keys_are_read_in_linear_time():
    """Each ``key:`` with an empty value asked whether a later line was its
    child by scanning every item (parse and ``_group_parents``), and each
    span was added one key at a time: quadratic in the keys. 4x the keys
    must cost about 4x, and as much as plain ``key: value`` lines."""
    empty = lambda n: _block([f"k{i}:\n" for i in range(n)])  # noqa: E731
    plain = lambda n: _block([f"k{i}: v\n" for i in range(n)])  # noqa: E731
    small, large = _best(_read, empty(1000)), _best(_read, empty(4000))
    assert large < 8 * small + 0.05, (small, large)
    assert large < 3 * _best(_read, plain(4000)) + 0.05


def test_children_and_block_lists_keep_their_parents():
    """What the linear pass decides is what the scan decided: a key with
    indented children is a parent, one with ``- `` lines a YAML list, one
    with nothing under it an empty scalar, also when a later parent of the
    same key has children."""
    fm = frontmatter.parse("---\na:\n  x: 1\nb:\n  - 1\n  - 2\nc:\nd:\na:\n---\n")
    kinds = [(it.key, it.kind, it.parent) for it in fm.items]
    assert kinds == [("a", "parent", None), ("x", "scalar", "a"), ("b", "yaml", None), ("c", "scalar", None),
                     ("d", "scalar", None), ("a", "scalar", None)]
    assert fm.items[2].value == [1, 2] and fm.items[3].value == ""
    # a list after a child: children first, so the '- ' line is no list item of the parent
    fm = frontmatter.parse("---\np:\n  c: 1\n  - x\n---\n")
    assert [(it.key, it.kind) for it in fm.items][:2] == [("p", "parent"), ("c", "scalar")]


SNIPPETS = st.sampled_from(["%YAML 1.1\nk: on", "%YAML 1.2\n---\nk: on", "k: on", "k: yes", "%TAG !e! tag:e,2000:\nk: !e!x 1",
                            "k: [a, b]", "k: [a, b", "k: {a: 1}", "k: |\n  t", "k: >-\n  t\n  u", "k: &a [1]\nj: *a",
                            "k: 'x", "k: \"\\ud800\"", "k: 2026-01-01", "k: [[[", "k: !!binary aGk=", "k:\n  - 1\n  - 2",
                            "k: @x", "k: `x", "k: {", "- a", "k: [a, {b: c}]", "k: !!set {a, b}", "k: 1\nk: 2", ""])


def _fresh_load(src: str):
    """A loader made for this one call, as yaml_load made one every call."""
    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import SafeConstructor

    class _Constructor(SafeConstructor):
        pass

    _Constructor.add_constructor("tag:yaml.org,2002:timestamp", SafeConstructor.construct_yaml_str)
    y = YAML(typ="safe", pure=True)
    y.Constructor = _Constructor
    try:
        return y.load(src), None
    except Exception as exc:  # noqa: BLE001  (every failure of a load is compared by its text)
        first = str(exc).strip().splitlines()
        return None, (first[0] if first else type(exc).__name__)[:200]


@settings(max_examples=150, deadline=None)
@given(st.lists(SNIPPETS, min_size=1, max_size=6))
def test_the_kept_loader_reads_as_a_fresh_one_after_any_input(srcs):
    for src in srcs:
        assert frontmatter._load_fresh(src) == _fresh_load(src), src
        assert frontmatter.yaml_load(src) == _fresh_load(src), src


def test_a_remembered_load_is_a_copy():
    first, err = frontmatter.yaml_load("t: [a, {b: [c]}]")
    assert err is None
    first["t"].append("x")
    first["t"][1]["b"].append("y")
    assert frontmatter.yaml_load("t: [a, {b: [c]}]") == ({"t": ["a", {"b": ["c"]}]}, None)


def test_many_one_line_yaml_values_are_parsed_once_each():
    """A rule that reloads a block's items parses its YAML values again;
    the memo answers the second time (at 20,000 values, 24 s -> 6 s a check)."""
    data = _block([f"k{i}: [a, b{i}]\n" for i in range(300)])
    calls = []
    real = frontmatter._load_fresh
    frontmatter._MEMO.clear()
    try:
        frontmatter._load_fresh = lambda src: calls.append(src) or real(src)
        note, _ = _fmnote.read_note("a.md", data, engramory.KEYMAP, "engramory", "a")
        assert note.frontmatter.items[5].value == ["a", "b5"]  # reloaded after the read unloaded them
    finally:
        frontmatter._load_fresh = real
    assert len(calls) == len(set(calls)) == 300


KEY = st.sampled_from(["name", "tags", "type", "a_b", "x.y", "k-1", "true", "null", "1", "01", "- a", "? k", "[k", "k k",
                       "True", "NULL", "Yes", "on", "y", "_x", "k.", "k-", "%YAML 1.1", "&a k", "*a k",
                       "name", "&a k", "*a", "", "é", "_"])
VALUE = st.sampled_from(["", "v", "[a, b]", "[a, {b: c}]", "{a: 1}", "'q'", '"q"', "'q", "[a,", "a: b", "a #c", "a#c", "- x",
                         "&x 1", "*x", "!!str 1", "|", ">-", "1", "01", "true", "~", "2026-01-01", "a\tb", "\u00e9",
                         "a\u2028b: c", "a\x85b", "%x", "@x", "`x", ":", "a:", "k: v", "n5", "a b", "a  b", "a ", "True",
                         "null", "NULL", "Null", "yes", "Yes", "on", "off", "No", "y", "n", "e5", "a-b", "a.b", "a/b",
                         "Infinity", "NaN", "nan", "inf", "x1.5", "a - b", "a -", "Z", "&x [1]", "*x", "[*x, *x, *x, *x, *x]",
                         "[&y 1, *y, *y, *y, *y, *y, *y, *y, *y, *y, *y, *y, *y, *y, *y, *y, *y, *y]", '"[[[[[[[[[["'])
LINE = st.one_of(st.builds(lambda k, sep, v: f"{k}{sep}{v}", KEY, st.sampled_from([": ", ":", ":  ", ":\t"]), VALUE),
                 st.sampled_from(["", "# c", "  # c", "  child: 1", "  - x", "---", "...", "%YAML 1.2", "\tk: v"]))


@settings(max_examples=1500, deadline=None)
@given(st.lists(LINE, max_size=7))
def test_a_block_made_of_its_lines_is_what_the_whole_parse_gives(lines):
    """``yaml_load_block`` (X104/X105's view of a note's frontmatter, one
    parse per line, remembered) gives what parsing the block whole gives:
    the same data, and an error exactly when the whole parse has one, with
    its text."""
    whole = frontmatter._load_fresh("\n".join(lines))
    got = frontmatter.yaml_load_block(lines)
    assert (got[1] is None) == (whole[1] is None), (lines, got, whole)
    assert got == whole, lines


def test_a_block_of_simple_lines_is_parsed_line_by_line():
    calls = []
    real = frontmatter._load_fresh
    frontmatter._MEMO.clear()
    try:
        frontmatter._load_fresh = lambda src: calls.append(src) or real(src)
        for i in range(50):
            assert frontmatter.yaml_load_block([f"name: n{i}", "type: user", "tags: [a, b]"]) == (
                {"name": f"n{i}", "type": "user", "tags": ["a", "b"]}, None)
    finally:
        frontmatter._load_fresh = real
    assert len(calls) == 1  # names and types read as text by the plain path; the tags line parsed once
    assert frontmatter.yaml_load_block(["a: 1", "a: 2"])[1] is not None  # a duplicate: the whole parse's error


def test_yaml_warnings_do_not_reach_stderr(tmp_path):
    """ruamel warned on stderr about a reused anchor, quoting the store's
    lines raw (a bidi control in a key reached the terminal)."""
    import subprocess
    import sys

    from conftest import make_store

    root = make_store(tmp_path / "s", {"MEMORY.md": "- [A](a.md) — h\n",
                                       "a.md": "---\nname: a\ndescription: d\ntype: user\n&a k\u202e: [x]\n&a j: [y]\n---\nb\n"})
    done = subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--no-cache"], capture_output=True, text=True)
    assert done.returncode in (0, 1) and done.stderr == "", done.stderr
    assert "\u202e" not in done.stdout


def test_the_yaml_memo_holds_a_few_mib_at_most():
    """The memo's bound counted source text only, while it holds the parsed
    values too (~8x for a flow mapping): ~35 MiB before it cleared itself
    (found by review). Filled with the largest sources it keeps, flow
    mappings, it stays under 8 MiB: 256 of them measured, times the
    entries it keeps (a full fill costs ~30 s of parsing)."""
    import tracemalloc

    frontmatter._MEMO.clear()
    frontmatter.yaml_load("a: 1")
    frontmatter._MEMO.clear()
    sample = 256
    tracemalloc.start()
    try:
        for i in range(sample):
            items, size, j = [], 6, 0
            while True:
                s = f"k{i}x{j}: v{j}"
                if size + len(s) + 2 > frontmatter._MEMO_SRC_MAX:
                    break
                items.append(s)
                size += len(s) + 2
                j += 1
            frontmatter.yaml_load("m: {" + ", ".join(items) + "}")
        held, _ = tracemalloc.get_traced_memory()
        assert len(frontmatter._MEMO) == sample
    finally:
        tracemalloc.stop()
        frontmatter._MEMO.clear()
    assert held / sample * frontmatter._MEMO_MAX < 8 << 20, held / sample * frontmatter._MEMO_MAX / (1 << 20)


def test_a_yaml_directive_does_not_reach_later_loads(tmp_path):
    """The kept loader kept a note's ``%YAML 1.1``: every later load read
    YAML 1.1 (``on`` a boolean), so one note changed other notes' X105 and
    a cached check differed from --no-cache (found by review)."""
    import subprocess
    import sys

    from conftest import make_store

    assert frontmatter._load_fresh("a: on") == ({"a": "on"}, None)
    frontmatter._load_fresh("%YAML 1.1\nz: 1")
    assert frontmatter._load_fresh("a: on") == ({"a": "on"}, None)
    b = "---\nname: reference-b\ndescription: on # the fence\ntype: reference\n---\n\nBody b.\n"
    files = {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](reference-a.md) — h\n- [B](reference-b.md) — h\n",
             "reference-a.md": "---\n%YAML 1.1\nname: reference-a\ndescription: first # note\ntype: reference\n---\n\nA.\n",
             "reference-b.md": b}
    out = subprocess.run([sys.executable, "-m", "mmlint", "check", str(make_store(tmp_path / "s", files)), "--no-cache",
                          "--format", "json"], capture_output=True, text=True).stdout
    found = [d["rule"]["id"] for d in json.loads(out)["diagnostics"] if d["path"].endswith("reference-b.md")]
    assert "X105" in found  # YAML 1.2 reads 'on' as the text: not what the key: value line says ('on # the fence')


def test_aliases_spread_over_lines_count_as_the_whole_block():
    """Each line under the alias limit, the block over it: the whole parse
    refuses it, so the line-by-line view must too (found by review: X104
    was lost, exit 1 -> 0)."""
    a = "a: [&x 1, " + ", ".join(["*x"] * 20) + "]"
    b = "b: [&y 2, " + ", ".join(["*y"] * 20) + "]"
    assert frontmatter.yaml_load_block([a, b]) == frontmatter._load_fresh(a + "\n" + b)
    assert frontmatter.yaml_load_block([a, b])[1] is not None


def test_each_yaml_value_of_a_check_is_parsed_once(tmp_path, monkeypatch):
    """Each YAML value was parsed up to four times a check (the read, a
    rule reloading the items, the YAML view of X104/X105), the process-wide
    memo answering only while it held them: past ~500 notes of flow values
    the time per note grew with the store (found by review). The block
    keeps what its values gave; a check parses each distinct value once,
    however many notes."""
    from conftest import indexed_notes

    from mmlint import api

    def fresh_loads(n: int) -> int:
        root = indexed_notes(tmp_path / str(n), n, lambda i: f"---\nname: n{i}\ndescription: d\ntype: user\n"
                             f"tags: [topic-{i}, memory]\nmetadata: {{owner: person-{i}}}\n---\n\nBody {i}.\n")
        calls = []
        real = frontmatter._load_fresh
        frontmatter._MEMO.clear()
        monkeypatch.setattr(frontmatter, "_load_fresh", lambda src: calls.append(src) or real(src))
        api.check([str(root)], profile="claude-code", cache=False)
        monkeypatch.setattr(frontmatter, "_load_fresh", real)
        return len(calls)

    assert fresh_loads(1200) <= 2 * 1200 + 10  # more distinct values than the memo keeps
