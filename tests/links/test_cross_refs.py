"""Cross-references in every dialect (issue 10 item 3): markdown links
between notes, ``[[wikilinks]]`` and mm URIs are resolved; dangling ones are
flagged, notes reached only by links reported."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from conftest import make_store  # noqa: E402

from mmlint import dialects, resolve, rules  # noqa: E402

MM_HEAD = "# MEMORY.md\n\n> mm-id: {mid}\n> mm-version: 1\n> mm-kind: index\n"


def mm_store(tmp_path, bodies: dict[str, str], mid="local"):
    files = {"MEMORY.md": MM_HEAD.format(mid=mid) + "".join(f"## {t}\n- **summary:** s\n- **file:** memories/{t}.md\n" for t in bodies)}
    for t, body in bodies.items():
        files[f"memories/{t}.md"] = f"# {t}\n\n> mm-id: {mid}\n> mm-topic: {t}\n\n{body}"
    return make_store(tmp_path, files)


def run(root, dialect, profile=None):
    mod = dialects.get(dialect)
    store = mod.read(str(root), profile)
    return store, sorted((d.code, d.span.path, d.span.line, d.span.column) for d in rules.run(store, mod, rules.Options()))


def test_mm_uris_resolve_by_topic_and_memory_id(tmp_path):
    root = mm_store(tmp_path, {"alpha": "see mm:beta, mm://local/beta.\nand mm:gamma, mm://other/gamma, xmm:gamma\n", "beta": "b\n"}, "local")
    store, got = run(root, "mm")
    refs = [(r.dest, r.resolution.kind) for r in resolve.note_refs(store)]
    assert refs == [("mm:beta", "note"), ("mm://local/beta.", "note"), ("mm:gamma", "missing"), ("mm://other/gamma", "remote")]
    assert [g for g in got if g[0] == "P112"] == [("P112", "memories/alpha.md", 7, 5)]


def test_mm_uri_memory_id_is_the_stores_mm_id(tmp_path):
    root = mm_store(tmp_path, {"alpha": "see mm://team/beta and mm://local/beta\n", "beta": "b\n"}, "team")
    store, _ = run(root, "mm")
    assert [(r.dest, r.resolution.kind) for r in resolve.note_refs(store)] == [("mm://team/beta", "note"), ("mm://local/beta", "remote")]


def test_mm_markdown_links_between_notes(tmp_path):
    root = mm_store(tmp_path, {"alpha": "see [b](beta.md), [c](gamma.md), [o](../../x.txt), [w](wee-linked.com)\n", "beta": "b\n"})
    _, got = run(root, "mm")
    assert [g[:3] for g in got if g[0] == "P111"] == [("P111", "memories/alpha.md", 6), ("P111", "memories/alpha.md", 6)]


WS_NOTE = "---\ntitle: {t}\ntags: a\ncreated: 2026-10-08T08:31:24.000Z\nupdated: 2026-10-08T08:31:24.000Z\n---\n\n{body}"


def test_workspace_links_and_wikilinks(tmp_path):
    root = make_store(tmp_path, {
        "MEMORY.md": "# 记忆索引\n\n## 项目约定\n\n- [甲](./项目约定/甲.md) — a · 2026-10-08 · 1 B\n",
        "项目约定/甲.md": WS_NOTE.format(t="甲", body="见 [乙](../工具/乙.md)、[[工具/丙]]、[[丁]] 和 [缺](无.md)\n"),
        "工具/乙.md": WS_NOTE.format(t="乙", body="x\n"),
        "工具/丙.md": WS_NOTE.format(t="丙", body="x\n"),
    })
    store, got = run(root, "workspace")
    refs = [(r.kind, r.dest, r.resolution.kind, r.resolution.note) for r in resolve.note_refs(store)]
    assert refs == [("link", "../工具/乙.md", "note", "工具/乙.md"), ("wikilink", "工具/丙", "note", "工具/丙.md"),
                    ("wikilink", "丁", "missing", None), ("link", "无.md", "missing", None)]
    codes = {(c, p) for c, p, _, _ in got}
    assert {("P110", "工具/乙.md"), ("P110", "工具/丙.md"), ("P109", "项目约定/甲.md"), ("P111", "项目约定/甲.md")} <= codes


def test_engramory_markdown_link_credits_the_note(tmp_path):
    n = "---\nname: {0}\ndescription: d\ntype: user\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\n\n{1}"
    root = make_store(tmp_path, {"MEMORY.md": "- [A](a.md) — h\n", "a.md": n.format("a", "see [b](b.md)\n"), "b.md": n.format("b", "x\n")})
    _, got = run(root, "engramory", "upstream")
    assert ("P106", "b.md") not in {(c, p) for c, p, _, _ in got}
    assert ("P110", "b.md") in {(c, p) for c, p, _, _ in got}


def test_cross_references_are_linear(tmp_path):
    """10x the notes (each with a markdown link, a wikilink and a URI, all
    dangling) costs about 10x, never 100x."""
    def timed(n):
        root = mm_store(tmp_path / str(n), {f"t{i}": f"see [x](x{i}.md) [[y{i}]] mm:z{i}\n" for i in range(n)})
        store = dialects.get("mm").read(str(root), None)
        t = time.perf_counter()
        refs = resolve.note_refs(store)
        assert len(refs) == 3 * n
        return time.perf_counter() - t
    small, big = min(timed(60) for _ in range(2)), timed(600)
    assert big < 40 * max(small, 1e-3)
