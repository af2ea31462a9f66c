"""``mmlint dump [PATH]``: print the model of a store as JSON
(``mmlint.store/1``, schema ``mmlint schema store``; :mod:`mmlint.storejson`)."""

from __future__ import annotations

import argparse
import json
import sys

from mmlint.commands import EXIT_OK, add_store_options, say_found

HELP = "print the model of a store as JSON (mmlint.store/1): notes with every field and its span, index, files"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``dump``."""
    p.add_argument("path", nargs="?", help="store folder (default: discovered from the current folder)")
    add_store_options(p)


def run(args: argparse.Namespace) -> int:
    """Read one store and print its document."""
    from mmlint import api, storejson

    found = api.locate([args.path] if args.path else [])[0]
    say_found(found, bool(args.path))
    res = api.read_store(found, args.dialect, args.profile)
    sys.stdout.write(json.dumps(storejson.document(res.store), ensure_ascii=False, indent=1) + "\n")
    return EXIT_OK
