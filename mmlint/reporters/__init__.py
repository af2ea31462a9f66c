"""Reporters: one class per output format, looked up by name.

``REPORTERS`` maps a ``--format`` name to ``"module:Class"``; the module is
imported only when that format is used (``--format json`` never imports
rich). A reporter gets a complete result and writes it; it never filters,
sorts or checks. :func:`located` gives every reporter the same diagnostics in
the same order, so the formats agree line for line.
"""

from __future__ import annotations

import re
import sys
from collections import namedtuple

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any, TextIO

REPORTERS: dict[str, str] = {
    "text": "mmlint.reporters.text:TextReporter",
    "json": "mmlint.reporters.json:JsonReporter",
    "json-lines": "mmlint.reporters.json_lines:JsonLinesReporter",
    "sarif": "mmlint.reporters.sarif:SarifReporter",
    "github": "mmlint.reporters.github:GithubReporter",
    "junit": "mmlint.reporters.junit:JunitReporter",
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
    __import__(module)  # importlib.import_module for an absolute name, without importing importlib
    return getattr(sys.modules[module], cls)()


def use_color(stream: Any, mode: str = "auto", env: Any = None) -> bool:
    """Whether to colour output on ``stream``.

    ``mode`` is ``--color``: ``always`` and ``never`` decide; ``auto`` colours
    a terminal, except that a non-empty ``NO_COLOR`` turns colour off
    (no-color.org) and otherwise a ``FORCE_COLOR`` other than empty, ``0`` or
    ``false`` turns it on even when the stream is not a terminal.
    """
    import os

    if mode == "always":
        return True
    if mode == "never":
        return False
    env = os.environ if env is None else env
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR", "").strip().lower() not in ("", "0", "false"):
        return True
    return bool(hasattr(stream, "isatty") and stream.isatty())


class Reporter:
    """Base class: ``report(result, stream, cwd)`` writes one check result.

    ``color`` (``--color``: ``auto``, ``always``, ``never``) and ``quiet``
    (``--quiet``: diagnostics only) are set by the command; reporters of
    machine formats ignore both.
    """

    color: str = "auto"
    quiet: bool = False

    def report(self, result: Any, stream: TextIO, cwd: str) -> None:  # pragma: no cover - interface
        """Write ``result`` (a :class:`mmlint.api.CheckResult`) to ``stream``;
        paths are shown relative to ``cwd``."""
        raise NotImplementedError


class Located(namedtuple("Located", ("path", "diagnostic", "store"))):
    """One diagnostic placed for display (an immutable
    :func:`collections.namedtuple`).

    Attributes:
        path: the diagnostic's file, relative to the current directory, with
            ``/`` separators (:func:`mmlint.api.display_path`). Raw store text:
            each format escapes it its own way.
        diagnostic: the :class:`mmlint.rules.Diagnostic`.
        store: the :class:`mmlint.api.StoreResult` it was found in.
    """

    __slots__ = ()


def located(result: Any, cwd: str) -> list[Located]:
    """Every diagnostic of ``result`` (a :class:`mmlint.api.CheckResult`) with
    its display path, in report order: path, line, column, rule code,
    message (findings on one line read left to right). Every reporter
    prints in this order."""
    from mmlint.results import display_path

    shown: dict[tuple[str, str], str] = {}  # (store root, path) -> display path: one relpath per file

    def where(res: Any, d: Any) -> str:
        key = (res.found.path, d.span.path)
        p = shown.get(key)
        if p is None:
            p = shown[key] = display_path(res.found.path, d.span, cwd)
        return p

    from mmlint.diagnostic import sort_diagnostics

    items = [Located(where(res, d), d, res) for res in result.stores for d in res.diagnostics]
    sort_diagnostics(items, of=lambda x: x.diagnostic, path=lambda x: x.path)
    return items


def store_path(res: Any, cwd: str) -> str:
    """The root of ``res`` (a :class:`mmlint.api.StoreResult`) relative to
    ``cwd``, with ``/`` separators (``"."`` when it is ``cwd``)."""
    from mmlint.results import display_path
    from mmlint.span import Span

    return display_path(res.found.path, Span("."), cwd)


def _char_escape(m: re.Match) -> str:
    o = ord(m.group())
    if 0xDC80 <= o <= 0xDCFF:  # an undecodable byte kept by mmlint.textutil.decode
        return f"\\x{o - 0xDC00:02x}"
    return f"\\x{o:02x}" if o < 0x100 else f"\\u{o:04x}"


def escape_chars(text: str, chars: re.Pattern) -> str:
    """``text`` with each character that ``chars`` (a one-character pattern)
    matches written as backslash text: ``\\xNN`` for a file-name byte that is
    not UTF-8 (a surrogate escape) and for code points below 256, ``\\uNNNN``
    above. Everything else is left as it is."""
    return chars.sub(_char_escape, text)
