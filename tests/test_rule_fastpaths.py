"""Gates the rules put before their exact checks, held to those checks:
a gate may only skip what the check would not find."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, event, example, given, settings
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


# ---------------------------------------------------------------- byte gates over joined files (rules.shared)

GATED = ("S106", "S107", "S111", "S112", "S114", "H106", "X114")
BYTE_PIECES = [b"\x00", b"\r", b"\r\n", b"\n", b"<<<<<<< HEAD", b"<<<<<<<", b"=======", b">>>>>>> b", b"ghp_" + b"a" * 36,
               b"AKIA" + b"B" * 16, b"sk-" + b"c" * 24, b"AIza" + b"d" * 35, b"-----BEGIN PRIVATE KEY-----", b"\xc3\xa9",
               b"\xe9", b"\xc2\xa0", b"\xe2\x80\x8b", b"@", b"ana@hess-auto.fr", b"+33 6 12 34 56 78", b"123-45-6789",
               b"AB 12 34 56 C", b"(555) 010-2233", b"2026-01-01", b"x", b"word ", b"name: a", b"---"]


def _gated_findings(store, mod):
    ctx = rules.Context(store, mod, rules.Options())
    out = {}
    registry = rules.load()
    for code in GATED:
        r = registry[code]
        if rules.runs_on(r, store, ctx.options):
            out[code] = [(f.span, f.message, f.hint, f.fix and f.fix.edits) for f in r.func(ctx)]
    return out


def _every_file(ctx, gate):
    """The per-file loop the gates stand in front of: every record, in store order."""
    return iter(ctx.store.files.values())


def _held_to_per_file_loop(store, mod, monkeypatch):
    from mmlint.rules import shared

    fast = _gated_findings(store, mod)
    for chunk in (1, 64):  # a file per chunk, and a few files per chunk
        with monkeypatch.context() as m:
            m.setattr(shared, "CHUNK", chunk)
            assert _gated_findings(store, mod) == fast
    with monkeypatch.context() as m:
        m.setattr(shared, "gated", _every_file)
        m.setattr(shared, "notes_ascii", lambda ctx: False)
        assert _gated_findings(store, mod) == fast
    return fast


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(BYTE_PIECES), max_size=10).map(b"".join), min_size=1, max_size=6),
       st.lists(st.sampled_from(BYTE_PIECES), max_size=6).map(b"".join))
def test_byte_gated_rules_match_their_per_file_loops(bodies, index_extra):
    import tempfile
    from pathlib import Path

    monkeypatch = pytest.MonkeyPatch()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        lines = [b"# Memory Index", b"", b"## user"]
        for i, body in enumerate(bodies):
            head = b"---\nname: n%d\ndescription: d " % i + body[:20].replace(b"\n", b" ") + b"\ntype: user\n---\n\n"
            (root / f"n{i}.md").write_bytes(head + body if i % 2 else body)
            lines.append(b"- [N](n%d.md) - h" % i)
        (root / "MEMORY.md").write_bytes(b"\n".join(lines) + b"\n" + index_extra)
        mod = dialects.get("engramory")
        store = mod.read(str(root), "upstream")
        _held_to_per_file_loop(store, mod, monkeypatch)


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_byte_gated_rules_on_real_stores(root, monkeypatch):
    mod, store = _read(root)
    _held_to_per_file_loop(store, mod, monkeypatch)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=12), st.from_regex(rb"gh[pousr]_|github_pat_|A[KS]IA|sk-|xox[abprs]-|AIza|-----BEGIN ", fullmatch=True),
       st.binary(max_size=12))
def test_secret_needles_are_in_every_prefix_match(before, prefix, after):
    from mmlint.rules import store as store_rules

    data = before + prefix + after
    assert store_rules._SECRET_PREFIXES.search(data) is not None
    assert store_rules._has_secret_prefix(data)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(["a", " ", "\n", "\ufeff", "\u00a0", "\u200b", "\u2028", "\u202e", "é", "key: v", "\r"]),
                max_size=12).map("".join))
def test_invisible_hits_match_the_line_by_line_search(text):
    start = 1 if text.startswith("\ufeff") else 0
    want = []
    for i, line in enumerate(text.split("\n"), start=1):
        m = interop.INVISIBLE.search(line, start if i == 1 else 0)
        if m is not None:
            want.append((i, m.start() + 1, m.group(), len(interop.INVISIBLE.findall(line)) - 1))
    assert interop._invisible_hits(text) == want


# ---------------------------------------------------------------- F111 / F112 instance

def _instance_reference(ctx, note):
    """F111's schema instance as it was built: two frontmatter look-ups per field."""
    inst = {}
    for key, field in ctx.dialect.KEYMAP.items():
        value = getattr(note, field)
        if value is None:
            continue
        if key == "scope" and value == "":
            continue
        native = ctx.frontmatter_item(note, key) if ctx.frontmatter_item(note, "mmlint-" + field) is not None else None
        if native is not None and isinstance(native.value, str):
            value = native.value
        if key == "tags" and ctx.store.dialect == "workspace":
            item = ctx.frontmatter_item(note, "tags")
            value = item.value if item is not None and isinstance(item.value, str) else ", ".join(value)
        inst[key] = value
    return inst


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_schema_instance_on_real_notes(root):
    from mmlint.rules import frontmatter as fm

    mod, store = _read(root)
    if not hasattr(mod, "KEYMAP"):
        pytest.skip("no frontmatter")
    ctx = rules.Context(store, mod, rules.Options())
    for n in store.notes:
        assert fm._instance(ctx, n) == _instance_reference(ctx, n), n.path


