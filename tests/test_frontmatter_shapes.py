"""Frontmatter shapes with thousands of keys are read in time linear in
their size, and the YAML loader the reader keeps gives what a fresh one
gives (found by timing hostile shapes at 20,000 lines: 20,000 empty-valued
keys took 38 s to check, 20,000 one-line YAML values 24 s)."""

from __future__ import annotations

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


SNIPPETS = st.sampled_from(["k: [a, b]", "k: [a, b", "k: {a: 1}", "k: |\n  t", "k: >-\n  t\n  u", "k: &a [1]\nj: *a",
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
