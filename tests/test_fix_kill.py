"""``--fix`` killed at random moments leaves every file old or fixed, nothing
in the temp folder, and temporary files the next run sweeps
(``killtest.py``); and a write by another program during ``--fix`` is
never lost (compare-and-swap at the rename)."""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import killtest  # noqa: E402

from mmlint import fixes  # noqa: E402

TRIALS = int(os.environ.get("MMLINT_KILL_TRIALS", "3"))


def test_killed_fix_leaves_old_or_new_files_and_no_copy(tmp_path):
    figures = killtest.run_trials(TRIALS, tmp_path)
    assert figures["trials"] == TRIALS and figures["temp_folder_left"] == 0
    assert figures["swept"] == figures["stray_temp_files"]


def test_next_fix_sweeps_a_dead_writers_temp_file(tmp_path):
    (tmp_path / "a.md").write_text("x")
    dead = tmp_path / ".a.md.99999999.abcd1234.mmlint.tmp"  # no such pid
    dead.write_text("half")
    live = tmp_path / f".a.md.{os.getpid()}.abcd1234.mmlint.tmp"  # a running writer's
    live.write_text("half")
    legacy = tmp_path / ".a.md.abcd1234.mmlint.tmp"  # older releases: no pid; swept once stale
    legacy.write_text("half")
    assert fixes.sweep(str(tmp_path)) == [dead.name]
    assert live.exists() and legacy.exists()
    os.utime(legacy, (0, 0))
    assert fixes.sweep(str(tmp_path)) == [legacy.name]
    assert (tmp_path / "a.md").read_text() == "x"


def test_compare_and_swap_refuses_a_file_changed_since_read(tmp_path):
    p = tmp_path / "a.md"
    p.write_bytes(b"old")
    assert fixes.replace_if_unchanged(str(p), b"other", b"new") == "changed on disk since it was read"
    assert p.read_bytes() == b"old"
    assert fixes.replace_if_unchanged(str(p), b"old", b"new") == ""
    assert p.read_bytes() == b"new"
    assert "created by someone else" in fixes.replace_if_unchanged(str(p), None, b"x")
    assert not [q for q in tmp_path.iterdir() if q.name.endswith(".mmlint.tmp")]


def test_append_during_the_rename_is_put_back(tmp_path, monkeypatch):
    """An append that lands between the last check and the rename (the
    window the issue's lost append fell into) is detected on the old file
    and its bytes are restored."""
    p = tmp_path / "a.md"
    p.write_bytes(b"old\n")
    real_replace = os.replace

    def replace_after_append(src, dst):
        if str(dst) == str(p):
            with open(p, "ab") as fh:  # the other program appends to the file it has open
                fh.write(b"appended\n")
        monkeypatch.setattr(fixes.os, "replace", real_replace)
        real_replace(src, dst)

    monkeypatch.setattr(fixes.os, "replace", replace_after_append)
    why = fixes.replace_if_unchanged(str(p), b"old\n", b"new\n")
    assert "left as the other program wrote it" in why
    assert p.read_bytes() == b"old\nappended\n"


def test_concurrent_appends_are_never_lost(tmp_path):
    """A program appending lines while ``--fix`` runs: every line it wrote
    is in the final file (the fix is skipped when it cannot be applied
    without losing one)."""
    from mmlint import cli

    killtest.make(tmp_path / "s", notes=8)
    target = tmp_path / "s" / "n0.md"
    stop = threading.Event()
    written = []

    def append():
        i = 0
        while not stop.is_set():
            with open(target, "ab") as fh:
                fh.write(f"\nline {i}".encode())
            written.append(f"line {i}")
            i += 1

    t = threading.Thread(target=append)
    t.start()
    try:
        for _ in range(3):
            cli.main(["check", str(tmp_path / "s"), "--profile", "upstream", "--fix", "--format", "json", "--output",
                      str(tmp_path / "out.json")])
    finally:
        stop.set()
        t.join()
    text = target.read_bytes().decode()
    missing = [w for w in written if w not in text]
    assert written and missing == []
