"""The link rules' compact forms held to the plain ones: the lazily built
wikilink tables to the eager resolver they replaced, and the one-pass
``_refs`` / ``_linked`` of :mod:`mmlint.rules.pointers` to the full list of
:func:`mmlint.resolve.note_refs`, on every corpus and fixture store."""

from __future__ import annotations

import posixpath

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from conftest import corpus_stores, fixture_stores, make_store, store_id

from mmlint import api, dialects, resolve, rules
from mmlint.resolve import ANCHOR, MISSING, NOTE, Resolution, wiki_target
from mmlint.rules import pointers


def eager_wiki_resolver(store, dialect):
    """The resolver as first written: every table built up front."""
    prefixes = tuple(getattr(dialect, "TYPE_PREFIXES", ()))
    allow_paths = bool(getattr(dialect, "WIKILINK_PATHS", True))
    by_stem, by_fold, by_name, by_prefixless, by_path = {}, {}, {}, {}, {}
    for n in store.notes:
        rec = store.files.get(n.path)
        if rec is None or rec.kind != "note":
            continue
        by_path[n.path[:-3] if n.path.lower().endswith(".md") else n.path] = n.path
        stem = n.path.rsplit("/", 1)[-1]
        stem = stem[:-3] if stem.lower().endswith(".md") else stem
        by_stem.setdefault(stem, n.path)
        folded = stem.casefold().replace("_", "-")
        by_fold.setdefault(folded, n.path)
        prefix, _, rest = folded.partition("-")
        if rest and prefix in prefixes:
            by_prefixless.setdefault(rest, n.path)
        if n.name:
            by_name.setdefault(n.name.strip().casefold().replace("_", "-").replace(" ", "-"), n.path)

    def res(inner):
        target = wiki_target(inner)
        if not target:
            return Resolution(ANCHOR)
        stem = target[:-3] if target.lower().endswith(".md") else target
        if "/" in stem or "\\" in stem:
            if not allow_paths:
                return Resolution(MISSING, stem, reason="not a bare slug: this dialect's wikilinks name a note by its slug, never by a path")
            hit = by_path.get(posixpath.normpath(stem.replace("\\", "/")))
            return Resolution(NOTE, hit, note=hit) if hit else Resolution(MISSING, stem)
        key = stem.casefold().replace("_", "-")
        hit = by_stem.get(stem) or by_fold.get(key) or by_name.get(key.replace(" ", "-")) or by_prefixless.get(key)
        return Resolution(NOTE, hit, note=hit) if hit else Resolution(MISSING, stem)

    return res


def _stores():
    out = []
    for p in corpus_stores() + fixture_stores():
        try:
            name, prof, _ = api.choose(str(p))
            out.append((p, dialects.get(name), dialects.get(name).read(str(p), prof)))
        except Exception:  # noqa: BLE001 - a store that cannot be read is not this test's subject
            continue
    return out


STORES = _stores()


def _probes(store):
    """Wikilink texts that exercise every table: each note's stem, path,
    name, their case-folded and ``_``/``-`` forms, without a type prefix,
    with an alias and an anchor, and misses."""
    out = {"", "#a", "nothing-here", "a/b", "x\\y", "../up"}
    for n in store.notes:
        base = n.path[:-3] if n.path.lower().endswith(".md") else n.path
        stem = base.rsplit("/", 1)[-1]
        out |= {base, stem, stem.upper(), stem.replace("-", "_"), stem.replace("_", "-"), f"{stem}|alias", f"{stem}#h",
                stem.partition("-")[2], stem.partition("_")[2], f"{stem}.md", f"./{base}"}
        if n.name:
            out |= {n.name, n.name.upper(), n.name.replace(" ", "_")}
    return sorted(out)


