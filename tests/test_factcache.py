"""The cached check that misses (issue 9 items 3 and 4): what a first
check with the cache on holds and imports, and per-note facts reused by the
store rules. Every cached result is held to the ``--no-cache`` one."""

from __future__ import annotations

import json
import os
import sys
import tracemalloc
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import after_cli, make_store
from mmlint import api, cache


def _note(i: int, body: str = "") -> str:
    return (f"---\nname: note-{i}\ndescription: note {i}\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\n"
            + (body or f"Fact {i}. See [[note-{(i + 1) % 7}]].\n"))


def _store(root: Path, n: int) -> Path:
    files = {f"note-{i}.md": _note(i) for i in range(n)}
    files["MEMORY.md"] = "# Memory Index\n\n## reference\n" + "".join(f"- [N{i}](note-{i}.md) — h\n" for i in range(n))
    return make_store(root, files)


def test_a_first_cached_check_loads_neither_openssl_nor_tempfile(tmp_path, monkeypatch):
    """A check with the cache on hashes with CPython's own BLAKE2b and names
    its temporary file itself: :mod:`hashlib` loads libcrypto (+3.6 MiB of
    peak RSS) and :mod:`tempfile` shutil, random, bz2 and lzma (+2.4 MiB);
    it reads and writes JSON without the :mod:`json` package (~1 ms). The
    entry is still written, and the next check is a hit, importing none of
    them either."""
    root = _store(tmp_path / "s", 5)
    d = tmp_path / "c"
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(d))
    mods = set(after_cli(["check", str(root), "--format", "json", "--profile", "upstream"],
                         "result = sorted(sys.modules)"))
    assert "mmlint.cache" in mods and mods.isdisjoint({"hashlib", "_hashlib", "tempfile", "shutil", "random", "json"})
    assert sorted(p.name.split(".", 1)[1] for p in d.rglob("*.json")) == ["json", "notes.json"]
    assert not list(d.rglob(".tmp-*"))
    # the next check is a hit (it loads no rules); asked in a child like the first one: this process
    # may import mmlint from another place (an installed copy, CI) and so have another code stamp
    mods = set(after_cli(["check", str(root), "--format", "json", "--profile", "upstream"],
                         "result = sorted(sys.modules)"))
    assert "mmlint.cache" in mods and "mmlint.rules" not in mods and "json" not in mods and "hashlib" not in mods


def test_recording_builds_no_table_beside_the_store(tmp_path, monkeypatch):
    """``Probe.record`` writes the entry as it builds it (:class:`cache.Rows`):
    its traced peak stays below what a ``{path: [stat row, hash]}`` table
    alone takes (what it built before), for 3,000 notes; and the probe's
    tree is held as text only once the store is read (``Probe.freeze``)."""
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setattr(cache, "_CHUNK", 100)
    root = _store(tmp_path / "s", 3000)
    seen = {}
    real = cache.Probe.record

    def spy(self, res, *a, **k):
        shas = a[2] if len(a) > 2 else k["shas"]
        tracemalloc.start()
        table = {rel: [sha, sha] for rel, sha in shas.items()}  # the size of a [stat row, hash] table
        seen["table"] = tracemalloc.get_traced_memory()[0]
        del table
        tracemalloc.stop()
        tracemalloc.start()
        real(self, res, *a, **k)
        seen["record"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()

    monkeypatch.setattr(cache.Probe, "record", spy)
    real_lint = api.lint
    monkeypatch.setattr(api, "lint", lambda store, options, partial=None: (
        seen.setdefault("tree", dict(partial and probes[-1].files)), real_lint(store, options, partial))[1])
    probes = []
    real_init = cache.Probe.__init__
    monkeypatch.setattr(cache.Probe, "__init__", lambda self, *a: (real_init(self, *a), probes.append(self))[0])
    api.check([str(root)], profile="upstream", cache=True)
    assert seen["record"] < seen["table"], seen
    assert seen["tree"] == {}  # frozen before the rules ran
    assert api.cached([str(root)], profile="upstream") is not None


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.tuples(st.text(max_size=4), st.one_of(st.text(max_size=5), st.lists(st.integers(), max_size=2))),
                     max_size=9), chunk=st.integers(1, 4), lead=st.booleans())
