"""The mm reference cases (mm-reference.md §8.1-§8.3 and §8.8) as tests of
mmlint's verdict.

The reference is a library: most cases write through it and read back. A
case about reading becomes a store written exactly as the reference writes it
(:func:`index_text`, :func:`note_text`, mm-reference §1.4-§1.5) and read by
mmlint; a case about a write the reference refuses becomes mmlint's verdict
on the store that write would leave (``mmlint check`` with the same caps), and
for budgets also what ``mmlint convert`` refuses, with which metrics
(:func:`mmlint.convert.plan_conversion`). Cases about URIs, search, digest,
deletes and the budget report are listed as ``n/a``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from refcases import Case, mm, run_case, validate_table  # noqa: E402

from mmlint import convert, dialects  # noqa: E402

UPDATED = "2026-01-01T00:00:00.000Z"


def index_text(*entries: dict, lines: int = 200, size: int = 25600, memory_id: str = "local") -> str:
    """``MEMORY.md`` exactly as the reference serializes it (§1.4).

    Each entry is a dict with ``topic`` and optionally ``summary``, ``tags``
    (a list), ``file``, ``updated``, ``budget`` and ``entry`` (the entry body).
    """
    head = ["# MEMORY.md", "", "Memory Standard Index — hand-load priority; managed by dsh-memory-standard.",
            f"Hard caps: {lines} lines / {size} bytes. Over budget => rewrite (never truncate).", "",
            f"> mm-id: {memory_id}", "> mm-version: 1", "> mm-kind: index", f"> mm-caps: {lines} lines / {size} bytes", ""]
    body: list[str] = []
    for e in sorted(entries, key=lambda e: e["topic"]):
        t = e["topic"]
        body += [f"## {t}", f"- **summary:** {e.get('summary', '')}", f"- **tags:** {', '.join(e.get('tags', []))}",
                 f"- **file:** {e.get('file', f'memories/{t}.md')}", f"- **updated:** {e.get('updated', UPDATED)}",
                 f"- **budget:** {e.get('budget', '0/0')}"]
        if e.get("entry"):
            body += [""] + e["entry"].split("\n")
        body.append("")
    text = "\n".join(head) + "\n".join(body)
    return text if text.endswith("\n") else text + "\n"


def note_text(topic: str, body: str, memory_id: str = "local") -> str:
    """A detail file exactly as the reference serializes it (§1.5)."""
    lines = [f"# {topic}", "", f"> mm-id: {memory_id}", "> mm-version: 1", "> mm-kind: note",
             f"> mm-topic: {topic}", f"> mm-file: memories/{topic}.md", ""]
    body = body.rstrip("\n")
    if body:
        lines.append(body)
    return "\n".join(lines) + ("" if not body else "\n")


def written(*writes: tuple, lines: int = 200, size: int = 25600, budget: int = 4000) -> dict:
    """The store the reference leaves after ``write(topic, content[, summary,
    tags])`` for each tuple: the index plus one detail file per topic."""
    entries = []
    files = {}
    for topic, content, *rest in writes:
        summary = rest[0] if rest else ""
        tags = rest[1] if len(rest) > 1 else []
        entries.append({"topic": topic, "summary": summary, "tags": tags, "budget": f"{len(content)}/{budget}"})
        files[f"memories/{topic}.md"] = note_text(topic, content)
    return {"MEMORY.md": index_text(*entries, lines=lines, size=size), **files}


def note(res, slug: str):
    """The note ``slug`` of a checked store."""
    return next(n for n in res.store.notes if n.slug == slug)


def test_serializers_match_the_digest():
    """The derived numbers of mm-reference §1.4, §8.2 hold for the helpers."""
    empty = index_text().encode()
    assert (empty.count(b"\n"), len(empty)) == (9, 252)
    assert len(index_text(size=220).encode()) == 248
    assert index_text({"topic": "t0"}).count("\n") == 15
    assert len(note_text("alpha", "hello world").encode()) == 116
    assert len(note_text("alpha", "x" * 500).encode()) == 605
    s = written(("alpha", "a" * 400, "s" * 120), size=220)["MEMORY.md"]
    assert len(s.encode()) == 499
    s = written(("alpha", "x" * 120, "s"), budget=500)["MEMORY.md"]
    assert (s.count("\n"), len(s.encode())) == (15, 383)
    assert written(*[(f"t{i}", "x") for i in range(10)])["MEMORY.md"].count("\n") == 78


def roundtrips(res) -> None:
    """``inspect``: writing the store back as mm gives its files byte for byte."""
    root = Path(res.store.root)
    for path, data in dialects.get("mm").render(res.store).items():
        assert (root / path).read_bytes() == data, path


def inspect_all(*checks):
    """``inspect`` running several checks."""

    def inspect(res) -> None:
        for check in checks:
            check(res)

    return inspect


def fields(slug: str, **expected):
    """``inspect``: note ``slug`` has these field values (``body`` compared
    without the newlines the reference strips at both ends)."""

    def inspect(res) -> None:
        n = note(res, slug)
        for key, value in expected.items():
            got = n.body.strip("\n") if key == "body" else getattr(n, key)
            assert got == value, f"{slug}.{key}: {got!r} != {value!r}"

    return inspect


def slugs(*expected: str):
    """``inspect``: the store's notes, in order, have these slugs."""

    def inspect(res) -> None:
        assert [n.slug for n in res.store.notes] == list(expected)

    return inspect


