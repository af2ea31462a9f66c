"""Reporters: one class per output format, looked up by name.

``REPORTERS`` maps a ``--format`` name to ``"module:Class"``; the module is
imported only when that format is used (``--format json`` never imports
rich). A reporter gets a complete, sorted result and writes it; it never
filters, sorts or checks.
"""

from __future__ import annotations

import importlib
from typing import Any, TextIO

REPORTERS: dict[str, str] = {
    "text": "mmlint.reporters.text:TextReporter",
    "json": "mmlint.reporters.json:JsonReporter",
}


def get(name: str) -> Any:
    """An instance of the reporter for format ``name``.

    Raises:
        KeyError: unknown format (the message lists the known ones).
    """
    target = REPORTERS.get(name)
    if target is None:
        raise KeyError(f"unknown format {name!r}; formats: {', '.join(REPORTERS)}")
    module, _, cls = target.partition(":")
    return getattr(importlib.import_module(module), cls)()


class Reporter:
    """Base class: ``report(result, stream, cwd)`` writes one check result."""

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:  # pragma: no cover - interface
        raise NotImplementedError
