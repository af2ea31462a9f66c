"""``mmlint rule CODE|NAME``: one rule's documentation, as plain text."""

from __future__ import annotations

import argparse
import sys

from mmlint.commands import EXIT_OK

HELP = "explain one rule: what it finds, why it matters, a bad and a good example"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``rule``."""
    p.add_argument("rule", metavar="CODE|NAME")


def run(args: argparse.Namespace) -> int:
    """Print the rule's doc; an unknown rule is a usage error."""
    from mmlint import api, ruledocs, rules

    r = rules.lookup(args.rule)
    if r is None:
        from mmlint.suggest import did_you_mean, rule_names

        raise api.CheckError(f"unknown rule {args.rule!r}{did_you_mean(args.rule, rule_names())}; 'mmlint rules' lists them")
    sys.stdout.write(ruledocs.explain(r))
    return EXIT_OK
