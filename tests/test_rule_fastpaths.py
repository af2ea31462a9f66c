"""Gates the rules put before their exact checks, held to those checks:
a gate may only skip what the check would not find."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from conftest import corpus_stores, fixture_stores, store_id
from mmlint import api, dialects, rules
from mmlint.errors import CheckError
from mmlint.rules import interop

LINE_PIECES = ["name", "key", ":", ": ", " ", "  ", "\t", "#", " #", "[a]", "{b}", "'q'", '"q"', "&", "*", "!", "|", ">",
               "%", "@", "`", "x", "é", "2026-01-01", "\r", "-"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(LINE_PIECES), max_size=8).map("".join), max_size=6))
@example(["name: a: b"])
@example(["k: a:"])
@example(["k: v #c"])
@example(["\tk: v"])
@example(["k: v\tw"])
@example(["k: @x"])
def test_risky_byte_gate_passes_every_risky_block(lines):
    block = ("---\n" + "\n".join(lines) + "\n---\n").encode("utf-8")
    if any(interop._risky(r) for r in lines):
        assert interop._RISKY_BYTES.search(block) is not None


def _read(root):
    try:
        name, prof, _ = api.choose(str(root))
    except CheckError:
        pytest.skip("not a store on its own")
    mod = dialects.get(name)
    return mod, mod.read(str(root), prof)


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_risky_gate_on_real_notes(root):
    mod, store = _read(root)
    ctx = rules.Context(store, mod, rules.Options())
    for n in store.notes:
        fm = n.frontmatter
        if fm is None or fm.close_raw is None:
            continue
        if any(interop._risky(r) for r in fm.raw_lines()):
            assert interop._maybe_risky(ctx, n), n.path
