#!/usr/bin/env python3
"""Regenerate ``docs/convert-matrix.md``: every fixture and real store
converted to the five writers and back (A->B->A), with the outcome of each.

Usage (from the repository root, with mmlint installed)::

    python scripts/convert_matrix.py            # rewrite docs/convert-matrix.md
    python scripts/convert_matrix.py --check    # exit 1 when the doc is stale

Real stores are read from ``../shared/corpus`` (every folder holding a
``MEMORY.md``); without it only the fixtures are used and the doc says so.
Each conversion runs in a temporary folder; nothing else is written.
"""

from __future__ import annotations

import sys
import tempfile
from collections import Counter
from pathlib import Path

from mmlint import api, convert, dialects

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "convert-matrix.md"
CORPUS = ROOT.parent / "shared" / "corpus"
TARGETS = [("mm", None), ("engramory", "recall-v1"), ("engramory", "upstream"), ("engramory", "claude-code"), ("workspace", None)]
#: What the user supplies for a field a target requires (``--default``); a
#: conversion gets the ones its two dialects require.
DEFAULTS = {"type": "reference", "summary": "imported note", "created": "2026-01-01", "updated": "2026-01-01"}


def defaults_for(*ends: tuple[str, str | None]) -> dict[str, str]:
    """The :data:`DEFAULTS` of the fields either end of a round trip requires."""
    wanted: set[str] = set()
    for dialect, profile in ends:
        module = dialects.get(dialect)
        wanted |= set(module.required(profile)) if hasattr(module, "required") else set()
    return {k: v for k, v in DEFAULTS.items() if k in wanted}


def label(dialect: str, profile: str | None) -> str:
    """``mm``, ``engramory recall-v1``, ..."""
    return dialect + (f" {profile}" if profile else "")


def stores() -> list[tuple[str, Path]]:
    """``(name shown, folder)`` of every fixture, then every real store."""
    found = [(p.relative_to(ROOT).as_posix(), p) for p in sorted((ROOT / "fixtures").glob("*/*/store"))]
    if CORPUS.is_dir():
        found += [(p.relative_to(CORPUS).as_posix(), p) for p in sorted(m.parent for m in CORPUS.rglob("MEMORY.md"))]
    return found


def _usage_text(r: convert.Refusal) -> str:
    u = (r.usage or {}).get("index", r.usage or {})
    if "lineCap" in u:
        over = []
        if u["overflowLines"]:
            over.append(f"{u['lines']} lines > {u['lineCap']} (+{u['overflowLines']})")
        if u["overflowBytes"]:
            over.append(f"{u['bytes']} B > {u['byteCap']} (+{u['overflowBytes']})")
        past = u.get("pastCap", [])
        named = ", ".join(past[:5]) + (f" and {len(past) - 5} more" if len(past) > 5 else "")
        return ", ".join(over) + (f"; {len(past)} notes past the cap: {named}" if past else "")
    if "overflow" in u and u["overflow"]:
        return f"{u['bodyChars']} > {u['writeBudget']} code points (+{u['overflow']})"
    if "noteBytes" in u:
        return f"{u['noteBytes']} B > {u['noteMaxBytes']} B (+{u['noteBytes'] - u['noteMaxBytes']})"
    return r.message


def cell(rt: convert.RoundTrip) -> tuple[str, str]:
    """``(short cell text, outcome kind)`` for one A->B->A."""
    if not rt.there.written:
        codes = Counter(r.code for r in rt.there.refusals)
        return "refused: " + ", ".join(f"{c} ×{n}" if n > 1 else c for c, n in sorted(codes.items())), "refused"
    if not rt.back.written:
        codes = Counter(r.code for r in rt.back.refusals)
        return "back refused: " + ", ".join(f"{c} ×{n}" if n > 1 else c for c, n in sorted(codes.items())), "back refused"
    if rt.changed or not rt.same_paths:
        return "CHANGED: " + ", ".join(f"{p} {f}" for p, f in rt.changed[:3]), "changed"
    fills = len(rt.there.fills) + len(rt.back.fills)
    return ("ok ≡" if rt.same_bytes else "ok, bytes differ") + (f" ({fills} fills)" if fills else ""), "≡" if rt.same_bytes else "ok"


def differing(src, rt: convert.RoundTrip, workdir: str) -> list[str]:
    """The store files that A->B->A did not give back byte for byte."""
    back = dialects.get(src.dialect).read(str(Path(workdir) / "a"), src.profile)
    have = {p: r.data for p, r in src.files.items()}
    got = {p: r.data for p, r in back.files.items()}
    return sorted(p for p in set(have) | set(got) if have.get(p) != got.get(p))


