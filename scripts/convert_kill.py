"""Kill ``mmlint convert`` at random moments and check what DST holds.

Usage::

    python scripts/convert_kill.py [--trials 100] [--notes 300] [--signal kill|int|both] [--seed N]

Each trial starts ``python -m mmlint convert SRC DST --to workspace`` (DST
absent, or an old store replaced with ``--force``), sends SIGKILL or SIGINT
(Ctrl-C) at a random moment spread from the start to past the end of a
normal run, and then checks:

* DST is exactly what it was (absent, or the old store) or the complete
  conversion, byte for byte — never anything in between;
* after SIGINT the process exited 2 with one line on stderr (0 when it
  finished first, 130 when the convert command had not started yet), never
  a traceback (SIGINT is sent only after the time
  ``mmlint --version`` takes: before that it is the interpreter's);
* the next conversion into the same DST works and leaves no leftover.

It prints one line per (signal, DST) case with the counts. The test suite
runs a few trials of the same harness (``tests/test_convert_crash.py``;
``MMLINT_KILL_TRIALS=100`` runs the full count there too).
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

OLD = {"MEMORY.md": b"# old store\n", "keep.md": b"old note\n"}


def make_store(root: Path, notes: int) -> Path:
    """A claude-code store of ``notes`` notes of 40 lines each, a ledger."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "MEMORY.md").write_text("# Memory Index\n\n## reference\n" + "".join(
        f"- [Note {i}](note_{i:03d}.md) — hook {i}\n" for i in range(notes)), encoding="utf-8")
    for i in range(notes):
        (root / f"note_{i:03d}.md").write_text(
            f"---\nname: note-{i}\ndescription: 'note {i}: a value with a colon'\n"
            f"type: reference\nmetadata:\n  node_type: memory\n---\n\n" + f"Body of note {i}, 第{i}条.\n" * 40, encoding="utf-8")
    (root / ".engramory-recall.jsonl").write_text("".join(f'{{"n":{i}}}\n' for i in range(50)), encoding="utf-8")
    return root


def tree(root: Path) -> dict[str, bytes]:
    """Every file below ``root``: POSIX relative path -> bytes."""
    out = {}
    for dirpath, _, files in os.walk(root):
        for name in files:
            full = Path(dirpath) / name
            out[full.relative_to(root).as_posix()] = full.read_bytes()
    return out


def argv(src: Path, dst: Path, *extra: str) -> list[str]:
    """The CLI command of one conversion."""
    return [sys.executable, "-m", "mmlint", "convert", str(src), str(dst), "--to", "workspace", *extra]


def reference(src: Path, dst: Path) -> tuple[dict[str, bytes], float]:
    """``(bytes of a complete conversion, seconds one CLI run took)``."""
    start = time.monotonic()
    proc = subprocess.run(argv(src, dst), capture_output=True, text=True)
    took = time.monotonic() - start
    if proc.returncode != 0:
        raise RuntimeError(proc.stdout + proc.stderr)
    return tree(dst), took


def trial(src: Path, dst: Path, sig: int, delay: float, force: bool, ref: dict[str, bytes]) -> str:
    """One run interrupted by ``sig`` after ``delay`` seconds; returns the
    outcome (``"untouched"`` or ``"complete"``).

    Raises:
        AssertionError: DST is neither, or SIGINT printed a traceback or
            exited with another status than 0 or 2.
    """
    if force:
        dst.mkdir(parents=True)
        for rel, data in OLD.items():
            (dst / rel).write_bytes(data)
    proc = subprocess.Popen(argv(src, dst, *(["--force"] if force else [])), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    time.sleep(delay)
    proc.send_signal(sig)
    _, err = proc.communicate()
    if sig == signal.SIGINT:
        # 2: convert was interrupted (it says what DST holds); 130: Ctrl-C before the convert command
        # started (cli.main's exit for any command); -SIGINT: before Python installed its handler
        assert proc.returncode in (0, 2, 130, -signal.SIGINT), (proc.returncode, err)
        assert "Traceback" not in err and err.count("\n") <= 1, err
    if not dst.exists():
        assert not force, "--force lost the old DST"
        return "untouched"
    got = tree(dst)
    if force and got == OLD:
        return "untouched"
    assert got == ref, "DST is neither untouched nor the complete conversion"
    return "complete"


def follow_up(src: Path, dst: Path, ref: dict[str, bytes]) -> None:
    """The next conversion over the same DST (in this process) works and
    sweeps what the interrupted run left (its process is gone)."""
    from mmlint import api, convert, dialects

    dialect, profile, _ = api.choose(str(src))  # as the CLI reads it: DST's origin record names the profile
    store = dialects.get(dialect).read(str(src), profile)
    plan = convert.plan_conversion(store, dst, "workspace", force=True)
    assert plan.ok and plan.written, plan.refusals
    assert tree(dst) == ref
    left = [p for p in os.listdir(dst.parent) if p.startswith(f".{dst.name}.mmlint-")]
    assert not left, left


def startup() -> float:
    """Seconds ``python -m mmlint --version`` takes: the interpreter and
    mmlint's start, before which a Ctrl-C is Python's, not mmlint's."""
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "mmlint", "--version"], capture_output=True, check=True)
    return time.monotonic() - start


def campaign(src: Path, work: Path, sig: int, force: bool, trials: int, seed: int,
             ref: dict[str, bytes], took: float, check_next: bool = True) -> Counter:
    """``trials`` trials at moments spread evenly (with jitter) over 1.5
    runs; SIGINT only once the interpreter has started (:func:`startup`)."""
    rng = random.Random(seed)
    outcomes: Counter = Counter()
    first = min(startup() * 1.2, took) if sig == signal.SIGINT else 0.0
    for k in range(trials):
        dst = work / f"{'int' if sig == signal.SIGINT else 'kill'}-{'force' if force else 'new'}-{k}"
        delay = first + (took * 1.5 - first) * (k + rng.random()) / trials
        outcomes[trial(src, dst, sig, delay, force, ref)] += 1
        if check_next:
            follow_up(src, dst, ref)
    return outcomes


def main(args: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=100, help="trials per (signal, DST) case")
    ap.add_argument("--notes", type=int, default=300)
    ap.add_argument("--signal", choices=("kill", "int", "both"), default="both")
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--workdir", help="where to build the stores (default: a temp folder)")
    opts = ap.parse_args(args)
    import tempfile

    with tempfile.TemporaryDirectory(dir=opts.workdir) as tmp:
        work = Path(tmp)
        src = make_store(work / "src", opts.notes)
        ref, took = reference(src, work / "ref")
        print(f"store: {opts.notes} notes, {len(ref)} files written; one run {took:.2f} s")
        sigs = {"kill": [signal.SIGKILL], "int": [signal.SIGINT], "both": [signal.SIGKILL, signal.SIGINT]}[opts.signal]
        for sig in sigs:
            for force in (False, True):
                start = time.monotonic()
                out = campaign(src, work, sig, force, opts.trials, opts.seed + sig + force, ref, took)
                print(f"{signal.Signals(sig).name:8} {'--force over a store' if force else 'new DST':22} "
                      f"trials {opts.trials:4}  untouched {out['untouched']:4}  complete {out['complete']:4}  "
                      f"other 0  ({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
