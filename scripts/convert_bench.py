"""Time ``mmlint convert`` (real and dry run) against a bare copy of the same files.

Usage::

    python scripts/convert_bench.py [--sizes 2000,20000] [--runs 5] [--targets workspace,engramory:upstream,...]

For each size a synthetic upstream engramory store is generated (N notes of
a few lines, an index of N pointers, as ``scripts/bench.py`` does), then for
each target, in interleaved rounds, one process each of:

* ``mmlint convert SRC DST --to T`` (the real run, DST absent);
* the same with ``--dry-run``;
* ``bare``: a Python loop that reads every file of SRC and writes the same
  bytes to as many new files (no fsync) — what any conversion must at
  least cost on this disk, so the ratios stay meaningful on a busy machine.

Every DST is moved into a ``trash`` folder of the work folder after its
run and deleted only at the end: on ext4, creating a file scans past the
inodes deleted in the last minutes in its block group (``recently_deleted``
in ``find_inode_bit``), so deleting one run's 2,000 files between runs
made the next run's 2,000 creations cost ~1 s of kernel time instead of
~50 ms, charged to whichever command ran next.

Printed per target: medians in seconds, ``real/bare`` and ``dry/real``
ratios, median CPU seconds of the real and dry runs (steadier than wall
time when others share the machine), the peak RSS of the real run (MiB),
and the outcome (``written`` or
the first refusal code: 2,000 notes are over mm's and Claude Code's index
caps, which is a refusal, measured all the same).

``measure()`` is the function ``scripts/bench.py`` can call for its table.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

TYPES = ("user", "feedback", "project", "reference")
TARGETS = ("workspace", "engramory:recall-v1", "engramory:upstream", "engramory:claude-code", "mm")

#: Runs one CLI command in a child and reports its peak RSS (KiB) and CPU seconds on the last stderr line.
_CHILD = ("import resource, sys\nfrom mmlint.cli import main\nrc = main(sys.argv[1:])\nsys.stdout.flush()\n"
          "r = resource.getrusage(resource.RUSAGE_SELF)\n"
          "sys.stderr.write('\\nRSS %d CPU %.3f\\n' % (r.ru_maxrss, r.ru_utime + r.ru_stime))\nsys.exit(rc)\n")

#: The bare copy: read every file below SRC, write each to a new file below DST.
_BARE = ("import os, sys\nsrc, dst = sys.argv[1:3]\n"
         "for d, _, names in os.walk(src):\n"
         "    out = os.path.join(dst, os.path.relpath(d, src))\n    os.makedirs(out, exist_ok=True)\n"
         "    for n in names:\n        data = open(os.path.join(d, n), 'rb').read()\n"
         "        with open(os.path.join(out, n), 'xb') as fh:\n            fh.write(data)\n")


def make_store(root: str, n: int) -> None:
    """An upstream engramory store of ``n`` valid notes under four ``## type`` sections."""
    os.makedirs(root, exist_ok=True)
    sections: dict[str, list[str]] = {t: [] for t in TYPES}
    for i in range(n):
        t = TYPES[i % 4]
        slug = f"{t}-note-{i}"
        body = f"Fact number {i}. See [[{TYPES[(i + 1) % 4]}-note-{(i + 1) % n}]].\n"
        if t in ("feedback", "project"):
            body += "\n**Why:** because.\n\n**How to apply:** do it.\n"
        scope = "scope: repo\n" if t in ("feedback", "project") else ""
        with open(os.path.join(root, slug + ".md"), "w", encoding="utf-8") as fh:
            fh.write(f"---\nname: {slug}\ndescription: note {i}\ntype: {t}\n{scope}created: 2026-01-01\nupdated: 2026-01-02\n---\n\n{body}")
        sections[t].append(f"- [N{i}]({slug}.md) — h")
    with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8") as fh:
        fh.write("# Memory Index\n")
        for t in TYPES:
            fh.write(f"\n## {t}\n" + "\n".join(sections[t]) + "\n")


