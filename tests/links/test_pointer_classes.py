"""Regression tests for the classes of false errors and silent misses in
pointer and link resolution (issue 10 item 1), each with its smallest
reproducer, and for the resolver's result kinds (item 2)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conftest import LINK, make_store  # noqa: E402

from mmlint import dialects, resolve, rules  # noqa: E402


def note(name="a", body="body\n", type_="user"):
    return f"---\nname: {name}\ndescription: d\ntype: {type_}\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\n{body}"


def findings(root: Path, dialect="engramory", profile="upstream") -> list[tuple[str, str, int]]:
    mod = dialects.get(dialect)
    store = mod.read(str(root), profile)
    return sorted((d.code, d.span.path, d.span.line) for d in rules.run(store, mod, rules.Options()) if d.severity != "info" or d.code.startswith("P"))


def codes(root: Path, dialect="engramory", profile="upstream") -> set[str]:
    return {c for c, _, _ in findings(root, dialect, profile)}


def errors(root: Path, dialect="engramory", profile="upstream") -> list[tuple[str, str]]:
    mod = dialects.get(dialect)
    store = mod.read(str(root), profile)
    return sorted((d.code, d.span.path) for d in rules.run(store, mod, rules.Options()) if d.severity == "error")


def test_cr_only_index_pointers_are_read(tmp_path):
    root = make_store(tmp_path, {"MEMORY.md": "# Memory Index\r## user\r- [A](a.md) — h\r", "a.md": note()})
    assert errors(root) == []
    store = dialects.get("engramory").read(str(root), "upstream")
    [e] = store.index.entries
    assert (e.span.line, e.pointer_span.column, e.credits) == (3, 7, "a.md")


@pytest.mark.parametrize("nl", ["\n", "\r\n", "\r"])
def test_every_line_ending_gives_the_same_entries(tmp_path, nl):
    text = nl.join(["# Memory Index", "", "## user", "- [A](a.md) — h", "- [B](<b.md> \"t\") — h", ""])
    root = make_store(tmp_path, {"MEMORY.md": text, "a.md": note(), "b.md": note("b")})
    store = dialects.get("engramory").read(str(root), "upstream")
    assert [(e.span.line, e.credits, e.hook) for e in store.index.entries] == [(4, "a.md", "h"), (5, "b.md", "h")]


def test_pointer_through_in_root_symlinked_folder_credits_the_note(tmp_path):
    root = make_store(tmp_path, {"MEMORY.md": "- [A](link/a.md) — h\n", "real/a.md": note(), "link": LINK("real")})
    assert "P101" not in codes(root) and "P106" not in codes(root)
    store = dialects.get("engramory").read(str(root), "upstream")
    assert store.index.entries[0].resolution.kind == resolve.NOTE
    assert store.index.entries[0].credits == "real/a.md"


@pytest.mark.parametrize("folder", ["node_modules", ".git"])
def test_pointer_to_a_file_in_a_tool_folder_is_not_no_note_at(tmp_path, folder):
    root = make_store(tmp_path, {"MEMORY.md": f"- [X]({folder}/x/a.md) — h\n- [B](b.md) — h\n", f"{folder}/x/a.md": "hi\n", "b.md": note("b")})
    got = findings(root)
    assert ("P101", "MEMORY.md", 1) not in got
    assert ("P108", "MEMORY.md", 1) in got


@pytest.mark.parametrize("name", ["~notes.md", "a:b.md"])
def test_tilde_and_colon_names_are_relative(tmp_path, name):
    root = make_store(tmp_path, {"MEMORY.md": f"- [A]({name}) — h\n", name: note(name[:-3])})
    assert not {"P104", "P106"} & codes(root)


@pytest.mark.parametrize("dest", ["/abs/a.md", "~/a.md", "C:/a.md", "c:\\a.md", "~"])
def test_absolute_forms_stay_absolute(dest):
    assert resolve.classify(dest)[1] in (resolve.ABSOLUTE, resolve.BACKSLASH)


def test_broken_closing_fence_keeps_the_wikilinks(tmp_path):
    root = make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — h\n", "a.md": "---\nname: a\ndescription: d\ntype: user\n--- x\nsee [[b]]\n",
                                 "b.md": note("b")})
    assert "P106" not in codes(root)
    assert ("P110", "b.md", 1) in findings(root)


def test_dangling_symlink_that_is_not_a_note_is_not_an_error(tmp_path):
    root = make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — h\n", "a.md": note(), "link.txt": LINK("nowhere")})
    assert errors(root) == []
    assert "S102" in codes(root)
    note_link = make_store(tmp_path / "n", {"MEMORY.md": "- [A](a.md) — h\n", "a.md": note(), "b.md": LINK("nowhere.md")})
    assert ("S102", "b.md") in errors(note_link)


def test_pointer_to_a_folder_named_like_a_note_is_an_error(tmp_path):
    root = make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — h\n- [X](x.md) — h\n", "a.md": note(), "x.md/keep.txt": "k\n"})
    assert ("P101", "MEMORY.md") in errors(root)


@pytest.mark.parametrize("dest", ["a.md/", "a.md/."])
def test_a_note_named_as_a_folder_credits_nothing(tmp_path, dest):
    root = make_store(tmp_path, {"MEMORY.md": f"- [A]({dest}) — h\n", "a.md": note()})
    assert errors(root) == [("P101", "MEMORY.md"), ("P106", "a.md")]


def test_path_carrying_wikilink_resolves_to_nothing_in_engramory(tmp_path):
    root = make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — h\n", "a.md": note(body="see [[dir/slug]]\n"), "dir/slug.md": note("slug")})
    got = findings(root)
    assert ("P109", "a.md", 9) in got
    assert ("P106", "dir/slug.md", 1) in got


def test_recall_v1_linkless_pointer_credits_its_note(tmp_path):
    root = make_store(tmp_path, {"MEMORY.md": "# Memory Index\n\n## user\n- 一句话摘录 — user-a.md\n", "user-a.md": note(),
                                 ".engramory-usage.jsonl": "{}\n"})
    assert errors(root, profile="recall-v1") == []
    assert "I105" not in codes(root, profile="recall-v1")
    missing = make_store(tmp_path / "m", {"MEMORY.md": "- 一句话摘录 — user-b.md\n", "user-a.md": note()})
    assert ("P101", "MEMORY.md") in errors(missing, profile="recall-v1")
    # other profiles' tools do not read the form: the note stays an orphan there
    assert ("P106", "user-a.md") in errors(root, profile="upstream")


def test_resolution_kinds(tmp_path):
    root = make_store(tmp_path, {"MEMORY.md": "x\n", "a.md": note(), "d/k.txt": "k", "gone.md": LINK("nowhere.md"), "out.md": LINK("/etc/hostname")})
    store = dialects.get("engramory").read(str(root), "upstream")
    r = resolve.Resolver(store)
    got = {d: r.dest(d).kind for d in ["a.md", "a%2Emd", "./a.md#x", "a.md?q", "d", "d/", "nope.md", "../x.md", "gone.md", "out.md",
                                       "a.md/", "d/k.txt", "https://e.com/a.md", "file:///x.md", "#top", "a%00.md"]}
    assert got == {"a.md": "note", "a%2Emd": "note", "./a.md#x": "note", "a.md?q": "note", "d": "folder", "d/": "folder",
                   "nope.md": "missing", "../x.md": "outside", "gone.md": "not-openable", "out.md": "outside", "a.md/": "not-openable",
                   "d/k.txt": "file", "https://e.com/a.md": "remote", "file:///x.md": "scheme", "#top": "anchor", "a%00.md": "not-openable"}