def test_rows_are_written_as_the_mapping_of_their_pairs(rows, chunk, lead):
    """A :class:`cache.Rows` value is encoded as ``dict(pairs)`` would be
    (an empty one as ``{}``), a chunk at a time."""
    payload = {"a": 1} if lead else {}
    payload["rows"] = cache.Rows(lambda: iter(rows))
    want = json.dumps({**payload, "rows": dict(rows)}, ensure_ascii=True, separators=(",", ":"))
    if len({k for k, _ in rows}) == len(rows):  # duplicate keys: JSON keeps them all, a dict the last
        assert "".join(cache._json_pieces(payload, chunk)) == want
    assert json.loads("".join(cache._json_pieces(payload, chunk))) == json.loads(want)


_WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon "
          "phi chi psi omega").split()


def _body(seed: int, length: int = 40) -> str:
    """A body of ``length`` words drawn from a small vocabulary by ``seed``:
    two notes of one seed are duplicates, of neighbouring seeds often not."""
    import random

    pick = random.Random(seed).choice
    return " ".join(pick(_WORDS) for _ in range(length)) + ".\n"


def _dump(result: api.CheckResult) -> list:
    return [[(d.code, d.name, d.severity, tuple(d.span), d.message, d.hint, d.fix, d.edits, d.anchor) for d in s.diagnostics]
            for s in result.stores]


def _h101_store(root: Path, n: int = 12) -> Path:
    files = {f"note-{i}.md": _note(i, _body(i)) for i in range(n)}
    files["MEMORY.md"] = "# Memory Index\n\n## reference\n" + "".join(f"- [N{i}](note-{i}.md) — h\n" for i in range(n))
    return make_store(root, files)


def _joins(monkeypatch) -> list:
    """A list that gets one item per whole H101 join (every note against every note)."""
    from mmlint import similarity

    seen: list = []
    real = similarity.near_duplicates_proved
    monkeypatch.setattr(similarity, "near_duplicates_proved", lambda *a: seen.append(1) or real(*a))
    return seen


def test_one_changed_note_is_compared_with_the_others_not_joined_again(tmp_path, monkeypatch):
    """H101 in a cached check after one note changed: the shingles of the
    unchanged notes come from the facts, and when the last check proved no
    two notes near-duplicates, the changed note alone is compared with every
    other: no join of all notes. A changed note that duplicates another is
    found (the whole join then runs), and everything equals ``--no-cache``."""
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    root = _h101_store(tmp_path / "s")
    joins = _joins(monkeypatch)
    first = api.check([str(root)], profile="upstream", cache=True)
    assert len(joins) == 1 and not any(d.code == "H101" for d in first.stores[0].diagnostics)
    assert list((tmp_path / "c").rglob("*.facts"))
    (root / "note-3.md").write_text(_note(3, _body(3) + "One more line of words here.\n"))
    joins.clear()
    warm = api.check([str(root)], profile="upstream", cache=True)
    assert joins == [] and _dump(warm) == _dump(api.check([str(root)], profile="upstream"))
    (root / "note-3.md").write_text(_note(3, _body(5)))  # now a duplicate of note-5
    joins.clear()
    warm = api.check([str(root)], profile="upstream", cache=True)
    assert joins == [1]
    cold = api.check([str(root)], profile="upstream")
    assert _dump(warm) == _dump(cold)
    assert [d.anchor for d in cold.stores[0].diagnostics if d.code == "H101"] == ["note-3.md|note-5.md"]
    (root / "note-3.md").write_text(_note(3, _body(3)))  # no pair any more: proved by the join, then kept
    assert _dump(api.check([str(root)], profile="upstream", cache=True)) == _dump(api.check([str(root)], profile="upstream"))
    (root / "note-4.md").write_text(_note(4, _body(4) + "Another line.\n"))
    joins.clear()
    warm = api.check([str(root)], profile="upstream", cache=True)
    assert joins == [] and _dump(warm) == _dump(api.check([str(root)], profile="upstream"))


def test_notes_added_removed_or_renamed_are_compared_not_joined_again(tmp_path, monkeypatch):
    """Found by review: which notes changed comes from the per-note table
    under any context, so a note added, removed or renamed (the index left
    as it is) does not send H101 back to the whole join, which the note
    context (it names every note) did; each result equals ``--no-cache``."""
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    root = _h101_store(tmp_path / "s")
    api.check([str(root)], profile="upstream", cache=True)
    joins = _joins(monkeypatch)
    for how in ("add", "remove", "rename", "edit"):
        if how == "add":
            (root / "note-20.md").write_text(_note(20, _body(20)))
        elif how == "remove":
            (root / "note-7.md").unlink()
        elif how == "rename":
            (root / "note-20.md").rename(root / "note-21.md")
        else:
            (root / "note-2.md").write_text(_note(2, _body(2) + "Edited.\n"))
        joins.clear()
        warm = api.check([str(root)], profile="upstream", cache=True)
        assert joins == [], how
        assert _dump(warm) == _dump(api.check([str(root)], profile="upstream")), how


