"""Run ``mmlint check`` over every store in ../shared/corpus and summarise.

Usage: ``python scripts/corpus_report.py [CORPUS_DIR]`` -> one markdown table
row per store (files, errors, warnings, infos, top rule codes), then the
totals per rule code. A store is any folder holding a ``MEMORY.md``.
"""

from __future__ import annotations

import collections
import os
import sys

from mmlint import api


def main() -> None:
    corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "shared", "corpus")
    corpus = os.path.abspath(corpus)
    roots = sorted(dp for dp, _, files in os.walk(corpus) if "MEMORY.md" in files)
    totals: collections.Counter = collections.Counter()
    print("| store | dialect | files | errors | warnings | infos | top rules |")
    print("|---|---|---|---|---|---|---|")
    for root in roots:
        try:
            res = api.check([root]).stores[0]
        except api.CheckError as exc:
            print(f"| {os.path.relpath(root, corpus)} | could not check: {exc} | | | | | |")
            continue
        sev = collections.Counter(d.severity for d in res.diagnostics)
        codes = collections.Counter(d.code for d in res.diagnostics)
        totals.update(codes)
        top = ", ".join(f"{c}×{n}" for c, n in codes.most_common(5))
        prof = f" ({res.profile})" if res.profile else ""
        print(f"| {os.path.relpath(root, corpus)} | {res.dialect}{prof} | {res.files} | {sev['error']} | {sev['warning']} | {sev['info']} | {top} |")
    print()
    print("totals per rule: " + ", ".join(f"{c}×{n}" for c, n in sorted(totals.items())))


if __name__ == "__main__":
    main()
