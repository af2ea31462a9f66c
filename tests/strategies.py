"""Hypothesis strategies for hostile memory stores, structure-aware.

Every strategy builds bytes the way a store's own grammar is built, then
breaks it: frontmatter shapes (missing, unclosed, ``metadata:`` nesting,
YAML flow and block values, unclosed quotes, deep bracket nesting),
``mmlint-*`` carriers holding every JSON/YAML type (text, numbers, lists,
mappings, null, lone surrogates), CR/CRLF/LF line ends mixed per line,
NULs, invalid UTF-8, huge lines, bracket runs, and odd file names (line
breaks, escape sequences, bidi controls, ``..``, spaces, non-ASCII, case
twins). A store is ``dict[str, bytes]`` (POSIX relative path -> bytes).

Used by the suite (``test_fuzz.py``, small counts under the ``ci``
profile) and by ``scripts/fuzz.py`` (the long campaign).
"""

from __future__ import annotations

import json

from hypothesis import strategies as st

#: Line ends, one chosen per line.
NEWLINES = st.sampled_from(["\n", "\n", "\n", "\r\n", "\r", ""])

#: Text that tends to break things, mixed with ordinary words.
HOSTILE_TEXT = st.sampled_from([
    "", " ", "a", "deploy", "Why:", "How to apply:", "\x1b[2J", "\x1b]0;title\x07", "\u202e", "\u2066", "\u2028",
    "\x85", "\x00", "\t", "\\", '"', "'", "#", ": ", "](", "[[", "]]", "[", "]", "(", ")", "<", ">", "&", "*", "`",
    "```", "~~~", "---", "- ", "> ", "## ", "%2e%2e/", "../", "/etc/passwd", "~/x", "C:\\x", "file:///etc/passwd",
    "http://x", "中文", "é", "e\u0301", "\ufeff", "\udcff", "{", "}", "&a", "*a", "!!python/object", "|", ">-",
    "ghp_" + "A" * 36, "<<<<<<< HEAD", "=======", "mmlint-disable", "<!-- mmlint-disable P106 -->",
])
WORD = st.one_of(HOSTILE_TEXT, st.text(max_size=12), st.from_regex(r"[a-z][a-z0-9_-]{0,10}", fullmatch=True))
LINE_TEXT = st.lists(WORD, max_size=6).map("".join)


def _surrogate_json(draw: st.DrawFn) -> str:
    return json.dumps(draw(st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\udcff"])))


#: JSON/YAML values of every type, as a carrier would hold them.
JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8), HOSTILE_TEXT),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)),
    max_leaves=6,
)


@st.composite
def carrier_value(draw: st.DrawFn) -> str:
    """The text after ``mmlint-<field>:``: plain text, JSON of any type, a
    lone surrogate escape, YAML flow syntax, or broken JSON."""
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(LINE_TEXT)
    if kind == 1:
        return json.dumps(draw(JSON_VALUES), ensure_ascii=draw(st.booleans()))
    if kind == 2:
        return _surrogate_json(draw)
    if kind == 3:
        return draw(st.sampled_from(["{a: 1}", "[a, b]", "[1, {x: y}]", "&x [1]", "*x", "!!binary aGk=", "null", "~"]))
    if kind == 4:
        return "[" * draw(st.integers(1, 300)) + "]" * draw(st.integers(0, 300))
    return draw(st.sampled_from(['"', "[", "{", '"\\ud800', '["a", 1', '{"a": ']))


CARRIER_KEYS = st.sampled_from([
    "mmlint-slug", "mmlint-title", "mmlint-type", "mmlint-tags", "mmlint-aliases", "mmlint-category",
    "mmlint-budget", "mmlint-index-hook", "mmlint-index-section", "mmlint-entry-body", "mmlint-summary",
    "mmlint-extra-k", "mmlint-extra-mmlint-slug", "mmlint-unknown",
])
FM_KEYS = st.sampled_from(["name", "description", "type", "tags", "created", "updated", "scope", "aliases",
                           "confidence", "title", "originSessionId", "k", ""])
TYPES = st.sampled_from(["user", "feedback", "project", "reference", "User", "", "x\x1b[1m"])


@st.composite
def frontmatter_line(draw: st.DrawFn) -> str:
    """One frontmatter line: ``key: value`` (scalar, quoted, YAML, carrier),
    a nested ``  key: value``, a list item, or junk."""
    kind = draw(st.integers(0, 7))
    if kind == 0:
        return f"{draw(CARRIER_KEYS)}: {draw(carrier_value())}"
    if kind == 1:
        return f"type: {draw(TYPES)}"
    if kind == 2:
        q = draw(st.sampled_from(['"', "'"]))
        return f"{draw(FM_KEYS)}: {q}{draw(LINE_TEXT)}{draw(st.sampled_from([q, '', q + ' x']))}"
    if kind == 3:
        return f"  {draw(st.one_of(FM_KEYS, CARRIER_KEYS))}: {draw(st.one_of(LINE_TEXT, carrier_value()))}"
    if kind == 4:
        return draw(st.sampled_from(["metadata:", "tags:", "  - a", "- b", "description: >-", "  folded", "a: &a [1]",
                                     "b: *a", "c: |", ": x", "   ", "#comment", "---x"]))
    if kind == 5:
        return f"{draw(FM_KEYS)}: " + "[" * draw(st.integers(1, 200))
    return f"{draw(FM_KEYS)}: {draw(LINE_TEXT)}"