def run() -> str:
    """The whole document."""
    rows, details, totals, inexact = [], [], Counter(), []
    by_source: dict[str, Counter] = {}
    for name, root in stores():
        dialect, profile, _ = api.choose(str(root))
        src = dialects.get(dialect).read(str(root), profile)
        cells = []
        for target in TARGETS:
            with tempfile.TemporaryDirectory() as tmp:
                rt = convert.round_trip(src, tmp, *target, defaults_for(target, (dialect, profile)))
                text, kind = cell(rt)
                if kind == "ok":
                    files = differing(src, rt, tmp)
                    inexact.append(f"| {name} | {label(*target)} | {len(files)} | {', '.join(files[:4])}"
                                   f"{' ...' if len(files) > 4 else ''} |")
            cells.append(text)
            totals[kind] += 1
            by_source.setdefault(label(dialect, profile), Counter())[(label(*target), kind)] += 1
            failed = rt.there if not rt.there.written else rt.back
            if failed is not None and not failed.written:
                for r in failed.refusals:
                    where = "A->B" if failed is rt.there else "B->A"
                    details.append(f"| {name} | {label(*target)} | {where} | {r.code} | {r.path}"
                                   f"{' [' + r.field + ']' if r.field else ''} | {_usage_text(r)} |")
        rows.append(f"| {name} | {label(dialect, profile)} | {len(src.notes)} | " + " | ".join(cells) + " |")
    heads = [label(*t) for t in TARGETS]
    out = ["# Conversion matrix: every store to every writer and back", "",
           "Generated by `python scripts/convert_matrix.py` (do not edit by hand; `--check` tells whether it is stale).",
           "Each cell is A->B->A: the store (dialect A) converted to the column's writer (B), read back,",
           "converted back to A and compared with the source: every field of every note, every note path,",
           "the index lines and every auxiliary file. Where a writer requires a field a note lacks, the",
           "conversion gets `--default` values (only for the fields its two ends require): " +
           ", ".join(f"`{k}={v}`" for k, v in DEFAULTS.items()) + ".", "",
           "- **ok ≡**: back byte for byte: every file of the store (index, notes, auxiliary files). The source",
           "  layout travels in `.mmlint-origin.json` (docs/convert.md \"The way back\"). **ok, bytes differ**:",
           "  the same values and paths back, but not the same bytes (listed under \"Not byte for byte\" with",
           "  the files); `(N fills)`: fields the plans filled in because a note lacked them (listed in each",
           "  plan, never a change; taken back when a note returns to its own bytes).",
           "- **refused**: A->B wrote nothing; **back refused**: B->A wrote nothing. The refusals table below",
           "  gives the reason with its numbers.", ""]
    if not CORPUS.is_dir():
        out += ["(../shared/corpus was absent when this was generated: fixtures only.)", ""]
    out += ["## Summary by source dialect (A) and writer (B)", "",
            "| A \\ B | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
    for source in sorted(by_source):
        counts = by_source[source]
        parts = []
        for h in heads:
            exact, ok = counts[(h, "≡")], counts[(h, "ok")]
            bad = {k: counts[(h, k)] for k in ("refused", "back refused", "changed") if counts[(h, k)]}
            parts.append(f"{exact} ≡" + (f", {ok} bytes differ" if ok else "") + "".join(f", {n} {k}" for k, n in bad.items()))
        out.append(f"| {source} | " + " | ".join(parts) + " |")
    out += ["", f"Totals over {len(rows)} stores × {len(TARGETS)} writers: " +
            ", ".join(f"{n} {k}" for k, n in sorted(totals.items())) + ".", "",
            "## Every store", "", "| store | A | notes | " + " | ".join(heads) + " |",
            "|---|---|---|" + "---|" * len(heads)] + rows
    out += ["", "## Not byte for byte", "",
            "Round trips written both ways that did not give back every byte (each is a named exception in",
            "docs/convert.md \"The way back\"):", ""]
    out += (["| store | B | files | which |", "|---|---|---|---|"] + inexact) if inexact else ["None: every round trip that is written both ways is byte for byte."]
    out += ["", "## Refusals", "",
            "What a user would read, and how far over which cap: the notes named are the ones to shorten,",
            "split or consolidate (for an index cap, `mmlint convert --dry-run --format json` lists every",
            "note past the cap in `usage.index.pastCap`).", "",
            "| store | B | step | code | note [field] | how far over |", "|---|---|---|---|---|---|"] + details
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write the doc, or with ``--check`` report whether it is current."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from docgen import write_or_check

    return write_or_check(DOC, run, __doc__.splitlines()[0], argv)


if __name__ == "__main__":
    sys.exit(main())