def _convert(src: str, dst: str, target: str, dry: bool) -> tuple[float, int, float, str]:
    """One CLI run: ``(wall seconds, peak RSS KiB, CPU seconds, outcome)``."""
    dialect, _, profile = target.partition(":")
    argv = ["convert", src, dst, "--to", dialect, "--source-profile", "upstream", "--format", "json"]
    argv += ["--profile", profile] if profile else []
    argv += ["--dry-run"] if dry else []
    t0 = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, *argv], capture_output=True, text=True)
    took = time.perf_counter() - t0
    rss, cpu = 0, 0.0
    if "RSS " in proc.stderr:
        kib, _, sec = proc.stderr.rsplit("RSS ", 1)[1].split()
        rss, cpu = int(kib), float(sec)
    try:
        doc = json.loads(proc.stdout)
        outcome = "written" if doc["written"] else ("ok (dry)" if doc["ok"] else doc["refusals"][0]["code"])
    except (ValueError, KeyError, IndexError):
        outcome = f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else ''}"
    return took, rss, cpu, outcome


def _bare(src: str, dst: str) -> float:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", _BARE, src, dst], check=True)
    return time.perf_counter() - t0


def set_aside(path: str, work: str) -> None:
    """Move ``path`` (if it exists) into ``work/trash`` instead of deleting it
    (see the module docstring); :func:`main` deletes the trash at the end."""
    if os.path.lexists(path):
        trash = os.path.join(work, "trash")
        os.makedirs(trash, exist_ok=True)
        os.rename(path, os.path.join(trash, f"{len(os.listdir(trash))}-{os.path.basename(path)}"))


def measure(src: str, work: str, target: str, runs: int = 5) -> dict:
    """Interleaved runs of real convert, dry run and bare copy of ``src``
    into fresh folders under ``work``. Returns ``{"real", "dry", "bare"}``
    medians (seconds), ``"realOverBare"``, ``"dryOverReal"``, ``"rssMiB"``
    (peak of the real runs), ``"cpuReal"``/``"cpuDry"`` (median CPU seconds,
    steadier than wall time on a busy machine) and ``"outcome"``."""
    real, dry, bare, rss = [], [], [], 0
    cpu: dict[str, list[float]] = {"real": [], "dry": []}
    outcome = ""
    for k in range(runs):
        for kind in ("real", "dry", "bare"):
            dst = os.path.join(work, f"{kind}-{k}")
            if kind == "bare":
                bare.append(_bare(src, dst))
            else:
                took, kib, sec, outcome_k = _convert(src, dst, target, kind == "dry")
                (real if kind == "real" else dry).append(took)
                cpu[kind].append(sec)
                if kind == "real":
                    rss, outcome = max(rss, kib), outcome_k
            set_aside(dst, work)
    r, d, b = statistics.median(real), statistics.median(dry), statistics.median(bare)
    return {"real": r, "dry": d, "bare": b, "realOverBare": r / b, "dryOverReal": d / r,
            "rssMiB": rss / 1024, "cpuReal": statistics.median(cpu["real"]), "cpuDry": statistics.median(cpu["dry"]),
            "outcome": outcome}


def main(args: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="2000,20000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--targets", default=",".join(TARGETS))
    opts = ap.parse_args(args)
    print(f"{'notes':>6}  {'target':22} {'real s':>7} {'dry s':>7} {'bare s':>7} {'real/bare':>9} {'dry/real':>8} "
          f"{'cpu real':>8} {'cpu dry':>7} {'RSS MiB':>7}  outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in opts.sizes.split(",")):
            src = os.path.join(tmp, f"src{n}")
            make_store(src, n)
            for target in opts.targets.split(","):
                m = measure(src, tmp, target, opts.runs)
                print(f"{n:>6}  {target:22} {m['real']:7.2f} {m['dry']:7.2f} {m['bare']:7.2f} {m['realOverBare']:9.2f} "
                      f"{m['dryOverReal']:8.2f} {m['cpuReal']:8.2f} {m['cpuDry']:7.2f} {m['rssMiB']:7.0f}  {m['outcome']}", flush=True)
        shutil.rmtree(os.path.join(tmp, "trash"), ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
