"""Kill ``mmlint check --fix`` at random moments and check what it leaves.

Each trial copies a store with many fixable findings, starts ``--fix`` in a
child process with its own empty temp folder (``TMPDIR``), kills it with
SIGKILL after a random delay within one full run's duration, then checks:

* every file holds either its bytes before the fix or its bytes after a
  complete fix (never a mix inside a file, never a truncated file);
* nothing was left in the temp folder (``--fix`` keeps no copy there);
* the next ``--fix`` run removes every ``.<name>.<pid>.<random>.mmlint.tmp``
  the killed one left, and ends with the store fully fixed.

Shared by ``test_fix_kill.py`` (a few trials; ``MMLINT_KILL_TRIALS`` sets
more) and ``scripts/kill_fix.py`` (100 trials, figures printed).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

NOTE = "---\nname: n{i}\ndescription: d\ntype: user\ncreated: 2026-01-01\nupdated: 2026-01-01\n---\nbody {i}"


def make(root: Path, notes: int = 60) -> None:
    """A store whose every note misses its final newline (S116, safe fix)
    and half of which use CR line ends (S111, safe fix)."""
    root.mkdir(parents=True)
    lines = ["# Memory Index", ""]
    for i in range(notes):
        text = NOTE.format(i=i)
        if i % 2:
            text = text.replace("\n", "\r")
        (root / f"n{i}.md").write_bytes(text.encode())
        lines.append(f"- [N{i}](n{i}.md) — hook")
    (root / "MEMORY.md").write_text("\n".join(lines) + "\n")


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _fix(root: Path, tmp: Path) -> subprocess.Popen:
    env = dict(os.environ, TMPDIR=str(tmp), NO_COLOR="1")
    return subprocess.Popen([sys.executable, "-m", "mmlint", "check", str(root), "--profile", "upstream", "--fix"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)


def run_trials(n: int, work: Path, seed: int = 11) -> dict[str, int]:
    """Run ``n`` kill trials under ``work``; returns the figures. Raises
    ``AssertionError`` on the first broken property."""
    rng = random.Random(seed)
    base, fixed_ref = work / "base", work / "ref"
    make(base)
    shutil.copytree(base, fixed_ref)
    tmp = work / "tmp"
    tmp.mkdir()
    t0 = time.perf_counter()
    assert _fix(fixed_ref, tmp).wait(120) in (0, 1)
    full = time.perf_counter() - t0
    before, after = snapshot(base), snapshot(fixed_ref)
    assert before != after and set(before) == set(after)
    figures = {"trials": 0, "killed_mid_write": 0, "untouched": 0, "complete": 0, "stray_temp_files": 0,
               "swept": 0, "temp_folder_left": 0}
    for k in range(n):
        store = work / f"t{k}"
        shutil.copytree(base, store)
        ttmp = work / f"tmp{k}"
        ttmp.mkdir()
        proc = _fix(store, ttmp)
        time.sleep(rng.uniform(0, full * 1.1))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        now = snapshot(store)
        strays = [p for p in now if p not in before]
        assert all(p.rsplit("/", 1)[-1].endswith(".mmlint.tmp") for p in strays), strays
        kept = {p: v for p, v in now.items() if p in before}
        assert set(kept) == set(before)
        for p, data in kept.items():
            assert data in (before[p], after[p]), f"trial {k}: {p} is neither the old nor the fixed file"
        left = list(ttmp.iterdir())
        figures["temp_folder_left"] += bool(left)
        assert not left, f"trial {k}: the killed run left {left[:3]} in its temp folder"
        changed = sum(1 for p in kept if kept[p] != before[p])
        figures["trials"] += 1
        figures["untouched"] += changed == 0
        figures["complete"] += changed == len(before) - sum(1 for p in before if before[p] == after[p])
        figures["killed_mid_write"] += 0 < changed < len(before) - sum(1 for p in before if before[p] == after[p])
        figures["stray_temp_files"] += len(strays)
        assert _fix(store, ttmp).wait(120) in (0, 1)
        final = snapshot(store)
        assert final == after, f"trial {k}: the next --fix did not sweep and finish: {sorted(set(final) ^ set(after))[:3]}"
        figures["swept"] += len(strays)
        shutil.rmtree(store)
        shutil.rmtree(ttmp)
    return figures
