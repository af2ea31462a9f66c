"""Every scanner that runs on store text is linear: each is timed on
adversarial inputs of 64 KiB against a plain input of the same size, and
the ratio is bounded (times alone are noise on a shared machine; a 0.25 s
floor absorbs scheduling noise, while each pattern replaced here took
seconds to minutes on these inputs).

The adversarial inputs are the ones that made the earlier patterns
backtrack: runs of blanks before a character that ends the match
(``[ \\t#>*-]*`` ... ``[ \\t]*why``: more than 9 s on 64 KiB), repeated
openers without a closer (``<!--``, ``](``), colons before a line
terminator, hyphen runs (``-*[^...]+-*``)."""

from __future__ import annotations

import re
import time

import pytest

from mmlint import frontmatter, markdown, textutil
from mmlint.dialects import engramory, mm, mm_reading, workspace
from mmlint.rules import frontmatter as fm_rules
from mmlint.rules import store as store_rules
from mmlint.rules import suppressions

N = 64 * 1024
PLAIN = ("the quick brown fox jumps over the lazy dog. " * (N // 45 + 1))[:N]


def _secrets(text: str) -> None:
    for _, rx in store_rules._SECRETS:
        rx.search(text)


SCANNERS = {
    "engramory detection: pointer": (engramory._has_md_pointer, ["](" * (N // 2), "](" + "a" * N, "[x](" * (N // 4)]),
    "engramory detection: frontmatter": (lambda t: (engramory._FM_FIELD_RE.search(t), engramory._FM_CREATED_RE.search(t)),
                                         ["\n" * N, " \n" * (N // 2), "\t" * N]),
    "mm detection": (lambda t: (mm._MM_HEADER_RE.search(t), mm._MM_ENTRY_RE.search(t)), ["> " * (N // 2), ">\t" * (N // 2), "\n" * N]),
    "mm index reader": (lambda t: mm.read_index("MEMORY.md", t.encode("utf-8", "surrogateescape")),
                        ["## t\n>" + "a:" * (N // 2), "## t\n- **k:**" + " " * N + "x", "## t\n- **" + "a" * N, "#" + " " * N + "x"]),
    # a section per link: sections were assigned by a scan of every heading for every link
    "workspace index reader": (lambda t: workspace.read_index("MEMORY.md", t.encode("utf-8", "surrogateescape")),
                               ["## s\n- [a](b.md)\n" * (N // 17), "## s\n[a](b.md)\n" * (N // 16)]),
    "mm note reader": (lambda t: mm.read_note_text(t.encode("utf-8", "surrogateescape")), ["#" + " " * N + "x", "> mm-a:" + " " * N + "\u2028x"]),
    "mm reference reading": (lambda t: (mm_reading._meta(t), mm_reading._title(t), mm_reading._note_meta(t)),
                             ["- **k:**" + " " * N + "x\u2028", "#" + " " * N + "x\u2028", "> mm-a:" + " " * N + "x\u2028"]),
    "mm topic mapping": (mm.map_topic, ["-" * N, "-#" * (N // 2), "#" * N]),
    "why/how labels": (lambda t: (fm_rules._WHY.match(t), fm_rules._HOW.match(t), fm_rules._LABEL_REST.match(t),
                                  fm_rules._WHY_HEAD.match(t), fm_rules._WHY_NEAR.match(t)),
                       [" " * N, "*" * N, " \t" * (N // 2), "1." + " " * N + "x", "# why" + " " * N + "x", "why" + " " * N + "x"]),
    "comment stripping": (fm_rules.strip_comments, ["<!--" * (N // 4), "<!-- " + "-" * N]),
    "frontmatter grammar": (lambda t: frontmatter.parse("---\n" + t + "\n---\n"),
                            ["k: " + "[" * N, 'k: "' + "\\" * N, "k: " + "*a" * (N // 2), "k: &a " + "[a, " * (N // 4)]),
    "secret scan": (_secrets, ["-sk-" + "a" * 300 + "-" * N, ("-sk-" + "a" * 250) * (N // 254), "ghp_" * (N // 4), "AKIA" * (N // 4)]),
    "wikilinks": (markdown._wikilinks, ["[[" * (N // 2), "[[x[" * (N // 4), "[[" + "]" * N]),
    # escaping costs what it writes: its plain input is ordinary text that needs escaping too (tabs)
    "escaping": (textutil.printable, ["\x1b" * N, "\u202e" * N, "\udcff" * N], "\t" * N),
    "suppression comments": (lambda t: suppressions.comments(t), ["<!-- mmlint-" * (N // 12), "<!--" * (N // 4)]),
}


def _best(fn, text: str) -> float:
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        fn(text)
        best = min(best, time.perf_counter() - t0)
    return best


@pytest.mark.parametrize("name", sorted(SCANNERS))
def test_scanner_is_linear_on_adversarial_input(name):
    fn, hostile, *own = SCANNERS[name]
    plain = _best(fn, own[0] if own else PLAIN)
    for text in hostile:
        text = text[:N]
        took = _best(fn, text)
        quarter = _best(fn, text[: N // 4])
        assert took < 30 * plain + 0.25, f"{name}: {took:.3f} s on {text[:12]!r}... vs {plain:.4f} s on plain text"
        assert took < 10 * quarter + 0.25, f"{name}: 4x the input took {took / max(quarter, 1e-9):.0f}x the time"


def test_no_pattern_nests_quantifiers():
    """A cheap structural audit: no compiled pattern of the package holds a
    repeated group that starts with a repeated class or escape (``(a+)+``,
    ``(?:\\s*x)*``), the shape of classic catastrophic backtracking."""
    import mmlint
    from pathlib import Path

    # a repeated group that starts with a repeated class: (x+y)*, ([a-z]+)+ (a group that starts
    # with a literal separator, like (?:-[a-z0-9]+)*, cannot overlap itself and is fine)
    nested = re.compile(r"\((?:\?:)?(?:\[[^\]]*\]|\\.|\.)[+*][^()]*\)[+*]")
    offenders = []
    for path in sorted(Path(mmlint.__file__).parent.rglob("*.py")):
        for lineno, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if "re.compile(" in line and nested.search(line):
                offenders.append(f"{path.name}:{lineno}: {line.strip()[:100]}")
    assert offenders == [], offenders
