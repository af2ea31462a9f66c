"""The index reader's character scans are one regex character class each
(issue 9 item 2): they must accept and reject exactly what the
per-character loops they replace did."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint import markdown, resolve

CHARS = st.text(st.sampled_from(list("ab _!`<>\\&*\t\x00\x1f\x7f ()\"'[]-.é中") + ["\u00a0", "\x85"]), max_size=30)


def _plain_chars_loop(line, a, b):
    for j in range(a, b):
        ch = line[j]
        if ch in markdown._NOT_PLAIN or ch < " " or ch == "!" or (ch == "_" and not markdown._inert_underscore(line, j)):
            return False
    return True


@settings(max_examples=300, deadline=None)
@given(CHARS, st.integers(0, 30), st.integers(0, 30))
def test_character_classes_match_the_loops(text, a, b):
    a, b = min(a, len(text)), min(b, len(text))
    assert markdown._plain_chars(text, a, b) == _plain_chars_loop(text, a, b)
    assert bool(markdown._DEST_BAD_RE.search(text)) == any(c in " <>()\\\"'" or c in markdown._NOT_PLAIN or c < " " for c in text)
    assert bool(resolve._CONTROL_RE.search(text)) == any(ch < " " or ch == "\x7f" for ch in text)


def test_a_lazy_pattern_is_the_compiled_pattern():
    import re

    from mmlint.textutil import lazy_re

    for pattern, text in ((r"^>\s*(\S+?):\s*(.*)$", "> mm-a: b"), (r"[,，;；]", "a，b;c"), (r"(\d)", "x1y22")):
        lazy, compiled = lazy_re(pattern), re.compile(pattern)
        for _ in range(2):  # before and after the first use compiled it
            assert (lazy.search(text) or re.match("", "")).groups() == (compiled.search(text) or re.match("", "")).groups()
            assert lazy.findall(text) == compiled.findall(text) and lazy.split(text) == compiled.split(text)
            assert lazy.sub("-", text) == compiled.sub("-", text) and lazy.pattern == pattern
            assert bool(lazy.match(text)) == bool(compiled.match(text))