@pytest.mark.parametrize("root,dialect,store", STORES, ids=[store_id(p) for p, _, _ in STORES])
def test_lazy_wiki_tables_resolve_as_the_eager_ones(root, dialect, store):
    lazy, eager = resolve.wiki_resolver(store, dialect), eager_wiki_resolver(store, dialect)
    probes = _probes(store) + [r.dest for r in resolve.note_refs(store, dialect) if r.kind == "wikilink"]
    assert [lazy(p) for p in probes] == [eager(p) for p in probes]


@pytest.mark.parametrize("root,dialect,store", STORES, ids=[store_id(p) for p, _, _ in STORES])
def test_one_pass_refs_equal_the_full_list(root, dialect, store):
    full = resolve.note_refs(store, dialect)
    linked: dict[str, set[str]] = {}
    for ref in full:
        hit = ref.resolution.note if ref.resolution.kind == NOTE else None
        if hit and hit != ref.source:
            linked.setdefault(hit, set()).add(ref.source)
    ctx = rules.Context(store, dialect, rules.Options())
    for kind in ("link", "wikilink", "uri"):
        want = [r for r in full if r.kind == kind and r.resolution.kind != NOTE]
        assert list(pointers._refs(ctx, kind)) == want
        assert list(pointers._refs(ctx, kind)) == want  # taken from the memo the first time: scanned again
    got = pointers._linked(ctx)
    assert got.keys() == linked.keys()
    assert all(pointers._linkers(got, k) == sorted(v) for k, v in linked.items())


def test_linkers_of_a_note_reached_from_several(tmp_path):
    note = "---\nname: {n}\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\n{b}\n"
    files = {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n",
             "a.md": note.format(n="a", b="see [[b]] and [[b]] and [b](b.md)"),
             "c.md": note.format(n="c", b="see [[b]]"), "b.md": note.format(n="b", b="see [[b]]")}
    root = make_store(tmp_path / "s", files)
    mod = dialects.get("engramory")
    store = mod.read(str(root), "upstream")
    ctx = rules.Context(store, mod, rules.Options())
    linked = pointers._linked(ctx)
    assert pointers._linkers(linked, "b.md") == ["a.md", "c.md"]
    assert "a.md" not in linked and "c.md" not in linked  # b's link to itself does not count
    p110 = [d.message for d in rules.run(store, mod, rules.Options()) if d.code == "P110"]
    assert p110 == ["reached only from other notes (a.md, c.md), not from the index"]


WIKI_NAMES = ["a|b", "x.md", "c#d", "UP", "sp ace", " lead", "trail ", "feedback_x", "feedback-y", "a", "A", "b_c", "MD.MD"]
WIKI_PIECES = WIKI_NAMES + ["|", "#", ".md", ".MD", " ", "/", "\\\\", "_", "-", "feedback", "x", "y", "z"]


@pytest.fixture(scope="module")
def odd_names_store(tmp_path_factory):
    note = "---\\nname: {n}\\ndescription: d\\ntype: reference\\ncreated: 2026-01-01\\nupdated: 2026-01-02\\n---\\n\\nbody\\n"
    files = {"MEMORY.md": "# Memory Index\\n\\n## reference\\n" + "".join(f"- [N](<{n}.md>) - h\\n" for n in WIKI_NAMES)}
    for n in WIKI_NAMES:
        files[f"{n}.md"] = note.format(n=n.strip() or "n")
    root = make_store(tmp_path_factory.mktemp("odd") / "s", files)
    mod = dialects.get("engramory")
    return mod, mod.read(str(root), "upstream")


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(WIKI_PIECES), max_size=4).map("".join))
@example("a|b")
@example("x.md")
@example(" lead")
@example("UP")
def test_wiki_find_fast_path_agrees_with_the_eager_resolver(odd_names_store, inner):
    mod, store = odd_names_store
    lazy, eager = resolve.wiki_resolver(store, mod), eager_wiki_resolver(store, mod)
    got = lazy.find(inner)
    want = eager(inner)
    assert lazy(inner) == want
    assert (Resolution(NOTE, got, note=got) if isinstance(got, str) else got) == want
