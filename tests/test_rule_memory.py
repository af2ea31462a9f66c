"""What the store-wide rules allocate on top of the store (issue 9 item 4):
measured with tracemalloc around each rule on a generated store, as a
ratio to what the read store itself holds, never in absolute bytes."""

from __future__ import annotations

import gc
import tracemalloc

from mmlint import api, dialects, rules
from mmlint.discover import find_store

N = 1000
TYPES = ("user", "feedback", "project", "reference")
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau".split()


def _store(root):
    """``N`` upstream notes, each linking to the next, each with a few
    sentences of distinct words (a dozen or more shingles a note)."""
    root.mkdir()
    sections: dict[str, list[str]] = {t: [] for t in TYPES}
    for i in range(N):
        t = TYPES[i % 4]
        slug = f"{t}-note-{i}"
        words = " ".join(f"{WORDS[(i * 7 + k) % len(WORDS)]}{(i * 31 + k) % 997}" for k in range(14))
        body = f"Fact number {i}: {words}. See [[{TYPES[(i + 1) % 4]}-note-{(i + 1) % N}]] and [n](./{slug}.md).\n"
        (root / f"{slug}.md").write_text(
            f"---\nname: {slug}\ndescription: note {i} about {WORDS[i % len(WORDS)]}\ntype: {t}\n"
            f"created: 2026-01-01\nupdated: 2026-01-02\n---\n\n{body}", encoding="utf-8")
        sections[t].append(f"- [N{i}]({slug}.md) — h")
    (root / "MEMORY.md").write_text(
        "# Memory Index\n" + "".join(f"\n## {t}\n" + "\n".join(v) + "\n" for t, v in sections.items()), encoding="utf-8")
    return root


def _rule_peaks(root, codes):
    """``(bytes the read store holds, {code: peak bytes over the live size before the rule})``,
    running every applicable rule in registry order on one context, as the engine does."""
    api.read_store(find_store(str(root)), "engramory", "upstream")  # the modules a read imports are not the store
    gc.collect()
    tracemalloc.start()
    try:
        store = api.read_store(find_store(str(root)), "engramory", "upstream").store
        gc.collect()
        held = tracemalloc.get_traced_memory()[0]
        opts = rules.Options()
        ctx = rules.Context(store, dialects.get(store.dialect), opts)
        peaks = {}
        for r in rules.load().values():
            if r.func is None or not rules.runs_on(r, store, opts):
                continue
            before = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            for _ in r.func(ctx):
                pass
            if r.code in codes:
                peaks[r.code] = tracemalloc.get_traced_memory()[1] - before
        return held, peaks
    finally:
        tracemalloc.stop()


def test_store_wide_rules_allocate_little_beside_the_store(tmp_path):
    held, peaks = _rule_peaks(_store(tmp_path / "s"), {"H101", "P106"})
    # H101 kept a set of ints per note plus a dict of every shingle's
    # frequency (~1.9x the store); it now keeps a sorted array per note, a
    # count table, and indexes only shingles counted more than once (~0.15x
    # on this store; ~0.27x when it indexed every prefix shingle). The store
    # it is compared with then shrank (a read keeps 2,570 -> 2,120 B a note):
    # the same peak is ~0.25x of it.
    assert peaks["H101"] < 0.3 * held, (peaks, held)
    # P106 kept a Ref with its own Resolution for every link, all of them
    # alive at once, the five wikilink tables and a set per linked note
    # (~0.33x); it now keeps only the links that reach no note and one path
    # per linked note, and builds the tables past the stems on a miss (~0.11x).
    assert peaks["P106"] < 0.25 * held, (peaks, held)
