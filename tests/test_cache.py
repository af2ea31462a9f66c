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


def _entry(cache_dir: Path, part: str = "") -> Path:
    """The one entry (or its per-note ``part``) in ``cache_dir``."""
    found = [p for p in cache_dir.rglob("*.json")
             if (p.name.endswith(f".{part}.json") if part else not p.name.endswith(".notes.json"))]
    assert len(found) == 1, found
    return found[0]


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
    monkeypatch.setattr(cache, "code_stamp", lambda: "edited checkout")
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
    entry = _entry(cache_dir)
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


# --- the stat-keyed fast path (issue 9 item 3, step 1) -----------------------


def _later(monkeypatch, seconds: float = 10.0) -> None:
    """Make the cache believe it looks at the store ``seconds`` from now: the
    files just written are then old enough to be trusted by ``stat``."""
    import time as _time

    class _Clock:
        strftime = staticmethod(_time.strftime)

        @staticmethod
        def time_ns() -> int:
            return _time.time_ns() + int(seconds * 1e9)

    monkeypatch.setattr(cache, "time", _Clock)


def _reads(monkeypatch, root: Path) -> list[str]:
    """Paths below ``root`` read through mmlint's bounded reader from now on."""
    from mmlint import walk

    seen: list[str] = []
    real = walk.read_bounded

    def spy(path, *a, **k):
        if str(path).startswith(str(root)):
            seen.append(str(path))
        return real(path, *a, **k)

    monkeypatch.setattr(walk, "read_bounded", spy)
    return seen


def test_unchanged_store_is_answered_without_reading_any_file(tmp_path, cache_dir, monkeypatch):
    root = _store(tmp_path / "s")
    _later(monkeypatch)
    plain = api.check([str(root)], profile="upstream", cache=True)
    seen = _reads(monkeypatch, root)
    warm = api.cached([str(root)], profile="upstream")
    assert warm is not None and warm.stores[0].cached and seen == []
    assert _dump(warm) == _dump(plain)
    assert warm.counts() == plain.counts()
    # a touched file (same bytes, new stat) is read and hashed again: still a hit, and re-recorded
    os.utime(root / "note-2.md", ns=(1, 1))
    again = api.cached([str(root)], profile="upstream")
    assert again is not None and seen == [str(root / "note-2.md")]
    seen.clear()
    assert api.cached([str(root)], profile="upstream") is not None and seen == []


def test_racy_entries_are_hashed_again_not_trusted(tmp_path, cache_dir, monkeypatch):
    """A file rewritten within the timestamp granularity of the check that
    recorded it keeps its stat: the entry must not trust that stat."""
    root = _store(tmp_path / "s")
    real = os.path.realpath(root)
    note = root / "note-1.md"
    original = note.read_text()

    def same_stat_other_bytes() -> None:
        snapshot = cache.stat_tree(real, 0)[:3]  # the stat as recorded
        note.write_text(original.replace("type: reference", "type: referencx"))  # same size
        monkeypatch.setattr(cache, "stat_tree", lambda root, after: (*snapshot, set()))  # as if the stat had not moved

    # without the guard (every file old enough), the change goes unseen: that is what the guard is for
    racy_ns, stat_tree = cache.RACY_NS, cache.stat_tree
    monkeypatch.setattr(cache, "RACY_NS", -10**15)
    api.check([str(root)], profile="upstream", cache=True)
    same_stat_other_bytes()
    assert api.cached([str(root)], profile="upstream") is not None
    # with it, the files just written are racy: they are hashed again and the change is seen
    monkeypatch.setattr(cache, "RACY_NS", racy_ns)
    monkeypatch.setattr(cache, "stat_tree", stat_tree)
    note.write_text(original)
    api.check([str(root)], profile="upstream", cache=True)
    same_stat_other_bytes()
    seen = _reads(monkeypatch, root)
    assert api.cached([str(root)], profile="upstream") is None
    assert str(note) in seen