@st.composite
def joined(draw: st.DrawFn, lines: list[str]) -> str:
    """``lines`` joined with line ends chosen per line (LF, CRLF, CR, none)."""
    return "".join(line + draw(NEWLINES) for line in lines)


def _bytes_noise(draw: st.DrawFn, text: str) -> bytes:
    """UTF-8 of ``text`` (surrogate escapes kept), sometimes with a BOM,
    invalid UTF-8, NULs or a huge line spliced in."""
    data = text.encode("utf-8", "surrogateescape") if all(not "\ud800" <= c <= "\udbff" and not "\udc00" <= c < "\udc80" for c in text) \
        else text.encode("utf-8", "replace")
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(data)))
        piece = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf", b"\r", b"\r\n",
                                      b"x" * 5000, b"](" * 200, b"[" * 300, b"[[" * 100, b"![" * 100]))
        data = data[:at] + piece + data[at:]
    if draw(st.integers(0, 9)) == 0:
        data = b"\xef\xbb\xbf" + data
    return data


BODY_LINES = st.one_of(LINE_TEXT, st.sampled_from([
    "**Why:** because", "**How to apply:**", "see [x](../outside.md)", "see [y](/etc/passwd)", "[[a]]", "[[",
    "[z](b.md)", "[w](<a b.md>)", "```", "    code", "<!-- c -->", "# h", "](" * 50, "[" * 100,
]))


@st.composite
def fm_note(draw: st.DrawFn) -> bytes:
    """A note with frontmatter (engramory, workspace), perhaps broken."""
    lines = []
    shape = draw(st.integers(0, 9))
    if shape != 0:
        lines.append(draw(st.sampled_from(["---", "---", "---", "--- ", "----", "\ufeff---"])))
        lines += draw(st.lists(frontmatter_line(), max_size=8))
        if shape != 1:
            lines.append("---")
    lines += draw(st.lists(BODY_LINES, max_size=6))
    return _bytes_noise(draw, draw(joined(lines)))