CARRIER_KEYS = ["mmlint-name", "mmlint-summary", "mmlint-type", "mmlint-tags", "mmlint-created", "mmlint-scope", "mmlint-",
                "mmlint-x", "tags", "scope", "metadata"]


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(["engramory", "workspace"]), st.lists(st.sampled_from(CARRIER_KEYS), unique=True, max_size=5),
       st.sampled_from(["a, b", "[a, b]", "''", "x"]))
def test_schema_instance_with_carriers(dialect, extra, value):
    import tempfile
    from pathlib import Path

    from mmlint.rules import frontmatter as fm

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        lines = "".join(f"{k}: {value}\n" for k in extra)
        (root / "a.md").write_text(f"---\nname: a\ndescription: d\ntype: user\n{lines}---\n\nbody\n", encoding="utf-8")
        (root / "MEMORY.md").write_text("# Memory Index\n\n- [A](a.md) - h\n", encoding="utf-8")
        mod = dialects.get(dialect)
        store = mod.read(str(root), "upstream" if dialect == "engramory" else None)
        ctx = rules.Context(store, mod, rules.Options())
        for n in store.notes:
            assert fm._instance(ctx, n) == _instance_reference(ctx, n)


# ---------------------------------------------------------------- Entry.line

def test_entry_line_is_its_span_line():
    from mmlint.model import Entry, Span

    for span in (Span("MEMORY.md", 3, 1), Span("MEMORY.md", 4, 2), Span("MEMORY.md", 5, 1, 5, 9), Span("x.md", 6, 1)):
        e = Entry(span, "a.md", "a.md", pointer_span=Span("MEMORY.md", span.line, 4, span.line, 8))
        assert e.line == e.span.line == span.line
    e = Entry.on_line("MEMORY.md", 7, "a.md", "a.md", "A", "h", None, "link", 4, 8, {})
    assert e.line == e.span.line == 7
    e.span = Span("MEMORY.md", 9, 3)
    assert e.line == 9


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_entry_lines_on_real_indexes(root):
    _, store = _read(root)
    if store.index is not None:
        assert [e.line for e in store.index.entries] == [e.span.line for e in store.index.entries]


def _risky_in_block_reference(data, close_line):
    end = -1
    for _ in range(close_line - 1):
        end = data.find(b"\n", end + 1)
        if end < 0:
            end = len(data)
            break
    return interop._RISKY_BYTES.search(data, 0, end) is not None


@settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from([p.encode() for p in LINE_PIECES] + [b"\n", b"\n", b"---\n", b"[[x]]"]), max_size=24).map(b"".join),
       st.integers(0, 9), st.sampled_from([1, 3, 8, 4096]))
@example(b"k: v\n---\n[[a]]\n", 3, 4096)
@example(b"k: a:\n", 9, 3)
@example(b"name: x\nk: a b c d: e\n---\n", 4, 8)
def test_risky_window_agrees_with_the_block_search(monkeypatch, data, close_line, window):
    monkeypatch.setattr(interop, "_RISKY_WINDOW", window)
    assert interop._risky_in_block(data, close_line) == _risky_in_block_reference(data, close_line)


@settings(max_examples=500, deadline=None)
@given(st.text(st.characters(max_codepoint=300), max_size=8))
@example("abcd")
@example("abcdef")
def test_hooks_taken_for_placeholders_have_too_few_grams(hook):
    from mmlint import similarity
    from mmlint.rules import hygiene

    if hygiene._surely_placeholder(hook):
        assert len(similarity.char_grams(hook)) < hygiene.MIN_HOOK_GRAMS


