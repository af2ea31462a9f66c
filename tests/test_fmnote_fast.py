"""The reader's fast path for plain ``key: value`` frontmatter
(``_fmnote._read_plain``) reads every note exactly as the general reader
does: same fields, spans, body, problems and frontmatter (issue 9 item 2)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from mmlint.dialects import _fmnote, engramory, workspace

KEYS = st.sampled_from(["name", "description", "type", "tags", "created", "updated", "scope", "aliases", "confidence",
                        "title", "category", "metadata", "mmlint-tags", "note", "name ", "x-y", "", "- a", "#k", "a b"])
VALUES = st.sampled_from(["x", "a, b", "[a, b]", "'q'", '"q"', "|", ">-", "{a: 1}", "", " ", "v ", "2026-01-01",
                          "a: b", "c # d", "\u00a0x", "x\u00a0", "é", "a，b", "-", "*a", "%"])
PLAIN = st.builds(lambda k, v: f"{k}: {v}", st.sampled_from(["name", "description", "type", "tags", "created", "title",
                                                              "category", "note", "scope"]),
                  st.sampled_from(["x", "a, b", "[a, b]", "2026-01-01", "a: b", "c # d", "é", "a/b"]))
LINE = st.one_of(
    PLAIN, PLAIN, PLAIN,
    st.builds(lambda k, sep, v: f"{k}{sep}{v}", KEYS, st.sampled_from([": ", ":", ":  ", " : ", ":\t"]), VALUES),
    st.sampled_from(["", "# c", "  child: 1", "  - item", "- item", "\tk: v", "\u00a0k: v", "no colon", "--- x",
                     "metadata:", "  type: user", "---x: y"]),
)
BODY = st.sampled_from(["", "\n", "\nBody.\n", "Body", "\n\nTwo.\n", "\n[[a]] see\n", "\r\nCR\r\n", "\n---\n"])


@st.composite
def notes(draw) -> bytes:
    lines = draw(st.lists(LINE, max_size=8))
    close = draw(st.sampled_from(["---", "---  ", "--- \t", None]))
    nl = draw(st.sampled_from(["\n", "\n", "\n", "\r\n", "\r"]))
    text = nl.join(["---"] + lines + ([close] if close is not None else [])) + draw(BODY)
    bom = draw(st.sampled_from([b"", b"", b"\xef\xbb\xbf"]))
    return bom + text.encode("utf-8")


@st.composite
def plain_notes(draw) -> bytes:
    lines = draw(st.lists(PLAIN, max_size=8, unique_by=lambda line: line.split(":")[0]))
    return ("\n".join(["---"] + lines + [draw(st.sampled_from(["---", "--- "]))]) + draw(BODY)).encode("utf-8")


def _state(note, problems):
    fm = note.frontmatter
    fmstate = None if fm is None else (fm.open_raw, fm.close_raw, fm.close_line, fm.body_offset, fm.problems,
                                       [fm.top(k) for k in ("name", "tags", "title", "metadata", "absent")],
                                       fm.multiline, fm.raw_lines(), fm.items)
    fields = {s: getattr(note, s) for s in note.__slots__ if s not in ("spans", "frontmatter", "layout", "entry")}
    return fields, dict(note.spans.items()), [(p.code, p.message, p.span, p.hint) for p in problems], fmstate


def _both(data: bytes, keymap, raw: bool):
    slow = _fmnote._read("a.md", data, keymap, "a", (), raw, parts_wanted=False, fast=False)
    fast = _fmnote._read("a.md", data, keymap, "a", (), raw, parts_wanted=False)
    return _state(*slow[:2]), _state(*fast[:2])


@settings(max_examples=300, deadline=None)
@given(st.one_of(notes(), plain_notes()))
def test_the_fast_path_reads_as_the_general_reader(data):
    for keymap, raw in ((engramory.KEYMAP, False), (workspace.KEYMAP, True)):
        slow, fast = _both(data, keymap, raw)
        assert fast == slow


def test_the_fast_path_takes_the_common_note():
    data = b"---\nname: a\ndescription: d\ntype: user\ntags: x, y\ncreated: 2026-01-01\nextra: e\n---\n\nBody.\n"
    assert _fmnote._read_plain("a.md", data, engramory.KEYMAP, "a", (), False) is not None
    slow, fast = _both(data, engramory.KEYMAP, False)
    assert fast == slow
    for other in (b"---\nname: a\nname: b\n---\n", b"---\nmmlint-tags: x\n---\n", b"---\r\nname: a\r\n---\r\n",
                  b"---\nname: 'a'\n---\n", b"---\nname: a\n", b"---\nmetadata:\n  type: user\n---\n"):
        assert _fmnote._read_plain("a.md", other, engramory.KEYMAP, "a", (), False) is None


LIGHT = ("bom", "newline", "head", "body_lf", "lead_blank", "read")


@settings(max_examples=300, deadline=None)
@given(st.one_of(notes(), plain_notes()))
def test_a_layouts_light_parts_are_its_built_parts(data):
    """``NoteLayout.light`` (what a conversion's origin record reads of
    every note) gives the values of the fully built layout, whether the
    note takes the fast path or not, and builds nothing."""
    for keymap, raw, dialect in ((engramory.KEYMAP, False, "engramory"), (workspace.KEYMAP, True, "workspace")):
        note, _ = _fmnote.read_note("a.md", data, keymap, dialect, "a", (), raw=raw)
        light = note.layout.light()
        assert not note.layout.built
        full = _fmnote._read("a.md", data, keymap, "a", (), raw)[2]
        assert light == {k: full[k] for k in LIGHT}


def test_light_parts_take_the_fast_path_and_keep_patches():
    data = b"---\nname: a\ndescription: d\ntype: user\n---\n\nBody.\n"
    assert _fmnote._plain_parts("a.md", data, engramory.KEYMAP, "a", (), False) is not None
    note, _ = _fmnote.read_note("a.md", data, workspace.KEYMAP, "workspace", "a", (), raw=True)
    note.layout.set_read("title", None)
    assert note.layout.light()["read"]["title"] is None and not note.layout.built
    assert _fmnote._plain_parts("a.md", b"---\nmmlint-name: a\n---\n", engramory.KEYMAP, "a", (), False) is None


CARRIER_LINE = st.one_of(LINE, st.builds(lambda k, v: f"mmlint-{k}: {v}", st.sampled_from(["name", "tags", "x"]), VALUES),
                         st.sampled_from(["  mmlint-type: user", "mmlint-: x"]))


@st.composite
def carrier_notes(draw) -> bytes:
    lines = draw(st.lists(CARRIER_LINE, max_size=8))
    text = "\n".join(["---"] + lines + [draw(st.sampled_from(["---", "--- ", "x"]))]) + draw(BODY)
    return draw(st.sampled_from([b"", b"\xef\xbb\xbf"])) + text.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(carrier_notes())
def test_carriers_used_lists_the_keys_the_general_parser_reads(data):
    """``carriers.used`` reads plain blocks without the general parser:
    the same carrier keys, in the same order, as parsing the text the
    readers see (BOM removed)."""
    from mmlint import carriers, frontmatter

    text = (data[3:] if data.startswith(b"\xef\xbb\xbf") else data).decode("utf-8", "surrogateescape")
    fm = frontmatter.parse(text)
    want = [] if fm is None else [("n.md", it.key) for it in fm.items if it.key.startswith(carriers.PREFIX)]
    assert carriers.used({"n.md": data}) == want


def test_carriers_used_sees_carriers_under_a_bom():
    from mmlint import carriers

    assert carriers.used({"n.md": b"\xef\xbb\xbf---\nmmlint-name: a\ntitle: t\n---\n"}) == [("n.md", "mmlint-name")]
