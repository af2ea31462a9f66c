"""``mmlint schema [NAME] [--export DIR]``: print or export the JSON Schemas."""

from __future__ import annotations

import argparse
import json
import os

from mmlint.commands import EXIT_OK

HELP = "print a JSON Schema, or export them all"


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``schema``."""
    p.add_argument("name", nargs="?", help="schema name (default: list the names)")
    p.add_argument("--export", metavar="DIR", help="write every schema into DIR")


def run(args: argparse.Namespace) -> int:
    """List, print or export schemas; an unknown name is a usage error."""
    from mmlint import api
    from mmlint.validate import load_schema, schema_names

    if args.export:
        try:
            os.makedirs(args.export, exist_ok=True)
            for name in schema_names():
                with open(os.path.join(args.export, f"{name}.json"), "w", encoding="utf-8") as fh:
                    fh.write(json.dumps(load_schema(name), ensure_ascii=False, indent=2) + "\n")
        except OSError as exc:  # a file where the folder should be, a folder that cannot be made or written
            from mmlint.textutil import safe_path_text

            raise api.CheckError(f"--export {safe_path_text(args.export)}: {exc.strerror or exc}") from None
        print(f"wrote {len(schema_names())} schemas to {args.export}")
        return EXIT_OK
    if not args.name:
        for name in schema_names():
            print(f"{name}  {load_schema(name).get('title', '')}")
        return EXIT_OK
    try:
        print(json.dumps(load_schema(args.name), ensure_ascii=False, indent=2))
    except KeyError as exc:
        raise api.CheckError(exc.args[0]) from None
    return EXIT_OK
