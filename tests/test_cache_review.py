"""Regression tests for the cache defects of the review of the issue 9 work
(``/work/notes/review.md`` D1-D6, N1): each is the reviewer's reproducer,
run in process, with a cached check held to an uncached one."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from conftest import make_store
from mmlint import api, cache
from test_cache import _dump, _later, cache_dir  # noqa: F401  (cache_dir is a fixture)


def _same(root: Path, **kw) -> api.CheckResult:
    """A cached check of ``root`` that equals the uncached one (diagnostics
    and counts); the cached result is returned."""
    warm = api.check([str(root)], cache=True, **kw)
    cold = api.check([str(root)], cache=False, **kw)
    assert _dump(warm) == _dump(cold)
    assert warm.counts() == cold.counts()
    return warm


def test_d3_the_date_is_asked_on_every_check_not_once_per_process(tmp_path, cache_dir, monkeypatch):
    """D3: a long-running process does not answer a later day from a result
    of an earlier one (the test clears no memo by hand)."""
    root = make_store(tmp_path / "s", {
        "MEMORY.md": "# Memory Index\n\n## reference\n- [A](a.md) - h\n",
        "a.md": f"---\nname: a\ndescription: d\ntype: reference\ncreated: 2026-01-01\nupdated: "
                f"{datetime.date.today() + datetime.timedelta(days=2)}\n---\n\nA fact.\n"})
    _later(monkeypatch)
    first = api.check([str(root)], profile="upstream", cache=True)
    assert any(d.code == "F118" for d in first.stores[0].diagnostics)
    assert api.cached([str(root)], profile="upstream") is not None
    monkeypatch.setattr(cache.time, "strftime", lambda fmt, *a: "2999-01-01")
    assert cache.code_stamp().endswith("2999-01-01")
    assert api.cached([str(root)], profile="upstream") is None


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
