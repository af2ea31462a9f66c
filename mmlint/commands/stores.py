"""``mmlint stores [--home DIR]``: every Claude Code store under
``<home>/.claude/projects/*/memory/``, its project, and which are stranded
(:mod:`mmlint.stores`). Exit 0, also when stores are flagged; 2 for a
``--home`` that is not a folder."""

from __future__ import annotations

import os
import sys

from mmlint.commands import EXIT_OK

TYPE_CHECKING = False  # a plain command line is parsed without argparse (mmlint.commands._fastargs)
if TYPE_CHECKING:
    import argparse

HELP = "list Claude Code stores under ~/.claude/projects with their projects; flag stranded and split ones"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``stores``."""
    p.add_argument("--home", metavar="DIR", help="home folder whose .claude/projects is listed (default: yours)")
    p.add_argument("--format", choices=("text", "json"), default="text")


def run(args: argparse.Namespace) -> int:
    """Print the stores document."""
    from mmlint import stores
    from mmlint.reporters import stores as out

    if args.home is not None and not os.path.isdir(args.home):  # a mistyped --home is not "no stores"
        from mmlint.errors import CheckError
        from mmlint.textutil import safe_path_text

        raise CheckError(f"--home {safe_path_text(args.home)}: not a folder")
    doc = stores.document(args.home)
    (out.print_json if args.format == "json" else out.print_text)(doc, sys.stdout)
    return EXIT_OK
