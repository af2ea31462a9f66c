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


#: From this many diagnostics on, :func:`located` looks whether they are in
#: report order already (below it, building and sorting the list is cheap).
IN_ORDER_AT = 1000


def located(result: Any, cwd: str) -> list[Located] | InOrder:
    """Every diagnostic of ``result`` (a :class:`mmlint.api.CheckResult`) with
    its display path, in report order: path, line, column, rule code,
    message (findings on one line read left to right). Every reporter
    prints in this order.

    Returns a list, or, when only one store has diagnostics, at least
    :data:`IN_ORDER_AT` of them, already in that order (as a check sorts
    them) and display paths that sort as the store's paths do, an
    :class:`InOrder` that makes each item as it is iterated: the same
    items in the same order, without a :class:`Located` for every
    diagnostic at once (20,000 diagnostics: ~3.5 MiB of a check's peak
    memory, with the sort)."""
    from mmlint.results import display_paths

    full = [res for res in result.stores if res.diagnostics]
    if len(full) == 1 and len(full[0].diagnostics) >= IN_ORDER_AT:
        view = InOrder(full[0], display_paths(full[0].found.path, cwd))
        if view.in_order():
            return view
    from mmlint.diagnostic import sort_diagnostics

    items = []
    for res in full:
        show = display_paths(res.found.path, cwd)
        shown: dict[str, str] = {}  # path -> display path: one string per file
        for d in res.diagnostics:
            p = shown.get(d.span.path)
            if p is None:
                p = shown[d.span.path] = show(d.span.path)
            items.append(Located(p, d, res))
    sort_diagnostics(items, of=lambda x: x.diagnostic, path=lambda x: x.path)
    return items


class InOrder:
    """The :class:`Located` items of one store's diagnostics that are in
    report order as they are (:func:`located`), each made as it is
    iterated; iterable any number of times, with a length, but not a list
    (no indexing or slicing: ``list(view)`` makes one).

    ``show``: store path -> display path (:func:`mmlint.results.display_paths`).
    """

    __slots__ = ("_res", "_show")

    def __init__(self, res: Any, show: Any) -> None:
        self._res, self._show = res, show

    def __len__(self) -> int:
        return len(self._res.diagnostics)

    def __iter__(self) -> Any:
        res, show = self._res, self._show
        path = shown = None
        for d in res.diagnostics:
            if d.span.path != path:
                path = d.span.path
                shown = show(path)
            yield Located(shown, d, res)

    def in_order(self) -> bool:
        """Whether the diagnostics are sorted by
        :meth:`~mmlint.diagnostic.Diagnostic.sort_key` and their display
        paths rise strictly from one file to the next: then they are in
        report order as they are. Linear, no object kept per diagnostic."""
        ds, show = self._res.diagnostics, self._show
        if not ds:
            return True
        last = ds[0]
        shown = show(last.span.path)
        for d in ds[1:]:
            a, b = last.span, d.span
            if a.path != b.path:
                if a.path > b.path:
                    return False
                now = show(b.path)
                if now <= shown:
                    return False
                shown = now
            elif a.line != b.line:
                if a.line > b.line:
                    return False
            elif a.column != b.column:
                if a.column > b.column:
                    return False
            elif last.code != d.code:
                if last.code > d.code:
                    return False
            elif last.message > d.message:
                return False
            last = d
        return True


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