def header(expected: dict):
    """``inspect``: the index header holds these ``> mm-*:`` values."""

    def inspect(res) -> None:
        assert {k: res.store.index.header.get(k) for k in expected} == expected

    return inspect


def usage(lines: int, size: int):
    """``inspect``: the index has this many lines and bytes."""

    def inspect(res) -> None:
        assert (res.store.index.line_count, res.store.index.size_bytes) == (lines, size)

    return inspect


def engramory_note(tmp: Path, body: str) -> Path:
    """An engramory store of one note with ``body``, to convert to mm."""
    root = tmp / "src"
    root.mkdir(parents=True)
    (root / "MEMORY.md").write_text("# Memory Index\n- [Big](big.md)\n", encoding="utf-8")
    (root / "big.md").write_text("---\nname: big\ndescription: d\ntype: reference\n---\n\n" + body, encoding="utf-8")
    return root


def refuses_write_budget(chars: int):
    """``run``: converting a note of ``chars`` code points to mm is refused
    with the reference's metrics when over 4,000, and planned otherwise;
    nothing is written either way."""

    def run(tmp: Path, _mp) -> None:
        src = dialects.get("engramory").read(str(engramory_note(tmp, "x" * chars)), "claude-code")
        plan = convert.plan_conversion(src, tmp / "out", "mm", dry_run=True)
        assert not (tmp / "out").exists()
        if chars <= 4000:
            assert plan.ok, [r.message for r in plan.refusals]
            return
        r = plan.refusals[0]
        assert r.code == "E_WRITE_BUDGET_EXCEEDED" and r.path == "big.md"
        assert r.usage == {"bodyChars": chars, "writeBudget": 4000, "overflow": chars - 4000}

    return run


def refuses_index_lines(tmp: Path, _mp) -> None:
    """``run``: a conversion whose mm index would pass 200 lines is refused
    with the reference's index usage (case 22's over-budget index)."""
    root = tmp / "src"
    root.mkdir(parents=True)
    index = "# Memory Index\n"
    for i in range(30):
        index += f"- [T{i}](t{i}.md)\n"
        (root / f"t{i}.md").write_text(f"---\nname: t{i}\ndescription: d\ntype: reference\n---\n\nx\n", encoding="utf-8")
    (root / "MEMORY.md").write_text(index, encoding="utf-8")
    plan = convert.plan_conversion(dialects.get("engramory").read(str(root), "claude-code"), tmp / "out", "mm")
    r = plan.refusals[-1]
    assert r.code == "E_INDEX_BUDGET_EXCEEDED" and not plan.written
    usage = r.usage["index"]
    assert usage["overBudget"] is True and usage["lineCap"] == 200 and usage["overflowLines"] == usage["lines"] - 200