# ---------------------------------------------------------------- name gates (N112, X115)

NAME_PIECES = ["a", "b.md", "/", "\n", "\x1b", "\x7f", "\x85", "\u2028", "\u202e", "\u200b", "\u00a0", "\udc80", "\udcff",
               "é", " ", "~", "-"]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.lists(st.sampled_from(NAME_PIECES), min_size=1, max_size=5).map("".join), max_size=5))
def test_name_gates_see_every_name(paths):
    from mmlint.rules import naming
    from mmlint.textutil import unsafe_chars

    per_name = any(not "\udc80" <= c <= "\udcff" for p in paths for part in p.split("/") for c in unsafe_chars(part))
    assert naming._any_unsafe(paths) == per_name
    assert "".join(paths).isascii() == all(p.isascii() for p in paths)


@pytest.mark.parametrize("root", corpus_stores() + fixture_stores(), ids=store_id)
def test_history_paths_are_the_dialects(root):
    from mmlint.rules import shared

    mod, store = _read(root)
    ctx = rules.Context(store, mod, rules.Options())
    assert shared.history(ctx) == {n.path for n in store.notes if ctx.is_history(n.path)}


def test_severity_in_is_the_dict_lookup():
    for r in rules.load().values():
        for dialect in ("mm", "engramory", "workspace", None):
            for profile in (None, "recall-v1", "upstream", "claude-code"):
                by = dict(r.severity_by)
                want = by[profile] if profile is not None and profile in by else by.get(dialect or "", r.severity)
                assert r.severity_in(dialect, profile) == want, (r.code, dialect, profile)


# ---------------------------------------------------------------- index lines without a list of lines (I103, I110)

INDEX_PIECES = ["- [A](a.md) - h", "x" * 30, "é", "\U0001f600", "\n", "\r\n", "\r", " ", "#"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(INDEX_PIECES), max_size=30).map("".join), st.integers(0, 90), st.booleans())
def test_index_line_scans_match_the_split_lines(text, limit, bom):
    from mmlint.markdown import split_lines
    from mmlint.rules import index

    assert index._long_lines(text, limit) == {k: len(ln) for k, ln in enumerate(split_lines(text), 1) if len(ln) > limit}
    used, want = 3 if bom else 0, None
    for i, line in enumerate(text.split("\n"), start=1):
        used += len(line.encode("utf-8", "surrogateescape")) + 1
        if used > limit:
            want = i
            break
    assert index._line_at_byte(text, limit, bom) == (want if want is not None else max(1, text.count("\n")))


def _duplicate_slug_reference(ctx):
    """N107's loop without its flat-store shortcut."""
    import unicodedata

    seen = {"memory.md": "MEMORY.md"} if ctx.store.index is not None else {}
    out = []
    for n in ctx.store.notes:
        base = n.path.rsplit("/", 1)[-1]
        key = unicodedata.normalize("NFC", base).casefold()
        if key in seen and "/" not in seen[key] and "/" not in n.path:
            continue
        if key in seen:
            out.append((n.path, seen[key]))
        else:
            seen[key] = n.path
    return out


@pytest.mark.parametrize("layout", [("a.md", "A.md", "memory.md"), ("a.md", "sub/a.md", "sub/A.md"), ("x.md", "Memory.md"),
                                    ("sub/memory.md", "b.md")])
def test_duplicate_slug_shortcut(tmp_path, layout):
    for rel in layout:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("---\nname: a\ndescription: d\ntype: user\n---\n\nx\n", encoding="utf-8")
    (tmp_path / "MEMORY.md").write_text("# Memory Index\n", encoding="utf-8")
    mod = dialects.get("engramory")
    store = mod.read(str(tmp_path), "upstream")
    ctx = rules.Context(store, mod, rules.Options())
    got = [f.span.path for f in rules.load()["N107"].func(ctx)]
    assert got == [p for p, _ in _duplicate_slug_reference(ctx)]


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(LABEL_PIECES + ["why:", "WHY:", "how to apply:", "How To Apply:", "how  to apply:",
                                                "Why：", "**Why:**", "__Why:__", "why:**", "-", "*", ">", "_"]),
                max_size=8).map("".join))
