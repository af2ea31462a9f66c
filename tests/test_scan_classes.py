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
