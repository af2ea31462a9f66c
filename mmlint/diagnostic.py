""":class:`Diagnostic`, the unit every reporter prints.

Kept apart from the rule engine (:mod:`mmlint.rules`, which re-exports it)
and free of :mod:`dataclasses`, so that a check answered by the result cache
(:mod:`mmlint.cache`) builds its diagnostics without importing any rule.
"""

from __future__ import annotations


TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any


class Diagnostic:
    """A finding stamped with its rule.

    Attributes:
        code, name: the rule's code (``P101``) and kebab-case name.
        severity: ``"error"``, ``"warning"`` or ``"info"``.
        span: a :class:`mmlint.span.Span`; ``span.path`` is relative to the
            store root.
        message: one line, already escaped for display.
        hint: what to do about it, or ``None``.
        fix: what reporters show (``{"applicability": "safe"|"unsafe",
            "message": str}``) or ``None``.
        edits: the change itself (store-relative POSIX path -> the file's
            new bytes), used by ``--fix`` and ``--diff``, never printed;
            left out of equality and ``repr``.
        anchor: names the finding for baselines when its line's text does
            not (``None``: the line's text identifies it).

    Two diagnostics are equal when every attribute but ``edits`` is; a
    diagnostic is mutable and not hashable.
    """

    __slots__ = ("code", "name", "severity", "span", "message", "hint", "fix", "edits", "anchor")
    _COMPARED = ("code", "name", "severity", "span", "message", "hint", "fix", "anchor")
    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __init__(self, code: str, name: str, severity: str, span: Any, message: str, hint: str | None = None,
                 fix: dict[str, Any] | None = None, edits: dict[str, bytes] | None = None, anchor: str | None = None):
        self.code = code
        self.name = name
        self.severity = severity
        self.span = span
        self.message = message
        self.hint = hint
        self.fix = fix
        self.edits = edits
        self.anchor = anchor

    def _compared(self) -> tuple:
        return tuple(getattr(self, a) for a in self._COMPARED)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._compared() == other._compared()  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        inner = ", ".join(f"{a}={getattr(self, a)!r}" for a in self._COMPARED)
        return f"Diagnostic({inner})"

    def sort_key(self) -> tuple:
        """The report order: path, line, column, rule code, then message to
        make it total (DESIGN "Rules and reports" orders by path, line and
        rule id; findings on one line are read left to right, as ruff does)."""
        return (self.span.path, self.span.line, self.span.column, self.code, self.message)


def sort_diagnostics(items: list[Any], of: Any = None, path: Any = None) -> None:
    """Sort ``items`` in place by :meth:`Diagnostic.sort_key` of ``of(item)``
    (default: the item), with ``path(item)`` in place of its span's path
    when given (a reporter's display path): the same order as one sort by
    that whole key, made by one stable sort per part of the key, least
    significant first. Each of those sorts takes keys the diagnostics
    already hold, where one sort by the whole key builds a tuple per item
    (20,000 diagnostics: ~1.6 MiB at once, at the peak of a check)."""
    get = (lambda x: x) if of is None else of
    items.sort(key=lambda x: get(x).message)
    items.sort(key=lambda x: get(x).code)
    items.sort(key=lambda x: get(x).span.column)
    items.sort(key=lambda x: get(x).span.line)
    items.sort(key=(lambda x: get(x).span.path) if path is None else path)
