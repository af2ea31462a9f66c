"""Regression tests for the cache defects of the review of the issue 9 work
(``/work/notes/review.md`` D1, D2, D4-D6, N1; D3 is in test_cache.py): each is the reviewer's reproducer,
run in process, with a cached check held to an uncached one."""

from __future__ import annotations

import json
import os
from pathlib import Path

from conftest import make_store
from mmlint import api
from test_cache import _dump, _entry, _later, cache_dir  # noqa: F401  (cache_dir is a fixture)


def _same(root: Path, **kw) -> api.CheckResult:
    """A cached check of ``root`` that equals the uncached one (diagnostics
    and counts); the cached result is returned."""
    warm = api.check([str(root)], cache=True, **kw)
    cold = api.check([str(root)], cache=False, **kw)
    assert _dump(warm) == _dump(cold)
    assert warm.counts() == cold.counts()
    return warm


def test_d4_a_file_changed_to_a_symlink_out_of_the_store_is_a_miss_without_opening_it(tmp_path, cache_dir,
                                                                                       monkeypatch):
    """D4: re-hashing never follows a link: the outside file is not opened."""
    from mmlint import walk

    root = make_store(tmp_path / "s", {
        "MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n- [B](b.md) - h\n",
        "a.md": "---\nname: a\ndescription: d\ntype: reference\n---\n\nA fact.\n",
        "b.md": "---\nname: b\ndescription: d\ntype: reference\n---\n\nB fact.\n"})
    outside = tmp_path / "outside.md"
    outside.write_text((root / "b.md").read_text())
    _later(monkeypatch)
    api.check([str(root)], cache=True)
    (root / "b.md").unlink()
    os.symlink(outside, root / "b.md")
    opened: list[str] = []
    real_open = os.open

    def spy(path, *a, **k):
        opened.append(os.path.realpath(path))
        return real_open(path, *a, **k)

    monkeypatch.setattr(walk.os, "open", spy)
    assert api.cached([str(root)]) is None
    assert str(outside.resolve()) not in opened
    monkeypatch.setattr(walk.os, "open", real_open)
    _same(root)


def test_d6_a_hit_counts_files_as_the_walk_does_with_a_symlinked_folder(tmp_path, cache_dir, monkeypatch):
    """D6: a symlinked folder is no file of the store on a hit either."""
    root = make_store(tmp_path / "s", {
        "MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n",
        "a.md": "---\nname: a\ndescription: d\ntype: reference\n---\n\nA fact.\n",
        "sub/c.txt": "c\n"})
    os.symlink("sub", root / "alias")
    _later(monkeypatch)
    api.check([str(root)], cache=True)
    warm = _same(root)
    assert warm.stores[0].cached


def test_d5_an_extended_configuration_is_recorded_whatever_the_key_spelling(tmp_path, cache_dir, monkeypatch):
    """D5: ``"ext\\u0065nd"`` is ``extend`` to TOML; editing the file it
    extends is a miss (and an extended configuration is cached at all)."""
    from test_cache import _store

    root = _store(tmp_path / "p" / "s")
    codes = {d.code for d in api.check([str(root)], profile="upstream").stores[0].diagnostics}
    code = sorted(codes)[0]
    base = tmp_path / "p" / "base.toml"
    base.write_text(f'ignore = ["{code}"]\n')
    (tmp_path / "p" / ".mmlint.toml").write_text('"ext\\u0065nd" = "base.toml"\n')
    _later(monkeypatch)
    first = api.check([str(root)], profile="upstream", cache=True)
    assert code not in {d.code for d in first.stores[0].diagnostics}
    assert _same(root, profile="upstream").stores[0].cached
    base.write_text('ignore = []\n')
    warm = _same(root, profile="upstream")
    assert not warm.stores[0].cached
    assert code in {d.code for d in warm.stores[0].diagnostics}
    assert _same(root, profile="upstream").stores[0].cached


_RETRY = ("---\nname: retry\ndescription: where the retry logic is\ntype: project\n---\n\n"
          "The retry logic is in `src/net/retry.py`.\n\n**Why:** x\n**How to apply:** y\n")


def _h102(result: api.CheckResult) -> int:
    return sum(d.code == "H102" for d in result.stores[0].diagnostics)


