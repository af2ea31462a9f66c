"""Shared ``main`` of the scripts that generate a document under ``docs/``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Callable


def write_or_check(doc: Path, render: Callable[[], str], description: str, argv: list[str] | None = None) -> int:
    """Write ``render()`` to ``doc``; with ``--check`` only tell whether
    ``doc`` is current (exit 1 and a message on stderr when it is stale)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--check", action="store_true", help=f"exit 1 when {doc.name} is stale")
    args = parser.parse_args(argv)
    text = render()
    if args.check:
        if (doc.read_text(encoding="utf-8") if doc.exists() else "") != text:
            sys.stderr.write(f"{doc.name} is stale: run python {sys.argv[0]}\n")
            return 1
        return 0
    doc.parent.mkdir(exist_ok=True)
    doc.write_text(text, encoding="utf-8")
    print(f"wrote {doc}")
    return 0
