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
    the entry is still written, and the next check is a hit."""
    root = _store(tmp_path / "s", 5)
    d = tmp_path / "c"
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(d))
    mods = set(after_cli(["check", str(root), "--format", "json", "--profile", "upstream"],
                         "result = sorted(sys.modules)"))
    assert "mmlint.cache" in mods and mods.isdisjoint({"hashlib", "_hashlib", "tempfile", "shutil", "random"})
    assert sorted(p.name.split(".", 1)[1] for p in d.rglob("*.json")) == ["json", "notes.json"]
    assert not list(d.rglob(".tmp-*"))
    assert api.cached([str(root)], profile="upstream") is not None


def test_recording_builds_no_table_beside_the_store(tmp_path, monkeypatch):
    """``Probe.record`` writes the entry as it builds it (:class:`cache.Rows`):
    its traced peak stays below what the ``{path: [stat row, hash]}`` table
    alone takes (what it built before), for 3,000 notes."""
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(tmp_path / "c"))
    monkeypatch.setattr(cache, "_CHUNK", 100)
    root = _store(tmp_path / "s", 3000)
    seen = {}
    real = cache.Probe.record

    def spy(self, res, *a, **k):
        shas = a[2] if len(a) > 2 else k["shas"]
        tracemalloc.start()
        table = {rel: [row, shas.get(rel)] for rel, row in self.files.items()}
        seen["table"] = tracemalloc.get_traced_memory()[0]
        del table
        tracemalloc.stop()
        tracemalloc.start()
        real(self, res, *a, **k)
        seen["record"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()

    monkeypatch.setattr(cache.Probe, "record", spy)
    api.check([str(root)], profile="upstream", cache=True)
    assert seen["record"] < seen["table"], seen
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