def test_tree_shape_and_configuration_around_the_store_are_in_the_key(tmp_path, cache_dir, monkeypatch):
    root = _store(tmp_path / "proj" / "s")
    _later(monkeypatch)
    api.check([str(root)], profile="upstream", cache=True)
    assert api.cached([str(root)], profile="upstream") is not None
    (root / "archive").mkdir()  # an empty folder: detection may read it
    assert api.cached([str(root)], profile="upstream") is None
    api.check([str(root)], profile="upstream", cache=True)
    assert api.cached([str(root)], profile="upstream") is not None
    (tmp_path / "proj" / ".mmlint.toml").write_text('ignore = ["P"]\n')  # a configuration appears above the store
    assert api.cached([str(root)], profile="upstream") is None
    res = api.check([str(root)], profile="upstream", cache=True)
    assert _dump(res) == _dump(api.check([str(root)], profile="upstream"))
    assert not any(d.code.startswith("P") for d in res.stores[0].diagnostics)
    for args in ({"profile": "claude-code"}, {"profile": "upstream", "isolated": True},
                 {"profile": "upstream", "options": rules.Options(select={"F"})}):
        assert api.cached([str(root)], **args) is None, args


@pytest.mark.parametrize("damage", ["truncate", "not-a-dict", "files-wrong", "diagnostics-wrong", "binary", "notes-wrong"])
def test_damaged_entries_are_misses_never_errors(tmp_path, cache_dir, monkeypatch, damage):
    root = _store(tmp_path / "s")
    _later(monkeypatch)
    plain = api.check([str(root)], profile="upstream", cache=True)
    entry = _entry(cache_dir)
    doc = json.loads(entry.read_text())
    if damage == "truncate":
        entry.write_text(entry.read_text()[:100])
    elif damage == "not-a-dict":
        entry.write_text("[1, 2]")
    elif damage == "files-wrong":
        doc["files"] = {k: 3 for k in doc["files"]}
        entry.write_text(json.dumps(doc))
    elif damage == "diagnostics-wrong":
        doc["diagnostics"] = [["P101"]]
        entry.write_text(json.dumps(doc))
    elif damage == "binary":
        entry.write_bytes(b"\xff\xfe\x00garbage")
    else:  # the per-note table: only a changed note's check reads it
        side = _entry(cache_dir, "notes")
        table = json.loads(side.read_text())
        # every note's findings made unreadable (a note without findings is recorded as its hash alone)
        table["note_diags"] = {k: [v if isinstance(v, str) else v[0], [["X"]]] for k, v in table["note_diags"].items()}
        side.write_text(json.dumps(table))
        (root / "note-1.md").write_text((root / "note-1.md").read_text() + "More.\n")
        plain = api.check([str(root)], profile="upstream")
    assert api.cached([str(root)], profile="upstream") is None
    again = api.check([str(root)], profile="upstream", cache=True)
    assert not again.stores[0].cached and _dump(again) == _dump(plain)
    assert api.cached([str(root)], profile="upstream") is not None  # rewritten


def test_unwalked_folders_are_the_walks_foreign_folders():
    from mmlint import walk

    assert cache.UNWALKED == walk.FOREIGN_DIRS


def test_warm_cli_run_loads_no_rules_dialects_model_or_heavy_library(tmp_path, monkeypatch):
    root = _store(tmp_path / "s")
    d = tmp_path / "clicache"
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(d))
    _later(monkeypatch)
    api.check([str(root)], profile="upstream", cache=True)
    code = ("import io, json, sys, mmlint.cli as c\n"
            "sys.stdout = io.StringIO()\n"
            "try:\n    c.main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
            "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))")
    cmd = [sys.executable, "-c", code, "check", str(root), "--format", "json", "--profile", "upstream"]
    # The children import the mmlint this process imported: under a bare `pytest` in a checkout with
    # a regular install, a child started in the checkout would import the source tree instead, whose
    # files have other mtimes, hence another code stamp (a miss, rightly: another copy of mmlint).
    import mmlint

    here = os.path.dirname(os.path.dirname(os.path.abspath(mmlint.__file__)))
    env = dict(os.environ, MMLINT_CACHE_DIR=str(d), PYTHONPATH=here)
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(tmp_path))
    mods = set(json.loads(proc.stderr.rsplit("MODULES ", 1)[-1]))
    assert "mmlint.cache" in mods  # the cache answered
    heavy = {m for m in mods if m.startswith(("mmlint.rules", "mmlint.dialects", "mmlint.model", "mmlint.walk",
                                              "mmlint.config", "markdown_it", "jsonschema", "ruamel", "dataclasses"))}
    # On a miss, say whether this process still gets a hit (then the child saw another stamp or tree)
    assert heavy == set(), (sorted(heavy)[:5], api.cached([str(root)], profile="upstream") is not None,
                            proc.stderr.rsplit("MODULES ", 1)[0][-2000:])
    out = subprocess.run([sys.executable, "-m", "mmlint", *cmd[3:]], capture_output=True, text=True, env=env,
                         cwd=str(tmp_path))
    cold = subprocess.run([sys.executable, "-m", "mmlint", *cmd[3:], "--no-cache"], capture_output=True, text=True,
                          env=env, cwd=str(tmp_path))
    assert out.returncode == cold.returncode == 1 and json.loads(out.stdout) == json.loads(cold.stdout)


