"""``mmlint rules``: the rule list (text, JSON or the markdown doc)."""

from __future__ import annotations

import json
import sys

from mmlint.commands import EXIT_OK

TYPE_CHECKING = False  # a plain command line is parsed without argparse (mmlint.commands._fastargs)
if TYPE_CHECKING:
    import argparse

HELP = "list every rule (code, name, severity, dialects)"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``rules``."""
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")


def run(args: argparse.Namespace) -> int:
    """Print every rule; exit 0."""
    from mmlint import ruledocs

    if args.format == "markdown":
        sys.stdout.write(ruledocs.markdown())
    elif args.format == "json":
        print(json.dumps(ruledocs.listing(), ensure_ascii=False, indent=2))
    else:
        for r in ruledocs.listing():
            dialects = r["dialects"] or ["all"]
            where = ",".join(d + ("[" + ",".join(r["profiles"]) + "]" if r["profiles"] and d == "engramory" else "")
                             for d in dialects)
            print(f"{r['code']}  {r['name']:<26} {r['severity']:<8} {where:<28} {ruledocs.plain(r['summary'])}")
    return EXIT_OK
