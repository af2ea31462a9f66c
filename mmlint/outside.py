"""Questions a check asks the file system beyond the store's walked tree,
noted for the result cache.

The result cache (:mod:`mmlint.cache`) answers an unchanged store from the
``stat`` of its tree. Two kinds of finding depend on more than that tree:

* H102 (stale-path) asks whether the paths notes cite exist in the project
  around the store (:func:`project_root` and the ``lexists``/``isdir`` of
  each cited path there);
* the pointer resolver (:mod:`mmlint.resolve`) asks about a pointer target
  in a folder the walk does not enter (``.obsidian/``, ``.claude/``,
  ``node_modules/`` ...): its real path, and whether it is a folder, a file
  or a dangling link.

Such questions go through the functions here, which answer exactly as
:mod:`os.path` does and, while :func:`noting` is active (a cached check
that is recording), note each ``(kind, argument, answer)``. The cache keeps
the notes in its entry and a later check is a hit only when :func:`holds`
finds every answer unchanged; a store without such questions pays nothing.

This module imports nothing but :mod:`os` and :mod:`typing` at load (and
:mod:`contextvars` when noting starts): the cache's hit path imports it.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # typing is imported by type checkers only (~2 ms at start-up)
if TYPE_CHECKING:
    from typing import Any

#: The notes of the active :class:`noting` (a ``contextvars.ContextVar``),
#: made on first use: a cache hit, which only calls :func:`holds`, does
#: not import :mod:`contextvars`.
_NOTES: Any = None


class noting:
    """``with noting() as notes:`` notes every question asked through this
    module inside the block (this thread/context only). ``notes`` is a dict
    ``(kind, argument) -> answer`` (answers are ``bool``, ``str`` or
    ``None``)."""

    def __init__(self) -> None:
        self.notes: dict = {}
        self._token: Any = None

    def __enter__(self) -> dict:
        global _NOTES
        if _NOTES is None:
            from contextvars import ContextVar

            _NOTES = ContextVar("mmlint_outside_notes", default=None)
        self._token = _NOTES.set(self.notes)
        return self.notes

    def __exit__(self, *exc: Any) -> None:
        _NOTES.reset(self._token)


def _note(kind: str, arg: str, answer: Any) -> Any:
    notes = _NOTES.get() if _NOTES is not None else None
    if notes is not None:
        notes[(kind, arg)] = answer
    return answer


def lexists(path: str) -> bool:
    """:func:`os.path.lexists`, noted."""
    return _note("lexists", path, os.path.lexists(path))


def isdir(path: str) -> bool:
    """:func:`os.path.isdir`, noted."""
    return _note("isdir", path, os.path.isdir(path))


def isfile(path: str) -> bool:
    """:func:`os.path.isfile`, noted."""
    return _note("isfile", path, os.path.isfile(path))


def realpath(path: str) -> str:
    """:func:`os.path.realpath`, noted (raises as it does)."""
    return _note("realpath", path, os.path.realpath(path))


def project_root(store_root: str) -> str | None:
    """:func:`mmlint.projects.project_root` of ``store_root``, noted: for a
    Claude Code project store the decoded project (kind ``"claude"``, the
    encoded folder name), else the nearest git checkout (kind ``"repo"``)."""
    from mmlint.projects import claude_project_of

    name = claude_project_of(store_root)
    if name is not None:
        return _note("claude", name, _claude(name))
    from mmlint.discover import repo_root

    return _note("repo", os.path.abspath(store_root), repo_root(store_root))


def _claude(name: str) -> str | None:
    from mmlint.projects import decode_project

    found = decode_project(name)
    return found[0] if len(found) == 1 else None


def current() -> dict | None:
    """The notes of the active :func:`noting` in this context (``None``
    when none is active): what a forked worker (:mod:`mmlint.parallel`)
    sends back for :func:`merge` into its parent's notes."""
    return _NOTES.get() if _NOTES is not None else None


def merge(notes: dict | None) -> None:
    """Add ``notes`` (a worker's :func:`current`) to the active
    :func:`noting`, if any."""
    mine = current()
    if mine is not None and notes:
        mine.update(notes)


def dump(notes: dict) -> list[list]:
    """The notes of :func:`noting` as JSON-ready ``[kind, argument, answer]``
    rows (sorted)."""
    return sorted([k, a, v] for (k, a), v in notes.items())


def holds(rows: list) -> bool:
    """Whether every row of :func:`dump` still gets the same answer. A
    question that now raises, or a row of an unknown kind, does not hold."""
    for kind, arg, answer in rows:
        try:
            if kind == "lexists":
                now: Any = os.path.lexists(arg)
            elif kind == "isdir":
                now = os.path.isdir(arg)
            elif kind == "isfile":
                now = os.path.isfile(arg)
            elif kind == "realpath":
                now = os.path.realpath(arg)
            elif kind == "repo":
                from mmlint.discover import repo_root

                now = repo_root(arg)
            elif kind == "claude":
                now = _claude(arg)
            else:
                return False
        except (OSError, ValueError):
            return False
        if now != answer:
            return False
    return True
