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


# ---------------------------------------------------------------- F114 / F116 labels

def _labels_reference(body):
    """F114's label search as it was: every unfenced line tried."""
    from mmlint.rules import frontmatter as fm

    why = how = near_why = near_how = False
    for _, line in fm._unfenced(body.split("\n")):
        if not why and (fm._WHY.match(line) or fm._WHY_HEAD.match(line)):
            why = True
        elif not why and fm._WHY_NEAR.match(line):
            near_why = True
        if not how and (fm._HOW.match(line) or fm._HOW_HEAD.match(line)):
            how = True
        elif not how and fm._HOW_NEAR.match(line):
            near_how = True
    return why, how, near_why, near_how


def _empty_labels_reference(body):
    """F116's search as it was: every unfenced line tried."""
    from mmlint.rules import frontmatter as fm

    out = []
    lines = body.split("\n")
    for i, line in fm._unfenced(lines):
        lm = fm._LABEL_REST.match(line)
        if not lm:
            continue
        rest = fm.strip_comments(lm.group(2)).strip(" *_")
        j = i + 1
        while not rest and j < len(lines):
            nxt = lines[j]
            j += 1
            if not nxt.strip():
                continue
            if fm._LABEL_REST.match(nxt) or nxt.lstrip().startswith("#"):
                break
            rest = fm.strip_comments(nxt).strip(" *_-")
        if not rest:
            out.append((i, "Why" if lm.group(1).lower() == "why" else "How to apply"))
    return out


LABEL_PIECES = ["Why", "why", "WHY", "How to apply", "how to apply", "HOW TO APPLY", "how", "How", "apply", "wHy",
                "**", "__", ":", "：", " ", "\t", "#", "## ", "> ", "- ", "* ", "1. ", "2) ", "(since 2026)", "（注）",
                "```", "~~~", "   ```", "    ~~~", "<!-- x -->", "<!--", "-->", "text", "w", "W", "ẃ", "Ｗ", "\r",
                "ｗhy", "because", "do it"]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(LABEL_PIECES), max_size=7).map("".join), max_size=8).map("\n".join))
@example("**Why:** because.\n\n**How to apply:** do it.\n")
@example("```\n**Why:** x\n```\nHow to apply:\n")
@example("## Why\n\n~~~\nHow to apply: x\n~~~\n")
@example("**Why:**\n\n**How to apply:** <!-- fill -->\n")
@example("Why\nhow\n")
def test_label_searches_match_every_line_search(body):
    from mmlint.rules import frontmatter as fm

    assert fm._labels(body) == _labels_reference(body)
    assert fm._empty_labels(body) == _empty_labels_reference(body)


def test_only_w_matches_w_ignoring_case():
    import re

    everything = "".join(map(chr, range(0x110000)))
    assert sorted(set(re.findall("w", everything, re.IGNORECASE))) == ["W", "w"]


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_label_searches_on_real_notes(root):
    from mmlint.rules import frontmatter as fm

    _, store = _read(root)
    for n in store.notes:
        assert fm._labels(n.body) == _labels_reference(n.body), n.path
        assert fm._empty_labels(n.body) == _empty_labels_reference(n.body), n.path
