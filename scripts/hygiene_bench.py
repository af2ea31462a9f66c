"""Time the hygiene rules (H101-H106) on synthetic stores of N notes.

Usage: ``python scripts/hygiene_bench.py [--sizes 2000,20000] [--runs 3] [--vocabulary 3000]``

Each store has N claude-code notes with varied bodies (60 words drawn,
seeded per note, from a vocabulary of ``--vocabulary`` words: 3,000 is
prose-like; a tiny one such as 40 makes every pair of notes share shingles,
the adversarial case for LSH, whose candidate pairs then grow with N²),
one near-duplicate pair per 100 notes, a backticked path per note,
and an index pointing at every note with a hook. The stores live in a git
checkout so H102 runs. Runs are interleaved across sizes (the machine is
shared: compare ratios, not absolute times). Reports the median of the
rule time (store already read) per size and the ratio to the smallest size.
This is a measurement script, not a test.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

WORDS = ("deploy build test cache index memory agent store note pointer branch merge release review schema "
         "config token budget window load session hook drift path stale project user feedback reference "
         "python rust docker staging database migration queue worker retry backoff metric alert pager").split()


def vocabulary(size: int) -> list[str]:
    """``size`` words: the base words, then made-up ones."""
    return (WORDS + [f"w{i}x" for i in range(max(0, size - len(WORDS)))])[:max(size, 1)]


def make_store(root: str, n: int, vocab: list[str] = WORDS) -> None:
    os.makedirs(os.path.join(root, ".git"), exist_ok=True)
    os.makedirs(os.path.join(root, "src"), exist_ok=True)
    lines = []
    for i in range(n):
        rnd = random.Random(i if i % 100 else i + 1)  # every 100th note copies its neighbour's words
        body = " ".join(rnd.choice(vocab) for _ in range(60))
        if i % 100 == 0:
            body += " extra"
        with open(os.path.join(root, f"note_{i}.md"), "w", encoding="utf-8") as fh:
            fh.write(f"---\nname: note_{i}\ndescription: note {i} about {WORDS[i % len(WORDS)]}\ntype: reference\n---\n\n"
                     f"{body}\n\nSee `src/mod_{i % 50}.py`; mail ops{i}@corp.io.\n")
        lines.append(f"- [N{i}](note_{i}.md) — note {i} about {WORDS[i % len(WORDS)]}")
    with open(os.path.join(root, "MEMORY.md"), "w", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def time_rules(root: str) -> tuple[float, int]:
    from mmlint import dialects, rules

    mod = dialects.get("engramory")
    store = mod.read(root, "claude-code")
    t0 = time.perf_counter()
    ds = rules.run(store, mod, rules.Options(select={"H"}))
    return time.perf_counter() - t0, len(ds)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="2000,20000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--vocabulary", type=int, default=3000, help="words the note bodies are drawn from")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory() as tmp:
        roots = {}
        for n in sizes:
            roots[n] = os.path.join(tmp, f"s{n}")
            make_store(roots[n], n, vocabulary(args.vocabulary))
        times: dict[int, list[float]] = {n: [] for n in sizes}
        counts = {}
        for _ in range(args.runs):
            for n in sizes:
                t, c = time_rules(roots[n])
                times[n].append(t)
                counts[n] = c
    base = statistics.median(times[sizes[0]])
    for n in sizes:
        med = statistics.median(times[n])
        print(f"{n:>7} notes: H rules {med:7.2f} s (median of {args.runs}), {counts[n]} findings, "
              f"x{med / base:.1f} for x{n / sizes[0]:.0f} notes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