def _facts_file(cache_dir: Path) -> Path:
    found = list(cache_dir.rglob("*.facts"))
    assert len(found) == 1, found
    return found[0]


def test_damaged_or_foreign_facts_are_not_used(tmp_path, monkeypatch):
    """A facts file truncated, with a byte changed, a line dropped, text
    after its last line, its store facts changed, not JSON, of another
    format, code stamp or recorded under another context is not used at
    all: the check derives every fact again (no crash) and equals
    ``--no-cache``; a hit never reads the facts file."""
    cdir = tmp_path / "c"
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(cdir))
    root = _h101_store(tmp_path / "s")
    api.check([str(root)], profile="upstream", cache=True)
    good = _facts_file(cdir).read_bytes()
    lines = good.splitlines(keepends=True)
    assert len(lines) >= 3 and lines[-1].startswith(b'],"store":{"H101":[0.7]}'), lines[-1]
    from mmlint.rules import hygiene

    derived: list = []
    real = hygiene._derived
    monkeypatch.setattr(hygiene, "_derived", lambda n, f: derived.append(n.path) or real(n, f))
    assert api.cached([str(root)], profile="upstream") is not None and not list(cdir.rglob(".tmp-*"))  # a hit
    k = good.index(b'"H101"') + 40
    damaged = {"truncate": good[: len(good) // 2], "byte": good[:k] + bytes([good[k] ^ 1]) + good[k + 1:],
               "no-newline": good[:-1], "after": good + b"\n", "last-byte": good[:-1] + b"X",
               "line": b"".join(lines[:1] + lines[2:]),
               "store": good.replace(b'"store":{"H101":[0.7]}', b'"store":{"H101":[0.9]}'),
               "not-json": b"\x00\xff garbage", "empty": b"",
               "format": good.replace(f'"format":{cache.FORMAT},'.encode(), b'"format":6,', 1),
               "one-line": good.replace(b"\n", b""),
               "ctx": good.replace(b'"ctx":"', b'"ctx":"0', 1),
               "stamp": good.replace(b'"stamp":"mmlint', b'"stamp":"mmlinx', 1)}
    for i, (how, data) in enumerate(damaged.items()):
        assert data != good, how
        _facts_file(cdir).write_bytes(data)
        (root / "note-1.md").write_text(_note(1, _body(1) + f"Edit {i}.\n"))
        derived.clear()
        warm = api.check([str(root)], profile="upstream", cache=True)
        assert sorted(set(derived)) == sorted(derived) == [f"note-{j}.md" for j in sorted(range(12), key=str)], how
        assert _dump(warm) == _dump(api.check([str(root)], profile="upstream")), how
    (root / "note-1.md").write_text(_note(1, _body(1)))
    derived.clear()
    api.check([str(root)], profile="upstream", cache=True)
    assert derived == ["note-1.md"], "rewritten whole after each damaged one"
    assert _facts_file(cdir).read_bytes().splitlines()[-1].startswith(b'],"store":{"H101":[0.7]}')


def test_facts_stream_a_line_at_a_time(tmp_path, monkeypatch):
    """The facts file is one JSON document written a chunk of rows a line:
    no line holds more than one chunk, :meth:`cache.Facts.each` gives the
    unchanged notes' facts chunk by chunk (none of a note whose bytes
    changed or that is not asked about), removes each path it gives from
    those asked about and carries the facts over, and
    :meth:`cache.Facts.restart` forgets what was recorded."""
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    n = 2 * cache._CHUNK + 7
    shas = {f"n{i}.md": f"{i:032x}" for i in range(n)}
    facts = cache.Facts("slot", "ctx", shas)
    for i in range(n):
        facts.put("H101", f"n{i}.md", f"{i:08x}")
    facts.put_store("H101", [0.5])
    facts.close()
    data = _facts_file(tmp_path / "c").read_bytes()
    doc = json.loads(data)
    assert doc["store"] == {"H101": [0.5]} and sum(len(t) for _, t in doc["rows"]) == n
    assert len(data.splitlines()) == 2 + len(doc["rows"]) == 5 and b"\r" not in data
    shas["n3.md"] = "f" * 32  # changed since
    again = cache.Facts("slot", "ctx", shas)
    asked = {p: None for p in shas if p != "n5.md"}
    chunks = list(again.each("H101", asked))
    assert [len(c) for c in chunks] == [cache._CHUNK - 2, cache._CHUNK, 7] and list(asked) == ["n3.md"]
    got = {k: v for c in chunks for k, v in c.items()}
    assert "n3.md" not in got and "n5.md" not in got and got["n9.md"] == "00000009" and again.get_store("H101") == [0.5]
    again.close()  # carried over: every fact but the two, and no store fact (none was put)
    third = cache.Facts("slot", "ctx", shas)
    assert sum(len(c) for c in third.each("H101", dict(shas))) == n - 2 and third.get_store("H101") is None
    third.put("H101", "n3.md", "00000003")
    third.restart()
    third.put("H101", "n4.md", "00000004")
    third.close()
    assert [list(c) for c in cache.Facts("slot", "ctx", shas).each("H101", dict(shas))] == [["n4.md"]]


def _crafted_facts(path: Path, header: bytes, chunks: list[bytes], store: bytes) -> None:
    """Write a facts file of these lines with a sum that holds (as mmlint would sum them)."""
    lines = [(b"," if i else b"") + c + b"\n" for i, c in enumerate(chunks)]
    total = cache._blake2b()(digest_size=16)
    for line in lines:
        total.update(line)
    total.update(store)
    path.write_bytes(header + b"".join(lines) + b'],"store":' + store + b',"sum":"' + total.hexdigest().encode() + b'"}\n')


def test_crafted_facts_files_with_a_sum_that_holds(tmp_path, monkeypatch):
    """Found by review: facts files whose sum holds but whose rows mmlint
    never writes. A row given twice (in two chunks) is taken once, so it
    cannot stand in for a note with no fact: the changed note is still
    compared with that note; a chunk line of deeply nested JSON is passed
    over (a RecursionError escaped as a traceback); the results equal
    ``--no-cache`` and every note ends with one row in the new file."""
    cdir = tmp_path / "c"
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(cdir))
    root = _h101_store(tmp_path / "s")
    api.check([str(root)], profile="upstream", cache=True)
    path = _facts_file(cdir)
    good = path.read_bytes()
    header = good.split(b"\n", 1)[0] + b"\n"
    doc = json.loads(good)
    rows = {p: r for _, t in doc["rows"] for p, r in t.items()}
    assert len(rows) == 12
    dumps = cache._json()[1]
    # note-3 becomes a duplicate of note-5, whose row is left out and note-4's given twice instead
    dup = {p: r for p, r in rows.items() if p != "note-5.md"}
    cases = {"duplicate row": [dumps(["H101", dup]).encode(), dumps(["H101", {"note-4.md": rows["note-4.md"]}]).encode()],
             "deep": [dumps(["H101", rows]).encode(), b"[" * 100000 + b"]" * 100000]}
    for how, chunks in cases.items():
        _crafted_facts(path, header, chunks, b'{"H101":[0.7]}')
        (root / "note-3.md").write_text(_note(3, _body(5) if how == "duplicate row" else _body(3) + "More.\n"))
        warm = api.check([str(root)], profile="upstream", cache=True)
        cold = api.check([str(root)], profile="upstream")
        assert _dump(warm) == _dump(cold), how
        if how == "duplicate row":
            assert [d.anchor for d in cold.stores[0].diagnostics if d.code == "H101"] == ["note-3.md|note-5.md"]
        again = json.loads(_facts_file(cdir).read_bytes())
        paths = [p for _, t in again["rows"] for p in t]
        assert sorted(paths) == sorted(rows), how
        (root / "note-3.md").write_text(_note(3, _body(3)))
        api.check([str(root)], profile="upstream", cache=True)


