"""Mutated engramory stores for the side-by-side test with the upstream
doctor (``../shared/peers/engramory/engramory_doctor.py``).

A mutant is a small valid store (:data:`BASE`) with one or more named
mutations applied (:data:`MUTATIONS`). :func:`compare` runs both tools on a
mutant and returns the disagreements: the verdict (the doctor exits 1 <->
mmlint reports an error under the ``upstream`` profile), the orphan notes
(doctor ``orphan note`` <-> P106, by base name) and the broken pointers
(doctor ``missing file`` / ``escapes`` / ``non-remote scheme`` <-> P101,
P102, P103, by target).

:data:`DIFFERENCES` lists the mutations on which mmlint deliberately
differs, with the reason; ``scripts/reference_cases.py`` renders the table
into ``docs/reference-cases.md``, and the differential test fails on any
disagreement of a mutant none of whose mutations is listed there.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

TESTS = Path(__file__).resolve().parents[1]
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
from conftest import LINK, SHARED, make_store  # noqa: E402

DOCTOR = SHARED / "peers" / "engramory" / "engramory_doctor.py"

Files = dict  # POSIX path -> str | bytes | LINK


def note(name: str, type_: str = "user", body: str = "body\n", extra: str = "") -> str:
    """A note every tool accepts (upstream: dates; feedback/project: scope, Why, How)."""
    wh = "" if type_ in ("user", "reference") else "scope: repo\n"
    labels = "" if type_ in ("user", "reference") else "**Why:** r.\n\n**How to apply:** s.\n\n"
    return (f"---\nname: {name}\ndescription: when to open {name}\ntype: {type_}\n{wh}"
            f"created: 2026-01-01\nupdated: 2026-01-02\n{extra}---\n\n{labels}{body}")


BASE: Files = {
    "MEMORY.md": "# Memory Index\n\n## user\n- [A](a.md) — hook a\n## feedback\n- [B](b.md) — hook b\n## project\n- [C](c.md) — hook c\n",
    "a.md": note("a"),
    "b.md": note("b", "feedback"),
    "c.md": note("c", "project"),
}


def _index_sub(old: str, new: str) -> Callable[[Files], None]:
    def f(fs: Files) -> None:
        fs["MEMORY.md"] = fs["MEMORY.md"].replace(old, new, 1)
    return f


def _add(**kv) -> Callable[[Files], None]:
    def f(fs: Files) -> None:
        for k, v in kv.items():
            fs[k.replace("__", "/").replace("_DOT_", ".")] = v
    return f


def _seq(*steps: Callable[[Files], None]) -> Callable[[Files], None]:
    def f(fs: Files) -> None:
        for s in steps:
            s(fs)
    return f


def _body(path: str, text: str) -> Callable[[Files], None]:
    def f(fs: Files) -> None:
        if isinstance(fs.get(path), str):  # an earlier mutation may have renamed or removed it
            fs[path] = fs[path] + text
    return f


def _endings(path: str, nl: str) -> Callable[[Files], None]:
    def f(fs: Files) -> None:
        if isinstance(fs.get(path), str):
            fs[path] = fs[path].replace("\n", nl)
    return f


def _drop(path: str) -> Callable[[Files], None]:
    def f(fs: Files) -> None:
        fs.pop(path, None)
    return f


def _edit(path: str, old: str, new: str) -> Callable[[Files], None]:
    def f(fs: Files) -> None:
        if isinstance(fs.get(path), str):
            fs[path] = fs[path].replace(old, new, 1)
    return f


def _rename(old: str, new: str) -> Callable[[Files], None]:
    def f(fs: Files) -> None:
        if not isinstance(fs.get(old), str):
            return
        fs[new] = fs.pop(old).replace(f"name: {old[:-3]}", f"name: {new[:-3]}")
        fs["MEMORY.md"] = fs["MEMORY.md"].replace(f"({old})", f"({new})")
    return f


NFC = unicodedata.normalize("NFC", "é")
NFD = unicodedata.normalize("NFD", "é")

#: name -> mutation (edits the file table in place).
MUTATIONS: dict[str, Callable[[Files], None]] = {
    "delete-note": _drop("c.md"),
    "unindexed-note": _add(d_DOT_md=note("d")),
    "wikilinked-note": _seq(_add(w_DOT_md=note("w")), _body("a.md", "see [[w]]\n")),
    "path-wikilink": _seq(_add(dir__p_DOT_md=note("p")), _body("a.md", "see [[dir/p]]\n")),
    "dangling-wikilink": _body("a.md", "see [[zzz]]\n"),
    "broken-close-fence": _edit("c.md", "updated: 2026-01-02\n---\n", "updated: 2026-01-02\n--- x\n"),
    "missing-date": _edit("a.md", "created: 2026-01-01\n", ""),
    "bad-type": _edit("a.md", "type: user", "type: person"),
    "missing-why": _edit("b.md", "**Why:** r.", "Reason r."),
    "pointer-dot-slash": _index_sub("(a.md)", "(./a.md)"),
    "pointer-anchor": _index_sub("(a.md)", "(a.md#sec)"),
    "pointer-title": _index_sub("(a.md)", '(a.md "Title")'),
    "pointer-angle": _index_sub("(a.md)", "(<a.md>)"),
    "pointer-trailing-slash": _index_sub("(a.md)", "(a.md/)"),
    "pointer-escape": _index_sub("(a.md)", "(../a.md)"),
    "pointer-scheme": _index_sub("(a.md)", "(file:///tmp/a.md)"),
    "pointer-missing": _index_sub("(a.md)", "(zz.md)"),
    "pointer-percent": _index_sub("(a.md)", "(a%2Emd)"),
    "pointer-uppercase-ext": _rename("a.md", "a.MD"),
    "pointer-backslash": _seq(_add(sub__e_DOT_md=note("e")), _index_sub("(a.md)", "(a.md)\n- [E](sub\\e.md) — e")),
    "tilde-name": _rename("a.md", "~a.md"),
    "colon-name": _rename("a.md", "a:b.md"),
    "space-name": _seq(_rename("a.md", "my a.md"), _index_sub("(my a.md)", "(<my a.md>)")),
    "symlinked-folder": _seq(_add(real__s_DOT_md=note("s"), link=LINK("real")), _index_sub("(a.md)", "(a.md)\n- [S](link/s.md) — s")),
    "folder-named-like-note": _seq(_add(x_DOT_md__keep_DOT_txt="k\n"), _index_sub("(a.md)", "(a.md)\n- [X](x.md) — x")),
    "dangling-symlink-aux": _add(link_DOT_txt=LINK("nowhere")),
    "dangling-symlink-note": _add(g_DOT_md=LINK("nowhere.md")),
    "duplicate-basename": _add(sub__a_DOT_md=note("a")),
    "archive-pointer": _seq(_add(archive__old_DOT_md="# old\n"), _index_sub("(a.md)", "(a.md)\n- [Old](archive/old.md) — x")),
    "linkless-pointer": _index_sub("- [A](a.md) — hook a", "- hook a — a.md"),
    "reference-link": _seq(_index_sub("[A](a.md)", "[A][ra]"), _body("MEMORY.md", "\n[ra]: a.md\n")),
    "pointer-in-code": _index_sub("- [A](a.md) — hook a", "```\n- [A](a.md) — hook a\n```"),
    "index-wikilink": _index_sub("[A](a.md)", "[[a]]"),
    "markdown-link-between-notes": _seq(_add(m_DOT_md=note("m")), _body("a.md", "see [m](m.md)\n")),
    "duplicate-pointer": _index_sub("(a.md) — hook a", "(a.md) — hook a\n- [A again](a.md) — again"),
    "cr-only-index": _endings("MEMORY.md", "\r"),
    "crlf-note": _endings("a.md", "\r\n"),
    "cr-only-note": _endings("a.md", "\r"),
    "top-level-readme": _add(README_DOT_md="# About this store\n"),
    "nested-store": _add(sub__MEMORY_DOT_md="# Memory Index\n- [E](e.md) — e\n", sub__e_DOT_md=note("e")),
    "tool-folder": _add(_DOT_git__notes_DOT_md="git notes\n", node_modules__pkg__README_DOT_md="# pkg\n"),
    "tool-folder-pointer": _seq(_add(node_modules__x__t_DOT_md="# t\n"), _index_sub("(a.md)", "(a.md)\n- [T](node_modules/x/t.md) — t")),
    "conflict-markers": _body("a.md", "<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n"),
    "nul-byte": _body("a.md", "bad\x00byte\n"),
    "nfc-nfd-twins": _seq(_add(**{f"{NFC}_DOT_md": note(NFC), f"{NFD}_DOT_md": note(NFD)}),
                          _index_sub("(a.md)", f"(a.md)\n- [e1]({NFC}.md) — 1\n- [e2]({NFD}.md) — 2")),
}

#: Mutations on which mmlint deliberately disagrees with the doctor:
#: name -> (what differs, why). Rendered into ``docs/reference-cases.md``.
DIFFERENCES: dict[str, tuple[str, str]] = {
    "pointer-trailing-slash": ("mmlint reports the pointer `a.md/` itself (P101: nothing can open it) besides the orphan; "
                               "the doctor does not see a pointer there and reports only the orphan",
                               "both fail the store and orphan the note; mmlint names the line to fix"),
    "pointer-percent": ("mmlint decodes `%2E` and credits `a.md`; the doctor does not decode and reports `a.md` an orphan",
                        "CommonMark link destinations are percent-encoded URLs (W5)"),
    "pointer-uppercase-ext": ("mmlint reads `a.MD` as a note and credits it; the doctor skips `.MD` pointers and calls the note an orphan",
                              "W1: the doctor's own walker accepts `.MD` notes, so its pointer regex makes a false orphan"),
    "pointer-backslash": ("mmlint refuses `sub\\e.md` (P105); the doctor turns `\\` into `/` and credits the note",
                          "a backslash is a separator only on Windows; the pointer resolves differently per machine"),
    "space-name": ("mmlint reads `<my a.md>` (CommonMark angle brackets) and credits the note; the doctor does not match targets "
                   "with spaces and reports an orphan", "W5"),
    "duplicate-basename": ("`a.md` and an unindexed `sub/a.md`: mmlint credits the pointer to `a.md` only and reports `sub/a.md` "
                           "an orphan; the doctor credits every note by base name, so neither is an orphan",
                           "basename-only crediting hides orphans (engramory digest §6.2 class 5); both report the duplicate slug"),
    "dangling-symlink-note": ("a note that is a dangling symlink is S102 (cannot read) in mmlint and not also an orphan; "
                              "the doctor reports it as an orphan as well", "one finding for one cause"),
    "reference-link": ("mmlint credits a reference-style link `[A][ra]` + `[ra]: a.md`; the doctor ignores it and reports an orphan",
                       "CommonMark link grammar (W5)"),
    "pointer-in-code": ("a pointer inside a fenced code block credits nothing in mmlint (orphan, P106); the doctor counts it",
                        "code is not a link in markdown (W5)"),
    "index-wikilink": ("mmlint credits `- [[a]]` in the index; the doctor never reads the index's wikilinks and reports an orphan",
                       "the index is markdown an agent reads; a wikilink there reaches the note (W11)"),
    "markdown-link-between-notes": ("mmlint credits a note reached by a markdown link from another note (P110, info); "
                                    "the doctor counts only wikilinks and reports an orphan", "W11"),
    "cr-only-note": ("mmlint reads a CR-only note's frontmatter (S111 warning); the doctor sees no frontmatter (an error)",
                     "the recall-v1 spec §2 asks readers to accept CR line endings; W15"),
    "top-level-readme": ("mmlint keeps a top-level `README.md` as an auxiliary file; the doctor checks it as a note "
                         "(no frontmatter, orphan)", "a README explains the store to people; it is not a memory"),
    "nested-store": ("mmlint reads `sub/MEMORY.md` as a nested store's index (N109 skips it), not as a note; the doctor "
                     "reports it as a duplicate slug of `MEMORY.md`", "each store has its own index"),
    "tool-folder": ("mmlint does not walk other tools' folders (`.git/`, `node_modules/`, S104 info); "
                    "the doctor checks their `.md` files as notes", "those files belong to other tools"),
    "tool-folder-pointer": ("mmlint reports a pointer into `node_modules/` as P108 (not a note, warning) and checks nothing "
                            "there; the doctor checks the file as a note", "see tool-folder"),
    "conflict-markers": ("mmlint reports git conflict markers in a note as an error; the doctor accepts the note",
                         "an unresolved merge is two versions of one memory"),
    "nul-byte": ("mmlint reports a NUL byte in a note as an error; the doctor accepts the note",
                 "NUL bytes make tools read the file as binary"),
    "nfc-nfd-twins": ("mmlint reports two note names that differ only in Unicode normalisation (N106); the doctor accepts both",
                      "macOS file systems take them for one file"),
}


@dataclass
class Verdict:
    """One tool's reading of a store: fails (exit 1 / an error), orphan
    base names, broken pointer targets, whether it reports a duplicate slug
    (doctor ``duplicate note slug`` <-> N106/N107 errors)."""

    fails: bool
    orphans: frozenset[str]
    broken: frozenset[str]
    duplicates: bool = False


def doctor_available() -> bool:
    return DOCTOR.is_file()


def run_doctor(root: Path) -> Verdict:
    """Run the doctor on ``root`` (a subprocess, no network)."""
    p = subprocess.run([sys.executable, str(DOCTOR), str(root)], capture_output=True, timeout=60,
                       env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    out = p.stdout.decode("utf-8", "replace")
    orphans, broken = set(), set()
    dup = False
    for line in out.splitlines():
        if not line.startswith("ISSUE: "):
            continue
        msg = line[7:]
        dup = dup or msg.startswith("duplicate note slug")
        for key, bucket in (("orphan note (not in index, nothing links to it): ", orphans),
                            ("index points to a missing file: ", broken), ("index pointer escapes the store root: ", broken),
                            ("index pointer uses a non-remote URL scheme (use a path relative to the store): ", broken)):
            if msg.startswith(key):
                bucket.add(msg[len(key):])
    return Verdict(p.returncode == 1, frozenset(orphans), frozenset(broken), dup)


def run_mmlint(root: Path, profile: str = "upstream") -> Verdict:
    """mmlint's verdict on ``root`` read as engramory ``profile``."""
    from mmlint import dialects, rules

    mod = dialects.get("engramory")
    store = mod.read(str(root), profile)
    diags = rules.run(store, mod, rules.Options())
    orphans, broken = set(), set()
    entries = {(e.pointer_span or e.span).line * 100000 + (e.pointer_span or e.span).column: e
               for e in (store.index.entries if store.index else [])}
    for d in diags:
        if d.code == "P106":
            orphans.add(d.span.path.rsplit("/", 1)[-1])
        elif d.code in ("P101", "P102", "P103"):
            e = entries.get(d.span.line * 100000 + d.span.column)
            if e is not None and e.pointer is not None:
                broken.add(e.pointer.split("#", 1)[0].split("?", 1)[0])
    dup = any(d.code in ("N106", "N107") and d.severity == "error" for d in diags)
    return Verdict(any(d.severity == "error" for d in diags), frozenset(orphans), frozenset(broken), dup)