def test_a_result_holds_for_the_day_it_was_computed(tmp_path, cache_dir, monkeypatch):
    """future-date, expired and stale notes are judged against today: a
    result of yesterday is not today's, even in a long-running process."""
    import datetime

    root = make_store(tmp_path / "s", {
        "MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n",
        "a.md": f"---\nname: a\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: "
                f"{datetime.date.today() + datetime.timedelta(days=2)}\n---\n\nA fact.\n"})
    _later(monkeypatch)
    first = api.check([str(root)], profile="upstream", cache=True)
    assert any(d.code == "F118" for d in first.stores[0].diagnostics)
    assert api.cached([str(root)], profile="upstream") is not None
    monkeypatch.setattr(cache.time, "strftime", lambda fmt, *a: "2999-01-01")
    assert cache.code_stamp().endswith("2999-01-01")  # asked on every check, no memo cleared (review D3)
    assert api.cached([str(root)], profile="upstream") is None


# --- per-note results (issue 9 item 3, step 2) -------------------------------


def _spy_partial(monkeypatch) -> list:
    """The :class:`mmlint.rules.Partial` of every engine run from now on."""
    seen: list = []
    real = rules.run

    def spy(store, dialect, options=None, partial=None):
        out = real(store, dialect, options, partial)
        seen.append(partial)
        return out

    monkeypatch.setattr(rules, "run", spy)
    return seen


def test_one_changed_note_of_2000_reruns_the_note_rules_on_it_alone(tmp_path, cache_dir, monkeypatch):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
    import bench

    root = tmp_path / "s"
    bench.make_store(str(root), 2000, "plain")
    api.check([str(root)], profile="upstream", cache=True)
    note = root / "project-note-1002.md"
    note.write_text(note.read_text().replace("type: project", "type: projekt").replace("**Why:**", "Why"))
    seen = _spy_partial(monkeypatch)
    warm = api.check([str(root)], profile="upstream", cache=True)
    assert not warm.stores[0].cached
    assert len(seen) == 1 and list(seen[0].fresh) == ["project-note-1002.md"] and len(seen[0].reuse) == 1999
    assert list(seen[0].fresh_files) == ["project-note-1002.md"] and len(seen[0].reuse_files) == 2000
    cold = api.check([str(root)], profile="upstream", cache=False)
    assert _dump(warm) == _dump(cold)
    assert any(d.span.path == "project-note-1002.md" and d.code == "F112" for d in warm.stores[0].diagnostics)