@st.composite
def engramory_index(draw: st.DrawFn, names: list[str]) -> bytes:
    """An engramory ``MEMORY.md``: headings, pointer lines (to the notes'
    names, odd destinations, wikilinks), prose, bracket runs."""
    lines = [draw(st.sampled_from(["# Memory Index", "# Memory Index", "", "# 记忆索引"]))]
    for _ in range(draw(st.integers(0, 8))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            lines.append(f"## {draw(st.one_of(TYPES, LINE_TEXT))}")
        elif kind <= 2 and names:
            dest = draw(st.sampled_from(names))
            dest = f"<{dest}>" if draw(st.booleans()) else dest
            lines.append(f"- [{draw(LINE_TEXT)}]({dest}) — {draw(LINE_TEXT)}")
        elif kind == 3:
            lines.append(f"- [{draw(LINE_TEXT)}]({draw(st.one_of(HOSTILE_TEXT, LINE_TEXT))}) {draw(LINE_TEXT)}")
        elif kind == 4:
            lines.append(draw(BODY_LINES))
        else:
            lines.append("](" * draw(st.integers(1, 500)))
    return _bytes_noise(draw, draw(joined(lines)))


MM_KEYS = st.sampled_from(["summary", "tags", "file", "updated", "budget", "k"])


@st.composite
def mm_index(draw: st.DrawFn, topics: list[str]) -> bytes:
    """An mm ``MEMORY.md``: header meta, ``## topic`` sections with
    ``- **key:** value`` lines and carriers, entry bodies."""
    lines = ["# MEMORY.md", ""] if draw(st.booleans()) else []
    lines += draw(st.lists(st.sampled_from(["> mm-id: local", "> mm-version: 1", "> mm-kind: index", "> mm-id: x y",
                                            "> mm-version: 2", "> mm-caps: 200 lines / 25600 bytes", "prose line"]),
                           max_size=4))
    for topic in topics + draw(st.lists(LINE_TEXT, max_size=2)):
        lines.append(f"## {topic}")
        for _ in range(draw(st.integers(0, 4))):
            if draw(st.booleans()):
                lines.append(f"- **{draw(CARRIER_KEYS)}:** {draw(carrier_value())}")
            else:
                key = draw(MM_KEYS)
                value = f"memories/{topic}.md" if key == "file" and draw(st.booleans()) else draw(LINE_TEXT)
                lines.append(f"- **{key}:** {value}")
        lines += draw(st.lists(BODY_LINES, max_size=2))
    return _bytes_noise(draw, draw(joined(lines)))


@st.composite
def mm_note(draw: st.DrawFn, topic: str) -> bytes:
    """An mm detail file: ``# topic`` title, ``> mm-*:`` header, body."""
    lines = []
    if draw(st.booleans()):
        lines += [f"# {draw(st.sampled_from([topic, topic, 'Human Title']))}", ""]
    lines += draw(st.lists(st.sampled_from([f"> mm-topic: {topic}", "> mm-id: local", "> mm-kind: note", "> mm-x: y"]),
                           max_size=3))
    lines += [""] + draw(st.lists(BODY_LINES, max_size=5))
    return _bytes_noise(draw, draw(joined(lines)))


#: File stems: plain slugs, type-prefixed, snake case, and hostile ones.
STEMS = st.one_of(
    st.from_regex(r"(user|feedback|project|reference)[-_][a-z0-9]{1,8}", fullmatch=True),
    st.from_regex(r"[a-z][a-z0-9-]{0,10}", fullmatch=True),
    st.sampled_from(["a\nb", "x\x1b[31m", "bidi\u202eevil", "sp ace", "中文笔记", "Cafe\u0301", "CON", "a.", "dots..",
                     "README", "a-history", "x" * 70, "tab\there", "back\\slash", "q'uote", "%2e%2e", "emoji\U0001f600"]),
)


@st.composite
def engramory_store(draw: st.DrawFn) -> dict[str, bytes]:
    """A flat engramory store (sometimes a sub-folder, an archive, a ledger)."""
    stems = draw(st.lists(STEMS, max_size=5, unique_by=lambda s: s.casefold()))
    names = [s + ".md" for s in stems]
    files = {n: draw(fm_note()) for n in names}
    if draw(st.integers(0, 4)) == 0:
        files[draw(st.sampled_from(["sub/n.md", "archive/old.md", "templates/t.md", "README.md", "notes.txt"]))] = draw(fm_note())
    if draw(st.integers(0, 5)) == 0:
        files[".engramory-ledger.jsonl"] = draw(st.sampled_from([b'{"a": 1}\n', b"not json\n", b"\xff\n"]))
    if draw(st.integers(0, 9)) != 0:
        files["MEMORY.md"] = draw(engramory_index(names + ["gone.md", "../x.md"]))
    return files


TOPICS = st.one_of(st.from_regex(r"[a-z][a-z0-9._-]{0,10}", fullmatch=True),
                   st.sampled_from(["Alpha", "a b", "x\x1b[2J", "-bad", "a" * 70, "中文", "a\rb"]))


@st.composite
def mm_store(draw: st.DrawFn) -> dict[str, bytes]:
    """An mm store: index, ``memories/<topic>.md`` files (some orphaned,
    some missing), and sometimes the index-lines carrier file."""
    topics = draw(st.lists(TOPICS, max_size=4, unique=True))
    files = {}
    for t in topics:
        if draw(st.integers(0, 4)) != 0:
            files[f"memories/{t}.md"] = draw(mm_note(t))
    if draw(st.integers(0, 5)) == 0:
        files[f"memories/{draw(STEMS)}.md"] = draw(mm_note("orphan"))
    if draw(st.integers(0, 9)) != 0:
        files["MEMORY.md"] = draw(mm_index(topics))
    if draw(st.integers(0, 9)) == 0:
        files[".mmlint-index-lines.txt"] = draw(st.binary(max_size=40))
    return files


@st.composite
def workspace_store(draw: st.DrawFn) -> dict[str, bytes]:
    """A workspace ``memory/`` store: notes in category folders (up to 4
    deep, one too many), a projection index or a hand-edited one."""
    files = {}
    for _ in range(draw(st.integers(0, 5))):
        depth = draw(st.integers(0, 4))
        parts = [draw(st.sampled_from(["项目约定", "ops", "a b", "x\x1b", "CON", ".hidden"])) for _ in range(depth)]
        files["/".join(parts + [draw(STEMS) + ".md"])] = draw(fm_note())
    if draw(st.integers(0, 5)) != 0:
        lines = ["# 记忆索引", "", "> 本文件由 dsh-bundle-memory 自动生成，手工改动会在下次保存记忆时被覆盖。", "",
                 "- 工作区：`x`", "- 记忆根目录：`memory`", f"- 共 {len(files)} 条记忆", "", "## 未分类"]
        lines += [f"- [{p}](./{p}) · 1 B" for p in files] + draw(st.lists(BODY_LINES, max_size=3))
        files["MEMORY.md"] = _bytes_noise(draw, draw(joined(lines)))
    return files


#: ``(dialect, profile)`` of every reader.
READERS = [("engramory", "claude-code"), ("engramory", "recall-v1"), ("engramory", "upstream"), ("mm", None), ("workspace", None)]

#: One store of any dialect's shape.
ANY_STORE = st.one_of(engramory_store(), mm_store(), workspace_store())
