"""``mmlint merge SRC... DST``: merge whole stores of one dialect
(:mod:`mmlint.merging.stores`). Exit 0 when written (or a dry run would be),
1 when refused, 2 on a usage error."""

from __future__ import annotations

import argparse
import json
import os

from mmlint.commands import EXIT_FINDINGS, EXIT_OK

HELP = "merge whole stores of one dialect into DST (an existing store, or a new folder)"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``merge``."""
    p.add_argument("paths", nargs="+", metavar="SRC... DST", help="source stores, then the destination: an existing "
                   "store of the same dialect (merged into) or an absent or empty folder")
    p.add_argument("--resolve", choices=("first", "last", "rename"),
                   help="how to resolve slug and name collisions: keep the first store's note, the last one's, or "
                        "rename the later note to <stem>-2.md (default: refuse)")
    p.add_argument("--dialect", help="dialect of the stores (overrides detection)")
    p.add_argument("--profile", help="engramory profile of the stores (overrides detection)")
    p.add_argument("--dry-run", action="store_true", help="plan and verify in memory; write nothing")
    p.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    """Read the stores, merge, print what was done."""
    from mmlint import api
    from mmlint.merging.stores import merge_stores

    if len(args.paths) < 2:
        raise api.CheckError("merge needs at least one SRC and a DST")
    *srcs, dst = args.paths
    results = [api.read_store(f, args.dialect, args.profile) for f in api.locate(srcs)]
    stores = [r.store for r in results]
    dst = os.path.abspath(dst)
    if any(s.root == dst for s in stores):
        stores.sort(key=lambda s: s.root != dst)  # DST named among the sources: it goes first, once
    elif os.path.isdir(dst) and os.listdir(dst):
        first = results[0]
        into = api.read_store(api.locate([dst])[0], first.dialect, first.profile).store
        stores.insert(0, into)
    try:
        plan = merge_stores(stores, dst, args.resolve, args.dry_run)
    except ValueError as exc:
        raise api.CheckError(str(exc)) from None
    if args.format == "json":
        print(json.dumps(document(plan, args.dry_run), ensure_ascii=False, indent=2))
    else:
        print_text(plan, args.dry_run)
    return EXIT_OK if plan.ok else EXIT_FINDINGS


def document(plan, dry_run: bool) -> dict:
    """The ``mmlint.merge/1`` JSON document of a :class:`mmlint.merging.stores.StoreMerge`."""
    from mmlint import __version__

    return {"format": "mmlint.merge/1", "tool": {"name": "mmlint", "version": __version__}, "dryRun": dry_run,
            "sources": plan.sources, "dest": plan.dest, "dialect": plan.dialect, "profile": plan.profile,
            "written": plan.written, "files": {p: {"store": r, "path": s} for p, (r, s) in plan.files.items()},
            "keptOnce": [{"path": p, "stores": r} for p, r in plan.kept_once],
            "dropped": [{"store": r, "path": p, "reason": why} for r, p, why in plan.dropped],
            "renamed": [{"store": r, "from": a, "to": b} for r, a, b in plan.renamed],
            "nameCollisions": [{"name": n, "notes": [{"store": r, "path": p} for r, p in where]} for n, where in plan.name_collisions],
            "refusals": [{"code": r.code, "path": r.path, "message": r.message, "usage": r.usage} for r in plan.refusals]}


def print_text(plan, dry_run: bool) -> None:
    """A summary of the merge, or its refusals with their metrics."""
    from mmlint.reporters.plan import usage_text
    from mmlint.textutil import echo, safe_path_text as sp

    if plan.refusals:
        print(f"refused: nothing written to {sp(plan.dest)}")
        for r in plan.refusals:
            print(f"  {r.code} {sp(r.path)}: {sp(r.message)}")  # a sentence, not a value: escaped, not quoted
            if r.usage:
                print(f"    usage: {usage_text(r.usage)}")
        return
    notes = sum(1 for p in plan.files if p != "MEMORY.md")
    verb = "would merge" if dry_run else "merged"
    count = f"{len(plan.sources)} {plan.dialect} store{'s' if len(plan.sources) != 1 else ''}"
    print(f"{verb} {count} into {sp(plan.dest)}: {notes} files and the index")
    for path, roots in plan.kept_once:
        print(f"  kept once (identical): {sp(path)}")
    for root, path, why in plan.dropped:
        print(f"  dropped {sp(path)} of {sp(root)} ({why})")
    for root, a, b in plan.renamed:
        print(f"  renamed {sp(a)} of {sp(root)} to {sp(b)}")
    for name, where in plan.name_collisions:
        print(f"  same name {echo(name)} kept in " + ", ".join(sp(p) for _, p in where))
