"""Byte-level interop hazards (issue 10 item 6): a BOM before a header the
owning tool matches by position (X113), invisible characters in keys and
values (X114), bidi controls and invisible characters in names (X115),
escaped in every text output."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import ENG, MM, N, WS, idx, with_  # noqa: E402
from conftest import make_store  # noqa: E402

from mmlint import api, reporters  # noqa: E402

EVIL = "b\u202egpj.md"
ZW = "a\u200b.md"


def checked(root: Path, dialect: str, profile: str | None = None) -> api.CheckResult:
    return api.check([str(root)], dialect, profile, isolated=True)


@pytest.mark.parametrize("fmt", ["text", "github", "junit"])
def test_bidi_and_zero_width_names_are_escaped_in_every_text_output(tmp_path, fmt):
    root = make_store(tmp_path / "s", with_(ENG, **{"MEMORY.md": idx("- [A](a.md) — h", f"- [B]({EVIL}) — h"),
                                                   EVIL: N("b"), ZW: N("zw")}))
    res = checked(root, "engramory", "upstream")
    assert {d.code for s in res.stores for d in s.diagnostics} >= {"X115"}
    buf = io.StringIO()
    reporters.get(fmt).report(res, buf, str(tmp_path))
    out = buf.getvalue()
    assert "\u202e" not in out and "\u200b" not in out
    assert "\\u202e" in out and "\\u200b" in out


def test_bom_is_a_finding_where_the_tool_keeps_it_and_the_fix_removes_it(tmp_path):
    bom = b"\xef\xbb\xbf"
    mm = make_store(tmp_path / "mm", with_(MM, **{"memories/alpha.md": bom + MM["memories/alpha.md"].encode()}))
    (d,) = [d for s in checked(mm, "mm").stores for d in s.diagnostics if d.code == "X113"]
    assert (d.span.path, d.span.line, d.span.column) == ("memories/alpha.md", 1, 1)
    assert d.edits == {"memories/alpha.md": MM["memories/alpha.md"].encode()}
    # engramory readers strip a BOM (recall-v1 spec §2): no finding there
    eng = make_store(tmp_path / "eng", with_(ENG, **{"a.md": bom + N().encode()}))
    assert "X113" not in {d.code for s in checked(eng, "engramory", "upstream").stores for d in s.diagnostics}


def test_invisible_characters_in_bodies_are_not_judged_but_in_the_index_they_are(tmp_path):
    root = make_store(tmp_path / "s", with_(WS, **{"甲.md": WS["甲.md"].replace("正文", "正\u00a0文\u200d")}))
    assert "X114" not in {d.code for s in checked(root, "workspace").stores for d in s.diagnostics}
    root = make_store(tmp_path / "t", with_(ENG, MEMORY_DOT_md=idx("- [A](a.md) —\u00a0hook\u2060")))
    (d,) = [d for s in checked(root, "engramory", "upstream").stores for d in s.diagnostics if d.code == "X114"]
    assert d.span.line == 3 and d.span.column == 14 and "U+00A0 NO-BREAK SPACE (and 1 more" in d.message


from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@given(st.text() | st.text(alphabet="aAbBzZ09_-./ßİﬁ\u0301\u00e9e\ud800", max_size=12))
def test_fold_key_is_nfc_then_casefold(text):
    # the ASCII shortcut (lower()) gives what unicodedata would, so collisions are found the same
    import unicodedata

    from mmlint.textutil import fold_key

    assert fold_key(text) == unicodedata.normalize("NFC", text).casefold()
