"""The result cache (issue 9 item 3): a cached check reports exactly what an
uncached one does, misses whenever anything it depends on changes, lives
outside the store, and can be deleted or be unwritable at any time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import fixture_stores, make_store
from mmlint import api, cache, rules

sys.path.insert(0, str(Path(__file__).resolve().parent / "rules"))
from cases import CASES  # noqa: E402


def _n(i: int, link: str) -> str:
    return (f"---\nname: note-{i}\ndescription: note {i}\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n---\n\n"
            f"Fact {i}. See [[{link}]].\n")


def _store(root: Path, n: int = 6) -> Path:
    files = {f"note-{i}.md": _n(i, f"note-{(i + 1) % n}" if i % 2 else f"missing-{i}") for i in range(n)}
    files["MEMORY.md"] = "# Memory Index\n\n## reference\n" + "".join(f"- [N{i}](note-{i}.md) — h\n" for i in range(n - 1))
    return make_store(root, files)


def _dump(result: api.CheckResult) -> list:
    return [[(d.code, d.name, d.severity, d.span, d.message, d.hint, d.fix, d.edits, d.anchor) for d in s.diagnostics]
            for s in result.stores]


def _both(root: Path, **kw) -> tuple[api.CheckResult, api.CheckResult]:
    return api.check([str(root)], cache=True, **kw), api.check([str(root)], cache=False, **kw)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(d))
    return d


def test_warm_run_is_a_hit_with_identical_diagnostics(tmp_path, cache_dir):
    root = _store(tmp_path / "s")
    first, plain = _both(root, profile="upstream")
    assert not first.stores[0].cached
    assert _dump(first) == _dump(plain) and plain.stores[0].diagnostics
    warm = api.check([str(root)], profile="upstream", cache=True)
    assert warm.stores[0].cached
    assert _dump(warm) == _dump(plain)
    assert warm.counts() == plain.counts()
    assert (cache_dir / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (cache_dir / ".gitignore").read_text().splitlines()[-1] == "*"
    assert sorted(os.listdir(root)) == sorted(p.name for p in root.iterdir() if not p.name.startswith(".mmlint"))


def test_a_changed_file_is_a_miss_even_with_same_size_and_mtime(tmp_path, cache_dir):
    root = _store(tmp_path / "s")
    api.check([str(root)], profile="upstream", cache=True)
    note = root / "note-1.md"
    st = note.stat()
    text = note.read_text()
    note.write_text(text.replace("type: reference", "type: referencx"))  # same size, now invalid
    os.utime(note, ns=(st.st_atime_ns, st.st_mtime_ns))
    again = api.check([str(root)], profile="upstream", cache=True)
    assert not again.stores[0].cached
    assert _dump(again) == _dump(api.check([str(root)], profile="upstream", cache=False))
    assert any(d.span.path == "note-1.md" and d.code == "F112" for d in again.stores[0].diagnostics)
    assert api.check([str(root)], profile="upstream", cache=True).stores[0].cached
    # a removed note (store-level facts change: orphans, dangling pointers)
    (root / "note-3.md").unlink()
    gone = api.check([str(root)], profile="upstream", cache=True)
    assert not gone.stores[0].cached
    assert _dump(gone) == _dump(api.check([str(root)], profile="upstream", cache=False))


def test_options_profile_and_version_are_part_of_the_key(tmp_path, cache_dir, monkeypatch):
    root = _store(tmp_path / "s")
    api.check([str(root)], profile="upstream", cache=True)
    other = api.check([str(root)], profile="claude-code", cache=True)
    assert not other.stores[0].cached
    ignored = api.check([str(root)], profile="upstream", options=rules.Options(ignore={"P"}), cache=True)
    assert not ignored.stores[0].cached
    assert _dump(ignored) == _dump(api.check([str(root)], profile="upstream", options=rules.Options(ignore={"P"})))
    assert api.check([str(root)], profile="upstream", cache=True).stores[0].cached
    monkeypatch.setattr(cache, "__version__", "999.0")
    assert not api.check([str(root)], profile="upstream", cache=True).stores[0].cached
    monkeypatch.setattr(cache, "_code_stamp", lambda: "edited checkout")
    assert not api.check([str(root)], profile="upstream", cache=True).stores[0].cached


def test_config_file_change_is_a_miss(tmp_path, cache_dir):
    root = _store(tmp_path / "s")
    conf = root / ".mmlint.toml"
    conf.write_text("ignore = []\n")
    first = api.check([str(root)], cache=True)
    conf.write_text("ignore = [\"P\"]\n")
    second = api.check([str(root)], cache=True)
    assert not second.stores[0].cached
    assert _dump(second) == _dump(api.check([str(root)]))
    assert _dump(first) != _dump(second)


def test_every_fixture_and_rule_case_cached_equals_uncached(tmp_path, cache_dir):
    roots = [(p, None) for p in fixture_stores()]
    for code in ("F112", "P101", "P105", "S114", "C101", "I101", "N101", "X101", "M103"):
        case = CASES.get(code)
        if case is not None:
            roots.append((make_store(tmp_path / code, case.bad), case))
    for root, case in roots:
        kw = {"dialect": case.dialect, "profile": case.profile} if case else {}
        api.check([str(root)], cache=True, **kw)
        warm = api.check([str(root)], cache=True, **kw)
        assert warm.stores[0].cached, root
        assert _dump(warm) == _dump(api.check([str(root)], **kw)), root


def test_deleted_or_unwritable_cache_is_harmless(tmp_path, cache_dir):
    root = _store(tmp_path / "s")
    api.check([str(root)], profile="upstream", cache=True)
    for p in sorted(cache_dir.rglob("*"), reverse=True):
        p.unlink() if p.is_file() else p.rmdir()
    assert not api.check([str(root)], profile="upstream", cache=True).stores[0].cached
    entry = next(cache_dir.rglob("*.json"))
    entry.write_text("{not json")
    assert not api.check([str(root)], profile="upstream", cache=True).stores[0].cached
    blocker = tmp_path / "file"
    blocker.write_text("x")
    os.environ["MMLINT_CACHE_DIR"] = str(blocker / "sub")  # cannot be created
    res = api.check([str(root)], profile="upstream", cache=True)
    assert _dump(res) == _dump(api.check([str(root)], profile="upstream"))


def test_cli_no_cache_writes_nothing_and_output_is_identical(tmp_path):
    root = _store(tmp_path / "s")
    d = tmp_path / "clicache"
    env = dict(os.environ, MMLINT_CACHE_DIR=str(d))
    cmd = [sys.executable, "-m", "mmlint", "check", str(root), "--format", "json", "--profile", "upstream"]
    off = subprocess.run(cmd + ["--no-cache"], capture_output=True, text=True, env=env)
    assert not d.exists()
    cold = subprocess.run(cmd, capture_output=True, text=True, env=env)
    warm = subprocess.run(cmd, capture_output=True, text=True, env=env)
    assert list(d.rglob("*.json"))
    assert off.returncode == cold.returncode == warm.returncode == 1
    assert json.loads(off.stdout) == json.loads(cold.stdout) == json.loads(warm.stdout)