@example("**Why:** because.")
@example("**How to apply:**   __  do it")
@example("- why:")
def test_a_plain_label_is_what_the_patterns_say(line):
    # _plain_label answers for the label patterns without compiling them: when it answers, each
    # pattern agrees (its own matches, the others do not, _LABEL_REST's rest is the same)
    from mmlint.rules import frontmatter as fm

    plain = fm._plain_label(line)
    if plain is None:
        return
    label, rest = plain
    assert bool(fm._WHY.match(line)) == (label == "why") and bool(fm._HOW.match(line)) == (label == "how")
    assert not fm._WHY_HEAD.match(line) and not fm._HOW_HEAD.match(line)
    assert not (fm._HOW_NEAR if label == "why" else fm._WHY_NEAR).match(line)
    lm = fm._LABEL_REST.match(line)
    assert lm and lm.group(1).lower()[:3] == label and lm.group(2) == rest


def test_a_plain_check_compiles_no_label_or_relative_date_pattern(tmp_path):
    # the bench's notes write their labels plainly (**Why:** / **How to apply:**) and hold no relative
    # date word: no label pattern compiled, nor F119's
    from conftest import after_cli, make_store

    note = ("---\nname: {0}\ndescription: d\ntype: {0}\nscope: repo\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\n"
            "Fact.\n\n**Why:** because.\n\n**How to apply:** do it.\n")
    root = make_store(tmp_path / "s", {"MEMORY.md": "# Memory Index\n\n## feedback\n- [A](feedback.md) - h\n- [B](project.md) - h\n",
                                       "feedback.md": note.format("feedback"), "project.md": note.format("project")})
    probe = ("from mmlint.rules import frontmatter as fm\n"
             "result = sorted(n for n in ('_WHY', '_HOW', '_WHY_NEAR', '_HOW_NEAR', '_LABEL_REST') "
             "if 'match' in vars(getattr(fm, n).rx)) + [n for n in ('_WHY_HEAD', '_HOW_HEAD', '_RELATIVE') "
             "if 'match' in vars(getattr(fm, n))]")
    assert after_cli(["check", str(root), "--format", "json", "--profile", "upstream", "--no-cache"], probe) == []


_RELATIVE_PIECES = ["yesterday", "Today", "TOMORROW", "last", "Last ", "week", "month", "year", "night", "next ", "this ",
                    "This Week", "a few days ago", "A Few Days Ago", "recently", "Recently", " ", "\n", "-", "x", "s",
                    "_", "1", "上周", "最近", "ſ", "K", "ı", "é"]


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from(_RELATIVE_PIECES), max_size=10).map("".join))
@example("Release slipped to next week.")
@example("Released on 2026-03-12.")
def test_relative_date_prefilter_is_the_search(body):
    # F119 answers an ASCII body without any of its words without compiling _RELATIVE
    from mmlint.rules import frontmatter as fm

    got, want = fm._relative_date(body), fm._RELATIVE.search(body)
    assert (got and (got.span(), got.group())) == (want and (want.span(), want.group()))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from([".engramory-", ".engramory", "recall", "-", "a", "Z", "0", ".jsonl", ".json", "\n", "é",
                                 "user-", "feedback-", "project", "reference-", "users-", "User-"]), max_size=6).map("".join))
def test_the_ledger_test_is_the_pattern(name):
    # detection tells a recall-v1 ledger without compiling its pattern for other names
    import re

    from mmlint.dialects import engramory

    assert engramory.is_ledger(name) == bool(re.match(r"^\.engramory-[a-z0-9-]+\.jsonl$", name))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(["> mm-kind: x", ">\tmm-id:", "> mm-", "mm-version:", "- **summary:** s", "- **file:** f",
                                 "- **summary:**", "-  **file:**", "\n", " ", "x", "> ", "mm", "- **"]), max_size=8).map("".join))
def test_mm_detection_prefilters_are_its_patterns(tmp_path, text):
    # mm's index evidence looks for the patterns' literal parts first: the same evidence as the patterns alone
    import re

    from mmlint.dialects import mm

    (tmp_path / "MEMORY.md").write_text(text, encoding="utf-8")
    ev = mm.detect(str(tmp_path))
    header = re.search(r"^>[ \t]*mm-(?:kind|version|id):", text, re.M) is not None
    entry = re.search(r"^- \*\*(?:summary|file):\*\*", text, re.M) is not None
    assert (ev.score if ev else 0) == 12 * header + 4 * entry


INDEX_LINES = st.sampled_from(["- [N0](n0.md) — hook", "## user", "## feedback", "", "prose line", "- [X](gone.md) — é"])


