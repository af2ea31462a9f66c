"""Fast paths of the read (issue 9 item 2) held to the general way they
stand in for: same answers on every input (hypothesis) and on every
pointer of the corpus and fixture stores."""

from __future__ import annotations

import pytest
from conftest import corpus_stores, fixture_stores, store_id
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mmlint import api, resolve

_dest = st.lists(st.sampled_from(list("ab.-_/~:#?%\\ 9Zé\x00\x7f") + ["%41", "http://", "..", "//", "C:"]),
                 max_size=12).map("".join)


@settings(max_examples=400, deadline=None)
@given(_dest, st.booleans(), st.sampled_from(["", "sub", "a/b"]))
@example("user-note-1.md", True, "")
@example("a/.b", True, "")
@example("a/b/", False, "")
def test_classify_answers_as_the_general_way(dest, decode, base):
    assert resolve.classify(dest, decode, base) == resolve._classify(dest, decode, base)


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_every_stored_pointer_classifies_as_the_general_way(root):
    try:
        store = api.read_store(api.locate([str(root)])[0]).store
    except Exception:  # noqa: BLE001 - a store that is not checkable is not this test's subject
        return
    for e in (store.index.entries if store.index is not None else []):
        if e.pointer is not None:
            for decode in (True, False):
                assert resolve.classify(e.pointer, decode) == resolve._classify(e.pointer, decode, "")


def _hook_reference(rest):
    """engramory's hook reading as it was: each separator stripped in turn."""
    text = rest.strip()
    for sep in ("—", "–", " - ", "-", ":", "：", "·"):
        if text.startswith(sep.strip()) and sep.strip():
            text = text[len(sep.strip()):].strip()
            break
    return text or None


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["—", "–", " - ", "-", ":", "：", "·", " ", "h", "ook", "\t"]), max_size=8).map("".join))
def test_a_hook_reads_as_before(rest):
    from mmlint.dialects import engramory

    assert engramory._hook(rest) == _hook_reference(rest)
