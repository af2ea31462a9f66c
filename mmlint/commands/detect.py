"""``mmlint detect``: a store's dialect and profile, with the evidence."""

from __future__ import annotations

import argparse
import json

from mmlint.commands import EXIT_OK, add_store_options, say_found

HELP = "tell a store's dialect and profile, with the evidence"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``detect``."""
    p.add_argument("path", nargs="?", help="store folder (default: discovered from the current folder)")
    add_store_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    """Print dialect, profile and evidence of one store; exit 0."""
    from mmlint import api

    found = api.locate([args.path] if args.path else [])[0]
    say_found(found, bool(args.path))
    name, profile, ev = api.choose(found.path, args.dialect, args.profile)
    reasons = ev.reasons if ev is not None else ["forced by --dialect/--profile"]
    if args.format == "json":
        print(json.dumps({"path": found.path, "dialect": name, "profile": profile, "evidence": reasons}, ensure_ascii=False, indent=2))
    else:
        from mmlint.textutil import printable

        print(f"{printable(found.path)}: {name}" + (f" (profile {profile})" if profile else ""))
        for r in reasons:
            print(f"  - {printable(r)}")
    return EXIT_OK