_OPS = st.one_of(
    st.tuples(st.just("body"), st.integers(0, 7), st.integers(0, 9)),
    st.tuples(st.just("add"), st.integers(8, 10), st.integers(0, 9)),
    st.tuples(st.just("remove"), st.integers(0, 10), st.just(0)),
    st.tuples(st.just("rename"), st.integers(0, 10), st.integers(11, 13)),
    st.tuples(st.just("index"), st.integers(0, 13), st.just(0)),
    st.tuples(st.just("threshold"), st.just(0), st.sampled_from((0.3, 0.5, 0.7, 0.95))),
)


@settings(max_examples=10, deadline=None)
@given(seeds=st.lists(st.integers(0, 9), min_size=3, max_size=8), ops=st.lists(_OPS, min_size=1, max_size=5))
def test_cached_checks_with_facts_equal_uncached_ones(tmp_path_factory, seeds, ops):
    """Random stores of notes that are often near-duplicates (a few bodies
    from one small vocabulary), random edits, additions, deletions and
    renames of notes, of the index and of H101's threshold between checks:
    after every step the cached check (facts taken and recorded) gives
    exactly the ``--no-cache`` diagnostics, in the same order."""
    base = tmp_path_factory.mktemp("facts")
    old = os.environ.get("MMLINT_CACHE_DIR")
    os.environ["MMLINT_CACHE_DIR"] = str(base / "c")
    try:
        files = {f"note-{i}.md": _note(i, _body(s)) for i, s in enumerate(seeds)}
        files["MEMORY.md"] = "# Memory Index\n\n## reference\n" + "".join(f"- [N{i}](note-{i}.md) — h\n" for i in range(len(seeds)))
        root = make_store(base / "s", files)
        api.check([str(root)], profile="upstream", cache=True)
        for op, i, arg in ops:
            path = root / f"note-{i}.md"
            if op == "body" and path.exists():
                path.write_text(_note(i, _body(arg)))
            elif op == "add":
                path.write_text(_note(i, _body(arg)))
            elif op == "remove" and path.exists():
                path.unlink()
            elif op == "rename" and path.exists():
                path.rename(root / f"note-{arg}.md")
            elif op == "index":
                idx = root / "MEMORY.md"
                line = f"- [N{i}](note-{i}.md) — h\n"
                text = idx.read_text()
                idx.write_text(text.replace(line, "") if line in text else text + line)
            elif op == "threshold":
                (root / ".mmlint.toml").write_text(f"[hygiene]\nduplicate-threshold = {arg}\n")
            warm = api.check([str(root)], profile="upstream", cache=True)
            cold = api.check([str(root)], profile="upstream", cache=False)
            assert _dump(warm) == _dump(cold), (op, i, arg)
    finally:
        if old is None:
            os.environ.pop("MMLINT_CACHE_DIR", None)
        else:
            os.environ["MMLINT_CACHE_DIR"] = old


