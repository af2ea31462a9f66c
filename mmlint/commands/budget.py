"""``mmlint budget``: index and per-note budget use, for any dialect.

The data is :func:`mmlint.budget.document`; :mod:`mmlint.reporters.budget`
prints it. Exit 0, or 1 when a store is over a hard cap (its index, or a
note's write budget), 2 when the store cannot be read.
"""

from __future__ import annotations

import argparse
import os
import sys

from mmlint.commands import (EXIT_FINDINGS, EXIT_OK, add_color_option, add_config_options, add_store_options,
                             check_store_options, say_found)

HELP = "index and per-note budget use (the mm spec's budget() fields), for any dialect"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``budget``."""
    p.add_argument("path", nargs="?", help="store folder (default: discovered from the current folder)")
    add_store_options(p)
    add_config_options(p)
    p.add_argument("--format", choices=("text", "json"), default="text", help="a table (default) or mmlint.budget/1 JSON")
    add_color_option(p)
    p.add_argument("--tokenizer", metavar="NAME", default=None,
                   help="count tokens with NAME: 'estimate' (default, no dependency) or 'tiktoken[:ENCODING]' "
                        "when the optional tiktoken package is installed")


def run(args: argparse.Namespace) -> int:
    """Print the budget document of one store."""
    from mmlint import api, budget
    from mmlint.reporters.budget import BudgetReporter

    check_store_options(args)
    found = api.locate([args.path] if args.path else [])
    say_found(found[0], bool(args.path))
    results = api.configured([f.path for f in found], args.dialect, args.profile, config=args.config, isolated=args.isolated)
    for res, f in zip(results, found):
        res.found = f
    from mmlint.errors import CheckError
    from mmlint.tokens import TokenizerUnavailable

    try:
        doc = budget.document(results, os.getcwd(), args.tokenizer)
    except TokenizerUnavailable as exc:
        raise CheckError(str(exc)) from None
    reporter = BudgetReporter(as_json=args.format == "json")
    reporter.color = args.color
    reporter.report(doc, sys.stdout, os.getcwd())
    return EXIT_FINDINGS if budget.over_hard_cap(doc) else EXIT_OK