def test_partial_runs_suppress_and_ignore_as_a_full_run_does(tmp_path, cache_dir, monkeypatch):
    body = {"a.md": "<!-- mmlint-disable-file F113 -->\nA fact.\n",
            "b.md": "Another fact.\n<!-- mmlint-disable-next-line F119 -->\nnothing here\n",
            "c.md": "Third fact.\n", "d.md": "Fourth.\n"}
    files = {"MEMORY.md": "# Memory Index\n\n## reference\n" + "".join(f"- [{p}]({p}) - h\n" for p in sorted(body)),
             ".mmlint.toml": '[per-path-ignores]\n"c.md" = ["F113"]\n'}
    for p, text in body.items():
        files[p] = (f"---\nname: {p[0]}\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: 2026-01-02\n"
                    f"colour: blue\n---\n\n{text}")
    root = make_store(tmp_path / "s", files)
    seen = _spy_partial(monkeypatch)
    first = api.check([str(root)], profile="upstream", cache=True)
    assert {d.code for d in first.stores[0].diagnostics} >= {"F113", "Q101"}  # d.md unsuppressed; b.md's comment unused
    edits = [("d.md", "Fourth.\n", "Fourth, changed.\n"),
             ("a.md", "<!-- mmlint-disable-file F113 -->\n", ""),  # the suppression itself goes
             ("c.md", "Third fact.\n", "Third fact, changed.\n"),
             ("b.md", "nothing here\n", "nothing here, changed\n")]
    for path, old, new in edits:
        p = root / path
        p.write_text(p.read_text().replace(old, new))
        seen.clear()
        warm = api.check([str(root)], profile="upstream", cache=True)
        assert list(seen[0].fresh) == [path] and list(seen[0].fresh_files) == [path], path
        assert _dump(warm) == _dump(api.check([str(root)], profile="upstream", cache=False)), path
    # a changed index (not a note) invalidates every note's findings: all notes run again
    (root / "MEMORY.md").write_text((root / "MEMORY.md").read_text() + "\n")
    seen.clear()
    warm = api.check([str(root)], profile="upstream", cache=True)
    assert sorted(seen[0].fresh) == sorted(body) and seen[0].reuse == {}
    assert list(seen[0].fresh_files) == ["MEMORY.md"]  # the file rules judge each file alone
    assert _dump(warm) == _dump(api.check([str(root)], profile="upstream", cache=False))


def test_a_touch_is_a_change_when_not_updated_reads_modification_times(tmp_path, cache_dir, monkeypatch):
    files = {"MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n",
             "a.md": "---\nname: a\ndescription: d\ntype: reference\n---\n\nA fact.\n",
             ".mmlint.toml": "[hygiene]\nstale-days = 30\n"}
    root = make_store(tmp_path / "s", files)
    _later(monkeypatch)
    first = api.check([str(root)], profile="claude-code", cache=True)
    assert not any(d.code == "H104" for d in first.stores[0].diagnostics)
    os.utime(root / "a.md", (1, 1))  # same bytes, modified in 1970
    again = api.check([str(root)], profile="claude-code", cache=True)
    assert not again.stores[0].cached and any(d.code == "H104" for d in again.stores[0].diagnostics)


# --- the cached path held to the uncached one under random edits --------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_BODIES = ("A fact.\n", "See [[note-0]] and [[missing]].\n", "<!-- mmlint-disable-file F113 -->\nSilenced.\n",
           "<!-- mmlint-disable-next-line F119 -->\nNothing to silence.\n", "Call 555-0100 or a@b.org.\n", "")
_OPS = st.one_of(
    st.tuples(st.just("body"), st.integers(0, 5), st.sampled_from(_BODIES)),
    st.tuples(st.just("key"), st.integers(0, 5), st.sampled_from(("colour: blue\n", "type: bogus\n", "created: 2026-13-01\n"))),
    st.tuples(st.just("add"), st.integers(6, 8), st.sampled_from(_BODIES)),
    st.tuples(st.just("remove"), st.integers(0, 8), st.just("")),
    st.tuples(st.just("touch"), st.integers(0, 8), st.just("")),
    st.tuples(st.just("index"), st.integers(0, 8), st.just("")),
    st.tuples(st.just("folder"), st.integers(0, 1), st.just("")),
)


def _note_text(i: int, extra: str, body: str) -> str:
    return (f"---\nname: note-{i}\ndescription: note {i}\ntype: reference\ncreated: 2026-01-01\n"
            f"updated: 2026-01-02\n{extra}---\n\n{body}")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(_OPS, min_size=1, max_size=4), later=st.booleans())
