"""Crash safety of ``mmlint convert``: DST is never left half-written.

The conversion is built in a hidden sibling folder and moved into place by
one rename (an atomic exchange when DST already exists). These tests kill the
CLI with SIGKILL at random moments and check that DST is then either exactly
what it was before (absent, or the old store under ``--force``) or the complete
conversion, byte for byte; and that the leftovers of a killed run never make
the next run fail.
"""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import make_store, tree_bytes
from mmlint import convert, dialects
from mmlint.convert import transaction

NOTES = 300


def _big_store(root: Path) -> Path:
    files = {"MEMORY.md": "# Memory Index\n\n## reference\n" + "".join(
        f"- [Note {i}](note_{i:03d}.md) — hook {i}\n" for i in range(NOTES))}
    for i in range(NOTES):
        files[f"note_{i:03d}.md"] = (f"---\nname: note-{i}\ndescription: 'note {i}: a value with a colon'\n"
                                     f"type: reference\nmetadata:\n  node_type: memory\n---\n\n"
                                     + f"Body of note {i}, 第{i}条.\n" * 40)
    files[".engramory-recall.jsonl"] = "".join(f'{{"n":{i}}}\n' for i in range(50))
    return make_store(root, files)


def _argv(src: Path, dst: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "mmlint", "convert", str(src), str(dst), "--to", "workspace", *extra]


@pytest.fixture(scope="module")
def big(tmp_path_factory):
    """``(source store, reference conversion bytes, seconds one CLI run takes)``."""
    base = tmp_path_factory.mktemp("crash")
    src = _big_store(base / "src")
    ref = base / "ref"
    start = time.monotonic()
    proc = subprocess.run(_argv(src, ref), capture_output=True, text=True)
    took = time.monotonic() - start
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return src, tree_bytes(ref), took


def _read(src: Path):
    return dialects.get("engramory").read(str(src), "claude-code")


def _leftovers(parent: Path, name: str) -> list[str]:
    return sorted(p for p in os.listdir(parent) if p.startswith(f".{name}.mmlint-"))


def _kill_at(argv: list[str], delay: float) -> None:
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


@pytest.mark.parametrize("force", [False, True], ids=["absent-dst", "force-over-old-dst"])
def test_sigkill_leaves_dst_untouched_or_complete(big, tmp_path, force):
    src, ref, took = big
    rng = random.Random(20261130 + force)
    outcomes = {"before": 0, "complete": 0}
    old = {"MEMORY.md": b"# old store\n", "keep.md": b"old note\n"}
    trials = 12 if force else 20
    for trial in range(trials):
        dst = tmp_path / f"dst{trial}"
        if force:
            make_store(dst, {k: v for k, v in old.items()})
        # random moments spread from the start to past the end of a normal run
        delay = took * 1.5 * (trial + rng.random()) / trials
        _kill_at(_argv(src, dst, *(["--force"] if force else [])), delay)
        if dst.exists():
            got = tree_bytes(dst)
            if force and got == old:
                outcomes["before"] += 1
            else:
                assert got == ref, f"trial {trial}: DST is neither untouched nor the complete conversion"
                outcomes["complete"] += 1
        else:
            assert not force, f"trial {trial}: --force lost the old DST"
            outcomes["before"] += 1
        # The next run over the same DST works and sweeps what the killed run left behind.
        plan = convert.plan_conversion(_read(src), dst, "workspace", force=True)
        assert plan.ok and plan.written and tree_bytes(dst) == ref
        assert _leftovers(tmp_path, dst.name) == []
    assert outcomes["before"] and outcomes["complete"], outcomes


def test_leftover_temp_folder_is_swept_not_mistaken_for_dst(big, tmp_path):
    src, ref, _ = big
    dst = tmp_path / "out"
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f".out.mmlint-tmp-{dead.pid}-abc123"
    make_store(stale, {"MEMORY.md": "# 记忆索引\n", "half.md": "---\ntitle: half"})
    live = tmp_path / f".out.mmlint-tmp-{os.getpid()}-def456"  # a run still going: left alone
    make_store(live, {"x": "y"})
    st = _read(src)
    plan = convert.plan_conversion(st, dst, "workspace")
    assert plan.ok and plan.written and tree_bytes(dst) == ref
    assert not stale.exists() and live.exists()
    assert plan.swept == [(f".out.mmlint-tmp-{dead.pid}-abc123", "removed")]


def test_fallback_two_rename_install_is_restored_after_a_crash(big, tmp_path, monkeypatch):
    """Without an atomic exchange (not Linux), DST is moved aside then
    replaced; a crash between the two renames leaves the old store in a
    ``.mmlint-old-`` sibling, and the next run puts it back first."""
    src, ref, _ = big
    dst = tmp_path / "out"
    old = {"MEMORY.md": b"# old\n"}
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    make_store(tmp_path / f".out.mmlint-old-{dead.pid}-zz", old)
    st = _read(src)
    plan = convert.plan_conversion(st, dst, "workspace", dry_run=True)
    assert plan.ok and not dst.exists()  # a dry run touches nothing
    plan = convert.plan_conversion(st, dst, "workspace")
    assert not plan.ok and plan.refusals[0].code == "E_DEST_NOT_EMPTY"  # the old store is back
    assert tree_bytes(dst) == old

    def no_exchange(a, b):
        raise OSError(errno.EINVAL, "no exchange here")

    monkeypatch.setattr(transaction, "_exchange", no_exchange)
    plan = convert.plan_conversion(st, dst, "workspace", force=True)
    assert plan.ok and plan.written and tree_bytes(dst) == ref
    assert _leftovers(tmp_path, "out") == []