def test_d1_stale_path_follows_the_project_around_the_store(tmp_path, cache_dir, monkeypatch):
    """D1: the cited file appearing in, then vanishing from, the project is
    seen by the next cached check (in both directions), and a project root
    appearing above a store is too."""
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    root = make_store(project / "mem", {
        "MEMORY.md": "# Memory Index\n\n- [Retry](project_retry.md) — where the retry logic is\n",
        "project_retry.md": _RETRY})
    _later(monkeypatch)
    assert _h102(api.check([str(root)], cache=True)) == 1
    assert _same(root).stores[0].cached
    (project / "src" / "net").mkdir(parents=True)
    (project / "src" / "net" / "retry.py").write_text("")
    assert _h102(_same(root)) == 0
    assert _same(root).stores[0].cached
    (project / "src" / "net" / "retry.py").unlink()
    assert _h102(_same(root)) == 1
    (project / ".git").rmdir()  # no project: H102 checks nothing
    assert _h102(_same(root)) == 0
    (project / ".git").mkdir()
    assert _h102(_same(root)) == 1


def test_d1_a_store_citing_nothing_is_still_answered_from_stat(tmp_path, cache_dir, monkeypatch):
    """The project questions of a store without citations are where its
    project root is: a hit still reads no file."""
    from test_cache import _reads, _store

    (tmp_path / "p" / ".git").mkdir(parents=True)
    root = _store(tmp_path / "p" / "s")
    _later(monkeypatch)
    api.check([str(root)], profile="upstream", cache=True)
    seen = _reads(monkeypatch, root)
    assert api.cached([str(root)], profile="upstream") is not None
    assert seen == []
    entry = json.loads(_entry(cache_dir).read_text())
    assert [row[0] for row in entry["looked"]] == ["repo"]


def test_d2_a_pointer_into_another_tools_folder_follows_that_folder(tmp_path, cache_dir, monkeypatch):
    """D2: creating, then deleting, the target of a pointer into
    ``.obsidian/`` (a folder the walk does not enter) changes the verdict of
    the next cached check (P101 dangling <-> P108 not a note)."""
    root = make_store(tmp_path / "s", {
        "MEMORY.md": "# Memory Index\n\n- [A](reference_a.md) — a fact\n- [B](.obsidian/sub/b.md) — b fact\n",
        "reference_a.md": "---\nname: a\ndescription: a fact\ntype: reference\n---\n\nA fact.\n"})
    (root / ".obsidian" / "sub").mkdir(parents=True)
    _later(monkeypatch)
    codes = lambda r: sorted(d.code for d in r.stores[0].diagnostics)  # noqa: E731
    first = api.check([str(root)], cache=True)
    assert "P101" in codes(first)
    assert _same(root).stores[0].cached
    (root / ".obsidian" / "sub" / "b.md").write_text("b\n")
    warm = _same(root)
    assert "P101" not in codes(warm) and "P108" in codes(warm)
    assert _same(root).stores[0].cached
    (root / ".obsidian" / "sub" / "b.md").unlink()
    assert "P101" in codes(_same(root))


def test_n1_a_cache_folder_inside_the_store_is_not_store_content(tmp_path, monkeypatch):
    """N1: with the cache inside the store, its files are not linted (no
    N109) and the next check is a hit; a folder merely named like a cache
    (no mmlint CACHEDIR.TAG) is still walked."""
    from test_cache import _store

    root = _store(tmp_path / "s")
    monkeypatch.setenv("MMLINT_CACHE_DIR", str(root / ".mmlint-cache"))
    (root / "cachelike").mkdir()
    (root / "cachelike" / "CACHEDIR.TAG").write_text("Signature: 8a477f597d28d172789f06886806bc55\n")
    (root / "cachelike" / "x.json").write_text("{}")
    _later(monkeypatch)
    plain = api.check([str(root)], profile="upstream")
    api.check([str(root)], profile="upstream", cache=True)
    assert (root / ".mmlint-cache" / "CACHEDIR.TAG").is_file()
    warm = _same(root, profile="upstream")
    assert warm.stores[0].cached
    assert _dump(warm) == _dump(plain)
    assert warm.counts()["files"] == plain.counts()["files"]
    cold = api.check([str(root)], profile="upstream")
    assert not any(d.span.path.startswith(".mmlint-cache/") for d in cold.stores[0].diagnostics)
    assert any(d.span.path.startswith("cachelike/") for d in cold.stores[0].diagnostics)
