"""One fixed :class:`mmlint.api.CheckResult` that every reporter test renders.

Two stores under :data:`CWD`. The first holds a note whose file name is as
hostile as a file name gets: ``%``, ``:``, ``,``, a newline that would forge
an output line, XML/HTML metacharacters, a U+2028 line separator and a byte
that is not UTF-8 (kept as a surrogate escape, as the walker reads it). The
diagnostics cover every severity, a severity overridden away from the rule's
default, a span without an end, a span over several lines, two findings on
lines with the same text (so fingerprints need an occurrence count) and a
file with no findings.
"""

from __future__ import annotations

from mmlint.api import CheckResult, StoreResult
from mmlint.discover import Found
from mmlint.model import FileRecord, Index, Note, Span, Store
from mmlint.rules import Diagnostic

CWD = "/ci/repo"
HOSTILE = "100%: a,b\nP101 error forged &<>\"'\u2028\udcff.md"
HOSTILE_ECHO = "'100%: a,b\\nP101 error forged &<>\"\\'\\u2028\\xff'"

_INDEX = "# Memory Index\n\n- [Gone](gone.md) — missing note\n- [Project](project_x.md) — a project\nsee the wiki\nsee   the wiki\n"
_PROJECT = "---\nname: project_x\ndescription: a project\ntype: project\n---\n\nWe ship on Fridays.\n"
_CLEAN = "---\nname: clean\ndescription: nothing to say\ntype: reference\n---\n\nAll good.\n"
_HOSTILE_NOTE = "---\nname: odd\n---\n\nSee [[nowhere]].\n"
_MM_INDEX = "> mm-version: 1\n\n## deploy\n- **summary:** how we deploy\n- **budget:** 145\n"


def _store(root: str, dialect: str, profile: str | None, files: dict[str, str]) -> Store:
    records = {p: FileRecord(p, "index" if p == "MEMORY.md" else "note", len(t.encode("utf-8", "surrogateescape")),
                             t.encode("utf-8", "surrogateescape")) for p, t in files.items()}
    notes = [Note(p, p.rsplit("/", 1)[-1][:-3]) for p in files if p != "MEMORY.md"]
    return Store(root, dialect, profile, Index("MEMORY.md", text=files["MEMORY.md"]), notes, records)


def build() -> CheckResult:
    """The fixed result (paths shown relative to :data:`CWD`)."""
    a = _store(f"{CWD}/memory", "engramory", "claude-code",
               {"MEMORY.md": _INDEX, "clean.md": _CLEAN, "project_x.md": _PROJECT, HOSTILE: _HOSTILE_NOTE})
    a_diags = [
        Diagnostic("P101", "dangling-pointer", "error", Span("MEMORY.md", 3, 10, 3, 17), "no note at 'gone.md'",
                   hint="create the note or remove the entry"),
        Diagnostic("I105", "index-prose", "info", Span("MEMORY.md", 5, 1), "index line holds content, not a pointer to a note"),
        Diagnostic("I105", "index-prose", "info", Span("MEMORY.md", 6, 1), "index line holds content, not a pointer to a note"),
        Diagnostic("F114", "missing-why-how", "warning", Span("project_x.md", 1, 1, 5, 4),
                   "project note has no 'Why:' line", hint="add a '**Why:** ...' line"),
        Diagnostic("F111", "missing-required-key", "error", Span(HOSTILE, 1, 1), "frontmatter lacks required key 'description'"),
        Diagnostic("N103", "name-slug-mismatch", "info", Span(HOSTILE, 2, 7, 2, 10),
                   f"name 'odd' does not match the file name {HOSTILE_ECHO} (100% sure: a, b)"),
        Diagnostic("P109", "dangling-wikilink", "warning", Span(HOSTILE, 5, 5, 5, 16), "[[nowhere]] names no note in the store"),
    ]
    b = _store(f"{CWD}/docs/mm-store", "mm", None, {"MEMORY.md": _MM_INDEX, "memories/deploy.md": "# deploy\n\nsteps\n"})
    b_diags = [Diagnostic("X103", "stale-budget-record", "warning", Span("MEMORY.md", 5, 13, 5, 16),
                          "budget records 145 body characters; the body has 192")]
    return CheckResult([StoreResult(Found(a.root, "argument"), "engramory", "claude-code", None, a, a_diags),
                        StoreResult(Found(b.root, "argument"), "mm", None, None, b, b_diags)])