@settings(max_examples=60, deadline=None)
@given(sh=st.sets(st.integers(0, 2**32 - 1), max_size=40))
def test_compact_shingles_round_trip_through_their_text(sh):
    """H101's fact of a note: :func:`similarity.load_compact` gives back
    exactly the array :func:`similarity.dump_compact` wrote, and refuses
    text it did not write."""
    import pytest

    from mmlint import similarity

    arr = similarity.compact(sh)
    assert similarity.load_compact(similarity.dump_compact(arr)) == arr
    for bad in ("abc", "zz" * 4, 7, None):
        with pytest.raises((ValueError, TypeError)):
            similarity.load_compact(bad)


@settings(max_examples=80, deadline=None)
@given(value=st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text()),
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
                          max_leaves=12))
def test_the_cache_json_codec_is_the_json_packages(value):
    """The cache reads and writes JSON with ``_json``'s C functions (no
    :mod:`json` import): the same text as ``json.dumps(ensure_ascii=True,
    separators=(",", ":"))`` and the same value back as ``json.loads``;
    text that is not one JSON value is a :class:`ValueError`."""
    import math

    import pytest

    loads, dumps = cache._json()
    text = dumps(value)
    assert text == json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    back, want = loads(text), json.loads(text)
    assert repr(back) == repr(want) or (isinstance(value, float) and math.isnan(value))
    for bad in (text + " 1", "", text[:-1] if len(text) > 1 and text[-1] in "]}" else "[", b"\xff"):
        with pytest.raises(ValueError):
            loads(bad)


def test_facts_through_parallel_and_serial_checks(tmp_path, monkeypatch):
    """A cached check with ``--jobs 2`` (H101 may run in the forked worker,
    which records no facts), then serial ones, then parallel again: each
    equals ``--no-cache``, duplicates found and lost included."""
    from mmlint.options import Options

    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    root = _h101_store(tmp_path / "s")
    api.check([str(root)], profile="upstream", cache=True)
    for i, (body, jobs) in enumerate(((_body(3) + "More.\n", 2), (_body(5), None), (_body(3), 2), (_body(6), 2),
                                      (_body(3), None))):
        (root / "note-3.md").write_text(_note(3, body))
        warm = api.check([str(root)], profile="upstream", cache=True, options=Options(jobs=jobs))
        assert _dump(warm) == _dump(api.check([str(root)], profile="upstream")), i