def _old_pointer_fix(store, mod, note, caps, offered):
    """The P106 fix as built before the caps were checked by arithmetic:
    the whole new index, then its lines and bytes counted, here with the
    lines of the fixes offered before it (``offered``, which it extends)
    in the count too: the fixes offered fit under the caps together."""
    from mmlint.rules.pointers import insert_at
    from mmlint.textutil import count_lines, encode

    idx = store.index
    line = mod.pointer_line(note, note.path)
    lines = idx.lines()
    if idx.text.endswith(("\n", "\r")):
        lines.pop()
    nl = idx.newline if idx.newline in ("\r\n", "\r") else "\n"
    heads = [(ln, text) for ln, level, text in idx.headings if level <= 2]
    together = nl.join(lines + offered + [line]) + nl
    if (caps["lines"] and count_lines(together) > caps["lines"]) or (caps["bytes"] and len(encode(together, idx.bom)) > caps["bytes"]):
        return None
    offered.append(line)
    lines.insert(insert_at(lines, heads, note.type), line)
    return encode(nl.join(lines) + nl, idx.bom)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(INDEX_LINES, max_size=12), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans(), st.booleans(),
       st.integers(0, 14), st.integers(0, 400), st.sampled_from(["user", "feedback", "project"]))
def test_orphan_fixes_are_the_ones_the_whole_text_gives(lines, nl, bom, final, cap_lines, cap_bytes, kind):
    """P106 refuses a fix over the caps by arithmetic, before building the
    text: the same fixes (present or not, same bytes) as counting the
    built text with the lines of the fixes offered before it, whatever the
    line ends, BOM and caps."""
    from mmlint.rules.index import index_caps

    text = nl.join(lines) + (nl if final else "")
    files = {"MEMORY.md": (b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"),
             "n0.md": b"---\nname: n0\ndescription: d\ntype: user\n---\n\nb\n"}
    for i in range(1, 4):
        files[f"n{i}.md"] = f"---\nname: n{i}\ndescription: d{i}\ntype: {kind}\n---\n\nb\n".encode()
    mod = dialects.get("engramory")
    store = mod.read("/nonexistent-store", "upstream", tree=files)
    options = rules.Options(caps={"index_lines": cap_lines, "index_bytes": cap_bytes}, select=["P106"])
    caps = index_caps(rules.Context(store, mod, options))
    got = {d.span.path: d.edits for d in rules.run(store, mod, options) if d.code == "P106"}
    offered: list[str] = []
    for note in store.notes:
        if note.path in got:
            want = _old_pointer_fix(store, mod, note, caps, offered)
            event("fix" if want is not None else "no fix")
            assert got[note.path] == (None if want is None else {"MEMORY.md": want}), note.path


def test_orphan_fixes_are_bounded_per_run():
    """Each P106 fix holds a whole index: at most MAX_FIXES a run."""
    from mmlint.rules.pointers import _PointerFixes

    n = _PointerFixes.MAX_FIXES + 5
    files = {"MEMORY.md": b"- [A](a.md) \xe2\x80\x94 h\n"}
    for i in range(n):
        files[f"n{i}.md"] = f"---\nname: n{i}\ndescription: d\ntype: user\n---\n\nb\n".encode()
    mod = dialects.get("engramory")
    store = mod.read("/nonexistent-store", "recall-v1", tree=files)
    found = [d for d in rules.run(store, mod, rules.Options(select=["P106"], caps={"index_lines": 0, "index_bytes": 0}))
             if d.code == "P106"]
    assert len(found) == n
    assert sum(d.edits is not None for d in found) == _PointerFixes.MAX_FIXES


def test_orphans_of_a_long_index_cost_linear_time():
    """8,000 orphans beside an 8,000-line index took 10 s: each fix joined
    and encoded the whole index before finding it over the cap. 4x both
    must cost about 4x."""
    import time

    mod = dialects.get("engramory")

    def cost(n: int) -> float:
        files = {"MEMORY.md": "".join("- [N0](n0.md) — hook\n" for _ in range(n)).encode()}
        for i in range(n):
            files[f"n{i}.md"] = f"---\nname: n{i}\ndescription: d\ntype: user\n---\n\nb\n".encode()
        store = mod.read("/nonexistent-store", "claude-code", tree=files)
        best = float("inf")
        for _ in range(3):
            t0 = time.perf_counter()
            found = [d for d in rules.run(store, mod, rules.Options(select=["P106"])) if d.code == "P106"]
            best = min(best, time.perf_counter() - t0)
        assert len(found) == n - 1 and not any(d.edits for d in found)  # over the 200-line cap: no fix
        return best

    small, large = cost(500), cost(2000)
    assert large < 8 * small + 0.05, (small, large)
