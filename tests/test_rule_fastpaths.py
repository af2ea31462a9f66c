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


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40))
def test_byte_gates_agree_with_the_decoded_text(data):
    from mmlint.textutil import decode

    # S116: a final LF byte is a final line break, whatever the decoding and line style
    dec = decode(data + b"\n")
    text = dec.text.replace("\r", "\n") if dec.newline == "\r" else dec.text
    assert text.endswith("\n")
    # S106 / X114: ASCII bytes decode cleanly and hold no invisible character
    if data.isascii():
        assert decode(data).bad_bytes == 0
        assert interop.INVISIBLE.search(decode(data).text) is None


def test_no_invisible_character_is_ascii():
    assert not any(interop.INVISIBLE.match(chr(c)) for c in range(128))


def test_symlinked_notes_from_directory_listings(tmp_path):
    import os

    from mmlint.rules import store as store_rules

    (tmp_path / "sub").mkdir()
    for rel in ("a.md", "sub/b.md"):
        (tmp_path / rel).write_text("---\nname: a\ndescription: d\ntype: user\n---\n\nx\n")
    os.symlink("a.md", tmp_path / "c.md")
    os.symlink("b.md", tmp_path / "sub" / "d.md")
    (tmp_path / "MEMORY.md").write_text("- [A](a.md) — a\n- [B](sub/b.md) — b\n")
    mod = dialects.get("engramory")
    store = mod.read(str(tmp_path), "claude-code")
    ctx = rules.Context(store, mod, rules.Options())
    notes = [p for p, r in store.files.items() if r.kind == "note"]
    want = {p for p in notes if os.path.islink(tmp_path / p)}
    assert want == {"c.md", "sub/d.md"}
    assert store_rules._symlinked_notes(ctx) == want


def test_dates_memoised_as_parsed():
    from mmlint.rules import frontmatter as fm_rules

    for v in ("2026-01-02", "2026-02-30", "２０２６-01-01", "2026-01-01T10:00", "", None, 5, "x"):
        assert fm_rules._date(v) == fm_rules._parse_date(v)