def test_a_check_that_misses_holds_neither_the_old_entry_nor_unasked_facts(tmp_path, monkeypatch):
    """Peak memory of a cached check after one note changed (issue 9 item
    4; 81 -> ~70 MiB at 20,000 notes): the probe lets go of the entry that
    no longer holds, and the previous facts are read when a rule first asks
    for them, not while the store is read, so a check whose H101 does not
    run reads none."""
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    root = _store(tmp_path / "s", 6)
    api.check([str(root)], profile="upstream", cache=True)
    (root / "note-2.md").write_text(_note(2, "Changed.\n"))
    found = api.locate([str(root)], None)[0]
    res, pr = api._cache_hit(found, None, "upstream", None, None, False, True)
    assert res is None and pr.entry is None and pr.trusted
    loads = []
    real = cache._facts_ends
    monkeypatch.setattr(cache, "_facts_ends", lambda *a: loads.append(a) or real(*a))
    facts = cache.Facts(pr.text, "ctx", {})
    assert loads == []
    list(facts.each("H101", {"note-1.md": None}))
    facts.get_store("H101")
    assert len(loads) == 1
    facts.close(keep=False)
    loads.clear()
    from mmlint.options import Options

    api.check([str(root)], profile="upstream", cache=True, options=Options(ignore=("H101",)))
    assert loads == []
    loads.clear()
    (root / "note-2.md").write_text(_note(2, "Changed again.\n"))
    warm = api.check([str(root)], profile="upstream", cache=True)
    assert len(loads) == 1 and _dump(warm) == _dump(api.check([str(root)], profile="upstream"))


def test_h101_streams_the_facts_of_a_cached_check(tmp_path, monkeypatch):
    """Issue 9 item 4: H101 in a cached check after one note changed holds
    no table of the facts (~8 MiB at 20,000 notes when it parsed the whole
    file, against ~2 MiB for a cold run's arrays): its traced peak is below
    half the cold run's H101, for 3,000 notes in chunks of 50 rows (what it
    holds at a time is a chunk, ~1 MiB in all in chunks of 500), and it
    joins no notes again."""
    from mmlint import rules

    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setattr(cache, "_CHUNK", 50)
    files = {f"note-{i}.md": _note(i, f"Fact {i} of {i * 7 % 13} about item {i * 31} in zone {i % 97}.\n")
             for i in range(3000)}
    files["MEMORY.md"] = "# Memory Index\n\n## reference\n" + "".join(f"- [N{i}](note-{i}.md) — h\n" for i in range(3000))
    root = make_store(tmp_path / "s", files)
    rule = rules.load()["H101"]
    peaks: list[int] = []

    def traced(ctx, real=rule.func):
        tracemalloc.start()
        out = list(real(ctx))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        return out

    object.__setattr__(rule, "func", traced)  # a Rule is frozen
    try:
        cold = api.check([str(root)], profile="upstream", cache=True)  # records the facts
        (root / "note-3.md").write_text(_note(3, "Fact three, now told otherwise.\n"))
        joins = _joins(monkeypatch)
        warm = api.check([str(root)], profile="upstream", cache=True)
    finally:
        object.__setattr__(rule, "func", traced.__defaults__[0])
    assert joins == [] and len(peaks) == 2
    assert peaks[1] < peaks[0] / 2, peaks
    assert not any(d.code == "H101" for s in (cold, warm) for d in s.stores[0].diagnostics)


def test_what_a_jobs_worker_records_reaches_the_parents_facts_file(tmp_path, monkeypatch):
    # found by review: with --jobs, an H101 run in a forked worker recorded nothing, and the parent
    # then removed the facts file, so the next check derived every note's shingles again
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    shas = {"a.md": "1" * 32, "b.md": "2" * 32}
    facts = cache.Facts("slot", "ctx", shas)
    parent = os.getpid()
    monkeypatch.setattr(os, "getpid", lambda: parent + 1)  # as in a forked worker
    facts.put("H101", "a.md", "0000000a")
    facts.put_store("H101", [0.7])
    sent = facts.worker_rows()
    monkeypatch.setattr(os, "getpid", lambda: parent)
    assert facts.worker_rows() == {} and not list((tmp_path / "c").rglob("*.facts"))  # nothing written by the worker
    facts.merge(sent)
    facts.merge("not rows")  # ignored
    facts.close()
    again = cache.Facts("slot", "ctx", shas)
    assert list(again.each("H101", {"a.md": 0, "b.md": 1})) == [{"a.md": "0000000a"}] and again.get_store("H101") == [0.7]
