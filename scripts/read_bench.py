"""Time and weigh the reading of a store, in process (issue 9 items 2 and 4).

For each size, on the benchmark's generated ``plain`` upstream store
(:func:`bench.make_store`), prints the best of ``--runs`` of: detection
(``api.choose`` with ``--profile upstream``), the read (``api._read``: walk,
notes, index, pointers), and its parts (``walk.walk_store``, every note's
``read_note``, the index's ``read_index``), with the garbage collector off
as a check runs them; then the bytes still allocated after one read
(tracemalloc), per note, and the lines that hold most of them.

    .venv/bin/python scripts/read_bench.py --sizes 2000,20000

Absolute times depend on the machine and its load; compare two checkouts
in the same session (``PYTHONPATH=<other checkout> python scripts/read_bench.py``).
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
import tracemalloc

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bench  # noqa: E402

from mmlint import api, walk  # noqa: E402
from mmlint.dialects import _fmnote  # noqa: E402
from mmlint.dialects import engramory as eng  # noqa: E402


def _best(f, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        gc.disable()
        t = time.perf_counter()
        f()
        best = min(best, time.perf_counter() - t)
        gc.enable()
        gc.collect()
    return best * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="2000,20000")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--top", type=int, default=8, help="allocation lines shown")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for n in (int(x) for x in args.sizes.split(",")):
            root = os.path.join(tmp, f"s{n}")
            bench.make_store(root, n, "plain")
            found = api.locate([root])[0]
            name, prof, ev = api.choose(found.path, None, "upstream")
            w = walk.walk_store(found.path, eng.SKIP_TOP)
            notes = [(p, r.data) for p, r in w.files.items() if p != "MEMORY.md"]
            index = w.files["MEMORY.md"].data
            rows = {
                "detect": _best(lambda: api.choose(found.path, None, "upstream"), args.runs),
                "read": _best(lambda: api._read(found, None, name, prof, ev), args.runs),
                "  walk": _best(lambda: walk.walk_store(found.path, eng.SKIP_TOP), args.runs),
                "  notes": _best(lambda: [_fmnote.read_note(p, d, eng.KEYMAP, eng.NAME, eng.slug_of(p), ()) for p, d in notes],
                                 args.runs),
                "  index": _best(lambda: eng.read_index("MEMORY.md", index, prof), args.runs),
            }
            print(f"{n} notes: " + ", ".join(f"{k.strip()} {v:.1f} ms" for k, v in rows.items()), flush=True)
            gc.collect()
            tracemalloc.start()
            before = tracemalloc.get_traced_memory()[0]
            res = api._read(found, None, name, prof, ev)
            gc.collect()
            live = tracemalloc.get_traced_memory()[0] - before
            snap = tracemalloc.take_snapshot()
            tracemalloc.stop()
            print(f"  live after the read: {live / 2**20:.1f} MiB = {live / n:.0f} B a note")
            for stat in snap.statistics("lineno")[: args.top]:
                print(f"    {stat.size / 2**20:6.1f} MiB  {stat.count:7d}  {stat.traceback[0]}")
            del res


if __name__ == "__main__":
    main()
