"""Benchmark ``mmlint check`` on synthetic engramory stores.

Usage: ``python scripts/bench.py [--sizes 200,2000,20000] [--runs 7] [--mode all|dangling]``

Generates stores like the engramory reference benchmark
(research/engramory-reference.md "Performance baseline"): N valid notes,
types rotating user/feedback/project/reference, feedback and project notes
with scope and Why/How lines, each note wikilinking the next (``all``) or a
missing note (``dangling``), and an index pointing at every note under four
``## type`` sections. Reports the median wall time of ``mmlint check
--format json`` (interpreter start included) over ``--runs`` runs after one
warm-up, and the diagnostics count. This is a measurement script, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

TYPES = ("user", "feedback", "project", "reference")


def make_store(root: str, n: int, mode: str) -> None:
    os.makedirs(root, exist_ok=True)
    sections: dict[str, list[str]] = {t: [] for t in TYPES}
    for i in range(n):
        t = TYPES[i % 4]
        slug = f"{t}-note-{i}"
        link = f"[[{TYPES[(i + 1) % 4]}-note-{(i + 1) % n}]]" if mode == "all" else f"[[missing-{i}]]"
        extra = "scope: repo\n" if t in ("feedback", "project") else ""
        body = f"Fact number {i}. See {link}.\n"
        if t in ("feedback", "project"):
            body += "\n**Why:** because.\n\n**How to apply:** do it.\n"
        with open(os.path.join(root, slug + ".md"), "w", encoding="utf-8") as fh:
            fh.write(f"---\nname: {slug}\ndescription: note {i}\ntype: {t}\n{extra}created: 2026-01-01\nupdated: 2026-01-02\n---\n\n{body}")
        sections[t].append(f"- [N{i}]({slug}.md) — h")
    with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8") as fh:
        fh.write("# Memory Index\n")
        for t in TYPES:
            fh.write(f"\n## {t}\n" + "\n".join(sections[t]) + "\n")


def time_check(root: str, runs: int) -> tuple[float, float, float, int]:
    cmd = [sys.executable, "-m", "mmlint", "check", root, "--format", "json", "--profile", "upstream"]
    subprocess.run(cmd, capture_output=True)
    times = []
    out = b""
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True)
        times.append(time.perf_counter() - t0)
        out = proc.stdout
    count = len(json.loads(out)["diagnostics"])
    return statistics.median(times), min(times), max(times), count


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="200,2000")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--mode", choices=("all", "dangling"), default="all")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            root = os.path.join(tmp, f"store{n}-{args.mode}")
            make_store(root, n, args.mode)
            med, lo, hi, count = time_check(root, args.runs)
            print(f"N={n:>6} mode={args.mode:<8} median {med:.3f} s (min {lo:.3f}, max {hi:.3f}), {count} diagnostics")


if __name__ == "__main__":
    main()