ALPHA = {"topic": "alpha", "summary": "First topic", "tags": ["a", "b"], "updated": "2026-01-02T03:04:05.000Z",
         "budget": "10/4000"}
HAND_INDEX = ("# MEMORY.md\n\nThis store is edited by hand.\n\n> mm-id: local\n> mm-version: 1\n> mm-kind: index\n\n"
              "## alpha\n- **summary:** first\n- **file:** memories/alpha.md\n\nA short body note.\n\n"
              "## beta\n- **summary:** second\n- **file:** memories/beta.md\n")
HAND_NOTE = "# {t}\n\n> mm-version: 1\n> mm-kind: note\n\n{b}"
CJK_BODY = "first line\n\nsecond line with 中文 and emoji 🎉"
SECTIONS = "Intro line\n\n# Section One\n\nbody of section one\n\n## Sub section\n\ndetails"


def one(topic: str = "t", body: str = "x", **entry) -> dict:
    """A store of one reference-written entry, with ``entry`` overriding index fields."""
    e = {"topic": topic, "budget": f"{len(body)}/4000", **entry}
    return {"MEMORY.md": index_text(e), f"memories/{topic}.md": note_text(topic, body)}


R1 = "8.1 format and parsing"
R2 = "8.2 budgets"
R3 = "8.3 store lifecycle"
R8 = "8.8 edge cases from the code"
NOT_LINT = "not a store: "

