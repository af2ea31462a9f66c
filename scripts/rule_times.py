"""Time each rule of a cold check, in-process, on a bench store.

Usage: ``python scripts/rule_times.py [--notes 2000] [--runs 5] [--top 25] [--store PATH]``

Builds ``scripts/bench.make_store(root, N, "plain")`` (or reads ``--store``),
reads it once per run (its read time is printed too), then runs every rule
that applies, in registry order as the engine does, on a fresh
:class:`mmlint.rules.Context` (so per-run memos in ``ctx.cache`` are
charged to the first rule that fills them), with the garbage collector
paused as in ``rules.run``. Prints per rule the median milliseconds over
the runs, the total of all rules, and the time of ``rules.run`` itself
(rules + stamping + suppressions + sorting). A measurement script, not a
test: absolute times depend on the load of the machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(__file__))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    ap.add_argument("--notes", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--top", type=int, default=25, help="rules to list (0: all)")
    ap.add_argument("--store", help="an existing store instead of a bench store")
    ap.add_argument("--profile", default="upstream")
    args = ap.parse_args(argv)

    from mmlint import api, rules
    from mmlint.discover import find_store
    from mmlint.gcpause import gc_paused

    with tempfile.TemporaryDirectory() as tmp:
        root = args.store
        if root is None:
            import bench

            root = os.path.join(tmp, "store")
            bench.make_store(root, args.notes, "plain")
        per: dict[str, list[float]] = {}
        reads, engine = [], []
        for _ in range(args.runs):
            found = find_store(root)
            t0 = time.perf_counter()
            with gc_paused():
                res = api.read_store(found, None if args.store else "engramory", None if args.store else args.profile)
            reads.append(time.perf_counter() - t0)
            store = res.store
            from mmlint import dialects

            dialect = dialects.get(store.dialect)
            opts = rules.Options()
            ctx = rules.Context(store, dialect, opts)
            with gc_paused():
                for r in rules.load().values():
                    if r.func is None or not rules.runs_on(r, store, opts):
                        continue
                    t = time.perf_counter()
                    for _f in r.func(ctx):
                        pass
                    per.setdefault(r.code, []).append(time.perf_counter() - t)
            t = time.perf_counter()
            rules.run(store, dialect, opts)
            engine.append(time.perf_counter() - t)
    med = {c: statistics.median(v) * 1000 for c, v in per.items()}
    order = sorted(med, key=med.get, reverse=True)
    shown = order if args.top == 0 else order[: args.top]
    print(f"notes={args.notes if not args.store else args.store} runs={args.runs}")
    print(f"read (api.read_store)      {statistics.median(reads) * 1000:8.1f} ms")
    print(f"rules.run (whole engine)   {statistics.median(engine) * 1000:8.1f} ms")
    print(f"sum of rule functions      {sum(med.values()):8.1f} ms over {len(med)} rules")
    rest = sum(med[c] for c in order[len(shown):])
    for c in shown:
        print(f"  {c:6} {rules.REGISTRY[c].name:40} {med[c]:8.2f} ms")
    if rest:
        print(f"  ({len(order) - len(shown)} more rules: {rest:.1f} ms)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