def test_cached_checks_equal_uncached_ones_through_any_edits(tmp_path_factory, monkeypatch, ops, later):
    base = tmp_path_factory.mktemp("edits")
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(base / "cache"))
    if later:
        _later(monkeypatch)
    root = _store(base / "s")
    api.check([str(root)], profile="upstream", cache=True)
    for op, i, text in ops:
        path = root / f"note-{i}.md"
        if op == "body" and path.exists():
            path.write_text(path.read_text().split("---\n\n", 1)[0] + "---\n\n" + text)
        elif op == "key" and path.exists():
            path.write_text(path.read_text().replace("---\n\n", text + "---\n\n", 1))
        elif op == "add":
            path.write_text(_note_text(i, "", text))
        elif op == "remove" and path.exists():
            path.unlink()
        elif op == "touch" and path.exists():
            os.utime(path, ns=(10**18, 10**18))
        elif op == "index":
            idx = root / "MEMORY.md"
            line = f"- [N{i}](note-{i}.md) — h\n"
            idx.write_text(idx.read_text().replace(line, "") if line in idx.read_text() else idx.read_text() + line)
        elif op == "folder":
            (root / ("archive" if i else "sub")).mkdir(exist_ok=True)
        hit = api.cached([str(root)], profile="upstream")
        warm = api.check([str(root)], profile="upstream", cache=True)
        cold = api.check([str(root)], profile="upstream", cache=False)
        assert _dump(warm) == _dump(cold), (op, i, text)
        assert hit is None or _dump(hit) == _dump(cold), (op, i, text)


@pytest.mark.parametrize("extra", [["--format", "text", "--color", "never"], ["--format", "sarif"], ["--format", "junit"],
                                   ["--statistics", "--baseline", "BASE"]])
def test_every_output_of_a_cached_run_equals_the_uncached_one(tmp_path, monkeypatch, extra):
    """A hit carries a summary store (files read only when a reporter quotes
    them) and no evidence or options: every format and option reads it as
    it reads a full result. Two stores in one run."""
    a, b = _store(tmp_path / "a"), _store(tmp_path / "b", 3)
    env = dict(os.environ, MMLINT_CACHE_DIR=str(tmp_path / "cache"))
    base = tmp_path / "base.json"
    subprocess.run([sys.executable, "-m", "mmlint", "check", str(a), "--profile", "upstream", "--no-cache",
                    "--write-baseline", str(base)], capture_output=True, env=env, cwd=tmp_path)
    extra = [str(base) if x == "BASE" else x for x in extra]
    cmd = [sys.executable, "-m", "mmlint", "check", str(a), str(b), "--profile", "upstream", *extra]
    runs = [subprocess.run(cmd + more, capture_output=True, text=True, env=env, cwd=tmp_path)
            for more in (["--no-cache"], [], [])]  # uncached, cold cached (records), warm (a hit)
    assert len({(r.returncode, r.stdout, r.stderr) for r in runs}) == 1, [r.stdout[:300] for r in runs]
    assert runs[0].stdout


def test_a_miss_looks_at_the_store_once(tmp_path, cache_dir, monkeypatch):
    root = _store(tmp_path / "s")
    api.check([str(root)], profile="upstream", cache=True)
    (root / "note-2.md").write_text((root / "note-2.md").read_text() + "More.\n")
    looks = []
    real = cache.stat_tree
    monkeypatch.setattr(cache, "stat_tree", lambda *a: looks.append(1) or real(*a))
    misses: dict = {}
    assert api.cached([str(root)], profile="upstream", misses=misses) is None and len(looks) == 1
    res = api.check([str(root)], profile="upstream", cache=True, misses=misses)
    assert len(looks) == 1 and misses == {} and not res.stores[0].cached
    assert _dump(res) == _dump(api.check([str(root)], profile="upstream"))
    assert api.cached([str(root)], profile="upstream") is not None  # recorded with that look


@settings(max_examples=60, deadline=None)
@given(payload=st.dictionaries(st.text(max_size=4), st.one_of(
    st.integers(), st.text(max_size=6), st.none(),
    st.dictionaries(st.text(max_size=5), st.one_of(st.text(max_size=5), st.lists(st.integers(), max_size=2)), max_size=9),
    st.lists(st.one_of(st.text(max_size=5), st.lists(st.integers(), max_size=2)), max_size=9),
), max_size=5), chunk=st.integers(1, 4))
def test_entry_json_written_in_pieces_is_the_one_dumps_text(payload, chunk):
    """The cache entry is written a few thousand items at a time
    (``cache._json_pieces``); the file holds exactly what one
    ``json.dumps`` gives, small chunks and non-ASCII keys included."""
    want = json.dumps(payload, ensure_ascii=True, separators=(",", ":"))
    assert "".join(cache._json_pieces(payload, chunk)) == want