CASES: list[Case] = [
    # ------------------------------------------------------------ 8.1 format / parsing
    Case(1, R1, "index round-trip of `alpha` (all fields) and `zeta`", "topics [alpha, zeta], every field identical",
         "agree", "read, and written back byte for byte",
         (mm({"MEMORY.md": index_text(ALPHA, {"topic": "zeta", "tags": ["c"], "budget": "0/1000"}),
              "memories/alpha.md": note_text("alpha", "ten chars!"), "memories/zeta.md": note_text("zeta", "")},
             exit=0, inspect=inspect_all(
                 slugs("alpha", "zeta"),
                 fields("alpha", summary="First topic", tags=["a", "b"], updated="2026-01-02T03:04:05.000Z", budget="10/4000"),
                 fields("zeta", tags=["c"], budget="0/1000"), roundtrips)),)),
    Case(2, R1, "a hand-written index: title, prose, header without mm-caps, an entry body", "memoryId local, "
         "version 1, 2 entries, alpha's entryBody `A short body note.`", "agree", "",
         (mm({"MEMORY.md": HAND_INDEX, "memories/alpha.md": HAND_NOTE.format(t="alpha", b="a\n"),
              "memories/beta.md": HAND_NOTE.format(t="beta", b="b\n")}, exit=0, inspect=inspect_all(
                 header({"mm-id": "local", "mm-version": "1"}), slugs("alpha", "beta"),
                 fields("alpha", entry_body="A short body note."))),)),
    Case(3, R1, "note round-trip of a body with 中文 and 🎉", "topic alpha, body unchanged", "agree",
         "the body reads back unchanged, and the file is written back byte for byte",
         (mm(one("alpha", CJK_BODY), exit=0, inspect=inspect_all(fields("alpha", body=CJK_BODY), roundtrips)),)),
    Case(4, R1, "a fully hand-written root (entry body without final newline; note with no mm-id/topic/file)",
         "body `external body`, summary `External summary.`", "agree", "",
         (mm({"MEMORY.md": "# MEMORY.md\n\n## alpha\n- **summary:** External summary.\n- **tags:** ext\n"
                           "- **file:** memories/alpha.md\n- **updated:** 2026-01-01T00:00:00.000Z\n- **budget:** 13/4000\n\n"
                           "external body",
              "memories/alpha.md": HAND_NOTE.format(t="alpha", b="external body")}, exit=0,
             inspect=fields("alpha", body="external body", summary="External summary.", entry_body="external body")),)),
    Case(5, R1, "`parseMemoryUri`", "parsed or null", "n/a", NOT_LINT + "mm:// URI parsing"),
    Case(6, R1, "`中文🎉`: 3 code points, 4 UTF-16 units, 10 bytes", "counts", "agree",
         "a `budget:` record is compared in code points (X103)",
         (mm(one("t", "中文🎉"), exit=0, must_not=("X103",)),
          mm(one("t", "中文🎉", budget="4/4000"), exit=0, must=("X103",)))),
    Case(7, R1, "validateTopic: `../evil`, `a/b`, `''`, 65×`a` rejected; `alpha-beta_1.x` kept", "E_INVALID / ok",
         "agree", "as index headings (M101); an empty `## ` is not a heading at all, for the reference either",
         (mm({"MEMORY.md": index_text({"topic": "../evil"})}, exit=1, must=("M101",)),
          mm({"MEMORY.md": index_text({"topic": "a/b"})}, exit=1, must=("M101",)),
          mm({"MEMORY.md": index_text({"topic": "a" * 65})}, exit=1, must=("M101",), text=("longer than 64",)),
          mm(one("alpha-beta_1.x"), exit=0, must_not=("M101",)))),
    Case(8, R1, "slugForTopic", "`hello-world`", "n/a", NOT_LINT + "a digest helper"),
    Case(9, R1, "a body holding `# Section One` and `## Sub section`", "unchanged after reload", "agree",
         "headings inside a detail file's body are body",
         (mm(one("alpha", SECTIONS), exit=0, must_not=("M101", "X102"), inspect=fields("alpha", body=SECTIONS)),)),
    Case(10, R1, "a hand-written note with a `# A section in the body`; an empty `- **tags:**`",
         "body without the final newline; tags []", "agree", "the body keeps its final newlines (compared without them)",
         (mm({"MEMORY.md": index_text({"topic": "alpha", "budget": "36/4000"}),
              "memories/alpha.md": "# alpha\n\n> mm-id: local\n> mm-version: 1\n> mm-kind: note\n\nlead\n\n"
                                   "# A section in the body\n\nstuff\n\n"}, exit=0,
             inspect=fields("alpha", body="lead\n\n# A section in the body\n\nstuff", tags=[])),)),
    Case(11, R1, "assertSafeRelPath: `memories\\..\\evil.md`, `..\\evil.md`, `memories/../evil.md`, `C:\\evil.md`",
         "E_PARSE each; `memories/alpha.md` kept", "agree", "",
         (mm({"MEMORY.md": index_text(*[{"topic": f"e{i}", "file": f} for i, f in enumerate(
             ("memories\\..\\evil.md", "..\\evil.md", "memories/../evil.md", "C:\\evil.md"))], {"topic": "alpha"}),
              "memories/alpha.md": note_text("alpha", "")}, exit=1, count={"M102": 4}),)),
    Case(12, R1, "an entry `leaker` with `- **file:** memories\\..\\escape.txt`", "open throws E_PARSE", "agree", "",
         (mm({"MEMORY.md": index_text({"topic": "leaker", "file": "memories\\..\\escape.txt"})}, exit=1, must=("M102",),
             text=("no backslash",)),)),
    Case(13, R1, "URI slug enforcement", "null", "n/a", NOT_LINT + "mm:// URI parsing"),
    # ------------------------------------------------------------ 8.2 budgets
    Case(14, R2, "writing 4001×`x` under the default budget", "E_WRITE_BUDGET_EXCEEDED, bodyChars 4001, writeBudget "
         "4000, overflow 1; nothing written", "agree",
         "a stored body over budget is an error (C104: the reference refuses to write it again); converting such a note to mm is refused with the same metrics",
         (mm(one("alpha", "x" * 4001), exit=1, must=("C104",), text=("write budget of 4000 by 1",)),),
         run=refuses_write_budget(4001), rules=("E_WRITE_BUDGET_EXCEEDED",)),
    Case(15, R2, "an explicit budget of 50, 100 characters", "writeBudget 50, overflow 50", "agree",
         "C104 uses the entry's recorded write budget",
         (mm(one("alpha", "x" * 100, budget="100/50"), exit=1, must=("C104",), text=("write budget of 50 by 50",)),)),
    Case(16, R2, "exactly 4000 characters", "ok, overflow 0", "agree", "",
         (mm(one("alpha", "x" * 4000), exit=0, must_not=("C104",)),), run=refuses_write_budget(4000)),
    Case(17, R2, "`indexLines: 12`: the first write", "E_INDEX_BUDGET_EXCEEDED (lines 15, lineCap 12)", "agree",
         "the index that write would leave, with the cap as an option",
         (mm(written(("t0", "x"), lines=12), exit=1, must=("I102",), caps={"index_lines": 12},
             text=("15 lines, over the 12-line cap by 3",)),)),
    Case(18, R2, "`indexBytes: 220`: write alpha (400×`a`, summary 120×`s`); `ensure()` made a 248-byte index",
         "E_INDEX_BUDGET_EXCEEDED (499 bytes, overflow 279); the 248-byte index passes", "differ",
         "the refused write's index is I103 as the reference says; the 248-byte index `ensure()` leaves is over "
         "its own cap too, which the reference never checks (B9): I103 as well",
         (mm(written(("alpha", "a" * 400, "s" * 120), size=220), exit=1, must=("I103",), caps={"index_bytes": 220},
             text=("499 bytes, over the 220-byte cap by 279",)),
          mm({"MEMORY.md": index_text(size=220)}, exit=1, must=("I103",), caps={"index_bytes": 220},
             text=("248 bytes",)))),
    Case(19, R2, "`detailMaxBytes: 120`: `hello world`, then 500×`x`", "ok (116 bytes); E_FILE_BUDGET_EXCEEDED (605)",
         "agree", "C103 with the cap as an option",
         (mm(written(("alpha", "hello world")), exit=0, must_not=("C103",), caps={"detail_bytes": 120}),
          mm(written(("alpha", "x" * 500)), exit=1, must=("C103",), caps={"detail_bytes": 120},
             text=("605 bytes, over the 120-byte cap by 485",)))),
    Case(20, R2, "`indexLines: 20`: t0 ok (15 lines), t1 refused (22 lines)", "ok; E_INDEX_BUDGET_EXCEEDED", "agree",
         "the deletes that follow are writes (n/a)",
         (mm(written(("t0", "x"), lines=20), exit=0, must_not=("I102",), caps={"index_lines": 20}),
          mm(written(("t0", "x"), ("t1", "x"), lines=20), exit=1, must=("I102",), caps={"index_lines": 20},
             text=("22 lines",)))),
    Case(21, R2, "`defaultWriteBudget: 500`, alpha = 120×`x`", "budget(): 1 entry, bodyChars 120, writeBudget 500; "
         "15 lines / 383 bytes", "agree", "the store is clean and reads with the same counts",
         (mm(written(("alpha", "x" * 120, "s"), budget=500), exit=0, inspect=inspect_all(
             usage(15, 383),
             fields("alpha", budget="120/500", summary="s"))),)),
    Case(22, R2, "10 topics (78 lines), reopened with `indexLines: 20`", "overBudget true; deletes still allowed",
         "agree", "I102 on the over-budget index; a conversion that would pass the cap is refused with the "
         "reference's index usage; deletes are writes (n/a)",
         (mm(written(*[(f"t{i}", "x") for i in range(10)], lines=20), exit=1, must=("I102",), caps={"index_lines": 20},
             text=("78 lines, over the 20-line cap by 58",)),),
         run=refuses_index_lines, rules=("E_INDEX_BUDGET_EXCEEDED",)),
    # ------------------------------------------------------------ 8.3 store lifecycle
    Case(23, R3, "write `project-intro` (CJK content, summary `项目介绍`, tags `project, goals`), read fresh",
         "the exact body, summary, tags, updated", "agree", "",
         (mm(written(("project-intro", "第一行\n\n第二行 with 中文", "项目介绍", ["project", "goals"])), exit=0,
             inspect=fields("project-intro", body="第一行\n\n第二行 with 中文", summary="项目介绍",
                            tags=["project", "goals"], updated=UPDATED)),)),
    Case(24, R3, "write zeta, alpha, mid", "listNotes [alpha, mid, zeta]", "agree", "notes in index order",
         (mm(written(("zeta", "z"), ("alpha", "a"), ("mid", "m")), exit=0,
             inspect=slugs("alpha", "mid", "zeta")),)),
    Case(25, R3, "write alpha v1/old, then v2/new", "body v2, summary new, 1 note", "agree",
         "the store after the update reads so",
         (mm(written(("alpha", "v2", "new")), exit=0, inspect=inspect_all(
             slugs("alpha"), fields("alpha", body="v2", summary="new"))),)),
    Case(26, R3, "delete('alpha') with alpha and beta", "removed, 1 note left", "n/a", "a delete: mmlint never deletes"),
    Case(27, R3, "delete('nope') on an empty store", "ok, removed false", "n/a", "a delete: mmlint never deletes"),
    Case(28, R3, "alpha's detail file deleted behind the library", "body '', missingFile, danglingEntries 1 (no error)",
         "differ", "an entry whose file is gone loses its memory: P101 is an error, not only a budget anomaly",
         (mm({"MEMORY.md": written(("alpha", "x"))["MEMORY.md"]}, exit=1, must=("P101",),
             inspect=fields("alpha", body="")),)),
    Case(29, R3, "readTopic('ghost')", "undefined", "n/a", NOT_LINT + "a library lookup"),
    Case(30, R3, "ensure() on an empty folder", "creates MEMORY.md", "agree",
         "the index it creates (9 lines, 252 bytes) is clean",
         (mm({"MEMORY.md": index_text()}, exit=0, count={},
             inspect=usage(9, 252)),)),
    Case(31, R3, "a body starting `> mm-not-really-meta: …`", "round-trips exactly", "agree", "",
         (mm(one("alpha", "> mm-not-really-meta: this is body text\n\nand more body"), exit=0,
             inspect=inspect_all(fields("alpha", body="> mm-not-really-meta: this is body text\n\nand more body"), roundtrips)),)),
    Case(32, R3, "`file:` edited to `memories/custom-alpha.md`, holding `# alpha\\n\\nbody`", "body `body`", "agree",
         "the delete that follows is n/a",
         (mm({"MEMORY.md": index_text({"topic": "alpha", "file": "memories/custom-alpha.md", "budget": "4/4000"}),
              "memories/custom-alpha.md": "# alpha\n\nbody"}, exit=0, must_not=("M107", "P101"),
             inspect=fields("alpha", body="body")),)),
    # ------------------------------------------------------------ 8.8 edge cases from the code
    Case(70, R8, "a heading `## Project Notes`; `### sub` inside an entry", "E_PARSE; body text", "agree", "",
         (mm({"MEMORY.md": index_text({"topic": "Project Notes"})}, exit=1, must=("M101",), text=("'Project Notes'",)),
          mm(one("t", entry="### sub"), exit=0, must_not=("M101",)))),
    Case(71, R8, "a detail file titled `# Project Notes`", "E_INVALID: the whole memory fails to open", "agree", "",
         (mm({**one("t"), "memories/t.md": "# Project Notes\n\n> mm-topic: t\n\nx\n"}, exit=1, must=("X102",)),)),
    Case(72, R8, "`- **file:**` empty; no file line", "E_PARSE; `memories/<topic>.md`", "agree", "",
         (mm({"MEMORY.md": index_text({"topic": "t", "file": ""})}, exit=1, must=("M102",), text=("non-empty",)),
          mm({"MEMORY.md": "## t\n- **summary:** s\n", "memories/t.md": note_text("t", "x")}, exit=0,
             inspect=fields("t", path="memories/t.md")))),
    Case(73, R8, "`- **budget:** 10 / 4000`", "read as 0/0; the report uses the default budget", "agree",
         "X103 names the 0/0 reading; C104 falls back to the default budget",
         (mm(one("t", "x" * 10, budget="10 / 4000"), exit=0, must=("X103",), must_not=("C104",), text=("0/0",)),)),
    Case(74, R8, "tags `A, b ,a；Foo Bar,,;  x`", "[a, b, foo-bar, x]", "differ",
         "tags are read as written; X109 warns that the reference reads them as [a, b, foo-bar, x] and writes "
         "them back so on its next write",
         (mm(one("t", tags=["A, b ,a；Foo Bar,,;  x"]), exit=0, must=("X109",), text=("'foo-bar'",),
             inspect=fields("t", tags=["A", "b", "a", "Foo Bar", "x"])),)),
    Case(75, R8, "an entry body whose first line is `    indented`", "entryBody `indented`", "differ",
         "the entry body is kept exactly, indentation included (D5)",
         (mm(one("t", entry="    indented"), exit=0, inspect=fields("t", entry_body="    indented")),)),
    Case(76, R8, "an index saved with CRLF, 2 entries", "0 entries, no error; the next write loses them", "differ",
         "the entries are read, and X101 reports the CRLF index as an error (B1)",
         (mm({**written(("a", "x"), ("b", "y")), "MEMORY.md": written(("a", "x"), ("b", "y"))["MEMORY.md"].replace("\n", "\r\n")},
             exit=1, must=("X101",), inspect=slugs("a", "b")),)),
    Case(77, R8, "writing `abc\\n\\n`", "recorded `5/4000`, body `abc`", "differ",
         "X103 warns that the record (5) no longer matches the stored body (3): the reference records the content "
         "before it strips the trailing newlines",
         (mm({"MEMORY.md": index_text({"topic": "t", "budget": "5/4000"}), "memories/t.md": note_text("t", "abc\n\n")},
             exit=0, must=("X103",), text=("records 5 body characters; the body has 3",)),)),
    Case(78, R8, "budgetUsedPct rounding", "13, 1", "n/a", NOT_LINT + "the budget report's arithmetic"),
    Case(79, R8, "index `mm-id: other` opened as `local`", "note.memoryId other, uri mm://local/t", "agree",
         "the header is read as written and is a valid id; URIs are n/a",
         (mm({**one("t"), "MEMORY.md": index_text({"topic": "t", "budget": "1/4000"}, memory_id="other")}, exit=0,
             must_not=("M110",), inspect=header({"mm-id": "other"})),)),
    Case(80, R8, "a no-op delete rewrites the example root canonically", "22 lines, 659 bytes", "n/a",
         "a delete: mmlint never rewrites a store it checks"),
    Case(81, R8, "updating a topic whose `file:` is `memories/custom-alpha.md`", "writes `memories/alpha.md`; "
         "`custom-alpha.md` left as an orphan (B3)", "agree", "the leftover is an orphan detail file (M107)",
         (mm({**written(("alpha", "v2")), "memories/custom-alpha.md": "# alpha\n\nv1\n"}, exit=0, must=("M107",),
             at=(("M107", "memories/custom-alpha.md"),)),)),
    Case(82, R8, "digest with a topic hint and two `MEMO:` lines", "one candidate", "n/a", NOT_LINT + "digest"),
    Case(83, R8, "digest of `## Notes\\nMEMO: x`", "one heading candidate", "n/a", NOT_LINT + "digest"),
    Case(84, R8, "a note `# alpha\\n\\n> mm-x: y\\nbody`", "body `body`", "agree", "",
         (mm({**one("alpha", "body"), "memories/alpha.md": "# alpha\n\n> mm-x: y\nbody"}, exit=0, inspect=fields("alpha", body="body")),)),
]


def test_table_is_complete():
    validate_table(CASES, [*range(1, 33), *range(70, 85)])


@pytest.mark.parametrize("case", [c for c in CASES if c.tested], ids=lambda c: f"M{c.num:03d}")
def test_case(case, tmp_path, monkeypatch):
    run_case(case, tmp_path, monkeypatch)
