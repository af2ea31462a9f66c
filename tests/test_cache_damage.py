"""A damaged cache entry is a miss, never a crash, in the process a user
runs: there the ``json`` package is not imported, and CPython 3.11's C
scanner then reports malformed JSON as a ``SystemError`` (found by review:
a truncated entry made every later check of the store a traceback, until
the cache folder was deleted by hand)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import make_store

NOTE = "---\nname: {0}\ndescription: d {0}\ntype: reference\n---\n\nFact {0}, see [[missing-{0}]].\n"


def _check(root, cache_dir, *extra):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE")}
    env["MMLINT_CACHE_DIR"] = str(cache_dir)
    return subprocess.run([sys.executable, "-m", "mmlint", "check", str(root), "--format", "json", *extra],
                          capture_output=True, text=True, env=env)


@pytest.mark.parametrize("damage", ["truncate", "bad-json", "flip", "empty"])
def test_a_damaged_entry_is_a_miss_in_a_fresh_process(tmp_path, damage):
    root = make_store(tmp_path / "s", {"MEMORY.md": "".join(f"- [N{i}](n{i}.md) — h\n" for i in range(4)),
                                       **{f"n{i}.md": NOTE.format(i) for i in range(4)}})
    cache_dir = tmp_path / "cache"
    want = _check(root, cache_dir, "--no-cache")
    assert _check(root, cache_dir).stdout == want.stdout  # writes the entry and its side files
    entries = [p for p in cache_dir.rglob("*") if p.is_file() and p.suffix in (".json", ".facts") and p.stat().st_size]
    assert entries
    for p in entries:
        data = p.read_bytes()
        p.write_bytes({"truncate": data[: len(data) // 2], "bad-json": b"[1 2]", "empty": b"",
                       "flip": data[:10] + bytes([data[10] ^ 0x5B]) + data[11:]}[damage])
    for _ in range(2):  # the damaged entry is rewritten by the first run; neither may crash
        got = _check(root, cache_dir)
        assert "Traceback" not in got.stderr and got.returncode == want.returncode, got.stderr
        assert got.stdout == want.stdout
