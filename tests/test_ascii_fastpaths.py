"""Patterns with large character classes compile on the first non-ASCII text
that needs them (issue 9 item 8: ~2.5 ms of a cold check); on ASCII text a
small pattern or nothing stands for them. Held here to the full patterns."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint import textutil
from mmlint.reporters import json as json_reporter
from mmlint.rules import interop

TEXT = st.text(alphabet=st.characters(max_codepoint=0x30ff, blacklist_categories=()), max_size=40) | \
    st.text(alphabet=st.characters(max_codepoint=0x7f), max_size=40)


def test_the_full_classes_hold_no_ascii_beyond_the_small_one():
    for c in map(chr, range(128)):
        assert bool(textutil.UNSAFE_CHARS.match(c)) == bool(textutil._ASCII_UNSAFE.match(c)), repr(c)
        assert not json_reporter._RAW_UNSAFE.match(c) and not interop.BIDI.match(c) and not interop.INVISIBLE.match(c)


@settings(max_examples=300, deadline=None)
@given(TEXT)
def test_ascii_fast_paths_give_what_the_full_patterns_give(text):
    full = textutil.UNSAFE_CHARS
    assert textutil.printable(text) == (full.sub(textutil._escape_char, text) if full.search(text) else text)
    assert textutil.unsafe_chars(text) == full.findall(text)
    assert json_reporter._safe(text) == json_reporter._RAW_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