def build(root: Path, names: tuple[str, ...]) -> Path:
    """The mutant ``names`` (mutations applied in order) written at ``root``."""
    fs = dict(BASE)
    for n in names:
        MUTATIONS[n](fs)
    return make_store(root, fs)


def compare(root: Path, names: tuple[str, ...]) -> list[str]:
    """Disagreements between the doctor and mmlint on mutant ``names``
    (built at ``root``); ``[]`` when they agree."""
    build(root, names)
    doc, ours = run_doctor(root), run_mmlint(root)
    out = []
    if doc.fails != ours.fails:
        out.append(f"verdict: doctor {'fails' if doc.fails else 'passes'}, mmlint {'fails' if ours.fails else 'passes'}")
    if doc.orphans != ours.orphans:
        out.append(f"orphans: doctor {sorted(doc.orphans)}, mmlint {sorted(ours.orphans)}")
    if doc.broken != ours.broken:
        out.append(f"broken pointers: doctor {sorted(doc.broken)}, mmlint {sorted(ours.broken)}")
    if doc.duplicates != ours.duplicates:
        out.append(f"duplicate slugs: doctor {'reports' if doc.duplicates else 'none'}, mmlint {'reports' if ours.duplicates else 'none'}")
    return out


def mutants(seed: int, count: int, max_mutations: int = 3, listed: bool = False) -> list[tuple[str, ...]]:
    """``count`` mutants: every single mutation first, then seeded random
    combinations of 2..``max_mutations`` distinct mutations, drawn from the
    mutations not in :data:`DIFFERENCES` (all of them with ``listed``)."""
    rng = random.Random(seed)
    names = sorted(MUTATIONS)
    pool = names if listed else [n for n in names if n not in DIFFERENCES]
    out: list[tuple[str, ...]] = [(n,) for n in names]
    while len(out) < count:
        k = rng.randint(2, max_mutations)
        out.append(tuple(rng.sample(pool, k)))
    return out[:count]


def excused(names: tuple[str, ...]) -> bool:
    """A mutant with a listed deliberate difference among its mutations."""
    return any(n in DIFFERENCES for n in names)
