""":class:`Span`, a place in a store: shared by the model, the rules and the
reporters.

It lives in a module that imports nothing of mmlint (and no
:mod:`dataclasses`), so that a check answered by the result cache
(:mod:`mmlint.cache`) can report its diagnostics without loading the model.
:mod:`mmlint.model` re-exports it.
"""

from __future__ import annotations

from collections import namedtuple


class Span(namedtuple("Span", ("path", "line", "column", "end_line", "end_column"), defaults=(1, 1, None, None))):
    """A place in a store: ``path`` (POSIX, relative to the store root),
    1-based ``line`` and ``column`` (column counted in code points), and an
    optional end (inclusive line, exclusive column).

    Immutable, hashable and ordered by ``(path, line, column, end_line,
    end_column)``. Fields: ``path: str``, ``line: int = 1``, ``column: int =
    1``, ``end_line: int | None = None``, ``end_column: int | None = None``.

    A :func:`collections.namedtuple` (what ``typing.NamedTuple`` builds,
    without importing :mod:`typing` on a check's path)."""

    __slots__ = ()
